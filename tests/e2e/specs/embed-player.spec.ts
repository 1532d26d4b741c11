import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { frames } from './helpers';

// Issue 38, item 2: an embed starts the player (src/ui/player.rs), a second, smaller wasm of
// the same crate, and never the app's until "Open in Lock Lab" is clicked; in it, play, step
// and the fencing switch (key F) work as in the app, on the same trace.

const PLAYER = /\/locklab-player-[0-9a-f]{16}(_bg\.wasm|\.js)$/;
// Trunk's hash is a u64 in hex without leading zeros: 8 to 16 digits.
const APP = /\/locklab-web-[0-9a-f]{8,16}(_bg\.wasm|\.js)$/;

/** Every URL the page (and its frames) asks for, from now on. */
function requests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

const cursor = (page: Page) => page.getByTestId('diagram').getAttribute('data-cursor-ms').then(Number);

/** The cursor and caption at each key moment, from the start to the end (Shift+→). */
async function keyMoments(page: Page): Promise<string[]> {
  await page.keyboard.press('Home');
  await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '0');
  // Key moments may share a millisecond: each is told by its caption.
  const here = async () => `${await cursor(page)} ${await page.getByTestId('caption').locator('.caption-text').innerText()}`;
  const end = Number(await page.getByTestId('scrub').getAttribute('max'));
  const seen: string[] = [];
  while ((await cursor(page)) < end && seen.length < 100) {
    const before = await here();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(here).not.toBe(before);
    await frames(page, 2);
    seen.push(await here());
  }
  return seen;
}

test('an embed starts the player, not the app, until "Open in Lock Lab" is clicked', async ({ page, context }) => {
  await page.setViewportSize({ width: 640, height: 360 });
  const asked = requests(page);
  await page.goto('/?scenario=redis-gc-pause&t=15505&embed=1');
  await expect(page.locator('.app.player').getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
  await expect(page.locator('html')).toHaveAttribute('data-wasm', 'player');
  expect(asked.filter((u) => PLAYER.test(u)).length, 'the player wasm and JS').toBe(2);

  // Play, then pause: the cursor moves, and stands still once paused.
  await page.getByTestId('step-back').click();
  const start = await cursor(page);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => cursor(page)).toBeGreaterThan(start);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  // Step forwards and back by the buttons and by the keys.
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '0');
  await page.getByTestId('step').click();
  await expect.poll(() => cursor(page)).toBeGreaterThan(0);
  const one = await cursor(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => cursor(page)).toBeGreaterThanOrEqual(one);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '0');

  // Fencing (key F): A's stale write is accepted, then rejected; the cursor stays, and the
  // link to the full app says so.
  await page.getByTestId('scrub').fill('15505');
  await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
  const open = page.getByTestId('open-full');
  await expect(open).toHaveAttribute('href', /\?scenario=redis-gc-pause&t=15505$/);
  await expect(page.getByTestId('diagram')).toContainText('STALE, accepted');
  await page.keyboard.press('f');
  await expect(open).toHaveAttribute('href', /\?scenario=redis-gc-pause&fencing=on&t=15505$/);
  await expect(page.getByTestId('diagram')).not.toContainText('STALE, accepted');
  await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
  expect(asked.filter((u) => APP.test(u)), 'no file of the full app before the click').toEqual([]);

  // "Open in Lock Lab": the full app, in a tab of its own, at the same view.
  const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
  const tabAsked = requests(tab);
  await expect(tab.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
  await expect(tab.getByTestId('fencing-toggle')).toBeChecked();
  await expect(tab.getByTestId('scenario-picker')).toHaveValue('redis-gc-pause');
  await expect(tab.locator('html')).toHaveAttribute('data-wasm', 'app');
  expect(tabAsked.some((u) => APP.test(u)) || (await tab.evaluate(() => performance.getEntriesByType('resource').some((e) => /locklab-web-/.test(e.name)))), 'the app, in the new tab').toBe(true);
  expect(asked.filter((u) => APP.test(u)), 'the embed itself still never asked for the app').toEqual([]);
});

test('the player runs the same trace as the app: every key moment, fencing off and on', async ({ browser }) => {
  test.setTimeout(120_000);
  for (const query of ['scenario=redlock-clock-jump', 'scenario=zookeeper-session-expiry&fencing=on']) {
    const app = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await app.goto(`/?${query}`);
    await expect(app.locator('html')).toHaveAttribute('data-wasm', 'app');
    await expect(app.getByTestId('diagram')).toBeVisible();
    const player = await browser.newPage({ viewport: { width: 800, height: 450 } });
    await player.goto(`/?${query}&embed=1`);
    await expect(player.locator('html')).toHaveAttribute('data-wasm', 'player');
    await expect(player.getByTestId('diagram')).toBeVisible();
    expect(await keyMoments(player), query).toEqual(await keyMoments(app));
    await app.close();
    await player.close();
  }
});

test('a scenario of one\'s own (#s=) plays in the player; lessons and comparisons embedded stay on the app', async ({ page }) => {
  const file = JSON.parse(readFileSync(path.resolve(__dirname, '../../../src/scenario/catalog/etcd-gc-pause.json'), 'utf8'));
  file.id = 'my-etcd';
  file.title = 'My etcd pause';
  const encoded = Buffer.from(JSON.stringify(file)).toString('base64url');
  const asked = requests(page);
  await page.goto(`/?embed=1&t=4000#s=${encoded}`);
  await expect(page.locator('html')).toHaveAttribute('data-wasm', 'player');
  await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '4000');
  await expect(page.getByRole('main')).toHaveAttribute('aria-label', 'My etcd pause, fencing off');
  await expect(page.getByTestId('open-full')).toHaveAttribute('href', /\?t=4000#s=/);
  await page.keyboard.press('f');
  await expect(page.getByRole('main')).toHaveAttribute('aria-label', 'My etcd pause, fencing on');
  // A built-in of no such name: the first built-in, with the app's banner.
  await page.goto('/?scenario=nope&embed=1');
  await expect(page.getByTestId('link-error')).toContainText('scenario=nope');
  await expect(page.getByTestId('diagram')).toBeVisible();
  expect(asked.filter((u) => APP.test(u))).toEqual([]);

  for (const query of ['lesson=why-fencing&step=6&embed=1', 'scenario=redis-gc-pause&compare=etcd&embed=1']) {
    await page.goto(`/?${query}`);
    await expect(page.locator('html')).toHaveAttribute('data-wasm', 'app');
    await expect(page.getByTestId('diagram').first()).toBeVisible();
  }
});

test('an embed in lecture mode gives the diagram the frame\'s room, as without it', async ({ page }) => {
  // The stage of lecture mode (a flex column) had left the embed's diagram no height at all.
  for (const lecture of ['', '&lecture=1']) {
    await page.setViewportSize({ width: 800, height: 450 });
    await page.goto(`/?scenario=redis-gc-pause&fencing=on&t=15505&embed=1${lecture}`);
    await expect(page.locator('.app.player').getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
    const box = await page.locator('.app.player figure.diagram-wrap').boundingBox();
    expect(box?.height ?? 0, `the diagram's box${lecture}`).toBeGreaterThan(200);
    expect(await page.evaluate(() => document.documentElement.scrollHeight), 'no page scroll').toBeLessThanOrEqual(450);
  }
});
