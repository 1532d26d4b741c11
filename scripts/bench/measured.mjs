// The one home of measured figures: with --record, a bench script writes what it measured into
// docs/measured/NAME.json (when, on what machine, at which commit, by which command), and the
// docs quote figures only from those files: a figure in a page is a link to its key there, and
// tests/docs_links.rs fails when the page and the file disagree (docs/PERFORMANCE.md, "Where the
// figures come from"). Without --record nothing is written, so a run for a look changes no
// tracked file. Figures are stored as the pages print them (ms whole, KB to 0.1).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Did the person ask for the figures to be recorded? */
export const recording = process.argv.slice(2).includes('--record');

/** The command line without --record, minus node's own path: what to run again. */
const command = () => ['node', path.relative(root, process.argv[1]), ...process.argv.slice(2).filter((a) => a !== '--record')].join(' ');

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** Round to `digits` decimals, as the pages print the figure. */
export const round = (x, digits = 0) => Number(x.toFixed(digits));

/** Writes docs/measured/NAME.json with `figures` (nested objects of numbers). */
export function recordMeasured(name, figures, cmd = command()) {
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  const file = {
    measured_on: new Date().toISOString().slice(0, 10),
    machine: `${os.cpus().length} cores, ${os.type()} ${os.release()}, load average ${os.loadavg()[0].toFixed(1)} at the end`,
    commit: `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (with uncommitted changes)' : ''}`,
    command: cmd,
    figures,
  };
  const out = path.join(root, 'docs/measured', `${name}.json`);
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`recorded ${path.relative(root, out)}: update the figures the docs quote from it, then \`cargo test --test docs_links\``);
}
