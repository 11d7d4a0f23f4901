// The circuit editor (#/circuits) on a phone-sized screen, 390 × 844 CSS pixels: nothing runs
// off the side of the page, every tool is in reach, the canvas fits, one finger paints and two
// fingers pinch and pan (the shared gesture machine). A screenshot of the page is saved under
// e2e/test-results/.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';

import { pair, pixel, sharedBrowser } from '../lib/harness.mjs';

const CANVAS = 'canvas[data-testid="circuit-canvas"]';
const PHONE = { width: 390, height: 844, scale: 2 };
const RESULTS = new URL('../test-results/', import.meta.url);

const browser = sharedBrowser();

// The page's width as laid out, and the viewport's: equal when nothing overflows sideways.
async function widths(page) {
  return page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
}

// Where the canvas puts cell (x, y): its centre in page (CSS) coordinates.
async function cellPoint(page, x, y) {
  const cell = Number(await page.getAttribute(CANVAS, 'data-cell'));
  const [left, top] = pair(await page.getAttribute(CANVAS, 'data-origin'));
  const box = await page.locator(CANVAS).boundingBox();
  return [box.x + (left + (x + 0.5) * cell) / PHONE.scale, box.y + (top + (y + 0.5) * cell) / PHONE.scale];
}

// Fingers on the canvas: each step is a list of [type, id, x, y] pointer events (page CSS
// coordinates) dispatched as touch pointers, as a phone's browser sends them.
async function touch(page, steps) {
  await page.$eval(
    CANVAS,
    (canvas, steps) => {
      for (const [type, id, x, y] of steps) {
        canvas.dispatchEvent(
          new PointerEvent(type, {
            pointerId: id,
            pointerType: 'touch',
            isPrimary: id === 1,
            clientX: x,
            clientY: y,
            button: type === 'pointermove' ? -1 : 0,
            buttons: type === 'pointerup' ? 0 : 1,
            bubbles: true,
            cancelable: true,
          }),
        );
      }
    },
    steps,
  );
}

function inPhoneEditor(body) {
  return browser.withPage({ ...PHONE, route: '#/circuits' }, async (page) => {
    await page.waitForSelector(`${CANVAS}[data-cell]`);
    await page.click('[data-testid="new"]');
    await page.waitForSelector(`${CANVAS}[data-sample="untitled"]`);
    await body(page);
  });
}

test('at 390 × 844 the editor fits the screen and every tool is in reach', () =>
  inPhoneEditor(async (page) => {
    const { scroll, viewport } = await widths(page);
    assert.equal(viewport, 390);
    assert.ok(scroll <= 390, `the page is ${scroll} px wide`);

    const canvas = await page.locator(CANVAS).boundingBox();
    assert.ok(canvas.x >= 0 && canvas.x + canvas.width <= 390, `canvas ${JSON.stringify(canvas)}`);
    assert.ok(canvas.height >= 150, `a canvas ${canvas.height} px high`);
    assert.ok(Number(await page.getAttribute(CANVAS, 'data-cell')) >= 2);

    const tools = await page.$$('[data-testid^="tool-"]');
    assert.equal(tools.length, 10);
    for (const tool of tools) {
      const box = await tool.boundingBox();
      const id = await tool.getAttribute('data-testid');
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${id} at ${JSON.stringify(box)}`);
      assert.ok(box.width >= 32 && box.height >= 32, `${id} is ${box.width}×${box.height}`);
    }
    for (const id of ['new', 'save-cir', 'undo', 'zoom-in', 'zoom-out', 'zoom-fit', 'show-lap',
      'circuit-sample', 'colour-track', 'colour-J']) {
      const box = await page.locator(`[data-testid="${id}"]`).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${id} at ${JSON.stringify(box)}`);
    }
    await page.click('[data-testid="tool-filled-rectangle"]');
    assert.equal(await page.getAttribute(CANVAS, 'data-tool'), 'filled-rectangle');

    mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: new URL('circuits-390x844.png', RESULTS).pathname, fullPage: true });
  }));

test('at 390 × 844 one finger paints, two fingers pinch and pan without painting', () =>
  inPhoneEditor(async (page) => {
    // One finger paints with the pencil in the primary colour.
    await page.click('[data-testid="tool-pencil"]');
    await page.click('[data-testid="colour-J"]');
    const [x0, y0] = await cellPoint(page, 70, 50);
    const [x1] = await cellPoint(page, 80, 50);
    const revision = Number(await page.getAttribute(CANVAS, 'data-revision'));
    await touch(page, [
      ['pointerdown', 1, x0, y0],
      ['pointermove', 1, x1, y0],
      ['pointerup', 1, x1, y0],
    ]);
    await page.waitForFunction(
      ([selector, r]) => Number(document.querySelector(selector).dataset.revision) > r,
      [CANVAS, revision],
    );
    const cellPixel = async (x, y) => {
      const cell = Number(await page.getAttribute(CANVAS, 'data-cell'));
      const [left, top] = pair(await page.getAttribute(CANVAS, 'data-origin'));
      return pixel(page, CANVAS, left + x * cell + cell / 2 - 0.5, top + y * cell + cell / 2 - 0.5);
    };
    assert.deepEqual(await cellPixel(75, 50), [255, 0, 0, 255]);

    // Two fingers twice as far apart: twice the cell size, nothing painted.
    const cell = Number(await page.getAttribute(CANVAS, 'data-cell'));
    const [a] = await cellPoint(page, 20, 30);
    const [b, yb] = await cellPoint(page, 50, 30);
    const spread = b - a;
    const painted = await cellPixel(20, 30);
    await touch(page, [
      ['pointerdown', 1, a, yb],
      ['pointerdown', 2, b, yb],
      ['pointermove', 2, b + spread, yb],
    ]);
    await page.waitForFunction(
      ([selector, c]) => Number(document.querySelector(selector).dataset.cell) > c,
      [CANVAS, cell],
    );
    const zoomed = Number(await page.getAttribute(CANVAS, 'data-cell'));
    assert.ok(Math.abs(zoomed - 2 * cell) <= 1, `${cell} px cells became ${zoomed} px`);
    // Both fingers slide 40 px left: the drawing follows them.
    const [ox] = pair(await page.getAttribute(CANVAS, 'data-origin'));
    await touch(page, [
      ['pointermove', 1, a - 40, yb],
      ['pointermove', 2, b + spread - 40, yb],
      ['pointerup', 1, a - 40, yb],
      ['pointerup', 2, b + spread - 40, yb],
    ]);
    await page.waitForFunction(
      ([selector, x]) => Number(document.querySelector(selector).dataset.origin.split(',')[0]) < x,
      [CANVAS, ox],
    );
    const [moved] = pair(await page.getAttribute(CANVAS, 'data-origin'));
    assert.ok(Math.abs(ox - 40 * PHONE.scale - moved) <= 2, `origin ${ox} → ${moved}`);
    assert.deepEqual(await cellPixel(20, 30), painted, 'the pinch painted nothing');
    assert.equal(await page.getAttribute(CANVAS, 'data-cell'), String(zoomed));
    const { scroll } = await widths(page);
    assert.ok(scroll <= 390, `the page is ${scroll} px wide after the pinch`);
  }));
