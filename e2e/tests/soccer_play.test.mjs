// Playing Paper Soccer in the browser: whole games by keyboard and by clicks, hot-seat and
// against the engine, on the classic field and on odd shapes. Every finished game's record is
// judged by the engine's own judge (`quadrille soccer judge`) and must agree with the banner.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, test } from 'node:test';

import { pair, sharedBrowser, visit } from '../lib/harness.mjs';
import { findQuadrille } from '../lib/quadrille.mjs';
import { BOARD, nextDecision, playOut, resultOf, start } from '../lib/soccer.mjs';

// The judge, `quadrille`.
let quadrille;

function judge(record) {
  return JSON.parse(execFileSync(quadrille, ['soccer', 'judge', record], { encoding: 'utf8' }));
}

before(() => {
  quadrille = findQuadrille({ release: true });
}, { timeout: 900_000 });
const browser = sharedBrowser();

async function setUp(page, game) {
  await visit(page, '#/soccer');
  await start(page, game);
}

// The record shown is exactly the game's, and the engine's judge agrees with the banner.
function checkWithTheJudge({ winner, reason, record }, { width, length, starter }) {
  assert.match(record, new RegExp(`^${width}x${length} ${starter}: [0-7]+(/[0-7]+)*$`));
  const verdict = judge(record);
  assert.equal(verdict.over, true, record);
  assert.equal(verdict.winner, winner, record);
  assert.equal(verdict.reason, reason, record);
}

const GAMES = [
  { name: 'keyboard against the engine on 8x10', width: 8, length: 10, starter: 'red', red: 'human', blue: 'engine', how: 'keys' },
  { name: 'clicks, hot-seat, on 8x10', width: 8, length: 10, starter: 'blue', red: 'human', blue: 'human', how: 'clicks' },
  { name: 'keyboard, hot-seat, on 2x2', width: 2, length: 2, starter: 'blue', red: 'human', blue: 'human', how: 'keys' },
  { name: 'clicks against the engine on 254x2', width: 254, length: 2, starter: 'blue', red: 'human', blue: 'engine', how: 'clicks' },
  { name: 'keyboard against the engine on 30x40', width: 30, length: 40, starter: 'red', red: 'engine', blue: 'human', how: 'keys' },
  { name: 'clicks against the engine on 30x40', width: 30, length: 40, starter: 'blue', red: 'human', blue: 'engine', how: 'clicks', level: 0 },
];

for (const game of GAMES) {
  test(`a whole game: ${game.name}`, { timeout: 300_000 }, () =>
    browser.withPage(async (page) => {
      // The engine keeps the referee's default of 1000 ms per turn on the classic field; on the
      // others it gets more, so a loaded test machine cannot decide the game on time.
      const limit = game.width === 8 ? undefined : 10_000;
      await setUp(page, {
        ...game,
        blueLimit: game.blue === 'engine' ? limit : undefined,
        redLimit: game.red === 'engine' ? limit : undefined,
      });
      // Before the first turn the record is the engine's form of a game without turns.
      await page.waitForSelector('[data-testid="record"]');
      await playOut(page, game.how);
      checkWithTheJudge(await resultOf(page), game);
    }));
}

test('the engine against itself, animated, ends with a verdict the judge confirms', { timeout: 300_000 }, () =>
  browser.withPage(async (page) => {
    const game = { width: 8, length: 10, starter: 'red', red: 'engine', blue: 'engine', level: 2 };
    await setUp(page, game);
    const seen = new Set();
    while (!(await page.$('[data-testid="result"]'))) {
      seen.add(await page.$eval(BOARD, (c) => c.dataset.state));
      await page.waitForTimeout(20);
    }
    assert.ok(seen.has('animating'), `states seen: ${[...seen]}`);
    checkWithTheJudge(await resultOf(page), game);
  }));

test('an empty game shows the engine\'s record of no turn; Backspace takes back a bounce step', { timeout: 60_000 }, () =>
  browser.withPage(async (page) => {
    await setUp(page, { width: 8, length: 10, starter: 'red', red: 'human', blue: 'human' });
    assert.equal(await page.textContent('[data-testid="record"]'), '8x10 red: ');
    const start = await nextDecision(page);
    assert.equal(start.legal, '013457', 'east and west run along the centre line');
    // 3 (fresh point) ends red's turn; blue's 0 lands on the centre line and must go on.
    await page.focus(BOARD);
    await page.keyboard.press('3');
    await page.waitForFunction((s) => document.querySelector(s).dataset.toMove === 'blue', BOARD);
    assert.equal(await page.textContent('[data-testid="record"]'), '8x10 red: 3');
    const before = await nextDecision(page);
    await page.keyboard.press('0');
    await page.waitForFunction(({ s, b }) => document.querySelector(s).dataset.ball !== b, { s: BOARD, b: before.ball });
    const bounced = await nextDecision(page);
    assert.equal(bounced.toMove, 'blue', 'a bounce: blue steps again');
    assert.ok(!bounced.legal.includes('4'), 'the line just drawn cannot be used again');
    assert.equal(await page.textContent('[data-testid="record"]'), '8x10 red: 3', 'unfinished turns are not recorded');
    await page.keyboard.press('Backspace');
    await page.waitForFunction(({ s, b }) => document.querySelector(s).dataset.ball === b, { s: BOARD, b: before.ball });
    assert.equal((await nextDecision(page)).legal, before.legal);
    // A numeric keypad key steps by its position: 2 is south.
    await page.keyboard.press('Numpad2');
    await page.waitForFunction((s) => document.querySelector(s).dataset.toMove === 'red', BOARD);
    assert.equal(await page.textContent('[data-testid="record"]'), '8x10 red: 3/4');
    assert.equal(await page.$('[data-testid="result"]'), null);
  }));

