import { copyFileSync, readFileSync } from 'node:fs';
import { test, expect, type Page, type Download } from '@playwright/test';
import { cursorMs, shotPath, toEnd } from './helpers';

// Exports (issue 5, part 3): the diagram at the cursor as SVG and PNG, the run as JSON. Each
// button's file is captured as the download it is, then checked the way its reader would.

const AT = 15505; // A's stale write in redis-gc-pause

async function openAt(page: Page) {
  await page.goto(`/?scenario=redis-gc-pause&t=${AT}`);
  await expect(page.getByTestId('diagram')).toBeVisible();
  expect(await cursorMs(page)).toBe(AT);
}

async function save(page: Page, testid: string): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  const file = await download.path();
  expect(file, `${testid} produced a file`).toBeTruthy();
  return { download, bytes: readFileSync(file!) };
}

test('SVG: a standalone figure of the moment on screen, with the lanes named', async ({ page }) => {
  await openAt(page);
  const { download, bytes } = await save(page, 'export-svg');
  expect(download.suggestedFilename()).toBe(`redis-gc-pause-t${AT}.svg`);
  await expect(page.getByTestId('export-status')).toHaveText(`Downloading redis-gc-pause-t${AT}.svg.`);
  const text = bytes.toString('utf8');
  // Parsed as XML, as a viewer would (not as HTML, which forgives anything).
  const parsed = await page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    if (doc.querySelector('parsererror')) return null;
    const q = (sel: string) => [...doc.querySelectorAll(sel)].map((e) => e.textContent);
    return { root: doc.documentElement.localName, lanes: q('.lane-name'), cursor: q('.cursor-time'), style: q('style').join('') };
  }, text);
  expect(parsed, 'the SVG parses as XML').not.toBeNull();
  const lanesOnScreen = await page.locator('[data-testid="diagram"] .lane-name').allTextContents();
  expect(lanesOnScreen.length).toBeGreaterThan(2);
  expect(parsed!.root).toBe('svg');
  expect(parsed!.lanes).toEqual(lanesOnScreen);
  expect(parsed!.cursor).toEqual(['15.505 s']);
  expect(parsed!.style).toContain('.belief-bar');
  expect(parsed!.style).not.toContain('var(');
  expect(text).toContain('STALE, accepted');
  copyFileSync(await download.path()!, shotPath('export-redis-gc-pause.svg'));
});

test('PNG: the same figure at twice its size', async ({ page }) => {
  await openAt(page);
  const { download, bytes } = await save(page, 'export-png');
  expect(download.suggestedFilename()).toBe(`redis-gc-pause-t${AT}.png`);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // IHDR: width and height, big-endian, right after the signature and the chunk header.
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  expect(width).toBe(2 * 1280);
  expect(height).toBeGreaterThan(400);
  expect(height).toBeLessThan(width);
  copyFileSync(await download.path()!, shotPath('export-redis-gc-pause.png'));
});

test('JSON: scenario, verdict and trace; the verdict is the one on screen', async ({ page }) => {
  await openAt(page);
  // At the end the panel shows the whole verdict, as the file holds it.
  await toEnd(page);
  for (const fencing of [false, true]) {
    if (fencing) await page.keyboard.press('f');
    const verdict = page.getByTestId('verdict');
    await expect(verdict).toHaveAttribute('data-safe', String(fencing));
    const { download, bytes } = await save(page, 'export-json');
    expect(download.suggestedFilename()).toBe(fencing ? 'redis-gc-pause-fencing-on.json' : 'redis-gc-pause.json');
    const run = JSON.parse(bytes.toString('utf8'));
    expect(Object.keys(run)).toEqual(['scenario', 'verdict', 'trace']);
    expect(run.scenario.id).toBe('redis-gc-pause');
    expect(run.scenario.storage.fencing).toBe(fencing);
    expect(String(run.verdict.safe)).toBe(await verdict.getAttribute('data-safe'));
    expect(String(run.verdict.stale_writes_accepted)).toBe(await verdict.getAttribute('data-stale-accepted'));
    await expect(verdict.locator('h2')).toContainText(run.verdict.safe ? 'Safe' : 'Unsafe');
    await expect(verdict.locator('.finding')).toHaveCount(run.verdict.findings.length);
    expect(run.trace.events.length).toBeGreaterThan(10);
  }
  await page.getByTestId('export-svg').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shotPath('export-control.png') });
});

test('inside <iframe sandbox="allow-scripts"> exporting never throws, and says what happened', async ({ page }) => {
  // A host page on another path of the same server. The app's own files get CORS headers, as
  // a static host such as GitHub Pages sends them: an opaque-origin (sandboxed) page needs them
  // to load its module script and wasm at all.
  await page.route('**/*', async (route) => {
    if (route.request().url().endsWith('/sandbox-host.html')) {
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><iframe sandbox="allow-scripts" src="/?scenario=redis-gc-pause&t=${AT}" width="1200" height="700"></iframe>`,
      });
    }
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/sandbox-host.html');
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('diagram')).toBeVisible();
  for (const testid of ['export-svg', 'export-png', 'export-json']) {
    await frame.getByTestId(testid).click();
    await expect(frame.getByTestId('export-status')).toBeVisible();
    const status = await frame.getByTestId('export-status').textContent();
    // Either the page could not read its stylesheet and says so, or it handed the file over
    // and warns that this embed may not allow downloads.
    expect(status).toMatch(/cannot read its own stylesheet|may not allow downloads/);
  }
  // Not the export's doing: Trunk links the stylesheets with `integrity` but no `crossorigin`,
  // so an opaque-origin page refuses them (and the app runs unstyled in such an iframe).
  const unrelated = /Subresource Integrity|Download is disallowed|sandbox/i;
  expect(errors.filter((e) => !unrelated.test(e))).toEqual([]);
});
