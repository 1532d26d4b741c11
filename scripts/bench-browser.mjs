#!/usr/bin/env node
// Browser figures for Lock Lab's release build (dist/), in Debian's headless Chromium through
// the playwright-core API installed in tests/e2e/node_modules. Prints figures; asserts nothing.
//
//   node scripts/bench-browser.mjs [--runs 7] [--play-ms 4000] [--scenario ID]... [--scenario-file FILE]... [--load-only] [--dist DIR] [--against DIR]
//
// --dist measures another build folder (default dist/), e.g. one built with other flags.
// --against DIR loads DIR's build (e.g. the previous commit's, built with release_build --dist)
// in turns with it, each address of both, so both see the same machine, and prints the ratio of
// their p50s (first diagram, .wasm downloaded, live app answering): one run, as a ratio.
//
// --scenario-file runs a scenario file through the app's own "Your own scenario (JSON)" editor,
// e.g. scripts/bench/redlock-9x4.json: Redlock with 9 instances and 4 clients, about 17,800
// trace events in 60 s (issue 4's frame-cost and 10,000-event seek budgets).
//
// 1. first diagram: ms from navigation start until a diagram is on screen (the frame it is
//    painted in), the pre-drawn figure (issue 25 item 4) or the live one, until the live diagram is
//    on screen, and until the app answers input (End or Home moves its cursor); each page load in a fresh
//    browser context, for three addresses: the default one, a built-in at a moment, an embed:
//    - on loopback (budget: first diagram p50 ≤ 300 ms);
//    - on a slow connection, Chromium's network emulation (CDP Network.emulateNetworkConditions:
//      150 ms latency, 1.6 Mbps down, 750 kbps up), with the moment the loading text is painted
//      (first contentful paint) and the bytes transferred (budgets: first diagram ≤ 1.2× the
//      loading text, answers input ≤ 2.0 s). The ratio to a bare-Yew page is retired (issue 25).
//    --load-only stops after these.
// 2. frame script cost while playing: a DevTools trace of the renderer's main thread; the script
//    time (top-level FunctionCall / FireAnimationFrame / RunMicrotasks / TimerFire / EventDispatch /
//    EvaluateScript slices) between one animation-frame callback and the next; p50/p95/max.
// 3. seek: ms from setting the scrub to a new time until the diagram shows that time and is laid
//    out again (a MutationObserver on data-cursor-ms, then a forced layout); p50/p95/max.
// 4. inject: a pause by the fault menu, re-simulated and redrawn (see `injects`).
// Needs `trunk build --release` first (scripts/serve.sh or scripts/test.sh do it).
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { ARGS, chromium, freshPage, SLOW, needDist, quantile, root, startServer, stats, tid } from './bench/browser-common.mjs';
import { recordMeasured, recording, round } from './bench/measured.mjs';

const opts = { runs: 7, playMs: 4000, scenarios: [], files: [], loadOnly: false, dist: path.join(root, 'dist') };
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  if (a[i] === '--runs') opts.runs = Number(a[++i]);
  else if (a[i] === '--play-ms') opts.playMs = Number(a[++i]);
  else if (a[i] === '--scenario') opts.scenarios.push(a[++i]);
  else if (a[i] === '--scenario-file') opts.files.push(path.resolve(a[++i]));
  else if (a[i] === '--load-only') opts.loadOnly = true;
  else if (a[i] === '--dist') opts.dist = path.resolve(a[++i]);
  else if (a[i] === '--against') opts.against = path.resolve(a[++i]);
  else if (a[i] === '--record') continue; // docs/measured/load.json (bench/measured.mjs)
  else {
    console.error(`usage: node scripts/bench-browser.mjs [--runs N] [--play-ms MS] [--scenario ID]... [--scenario-file FILE]... [--load-only] [--dist DIR] [--against DIR] [--record]`);
    process.exit(2);
  }
}
needDist('bench-browser', opts.dist);

