// A bundled circuit is really drawn: track and decor pixels in the spec's colours (§1), read
// against the .cir file itself.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { pair, pixel, sharedBrowser } from '../lib/harness.mjs';

const CANVAS = 'canvas[data-testid="circuit-canvas"]';
const SAMPLES = new URL('../../engine/samples/', import.meta.url);

// Spec §1: space is dark grey; A..H, J..P the classic Windows colours; anything else bright green.
const COLOURS = {
  ' ': [128, 128, 128],
  A: [0, 0, 0],
  B: [128, 0, 0],
  C: [0, 128, 0],
  D: [128, 128, 0],
  E: [0, 0, 128],
  F: [128, 0, 128],
  G: [0, 128, 128],
  H: [192, 192, 192],
  J: [255, 0, 0],
  K: [0, 255, 0],
  L: [255, 255, 0],
  M: [0, 0, 255],
  N: [255, 0, 255],
  O: [0, 255, 255],
  P: [255, 255, 255],
};
const colour = (ch) => [...(COLOURS[ch] ?? COLOURS.K), 255];

function readCircuit(name) {
  const rows = readFileSync(new URL(`${name}.cir`, SAMPLES), 'latin1').split(/\r\n|\r|\n/);
  return (x, y) => rows[y][x];
}

const browser = sharedBrowser();

async function checkCircuit(page) {
  const name = await page.getAttribute(CANVAS, 'data-sample');
  const cell = Number(await page.getAttribute(CANVAS, 'data-cell'));
  const [x0, y0] = pair(await page.getAttribute(CANVAS, 'data-origin'));
  const charAt = readCircuit(name);
  const centreOf = (x, y) => [x0 + x * cell + cell / 2 - 0.5, y0 + y * cell + cell / 2 - 0.5];
  const px = (x, y) => pixel(page, CANVAS, ...centreOf(x, y));

  // The start point (40,4) is track.
  assert.equal(charAt(40, 4), ' ');
  assert.deepEqual(await px(40, 4), colour(' '), `${name}: track at (40,4)`);
  // The corner is decor, and so is one cell of every other character the file uses.
  const seen = new Map();
  for (let y = 0; y < 100; y++) {
    for (let x = 0; x < 150; x++) {
      const ch = charAt(x, y);
      if (!seen.has(ch)) seen.set(ch, [x, y]);
    }
  }
  assert.ok(seen.size >= 3, `${name} uses only ${seen.size} characters`);
  assert.notEqual(charAt(0, 0), ' ');
  for (const [ch, [x, y]] of [[charAt(0, 0), [0, 0]], ...seen]) {
    assert.deepEqual(await px(x, y), colour(ch), `${name}: '${ch}' at (${x},${y})`);
  }
  return name;
}

test('the first sample circuit is drawn in the spec colours', () =>
  browser.withPage({ route: '#/circuits' }, async (page) => {
    await page.waitForSelector(`${CANVAS}[data-sample]`);
    const cell = Number(await page.getAttribute(CANVAS, 'data-cell'));
    assert.ok(cell >= 2, `cells of ${cell} px`);
    await checkCircuit(page);
  }));

test('choosing another sample redraws the canvas', () =>
  browser.withPage({ route: '#/circuits', scale: 2 }, async (page) => {
    const first = await page.getAttribute(`${CANVAS}[data-sample]`, 'data-sample');
    const options = await page.$$eval('[data-testid="circuit-sample"] option', (os) =>
      os.map((o) => o.value),
    );
    const other = options.find((name) => name !== first && !name.startsWith('bad_'));
    assert.ok(other, `no second conforming sample among ${options}`);
    await page.selectOption('[data-testid="circuit-sample"]', other);
    await page.waitForSelector(`${CANVAS}[data-sample="${other}"]`);
    assert.equal(await checkCircuit(page), other);
  }));
