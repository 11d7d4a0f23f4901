// The Paper Soccer league in the page (#/league): engine levels play a round robin in the
// page's workers to the standings, which must be the CLI's (`quadrille soccer league PLAN
// --json`) for the same plan and seed, down to every game's record; a reload mid-league
// resumes and completes with the same standings.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';

import { sharedBrowser, visit } from '../lib/harness.mjs';
import { findQuadrille } from '../lib/quadrille.mjs';

// `quadrille`, for the CLI's standings.
let quadrille;

before(() => {
  quadrille = findQuadrille();
}, { timeout: 900_000 });
const browser = sharedBrowser();

// `quadrille soccer league` of `players` (specs: `engine:L`, `sim`; named by their specs, as
// the page names them) on `sizes`, as JSON.
function cliLeague({ players: specs, sizes, turnMs, seed }) {
  const dir = mkdtempSync(join(tmpdir(), 'quadrille-league-'));
  const players = specs.map((spec) => `[[player]]\nname = "${spec}"\nspec = "${spec}"\n`);
  const plan = `seed = ${seed}\nturn_ms = ${turnMs}\nsizes = [${sizes.map((s) => `"${s}"`).join(', ')}]\n\n${players.join('\n')}`;
  const path = join(dir, 'league.toml');
  writeFileSync(path, plan);
  return JSON.parse(execFileSync(quadrille, ['soccer', 'league', path, '--json', '--jobs', '2'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
}

// Sets up the league in the form (from a clean slate) and runs it.
async function runInPage(page, { players, sizes, turnMs, seed }) {
  await visit(page, '#/league');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('[data-testid="league-page"]');
  while ((await page.locator('[data-testid="league-remove"]').count()) > 0) {
    await page.click('[data-testid="league-remove"] >> nth=0');
  }
  for (const spec of players) {
    if (spec === 'sim') {
      await page.click('[data-testid="league-add-emulated"]');
    } else {
      await page.selectOption('select[data-testid="league-engine-level"]', spec.replace('engine:', ''));
      await page.click('[data-testid="league-add-engine"]');
    }
  }
  const names = await page.$$eval('[data-testid="league-player"]', (rows) => rows.map((r) => r.dataset.name));
  assert.deepEqual(names, players);
  await page.fill('input[data-testid="league-sizes"]', sizes.join(','));
  await page.fill('input[data-testid="league-turn-ms"]', String(turnMs));
  await page.fill('input[data-testid="league-seed"]', String(seed));
  // `change` fires on blur.
  await page.click('h1');
  await page.click('[data-testid="league-run"]');
}

async function standings(page) {
  return page.$$eval('[data-testid="league-standing"]', (rows) =>
    rows.map((r) => ({ name: r.dataset.name, place: Number(r.dataset.place), points: Number(r.dataset.points) })),
  );
}

async function games(page) {
  return page.$$eval('[data-testid="league-game"]', (rows) =>
    rows.map((r) => ({ record: r.dataset.record, winner: r.dataset.winner, reason: r.dataset.reason })),
  );
}

async function gamesDone(page) {
  return Number(await page.getAttribute('[data-testid="league-progress"]', 'value'));
}

// The page's tables and its exported JSON against the CLI's.
async function assertSameAsCli(page, cli) {
  assert.deepEqual(
    await standings(page),
    cli.standings.map((s) => ({ name: s.name, place: s.place, points: s.points })),
  );
  assert.deepEqual(
    await games(page),
    cli.games.map((g) => ({ record: g.record, winner: g.winner, reason: g.reason })),
  );
  const download = page.waitForEvent('download');
  await page.click('[data-testid="league-export-json"]');
  const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
  assert.deepEqual(exported, cli);
}

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

const RELOAD = { players: ['engine:0', 'engine:3', 'engine:4'], sizes: ['8x10'], turnMs: 20000, seed: 3 };

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
