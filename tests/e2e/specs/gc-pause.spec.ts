import { test, expect } from '@playwright/test';
import { setSwitch, chooseScenario, cursorMs, ledgerRows, openApp, scrubRange, scrubTo, shot } from './helpers';

// The walking skeleton's story (issue 2): A pauses past its lease, B takes over, A wakes and
// writes. Without fencing storage accepts A's stale write; with fencing it rejects it.
test('redis-gc-pause: stale write accepted without fencing, rejected with it, cursor kept', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');

  const verdict = page.getByTestId('verdict');
  await setSwitch(page, 'fencing-toggle', false);

  // Play moves the cursor forward; pause stops it.
  const start = await cursorMs(page);
  await page.getByTestId('play').click();
  await expect.poll(() => cursorMs(page), { message: 'playing advances the cursor' }).toBeGreaterThan(start);
  await page.getByTestId('play').click();

  // Then on to the end of the run.
  const { max } = await scrubRange(page);
  expect(max).toBeGreaterThan(0);
  await scrubTo(page, max);

  await expect(verdict).toHaveAttribute('data-safe', 'false');
  expect(Number(await verdict.getAttribute('data-stale-accepted'))).toBeGreaterThanOrEqual(1);
  await expect(ledgerRows(page, 'stale-accepted')).not.toHaveCount(0);
  await shot(page, 'redis-gc-pause-fencing-off.png');

  // Fencing on: re-simulated in place, the cursor stays, A's older token is rejected.
  const before = await cursorMs(page);
  await setSwitch(page, 'fencing-toggle', true);
  await expect(verdict).toHaveAttribute('data-safe', 'true');
  await expect(verdict).toHaveAttribute('data-stale-accepted', '0');
  await expect(ledgerRows(page, 'rejected')).not.toHaveCount(0);
  await expect(ledgerRows(page, 'stale-accepted')).toHaveCount(0);
  expect(await cursorMs(page)).toBe(before);
  await shot(page, 'redis-gc-pause-fencing-on.png');
});
