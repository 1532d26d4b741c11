import { test, expect, type Page, type Frame } from '@playwright/test';
import { shotPath, chooseScenario, cursorMs, frames, openApp, scrubTo, scrubRange, setSwitch } from './helpers';

// Sharing (issue 5, parts 1 and 2): a copied link reopens the same view; a bad link shows a
// banner and the app works on; the example docs page embeds two scenarios in sandboxed iframes.

/** Everything a reopened link must reproduce, read off the page. */
async function view(page: Page) {
  const verdict = page.getByTestId('verdict');
  return {
    scenario: await page.getByTestId('scenario-picker').inputValue(),
    fencing: await page.getByTestId('fencing-toggle').isChecked(),
    safeUnlock: await page.getByTestId('safe-unlock-toggle').isChecked(),
    ttl: await page.getByTestId('ttl').inputValue(),
    cursor: await cursorMs(page),
    safe: await verdict.getAttribute('data-safe'),
    staleAccepted: await verdict.getAttribute('data-stale-accepted'),
    verdict: await verdict.innerText(),
    ledger: await page.getByTestId('ledger').innerText(),
    caption: await page.getByTestId('caption').innerText(),
  };
}

/** Console errors and uncaught exceptions of a page and its frames. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return errors;
}

test('a copied link reopens the same scenario, switches, knob and cursor', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = collectErrors(page);
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');
  await setSwitch(page, 'fencing-toggle', true);
  // A knob: the scenario is no longer the built-in, so it travels whole in #s=.
  await page.getByText('Knobs: TTL, pause, seed').click();
  const ttl = page.getByTestId('ttl');
  await ttl.fill('9000');
  await ttl.dispatchEvent('change');
  await expect(ttl).toHaveValue('9000');
  await scrubTo(page, 14_321);
  const before = await view(page);

  const copy = page.getByTestId('copy-link');
  await copy.click();
  await expect(copy).toHaveText('✓ Link copied');
  await page.screenshot({ path: shotPath('copy-link.png'), clip: { x: 0, y: 0, width: 1280, height: 200 } });
  const link = (await copy.getAttribute('data-link'))!;
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?t=14321#s=[A-Za-z0-9_-]+$/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // The address bar says the same once the view rests.
  await expect.poll(() => page.url()).toBe(link);
  await expect(copy).toHaveText('Copy link');

  const again = await context.newPage();
  const errorsAgain = collectErrors(again);
  await again.goto(link);
  await expect(again.getByTestId('diagram')).toBeVisible();
  expect(await view(again)).toEqual(before);
  await expect(again.getByTestId('link-error')).toHaveCount(0);
  expect([...errors, ...errorsAgain]).toEqual([]);
});

test('a built-in link stays short and readable', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');
  await setSwitch(page, 'fencing-toggle', true);
  await setSwitch(page, 'safe-unlock-toggle', false);
  await scrubTo(page, 15_505);
  const link = await page.getByTestId('copy-link').getAttribute('data-link');
  expect(new URL(link!).search).toBe('?scenario=redis-gc-pause&fencing=on&unlock=plain&t=15505');
  const again = await page.context().newPage();
  await again.goto(link!);
  expect(await view(again)).toEqual(await view(page));
});

test('without a clipboard the link is shown, selected, to copy by hand', async ({ page }) => {
  // As in an insecure context (plain http to another host), where navigator.clipboard is missing.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
  const errors = collectErrors(page);
  await openApp(page);
  await scrubTo(page, 15_505);
  const copy = page.getByTestId('copy-link');
  await copy.click();
  const field = page.getByTestId('copy-link-field');
  await expect(field).toBeVisible();
  await expect(field).toHaveValue((await copy.getAttribute('data-link'))!);
  await expect(page.getByText('copy it from here')).toBeVisible();
  const selected = await field.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd, el.value.length]);
  expect(selected).toEqual([0, selected[2], selected[2]]);
  await page.screenshot({ path: shotPath('copy-link-by-hand.png'), clip: { x: 0, y: 0, width: 1280, height: 260 } });
  expect(errors).toEqual([]);
});

test('a malformed #s= shows a banner, and the default scenario still plays', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?t=2000#s=eyJ2ZXJzaW9uIjogMSwgImFwcHJvYWNoIjogInJlZGlzIiwgImxvY2siOiB7InR0bF9tcyI6IDB9fQ');
  const banner = page.getByTestId('link-error');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('role', 'alert');
  // The CLI's field-path error, and what is shown instead.
  await expect(banner).toContainText('#s=: invalid scenario: lock.ttl_ms');
  await expect(banner).toContainText('Showing “Redis: GC pause after acquire” instead');
  await page.screenshot({ path: shotPath('link-error.png'), clip: { x: 0, y: 0, width: 1280, height: 420 } });
  await expect(page.getByTestId('scenario-picker')).toHaveValue('redis-gc-pause');
  // The rest of the link still counts.
  expect(await cursorMs(page)).toBe(2000);
  await page.getByTestId('play').click();
  await expect.poll(() => cursorMs(page)).toBeGreaterThan(2000);
  await page.getByTestId('play').click();
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);

  // Not base64url at all.
  await page.goto('/#s=%%%not-base64');
  // The character is named (the lean release build keeps no Debug formatting, so this
  // message must be written with Display).
  await expect(page.getByTestId('link-error')).toContainText(/#s=: not base64url: '.' at position \d+/);
  expect(errors).toEqual([]);
});

test('an unknown id and a bad parameter each show the banner; the app works on', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?scenario=no-such-scenario&fencing=maybe&t=abc');
  const banner = page.getByTestId('link-error');
  await expect(banner).toContainText('scenario=no-such-scenario: no built-in scenario has this id');
  await expect(banner).toContainText('fencing=maybe: expected on or off; ignored');
  await expect(banner).toContainText('t=abc: expected a time in whole milliseconds');
  await expect(page.getByTestId('scenario-picker')).toHaveValue('redis-gc-pause');
  await page.getByTestId('play').click();
  await expect.poll(() => cursorMs(page)).toBeGreaterThan(0);
  await page.getByTestId('play').click();

  // Only a bad parameter: the scenario is as asked, the parameter ignored.
  await page.goto('/?scenario=etcd-gc-pause&t=abc&fencing=on');
  await expect(page.getByTestId('link-error')).toContainText('Part of this link was ignored (t=abc');
  await expect(page.getByTestId('scenario-picker')).toHaveValue('etcd-gc-pause');
  await expect(page.getByTestId('fencing-toggle')).toBeChecked();
  expect(errors).toEqual([]);
});

/** The page in a frame does not scroll: nothing is taller or wider than its viewport. */
async function noScroll(frame: Frame | Page) {
  const s = await frame.evaluate(() => {
    const d = document.documentElement;
    return { sh: d.scrollHeight, ch: d.clientHeight, sw: d.scrollWidth, cw: d.clientWidth };
  });
  expect(s.sh, 'no vertical scroll').toBeLessThanOrEqual(s.ch);
  expect(s.sw, 'no horizontal scroll').toBeLessThanOrEqual(s.cw);
}

