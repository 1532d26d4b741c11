import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { collisions, eachBuiltin, inject, table, type Collision } from './stage-measure';

// Issue 11, item 3: no label over another. At every key moment of every built-in, in normal and
// lecture mode, at 360, 1280 and 1920 px wide, compared on the lecture stage at 1280 and 1920,
// and in the exported figures (the app's Export SVG and the CLI's `locklab svg`), no two labels'
// rendered boxes intersect by more than 1 px each way. Counted: every visible text of the
// diagram (labels, lane column, axis ticks, write labels) and the chips drawn over them: the
// cursor's time tag, the two-believers banner and the words of messages in flight (see
// `collisions` in stage-measure.ts). The first test checks the counting itself on hand-made
// drawings.
//
// Issue 25, item 5: and no label on a bar, an arrow's end or a marker, on screen and in the
// figures, counted the same way (the second test checks that counting); in embeds at 320×240,
// 640×360 and 800×450 too, where at 320×240 nothing scrolls and no text is cut at the edge.

// No trace: a walk is hundreds of in-page measurements, and recording it (a screencast of
// every frame) doubled the walk's time; a failure's report lists every finding, and the tables
// below carry the figures.
test.use({ trace: 'off' });

const WIDTHS: [number, number][] = [
  [360, 780],
  [1280, 720],
  [1920, 1080],
];

/** `"OK, token 2" over "B takes over" (73×8 px)`: "over" says they overlap, not which is on top;
 * [brackets] are chips (the time tag, the banner, words in flight), "quotes" plain labels. */
function describe(c: Collision) {
  return `${c.a} over ${c.b} (${c.w}×${c.h} px)`;
}

/** An overlap this deep or less is two stacked lines' boxes touching (a text's box is its
 * font's ascent to descent, taller than the ink): still counted, but told apart in the tables. */
const SLIVER = 3;

/** Which kinds of label collide with which (with the smallest side of their largest overlap:
 * 2 px is two lines' boxes touching, 12 px one word on another), and which pairs most often:
 * the table's footer. */
function summary(found: { c: Collision }[]): (string | number)[][] {
  const count = (key: (c: Collision) => string) => {
    const n = new Map<string, { n: number; depth: number }>();
    for (const { c } of found) {
      const was = n.get(key(c)) ?? { n: 0, depth: 0 };
      n.set(key(c), { n: was.n + 1, depth: Math.max(was.depth, Math.min(c.w, c.h)) });
    }
    return [...n].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]));
  };
  const kinds = count((c) => [c.ka, c.kb].sort().join(' × '));
  // The pairs worth looking at first: one word on another, not two lines' boxes touching.
  const deep = found.filter(({ c }) => Math.min(c.w, c.h) > SLIVER);
  const pairs = count((c) => `${c.a} over ${c.b}`)
    .filter(([p]) => deep.some(({ c }) => `${c.a} over ${c.b}` === p))
    .slice(0, 8);
  return [
    ...kinds.map(([k, { n, depth }]) => ['kind', '', n, '', '', `${k} (up to ${depth} px deep)`]),
    ['slivers', '', found.length - deep.length, '', '', `overlaps at most ${SLIVER} px deep (stacked lines whose boxes touch)`],
    ...pairs.map(([p, { n }]) => ['top pair', '', n, '', '', p.slice(0, 110)]),
  ];
}

/** A page to draw exported figures in, alone, as a viewer would show them. It is opened
 * behind `app`: a page in the background gets no animation frames, which the walk waits for. */
async function figurePage(context: BrowserContext, app: Page): Promise<Page> {
  const fig = await context.newPage();
  await fig.setContent('<!doctype html><body style="margin:0"></body>');
  await inject(fig);
  await app.bringToFront();
  return fig;
}

/** Counts the collisions of exported figures, drawn side by side in `fig`, one list per
 * figure. Each figure carries the same stylesheet; it is put in once (as many copies made the
 * page restyle every figure once per copy). */
