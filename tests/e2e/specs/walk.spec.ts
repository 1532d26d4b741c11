import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { builtin } from './helpers';
import { calibration } from './calibration-table';

// One walk per approach on the lecture stage (issue 34): a lecturer presses "next key moment"
// through one story from start to end and the room sees the caption move on at every press,
// the stage whole on the screen (no sideways scroll, the transport on screen) and, at the end,
// the verdict the story's file expects. Whether the drawing's labels collide, are cut, spoil
// the future or are too small for the room is decided for every built-in, key moment and
// geometry by the native drawing matrix (tests/drawing_matrix.rs) in seconds; this walk checks
// what only a browser can: that the page shows it.

const CATALOG = path.resolve(__dirname, '../../../src/scenario/catalog');

/** One story per approach: its first built-in (by id) that is not the happy path, one named
 * after the approach ("redis-…") before an outage retold on it. */
const STORIES: string[] = (() => {
  const ids = readdirSync(CATALOG)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .filter((id) => !id.startsWith('happy-path'))
    .sort();
  const first = new Map<string, string>();
  for (const own of [true, false]) {
    for (const id of ids) {
      const approach = builtin(id).approach;
      if (!first.has(approach) && id.startsWith(`${approach}-`) === own) first.set(approach, id);
    }
  }
  return [...first.values()].sort();
})();

interface Where {
  ms: number;
  caption: string;
  end: boolean;
  scrollW: number;
  transportBottom: number;
  /** The caption's text fits its box at full size (ui/fit.rs scales only what does not). */
  captionFits: boolean;
  captionPx: number;
}

function where(page: Page): Promise<Where> {
  return page.evaluate(() => {
    const ms = Number(document.querySelector('[data-testid="diagram"]')?.getAttribute('data-cursor-ms'));
    const max = Number(document.querySelector('[data-testid="scrub"]')?.getAttribute('max'));
    return {
      ms,
      caption: document.querySelector('[data-testid="caption"]')?.textContent ?? '',
      end: ms >= max,
      scrollW: document.documentElement.scrollWidth,
      transportBottom: document.querySelector('[data-testid="transport"]')!.getBoundingClientRect().bottom,
      captionFits: [...document.querySelectorAll('[data-testid="caption"]')].every((c) => c.scrollHeight <= c.clientHeight + 1),
      captionPx: parseFloat(getComputedStyle(document.querySelector('[data-testid="caption"] .caption-text')!).fontSize),
    };
  });
}

/** The content box of the stage's diagram(s), as the native matrix lays them out. */
function boxes(page: Page): Promise<[number, number][]> {
  return page
    .locator('.stage .diagram-wrap')
    .evaluateAll((els) => els.map((e) => [e.clientWidth, e.clientHeight] as [number, number]));
}

test('one story per approach', () => {
  // Every approach of the catalog has a story here (nine today), each named once.
  expect(new Set(STORIES.map((id) => builtin(id).approach)).size).toBe(STORIES.length);
  expect(STORIES.length).toBeGreaterThanOrEqual(9);
});

for (const id of STORIES) {
  test(`walk ${id} (${builtin(id).approach}) through its key moments on the stage at 1280×720`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`/?scenario=${id}&lecture=1&t=0`);
    await expect(page.getByTestId('diagram')).toBeVisible();
    const next = page.getByTestId('key-next');
    let was = await where(page);
    const bad: string[] = [];
    let moments = 0;
    while (!was.end) {
      await next.click();
      await expect.poll(async () => JSON.stringify(await where(page)) !== JSON.stringify(was), `${id}: "next key moment" from ${was.ms} ms`).toBe(true);
      const now = await where(page);
      moments++;
      expect(moments, `${id}: the walk ends`).toBeLessThanOrEqual(60);
      if (now.caption === was.caption && !now.end) bad.push(`${id} at ${now.ms} ms: the caption did not change`);
      if (now.scrollW > 1280) bad.push(`${id} at ${now.ms} ms: sideways scroll (${now.scrollW} px)`);
      if (now.transportBottom > 720) bad.push(`${id} at ${now.ms} ms: the transport ends at ${Math.round(now.transportBottom)} px`);
      if (now.transportBottom !== was.transportBottom) bad.push(`${id} at ${now.ms} ms: the transport moved`);
      if (!now.captionFits) bad.push(`${id} at ${now.ms} ms: the caption does not fit its box`);
      // The room reads the caption at 28 px at 1280×720 (stage.spec.ts's floor).
      if (now.captionPx < 28) bad.push(`${id} at ${now.ms} ms: caption ${now.captionPx} px`);
      was = now;
    }
    expect(moments, `${id} has key moments`).toBeGreaterThan(2);
    expect(bad).toEqual([]);
    // The verdict at the end: what the story's file expects with its fencing as saved.
    const file = builtin(id) as ReturnType<typeof builtin> & { storage?: { fencing?: boolean } };
    const expected = file.storage?.fencing ? file.expect.fencing_on : file.expect.fencing_off;
    const verdict = page.getByTestId('verdict');
    await expect(page.getByTestId('verdict-so-far')).toHaveAttribute('data-final', 'true');
    await expect(verdict).toHaveAttribute('data-safe', String(expected.safe));
    await expect(verdict).toHaveAttribute('data-stale-accepted', String(expected.stale_writes_accepted));
    // The stage's diagram box is the one the native matrix checks at this screen.
    const [alone] = await boxes(page);
    const table = calibration().stage.find((s) => s.screen[0] === 1280)!;
    expect(alone, `${id}: the stage's diagram box`).toEqual(table.alone);
  });
}