test('a human on a clock who runs out of time loses with timeout', { timeout: 60_000 }, () =>
  browser.withPage(async (page) => {
    await setUp(page, { width: 8, length: 10, starter: 'red', red: 'human', blue: 'human', redLimit: 400 });
    const { winner, reason, record } = await resultOf(page);
    assert.deepEqual([winner, reason, record], ['blue', 'timeout', '8x10 red: ']);
    // The moves cannot show a timeout: the judge sees an unfinished game with red to move.
    const verdict = judge(`${record}# blue timeout`);
    assert.equal(verdict.over, false);
    assert.equal(verdict.to_move, 'red');
  }));

test('a pasted record is replayed to its final position, scrubbed and continued', { timeout: 120_000 }, () =>
  browser.withPage({ route: '#/soccer' }, async (page) => {
    // A bad record is refused with the place of the problem.
    await page.fill('[data-testid="record-input"]', '8x10 red: 3/9');
    await page.click('[data-testid="load-record"]');
    assert.match(await page.textContent('[data-testid="record-error"]'), /column 13/);

    // 2x2, blue starts: 7 bounces at (0,0), 1 scores in red's goal: blue wins.
    await page.fill('[data-testid="record-input"]', '2x2 blue: 71');
    await page.click('[data-testid="load-record"]');
    const result = await resultOf(page);
    assert.deepEqual([result.winner, result.reason, result.record], ['blue', 'goal', '2x2 blue: 71']);
    const state = await page.$eval(BOARD, (c) => ({ ...c.dataset }));
    assert.equal(state.field, '2x2');
    // The engine's bar beside the field shows the result: Blue has won.
    assert.equal(await page.getAttribute('[data-testid="win-bar"]', 'data-red'), '0.000');

    // A longer one, found by the judge to be unfinished, with the ball where the moves put it.
    const record = '8x10 red: 3/3/3';
    await page.fill('[data-testid="record-input"]', record);
    await page.click('[data-testid="load-record"]');
    await page.waitForFunction((r) => document.querySelector('[data-testid="record"]')?.textContent === r, record);
    assert.equal(await page.$('[data-testid="result"]'), null);
    const loaded = await page.$eval(BOARD, (c) => ({ ...c.dataset }));
    const [x0, y0] = pair(loaded.origin);
    const square = Number(loaded.square);
    const ball = judge(record).ball;
    assert.deepEqual(pair(loaded.ball), [x0 + ball[0] * square, y0 + ball[1] * square]);

    // Back to the kick-off with the scrubber, then continue from there with two humans.
    await page.click('[data-testid="history-first"]');
    await page.waitForFunction(
      ({ s, b }) => document.querySelector(s).dataset.ball !== b,
      { s: BOARD, b: loaded.ball },
    );
    assert.equal(await page.textContent('[data-testid="history-turn"]'), 'turn 0/3');
    await page.click('[data-testid="history-forward"]');
    assert.equal(await page.textContent('[data-testid="history-turn"]'), 'turn 1/3');
    await page.selectOption('[data-testid="side-red"]', 'human');
    await page.selectOption('[data-testid="side-blue"]', 'human');
    await page.click('[data-testid="continue"]');
    const state1 = await nextDecision(page);
    assert.equal(state1.toMove, 'blue');
    assert.equal(await page.textContent('[data-testid="record"]'), '8x10 red: 3');

    // The engine suggests a legal turn on demand.
    await page.click('[data-testid="suggest"]');
    await page.waitForSelector('[data-testid="suggestion"]:has-text("suggests")', { timeout: 30_000 });
    const text = await page.textContent('[data-testid="suggestion"]');
    const digits = text.match(/suggests ([0-7]+)/)[1];
    const verdict = judge(`8x10 red: 3/${digits}`);
    assert.ok(!verdict.over || verdict.winner === 'blue', `${digits}: ${JSON.stringify(verdict)}`);
    // In an open position the bar gives both sides a chance, and it says so in words.
    const red = Number(await page.getAttribute('[data-testid="win-bar"]', 'data-red'));
    assert.ok(red > 0 && red < 1, `red's chance ${red}`);
    const percent = Math.round(red * 100);
    assert.equal(await page.textContent('[data-testid="win-bar"] .win-bar-red'), `Red ${percent} %`);
    assert.equal(await page.textContent('[data-testid="win-bar"] .win-bar-blue'), `Blue ${100 - percent} %`);
    // The level menu says what each level does.
    await page.selectOption('[data-testid="side-red"]', 'engine');
    assert.equal(
      await page.textContent('[data-testid="level-red"] option[value="6"]'),
      '6 · 650 ms a turn (strongest)',
    );
  }));

