// The pilot lab (#/pilots): result files judged like TESTF1, replayed, ranked and logged.
//
// The fixtures in pilots-fixtures/ were made with the CLI on engine/samples/ring.cir:
// `quadrille pilot` wrote the valid laps (fangio.f1: optimal, demo.f1: the demo pilot), the
// faulty ones are edits of fangio.f1 (crash: keeps its speed into the wall; swerve: one position
// moved two cells; typo: a bad line 10; short: the finishing move dropped), and expected.json is
// what `quadrille testf1 --json` says of each. The page must agree with the CLI.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { sharedBrowser } from '../lib/harness.mjs';

const FIXTURES = new URL('./pilots-fixtures/', import.meta.url);
const RING = fileURLToPath(new URL('../../engine/samples/ring.cir', import.meta.url));
const EXPECTED = JSON.parse(readFileSync(new URL('expected.json', FIXTURES), 'utf8'));
const fixture = (name) => fileURLToPath(new URL(name, FIXTURES));

const VERDICT = '[data-testid="verdict"]';
const CANVAS = 'canvas[data-testid="lab-canvas"]';
const STEP = '[data-testid="replay-step"]';

const browser = sharedBrowser();

// A test on the lab, opened on ring.cir loaded from its file, with an empty results log; the
// viewport as withPage takes it (a desktop window unless told).
function inLab(body, viewport = {}) {
  return browser.withPage({ ...viewport, route: '#/pilots' }, async (page) => {
    await page.evaluate(() => localStorage.clear());
    await page.setInputFiles('[data-testid="lab-cir-file"]', RING);
    await page.waitForSelector(`${CANVAS}[data-circuit="ring"]`);
    await body(page);
  });
}

// Loads one result file and waits until the verdict describes it.
async function load(page, name) {
  const before = await page.$$eval('[data-testid="lap-row"]', (rows) => rows.length);
  await page.setInputFiles('[data-testid="f1-file"]', fixture(name));
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="lap-row"]').length === n,
    before + 1,
  );
  return verdictOf(page);
}

// The optimal lap of ring.cir as `quadrille pilot` writes it now.
function cliOptimalLap() {
  const dir = mkdtempSync(join(tmpdir(), 'quadrille-lab-'));
  const out = join(dir, 'optimal.f1');
  const run = spawnSync(process.env.QUADRILLE_BIN, ['pilot', RING, '--pilot', 'optimal', '-o', out], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return readFileSync(out, 'latin1')
    .split(/\r?\n/)
    .slice(2)
    .filter(Boolean)
    .map((l) => l.split(',').map(Number));
}

async function verdictOf(page) {
  return page.$eval(VERDICT, (el) => ({
    valid: el.getAttribute('data-valid'),
    fault: el.getAttribute('data-fault'),
    move: el.getAttribute('data-move'),
    line: el.getAttribute('data-line'),
    time: el.getAttribute('data-time'),
    text: el.textContent,
  }));
}

const step = async (page) => Number(await page.getAttribute(STEP, 'data-step'));

test('valid laps: time to the hundredth as the CLI, replay steps, ghost cars', () =>
  inLab(async (page) => {
    for (const name of ['fangio.f1', 'demo.f1']) {
      const cli = EXPECTED[name];
      const v = await load(page, name);
      assert.equal(v.valid, 'true', name);
      assert.equal(v.time, cli.time.toFixed(2), name);
      assert.equal(v.fault, null, name);
      assert.equal(v.move, null, name);
      assert.ok(v.text.includes(cli.pilot), `${name}: ${v.text}`);
      assert.ok(v.text.includes(`${cli.speed_kmh.toFixed(1)} km/h`), `${name}: ${v.text}`);
    }
    assert.equal(await page.getAttribute(CANVAS, 'data-laps'), '2');

    // The replay shows the whole of the longest lap; step back and forth like TESTF1 -n0.
    const last = EXPECTED['demo.f1'].moves;
    assert.equal(await step(page), last);
    await page.click('[data-testid="replay-back"]');
    await page.click('[data-testid="replay-back"]');
    assert.equal(await step(page), last - 2);
    await page.click('[data-testid="replay-forward"]');
    assert.equal(await step(page), last - 1);
    assert.equal(await page.getAttribute(CANVAS, 'data-step'), String(last - 1));
    // The scrubber seeks; the keyboard steps.
    await page.fill('[data-testid="replay-scrub"]', '10');
    assert.equal(await step(page), 10);
    await page.focus('.lab-stage');
    await page.keyboard.press('ArrowRight');
    assert.equal(await step(page), 11);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await step(page), 9);

    // Play: the cars move on their own, and pause stops them.
    await page.selectOption('[data-testid="replay-delay"]', '2');
    await page.click('[data-testid="replay-play"]');
    await page.waitForFunction(
      (sel) => Number(document.querySelector(sel).dataset.step) >= 30,
      STEP,
      { timeout: 20_000 },
    );
    await page.click('[data-testid="replay-play"]');
    const paused = await step(page);
    await page.waitForTimeout(150);
    assert.equal(await step(page), paused);

    // The car of the first lap is drawn at its position of the shown move (amber, #f59e0b).
    await page.fill('[data-testid="replay-scrub"]', '5');
    const at = readPositions('fangio.f1')[5];
    const colour = await canvasPixelAtCell(page, at);
    assert.deepEqual(colour, [245, 158, 11, 255], `car at (${at})`);
  }));

