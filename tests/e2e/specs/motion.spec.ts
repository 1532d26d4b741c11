import { test, expect, type Page } from '@playwright/test';
import { chooseScenario, frames } from './helpers';

// prefers-reduced-motion (issue 4, care): playing becomes a slideshow that holds each step's
// caption and then jumps to the next step, with nothing moving in between. In a comparison
// the slides go through both runs' steps, as the step button does.

const diagrams = (page: Page) => page.locator('[data-testid="diagram"]');
/** The one cursor (both diagrams of a comparison share it). */
const cursorMs = async (page: Page) => Number(await diagrams(page).first().getAttribute('data-cursor-ms'));

/** The distinct times the step button lands on from the start, `n` presses (the slideshow's
 * stops; two events at one moment are two steps at one time). */
async function stepStops(page: Page, n: number): Promise<number[]> {
  await page.getByTestId('scrub').fill('0');
  const stops: number[] = [];
  for (let i = 0; i < n; i++) {
    await page.getByTestId('step').click();
    await frames(page, 2);
    const t = await cursorMs(page);
    if (stops[stops.length - 1] !== t) stops.push(t);
  }
  await page.getByTestId('scrub').fill('0');
  await expect.poll(() => cursorMs(page)).toBe(0);
  return stops;
}

/** Plays for 150 frames (about 2.5 s) and samples where the cursor is at every one of them. */
async function slides(page: Page): Promise<number[]> {
  await page.getByTestId('speed').selectOption('4');
  await page.getByTestId('play').click();
  const seen = await page.evaluate(
    (n) =>
      new Promise<number[]>((done) => {
        const seen: number[] = [];
        const tick = (left: number) => {
          for (const e of document.querySelectorAll('[data-testid="diagram"]')) seen.push(Number(e.getAttribute('data-cursor-ms')));
          if (left > 0) requestAnimationFrame(() => tick(left - 1));
          else done(seen);
        };
        requestAnimationFrame(() => tick(n));
      }),
    150,
  );
  await page.getByTestId('play').click();
  return seen;
}

for (const compare of ['none', 'etcd']) {
  test(`reduced motion: playing is a slideshow of steps (compare with ${compare})`, async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await expect(diagrams(page).first()).toBeVisible();
    await chooseScenario(page, 'redis-gc-pause');
    if (compare !== 'none') {
      await page.getByTestId('compare-with').selectOption(compare);
      await expect(diagrams(page)).toHaveCount(2);
    }
    const stops = await stepStops(page, 30);
    const seen = await slides(page);
    const moved = [...new Set(seen)].filter((t) => t !== 0);
    expect(moved.length, `the slideshow moved: ${seen}`).toBeGreaterThanOrEqual(2);
    // Every resting place is a step's, in order: no frame in between.
    for (const t of moved) expect(stops, `cursor at ${t} ms is not a step`).toContain(t);
    expect(moved).toEqual(stops.slice(0, moved.length));
  });
}
