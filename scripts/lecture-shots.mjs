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
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const opts = { out: path.join(root, 'target/screenshots/lecture'), scenarios: [], png: false };
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  if (a[i] === '--out') opts.out = path.resolve(a[++i]);
  else if (a[i] === '--scenario') opts.scenarios.push(a[++i]);
  else if (a[i] === '--png') opts.png = true;
  else throw new Error(`unknown argument ${a[i]}`);
}
needDist('lecture-shots');
const scenarios = opts.scenarios.length ? opts.scenarios : STORIES;
if (!opts.scenarios.length) rmSync(opts.out, { recursive: true, force: true });
mkdirSync(opts.out, { recursive: true });

const { url, stop } = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  for (const [w, h] of SIZES) {
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
