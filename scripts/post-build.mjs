#!/usr/bin/env node
// Trunk's post_build hook (Trunk.toml), run on the finished build before it becomes dist/:
//
// 0. The app's data files (src/bin/data-files.rs, issue 38), then the first diagram at first paint (issue 25): src/bin/first-paint.rs pre-draws every
//    built-in at its start and key moments with the CLI's drawing code into paint-HASH/, and
//    the first one into index.html (a native build of the binary, dev profile: seconds once
//    built). First, so that the policy below hashes the page as it is served.
//    Then the wasm-bindgen JS glue minified by terser (0a: Trunk's minifier cannot).
//    Then the app's files asked for at once: the stylesheets but diagram.css joined into one,
//    the wasm's preload and the JS's modulepreloads before the stylesheets (see requestSooner).
//    Then the embeds' player (issue 38, 0c below): its files named by their hash, and one inline
//    script that picks the player's or the app's wasm, JS and stylesheet for the page and asks
//    for them (in place of Trunk's preloads), which Trunk's start-up module then imports.
// 1. A Content-Security-Policy <meta> in each page, first thing in <head>. Trunk writes an inline
//    bootstrap <script type="module"> into index.html, and docs/embed-example.html has an inline
//    <style>; a strict policy allows each by its sha256 hash, taken from the built file, so a
//    rebuild (another wasm hash in the script) gets the right one without anyone copying it.
// 2. Compression for the static server (scripts/static-server.mjs): FILE.gz (gzip -9) and
//    FILE.br (brotli -q 11) next to every text and wasm file, release builds only (a debug wasm
//    is megabytes and brotli -q 11 takes its time); brotli from Node's zlib (nothing to install).
//
//   node scripts/post-build.mjs [DIR]   # DIR: default $TRUNK_STAGING_DIR (set by Trunk)
//
// Both steps can run again on the same folder: the policy is replaced, the files re-compressed.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as z } from 'node:zlib';
import { OFFLINE, offlinePage } from './offline.mjs';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('post-build: no folder (pass DIR, or run as a Trunk hook, which sets TRUNK_STAGING_DIR)');
  process.exit(2);
}
const release = process.argv[2] !== undefined || process.env.TRUNK_PROFILE === 'release';

// Native builds: none of the wasm build's settings (scripts/env.sh's lean flags: build-std
// needs a --target, and would rebuild the standard library) reach them.
function runNative(bin) {
  const env = { ...process.env };
  for (const k of ['RUSTC_BOOTSTRAP', 'CARGO_UNSTABLE_BUILD_STD', 'CARGO_BUILD_TARGET', 'RUSTFLAGS']) delete env[k];
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  execFileSync('cargo', ['run', '--quiet', '--offline', '--bin', bin, '--', path.resolve(dir)], { cwd: root, env, stdio: 'inherit' });
}

// The app's data (issue 38: src/library.rs): the built-ins, lessons and recordings as files
// in data-HASH/, named in index.html's <meta name="locklab-data">; the step fails the build
// when a wasm carries any of them compiled in. Always: the app cannot start without them.
runNative('data-files');

