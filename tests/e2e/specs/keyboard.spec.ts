import { test, expect, type Page } from '@playwright/test';
import { builtin, cursorMs, dataArrived, type Expected, focused, frames, ledgerRows, openApp, scrubRange, shot } from './helpers';

// A lecturer's walk, keyboard only (issue 4): pick a scenario with the keyboard, play and pause
// (Space), jump through its key moments (Shift+→), go to the end (End), read the verdict and the
// ledger, flip fencing (F) in place, and step back (←) and forward (→) through time.
// One scenario per approach; the expected outcome is read from the built-in's own file.
const WALK = ['redis-gc-pause', 'db-lease-gc-pause', 'redlock-clock-jump', 'zookeeper-session-expiry'];

/** Tabs to the scenario picker, chooses `id` with the arrow keys, and tabs on past it. */
async function pickByKeyboard(page: Page, id: string) {
  await dataArrived(page);
  for (let i = 0; i < 40 && (await focused(page)) !== 'scenario-picker'; i++) await page.keyboard.press('Tab');
  expect(await focused(page), 'Tab reaches the scenario picker').toBe('scenario-picker');
  const picker = page.getByTestId('scenario-picker');
  const ids = await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const delta = ids.indexOf(id) - ids.indexOf(await picker.inputValue());
  expect(ids).toContain(id);
  for (let i = 0; i < Math.abs(delta); i++) await page.keyboard.press(delta > 0 ? 'ArrowDown' : 'ArrowUp');
  await expect(picker).toHaveValue(id);
  // Leave the list, so the app's keys work again (a focused <select> keeps its keys).
  await page.keyboard.press('Tab');
  expect(await focused(page)).not.toBe('scenario-picker');
}

async function expectVerdict(page: Page, e: Expected) {
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-safe', String(e.safe));
  await expect(verdict).toHaveAttribute('data-stale-accepted', String(e.stale_writes_accepted));
  await expect(ledgerRows(page, 'stale-accepted')).toHaveCount(e.stale_writes_accepted);
  await expect(ledgerRows(page, 'rejected')).toHaveCount(e.stale_writes_rejected);
}

const caption = (page: Page) => page.getByTestId('caption').innerText();


// One test per approach, so that they run side by side on the suite's workers and a slow
// machine's walk of one is not charged to the others' time.
for (const id of WALK) {
  const { approach, expect: want } = builtin(id);
  test(`keyboard only: ${id} (${approach}): key moments, verdict, fencing, time travel`, async ({ page }) => {
    await openApp(page);
    {
      await pickByKeyboard(page, id);
      const fencing = page.getByTestId('fencing-toggle');
      if (await fencing.isChecked()) await page.keyboard.press('f');
      await expect(fencing).not.toBeChecked();

      // Home, then Space plays and Space pauses.
      await page.keyboard.press('Home');
      await expect.poll(() => cursorMs(page)).toBe((await scrubRange(page)).min);
      await page.keyboard.press(' ');
      await expect.poll(() => cursorMs(page), { message: 'Space plays' }).toBeGreaterThan(0);
      await page.keyboard.press(' ');
      await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
      const paused = await cursorMs(page);
      await frames(page, 10); // playing moves the cursor every frame
      expect(await cursorMs(page), 'Space pauses').toBe(paused);

      // Shift+→ walks the key moments, each at or after the last (several may share a
      // millisecond: an expiry and the takeover it allows), each with its caption, and after
      // the last one reaches the end of the run.
      await page.keyboard.press('Home');
      const end = (await scrubRange(page)).max;
      const moments: number[] = [];
      const captions = new Set<string>();
      for (let before = await cursorMs(page); before < end && moments.length < 60; ) {
        const shown = await caption(page);
        await page.keyboard.press('Shift+ArrowRight');
        await expect.poll(async () => (await cursorMs(page)) !== before || (await caption(page)) !== shown).toBe(true);
        const after = await cursorMs(page);
        expect(after).toBeGreaterThanOrEqual(before);
        moments.push(after);
        captions.add(await caption(page));
        before = after;
      }
      expect(moments[moments.length - 1], 'Shift+→ ends at the end of the run').toBe(end);
      expect(moments.length, 'key moments reached with Shift+→').toBeGreaterThanOrEqual(3);
      expect(captions.size, 'key moments have their own captions').toBeGreaterThanOrEqual(2);

      // End: the whole run; verdict and ledger as the scenario's file expects with fencing off.
      await page.keyboard.press('Home');
      await page.keyboard.press('End');
      await expect.poll(() => cursorMs(page)).toBe(end);
      await expectVerdict(page, want.fencing_off);

      // F: fencing on, re-simulated in place; the cursor stays.
      await page.keyboard.press('f');
      await expect(fencing).toBeChecked();
      await expectVerdict(page, want.fencing_on);
      expect(await cursorMs(page)).toBe(end);

      // ← steps back through events; → retraces them exactly.
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => cursorMs(page)).toBeLessThan(end);
      const oneBack = await cursorMs(page);
      const oneBackCaption = await caption(page);
      expect(oneBackCaption.trim()).not.toBe('');
      await page.keyboard.press('ArrowLeft');
      // An earlier event: earlier in time, or another event at the same millisecond.
      await expect
        .poll(async () => (await cursorMs(page)) < oneBack || (await caption(page)) !== oneBackCaption)
        .toBe(true);
      expect(await cursorMs(page)).toBeLessThanOrEqual(oneBack);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => cursorMs(page)).toBe(oneBack);
      expect(await caption(page)).toBe(oneBackCaption);

      await page.keyboard.press('f');
      await expect(fencing).not.toBeChecked();

      // The picture a lecturer stops at: the last key moment, on a 1280×720 projector, in normal
      // and in lecture mode (README links these).
      await page.keyboard.press('End');
      await page.keyboard.press('Shift+ArrowLeft');
      await expect.poll(() => cursorMs(page)).toBeLessThan(end);
      await shot(page, `${id}.png`, false);
      await page.keyboard.press('l');
      await expect(page.getByRole('button', { name: 'Lecture' })).toHaveAttribute('aria-pressed', 'true');
      await shot(page, `${id}-lecture.png`, false);
      await page.keyboard.press('l');
    }
  });
}

