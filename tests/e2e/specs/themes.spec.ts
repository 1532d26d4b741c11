import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { shot } from './helpers';

// Themes (issue 35, item 3): light, dark (the screen's prefers-color-scheme) and projector
// (lecture mode's), chosen by key, button and ?theme=, kept in the link, painted before the
// wasm runs, and followed by exports. The palettes' contrast is tests/palette.rs's; axe checks
// each theme's page in a11y.spec.ts.

const PANEL = { light: 'rgb(255, 255, 255)', dark: 'rgb(22, 26, 33)', projector: 'rgb(255, 255, 255)' };

async function themeOf(page: Page) {
  return page.evaluate(() => document.documentElement.getAttribute('data-theme'));
}

/** The colour the diagram's paper is painted with, as the browser computed it. */
async function paper(page: Page) {
  return page.locator('[data-testid="diagram"] .paper, [data-testid="diagram"] .labels-bg').first().evaluate((e) => getComputedStyle(e).fill);
}

test('?theme=dark is painted before the app runs, and the app keeps it', async ({ page }) => {
  // The app's wasm held back: what shows is the page's own first paint.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/?scenario=redis-gc-pause&theme=dark');
  expect(await themeOf(page)).toBe('dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg, 'the page is dark before the wasm arrives').toBe('rgb(15, 18, 23)');
  release();
  await expect(page.getByTestId('diagram')).toBeVisible();
  await expect(page.getByTestId('theme')).toHaveText(/Dark/);
  expect(await themeOf(page)).toBe('dark');
  expect(await paper(page)).toBe(PANEL.dark);
});

test.describe('a dark screen', () => {
  test.use({ colorScheme: 'dark' });
  test('is followed, and lecture mode takes the projector unless a theme is chosen', async ({ page }) => {
    await page.goto('/?scenario=redis-gc-pause');
    await expect(page.getByTestId('theme')).toHaveText(/Dark/);
    expect(await themeOf(page)).toBe('dark');
    await page.keyboard.press('l');
    await expect(page.getByTestId('theme')).toHaveText(/Projector/);
    expect(await themeOf(page)).toBe('projector');
    await page.keyboard.press('l');
    await expect(page.getByTestId('theme')).toHaveText(/Dark/);
  });
});

test('T and the button step light → dark → projector, the link keeps the choice, and exports follow it', async ({ page }) => {
  await page.goto('/?scenario=redis-gc-pause&t=15505');
  await expect(page.getByTestId('theme')).toHaveText(/Light/);
  expect(await paper(page)).toBe(PANEL.light);
  await page.keyboard.press('t');
  await expect(page.getByTestId('theme')).toHaveText(/Dark/);
  expect(await themeOf(page)).toBe('dark');
  expect(await paper(page)).toBe(PANEL.dark);
  await expect.poll(() => new URL(page.url()).searchParams.get('theme')).toBe('dark');
  await shot(page, 'theme-dark-1280.png', false);

  // The SVG export in the theme on screen: the dark panel and client colours, no variables.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  const svg = readFileSync((await download.path())!, 'utf8');
  expect(svg).toContain('.paper { fill: #161a21; }');
  expect(svg).toContain('.h0 { color: #56b4e9; }');
  expect(svg).not.toContain('var(');

  await page.getByTestId('theme').click();
  await expect(page.getByTestId('theme')).toHaveText(/Projector/);
  expect(await themeOf(page)).toBe('projector');
  await page.keyboard.press('T');
  await expect(page.getByTestId('theme')).toHaveText(/Light/);
  // A reload of the link opens in the chosen theme.
  await expect.poll(() => new URL(page.url()).searchParams.get('theme')).toBe('light');
});

test('a bad theme in a link is named and ignored', async ({ page }) => {
  await page.goto('/?scenario=redis-gc-pause&theme=blue');
  await expect(page.getByRole('alert')).toContainText('theme=blue: expected light, dark or projector; ignored');
  await expect(page.getByTestId('theme')).toHaveText(/Light/);
});

test('the embed follows ?theme= too', async ({ page }) => {
  await page.goto('/?scenario=redis-gc-pause&t=15505&embed=1&theme=dark');
  await expect(page.getByTestId('diagram')).toBeVisible();
  expect(await themeOf(page)).toBe('dark');
  expect(await paper(page)).toBe(PANEL.dark);
  await shot(page, 'theme-dark-embed.png', false);
});
