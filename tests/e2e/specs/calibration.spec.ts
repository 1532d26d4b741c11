import { test, expect, type Page } from '@playwright/test';
import { calibration, type Estimate } from './calibration-table';
import { table } from './figures';

// Issue 34: the native drawing matrix (tests/drawing_matrix.rs) decides overlaps, cuts and
// type sizes from estimated text widths (`Geometry::text_width`) and an assumed smallest type
// (`Geometry::smallest_type`). This spec holds both against Chromium: every label text the
// built-ins draw, in every class and at the size it was estimated at, is rendered in the app's
// own page with the app's own stylesheet, normal and on the lecture stage, and its real
// `getBBox()` width must not exceed the estimate by more than TOLERANCE; and no text of a
// drawn diagram is set smaller than the smallest type the matrix assumes.

/** How much wider than its estimate a text may render: the 2 px margin each side of a label's
 * box (src/timeline/draw/mod.rs, `Placer::bounds`) keeps two labels' ink apart when one runs
 * up to 2 px past its estimate. */
const TOLERANCE = 2;

interface Measured {
  text: string;
  class: string;
  px: number;
  width: number;
}

/** Renders `rows` as SVG texts inside the app's page (its stylesheets loaded), each in its
 * class (the banner's words in a `g.banner`, as drawn), and measures them. */
function measure(page: Page, rows: Estimate[], lecture: boolean): Promise<Measured[]> {
  return page.evaluate(
    ([rows, lecture]) => {
      const ns = 'http://www.w3.org/2000/svg';
      const host = document.createElement('div');
      if (lecture) host.className = 'lecture';
      const svg = document.createElementNS(ns, 'svg');
      svg.setAttribute('class', 'diagram');
      svg.setAttribute('width', '4000');
      svg.setAttribute('height', String(20 * rows.length + 20));
      host.append(svg);
      document.body.append(host);
      const texts = rows.map((r, i) => {
        const t = document.createElementNS(ns, 'text');
        t.setAttribute('x', '10');
        t.setAttribute('y', String(20 * (i + 1)));
        t.textContent = r.text;
        if (r.class === 'banner') {
          const g = document.createElementNS(ns, 'g');
          g.setAttribute('class', 'banner');
          g.append(t);
          svg.append(g);
        } else {
          t.setAttribute('class', r.class);
          svg.append(t);
        }
        return t;
      });
      const out = texts.map((t, i) => ({
        text: rows[i].text,
        class: rows[i].class,
        px: parseFloat(getComputedStyle(t).fontSize),
        width: t.getBBox().width,
      }));
      host.remove();
      return out;
    },
    [rows, lecture] as const,
  );
}

for (const lecture of [false, true]) {
  const mode = lecture ? 'on the lecture stage' : 'in the app';
  test(`every label's estimated width holds its real width ${mode}`, async ({ page }) => {
    await page.goto(`/?scenario=redis-gc-pause${lecture ? '&lecture=1' : ''}`);
    await expect(page.getByTestId('diagram')).toBeVisible();
    // The app's fonts are the system's: wait until the page's are ready, as a drawing's are.
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const rows = calibration().labels.filter((r) => r.lecture === lecture);
    expect(rows.length, 'labels in the table').toBeGreaterThan(100);
    const real = await measure(page, rows, lecture);
    const bad: string[] = [];
    // Per class: how close the estimate comes (the largest real/estimate), for the report.
    const worst = new Map<string, { ratio: number; text: string; n: number }>();
    rows.forEach((r, i) => {
      const m = real[i];
      // The lane column's sizes are the matrix's copy of the stylesheet's (`lane_font`).
      if (r.class.startsWith('lane-') && m.px !== r.font) bad.push(`${r.class} "${r.text}": set at ${m.px} px, the matrix takes ${r.font} px`);
      if (m.width > r.estimate + TOLERANCE) {
        bad.push(`${r.class} "${r.text}": ${m.width.toFixed(1)} px at ${m.px} px, estimated ${r.estimate.toFixed(1)} px at ${r.font} px`);
      }
      const ratio = m.width / r.estimate;
      const was = worst.get(r.class);
      if (!was || ratio > was.ratio) worst.set(r.class, { ratio, text: r.text, n: (was?.n ?? 0) + 1 });
      else was.n++;
    });
    table(`Text widths ${mode}: real / estimate, widest per class`, [
      ['class', 'labels', 'real/estimate', 'text'],
      ...[...worst].sort((a, b) => b[1].ratio - a[1].ratio).map(([c, w]) => [c, w.n, w.ratio.toFixed(3), w.text.slice(0, 50)]),
    ]);
    expect(bad, `labels wider than estimated (+${TOLERANCE} px)`).toEqual([]);
  });
}

// The smallest type the matrix assumes, against every text of drawn diagrams: built-ins with
// the lane column's tightest forms (many lanes: compact and one-line labels), alone and
// compared, normal and lecture, at the end of the run (every label shown).
for (const lecture of [false, true]) {
  test(`no text of a diagram is smaller than the matrix's smallest type ${lecture ? 'on the lecture stage' : 'in the app'}`, async ({ page }) => {
    const floor = lecture ? calibration().smallest.lecture : calibration().smallest.normal;
    const bad: string[] = [];
    let texts = 0;
    for (const query of ['scenario=redlock-split-vote', 'scenario=redis-gc-pause&compare=etcd', 'scenario=k8s-two-leaders']) {
      await page.goto(`/?${query}${lecture ? '&lecture=1' : ''}`);
      await expect(page.getByTestId('diagram').first()).toBeVisible();
      // To the run's end (one scrub for both sides compared): every label shown.
      const max = await page.getByTestId('scrub').getAttribute('max');
      await page.getByTestId('scrub').fill(max!);
      await expect(page.getByTestId('diagram').first()).toHaveAttribute('data-cursor-ms', max!);
      const sizes = await page.locator('svg.diagram text, svg.diagram tspan').evaluateAll((els) =>
        els
          .filter((e) => (e.textContent ?? '').trim() && (e as Element).checkVisibility())
          .map((e) => ({ px: parseFloat(getComputedStyle(e).fontSize), what: `${e.getAttribute('class') ?? e.tagName}: ${e.textContent}` })),
      );
      texts += sizes.length;
      for (const s of sizes) if (s.px < floor) bad.push(`${query}: ${s.what} at ${s.px} px`);
    }
    expect(texts, 'texts measured').toBeGreaterThan(50);
    expect(bad, `texts under ${floor} px`).toEqual([]);
  });
}
