// `#/board`: a board outside a game. The manual console sends bytes (text with escapes, or hex)
// to the emulated reference player and to a scripted serial port; the monitor of each slot shows
// both directions, decoded.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { kickOffByHand } from '../lib/board.mjs';
import { sharedBrowser } from '../lib/harness.mjs';
import { fakeSerialScript } from '../lib/fake_serial.mjs';

const browser = sharedBrowser();

const rows = (page, side) =>
  page.$$eval(`[data-testid="board-slot-${side}"] [data-testid="serial-log"] > *`, (items) =>
    items.map((r) => [r.dataset.dir, r.dataset.label, r.dataset.hex]),
  );

test('the console talks to the emulated board and to a serial port; monitors decode both ways', { timeout: 300_000 }, () =>
  browser.withPage({
    route: '#/board',
    init: [{ content: fakeSerialScript({ ports: [{ bot: { seed: 2 } }] }) }],
  }, async (page) => {
    // Board 2 is the emulated reference player: a kick-off by hand gets its first turn.
    await page.waitForSelector('[data-testid="emulator-status-blue"]:has-text("powered up")', { timeout: 180_000 });
    await kickOffByHand(page, 'blue');
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
  }));

test('an uploaded netlist powers up with its pins; a broken one is refused with the reason', { timeout: 300_000 }, () =>
  browser.withPage({ route: '#/board' }, async (page) => {
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
  }));

test('the monitor pauses and resumes, copies and saves its rows as a log', { timeout: 120_000 }, () =>
  browser.withPage({
    route: '#/board',
    init: [{ content: fakeSerialScript({ ports: [{ bot: { seed: 2 } }] }) }],
  }, async (page) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await page.click('[data-testid="connect-red"]');
    await page.waitForSelector('[data-testid="port-status-red"]:has-text("connected:")');
    const slot = '[data-testid="board-slot-red"]';
    const count = () => page.$$eval(`${slot} [data-testid="serial-log"] > *`, (rows) => rows.length);
    const send = async (text) => {
      await page.fill('[data-testid="console-input-red"]', text);
      await page.click('[data-testid="console-send-red"]');
    };
    await send('w\\x08\\nl\\x0a\\n');
    await page.waitForFunction((s) => document.querySelectorAll(`${s} [data-testid="serial-log"] > *`).length === 2, slot);

    // Paused, the monitor keeps its rows while the bytes go on (and are logged).
    await page.click(`${slot} [data-testid="monitor-pause"]`);
    assert.equal(await page.getAttribute(`${slot} [data-testid="monitor-pause"]`, 'aria-pressed'), 'true');
    await send('cb\\n{3}\\n');
    await page.waitForFunction(() => window.__fakeSerial.text(0).endsWith('{3}\n'));
    // The bot answers {3} with a turn of its own: wait until its last byte was read.
    await page.waitForFunction(() => window.__fakeSerial.ports[0].sent.at(-1) === 10);
    await page.waitForTimeout(400); // a few of the monitor's 100 ms polls
    assert.equal(await count(), 2);
    await page.click(`${slot} [data-testid="monitor-pause"]`);
    await page.waitForFunction((s) => document.querySelectorAll(`${s} [data-testid="serial-log"] > *`).length === 5, slot);
    const rows = await page.$$eval(`${slot} [data-testid="serial-log"] > *`, (items) =>
      items.map((r) => [r.dataset.dir, r.dataset.label, r.dataset.hex, r.textContent]),
    );
    assert.deepEqual(rows.map((r) => r.slice(0, 2)).slice(0, 4), [['tx', 'w 8'], ['tx', 'l 10'], ['tx', 'c b'], ['tx', '{3}']]);
    assert.equal(rows[4][0], 'rx');
    assert.match(rows[4][1], /^\{[0-7]+\}$/);
    // Each row shows a time stamp, the hex and the printable bytes.
    assert.match(rows[0][3], /^\d+\.\d{3}/);
    assert.ok(rows[0][3].includes('77 08 0a') && rows[0][3].includes('w\\x08\\n'), rows[0][3]);

    // Copy and save give the same log: a header, then one line per row.
    await page.click(`${slot} [data-testid="monitor-copy"]`);
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).includes('{3}'));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`${slot} [data-testid="monitor-save"]`),
    ]);
    const { readFileSync } = await import('node:fs');
    const saved = readFileSync(await download.path(), 'utf8');
    assert.equal(saved, copied);
    assert.match(download.suggestedFilename(), /\.log$/);
    const lines = saved.trimEnd().split('\n');
    assert.equal(lines.length, 6, saved);
    assert.match(lines[0], /^#/);
    assert.match(lines[1], /^\s*\d+\.\d{3} red tx 77 08 0a \| w\\x08\\n \| w 8$/);
    assert.match(lines[5], /^\s*\d+\.\d{3} red rx 7b( 3[0-7])+ 7d 0a \| \{[0-7]+\}\\n \| \{[0-7]+\}$/);
  }));
