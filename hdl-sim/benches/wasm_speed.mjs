// Times the board emulator built for wasm32-unknown-unknown (examples/wasm_bench) under Node, for
// benches/sim.rs, which builds the module, runs this script and parses what it prints.
//
//   node wasm_speed.mjs MODULE.wasm NETLIST.json WARMUP_CYCLES ROW...
//
// ROW is `SW:HEX:CYCLES`: a board powered up with the slide switches at SW, the bytes HEX (two
// hexadecimal digits each, maybe none) queued on its serial input, then CYCLES clock cycles timed.
// Before the rows, one board runs WARMUP_CYCLES untimed so that V8 has optimised the hot code.
// Prints one line per row: `row WALL_SECONDS CPU_SECONDS FINGERPRINT`, where CPU time is the whole
// Node process' (V8's compiler and collector threads included) and FINGERPRINT is the board's
// state hash after the run, to compare with the native run's.

import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [modulePath, netlistPath, warmup, ...rows] = process.argv.slice(2);
if (rows.length === 0) {
  console.error("usage: node wasm_speed.mjs MODULE.wasm NETLIST.json WARMUP_CYCLES SW:HEX:CYCLES...");
  process.exit(2);
}
const { instance } = await WebAssembly.instantiate(readFileSync(modulePath), {});
const wasm = instance.exports;
const netlist = readFileSync(netlistPath);

/** Copies bytes into the module's buffer (a fresh view: memory may have grown). */
function put(bytes) {
  const at = wasm.buffer(bytes.length) >>> 0;
  new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
}

/** Throws with the module's message unless `status` says done. */
function check(status, what) {
  if (status !== 0) {
    const at = wasm.message_ptr() >>> 0;
    const text = new Uint8Array(wasm.memory.buffer, at, wasm.message_len() >>> 0);
    throw new Error(`${what} failed (status ${status}): ${new TextDecoder().decode(text)}`);
  }
}

/** Powers up a board from the netlist and queues `input` on its serial line. */
function board(sw, input) {
  put(netlist);
  check(wasm.board_load(BigInt(sw)), "board_load");
  put(input);
  check(wasm.board_send(), "board_send");
}

function parseHex(hex) {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error(`not hexadecimal bytes: ${hex}`);
  }
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

board(0, new Uint8Array());
check(wasm.board_run(BigInt(warmup)), "board_run");

for (const row of rows) {
  const [sw, hex, cycles] = row.split(":");
  board(sw, parseHex(hex));
  const cpu = process.cpuUsage();
  const start = performance.now();
  check(wasm.board_run(BigInt(cycles)), "board_run");
  const wall = (performance.now() - start) / 1e3;
  const used = process.cpuUsage(cpu);
  const fingerprint = BigInt.asUintN(64, wasm.board_fingerprint());
  console.log(`row ${wall} ${(used.user + used.system) / 1e6} ${fingerprint}`);
}
