// Shared set-up of the e2e suite: the system Chromium driven by playwright-core, a page that
// records every console error, page error and failed request, a test's run on such a page that
// ends with no problem, and canvas pixel reading.
//
// The app under test is served by `cargo xtask test` (QUADRILLE_URL); the browser is the
// system's (CHROMIUM, default /usr/bin/chromium). Nothing is downloaded.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';

import { chromium } from 'playwright-core';

export const BASE_URL = process.env.QUADRILLE_URL ?? 'http://127.0.0.1:8080/';
const EXECUTABLE = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// A fresh page whose `problems` list collects everything that must not happen.
export async function openPage(browser, { width = 1280, height = 800, scale = 1 } = {}) {
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: scale,
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return { page, problems, close: () => context.close() };
}

// One test's page: opened on `browser` with the viewport of `options` (as openPage), given the
// `init` scripts (each what page.addInitScript takes, or a [script, arg] pair) in order before
// anything loads, navigated to the hash `route` if there is one; then `body(page)` runs, and
// the page must have reported no problem. The page is closed whatever happened. Without
// options: `withPage(browser, body)`.
export async function withPage(browser, options, body) {
  if (body === undefined) return withPage(browser, {}, options);
  const { route, init = [], ...viewport } = options;
  const { page, problems, close } = await openPage(browser, viewport);
  try {
    for (const script of init) {
      await page.addInitScript(...(Array.isArray(script) ? script : [script]));
    }
    if (route !== undefined) await visit(page, route);
    await body(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
}

// The browser of a test file: launched before its first test, closed after its last.
// `withPage([options,] body)` runs one test's page on it (see withPage above).
export function sharedBrowser() {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });
  return { withPage: (options, body) => withPage(browser, options, body) };
}

// Navigates to a hash route and waits until the app has rendered it.
export async function visit(page, hash) {
  await page.goto(new URL(hash, BASE_URL).href);
  await page.waitForSelector(`main[data-route="${hash}"]`);
}

// The RGBA of one buffer pixel of the canvas matching `selector`.
export async function pixel(page, selector, x, y) {
  return page.evaluate(
    ({ selector, x, y }) => {
      const canvas = document.querySelector(selector);
      const data = canvas.getContext('2d').getImageData(x, y, 1, 1).data;
      return Array.from(data);
    },
    { selector, x: Math.round(x), y: Math.round(y) },
  );
}

// "12,34" → [12, 34]
export function pair(text) {
  const [a, b] = text.split(',').map(Number);
  return [a, b];
}

// '#f59e0b' → [245, 158, 11, 255]
export function rgba(hex) {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 255];
}
