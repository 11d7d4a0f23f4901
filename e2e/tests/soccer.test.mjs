// The Paper Soccer field is really drawn: checked pixel by pixel against the spec's geometry.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { pair, pixel, rgba, sharedBrowser } from '../lib/harness.mjs';

// The colours app/src/draw/soccer.rs paints with.
const BALL = rgba('#f59e0b');
const BORDER = rgba('#1e293b');
const GRID = rgba('#d8e0ec');
const PAPER = rgba('#fdfcf7');
const CANVAS = 'canvas[data-testid="soccer-board"]';

const browser = sharedBrowser();

async function layout(page) {
  const read = (name) => page.getAttribute(CANVAS, `data-${name}`);
  const [x0, y0] = pair(await read('origin'));
  const square = Number(await read('square'));
  const [bx, by] = pair(await read('ball'));
  const [w, l] = (await read('field')).split('x').map(Number);
  // The buffer pixel covering field point (x, y), nudged by (dx, dy) squares.
  const at = (x, y, dx = 0, dy = 0) => [x0 + (x + dx) * square, y0 + (y + dy) * square];
  return { w, l, square, ball: [bx, by], at };
}

async function checkField(page, expectedW, expectedL) {
  const { w, l, square, ball, at } = await layout(page);
  assert.deepEqual([w, l], [expectedW, expectedL]);
  assert.ok(square >= 4, `squares of ${square} px are too small to check`);
  const m = w / 2;
  const px = (p) => pixel(page, CANVAS, p[0], p[1]);

  // The ball is on the centre point, which is the centre of the canvas.
  assert.deepEqual(ball, at(m, l / 2));
  const size = await page.evaluate((s) => {
    const c = document.querySelector(s);
    return [c.width, c.height];
  }, CANVAS);
  assert.ok(Math.abs(ball[0] - size[0] / 2) <= 1 && Math.abs(ball[1] - size[1] / 2) <= 1);
  assert.deepEqual(await px(ball), BALL, 'ball at the centre point');

  // Side lines and end lines are drawn; so is the centre line.
  assert.deepEqual(await px(at(0, 0, 0, 0.5)), BORDER, 'left side line');
  assert.deepEqual(await px(at(w, l - 1, 0, 0.5)), BORDER, 'right side line');
  if (m > 1) {
    // (On a field 2 wide the whole end line is the goal mouth.)
    assert.deepEqual(await px(at(0, 0, 0.5, 0)), BORDER, 'top end line');
    assert.deepEqual(await px(at(0, l, 0.5, 0)), BORDER, 'bottom end line');
  }
  assert.deepEqual(await px(at(0, l / 2, 0.5, 0)), BORDER, 'centre line');

  // The goal mouths are open (only the faint grid), the goal boxes closed.
  assert.deepEqual(await px(at(m - 1, 0, 0.5, 0)), GRID, 'top goal mouth');
  assert.deepEqual(await px(at(m, l, 0.5, 0)), GRID, 'bottom goal mouth');
  assert.deepEqual(await px(at(m - 1, -1, 0.5, 0)), BORDER, 'back of the top goal');
  assert.deepEqual(await px(at(m + 1, l, 0, 0.5)), BORDER, 'post of the bottom goal');

  // Inside a square there is only paper.
  assert.deepEqual(await px(at(0, 0, 0.5, 0.5)), PAPER, 'paper');
}

test('the default 8x10 field: borders, goals, centre line, ball on the centre point', () =>
  browser.withPage({ route: '#/soccer' }, async (page) => {
    await page.waitForSelector(`${CANVAS}[data-ball]`);
    await checkField(page, 8, 10);
  }));

test('any even W x L is drawn, and a bad size is refused with a message', () =>
  browser.withPage({ route: '#/soccer' }, async (page) => {
    for (const [w, l] of [
      [12, 6],
      [2, 2],
      [30, 40],
    ]) {
      await page.fill('[data-testid="width"]', String(w));
      await page.fill('[data-testid="length"]', String(l));
      await page.waitForSelector(`${CANVAS}[data-field="${w}x${l}"]`);
      await checkField(page, w, l);
    }
    await page.fill('[data-testid="width"]', '7');
    const error = await page.waitForSelector('[data-testid="size-error"]');
    assert.match(await error.textContent(), /width 7/);
    assert.equal(await page.getAttribute(CANVAS, 'data-field'), '30x40');
  }));

test('the canvas buffer follows devicePixelRatio and the window size', () =>
  browser.withPage({ route: '#/soccer', width: 1000, height: 700, scale: 2 }, async (page) => {
    await page.waitForSelector(`${CANVAS}[data-ball]`);
    const sizes = () =>
      page.evaluate((s) => {
        const c = document.querySelector(s);
        return { buffer: [c.width, c.height], css: [c.clientWidth, c.clientHeight] };
      }, CANVAS);
    let { buffer, css } = await sizes();
    assert.deepEqual(buffer, [css[0] * 2, css[1] * 2]);
    await checkField(page, 8, 10);

    await page.setViewportSize({ width: 1200, height: 900 });
    await page.waitForFunction(
      ({ s, before }) => document.querySelector(s).width !== before,
      { s: CANVAS, before: buffer[0] },
    );
    ({ buffer, css } = await sizes());
    assert.deepEqual(buffer, [css[0] * 2, css[1] * 2]);
    await checkField(page, 8, 10);
  }));
