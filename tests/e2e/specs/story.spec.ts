import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect, type Download, type Page } from '@playwright/test';
import { shotPath } from './helpers';

// Issue 36, item 5: the Embed dialog offers the whole run beside the iframe: its strip of key
// moments (SVG, PNG) and its animated SVG, with a Copy button for the <img> that shows it. The
// animated SVG plays with no script: loaded as an image, its rendered pixels change on their
// own. (Firefox ESR: tests/e2e/firefox-smoke.mjs loads the CLI's animated SVG the same way.)
// A lesson's handout prints to PDF in headless Chromium.

async function save(page: Page, testid: string): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { download, bytes: readFileSync((await download.path())!) };
}

async function openDialog(page: Page) {
  await page.goto('/?scenario=redis-gc-pause');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await page.getByTestId('embed-open').click();
  await expect(page.getByTestId('embed-dialog')).toBeVisible();
}

test('the Embed dialog saves the strip as SVG and PNG, the animated SVG, and copies its <img>', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openDialog(page);
  await page.getByTestId('embed-dialog').screenshot({ path: shotPath('embed-dialog-story.png') });

  const strip = await save(page, 'embed-strip-svg');
  expect(strip.download.suggestedFilename()).toBe('redis-gc-pause-strip.svg');
  const svg = strip.bytes.toString('utf8');
  expect(svg.match(/class="story-panel"/g)?.length).toBe(8);
  expect(svg).toContain('Outcome: Lost update');
  await expect(page.getByTestId('embed-story-status')).toHaveText('Downloading redis-gc-pause-strip.svg.');

  const png = await save(page, 'embed-strip-png');
  expect(png.download.suggestedFilename()).toBe('redis-gc-pause-strip.png');
  expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  // The PNG is the strip at its own size (IHDR: width, height).
  const [w, h] = /width="([\d.]+)" height="([\d.]+)"/.exec(svg)!.slice(1).map(Number);
  expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([Math.round(w), Math.round(h)]);

  const animated = await save(page, 'embed-animated-svg');
  expect(animated.download.suggestedFilename()).toBe('redis-gc-pause-animated.svg');
  const anim = animated.bytes.toString('utf8');
  expect(anim).toContain('@keyframes sweep');
  expect(anim).not.toContain('<script');
  expect(animated.bytes.length).toBeLessThan(300 * 1024);

  const snippet = await page.getByTestId('embed-img-snippet').inputValue();
  expect(snippet).toMatch(/^<img src="redis-gc-pause-animated\.svg" width="880" alt="Lock Lab · Redis: GC pause after acquire · fencing off · seed 42, animated\. Lost update: /);
  await page.getByTestId('embed-img-copy').click();
  await expect(page.getByTestId('embed-img-copied')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
});

test('the animated SVG plays inside an <img>, with no script', async ({ page, browser }) => {
  await openDialog(page);
  const { bytes } = await save(page, 'embed-animated-svg');
  // A page of its own that shows the file as a README does: an <img>, nothing else.
  const viewer = await browser.newPage({ viewport: { width: 900, height: 700 } });
  const src = `data:image/svg+xml;base64,${bytes.toString('base64')}`;
  await viewer.setContent(`<body style="margin:0"><img id="story" src="${src}" width="880"></body>`);
  const img = viewer.locator('#story');
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(880);
  // Wait for the pixels to change, not for a time; twice: a first change could be the image's
  // unanimated look (the run's end) giving way to the animation's first frame, a second one is
  // time moving in it (the cursor leaves 0 after a 1.5 s hold).
  let shot = await img.screenshot({ path: shotPath('story-animated-first.png') });
  for (const name of ['story-animated-second.png', 'story-animated-later.png']) {
    const was = shot;
    await expect
      .poll(async () => Buffer.compare((shot = await img.screenshot()), was) !== 0, { timeout: 20_000, intervals: [250] })
      .toBe(true);
    await img.screenshot({ path: shotPath(name) });
  }
  await viewer.close();
});

test("a lesson's handout prints to PDF, its strips within the page", async ({ page }) => {
  // The CLI's page (`locklab lesson handout`), from the binary the native tests built (a cold
  // cargo may build it first: room for that).
  test.setTimeout(180_000);
  const file = shotPath('handout-why-fencing.html');
  const root = path.resolve(__dirname, '../../..');
  execFileSync('cargo', ['run', '--quiet', '--profile', 'test', '--bin', 'locklab', '--', 'lesson', 'handout', '--builtin', 'why-fencing', '-o', file], { cwd: root });
  await page.goto(pathToFileURL(file).href);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.question')).toHaveCount(4);
  await expect(page.locator('.blank')).toHaveCount(4);
  // Every strip is as wide as the text at most, and drawn (its SVG has a size).
  const widths = await page.evaluate(() => {
    const body = document.body.getBoundingClientRect().width;
    return [...document.querySelectorAll('figure.strip > svg')].map((s) => s.getBoundingClientRect().width / body);
  });
  expect(widths.length).toBeGreaterThan(3);
  for (const w of widths) {
    expect(w).toBeGreaterThan(0.5);
    expect(w).toBeLessThanOrEqual(1.001);
  }
  const pdf = await page.pdf({ preferCSSPageSize: true, path: shotPath('handout-why-fencing.pdf') });
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
  expect(pages).toBeGreaterThanOrEqual(12); // 12 steps and 11 strips of 6 to 8 panels, on A4
});
