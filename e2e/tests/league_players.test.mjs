// Players of the league made on the side of the form: a design in Verilog synthesized in the
// page (yosys in a worker, the picker of `#/board`) plays as the reference netlist does in the
// CLI, and its netlist can be saved for the CLI's plan; a synthesis error names its file and
// line and adds no player; players added while files are still being read are all kept;
// boards on serial ports open with the form's line.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { fakeSerialScript } from '../lib/fake_serial.mjs';
import { sharedBrowser } from '../lib/harness.mjs';
import { PLAYER_SOURCES } from '../lib/hdl.mjs';
import {
  assertSameAsCli, cliLeague, emptyLeague, leagueCli, openDetails, runInPage, synthesizeInLeague,
} from '../lib/league.mjs';

leagueCli();
const browser = sharedBrowser();

const BOT = fileURLToPath(new URL('./league-fixtures/junk.wasm', import.meta.url));

const names = (page) => page.$$eval('[data-testid="league-player"]', (rows) => rows.map((r) => r.dataset.name));

// The reference player's sources, synthesized in the page, named by their top module; the
// CLI plays the same league with the reference netlist (`sim`) under that name.
const VERILOG = {
  players: ['engine:0', { name: 'de2_115_top', spec: 'sim', verilog: PLAYER_SOURCES, top: 'de2_115_top' }],
  sizes: ['4x4'],
  turnMs: 1000,
  seed: 5,
};

test('the reference player synthesized from its Verilog plays the league as the CLI\'s sim', { timeout: 900_000 }, async () => {
  const cli = cliLeague(VERILOG);
  await browser.withPage(async (page) => {
    const started = Date.now();
    await runInPage(page, VERILOG);
    const text = await page.textContent('[data-testid="league-synth-status"]');
    assert.match(text, /de2_115_top \(Verilog: de2_115_top\.v and \d+ more files\) joins the league/);
    console.log(`synthesized in the league page: ${text} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    await page.waitForSelector('[data-testid="league-status"][data-state="done"]', { timeout: 550_000 });
    await assertSameAsCli(page, cli);
    // The plan names the design's netlist and its hash.
    const download = page.waitForEvent('download');
    await page.click('[data-testid="league-export-plan"]');
    const plan = readFileSync(await (await download).path(), 'utf8');
    assert.match(plan, /name = "de2_115_top"\nspec = "sim:de2_115_top\.json"\n# the file's FNV-1a hash: [0-9a-f]{16}\n/);
    // The synthesized netlist is saved from the player's row: the very bytes the plan's hash
    // names, a yosys netlist of the design, for the CLI.
    const hash = /# the file's FNV-1a hash: ([0-9a-f]{16})/.exec(plan)[1];
    const saving = page.waitForEvent('download');
    await page.click('[data-testid="league-player"][data-name="de2_115_top"] [data-testid="league-netlist-download"]');
    const saved = await saving;
    assert.equal(saved.suggestedFilename(), 'de2_115_top.json');
    const bytes = readFileSync(await saved.path());
    assert.equal(fnv1a64(bytes), hash);
    assert.ok(JSON.parse(bytes.toString('utf8')).modules.de2_115_top, 'a netlist of de2_115_top');
    // Engines have no netlist to save.
    assert.equal(await page.locator('[data-testid="league-player"][data-name="engine:0"] [data-testid="league-netlist-download"]').count(), 0);
  });
});

/** FNV-1a, 64 bits, as lowercase hex: the hash the page keys uploads by. */
function fnv1a64(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

test('a synthesis error names its file and line and adds no player', { timeout: 600_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quadrille-league-verilog-'));
  const broken = join(dir, 'broken.v');
  writeFileSync(broken, 'module broken(input CLOCK_50, input UART_RXD, output UART_TXD);\n  assign UART_TXD = UART_RXD\nendmodule\n');
  await browser.withPage(async (page) => {
    await emptyLeague(page);
    const { state, text } = await synthesizeInLeague(page, [broken], 'broken');
    assert.equal(state, 'error', text);
    assert.match(text, /broken\.v:3: ERROR/);
    assert.match(text, /no player added/);
    assert.match(await page.textContent('[data-testid="league-synth-log"]'), /broken\.v:3: ERROR: syntax error/);
    assert.deepEqual(await names(page), []);
  });
});

test('players added while files are still being read are all kept, in order of arrival', { timeout: 120_000 }, async () => {
  await browser.withPage(async (page) => {
    await emptyLeague(page);
    // No waiting between them: the bot's file is read while the engines are added.
    await page.setInputFiles('input[data-testid="league-bots"]', BOT);
    await page.click('[data-testid="league-add-engine"]');
    await page.click('[data-testid="league-add-emulated"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="league-player"]').length === 3);
    assert.deepEqual([...(await names(page))].sort(), ['engine:2', 'junk', 'sim']);
    assert.equal(await page.locator('[data-testid="league-pending"]').count(), 0);
    // The same file again is the same bytes: one more player of the same name, made unique.
    await page.setInputFiles('input[data-testid="league-bots"]', BOT);
    await page.waitForSelector('[data-testid="league-player"][data-name="junk #2"]');
    // And the form, with the bots' hashes, comes back after a reload.
    const before = await names(page);
    await page.reload();
    await page.waitForSelector('[data-testid="league-player"] >> nth=3');
    assert.deepEqual(await names(page), before);
  });
});

test('a board on a serial port opens with the line set in the form, kept across a reload', { timeout: 120_000 }, async () => {
  const init = [{ content: fakeSerialScript({ ports: [{ bot: { seed: 9, delayMs: 2 } }] }) }];
  await browser.withPage({ init }, async (page) => {
    await emptyLeague(page);
    await openDetails(page, 'league-baud');
    await page.fill('input[data-testid="league-baud"]', '9600');
    await page.press('input[data-testid="league-baud"]', 'Enter');
    await page.selectOption('select[data-testid="league-parity"]', 'even');
    await page.selectOption('select[data-testid="league-stop-bits"]', '1');
    await page.click('h1');
    await page.reload();
    await page.waitForSelector('[data-testid="league-page"]');
    await openDetails(page, 'league-baud');
    assert.equal(await page.inputValue('input[data-testid="league-baud"]'), '9600');
    await page.click('[data-testid="league-add-serial"]');
    await page.waitForSelector('[data-testid="league-player"][data-name^="board "]');
    const opened = await page.evaluate(() => window.__fakeSerial.ports[0].opens[0]);
    assert.equal(opened.baudRate, 9600);
    assert.equal(opened.parity, 'even');
    assert.equal(opened.stopBits, 1);
    assert.equal(opened.dataBits, 8);
    // A rate that is none is refused and named.
    await page.fill('input[data-testid="league-baud"]', '0');
    await page.press('input[data-testid="league-baud"]', 'Enter');
    await page.click('h1');
    assert.match(await page.textContent('[data-testid="league-line-error"]'), /0/);
  });
});
