import path from 'node:path';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { expect, type Frame, type Locator, type Page } from '@playwright/test';

/** The build under test: the repo's dist/, or LOCKLAB_DIST (as playwright.config.ts serves it). */
export const DIST = process.env.LOCKLAB_DIST ? path.resolve(process.env.LOCKLAB_DIST) : path.resolve(__dirname, '../../../dist');


/**
 * The one folder the specs save screenshots and exported files in: target/screenshots/ (ignored
 * by git, so a test run changes no tracked file), or LOCKLAB_SHOTS when set (scripts/gallery.mjs
 * points it at a fresh folder, then copies the images the README and docs show into
 * assets/screenshots/).
 */
const SHOTS = path.resolve(process.env.LOCKLAB_SHOTS ?? path.resolve(__dirname, '../../../target/screenshots'));

/**
 * Whether `shot` takes its pictures: for scripts/gallery.mjs (LOCKLAB_SHOTS) or when asked
 * (E2E_SHOTS=1). The test command takes none: no test reads them back, and a full-page PNG costs
 * a few tenths of a second of CPU each, about 50 a run on a 2-core machine. A failing test still
 * gets its screenshot (playwright.config.ts: screenshot only-on-failure).
 */
const PICTURES = !!process.env.LOCKLAB_SHOTS || process.env.E2E_SHOTS === '1';

/** Where a spec saves the file `name` (the folder is made on first use). */
export function shotPath(name: string): string {
  mkdirSync(SHOTS, { recursive: true });
  return path.join(SHOTS, name);
}

/** Loads the app and waits until the diagram is drawn. */
export async function openApp(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('diagram')).toBeVisible();
}

/** Waits until the app has every built-in, lesson and recording (src/ui/library.rs: fetched
 *  once it answers; until then the picker offers the page's own built-in alone). */
export async function dataArrived(page: Page | Frame) {
  await expect(page.locator('.app[data-arrived="true"]')).toHaveCount(1);
}

/**
 * Lets the page (or one of its frames) draw `n` animation frames. Playback and the explorer's
 * search both advance once a frame, so a few frames is how a spec shows that something stands
 * still, and that what a step changed has been drawn, without waiting a fixed time.
 */
export async function frames(target: Page | Frame, n = 5) {
  await target.evaluate(
    (n) =>
      new Promise<void>((done) => {
        const tick = (left: number) => (left > 0 ? requestAnimationFrame(() => tick(left - 1)) : done());
        tick(n);
      }),
    n,
  );
}

/** Picks a built-in scenario with the picker (option values are built-in ids). */
export async function chooseScenario(page: Page, id: string) {
  await page.getByTestId('scenario-picker').selectOption(id);
  await expect(page.getByTestId('scenario-picker')).toHaveValue(id);
}

/** The cursor's true time in ms, as the diagram reports it. */
export async function cursorMs(page: Page): Promise<number> {
  const v = await page.getByTestId('diagram').getAttribute('data-cursor-ms');
  expect(v, 'diagram carries data-cursor-ms').not.toBeNull();
  return Number(v);
}

/** The scrub's range (ms). */
export async function scrubRange(page: Page): Promise<{ min: number; max: number }> {
  const scrub = page.getByTestId('scrub');
  return {
    min: Number((await scrub.getAttribute('min')) ?? 0),
    max: Number(await scrub.getAttribute('max')),
  };
}

/** Moves the scrub to `ms` and waits for the cursor to follow. */
export async function scrubTo(page: Page, ms: number) {
  await page.getByTestId('scrub').fill(String(ms));
  await expect.poll(() => cursorMs(page)).toBe(ms);
}

/** Moves the cursor to the end of the run, where the whole verdict shows. */
export async function toEnd(page: Page) {
  await scrubTo(page, (await scrubRange(page)).max);
}

/** Saves a screenshot of the whole page (or only the viewport, as a projector shows it) as shotPath(name). */
export async function shot(page: Page, name: string, fullPage = true) {
  if (!PICTURES) return;
  await page.screenshot({ path: shotPath(name), fullPage });
}

/** The storage ledger's rows with this result (accepted | rejected | stale-accepted). */
export function ledgerRows(page: Page, result: string) {
  return page.getByTestId('ledger').locator(`[data-testid="ledger-row"][data-result="${result}"]`);
}

/** Sets a switch (a checkbox styled as a toggle) the way a person does: by clicking its label. */
export async function setSwitch(page: Page, testid: string, on: boolean) {
  const input = page.getByTestId(testid);
  if ((await input.isChecked()) !== on) await page.locator('label').filter({ has: input }).click();
  await expect(input).toBeChecked({ checked: on });
}

/** A built-in scenario's file, as the catalog compiles it in (src/scenario/catalog/ID.json). */
export interface Expected {
  safe: boolean;
  stale_writes_accepted: number;
  stale_writes_rejected: number;
}
export function builtin(id: string): { approach: string; expect: { fencing_off: Expected; fencing_on: Expected } } {
  const file = path.resolve(__dirname, '../../../src/scenario/catalog', `${id}.json`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Every built-in's id, sorted: one file each in src/scenario/catalog/ (tests/catalog.rs holds
 *  the catalog to that folder). */
export function builtinIds(): string[] {
  return readdirSync(path.resolve(__dirname, '../../../src/scenario/catalog'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

/** A built-in lesson's file, as the app compiles it in (src/lesson/ID.json): each step's table
 *  lists the steps whose runs make its rows. */
export function lessonFile(id: string): { steps: { table?: number[] }[] } {
  return JSON.parse(readFileSync(path.resolve(__dirname, '../../../src/lesson', `${id}.json`), 'utf8'));
}

/** What has keyboard focus: its data-testid, or its tag name. */
export async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('data-testid') ?? el?.tagName.toLowerCase() ?? '';
  });
}

/**
 * Waits until `done()` holds for a long computation the page runs (the seed's table), as long
 * as it makes progress: each wait is for `counter`'s `data-runs` (schedules run) to grow, and a
 * stall of `stall` ms fails. The budget comes from the work, not from the machine's speed: a
 * caller sets `test.setTimeout(0)`.
 */
export async function whileProgressing(counter: Locator, done: () => Promise<boolean>, stall = 30_000) {
  while (!(await done())) {
    const was = await counter.getAttribute('data-runs');
    await expect
      .poll(async () => (await done()) || (await counter.getAttribute('data-runs')) !== was, {
        message: `no progress from ${was} schedules in ${stall} ms`,
        timeout: stall,
      })
      .toBe(true);
  }
}
