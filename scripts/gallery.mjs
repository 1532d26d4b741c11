#!/usr/bin/env node
// Takes the README's and docs' images again, on purpose: the test command never does. Runs every
// Playwright spec that saves a picture (the ones calling shot()/shotPath()) against the release
// build in dist/, into a fresh target/gallery/ (LOCKLAB_SHOTS), then compares them with the
// images README.md and docs/ show. It never rewrites or deletes a tracked image (issue 34: the
// gallery must not grow history by itself): it copies an image into assets/screenshots/ only when
// a page shows it and the file is missing, and lists the rest for a person to decide, each with
// the command that does it. tests/gallery.rs holds the rule (every file under assets/ is shown by
// a page, every image a page shows exists), so a stale or orphaned image fails the native suite.
//
//   node scripts/gallery.mjs          # needs dist/ (scripts/serve.sh or `trunk build --release`)
//
// docs/APP.md, "The pictures on these pages", says when to replace one.
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
let added = 0;
const differ = [];
for (const f of shown) {
  const from = path.join(out, path.relative(GALLERY, f));
  const to = path.join(root, f);
  if (!existsSync(to)) {
    copyFileSync(from, to);
    added++;
    console.log(`gallery: added ${f} (a page shows it; it was missing)`);
  } else if (!readFileSync(to).equals(readFileSync(from))) {
    differ.push(`cp ${path.relative(root, from)} ${f}`);
  }
}
const orphans = readdirSync(path.join(root, GALLERY))
  .map((f) => `${GALLERY}/${f}`)
  .filter((f) => statSync(path.join(root, f)).isFile() && !shown.includes(f));
if (differ.length) {
  console.log(`gallery: ${differ.length} shown images differ from this run (screenshots are not byte-stable; replace one only if its change is meant):`);
  for (const c of differ) console.log(`  ${c}`);
}
for (const f of orphans) console.log(`gallery: no page shows ${f}: git rm ${f}`);
console.log(`gallery: ${shown.length} images shown, ${added} added, ${differ.length} differ, ${orphans.length} shown by no page; nothing tracked was rewritten`);
