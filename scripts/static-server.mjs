#!/usr/bin/env node
// A tiny static file server for the release build (dist/), with no dependencies.
// Used by scripts/serve.sh, the Playwright webServer and scripts/bench-browser.mjs.
//
//   node scripts/static-server.mjs [DIR] [--host 127.0.0.1] [--port 8080] [--no-compress]
//
// --no-compress sends every file as it is, as a plain static host does (scripts/bench-embed.mjs
// measures an embed's bytes so, issue 38).
// --port 0 picks a free port. The first line printed is "Serving DIR at http://HOST:PORT/".
// A file compressed at build time (FILE.br, FILE.gz: scripts/post-build.mjs) is sent instead of
// FILE when the request accepts that encoding, brotli first.
//
// Caching (issue 25): a file whose name carries Trunk's content hash (app-297ea52c68a6e709.css,
// locklab-web-…_bg.wasm, snippets/locklab-…/inline0.js) never changes under that name, so it is
// sent `immutable` for a year: a docs page with three embeds fetches the app once, and a reload
// fetches none of it. Every other file (the pages) is `no-cache` with an ETag, so a reload asks
// and gets a 304 of a few hundred bytes, and a new build is seen at once.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const args = process.argv.slice(2);
let dir = 'dist';
let host = '127.0.0.1';
let port = Number(process.env.PORT ?? 8080);
let compress = true;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--host') host = args[++i];
  else if (args[i] === '--no-compress') compress = false;
  else if (args[i] === '--port') port = Number(args[++i]);
  else dir = args[i];
}
const root = path.resolve(dir);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

async function resolveFile(urlPath) {
  let rel = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  const file = path.resolve(root, '.' + path.posix.normalize('/' + rel));
  if (file !== root && !file.startsWith(root + path.sep)) return null; // outside the root
  try {
    const s = await stat(file);
    if (s.isDirectory()) return resolveFile(path.posix.join(rel, 'index.html'));
    return file;
  } catch {
    return null;
  }
}

/** The encodings a request accepts (q > 0), from its Accept-Encoding header. */
function accepted(header) {
  const ok = new Set();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) ok.add(name);
  }
  return ok;
}

const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

/** The body to send for `file`: its brotli or gzip twin when there is one the request accepts. */
async function body(file, acceptEncoding) {
  const ok = accepted(acceptEncoding);
  for (const [encoding, ext] of ENCODINGS) {
    if (!ok.has(encoding)) continue;
    try {
      return { data: await readFile(file + ext), encoding };
    } catch {
      // not compressed at build time: try the next, then the file itself
    }
  }
  return { data: await readFile(file), encoding: null };
}

/** A content hash in a file name or folder: `-` and 8 to 16 hex digits (Trunk writes its u64 hash in hex
 *  without leading zeros, so 15 digits now and then; the build's own hashes are 16). */
const HASHED = /-[0-9a-f]{8,16}(?:_bg)?(?:\.[a-z]+$|\/)/;

/** The Cache-Control for a path under the root: immutable when its name carries a content hash. */
function cacheControl(rel) {
  return HASHED.test(rel.split(path.sep).join('/')) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** A strong validator of the bytes sent (so the encodings of one file have different tags). */
const etagOf = (data) => `"${createHash('sha256').update(data).digest('base64url').slice(0, 22)}"`;

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  let file;
  try {
    file = await resolveFile(new URL(req.url, 'http://x').pathname);
  } catch {
    file = null;
  }
  if (!file) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  const { data, encoding } = await body(file, compress ? req.headers['accept-encoding'] : '');
  const etag = etagOf(data);
  const common = {
    // The same URL has other bytes for another Accept-Encoding: caches must keep them apart.
    Vary: 'Accept-Encoding',
    'Cache-Control': cacheControl(path.relative(root, file)),
    ETag: etag,
    // Embedded in an iframe sandboxed without allow-same-origin (the snippet before issue 25)
    // the app has an opaque origin: its own script, wasm and stylesheet are then cross-origin
    // fetches that need this header. The recommended snippet needs it no more (README).
    'Access-Control-Allow-Origin': '*',
  };
  if (String(req.headers['if-none-match'] ?? '').split(/\s*,\s*/).includes(etag)) {
    res.writeHead(304, common).end();
    return;
  }
  res.writeHead(200, {
    ...common,
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': data.length,
    ...(encoding && { 'Content-Encoding': encoding }),
  });
  res.end(req.method === 'HEAD' ? undefined : data);
});

server.on('error', (e) => {
  console.error(`static-server: ${e.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const a = server.address();
  console.log(`Serving ${path.relative(process.cwd(), root) || '.'} at http://${a.address}:${a.port}/`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
