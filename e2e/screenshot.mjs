// Takes the README's screenshots (docs/*.png) of a running build:
//   QUADRILLE_URL=http://127.0.0.1:8080/ node screenshot.mjs
// (`cargo xtask serve` in another terminal serves one on that address.)

import { mkdirSync } from 'node:fs';

import { launch, openPage, visit } from './lib/harness.mjs';

const DOCS = new URL('../docs/', import.meta.url);
mkdirSync(DOCS, { recursive: true });

const SHOTS = [
  { hash: '#/soccer', ready: 'canvas[data-ball]', file: 'screenshot.png' },
  { hash: '#/circuits', ready: 'canvas[data-sample]', file: 'circuits.png' },
  { hash: '#/', ready: '[data-testid="intro-soccer"]', file: 'home.png' },
];

const browser = await launch();
try {
  for (const { hash, ready, file } of SHOTS) {
    const { page, problems, close } = await openPage(browser, { width: 1280, height: 760 });
    await visit(page, hash);
    await page.waitForSelector(ready);
    await page.waitForTimeout(200);
    const path = new URL(file, DOCS).pathname;
    await page.screenshot({ path });
    await close();
    if (problems.length > 0) throw new Error(`${hash}: ${problems.join('; ')}`);
    console.log(`wrote ${path}`);
  }
} finally {
  await browser.close();
}
