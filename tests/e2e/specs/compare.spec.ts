import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { chooseScenario, openApp, scrubRange, setSwitch, shot } from './helpers';

// Side by side (issue 5, part 5): the same clients and faults against another approach, two
// diagrams under one cursor, a one-line difference of the verdicts, and the faults that name
// lock-service nodes listed as not applicable on the side that has no such node.

const diagrams = (page: Page) => page.locator('[data-testid="diagram"]');

/** The cursor of every diagram on the page. */
async function cursors(page: Page): Promise<number[]> {
  return diagrams(page).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-cursor-ms'))));
}

test('redis-gc-pause against etcd: two diagrams, one cursor, the difference, fencing applies to both', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');
  await setSwitch(page, 'fencing-toggle', false);
  await page.getByTestId('compare-with').selectOption('etcd');
  await expect(diagrams(page)).toHaveCount(2);

  // Stepping moves both diagrams together.
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  for (let i = 0; i < 5; i++) await page.getByTestId('step').click();
  const [a, b] = await cursors(page);
  expect(a).toBeGreaterThan(0);
  expect(b).toBe(a);
  await page.getByTestId('key-next').click();
  const [c, d] = await cursors(page);
  expect(c).toBeGreaterThan(a);
  expect(d).toBe(c);

  // No spoilers: until the end the headings say how each side stands so far, and the
  // one-line difference waits.
  const summary = page.getByTestId('compare-summary');
  await expect(summary).toHaveCount(0);
  await expect(page.getByTestId('compare-left')).toContainText('So far');
  await page.keyboard.press('End');
  // The summary names both approaches and what happened to each.
  await expect(summary).toContainText('Redis: 2 holders at 10.104 s, stale write accepted at 15.505 s');
  await expect(summary).toContainText('; etcd: 2 holders at');
  await expect(page.getByTestId('compare-left')).toHaveAttribute('data-safe', 'false');
  await expect(page.getByTestId('compare-right')).toHaveAttribute('data-safe', 'false');
  // A client pause applies to both sides: nothing is left out.
  await expect(page.getByTestId('compare-not-applicable').locator('li')).toHaveCount(0);

  // Fencing applies to both sides: both now reject the stale write, and the cursor stays.
  const before = await cursors(page);
  await setSwitch(page, 'fencing-toggle', true);
  await expect(summary).toContainText('Redis + fencing: 2 holders at 10.104 s, stale write rejected at 15.505 s');
  await expect(summary).toContainText('; etcd + fencing: ');
  await expect(summary).toContainText(/etcd \+ fencing: .*stale write rejected/);
  await expect(page.getByTestId('compare-right')).toHaveAttribute('data-safe', 'true');
  expect(await cursors(page)).toEqual(before);

  // Both runs' verdicts and ledgers are shown, each under its approach's name.
  const [left, right] = [page.getByTestId('verdict'), page.getByTestId('verdict-other')];
  await expect(left).toHaveAttribute('data-safe', 'true');
  await expect(right).toHaveAttribute('data-safe', 'true');
  await expect(page.locator('.side-panel').filter({ has: right })).toHaveAttribute('data-approach', 'etcd');
  // The scenario's `expect` was written for Redis: only the Redis side is checked against it.
  await expect(left.locator('.expect')).toHaveCount(1);
  await expect(right.locator('.expect')).toHaveCount(0);
  await expect(page.getByTestId('ledger-other').locator('[data-testid="ledger-row"][data-result="rejected"]')).toHaveCount(1);
  // A finding of the etcd run moves the one cursor to the etcd run's moment.
  const finding = right.locator('.finding button').first();
  const at = Math.round(Number((await finding.innerText()).replace(' s', '')) * 1000);
  await finding.click();
  await expect.poll(async () => (await cursors(page))[1]).toBe(at);
  await shot(page, 'compare-panels.png');

  // Each side exports its own run: the etcd figure has the etcd lanes and says it is etcd.
  await expect(page.getByTestId('export-svg')).toHaveCount(1);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg-other').click()]);
  expect(download.suggestedFilename()).toMatch(/^redis-gc-pause-on-etcd-fencing-on-t\d+\.svg$/);
  const figure = readFileSync((await download.path())!, 'utf8');
  expect(figure).toContain('etcd-1');
  expect(figure).not.toContain('>redis<');

  // The address bar carries the comparison once the view rests.
  await expect.poll(() => page.url()).toContain('compare=etcd');

  // Leaving compare mode returns to one diagram with the cursor kept.
  const kept = (await cursors(page))[0];
  await page.getByTestId('compare-with').selectOption('none');
  await expect(diagrams(page)).toHaveCount(1);
  expect(await cursors(page)).toEqual([kept]);
  await expect(page.getByTestId('compare-summary')).toHaveCount(0);
  await expect(page.getByTestId('verdict-other')).toHaveCount(0);
});

