#!/usr/bin/env bash
# Flatten a Verilog design into the word-level yosys JSON netlist that hdl-sim loads.
#
#   hdl/netlist.sh TOP OUT.json FILE.v [FILE.v ...]
#
# Memories stay whole as $mem_v2 cells (`memory -nomap`), so a RAM is one cell instead of
# thousands of flip-flops; `proc -norom` keeps case tables as logic rather than ROM cells;
# `async2sync; dffunmap` leave only plain $dff registers (enables and resets become $mux logic
# in front of them), which keeps the simulator's cell set small.
set -euo pipefail
if [ "$#" -lt 3 ]; then
  echo "usage: $0 TOP OUT.json FILE.v [FILE.v ...]" >&2
  exit 2
fi
top=$1
out=$2
shift 2
if ! command -v yosys >/dev/null 2>&1; then
  echo "$0: yosys is not installed (on Debian: apt-get install yosys)" >&2
  exit 2
fi
reads=""
for f in "$@"; do
  if [ ! -f "$f" ]; then
    echo "$0: no such Verilog file: $f" >&2
    exit 2
  fi
  reads="$reads read_verilog -defer \"$f\";"
done
yosys -q -p "$reads hierarchy -check -top $top; proc -norom; opt_clean; flatten; opt; memory -nomap; opt; async2sync; dffunmap; opt_clean; write_json \"$out\"" 