async function figureCollisions(fig: Page, svgs: string[]): Promise<Collision[][]> {
  const style = /<style>[\s\S]*?<\/style>/;
  const sheets = new Set(svgs.map((svg) => svg.match(style)?.[0]));
  expect(sheets.size, 'one stylesheet in every figure of a batch').toBe(1);
  const bodies = svgs.map((svg, i) => (i ? svg.replace(style, '') : svg).replace(/^<\?xml[^>]*>\s*/, ''));
  return fig.evaluate((bodies) => {
    document.body.innerHTML = bodies.map((svg) => `<div>${svg}</div>`).join('');
    return bodies.map((_, i) => window.__measure.collisions(`body > div:nth-child(${i + 1}) > svg`, 1, true));
  }, bodies);
}

test('the collision count sees overlaps, and only between visible, separate labels', async ({ page }) => {
  // Built by hand, so the counting itself is checked: each group below has a known answer.
  const svg = (body: string) =>
    `<svg class="diagram" width="400" height="100" viewBox="0 0 400 100" style="font: 12px sans-serif">${body}</svg>`;
  const cases: [string, string, number][] = [
    ['two texts on one spot', '<text x="10" y="20">STALE, accepted</text><text x="30" y="22">B takes over</text>', 1],
    ['side by side', '<text x="10" y="20">A</text><text x="200" y="20">B</text>', 0],
    ['touching by 1 px or less', '<text x="10" y="20">A · token 1</text><text x="10" y="34">B</text>', 0],
    ['one hidden (not reached)', '<text x="10" y="20">A</text><g style="display:none"><text x="10" y="20">B</text></g>', 0],
    ['one transparent', '<text x="10" y="20">A</text><text x="10" y="20" style="opacity:0">B</text>', 0],
    ['tspans of one text', '<text x="10" y="20"><tspan>wall 1.000</tspan><tspan dx="-20">mono 1.000</tspan></text>', 0],
    ['a chip and its own text', '<g class="cursor"><rect class="cursor-tag" x="5" y="5" width="60" height="20"/><text x="35" y="19">1 s</text></g>', 0],
    ['a chip over a text', '<text x="10" y="20">0 s</text><g class="cursor"><rect class="cursor-tag" x="5" y="5" width="60" height="20"/><text x="35" y="19">1 s</text></g>', 1],
    [
      'words in flight over a label',
      '<text x="10" y="20">TTL expired</text><g class="flight-label"><rect class="lbl-plate" x="20" y="8" width="90" height="16"/><text x="23" y="20">EVAL compare-and-delete</text></g>',
      1,
    ],
    ['outside the drawing', '<text x="10" y="20">A</text><text x="-200" y="20">far away and long enough</text>', 0],
    ['a label on its own plate', '<rect class="lbl-plate" x="8" y="9" width="80" height="14"/><text class="lbl" x="10" y="20">A · token 1</text>', 0],
    [
      'the banner over a label',
      '<text x="10" y="20">lease 10 s</text><g class="banner"><rect x="5" y="6" width="200" height="20"/><text x="20" y="20">A and B both believe</text></g>',
      1,
    ],
    ['three on one spot', '<text x="10" y="20">AAA</text><text x="10" y="20">BBB</text><text x="10" y="20">CCC</text>', 3],
  ];
  const drawings = cases.map(([name, body]) => `<div data-case="${name}">${svg(body)}</div>`).join('');
  await page.setContent(`<!doctype html><body>${drawings}</body>`);
  await inject(page);
  for (const [name, , want] of cases) {
    const found = await collisions(page, `[data-case="${name}"] svg.diagram`);
    expect(found.length, `${name}: ${found.map(describe).join('; ')}`).toBe(want);
  }
});

