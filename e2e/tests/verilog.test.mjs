// Verilog synthesized in the page: yosys (@yowasp/yosys, served from dist/) runs in a worker
// with the project's netlist flow on the files picked for an emulated board. The reference
// player's sources become a board that plays a whole legal game; a syntax error comes back with
// its file and line while the previous board keeps running; a netlist upload still works after.
// The synthesis times in headless Chromium are printed.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { kickOffByHand } from '../lib/board.mjs';
import { sharedBrowser } from '../lib/harness.mjs';
import { PLAYER_SOURCES } from '../lib/hdl.mjs';
import { replay, resultOf, start } from '../lib/soccer.mjs';

const browser = sharedBrowser();

const LOOP = fileURLToPath(new URL('../../hdl-sim/tests/designs/loop.v', import.meta.url));
const NETLIST = fileURLToPath(new URL('../../hdl/netlist/de2_115_top.json', import.meta.url));

// Reasons a board's game may end with that say nothing about its turns being legal and on time.
const BOARD_FAULTS = ['timeout', 'disconnect', 'illegal_step', 'incomplete_turn', 'after_end'];

// Picks `files` (paths) for the emulated board of `side` with `top` typed first; waits for
// the synthesis to end in `state` and returns its status text and seconds.
async function synthesize(page, side, files, top, state = 'ok') {
  const setup = page.locator(`[data-testid="board-setup-${side}"]`);
  await setup.locator('input[data-testid="verilog-top"]').fill(top);
  const started = Date.now();
  await setup.locator('input[data-testid="verilog-files"]').setInputFiles(files);
  const status = setup.locator('[data-testid="synth-status"]');
  await setup
    .locator(`[data-testid="synth-status"][data-state="ok"], [data-testid="synth-status"][data-state="error"]`)
    .waitFor({ timeout: 300_000 });
  const text = await status.textContent();
  assert.equal(await status.getAttribute('data-state'), state, text);
  return { text, seconds: (Date.now() - started) / 1000 };
}

const emulatorStatus = (side) => `[data-testid="emulator-status-${side}"]`;

test('the reference player synthesized from its Verilog plays a whole legal game', { timeout: 900_000 }, () =>
  browser.withPage({ route: '#/soccer' }, async (page) => {
    await page.selectOption('[data-testid="side-red"]', 'emulated');
    await page.waitForSelector(`${emulatorStatus('red')}:has-text("powered up")`, { timeout: 180_000 });
    const setup = page.locator('[data-testid="board-setup-red"]');
    assert.equal(await setup.locator('[data-testid="synth-status"]').getAttribute('data-state'), 'idle');
    const { text, seconds } = await synthesize(page, 'red', PLAYER_SOURCES, 'de2_115_top');
    const label = `de2_115_top (Verilog: de2_115_top.v and ${PLAYER_SOURCES.length - 1} more files)`;
    assert.ok(text.includes(label), text);
    const log = await setup.locator('[data-testid="synth-log"]').textContent();
    // The documented flow ran: whole memories (`memory -nomap`: no MEMORY_MAP), plain
    // flip-flops, a JSON netlist.
    for (const pass of ['Executing MEMORY pass', 'Executing ASYNC2SYNC pass', 'Executing DFFUNMAP pass', 'Executing JSON backend']) {
      assert.ok(log.includes(pass), `the log shows ${pass}`);
    }
    assert.ok(!log.includes('MEMORY_MAP'), 'memories are not mapped to flip-flops');
    await page.waitForSelector(`${emulatorStatus('red')}:has-text("${label}: de2_115_top powered up")`, {
      timeout: 180_000,
    });
    console.log(`reference player synthesized in the page: ${text} (${seconds.toFixed(1)} s until the status said so)`);

    await page.selectOption('[data-testid="side-blue"]', 'engine');
    await page.selectOption('[data-testid="level-blue"]', '1');
    await page.fill('[data-testid="limit-blue"]', '10000');
    await start(page, { starter: 'red' });
    const { winner, reason, record } = await resultOf(page, 600_000);
    const { turns } = replay(record);
    assert.ok(turns.length >= 2, record);
    assert.ok(!BOARD_FAULTS.includes(reason), `${record} # ${winner} ${reason}`);
    // Every turn the board sent was one the monitor decoded as a turn.
    const labels = await page.$$eval('[data-testid="serial-log"] > [data-dir="rx"][data-side="red"]', (rows) =>
      rows.map((r) => r.dataset.label),
    );
    assert.ok(labels.length > 0 && labels.every((l) => /^\{[0-7]+\}$/.test(l)), labels.join(' '));
  }));

test('a syntax error names its file and line and the running board keeps running; a netlist upload still works', { timeout: 600_000 }, () =>
  browser.withPage({ route: '#/board' }, async (page) => {
    // Board 2 is emulated: the reference player powers up.
    await page.waitForSelector(`${emulatorStatus('blue')}:has-text("powered up")`, { timeout: 180_000 });
    const dir = mkdtempSync(join(tmpdir(), 'quadrille-verilog-'));
    const good = join(dir, 'good.v');
    const broken = join(dir, 'broken.v');
    writeFileSync(good, 'module good(input a, output b);\n  assign b = a;\nendmodule\n');
    writeFileSync(
      broken,
      'module broken(input CLOCK_50, input UART_RXD, output UART_TXD);\n' +
        '  good g(.a(UART_RXD), .b(UART_TXD))\n' +
        'endmodule\n',
    );
    const { text, seconds } = await synthesize(page, 'blue', [good, broken], 'broken', 'error');
    assert.match(text, /broken\.v:3: ERROR/);
    const log = await page.textContent('[data-testid="board-setup-blue"] [data-testid="synth-log"]');
    assert.match(log, /broken\.v:3: ERROR: syntax error/);
    console.log(`broken Verilog refused in ${seconds.toFixed(1)} s: ${text}`);
    // The reference player is still the board, and it still plays.
    assert.match(await page.textContent(emulatorStatus('blue')), /^the reference player \(hdl\/\): /);
    await kickOffByHand(page, 'blue');

    // A design of one's own replaces it: the echo board sends back what it gets.
    await synthesize(page, 'blue', [LOOP], '');
    await page.waitForSelector(`${emulatorStatus('blue')}:has-text("(Verilog: loop.v): loop powered up")`, {
      timeout: 180_000,
    });
    const rxBefore = await page.$$eval('[data-testid="board-slot-blue"] [data-dir="rx"]', (r) => r.length);
    await page.fill('[data-testid="console-input-blue"]', 'echo');
    await page.click('[data-testid="console-send-blue"]');
    await page.waitForFunction(
      (n) => [...document.querySelectorAll('[data-testid="board-slot-blue"] [data-dir="rx"]')]
        .slice(n).map((r) => r.dataset.hex).join(' ').includes('65 63 68 6f'),
      rxBefore,
      { timeout: 120_000 },
    );

    // An uploaded netlist still powers up in its place.
    await page.setInputFiles('[data-testid="netlist-blue"]', NETLIST);
    await page.waitForSelector(`${emulatorStatus('blue')}:has-text("de2_115_top.json: de2_115_top powered up")`, {
      timeout: 180_000,
    });
  }));
