import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

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
