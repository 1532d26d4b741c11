import { test, expect, type Page } from '@playwright/test';
import { chooseScenario, cursorMs, openApp, scrubTo, shot, toEnd } from './helpers';

// Issue 12, item 1: a fault where you point. On a scenario with no fault (Redis's happy path),
// pointing at A's lane while A holds the lock and choosing "pause" is the classic failure: the
// pause outlives the lease, B takes over, A's late write is accepted. Two actions.

/** The x on screen of the diagram's cursor line. */
async function cursorX(page: Page): Promise<number> {
  const box = await page.getByTestId('diagram').locator('.cursor-line').boundingBox();
  expect(box, 'the cursor line is drawn').not.toBeNull();
  return box!.x + box!.width / 2;
}

/** A's lane target, and a point on it at the cursor. */
async function laneAtCursor(page: Page, node: string) {
  const lane = page.locator(`[data-testid="lane"][data-node="${node}"]`);
  const box = (await lane.boundingBox())!;
  return { lane, x: await cursorX(page), y: box.y + box.height / 2 };
}

async function verdictAtEnd(page: Page): Promise<string | null> {
  const back = await cursorMs(page);
  await toEnd(page);
  const safe = await page.getByTestId('verdict').getAttribute('data-safe');
  await scrubTo(page, back);
  return safe;
}

test('right-click a lane, choose pause: the happy path loses an update; drag it shorter, undo, redo, delete', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'happy-path-redis');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'true');
  await expect(page.getByTestId('fault-handle')).toHaveCount(0);
  await scrubTo(page, 500);

  // Action 1: right-click A's lane at the cursor. Action 2: "Pause A for …".
  const { x, y } = await laneAtCursor(page, 'A');
  await page.mouse.click(x, y, { button: 'right' });
  const menu = page.getByTestId('fault-menu');
  await expect(menu).toBeVisible();
  for (const kind of ['pause', 'crash', 'clock-jump', 'clock-drift', 'partition', 'delay', 'drop']) {
    await expect(menu.getByTestId(`fault-menu-${kind}`)).toBeVisible();
  }
  await expect(menu.getByTestId('fault-menu-pause')).toHaveText('Pause A for 15 s');
  await shot(page, 'fault-menu.png', false);
  await menu.getByTestId('fault-menu-pause').click();
  await expect(menu).toHaveCount(0);
  const at = await cursorMs(page);
  expect(Math.abs(at - 500)).toBeLessThan(60); // where the user pointed

  const handle = page.getByTestId('fault-handle');
  await expect(handle).toHaveCount(1);
  await expect(handle).toHaveAttribute('data-kind', 'pause');
  expect(await verdictAtEnd(page)).toBe('false');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-stale-accepted', '1');

  // Drag its right edge back to a fifth of its length (3 s, well within the 10 s lease): safe.
  const box = (await handle.boundingBox())!;
  const grip = page.getByTestId('fault-resize');
  const g = (await grip.boundingBox())!;
  await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, g.y + g.height / 2, { steps: 8 });
  await shot(page, 'fault-drag.png', false);
  await page.mouse.up();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'true');
  // Its length in seconds, as its words say: the axis follows the story, which the shorter
  // pause shortens, so its width on screen is no measure.
  const seconds = Number((await handle.getAttribute('title'))!.match(/for ([\d.]+) s/)![1]);
  expect(seconds).toBeLessThan(15 * 0.35);

  // Ctrl+Z brings the 15 s pause back (unsafe), Ctrl+Shift+Z the short one (safe).
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'false');
  await page.keyboard.press('Control+Shift+z');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'true');
  await expect(page.getByTestId('redo')).toBeDisabled();

  // The editor follows the screen: its draft is the run on screen, the injected pause in it.
  await page.getByTestId('scenario-json').locator('summary').click();
  await expect(page.getByTestId('editor-follows')).toHaveAttribute('data-follows', 'true');
  await expect(page.getByTestId('scenario-json-input')).toHaveValue(/"kind": "pause"/);
  await expect(page.getByTestId('scenario-json-input')).toHaveValue(/"duration_ms": 3\d\d\d/);

  // Delete removes the selected fault; the edit is in the link (Copy link / reload see it).
  await handle.click();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('fault-handle')).toHaveCount(0);
  await expect(page.getByTestId('scenario-json-input')).not.toHaveValue(/"kind": "pause"/);
  await page.getByTestId('undo').click();
  await expect(page.getByTestId('fault-handle')).toHaveCount(1);
  // A draft of one's own is not overwritten by the screen.
  await page.getByTestId('scenario-json-input').fill('{"version": 1, "approach": "etcd"}');
  await expect(page.getByTestId('editor-follows')).toHaveAttribute('data-follows', 'false');
  await page.keyboard.press('Escape');
  await page.getByTestId('fencing-toggle').focus();
  await page.keyboard.press('f');
  await expect(page.getByTestId('scenario-json-input')).toHaveValue('{"version": 1, "approach": "etcd"}');
  await expect.poll(() => page.url()).toContain('#s=');
  await page.reload();
  await expect(page.getByTestId('fault-handle')).toHaveCount(1);
});

