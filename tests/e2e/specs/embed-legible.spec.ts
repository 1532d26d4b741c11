import { test, expect } from '@playwright/test';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { install, layout, settle } from './stage-measure';
import { table } from './figures';
import { shotPath } from './helpers';

// Issue 11, item 8: legible embeds. From 320×240 to 800×450 the diagram's smallest text, as
// rendered (computed size × the SVG's scale on screen), is at least 11 px for every built-in,
// and the page itself never scrolls (a run with more lanes than the frame holds scrolls inside
// the diagram's box, and the table says which). The example docs page reads on a 375 px phone:
// each embed's caption fits its box.

test.use({ trace: 'off' });

const BUILTINS = readdirSync(path.resolve(__dirname, '../../../src/scenario/catalog'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

const SIZES: [number, number][] = [
  [320, 240],
  [640, 360],
  [800, 450],
];

test('embeds keep 11 px type from 320×240 to 800×450, and the page never scrolls', async ({ page }) => {
  test.setTimeout(180_000);
  await install(page);
  const bad: string[] = [];
  const rows: (string | number)[][] = [['built-in', ...SIZES.map(([w, h]) => `${w}×${h}: min px / lanes scroll`)]];
  const cells = new Map<string, string[]>();
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    for (const id of BUILTINS) {
      await page.goto(`/?scenario=${id}&t=4000&embed=1`);
      await expect(page.getByTestId('diagram')).toBeVisible();
      await settle(page);
      const l = await layout(page);
      const scrolls = await page.evaluate(() => {
        const box = document.querySelector('.diagram-wrap')!;
        return { inner: box.scrollHeight > box.clientHeight + 1, page: document.documentElement.scrollHeight > innerHeight + 1 };
      });
      if (l.labelMin < 11) bad.push(`${id} at ${w}×${h}: diagram text ${l.labelMin} px (${l.labelMinText})`);
      if (scrolls.page) bad.push(`${id} at ${w}×${h}: the page scrolls`);
      cells.set(id, [...(cells.get(id) ?? []), `${l.labelMin} / ${scrolls.inner ? 'yes' : 'no'}`]);
    }
  }
  for (const id of BUILTINS) rows.push([id, ...(cells.get(id) ?? [])]);
  table('Embeds: smallest diagram text (px) and whether the lanes scroll inside the frame', rows);
  expect(bad).toEqual([]);
});

test('the example docs page reads on a 375 px phone: no embed caption is cut', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/embed-example.html');
  for (let i = 0; i < 2; i++) {
    const frame = page.frameLocator('iframe').nth(i);
    await expect(frame.getByTestId('diagram')).toBeVisible();
    const caption = frame.getByTestId('caption');
    await expect(caption).toContainText('15.5');
    // Fitted to its box (smaller type) or, at the floor, scrollable by keyboard: never clipped.
    await expect
      .poll(() => caption.evaluate((c) => c.scrollHeight <= c.clientHeight + 1 || (getComputedStyle(c).overflowY === 'auto' && c.tabIndex === 0)))
      .toBe(true);
    const px = await caption.locator('.caption-text').evaluate((p) => parseFloat(getComputedStyle(p).fontSize));
    // Issue 36: never under 12 px (a 320×240 frame's went down to 9.9 px; text::caption::CAPTION_MIN_PX).
    expect(px, 'caption type').toBeGreaterThanOrEqual(12);
  }
});

// Issue 25, item 5: at 320×240 nothing is cut off at the drawing's edge (a message's words in
// flight went under the last lane: "write OK"), and a run of four lanes fits without scrolling
// (it scrolled 5 px). Runs of more lanes scroll inside the diagram's box, by design. Every key
// moment of every built-in in the embeds' diagram boxes is checked for cut words natively
// (tests/drawing_matrix.rs); here one moment each, as the page lays it out.
test('at 320×240 no text is cut off, and four lanes fit without scrolling', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 320, height: 240 });
  const bad: string[] = [];
  for (const id of BUILTINS) {
    for (const t of [10637]) {
      await page.goto(`/?scenario=${id}&t=${t}&embed=1`);
      await expect(page.getByTestId('diagram')).toBeVisible();
      await settle(page);
      const r = await page.evaluate(() => {
        const wrap = document.querySelector('.diagram-wrap')!;
        const svg = document.querySelector('svg[data-testid=diagram]')!.getBoundingClientRect();
        const cut = [...wrap.querySelectorAll('svg text')]
          .filter((e) => {
            const b = e.getBoundingClientRect();
            return b.width > 0 && (b.right > svg.right + 1 || b.bottom > svg.bottom + 1 || b.left < svg.left - 1 || b.top < svg.top - 1);
          })
          .map((e) => e.textContent);
        return { cut, scroll: wrap.scrollHeight - wrap.clientHeight, lanes: wrap.querySelectorAll('.lane-name').length };
      });
      if (r.cut.length) bad.push(`${id} at ${t} ms: cut off ${r.cut.join(', ')}`);
      if (r.lanes <= 4 && r.scroll > 0) bad.push(`${id} at ${t} ms: ${r.lanes} lanes scroll ${r.scroll} px`);
    }
  }
  expect(bad).toEqual([]);
  await page.goto('/?scenario=redis-gc-pause&t=15505&embed=1');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await settle(page);
  await page.screenshot({ path: shotPath('embed-320x240-redis-gc-pause.png') });
});
