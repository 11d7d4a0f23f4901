// Times a module of hdl-sim's compiled back end (`hdl_sim::wasm::module`) under Node, for
// benches/sim.rs, which writes the module and its start state, runs this script and parses what
// it prints.
//
//   node wasm_compiled.mjs MODULE.wasm IMAGE.bin CYCLES OUT.bin
//
// IMAGE.bin is the state to copy into `mem` at byte 0 (`hdl_sim::wasm::state_image`). The script
// compiles the module, instantiates it, copies the state in and runs one cycle (netlist module to
// first cycle: COMPILE_MS); runs that instance on untimed (CYCLES, at most 3 million) so that V8
// tiers the code up; then
// times CYCLES cycles on a fresh instance from the same state, in calls of a million cycles, and
// writes the state after them to OUT.bin for the bench to compare with wasmtime's.
// Prints `row WALL_SECONDS CPU_SECONDS COMPILE_MS`; CPU time is the whole Node process'.

import { readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [modulePath, imagePath, cyclesArg, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error("usage: node wasm_compiled.mjs MODULE.wasm IMAGE.bin CYCLES OUT.bin");
  process.exit(2);
}
const bytes = readFileSync(modulePath);
const image = readFileSync(imagePath);

async function fresh(module) {
  const instance = await WebAssembly.instantiate(module, {});
  new Uint8Array(instance.exports.mem.buffer).set(image);
  return instance.exports;
}

function runCycles(wasm, cycles) {
  let left = cycles;
  while (left > 0n) {
    const n = left < 1000000n ? left : 1000000n;
    left -= wasm.run(n);
  }
}

const t0 = performance.now();
const module = await WebAssembly.compile(bytes);
const first = await fresh(module);
first.run(1n);
const compileMs = performance.now() - t0;

// Warm-up: as long as the timed run, at most 3 million cycles.
const cycles = BigInt(cyclesArg);
runCycles(first, cycles < 3000000n ? cycles : 3000000n);
const wasm = await fresh(module);
const cpu0 = process.cpuUsage();
const t1 = performance.now();
runCycles(wasm, cycles);
const wall = (performance.now() - t1) / 1000;
const cpu = process.cpuUsage(cpu0);
writeFileSync(outPath, new Uint8Array(wasm.mem.buffer, 0, image.length));
console.log(`row ${wall} ${(cpu.user + cpu.system) / 1e6} ${compileMs}`);
