import { test, expect, type Page } from '@playwright/test';
import { install, layout, open, settle, type Layout } from './stage-measure';

// Issue 11, item 2: lecture mode is a stage for a room. The caption's box keeps its height
// whatever it says (the transport never moves), and the legend is on the stage in type a room
// can read. Every built-in's drawing at every key moment, alone and compared, at 1280×720 and
// 1920×1080 (its type, its labels whole and apart, nothing of the future) is checked by the
// native drawing matrix (tests/drawing_matrix.rs); walk.spec.ts walks one story per approach.

const SIZES = [
  { w: 1280, h: 720 },
  { w: 1920, h: 1080 },
];

/** Replaces the caption's words (all captions, compared) with `words` words and measures. */
async function withCaption(page: Page, words: number): Promise<Layout> {
  await page.evaluate((n) => {
    const text = Array.from({ length: n }, (_, i) => ['storage', 'accepts', "A's", 'write', 'with', 'token', '1'][i % 7]).join(' ');
    for (const p of document.querySelectorAll('[data-testid="caption"] .caption-text')) p.textContent = text;
  }, words);
  await settle(page);
  return layout(page);
}

/** How many lines the (first) caption's text takes. */
async function captionLines(page: Page): Promise<number> {
  return page.evaluate(() => {
    const p = document.querySelector('[data-testid="caption"] .caption-text')!;
    return Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight));
  });
}

const px = (v: number) => Math.round(v);

for (const size of SIZES) {
  test(`lecture mode at ${size.w}×${size.h}: the caption box keeps its height from one line to three`, async ({ page }) => {
    await install(page);
    await page.setViewportSize({ width: size.w, height: size.h });
    for (const query of ['?scenario=redis-gc-pause&lecture=1&t=15505', '?scenario=redlock-clock-jump&lecture=1&t=3000&compare=etcd']) {
      await open(page, query);
      const one = await withCaption(page, 3);
      expect(await captionLines(page), `${query}: one line`).toBe(1);
      let words = 3;
      while ((await captionLines(page)) < 3 && words < 400) await withCaption(page, (words += 4));
      const three = await layout(page);
      console.log(
        `${size.w}×${size.h} ${query}: transport bottom ${px(one.transportBottom)} with one line, ${px(three.transportBottom)} with three; ` +
          `caption box ${px(one.captionBottom - one.captionTop)} → ${px(three.captionBottom - three.captionTop)} px`,
      );
      expect(await captionLines(page), `${query}: three lines`).toBe(3);
      expect(three.transportBottom, `${query}: the transport did not move`).toBe(one.transportBottom);
      expect(three.captionBottom, `${query}: the caption box did not grow`).toBe(one.captionBottom);
      expect(three.captionFits, `${query}: three lines fit the box`).toBe(true);
    }
  });
}

// Issue 22, item 6: the legend is on the stage, in type a room can read, and K toggles it; every
// badge on the stage (the caption's KEY MOMENT, a compared side's verdict) is at least 16 px.
for (const size of SIZES) {
  test(`lecture mode at ${size.w}×${size.h}: the legend on the stage, K toggles it, badges ≥ 16 px`, async ({ page }) => {
    await page.setViewportSize({ width: size.w, height: size.h });
    await page.goto('/?scenario=redis-gc-pause&lecture=1&t=15505');
    const legend = page.locator('.stage .legend-line');
    await expect(legend).toBeVisible();
    const px = (sel: string) => page.locator(sel).first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    const floor = size.w >= 1920 ? 24 : 16;
    expect(await px('.stage .legend-line span')).toBeGreaterThanOrEqual(floor);
    // Whole on one line: nothing of it cut at the right edge.
    expect(await legend.evaluate((l) => l.scrollWidth <= l.clientWidth + 1)).toBe(true);
    await page.keyboard.press('Shift+ArrowLeft');
    await expect(page.locator('.caption-key').first()).toBeVisible();
    expect(await px('.caption-key')).toBeGreaterThanOrEqual(16);
    await page.keyboard.press('k');
    await expect(legend).toHaveCount(0);
    await page.keyboard.press('k');
    await expect(legend).toBeVisible();
    await page.goto('/?scenario=redlock-clock-jump&lecture=1&compare=etcd&t=12000');
    await expect(page.locator('.side-badge').first()).toBeVisible();
    expect(await px('.side-badge')).toBeGreaterThanOrEqual(16);
  });
}
