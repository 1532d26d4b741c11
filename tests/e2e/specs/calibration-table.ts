import { readFileSync } from 'node:fs';
import path from 'node:path';

// The native drawing matrix's table (tests/drawing_matrix.rs, `calibration_table`), written to
// target/calibration/ by the suite's global setup (global-setup.ts) before any spec runs.

/** Where the table is (target/, never a tracked file). */
export const TABLE = path.resolve(process.env.CARGO_TARGET_DIR ?? path.resolve(__dirname, '../../../target'), 'calibration/estimates.json');

export interface Estimate {
  lecture: boolean;
  /** The label's class attribute, as drawn. */
  class: string;
  /** The font size (px) its width was estimated at. */
  font: number;
  text: string;
  /** `Geometry::text_width(text, font)`. */
  estimate: number;
}

export interface Calibration {
  /** `Geometry::smallest_type()`: no text of a drawing is set smaller (its own px). */
  smallest: { normal: number; lecture: number };
  /** The lecture stage's diagram boxes the matrix lays out, per screen. */
  stage: { screen: [number, number]; alone: [number, number]; side: [number, number]; lesson: [number, number] }[];
  labels: Estimate[];
}

let read: Calibration | null = null;

export function calibration(): Calibration {
  read ??= JSON.parse(readFileSync(TABLE, 'utf8')) as Calibration;
  return read;
}
