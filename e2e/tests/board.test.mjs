// Boards as Paper Soccer sides: a scripted `navigator.serial` whose ports are JavaScript bots
// (e2e/lib/fake_serial.mjs) plays whole games against people, the engine, each other and the
// emulated board. The page is the referee: every byte it sends is checked against the spec,
// and so are the verdicts of the faults (junk, an illegal turn, silence, a pulled cable).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sharedBrowser } from '../lib/harness.mjs';
import { expectedReceived, fakeSerialScript } from '../lib/fake_serial.mjs';
import { BOARD, playOut, replay, resultOf, start } from '../lib/soccer.mjs';

const browser = sharedBrowser();

// The options of a page on #/soccer with the fake serial ports of `ports` (for withPage).
const soccerWith = (ports, extra = {}) => ({
  route: '#/soccer',
  init: [{ content: fakeSerialScript({ ports, ...extra }) }],
});

// Chooses `kind` for `side`; a serial side is connected to the next fake port.
async function setSide(page, side, kind, { level, limit } = {}) {
  await page.selectOption(`[data-testid="side-${side}"]`, kind);
  if (kind === 'engine' && level !== undefined) {
    await page.selectOption(`[data-testid="level-${side}"]`, String(level));
  }
  if (limit !== undefined) await page.fill(`[data-testid="limit-${side}"]`, String(limit));
  if (kind === 'serial') {
    await page.click(`[data-testid="connect-${side}"]`);
    await page.waitForSelector(`[data-testid="port-status-${side}"]:has-text("connected:")`);
  }
  if (kind === 'emulated') {
    await page.waitForSelector(`[data-testid="emulator-status-${side}"]:has-text("powered up")`, {
      timeout: 120_000,
    });
  }
}

// One game of a fake board (a bot of fake_serial.mjs with `bot`'s options) on side `board`
// against the engine at level 1 with a generous clock; `limit` is the board's clock in ms.
// `check` gets the page and the result; afterwards the page must have reported no problem.
function boardAgainstEngine(bot, { board = 'red', starter = 'red', limit } = {}, check) {
  return browser.withPage(soccerWith([{ bot }]), async (page) => {
    for (const side of ['red', 'blue']) {
      if (side === board) await setSide(page, side, 'serial', { limit });
      else await setSide(page, side, 'engine', { level: 1, limit: 10000 });
    }
    await start(page, { starter });
    await check(page, await resultOf(page, 120_000));
  });
}

// What the bots received, as text.
const received = (page, port) => page.evaluate((i) => window.__fakeSerial.text(i), port);
const printable = (s) => JSON.stringify(s);

// The monitor's rows: [dir, side, label].
async function monitorRows(page) {
  return page.$$eval('[data-testid="serial-log"] > *', (rows) =>
    rows.map((r) => [r.dataset.dir, r.dataset.side, r.dataset.label]),
  );
}

