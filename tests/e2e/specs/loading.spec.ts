import { readdirSync, readFileSync } from 'node:fs';
import { DIST } from './helpers';
import { get } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { test, expect, type Page } from '@playwright/test';

// Fast and visible while loading (issue 11, item 9): the page says what is coming before any
// script runs, and the project's server sends the files compressed at build time. The load
// times themselves are measured by scripts/bench-browser.mjs (figures, not a pass/fail here:
// a shared 2-core machine is no stopwatch).


/** Where the title's mark and the first line of text are, in page pixels. */
async function headerBoxes(page: Page) {
  const box = async (sel: string) => (await page.locator(sel).first().boundingBox())!;
  return { title: await box('h1.brand .brand-mark'), line: await box('p.intro') };
}

// A projector, a big screen and a phone.
for (const [width, height] of [
  [1280, 720],
  [1920, 1080],
  [360, 780],
]) {
  test(`before any script runs, the page shows its title and what is coming (${width}×${height})`, async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height } });
    const page = await ctx.newPage();
    await page.goto('/?scenario=redis-gc-pause');
    await expect(page.locator('h1.brand')).toHaveText('Lock Lab');
    await expect(page.locator('.boot-line')).toBeVisible();
    await expect(page.locator('.boot-line')).toContainText('Loading the simulator');
    const before = await headerBoxes(page);
    await ctx.close();

    // Mounted, the app replaces it, with its title and first line where the placeholder had them.
    const live = await browser.newPage({ viewport: { width, height } });
    await live.goto('/?scenario=redis-gc-pause');
    await expect(live.getByTestId('diagram')).toBeVisible();
    await expect(live.locator('.boot')).toHaveCount(0);
    const after = await headerBoxes(live);
    for (const k of ['x', 'y'] as const) {
      expect(Math.abs(after.title[k] - before.title[k]), `title ${k}: ${before.title[k]} → ${after.title[k]}`).toBeLessThanOrEqual(2);
      expect(Math.abs(after.line[k] - before.line[k]), `first line ${k}: ${before.line[k]} → ${after.line[k]}`).toBeLessThanOrEqual(4);
    }
    await live.close();
  });
}

/** GETs a path from the test server with this Accept-Encoding and `more` headers (node's http: nothing decoded). */
function fetchRaw(
  baseURL: string,
  p: string,
  acceptEncoding?: string,
  more: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(new URL(p, baseURL), { headers: { ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}), ...more } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('the server sends brotli or gzip as the request accepts, compressed at build time', async ({ baseURL }) => {
  const built = readdirSync(DIST).filter((f) => /\.(html|js|css|wasm)$/.test(f));
  expect(built.some((f) => f.endsWith('.wasm'))).toBe(true);
  for (const f of built) {
    const plain = readFileSync(path.join(DIST, f));
    const br = await fetchRaw(baseURL!, `/${f}`, 'gzip, deflate, br');
    expect(br.headers['content-encoding'], `${f} with br accepted`).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).equals(plain), `${f}.br is ${f}`).toBe(true);
    const gz = await fetchRaw(baseURL!, `/${f}`, 'gzip');
    expect(gz.headers['content-encoding'], `${f} with only gzip accepted`).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain), `${f}.gz is ${f}`).toBe(true);
    const none = await fetchRaw(baseURL!, `/${f}`, 'br;q=0, gzip;q=0');
    expect(none.headers['content-encoding'], `${f} with neither`).toBeUndefined();
    expect(none.body.equals(plain)).toBe(true);
    if (f.endsWith('.wasm')) {
      expect(br.headers['content-type']).toBe('application/wasm');
      expect(br.body.length, 'the wasm travels at under half its size').toBeLessThan(plain.length / 2);
    }
  }
  // The page's own request: Chromium asks for br and gets it.
  const res = await fetchRaw(baseURL!, '/', 'gzip, deflate, br, zstd');
  expect(res.headers['content-encoding']).toBe('br');
});

// Issue 25, item 3: what never changes under its name is cached for good, the rest is asked
// again and answered with a 304 when unchanged (embeds fetch the app once; a reload ~nothing).
test('the server sends hashed files immutable, and the pages no-cache with an ETag', async ({ baseURL }) => {
  const files = readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(html|js|css|wasm)$/.test(e.name))
    .map((e) => path.relative(DIST, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  expect(files.filter((f) => f.startsWith('snippets/')).length, 'a wasm-bindgen snippet').toBeGreaterThan(0);
  for (const f of files) {
    const res = await fetchRaw(baseURL!, `/${f}`, 'br');
    const hashed = /-[0-9a-f]{8,16}(_bg)?(\.[a-z]+$|\/)/.test(f);
    expect(res.headers['cache-control'], f).toBe(hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    expect(res.headers['etag'], f).toMatch(/^"[\w-]+"$/);
    if (!hashed) {
      const again = await fetchRaw(baseURL!, `/${f}`, 'br', { 'if-none-match': res.headers['etag'] as string });
      expect(again.status, `${f} unchanged`).toBe(304);
      expect(again.body.length).toBe(0);
    }
  }
  // The pages, and the offline file (scripts/offline.mjs), which the app links by its name.
  expect(files.filter((f) => f.endsWith('.html')).sort()).toEqual(['embed-example.html', 'index.html', 'lock-lab-offline.html']);
});

// The diagram is in the app's first frame, drawn once at its real width: Yew yields to the
// browser after 16 ms of work, so a diagram that waited to measure its box would come a frame
// (and a layout of the whole page) later (issue 11, item 9's load budget).
const FIRST_FRAME_PROBE = () => {
  const w = window as unknown as { __first: Record<string, unknown> };
  const seen: Record<string, unknown> = { frames: 0 };
  w.__first = seen;
  const tick = () => {
    (seen.frames as number)++;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  new MutationObserver(() => {
    if (seen.mounted === undefined && document.querySelector('.app:not(.boot)')) seen.mounted = seen.frames;
    const svg = document.querySelector('[data-testid="diagram"]');
    if (seen.drawn === undefined && svg) [seen.drawn, seen.width] = [seen.frames, svg.getAttribute('width')];
  }).observe(document, { childList: true, subtree: true });
};
for (const [width, height] of [
  [1280, 720],
  [1920, 1080],
  [360, 780],
]) {
  test(`the diagram is drawn in the app's first frame, once, at its width (${width}×${height})`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.addInitScript(FIRST_FRAME_PROBE);
    await page.goto('/?scenario=redis-gc-pause');
    await expect(page.getByTestId('diagram')).toBeVisible();
    // Ten frames past the first drawing: a second layout at another width would have come by then.
    await page.waitForFunction(() => {
      const f = (window as unknown as { __first: { frames: number; drawn?: number } }).__first;
      return f.drawn !== undefined && f.frames >= f.drawn + 10;
    });
    const first = await page.evaluate(() => (window as unknown as { __first: Record<string, unknown> }).__first);
    expect(first.mounted, 'the app mounted').toBeDefined();
    expect(first.drawn, `the diagram came in frame ${first.drawn}, the app in frame ${first.mounted}`).toBe(first.mounted);
    const now = await page.getByTestId('diagram').getAttribute('width');
    expect(first.width, 'drawn at the width it keeps').toBe(now);
  });
}
