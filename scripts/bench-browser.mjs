#!/usr/bin/env node
// Browser figures for Lock Lab's release build (dist/), in Debian's headless Chromium through
// the playwright-core API installed in tests/e2e/node_modules. Prints figures; asserts nothing.
//
//   node scripts/bench-browser.mjs [--runs 7] [--play-ms 4000] [--scenario ID]... [--scenario-file FILE]...
//
// --scenario-file runs a scenario file through the app's own "Your own scenario (JSON)" editor,
// e.g. scripts/bench/redlock-9x4.json: Redlock with 9 instances and 4 clients, about 17,800
// trace events in 60 s (issue 4's frame-cost and 10,000-event seek budgets).
//
// 1. first render: ms from navigation start until the diagram SVG is in the DOM, and until the
//    frame after that (when it is on screen), each page load in a fresh browser context.
// 2. frame script cost while playing: a DevTools trace of the renderer's main thread; the script
//    time (top-level FunctionCall / FireAnimationFrame / RunMicrotasks / TimerFire / EventDispatch /
//    EvaluateScript slices) between one animation-frame callback and the next; p50/p95/max.
// 3. seek: ms from setting the scrub to a new time until the diagram shows that time and is laid
//    out again (a MutationObserver on data-cursor-ms, then a forced layout); p50/p95/max.
// Needs `trunk build --release` first (scripts/serve.sh or scripts/test.sh do it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ARGS, chromium, needDist, startServer, stats, tid } from './bench/browser-common.mjs';

const opts = { runs: 7, playMs: 4000, scenarios: [], files: [] };
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  if (a[i] === '--runs') opts.runs = Number(a[++i]);
  else if (a[i] === '--play-ms') opts.playMs = Number(a[++i]);
  else if (a[i] === '--scenario') opts.scenarios.push(a[++i]);
  else if (a[i] === '--scenario-file') opts.files.push(path.resolve(a[++i]));
  else {
    console.error(`usage: node scripts/bench-browser.mjs [--runs N] [--play-ms MS] [--scenario ID]... [--scenario-file FILE]...`);
    process.exit(2);
  }
}
needDist('bench-browser');

// Records when the diagram first enters the DOM, and the frame after it.
const FIRST_RENDER_PROBE = () => {
  window.__firstRender = {};
  const seen = () => {
    if (window.__firstRender.dom || !document.querySelector('[data-testid="diagram"]')) return;
    window.__firstRender.dom = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => (window.__firstRender.frame = performance.now())));
    obs.disconnect();
  };
  const obs = new MutationObserver(seen);
  obs.observe(document, { childList: true, subtree: true });
};

async function firstRender(browser, url) {
  const dom = [];
  const frame = [];
  const wasm = [];
  for (let i = 0; i < opts.runs; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await ctx.newPage();
    await page.addInitScript(FIRST_RENDER_PROBE);
    await page.goto(url);
    await page.waitForFunction(() => window.__firstRender.frame, null, { timeout: 30_000 });
    const r = await page.evaluate(() => ({
      ...window.__firstRender,
      wasm: performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'))?.responseEnd ?? NaN,
    }));
    if (i > 0) {
      // the first load warms the OS file cache and the server; it is not counted
      dom.push(r.dom);
      frame.push(r.frame);
      wasm.push(r.wasm);
    }
    await ctx.close();
  }
  return { dom, frame, wasm };
}

// Top-level script slices on the renderer main thread, from a DevTools trace.
const SCRIPT = new Set(['FunctionCall', 'FireAnimationFrame', 'RunMicrotasks', 'TimerFire', 'EventDispatch', 'EvaluateScript', 'v8.evaluateModule']);

function frameScriptCost(events) {
  const mainTids = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = events.filter((e) => e.ph === 'X' && mainTids.has(`${e.pid}:${e.tid}`) && typeof e.dur === 'number');
  // Merge script slices into disjoint intervals (nested slices would count twice).
  const slices = onMain.filter((e) => SCRIPT.has(e.name)).map((e) => [e.ts, e.ts + e.dur]).sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const [s, e] of slices) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  // Frames: from one animation-frame callback to the next; without rAF, 16.7 ms slots.
  let anchors = onMain.filter((e) => e.name === 'FireAnimationFrame').map((e) => e.ts).sort((a, b) => a - b);
  let kind = 'animation-frame callbacks';
  anchors = [...new Set(anchors)];
  if (anchors.length < 10 && merged.length) {
    kind = '16.7 ms slots (no rAF seen)';
    anchors = [];
    for (let t = merged[0][0]; t < merged[merged.length - 1][1]; t += 16_667) anchors.push(t);
  }
  const perFrame = [];
  let j = 0;
  for (let i = 0; i + 1 < anchors.length; i++) {
    const [a, b] = [anchors[i], anchors[i + 1]];
    let sum = 0;
    while (j < merged.length && merged[j][1] <= a) j++;
    for (let k = j; k < merged.length && merged[k][0] < b; k++) sum += Math.min(b, merged[k][1]) - Math.max(a, merged[k][0]);
    perFrame.push(sum / 1000);
  }
  const spanS = anchors.length > 1 ? (anchors[anchors.length - 1] - anchors[0]) / 1e6 : 0;
  return { perFrame, kind, fps: spanS ? (anchors.length - 1) / spanS : 0 };
}

