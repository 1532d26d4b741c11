import { test, expect, type Page } from '@playwright/test';
import { openApp, shot } from './helpers';

// Issue 35, item 4: a phone (360×740) shows the diagram, its caption and Play on the first
// screen; the header's other controls fold behind "More".

async function box(page: Page, testid: string) {
  const b = await page.getByTestId(testid).first().boundingBox();
  expect(b, `${testid} is laid out`).not.toBeNull();
  return b!;
}

test('at 360×740 the diagram, the caption and Play are on the first screen; More shows the rest', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openApp(page);
  const diagram = await box(page, 'diagram');
  const play = await box(page, 'play');
  const caption = await box(page, 'caption');
  for (const [name, b] of [['diagram', diagram], ['Play', play], ['caption', caption]] as const) {
    expect(b.y + b.height, `${name} ends inside the first screen`).toBeLessThanOrEqual(740);
  }
  await expect(page.getByTestId('fencing-toggle')).toBeVisible();
  // Folded: the rest of the header is not shown, and More says it can be opened.
  const more = page.getByTestId('more-controls');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('safe-unlock-toggle')).toBeHidden();
  await expect(page.getByTestId('show-outcome')).toBeHidden();
  await shot(page, 'phone-first-screen.png', false);
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('safe-unlock-toggle')).toBeVisible();
  await expect(page.getByTestId('show-outcome')).toBeVisible();
  await expect(page.getByTestId('copy-link')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').toBeLessThanOrEqual(360);
  await shot(page, 'phone-more-open.png', false);
  await more.click();
  await expect(page.getByTestId('show-outcome')).toBeHidden();
});

test('wider than a phone there is no More: every control is in the header', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page);
  await expect(page.getByTestId('more-controls')).toBeHidden();
  await expect(page.getByTestId('show-outcome')).toBeVisible();
  await expect(page.getByTestId('safe-unlock-toggle')).toBeVisible();
});
