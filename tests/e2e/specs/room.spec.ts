import { test, expect, type Browser, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { frames, lessonFile, shot } from './helpers';

// Issue 36 item 4, "A hall that votes" (docs/ROOM.md): `locklab room` serves the release build
// and a room; the stage opened with its presenter key shows the QR code and the short address;
// two phones (360 px, each its own browser context: its own localStorage, so its own voter)
// vote; the stage counts them as hands and its reveal reports the room's answer.

// The CLI the native tests built (scripts/test.sh runs them before this suite).
const BIN = process.env.LOCKLAB_BIN ?? path.resolve(__dirname, '../../../target/debug/locklab');
const DIST = path.resolve(__dirname, '..', process.env.LOCKLAB_DIST ?? '../../dist');

interface Room {
  stage: string;
  voters: string;
  child: ChildProcess;
}

/** `locklab room` on a free loopback port, and the two addresses it prints. */
async function startRoom(): Promise<Room> {
  const child = spawn(BIN, ['room', '--port', '0', '--host', '127.0.0.1', '--dist', DIST]);
  const [stage, voters] = await new Promise<[string, string]>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const stage = /^stage .*: (http\S+)$/m.exec(out);
      const voters = /^voters .*: (http\S+)$/m.exec(out);
      if (stage && voters) resolve([stage[1], voters[1]]);
    });
    child.stderr!.on('data', (d) => (out += String(d)));
    child.on('exit', (code) => reject(new Error(`locklab room exited (${code}): ${out}`)));
  });
  return { stage, voters, child };
}

async function phone(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

/** Why-fencing's step 3: its prompt, choices and answer, as the file holds them. */
function stepThree() {
  const q = (lessonFile('why-fencing') as { steps: { question?: { prompt: string; choices: string[]; answer: number } }[] }).steps[2]
    .question!;
  return { prompt: q.prompt, count: q.choices.length, right: q.answer, wrong: q.answer === 0 ? 1 : 0 };
}

let room: Room;
test.beforeEach(async () => {
  room = await startRoom();
});
test.afterEach(() => {
  room.child.kill('SIGTERM');
});

test("a room: phones vote, the stage counts them as hands, the reveal reports the room's answer", async ({ page, browser }) => {
  const { prompt, count, right, wrong } = stepThree();
  await page.goto(`${room.stage}&lesson=why-fencing&step=3`);
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '3');
  // The stage shows how to join: the server's QR code and the short address.
  await expect(page.getByTestId('room-url')).toHaveText(room.voters);
  const qr = page.getByTestId('room-qr');
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

  const a = await phone(browser, room.voters);
  const b = await phone(browser, room.voters);
  for (const p of [a, b]) {
    await expect(p.getByTestId('voter-prompt')).toHaveText(prompt);
    await expect(p.locator('[data-testid="voter-choice"]')).toHaveCount(count);
  }
  const vote = (p: Page, i: number) => p.locator(`[data-testid="voter-choice"][data-choice="${i}"]`);
  await vote(a, right).click();
  await vote(b, wrong).click();
  await expect(vote(b, wrong)).toHaveAttribute('aria-pressed', 'true');
  await shot(b, 'room-voter-360.png', false);
  // B changes its mind before the reveal: moved, counted once.
  await vote(b, right).click();
  await expect(vote(b, right)).toHaveAttribute('aria-pressed', 'true');
  const choice = (i: number) => page.locator(`[data-testid="lesson-choice"][data-choice="${i}"]`);
  await expect(choice(right)).toHaveAttribute('data-hands', '2');
  await expect(choice(wrong)).toHaveAttribute('data-hands', '0');
  await expect(page.getByTestId('room-join')).toHaveAttribute('data-votes', '2');
  await expect(page.getByTestId('room-join')).toHaveAttribute('data-voters', '2');
  await shot(page, 'room-stage-1280.png', false);
  // Once the room has joined, a click on the address folds the QR code away, and back.
  await page.getByTestId('room-url').click();
  await expect(qr).toBeHidden();
  await page.getByTestId('room-url').click();
  await expect(qr).toBeVisible();

  // A phone that reloads is the same voter: its vote comes back, and still counts once.
  await b.reload();
  await expect(vote(b, right)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('room-join')).toHaveAttribute('data-votes', '2');

  // The reveal: voting closes on the phones, and the stage reports the room's answer as hands.
  await page.getByTestId('speed').selectOption('4');
  await page.getByTestId('lesson-reveal').click();
  await expect(a.getByTestId('voter-status')).toHaveText('Voting closed: the answer is on the screen.');
  await expect(vote(a, wrong)).toBeDisabled();
  await expect(page.getByTestId('lesson-revealed')).toHaveText(`Room: ${right + 1} (2/2 hands), right.`, { timeout: 40_000 });
  // The phones never learn the answer.
  for (const p of [a, b]) await expect(p.locator('[data-right]')).toHaveCount(0);
});

test('without a room the stage shows no QR code, and the hand tally works as before', async ({ page }) => {
  // The same server, opened without the key: no socket, nothing of a room on screen.
  await page.goto(room.stage.replace(/\?room=\w+/, '?lesson=why-fencing&step=3'));
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '3');
  await frames(page, 2);
  await page.keyboard.press('1');
  await expect(page.locator('[data-testid="lesson-choice"][data-choice="0"]')).toHaveAttribute('data-hands', '1');
  await expect(page.getByTestId('room-join')).toHaveCount(0);
});
