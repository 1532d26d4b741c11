import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, type Page, type Frame } from '@playwright/test';
import { openApp, chooseScenario, cursorMs, setSwitch, DIST } from './helpers';

// A strict Content-Security-Policy that works (issue 11, item 10): the built pages carry a
// <meta> policy (scripts/post-build.mjs) with script-src 'self' 'wasm-unsafe-eval' and the hash
// of the inline bootstrap script, and the app's main flows run under it with no violation.


/** Reports every CSP violation a document sees to `window.__cspViolation` (exposed by `watch`). */
const RECORD_VIOLATIONS = () => {
  document.addEventListener('securitypolicyviolation', (e) => {
    const report = (window as unknown as { __cspViolation?: (s: string) => void }).__cspViolation;
    report?.(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
  });
};

/** Collects, across navigations and in every frame, CSP violations and console messages about the policy. */
async function watch(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__cspViolation', (s: string) => seen.push(s));
  await page.addInitScript(RECORD_VIOLATIONS);
  page.on('console', (m) => /content.security.policy|refused to/i.test(m.text()) && seen.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => seen.push(`page error: ${e.message}`));
  return seen;
}

function policyOf(file: string): string {
  const html = readFileSync(path.join(DIST, file), 'utf8');
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  expect(m, `${file} carries a Content-Security-Policy meta`).not.toBeNull();
  // First in <head>: a meta policy governs only what follows it.
  expect(html.indexOf(m![0]), 'the policy comes before any script or stylesheet').toBeLessThan(html.search(/<(script|link|style)\b/));
  return m![1];
}

const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1) ?? [];

test('the built index.html carries a strict policy that names its inline script by hash', async ({ page }) => {
  const policy = policyOf('index.html');
  const script = directive(policy, 'script-src');
  expect(script.slice(0, 2)).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(script.filter((s) => s.startsWith("'sha256-")).length, 'a hash for the bootstrap script').toBeGreaterThanOrEqual(1);
  expect(script).not.toContain("'unsafe-inline'");
  expect(script).not.toContain("'unsafe-eval'");
  expect(directive(policy, 'default-src')).toEqual(["'self'"]);
  expect(directive(policy, 'style-src')).not.toContain("'unsafe-inline'");
  expect(directive(policy, 'object-src')).toEqual(["'none'"]);

  // The policy is in force: an injected inline script is refused and reported (so the watch
  // the next test relies on does see violations).
  const seen = await watch(page);
  await openApp(page);
  const injected = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true';
    // An inline script that may run runs as it is inserted: no wait is needed to see it did not.
    document.body.append(s);
    return (window as unknown as { __injected?: boolean }).__injected ?? false;
  });
  expect(injected, 'an inline script without its hash does not run').toBe(false);
  await expect.poll(() => seen.join('\n')).toContain('script-src');
});

test("the app's main flows raise no CSP violation", async ({ page }) => {
  test.setTimeout(90_000);
  const seen = await watch(page);

  await test.step('load, play, fencing', async () => {
    await openApp(page);
    await chooseScenario(page, 'redis-gc-pause');
    await page.getByTestId('play').click();
    await expect.poll(() => cursorMs(page), { message: 'playing moves the cursor' }).toBeGreaterThan(0);
    await page.getByTestId('play').click();
    await setSwitch(page, 'fencing-toggle', true);
    await setSwitch(page, 'fencing-toggle', false);
    await page.keyboard.press('l');
    await page.keyboard.press('?');
    await page.keyboard.press('Escape');
    await page.keyboard.press('l');
  });

  await test.step("the explorer's Web Workers (worker-src 'self')", async () => {
    await page.getByTestId('explore-panel').locator('summary').click();
    const runs = page.getByTestId('explore-set-runs');
    await runs.fill('300');
    await runs.press('Tab');
    await page.getByTestId('explore-start').click();
    await expect(page.getByTestId('explore-runs')).toContainText('done');
    await expect(page.getByTestId('explore-runs'), 'run on the workers, not in the page').not.toHaveAttribute('data-workers', '0');
  });

  await test.step('export SVG and PNG', async () => {
    await page.goto('/?scenario=redis-gc-pause&t=15505');
    for (const id of ['export-svg', 'export-png', 'export-json']) {
      await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
      await expect(page.getByTestId('export-status')).toContainText('Downloading');
    }
  });

  await test.step('editor', async () => {
    await page.getByTestId('scenario-json').locator('summary').click();
    const input = page.getByTestId('scenario-json-input');
    await expect(input).toBeVisible();
    const text = (await input.inputValue()).replace(/"ttl_ms": \d+/, '"ttl_ms": 20000');
    await input.fill(text);
    await page.getByTestId('scenario-json-run').click();
    await expect(page.getByTestId('custom-scenario')).toBeAttached();
  });

  await test.step('compare', async () => {
    await page.goto('/?scenario=redis-gc-pause&compare=etcd');
    await expect(page.locator('[data-testid="diagram"]')).toHaveCount(2);
    await page.getByTestId('key-next').click();
  });

  await test.step('embed', async () => {
    await page.goto('/?scenario=redis-gc-pause&t=15505&embed=1');
    await expect(page.getByTestId('diagram')).toBeVisible();
    await page.getByTestId('play').click();
    await page.getByTestId('play').click();
  });

  await test.step('the example page and its sandboxed embeds', async () => {
    await page.goto('/embed-example.html');
    const frames = () => page.frames().filter((f: Frame) => f !== page.mainFrame());
    await expect.poll(() => frames().length).toBe(2);
    for (let i = 0; i < 2; i++) await expect(page.frameLocator('iframe').nth(i).getByTestId('diagram')).toBeVisible();
    await page.frameLocator('iframe').first().getByTestId('play').click();
    await page.frameLocator('iframe').first().getByTestId('play').click();
  });

  // Reports arrive asynchronously. Each frame now breaks its policy once on purpose (an image
  // from another origin): when those canaries have been reported, so has everything before them.
  const all = page.frames();
  for (const [i, f] of all.entries()) {
    await f.evaluate((i) => {
      const img = document.createElement('img');
      img.src = `http://127.0.0.1:${901 + i}/csp-canary.png`; // a report may keep only the origin
      document.body.append(img);
    }, i);
  }
  for (let i = 0; i < all.length; i++) {
    const canary = `127.0.0.1:${901 + i}`;
    await expect.poll(() => seen.some((s) => !s.startsWith('console:') && s.includes(canary)), { message: `frame ${i}'s canary is reported` }).toBe(true);
  }
  const canaries = /127\.0\.0\.1:9\d\d/;
  expect(
    seen.filter((s) => !canaries.test(s)),
    'CSP violations, and console messages about the policy',
  ).toEqual([]);
});

test('the example page carries its own policy: its inline style by hash, no script', async () => {
  const policy = policyOf('embed-example.html');
  expect(directive(policy, 'default-src')).toEqual(["'none'"]);
  expect(directive(policy, 'script-src')).toEqual(["'none'"]);
  expect(directive(policy, 'style-src').every((s) => s.startsWith("'sha256-"))).toBe(true);
  expect(directive(policy, 'frame-src')).toEqual(["'self'"]);
});
