import { readdirSync, readFileSync } from 'node:fs';
import { DIST } from './helpers';
import path from 'node:path';
import { test, expect, type Page, type Route, type Frame } from '@playwright/test';

// The first diagram at first paint (issue 25, item 4): the default address, a built-in's
// address and an embed of a built-in show a diagram pre-drawn at build time
// (src/bin/first-paint.rs, with the CLI's `export::figure`) before the wasm has arrived, the
// latest pre-drawn moment at or before the address's t=, and the live app takes its place
// without moving anything. Here the wasm is held back (its request answered only when the test
// says so), so "before the wasm" is a state the test can look at as long as it likes.

const FLAGS = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/** A built-in's pre-drawn moments at a width, from the build (dist/paint-HASH/ID-W.json). */
function moments(id: string, width: number): number[] {
  const dir = readdirSync(DIST).find((f) => f.startsWith('paint-'))!;
  const file = JSON.parse(readFileSync(path.join(DIST, dir, `${id}-${width}.json`), 'utf8')) as { m: [number, string][] };
  return file.m.map(([at]) => at);
}

/** Holds back every wasm request of the page (and its frames) until `release()`. */
async function holdWasm(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\.wasm$/, (route) => (released ? route.continue() : held.push(route)));
  return {
    release: async () => {
      released = true;
      for (const r of held.splice(0)) await r.continue();
    },
  };
}

/** Sums the page's layout shifts (the Layout Instability API), as CLS does, into window.__cls. */
const RECORD_SHIFTS = () => {
  const w = window as unknown as { __cls: number; __shifts: string[] };
  w.__cls = 0;
  w.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] }[]) {
      if (e.hadRecentInput) continue;
      w.__cls += e.value;
      w.__shifts.push(`${e.value.toFixed(4)} ${(e.sources ?? []).map((s) => (s.node as Element)?.className ?? s.node?.nodeName).join(', ')}`);
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

type Box = { x: number; y: number; width: number; height: number };
async function box(where: Page | Frame, selector: string): Promise<Box> {
  const b = await where.locator(selector).first().boundingBox();
  expect(b, `${selector} has a box`).not.toBeNull();
  return b!;
}
function same(a: Box, b: Box, what: string, tolerance = 1) {
  for (const k of ['x', 'y', 'width', 'height'] as const) {
    expect(Math.abs(a[k] - b[k]), `${what} ${k}: ${a[k]} pre-drawn → ${b[k]} live`).toBeLessThanOrEqual(tolerance);
  }
}

for (const [width, height, address, id, t] of [
  [1280, 720, '/', 'redis-gc-pause', 0],
  [360, 780, '/', 'redis-gc-pause', 0],
  [1280, 720, '/?scenario=etcd-gc-pause&t=18000', 'etcd-gc-pause', 18000], // the end of its story's axis (issue 36)
  [360, 780, '/?scenario=zookeeper-session-expiry&t=12345', 'zookeeper-session-expiry', 12345],
  [1920, 1080, '/?scenario=redlock-clock-jump', 'redlock-clock-jump', 0],
] as const) {
  test(`${address} at ${width}×${height}: a pre-drawn diagram before the wasm, replaced without a layout shift`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.addInitScript(RECORD_SHIFTS);
    const wasm = await holdWasm(page);
    await page.goto(address);
    const figure = page.getByTestId('first-paint');
    await expect(figure).toBeVisible();
    await expect(figure).toHaveCount(1);
    await expect(page.locator('.boot-line')).toContainText('Loading the simulator');
    // The latest moment drawn at or before t, veiled beyond (the figure's own `future` veil).
    const drawnWidth = width < 640 ? 342 : 1246;
    const at = Math.max(...moments(id, drawnWidth).filter((m) => m <= t));
    await expect(figure).toHaveAttribute('data-at', String(at));
    await expect(figure.locator('rect.future')).toHaveCount(1);
    await expect(figure.locator('text.lane-name').first()).toBeVisible();
    const pre = { figure: await box(page, '[data-testid=first-paint]'), intro: await box(page, 'p.intro.fp') };
    await page.screenshot({ path: `../../target/screenshots/first-paint-${id}-${width}x${height}.png` });

    await wasm.release();
    await expect(page.getByTestId('diagram')).toBeVisible();
    await expect(page.locator('.boot')).toHaveCount(0);
    await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', String(t));
    same(pre.figure, await box(page, '.diagram-wrap'), 'the diagram box');
    same(pre.intro, await box(page, 'p.intro'), 'the intro');
    const { cls, shifts } = await page.evaluate(() => {
      const w = window as unknown as { __cls: number; __shifts: string[] };
      return { cls: w.__cls, shifts: w.__shifts };
    });
    expect(cls, `layout shifts: ${shifts.join(' | ')}`).toBeLessThan(0.01);
  });
}

