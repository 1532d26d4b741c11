#!/usr/bin/env node
// Issue 25's peer comparison, run by hand: Lock Lab's first diagram on screen (pre-drawn or
// live) against RaftScope's first frame with its servers drawn, both served by the repo's own
// static server (scripts/static-server.mjs) and loaded in turns in one run, on loopback and on
// the slow profile (150 ms latency, 1.6 Mbps). Ratios in one run, as every benchmark here: the
// machines are noisy. The budget: no slower than the peer on either profile (ratio ≤ 1).
//
// RaftScope is not ours to ship or fetch: check it out yourself (with its submodules, which
// hold bootstrap and jquery) and name the folder:
//   git clone --recursive https://github.com/ongardie/raftscope /tmp/raftscope
//   node scripts/bench-peer.mjs --peer /tmp/raftscope [--runs N] [--record]   # --record: docs/measured/peer.json
//
// Builds nothing: it serves dist/ as it is (scripts/bench-load.sh --build builds it).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ARGS, chromium, freshPage, needDist, quantile, root, SLOW, startServer, stats } from './bench/browser-common.mjs';
import { recordMeasured, recording, round } from './bench/measured.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const peer = opt('--peer');
const runs = Number(opt('--runs', 7));
if (!peer || !existsSync(path.join(peer, 'index.html')) || !existsSync(path.join(peer, 'jquery'))) {
  console.error('usage: node scripts/bench-peer.mjs --peer RAFTSCOPE_DIR [--runs N]  (a RaftScope checkout with its submodules)');
  process.exit(2);
}
needDist('scripts/bench-peer.mjs');

// Each frame, before its paint: has the selector's element become visible?
function probe(selector) {
  window.__seen = undefined;
  const tick = () => {
    if ([...document.querySelectorAll(selector)].some((e) => e.checkVisibility())) window.__seen = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function once(browser, url, selector, net) {
  const { context: ctx, page } = await freshPage(browser, net);
  await page.addInitScript(probe, selector);
  await page.goto(url);
  await page.waitForFunction(() => window.__seen, null, { timeout: 60_000 });
  const t = await page.evaluate(() => window.__seen);
  await ctx.close();
  return t;
}

const ours = await startServer(path.join(root, 'dist'));
const theirs = await startServer(path.resolve(peer));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
let worst = 0;
const measured = { runs };
try {
  for (const [name, net] of [['loopback', null], ['slow profile (150 ms, 1.6 Mbps)', SLOW]]) {
    const a = [];
    const b = [];
    // In turns, the first pair uncounted (a cold browser's first load says little).
    for (let i = 0; i <= runs; i++) {
      const x = await once(browser, ours.url, '[data-testid="first-paint"], [data-testid="diagram"]', net);
      const y = await once(browser, theirs.url, 'svg .server', net);
      if (i > 0) {
        a.push(x);
        b.push(y);
      }
    }
    const ratio = quantile(a, 0.5) / quantile(b, 0.5);
    worst = Math.max(worst, ratio);
    measured[net ? 'slow' : 'loopback'] = { locklab_p50_ms: round(quantile(a, 0.5)), raftscope_p50_ms: round(quantile(b, 0.5)), ratio: round(ratio, 2) };
    console.log(`${name}:\n  Lock Lab, first diagram   ${stats(a)}\n  RaftScope, servers drawn  ${stats(b)}\n  ratio of p50s ${ratio.toFixed(2)}× (budget ≤ 1: ${ratio <= 1 ? 'met' : 'NOT met'})`);
  }
} finally {
  await browser.close();
  ours.stop();
  theirs.stop();
}
if (recording) recordMeasured('peer', measured);
process.exit(worst <= 1 ? 0 : 1);
