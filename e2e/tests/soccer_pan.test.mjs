// Zooming and panning the Paper Soccer field: the wheel (and ctrl+wheel, a touchpad pinch)
// zooms about the pointer, dragging the paper (or anything with the space bar held) pans, the
// buttons and keys still zoom and fit, and a click that does not drag still plays, as do keys.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { pair, pixel, rgba, sharedBrowser, visit } from '../lib/harness.mjs';
import { DIRS } from '../lib/fake_serial.mjs';
import { BOARD, start } from '../lib/soccer.mjs';

const GRID = rgba('#d8e0ec');
const PAPER = rgba('#fdfcf7');

const browser = sharedBrowser();

// A hot-seat game on a `width`×`length` field, red to move.
async function startHotSeat(page, width, length) {
  await visit(page, '#/soccer');
  await start(page, { width, length, starter: 'red', red: 'human', blue: 'human' });
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.state === 'human', BOARD);
  await page.waitForSelector(`${BOARD}[data-field="${width}x${length}"]`);
}

// The drawn layout, in buffer pixels, and how to go between field points, buffer pixels and
// page (CSS) coordinates.
async function layout(page) {
  const d = await page.$eval(BOARD, (c) => {
    const box = c.getBoundingClientRect();
    return {
      ...c.dataset,
      box: { x: box.x, y: box.y, width: box.width, height: box.height },
      size: [c.width, c.height],
      css: [c.clientWidth, c.clientHeight],
    };
  });
  const [x0, y0] = pair(d.origin);
  const square = Number(d.square);
  const ratio = d.size[0] / d.css[0];
  return {
    ...d,
    square,
    ratio,
    ball: pair(d.ball),
    // The buffer pixel of field point (x, y) (fractions allowed).
    at: (x, y) => [x0 + x * square, y0 + y * square],
    // The field point (fractional) under buffer pixel (bx, by).
    field: (bx, by) => [(bx - x0) / square, (by - y0) / square],
    // The page coordinates of buffer pixel (bx, by), and back.
    page: (bx, by) => [d.box.x + bx / ratio, d.box.y + by / ratio],
    buffer: (px, py) => [(px - d.box.x) * ratio, (py - d.box.y) * ratio],
  };
}

const changed = (page, name, before) =>
  page.waitForFunction(
    ({ s, name, before }) => document.querySelector(s).dataset[name] !== before,
    { s: BOARD, name, before },
  );

const record = async (page) => (await page.textContent('[data-testid="record"]')).trim();

test('the wheel zooms about the pointer: the field point under it stays under it', { timeout: 120_000 }, async () => {
  for (const [width, length, scale] of [
    [30, 40, 1],
    [254, 2, 1],
    [254, 254, 2],
  ]) {
    await browser.withPage({ scale }, async (page) => {
      await startHotSeat(page, width, length);
      let before = await layout(page);
      // Somewhere off-centre, over the field.
      const pointer = before.page(...before.at(width * 0.3, length * 0.7));
      await page.mouse.move(...pointer);
      const check = async (wheel, modifier) => {
        const under = before.field(...before.buffer(...pointer));
        if (modifier) await page.keyboard.down(modifier);
        await page.mouse.wheel(0, wheel);
        if (modifier) await page.keyboard.up(modifier);
        await changed(page, 'square', String(before.square));
        const now = await layout(page);
        if (wheel < 0) assert.ok(now.square > before.square, `${now.square} after ${before.square}`);
        else assert.ok(now.square < before.square, `${now.square} after ${before.square}`);
        const [bx, by] = now.at(...under);
        const [px, py] = now.buffer(...pointer);
        const off = Math.hypot(bx - px, by - py) / now.ratio;
        assert.ok(off <= 2, `${width}x${length}: the point under the pointer moved ${off} CSS px`);
        before = now;
      };
      await check(-240);
      await check(-120);
      await check(120);
      // Ctrl+wheel, what a touchpad pinch sends, zooms the field, not the page.
      await check(-100, 'Control');
      assert.equal(await page.evaluate(() => window.devicePixelRatio), scale);
      // Nothing was played.
      assert.equal(await record(page), `${width}x${length} red:`);
    });
  }
});