test('another run than the one drawn (switches, a scenario of its own, lecture) shows the loading line alone', async ({ page }) => {
  await holdWasm(page);
  for (const address of ['/?scenario=redis-gc-pause&fencing=on', '/?scenario=redis-gc-pause&lecture=1', '/?scenario=no-such-thing', '/?compare=etcd']) {
    await page.goto(address);
    await expect(page.locator('.boot-line')).toBeVisible();
    // (The wasm never comes here: no network idle to wait for; a figure would be fetched by now.)
    await page.waitForTimeout(500);
    await expect(page.getByTestId('first-paint'), address).toBeHidden();
  }
  // A switch set to the value the built-in ships with is the same run.
  await page.goto('/?scenario=redis-gc-pause&fencing=off&t=15505');
  await expect(page.getByTestId('first-paint')).toBeVisible();
  await expect(page.getByTestId('first-paint')).toHaveAttribute('data-at', '15505');
});

test('an embed of a built-in shows a pre-drawn diagram, then the app in its place, under the policy and offline', async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const violations: string[] = [];
  const foreign: string[] = [];
  page.on('console', (m) => /content.security.policy|refused to/i.test(m.text()) && violations.push(m.text()));
  page.on('request', (r) => new URL(r.url()).origin !== origin && !r.url().startsWith('data:') && !r.url().startsWith('about:') && foreign.push(r.url()));
  const wasm = await holdWasm(page);
  const src = `${baseURL}/?scenario=redis-gc-pause&t=15505&embed=1`;
  await page.setContent(
    `<!doctype html><title>Docs</title><h1>Fencing</h1>` +
      `<iframe sandbox="${FLAGS}" width="640" height="360" title="Lock Lab: GC pause" src="${src}"></iframe>` +
      `<iframe sandbox="allow-scripts" width="320" height="240" title="Lock Lab: GC pause (old snippet)" src="${src}"></iframe>`,
  );
  const frames = () => page.frames().filter((f) => f.url().startsWith(baseURL!));
  await expect.poll(() => frames().length).toBe(2);
  for (const f of frames()) {
    await expect(f.getByTestId('first-paint')).toBeVisible();
    await expect(f.getByTestId('first-paint')).toHaveAttribute('data-at', '15505');
  }
  const [big, small] = frames();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.locator('iframe').first().screenshot({ path: '../../target/screenshots/first-paint-embed-640x360.png' });
  await page.locator('iframe').nth(1).screenshot({ path: '../../target/screenshots/first-paint-embed-320x240.png' });
  const pre = [await box(big, '[data-testid=first-paint]'), await box(small, '[data-testid=first-paint]')];
  // The pre-drawn figure reads like the app it stands for (issue 25): drawn for the frame's
  // diagram box, its type is not shrunk (a figure at natural lane heights, scaled into a
  // 640×360 frame's box, had 7 px type).
  for (const [k, f] of [big, small].entries()) {
    const px = await f.locator('[data-testid=first-paint] svg').evaluate((svg: SVGSVGElement) => {
      // Fitted with "meet": the tighter of the two ways.
      const r = svg.getBoundingClientRect();
      const scale = Math.min(r.width / svg.viewBox.baseVal.width, r.height / svg.viewBox.baseVal.height);
      const sizes = [...svg.querySelectorAll('text')].filter((t) => t.getBoundingClientRect().width > 0).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
      return Math.min(...sizes);
    });
    expect(px, `embed ${k ? '320×240' : '640×360'}: the pre-drawn figure's smallest text (px)`).toBeGreaterThanOrEqual(10);
  }

  await wasm.release();
  for (const [k, f] of [big, small].entries()) {
    await expect(f.getByTestId('diagram')).toBeVisible();
    same(pre[k], await box(f, '.diagram-wrap'), `embed ${k ? '320×240' : '640×360'}: the diagram box`, 2);
  }
  // Offline, the embed works on: it steps and plays from what it has.
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  await big.getByTestId('step').click();
  await expect(big.getByTestId('diagram')).not.toHaveAttribute('data-cursor-ms', '15505');
  expect(violations, 'CSP violations').toEqual([]);
  expect(foreign, 'requests outside the app origin').toEqual([]);
});

