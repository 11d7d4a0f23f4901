// Pilot programs (.wasm, WASI preview 1) in the pilot lab (#/pilots): each runs in a web worker of
// its own under the same rules as `quadrille pilot --pilot X.wasm` (app::wasi), and the page's
// verdict must be the CLI's for the same module — for every way a pilot can go wrong (the
// purpose-built modules of pilots/faults/, assembled by `cargo xtask pilots`) and for the
// example pilots, whose laps then race together in the lab.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { sharedBrowser } from '../lib/harness.mjs';

const RING = fileURLToPath(new URL('../../engine/samples/ring.cir', import.meta.url));
// `cargo xtask test` says where it built the pilots; by hand, the default target directory.
const PILOTS =
  process.env.QUADRILLE_PILOTS ?? fileURLToPath(new URL('../../target/pilots/wasm', import.meta.url));
const VERDICT = '[data-testid="verdict"]';
const CANVAS = 'canvas[data-testid="lab-canvas"]';
// The time limit both hosts get (s): long enough for the examples on a busy machine.
const LIMIT = '3';

const browser = sharedBrowser();

function pilot(path) {
  assert.ok(existsSync(path), `${path} is missing: run \`cargo xtask pilots\``);
  return path;
}

// `quadrille pilot ring.cir --pilot <module> --json --time-limit LIMIT [extra…]`, in a scratch
// directory.
function cli(module, extra = []) {
  const dir = mkdtempSync(join(tmpdir(), 'quadrille-wasm-'));
  copyFileSync(RING, join(dir, 'ring.cir'));
  const run = spawnSync(
    process.env.QUADRILLE_BIN,
    ['pilot', 'ring.cir', '--pilot', module, '--json', '--time-limit', LIMIT, ...extra],
    { cwd: dir, encoding: 'utf8' },
  );
  assert.ok(run.stdout, `${module}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function inLab(body) {
  return browser.withPage({ route: '#/pilots' }, async (page) => {
    await page.evaluate(() => localStorage.clear());
    await page.setInputFiles('[data-testid="lab-cir-file"]', RING);
    await page.waitForSelector(`${CANVAS}[data-circuit="ring"]`);
    await page.fill('[data-testid="pilot-wasm-time-limit"]', LIMIT);
    await page.dispatchEvent('[data-testid="pilot-wasm-time-limit"]', 'change');
    await body(page);
  });
}

// Runs one module in the page; its progress line and the verdict the page gives it.
async function runInPage(page, path, name) {
  await page.setInputFiles('[data-testid="pilot-wasm"]', path);
  const row = `[data-testid="pilot-run"][data-name="${name}"]`;
  // A quick module may be done before the first look: its row is there, running or done.
  await page.waitForSelector(row, { state: 'attached' });
  await page.waitForSelector(`${row}[data-state="done"]`, { timeout: 30_000 });
  const line = await page.textContent(`${row} [data-testid="pilot-run-line"]`);
  const verdict = await page.$eval(`${VERDICT}[data-pilot="${name}"]`, (el) => ({
    valid: el.getAttribute('data-valid'),
    fault: el.getAttribute('data-fault'),
    line: el.getAttribute('data-line'),
    time: el.getAttribute('data-time'),
    text: el.textContent,
  }));
  return { line, verdict };
}

const FAULTS = {
  trap: 'pilot_crash',
  'late-trap': 'pilot_crash',
  spin: 'pilot_timeout',
  sleeper: 'pilot_timeout',
  hog: 'pilot_memory',
  fat: 'pilot_memory',
  silent: 'no_result',
  garbage: 'bad_result',
  folder: 'bad_result',
  short: 'did_not_finish',
  escape: 'did_not_finish',
  hoarder: 'pilot_crash',
  hydra: 'pilot_crash',
};

test('every faulty pilot gets the same verdict in the page as from quadrille pilot --json', () =>
  inLab(async (page) => {
    for (const [name, kind] of Object.entries(FAULTS)) {
      const path = pilot(join(PILOTS, 'faults', `${name}.wasm`));
      const expected = cli(path);
      assert.equal(expected.fault, kind, `the CLI on ${name}: ${JSON.stringify(expected)}`);
      const { line, verdict } = await runInPage(page, path, name);
      assert.match(line, new RegExp(`^${name}: done in \\d+\\.\\d\\d s`), line);
      assert.equal(verdict.valid, 'false', name);
      assert.equal(verdict.fault, expected.fault, `${name}: ${verdict.text}`);
      if (expected.line !== undefined) assert.equal(verdict.line, String(expected.line), name);
      if (name === 'escape') {
        // It could not read the host's file: it wrote its "blocked" lap.
        assert.ok(!verdict.text.includes('root:'), verdict.text);
      }
    }
    const rows = await page.$$eval('[data-testid="lap-row"]', (r) => r.length);
    assert.equal(rows, Object.keys(FAULTS).length);
  }));

// Sets one of the pilot programs' settings as a user does (the page reads it on `change`).
async function setField(page, testid, value) {
  await page.fill(`[data-testid="${testid}"]`, value);
  await page.dispatchEvent(`[data-testid="${testid}"]`, 'change');
}

// Same verdict and time as the CLI, for a run of `dice` (pilots/faults/dice.wat: its lap depends
// on random_get) with seed `seed`.
async function diceAsTheCli(page, path, seed) {
  const expected = cli(path, ['--seed', String(seed)]);
  const { verdict } = await runInPage(page, path, 'dice');
  assert.equal(verdict.valid, String(expected.valid), `seed ${seed}: ${verdict.text}`);
  assert.equal(verdict.fault, expected.fault, `seed ${seed}: ${verdict.text}`);
  assert.equal(verdict.time, expected.valid ? expected.time.toFixed(2) : null, `seed ${seed}`);
  return expected;
}

test('random_get follows the seed set in the lab, as quadrille pilot --seed does', async () => {
  const path = pilot(join(PILOTS, 'faults', 'dice.wasm'));
  // By default (seed 0, as in the CLI) dice drives the lap; seed 2 stops it at the start.
  await inLab(async (page) => {
    assert.equal(await page.inputValue('[data-testid="pilot-wasm-seed"]'), '0');
    assert.equal((await diceAsTheCli(page, path, 0)).valid, true);
  });
  await inLab(async (page) => {
    await setField(page, 'pilot-wasm-seed', '2');
    assert.equal((await diceAsTheCli(page, path, 2)).fault, 'did_not_finish');
    const row = '[data-testid="pilot-run"][data-name="dice"]';
    assert.equal(await page.getAttribute(row, 'data-seed'), '2');
    // The settings outlive the visit, like the time limit.
    await page.reload();
    await page.waitForSelector('[data-testid="pilot-wasm-seed"]');
    assert.equal(await page.inputValue('[data-testid="pilot-wasm-seed"]'), '2');
    assert.equal(await page.inputValue('[data-testid="pilot-wasm-time-limit"]'), LIMIT);
  });
});

test('real randomness draws a seed per run, shown, that the CLI repeats', () =>
  inLab(async (page) => {
    const path = pilot(join(PILOTS, 'faults', 'dice.wasm'));
    await page.check('[data-testid="pilot-wasm-random"]');
    assert.ok(await page.isDisabled('[data-testid="pilot-wasm-seed"]'));
    await page.setInputFiles('[data-testid="pilot-wasm"]', path);
    const row = '[data-testid="pilot-run"][data-name="dice"][data-state="done"]';
    await page.waitForSelector(row, { timeout: 30_000 });
    const seed = await page.getAttribute(row, 'data-seed');
    assert.match(seed, /^\d+$/);
    assert.ok((await page.textContent(row)).includes(`seed ${seed}`));
    const expected = cli(path, ['--seed', seed]);
    const verdict = await page.$eval(`${VERDICT}[data-pilot="dice"]`, (el) => ({
      valid: el.getAttribute('data-valid'),
      fault: el.getAttribute('data-fault'),
    }));
    assert.equal(verdict.valid, String(expected.valid), `seed ${seed}`);
    assert.equal(verdict.fault, expected.fault, `seed ${seed}`);
  }));

test('the example pilots race in the lab, timed as by the CLI', () =>
  inLab(async (page) => {
    const names = ['demo', 'greedy', 'crawler'];
    for (const name of names) {
      const path = pilot(join(PILOTS, `${name}.wasm`));
      const expected = cli(path);
      assert.equal(expected.valid, true, `the CLI on ${name}: ${JSON.stringify(expected)}`);
      const { verdict } = await runInPage(page, path, name);
      assert.equal(verdict.valid, 'true', `${name}: ${verdict.text}`);
      assert.equal(verdict.time, expected.time.toFixed(2), name);
    }
    // Their laps are the lab's: ghosts on the circuit, replay, ranking in the log.
    assert.equal(await page.getAttribute(CANVAS, 'data-laps'), String(names.length));
    const ranked = await page.$$eval('[data-testid="ranking-row"]', (r) => r.length);
    assert.equal(ranked, names.length);
  }));

test('a module that is not a WASI command is refused before it runs', () =>
  inLab(async (page) => {
    const dir = mkdtempSync(join(tmpdir(), 'quadrille-wasm-'));
    const path = join(dir, 'notes.wasm');
    copyFileSync(RING, path);
    await page.setInputFiles('[data-testid="pilot-wasm"]', path);
    const row = '[data-testid="pilot-run"][data-name="notes"][data-state="refused"]';
    await page.waitForSelector(row);
    assert.match(await page.textContent(row), /not a WebAssembly module/);
    assert.equal(await page.$$eval('[data-testid="lap-row"]', (r) => r.length), 0);
  }));
