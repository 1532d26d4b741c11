import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { shot } from './helpers';

// Issue 23, item 7: real runs in the app. For each committed recording (src/recorded/recordings/,
// written by scripts/record-real.sh), the built-in it recorded with its fencing setting, one
// page load: "Compare with" offers "real <server> (recorded)"; choosing it draws the recording
// beside the simulation under one cursor, headed by its verdict, with the line saying when and
// on what it was recorded and the line saying whether it agrees with the model. An edit that
// makes the scenario another one takes the offer away. Four of them, one per service, at the
// stale write on the lecture stage at 1280×720, are the gallery's pictures.

test.use({ viewport: { width: 1280, height: 720 } });

interface Recording {
  id: string;
  fencing: boolean;
  server: string;
  recorded: string;
}
const dir = path.resolve(__dirname, '../../../src/recorded/recordings');
const recordings: Recording[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));

/** The pictures: one story per service, at its stale write (accepted, or refused with fencing). */
const PICTURED: Record<string, string> = {
  'redis-gc-pause-fencing-off': 'recorded-redis-gc-pause-lecture.png',
  'db-lease-gc-pause-fencing-on': 'recorded-db-lease-gc-pause-fencing-on-lecture.png',
  'etcd-gc-pause-fencing-off': 'recorded-etcd-gc-pause-lecture.png',
  'zookeeper-session-expiry-fencing-on': 'recorded-zookeeper-session-expiry-fencing-on-lecture.png',
};

const diagrams = (page: Page) => page.locator('[data-testid="diagram"]');
const cursors = (page: Page) => diagrams(page).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-cursor-ms'))));

test('the recordings cover Redis, PostgreSQL, etcd and ZooKeeper', () => {
  for (const service of ['Redis 7', 'PostgreSQL 15', 'etcd 3.4', 'ZooKeeper 3.8']) {
    expect(recordings.some((r) => r.server.includes(service)), service).toBe(true);
  }
});

// The whole journey for one recording per service (the pictured ones); every recording's
// agreement with the model and with its built-in is held natively (tests/recorded.rs), and
// each is offered in the menu (below), so a browser load per recording would only repeat it.
test('every recording is offered beside its built-in, named by its server', async ({ page }) => {
  for (const r of recordings) {
    await page.goto(`/?scenario=${r.id}&fencing=${r.fencing ? 'on' : 'off'}`);
    await expect(page.getByTestId('compare-with').locator('option[value="real"]')).toHaveText(`real ${r.server} (recorded)`);
  }
});

for (const r of recordings.filter((r) => PICTURED[`${r.id}-fencing-${r.fencing ? 'on' : 'off'}`])) {
  const name = `${r.id}-fencing-${r.fencing ? 'on' : 'off'}`;
  test(`${name}: the real run on ${r.server} beside the simulation`, async ({ page }) => {
    await page.goto(`/?scenario=${r.id}&fencing=${r.fencing ? 'on' : 'off'}`);
    const select = page.getByTestId('compare-with');
    const option = select.locator('option[value="real"]');
    await expect(option).toHaveText(`real ${r.server} (recorded)`);
    await select.selectOption('real');
    await expect(diagrams(page)).toHaveCount(2);
    await expect(page.getByTestId('recorded-on')).toContainText(`Recorded ${r.recorded} on ${r.server}`);
    const right = page.getByTestId('compare-right');
    await expect(right).toContainText(`real ${r.server}`);

    // Stepping moves both diagrams, and the real side's caption follows its own events (the
    // real trace has no messages: its events are fewer, so it may take a few steps).
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    const caption = page.locator(`.side-caption[data-approach="real ${r.server}"]`);
    const before = await caption.textContent();
    for (let i = 0; i < 60 && (await caption.textContent()) === before; i++) await page.getByTestId('step').click();
    await expect(caption).not.toHaveText(before ?? '');
    const [a, b] = await cursors(page);
    expect(a).toBeGreaterThan(0);
    expect(b).toBe(a);

    // At the end: each side's verdict, and the computed agreement.
    await page.keyboard.press('End');
    const left = page.getByTestId('compare-left');
    const safe = await left.getAttribute('data-safe');
    await expect(right).toHaveAttribute('data-safe', safe ?? '');
    await expect(right).toContainText(safe === 'true' ? 'Safe' : 'Unsafe');
    await expect(page.getByTestId('compare-summary')).toHaveText(new RegExp(`^The real run agrees with the model: safe ${safe}, stale writes accepted \\d`));

    // Another scenario (half a second more TTL): the recording is not drawn against it; the side says why.
    if (name === 'redis-gc-pause-fencing-off') {
      await page.getByText('Knobs: TTL, pause, seed').click();
      await page.getByTestId('ttl').fill('10500');
      await page.getByTestId('ttl').press('Tab');
      await expect(page.getByTestId('compare-error')).toContainText('changed since');
      await expect(diagrams(page)).toHaveCount(1);
      await page.locator('body').click({ position: { x: 2, y: 2 } });
      await page.keyboard.press('Control+z');
      await expect(diagrams(page)).toHaveCount(2);
    }

    const picture = PICTURED[name];
    if (picture) {
      // The lecture stage at the stale write: the last write at storage (accepted or refused).
      await page.keyboard.press('l');
      await expect(page.locator('.app.lecture')).toBeVisible();
      await page.keyboard.press('Home');
      // What a step can change: the cursor and the caption(s) on the stage.
      const state = async () => `${(await cursors(page))[0]}#${(await page.locator('.side-caption').allTextContents()).join('|')}`;
      for (let k = 0; k < 60; k++) {
        const now = await state();
        if (/STALE write accepted|write rejected/.test(now)) break;
        await page.keyboard.press('Shift+ArrowRight');
        await expect.poll(state).not.toBe(now);
      }
      expect(await state()).toMatch(/STALE write accepted|write rejected/);
      // The two runs' stale writes arrive a few ms apart: step on until both ledgers hold the same
      // number of writes, so the picture shows the write on both sides.
      const rows = (side: string) => page.locator(`.side-panel[data-approach="${side}"] [data-testid="ledger-row"][data-future="false"]`).count();
      const sides = await page.locator('.side-panel').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-approach') ?? ''))]);
      expect(sides).toHaveLength(2);
      let stepped = false;
      for (let k = 0; k < 20 && (await rows(sides[0])) !== (await rows(sides[1])); k++) {
        stepped = true;
        const now = await state();
        await page.keyboard.press('ArrowRight');
        await expect.poll(state).not.toBe(now);
      }
      expect(await rows(sides[1])).toBe(await rows(sides[0]));
      // A diagram draws the cursor's millisecond up to the event captioned there: having stepped
      // to the later write, step on to a later millisecond so that both writes are drawn whole.
      const ms = (await cursors(page))[0];
      for (let k = 0; stepped && k < 10 && (await cursors(page))[0] === ms; k++) {
        const now = await state();
        await page.keyboard.press('ArrowRight');
        await expect.poll(state).not.toBe(now);
      }
      await shot(page, picture, false);
    }

  });
}
