import { test, expect } from '@playwright/test';
import { chooseScenario, openApp, setSwitch, shotPath } from './helpers';

// Issue 25, item 6: what a student found, on a laptop and a phone. (The explorer's findings,
// a rare loss shown as "0.0%", tokens per cell, the counterexample's heading and axis, are in
// explore.spec.ts; the editor's plain words in editor.spec.ts.)

test('the fault menu is announced on screen, in the help and in the lesson, for mouse and touch', async ({ page }) => {
  await openApp(page);
  const hint = page.getByTestId('fault-hint');
  await expect(hint).toBeVisible();
  await expect(hint).toContainText('Right-click a lane');
  await expect(hint).toContainText('long-press it on a touch screen');
  // It says what is true: a right-click on a lane opens the menu.
  await page.locator('.lane-target').first().click({ button: 'right' });
  await expect(page.getByTestId('fault-menu')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toContainText('long-press it on a touch screen');
  await page.keyboard.press('Escape');
  await page.goto('/?lesson=why-fencing&step=14');
  await expect(page.getByTestId('lesson')).toContainText('long-press it on a touch screen');
  // Embedded, the diagram is only to look at: no hint.
  await page.goto('/?scenario=redis-gc-pause&embed=1');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await expect(page.getByTestId('fault-hint')).toHaveCount(0);
});

test('on a touch phone the hint shows too (faults.spec.ts proves the long press it names)', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await openApp(page);
  await page.getByTestId('fault-hint').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('fault-hint')).toBeInViewport();
  await expect(page.getByTestId('fault-hint')).toContainText('long-press it on a touch screen');
  await page.screenshot({ path: shotPath('fault-hint-phone.png') });
  await context.close();
});

test('on a phone, Outcome brings the verdict into view', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page);
  await expect(page.getByTestId('verdict')).toBeAttached();
  const below = await page.getByTestId('verdict').evaluate((v) => v.getBoundingClientRect().top);
  expect(below, 'the verdict starts below the screen').toBeGreaterThan(844);
  // On a phone the modes fold behind More (src/ui/app.rs, more_toggle).
  await page.getByTestId('more-controls').click();
  await page.getByTestId('show-outcome').click();
  await expect(page.getByTestId('show-outcome')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => page.getByTestId('verdict').evaluate((v) => v.getBoundingClientRect().top)).toBeLessThan(844 / 2);
  await expect(page.getByTestId('verdict')).toBeInViewport();
  await page.screenshot({ path: shotPath('outcome-phone.png') });
});

test('the TTL field and its message agree: a refused value is named, the field shows the value in use', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');
  await page.getByText('Knobs: TTL, pause, seed').click();
  const ttl = page.getByTestId('ttl');
  const message = page.getByTestId('knob-error');
  await ttl.fill('-5');
  await ttl.press('Tab');
  await expect(message).toContainText('-5 ms is out of range');
  await expect(message).toContainText('not applied');
  await expect(ttl).toHaveValue('10000');
  await ttl.fill('99999999999999999999');
  await ttl.press('Tab');
  await expect(message).toContainText('99999999999999999999');
  await expect(message).not.toContainText('-5');
  await expect(ttl).toHaveValue('10000');
  await ttl.fill('12000');
  await ttl.press('Tab');
  await expect(message).toHaveCount(0);
  await expect(ttl).toHaveValue('12000');
});

test('"after your change" compares with the run before the change', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');
  await page.getByText('Knobs: TTL, pause, seed').click();
  const ttl = page.getByTestId('ttl');
  await ttl.fill('12000');
  await ttl.press('Tab');
  await page.getByTestId('show-outcome').click();
  const feedback = page.getByTestId('change-feedback');
  await expect(feedback).toContainText('Still unsafe after your change');
  // Fencing saves the edited run, which was unsafe a moment before.
  await setSwitch(page, 'fencing-toggle', true);
  await expect(feedback).toContainText('Your change made it safe: before it, the run lost an update at');
});