test('lock-service faults are carried by role (the same clock jump on etcd); compare= opens it', async ({ page }) => {
  await page.goto('/?scenario=redlock-clock-jump&fencing=on&compare=etcd');
  await expect(diagrams(page)).toHaveCount(2);
  await expect(page.getByTestId('compare-with')).toHaveValue('etcd');
  await expect(page.getByTestId('compare-not-applicable').locator('li')).toHaveCount(0);
  const notes = page.locator('.compare-notes');
  await expect(notes).toContainText('clock jump redis-3 by +10 s at 1.5 s: carried as clock jump etcd-3 by +10 s at 1.5 s');
  await expect(notes).toContainText('drop A → redis-4 from 0 s: carried as drop A → etcd-4 from 0 s');
  await page.keyboard.press('End');
  const summary = page.getByTestId('compare-summary');
  await expect(summary).toContainText('Redlock + fencing: 2 holders at');
  await expect(summary).toContainText('(no token to check); etcd + fencing: one holder at a time');
  await expect(page.getByTestId('compare-left')).toHaveAttribute('data-safe', 'false');
  await expect(page.getByTestId('compare-right')).toHaveAttribute('data-safe', 'true');
  await expect(page.getByTestId('side-missing')).toHaveCount(0);

  // At the stale write: what a lecturer projects.
  await page.keyboard.press('End');
  const { max } = await scrubRange(page);
  await expect.poll(async () => (await cursors(page))[1]).toBe(max);
  await shot(page, 'compare-redlock-clock-jump-vs-etcd.png', false);
  await page.keyboard.press('l');
  await expect(page.locator('.app.lecture')).toHaveCount(1);
  await shot(page, 'compare-redlock-clock-jump-vs-etcd-lecture.png', false);
});

test("a fault with no counterpart is named in the side's heading, at the caption's size on the stage", async ({ page }) => {
  // etcd's third server has no counterpart in a single Redis.
  const s = JSON.parse(JSON.stringify({ version: 1, id: 'three', title: 'Three servers', approach: 'etcd', duration_ms: 8000,
    faults: [{ at_ms: 1000, kind: 'clock_jump', node: 'etcd-3', by_ms: 5000 }] }));
  await page.goto(`/?lecture=1&compare=redis#s=${Buffer.from(JSON.stringify(s)).toString('base64url')}`);
  await expect(diagrams(page)).toHaveCount(2);
  const missing = page.getByTestId('side-missing');
  await expect(missing).toContainText('Redis ran without 1 of etcd\'s 1 fault');
  const [caption, words] = await Promise.all([
    page.locator('[data-testid="caption"] .caption-text').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize)),
    missing.evaluate((e) => parseFloat(getComputedStyle(e).fontSize)),
  ]);
  expect(words).toBeGreaterThanOrEqual(caption);
});

test('redis-gc-pause with fencing against Redlock, at 360 px', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto('/?scenario=redis-gc-pause&fencing=on&compare=redlock&t=15505&outcome=1');
  await expect(diagrams(page)).toHaveCount(2);
  await expect(page.getByTestId('compare-summary')).toContainText('Redlock + fencing: ');
  expect(await cursors(page)).toEqual([15505, 15505]);
  // Nothing sticks out sideways on a phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'compare-phone.png');
  // On a projector, just after both stale writes arrived.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?scenario=redis-gc-pause&fencing=on&compare=redlock&t=16000');
  await expect(diagrams(page)).toHaveCount(2);
  await shot(page, 'compare-redis-gc-pause-vs-redlock.png', false);
});

test('another scenario keeps the compared approach, and the select says which', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'happy-path-redis');
  const select = page.getByTestId('compare-with');
  await select.selectOption('etcd');
  await expect(diagrams(page)).toHaveCount(2);
  // The next scenario is on another approach: the select's options change under it (Redis is
  // offered now, Redisson no longer), and what it shows must still be the approach compared.
  await chooseScenario(page, 'happy-path-redisson');
  await expect(diagrams(page)).toHaveCount(2);
  await expect(select).toHaveValue('etcd');
  await expect(page.locator('section.side[aria-label]').nth(1)).toHaveAttribute('aria-label', /etcd/);
  await select.selectOption('zookeeper');
  await expect(page.locator('section.side[aria-label]').nth(1)).toHaveAttribute('aria-label', /ZooKeeper/i);
});
