import { test, expect, type Page } from '@playwright/test';
import { dataArrived, ledgerRows, openApp, setSwitch, toEnd } from './helpers';

// Your own trace, judged (issue 37 item 6; docs/HISTORY_FORMAT.md): a history pasted or
// started from a recording is drawn on its approach's lanes and judged as a run is; a bad line
// is named and the text stays; the switches do not re-run a history.

const STORY = (result: string) =>
  [
    '{"history": 1, "approach": "redis", "fencing": true, "id": "tuesday", "title": "Our Tuesday outage"}',
    '{"t": 0, "process": "A", "op": "acquire"}',
    '{"t": 2, "process": "A", "op": "grant", "token": 33, "ttl_ms": 10000}',
    '{"t": 1000, "process": "A", "op": "pause", "ms": 15000}',
    '{"t": 10002, "process": "A", "op": "expire"}',
    '{"t": 11000, "process": "Bob", "op": "acquire"}',
    '{"t": 11002, "process": "Bob", "op": "grant", "token": 34, "ttl_ms": 10000}',
    '{"t": 12000, "process": "Bob", "op": "write", "token": 34, "result": "accepted"}',
    `{"t": 16000, "process": "A", "op": "write", "token": 33, "result": "${result}"}`,
  ].join('\n');

async function openHistory(page: Page) {
  await page.getByTestId('history').locator('summary').click();
  await expect(page.getByTestId('history-input')).toBeVisible();
}

const lanes = (page: Page) => page.getByTestId('lane').evaluateAll((els) => els.map((e) => e.getAttribute('data-node')));

test('a pasted history is drawn on its lanes and judged; fencing in its writes saves it', async ({ page }) => {
  await openApp(page);
  await openHistory(page);
  const verdict = page.getByTestId('verdict');
  await page.getByTestId('history-input').fill(STORY('accepted'));
  await page.getByTestId('history-judge').click();
  await expect(page.getByTestId('history-shown')).toContainText('on the lanes of Redis');
  await expect.poll(() => lanes(page)).toEqual(['redis', 'A', 'Bob', 'storage']);
  await toEnd(page);
  await expect(verdict).toHaveAttribute('data-safe', 'false');
  await expect(verdict).toHaveAttribute('data-stale-accepted', '1');

  // The switch would re-run a simulation: refused, said so, the history stays.
  await page.getByTestId('fencing-toggle').locator('xpath=..').click();
  await expect(page.getByTestId('history-error')).toContainText('This is your history');
  await expect(verdict).toHaveAttribute('data-safe', 'false');

  await page.getByTestId('history-input').fill(STORY('rejected'));
  await page.getByTestId('history-judge').click();
  await toEnd(page);
  await expect(verdict).toHaveAttribute('data-safe', 'true');
  await expect(ledgerRows(page, 'rejected')).toHaveCount(1);
});

test('a bad line is named by line and field; the run and the text stay', async ({ page }) => {
  await openApp(page);
  await openHistory(page);
  const before = await lanes(page);
  const text = STORY('accepted').replace('"token": 34,', '"token": "34",');
  await page.getByTestId('history-input').fill(text);
  await page.getByTestId('history-judge').click();
  await expect(page.getByTestId('history-error')).toHaveText('line 7, token: invalid type: string, expected an unsigned integer');
  await expect(page.getByTestId('history-input')).toHaveValue(text);
  expect(await lanes(page)).toEqual(before);
  await expect(page.getByTestId('history-shown')).toHaveCount(0);
});

test('a recording of real servers starts a history, and a scenario comes back by the picker', async ({ page }) => {
  await openApp(page);
  await dataArrived(page);
  await openHistory(page);
  const pick = page.getByTestId('history-recording');
  const option = pick.locator('option', { hasText: 'etcd-gc-pause, fencing on' });
  await pick.selectOption({ value: (await option.getAttribute('value'))! });
  await expect(page.getByTestId('history-input')).toHaveValue(/^\{"history":1,"approach":"etcd"/);
  await page.getByTestId('history-judge').click();
  await expect(page.getByTestId('history-shown')).toContainText('etcd');
  await toEnd(page);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'true');
  // The picker brings a simulation back, and its switches work again.
  await page.getByTestId('scenario-picker').selectOption('redis-gc-pause');
  await expect(page.getByTestId('history-shown')).toHaveCount(0);
  await setSwitch(page, 'fencing-toggle', true);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-safe', 'true');
});