test('keyboard only: L lecture mode, ? help, Esc closes it', async ({ page }) => {
  await openApp(page);
  const lecture = page.getByRole('button', { name: 'Lecture' });
  await expect(lecture).toHaveAttribute('aria-pressed', 'false');
  // Into the story: the stale write, where a lecturer stops to explain.
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('l');
  await expect(lecture).toHaveAttribute('aria-pressed', 'true');

  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toBeVisible();
  await shot(page, 'keyboard-help.png', false);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('help')).toBeHidden();

  await page.keyboard.press('l');
  await expect(lecture).toHaveAttribute('aria-pressed', 'false');
});

// Issue 11, item 6: choosing with a select (as a mouse leaves it, focused) must not swallow the
// app's keys; only typing in a text field does.
test('keys work right after choosing with the picker, the compare select or the speed; not while typing', async ({ page }) => {
  await openApp(page);
  const picker = page.getByTestId('scenario-picker');

  await test.step('the picker, chosen and still focused', async () => {
    await picker.focus();
    await picker.selectOption('etcd-gc-pause');
    expect(await focused(page), 'the picker keeps focus after a choice').toBe('scenario-picker');
    await page.keyboard.press('Home');
    const [t0, before] = [await cursorMs(page), await caption(page)];
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => cursorMs(page), { message: 'Shift+→ on the picker jumps to a key moment' }).toBeGreaterThan(t0);
    expect(await caption(page), 'the caption changes').not.toBe(before);
    await expect(picker, 'the arrow did not change the scenario').toHaveValue('etcd-gc-pause');
    await page.keyboard.press('f');
    await expect(page.getByTestId('fencing-toggle'), 'F on the picker turns fencing on').toBeChecked();
    await expect(picker, 'F is not a type-ahead in the list').toHaveValue('etcd-gc-pause');
    await page.keyboard.press('f');
  });

  await test.step('the picker, chosen with ↓ on the keyboard', async () => {
    const ids = await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await expect(picker, '↓ still chooses in the list').toHaveValue(ids[ids.indexOf('etcd-gc-pause') + 1]);
    const t0 = await cursorMs(page);
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => cursorMs(page)).toBeGreaterThan(t0);
  });

  await test.step('the compare select', async () => {
    const compare = page.getByTestId('compare-with');
    await compare.focus();
    await compare.selectOption('zookeeper');
    await expect(page.locator('[data-testid="diagram"]')).toHaveCount(2);
    const left = async () => Number(await page.getByTestId('diagram').first().getAttribute('data-cursor-ms'));
    const t0 = await left();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(left, { message: 'Shift+→ on the compare select' }).toBeGreaterThan(t0);
    await compare.selectOption('none');
    await expect(page.locator('[data-testid="diagram"]')).toHaveCount(1);
  });

  await test.step('the speed select: Space plays and pauses', async () => {
    const speed = page.getByTestId('speed');
    await speed.focus();
    await speed.selectOption('4');
    await page.keyboard.press('Home');
    await page.keyboard.press(' ');
    await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press(' ');
    await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  });

  await test.step('typing in a text field keeps every key', async () => {
    const ttl = page.getByTestId('ttl');
    await page.locator('.knobs summary').click();
    await ttl.focus();
    const t0 = await cursorMs(page);
    await page.keyboard.press('f');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('End');
    await expect(page.getByTestId('fencing-toggle')).not.toBeChecked();
    expect(await cursorMs(page), 'the cursor stays while typing').toBe(t0);
  });
});
