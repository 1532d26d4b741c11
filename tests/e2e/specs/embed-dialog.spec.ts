import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { test, expect, type Page } from '@playwright/test';
import { shotPath } from './helpers';
import { countBytes, serve } from './servers';

// Issue 25, items 2 and 3: the Embed button gives the snippet for exactly the view on screen
// at a chosen size, with a live preview; Copy link and the snippet open the same view; a
// static figure at a chosen width (320–2560 px) keeps its text at 11 px or more; the lite
// embed shows a figure and starts the app on a click, its first paint ≤ 30 KB.

const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/** The snippet's iframe attributes, as a browser parses them. */
async function snippetFrame(page: Page) {
  const code = await page.getByTestId('embed-snippet').inputValue();
  return page.evaluate((code) => {
    const frame = new DOMParser().parseFromString(code, 'text/html').querySelector('iframe')!;
    return Object.fromEntries([...frame.attributes].map((a) => [a.name, a.value]));
  }, code);
}

/** A URL's parameters (all but `embed`) and fragment, to compare two links' views. */
function view(url: string) {
  const u = new URL(url);
  u.searchParams.delete('embed');
  return { path: u.pathname, query: [...u.searchParams].sort().join('&'), hash: u.hash };
}

test('the snippet embeds exactly the view on screen at the chosen size, previewed live', async ({ page }) => {
  await page.goto('/?scenario=redis-gc-pause&fencing=on&t=15505');
  await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
  await page.getByTestId('embed-open').click();
  const dialog = page.getByTestId('embed-dialog');
  await expect(dialog).toBeVisible();
  let frame = await snippetFrame(page);
  expect(frame.sandbox).toBe(SANDBOX);
  expect([frame.width, frame.height]).toEqual(['640', '360']);
  expect(frame.title).toBe('Lock Lab: Redis: GC pause after acquire, fencing on, at 15.505 s');
  expect(new URL(frame.src).searchParams.get('embed')).toBe('1');
  // Copy link opens the same view (the snippet adds only embed=1).
  const link = (await page.getByTestId('copy-link').getAttribute('data-link'))!;
  expect(view(frame.src)).toEqual(view(link));
  // The preview is the snippet, at its size, showing that moment.
  const preview = page.frameLocator('[data-testid="embed-preview"] iframe');
  await expect(preview.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
  await expect(preview.getByTestId('scenario-picker')).toBeHidden();
  const box = (await page.locator('[data-testid="embed-preview"] iframe').boundingBox())!;
  expect(Math.round(box.width)).toBeGreaterThanOrEqual(640);
  expect(Math.round(box.width)).toBeLessThanOrEqual(642);
  await page.screenshot({ path: shotPath('embed-dialog.png') });

  // Another size: a preset, then a width typed out of range, held to what embed mode fits.
  await dialog.getByTestId('embed-size').filter({ hasText: '320×240' }).click();
  frame = await snippetFrame(page);
  expect([frame.width, frame.height]).toEqual(['320', '240']);
  await dialog.getByTestId('embed-width').fill('100');
  await dialog.getByTestId('embed-width').press('Tab');
  await expect(dialog.getByTestId('embed-width')).toHaveValue('320');
  await dialog.getByTestId('embed-size').filter({ hasText: 'full width' }).click();
  frame = await snippetFrame(page);
  expect([frame.width, frame.height]).toEqual(['100%', '480']);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('a changed scenario embeds whole (#s=), at the cursor', async ({ page }) => {
  await page.goto('/?scenario=redis-gc-pause&t=4000');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await page.getByText('Knobs: TTL, pause, seed').click();
  await page.getByTestId('ttl').fill('12000');
  await page.getByTestId('ttl').press('Tab');
  await expect(page.getByTestId('custom-scenario')).toBeAttached();
  await page.getByTestId('embed-open').click();
  const frame = await snippetFrame(page);
  const src = new URL(frame.src);
  expect(src.hash).toMatch(/^#s=/);
  expect(src.searchParams.get('t')).toBe('4000');
  expect(view(frame.src)).toEqual(view((await page.getByTestId('copy-link').getAttribute('data-link'))!));
  const preview = page.frameLocator('[data-testid="embed-preview"] iframe');
  await expect(preview.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '4000');
});

/** The smallest text in an SVG figure, as drawn at its own size, and its width. */
async function figureType(page: Page, svg: string) {
  const p = await page.context().newPage();
  await p.setContent(svg);
  const out = await p.evaluate(() => {
    const root = document.querySelector('svg')!;
    const sizes = [...root.querySelectorAll('text')].filter((t) => t.textContent!.trim()).map((t) => parseFloat(getComputedStyle(t).fontSize));
    return { width: root.getAttribute('width'), min: Math.min(...sizes), texts: sizes.length };
  });
  await p.close();
  return out;
}

test('a static figure at a chosen width keeps its text at 11 px or more, SVG and PNG', async ({ page }) => {
  await page.goto('/?scenario=redis-gc-pause&t=15505');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await page.getByTestId('embed-open').click();
  const width = page.getByTestId('embed-figure-width');
  for (const [typed, want] of [
    ['640', 640],
    ['100', 320],
    ['9000', 2560],
  ] as const) {
    await width.fill(typed);
    await width.press('Tab');
    await expect(width).toHaveValue(String(want));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('embed-figure-svg').click()]);
    expect(download.suggestedFilename()).toBe(`redis-gc-pause-t15505-${want}px.svg`);
    const file = shotPath(`embed-figure-${want}.svg`);
    await download.saveAs(file);
    const type = await figureType(page, readFileSync(file, 'utf8'));
    expect(type.width).toBe(String(want));
    expect(type.texts).toBeGreaterThan(10);
    expect(type.min, `smallest text at ${want} px`).toBeGreaterThanOrEqual(11);
  }
  await width.fill('640');
  await width.press('Tab');
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('embed-figure-png').click()]);
  const file = shotPath('embed-figure-640.png');
  await png.saveAs(file);
  expect(readFileSync(file).readUInt32BE(16), 'the PNG is as wide as chosen').toBe(640);
  await expect(page.getByTestId('embed-figure-status')).toContainText('Downloading');
});