if (!process.env.LOCKLAB_NO_FIRST_PAINT) {
  const started = Date.now();
  runNative('first-paint');
  console.log(`post-build: first paint drawn in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// 0a. The wasm-bindgen JS glue, minified (release builds). Trunk.toml asks Trunk to minify, but
//     Trunk's minifier gives up on ES modules (their `export default`) and leaves the glue as
//     written: the app's 50 KB and the player's 39 KB, every byte paid on a host that does not
//     compress (issue 38: one embed ≤ 600 KiB). terser (.tools/terser, scripts/install-tools.sh)
//     minifies each file; the pages' integrity hashes of a file follow it.
function minifyGlue() {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const terser = path.join(root, '.tools/terser/node_modules/.bin/terser');
  if (!existsSync(terser)) throw new Error(`post-build: ${terser} is missing (scripts/install-tools.sh build installs it)`);
  const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  const pages = readdirSync(dir).filter((f) => f.endsWith('.html')).map((f) => path.join(dir, f));
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const file = path.join(dir, name);
    const before = readFileSync(file);
    // An ES module (wasm-bindgen's `web` target), or a classic script (the explorer worker's
    // `no-modules` glue, whose global `wasm_bindgen` its loader calls: terser keeps a script's
    // top-level names).
    const module = /^export\b/m.test(before.toString('utf8'));
    execFileSync(terser, [file, '--compress', '--mangle', ...(module ? ['--module'] : []), '--output', file]);
    const after = readFileSync(file);
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      if (html.includes(sri(before))) writeFileSync(page, html.replaceAll(sri(before), sri(after)));
    }
    console.log(`post-build: ${name} minified by terser (${before.length} → ${after.length} bytes)`);
  }
}
if (release) minifyGlue();

// 0b. The app's files requested at once (issue 25: the app answering input on a slow link).
//     Trunk writes the wasm's preload and the JS's modulepreloads at the end of <head>, after an
//     inline classic script that waits for every stylesheet: Chromium asked for the wasm only
//     once the stylesheets were in (~540 ms on the slow profile, ~360 ms after the page). And
//     seven stylesheets, the JS, its snippet and the wasm are ten requests on HTTP/1.1's six
//     connections per host: the wasm waited for a free one. So the stylesheets but diagram.css
//     (which PNG/SVG export reads back by its name, src/ui/export.rs) are joined, in their
//     order, into one hashed file, and the preloads go before the stylesheets: five requests,
//     all sent as soon as the page's head arrives. Measured with scripts/bench-load.sh (README).
function attrsOf(tag) {
  const out = {};
  for (const m of tag.matchAll(/\s([\w-]+)(?:=("[^"]*"|'[^']*'|[^\s>]+))?/g)) out[m[1].toLowerCase()] = (m[2] ?? '').replace(/^["']|["']$/g, '');
  return out;
}
/** The embeds' player's binary (0c), and the stylesheets joined for the app and for it. */
const PLAYER = 'locklab-player';
let joined = null;
function requestSooner(html) {
  const links = [...html.matchAll(/<link\b[^>]*>/gi)].map((m) => ({ tag: m[0], a: attrsOf(m[0].replace(/\/?>$/, ' >')) }));
  const sheets = links.filter((l) => l.a.rel === 'stylesheet' && /^\.?\/?[\w-]+-[0-9a-f]{8,16}\.css$/.test(l.a.href) && !/^\.?\/?diagram-/.test(l.a.href));
  if (sheets.length > 1) {
    const join = (some, stem = 'styles') => {
      const bytes = Buffer.from(some.map((l) => readFileSync(path.join(dir, l.a.href), 'utf8').replace(/\s*$/, '\n')).join(''), 'utf8');
      const name = `${stem}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.css`;
      writeFileSync(path.join(dir, name), bytes);
      return { name, bytes, integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}` };
    };
    const { name, bytes, integrity } = join(sheets);
    const cross = sheets[0].a.crossorigin !== undefined ? ` crossorigin${sheets[0].a.crossorigin ? `=${sheets[0].a.crossorigin}` : ''}` : '';
    // The embeds' player (0c below) shows none of the app's fault menu, explorer or lessons:
    // its own join leaves their stylesheets out (11 KB an embed does not fetch).
    if (existsSync(path.join(dir, `${PLAYER}.js`))) {
      const its = join(sheets.filter((l) => !/^\.?\/?(pointing|explore|lesson|lesson-index)-[0-9a-f]{8,16}\.css$/.test(l.a.href)), `${PLAYER}-styles`);
      joined = { cross, app: { name, integrity }, player: its };
      console.log(`post-build: the player's stylesheets joined into ${its.name} (${its.bytes.length} bytes)`);
    }
    html = html.replace(sheets[0].tag, `<link${cross} href=./${name} integrity=${integrity} rel=stylesheet>`);
    for (const l of sheets.slice(1)) html = html.replace(l.tag, '');
    for (const l of sheets) for (const ext of ['', '.gz', '.br']) rmSync(path.join(dir, l.a.href + ext), { force: true });
    console.log(`post-build: ${sheets.length} stylesheets joined into ${name} (${bytes.length} bytes)`);
  }
  const preloads = links.filter((l) => l.a.rel === 'preload' || l.a.rel === 'modulepreload');
  const first = /<link\b[^>]*\brel=("?)stylesheet\1[^>]*>/i.exec(html);
  if (preloads.length && first) {
    // The wasm first: the largest file, the last to arrive.
    for (const l of preloads) html = html.replace(l.tag, '');
    const ordered = [...preloads].sort((x, y) => (y.a.rel === 'preload') - (x.a.rel === 'preload'));
    // And the wasm's preload without `integrity`: Chromium checks a preload's hash before it
    // hands the response on, so the app's own fetch (wasm-bindgen's, which has no integrity, and
    // would fetch anew when a check failed: the attribute guards nothing) got the wasm only once
    // all of it was in, and compiled it then, instead of while it streamed in (~25 ms sooner).
    for (const l of ordered) if (l.a.rel === 'preload' && /\.wasm$/.test(l.a.href)) l.tag = l.tag.replace(/\s+integrity=("[^"]*"|'[^']*'|[^\s>]+)/i, '');
    const at = html.indexOf(first[0]);
    html = html.slice(0, at) + ordered.map((l) => l.tag).join('') + html.slice(at);
  }
  return html;
}
// 0c. The embeds' player (issue 38, src/ui/player.rs): a second wasm of the same crate, which
//     Trunk builds as a "worker" (it starts only one "main" binary) and names after the binary:
//     locklab-player.js and locklab-player_bg.wasm. Here they get their content's hash in their
//     names, as every other file of the build has (cached for good, docs/EMBED.md), and the page
//     starts one of the two: the player for an embed of a scenario (`embed=1` with no lesson and
//     no comparison, which only the app shows), the app for everything else. The pick is one
//     inline script at the head of the page (before the stylesheets, so that it runs at once)
//     that asks for the picked wasm and its JS at once (what Trunk's preloads did) and marks
//     <html data-wasm="player|app">; Trunk's start-up module then imports the picked JS. So an
//     embed never fetches the app's wasm: "Open in Lock Lab" opens the app in a tab of its own.
const sriOf = (file) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
/** The page with the player wired in, and the app's own JS and wasm (none: a build without it). */
function withPlayer(html) {
  const js0 = path.join(dir, `${PLAYER}.js`);
  const wasm0 = path.join(dir, `${PLAYER}_bg.wasm`);
  if (!existsSync(js0) || !existsSync(wasm0)) return { html, app: null }; // a build without the player (the bench floor)
  const hash = createHash('sha256').update(readFileSync(wasm0)).update(readFileSync(js0)).digest('hex').slice(0, 16);
  const base = `${PLAYER}-${hash}`;
  // The JS's own default address of its wasm follows the new name (the page passes it anyway).
  const glue = readFileSync(js0, 'utf8').replaceAll(`${PLAYER}_bg.wasm`, `${base}_bg.wasm`);
  writeFileSync(path.join(dir, `${base}.js`), glue);
  renameSync(wasm0, path.join(dir, `${base}_bg.wasm`));
  for (const ext of ['', '.gz', '.br']) rmSync(js0 + ext, { force: true });
  // Trunk's start-up module: `import init, * as bindings from './locklab-web-….js'; … init({ module_or_path: '….wasm' })`.
  const boot = /<script type="?module"?>\s*import init, \* as bindings from '\.\/([\w-]+\.js)';\s*const wasm = await init\(\{ module_or_path: '\.\/([\w-]+_bg\.wasm)' \}\);/;
  const m = boot.exec(html);
  if (!m) throw new Error("post-build: Trunk's start-up script is not as expected; the player cannot be wired in");
  const [app, player] = [
    { js: m[1], wasm: m[2] },
    { js: `${base}.js`, wasm: `${base}_bg.wasm` },
  ];
  html = html.replace(
    m[0],
    `<script type=module data-online>const player = document.documentElement.dataset.wasm === 'player';\n` +
      // A module that does not arrive is named, as one imported statically was (index.html's
      // loading line listens: an import() that fails is a rejection, not an error event).
      `const js = player ? './${player.js}' : './${app.js}';\n` +
      `const bindings = await import(js).catch((e) => { dispatchEvent(new CustomEvent('LockLabFileFailed', { detail: js })); throw e; });\n` +
      `const init = bindings.default;\n` +
      `const wasm = await init({ module_or_path: player ? './${player.wasm}' : './${app.wasm}' });`,
  );
  // Each side's files to ask for at once: its wasm, its JS, the wasm-bindgen snippets its JS imports.
  const files = (js, wasm, css) => {
    const text = readFileSync(path.join(dir, js), 'utf8');
    const snippets = [...new Set([...text.matchAll(/from\s*['"]\.\/(snippets\/[^'"]+\.js)['"]/g)].map((x) => x[1]))];
    return [[wasm, ''], ...[js, ...snippets].map((f) => [f, sriOf(path.join(dir, f))]), ...(css ? [[css.name, css.integrity, 1]] : [])];
  };
  // The query read as src/scenario/share.rs reads it (`open`: a bare key is key=1).
  const pick =
    `(function(){var q={};location.search.slice(1).split('&').forEach(function(p){var i=p.indexOf('=');if(p)q[i<0?p:p.slice(0,i)]=i<0?'1':p.slice(i+1)});` +
    `var player=/^(1|on|true|yes)$/.test(q.embed||'')&&!('lesson' in q)&&!/(^#|&)l=/.test(location.hash)&&(!q.compare||q.compare==='none');` +
    `document.documentElement.setAttribute('data-wasm',player?'player':'app');` +
    `(player?${JSON.stringify(files(player.js, player.wasm, joined?.player))}:${JSON.stringify(files(app.js, app.wasm, joined?.app))}).forEach(function(f){` +
    `var l=document.createElement('link');l.crossOrigin='';l.href='./'+f[0];` +
    `if(f[2]){l.rel='preload';l.as='style';l.integrity=f[1]}else if(f[1]){l.rel='modulepreload';l.integrity=f[1]}else{l.rel='preload';l.as='fetch';l.type='application/wasm'}` +
    `document.head.appendChild(l)})})()`;
  // Trunk's preloads of the app's files go: the pick asks for the picked side's.
  for (const tag of html.match(/<link\b[^>]*\brel=("?)(preload|modulepreload)\1[^>]*>/gi) ?? []) html = html.replace(tag, '');
  // Each side's joined stylesheet: linked in its place by a one-line script that writes the
  // picked one's <link> there (a parser-inserted stylesheet holds the first paint as a static
  // one does; one added by a script would not), and asked for at once by the pick; a page with
  // scripting off gets the app's from a <noscript>.
  if (joined) {
    const tag = (j) => `<link${joined.cross} href=./${j.name} integrity=${j.integrity} rel=stylesheet>`;
    const at = html.indexOf(tag(joined.app));
    if (at < 0) throw new Error("post-build: the app's joined stylesheet is not where it was put");
    html = html.replace(
      tag(joined.app),
      // With scripting off (no script runs, nothing is written) the app's, as before.
      `<script data-online>document.write(document.documentElement.getAttribute('data-wasm')==='player'?${JSON.stringify(tag(joined.player))}:${JSON.stringify(tag(joined.app))})</script>` +
        `<noscript data-online>${tag(joined.app)}</noscript>`,
    );
  }
  const first = /<link\b[^>]*\brel=("?)stylesheet\1[^>]*>/i.exec(html);
  if (!first) throw new Error('post-build: no stylesheet to put the pick before');
  html = html.slice(0, first.index) + `<script data-online>${pick}</script>` + html.slice(first.index);
  console.log(`post-build: the player ${base} (${statSync(path.join(dir, `${base}_bg.wasm`)).size} bytes of wasm) for embeds, the app otherwise`);
  return { html, app };
}
{
  const file = path.join(dir, 'index.html');
  const { html, app } = withPlayer(requestSooner(readFileSync(file, 'utf8')));
  writeFileSync(file, html);
  // The offline file (issue 35, scripts/offline.mjs): release builds, from the page as it is now
  // (its policy comes below, with the other pages').
  if (release && app) {
    const data = /<meta name="locklab-data" content="([^"]+)\/"/.exec(html)?.[1];
    const diagramCss = /<link\b[^>]*href=\.\/(diagram-[0-9a-f]{8,16}\.css)/.exec(html)?.[1];
    const appCss = joined?.app.name;
    if (!data || !diagramCss || !appCss) throw new Error('post-build: the offline file needs the data folder, diagram.css and the joined stylesheet');
    const page = offlinePage(html, dir, { js: app.js, wasm: app.wasm, appCss, data, diagramCss });
    writeFileSync(path.join(dir, OFFLINE), page);
    console.log(`post-build: ${OFFLINE}, the app in one file (${page.length} bytes)`);
  }
}

// Each page's policy; `hashes` are the 'sha256-…' sources of the page's inline elements.
//  - The app: its own script, the wasm (instantiated from bytes: 'wasm-unsafe-eval'), CSS files.
//    Yew writes `style` attributes (the diagram's scale, its veil, hidden layers): style-src-attr
//    allows attributes, never a <style> element. PNG export draws the figure from a blob: URL,
//    the favicon is a data: URL. connect-src: the wasm is fetched. worker-src: the explorer's
//    workers, started from the app's own explore-worker_loader.js (not blob: or data:).
//  - The example page: no script at all; its own <style>, and the two embeds (frames of the app).
const POLICIES = {
  'index.html': ({ script, style }) => ({
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'", ...script],
    'style-src': ["'self'", ...style],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'blob:', 'data:'],
    'connect-src': ["'self'"],
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
  }),
  // The offline file (scripts/offline.mjs): everything inline, nothing to fetch, no worker.
  [OFFLINE]: ({ script, style }) => ({
    'default-src': ["'none'"],
    'script-src': ["'wasm-unsafe-eval'", ...script],
    'style-src': style,
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ['blob:', 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
  }),
  'embed-example.html': ({ script, style }) => ({
    'default-src': ["'none'"],
    'script-src': script.length ? script : ["'none'"],
    'style-src': style.length ? style : ["'none'"],
    'img-src': ['data:'],
    'frame-src': ["'self'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
  }),
};

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The hashes of a page's inline <script> (no src) and <style> elements, as the browser hashes them: their exact text. */
function inlineHashes(html) {
  const of = (tag, keep) =>
    [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, 'gi'))].filter((m) => keep(m[1])).map((m) => sha256(m[2]));
  return {
    // Not a data block (`type="application/…"`: the offline file's), which never runs.
    script: [...new Set(of('script', (attrs) => !/\bsrc\s*=/i.test(attrs) && !/\btype="?application\//i.test(attrs)))],
    style: [...new Set(of('style', () => true))],
  };
}

const CSP_META = /<meta http-equiv="?Content-Security-Policy"?[^>]*>/i;

function withPolicy(html, policy) {
  const text = Object.entries(policy)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${text}">`;
  if (CSP_META.test(html)) return { html: html.replace(CSP_META, meta), text };
  // Before every script and stylesheet: a meta policy only governs what comes after it. Right
  // after the charset (which must come first), or <head>; the minifier leaves out optional tags.
  const anchor = [/<meta charset[^>]*>/i, /<head\b[^>]*>/i, /<html\b[^>]*>/i].map((re) => re.exec(html)).find(Boolean);
  if (!anchor) throw new Error('no <meta charset>, <head> or <html> to put the policy after');
  const at = anchor.index + anchor[0].length;
  return { html: html.slice(0, at) + meta + html.slice(at), text };
}

for (const [name, policyOf] of Object.entries(POLICIES)) {
  const file = path.join(dir, name);
  let html;
  try {
    html = readFileSync(file, 'utf8');
  } catch {
    continue; // not every build has every page (the bench floor has only index.html)
  }
  // Hash what the page holds without the policy meta (which is not an inline script or style).
  const { html: out, text } = withPolicy(html, POLICIES[name](inlineHashes(html.replace(CSP_META, ''))));
  writeFileSync(file, out);
  console.log(`post-build: ${name}: Content-Security-Policy: ${text}`);
}

if (release) {
  const COMPRESS = /\.(html|js|mjs|css|wasm|svg|json|txt)$/;
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && COMPRESS.test(e.name))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
  for (const f of files) {
    // gzip -9 (always there; 1.7% smaller than Node's zlib at level 9), -n: no name or time
    // stamp, so the same build gives the same bytes. brotli from Node's zlib, so there is no
    // binary to install: quality 11, the CLI's default 16 MB window (lgwin 24), told the size.
    execFileSync('gzip', ['-9', '-n', '-k', '-f', f]);
    const data = readFileSync(f);
    const params = { [z.BROTLI_PARAM_QUALITY]: 11, [z.BROTLI_PARAM_LGWIN]: 24, [z.BROTLI_PARAM_SIZE_HINT]: data.length };
    writeFileSync(`${f}.br`, brotliCompressSync(data, { params }));
  }
  console.log(`post-build: compressed ${files.length} files (gzip -9, brotli -q 11)`);
}