test('the count sees labels on bars, arrows\' ends and markers, but not a lease\'s holder in its bar', async ({ page }) => {
  const svg = (body: string) =>
    `<svg class="diagram" width="400" height="100" viewBox="0 0 400 100" style="font: 12px sans-serif">${body}</svg>`;
  const bar = '<g class="belief"><title>B believes it holds the lock</title><rect class="belief-bar" x="20" y="10" width="200" height="11"/></g>';
  const cases: [string, string, number][] = [
    ['a label on a bar', `${bar}<text x="30" y="20">believes · 1</text>`, 1],
    ['a label above a bar', `${bar}<text x="30" y="7" style="font-size:8px">believes · 1</text>`, 0],
    ['a lease holder in its bar', '<rect class="lease-bar" x="20" y="10" width="200" height="16"/><text class="lbl lease-lbl" x="24" y="22">A · 1</text>', 0],
    ['a plated word on a bar\'s edge', `${bar}<rect class="lbl-plate" x="28" y="9" width="60" height="14"/><text x="30" y="20">crash</text>`, 0],
    ['a word on a glyph', '<g class="glyph accepted"><circle class="disc" cx="50" cy="20" r="7.5"/></g><text x="40" y="24">A · 1</text>', 1],
    ['a word on a mark', '<g class="mark crash"><path class="mark-shape" d="M45 15l10 10m0 -10l-10 10"/></g><text x="40" y="24">A · 1</text>', 1],
    ['a word on an arrow\'s head', '<g class="msg h0"><path class="shaft" d="M0 0L60 20M54 16L60 20L56 24"/></g><text x="50" y="24">A · 1</text>', 1],
    ['a faint stub\'s head', '<g class="msg quiet"><path class="shaft" d="M0 0L60 20M54 16L60 20L56 24"/></g><text x="50" y="24">A · 1</text>', 0],
  ];
  await page.setContent(`<!doctype html><body>${cases.map(([name, body]) => `<div data-case="${name}">${svg(body)}</div>`).join('')}</body>`);
  await inject(page);
  for (const [name, , want] of cases) {
    const found = await collisions(page, `[data-case="${name}"] svg.diagram`, 1, true);
    expect(found.length, `${name}: ${found.map(describe).join('; ')}`).toBe(want);
  }
});