test('the lite embed paints a figure in ≤ 30 KB and starts the app on a click', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const app = await context.newPage();
  const errors: string[] = [];
  app.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  app.on('pageerror', (e) => errors.push(e.message));
  await app.goto(`${baseURL}/?scenario=redis-gc-pause&t=15505`);
  await expect(app.getByTestId('diagram')).toBeVisible();
  await app.getByTestId('embed-open').click();
  await app.getByTestId('embed-size').filter({ hasText: '320×240' }).click();
  await app.getByTestId('embed-lite').check();
  const code = await app.getByTestId('embed-snippet').inputValue();
  expect(code).toContain('srcdoc=');
  // The preview shows the figure too.
  await expect(app.frameLocator('[data-testid="embed-preview"] iframe').locator('img')).toBeVisible();
  // Under the app's own policy (the srcdoc inherits it): no violation, no error.
  expect(errors).toEqual([]);
  await app.close();

  // A docs page on another origin with the snippet, in a fresh context (nothing cached).
  const dir = mkdtempSync(path.join(tmpdir(), 'locklab-lite-'));
  // Compressed, as a docs host sends its pages (GitHub Pages gzips them; over plain http
  // Chromium asks for gzip, not brotli).
  const docsHtml = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Lite</title><body><h1>Fencing</h1>\n${code}\n</body></html>`;
  writeFileSync(path.join(dir, 'lite.html'), docsHtml);
  writeFileSync(path.join(dir, 'lite.html.br'), brotliCompressSync(docsHtml));
  writeFileSync(path.join(dir, 'lite.html.gz'), gzipSync(docsHtml, { level: 9 }));
  const docs = await serve('project', dir);
  try {
    const fresh = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await fresh.newPage();
    const bytes = await countBytes(page);
    await page.goto(`${docs.url}lite.html`);
    const lite = page.frameLocator('iframe');
    await expect(lite.locator('img')).toBeVisible();
    expect(await lite.locator('img').evaluate((i: HTMLImageElement) => i.naturalWidth), 'the figure is drawn').toBeGreaterThan(0);
    expect(bytes.total.bytes, `first paint: ${[...bytes.total.urls].map(([u, b]) => `${u.slice(0, 60)} ${b}`).join(", ")}`).toBeLessThanOrEqual(30 * 1024);
    expect([...bytes.total.urls.keys()].some((u) => u.includes('.wasm')), 'no app file before the click').toBe(false);
    console.log(`[embed-dialog] lite embed first paint: ${(bytes.total.bytes / 1024).toFixed(1)} KB on the wire (its srcdoc, unpacked: ${(bytes.total.local / 1024).toFixed(1)} KB)`);
    await page.locator('iframe').screenshot({ path: shotPath('embed-lite.png') });
    await lite.getByRole('link').click();
    await expect(lite.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
    await page.locator('iframe').screenshot({ path: shotPath('embed-lite-started.png') });
    await fresh.close();
  } finally {
    docs.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  await context.close();
});
