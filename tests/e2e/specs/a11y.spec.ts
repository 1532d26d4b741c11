import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { openApp } from './helpers';

// Accessibility checked (issue 11, item 12): axe-core on every view a lecturer or a reader of
// the docs meets, with zero violations. Each failure lists the rule, its impact and the first
// elements it names, so the report says what to fix.

async function expectNoViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const report = violations.map(
    (v) => `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help}\n    ${v.nodes
      .slice(0, 4)
      .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}` : ''}`)
      .join('\n    ')}`,
  );
  expect(report, `axe violations: ${what}`).toEqual([]);
}

const VIEWS: [string, string, (page: Page) => Promise<void>][] = [
  ['the main page at load', '/?scenario=redis-gc-pause', async () => {}],
  // Mid-run: findings and ledger rows still to come are drawn faded.
  ['the main page mid-run', '/?scenario=redis-gc-pause&t=12000', async () => {}],
  ['lecture mode', '/?scenario=redis-gc-pause&t=15505&lecture=1', async () => {}],
  [
    'the help overlay',
    '/?scenario=redis-gc-pause',
    async (page) => {
      await page.keyboard.press('?');
      await expect(page.getByTestId('help')).toBeVisible();
    },
  ],
  [
    'the editor, opened',
    '/?scenario=redis-gc-pause',
    async (page) => {
      await page.getByTestId('scenario-json').locator('summary').click();
      await expect(page.getByTestId('scenario-json-input')).toBeVisible();
    },
  ],
  [
    "a bad link's banner",
    '/?scenario=no-such-scenario&t=abc',
    async (page) => {
      await expect(page.getByRole('alert')).toBeVisible();
    },
  ],
  ['compare mode', '/?scenario=redis-gc-pause&compare=etcd&t=15505', async () => {}],
  ['embed mode', '/?scenario=redis-gc-pause&t=15505&embed=1', async () => {}],
  ['compare mode on the lecture stage', '/?scenario=redlock-clock-jump&compare=etcd&t=2500&lecture=1', async () => {}],
  // A recorded real run beside the simulation (its recorded-on line, the agreement line at the end).
  ['a recorded real run', '/?scenario=etcd-gc-pause&compare=real&t=20000', async (page) => {
    await expect(page.getByTestId('recorded-on')).toBeVisible();
  }],
  // A lesson's question (choices, Reveal) over the stage, then its answer.
  ['a lesson step asking its question', '/?lesson=why-fencing&step=3&lecture=1', async () => {}],
  [
    'a lesson step, answered',
    '/?lesson=why-fencing&step=3&lecture=1',
    async (page) => {
      await page.getByTestId('lesson-choice').first().click();
      // At the fastest speed: the answered step is what axe reads, not the time to it.
      await page.getByTestId('speed').selectOption('4');
      await page.getByTestId('lesson-reveal').click();
      // The reveal plays to the answering moment first.
      await expect(page.getByTestId('lesson-revealed')).toBeVisible({ timeout: 40_000 });
    },
  ],
  ["the lesson's closing table", '/?lesson=why-fencing&step=14&lecture=1', async () => {}],
  // The other themes (issue 35, item 3): lecture mode above is the projector's; these are dark,
  // and the projector's outside a lecture.
  ['the main page mid-run, dark', '/?scenario=redis-gc-pause&t=12000&theme=dark', async () => {}],
  ['the help overlay, dark', '/?scenario=redis-gc-pause&theme=dark', async (page) => {
    await page.keyboard.press('?');
    await expect(page.getByTestId('help')).toBeVisible();
  }],
  ['compare mode, dark', '/?scenario=redis-gc-pause&compare=etcd&t=15505&theme=dark', async () => {}],
  ['embed mode, dark', '/?scenario=redis-gc-pause&t=15505&embed=1&theme=dark', async () => {}],
  ['lecture mode, dark', '/?scenario=redis-gc-pause&t=15505&lecture=1&theme=dark', async () => {}],
  ['a lesson step asking its question, dark', '/?lesson=why-fencing&step=3&lecture=1&theme=dark', async () => {}],
  ['the main page mid-run, projector', '/?scenario=redis-gc-pause&t=12000&theme=projector', async () => {}],
];

for (const [what, url, then] of VIEWS) {
  test(`axe: ${what}`, async ({ page }) => {
    await page.goto(url);
    // A lesson's closing table is a slide: no diagram shows under it.
    await expect(page.locator('[data-testid="diagram"]:visible, [data-testid="lesson-table"]:visible').first()).toBeVisible();
    await then(page);
    await expectNoViolations(page, what);
  });
}

test('axe: the example page with its two embeds', async ({ page }) => {
  await page.goto('/embed-example.html');
  for (let i = 0; i < 2; i++) await expect(page.frameLocator('iframe').nth(i).getByTestId('diagram')).toBeVisible();
  await expectNoViolations(page, 'the example page');
});

test('axe: a phone, 360 px wide', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await openApp(page);
  await expectNoViolations(page, 'a phone');
});