async function setToMax(page, id) {
  const el = page.locator(tid(id));
  if (!(await el.count())) return 'no speed control';
  const tag = await el.evaluate((e) => e.tagName.toLowerCase());
  if (tag === 'select') {
    const last = await el.evaluate((e) => e.options[e.options.length - 1].value);
    await el.selectOption(last);
    return `speed ${last}`;
  }
  const max = await el.getAttribute('max');
  if (max !== null) await el.fill(max);
  return `speed ${max}`;
}

// Opens a built-in by id, or a scenario file (an absolute path) through the JSON editor.
async function open(page, url, scenario) {
  await page.goto(url);
  await page.locator(tid('diagram')).waitFor();
  if (!scenario.startsWith('/')) {
    await page.locator(tid('scenario-picker')).selectOption(scenario);
    return;
  }
  const text = readFileSync(scenario, 'utf8');
  const duration = String(JSON.parse(text).duration_ms ?? 30000);
  await page.locator(`${tid('scenario-json')} summary`).first().click();
  await page.locator(tid('scenario-json-input')).fill(text);
  await page.locator(tid('scenario-json-run')).click();
  await page.waitForFunction((d) => document.querySelector('[data-testid="scrub"]').getAttribute('max') === d, duration, { timeout: 30_000 });
}

const label = (s) => (s.startsWith('/') ? path.basename(s) : s);

async function playing(page, url, scenario) {
  await open(page, url, scenario);
  const speed = await setToMax(page, 'speed');
  await page.locator(tid('scrub')).fill(String(await page.locator(tid('scrub')).getAttribute('min') ?? 0));
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,__metadata', transferMode: 'ReportEvents' });
  await page.locator(tid('play')).click();
  await page.waitForTimeout(opts.playMs);
  const cursor = await page.locator(tid('diagram')).getAttribute('data-cursor-ms');
  await cdp.send('Tracing.end');
  await done;
  await page.locator(tid('play')).click();
  await cdp.detach();
  return { ...frameScriptCost(events), speed, cursor };
}

async function seeks(page, url, scenario) {
  await open(page, url, scenario);
  const scrub = page.locator(tid('scrub'));
  const min = Number((await scrub.getAttribute('min')) ?? 0);
  const max = Number(await scrub.getAttribute('max'));
  const step = Number((await scrub.getAttribute('step')) || 1);
  let x = 12345;
  const targets = [];
  for (let i = 0; i < 40; i++) {
    x = (x * 1103515245 + 12345) % 2147483648; // a fixed LCG: the same targets every run
    targets.push(min + Math.round(((x / 2147483648) * (max - min)) / step) * step);
  }
  targets.push(max, min);
  return page.evaluate(async (targets) => {
    const scrub = document.querySelector('[data-testid="scrub"]');
    const times = [];
    let prev = Number(document.querySelector('[data-testid="diagram"]').getAttribute('data-cursor-ms'));
    for (const t of targets) {
      if (t === prev) continue;
      const shown = new Promise((resolve) => {
        const obs = new MutationObserver(() => {
          const d = document.querySelector('[data-testid="diagram"]');
          if (Number(d.getAttribute('data-cursor-ms')) === t) {
            d.getBoundingClientRect(); // force style and layout of the new picture
            obs.disconnect();
            resolve(performance.now());
          }
        });
        obs.observe(document.body, { attributes: true, childList: true, subtree: true });
      });
      const t0 = performance.now();
      scrub.value = String(t);
      scrub.dispatchEvent(new Event('input', { bubbles: true }));
      scrub.dispatchEvent(new Event('change', { bubbles: true }));
      const t1 = await Promise.race([shown, new Promise((r) => setTimeout(() => r(NaN), 2000))]);
      times.push(t1 - t0);
      prev = t;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return times;
  }, targets);
}

const server = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  console.log(`Lock Lab browser figures (release build from ${server.url}, ${await browser.version()}, headless)`);
  const fr = await firstRender(browser, server.url);
  console.log(`\nfirst render of the diagram (ms from navigation start, ${fr.dom.length} fresh contexts after 1 warm-up)`);
  console.log(`  .wasm downloaded:        ${stats(fr.wasm)}`);
  console.log(`  diagram in the DOM:      ${stats(fr.dom)}`);
  console.log(`  frame after (on screen): ${stats(fr.frame)}`);

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.locator(tid('diagram')).waitFor();
  const all = await page.locator(`${tid('scenario-picker')} option`).evaluateAll((os) => os.map((o) => o.value));
  const scenarios = [...(opts.scenarios.length || opts.files.length ? opts.scenarios : all), ...opts.files];

  console.log(`\nscript time per frame while playing (ms, ${opts.playMs} ms of playback at top speed)`);
  for (const s of scenarios) {
    const r = await playing(page, server.url, s);
    console.log(`  ${label(s).padEnd(36)} ${stats(r.perFrame)}  ~${r.fps.toFixed(0)} frames/s, frames = ${r.kind}, ${r.speed}, cursor reached ${r.cursor} ms`);
  }

  console.log('\nseek: scrub to a new time → diagram shows it, laid out (ms)');
  for (const s of scenarios) {
    const t = await seeks(page, server.url, s);
    const bad = t.filter((x) => !Number.isFinite(x)).length;
    const ok = t.filter(Number.isFinite);
    console.log(`  ${label(s).padEnd(36)} ${stats(ok)}${bad ? `  (${bad} seeks never showed their time)` : ''}`);
  }
  await ctx.close();
} finally {
  await browser.close();
  server.stop();
}