test('serial against serial: two ports, a complete game, every byte checked', { timeout: 180_000 }, () =>
  browser.withPage(soccerWith([
    { bot: { seed: 3, chunk: 2, junkAtOpen: '\u0000\u00ffDE2-115 reset\r\n' } },
    { bot: { seed: 4, chunk: 5, junkBeforeTurn: 'ok ' } },
  ]), async (page) => {
    await setSide(page, 'red', 'serial');
    await setSide(page, 'blue', 'serial');
    await start(page, { starter: 'blue' });
    const { winner, reason, record } = await resultOf(page, 120_000);
    const { last } = replay(record);
    // Bots never fault: the game ends with a goal or a stuck player.
    assert.ok(['goal', 'own_goal', 'stuck'].includes(reason), `${record} # ${winner} ${reason}`);
    if (reason !== 'stuck') assert.equal(last, winner === 'red' ? 'goal-blue' : 'goal-red');
    assert.equal(await received(page, 0), expectedReceived(record, 'red'), 'bytes to red');
    assert.equal(await received(page, 1), expectedReceived(record, 'blue'), 'bytes to blue');
    // The port was opened with the contest's line: 115200 8N2, no flow control.
    const options = await page.evaluate(() => window.__fakeSerial.ports.map((p) => p.opens[0]));
    for (const o of options) {
      assert.deepEqual(
        [o.baudRate, o.dataBits, o.parity, o.stopBits, o.flowControl],
        [115200, 8, 'none', 2, 'none'],
      );
    }
    // The monitor shows every message both ways, decoded.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="serial-log"] > *').length > 8);
    const rows = await monitorRows(page);
    const txRed = rows.filter(([d, s]) => d === 'tx' && s === 'red').map((r) => r[2]);
    assert.deepEqual(txRed.slice(0, 3), ['w 8', 'l 10', 'c r']);
    const txBlue = rows.filter(([d, s]) => d === 'tx' && s === 'blue').map((r) => r[2]);
    assert.deepEqual(txBlue.slice(0, 4), ['w 8', 'l 10', 'c b', '{}']);
    assert.ok(rows.some(([d, s, l]) => d === 'rx' && s === 'red' && l === 'junk'), 'reset junk shown');
    assert.ok(rows.some(([d, , l]) => d === 'rx' && /^\{[0-7]+\}$/.test(l)), 'turns shown');
  }));

test('human against serial: keyboard turns are forwarded byte for byte', { timeout: 180_000 }, () =>
  browser.withPage(soccerWith([{ bot: { seed: 11 } }]), async (page) => {
    await setSide(page, 'red', 'human');
    await setSide(page, 'blue', 'serial', { limit: 1000 });
    await start(page, { starter: 'red' });
    await playOut(page);
    const { winner, reason, record } = await resultOf(page, 120_000);
    replay(record);
    assert.ok(['goal', 'own_goal', 'stuck'].includes(reason), `${record} # ${winner} ${reason}`);
    assert.equal(await received(page, 0), expectedReceived(record, 'blue'));
  }));

test('engine against serial: a complete game on 8x10', { timeout: 180_000 }, () =>
  boardAgainstEngine({ seed: 5 }, {}, async (page, { winner, reason, record }) => {
    replay(record);
    assert.ok(['goal', 'own_goal', 'stuck'].includes(reason), `${record} # ${winner} ${reason}`);
    assert.equal(await received(page, 0), expectedReceived(record, 'red'));
  }));

test('an illegal turn from the board loses with illegal_step and is recorded', { timeout: 120_000 }, () =>
  boardAgainstEngine({ seed: 6, illegalAt: 2 }, {}, async (page, { winner, reason, record }) => {
    assert.deepEqual([winner, reason], ['blue', 'illegal_step'], record);
    const { turns, last } = replay(record);
    assert.equal(turns.length, 3, record);
    assert.equal(last, 'illegal');
    assert.equal(await received(page, 0), expectedReceived(record, 'red'));
  }));

test('a silent board loses on time; nothing more is sent to it', { timeout: 120_000 }, () =>
  boardAgainstEngine(
    { seed: 7, silentAt: 2 },
    { board: 'blue', starter: 'blue', limit: 600 },
    async (page, { winner, reason, record }) => {
      assert.deepEqual([winner, reason], ['red', 'timeout'], record);
      const { turns } = replay(record);
      assert.equal(turns.length, 2, 'blue, red, then blue is silent');
      assert.equal(await received(page, 0), expectedReceived(record, 'blue', true));
    },
  ));

test('a cable pulled mid-game loses with disconnect; the port is released', { timeout: 120_000 }, () =>
  boardAgainstEngine({ seed: 8, unplugAt: 3 }, {}, async (page, { winner, reason, record }) => {
    assert.deepEqual([winner, reason], ['blue', 'disconnect'], record);
    assert.equal(replay(record).turns.length, 4, record);
    await page.waitForSelector('[data-testid="port-error-red"]');
  }));

