// Every route opens, renders its page and logs no error; links and unknown routes behave.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BASE_URL, sharedBrowser } from '../lib/harness.mjs';

const browser = sharedBrowser();

const ROUTES = [
  { hash: '#/', title: 'Quadrille', landmark: '[data-testid="intro-soccer"]' },
  { hash: '#/soccer', title: 'Paper Soccer · Quadrille', landmark: 'canvas[data-ball]' },
  { hash: '#/circuits', title: 'Circuits · Quadrille', landmark: 'canvas[data-sample]' },
  { hash: '#/pilots', title: 'Pilots · Quadrille', landmark: '[data-testid="pilots-page"]' },
  { hash: '#/board', title: 'Board · Quadrille', landmark: '[data-testid="board-page"]' },
  { hash: '#/league', title: 'League · Quadrille', landmark: '[data-testid="league-page"]' },
  { hash: '#/contest', title: 'Contest · Quadrille', landmark: '[data-testid="contest-page"]' },
];

for (const { hash, title, landmark } of ROUTES) {
  test(`${hash} renders without console or page errors`, () =>
    browser.withPage({ route: hash }, async (page) => {
      await page.waitForSelector(landmark);
      assert.equal(await page.title(), title);
      const active = await page.getAttribute('nav a[aria-current="page"]', 'href');
      assert.equal(active, hash);
      // Let late work (effects, resize observers, fonts) run before judging.
      await page.waitForTimeout(300);
    }));
}

test('the home page introduces both games and links to them', () =>
  browser.withPage({ route: '#/' }, async (page) => {
    const soccer = await page.textContent('[data-testid="intro-soccer"]');
    const racetrack = await page.textContent('[data-testid="intro-racetrack"]');
    assert.match(soccer, /Paper Soccer/);
    assert.match(racetrack, /Racetrack/);
    await page.click('[data-testid="intro-soccer"] a');
    await page.waitForSelector('main[data-route="#/soccer"] canvas[data-ball]');
    await page.click('[data-testid="nav-circuits"]');
    await page.waitForSelector('main[data-route="#/circuits"] canvas[data-sample]');
    await page.goBack();
    await page.waitForSelector('main[data-route="#/soccer"]');
  }));

test('an unknown route shows "not found" and links home', () =>
  browser.withPage(async (page) => {
    await page.goto(new URL('#/nowhere', BASE_URL).href);
    await page.waitForSelector('[data-testid="not-found"]');
    await page.click('[data-testid="not-found"] a');
    await page.waitForSelector('main[data-route="#/"]');
  }));