test('from the keyboard: focus a lane, ↑/↓ between lanes, M opens the menu, Enter injects', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'happy-path-etcd');
  await scrubTo(page, 600);
  const lane = (node: string) => page.locator(`[data-testid="lane"][data-node="${node}"]`);
  await lane('A').focus();
  await expect(lane('A')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(lane('B')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(lane('A')).toBeFocused();
  expect(await cursorMs(page), 'arrows on a lane move between lanes, not the cursor').toBe(600);
  await page.keyboard.press('m');
  const menu = page.getByTestId('fault-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByTestId('fault-menu-pause')).toBeFocused();
  // Escape closes without a change; M again and Enter on the first item (pause) injects it.
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await lane('A').focus();
  await page.keyboard.press('m');
  await expect(menu.getByTestId('fault-menu-pause')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('fault-handle')).toHaveCount(1);
  expect(await cursorMs(page)).toBe(600);
  // etcd without fencing: the paused holder's session expires, B takes over, A writes late.
  await page.getByTestId('fencing-toggle').isChecked().then((on) => expect(on).toBe(false));
  expect(await verdictAtEnd(page)).toBe('false');
});

test('on a phone: a long press on a lane opens the fault menu, on screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  // The page's clock, so the test can move it past the long press's delay instead of waiting.
  await page.clock.install();
  await openApp(page);
  await chooseScenario(page, 'happy-path-db-lease');
  await scrubTo(page, 500);
  const { lane, x, y } = await laneAtCursor(page, 'A');
  const init = { pointerType: 'touch', clientX: x, clientY: y, bubbles: true, isPrimary: true, pointerId: 7 };
  await lane.dispatchEvent('pointerdown', init);
  // A short touch is a tap (no menu); a long one opens it.
  await lane.dispatchEvent('pointerup', init);
  await page.clock.fastForward(700); // past the 550 ms a long press takes
  await expect(page.getByTestId('fault-menu')).toHaveCount(0);
  await lane.dispatchEvent('pointerdown', init);
  const menu = page.getByTestId('fault-menu');
  await expect(menu).toBeVisible();
  const box = (await menu.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  await shot(page, 'fault-menu-phone.png', false);
  await menu.getByTestId('fault-menu-pause').click();
  await expect(page.getByTestId('fault-handle')).toHaveCount(1);
});

// Issue 35, item 4: with a real finger (CDP touch input, which makes the browser's own pointer,
// touch and click events), a press held still until the menu opens and then lifted adds
// nothing: the lift's click used to land on the menu's first item ("Pause A for 15 s"), which
// synthetic pointer events above never produce. Nor does the press move the cursor.
test('on a phone: the lift of a long press neither chooses a fault nor moves the cursor', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await openApp(page);
  await chooseScenario(page, 'happy-path-db-lease');
  await scrubTo(page, 500);
  const { x, y } = await laneAtCursor(page, 'A');
  const finger = await context.newCDPSession(page);
  // Touch points are in CSS pixels of the viewport; the lane is on screen (the page is at its top).
  await finger.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 1 }] });
  const menu = page.getByTestId('fault-menu');
  await expect(menu).toBeVisible();
  await finger.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  // The lift's events have all been handled once two frames have run after it.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect(menu).toBeVisible();
  await expect(page.getByTestId('fault-handle')).toHaveCount(0);
  expect(await cursorMs(page)).toBe(500);
  // A tap of its own on an item does choose it.
  await menu.getByTestId('fault-menu-pause').tap();
  await expect(page.getByTestId('fault-handle')).toHaveCount(1);
  await context.close();
});
