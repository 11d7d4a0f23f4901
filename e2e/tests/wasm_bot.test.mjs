// A WebAssembly Paper Soccer bot in the page (app::wasi::bot, issue 16): the example random-bot
// (pilots/random-bot, built by `cargo xtask pilots`) runs in its worker, its blocking reads wait
// on a SharedArrayBuffer (the page is cross-origin isolated by the server's COOP/COEP headers),
// and it answers a scripted referee byte for byte as on a serial line (spec §4).

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { sharedBrowser } from '../lib/harness.mjs';

const PILOTS =
  process.env.QUADRILLE_PILOTS ?? fileURLToPath(new URL('../../target/pilots/wasm', import.meta.url));
const BOT = join(PILOTS, 'random-bot.wasm');

const browser = sharedBrowser();

// In the page: starts the bot with `seed`, plays the referee's `script` (byte strings, each sent
// once the bot has answered the one before with a whole turn, `{…}\n`), and returns its answers.
async function play(page, seed, script) {
  const module = [...readFileSync(BOT)];
  return page.evaluate(
    async ({ module, seed, script }) => {
      const answers = [];
      let pending = '';
      let next = null;
      const bot = new window.wasmBindings.WasmBotProbe(
        'random-bot.wasm',
        new Uint8Array(module),
        seed,
        (kind, payload) => {
          if (kind === 'bytes') {
            pending += String.fromCharCode(...payload);
            if (pending.endsWith('}\n')) {
              answers.push(pending);
              pending = '';
              next?.();
            }
          } else if (kind !== 'started') {
            answers.push(`${kind}: ${payload}`);
            next?.();
          }
        },
      );
      const bytes = (text) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));
      for (const message of script) {
        const answered = new Promise((resolve) => (next = resolve));
        const late = new Promise((resolve) => setTimeout(resolve, 20_000));
        bot.send(bytes(message));
        await Promise.race([answered, late]);
      }
      bot.kill();
      return { answers, isolated: window.crossOriginIsolated };
    },
    { module, seed, script },
  );
}

test('the random bot answers a scripted referee in its worker, the same for the same seed', () =>
  browser.withPage({ route: '#/' }, async (page) => {
    assert.ok(existsSync(BOT), `${BOT} is missing: run \`cargo xtask pilots\``);
    // 8 × 10 (the length 10 is the byte "\n"), the bot is red and starts.
    const opening = 'w\x08\nl\x0a\ncr\n{}\n';
    const first = await play(page, 7, [opening]);
    assert.equal(first.isolated, true, 'the page must be cross-origin isolated');
    assert.equal(first.answers.length, 1, JSON.stringify(first.answers));
    assert.match(first.answers[0], /^\{[0-7]+\}\n$/);
    const again = await play(page, 7, [opening]);
    assert.deepEqual(again.answers, first.answers, 'random_get is seeded');
  }));

// A bot stopped while its worker still loads (a game that ends before the bot is up: the other
// side faulted, say) must not abort the worker's download — a failed request, which `withPage`
// counts as a problem — and must never start: the worker is stopped once it is up, before it is
// given the bot. The worker's script is held back here so that the stop always comes first.
test('a bot stopped while its worker loads never starts, and no download is aborted', () =>
  browser.withPage({ route: '#/' }, async (page) => {
    let held = 0;
    await page.route('**/wasi_worker.js', async (route) => {
      held += 1;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    const module = [...readFileSync(BOT)];
    const heard = await page.evaluate(async (module) => {
      const events = [];
      const bot = new window.wasmBindings.WasmBotProbe(
        'random-bot.wasm',
        new Uint8Array(module),
        1,
        (kind) => events.push(kind),
      );
      bot.kill();
      bot.free();
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      return events;
    }, module);
    assert.equal(held, 1, 'the worker lived to ask for its script (a stop waits until it is up)');
    assert.deepEqual(heard, [], 'a bot stopped before it was up must not start');
  }));
