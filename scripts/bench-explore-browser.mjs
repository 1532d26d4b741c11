#!/usr/bin/env node
// The explorer in the page against the explorer native, in one run on the same machine, with
// the release builds (dist/, or --dist DIR, and target/release/locklab). Prints figures with
// their budgets (issue 38, item 3); asserts nothing.
//
//   node scripts/bench-explore-browser.mjs [--runs 100000] [--rounds 3] [--dist DIR] [--record]
//
// 1. Per core: `locklab explore --approach redis --fencing off --max-faults 3 --seed 1
//    --threads 1` (the Explore panel's default search: Redis without fencing, every fault
//    kind), against the same search started from the panel's
//    Start button in headless Chromium, where it runs on Web Workers (src/ui/explore/workers.rs)
//    told the machine has one core (navigator.hardwareConcurrency = 1): one worker, like for
//    like with one native thread (the same contention on a shared machine: one thread
//    computing, the page drawing beside it). Its rate is its runs ÷ the worker's time on them
//    (each task's time, measured in the worker). The class counts are printed beside native's:
//    they must be the same.
// 2. The seed's table: `locklab explore --table --json` on every core (wall time), against
//    the panel's table from Start until its last cell is filled and every lost
//    update shrunk (the page's own clock: the first frame of the search to the last).
// 3. While each runs in the page: the interval between animation frames, and input answered:
//    a click every 250 ms (a fault kind's box during the search, the panel's tabs during the
//    table), from the event's time stamp to the first animation frame after the app handled it
//    (the frame that shows the change).
// Both in --rounds rounds, each native then page; the ratios are medians over the rounds.
// --record writes the figures to docs/measured/explore.json (scripts/bench/measured.mjs).
// Needs `trunk build --release` first (scripts/serve.sh or scripts/test.sh do it).
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { ARGS, chromium, needDist, quantile, root, startServer, stats, tid } from './bench/browser-common.mjs';
import { recordMeasured, recording, round } from './bench/measured.mjs';

const opts = { runs: 100000, rounds: 3, dist: path.join(root, 'dist') };
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  if (a[i] === '--runs') opts.runs = Number(a[++i]);
  else if (a[i] === '--rounds') opts.rounds = Number(a[++i]);
  else if (a[i] === '--dist') opts.dist = path.resolve(a[++i]);
  else if (a[i] !== '--record') {
    console.error('usage: node scripts/bench-explore-browser.mjs [--runs N] [--rounds N] [--dist DIR] [--record]');
    process.exit(2);
  }
}
needDist('bench-explore-browser', opts.dist);

