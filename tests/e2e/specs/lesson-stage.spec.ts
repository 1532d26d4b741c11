import { test, expect, type Page } from '@playwright/test';
import { collisions, install, layout, LESSONS, settle, table } from './stage-measure';

// Issue 22, item 1: a lesson read from the back row. Every step of every built-in lesson, at
// 1280×720 and 1920×1080, before and after its reveal: the step's words and choices, its title,
// the caption and the diagram's type are measured as rendered (computed font size; the diagram's
// times its on-screen scale), nothing is cut or scrolled, and a table or a step of words is a
// slide (no diagram under it).

test.use({ trace: 'off' });

interface Floors {
  w: number;
  h: number;
  text: number;
  title: number;
  caption: number;
  label: number;
}
const SIZES: Floors[] = [
  { w: 1280, h: 720, text: 24, title: 28, caption: 28, label: 18 },
  { w: 1920, h: 1080, text: 36, title: 40, caption: 42, label: 27 },
];

interface Words {
  text: number;
  textWhat: string;
  title: number;
  /** Whether the step's panel holds its words (nothing cut, nothing scrolled). */
  fits: string | null;
  /** Whether the stage (panel, diagram, caption, transport) is on the screen whole. */
  stageFits: string | null;
  diagram: boolean;
}

/** The step's words as rendered. */
function words(page: Page): Promise<Words> {
  return page.evaluate(() => {
    const shown = (e: Element) => e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const all = (sel: string) => [...document.querySelectorAll(sel)].filter(shown);
    let text = Infinity;
    let textWhat = '';
    for (const el of all('.lesson-text, .lesson-prompt, .lesson-choice, .lesson-verdict, .lesson-table td, .lesson-table th')) {
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < text) [text, textWhat] = [px, `${el.className}: ${(el.textContent ?? '').slice(0, 40)}`];
    }
    const title = document.querySelector('.lesson-step-title');
    const lesson = document.querySelector('.lesson') as HTMLElement;
    const stage = document.querySelector('.stage') as HTMLElement;
    const r = lesson.getBoundingClientRect();
    const cut = lesson.scrollHeight > lesson.clientHeight + 1 ? `the step's words need ${lesson.scrollHeight} px of ${lesson.clientHeight}` : null;
    const off = r.bottom > innerHeight + 0.5 ? `the step's panel ends at ${Math.round(r.bottom)} px` : null;
    const bottoms = [...stage.children].filter(shown).map((c) => c.getBoundingClientRect().bottom);
    const low = Math.max(...bottoms);
    return {
      text: Math.round(text * 10) / 10,
      textWhat,
      title: title ? parseFloat(getComputedStyle(title).fontSize) : 0,
      fits: cut ?? off,
      stageFits: stage.scrollHeight > stage.clientHeight + 1 || low > innerHeight + 0.5 ? `the stage needs ${Math.round(low)} px of ${innerHeight}` : null,
      diagram: all('.stage > .diagram-wrap, .stage > .compare').length > 0,
    };
  });
}

async function openStep(page: Page, id: string, n: number) {
  await page.goto(`/?lesson=${id}&step=${n}`);
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', String(n));
  await expect.poll(() => new URL(page.url()).search).toContain(`step=${n}`);
  await settle(page);
}

for (const size of SIZES) {
  test(`every lesson step at ${size.w}×${size.h}: read from the back row, whole, no scrolling`, async ({ page }) => {
    test.setTimeout(240_000);
    // The reveal lands at once (no playing through the dwell of each key moment).
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: size.w, height: size.h });
    await install(page);
    const bad: string[] = [];
    const rows: (string | number)[][] = [['lesson', 'step', 'when', 'text px', 'title px', 'caption px', 'label px', 'smallest text']];
    for (const lesson of LESSONS) {
      for (const [i, step] of lesson.steps.entries()) {
        await openStep(page, lesson.id, i + 1);
        const slide = !!step.slide || (step.table ?? []).length > 0;
        const phases = step.question ? ['asking', 'revealed'] : ['shown'];
        for (const when of phases) {
          if (when === 'revealed') {
            // The room's longest verdict: a majority of two-digit hands, and wrong or right.
            for (let k = 0; k < 12; k++) await page.keyboard.press('1');
            for (let k = 0; k < 11; k++) await page.keyboard.press('2');
            await page.getByTestId('lesson-reveal').click();
            await expect(page.getByTestId('lesson-revealed')).toBeVisible();
            await settle(page);
          }
          const at = `${lesson.id} step ${i + 1} (${when})`;
          const w = await words(page);
          const check = (ok: boolean, what: string) => ok || bad.push(`${at}: ${what}`);
          check(w.text >= size.text, `text ${w.text} px (${w.textWhat})`);
          check(w.title >= size.title, `step title ${w.title} px`);
          check(w.fits === null, w.fits ?? '');
          check(w.stageFits === null, w.stageFits ?? '');
          check(w.diagram === !slide, slide ? 'a slide with a diagram under it' : 'no diagram');
          let caption: number | string = '–';
          let label: number | string = '–';
          let smallest = w.textWhat;
          if (!slide) {
            const l = await layout(page);
            caption = l.captionPx;
            label = l.labelMin;
            smallest = l.labelMinText;
            check(l.captionPx >= size.caption, `caption ${l.captionPx} px`);
            check(l.captionFits, 'the caption does not fit its box');
            check(l.labelMin >= size.label, `diagram text ${l.labelMin} px (${l.labelMinText})`);
            check(l.transportBottom <= size.h, `transport bottom ${Math.round(l.transportBottom)}`);
            // The lesson's narrower diagram keeps every label whole and clear of the others.
            for (const c of await collisions(page)) bad.push(`${at}: ${c.a} over ${c.b} (${c.w}×${c.h} px)`);
          }
          rows.push([lesson.id, i + 1, when, w.text, w.title, caption, label, smallest.slice(0, 50)]);
        }
      }
    }
    table(`Lessons at ${size.w}×${size.h}`, rows);
    expect(bad, 'out of budget').toEqual([]);
  });
}
