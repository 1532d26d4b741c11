#!/usr/bin/env node
// A tiny static file server for the release build (dist/), with no dependencies.
// Used by scripts/serve.sh, the Playwright webServer and scripts/bench-browser.mjs.
//
//   node scripts/static-server.mjs [DIR] [--host 127.0.0.1] [--port 8080]
//
// --port 0 picks a free port. The first line printed is "Serving DIR at http://HOST:PORT/".
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const args = process.argv.slice(2);
let dir = 'dist';
let host = '127.0.0.1';
let port = Number(process.env.PORT ?? 8080);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--host') host = args[++i];
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
  const body = await readFile(file);
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
    // Embedded in <iframe sandbox="allow-scripts"> the app has an opaque origin: its own
    // script, wasm and stylesheet are then cross-origin fetches that need this header.
    'Access-Control-Allow-Origin': '*',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
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
