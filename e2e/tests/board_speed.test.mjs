// The compiled back end in headless Chromium: the board worker compiles the design with the
// browser's own WebAssembly. Prints two figures of issue 14 with their targets and whether each
// is met: the reference player's speed (a simulated second in the real worker), and the time
// from a 10,000-cell netlist to a board ready for its first cycle. The test fails when the
// compiled back end is not used, not when a target is missed (a loaded machine says nothing
// about the code).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sharedBrowser } from '../lib/harness.mjs';

const browser = sharedBrowser();

const STATUS = '[data-testid="emulator-status-blue"]';
const THINK_TARGET = 50e6; // cycles per second: real time at the board's 50 MHz
const COMPILE_TARGET_MS = 1000;

/** A yosys-style netlist of `stages` × 3 cells: 16-bit registers, each fed by the sum of itself
 * and its neighbour XOR the switches, with the DE2-115 pins (TX echoes RX). */
function bigNetlist(stages) {
  const param = (n) => n.toString(2).padStart(32, '0');
  let next = 2;
  const bus = (w) => Array.from({ length: w }, () => next++);
  const ports = {
    CLOCK_50: { direction: 'input', bits: bus(1) },
    UART_RXD: { direction: 'input', bits: bus(1) },
    KEY: { direction: 'input', bits: bus(4) },
    SW: { direction: 'input', bits: bus(18) },
  };
  ports.UART_TXD = { direction: 'output', bits: ports.UART_RXD.bits };
  const q = Array.from({ length: stages }, () => bus(16));
  const cells = {};
  const wide = { A_SIGNED: param(0), B_SIGNED: param(0), A_WIDTH: param(16), B_WIDTH: param(16), Y_WIDTH: param(16) };
  for (let i = 0; i < stages; i++) {
    const sum = bus(16);
    const d = bus(16);
    cells[`add${i}`] = { type: '$add', parameters: wide, connections: { A: q[i], B: q[(i + 1) % stages], Y: sum } };
    cells[`xor${i}`] = { type: '$xor', parameters: wide, connections: { A: sum, B: ports.SW.bits.slice(0, 16), Y: d } };
    cells[`reg${i}`] = {
      type: '$dff',
      parameters: { CLK_POLARITY: param(1), WIDTH: param(16) },
      connections: { CLK: ports.CLOCK_50.bits, D: d, Q: q[i] },
    };
  }
  const netnames = Object.fromEntries(q.map((bits, i) => [`r${i}`, { hide_name: 0, bits, attributes: {} }]));
  return JSON.stringify({ creator: 'board_speed.test.mjs', modules: { big: { attributes: { top: param(1) }, ports, cells, netnames } } });
}

function verdict(value, target, atMost) {
  const met = atMost ? value <= target : value >= target;
  if (met) return 'met';
  const by = atMost ? value / target : target / value;
  return `MISSED (by ${by.toFixed(2)}×)`;
}

async function readyMs(page, text) {
  await page.waitForSelector(`${STATUS}:has-text("${text}")`, { timeout: 180_000 });
  const status = await page.textContent(STATUS);
  assert.match(status, /compiled to WebAssembly/, status);
  return Number(/ready in (\d+) ms/.exec(status)[1]);
}

test('figures: the reference player running, and a 10,000-cell netlist to its first cycle', { timeout: 600_000 }, () =>
  browser.withPage({ route: '#/board' }, async (page) => {
    const playerMs = await readyMs(page, 'powered up');
    // Half a setup message: the player waits for the rest, and the console's run goes on for
    // a simulated second (50 M cycles) without a byte. The compiled module evaluates every
    // cell every cycle, so a cycle costs the same whether the player waits or thinks.
    await page.fill('[data-testid="console-input-blue"]', 'w\\x08\\n');
    const wallMs = await page.evaluate(async (selector) => {
      const status = () => document.querySelector(selector).textContent;
      const started = performance.now();
      document.querySelector('[data-testid="console-send-blue"]').click();
      let running = false;
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const now = status();
        running ||= now.includes('running');
        if (running && now.includes('waiting')) return performance.now() - started;
        if (performance.now() - started > 300_000) throw new Error(`still: ${now}`);
      }
    }, STATUS);
    const cycles = 50e6;
    const speed = cycles / (wallMs / 1000);

    // 3,334 stages of three cells: 10,002 cells.
    await page.setInputFiles('[data-testid="netlist-blue"]', {
      name: 'big.json',
      mimeType: 'application/json',
      buffer: Buffer.from(bigNetlist(3334)),
    });
    const ms = await readyMs(page, 'big.json: big powered up');

    console.log(
      `compiled back end in the board worker, headless Chromium (${await page.evaluate(() => navigator.userAgent.match(/Chrom\S+/)?.[0])}):\n` +
        `  reference player, a simulated second (≈ 50 M cycles) in ${wallMs.toFixed(0)} ms = ` +
        `${(speed / 1e6).toFixed(1)} M cycles/s; target ≥ ${THINK_TARGET / 1e6} M: ${verdict(speed, THINK_TARGET, false)}\n` +
        `  reference player (1,018 cells) ready in ${playerMs} ms; 10,002-cell netlist from upload to its first cycle ` +
        `(read, power up, compile): ${ms} ms; target ≤ ${COMPILE_TARGET_MS} ms: ${verdict(ms, COMPILE_TARGET_MS, true)}`,
    );
  }));