test('zoom stays between half the fitted size and a close-up, and every zoom is crisp', { timeout: 60_000 }, () =>
  browser.withPage({ scale: 2 }, async (page) => {
    await startHotSeat(page, 30, 40);
    const fitted = await layout(page);
    assert.equal(fitted.zoom, '1×');
    assert.equal(await page.textContent('[data-testid="zoom-fit"]'), '1×');
    await page.mouse.move(...fitted.page(...fitted.ball));
    for (let i = 0; i < 12; i += 1) await page.mouse.wheel(0, -120);
    await page.waitForFunction((s) => Number(document.querySelector(s).dataset.square) === 128, BOARD);
    const close_up = await layout(page);
    assert.equal(close_up.square, 64 * 2, 'the closest zoom is 64 CSS px per square');
    assert.deepEqual(close_up.size, [close_up.css[0] * 2, close_up.css[1] * 2]);
    // A grid line is one buffer pixel of grid colour with paper on both sides: no blur.
    const [gx, gy] = close_up.at(close_up.field(...close_up.ball)[0] - 2, close_up.field(...close_up.ball)[1] + 1.5);
    assert.deepEqual(await pixel(page, BOARD, gx, gy), GRID);
    assert.deepEqual(await pixel(page, BOARD, gx + 1, gy), PAPER);
    assert.deepEqual(await pixel(page, BOARD, gx - 1, gy), PAPER);
    for (let i = 0; i < 20; i += 1) await page.mouse.wheel(0, 120);
    await page.waitForFunction(
      ({ s, sq }) => Number(document.querySelector(s).dataset.square) === sq,
      { s: BOARD, sq: Math.floor(fitted.square / 2) },
    );
    // The fit button brings the whole field back, the + and − buttons and keys step.
    await page.click('[data-testid="zoom-fit"]');
    await page.waitForFunction(
      ({ s, sq }) => Number(document.querySelector(s).dataset.square) === sq,
      { s: BOARD, sq: fitted.square },
    );
    assert.equal((await layout(page)).origin, fitted.origin);
    await page.click('[data-testid="zoom-in"]');
    await changed(page, 'square', String(fitted.square));
    assert.ok((await layout(page)).square > fitted.square);
    await page.click('[data-testid="zoom-out"]');
    await page.click('[data-testid="zoom-out"]');
    await page.waitForFunction(
      ({ s, sq }) => Number(document.querySelector(s).dataset.square) < sq,
      { s: BOARD, sq: fitted.square },
    );
    await page.focus(BOARD);
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.waitForFunction(
      ({ s, sq }) => Number(document.querySelector(s).dataset.square) > sq,
      { s: BOARD, sq: fitted.square },
    );
    assert.equal(await record(page), '30x40 red:');
  }));

test('dragging the paper pans, and the click that ends a drag plays nothing', { timeout: 60_000 }, () =>
  browser.withPage(async (page) => {
    await startHotSeat(page, 30, 40);
    let before = await layout(page);
    await page.mouse.move(...before.page(...before.ball));
    for (let i = 0; i < 4; i += 1) await page.mouse.wheel(0, -120);
    await changed(page, 'square', String(before.square));
    await page.waitForFunction((s) => document.querySelector(s).dataset.zoom !== '1×', BOARD);
    before = await layout(page);
    // From the middle of a square (no point there): empty paper.
    const [fx, fy] = before.field(...before.ball);
    const from = before.page(...before.at(fx + 2.5, fy + 1.5));
    await page.mouse.move(...from);
    await page.mouse.down();
    await page.mouse.move(from[0] + 60, from[1] + 30, { steps: 7 });
    await page.mouse.move(from[0] + 120, from[1] + 80, { steps: 7 });
    await page.mouse.up();
    await changed(page, 'origin', before.origin);
    const after = await layout(page);
    assert.equal(after.square, before.square);
    const [x0, y0] = pair(before.origin);
    const [x1, y1] = pair(after.origin);
    assert.deepEqual([x1 - x0, y1 - y0], [120, 80]);
    assert.equal(await record(page), '30x40 red:');
    assert.equal(await page.getAttribute(BOARD, 'data-state'), 'human');

    // With the space bar held even a drag from a point the ball may step to pans.
    const target = after.page(...after.at(fx + 0, fy + 1));
    await page.mouse.move(...target);
    await page.keyboard.down(' ');
    assert.equal(await page.getAttribute(BOARD, 'data-pan'), 'ready');
    await page.mouse.down();
    await page.mouse.move(target[0] - 50, target[1] - 40, { steps: 5 });
    assert.equal(await page.getAttribute(BOARD, 'data-pan'), 'active');
    await page.mouse.up();
    await page.keyboard.up(' ');
    await changed(page, 'origin', after.origin);
    const [x2, y2] = pair((await layout(page)).origin);
    assert.deepEqual([x2 - x1, y2 - y1], [-50, -40]);
    assert.equal(await record(page), '30x40 red:');
  }));

