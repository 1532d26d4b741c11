import path from 'node:path';
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { chooseScenario, openApp, scrubRange, scrubTo, shot } from './helpers';

// What is on screen is always named, and a run that hit a limit says so.

test('a run cut at the trace-event limit ends there and says so; the picker names it', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const text = readFileSync(path.resolve(__dirname, '../../scenarios/event-limit.json'), 'utf8');
  await page.goto('/#s=' + Buffer.from(JSON.stringify(JSON.parse(text))).toString('base64url'));
  await expect(page.getByTestId('diagram')).toBeVisible();

  // Not a built-in: the picker says what runs instead of going blank.
  const picker = page.getByTestId('scenario-picker');
  await expect(picker).toHaveValue('');
  await expect(page.getByTestId('custom-scenario')).toHaveText('Your scenario: Eight clients hammering nine Redlock instances');

  // Cut about 11 s into its 5 minutes: the scrubber and the axis end at the cut, the verdict names it.
  const cut = page.getByTestId('run-cut');
  await expect(cut).toContainText('The run was cut at 11');
  await expect(cut).toContainText('the limit of 100,000 trace events');
  // Nobody got the lock in that storm: safe, but the sentence does not call it fine (so far,
  // and at the end).
  await expect(page.getByTestId('verdict-so-far')).toHaveText('So far: nobody has the lock yet.');
  const { max } = await scrubRange(page);
  await scrubTo(page, max);
  await expect(page.getByTestId('verdict-so-far')).toHaveText('No client ever got the lock, so nothing was written under it.');
  expect(max).toBeGreaterThan(10_000);
  expect(max).toBeLessThan(13_000);
  await shot(page, 'event-limit.png', false);

  // A built-in from the picker: the custom entry goes, nothing is cut.
  await chooseScenario(page, 'redis-gc-pause');
  await expect(page.getByTestId('custom-scenario')).toHaveCount(0);
  await expect(page.getByTestId('run-cut')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a built-in changed by a knob is named as edited', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');
  await page.getByText('Knobs: TTL, pause, seed').click();
  const ttl = page.getByTestId('ttl');
  await ttl.fill('20000');
  await ttl.press('Tab'); // leaving the field commits it, as for a person
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  await expect(page.getByTestId('custom-scenario')).toHaveText('Edited: Redis: GC pause after acquire');
  await chooseScenario(page, 'redis-gc-pause');
  await expect(page.getByTestId('custom-scenario')).toHaveCount(0);
});
