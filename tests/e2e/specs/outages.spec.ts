import { test, expect, type Page } from '@playwright/test';
import { builtin, builtinIds, shot, dataArrived } from './helpers';

const builtinIntro = (id: string): string => (builtin(id) as ReturnType<typeof builtin> & { intro?: string }).intro ?? '';

// Issue 24, item 4: the real outages, replayed on the lecture stage. Each one in the picker's
// "Real outages" group (read from the page, so a new outage is walked with no change here):
// its intro says what it is adapted from and links the source; stepping through its key
// moments with fencing off reaches a stale write that storage accepts, the moment the story
// is about, and the caption says so; with fencing on, storage refuses a write at that moment.
// The stale write of each outage at 1280×720 is the gallery's picture of it.

test.use({ viewport: { width: 1280, height: 720 } });

async function outages(page: Page): Promise<string[]> {
  await page.goto('/?lecture=1');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await dataArrived(page);
  return page.locator('[data-testid="scenario-picker"] optgroup[label="Real outages"] option').evaluateAll((os) =>
    os.map((o) => (o as HTMLOptionElement).value),
  );
}

/** Presses "next key moment" until the caption says `words`; returns the caption's text. */
async function walkTo(page: Page, words: RegExp): Promise<string> {
  for (let k = 0; k < 80; k++) {
    const caption = (await page.getByTestId('caption').first().textContent()) ?? '';
    if (words.test(caption)) return caption;
    const before = await page.getByTestId('diagram').getAttribute('data-cursor-ms');
    const end = await page.getByTestId('scrub').getAttribute('max');
    if (before === end) break;
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => `${await page.getByTestId('diagram').getAttribute('data-cursor-ms')}#${await page.getByTestId('caption').first().textContent()}`).not.toBe(`${before}#${caption}`);
  }
  throw new Error(`no key moment says ${words}`);
}

// The outages, read from the catalog's files (the picker's group is checked below): one test
// each, so they run side by side on the suite's workers.
const OUTAGES = builtinIds().filter((id) => /^Adapted from/.test(builtinIntro(id)));

test('the picker groups the real outages, every one of them', async ({ page }) => {
  expect(OUTAGES.length).toBeGreaterThanOrEqual(4);
  expect((await outages(page)).sort()).toEqual(OUTAGES);
});

for (const id of OUTAGES) {
  test(`${id}: adapted from a linked source; its stale write accepted without fencing, refused with it`, async ({ page }) => {
    test.setTimeout(150_000); // a walk of up to 80 key moments
    await page.goto(`/?scenario=${id}&lecture=1&fencing=off`);
    await expect(page.getByTestId('diagram')).toBeVisible();
    const intro = (await page.locator('.intro').first().textContent()) ?? '';
    expect(intro, `${id}: the intro names its source`).toMatch(/Adapted from/);
    expect(intro, `${id}: the intro links its source`).toMatch(/https:\/\/\S+/);
    expect(intro, `${id}: the intro says what it simplifies`).toMatch(/Simplified|simplif/i);
    const caption = await walkTo(page, /STALE write accepted/);
    expect(caption, `${id}: the moment names the stale write`).toMatch(/accepts .*STALE write/);
    await shot(page, `outage-${id}-lecture.png`, false);

    // Fencing on changes only storage's answers, so the run is the same up to that write: open
    // it just before that moment, and the next key moment is storage refusing the write.
    const at = Number(await page.getByTestId('diagram').getAttribute('data-cursor-ms')) - 1;
    await page.goto(`/?scenario=${id}&lecture=1&fencing=on&t=${at}`);
    await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', String(at));
    await walkTo(page, /write rejected/);
  });
}