test('faults are reported as the CLI reports them, at their move', () =>
  inLab(async (page) => {
    for (const name of ['crash.f1', 'swerve.f1', 'typo.f1', 'short.f1']) {
      const cli = EXPECTED[name];
      const v = await load(page, name);
      assert.equal(v.valid, 'false', name);
      assert.equal(v.fault, cli.fault, name);
      assert.equal(v.move, String(cli.move ?? cli.line), name);
      assert.equal(v.line, cli.line === undefined ? null : String(cli.line), name);
      assert.equal(v.time, null, name);
      assert.ok(v.text.includes(cli.message), `${name}: ${v.text} lacks ${cli.message}`);
      if (cli.move !== undefined) {
        // The replay opens on the faulty move.
        assert.equal(await step(page), cli.move, name);
      }
    }
    // The collision's cell is painted red on the canvas when the crash is focused.
    const rows = page.locator('[data-testid="lap-row"] .lab-lap-main');
    await rows.nth(0).click();
    assert.equal((await verdictOf(page)).fault, 'collision');
    const hit = EXPECTED['crash.f1'].message.match(/at \((\d+),(\d+)\)$/).slice(1).map(Number);
    assert.deepEqual(await canvasPixelAtCell(page, hit), [239, 68, 68, 255]);
    // "Show move k" seeks the replay to the fault.
    await page.fill('[data-testid="replay-scrub"]', '0');
    await page.click('[data-testid="show-fault"]');
    assert.equal(await step(page), EXPECTED['crash.f1'].move);
  }));

test('pasted files and the built-in pilots are judged too', () =>
  inLab(async (page) => {
    await page.click('.lab-paste summary');
    await page.fill('[data-testid="f1-paste"]', readFileSync(fixture('fangio.f1'), 'latin1'));
    await page.click('[data-testid="f1-paste-judge"]');
    await page.waitForSelector(`${VERDICT}[data-valid="true"]`);
    assert.equal((await verdictOf(page)).time, EXPECTED['fangio.f1'].time.toFixed(2));

    // The optimal pilot runs in the worker and matches the CLI's optimal lap.
    await page.click('[data-testid="run-optimal"]');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="lap-row"]').length === 2,
      null,
      { timeout: 60_000 },
    );
    const v = await verdictOf(page);
    assert.equal(v.valid, 'true');
    assert.equal(v.time, EXPECTED['fangio.f1'].time.toFixed(2));
    assert.ok(v.text.includes('optimal'));
    // Saved as a result file, it is the CLI's optimal lap position for position.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid="save-f1"]'),
    ]);
    // Named as a pilot names its result file (spec §7), by the engine's `result_file_name`.
    assert.equal(download.suggestedFilename(), 'optimal.F1');
    const saved = readFileSync(await download.path(), 'latin1').split('\r\n');
    assert.deepEqual(saved.slice(0, 2), ['optimal', 'ring.cir']);
    const positions = saved.slice(2).filter(Boolean).map((l) => l.split(',').map(Number));
    // Optimal laps can tie, so the fixture (an optimal lap of an older search) may differ; the
    // worker and the CLI run the same engine, so the CLI's lap of today must match exactly.
    assert.equal(positions.length, readPositions('fangio.f1').length);
    if (process.env.QUADRILLE_BIN) {
      assert.deepEqual(positions, cliOptimalLap());
    }
  }));