test('a field too big to play at its fitted size is zoomed, and the ball stays in sight', { timeout: 120_000 }, () =>
  browser.withPage(async (page) => {
    await setUp(page, { width: 254, length: 254, starter: 'red', red: 'human', blue: 'human' });
    const fitted = await nextDecision(page);
    const square = Number(fitted.square);
    for (let i = 0; i < 3; i += 1) await page.click('[data-testid="zoom-in"]');
    await page.waitForFunction(
      ({ s, sq }) => Number(document.querySelector(s).dataset.square) >= 2 * sq,
      { s: BOARD, sq: square },
    );
    const view = () =>
      page.evaluate((s) => {
        const canvas = document.querySelector(s);
        const ratio = window.devicePixelRatio;
        const [bx, by] = canvas.dataset.ball.split(',').map(Number);
        const [x0] = canvas.dataset.origin.split(',').map(Number);
        const width = Number(canvas.dataset.field.split('x')[0]) * Number(canvas.dataset.square);
        return {
          crisp: canvas.width === Math.round(canvas.clientWidth * ratio),
          zoomed: x0 < 0 || x0 + width > canvas.width,
          ball: [bx / ratio, by / ratio],
          size: [canvas.clientWidth, canvas.clientHeight],
        };
      }, BOARD);
    const inSight = ({ ball, size }) =>
      ball[0] > 0 && ball[0] < size[0] && ball[1] > 0 && ball[1] < size[1];
    let v = await view();
    assert.ok(v.crisp && v.zoomed, JSON.stringify(v));
    assert.ok(inSight(v), `the ball at ${v.ball} is out of the ${v.size} window`);
    // Steps still work, and the view follows the ball down the field.
    await page.focus(BOARD);
    for (const key of ['3', '4', '4', '4']) {
      const before = await nextDecision(page);
      await page.keyboard.press(key);
      await page.waitForFunction(({ s, b }) => document.querySelector(s).dataset.ball !== b, { s: BOARD, b: before.ball });
    }
    assert.equal(await page.textContent('[data-testid="record"]'), '254x254 red: 3/4/4/4');
    v = await view();
    assert.ok(inSight(v), `the ball at ${v.ball} is out of the ${v.size} window`);
    await page.click('[data-testid="zoom-fit"]');
    await page.waitForFunction(({ s, sq }) => Number(document.querySelector(s).dataset.square) === sq, { s: BOARD, sq: square });
  }));

test('keys typed in one go are played in order; the board has the focus once the game starts', { timeout: 60_000 }, () =>
  browser.withPage(async (page) => {
    await setUp(page, { width: 2, length: 2, starter: 'red', red: 'human', blue: 'human' });
    await nextDecision(page);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'soccer-board');
    // (1,1) -3-> (2,2), a corner: bounce; -5-> (1,3), blue's goal. The 7 after it is ignored.
    await page.keyboard.type('357');
    const { winner, reason, record } = await resultOf(page);
    assert.deepEqual([winner, reason, record], ['red', 'goal', '2x2 red: 35']);
  }));

test('a finished game is copied and downloaded with its verdict, and the file opens again', { timeout: 60_000 }, () =>
  browser.withPage(async (page) => {
    await setUp(page, { width: 2, length: 2, starter: 'red', red: 'human', blue: 'human' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await nextDecision(page);
    await page.keyboard.type('35');
    assert.deepEqual(Object.values(await resultOf(page)), ['red', 'goal', '2x2 red: 35']);

    // Both carry the referee's verdict after the moves (spec §5).
    await page.click('[data-testid="copy-record"]');
    await page.waitForFunction(async () => (await navigator.clipboard.readText()) !== '');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), '2x2 red: 35 # red goal');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid="download-record"]'),
    ]);
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(await download.path(), 'utf8');
    assert.equal(text.trimEnd(), '2x2 red: 35 # red goal');
    assert.equal(judge(text.trimEnd()).winner, 'red');

    // A different game, then the downloaded file opened: its final position and verdict.
    await page.fill('[data-testid="record-input"]', '8x10 red: 3');
    await page.click('[data-testid="load-record"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="record"]')?.textContent === '8x10 red: 3');
    await page.setInputFiles('[data-testid="record-file"]', await download.path());
    await page.waitForFunction(() => document.querySelector('[data-testid="record"]')?.textContent === '2x2 red: 35');
    const result = await resultOf(page);
    assert.deepEqual([result.winner, result.reason], ['red', 'goal']);
    assert.equal(await page.getAttribute(BOARD, 'data-field'), '2x2');
  }));
