import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { shot } from './helpers';

// Issue 22 item 8: the course. `?lesson=` with no id, and the header's Lesson button, list the
// built-in lessons in course order with their length; choosing one opens it at step 1. Then
// in-the-wild (the second course's first, with the closing table the docs show) is walked with the
// clicker's keys in lecture mode at 1280×720, each question revealed, and each step
// photographed into target/screenshots/. Every lesson step's drawing is checked natively at
// its moments (tests/drawing_matrix.rs); lesson.spec.ts walks why-fencing.

const COURSE = ['leases', 'why-fencing', 'redlock', 'consensus-locks', 'clocks', 'in-the-wild', 'is-redlock-safe'];
const WALKED = ['in-the-wild'];

const index = (page: Page) => page.getByTestId('lesson-index');
const entries = (page: Page) => page.getByTestId('lesson-entry');
const lesson = (page: Page) => page.getByTestId('lesson');

/** The index's lines as [id, "N steps · Q questions · M min"]. */
async function lines(page: Page): Promise<[string, string][]> {
  return entries(page).evaluateAll((els) =>
    els.map((e) => [e.getAttribute('data-lesson') ?? '', e.querySelector('.lesson-entry-length')?.textContent ?? ''] as [string, string]),
  );
}

test('?lesson= with no id lists the course in order, with each length', async ({ page }) => {
  await page.goto('/?lesson=&lecture=1');
  await expect(index(page)).toBeVisible();
  await expect(page.getByTestId('lesson-error')).toHaveCount(0);
  const got = await lines(page);
  expect(got.map(([id]) => id)).toEqual(COURSE);
  for (const [id, length] of got) {
    expect(length, id).toMatch(/^\d+ steps · \d+ questions · \d+ min$/);
  }
  // Lecture type: the room reads it at 720p.
  const px = (sel: string) => page.locator(sel).first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(await px('#lesson-index-title')).toBeGreaterThanOrEqual(28);
  expect(await px('.lesson-entry-title')).toBeGreaterThanOrEqual(24);
  const box = await page.locator('.lesson-index').boundingBox();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(720);
  await shot(page, 'lesson-index-1280.png', false);
  // The number of steps the index gives is the number the lesson has.
  const [id, length] = got[2];
  await entries(page).nth(2).click();
  await expect(index(page)).toHaveCount(0);
  await expect(lesson(page)).toHaveAttribute('data-lesson', id);
  await expect(lesson(page)).toHaveAttribute('data-step', '1');
  await expect(page.locator('.lesson-count')).toHaveText(`Step 1 of ${length.split(' ')[0]}`);
  await expect.poll(() => new URL(page.url()).search).toContain(`lesson=${id}&step=1`);
});

test('the Lesson button opens the index; Escape and Close leave it', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('diagram')).toBeVisible();
  await expect(index(page)).toHaveCount(0);
  await page.getByTestId('lesson-start').click();
  await expect(index(page)).toBeVisible();
  // The lessons come after the app answers (src/ui/library.rs): the list fills in when they
  // arrive (read at once, it once held only the loading line).
  await expect.poll(async () => (await lines(page)).map(([id]) => id)).toEqual(COURSE);
  await expect(entries(page).first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(index(page)).toHaveCount(0);
  await expect(lesson(page)).toHaveCount(0);
  await page.getByTestId('lesson-start').click();
  await page.getByTestId('lesson-index-close').click();
  await expect(index(page)).toHaveCount(0);
  // Enter on a lesson opens it at step 1, in lecture mode (where the header's lesson buttons
  // give way to the stage).
  await page.getByTestId('lesson-start').click();
  await page.locator('[data-testid="lesson-entry"][data-lesson="clocks"]').focus();
  await page.keyboard.press('Enter');
  await expect(lesson(page)).toHaveAttribute('data-lesson', 'clocks');
  await expect(lesson(page)).toHaveAttribute('data-step', '1');
  await expect(page.locator('.app')).toHaveClass(/lecture/);
  await expect.poll(() => new URL(page.url()).search).toBe('?lesson=clocks&step=1');
});

test('a wrong id names the lessons there are', async ({ page }) => {
  await page.goto('/?lesson=lunch');
  await expect(page.getByTestId('lesson-error')).toContainText('"leases", "why-fencing", "redlock", "consensus-locks", "clocks", "in-the-wild", "is-redlock-safe"');
});

for (const id of WALKED) {
  test(`walk every step of ${id} with the clicker keys, lecture mode at 1280×720`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.goto(`/?lesson=${id}&step=1&lecture=1`);
    await expect(lesson(page)).toHaveAttribute('data-lesson', id);
    await page.getByTestId('speed').selectOption('4');
    const n = Number((await page.locator('.lesson-count').textContent())!.match(/of (\d+)/)![1]);
    expect(n).toBeGreaterThanOrEqual(8);
    let questions = 0;
    for (let step = 1; step <= n; step++) {
      await expect(lesson(page)).toHaveAttribute('data-step', String(step));
      await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
      await shot(page, `lesson-${id}-${String(step).padStart(2, '0')}.png`, false);
      if (await page.getByTestId('lesson-reveal').count()) {
        questions++;
        // → reveals first; the room's pick is key 1 here, whatever it is.
        await page.keyboard.press('1');
        await page.keyboard.press('ArrowRight');
        await expect(page.getByTestId('lesson-revealed')).toBeVisible({ timeout: 60_000 });
        await shot(page, `lesson-${id}-${String(step).padStart(2, '0')}-revealed.png`, false);
      }
      if (step < n) {
        await page.keyboard.press('ArrowRight');
      }
    }
    expect(questions).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId('lesson-table')).toBeVisible();
  });
}

test('the index fits a phone, a projector and a big screen', async ({ page }) => {
  for (const [w, h, lecture] of [[360, 740, false], [1280, 720, false], [1920, 1080, true], [1920, 1080, false]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`/?lesson=${lecture ? '&lecture=1' : ''}`);
    await expect(entries(page)).toHaveCount(COURSE.length);
    const sheet = (await page.locator('.lesson-index').boundingBox())!;
    expect(sheet.x).toBeGreaterThanOrEqual(0);
    expect(sheet.x + sheet.width).toBeLessThanOrEqual(w);
    // Every line whole: no title or length cut off inside its button.
    const cut = await entries(page).evaluateAll((els) =>
      els.filter((e) => [...e.children].some((c) => (c as HTMLElement).scrollWidth > (c as HTMLElement).clientWidth + 1)).length,
    );
    expect(cut, `${w}×${h}`).toBe(0);
    if (lecture) {
      expect(await page.locator('.lesson-entry-title').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(36);
    }
    await shot(page, `lesson-index-${w}${lecture ? '-lecture' : ''}.png`, false);
  }
});

test('the index has no accessibility violations (axe-core), in normal and lecture mode', async ({ page }) => {
  for (const url of ['/?lesson=', '/?lesson=&lecture=1']) {
    await page.goto(url);
    await expect(entries(page)).toHaveCount(COURSE.length);
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="lesson-index"]').analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), url).toEqual([]);
  }
});
