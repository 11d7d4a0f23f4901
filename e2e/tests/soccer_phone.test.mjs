// A phone's screen (390 × 844 CSS pixels, three device pixels each): the navigation wraps
// instead of running off the screen on every page, nothing is wider than the screen, and Paper
// Soccer is played to the end by tapping the field — against a person and against the engine.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sharedBrowser, visit } from '../lib/harness.mjs';
import {
  BOARD,
  assertNoHorizontalOverflow,
  playOut,
  replay,
  resultOf,
  start,
} from '../lib/soccer.mjs';

const PHONE = { width: 390, height: 844, scale: 3 };
const ROUTES = [
  ['#/', '[data-testid="intro-soccer"]'],
  ['#/soccer', 'canvas[data-ball]'],
  ['#/circuits', 'canvas[data-sample]'],
  ['#/pilots', '[data-testid="pilots-page"]'],
  ['#/board', '[data-testid="board-page"]'],
  ['#/league', '[data-testid="league-page"]'],
];

const browser = sharedBrowser();

// The width of a PNG, from its IHDR chunk.
const pngWidth = (png) => png.readUInt32BE(16);

// A full-page screenshot is exactly as wide as the phone: nothing sticks out sideways.
async function assertScreenshotFits(page) {
  await assertNoHorizontalOverflow(page);
  const png = await page.screenshot({ fullPage: true, scale: 'css' });
  assert.equal(pngWidth(png), PHONE.width, 'the full-page screenshot is wider than the phone');
}

for (const [hash, landmark] of ROUTES) {
  test(`${hash} at 390 × 844: the navigation wraps and every link is on screen`, () =>
    browser.withPage({ ...PHONE, route: hash }, async (page) => {
      await page.waitForSelector(landmark);
      const links = await page.$$eval('nav a', (as) =>
        as.map((a) => {
          const r = a.getBoundingClientRect();
          return { href: a.getAttribute('href'), left: r.left, right: r.right };
        }),
      );
      assert.ok(links.length >= 5, `only ${links.length} links`);
      for (const link of links) {
        assert.ok(link.left >= 0 && link.right <= PHONE.width, `${link.href} is off screen: ${JSON.stringify(link)}`);
      }
      await assertScreenshotFits(page);
    }));
}

test('at 390 × 844 the field fits the screen and a hot-seat game is tapped to the end', { timeout: 240_000 }, () =>
  browser.withPage({ ...PHONE, route: '#/soccer' }, async (page) => {
    await start(page, { starter: 'red', red: 'human', blue: 'human' });
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.state === 'human', BOARD);
    const box = await page.$eval(BOARD, (c) => {
      const r = c.getBoundingClientRect();
      return { left: r.left, right: r.right, width: r.width, height: r.height };
    });
    assert.ok(box.left >= 0 && box.right <= PHONE.width, `the field is off screen: ${JSON.stringify(box)}`);
    assert.ok(box.width >= 300 && box.height >= 300, `the field is too small to tap: ${JSON.stringify(box)}`);
    const square = Number(await page.getAttribute(BOARD, 'data-square'));
    assert.ok(square / PHONE.scale >= 20, `squares of ${square / PHONE.scale} CSS px are too small to tap`);
    await assertScreenshotFits(page);

    await playOut(page, 'clicks');
    const { winner, reason, record } = await resultOf(page);
    assert.match(record, /^8x10 red: [0-7]+(\/[0-7]+)*$/);
    // The tests' own rules accept every turn; the last one ended the game (a goal, or a
    // bounce with nowhere left to go).
    assert.notEqual(replay(record).last, 'illegal', record);
    assert.ok(['red', 'blue'].includes(winner) && reason, record);
    await assertScreenshotFits(page);
  }));

test('at 390 × 844 a person taps against the engine to the end', { timeout: 240_000 }, () =>
  browser.withPage(PHONE, async (page) => {
    await visit(page, '#/soccer');
    await start(page, { starter: 'blue', red: 'human', blue: 'engine', level: 1 });
    await playOut(page, 'clicks');
    const { record } = await resultOf(page);
    assert.match(record, /^8x10 blue: [0-7]+(\/[0-7]+)*$/);
    replay(record);
    await assertScreenshotFits(page);
  }));