// Records when `selector` first enters the DOM, and the frame after it; the first frame with a
// diagram on screen, the pre-drawn figure (issue 25: `[data-testid=first-paint]`) or the live
// one; when the page answers input before the wasm (End or Home steps its pre-drawn figure);
// and when the app first answers input: from the live diagram on, End (Home where the
// cursor starts elsewhere than 0) is sent each frame until the diagram's cursor moves.
const FIRST_RENDER_PROBE = (selector) => {
  const r = (window.__firstRender = {});
  const seen = () => {
    if (r.dom || !document.querySelector(selector)) return;
    r.dom = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => (r.frame = performance.now())));
    obs.disconnect();
  };
  const obs = new MutationObserver(seen);
  obs.observe(document, { childList: true, subtree: true });
  // Trunk's bootstrap fires this once init() returned: the wasm compiled and main() ran (for
  // Yew, the first render pass up to its first 16 ms yield).
  addEventListener('TrunkApplicationStarted', () => (r.started = performance.now()));
  // Each frame, before its paint: is a diagram visible in it, and has the app answered?
  let cursor0, drawn0, sent = 0;
  const tick = () => {
    const shown = [...document.querySelectorAll('[data-testid="first-paint"], [data-testid="diagram"]')].find((e) => e.checkVisibility());
    if (shown && r.figure === undefined) [r.figure, r.figureKind] = [performance.now(), shown.dataset.testid];
    const live = document.querySelector('[data-testid="diagram"]');
    // The page answering before the wasm (index.html: the keys step the pre-drawn moments):
    // End or Home each frame until the figure's moment changes; never, when the live app came first.
    const drawn = !live && r.pageAnswered === undefined && document.querySelector('[data-testid="first-paint"]');
    if (drawn) {
      if (drawn0 === undefined) drawn0 = drawn.dataset.at;
      if (drawn.dataset.at !== drawn0) r.pageAnswered = performance.now();
      else {
        // End, or Home when it is at its last moment already (every other frame).
        const key = (sent++ & 1) ? 'Home' : 'End';
        document.dispatchEvent(new KeyboardEvent('keydown', { key, code: key, bubbles: true, cancelable: true }));
      }
    }
    if (live && r.answered === undefined) {
      const now = live.getAttribute('data-cursor-ms');
      if (cursor0 === undefined) cursor0 = now;
      if (now !== cursor0) r.answered = performance.now();
      else {
        const key = cursor0 === '0' ? 'End' : 'Home';
        document.dispatchEvent(new KeyboardEvent('keydown', { key, code: key, bubbles: true, cancelable: true }));
      }
    }
    if (r.answered === undefined) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

/** One page load in a fresh context: when `selector` is in the DOM and on screen, and what it took. */
async function loadOnce(browser, url, selector, network, viewport = { width: 1280, height: 720 }) {
  const { context, page } = await freshPage(browser, network, viewport);
  await page.addInitScript(FIRST_RENDER_PROBE, selector);
  // How each file came: the project's server should send the build's .br (or .gz) twins.
  const encodings = {};
  page.on('response', async (res) => {
    const ext = /\.(wasm|js|css|html)$/.exec(new URL(res.url()).pathname)?.[1] ?? (new URL(res.url()).pathname.endsWith('/') ? 'html' : null);
    if (ext) (encodings[ext] ??= new Set()).add((await res.allHeaders())['content-encoding'] ?? 'identity');
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__firstRender.frame && window.__firstRender.answered, null, { timeout: 60_000 });
  const r = await page.evaluate(() => {
    const res = performance.getEntriesByType('resource');
    const nav = performance.getEntriesByType('navigation')[0];
    return {
      ...window.__firstRender,
      wasm: res.find((e) => e.name.endsWith('.wasm'))?.responseEnd ?? NaN,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      bytes: res.reduce((n, e) => n + e.transferSize, nav?.transferSize ?? 0),
      wasmFetches: res.filter((e) => e.name.endsWith('.wasm')).length,
    };
  });
  await context.close();
  return { ...r, encodings: Object.entries(encodings).map(([k, v]) => `${k} ${[...v].join('/')}`).sort().join(', ') };
}

/** `opts.runs` loads of each page, taken in turn (so both see the same machine), after one warm-up each. */
async function firstRenders(browser, pages, network) {
  const out = pages.map(() => ({ started: [], dom: [], frame: [], figure: [], figureKind: [], pageAnswered: [], answered: [], wasm: [], fcp: [], bytes: [], wasmFetches: [], encodings: [] }));
  for (let i = 0; i < opts.runs; i++) {
    for (const [k, { url, selector, viewport }] of pages.entries()) {
      const r = await loadOnce(browser, url, selector, network, viewport);
      // the first load warms the OS file cache and the server; it is not counted
      if (i > 0) for (const key of Object.keys(out[k])) out[k][key].push(r[key]);
    }
  }
  return out;
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

// Injecting a pause by the fault menu (issue 12's budget: re-simulated and redrawn within one
// frame, p95 ≤ 16 ms): from the click on "Pause A" until the app has re-rendered with the new
// fault's handle in the DOM and the page is laid out (the work, without the wait for the next
// vsync); undone (Ctrl+Z) between repetitions.
async function injects(page, url, scenario, reps = 15) {
  await open(page, url, scenario);
  const scrub = page.locator(tid('scrub'));
  await scrub.fill(String(Math.round(Number(await scrub.getAttribute('max')) / 3)));
  return page.evaluate(async (reps) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const handles = () => document.querySelectorAll('[data-testid="fault-handle"]').length;
    const until = (ok) =>
      new Promise((resolve) => {
        if (ok()) return resolve();
        const obs = new MutationObserver(() => ok() && (obs.disconnect(), resolve()));
        obs.observe(document.body, { attributes: true, childList: true, subtree: true });
      });
    const times = [];
    for (let i = 0; i < reps; i++) {
      const lane = document.querySelector('[data-testid="lane"][data-node="A"]');
      const r = lane.getBoundingClientRect();
      lane.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }));
      await until(() => document.querySelector('[data-testid="fault-menu-pause"]'));
      await frame();
      const before = handles();
      const t0 = performance.now();
      document.querySelector('[data-testid="fault-menu-pause"]').click();
      await until(() => handles() > before);
      document.querySelector('[data-testid="diagram"]').getBoundingClientRect();
      times.push(performance.now() - t0);
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, bubbles: true, cancelable: true }));
      await until(() => handles() === before);
      await frame();
    }
    return times;
  }, reps);
}

