// A scripted `navigator.serial` for the e2e tests: ports backed by JavaScript bots that speak the
// Paper Soccer protocol (spec §4), installed with `page.addInitScript` before the app loads.
//
// The bots are an independent implementation of the rules (spec §1–3) written for the tests, so
// the app (whose rules are the Rust engine's) is checked against a second reading of the spec.
// Everything here runs inside the page: `window.__fakeSerial` exposes each port's traffic, its
// open options and how it was closed, and lets a test unplug a port.

// ----- the rules, a small independent model ------------------------------------------------

// Directions by protocol digit: N, NE, E, SE, S, SW, W, NW (y grows downward).
export const DIRS = [
  [0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1],
];

// A game on a W×L field: `step(d)` returns 'illegal' | 'bounce' | 'over' | 'goal-red' (ball in
// red's goal, the top) | 'goal-blue'. Kept free of outer references: its source is injected.
export function makeGame(W, L) {
  const DIRS = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]];
  const m = W / 2;
  const drawn = new Set();
  const touched = new Map();
  const key = (a, b) => {
    const [p, q] = a[1] < b[1] || (a[1] === b[1] && a[0] < b[0]) ? [a, b] : [b, a];
    return `${p[0]},${p[1]}-${q[0]},${q[1]}`;
  };
  const touch = (p) => touched.set(`${p[0]},${p[1]}`, true);
  const draw = (a, b) => {
    drawn.add(key(a, b));
    touch(a);
    touch(b);
  };
  for (let y = 0; y < L; y++) {
    draw([0, y], [0, y + 1]);
    draw([W, y], [W, y + 1]);
  }
  for (let x = 0; x < W; x++) {
    if (x !== m - 1 && x !== m) {
      draw([x, 0], [x + 1, 0]);
      draw([x, L], [x + 1, L]);
    }
    draw([x, L / 2], [x + 1, L / 2]);
  }
  for (const [y, g] of [[0, -1], [L, L + 1]]) {
    draw([m - 1, y], [m - 1, g]);
    draw([m + 1, y], [m + 1, g]);
    draw([m - 1, g], [m, g]);
    draw([m, g], [m + 1, g]);
  }
  const isGoal = (p) => (p[1] === -1 || p[1] === L + 1) && Math.abs(p[0] - m) <= 1;
  const isPoint = (p) => (p[0] >= 0 && p[0] <= W && p[1] >= 0 && p[1] <= L) || isGoal(p);
  const game = {
    ball: [m, L / 2],
    over: false,
    legal(d) {
      if (game.over) return false;
      const a = game.ball;
      const b = [a[0] + DIRS[d][0], a[1] + DIRS[d][1]];
      if (!isPoint(b) || drawn.has(key(a, b))) return false;
      if (isGoal(b)) {
        // Into a goal only from the mouth's three points, never across a box corner.
        const end = b[1] === -1 ? 0 : L;
        if (a[1] !== end || Math.abs(a[0] - m) > 1) return false;
      }
      return true;
    },
    // Whether step d would run along a line already drawn (an illegal step).
    alongDrawn(d) {
      const a = game.ball;
      const b = [a[0] + DIRS[d][0], a[1] + DIRS[d][1]];
      return isPoint(b) && drawn.has(key(a, b));
    },
    // Whether arriving at p bounces (p had a line before this step).
    bounces: (p) => touched.has(`${p[0]},${p[1]}`),
    step(d) {
      if (!game.legal(d)) return 'illegal';
      const a = game.ball;
      const b = [a[0] + DIRS[d][0], a[1] + DIRS[d][1]];
      const bounce = game.bounces(b);
      draw(a, b);
      game.ball = b;
      if (isGoal(b)) {
        game.over = true;
        return b[1] === -1 ? 'goal-red' : 'goal-blue';
      }
      return bounce ? 'bounce' : 'over';
    },
    // Plays a whole turn's digits; returns the last step's result.
    turn(digits) {
      let r = 'illegal';
      for (const c of digits) {
        r = game.step(Number(c));
        if (r !== 'bounce') break;
      }
      return r;
    },
    clone() {
      const g = makeGame(W, L);
      g.restore(game.snapshot());
      return g;
    },
    snapshot: () => ({ ball: game.ball, over: game.over, drawn: [...drawn], touched: [...touched.keys()] }),
    restore(s) {
      game.ball = s.ball;
      game.over = s.over;
      drawn.clear();
      s.drawn.forEach((k) => drawn.add(k));
      touched.clear();
      s.touched.forEach((k) => touched.set(k, true));
    },
  };
  return game;
}

