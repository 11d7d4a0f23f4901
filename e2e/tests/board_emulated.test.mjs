// The emulated board: the reference player's netlist in hdl-sim, in a worker, behind the UART
// transactors, plays against a scripted serial port and against the engine. The figures of the
// emulator in headless Chromium (simulated MHz, the board's turn latency) are printed.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sharedBrowser } from '../lib/harness.mjs';
import { expectedReceived, fakeSerialScript } from '../lib/fake_serial.mjs';
import { replay, resultOf, start } from '../lib/soccer.mjs';

const browser = sharedBrowser();

async function powerUp(page, side) {
  await page.selectOption(`[data-testid="side-${side}"]`, 'emulated');
  await page.waitForSelector(`[data-testid="emulator-status-${side}"]:has-text("powered up")`, {
    timeout: 180_000,
  });
}

async function stats(page, side) {
  return page.$eval(`[data-testid="emulator-stats-${side}"]`, (e) => ({ ...e.dataset }));
}

test('the emulated board against a serial board, to the end', { timeout: 900_000 }, () =>
  browser.withPage({
    route: '#/soccer',
    init: [{ content: fakeSerialScript({ ports: [{ bot: { seed: 21 } }] }) }],
  }, async (page) => {
    await powerUp(page, 'red');
    await page.selectOption('[data-testid="side-blue"]', 'serial');
    await page.click('[data-testid="connect-blue"]');
    await page.waitForSelector('[data-testid="port-status-blue"]:has-text("connected:")');
    await start(page, { starter: 'red' });
    const { winner, reason, record } = await resultOf(page, 600_000);
    const { turns } = replay(record);
    assert.ok(turns.length >= 2, record);
    assert.ok(!['timeout', 'disconnect'].includes(reason), `${record} # ${winner} ${reason}`);
    const lastForwarded = false;
    assert.equal(
      await page.evaluate(() => window.__fakeSerial.text(0)),
      expectedReceived(record, 'blue', lastForwarded),
    );
    // The monitor decoded the emulated board's turns.
    const labels = await page.$$eval('[data-testid="serial-log"] > [data-dir="rx"][data-side="red"]', (rows) =>
      rows.map((r) => r.dataset.label),
    );
    assert.ok(labels.length > 0 && labels.every((l) => /^\{[0-7]+\}$/.test(l)), labels.join(' '));
  }));

test('the emulated board against the engine on 8x10: figures', { timeout: 900_000 }, () =>
  browser.withPage({ route: '#/soccer' }, async (page) => {
    await powerUp(page, 'blue');
    await page.selectOption('[data-testid="side-red"]', 'engine');
    await page.selectOption('[data-testid="level-red"]', '2');
    // A loaded test machine must not decide the game on the engine's clock.
    await page.fill('[data-testid="limit-red"]', '10000');
    await start(page, { starter: 'blue' });
    const { winner, reason, record } = await resultOf(page, 600_000);
    replay(record);
    assert.ok(!['timeout', 'disconnect'].includes(reason), `${record} # ${winner} ${reason}`);
    const s = await stats(page, 'blue');
    const turns = Number(s.turns);
    assert.ok(turns > 0, JSON.stringify(s));
    console.log(
      `emulated board vs engine (8x10): ${record} # ${winner} ${reason}\n` +
        `  board turns: ${turns}, mean latency ${(Number(s.latencyUs) / 1000).toFixed(3)} ms simulated ` +
        `(${s.wallMs} ms in the browser), emulator speed ${Number(s.mhz).toFixed(2)} simulated MHz`,
    );
    // The waveform of the last turn downloads as a VCD.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.click('[data-testid="waveform-blue"]'),
    ]);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const vcd = readFileSync(path, 'utf8');
    assert.match(vcd, /\$var wire 1 \S+ UART_TXD \$end/);
    assert.match(vcd, /\$enddefinitions \$end/);
  }));