const server = await startServer(opts.dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  console.log(`Lock Lab browser figures (release build from ${server.url}, ${await browser.version()}, headless)`);
  const app = { url: server.url, selector: '[data-testid="diagram"]' };
  // Issue 25 item 4: the default address (its figure inline in the page), a built-in's address at
  // a moment (its figure fetched), and a built-in embedded in a 640×360 frame.
  const pages = [
    ['default address', app],
    ['?scenario=etcd-gc-pause&t=20000', { ...app, url: `${server.url}?scenario=etcd-gc-pause&t=20000` }],
    ['embed 640×360, redis at 15.502 s', { ...app, url: `${server.url}?scenario=redis-gc-pause&t=15502&embed=1`, viewport: { width: 640, height: 360 } }],
  ];
  // --against: every address of the other build too, loaded in turn with this one's.
  const against = opts.against ? await startServer(opts.against) : null;
  const mine = pages.length;
  if (against) for (const [name, p] of pages.slice()) pages.push([`${name} (against ${path.basename(opts.against)})`, { ...p, url: p.url.replace(server.url, against.url) }]);
  const verdict = (ok) => (ok ? 'met' : 'NOT MET');
  const kinds = (r) => [...new Set(r.figureKind)].map((k) => (k === 'first-paint' ? 'pre-drawn' : 'live')).join('/');
  // Loads where the live app came before the page's own answer have none (counted, not timed).
  const pageStats = (r) => {
    const ok = r.pageAnswered.filter(Number.isFinite);
    return `${ok.length ? stats(ok) : 'none'}${ok.length < r.pageAnswered.length ? ` (${r.pageAnswered.length - ok.length} loads: the live app first)` : ''}`;
  };
  const fr = await firstRenders(browser, pages.map((p) => p[1]), null);
  console.log(`\nfirst diagram on loopback (ms from navigation start, ${fr[0].dom.length} fresh contexts after 1 warm-up, each address in turn)`);
  for (const [k, [name]] of pages.entries()) {
    const r = fr[k];
    console.log(`  ${name}`);
    console.log(`    first diagram on screen (${kinds(r)}): ${stats(r.figure)}${k ? '' : `   budget p50 ≤ 300 ms: ${verdict(quantile(r.figure, 0.5) <= 300)}`}`);
    console.log(`    .wasm downloaded:        ${stats(r.wasm)}`);
    console.log(`    live diagram on screen:  ${stats(r.frame)}`);
    console.log(`    page answers input (pre-drawn; End/Home moved its moment): ${pageStats(r)}`);
    console.log(`    live app answers input (End/Home moved the cursor): ${stats(r.answered)}`);
  }
  console.log(`  sent as: ${[...new Set(fr[0].encodings)].join(' | ')}`);

  const slow = await firstRenders(browser, pages.map((p) => p[1]), SLOW);
  console.log(`\nfirst diagram on a slow connection (Chromium network emulation: 150 ms latency, 1.6 Mbps down, 750 kbps up; ${slow[0].dom.length} loads of each)`);
  for (const [k, [name]] of pages.entries()) {
    const r = slow[k];
    const ratio = quantile(r.figure, 0.5) / quantile(r.fcp, 0.5);
    console.log(`  ${name}`);
    console.log(`    loading text painted:    ${stats(r.fcp)}`);
    console.log(`    first diagram on screen (${kinds(r)}): ${stats(r.figure)}   ${ratio.toFixed(2)}× the loading text (p50)${k ? '' : `, budget ≤ 1.2×: ${verdict(ratio <= 1.2)}`}`);
    console.log(`    .wasm downloaded:        ${stats(r.wasm)}`);
    console.log(`    live diagram on screen:  ${stats(r.frame)}`);
    console.log(`    page answers input (pre-drawn; End/Home moved its moment): ${pageStats(r)}${k ? '' : `   budget p50 ≤ 2000 ms: ${verdict(quantile(r.pageAnswered.filter(Number.isFinite), 0.5) <= 2000)}`}`);
    console.log(`    live app answers input (End/Home moved the cursor): ${stats(r.answered)}${k ? '' : `   budget p50 ≤ 2000 ms: ${verdict(quantile(r.answered, 0.5) <= 2000)}`}`);
    console.log(`    transferred: ${(quantile(r.bytes, 0.5) / 1024).toFixed(1)} KB (p50), .wasm fetched ${Math.max(...r.wasmFetches)}× per load; sent as: ${[...new Set(r.encodings)].join(' | ')}`);
  }
  // This build against the other, address by address: the ratio of the p50s (< 1: this one is faster).
  const ratios = {};
  if (against) {
    console.log(`\nthis build (${opts.dist}) against ${opts.against}, loaded in turns: p50 ratios (this ÷ that)`);
    for (const [net, runs] of [['loopback', fr], ['slow', slow]]) {
      for (let k = 0; k < mine; k++) {
        const [a, b] = [runs[k], runs[k + mine]];
        const r = (key) => quantile(a[key].filter(Number.isFinite), 0.5) / quantile(b[key].filter(Number.isFinite), 0.5);
        const line = { figure: r('figure'), wasm: r('wasm'), answers: r('answered') };
        console.log(`  ${net}, ${pages[k][0]}: first diagram ${line.figure.toFixed(2)}×, .wasm ${line.wasm.toFixed(2)}×, live app answers ${line.answers.toFixed(2)}× (${stats(a.answered)} against ${stats(b.answered)})`);
        ratios[`${net}_${['default', 'at_moment', 'embed_640x360'][k]}`] = { live_answers_ratio: round(line.answers, 2), wasm_ratio: round(line.wasm, 2), against_live_answers_p50_ms: round(quantile(b.answered, 0.5)) };
      }
    }
    against.stop();
  }
  if (recording) {
    // One key per address, in the order of `pages`; p50s unless the name says p95.
    const keys = ['default', 'at_moment', 'embed_640x360'];
    const p = (xs, q = 0.5) => round(quantile(xs.filter(Number.isFinite), q));
    const load = (r) => ({
      figure_p50_ms: p(r.figure),
      wasm_p50_ms: p(r.wasm),
      page_answers_p50_ms: p(r.pageAnswered),
      page_answers_p95_ms: p(r.pageAnswered, 0.95),
      live_answers_p50_ms: p(r.answered),
      live_answers_p95_ms: p(r.answered, 0.95),
    });
    recordMeasured('load', {
      loads: slow[0].dom.length,
      loopback: Object.fromEntries(keys.map((k, i) => [k, load(fr[i])])),
      slow: Object.fromEntries(keys.map((k, i) => [k, { ...load(slow[i]), loading_text_p50_ms: p(slow[i].fcp), transferred_kb: round(quantile(slow[i].bytes, 0.5) / 1024, 1) }])),
      ...(against ? { against: ratios } : {}),
    });
  }
  if (opts.loadOnly) {
    await browser.close();
    server.stop();
    process.exit(0);
  }

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.locator(tid('diagram')).waitFor();
  // Every built-in is in the picker once the data arrived (src/ui/library.rs).
  await page.locator('.app[data-arrived="true"]').waitFor();
  const all = await page.locator(`${tid('scenario-picker')} option`).evaluateAll((os) => os.map((o) => o.value));
  const scenarios = [...(opts.scenarios.length || opts.files.length ? opts.scenarios : all), ...opts.files];

  // docs/measured/frame.json with --record: p95s per scenario, keyed by its label in snake case.
  const frame = {};
  const key = (s) => label(s).replace(/\.json$/, '').replace(/[^a-z0-9]+/gi, '_');
  console.log(`\nscript time per frame while playing (ms, ${opts.playMs} ms of playback at top speed)`);
  for (const s of scenarios) {
    const r = await playing(page, server.url, s);
    frame[key(s)] = { script_per_frame_p95_ms: round(quantile(r.perFrame, 0.95), 1) };
    console.log(`  ${label(s).padEnd(36)} ${stats(r.perFrame)}  ~${r.fps.toFixed(0)} frames/s, frames = ${r.kind}, ${r.speed}, cursor reached ${r.cursor} ms`);
  }

  console.log('\nseek: scrub to a new time → diagram shows it, laid out (ms)');
  for (const s of scenarios) {
    const t = await seeks(page, server.url, s);
    const bad = t.filter((x) => !Number.isFinite(x)).length;
    const ok = t.filter(Number.isFinite);
    console.log(`  ${label(s).padEnd(36)} ${stats(ok)}${bad ? `  (${bad} seeks never showed their time)` : ''}`);
    frame[key(s)].seek_p95_ms = round(quantile(ok, 0.95), 1);
  }
  if (recording) recordMeasured('frame', frame);

  console.log('\ninject a pause on A by the fault menu → re-simulated, re-rendered, laid out (ms; budget p95 ≤ 16 ms)');
  for (const s of scenarios.filter((s) => !s.startsWith('/'))) {
    const t = await injects(page, server.url, s);
    console.log(`  ${label(s).padEnd(36)} ${stats(t)}   ${quantile(t, 0.95) <= 16 ? 'met' : 'NOT MET'}`);
  }
  await ctx.close();
} finally {
  await browser.close();
  server.stop();
}