test('a click (even with a little wobble) still steps the ball, and keys still play, zoomed and panned', { timeout: 60_000 }, () =>
  browser.withPage(async (page) => {
    await startHotSeat(page, 30, 40);
    let l = await layout(page);
    await page.mouse.move(...l.page(l.size[0] * 0.4, l.size[1] * 0.4));
    for (let i = 0; i < 3; i += 1) await page.mouse.wheel(0, -120);
    await changed(page, 'square', String(l.square));
    // Pan a little on empty paper first.
    l = await layout(page);
    const [fx, fy] = l.field(...l.ball);
    const paper = l.page(...l.at(fx - 3.5, fy - 2.5));
    await page.mouse.move(...paper);
    await page.mouse.down();
    await page.mouse.move(paper[0] + 40, paper[1] + 25, { steps: 4 });
    await page.mouse.up();
    await changed(page, 'origin', l.origin);

    // A plain click on the point south of the ball: red steps 4.
    l = await layout(page);
    const step = async (digit, wobble) => {
      const [dx, dy] = DIRS[digit];
      const [bx, by] = l.field(...l.ball);
      const [px, py] = l.page(...l.at(bx + dx, by + dy));
      await page.mouse.move(px, py);
      await page.mouse.down();
      if (wobble) await page.mouse.move(px + wobble, py - wobble);
      await page.mouse.up();
      await changed(page, 'ball', l.ball.join(','));
      l = await layout(page);
    };
    await step(4);
    assert.equal(await record(page), '30x40 red: 4');
    // A press that moves 2 px is still a click: blue steps 2, to (16,21).
    await step(2, 2);
    assert.equal(await record(page), '30x40 red: 4/2');
    // Keys: digits, the keypad and Backspace.
    const press = async (key) => {
      const ball = l.ball.join(',');
      await page.keyboard.press(key);
      await changed(page, 'ball', ball);
      l = await layout(page);
    };
    await page.focus(BOARD);
    await press('3');
    assert.equal(await record(page), '30x40 red: 4/2/3');
    await press('Numpad2');
    assert.equal(await record(page), '30x40 red: 4/2/3/4');
    await press('7');
    assert.equal(await record(page), '30x40 red: 4/2/3/4/7');
    // Blue steps 0 onto (16,21), where lines meet: a bounce, which Backspace takes back.
    const before = l.ball.join(',');
    await press('0');
    assert.equal(await page.getAttribute(BOARD, 'data-to-move'), 'blue');
    await press('Backspace');
    assert.equal(l.ball.join(','), before);
    assert.equal(await page.getAttribute(BOARD, 'data-to-move'), 'blue');
    assert.equal(await record(page), '30x40 red: 4/2/3/4/7');
  }));

test('on a touch screen two fingers pinch about their middle and one finger on the paper pans', { timeout: 60_000 }, () =>
  browser.withPage(async (page) => {
    await startHotSeat(page, 30, 40);
    const before = await layout(page);
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, touchPoints) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
    // Around a point off the ball's, fingers 100 px apart spread to 200 px: twice as big.
    const [cx, cy] = before.page(...before.at(11.5, 24.5));
    const under = before.field(...before.buffer(cx, cy));
    await touch('touchStart', [
      { x: cx - 50, y: cy, id: 1 },
      { x: cx + 50, y: cy, id: 2 },
    ]);
    for (let i = 1; i <= 5; i += 1) {
      await touch('touchMove', [
        { x: cx - 50 - 10 * i, y: cy, id: 1 },
        { x: cx + 50 + 10 * i, y: cy, id: 2 },
      ]);
    }
    await touch('touchEnd', []);
    await page.waitForFunction((s) => document.querySelector(s).dataset.zoom === '2×', BOARD);
    const pinched = await layout(page);
    assert.equal(pinched.square, 2 * before.square);
    const [bx, by] = pinched.at(...under);
    const [px, py] = pinched.buffer(cx, cy);
    assert.ok(Math.hypot(bx - px, by - py) <= 2, `the point between the fingers moved to ${bx},${by}`);
    // One finger from the middle of a square drags the field.
    const [fx, fy] = pinched.page(...pinched.at(12.5, 22.5));
    await touch('touchStart', [{ x: fx, y: fy, id: 3 }]);
    for (let i = 1; i <= 5; i += 1) await touch('touchMove', [{ x: fx + 10 * i, y: fy + 6 * i, id: 3 }]);
    await touch('touchEnd', []);
    await changed(page, 'origin', pinched.origin);
    const [x0, y0] = pair(pinched.origin);
    const [x1, y1] = pair((await layout(page)).origin);
    assert.deepEqual([x1 - x0, y1 - y0], [50, 30]);
    assert.equal(await record(page), '30x40 red:');
  }));
