import { expect, type Page } from '@playwright/test';

// Measuring the stage from what Chromium rendered: boxes from getBoundingClientRect, type from
// computed font sizes times the SVG's on-screen scale. Shared by stage.spec.ts (the caption's
// box) and embed-legible.spec.ts. Whether labels collide, are cut or spoil the future is the
// native drawing matrix's (tests/drawing_matrix.rs), for every built-in and geometry.
//
// The measuring runs in the page (`inPage`, installed by `install`): one round trip a measure.

export interface Layout {
  viewport: { w: number; h: number };
  /** The page's scroll height (reported only: the verdict, ledger and editor below the
   * transport may scroll; the stage above them must not need to). */
  scrollH: number;
  scrollW: number;
  transportBottom: number;
  captionTop: number;
  captionBottom: number;
  /** Bottom edge of the lowest diagram. */
  diagramBottom: number;
  /** Height of all diagrams on screen together. */
  diagramH: number;
  /** Computed font size of the caption text (the smallest, compared). */
  captionPx: number;
  /** Whether every caption's text fits its box (no clipped line). */
  captionFits: boolean;
  /** Smallest effective font size of any visible text in the diagrams, and which text. */
  labelMin: number;
  labelMinText: string;
}

/** The browser half: plain functions that only use what they are given (they are sent to the
 * page as source text, so they must not reach anything of this module). */
const inPage = {
  layout(): Layout {
    const all = (sel: string) => [...document.querySelectorAll(sel)];
    const transport = document.querySelector('[data-testid="transport"]')!.getBoundingClientRect();
    const captions = all('[data-testid="caption"]');
    const capBoxes = captions.map((c) => c.getBoundingClientRect());
    const capTexts = all('[data-testid="caption"] .caption-text');
    const captionPx = Math.min(...capTexts.map((t) => parseFloat(getComputedStyle(t).fontSize)));
    const captionFits = captions.every((c) => c.scrollHeight <= c.clientHeight + 1);
    const wraps = all('.diagram-wrap').map((w) => w.getBoundingClientRect());
    let labelMin = Infinity;
    let labelMinText = '';
    for (const svg of all('svg.diagram') as SVGSVGElement[]) {
      // On-screen px per SVG unit (a fitted or scaled drawing shrinks its type with it).
      const vb = svg.viewBox.baseVal;
      const scale = vb && vb.width > 0 ? svg.getBoundingClientRect().width / vb.width : 1;
      for (const t of svg.querySelectorAll('text, tspan')) {
        const b = t.getBoundingClientRect();
        if (b.width <= 0 || b.height <= 0 || !(t.textContent ?? '').trim()) continue;
        if (!(t as Element).checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (px < labelMin) {
          labelMin = px;
          const text = t.tagName === 'tspan' ? t.closest('text')! : t;
          labelMinText = `${text.getAttribute('class') ?? ''}: ${text.textContent}`;
        }
      }
    }
    const d = document.documentElement;
    return {
      viewport: { w: innerWidth, h: innerHeight },
      scrollH: d.scrollHeight,
      scrollW: d.scrollWidth,
      transportBottom: transport.bottom,
      captionTop: Math.min(...capBoxes.map((b) => b.top)),
      captionBottom: Math.max(...capBoxes.map((b) => b.bottom)),
      diagramBottom: Math.max(...wraps.map((b) => b.bottom)),
      diagramH: wraps.reduce((s, b) => s + b.height, 0),
      captionPx,
      captionFits,
      labelMin: Math.round(labelMin * 10) / 10,
      labelMinText,
    };
  },

};

type Measure = keyof typeof inPage;
declare global {
  interface Window {
    __measure: typeof inPage;
  }
}

/** The measuring functions as a script that defines `window.__measure`. */
const SOURCE = () =>
  `window.__measure = {${Object.entries(inPage)
    .map(([name, f]) => `${name}: ${stripName(f.toString(), name)}`)
    .join(',\n')}};`;

const installed = new WeakSet<Page>();

/** Puts the measuring functions into the page, and into every document it loads from now on. */
export async function install(page: Page) {
  if (!installed.has(page)) await page.addInitScript({ content: SOURCE() });
  installed.add(page);
  await inject(page);
}

/** Puts them into the document there now only (one made by setContent, which loads no script). */
export async function inject(page: Page) {
  await page.evaluate(SOURCE());
}

/** A method's source (`name(args) {…}`) as a function expression. */
function stripName(src: string, name: string) {
  if (src.startsWith(`async ${name}(`)) return `async function ${src.slice(6)}`;
  return src.startsWith(`${name}(`) ? `function ${src}` : src;
}

/** Runs one of the in-page measures. */
export async function measure<M extends Measure>(
  page: Page,
  what: M,
  ...args: Parameters<(typeof inPage)[M]>
): Promise<ReturnType<(typeof inPage)[M]>> {
  const run = ([what, args]: readonly [M, unknown[]]) => (window.__measure[what] as (...a: unknown[]) => unknown)(...args);
  return page.evaluate(run, [what, args] as const) as Promise<ReturnType<(typeof inPage)[M]>>;
}

export const layout = (page: Page) => measure(page, 'layout');

/** Opens the app at `query` and waits for the diagram (and its measured redraw) to settle. */
export async function open(page: Page, query: string) {
  await page.goto(`/${query}`);
  await expect(page.getByTestId('diagram').first()).toBeVisible();
  await settle(page);
}

/** Two animation frames: a resize observer's redraw lands in between. */
export async function settle(page: Page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