test('no wasm ever: the pre-drawn diagram gives way to the words that say why', async ({ page }) => {
  await page.route(/\.wasm$/, (route) => route.abort());
  await page.goto('/?scenario=etcd-gc-pause&t=20000');
  await expect(page.getByTestId('boot-why')).toBeVisible();
  await expect(page.getByTestId('first-paint')).toHaveCount(0);
});

// Before the wasm, the page answers the stepping keys with its pre-drawn moments (src/ui/keys.rs:
// → ← and Shift+→ ← step between key moments there, Home and End go to the start and the last
// moment drawn), the figure swapped in its box; the app then starts at the moment shown.
for (const [width, height, address, id] of [
  [1280, 720, '/', 'redis-gc-pause'],
  [360, 780, '/?scenario=etcd-gc-pause&t=20000', 'etcd-gc-pause'],
] as const) {
  test(`${address} at ${width}×${height}: End and ← move the pre-drawn moment, and the app starts there`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.addInitScript(RECORD_SHIFTS);
    const wasm = await holdWasm(page);
    const fetched = page.waitForResponse(/\/paint-[0-9a-f]+\/.*\.json$/);
    await page.goto(address);
    await fetched;
    const figure = page.getByTestId('first-paint');
    await expect(figure).toBeVisible();
    const at = moments(id, width < 640 ? 342 : 1246);
    const pre = await box(page, '[data-testid=first-paint]');
    await page.keyboard.press('End');
    await expect(figure).toHaveAttribute('data-at', String(at[at.length - 1]));
    // The figure's own cursor tag names the moment, as the live diagram's does.
    await expect(figure.locator('.cursor-time')).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    const shown = at[at.length - 2];
    await expect(figure).toHaveAttribute('data-at', String(shown));
    same(pre, await box(page, '[data-testid=first-paint]'), 'the figure box after the keys', 0.5);
    const label = await figure.locator('.cursor-time').textContent();
    await page.screenshot({ path: `../../target/screenshots/first-paint-keys-${id}-${width}x${height}.png` });

    await wasm.release();
    const live = page.getByTestId('diagram');
    await expect(live).toBeVisible();
    await expect(live).toHaveAttribute('data-cursor-ms', String(shown));
    await expect(live.locator('.cursor-time').first()).toHaveText(label!);
    same(pre, await box(page, '.diagram-wrap'), 'the diagram box');
    const { cls, shifts } = await page.evaluate(() => {
      const w = window as unknown as { __cls: number; __shifts: string[] };
      return { cls: w.__cls, shifts: w.__shifts };
    });
    expect(cls, `layout shifts: ${shifts.join(' | ')}`).toBeLessThan(0.01);
  });
}

test('an embed answers End before the wasm, and the app starts at that moment', async ({ page, baseURL }) => {
  const wasm = await holdWasm(page);
  const src = `${baseURL}/?scenario=redis-gc-pause&embed=1`;
  const fetched = page.waitForResponse(/\/paint-[0-9a-f]+\/.*\.json$/);
  await page.setContent(`<!doctype html><iframe sandbox="${FLAGS}" width="640" height="360" src="${src}"></iframe>`);
  await expect.poll(() => page.frames().length).toBe(2);
  const f = page.frames()[1];
  await expect(f.getByTestId('first-paint')).toBeVisible();
  const at = moments('redis-gc-pause', 342);
  await fetched;
  await page.locator('iframe').click();
  await page.keyboard.press('End');
  await expect(f.getByTestId('first-paint')).toHaveAttribute('data-at', String(at[at.length - 1]));
  await wasm.release();
  await expect(f.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', String(at[at.length - 1]));
});
