#!/usr/bin/env node
// The explorer in the page against the explorer native, in the same run on the same machine,
// with the release builds (dist/ and target/release/locklab). Prints figures; asserts nothing.
//
//   node scripts/bench-explore-browser.mjs [--runs 100000] [--probe-ms 6000]
//
// 1. native: `locklab explore --approach redis --fencing off --max-faults 3 --seed 1 --threads 1`
//    (the Explore panel's default search: Redis without fencing, every fault kind), before and
//    after the browser, schedules/s as the CLI reports it.
// 2. wasm: the same search started from the panel's Start button in headless Chromium. The page
//    gives the search slices of its frames (src/ui/explore.rs), so two rates: while computing
//    (runs ÷ the slices' script time: like for like with native) and as the page saw them
//    (runs ÷ wall time, frames drawn in between). The class counts are printed beside native's:
//    the same search must give the same counts.
// 3. while it searches (for --probe-ms, or until it is done): the interval between animation
//    frames (p50/p95/max, against the same page idle), and input: a click on a fault-kind box
//    every 250 ms, from the event's time stamp to the first animation frame after the app
//    handled it (the frame that shows the change).
// 4. shrinking: the script time the page spent shrinking the counterexample it shows.
// Needs `trunk build --release` first (scripts/serve.sh or scripts/test.sh do it).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ARGS, chromium, f1, needDist, root, startServer, stats, tid } from './bench/browser-common.mjs';

const opts = { runs: 100000, probeMs: 6000 };
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  if (a[i] === '--runs') opts.runs = Number(a[++i]);
  else if (a[i] === '--probe-ms') opts.probeMs = Number(a[++i]);
  else {
    console.error('usage: node scripts/bench-explore-browser.mjs [--runs N] [--probe-ms MS]');
    process.exit(2);
  }
}
needDist('bench-explore-browser');

const CLASSES = ['lost_update', 'token_repeated', 'two_believers', 'never_granted', 'safe'];
const bin = path.join(root, 'target/release/locklab');
execFileSync('cargo', ['build', '--quiet', '--release', '--bin', 'locklab'], { cwd: root, stdio: 'inherit' });

function native() {
  const args = ['explore', '--approach', 'redis', '--fencing', 'off', '--max-faults', '3', '--seed', '1', '--threads', '1', '--runs', String(opts.runs), '--json'];
  const v = JSON.parse(execFileSync(bin, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }));
  return { rate: v.schedules_per_s, classes: v.classes };
}

// In the page: frame intervals, and each click's time from its event to the frame after it.
const PROBE = () => {
  window.__frames = [];
  window.__inputs = [];
  let last = 0;
  const tick = (t) => {
    if (last) window.__frames.push(t - last);
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // Bubbling on window: after the panel's own handler (on its <details>) has run.
  window.addEventListener('click', (e) => {
    if (!e.target.closest?.('[name="explore-kind"]')) return;
    const at = e.timeStamp;
    requestAnimationFrame(() => window.__inputs.push(performance.now() - at));
  });
};

const DONE = () => document.querySelector('[data-testid="explore-runs"]')?.textContent.includes('done');

/** Frame intervals for `ms`, or (when `untilDone`) until the search is done, if sooner. */
async function frames(page, ms, untilDone = false) {
  await page.evaluate(() => (window.__frames = []));
  const done = untilDone ? page.waitForFunction(DONE, null, { timeout: ms, polling: 100 }).catch(() => {}) : null;
  await Promise.race([page.waitForTimeout(ms), ...(done ? [done] : [])]);
  return page.evaluate(() => window.__frames);
}

const countsOf = (page) =>
  page.locator('.explore-classes li').evaluateAll((ls) => Object.fromEntries(ls.map((l) => [l.dataset.class, Number(l.dataset.count)])));

const before = native();
const server = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
let wasm, chrome;
try {
  chrome = `Chromium ${await browser.version()}, headless`;
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await page.addInitScript(PROBE);
  await page.goto(server.url);
  await page.locator(tid('diagram')).waitFor();
  await page.locator(`${tid('explore-panel')} summary`).click();
  const runsField = page.locator(tid('explore-set-runs'));
  await runsField.fill(String(opts.runs));
  await runsField.press('Tab');
  const idle = await frames(page, 2000);

  await page.locator(tid('explore-start')).click();
  // Clicks on a fault kind's box, twice each (so the settings end as they began), while it runs.
  const box = page.locator(tid('explore-kind-drop'));
  const clicking = (async () => {
    for (let t = 0; t < opts.probeMs && !(await page.evaluate(DONE)); t += 250) {
      await box.click();
      await page.waitForTimeout(250);
    }
    if (!(await box.isChecked())) await box.click();
  })();
  const busy = await frames(page, opts.probeMs, true);
  await clicking;
  const inputs = await page.evaluate(() => window.__inputs);
  await page.waitForFunction(DONE, null, { timeout: 600_000 });
  const runs = page.locator(tid('explore-runs'));
  const attr = async (a) => Number(await runs.getAttribute(a));
  wasm = {
    runs: await attr('data-runs'),
    searchMs: await attr('data-search-ms'),
    shrinkMs: await attr('data-shrink-ms'),
    wall: await attr('data-rate'),
    classes: await countsOf(page),
    idle,
    busy,
    inputs,
  };
  wasm.compute = (wasm.runs * 1000) / wasm.searchMs;
} finally {
  await browser.close();
  server.stop();
}
const after = native();

const n = (x) => Math.round(x).toLocaleString('en-US');
console.log(`Explorer speed: Redis SET NX PX without fencing, every fault kind, up to 3 faults, seed 1, ${n(opts.runs)} schedules (${chrome})`);
console.log(`  native, one thread (before, after)   ${n(before.rate)}/s, ${n(after.rate)}/s`);
console.log(`  wasm in the page, while computing    ${n(wasm.compute)}/s  (${n(wasm.runs)} runs in ${f1(wasm.searchMs)} ms of slices)`);
console.log(`  wasm in the page, as the page saw it ${n(wasm.wall)}/s  (the frames drawn in between)`);
const nativeMean = (before.rate + after.rate) / 2;
console.log(`  wasm ÷ native (computing)            ${(wasm.compute / nativeMean).toFixed(2)}  (budget ≥ 0.5)`);
const same = CLASSES.every((c) => wasm.classes[c] === before.classes[c]);
console.log(`  classes native  ${CLASSES.map((c) => `${c} ${before.classes[c]}`).join(', ')}`);
console.log(`  classes wasm    ${CLASSES.map((c) => `${c} ${wasm.classes[c]}`).join(', ')}  (${same ? 'the same' : 'DIFFERENT'})`);
console.log('\nthe page while it searches (ms)');
console.log(`  frame interval, idle         ${stats(wasm.idle)}`);
console.log(`  frame interval, searching    ${stats(wasm.busy)}  (budget p95 ≤ 16 ms at 60 Hz: ≤ 16.7)`);
console.log(`  click → frame showing it     ${stats(wasm.inputs)}  (budget ≤ 100 ms)`);
console.log(`  shrinking the counterexample shown: ${f1(wasm.shrinkMs)} ms of script (budget ≤ 1 s)`);