test('the results log ranks by the spec, survives a reload and exports as TESTF1 .log', () =>
  inLab(async (page) => {
    for (const name of ['demo.f1', 'crash.f1', 'fangio.f1', 'typo.f1']) await load(page, name);
    const ranking = () =>
      page.$$eval('[data-testid="ranking-row"]', (rows) =>
        rows.map((r) => [r.dataset.place ?? null, r.cells[1].textContent, r.cells[3].textContent]),
      );
    const expected = [
      ['1', 'Fangio', 'valid'],
      ['2', 'DEMO 2CV', 'valid'],
      [null, 'Crasher', `collision at move ${EXPECTED['crash.f1'].move}`],
      [null, 'Typist', `syntax at line ${EXPECTED['typo.f1'].line}`],
    ];
    assert.deepEqual(await ranking(), expected);
    // The fastest time in the table is the CLI's.
    assert.equal(
      await page.textContent('[data-testid="ranking-row"] [data-testid="ranking-time"]'),
      EXPECTED['fangio.f1'].time.toFixed(2),
    );

    // A second identical lap ties with the first: both first, the demo third.
    await load(page, 'fangio.f1');
    const places = (await ranking()).map(([place]) => place);
    assert.deepEqual(places, ['1', '1', '3', null, null]);

    // The log is kept in the browser, per circuit.
    await page.reload();
    await page.waitForSelector('main[data-route="#/pilots"]');
    await page.setInputFiles('[data-testid="lab-cir-file"]', RING);
    await page.waitForSelector(`${CANVAS}[data-circuit="ring"]`);
    assert.equal((await ranking()).length, 5);
    await page.selectOption('[data-testid="lab-circuit"]', 'street');
    await page.waitForSelector(`${CANVAS}[data-circuit="street"]`);
    assert.equal(await page.$('[data-testid="ranking"]'), null);

    // Export: the ring's log as TESTF1 writes it, one tab-separated line per judged lap.
    await page.selectOption('[data-testid="lab-circuit"]', 'ring');
    await page.waitForSelector(`${CANVAS}[data-circuit="ring"]`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid="log-export"]'),
    ]);
    assert.equal(download.suggestedFilename(), 'ring.log');
    const text = readFileSync(await download.path(), 'latin1');
    const lines = text.split('\r\n').filter(Boolean).map((l) => l.split('\t'));
    assert.equal(lines.length, 5);
    const fangio = EXPECTED['fangio.f1'];
    assert.deepEqual(lines[0].slice(0, 6), [
      'DEMO 2CV',
      'demo.f1',
      'valid',
      String(EXPECTED['demo.f1'].moves),
      EXPECTED['demo.f1'].time.toFixed(2),
      EXPECTED['demo.f1'].speed_kmh.toFixed(1),
    ]);
    assert.deepEqual(lines[2].slice(0, 6), [
      'Fangio',
      'fangio.f1',
      'valid',
      String(fangio.moves),
      fangio.time.toFixed(2),
      fangio.speed_kmh.toFixed(1),
    ]);
    assert.deepEqual(lines[3].slice(2, 6), [`syntax at line ${EXPECTED['typo.f1'].line}`, '-', '-', '-']);
    assert.match(lines[0][6], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    // Clearing empties the table.
    await page.click('[data-testid="log-clear"]');
    assert.equal(await page.$('[data-testid="ranking"]'), null);
  }));

