import { defineConfig } from '@playwright/test';

// The suite runs against the release build in dist/ (scripts/test.sh builds it first), served
// on loopback by the repo's own dependency-free static server, in Debian's Chromium
// (/usr/bin/chromium): Playwright's own browser download is not reachable from these machines.
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;
// Another build folder can be tested with LOCKLAB_DIST=/abs/path (default: the repo's dist/).
const dist = process.env.LOCKLAB_DIST ?? '../../dist';
// Two workers on the 2-core machines the suite runs on (E2E_WORKERS to try others; see
// docs/TESTING.md for the measured split). Every spec is independent: servers of their own
// start on free ports, downloads and temporary folders are per test, screenshots are named per
// test, and no spec waits for a time, only for states.
const workers = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  // The native drawing matrix writes the calibration table (target/calibration/) first.
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  // One retry: a test that fails and then passes is reported as "flaky" (scripts/test.sh repeats
  // those lines in its summary, docs/TESTING.md says what to do with them) instead of failing a
  // whole CI run on a 2-core machine that other work is sharing; a test that fails twice fails.
  retries: 1,
  workers,
  fullyParallel: true,
  reporter: [['list']],
  use: {
    baseURL,
    viewport: { width: 1280, height: 720 },
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `node ../../scripts/static-server.mjs ${dist} --host 127.0.0.1 --port ${port}`,
    url: `${baseURL}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'pipe',
  },
});
