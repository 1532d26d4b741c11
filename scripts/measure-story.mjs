#!/usr/bin/env node
// Issue 36, item 5: the sizes of a run's story out of the app, for every built-in with fencing
// off and on, as `locklab svg --strip` and `--animated` write them (into target/story/): the
// animated SVG's bytes against its 300 KB budget (a README's image), and the strip's bytes and
// the size its smallest text (the lecture drawing's 14 px) comes out at on a 1920×1080 slide,
// the page scaled to fit (timeline::draw::story::slide_scale). Exits 1 when an animated SVG is
// over budget.
//
//   node scripts/measure-story.mjs [--record]   # --record: docs/measured/story.json
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordMeasured, recording, round } from './bench/measured.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET_KB = 300;
const SLIDE = [1920, 1080];
const SMALLEST_TYPE_PX = 14;

execFileSync('cargo', ['build', '--quiet', '--bin', 'locklab'], { cwd: root, stdio: 'inherit' });
const locklab = (...args) => execFileSync(path.join(root, 'target/debug/locklab'), args, { cwd: root, encoding: 'utf8' });
const ids = locklab('list')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t')[0]);
const out = path.join(root, 'target/story');
mkdirSync(out, { recursive: true });

const kb = (file) => statSync(file).size / 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const animated = {};
const strips = [];
let smallest = { px: Infinity };
for (const id of ids) {
  animated[id] = {};
  for (const fencing of ['off', 'on']) {
    const name = path.join(out, `${id}-fencing-${fencing}`);
    locklab('svg', '--builtin', id, '--fencing', fencing, '--animated', '-o', `${name}-animated.svg`);
    locklab('svg', '--builtin', id, '--fencing', fencing, '--strip', '-o', `${name}-strip.svg`);
    animated[id][fencing] = round(kb(`${name}-animated.svg`), 1);
    strips.push(kb(`${name}-strip.svg`));
    const [, w, h] = /width="([\d.]+)" height="([\d.]+)"/.exec(readFileSync(`${name}-strip.svg`, 'utf8'));
    const px = SMALLEST_TYPE_PX * Math.min(SLIDE[0] / w, SLIDE[1] / h);
    if (px < smallest.px) smallest = { px, id: `${id} fencing ${fencing}`, size: `${w}×${h}` };
  }
}
const all = Object.values(animated).flatMap((v) => [v.off, v.on]);
const worst = Object.entries(animated).flatMap(([id, v]) => [[v.off, `${id} fencing off`], [v.on, `${id} fencing on`]]).sort((a, b) => b[0] - a[0])[0];
const figures = {
  builtins: ids.length,
  runs: all.length,
  animated_kb: { max: round(Math.max(...all), 1), median: round(median(all), 1), budget: BUDGET_KB },
  strip_kb: { max: round(Math.max(...strips), 1), median: round(median(strips), 1) },
  strip_smallest_text_px_on_slide: round(smallest.px, 1),
  animated_kb_by_builtin: animated,
};
console.log(`animated SVG, ${all.length} runs: max ${figures.animated_kb.max} KB (${worst[1]}), median ${figures.animated_kb.median} KB, budget ${BUDGET_KB} KB`);
console.log(`strip: max ${figures.strip_kb.max} KB, median ${figures.strip_kb.median} KB; smallest text on a 1920×1080 slide ${figures.strip_smallest_text_px_on_slide} px (${smallest.id}, ${smallest.size})`);
console.log(`files in ${path.relative(root, out)}/`);
if (recording) recordMeasured('story', figures);
if (Math.max(...all) >= BUDGET_KB) process.exit(1);
