// The Paper Soccer league in the page (#/league): engine levels play a round robin in the
// page's workers to the standings, which must be the CLI's (`quadrille soccer league PLAN
// --json`) for the same plan and seed, down to every game's record; a reload mid-league
// resumes and completes with the same standings.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { sharedBrowser } from '../lib/harness.mjs';
import { expectedReceived, fakeSerialScript } from '../lib/fake_serial.mjs';
import { assertSameAsCli, cliLeague, gamesDone, leagueCli, runInPage, standings } from '../lib/league.mjs';

leagueCli();
const browser = sharedBrowser();

const SMALL = { players: ['engine:0', 'engine:1', 'engine:2'], sizes: ['4x4', '6x6'], turnMs: 3000, seed: 11 };

test('a league of three engine levels runs to the CLI standings', { timeout: 180_000 }, async () => {
  const cli = cliLeague(SMALL);
  assert.equal(cli.games.length, 12);
  await browser.withPage(async (page) => {
    await runInPage(page, SMALL);
    await page.waitForSelector('[data-testid="league-status"][data-state="done"]', { timeout: 150_000 });
    assert.equal(await gamesDone(page), 12);
    assert.equal(await page.getAttribute('[data-testid="league-progress"]', 'max'), '12');
    await assertSameAsCli(page, cli);
    // Every game opens in the soccer page with its record.
    const href = await page.getAttribute('[data-testid="league-replay"] >> nth=0', 'href');
    assert.equal(href, `#/soccer?record=${encodeURIComponent(cli.games[0].record)}`);
    // The records export is the CLI's records file: one line per game, in schedule order.
    const download = page.waitForEvent('download');
    await page.click('[data-testid="league-export-records"]');
    const records = readFileSync(await (await download).path(), 'utf8');
    assert.equal(records, cli.games.map((g) => `${g.record}\n`).join(''));
    // The replay link opens the game on the soccer page, finished as the league saw it.
    await page.click('[data-testid="league-replay"] >> nth=0');
    const result = await page.waitForSelector('main[data-route="#/soccer"] [data-testid="result"]');
    assert.equal(await result.getAttribute('data-winner'), cli.games[0].winner);
    assert.equal(await result.getAttribute('data-reason'), cli.games[0].reason);
    assert.equal((await page.textContent('[data-testid="record"]')).trim(), cli.games[0].record.split(' # ')[0]);
  });
});

const RELOAD = { players: ['engine:0', 'engine:4', 'engine:5'], sizes: ['8x10'], turnMs: 20000, seed: 3 };

test('a reload mid-league resumes and completes with the same standings', { timeout: 400_000 }, async () => {
  const cli = cliLeague(RELOAD);
  await browser.withPage(async (page) => {
    await runInPage(page, RELOAD);
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="league-progress"]')?.getAttribute('value')) >= 2,
      null,
      { timeout: 200_000 },
    );
    await page.reload();
    await page.waitForSelector('[data-testid="league-status"]');
    const kept = await gamesDone(page);
    assert.ok(kept >= 2, `the games played before the reload are kept (${kept})`);
    assert.ok(kept < cli.games.length, `the league was still running at the reload (${kept})`);
    assert.equal(await page.getAttribute('[data-testid="league-status"]', 'data-state'), 'running');
    // The form came back too.
    assert.equal(await page.inputValue('input[data-testid="league-sizes"]'), RELOAD.sizes.join(','));
    await page.waitForSelector('[data-testid="league-status"][data-state="done"]', { timeout: 300_000 });
    await assertSameAsCli(page, cli);
  });
});

// The reference player on an emulated board (powered up afresh for each game, one game at a
// time) is a player like any other, and plays as the CLI's `sim` does.
const EMULATED = { players: ['engine:1', 'sim'], sizes: ['4x4'], turnMs: 1000, seed: 5 };

test('an emulated reference board plays its games, as in the CLI', { timeout: 600_000 }, async () => {
  const cli = cliLeague(EMULATED);
  await browser.withPage(async (page) => {
    await runInPage(page, EMULATED);
    await page.waitForSelector('[data-testid="league-status"][data-state="done"]', { timeout: 550_000 });
    await assertSameAsCli(page, cli);
  });
});

