#!/usr/bin/env node
// A short smoke walk in a second engine (issue 11, item 11): Debian's Firefox ESR, driven by
// puppeteer-core over WebDriver BiDi (nothing downloaded; Playwright's own Firefox build cannot
// be installed here). Against the release build in dist/, served by the project's own server:
// load the app, choose a scenario with the picker and walk its key moments with Shift+→ (the
// caption changes at each), F turns fencing on (the verdict flips to safe), L lecture mode at
// 1280×720, an embed URL, the offline file from disk, and no console error or CSP violation
// anywhere; last, the animated SVG (`locklab svg --animated`) plays inside an <img>.
//
//   node tests/e2e/firefox-smoke.mjs     # LOCKLAB_DIST=/abs/dist for another build folder
//
// Prints one line per step and exits non-zero when a step fails.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = process.env.LOCKLAB_DIST ?? path.join(root, 'dist');
const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
for (const [what, p] of [['the release build', path.join(dist, 'index.html')], ['Firefox ESR', FIREFOX]]) {
  if (!existsSync(p)) {
    console.error(`firefox-smoke: no ${what} at ${p} (scripts/test.sh builds dist/; install-tools.sh installs firefox-esr)`);
    process.exit(2);
  }
}

function startServer() {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(root, 'scripts/static-server.mjs'), dist, '--host', '127.0.0.1', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (d) => {
      const m = /http:\/\/[\d.]+:\d+\//.exec(d);
      if (m) resolve({ url: m[0], stop: () => p.kill() });
    });
    p.on('exit', (code) => reject(new Error(`static server exited (${code})`)));
  });
}