test('bytes that frame no turn lose with illegal_step, with no turn recorded', { timeout: 120_000 }, () =>
  // On its second turn the board sends `}` with no `{`.
  boardAgainstEngine({ seed: 9, rawAt: 2, raw: '}\n' }, {}, async (page, { winner, reason, record }) => {
    assert.deepEqual([winner, reason], ['blue', 'illegal_step'], record);
    const { turns, last } = replay(record);
    assert.equal(turns.length, 2, `no turn for the fault: ${record}`);
    assert.equal(last, 'over');
    assert.equal(await received(page, 0), expectedReceived(record, 'red', true));
  }));

test('no Web Serial: a clear explanation and the rest of the page works', { timeout: 60_000 }, () =>
  browser.withPage({
    route: '#/soccer',
    // Headless Chromium has Web Serial: take it away, as Firefox or Safari would.
    init: [
      () => {
        delete Navigator.prototype.serial;
      },
    ],
  }, async (page) => {
    await page.selectOption('[data-testid="side-red"]', 'serial');
    const note = await page.textContent('[data-testid="serial-unsupported"]');
    assert.match(note, /Web Serial/);
    await page.click('[data-testid="start-game"]');
    assert.match(await page.textContent('[data-testid="setup-error"]'), /serial port/);
    await page.selectOption('[data-testid="side-red"]', 'human');
    await page.click('[data-testid="start-game"]');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.state === 'human', BOARD);
  }));

test('a busy port and a cancelled chooser are explained; granted ports reconnect without a prompt', { timeout: 60_000 }, async () => {
  await browser.withPage(soccerWith([
    { busy: true, bot: { seed: 1 } },
    { granted: true, bot: { seed: 2 } },
  ]), async (page) => {
    await page.selectOption('[data-testid="side-red"]', 'serial');
    await page.click('[data-testid="connect-red"]');
    assert.match(await (await page.waitForSelector('[data-testid="port-error-red"]')).textContent(), /another program/);
    // Both ports are granted now (the busy one was chosen); reconnect the second by its ids.
    await page.click('[data-testid^="granted-red-"]:has-text("0403:6002")');
    await page.waitForSelector('[data-testid="port-status-red"]:has-text("connected:")');
    await page.click('[data-testid="disconnect-red"]');
    await page.waitForSelector('[data-testid="port-status-red"]:has-text("no port")');
    const closed = await page.evaluate(() => window.__fakeSerial.ports[1].closes);
    assert.equal(closed, 1, 'closed after releasing its locks (the fake refuses otherwise)');
  });
  await browser.withPage(soccerWith([], { cancel: true }), async (page) => {
    await page.selectOption('[data-testid="side-blue"]', 'serial');
    await page.click('[data-testid="connect-blue"]');
    assert.match(await (await page.waitForSelector('[data-testid="port-error-blue"]')).textContent(), /no port was chosen/);
  });
});

// Another page's stand-in for Web Serial may be thinner than Chromium's: here the ports have no
// `getInfo` and take no event listeners, and `navigator.serial` has no `getPorts`. A pulled cable
// is then seen only through the port's stream (it ends, or it errors). An init script for withPage.
function thinSerial(how) {
  const script = (how) => {
    const port = window.__fakeSerial.ports[0];
    navigator.serial.getPorts = undefined;
    port.getInfo = undefined;
    port.addEventListener = undefined;
    port.unplug = function unplug() {
      this.unplugged = true;
      if (how === 'eof') this.controller?.close();
      else this.controller?.error(new DOMException('The device has been lost.', 'NetworkError'));
      this.controller = null;
    };
  };
  return [script, how];
}

for (const how of ['eof', 'error']) {
  test(`a thin Web Serial stand-in: the port connects and plays; a cable pulled (stream ${how}) is a disconnect`, { timeout: 120_000 }, () =>
    browser.withPage({
      route: '#/soccer',
      init: [{ content: fakeSerialScript({ ports: [{ bot: { seed: 8, unplugAt: 3 } }] }) }, thinSerial(how)],
    }, async (page) => {
      await setSide(page, 'red', 'serial');
      assert.match(await page.textContent('[data-testid="port-status-red"]'), /connected: serial port/);
      await setSide(page, 'blue', 'engine', { level: 1, limit: 10000 });
      await start(page, { starter: 'red' });
      const { winner, reason, record } = await resultOf(page, 120_000);
      assert.deepEqual([winner, reason], ['blue', 'disconnect'], record);
      assert.equal(replay(record).turns.length, 4, record);
      assert.equal(await received(page, 0), expectedReceived(record, 'red', true));
    }));
}

