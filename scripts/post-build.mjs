#!/usr/bin/env node
// Trunk's post_build hook (Trunk.toml), run on the finished build before it becomes dist/:
//
// 0. The first diagram at first paint (issue 25): src/bin/first-paint.rs pre-draws every
//    built-in at its start and key moments with the CLI's drawing code into paint-HASH/, and
//    the first one into index.html (a native build of the binary, dev profile: seconds once
//    built). First, so that the policy below hashes the page as it is served.
//    Then the app's files asked for at once: the stylesheets but diagram.css joined into one,
//    the wasm's preload and the JS's modulepreloads before the stylesheets (see requestSooner).
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
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as z } from 'node:zlib';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('post-build: no folder (pass DIR, or run as a Trunk hook, which sets TRUNK_STAGING_DIR)');
  process.exit(2);
}
const release = process.argv[2] !== undefined || process.env.TRUNK_PROFILE === 'release';

if (!process.env.LOCKLAB_NO_FIRST_PAINT) {
  // A native build: none of the wasm build's settings (scripts/env.sh's lean flags: build-std
  // needs a --target, and would rebuild the standard library) reach it.
  const env = { ...process.env };
  for (const k of ['RUSTC_BOOTSTRAP', 'CARGO_UNSTABLE_BUILD_STD', 'CARGO_BUILD_TARGET', 'RUSTFLAGS']) delete env[k];
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const started = Date.now();
  execFileSync('cargo', ['run', '--quiet', '--offline', '--bin', 'first-paint', '--', path.resolve(dir)], { cwd: root, env, stdio: 'inherit' });
  console.log(`post-build: first paint drawn in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

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
function requestSooner(html) {
  const links = [...html.matchAll(/<link\b[^>]*>/gi)].map((m) => ({ tag: m[0], a: attrsOf(m[0].replace(/\/?>$/, ' >')) }));
  const sheets = links.filter((l) => l.a.rel === 'stylesheet' && /^\.?\/?[\w-]+-[0-9a-f]{16}\.css$/.test(l.a.href) && !/^\.?\/?diagram-/.test(l.a.href));
  if (sheets.length > 1) {
    const css = sheets.map((l) => readFileSync(path.join(dir, l.a.href), 'utf8').replace(/\s*$/, '\n')).join('');
    const bytes = Buffer.from(css, 'utf8');
    const name = `styles-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.css`;
    writeFileSync(path.join(dir, name), bytes);
    const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
    const cross = sheets[0].a.crossorigin !== undefined ? ` crossorigin${sheets[0].a.crossorigin ? `=${sheets[0].a.crossorigin}` : ''}` : '';
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
{
  const file = path.join(dir, 'index.html');
  writeFileSync(file, requestSooner(readFileSync(file, 'utf8')));
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
    script: [...new Set(of('script', (attrs) => !/\bsrc\s*=/i.test(attrs)))],
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
