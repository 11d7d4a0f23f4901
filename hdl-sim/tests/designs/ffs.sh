#!/usr/bin/env bash
# Netlists ffs.v and async.v keeping yosys' flip-flop flavours (no async2sync, no dffunmap), so
# that the simulator's support for them is tested. Writes next to this script, or into $OUT_DIR.
set -euo pipefail
cd "$(dirname "$0")"
out=${OUT_DIR:-.}
for top in ffs async; do
  yosys -q -p "read_verilog -defer $top.v; hierarchy -check -top $top; proc; opt_clean; flatten; opt; memory -nomap; opt; opt_clean; write_json $out/$top.json" 2>/dev/null
done