test("the editor's circuit and dropped files", () =>
  inLab(async (page) => {
    // The circuit editor autosaves its work as "name\n.cir text" (app/src/editor/browser.rs).
    const street = readFileSync(new URL('../../engine/samples/street.cir', import.meta.url), 'latin1');
    await page.evaluate((text) => localStorage.setItem('quadrille.circuit-editor.v1', text), `my-street\n${street}`);
    await page.selectOption('[data-testid="lab-circuit"]', 'editor');
    await page.waitForSelector(`${CANVAS}[data-circuit="my-street"]`);

    // Files dropped on the drop zone are judged like picked ones. fangio.f1 was driven on
    // ring: on street, `quadrille testf1 --circuit street.cir` says move 3 leaves the track.
    const bytes = readFileSync(fixture('fangio.f1'), 'latin1');
    const transfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'fangio.f1', { type: 'text/plain' }));
      return dt;
    }, bytes);
    await page.dispatchEvent('.lab-drop', 'drop', { dataTransfer: transfer });
    await page.waitForSelector(`${VERDICT}[data-valid]`);
    const v = await verdictOf(page);
    assert.equal(v.valid, 'false');
    assert.equal(v.fault, 'collision');
    assert.equal(v.move, '3');
    assert.ok(v.text.includes('move 3: (43,6) → (46,7) leaves the track at (45,7)'), v.text);
    assert.ok(v.text.includes('Fangio'));
    // Line 2 names ring.cir: the lab says so, as TESTF1 would have looked for that circuit.
    assert.match(await page.textContent('[data-testid="other-circuit"]'), /ring\.cir.*my-street\.cir/);
    assert.equal(await page.getAttribute(CANVAS, 'data-laps'), '1');
  }));

// The fixtures' verdicts are the CLI's own: re-judged by the `quadrille` that `cargo xtask test`
// builds (QUADRILLE_BIN), so a change of the judge cannot leave expected.json behind.
test('expected.json is what quadrille testf1 --json says now', { skip: !process.env.QUADRILLE_BIN }, () => {
  for (const [name, expected] of Object.entries(EXPECTED)) {
    const run = spawnSync(
      process.env.QUADRILLE_BIN,
      ['testf1', '--json', '-l', '--circuit', RING, fixture(name)],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, expected.valid ? 0 : 1, `${name}: ${run.stderr}`);
    assert.deepEqual(JSON.parse(run.stdout), expected, name);
  }
});

function readPositions(name) {
  return readFileSync(fixture(name), 'latin1')
    .split(/\r\n|\r|\n/)
    .slice(2)
    .filter(Boolean)
    .map((l) => l.split(',').map(Number));
}

// The RGBA at the centre of cell [x, y] of the lab canvas.
async function canvasPixelAtCell(page, [x, y]) {
  return page.$eval(
    CANVAS,
    (canvas, [x, y]) => {
      const cell = Number(canvas.dataset.cell);
      const [x0, y0] = canvas.dataset.origin.split(',').map(Number);
      const px = Math.floor(x0 + x * cell + cell / 2);
      const py = Math.floor(y0 + y * cell + cell / 2);
      return Array.from(canvas.getContext('2d').getImageData(px, py, 1, 1).data);
    },
    [x, y],
  );
}

