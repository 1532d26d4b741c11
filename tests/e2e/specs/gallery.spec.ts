import { test, expect } from '@playwright/test';
import { openApp, chooseScenario, cursorMs, shot, toEnd } from './helpers';

// The README's gallery: every approach at its key moment on a 1280×720 projector, in normal and
// lecture mode. The keyboard walk (keyboard.spec.ts) takes four of them on its way; this takes
// etcd's, and the phone view.

test('etcd at the stale write, normal and lecture mode', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page);
  await chooseScenario(page, 'etcd-gc-pause');
  // At the end the whole verdict shows; its finding link moves the cursor to the write that
  // broke safety.
  await toEnd(page);
  await page.getByTestId('verdict').locator('.finding button').first().click();
  await expect.poll(() => cursorMs(page)).toBeGreaterThan(0);
  await expect(page.getByTestId('caption')).toContainText("Storage accepts A's STALE write");
  // The click scrolled the verdict into view; a lecturer shows the diagram.
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'etcd-gc-pause.png', false);
  await page.keyboard.press('l');
  await expect(page.getByRole('button', { name: 'Lecture' })).toHaveAttribute('aria-pressed', 'true');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'etcd-gc-pause-lecture.png', false);
});

test('a phone: 360 px wide, no sideways scroll, the story still readable', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');
  await toEnd(page);
  await page.getByTestId('verdict').locator('.finding button').first().click();
  await expect.poll(() => cursorMs(page)).toBeGreaterThan(15_000);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no horizontal page scroll').toBeLessThanOrEqual(0);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'false');
  await shot(page, 'phone-redis-gc-pause.png');
});