// A complete turn for `side` ('r' or 'b'): a bounded search over step sequences that prefers
// scoring, then ending nearest the opponent's goal, never scoring an own goal if it can help it,
// and getting stuck (a bounce point with no step left: a loss) only when nothing else is found.
// When the bounded search finds no turn at all (long bounce chains in a crowded corner), a
// depth-first search takes the first complete turn it meets, so the bot never sends a turn
// the rules call incomplete. `random` is a function giving numbers in [0, 1).
export function chooseTurn(game, side, W, L, random) {
  const target = side === 'r' ? L + 1 : -1;
  let best = null;
  let bestScore = -Infinity;
  const consider = (path, score) => {
    if (score > bestScore) {
      bestScore = score;
      best = path;
    }
  };
  const STUCK = -1e9;
  let budget = 4000;
  const search = (g, digits) => {
    if (budget-- <= 0) return;
    const order = [0, 1, 2, 3, 4, 5, 6, 7].sort(() => random() - 0.5);
    if (digits !== '' && !order.some((d) => g.legal(d))) consider(digits, STUCK);
    for (const d of order) {
      if (!g.legal(d)) continue;
      const h = g.clone();
      const r = h.step(d);
      const path = digits + d;
      if (r === 'bounce') {
        search(h, path);
      } else if (r === 'goal-red') consider(path, side === 'b' ? 1e6 : -1e6);
      else if (r === 'goal-blue') consider(path, side === 'r' ? 1e6 : -1e6);
      else consider(path, -Math.abs(target - h.ball[1]) * 10 - Math.abs(h.ball[0] - W / 2) + random());
    }
  };
  search(game.clone(), '');
  if (best !== null && bestScore > STUCK) return best;
  // Nothing but getting stuck, or nothing at all, within the budget: the first complete turn.
  let left = 200000;
  const first = (g, digits) => {
    if (left-- <= 0) return null;
    for (let d = 0; d < 8; d++) {
      if (!g.legal(d)) continue;
      const h = g.clone();
      const path = digits + d;
      if (h.step(d) !== 'bounce') return path;
      const deeper = first(h, path);
      if (deeper !== null) return deeper;
    }
    return null;
  };
  return first(game.clone(), '') ?? best;
}

// ----- the fake navigator.serial, injected into the page -----------------------------------

// The script to pass to `page.addInitScript`. `config.ports` lists the ports `requestPort()`
// hands out, in order; each is `{ info, bot, busy, granted }` where `bot` (optional) is
// `{ seed, delayMs, chunk, junkAtOpen, junkBeforeTurn, illegalAt, silentAt, unplugAt, rawAt,
// raw }` (turn
// numbers count the bot's own turns from 1). `config.cancel` makes the chooser cancelled.
export function fakeSerialScript(config) {
  return `(${install.toString()})(${JSON.stringify(config)}, ${makeGame.toString()}, ${chooseTurn.toString()});`;
}