const tid = (id) => `[data-testid="${id}"]`;
let failures = 0;
function check(ok, what, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${what}${detail ? ` (${detail})` : ''}`);
  if (!ok) failures++;
  return ok;
}

const server = await startServer();
const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
const problems = [];
try {
  console.log(`Firefox smoke walk: ${await browser.version()} against ${server.url}`);
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 720 });
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message ?? e}`));
  // Policy violations are events, not always console errors: report them as errors.
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}`));
  });

  const cursor = () => page.$eval(tid('diagram'), (d) => Number(d.getAttribute('data-cursor-ms')));
  const caption = () => page.$eval(tid('caption'), (c) => c.innerText.trim());
  const attr = (id, name) => page.$eval(tid(id), (e, name) => e.getAttribute(name), name);
  const shortcut = async (key, shift = false) => {
    if (shift) await page.keyboard.down('Shift');
    await page.keyboard.press(key);
    if (shift) await page.keyboard.up('Shift');
  };
  /** Waits until fn() differs from `was` (the app renders on the next frame). */
  const changes = async (fn, was, ms = 3000) => {
    for (const t0 = Date.now(); Date.now() - t0 < ms; await new Promise((r) => setTimeout(r, 30))) {
      const now = await fn();
      if (now !== was) return now;
    }
    return was;
  };

  await page.goto(server.url, { waitUntil: 'load' });
  await page.waitForSelector(tid('diagram'), { visible: true });
  check((await page.$('.boot')) === null, 'the app loads and replaces the loading placeholder');

  // Chosen with the picker, which keeps focus: the app's keys must still work.
  await page.focus(tid('scenario-picker'));
  await page.select(tid('scenario-picker'), 'db-lease-gc-pause');
  await page.select(tid('scenario-picker'), 'redis-gc-pause');
  await shortcut('Home');
  check((await cursor()) === 0, 'Home on the picker goes to the start', `cursor ${await cursor()} ms`);
  const end = Number(await attr('scrub', 'max'));
  const moments = [];
  const captions = new Set([await caption()]);
  // Key moments may share a millisecond (the session visits them one by one): a step moves the
  // cursor, or keeps it and changes the caption.
  const at = async () => `${await cursor()} ${await caption()}`;
  for (let before = await cursor(); before < end && moments.length < 40; ) {
    const was = await at();
    await shortcut('ArrowRight', true);
    const now = await changes(at, was);
    const after = await cursor();
    if (!check(now !== was && after >= before, `Shift+→ to a key moment`, `${before} → ${after} ms`)) break;
    captions.add(await caption());
    moments.push(after);
    before = after;
  }
  check(moments.length >= 3 && moments[moments.length - 1] === end, 'Shift+→ walks the key moments to the end', `${moments.length} moments: ${moments.join(', ')}`);
  check(captions.size >= 3, 'the caption changes at the key moments', `${captions.size} captions`);

  await shortcut('End');
  check((await attr('verdict', 'data-safe')) === 'false', 'fencing off: redis-gc-pause is unsafe');
  await shortcut('f');
  const safe = await changes(() => attr('verdict', 'data-safe'), 'false');
  check(safe === 'true', 'F turns fencing on: the verdict flips to safe', `data-safe=${safe}`);
  check(await page.$eval(tid('fencing-toggle'), (e) => e.checked), 'the fencing switch shows it');
  check((await cursor()) === end, 'the cursor stays where it was');
  await shortcut('f');

  // Lecture mode on a 1280×720 projector.
  const normalSize = await page.$eval('.caption-text', (e) => parseFloat(getComputedStyle(e).fontSize));
  await shortcut('ArrowLeft', true);
  await shortcut('l');
  await changes(() => page.$eval('.app', (a) => a.classList.contains('lecture')), false);
  const lecture = await page.$eval('.app', (a) => a.classList.contains('lecture'));
  const lectureSize = await page.$eval('.caption-text', (e) => parseFloat(getComputedStyle(e).fontSize));
  check(lecture && lectureSize > normalSize, 'L: lecture mode, bigger caption', `${normalSize} → ${lectureSize} px`);
  const diagram = await page.$eval(tid('diagram'), (d) => d.getBoundingClientRect().width);
  check(diagram > 1000, 'the diagram fills the width at 1280×720', `${Math.round(diagram)} px`);
  mkdirSync(path.join(here, 'test-results'), { recursive: true });
  await page.screenshot({ path: path.join(here, 'test-results', 'firefox-lecture-1280x720.png') });
  await shortcut('l');

  // An embed, as a docs page includes it.
  await page.setViewport({ width: 640, height: 360 });
  await page.goto(`${server.url}?scenario=redis-gc-pause&embed=1`, { waitUntil: 'load' });
  await page.waitForSelector(tid('diagram'), { visible: true });
  const embed = await page.evaluate(() => ({
    embed: document.querySelector('.app')?.classList.contains('embed'),
    scroll: document.documentElement.scrollHeight - innerHeight,
    open: !!document.querySelector('[data-testid="open-full"]'),
  }));
  check(embed.embed && embed.open, 'embed=1: the embed view with its "Open in Lock Lab" link');
  check(embed.scroll <= 0, 'the embed fits 640×360 without scrolling', `overflow ${embed.scroll} px`);
  const t0 = await cursor();
  await shortcut(' ');
  const moved = await changes(cursor, t0);
  await shortcut(' ');
  check(moved > t0, 'Space plays the embed', `${t0} → ${moved} ms`);

  // The offline file (issue 35, scripts/offline.mjs), opened from disk: it asks for nothing
  // but itself, runs a built-in to its end, and opens a lesson.
  const offline = pathToFileURL(path.join(dist, 'lock-lab-offline.html')).href;
  const asked = [];
  page.on('request', (r) => !/^(file|data|blob):/.test(r.url()) && asked.push(r.url()));
  await page.setViewport({ width: 1280, height: 720 });
  await page.goto(`${offline}?scenario=etcd-gc-pause`, { waitUntil: 'load' });
  await page.waitForSelector(tid('diagram'), { visible: true });
  const offStart = await cursor();
  await shortcut('End');
  const offEnd = await changes(cursor, offStart);
  check(offEnd > offStart, 'the offline file from file:// runs etcd-gc-pause to its end', `${offStart} → ${offEnd} ms`);
  await page.goto(`${offline}?lesson=clocks`, { waitUntil: 'load' });
  await page.waitForSelector(tid('lesson-step-title'), { visible: true });
  check((await attr('lesson', 'data-lesson')) === 'clocks', 'the offline file opens a lesson');
  check(asked.length === 0, 'the offline file asks for nothing but itself', asked.join(' '));

  check(problems.length === 0, 'no console errors, page errors or CSP violations', problems.join(' | '));

  // Issue 36, item 5: the animated SVG plays inside an <img> with no script, as on a README. The
  // CLI's file (the same bytes the Embed dialog saves; test.sh has built it for the native tests),
  // shown alone in a page: its pixels change on their own.
  const svg = execFileSync('cargo', ['run', '--quiet', '--profile', 'test', '--bin', 'locklab', '--', 'svg', '--builtin', 'redis-gc-pause', '--animated', '-o', '-'], { cwd: root });
  await page.setViewport({ width: 900, height: 700 });
  await page.setContent(`<body style="margin:0"><img id="story" src="data:image/svg+xml;base64,${svg.toString('base64')}" width="880"></body>`);
  await page.waitForFunction(() => { const i = document.getElementById('story'); return i.complete && i.naturalWidth > 0; });
  const img = await page.$('#story');
  // Twice: a first change could be the image's unanimated look giving way to the animation's
  // first frame; a second one is time moving in it.
  const next = async (was) => {
    for (const t0 = Date.now(); Date.now() - t0 < 20000; await new Promise((r) => setTimeout(r, 250))) {
      const now = await img.screenshot();
      if (Buffer.compare(now, was) !== 0) return now;
    }
    return null;
  };
  const second = await next(await img.screenshot());
  check(second !== null && (await next(second)) !== null, 'the animated SVG plays inside an <img>');
} catch (e) {
  check(false, 'the walk ran to its end', String(e?.stack ?? e));
} finally {
  await browser.close();
  server.stop();
}
console.log(failures ? `\nFirefox smoke walk: ${failures} failed` : '\nFirefox smoke walk: all passed');
process.exit(failures ? 1 : 0);
