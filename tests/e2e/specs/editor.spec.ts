import path from 'node:path';
import { readFileSync } from 'node:fs';
import { test, expect, type Page, type FrameLocator } from '@playwright/test';
import { cursorMs, ledgerRows, openApp, scrubTo, shotPath, toEnd } from './helpers';

// The scenario editor (issue 5, part 4): the form and the JSON edit one draft, checked as the
// user types with the CLI's field-path errors; saved scenarios in local storage; import and
// export; and nothing the user wrote is lost, not on reload, not on a bad import, not when
// storage is unavailable.

type Root = Page | FrameLocator;

async function openEditor(root: Root) {
  const editor = root.getByTestId('scenario-json');
  await editor.locator('summary').click();
  await expect(root.getByTestId('scenario-json-input')).toBeVisible();
}

const field = (root: Root, p: string) => root.locator(`[data-path="${p}"]`);
const json = (root: Root) => root.getByTestId('scenario-json-input');

test('the form edits the JSON, and a run shows the edited scenario', async ({ page }) => {
  await openApp(page);
  await openEditor(page);
  await field(page, 'lock.ttl_ms').fill('12000');
  await expect(json(page)).toHaveValue(/"ttl_ms": 12000/);
  await field(page, 'storage.fencing').check();
  await expect(json(page)).toHaveValue(/"fencing": true/);

  // Faults as a list: add a crash, see it in the JSON, remove it again.
  await page.getByRole('button', { name: 'Add a crash' }).click();
  await expect(page.getByTestId('fault-list').locator('li')).toHaveCount(2);
  await expect(json(page)).toHaveValue(/"kind": "crash"/);
  await page.getByRole('button', { name: 'Remove fault 2' }).click();
  await expect(json(page)).not.toHaveValue(/"kind": "crash"/);

  // And JSON typed by hand shows in the form.
  const text = (await json(page).inputValue()).replace('"seed": 42', '"seed": 7');
  await json(page).fill(text);
  await expect(field(page, 'seed')).toHaveValue('7');

  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'false');
  await page.getByTestId('scenario-json-run').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'true');
  // The ledger lists writes as they arrive: at the end, all of them.
  await expect(ledgerRows(page, 'rejected')).toHaveCount(0);
  await toEnd(page);
  await expect(ledgerRows(page, 'rejected')).toHaveCount(1);
});

test('an invalid value is named by its field path as it is typed; the run on screen stays', async ({ page }) => {
  await openApp(page);
  await scrubTo(page, 12_000);
  await openEditor(page);
  await field(page, 'lock.ttl_ms').fill('0');
  const error = page.getByTestId('scenario-error');
  await expect(error).toHaveText('lock.ttl_ms: 0 ms is out of range: must be 1..=600000 ms');
  await expect(field(page, 'lock.ttl_ms')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('scenario-json-run')).toBeDisabled();
  // The invalid draft is kept; the run on screen and its cursor are untouched.
  await expect(json(page)).toHaveValue(/"ttl_ms": 0/);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'false');
  expect(await cursorMs(page)).toBe(12_000);

  // A node the scenario does not have, typed in the JSON.
  await json(page).fill((await json(page).inputValue()).replace('"ttl_ms": 0', '"ttl_ms": 10000').replace('"node": "A"', '"node": "redis-9"'));
  await expect(error).toHaveText('faults[0].node: no node named "redis-9" (redis has A, B, redis, storage)');
  await expect(field(page, 'faults[0].node')).toHaveAttribute('aria-invalid', 'true');

  await field(page, 'faults[0].node').selectOption('A');
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('scenario-json-run')).toBeEnabled();

  // Half typed, cut off inside "lock": plain words at the field, never the parser's own text
  // ("EOF while parsing an object at line 9 column 0"; issue 25).
  const whole = await json(page).inputValue();
  await json(page).fill(whole.slice(0, whole.indexOf('"lock": {') + '"lock": {'.length) + '\n');
  await expect(error).toHaveText(/^lock: the text ends before this object does: a \} is missing \(line \d+\)$/);
});

test('a saved scenario survives a reload and loads; saving under its name again says it replaces it', async ({ page }) => {
  await openApp(page);
  await openEditor(page);
  await field(page, 'title').fill('My fenced pause');
  await field(page, 'storage.fencing').check();
  await page.getByTestId('save-name').fill('fenced pause');
  await page.getByTestId('save-scenario').click();
  await expect(page.getByTestId('editor-status')).toHaveText('Saved “fenced pause”.');
  await expect(page.getByTestId('saved-item')).toHaveCount(1);

  await page.getByTestId('save-name').fill('fenced pause');
  await expect(page.getByTestId('save-scenario')).toHaveText('Overwrite');
  await page.getByTestId('save-scenario').click();
  await expect(page.getByTestId('editor-status')).toHaveText('Replaced the saved “fenced pause”.');
  await expect(page.getByTestId('saved-item')).toHaveCount(1);

  await page.reload();
  await openEditor(page);
  const item = page.getByTestId('saved-list').getByTestId('saved-item');
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-name', 'fenced pause');
  // Start from the built-in on screen, then load the saved one: it runs, and the draft it
  // replaced can be brought back.
  await page.getByRole('button', { name: 'Start from the scenario on screen' }).click();
  await expect(field(page, 'title')).toHaveValue('Redis: GC pause after acquire');
  await item.getByRole('button', { name: 'Load' }).click();
  await expect(field(page, 'title')).toHaveValue('My fenced pause');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'true');
  await expect(page.getByTestId('restore-draft')).toBeVisible();

  await item.getByRole('button', { name: 'Delete fenced pause' }).click();
  await expect(page.getByTestId('saved-item')).toHaveCount(0);
});

