import { execFileSync } from 'node:child_process';
import path from 'node:path';

// Once before any spec: the native drawing matrix writes its calibration table (the estimates
// calibration.spec.ts holds against the browser, the stage boxes walk.spec.ts checks) to
// target/calibration/. A few seconds when the native tests were built already.
export default function globalSetup() {
  const root = path.resolve(__dirname, '../..');
  execFileSync('cargo', ['test', '--quiet', '--test', 'drawing_matrix', '--', '--exact', 'calibration_table'], { cwd: root, stdio: 'inherit' });
}
