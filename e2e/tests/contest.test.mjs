// The Racetrack pools contest in the page (#/contest): pilots race in the page's workers to
// the final standings, which must be the CLI's (`quadrille contest PLAN --json`) for the plan
// the page exports, down to every lap; a reload mid-contest resumes from the laps kept in
// IndexedDB and ends with the same results.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';

import { launch, openPage, sharedBrowser, visit } from '../lib/harness.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const SAMPLES = join(ROOT, 'engine/samples');
// The example pilots, as `cargo xtask test` built them (QUADRILLE_PILOTS), or built here.
const WASM = process.env.QUADRILLE_PILOTS ?? join(ROOT, 'target/pilots/wasm');

// The built `quadrille` (QUADRILLE_BIN), or built here once with cargo.
function findQuadrille() {
  if (process.env.QUADRILLE_BIN) return process.env.QUADRILLE_BIN;
  const out = execFileSync('cargo', ['build', '-p', 'cli', '--bin', 'quadrille', '--message-format=json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line);
    if (message.reason === 'compiler-artifact' && message.target?.name === 'quadrille' && message.executable) {
      return message.executable;
    }
  }
  throw new Error('cargo built no quadrille binary');
}

// 13 pilot programs built from the examples (two pools, then a final): the demo and crawler
// pilots, and the greedy pilot at several budgets of states (its file stem sets it).
const ESTIMATES = { 0: 60, 1: 100, 2: 55.5 };
const STEMS = [
  'greedy', 'demo', 'crawler', 'greedy-10', 'greedy-25', 'greedy-50', 'greedy-100',
  'greedy-200', 'greedy-400', 'greedy-800', 'greedy-1600', 'greedy-3200', 'greedy-6400',
];

let quadrille;
let pilots;
before(() => {
  quadrille = findQuadrille();
  if (!['demo', 'greedy', 'crawler'].every((p) => existsSync(join(WASM, `${p}.wasm`)))) {
    execFileSync('cargo', ['xtask', 'pilots'], { cwd: ROOT, stdio: 'inherit' });
  }
  const dir = mkdtempSync(join(tmpdir(), 'quadrille-contest-pilots-'));
  pilots = STEMS.map((stem) => {
    const path = join(dir, `${stem}.wasm`);
    copyFileSync(join(WASM, `${stem.split('-')[0]}.wasm`), path);
    return path;
  });
}, { timeout: 900_000 });
const browser = sharedBrowser();

// Clears what an earlier visit kept, then enters the pilots (programs by path, or built-in
// pilots by name) and estimates and runs the contest.
async function runInPage(page, { programs = [], builtins = [], estimates = {} }) {
  await visit(page, '#/contest');
  await page.waitForSelector('[data-testid="contest-page"]');
  await page.click('[data-testid="contest-clear"]');
  if (programs.length > 0) {
    await page.setInputFiles('input[data-testid="contest-pilots"]', programs);
  }
  for (const name of builtins) {
    await page.click(`[data-testid="contest-add-${name}"]`);
  }
  const count = programs.length + builtins.length;
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="contest-entrant"]').length === n, count);
  for (const [index, estimate] of Object.entries(estimates)) {
    await page.fill(`[data-testid="contest-entrant"] >> nth=${index} >> [data-testid="contest-estimate"]`, String(estimate));
    await page.click('h1');
  }
  await page.click('[data-testid="contest-run"]');
  await page.waitForSelector('[data-testid="contest-status"]');
}

// The CLI's reports by plan text: the same plan runs once.
const reports = new Map();

// The plan the page exports, run by the CLI with the same programs and circuits beside it.
async function cliContest(page, programs) {
  const download = page.waitForEvent('download');
  await page.click('[data-testid="contest-export-plan"]');
  const plan = readFileSync(await (await download).path(), 'utf8');
  if (reports.has(plan)) return reports.get(plan);
  const dir = mkdtempSync(join(tmpdir(), 'quadrille-contest-'));
  mkdirSync(join(dir, 'circuits'));
  mkdirSync(join(dir, 'pilots'));
  writeFileSync(join(dir, 'plan.toml'), plan);
  const circuits = await page.$$eval('[data-testid="contest-entrant"]', (rows) => rows.map((r) => r.dataset.circuit));
  for (const name of circuits) {
    // The page gives entrants the samples, then copies of them (`ring-2.cir`).
    copyFileSync(join(SAMPLES, `${name.replace(/(-\d+)?\.cir$/, '')}.cir`), join(dir, 'circuits', name));
  }
  for (const path of programs) {
    copyFileSync(path, join(dir, 'pilots', path.split('/').pop()));
  }
  const report = JSON.parse(execFileSync(quadrille, ['contest', join(dir, 'plan.toml'), '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 26,
  }));
  reports.set(plan, report);
  // `quadrille contest` also wrote the contest's log beside the plan.
  cliLogs.set(report, readFileSync(join(dir, 'plan.log'), 'utf8'));
  return report;
}

// The log `quadrille contest` wrote, by its report.
const cliLogs = new WeakMap();

async function standings(page) {
  return page.$$eval('[data-testid="standing"]', (rows) =>
    rows.map((r) => ({ name: r.dataset.name, place: Number(r.dataset.place), points: Number(r.dataset.points) })),
  );
}

async function lapsDone(page, round) {
  const bar = page.locator(`[data-testid="contest-round-progress"][data-round="${round}"]`);
  if ((await bar.count()) === 0) return 0;
  return Number(await bar.getAttribute('value'));
}

