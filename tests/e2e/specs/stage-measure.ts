import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

// Measuring the stage from what Chromium rendered: boxes from getBoundingClientRect, type from
// computed font sizes times the SVG's on-screen scale. Shared by stage.spec.ts (fits and
// scales) and collisions.spec.ts (no label over another).
//
// The measuring itself runs in the page (`inPage`, installed by `install`), so one key moment
// costs one key press and one round trip: the walk through every key moment of every built-in
// at ten configurations has to stay within the suite's time.

/** Every built-in scenario id, read from the catalog the app compiles in. */
export const BUILTINS: string[] = readdirSync(path.resolve(__dirname, '../../../src/scenario/catalog'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

export interface LessonStepFile {
  text: string;
  table?: number[];
  slide?: boolean;
  question?: unknown;
}
export interface LessonFile {
  id: string;
  steps: LessonStepFile[];
}

/** Every built-in lesson, read from the files the app compiles in (src/lesson/, any depth). */
const LESSON_DIR = path.resolve(__dirname, '../../../src/lesson');
export const LESSONS: LessonFile[] = readdirSync(LESSON_DIR, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(LESSON_DIR, f), 'utf8')) as LessonFile);

/** The approach a built-in is compared with: etcd, or Redis for etcd's own. */
export function counterpart(id: string): string {
  return id.includes('etcd') ? 'redis' : 'etcd';
}

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

export interface Collision {
  a: string;
  b: string;
  /** What kind of label each is (its class), for sorting collisions into kinds. */
  ka: string;
  kb: string;
  /** Overlap in px (width and height of the intersection). */
  w: number;
  h: number;
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