const CLASSES = ['lost_update', 'token_repeated', 'two_believers', 'never_granted', 'safe'];
const bin = path.join(root, 'target/release/locklab');
execFileSync('cargo', ['build', '--quiet', '--release', '--bin', 'locklab'], { cwd: root, stdio: 'inherit' });
const cli = (args) => JSON.parse(execFileSync(bin, ['explore', ...args, '--json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }));

/** One native thread on the panel's default search: schedules/s and the class counts. */
function nativePerCore() {
  const v = cli(['--approach', 'redis', '--fencing', 'off', '--max-faults', '3', '--seed', '1', '--threads', '1', '--runs', String(opts.runs)]);
  return { rate: v.schedules_per_s, classes: v.classes };
}

/** The seed's table on every core: wall ms, threads, and the cells' counts. */
function nativeTable() {
  const t0 = performance.now();
  const v = cli(['--table']);
  return { ms: performance.now() - t0, threads: v.threads, cells: v.cells.map((c) => `${c.row} ${c.fencing ? 'on' : 'off'} ${c.runs} ${CLASSES.map((k) => c.classes[k]).join(' ')} ${c.token_repeats}`) };
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
    if (!e.target.closest?.('[name="explore-kind"], [data-testid^="explore-tab-"]')) return;
    const at = e.timeStamp;
    requestAnimationFrame(() => window.__inputs.push(performance.now() - at));
  });
};

const runsOf = (page) => page.locator(tid('explore-runs'));
/** Done, with every counterexample it shows shrunk. */
const DONE = () =>
  !!document.querySelector('[data-testid="explore-runs"]')?.textContent.includes('done') &&
  !/[Ss]hrinking…/.test(document.querySelector('.explore-live')?.textContent ?? '');

/** Clicks `targets` in turn every 250 ms until the page is done; frame intervals meanwhile. */
async function probe(page, targets) {
  await page.evaluate(() => {
    window.__frames = [];
    window.__inputs = [];
  });
  let k = 0;
  while (!(await page.evaluate(DONE))) {
    await page.locator(targets[k++ % targets.length]).click();
    await page.waitForTimeout(250);
  }
  return page.evaluate(() => ({ frames: window.__frames, inputs: window.__inputs }));
}

const countsOf = (page) =>
  page.locator('.explore-classes li').evaluateAll((ls) => Object.fromEntries(ls.map((l) => [l.dataset.class, Number(l.dataset.count)])));
const attr = async (page, a) => Number(await runsOf(page).getAttribute(a));

async function pageSearch(page) {
  const runsField = page.locator(tid('explore-set-runs'));
  await runsField.fill(String(opts.runs));
  await runsField.press('Tab');
  await page.locator(tid('explore-start')).click();
  // A fault kind's box clicked twice each time round, so the settings end as they began.
  const box = tid('explore-kind-drop');
  const seen = await probe(page, [box, box]);
  await page.waitForFunction(DONE, null, { timeout: 0, polling: 100 });
  const out = { runs: await attr(page, 'data-runs'), searchMs: await attr(page, 'data-search-ms'), workers: await attr(page, 'data-workers'), wall: await attr(page, 'data-rate'), classes: await countsOf(page), ...seen };
  return { ...out, perCore: (out.runs * 1000) / out.searchMs };
}

async function pageTable(page) {
  await page.locator(tid('explore-tab-table')).click();
  await page.locator(tid('explore-start')).click();
  const seen = await probe(page, [tid('explore-tab-search'), tid('explore-tab-table')]);
  await page.locator(tid('explore-tab-table')).click();
  await page.waitForFunction(DONE, null, { timeout: 0, polling: 100 });
  const cells = await page.locator(tid('explore-cell')).evaluateAll((cs) =>
    cs.map((c) => `${c.dataset.approach} ${c.dataset.fencing} ${c.dataset.runs} ${c.dataset.classes} ${c.querySelector('[data-testid="explore-cell-tokens"]').dataset.count}`),
  );
  return { ms: await attr(page, 'data-wall-ms'), workers: await attr(page, 'data-workers'), cells, ...seen };
}

// Rounds, each native then page side by side: on a shared machine the load moves between
// minutes, and a ratio is only fair between measurements taken close together. The figures are
// each ratio's median over the rounds, with the medians of the rates and times beside them.
const server = await startServer(opts.dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
const rounds = [];
let chrome, idle;
try {
  chrome = `Chromium ${await browser.version()}, headless`;
  const open = async (cores) => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    await page.addInitScript(PROBE);
    if (cores) await page.addInitScript((n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), cores);
    await page.goto(server.url);
    await page.locator(tid('diagram')).waitFor();
    await page.locator(`${tid('explore-panel')} summary`).click();
    return page;
  };
  for (let r = 0; r < opts.rounds; r++) {
    const native = { core: nativePerCore(), table: nativeTable() };
    const page = await open(1);
    if (r === 0) {
      await page.waitForTimeout(2000);
      idle = await page.evaluate(() => window.__frames);
    }
    const search = await pageSearch(page);
    await page.context().close();
    const tablePage = await open();
    const table = await pageTable(tablePage);
    await tablePage.context().close();
    rounds.push({ native, search, table, perCore: search.perCore / native.core.rate, tableRatio: table.ms / native.table.ms });
  }
} finally {
  await browser.close();
  server.stop();
}

const n = (x) => Math.round(x).toLocaleString('en-US');
const median = (xs) => quantile(xs, 0.5);
const each = (f) => rounds.map(f);
const nativeRate = median(each((r) => r.native.core.rate));
const pageRate = median(each((r) => r.search.perCore));
const cliMs = median(each((r) => r.native.table.ms));
const pageMs = median(each((r) => r.table.ms));
const perCoreRatio = median(each((r) => r.perCore));
const tableRatio = median(each((r) => r.tableRatio));
const { search, table, native } = rounds[0];
const sameClasses = rounds.every((r) => CLASSES.every((c) => r.search.classes[c] === r.native.core.classes[c]));
const sameTable = rounds.every((r) => JSON.stringify(r.table.cells) === JSON.stringify(r.native.table.cells));
const inputs = rounds.flatMap((r) => [...r.search.inputs, ...r.table.inputs]);
const frames = rounds.flatMap((r) => [...r.search.frames, ...r.table.frames]);
const list = (f, unit) => each(f).map((x) => `${n(x)}${unit}`).join(', ');
const ratios = (f) => each(f).map((x) => x.toFixed(2)).join(', ');

console.log(`The explorer in the page (${chrome}, ${os.cpus().length} cores) against the CLI, same machine, ${rounds.length} rounds`);
console.log(`\nper core: Redis SET NX PX without fencing, every fault kind, up to 3 faults, seed 1, ${n(opts.runs)} schedules`);
console.log(`  native, one thread                    ${list((r) => r.native.core.rate, '/s')}`);
console.log(`  page, one worker (runs ÷ its time)    ${list((r) => r.search.perCore, '/s')}`);
console.log(`  page, as the page saw it              ${list((r) => r.search.wall, '/s')}`);
console.log(`  page ÷ native, per core               ${ratios((r) => r.perCore)}: median ${perCoreRatio.toFixed(2)}  (budget ≥ 0.8)`);
console.log(`  classes native  ${CLASSES.map((c) => `${c} ${native.core.classes[c]}`).join(', ')}`);
console.log(`  classes page    ${CLASSES.map((c) => `${c} ${search.classes[c]}`).join(', ')}  (${sameClasses ? 'the same in every round' : 'DIFFERENT'})`);
console.log(`\nthe seed's table (every cell at its plan, every lost update shrunk)`);
console.log(`  CLI on ${native.table.threads} threads                     ${list((r) => r.native.table.ms, ' ms')}`);
console.log(`  page on ${table.workers} workers                   ${list((r) => r.table.ms, ' ms')}`);
console.log(`  page ÷ CLI                            ${ratios((r) => r.tableRatio)}: median ${tableRatio.toFixed(2)}  (budget ≤ 1.2)`);
console.log(`  cells (runs, classes, tokens)         ${sameTable ? 'the same in every round' : 'DIFFERENT'} (${table.cells.length} cells)`);
console.log('\nthe page while they run (ms)');
console.log(`  frame interval, idle                  ${stats(idle)}`);
console.log(`  frame interval, running               ${stats(frames)}`);
console.log(`  click → frame showing it              ${stats(inputs)}  (budget ≤ 100 ms)`);

if (recording) {
  recordMeasured('explore', {
    rounds: rounds.length,
    workers: table.workers,
    per_core: { native_per_s: round(nativeRate), page_per_s: round(pageRate), ratio: round(perCoreRatio, 2), same_classes: sameClasses ? 1 : 0 },
    table: { cli_ms: round(cliMs), cli_threads: native.table.threads, page_ms: round(pageMs), ratio: round(tableRatio, 2), same_cells: sameTable ? 1 : 0 },
    input: { p50_ms: round(quantile(inputs, 0.5)), p95_ms: round(quantile(inputs, 0.95)), max_ms: round(Math.max(...inputs)), clicks: inputs.length },
    frame_p95_ms: round(quantile(frames, 0.95)),
    // The same page before anything runs: what the machine's load alone does to its frames.
    idle_frame_p95_ms: round(quantile(idle, 0.95)),
  });
}
