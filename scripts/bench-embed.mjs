#!/usr/bin/env node
// What an embed costs a docs page on a plain static host (issue 38, item 2): the build served
// as it is, with no compression (scripts/static-server.mjs --no-compress), a docs page on
// another origin with one embed and one with three (320×240, 640×360, 800×450, the README's
// snippet, as tests/e2e/specs/embed-hosts.spec.ts writes them), each loaded in a fresh
// Chromium context until every embed shows its diagram; the bytes received over the network
// by the page and its frames (CDP's encoded lengths: headers and bodies) are summed. Budgets:
// one embed ≤ 600 KiB; three ≤ 1.1 × one in the files the embeds share (the player's wasm and
// JS, the stylesheets: what tests/e2e/specs/embed-hosts.spec.ts holds to 1.1×), each embed's
// own page and pre-drawn figure (27 to 55 KiB uncompressed) coming on top; the whole page's
// ratio is printed beside it. Exits 1 over either budget. 1 KiB = 1024 bytes.
//
//   node scripts/bench-embed.mjs [--dist DIR] [--runs N] [--record]   # --record: docs/measured/embed.json
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ARGS, chromium, needDist, quantile, root } from './bench/browser-common.mjs';
import { recordMeasured, recording, round } from './bench/measured.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const dist = path.resolve(opt('--dist', path.join(root, 'dist')));
const runs = Number(opt('--runs', 3));
needDist('bench-embed', dist);

const ONE_KIB = 600;
const THREE_RATIO = 1.1;
const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';
const EMBEDS = [
  [320, 240, 'scenario=redis-gc-pause&t=15505&embed=1'],
  [640, 360, 'scenario=redis-gc-pause&fencing=on&t=15505&embed=1'],
  [800, 450, 'scenario=etcd-gc-pause&t=4000&embed=1'],
];

/** Serves `dir` with the project's server, uncompressed, on a free loopback port. */
function serve(dir) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(root, 'scripts/static-server.mjs'), dir, '--host', '127.0.0.1', '--port', '0', '--no-compress'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (d) => {
      const m = /http:\/\/[\d.]+:\d+\//.exec(d);
      if (m) resolve({ url: m[0], stop: () => p.kill() });
    });
    p.on('exit', (code) => reject(new Error(`static server exited (${code})`)));
  });
}

function docsPage(app, embeds) {
  const frames = embeds
    .map(([w, h, q]) => `<figure><iframe sandbox="${SANDBOX}" width="${w}" height="${h}" title="Lock Lab ${w}×${h}" src="${app}?${q.replace(/&/g, '&amp;')}"></iframe></figure>`)
    .join('\n');
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Fencing, a docs page</title><body><h1>Fencing tokens</h1>\n${frames}\n</body></html>`;
}

/** Loads `url` in a fresh context; the bytes received until all `n` embeds show a diagram and the network is idle. */
async function load(browser, url, n) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 1300 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map();
  const of = new Map();
  cdp.on('Network.requestWillBeSent', (e) => of.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    const u = of.get(e.requestId);
    if (u === undefined || u.startsWith('data:')) return;
    urls.set(u, (urls.get(u) ?? 0) + e.encodedDataLength);
  });
  await page.goto(url, { waitUntil: 'commit' });
  for (let i = 0; i < n; i++) await page.frameLocator('iframe').nth(i).locator('[data-testid="diagram"]').waitFor({ timeout: 30_000 });
  // What the frames asked for besides (a pre-drawn figure still coming in) is counted too.
  await page.waitForLoadState('networkidle');
  const wasm = [...urls.keys()].filter((u) => u.endsWith('.wasm')).map((u) => u.replace(/^.*\//, ''));
  await context.close();
  // Each embed's own: its page (the address with embed=1) and its pre-drawn figure (/paint-…/);
  // the docs page itself is neither.
  const own = (u) => /\/paint-[0-9a-f]+\//.test(u) || /[?&]embed=1/.test(u) || /\/(one|three)\.html$/.test(u);
  const sum = (keep) => [...urls].filter(([u]) => keep(u)).reduce((a, [, b]) => a + b, 0);
  return { bytes: sum(() => true), shared: sum((u) => !own(u)), wasm, urls };
}

const app = await serve(dist);
const dir = mkdtempSync(path.join(tmpdir(), 'locklab-embed-bench-'));
writeFileSync(path.join(dir, 'one.html'), docsPage(app.url, EMBEDS.slice(0, 1)));
writeFileSync(path.join(dir, 'three.html'), docsPage(app.url, EMBEDS));
const docs = await serve(dir);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
const one = [];
const three = [];
const shared = { one: [], three: [] };
let last;
try {
  for (let i = 0; i < runs; i++) {
    const a = await load(browser, `${docs.url}one.html`, 1);
    const b = await load(browser, `${docs.url}three.html`, 3);
    one.push(a.bytes);
    three.push(b.bytes);
    shared.one.push(a.shared);
    shared.three.push(b.shared);
    last = { a, b };
  }
} finally {
  await browser.close();
  app.stop();
  docs.stop();
  rmSync(dir, { recursive: true, force: true });
}

const kib = (b) => b / 1024;
const oneKiB = kib(quantile(one, 0.5));
const threeKiB = kib(quantile(three, 0.5));
const ratio = quantile(shared.three, 0.5) / quantile(shared.one, 0.5);
const whole = threeKiB / oneKiB;
console.log(`Embeds on a plain static host (${path.relative(process.cwd(), dist) || dist}, no compression; p50 of ${runs} fresh contexts; 1 KiB = 1024 B)`);
console.log(`  one embed:    ${oneKiB.toFixed(1)} KiB (budget ${ONE_KIB} KiB: ${oneKiB <= ONE_KIB ? 'met' : 'OVER'}); wasm fetched: ${last.a.wasm.join(', ')}`);
console.log(`  three embeds: ${threeKiB.toFixed(1)} KiB = ${whole.toFixed(3)}× one; the files they share ${kib(quantile(shared.three, 0.5)).toFixed(1)} KiB = ${ratio.toFixed(3)}× one's ${kib(quantile(shared.one, 0.5)).toFixed(1)} KiB (budget ${THREE_RATIO}×: ${ratio <= THREE_RATIO ? 'met' : 'OVER'})`);
console.log('  one embed, per file:');
for (const [u, b] of [...last.a.urls].sort((x, y) => y[1] - x[1])) console.log(`    ${kib(b).toFixed(1).padStart(7)} KiB  ${u.replace(/^http:\/\/127\.0\.0\.1:\d+\//, '')}`);
if (recording) {
  recordMeasured('embed', {
    plain_host: {
      one_kib: round(oneKiB, 1),
      three_kib: round(threeKiB, 1),
      three_over_one: round(whole, 2),
      shared_one_kib: round(kib(quantile(shared.one, 0.5)), 1),
      shared_three_kib: round(kib(quantile(shared.three, 0.5)), 1),
      shared_three_over_one: round(ratio, 2),
      runs,
    },
  });
}
process.exit(oneKiB <= ONE_KIB && ratio <= THREE_RATIO ? 0 : 1);
