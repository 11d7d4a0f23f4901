// The league page's test kit: the CLI's league for a plan (`quadrille soccer league --json`),
// the same league set up and run in the page, and the page's tables read back to compare.
//
// A player is a spec string (`engine:L`, `sim`, `sim:PATH`, `wasm:PATH`, or `serial` for the
// next port of the scripted `navigator.serial`), named as the page names it (its spec, or a
// file's stem); or `{ name, spec, verilog, top }`: a design the page synthesizes from the
// Verilog files `verilog` (paths) with top module `top`, which the CLI plays as `spec`.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { before } from 'node:test';

import { visit } from './harness.mjs';
import { findQuadrille } from './quadrille.mjs';

// Finds (or builds) `quadrille` before a test file's first test.
export function leagueCli() {
  before(() => findQuadrille(), { timeout: 900_000 });
}

const specOf = (player) => (typeof player === 'string' ? player : player.spec);

// The page's name of a player: a file's stem for an uploaded netlist or bot, else its spec.
export function pageName(player) {
  if (typeof player !== 'string') return player.name;
  const file = /^(?:sim|wasm):(.+)$/.exec(player)?.[1];
  return file ? basename(file).replace(/\.[^.]*$/, '') : player;
}

// `quadrille soccer league` of `players` on `sizes`, as JSON.
export function cliLeague({ players, sizes, turnMs, seed }) {
  const dir = mkdtempSync(join(tmpdir(), 'quadrille-league-'));
  const entries = players.map((p) => `[[player]]\nname = ${JSON.stringify(pageName(p))}\nspec = ${JSON.stringify(specOf(p))}\n`);
  const plan = `seed = ${seed}\nturn_ms = ${turnMs}\nsizes = [${sizes.map((s) => `"${s}"`).join(', ')}]\n\n${entries.join('\n')}`;
  const path = join(dir, 'league.toml');
  writeFileSync(path, plan);
  return JSON.parse(execFileSync(findQuadrille(), ['soccer', 'league', path, '--json', '--jobs', '2'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
}

// Opens the folded part of the form that holds the control `testid`.
export async function openDetails(page, testid) {
  const details = page.locator(`details:has([data-testid="${testid}"])`);
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
}

// Picks Verilog `files` (paths) with `top` in the league's picker and waits for the synthesis
// to end; answers the status's state and text.
export async function synthesizeInLeague(page, files, top) {
  await openDetails(page, 'league-verilog-files');
  await page.fill('input[data-testid="league-verilog-top"]', top);
  await page.setInputFiles('input[data-testid="league-verilog-files"]', files);
  const done = '[data-testid="league-synth-status"][data-state="ok"], [data-testid="league-synth-status"][data-state="error"]';
  await page.waitForSelector(done, { timeout: 300_000 });
  const status = page.locator('[data-testid="league-synth-status"]');
  return { state: await status.getAttribute('data-state'), text: await status.textContent() };
}

// Opens the league page with a clean form and no player.
export async function emptyLeague(page) {
  await visit(page, '#/league');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('[data-testid="league-page"]');
  while ((await page.locator('[data-testid="league-remove"]').count()) > 0) {
    await page.click('[data-testid="league-remove"] >> nth=0');
  }
}

// Sets up the league in the form (from a clean slate) and runs it. Consecutive bots go in one
// pick of several files.
export async function runInPage(page, { players, sizes, turnMs, seed }) {
  await emptyLeague(page);
  for (let k = 0; k < players.length; k++) {
    const spec = players[k];
    if (typeof spec !== 'string') {
      const { state, text } = await synthesizeInLeague(page, spec.verilog, spec.top);
      assert.equal(state, 'ok', text);
    } else if (spec.startsWith('wasm:')) {
      let end = k;
      while (typeof players[end + 1] === 'string' && players[end + 1].startsWith('wasm:')) end++;
      await page.setInputFiles('input[data-testid="league-bots"]', players.slice(k, end + 1).map((p) => p.slice(5)));
      k = end;
    } else if (spec === 'sim') {
      await page.click('[data-testid="league-add-emulated"]');
    } else if (spec === 'serial') {
      await page.click('[data-testid="league-add-serial"]');
    } else if (spec.startsWith('sim:')) {
      await page.setInputFiles('input[data-testid="league-netlists"]', spec.slice(4));
    } else {
      await page.selectOption('select[data-testid="league-engine-level"]', spec.replace('engine:', ''));
      await page.click('[data-testid="league-add-engine"]');
    }
    await page.waitForSelector(`[data-testid="league-player"] >> nth=${k}`, { timeout: 60_000 });
  }
  const names = await page.$$eval('[data-testid="league-player"]', (rows) => rows.map((r) => r.dataset.name));
  assert.equal(names.length, players.length);
  names.forEach((name, k) => {
    if (players[k] === 'serial') assert.match(name, /^board /);
    else assert.equal(name, pageName(players[k]));
  });
  await page.fill('input[data-testid="league-sizes"]', sizes.join(','));
  await page.fill('input[data-testid="league-turn-ms"]', String(turnMs));
  await page.fill('input[data-testid="league-seed"]', String(seed));
  // `change` fires on blur.
  await page.click('h1');
  await page.click('[data-testid="league-run"]');
}

export async function standings(page) {
  return page.$$eval('[data-testid="league-standing"]', (rows) =>
    rows.map((r) => ({ name: r.dataset.name, place: Number(r.dataset.place), points: Number(r.dataset.points) })),
  );
}

export async function games(page) {
  return page.$$eval('[data-testid="league-game"]', (rows) =>
    rows.map((r) => ({ record: r.dataset.record, winner: r.dataset.winner, reason: r.dataset.reason })),
  );
}

export async function gamesDone(page) {
  return Number(await page.getAttribute('[data-testid="league-progress"]', 'value'));
}

// The page's tables and its exported JSON against the CLI's.
export async function assertSameAsCli(page, cli) {
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