test('a plan the league refuses is named, and nothing runs', { timeout: 60_000 }, async () => {
  await browser.withPage(async (page) => {
    await runInPage(page, { players: ['engine:1'], sizes: ['8x10'], turnMs: 1000, seed: 1 });
    assert.match(await page.textContent('[data-testid="league-error"]'), /at least 2 players/);
    assert.equal(await page.locator('[data-testid="league-status"]').count(), 0);
    await page.selectOption('select[data-testid="league-engine-level"]', '2');
    await page.click('[data-testid="league-add-engine"]');
    await page.fill('input[data-testid="league-sizes"]', '8x10,7x9');
    await page.click('h1');
    await page.click('[data-testid="league-run"]');
    assert.match(await page.textContent('[data-testid="league-error"]'), /size 2 \("7x9"\)/);
    // A player is removed from the middle of the list; the others keep their order.
    await page.selectOption('select[data-testid="league-engine-level"]', '3');
    await page.click('[data-testid="league-add-engine"]');
    await page.click('[data-testid="league-remove"] >> nth=1');
    const names = await page.$$eval('[data-testid="league-player"]', (rows) => rows.map((r) => r.dataset.name));
    assert.deepEqual(names, ['engine:1', 'engine:3']);
  });
});

// A board on a (scripted) serial port is a player: it plays its games one after the other on
// its port, refereed byte for byte, while the engines' game runs as in the CLI.
const SERIAL = { players: ['engine:1', 'serial', 'engine:0'], sizes: ['4x4'], turnMs: 3000, seed: 2 };

test('a board on a serial port plays its games one at a time', { timeout: 300_000 }, async () => {
  // The CLI's league with an engine where the board is: games 2 and 3 (engine:1 v engine:0)
  // are seeded by the league's seed and their number alone, so they are the page's.
  const cli = cliLeague({ ...SERIAL, players: ['engine:1', 'engine:2', 'engine:0'] });
  const init = [{ content: fakeSerialScript({ ports: [{ bot: { seed: 9, delayMs: 2 } }] }) }];
  await browser.withPage({ init }, async (page) => {
    await runInPage(page, SERIAL);
    const board = await page.getAttribute('[data-testid="league-player"] >> nth=1', 'data-name');
    assert.match(board, /^board USB 0403:6001$/);
    await page.waitForSelector('[data-testid="league-status"][data-state="done"]', { timeout: 250_000 });
    const played = await page.$$eval('[data-testid="league-game"]', (rows) =>
      rows.map((r) => ({ text: r.textContent, record: r.dataset.record, winner: r.dataset.winner, reason: r.dataset.reason })),
    );
    assert.equal(played.length, 6);
    assert.deepEqual(played.slice(2, 4).map((g) => g.record), cli.games.slice(2, 4).map((g) => g.record));
    // The board's games (0, 1: against engine:1; 4, 5: against engine:0), in schedule order,
    // one after the other on its port: it received exactly each game's set-up and the
    // opponent's turns, and neither side broke a rule.
    const sides = [[0, 'blue'], [1, 'red'], [4, 'red'], [5, 'blue']];
    let expected = '';
    for (const [k, side] of sides) {
      const { record, reason } = played[k];
      assert.ok(['goal', 'own_goal', 'stuck'].includes(reason), `game ${k + 1}: ${record}`);
      expected += expectedReceived(record, side);
    }
    assert.equal(await page.evaluate(() => window.__fakeSerial.text(0)), expected);
    // The standings count the games as played.
    const wins = Object.fromEntries([board, 'engine:0', 'engine:1'].map((n) => [n, 0]));
    const rows = await page.$$eval('[data-testid="league-game"]', (els) => els.map((r) => r.textContent));
    played.forEach((g, k) => {
      const [red, blue] = rows[k].split(' on ')[0].split(' – ');
      wins[g.winner === 'red' ? red : blue] += 1;
    });
    for (const row of await standings(page)) assert.equal(row.points, wins[row.name], row.name);
  });
});