test('a bad import shows the error, keeps the saved ones, and the previous draft comes back', async ({ page }) => {
  await openApp(page);
  await openEditor(page);
  await page.getByTestId('save-name').fill('keep me');
  await page.getByTestId('save-scenario').click();
  await expect(page.getByTestId('saved-item')).toHaveCount(1);
  await field(page, 'title').fill('Work in progress');
  const before = await json(page).inputValue();

  const imports: { name: string; mimeType: string; buffer: Buffer; says: RegExp }[] = [
    { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "approach": '), says: /broken\.json is not a valid scenario \(approach: the text ends where a value should be \(line 1/ },
    {
      name: 'wrong-node.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"version": 1, "approach": "etcd", "faults": [{"at_ms": 1, "kind": "crash", "node": "redis"}]}'),
      says: /wrong-node\.json is not a valid scenario \(faults\[0\]\.node: no node named "redis"/,
    },
    { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), says: /photo\.png is not a valid scenario/ },
  ];
  for (const file of imports) {
    await page.getByTestId('scenario-import').setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer });
    await expect(page.getByTestId('editor-status')).toHaveText(file.says);
    await expect(page.getByTestId('scenario-error')).toBeVisible();
    await expect(page.getByTestId('saved-item')).toHaveCount(1);
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'false');
    await page.getByTestId('restore-draft').click();
    await expect(json(page)).toHaveValue(before);
  }
  await page.reload();
  await openEditor(page);
  await expect(page.getByTestId('saved-item')).toHaveCount(1);
  await expect(json(page)).toHaveValue(before);
});

test('a good import runs; export downloads the draft as a .json file', async ({ page }) => {
  await openApp(page);
  await openEditor(page);
  const file = readFileSync(path.resolve(__dirname, '../../../src/scenario/catalog/etcd-gc-pause.json'));
  await page.getByTestId('scenario-import').setInputFiles({ name: 'etcd.json', mimeType: 'application/json', buffer: file });
  await expect(page.getByTestId('editor-status')).toHaveText('Loaded etcd.json.');
  await expect(page.getByTestId('scenario-picker')).toHaveValue('etcd-gc-pause');

  await field(page, 'title').fill('Exported pause');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-scenario').click()]);
  expect(download.suggestedFilename()).toBe('exported-pause.json');
  const saved = readFileSync(await download.path(), 'utf8');
  expect(saved).toBe(await json(page).inputValue());
  expect(JSON.parse(saved).title).toBe('Exported pause');
});

test('the draft survives a reload, even when it is not valid JSON yet', async ({ page }) => {
  await openApp(page);
  await openEditor(page);
  const half = '{"version": 1, "approach": "zookeeper", "title": "half-typed';
  await json(page).fill(half);
  await expect(page.getByTestId('scenario-error')).toBeVisible();
  await page.reload();
  await openEditor(page);
  await expect(json(page)).toHaveValue(half);
  // Nothing readable yet, so no form until the JSON is fixed.
  await expect(page.getByTestId('editor-form')).toHaveCount(0);
  await json(page).fill(half + '"}');
  await expect(field(page, 'approach')).toHaveValue('zookeeper');
  await expect(field(page, 'title')).toHaveValue('half-typed');
  // Breaking it again greys the form out but keeps it on screen.
  await json(page).fill(half);
  await expect(field(page, 'title')).toBeDisabled();
  await expect(field(page, 'title')).toHaveValue('half-typed');
});

test('in a sandboxed iframe the editor says saving is off and still runs a scenario', async ({ page, baseURL }) => {
  // A frame sandboxed without allow-same-origin has an opaque origin, so the app's own module
  // and wasm are cross-origin requests to it; a docs site serving Lock Lab would send this header.
  await page.route(`${baseURL}/**`, async (route) => {
    if (route.request().url().endsWith('/sandbox-test.html')) {
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>sandbox</title><iframe sandbox="allow-scripts" src="${baseURL}/" style="width:1000px;height:2000px;border:0"></iframe>`,
      });
    }
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
  await page.goto('/sandbox-test.html');
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('diagram')).toBeVisible();
  await openEditor(frame);
  await expect(frame.getByTestId('storage-off')).toContainText('Saving is off: this page may not store anything here');
  await expect(frame.getByTestId('save-scenario')).toHaveCount(0);
  await field(frame, 'storage.fencing').check();
  await frame.getByTestId('scenario-json-run').click();
  await expect(frame.getByTestId('verdict')).toHaveAttribute('data-safe', 'true');
});

async function editorShot(page: Page, name: string) {
  const editor = page.getByTestId('scenario-json');
  await editor.scrollIntoViewIfNeeded();
  await editor.screenshot({ path: shotPath(name) });
}

test('screenshots of the editor at 1280 and 360 px wide', async ({ page }) => {
  for (const [width, height] of [
    [1280, 720],
    [360, 740],
  ]) {
    await page.setViewportSize({ width, height });
    await openApp(page);
    await openEditor(page);
    if (width === 1280) {
      await page.getByTestId('save-name').fill('GC pause, fenced');
      await field(page, 'storage.fencing').check();
      await page.getByTestId('save-scenario').click();
      await page.getByRole('button', { name: 'Add a clock jump' }).click();
      await page.getByTestId('save-name').fill('');
    }
    await field(page, 'lock.ttl_ms').fill('0');
    await expect(page.getByTestId('scenario-error')).toBeVisible();
    await editorShot(page, `editor-${width}.png`);
  }
});