/** The CLI, built once (a no-op when the native tests already built it). */
function cli(): (args: string[]) => string {
  const root = path.resolve(__dirname, '../../..');
  execFileSync('cargo', ['build', '--quiet', '--bin', 'locklab'], { cwd: root, stdio: 'inherit' });
  const bin = path.join(root, 'target/debug/locklab');
  return (args) => execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** Exported figures are 1280 px wide whatever the window: they are checked on the walk at
 * that width, where the app shows the same moments (one walk instead of two). */
const FIGURES_AT = 1280;

/** The walks: normal and lecture mode at every width, and the lecture stage compared (two
 * diagrams side by side, lanes at their least heights) at the projector sizes it is made for. */
/** Issue 25: and embeds, at the sizes a docs page gives them. */
const EMBEDS: [number, number][] = [
  [320, 240],
  [640, 360],
  [800, 450],
];
const WALKS: { lecture: boolean; compared: boolean; embed?: boolean; size: [number, number] }[] = [
  ...[false, true].flatMap((lecture) => WIDTHS.map((size) => ({ lecture, compared: false, size }))),
  ...WIDTHS.filter(([w]) => w >= 1280).map((size) => ({ lecture: true, compared: true, size })),
  ...EMBEDS.map((size) => ({ lecture: false, compared: false, embed: true, size })),
];

for (const { lecture, compared, embed, size } of WALKS) {
  const [w, h] = size;
  const figures = w === FIGURES_AT && !compared;
  const mode = embed ? `embed ${w}×${h}` : `${lecture ? 'lecture' : 'normal'}${compared ? ' compared' : ''}`;
  const also = figures ? ", and in its exported figures (the app's Export SVG, `locklab svg`)" : '';
  const name = `no collisions at any key moment, ${mode} mode, ${w} px wide${also}`;
  test(name, async ({ page, context }) => {
    test.setTimeout(120_000);
    const locklab = figures ? cli() : null;
    const fig = figures ? await figurePage(context, page) : null;
    await page.setViewportSize({ width: w, height: h });
    const rows: (string | number)[][] = [['built-in', 'moments', 'colliding pairs', 'on shapes', 'frame', 'first']];
    const figRows: (string | number)[][] = [['built-in', 'figures', 'app pairs', 'cli pairs', 'first']];
    const found: { id: string; k: number; ms: number; c: Collision }[] = [];
    const inFigures: { from: string; c: Collision }[] = [];
    await eachBuiltin(
      page,
      { lecture, compared, embed },
      'collisions',
      // Labels on shapes everywhere; and at 320×240, the frame (no scroll, nothing cut).
      ['svg.diagram', 1, true, !!embed && w === 320],
      async (id, moments) => {
        const here = moments.flatMap(({ k, ms, data }) => data.map((c) => ({ id, k, ms, c })));
        found.push(...here);
        const first = here[0];
        const onShapes = here.filter(({ c }) => ['bar', 'marker', 'arrow end'].includes(c.kb)).length;
        const frame = here.filter(({ c }) => ['scroll', 'clip'].includes(c.kb)).length;
        rows.push([id, moments.length, here.length, onShapes, frame, first ? `k${first.k} ${first.ms} ms: ${describe(first.c)}`.slice(0, 110) : '']);
        if (!fig || !locklab) return;
        // Key moments at one millisecond share a figure: the walk exported one per millisecond.
        const exported = moments.filter((m) => m.svg);
        const times = exported.map((m) => m.ms);
        const fromApp = await figureCollisions(fig, exported.map((m) => m.svg!));
        const fromCli = await figureCollisions(
          fig,
          times.map((ms) => locklab(['svg', '--builtin', id, '--at-ms', String(ms), ...(lecture ? ['--lecture'] : []), '-o', '-'])),
        );
        const at = (i: number) => `${id} at ${times[i]} ms`;
        fromApp.forEach((cs, i) => inFigures.push(...cs.map((c) => ({ from: `app figure, ${at(i)}`, c }))));
        fromCli.forEach((cs, i) => inFigures.push(...cs.map((c) => ({ from: `locklab svg, ${at(i)}`, c }))));
        const firstOf = (lists: Collision[][], from: string) => {
          const i = lists.findIndex((cs) => cs.length);
          return i >= 0 ? `${from} ${times[i]} ms: ${describe(lists[i][0])}` : '';
        };
        const firstFig = firstOf(fromApp, 'app') || firstOf(fromCli, 'cli');
        figRows.push([id, times.length * 2, fromApp.flat().length, fromCli.flat().length, firstFig.slice(0, 110)]);
      },
      { exportSvg: figures },
    );
    const kb = (ks: string[]) => found.filter(({ c }) => ks.includes(c.kb)).length;
    rows.push(['total', '', found.length, kb(['bar', 'marker', 'arrow end']), kb(['scroll', 'clip']), `${new Set(found.map(({ c }) => `${c.a}|${c.b}`)).size} distinct pairs`]);
    rows.push(...summary(found));
    table(`Label collisions, ${mode} mode, ${w}×${h}`, rows);
    expect
      .soft(
        found.map(({ id, k, ms, c }) => `${id} at key moment ${k} (${ms} ms): ${describe(c)}`),
        'overlapping labels on screen',
      )
      .toEqual([]);
    if (!figures) return;
    const from = (kind: string) => inFigures.filter((f) => f.from.startsWith(kind)).length;
    figRows.push(['total', '', from('app'), from('locklab'), `${inFigures.length} in both (the kinds and pairs below count both)`]);
    figRows.push(...summary(inFigures).map((r) => [r[0], '', r[2], '', r[5]]));
    const cmd = `locklab svg${lecture ? ' --lecture' : ''}`;
    table(`Label collisions in exported SVG figures, ${mode} (1280 px; the app's Export SVG and ${cmd})`, figRows);
    expect
      .soft(
        inFigures.map(({ from, c }) => `${from}: ${describe(c)}`),
        'overlapping labels in exported figures',
      )
      .toEqual([]);
  });
}