// A player's own design: a netlist file (here the reference player's, so the CLI can play the
// same league with `sim:PATH`) on an emulated board, kept in IndexedDB across a reload. The
// reload comes during the engines' first games (the schedule's first pair), so no board is
// powering up then, and the design's games are all played after it, from the kept file.
const NETLIST = new URL('../../hdl/netlist/de2_115_top.json', import.meta.url).pathname;
// Levels 5 and 4 (120 K and 5 K steps a turn) make the engines' games long enough that the
// reload lands inside the second one, not while the next game's workers are starting.
const DESIGN = { players: ['engine:5', 'engine:4', `sim:${NETLIST}`], sizes: ['6x6'], turnMs: 2000, seed: 8 };

test('an uploaded netlist plays as the CLI\'s sim:NETLIST, and a reload keeps it', { timeout: 600_000 }, async () => {
  const cli = cliLeague(DESIGN);
  await browser.withPage(async (page) => {
    await runInPage(page, DESIGN);
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="league-progress"]')?.getAttribute('value')) >= 1,
      null,
      { timeout: 300_000 },
    );
    await page.reload();
    await page.waitForSelector('[data-testid="league-status"]');
    const kept = await gamesDone(page);
    assert.ok(kept >= 1 && kept < 6, `the league was still running at the reload (${kept})`);
    assert.deepEqual(
      await page.$$eval('[data-testid="league-player"]', (rows) => rows.map((r) => r.dataset.name)),
      ['engine:5', 'engine:4', 'de2_115_top'],
    );
    await page.waitForSelector('[data-testid="league-status"][data-state="done"]', { timeout: 500_000 });
    await assertSameAsCli(page, cli);
    // A file that is no board is refused, named, and adds no player.
    await page.setInputFiles('input[data-testid="league-netlists"]', {
      name: 'nothing.json', mimeType: 'application/json', buffer: Buffer.from('{"modules": {}}'),
    });
    await page.waitForSelector('[data-testid="league-error"]');
    assert.match(await page.textContent('[data-testid="league-error"]'), /^nothing\.json: /);
    assert.equal(await page.locator('[data-testid="league-player"]').count(), 3);
  });
});

// WebAssembly bots (`.wasm` files, named by their stems) play in the page, in workers, with
// engine levels and the emulated reference board, to the CLI's standings: the example bot,
// and the CLI tests' bad bots (cli/tests/soccer_wasm_bots.rs, checked to be these files),
// which lose by the same reasons (trap: disconnect, silent: timeout, junk: illegal_step).
const FIXTURES = new URL('./league-fixtures/', import.meta.url).pathname;
const RANDOM_BOT = new URL('../../target/pilots/wasm/random-bot.wasm', import.meta.url).pathname;
const BOTS = {
  players: ['engine:0', 'engine:2', 'sim', `wasm:${RANDOM_BOT}`,
    ...['trap', 'silent', 'junk'].map((name) => `wasm:${FIXTURES}${name}.wasm`)],
  sizes: ['4x4'],
  turnMs: 1500,
  seed: 4,
};

test('WebAssembly bots good and bad play the league as in the CLI', { timeout: 1_500_000 }, async () => {
  if (!existsSync(RANDOM_BOT)) {
    execFileSync('cargo', ['xtask', 'pilots'], { cwd: new URL('../..', import.meta.url).pathname, stdio: 'ignore' });
  }
  const cli = cliLeague(BOTS);
  const reasons = { trap: 'disconnect', silent: 'timeout', junk: 'illegal_step' };
  for (const g of cli.games) {
    const bad = reasons[g.red] ? 'red' : reasons[g.blue] ? 'blue' : null;
    if (bad) assert.equal(g.reason, reasons[g[bad]], `the CLI: ${g.red} v ${g.blue}`);
  }
  await browser.withPage(async (page) => {
    await runInPage(page, BOTS);
    await page.waitForSelector('[data-testid="league-status"][data-state="done"]', { timeout: 1_400_000 });
    await assertSameAsCli(page, cli);
  });
});
