#!/usr/bin/env bash
# Netlists ffs.v and async.v keeping yosys' flip-flop flavours (no async2sync, no dffunmap), so that the
# simulator's support for them is tested. Run from this directory: ./ffs.sh
set -euo pipefail
cd "$(dirname "$0")"
for top in ffs async; do
  yosys -q -p "read_verilog -defer $top.v; hierarchy -check -top $top; proc; opt_clean; flatten; opt; memory -nomap; opt; opt_clean; write_json $top.json"
done
