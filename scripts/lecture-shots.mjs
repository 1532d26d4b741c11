#!/usr/bin/env node
// Lecture-mode screenshots of every approach at each of its key moments, at 1280×720 and
// 1920×1080, from the release build in dist/ (Debian's headless Chromium, like the benchmarks).
// Writes target/screenshots/lecture/<scenario>-<size>p-<k>.webp (ignored by git: no page shows
// them, so they are not kept; WebP by Chromium's own encoder, quality 72, the type still sharp;
// --png writes PNG) and prints one line per picture with the caption it shows. Asserts
// nothing: the stage's figures are tested by tests/e2e/specs/stage.spec.ts; these are for
// looking at.
//
//   node scripts/lecture-shots.mjs [--out DIR] [--scenario ID]... [--png]
//   node scripts/lecture-shots.mjs --lessons [--out DIR]
//
// --lessons: every step of every built-in lesson (src/lesson/, any depth) at both sizes, as the
// room sees it (a question asked, then revealed with two hands raised), PNG, into
// target/screenshots/lessons/<lesson>-<size>p-<step>[-revealed].png (issue 22, item 9).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARGS, chromium, needDist, root, startServer, tid } from './bench/browser-common.mjs';

// One story per approach: its first built-in that is not a happy path, in catalog order (the
// order of SOURCES in src/scenario/catalog.rs), so a new approach's story is shot with no
// change here.
function firstStories() {
  const catalog = readFileSync(path.join(root, 'src/scenario/catalog.rs'), 'utf8');
  const seen = new Set();
  const out = [];
  for (const [, file] of catalog.matchAll(/include_str!\("catalog\/([^"]+)"\)/g)) {
    const s = JSON.parse(readFileSync(path.join(root, 'src/scenario/catalog', file), 'utf8'));
    if (s.id.startsWith('happy-path-') || seen.has(s.approach)) continue;
    seen.add(s.approach);
    out.push(s.id);
  }
  return out;
}
const STORIES = firstStories();
const SIZES = [
  [1280, 720],
  [1920, 1080],
];

const opts = { out: null, scenarios: [], png: false, lessons: false };
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  if (a[i] === '--out') opts.out = path.resolve(a[++i]);
  else if (a[i] === '--lessons') opts.lessons = true;
  else if (a[i] === '--scenario') opts.scenarios.push(a[++i]);
  else if (a[i] === '--png') opts.png = true;
  else throw new Error(`unknown argument ${a[i]}`);
}
opts.out ??= path.join(root, opts.lessons ? 'target/screenshots/lessons' : 'target/screenshots/lecture');
needDist('lecture-shots');
const scenarios = opts.scenarios.length ? opts.scenarios : STORIES;
if (!opts.scenarios.length) rmSync(opts.out, { recursive: true, force: true });
mkdirSync(opts.out, { recursive: true });

const { url, stop } = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });

/** Every step of every lesson at one size: asked, and revealed where it has a question. */
async function lessonShots(w, h) {
  const dir = path.join(root, 'src/lesson');
  const lessons = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  for (const lesson of lessons) {
    for (const [i, step] of lesson.steps.entries()) {
      const n = i + 1;
      await page.goto(`${url}?lesson=${lesson.id}&step=${n}`);
      await page.locator(`[data-testid="lesson"][data-step="${n}"]`).waitFor();
      await page.waitForFunction((n) => location.search.includes(`step=${n}`), n);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const name = `${lesson.id}-${h}p-${String(n).padStart(2, '0')}`;
      await page.screenshot({ path: path.join(opts.out, `${name}.png`) });
      console.log(`${name}.png  ${step.text.slice(0, 90)}`);
      if (step.question) {
        await page.keyboard.press('1');
        await page.keyboard.press('2');
        await page.keyboard.press('2');
        await page.locator(tid('lesson-reveal')).click();
        await page.locator(tid('lesson-revealed')).waitFor();
        await page.screenshot({ path: path.join(opts.out, `${name}-revealed.png`) });
        console.log(`${name}-revealed.png`);
      }
    }
  }
  await page.close();
}

try {
  for (const [w, h] of opts.lessons ? SIZES : []) await lessonShots(w, h);
  for (const [w, h] of opts.lessons ? [] : SIZES) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    const cdp = await page.context().newCDPSession(page);
    for (const id of scenarios) {
      await page.goto(`${url}?scenario=${id}&lecture=1`);
      await page.locator(tid('diagram')).first().waitFor();
      await page.evaluate(() => document.activeElement?.blur());
      const where = () =>
        page.evaluate(() => `${document.querySelector('[data-testid="diagram"]')?.getAttribute('data-cursor-ms')}#${document.querySelector('[data-testid="caption"]')?.textContent}`);
      let last = await where();
      for (let k = 1; k <= 30; k++) {
        await page.keyboard.press('Shift+ArrowRight');
        const moved = await page
          .waitForFunction((was) => `${document.querySelector('[data-testid="diagram"]')?.getAttribute('data-cursor-ms')}#${document.querySelector('[data-testid="caption"]')?.textContent}` !== was, last, { timeout: 1500 })
          .then(() => true)
          .catch(() => false);
        if (!moved) break;
        last = await where();
        // The focus ring pulses: let it settle on a frame where it is drawn.
        await page.waitForTimeout(250);
        const file = path.join(opts.out, `${id}-${h}p-${String(k).padStart(2, '0')}.${opts.png ? 'png' : 'webp'}`);
        if (opts.png) await page.screenshot({ path: file });
        else writeFileSync(file, Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'webp', quality: 72 })).data, 'base64'));
        const caption = (await page.locator(tid('caption')).first().innerText()).replace(/\s+/g, ' ');
        console.log(`${path.relative(root, file)}  ${caption.slice(0, 110)}`);
      }
    }
    await page.close();
  }
} finally {
  await browser.close();
  stop();
}
