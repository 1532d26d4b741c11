#!/usr/bin/env node
// Remakes the README's and docs' images, on purpose: the test command never writes them.
// Runs every Playwright spec that saves a picture (the ones calling shot()/shotPath()) against
// the release build in dist/, into a fresh target/gallery/ (LOCKLAB_SHOTS), then copies into
// assets/screenshots/ exactly the images README.md and docs/ show, and deletes the ones no page
// shows any more. tests/gallery.rs holds the same rule (every file under assets/ is shown by a
// page, every image a page shows exists), so a stale or orphaned image fails the native suite.
//
//   node scripts/gallery.mjs          # needs dist/ (scripts/serve.sh or `trunk build --release`)
//
// Commit what it changed only when a change altered what an image shows (README, "Gallery").
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { needDist, root } from './bench/browser-common.mjs';

const GALLERY = 'assets/screenshots';
const out = path.join(root, 'target/gallery');
const specs = path.join(root, 'tests/e2e/specs');

/** Repository-relative paths of the local images a page links or shows (`](…)` or `src="…"`). */
function shownImages() {
  const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => /\.(md|html)$/.test(f)).map((f) => `docs/${f}`)];
  const shown = new Set();
  for (const page of pages) {
    const text = readFileSync(path.join(root, page), 'utf8');
    for (const m of text.matchAll(/(?:\]\(|src=")([^)"\s#?]+\.(?:png|webp|svg|jpe?g|gif))/g)) {
      if (/^[a-z]+:/.test(m[1])) continue;
      shown.add(path.relative(root, path.resolve(root, path.dirname(page), m[1])));
    }
  }
  return [...shown].sort();
}

needDist('gallery');
const shown = shownImages().filter((f) => f.startsWith(`${GALLERY}/`));
const savers = readdirSync(specs)
  .filter((f) => f.endsWith('.spec.ts') && /\bshot(Path)?\(/.test(readFileSync(path.join(specs, f), 'utf8')))
  .map((f) => `specs/${f}`);
rmSync(out, { recursive: true, force: true });
console.log(`gallery: running ${savers.join(' ')} into target/gallery/`);
const run = spawnSync('./node_modules/.bin/playwright', ['test', ...savers], {
  cwd: path.join(root, 'tests/e2e'),
  env: { ...process.env, LOCKLAB_SHOTS: out },
  stdio: 'inherit',
});
if (run.status !== 0) {
  console.error('gallery: the specs failed; assets/screenshots/ is left as it was');
  process.exit(1);
}

const missing = shown.filter((f) => !existsSync(path.join(out, path.relative(GALLERY, f))));
if (missing.length) {
  console.error(`gallery: no spec saved ${missing.join(', ')} (a page shows them; save them with shot()/shotPath())`);
  process.exit(1);
}
let changed = 0;
for (const f of shown) {
  const from = path.join(out, path.relative(GALLERY, f));
  const to = path.join(root, f);
  if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) continue;
  copyFileSync(from, to);
  changed++;
  console.log(`gallery: wrote ${f}`);
}
const orphans = readdirSync(path.join(root, GALLERY))
  .map((f) => `${GALLERY}/${f}`)
  .filter((f) => statSync(path.join(root, f)).isFile() && !shown.includes(f));
for (const f of orphans) {
  rmSync(path.join(root, f));
  console.log(`gallery: deleted ${f} (no page shows it)`);
}
console.log(`gallery: ${shown.length} images shown, ${changed} written, ${orphans.length} deleted; review with \`git diff --stat ${GALLERY}\``);
