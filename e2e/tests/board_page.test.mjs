// `#/board`: a board outside a game. The manual console sends bytes (text with escapes, or hex)
// to the emulated reference player and to a scripted serial port; the monitor of each slot shows
// both directions, decoded.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launch, openPage, visit } from '../lib/harness.mjs';
import { fakeSerialScript } from '../lib/fake_serial.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const rows = (page, side) =>
  page.$$eval(`[data-testid="board-slot-${side}"] [data-testid="serial-log"] > *`, (items) =>
    items.map((r) => [r.dataset.dir, r.dataset.label, r.dataset.hex]),
  );

test('the console talks to the emulated board and to a serial port; monitors decode both ways', { timeout: 300_000 }, async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await page.addInitScript({ content: fakeSerialScript({ ports: [{ bot: { seed: 2 } }] }) });
    await visit(page, '#/board');
    // Board 2 is the emulated reference player: a kick-off by hand gets its first turn.
    await page.waitForSelector('[data-testid="emulator-status-blue"]:has-text("powered up")', { timeout: 180_000 });
    await page.fill('[data-testid="console-input-blue"]', 'w\\x08\\nl\\x0a\\ncr\\n{}\\n');
    await page.click('[data-testid="console-send-blue"]');
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="board-slot-blue"] [data-dir="rx"]')]
        .some((r) => /^\{[0-7]+\}$/.test(r.dataset.label)),
      null,
      { timeout: 120_000 },
    );
    const blue = await rows(page, 'blue');
    assert.deepEqual(blue.slice(0, 4).map((r) => r[1]), ['w 8', 'l 10', 'c r', '{}']);
    assert.equal(blue[1][2], '6c 0a 0a', 'a size of 10 is one raw byte, then the line feed');

    // Board 1 is a serial port: hex from the console, a malformed line refused with its place.
    await page.click('[data-testid="connect-red"]');
    await page.waitForSelector('[data-testid="port-status-red"]:has-text("connected:")');
    await page.selectOption('[data-testid="console-mode-red"]', 'hex');
    await page.fill('[data-testid="console-input-red"]', '77 0z');
    await page.click('[data-testid="console-send-red"]');
    assert.match(await page.textContent('[data-testid="console-error-red"]'), /character 5: not a hex digit/);
    await page.fill('[data-testid="console-input-red"]', '77 08 0a 6c 0a 0a 63 62 0a 7b 33 7d 0a');
    await page.click('[data-testid="console-send-red"]');
    // The bot (blue) answers the forwarded turn.
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="board-slot-red"] [data-dir="rx"]')]
        .some((r) => /^\{[0-7]+\}$/.test(r.dataset.label)),
    );
    const red = await rows(page, 'red');
    assert.deepEqual(red.slice(0, 4).map((r) => r[1]), ['w 8', 'l 10', 'c b', '{3}']);
    assert.equal(await page.evaluate(() => window.__fakeSerial.text(0)), 'w\b\nl\n\ncb\n{3}\n');
    // Clearing one slot's monitor leaves the other's.
    await page.click('[data-testid="board-slot-red"] [data-testid="monitor-clear"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="board-slot-red"] [data-testid="serial-log"] > *').length === 0);
    assert.ok((await rows(page, 'blue')).length >= 5);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('an uploaded netlist powers up with its pins; a broken one is refused with the reason', { timeout: 300_000 }, async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await visit(page, '#/board');
    await page.waitForSelector('[data-testid="emulator-status-blue"]:has-text("powered up")', { timeout: 180_000 });
    const netlist = new URL('../../hdl/netlist/de2_115_top.json', import.meta.url).pathname;
    await page.setInputFiles('[data-testid="netlist-blue"]', netlist);
    await page.waitForSelector('[data-testid="emulator-status-blue"]:has-text("de2_115_top.json: de2_115_top powered up")', { timeout: 180_000 });
    // The same design with a receive pin it does not have.
    await page.click('[data-testid="board-slot-blue"] summary');
    await page.fill('[data-testid="pin-rx-blue"]', 'SERIAL_IN');
    await page.press('[data-testid="pin-rx-blue"]', 'Enter');
    await page.click('[data-testid="reload-blue"]');
    await page.waitForSelector('[data-testid="emulator-status-blue"]:has-text("cannot emulate")', { timeout: 180_000 });
    assert.match(await page.textContent('[data-testid="emulator-status-blue"]'), /SERIAL_IN/);
    await page.setInputFiles('[data-testid="netlist-blue"]', {
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{ "modules": '),
    });
    await page.waitForSelector('[data-testid="emulator-status-blue"]:has-text("broken.json: cannot emulate")', { timeout: 60_000 });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
