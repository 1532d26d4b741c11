#!/usr/bin/env node
// Where a page load's time goes, for working on issue 11's load budget: one load of the release
// build (dist/) and one of the bare-Yew floor (target/floor-dist/), each in a fresh context with a
// DevTools trace, printed as a timeline of the renderer main thread's tasks (≥ 1 ms, the biggest
// children by name) and of the files' arrival. Prints figures; asserts nothing.
//
//   node scripts/bench/load-trace.mjs [--runs N] [--dist DIR]   # N loads each; the last is printed
import path from 'node:path';
import { existsSync } from 'node:fs';
import { ARGS, chromium, needDist, root, startServer, tid } from './browser-common.mjs';

const opts = { runs: 3, dist: path.join(root, 'dist') };
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  if (a[i] === '--runs') opts.runs = Number(a[++i]);
  else if (a[i] === '--dist') opts.dist = path.resolve(a[++i]);
  else {
    console.error('usage: node scripts/bench/load-trace.mjs [--runs N] [--dist DIR]');
    process.exit(2);
  }
}
needDist('load-trace', opts.dist);

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.wasm', 'blink', 'loading', 'toplevel'];

async function traced(browser, url, selector) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: CATEGORIES.join(','), transferMode: 'ReportEvents' });
  await page.goto(url);
  await page.locator(selector).first().waitFor();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const navStart = await page.evaluate(() => performance.timeOrigin);
  const resources = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({ name: e.name.split('/').pop(), start: e.startTime, end: e.responseEnd, size: e.transferSize })),
  );
  await cdp.send('Tracing.end');
  await done;
  await context.close();
  return { events, navStart, resources };
}

function report(label, { events, resources }) {
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const on = events.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`) && typeof e.dur === 'number');
  // The navigation's start in trace time: the first main-thread task of the new document.
  const nav = events.find((e) => e.name === 'navigationStart' && main.has(`${e.pid}:${e.tid}`)) ?? events.find((e) => e.name === 'navigationStart');
  const t0 = nav ? nav.ts : Math.min(...on.map((e) => e.ts));
  const ms = (us) => (us / 1000).toFixed(1).padStart(7);
  console.log(`\n${label}`);
  for (const r of resources) console.log(`  file ${r.name.padEnd(44)} ${r.start.toFixed(1).padStart(7)} → ${r.end.toFixed(1).padStart(7)} ms  ${(r.size / 1024).toFixed(1)} KB`);
  const tasks = on.filter((e) => e.name === 'RunTask' && e.dur >= 1000 && e.ts >= t0).sort((a, b) => a.ts - b.ts);
  let busy = 0;
  for (const t of tasks) {
    busy += t.dur;
    // The task's biggest named slices, summed by name (nested ones count within their parent).
    const kids = new Map();
    for (const e of on) if (e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur >= 300) kids.set(e.name, (kids.get(e.name) ?? 0) + e.dur);
    const top = [...kids].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`).join(', ');
    console.log(`  task ${ms(t.ts - t0)} +${ms(t.dur)} ms  ${top}`);
  }
  console.log(`  main thread busy in tasks ≥ 1 ms: ${(busy / 1000).toFixed(1)} ms`);
  const compiles = events.filter((e) => /wasm/i.test(e.name) && e.ph === 'X' && typeof e.dur === 'number' && e.dur >= 500);
  for (const c of compiles.slice(0, 12)) console.log(`  wasm ${c.name} at ${ms(c.ts - t0)} +${ms(c.dur)} ms (thread ${c.tid})`);
}

const server = await startServer(opts.dist);
const floorDir = path.join(root, 'target/floor-dist');
const floor = existsSync(path.join(floorDir, 'index.html')) ? await startServer(floorDir) : null;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  let app, fl;
  for (let i = 0; i < opts.runs; i++) {
    app = await traced(browser, server.url, tid('diagram'));
    if (floor) fl = await traced(browser, floor.url, 'button');
  }
  report('app (dist/)', app);
  if (fl) report('bare-Yew floor (target/floor-dist/)', fl);
} finally {
  await browser.close();
  server.stop();
  floor?.stop();
}