// Installs the fake: `install(config, makeGame, chooseTurn)` (run inside the page).
function install(config, makeGame, chooseTurn) {
  const ports = [];
  const serial = new EventTarget();

  function rng(seed) {
    let s = seed >>> 0 || 1;
    return () => {
      s ^= s << 13;
      s >>>= 0;
      s ^= s >>> 17;
      s ^= s << 5;
      s >>>= 0;
      return s / 4294967296;
    };
  }

  // A player behind the port: decodes the referee's messages byte by byte (a size byte is data
  // even when it is 0x0A) and answers each `{…}` with a turn.
  function makeBot(port, spec) {
    const random = rng(spec.seed ?? 1);
    let state = 'idle';
    let size = 0;
    let digits = '';
    let W = 0;
    let L = 0;
    let colour = '';
    let game = null;
    let turns = 0;
    const bot = { games: 0, turnsPlayed: [], errors: [] };
    const send = (text) => port.feed(text, spec.chunk ?? 3);
    const onMessage = (message) => {
      if (message === 'w') {
        game = null;
        turns = 0;
      } else if (message === 'c') {
        game = makeGame(W, L);
        bot.games++;
      } else if (message === '{') {
        if (!game) {
          bot.errors.push('a turn before the set-up');
          return;
        }
        if (digits.length > 0) {
          const r = game.turn(digits);
          if (r === 'illegal') bot.errors.push(`the referee forwarded an illegal turn ${digits}`);
        }
        if (game.over) return;
        turns++;
        play(turns);
      }
    };
    const play = (n) => {
      if (spec.unplugAt === n) {
        setTimeout(() => port.unplug(), spec.delayMs ?? 5);
        return;
      }
      if (spec.silentAt === n) return;
      if (spec.rawAt === n) {
        setTimeout(() => send(spec.raw), spec.delayMs ?? 5);
        return;
      }
      let reply;
      if (spec.illegalAt === n) {
        // A step along a drawn line: the line just drawn, or the centre line at kick-off.
        reply = String([0, 1, 2, 3, 4, 5, 6, 7].find((d) => game.alongDrawn(d)) ?? 0);
      } else {
        reply = chooseTurn(game, colour, W, L, random) ?? '0';
        game.turn(reply);
      }
      bot.turnsPlayed.push(reply);
      const junk = spec.junkBeforeTurn ?? '';
      setTimeout(() => send(`${junk}{${reply}}\n`), spec.delayMs ?? 5);
    };
    bot.receive = (bytes) => {
      for (const b of bytes) {
        const c = String.fromCharCode(b);
        switch (state) {
          case 'idle':
            if (c === 'w' || c === 'l') state = c;
            else if (c === 'c') state = 'c';
            else if (c === '{') {
              state = 'digits';
              digits = '';
            }
            break;
          case 'w':
          case 'l':
            size = b;
            state = `${state}-end`;
            break;
          case 'w-end':
          case 'l-end':
            if (c === '\n') {
              if (state === 'w-end') W = size;
              else L = size;
              onMessage(state[0]);
            } else bot.errors.push(`no line feed after ${state[0]}`);
            state = 'idle';
            break;
          case 'c':
            colour = c;
            state = 'c-end';
            break;
          case 'c-end':
            if (c === '\n') onMessage('c');
            state = 'idle';
            break;
          case 'digits':
            if (c === '}') state = 'turn-end';
            else digits += c;
            break;
          case 'turn-end':
            state = 'idle';
            if (c === '\n') onMessage('{');
            else bot.errors.push('no line feed after a turn');
            break;
        }
      }
    };
    bot.colour = () => colour;
    return bot;
  }

  class FakePort extends EventTarget {
    constructor(spec, index) {
      super();
      this.spec = spec;
      this.index = index;
      this.readable = null;
      this.writable = null;
      this.received = [];
      this.sent = [];
      this.opens = [];
      this.closes = 0;
      this.unplugged = false;
      this.bot = spec.bot ? makeBot(this, spec.bot) : null;
      this.controller = null;
      this.random = rng(1000 + index);
    }
    getInfo() {
      return this.spec.info ?? { usbVendorId: 0x0403, usbProductId: 0x6001 + this.index };
    }
    async open(options) {
      if (this.unplugged) throw new DOMException('The device has been lost.', 'NetworkError');
      if (this.spec.busy) throw new DOMException('Failed to open serial port.', 'NetworkError');
      if (this.readable) throw new DOMException('The port is already open.', 'InvalidStateError');
      this.opens.push(options);
      this.readable = new ReadableStream({
        start: (c) => {
          this.controller = c;
        },
        cancel: () => {
          this.controller = null;
        },
      });
      this.writable = new WritableStream({
        write: (chunk) => {
          if (this.unplugged) throw new DOMException('The device has been lost.', 'NetworkError');
          const bytes = Array.from(chunk);
          this.received.push(...bytes);
          this.bot?.receive(bytes);
        },
      });
      if (this.bot && this.spec.bot.junkAtOpen) this.feed(this.spec.bot.junkAtOpen, 2);
    }
    async close() {
      if (!this.readable) throw new DOMException('The port is already closed.', 'InvalidStateError');
      if (this.readable.locked || this.writable.locked) {
        throw new TypeError('Cannot close a port whose streams are locked.');
      }
      this.readable = null;
      this.writable = null;
      this.controller = null;
      this.closes++;
    }
    // The board sends `text` (a string of byte values) in chunks of 1..`chunk` bytes.
    feed(text, chunk = 3) {
      const bytes = Array.from(text, (c) => c.charCodeAt(0) & 255);
      let at = 0;
      const next = () => {
        if (at >= bytes.length || !this.controller || this.unplugged) return;
        const n = 1 + Math.floor(this.random() * chunk);
        const part = bytes.slice(at, at + n);
        at += n;
        this.sent.push(...part);
        this.controller.enqueue(new Uint8Array(part));
        setTimeout(next, 0);
      };
      next();
    }
    // The cable is pulled: reads fail, the `disconnect` event fires.
    unplug() {
      this.unplugged = true;
      try {
        this.controller?.error(new DOMException('The device has been lost.', 'NetworkError'));
      } catch {
        // Already closed.
      }
      this.controller = null;
      this.dispatchEvent(new Event('disconnect'));
      serial.dispatchEvent(new Event('disconnect'));
    }
  }

  (config.ports ?? []).forEach((spec, i) => ports.push(new FakePort(spec, i)));
  let next = 0;
  serial.requestPort = async () => {
    if (config.cancel) throw new DOMException('No port selected by the user.', 'NotFoundError');
    const port = ports.find((p, i) => i >= next && !p.spec.granted) ?? ports[next];
    if (!port) throw new DOMException('No port selected by the user.', 'NotFoundError');
    next = port.index + 1;
    port.spec.granted = true;
    return port;
  };
  serial.getPorts = async () => ports.filter((p) => p.spec.granted);
  Object.defineProperty(Navigator.prototype, 'serial', { configurable: true, get: () => serial });
  window.__fakeSerial = {
    ports,
    text: (i) => String.fromCharCode(...ports[i].received),
    unplug: (i) => ports[i].unplug(),
  };
}

// The bytes the referee must send to `side` ('red' | 'blue') for a game whose record is
// `record` (spec §5 form, verdict ignored): set-up, `{}` if it starts, then every opponent turn
// (the last one only if `lastForwarded`: a turn that ends the game is not forwarded).
export function expectedReceived(record, side, lastForwarded = false) {
  const match = /^(\d+)x(\d+) (red|blue): ?([0-7/]*)/.exec(record);
  if (!match) throw new Error(`not a record: ${record}`);
  const [, w, l, starter, body] = match;
  const turns = body ? body.split('/') : [];
  let out = `w${String.fromCharCode(Number(w))}\nl${String.fromCharCode(Number(l))}\nc${side[0]}\n`;
  if (starter === side) out += '{}\n';
  turns.forEach((t, i) => {
    const mover = i % 2 === 0 ? starter : starter === 'red' ? 'blue' : 'red';
    const last = i === turns.length - 1;
    if (mover !== side && (!last || lastForwarded)) out += `{${t}}\n`;
  });
  return out;
}