test('the demo pilot runs in the worker; every lap is plotted, speed per move, in its colour', () =>
  inLab(async (page) => {
    // The share of the plot's pixels in a colour (RGB within a few units, antialiasing aside).
    const share = (hex) =>
      page.$eval('[data-testid="speed-plot"]', (canvas, hex) => {
        const want = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let n = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (want.every((v, k) => Math.abs(data[i + k] - v) <= 8)) n += 1;
        }
        return n / (data.length / 4);
      }, hex);
    await page.click('[data-testid="run-demo"]');
    await page.waitForSelector(`${VERDICT}[data-valid="true"]`, { timeout: 60_000 });
    const v = await verdictOf(page);
    assert.equal(v.time, EXPECTED['demo.f1'].time.toFixed(2));
    assert.ok(v.text.includes(`${EXPECTED['demo.f1'].speed_kmh.toFixed(1)} km/h`), v.text);
    await load(page, 'fangio.f1');
    const colours = await page.$$eval('[data-testid="lap-row"] .swatch', (s) =>
      s.map((e) => {
        const [r, g, b] = getComputedStyle(e).backgroundColor.match(/\d+/g).map(Number);
        return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
      }),
    );
    assert.equal(colours.length, 2);
    assert.notEqual(colours[0], colours[1]);
    for (const colour of colours) {
      assert.ok((await share(colour)) > 0.001, `no line in ${colour} on the speed plot`);
    }
  }));

test('the circuit zooms with the wheel and pans with a drag, and a new circuit is shown whole', () =>
  inLab(async (page) => {
    await load(page, 'fangio.f1');
    const layout = async () => ({
      cell: Number(await page.getAttribute(CANVAS, 'data-cell')),
      origin: (await page.getAttribute(CANVAS, 'data-origin')).split(',').map(Number),
    });
    const fit = await layout();
    const box = await page.locator(CANVAS).boundingBox();
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, 120);
    assert.deepEqual(await layout(), fit, 'never farther than the whole circuit');
    await page.mouse.wheel(0, -240);
    await page.waitForFunction(
      ([selector, cell]) => Number(document.querySelector(selector).dataset.cell) > cell,
      [CANVAS, fit.cell],
    );
    const zoomed = await layout();
    // A click is not a drag: the view stays; a drag moves it by what the pointer moved.
    await page.mouse.down();
    await page.mouse.up();
    assert.deepEqual(await layout(), zoomed);
    await page.mouse.down();
    await page.mouse.move(cx + 60, cy + 20, { steps: 6 });
    await page.mouse.up();
    const panned = await layout();
    assert.equal(panned.cell, zoomed.cell);
    assert.deepEqual(panned.origin, [zoomed.origin[0] + 60, zoomed.origin[1] + 20]);
    // The replay and the verdict are unchanged by the view.
    assert.equal((await verdictOf(page)).valid, 'true');
    await page.selectOption('[data-testid="lab-circuit"]', 'street');
    await page.waitForSelector(`${CANVAS}[data-circuit="street"]`);
    assert.deepEqual(await layout(), fit);
  }));

test('at 390 × 844 the lab fits the screen and its replay is in reach', () =>
  inLab(
    async (page) => {
      await load(page, 'fangio.f1');
      await load(page, 'crash.f1');
      const { scroll, viewport } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
      }));
      assert.equal(viewport, 390);
      assert.ok(scroll <= 390, `the page is ${scroll} px wide`);
      for (const selector of [CANVAS, '[data-testid="speed-plot"]', VERDICT, '.lab-table-wrap',
        '[data-testid="replay-back"]', '[data-testid="replay-play"]', '[data-testid="replay-forward"]',
        '[data-testid="replay-scrub"]', '[data-testid="f1-file"] >> xpath=..', '[data-testid="run-optimal"]']) {
        const box = await page.locator(selector).first().boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${selector} at ${JSON.stringify(box)}`);
      }
      const before = await step(page);
      await page.click('[data-testid="replay-back"]');
      assert.equal(await step(page), before - 1);
      mkdirSync(new URL('../test-results/', import.meta.url), { recursive: true });
      await page.screenshot({
        path: fileURLToPath(new URL('../test-results/pilots-390x844.png', import.meta.url)),
        fullPage: true,
      });
    },
    { width: 390, height: 844, scale: 2 },
  ));
