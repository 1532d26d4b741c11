import { test, expect } from '@playwright/test';
import { chooseScenario, openApp, scrubTo, toEnd } from './helpers';

// No spoilers in the diagram (issue 11, item 4): what has not happened yet cannot be read. The
// future's shapes show faintly under the veil; its words are not shown until the cursor
// reaches them (labels later in the run are not rendered, and a key moment's marker names its
// moment only once it is reached). Tooltips of the veiled drawing cannot be hovered: the live
// layer is over it.
test('the diagram writes no word of the future: the stale write is unreadable before it happens', async ({ page }) => {
  await openApp(page);
  await chooseScenario(page, 'redis-gc-pause');
  const figure = page.locator('figure.diagram-wrap');
  const markers = page.getByTestId('diagram').locator('.key title');
  const visible = { useInnerText: true };
  await scrubTo(page, 2000);
  for (const word of ['STALE', 'B takes over', 'TTL expired', 'token 2']) {
    await expect(figure).not.toContainText(word, visible);
    expect((await markers.allTextContents()).join(' | ')).not.toContain(word);
  }
  // The words appear once the cursor passes their moment.
  await toEnd(page);
  await expect(figure).toContainText('STALE', visible);
  await expect(figure).toContainText('TTL expired', visible);
  expect((await markers.allTextContents()).join(' | ')).toContain('STALE');
  await scrubTo(page, 2000);
  await expect(figure).not.toContainText('STALE', visible);
});
