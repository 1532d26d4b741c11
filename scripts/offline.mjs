// The offline file (issue 35, item 5): dist/lock-lab-offline.html, the whole app in one HTML
// file that opens from disk (file://), on a USB stick or attached to a course page, and asks
// for nothing: its wasm (base64 in a data block, instantiated from those bytes), its JS glue and
// wasm-bindgen's snippet (inline in one module script), its stylesheets (inline <style>), and
// every data file the app would fetch (the built-ins, the lessons, the recordings: data blocks
// `<script type="application/json" data-locklab-file="…">`, which src/ui/library.rs reads
// before it would fetch). The page's policy is the build's (scripts/post-build.mjs, POLICIES):
// nothing may be fetched at all. What needs a server stays out: the scripts marked
// `data-online` (the data preloads, the pre-drawn first paint, the player's pick), the
// explorer's workers (a page from file:// cannot start them: the Explore panel runs its search
// in the page, as it does in a sandboxed frame).
//
// Called by scripts/post-build.mjs on a release build, after the page's own steps and before
// its policy; `offlinePage` is pure (text in, text out) but for reading the build's files.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const OFFLINE = 'lock-lab-offline.html';
/** The stated limit (issue 35): scripts/bench-bundle.sh --check fails over it. */
export const OFFLINE_BUDGET_BYTES = 2 * 1024 * 1024;

const fail = (why) => {
  throw new Error(`offline file: ${why}`);
};

/** `<`/ in a data block's text would end the block early; `<\/` reads the same in JSON strings. */
const blockText = (text) => text.replaceAll('</', '<\\/');

/** wasm-bindgen's snippet module as a script: an arrow that returns its exports. */
function snippetAsValue(source) {
  const names = [...source.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)/gm)].map((m) => m[1]);
  if (!names.length) fail('a wasm-bindgen snippet exports nothing this step can read');
  const body = source.replace(/^export\s+/gm, '');
  return `(() => {\n${body}\nreturn { ${names.join(', ')} };\n})()`;
}

/**
 * The app's JS glue (an ES module, minified) as the body of one inline module: its snippet
 * imports become reads of the snippets' values, its exports one constant, `__locklab_init`.
 */
function glueAsScript(glue, snippets) {
  const seen = new Map();
  const valueOf = (file) => {
    if (!seen.has(file)) {
      const text = snippets(file);
      seen.set(file, { name: `__locklab_snippet_${seen.size}`, text });
    }
    return seen.get(file).name;
  };
  let out = glue.replace(/import\s*\{([^}]*)\}\s*from\s*["']\.\/(snippets\/[^"']+)["'];?/g, (_, names, file) => {
    const pairs = names.split(',').map((n) => n.trim()).filter(Boolean).map((n) => n.replace(/\s+as\s+/, ': '));
    return `const { ${pairs.join(', ')} } = ${valueOf(file)};`;
  });
  out = out.replace(/import\s*\*\s*as\s*([\w$]+)\s*from\s*["']\.\/(snippets\/[^"']+)["'];?/g, (_, name, file) => `const ${name} = ${valueOf(file)};`);
  if (/\bimport\s*[{*\w]/.test(out.replace(/import\.meta/g, ''))) fail('the JS glue imports something other than its snippets');
  let init = null;
  out = out.replace(/export\s*\{([^}]*)\};?/g, (_, list) => {
    for (const pair of list.split(',')) {
      const m = /^\s*([\w$]+)\s+as\s+default\s*$/.exec(pair);
      if (m) init = m[1];
    }
    return '';
  });
  if (!init) fail("the JS glue's default export (wasm-bindgen's init) was not found");
  const values = [...seen.values()].map((s) => `const ${s.name} = ${snippetAsValue(s.text)};\n`).join('');
  return `${values}${out}\nconst __locklab_init = ${init};`;
}

/**
 * The offline page from the built index.html: `html` as scripts/post-build.mjs leaves it before
 * its policy, `files` what it names (the app's JS and wasm, the joined and the diagram
 * stylesheets, the data folder), `dir` the build.
 */
export function offlinePage(html, dir, files) {
  const read = (f) => readFileSync(path.join(dir, f), 'utf8');
  let page = html.replace(/<(script|noscript)\b[^>]*\bdata-online\b[^>]*>[\s\S]*?<\/\1>/gi, '');
  page = page.replace(/<link\b[^>]*\brel=("?)(stylesheet|preload|modulepreload)\1[^>]*>/gi, '');
  if (/data-online/.test(page)) fail('a `data-online` element is left in the page');
  const styles = `<style data-diagram-css>${read(files.diagramCss)}</style><style>${read(files.appCss)}</style>`;
  const data = readdirSync(path.join(dir, files.data), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.jsonl?$/.test(e.name))
    .map((e) => path.relative(path.join(dir, files.data), path.join(e.parentPath ?? e.path, e.name)).split(path.sep).join('/'))
    .sort()
    .map((f) => `<script type="application/json" data-locklab-file="${f}">${blockText(read(path.join(files.data, f)))}</script>`)
    .join('\n');
  const wasm = readFileSync(path.join(dir, files.wasm)).toString('base64');
  const glue = glueAsScript(read(files.js), read);
  const start =
    `<script type=module>${glue}\n` +
    `const bytes = Uint8Array.from(atob(document.getElementById('locklab-wasm').textContent), (c) => c.charCodeAt(0));\n` +
    `const wasm = await __locklab_init({ module_or_path: bytes });\n` +
    `dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));</script>`;
  // The data in <head>: the app, once it mounts, replaces what <body> holds (the placeholder).
  const head = page.indexOf('</head>');
  if (head < 0) fail('the page has no </head>');
  const carried = `<script type="application/octet-stream" id="locklab-wasm">${wasm}</script>\n${data}\n`;
  page = `${page.slice(0, head)}<meta name="locklab-offline" content="1">${styles}\n${carried}${page.slice(head)}`;
  const body = page.lastIndexOf('</body>');
  const end = body < 0 ? page.length : body;
  return `${page.slice(0, end)}\n${start}\n${page.slice(end)}`;
}
