// Shared set-up of the e2e suite: the system Chromium driven by playwright-core, a page that
// records every console error, page error and failed request, and canvas pixel reading.
//
// The app under test is served by `cargo xtask test` (QUADRILLE_URL); the browser is the
// system's (CHROMIUM, default /usr/bin/chromium). Nothing is downloaded.

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
