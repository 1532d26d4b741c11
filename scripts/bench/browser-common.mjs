// What the browser benchmarks share (scripts/bench-browser.mjs, scripts/bench-explore-browser.mjs):
// Debian's headless Chromium through tests/e2e's playwright-core, the release build in dist/
// served on loopback by the repo's own static server, and the figures' statistics.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const { chromium } = createRequire(path.join(root, 'tests/e2e/package.json'))('playwright-core');
export const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
export const tid = (id) => `[data-testid="${id}"]`;

// Issue 11's slow connection (Lighthouse's mobile profile), for Chromium's network emulation:
// 150 ms latency, 1.6 Mbps down, 750 kbps up.
export const SLOW = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

/** A fresh context and page at `viewport`, under Chromium's network emulation `network` (none: loopback). */
export async function freshPage(browser, network, viewport = { width: 1280, height: 720 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  if (network) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', network);
  }
  return { context, page };
}

export const quantile = (xs, q) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
export const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
export const stats = (xs) => `p50 ${f1(quantile(xs, 0.5))}  p95 ${f1(quantile(xs, 0.95))}  max ${f1(Math.max(...xs))}  (n=${xs.length})`;

/** Exits with a message when `dir` (dist/ by default) has no build to serve. */
export function needDist(script, dir = path.join(root, 'dist')) {
  if (!existsSync(path.join(dir, 'index.html'))) {
    console.error(`${script}: no ${dir}/index.html; run \`trunk build --release\` (scripts/serve.sh builds it)`);
    process.exit(2);
  }
}

/** Serves `dir` (dist/ by default) on a free loopback port with the project's own server. */
export function startServer(dir = path.join(root, 'dist')) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(root, 'scripts/static-server.mjs'), dir, '--host', '127.0.0.1', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (d) => {
      const m = /http:\/\/[\d.]+:\d+\//.exec(d);
      if (m) resolve({ url: m[0], stop: () => p.kill() });
    });
    p.on('exit', (code) => reject(new Error(`static server exited (${code})`)));
  });
}