test('the example docs page embeds two scenarios in sandboxed iframes', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/embed-example.html');
  const iframes = page.locator('iframe');
  await expect(iframes).toHaveCount(2);
  for (let i = 0; i < 2; i++) {
    await expect(iframes.nth(i)).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox');
    const embed = page.frameLocator('iframe').nth(i);
    await expect(embed.getByTestId('diagram')).toBeVisible();
    await expect(embed.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
    await expect(embed.getByTestId('caption')).toBeVisible();
    await expect(embed.getByTestId('caption')).toContainText('15.5');
    await expect(embed.getByTestId('play')).toBeVisible();
    await expect(embed.getByTestId('scenario-picker')).toBeHidden();
    const open = embed.getByTestId('open-full');
    await expect(open).toHaveAttribute('target', '_blank');
    await expect(open).toHaveAttribute('rel', 'noopener');
    const href = new URL((await open.getAttribute('href'))!);
    expect(href.search).toBe(`?scenario=redis-gc-pause${i === 0 ? '' : '&fencing=on'}&t=15505`);
  }
  const embeds = page.frames().filter((f) => f !== page.mainFrame());
  expect(embeds).toHaveLength(2);
  for (const f of embeds) await noScroll(f);
  // The recommended sandbox keeps the app's own origin (its files load without CORS, from the
  // cache), and the embed leaves the address bar alone.
  expect(await embeds[0].evaluate(() => window.origin)).toBe(new URL(page.url()).origin);
  expect(await embeds[0].evaluate(() => location.search)).toContain('embed=1');
  // The whole page in one viewport: Chromium does not paint iframes scrolled out of view.
  await page.setViewportSize({ width: 1280, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  for (let i = 0; i < 2; i++) await expect(page.frameLocator('iframe').nth(i).getByTestId('diagram')).toBeVisible();
  for (const f of embeds) await frames(f, 2); // painted at the new size
  await page.screenshot({ path: shotPath('embed-example.png') });
  expect(errors).toEqual([]);
});

test('embed mode fits any iframe from 320×240 up, with no page scroll', async ({ page }) => {
  const errors = collectErrors(page);
  for (const [width, height] of [[320, 240], [480, 320], [640, 400], [800, 450], [1280, 720]]) {
    await page.setViewportSize({ width, height });
    await page.goto('/?scenario=redis-gc-pause&t=15505&embed=1');
    const diagram = page.getByTestId('diagram');
    await expect(diagram).toBeVisible();
    // Scaling settles after the first measure.
    await expect(async () => {
      const box = (await diagram.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }).toPass();
    for (const id of ['play', 'scrub', 'caption', 'open-full']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box, `${id} at ${width}×${height}`).not.toBeNull();
      expect(box.y + box.height, `${id} inside ${width}×${height}`).toBeLessThanOrEqual(height);
    }
    expect((await page.getByTestId('scrub').boundingBox())!.width, `scrub at ${width}×${height}`).toBeGreaterThanOrEqual(60);
    await noScroll(page);
    if (width === 320 || width === 800) {
      await page.screenshot({ path: shotPath(`embed-${width}x${height}.png`) });
    }
    // Click-to-seek lands where clicked even when the drawing is scaled down: the right edge
    // of the plot is the end of the run.
    const box = (await diagram.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.995, box.y + box.height * 0.9);
    expect(await cursorMs(page), `seek by click at ${width}×${height}`).toBe((await scrubRange(page)).max);
  }
  expect(errors).toEqual([]);
});

test('a refused history API breaks nothing', async ({ page }) => {
  // As in some sandboxes and opaque origins: replaceState throws. The view must work on.
  await page.addInitScript(() => {
    History.prototype.replaceState = (_data: unknown, _unused: string, url?: string | URL | null) => {
      (window as unknown as { __refused?: string }).__refused = String(url);
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
  });
  const errors = collectErrors(page);
  await openApp(page);
  await setSwitch(page, 'fencing-toggle', true);
  await scrubTo(page, 15_505);
  // The delayed write-back of the address has been tried (and refused).
  await expect.poll(() => page.evaluate(() => (window as unknown as { __refused?: string }).__refused)).toContain('t=15505');
  await page.getByTestId('step').click();
  expect(await cursorMs(page)).toBeGreaterThan(15_505);
  await expect(page.getByTestId('copy-link')).toHaveAttribute('data-link', /fencing=on/);
  expect(errors).toEqual([]);
});
