#!/usr/bin/env node
// Issue 22's budget: a lesson step switches in ≤ 100 ms (p95). Every built-in lesson (read from
// src/lesson/builtin.rs, so a new lesson is measured with no change here) on the lecture stage
// at 1280×720, from the release build in dist/: at each step a PageDown is dispatched in the
// page and timed until the next step is on screen (its data-step changed and two animation
// frames were drawn, so its diagram or slide is painted). A step still asking its question is
// revealed first, untimed (the reveal plays to its moment: that is playback, not a switch,
// at the fastest speed), then every step is walked back with PageUp, timed the same way.
// Prints p50/p95/max per lesson and over all; exits 1 when the p95 over all is over the budget.
//
//   node scripts/bench-lesson.mjs [--budget MS] [--record]   # --record: docs/measured/lesson.json
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ARGS, chromium, needDist, quantile, root, startServer, stats, tid } from './bench/browser-common.mjs';
import { recordMeasured, recording, round } from './bench/measured.mjs';

let budget = 100;
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  if (a[i] === '--budget') budget = Number(a[++i]);
  else if (a[i] !== '--record') throw new Error(`unknown argument ${a[i]}`);
}
needDist('bench-lesson');
const builtin = readFileSync(path.join(root, 'src/lesson/builtin.rs'), 'utf8');
const lessons = [...builtin.matchAll(/include_str!\("([^"]+)\.json"\)/g)].map((m) => JSON.parse(readFileSync(path.join(root, 'src/lesson', `${m[1]}.json`), 'utf8')).id);

const { url, stop } = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });

/** Dispatches `key` in the page and resolves with the ms until the step changed and painted. */
const timedKey = (key) =>
  page.evaluate(async (key) => {
    // Returns [ms, the step it landed on] (null: the step did not change within 5 s).
    const lesson = () => document.querySelector('[data-testid="lesson"]');
    const was = lesson()?.getAttribute('data-step');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    while (lesson()?.getAttribute('data-step') === was) {
      if (performance.now() - t0 > 5000) return null;
      await new Promise((r) => setTimeout(r, 0));
    }
    await frame();
    await frame();
    return [performance.now() - t0, lesson()?.getAttribute('data-step')];
  }, key);

const all = [];
const slow = [];
let failed = false;
for (const id of lessons) {
  await page.goto(`${url}?lesson=${id}&lecture=1`);
  await page.waitForSelector(tid('lesson'));
  // The fastest playback, so the untimed reveals do not take the benchmark's minutes.
  await page.$eval(tid('speed'), (s) => {
    s.value = s.options[s.options.length - 1].value;
    s.dispatchEvent(new Event('change', { bubbles: true }));
  });
  const times = [];
  for (let k = 0; k < 30; k++) {
    if (await page.$('section.lesson.asking')) {
      await page.click(tid('lesson-reveal'));
      await page.waitForSelector(tid('lesson-revealed'), { timeout: 120_000 });
    }
    if (await page.$eval(tid('lesson-next'), (b) => b.disabled)) break;
    const got = await timedKey('PageDown');
    if (got === null) break;
    times.push(got[0]);
    slow.push([got[0], `${id} → step ${got[1]}`]);
  }
  for (let k = 0; k < 30; k++) {
    if (await page.$eval(tid('lesson-prev'), (b) => b.disabled)) break;
    const got = await timedKey('PageUp');
    if (got === null) {
      failed = true;
      console.error(`${id}: PageUp did not change the step`);
      break;
    }
    times.push(got[0]);
    slow.push([got[0], `${id} ← step ${got[1]}`]);
  }
  all.push(...times);
  console.log(`${id.padEnd(18)} ${stats(times)}`);
}
const p95 = quantile(all, 0.95);
console.log(`${'all lessons'.padEnd(18)} ${stats(all)}  budget p95 ≤ ${budget} ms: ${p95 <= budget ? 'met' : 'NOT met'}`);
console.log(`slowest: ${slow.sort((a, b) => b[0] - a[0]).slice(0, 5).map(([ms, what]) => `${what} ${ms.toFixed(0)} ms`).join('; ')}`);
if (recording && !failed) {
  recordMeasured('lesson', { lessons: lessons.length, switches: all.length, p50_ms: round(quantile(all, 0.5)), p95_ms: round(p95), max_ms: round(Math.max(...all)), budget_p95_ms: budget });
}
await browser.close();
stop();
process.exit(failed || !(p95 <= budget) ? 1 : 0);
