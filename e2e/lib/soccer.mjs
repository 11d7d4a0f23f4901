// The Paper Soccer page's test kit, shared by every suite that plays on #/soccer: the board's
// selector, the set-up and start of a game, human steps by preference until the end, the
// result banner, and the tests' own replay of a record (e2e/lib/fake_serial.mjs's rules).

import assert from 'node:assert/strict';

import { pair } from './harness.mjs';
import { DIRS, makeGame } from './fake_serial.mjs';

export const BOARD = '[data-testid="soccer-board"]';

// Human steps: red attacks the bottom goal (4 is south), blue the top one (0 is north).
export const PREFERENCE = {
  red: ['4', '3', '5', '2', '6', '1', '7', '0'],
  blue: ['0', '1', '7', '2', '6', '3', '5', '4'],
};

// Fills the set-up form and presses Start game. Sides (`red`, `blue`: an option value of the
// side selects), engine `level` and time limits are changed only when given: a suite that set
// up its boards already leaves them alone.
export async function start(
  page,
  { width = 8, length = 10, starter = 'red', red, blue, level, redLimit, blueLimit } = {},
) {
  await page.fill('[data-testid="width"]', String(width));
  await page.fill('[data-testid="length"]', String(length));
  await page.selectOption('[data-testid="starter"]', starter);
  for (const [side, kind, limit] of [['red', red, redLimit], ['blue', blue, blueLimit]]) {
    if (kind !== undefined) await page.selectOption(`[data-testid="side-${side}"]`, kind);
    if (kind === 'engine' && level !== undefined) {
      await page.selectOption(`[data-testid="level-${side}"]`, String(level));
    }
    if (limit !== undefined) await page.fill(`[data-testid="limit-${side}"]`, String(limit));
  }
  await page.click('[data-testid="start-game"]');
}

// The board's data attributes (state, legal, toMove, ball, square, origin, field, zoom…).
export const boardState = (page) => page.$eval(BOARD, (c) => ({ ...c.dataset }));

// Waits until the game is over or a human may step; returns the board's state.
export async function nextDecision(page, timeout = 60_000) {
  await page.waitForFunction(
    (s) => ['human', 'over'].includes(document.querySelector(s)?.dataset.state),
    BOARD,
    { timeout },
  );
  return boardState(page);
}

// Plays the human turns until the game ends: the first legal step in the side's preference
// order, by `keys` or by clicks on the points.
export async function playOut(page, how = 'keys', maxSteps = 5000) {
  for (let i = 0; i < maxSteps; i += 1) {
    const state = await nextDecision(page);
    if (state.state === 'over') return;
    const digit = PREFERENCE[state.toMove].find((d) => state.legal.includes(d));
    assert.ok(digit, `no legal step among ${state.legal}`);
    if (how === 'keys') {
      await page.focus(BOARD);
      await page.keyboard.press(digit);
    } else {
      const [bx, by] = pair(state.ball);
      const square = Number(state.square);
      const [dx, dy] = DIRS[Number(digit)];
      const ratio = await page.evaluate(() => window.devicePixelRatio);
      await page.click(BOARD, {
        position: { x: (bx + dx * square) / ratio, y: (by + dy * square) / ratio },
      });
    }
    // The step is taken when the ball has moved.
    await page.waitForFunction(
      ({ s, ball }) => document.querySelector(s).dataset.ball !== ball,
      { s: BOARD, ball: state.ball },
      { timeout: 10_000 },
    );
  }
  throw new Error('the game did not end');
}

// The result banner (waited for) and the record shown, exactly (the record of no turn ends
// with a space).
export async function resultOf(page, timeout = 60_000) {
  const result = await page.waitForSelector('[data-testid="result"]', { timeout });
  return {
    winner: await result.getAttribute('data-winner'),
    reason: await result.getAttribute('data-reason'),
    record: await page.textContent('[data-testid="record"]'),
  };
}

// Replays a record with the tests' own rules: every turn but the last complete and legal; the
// last one's effect is returned ('goal-red', 'goal-blue', 'over', 'bounce', 'illegal').
export function replay(record) {
  const [, w, l, starter, body] = /^(\d+)x(\d+) (red|blue): ?([0-7/]*)$/.exec(record);
  const game = makeGame(Number(w), Number(l));
  const turns = body ? body.split('/') : [];
  let last = null;
  turns.forEach((turn, i) => {
    last = game.turn(turn);
    if (i < turns.length - 1) assert.equal(last, 'over', `turn ${i + 1} (${turn}) of ${record}`);
  });
  return { starter, turns, last };
}

// Nothing on the page is wider than the window: no horizontal scrolling (a phone's check).
export async function assertNoHorizontalOverflow(page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  assert.ok(scroll <= width, `the page is ${scroll} px wide in a ${width} px window`);
}
