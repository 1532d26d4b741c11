import { test, expect, type Page } from '@playwright/test';
import { cursorMs, frames, shot } from './helpers';

// The run in words, lane by lane (issue 35, item 1): the diagram's parallel document, read as
// a screen reader reads it (the accessibility tree: roles, names, aria-current), walked with
// the keys a reader uses, and kept in step with the cursor both ways. tests/outline.rs checks
// the same words against every built-in's key moments natively.

const outline = (page: Page) => page.getByTestId('outline');
const current = (page: Page) => outline(page).locator('[aria-current="step"]');

test("at A's stale write the tree names it, on storage's lane, as the event the reader stands on", async ({ page }) => {
  await page.goto('/?scenario=redis-gc-pause&t=15505');
  await expect(page.getByTestId('diagram')).toBeVisible();
  const tree = await outline(page).ariaSnapshot();
  // A heading per lane, in the diagram's order, each lane a region named with its count.
  for (const lane of ['redis', 'A', 'B', 'storage']) expect(tree).toContain(`heading "${lane}" [level=3]`);
  // Lanes are regions named with what they list so far.
  expect(tree).toContain('region "storage, 2 events"');
  const facts = [
    /^2 ms: redis grants the lock to A \(token 1\)\. Key moment\.$/,
    /^10\.002 s: A's key expired at redis \(by redis's clock\)\. A is paused and does not know/,
    /^10\.102 s: redis grants the lock to B \(token 2\)/,
    /^15\.505 s: Storage accepts A's STALE write \(token 1\)/,
  ];
  for (const name of facts) await expect(outline(page).getByRole('button', { name })).toHaveCount(1);
  // The reader stands where the caption speaks: at 15.505 s that is A's release at redis.
  const caption = (await page.getByTestId('caption').locator('.caption-text').textContent())!;
  await expect(current(page)).toHaveText(`15.505 s: ${caption}`);
  // A click on the stale write stands the reader (and the cursor) on it.
  const stale = outline(page).getByRole('button', { name: facts[3] });
  await stale.click();
  await expect(stale).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('caption').locator('.caption-text')).toContainText("Storage accepts A's STALE write");
  // Nothing after the cursor is listed: the ending is not given away.
  const times = await outline(page).locator('.outline-event').evaluateAll((bs) =>
    bs.map((b) => {
      const [, n, unit] = /^([\d.]+) (m?s):/.exec(b.textContent!)!;
      return unit === 'ms' ? Number(n) : Number(n) * 1000;
    }),
  );
  expect(Math.max(...times)).toBe(15505);
  await shot(page, 'outline-redis-gc-pause.png', false);
});

test('the keys walk the lanes and move the cursor; the cursor moves the reader', async ({ page }) => {
  await page.goto('/?scenario=redis-gc-pause&t=15505');
  await expect(current(page)).toBeVisible();
  await outline(page).getByRole('button', { name: /^15\.505 s: Storage accepts A's STALE write/ }).click();
  // The list's one Tab stop is the event at the cursor: Shift+Tab out and Tab back lands there.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(current(page)).toBeFocused();
  await expect(current(page)).toContainText('STALE');
  await expect(current(page)).toBeFocused();
  // ↑: B's lane, its last event at or before 15.505 s; the cursor follows.
  await page.keyboard.press('ArrowUp');
  const onB = page.locator('[data-testid="outline"] .outline-event:focus');
  await expect(onB).toHaveAttribute('aria-current', 'step');
  expect(await onB.getAttribute('data-lane')).toBe('2');
  const bAt = await cursorMs(page);
  expect(bAt).toBeLessThanOrEqual(15505);
  // Home: B's first event; the caption says the same sentence the list does.
  await page.keyboard.press('Home');
  await expect(page.locator('[data-testid="outline"] .outline-event:focus')).toHaveAttribute('data-index', '0');
  const words = (await page.locator('[data-testid="outline"] .outline-event:focus').textContent())!;
  await expect(page.getByTestId('caption').locator('.caption-text')).toHaveText(words.replace(/^[\d.]+ m?s: /, '').replace(/ Key moment\.$/, ''));
  expect(await cursorMs(page)).toBeLessThan(bAt);
  // End, then → past the last event listed: the cursor moves on to B's next event.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  const before = await cursorMs(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => cursorMs(page)).toBeGreaterThan(before);
  await expect(page.locator('[data-testid="outline"] .outline-event:focus')).toHaveAttribute('aria-current', 'step');
  // The app's own stepping moves the reader's place too (without taking the focus).
  await page.getByTestId('scrub').focus();
  await page.keyboard.press('End');
  await expect(page.getByTestId('caption')).toHaveAttribute('data-view', 'outcome');
  // At the end the reader stands on the run's last event (the caption has moved on to the outcome).
  await expect(current(page)).toHaveText("15.509 s: A is finished with the lock.");
});

// A sample of approaches at every key moment, stepped with Shift+→ as a lecturer does: the
// event the reader stands on says what the caption says.
for (const id of ['redis-gc-pause', 'etcd-gc-pause', 'zookeeper-session-expiry', 'redlock-clock-jump', 'k8s-lease-gc-pause']) {
  for (const fencing of ['off', 'on']) {
    test(`${id}, fencing ${fencing}: at each key moment the reader stands on the captioned event`, async ({ page }) => {
      await page.goto(`/?scenario=${id}&fencing=${fencing}`);
      await expect(page.getByTestId('diagram')).toBeVisible();
      let moments = 0;
      for (;;) {
        const was = await cursorMs(page);
        await page.keyboard.press('Shift+ArrowRight');
        await frames(page, 2);
        const now = await cursorMs(page);
        if (now === was) break;
        const view = await page.getByTestId('caption').getAttribute('data-view');
        if (view !== 'event') continue;
        const caption = (await page.getByTestId('caption').locator('.caption-text').textContent())!.trim();
        await expect(current(page), `${id} at ${now} ms`).toContainText(caption);
        moments++;
      }
      expect(moments, 'key moments walked').toBeGreaterThanOrEqual(2);
    });
  }
}