test('leaving a page closes its ports cleanly, even mid-game: the other page opens them again', { timeout: 120_000 }, () =>
  browser.withPage(soccerWith([{ bot: { seed: 12, delayMs: 300 } }]), async (page) => {
    const port = () => page.evaluate(() => {
      const p = window.__fakeSerial.ports[0];
      return { open: p.readable !== null, closes: p.closes };
    });
    await setSide(page, 'red', 'serial');
    await setSide(page, 'blue', 'engine', { level: 1, limit: 10000 });
    await start(page, { starter: 'red' });
    await page.waitForSelector('[data-testid="serial-log"] > [data-dir="rx"]');
    await page.click('[data-testid="nav-board"]');
    await page.waitForSelector('main[data-route="#/board"]');
    await page.waitForFunction(() => window.__fakeSerial.ports[0].closes === 1);
    assert.deepEqual(await port(), { open: false, closes: 1 });
    // The board page reconnects the granted port without a prompt, and lets it go in turn.
    await page.click('[data-testid^="granted-red-"]');
    await page.waitForSelector('[data-testid="port-status-red"]:has-text("connected:")');
    await page.click('[data-testid="nav-soccer"]');
    await page.waitForSelector('main[data-route="#/soccer"]');
    await page.waitForFunction(() => window.__fakeSerial.ports[0].closes === 2);
    await page.selectOption('[data-testid="side-red"]', 'serial');
    await page.click('[data-testid^="granted-red-"]');
    await page.waitForSelector('[data-testid="port-status-red"]:has-text("connected:")');
    assert.deepEqual(await port(), { open: true, closes: 2 });
  }));

test('"Start game" pressed while a port is still opening starts the game once it is open', { timeout: 120_000 }, () =>
  browser.withPage({
    route: '#/soccer',
    init: [
      { content: fakeSerialScript({ ports: [{ bot: { seed: 13 } }] }) },
      // This port takes its time to open, as a real USB adapter may.
      () => {
        const port = window.__fakeSerial.ports[0];
        const open = port.open.bind(port);
        port.open = (options) => new Promise((resolve) => setTimeout(resolve, 700)).then(() => open(options));
      },
    ],
  }, async (page) => {
    await page.selectOption('[data-testid="side-red"]', 'serial');
    await page.click('[data-testid="connect-red"]');
    await setSide(page, 'blue', 'engine', { level: 1, limit: 10000 });
    await start(page, { starter: 'blue' });
    assert.equal(await page.$('[data-testid="setup-error"]'), null);
    const { winner, reason, record } = await resultOf(page, 120_000);
    replay(record);
    assert.ok(['goal', 'own_goal', 'stuck'].includes(reason), `${record} # ${winner} ${reason}`);
    assert.equal(await received(page, 0), expectedReceived(record, 'red'));
  }));

test("a board side's clock is the referee's 1000 ms unless set: the limit box says so", { timeout: 60_000 }, () =>
  browser.withPage(soccerWith([]), async (page) => {
    const limit = () =>
      page.$eval('[data-testid="limit-red"]', (i) => [i.value, i.placeholder]);
    assert.deepEqual(await limit(), ['', 'none']);
    await page.selectOption('[data-testid="side-red"]', 'serial');
    assert.deepEqual(await limit(), ['1000', '1000']);
    await page.selectOption('[data-testid="side-red"]', 'emulated');
    // (An emulated board's clock runs in simulated time, so the page keeps no wall clock on it.)
    assert.deepEqual(await limit(), ['', '1000']);
    await page.selectOption('[data-testid="side-red"]', 'engine');
    assert.deepEqual(await limit(), ['1000', 'none']);
  }));
