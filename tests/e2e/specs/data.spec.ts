import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import { DIST, cursorMs } from './helpers';

// The app's data (issue 38, src/library.rs): the built-ins, lessons and recordings are files
// beside the wasm, not in it. A page fetches its own built-in before its app starts and the
// rest once the app answers input; the build refuses a wasm that carries them.

/** The build's data folder and its catalog, as the page reads them. */
function dataFolder(): { name: string; scenarios: string[]; outages: string[] } {
  const name = readdirSync(DIST).find((f) => /^data-[0-9a-f]{16}$/.test(f));
  if (!name) throw new Error(`no data-HASH folder in ${DIST}`);
  const catalog = JSON.parse(readFileSync(path.join(DIST, name, 'catalog.json'), 'utf8'));
  return { name, scenarios: catalog.scenarios.map((s: { id: string }) => s.id), outages: catalog.outages };
}

/** Holds back every request for the files matching `re` until `release`. */
async function hold(page: Page, re: RegExp) {
  const held: Route[] = [];
  let released = false;
  await page.route(re, (route) => (released ? route.continue() : held.push(route)));
  return {
    count: () => held.length,
    release: async () => {
      released = true;
      for (const r of held.splice(0)) await r.continue();
    },
  };
}

test('the app answers input before the other built-ins, lessons and recordings arrive, then takes them up', async ({ page }) => {
  const { scenarios } = dataFolder();
  const rest = await hold(page, /\/data-[0-9a-f]+\/(catalog\.json|lessons\.json|recordings\.jsonl)$/);
  const own: string[] = [];
  page.on('request', (r) => {
    if (/\/data-[0-9a-f]+\/scenario\//.test(r.url())) own.push(new URL(r.url()).pathname.split('/').pop()!);
  });
  await page.goto('/?scenario=etcd-gc-pause');
  await expect(page.getByTestId('diagram')).toBeVisible();
  // Answers: End goes to the run's end while the rest is still held back.
  await page.keyboard.press('End');
  await expect.poll(() => cursorMs(page)).toBeGreaterThan(0);
  // Asked for once the page is idle after its start (ui::library::when_idle), and still held.
  await expect.poll(() => rest.count(), { message: 'the rest is asked for once the app answers' }).toBeGreaterThan(0);
  expect(own).toContain('etcd-gc-pause.json');
  // Until the catalog is here the picker offers what the page has: its own built-in.
  const options = page.getByTestId('scenario-picker').locator('option');
  await expect(options).toHaveCount(1);
  const real = page.getByTestId('compare-with').locator('option[value="real"]');
  await expect(real).toHaveCount(0);
  await rest.release();
  await expect(page.getByTestId('scenario-picker').locator('optgroup > option')).toHaveCount(scenarios.length);
  // The recording of this built-in is offered once the recordings are here.
  await expect(real).toHaveCount(1);
});

test('the default address fetches the first built-in only, and a lesson address its lessons before it starts', async ({ page }) => {
  const { scenarios } = dataFolder();
  const fetched: string[] = [];
  page.on('request', (r) => {
    const m = /\/data-[0-9a-f]+\/(.*)$/.exec(new URL(r.url()).pathname);
    if (m) fetched.push(m[1]);
  });
  await page.goto('/');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await expect(page.getByTestId('scenario-picker')).toHaveValue(scenarios[0]);
  expect(fetched.filter((f) => f.startsWith('scenario/'))).toEqual([`scenario/${scenarios[0]}.json`]);
  await page.goto('/?lesson=leases');
  await expect(page.getByTestId('lesson')).toBeVisible();
  expect(fetched).toContain('lessons.json');
});

test('a data file that cannot be fetched: the loading line says which, and the page stays usable', async ({ page }) => {
  await page.route(/\/data-[0-9a-f]+\//, (route) => route.fulfill({ status: 404, body: 'gone' }));
  const why = page.getByTestId('boot-why');
  // A built-in's own file; for an id that is no built-in, the catalog (to say so and list them).
  for (const [id, file] of [['etcd-gc-pause', 'scenario\\/etcd-gc-pause\\.json'], ['no-such-thing', 'catalog\\.json']]) {
    await page.goto(`/?scenario=${id}`);
    await expect(why).toBeVisible();
    await expect(why).toContainText(new RegExp(`could not load what this page shows: .*data-[0-9a-f]+/${file}: HTTP 404`));
    await expect(why.getByRole('link')).toBeVisible();
  }
});

test('a lesson index opened before the lessons arrive says so, then lists them', async ({ page }) => {
  const lessons = await hold(page, /\/data-[0-9a-f]+\/lessons\.json$/);
  await page.goto('/');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await expect.poll(() => lessons.count()).toBeGreaterThan(0);
  await page.getByTestId('lesson-start').click();
  await expect(page.getByTestId('lesson-index-loading')).toBeVisible();
  await lessons.release();
  await expect(page.getByTestId('lesson-index-loading')).toHaveCount(0);
  const course = JSON.parse(readFileSync(path.join(DIST, dataFolder().name, 'lessons.json'), 'utf8'));
  await expect(page.getByTestId('lesson-entry')).toHaveCount(course.length);
});
