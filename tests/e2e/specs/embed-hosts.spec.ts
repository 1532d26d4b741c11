import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { shotPath, DIST } from './helpers';
import { countBytes, serve, type Kind, type Server } from './servers';

// Issue 25, item 1 and 3: a docs author's page on another origin with three embeds (320×240,
// 640×360, 800×450) written as the README's snippet, the app served (a) by the project's server
// and (b) by a plain static server that sends no CORS header and no cache header (Python's
// http.server, as the issue found it). Each embed shows its diagram (or says why not) within
// 5 s; "Open in Lock Lab ↗" opens a tab under the recommended sandbox; the page downloads the
// app once (≤ 1.1× a page with one embed) and a reload fetches ≤ 10 KB.

/** The README's recommended sandbox. */
const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';
/** The sandbox the README recommended before issue 25. */
const OLD_SANDBOX = 'allow-scripts';
const EMBEDS: [number, number, string][] = [
  [320, 240, 'scenario=redis-gc-pause&t=15505&embed=1'],
  [640, 360, 'scenario=redis-gc-pause&fencing=on&t=15505&embed=1'],
  [800, 450, 'scenario=etcd-gc-pause&t=4000&embed=1'],
];

/** A docs page with the given embeds, each written as the README's snippet. */
function docsPage(app: string, embeds: typeof EMBEDS, sandbox: string): string {
  const frames = embeds
    .map(
      ([w, h, query]) =>
        `<figure><iframe sandbox="${sandbox}" width="${w}" height="${h}" title="Lock Lab ${w}×${h}" src="${app}?${query.replace(/&/g, '&amp;')}"></iframe></figure>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Fencing, a docs page</title><body><h1>Fencing tokens</h1>\n${frames}\n</body></html>`;
}

/** Waits (≤ 5 s from now) until every embed shows its diagram. */
async function diagramsWithin5s(page: Page, n: number) {
  for (let i = 0; i < n; i++) {
    await expect(page.frameLocator('iframe').nth(i).getByTestId('diagram'), `embed ${i + 1}`).toBeVisible({ timeout: 5_000 });
  }
}

interface Hosts {
  app: Server;
  docs: Server;
  dir: string;
}

/** The app's build and a docs folder, each served by `kind` on its own origin. */
async function hosts(kind: Kind, sandbox = SANDBOX): Promise<Hosts> {
  const app = await serve(kind, DIST);
  const dir = mkdtempSync(path.join(tmpdir(), 'locklab-docs-'));
  writeFileSync(path.join(dir, 'one.html'), docsPage(app.url, EMBEDS.slice(0, 1), sandbox));
  writeFileSync(path.join(dir, 'three.html'), docsPage(app.url, EMBEDS, sandbox));
  const docs = await serve(kind, dir);
  return { app, docs, dir };
}

function stop(h: Hosts) {
  h.app.stop();
  h.docs.stop();
  rmSync(h.dir, { recursive: true, force: true });
}

/** Loads `file` of the docs origin in a fresh context (an empty cache) and counts its bytes. */
async function firstView(browser: Browser, h: Hosts, file: string, n: number) {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1000, height: 1300 } });
  const page = await context.newPage();
  const bytes = await countBytes(page);
  await page.goto(`${h.docs.url}${file}`, { waitUntil: 'commit' });
  await diagramsWithin5s(page, n);
  await page.waitForLoadState('load');
  return { context, page, bytes };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

// The app's files are fetched once for all embeds on a page; what each embed shows of its own
// (its page, its pre-drawn figure, drawn for its frame's size: /paint-…/, and its scenario's
// file: /data-…/scenario/) is per view.
const own = (u: string) => /\/paint-[0-9a-f]+\//.test(u) || /\/data-[0-9a-f]+\/scenario\//.test(u) || /[?&]embed=1/.test(u);
const appBytes = (urls: Map<string, number>) => [...urls].filter(([u]) => !own(u)).reduce((a, [, b]) => a + b, 0);

