import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect, type FrameLocator, type Page } from '@playwright/test';
import { openApp, shot, whileProgressing, DIST } from './helpers';
import { serve } from './servers';

// Issue 38, item 3: the explorer on every core. A search and the seed's table run in Web
// Workers (one wasm instance each, src/bin/explore-worker.rs), and what they find is what the
// CLI finds, cell for cell: tests/golden/explore-table.txt is written from
// `locklab explore --table --json` by tests/explore_table.rs. Where workers cannot start the
// page runs the search itself, with the same result.

const GOLDEN = path.resolve(__dirname, '../../golden/explore-table.txt');
type Where = Page | FrameLocator;
const counter = (page: Where) => page.getByTestId('explore-runs');
const done = async (page: Where) => ((await counter(page).textContent()) ?? '').includes('done');

async function openPanel(page: Where) {
  await page.getByTestId('explore-panel').locator('summary').click();
  await expect(page.getByTestId('explore-start')).toBeVisible();
}

/** Each table cell as a line of the golden file, once every lost update is shrunk. */
async function tableLines(page: Page): Promise<string> {
  const cells = page.locator('[data-testid="explore-cell"]');
  await expect(page.getByText('shrinking…')).toHaveCount(0);
  const lines = await cells.evaluateAll((cs) =>
    cs.map((c) => {
      const smallest = c.querySelector('[data-testid="explore-cell-open"]')?.textContent ?? 'none';
      const tokens = c.querySelector('[data-testid="explore-cell-tokens"]')?.getAttribute('data-count');
      const [row, fencing, runs, classes] = ['data-approach', 'data-fencing', 'data-runs', 'data-classes'].map((a) => c.getAttribute(a));
      return `${row} ${fencing} runs=${runs} classes=${classes} tokens=${tokens} smallest=${smallest}\n`;
    }),
  );
  return lines.join('');
}

/** Starts the search tab's default search (Redis, fencing off, every fault kind) with `runs`, and waits for its end. */
async function search(page: Where, runs: number) {
  await openPanel(page);
  const field = page.getByTestId('explore-set-runs');
  await field.fill(String(runs));
  await field.press('Tab');
  await page.getByTestId('explore-start').click();
  await whileProgressing(counter(page), () => done(page));
  await expect(page.getByTestId('explore-open')).toBeEnabled();
  return {
    classes: await page.locator('.explore-classes li').evaluateAll((ls) => ls.map((l) => `${l.getAttribute('data-class')}=${l.getAttribute('data-count')}`).join(' ')),
    found: await page.getByTestId('explore-found').evaluate((f) => `${f.getAttribute('data-count')} ${f.querySelector('h3')?.textContent} ${f.querySelector('.explore-after')?.textContent}`),
    workers: Number(await counter(page).getAttribute('data-workers')),
  };
}

test("the seed's table on every core is the CLI's, cell for cell", async ({ page }) => {
  // The table's full plan: its time is the machine's; `whileProgressing` fails a stall.
  test.setTimeout(0);
  const spawned: string[] = [];
  page.on('worker', (w) => spawned.push(w.url()));
  await openApp(page);
  await openPanel(page);
  expect(spawned, 'no worker before a search starts').toEqual([]);
  await page.getByTestId('explore-tab-table').click();
  await page.getByTestId('explore-start').click();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await expect(counter(page)).toHaveAttribute('data-workers', String(Math.min(Math.max(cores, 1), 16)));
  await expect(counter(page)).toContainText(/ on \d+ workers?/);
  // Every cell fills while the others do, as in the page's own slices.
  const cells = page.locator('[data-testid="explore-cell"]');
  await expect.poll(async () => Math.min(...(await cells.evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('data-runs'))))))).toBeGreaterThan(0);
  await page.getByTestId('explore-table').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await shot(page, 'explore-table-workers.png', false);
  await whileProgressing(counter(page), () => done(page));
  expect(spawned.length, 'the workers were started').toBe(Math.min(Math.max(cores, 1), 16));
  expect(spawned.every((u) => u.endsWith('/explore-worker_loader.js')), spawned.join(', ')).toBe(true);
  // Still on the workers at the end: none failed over to the page.
  await expect(counter(page)).toHaveAttribute('data-workers', String(spawned.length));
  expect(await tableLines(page)).toBe(readFileSync(GOLDEN, 'utf8'));
});

test('in a frame sandboxed without allow-same-origin (an opaque origin) the page searches itself and finds the same', async ({ page, context }) => {
  test.setTimeout(0);
  await openApp(page);
  const onWorkers = await search(page, 1500);
  expect(onWorkers.workers).toBeGreaterThan(0);

  // The project's server sends Access-Control-Allow-Origin, so the app starts in the frame; a
  // worker it may not (its origin is opaque): the constructor throws.
  const app = await serve('project', DIST);
  const dir = mkdtempSync(path.join(tmpdir(), 'locklab-host-'));
  writeFileSync(path.join(dir, 'host.html'), `<!doctype html><meta charset="utf-8"><title>host</title><iframe sandbox="allow-scripts" width="1200" height="1400" src="${app.url}"></iframe>`);
  const docs = await serve('project', dir);
  try {
    const host = await context.newPage();
    await host.goto(`${docs.url}host.html`);
    const frame = host.frameLocator('iframe');
    await expect(frame.getByTestId('diagram')).toBeVisible();
    expect(await host.frames()[1].evaluate(() => self.origin)).toBe('null');
    const inFrame = await search(frame, 1500);
    expect(inFrame).toEqual({ ...onWorkers, workers: 0 });
  } finally {
    app.stop();
    docs.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a worker whose script does not load leaves the search to the page, which finishes it the same', async ({ page, context }) => {
  test.setTimeout(0);
  await openApp(page);
  const onWorkers = await search(page, 1500);
  expect(onWorkers.workers).toBeGreaterThan(0);

  const alone = await context.newPage();
  await alone.route(/explore-worker_loader\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
  await openApp(alone);
  const inPage = await search(alone, 1500);
  expect(inPage).toEqual({ ...onWorkers, workers: 0 });
});