// The page's final standings, exported report and log against the CLI's report.
async function assertSameAsCli(page, cli) {
  assert.deepEqual(await standings(page), cli.ranking);
  const download = page.waitForEvent('download');
  await page.click('[data-testid="contest-export-json"]');
  const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
  assert.deepEqual(exported, cli);
  // The log: one line per lap run, in the judge's format.
  const logDownload = page.waitForEvent('download');
  await page.click('[data-testid="contest-export-log"]');
  const log = readFileSync(await (await logDownload).path(), 'utf8').trimEnd().split('\n');
  assert.equal(log.length, cli.pilots.reduce((sum, p) => sum + p.given, 0));
  const valid = cli.pilots.reduce((sum, p) => sum + p.valid, 0);
  assert.equal(log.filter((line) => line.split('\t')[2] === 'valid').length, valid);
  for (const line of log) assert.equal(line.split('\t').length, 7, line);
  // The CLI's log is the same file, but for the dates the laps were judged at.
  const undated = (lines) => lines.map((line) => line.split('\t').slice(0, 6).join('\t'));
  assert.deepEqual(undated(log), undated(cliLogs.get(cli).trimEnd().split('\n')));
}

test('13 pilot programs race two pools then a final, as the CLI does', { timeout: 1_500_000 }, async () => {
  await browser.withPage(async (page) => {
    await runInPage(page, { programs: pilots, estimates: ESTIMATES });
    const names = await page.$$eval('[data-testid="contest-entrant"]', (rows) => rows.map((r) => r.dataset.name));
    assert.deepEqual(names, STEMS);
    const cli = await cliContest(page, pilots);
    assert.equal(cli.rounds.length, 2);
    assert.deepEqual(cli.rounds[0].pools.map((p) => p.standings.length), [7, 6]);
    assert.equal(cli.rounds[1].pools[0].standings.length, 7);
    await page.waitForSelector('[data-testid="contest-status"][data-state="done"]', { timeout: 1_400_000 });
    assert.equal(await lapsDone(page, 1), 85);
    assert.equal(await lapsDone(page, 2), 49);
    await assertSameAsCli(page, cli);
    // Every pool's table is there, with its qualifiers.
    assert.equal(await page.locator('[data-testid="contest-pool"]').count(), 3);
    assert.equal(await page.locator('[data-testid="pool-standing"][data-qualified="true"]').count(), 7);
    // The replay shows every pilot that drove the first circuit (its pool, and the final's
    // pilots from the other pool).
    const canvas = page.locator('canvas[data-testid="contest-replay"]');
    await page.waitForFunction(() => Number(document.querySelector('canvas[data-testid="contest-replay"]')?.dataset.laps) > 0);
    assert.equal(await canvas.getAttribute('data-circuit'), 'ring.cir');
    const onRing = cli.rounds
      .flatMap((r) => r.pools)
      .flatMap((p) => p.standings.filter((s) => s.laps.some((l) => l.circuit === 'ring.cir')).map((s) => s.name));
    assert.equal(Number(await canvas.getAttribute('data-laps')), new Set(onRing).size);
  });
});

test('a reload mid-contest resumes from the laps kept and ends as the CLI does', { timeout: 1_500_000 }, async () => {
  // Its own page: the reload aborts the worker scripts (blob URLs, `*_worker.js`, and the module a worker
  // is still fetching, `*_worker_bg.wasm`) of the runs it cuts short,
  // which is what a reload does; any other problem fails the test.
  const own = await launch();
  const { page, problems, close } = await openPage(own);
  try {
    await runInPage(page, { programs: pilots, estimates: ESTIMATES });
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="contest-round-progress"][data-round="1"]')?.getAttribute('value')) >= 20,
      null,
      { timeout: 300_000 },
    );
    const before = await lapsDone(page, 1);
    await page.reload();
    await page.waitForSelector('[data-testid="contest-status"]');
    // Each lap is written to IndexedDB as it ends: the last ones before the reload may still be
    // in flight and run again, as unfinished runs do, but most must come back.
    const kept = await lapsDone(page, 1);
    assert.ok(kept >= 10 && kept <= before, `the laps run before the reload are kept (${kept} of ${before})`);
    assert.equal(await page.getAttribute('[data-testid="contest-status"]', 'data-state'), 'running');
    // The form came back too.
    const names = await page.$$eval('[data-testid="contest-entrant"]', (rows) => rows.map((r) => r.dataset.name));
    assert.deepEqual(names, STEMS);
    const cli = await cliContest(page, pilots);
    await page.waitForSelector('[data-testid="contest-status"][data-state="done"]', { timeout: 1_400_000 });
    await assertSameAsCli(page, cli);
    assert.deepEqual(problems.filter((p) => !/^request failed: (blob:|\S+_worker(\.js|_bg\.wasm) ).*net::ERR_ABORTED/.test(p)), []);
  } finally {
    await close();
    await own.close();
  }
});

test('built-in pilots race too, and a plan the contest refuses is named', { timeout: 300_000 }, async () => {
  await browser.withPage(async (page) => {
    await runInPage(page, { builtins: ['demo', 'optimal', 'demo'] });
    await page.waitForSelector('[data-testid="contest-status"][data-state="done"]', { timeout: 200_000 });
    const cli = await cliContest(page, []);
    assert.equal(cli.rounds.length, 1);
    assert.equal(cli.ranking[0].name, 'optimal');
    await assertSameAsCli(page, cli);
    // Two entrants of one name: refused, naming the second.
    await page.fill('[data-testid="contest-entrant"] >> nth=2 >> input[aria-label="Name"]', 'demo');
    await page.click('h1');
    await page.click('[data-testid="contest-run"]');
    assert.match(await page.textContent('[data-testid="contest-error"]'), /entrant 3 \("demo"\): the name is already taken/);
  });
});