for (const kind of ['project', 'plain'] as Kind[]) {
  test(`three embeds on another origin, app served by the ${kind === 'project' ? "project's server" : 'plain static server (no CORS header)'}`, async ({ browser }) => {
    test.setTimeout(90_000);
    const h = await hosts(kind);
    try {
      const one = await firstView(browser, h, 'one.html', 1);
      const oneBytes = one.bytes.total.bytes;
      const oneApp = appBytes(one.bytes.total.urls);
      await one.context.close();

      const three = await firstView(browser, h, 'three.html', 3);
      const threeBytes = three.bytes.total.bytes;
      const perUrl = [...three.bytes.total.urls].map(([u, b]) => `${u.replace(/^http:\/\/127\.0\.0\.1:\d+/, '')} ${b}`).join('\n  ');
      const threeApp = appBytes(three.bytes.total.urls);
      expect(threeApp, `three embeds' app files ${kb(threeApp)} (all ${kb(threeBytes)}) vs one embed's ${kb(oneApp)}:\n  ${perUrl}`).toBeLessThanOrEqual(1.1 * oneApp);

      three.bytes.reset();
      await three.page.reload({ waitUntil: 'commit' });
      await diagramsWithin5s(three.page, 3);
      await three.page.waitForLoadState('load');
      const reload = three.bytes.total.bytes;
      const reloadUrls = [...three.bytes.total.urls].map(([u, b]) => `${u.replace(/^http:\/\/127\.0\.0\.1:\d+/, '')} ${b}`).join('\n  ');
      expect(reload, `a reload fetched:\n  ${reloadUrls}`).toBeLessThanOrEqual(10 * 1024);
      console.log(`[embed-hosts] ${kind}: one embed ${kb(oneBytes)}, three embeds ${kb(threeBytes)} (${(threeBytes / oneBytes).toFixed(3)}×), reload ${kb(reload)}`);

      // "Open in Lock Lab ↗" opens the full app, at the embed's view, in a tab of its own.
      const embed = three.page.frameLocator('iframe').nth(1);
      const [tab] = await Promise.all([three.context.waitForEvent('page'), embed.getByTestId('open-full').click()]);
      await expect(tab.getByTestId('diagram')).toBeVisible();
      await expect(tab.getByTestId('scenario-picker')).toHaveValue('redis-gc-pause');
      await expect(tab.getByTestId('fencing-toggle')).toBeChecked();
      expect(new URL(tab.url()).searchParams.get('embed')).toBeNull();
      // Out of the sandbox: a normal page of the app's origin.
      expect(await tab.evaluate(() => window.origin)).toBe(new URL(h.app.url).origin);
      if (kind === 'plain') await three.page.screenshot({ path: shotPath('embed-hosts-three.png'), fullPage: true });
      await three.context.close();
    } finally {
      stop(h);
    }
  });
}

test('an embed that cannot load says why, and the fix, within 5 s', async ({ browser }) => {
  // The snippet before issue 25 (no allow-same-origin) on a host that sends no CORS header.
  const h = await hosts('plain', OLD_SANDBOX);
  try {
    const context = await browser.newContext({ viewport: { width: 1000, height: 1300 } });
    const page = await context.newPage();
    await page.goto(`${h.docs.url}three.html`, { waitUntil: 'commit' });
    for (let i = 0; i < 3; i++) {
      const why = page.frameLocator('iframe').nth(i).getByTestId('boot-why');
      await expect(why, `embed ${i + 1}`).toBeVisible({ timeout: 5_000 });
      await expect(why).toContainText('sandboxed without allow-same-origin');
      await expect(why).toContainText(`sandbox="${SANDBOX}"`);
    }
    await page.screenshot({ path: shotPath('embed-cannot-load.png'), fullPage: true });
    await context.close();
  } finally {
    stop(h);
  }
});

test('the build works from a folder of its host, as a GitHub Pages project site at /REPO/', async ({ page }) => {
  // Relative addresses (Trunk.toml public_url = "./"): /lab/ finds its own files.
  const dir = mkdtempSync(path.join(tmpdir(), 'locklab-pages-'));
  symlinkSync(DIST, path.join(dir, 'lab'));
  const site = await serve('plain', dir);
  try {
    await page.goto(`${site.url}lab/?scenario=redis-gc-pause&fencing=on&t=15505`);
    await expect(page.getByTestId('diagram')).toHaveAttribute('data-cursor-ms', '15505');
    await expect(page.getByTestId('fencing-toggle')).toBeChecked();
    await page.goto(`${site.url}lab/embed-example.html`);
    await expect(page.frameLocator('iframe').first().getByTestId('diagram')).toBeVisible();
  } finally {
    site.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
