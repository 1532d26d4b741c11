import { test, expect, type Page } from '@playwright/test';
import { statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, builtinIds, chooseScenario, cursorMs, dataArrived } from './helpers';

// Issue 35, item 5: the release build's one offline file (scripts/offline.mjs) opened from disk
// with the network blocked runs every built-in and every lesson, asks for nothing but itself,
// and breaks no rule of its own policy.

const FILE = path.join(DIST, 'lock-lab-offline.html');
const LESSONS = ['why-fencing', 'leases', 'clocks', 'redlock', 'consensus-locks', 'in-the-wild', 'is-redlock-safe'];

/** Opens the offline file (from disk) at `query`. */
async function openOffline(page: Page, query: string) {
  await page.goto(`${pathToFileURL(FILE).href}${query}`);
}

test('the offline file runs every built-in and every lesson from file:// with the network blocked', async ({ browser }) => {
  // 45 built-ins and 7 lessons: ~15 s on a quiet machine; room for a busy one.
  test.setTimeout(180_000);
  expect(statSync(FILE).size, 'the offline file is under its 2 MB limit').toBeLessThan(2 * 1024 * 1024);
  const context = await browser.newContext({ offline: true });
  const page = await context.newPage();
  const asked: string[] = [];
  const refused: string[] = [];
  page.on('request', (r) => {
    if (!/^(file|data|blob):/.test(r.url())) asked.push(r.url());
  });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
  });
  await openOffline(page, '?scenario=etcd-gc-pause');
  await expect(page.getByTestId('diagram')).toBeVisible();
  // The app answers: End takes the cursor to the run's end.
  await page.keyboard.press('End');
  await expect.poll(() => cursorMs(page)).toBeGreaterThan(0);
  // It carries every built-in: each one runs to its end.
  await dataArrived(page);
  for (const id of builtinIds()) {
    await chooseScenario(page, id);
    await page.keyboard.press('End');
    await expect.poll(() => cursorMs(page), id).toBeGreaterThan(0);
  }
  // Not offered inside itself.
  await expect(page.getByTestId('offline-copy')).toHaveCount(0);
  // Every lesson opens at its first step.
  for (const id of LESSONS) {
    await openOffline(page, `?lesson=${id}`);
    await expect(page.getByTestId('lesson')).toHaveAttribute('data-lesson', id);
    await expect(page.getByTestId('lesson-step-title')).not.toBeEmpty();
  }
  expect(asked, 'nothing fetched from a network').toEqual([]);
  expect(refused, 'nothing refused by its own policy').toEqual([]);
  await context.close();
});

test('the app offers the offline file, the very bytes the build wrote', async ({ page, request }) => {
  await page.goto('/');
  const link = page.getByTestId('offline-copy');
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  const served = await request.get(`/${href}`);
  expect(served.ok()).toBe(true);
  expect((await served.body()).length).toBe(statSync(FILE).size);
});