  /** Pairs of labels whose rendered boxes intersect by more than `tol` px both ways, among the
   * diagram SVGs matched by `scope` (a diagram's static and live layers are stacked, so they
   * are measured together). A label is a visible `<text>` (its tspans are one label with it),
   * or one of the chips drawn over the others: the cursor's time tag, the two-believers banner
   * and a message in flight's words on their plate, each as the union of its box and its text
   * (a chip's own text is inside it, not over it). Hidden labels (not yet reached: display:none,
   * or not in the DOM), transparent ones and those outside their SVG do not count. */
  collisions(scope: string, tol: number, shapes = false, frame = false): Collision[] {
    type Box = { name: string; kind: string; l: number; t: number; r: number; b: number };
    const boxes: Box[] = [];
    const shown = (el: Element) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const CHIPS = '.cursor, .banner, .flight-label';
    const clean = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
    const kindOf = (el: Element) =>
      (el.getAttribute('class') ?? '')
        .split(/\s+/)
        .filter((c) => c && !/^h\d$/.test(c))
        .join('.') || el.tagName;
    for (const svg of document.querySelectorAll(scope)) {
      const frame = svg.getBoundingClientRect();
      const add = (name: string, kind: string, rects: DOMRect[]) => {
        const rs = rects.filter((b) => b.width > 0 && b.height > 0);
        if (!rs.length) return;
        // Clipped to its SVG: what lies outside is not drawn.
        const l = Math.max(frame.left, Math.min(...rs.map((b) => b.left)));
        const t = Math.max(frame.top, Math.min(...rs.map((b) => b.top)));
        const r = Math.min(frame.right, Math.max(...rs.map((b) => b.right)));
        const b = Math.min(frame.bottom, Math.max(...rs.map((b) => b.bottom)));
        if (r > l && b > t) boxes.push({ name, kind, l, t, r, b });
      };
      for (const chip of svg.querySelectorAll(CHIPS)) {
        if (!shown(chip)) continue;
        const parts = [...chip.querySelectorAll('rect, text')].filter(shown);
        const text = clean(chip.querySelector('text')?.textContent ?? null);
        add(`[${text || kindOf(chip)}]`, kindOf(chip), parts.map((p) => p.getBoundingClientRect()));
      }
      for (const el of svg.querySelectorAll('text')) {
        if (el.closest(CHIPS) || !clean(el.textContent) || !shown(el)) continue;
        add(`"${clean(el.textContent)}"`, kindOf(el), [el.getBoundingClientRect()]);
      }
    }
    const out: Collision[] = [];
    // A label cut short ("EVAL comp…") counts as a collision with its lack of room (issue 22,
    // item 3): every label is whole. A token's abbreviation ("SET lock e787… NX", "EVAL
    // compare-and-delete 0185…": four hex digits and "…") is how messages name tokens, not a cut.
    for (const svg of document.querySelectorAll(scope)) {
      for (const el of svg.querySelectorAll('text')) {
        const words = clean(el.textContent);
        if (words.endsWith('…') && !/\b[0-9a-f]{4}…$/.test(words) && shown(el) && el.getBoundingClientRect().width > 0) {
          out.push({ a: `"${words}"`, b: '(its own missing words)', ka: kindOf(el.closest(CHIPS) ?? el), kb: 'truncation', w: 99, h: 99 });
        }
      }
    }
    // Issue 25, item 5: no label on a shape it would hide: a bar (lease, belief, held), the
    // end of one of the story's arrows (its head, a lost one's cross) or a marker (a fault's
    // mark, a write's glyph). A lease's holder is written in its own bar, and a word on a
    // plate (a fault mark's) may cross a bar's edge: its plate hides the edge. Shapes of the
    // future count too (behind the veil): a label never comes to lie on one.
    if (shapes) {
      type Shape = { name: string; kind: string; l: number; t: number; r: number; b: number };
      const found: Shape[] = [];
      const titled = (el: Element) => clean(el.closest('g')?.querySelector(':scope > title')?.textContent ?? null) || kindOf(el);
      for (const svg of document.querySelectorAll(scope) as NodeListOf<SVGSVGElement>) {
        const put = (el: Element, kind: string, b: { left: number; top: number; right: number; bottom: number }) =>
          found.push({ name: titled(el), kind, l: b.left, t: b.top, r: b.right, b: b.bottom });
        for (const el of svg.querySelectorAll('.lease-bar, .belief-bar, .held-bar')) put(el, 'bar', el.getBoundingClientRect());
        for (const el of svg.querySelectorAll('.mark-shape, .glyph')) put(el, 'marker', el.getBoundingClientRect());
        for (const el of svg.querySelectorAll('g.msg:not(.quiet) > .lost-x')) put(el, 'arrow end', el.getBoundingClientRect());
        for (const el of svg.querySelectorAll('g.msg:not(.quiet) > .shaft') as NodeListOf<SVGPathElement>) {
          // "M x0 y0 L x1 y1 M ax ay L x1 y1 L bx by": the head is the last three points.
          const n = (el.getAttribute('d') ?? '').match(/-?[\d.]+/g)?.map(Number) ?? [];
          const m = el.getScreenCTM();
          if (n.length < 10 || !m) continue;
          const pts = [2, 4, 8].map((i) => new DOMPoint(n[i], n[i + 1]).matrixTransform(m));
          const xs = pts.map((p) => p.x);
          const ys = pts.map((p) => p.y);
          put(el, 'arrow end', { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) });
        }
      }
      for (const svg of document.querySelectorAll(scope)) {
        for (const el of svg.querySelectorAll('text')) {
          if (el.closest(CHIPS) || !clean(el.textContent) || !shown(el)) continue;
          const t = el.getBoundingClientRect();
          if (t.width <= 0) continue;
          const plated = el.previousElementSibling?.classList.contains('lbl-plate') ?? false;
          const lease = el.classList.contains('lease-lbl');
          for (const s of found) {
            const w = Math.min(t.right, s.r) - Math.max(t.left, s.l);
            const h = Math.min(t.bottom, s.b) - Math.max(t.top, s.t);
            if (w <= tol || h <= tol) continue;
            if (s.kind === 'bar' && plated) continue;
            const cx = (t.left + t.right) / 2;
            const cy = (t.top + t.bottom) / 2;
            if (lease && s.kind === 'bar' && s.l <= t.left + 1 && cx <= s.r && s.t <= cy && cy <= s.b) continue; // in its own bar
            out.push({ a: `"${clean(el.textContent)}"`, b: `${s.kind} (${s.name})`, ka: kindOf(el), kb: s.kind, w: Math.round(w), h: Math.round(h) });
          }
        }
      }
    }
    // And in a small frame (issue 25, item 5): the page never scrolls, a run of four lanes or
    // fewer fits without scrolling (more lanes than a 320×240 frame holds at 11 px type scroll
    // inside the diagram's box, by design), and no text is cut at the drawing's or the
    // window's edge.
    if (frame) {
      const d = document.documentElement;
      const wrap = document.querySelector('.diagram-wrap');
      const page = d.scrollHeight - innerHeight;
      const inner = wrap ? wrap.scrollHeight - wrap.clientHeight : 0;
      const lanes = document.querySelectorAll('.lane-name').length;
      if (page > 1) out.push({ a: '(the page)', b: `scrolls ${page} px`, ka: 'frame', kb: 'scroll', w: 0, h: page });
      if (inner > 1 && lanes <= 4) out.push({ a: `(the diagram, ${lanes} lanes)`, b: `scrolls ${inner} px`, ka: 'frame', kb: 'scroll', w: 0, h: inner });
      if (d.scrollWidth > innerWidth + 1) out.push({ a: '(the page)', b: 'scrolls sideways', ka: 'frame', kb: 'scroll', w: d.scrollWidth - innerWidth, h: 0 });
      for (const svg of document.querySelectorAll(scope)) {
        const f = svg.getBoundingClientRect();
        for (const el of svg.querySelectorAll('text')) {
          const b = el.getBoundingClientRect();
          if (b.width <= 0 || !shown(el) || !clean(el.textContent)) continue;
          const cut = f.left - b.left > 1 || b.right - Math.min(f.right, innerWidth) > 1 || b.bottom - f.bottom > 1 || f.top - b.top > 1;
          if (cut) out.push({ a: `"${clean(el.textContent)}"`, b: "(the drawing's edge)", ka: kindOf(el.closest(CHIPS) ?? el), kb: 'clip', w: 0, h: 0 });
        }
      }
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = 0; j < i; j++) {
        const p = boxes[i];
        const q = boxes[j];
        const w = Math.min(p.r, q.r) - Math.max(p.l, q.l);
        const h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
        if (w > tol && h > tol) out.push({ a: p.name, b: q.name, ka: p.kind, kb: q.kind, w: Math.round(w), h: Math.round(h) });
      }
    }
    return out;
  },

  /** What is drawn of the future (issue 22, item 2), in every diagram on the page: a marker
   * on the axis coloured by its outcome before the cursor has reached it (its millisecond and,
   * there, the captioned event: the diagram's data-upto), a label whose left edge lies right
   * of the cursor (it names something still to come), and, with `hidden`, a veil the future
   * shows through. Each finding says what and where. */
  future(hidden: boolean): string[] {
    const out: string[] = [];
    const shown = (el: Element) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    for (const svg of document.querySelectorAll('svg.diagram-live')) {
      const ms = Number(svg.getAttribute('data-cursor-ms'));
      const upto = svg.getAttribute('data-upto');
      for (const k of svg.querySelectorAll('g.key')) {
        const at = Number(k.getAttribute('data-at'));
        const ev = Number(k.getAttribute('data-event'));
        const come = at < ms || (at === ms && (upto === null || ev <= Number(upto)));
        const cls = k.getAttribute('class') ?? '';
        if (!come && !/\blater\b/.test(cls)) out.push(`marker "${cls}" at ${at} ms (event ${ev}) before its moment`);
      }
      const line = svg.querySelector('.cursor-line');
      if (!line) continue;
      const x = line.getBoundingClientRect().left;
      for (const t of svg.querySelectorAll('text')) {
        // The axis's times, the lanes' words, and what moves with the cursor (messages in
        // flight, the two-believers banner) are of the present; a label beside what happens
        // at the cursor starts a few px right of it.
        if (t.closest('.cursor, g.labels, .key, .ticks, .flight-label, .banner') || !shown(t) || !(t.textContent ?? '').trim()) continue;
        const b = t.getBoundingClientRect();
        if (b.width > 0 && b.left > x + 16) out.push(`label "${t.textContent}" starts ${Math.round(b.left - x)} px right of the cursor`);
      }
      const veil = svg.parentElement?.querySelector('.veil');
      if (hidden && veil) {
        const alpha = getComputedStyle(veil).backgroundColor.match(/rgba?\(([^)]*)\)/)?.[1].split(/[ ,\/]+/).filter(Boolean)[3];
        if (alpha !== undefined && Number(alpha) < 1) out.push(`the future shows through the veil (alpha ${alpha})`);
      }
    }
    return out;
  },

  /** Where the walk is: the (first) diagram's cursor, every caption's words, and the end. */
  where(): { key: string; ms: number; end: boolean } {
    const d = document.querySelector('[data-testid="diagram"]');
    const ms = Number(d?.getAttribute('data-cursor-ms'));
    const max = Number(document.querySelector('[data-testid="scrub"]')?.getAttribute('max'));
    const c = [...document.querySelectorAll('[data-testid="caption"]')].map((e) => e.textContent).join('|');
    return { key: `${ms}#${c}`, ms, end: ms >= max };
  },

  /** Shows built-in `id` (compared with `compare`, if given) as a person would: the picker,
   * then the comparison's select. Resolves once the page says the new scenario. */
  async pick(id: string, compare: string | null): Promise<string | null> {
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const intro = () => document.querySelector('.intro')?.textContent ?? '';
    const choose = async (testid: string, value: string, changed: () => boolean) => {
      const select = document.querySelector(`[data-testid="${testid}"]`) as HTMLSelectElement | null;
      if (!select) return `no ${testid}`;
      if (select.value === value) return null;
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
      const t0 = performance.now();
      while (!changed() && performance.now() - t0 < 5000) await frame();
      return changed() ? null : `${testid}=${value} changed nothing`;
    };
    const was = intro();
    const picked = await choose('scenario-picker', id, () => intro() !== was);
    if (picked) return picked;
    if (compare) {
      // The second side's approach, as its section names it ('etcd', 'Redis': the counterparts
      // are named by their ids). A comparison carried over from the last built-in may need a
      // frame or two after the intro to be re-derived: wait for it before choosing.
      const second = () => document.querySelectorAll('section.side[aria-label]')[1]?.getAttribute('aria-label')?.toLowerCase();
      const two = () => document.querySelectorAll('[data-testid="diagram"]').length === 2;
      const shown = () => two() && second() === compare;
      const t0 = performance.now();
      while (!shown() && performance.now() - t0 < 1000) await frame();
      if (!shown()) {
        const select = document.querySelector('[data-testid="compare-with"]') as HTMLSelectElement | null;
        if (select?.value === compare) return `compare-with says ${compare} but the second side is ${second() ?? 'missing'}`;
        const compared = await choose('compare-with', compare, shown);
        if (compared) return compared;
      }
    }
    await frame();
    await frame();
    return null;
  },

  /** Walks from 0 through every key moment (the transport's "Next key moment": the action
   * Shift+→ dispatches, pressed in the page, which saves a round trip per moment and does not
   * depend on where the focus is) to the run's end, where it goes when no key moment is left. At each stop,
   * once the cursor or a caption changed and two frames were drawn, runs `what` (layout,
   * collisions or nothing) and, with `exportSvg`, presses Export SVG and keeps the file's text
   * (the Blob the app hands to the download). Key moments that share a millisecond are visited
   * one by one: the cursor stays, the caption moves on. */
  async walk(what: 'layout' | 'collisions' | 'where' | 'future', args: unknown[], exportSvg: boolean) {
    const m = (window as unknown as { __measure: Record<string, (...a: unknown[]) => unknown> }).__measure;
    const where = m.where as () => { key: string; ms: number; end: boolean };
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const until = async (ok: () => boolean, ms: number) => {
      const t0 = performance.now();
      while (!ok() && performance.now() - t0 < ms) await frame();
      return ok();
    };
    const w = window as unknown as { __blobs?: Blob[] };
    if (exportSvg && !w.__blobs) {
      w.__blobs = [];
      const made = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (b: Blob | MediaSource) => {
        if (b instanceof Blob) w.__blobs!.push(b);
        return made(b);
      };
    }
    const scrub = document.querySelector('[data-testid="scrub"]') as HTMLInputElement;
    scrub.value = '0';
    scrub.dispatchEvent(new InputEvent('input', { bubbles: true }));
    if (!(await until(() => where().ms === 0, 3000))) return { moments: [], error: 'the scrub did not go to 0' };
    await frame();
    await frame();
    const next = document.querySelector('[data-testid="key-next"]') as HTMLButtonElement;
    const moments: { k: number; ms: number; end: boolean; data: unknown; svg?: string }[] = [];
    let was = where();
    for (let k = 1; k <= 60 && !was.end; k++) {
      next.click();
      if (!(await until(() => where().key !== was.key, 3000))) {
        return { moments, error: `"next key moment" went nowhere from ${was.key.slice(0, 100)}` };
      }
      // What is measured on screen waits for the frames a resize observer's redraw needs; an
      // export is made from the app's state, which the page already shows.
      if (what !== 'where') {
        await frame();
        await frame();
      }
      const at = where();
      const moment: (typeof moments)[number] = { k, ms: at.ms, end: at.end, data: m[what](...args) };
      // Key moments at one millisecond share a figure: one export each millisecond.
      if (exportSvg && at.ms !== moments.at(-1)?.ms) {
        const before = w.__blobs!.length;
        (document.querySelector('[data-testid="export-svg"]') as HTMLButtonElement).click();
        if (!(await until(() => w.__blobs!.length > before, 3000))) return { moments, error: `Export SVG made no file at ${at.ms} ms` };
        moment.svg = await w.__blobs!.at(-1)!.text();
        // The figure is of the moment on screen (the same time on its cursor).
        const time = document.querySelector('[data-testid="diagram"] .cursor-time')?.textContent;
        if (!moment.svg.includes(`>${time}</text>`)) return { moments, error: `the figure exported at ${at.ms} ms does not say ${time}` };
      }
      moments.push(moment);
      was = at;
    }
    return { moments, error: was.end ? null : 'more than 60 key moments' };
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
export const collisions = (page: Page, scope = 'svg.diagram', tol = 1, shapes = false, frame = false) =>
  measure(page, 'collisions', scope, tol, shapes, frame);

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

export interface Moment<T> {
  /** 1-based; the run's end (its outcome) comes last. */
  k: number;
  ms: number;
  end: boolean;
  data: T;
  /** The Export SVG file's text at this moment (walks that asked for it; the first moment of
   * each millisecond). */
  svg?: string;
}

export interface Config {
  lecture: boolean;
  /** Compared with its counterpart approach. */
  compared?: boolean;
  /** Embed mode (`embed=1`), as a docs page's iframe shows it. */
  embed?: boolean;
}

/** Every key moment of every built-in in `ids`, at one configuration, in one page: the app
 * loads once and the built-ins are picked in turn (a reload per built-in cost a second each,
 * most of the suite's time). Calls `each` with a built-in's moments, measured with `what`. */
export async function eachBuiltin<M extends 'layout' | 'collisions' | 'where' | 'future'>(
  page: Page,
  cfg: Config,
  what: M,
  args: Parameters<(typeof inPage)[M]>,
  each: (id: string, moments: Moment<ReturnType<(typeof inPage)[M]>>[]) => void | Promise<void>,
  opts: { ids?: string[]; exportSvg?: boolean } = {},
) {
  await install(page);
  await open(page, `?scenario=${(opts.ids ?? BUILTINS)[0]}${cfg.lecture ? '&lecture=1' : ''}${cfg.embed ? '&embed=1' : ''}`);
  for (const id of opts.ids ?? BUILTINS) {
    const compare = cfg.compared ? counterpart(id) : null;
    const problem = await page.evaluate(([id, compare]) => window.__measure.pick(id, compare), [id, compare] as const);
    expect(problem, `${id} shown`).toBeNull();
    const { moments, error } = await page.evaluate(
      ([what, args, exportSvg]) => window.__measure.walk(what, args as unknown[], exportSvg),
      [what, args, !!opts.exportSvg] as const,
    );
    expect(error, `${id}: the walk through its key moments`).toBeNull();
    await each(id, moments as Moment<ReturnType<(typeof inPage)[M]>>[]);
  }
}

/** A figures table for the report: printed, so a run's log carries the measurements. */
export function table(title: string, rows: (string | number)[][]) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r: (string | number)[]) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  const text = `\n${title}\n${rows.map(line).join('\n')}\n`;
  console.log(text);
  // Also kept as a file: a failing test's console output is easy to lose in the report.
  mkdirSync(FIGURES, { recursive: true });
  appendFileSync(path.join(FIGURES, 'figures.txt'), text);
}

/** Where `table` keeps its figures (git-ignored with the rest of test-results/). */
export const FIGURES = path.resolve(__dirname, '../test-results/figures');
