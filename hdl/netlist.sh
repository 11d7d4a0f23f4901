#!/usr/bin/env bash
# Flatten a Verilog design into the word-level yosys JSON netlist that hdl-sim loads.
#
#   hdl/netlist.sh TOP OUT.json FILE.v [FILE.v ...]
#
# The passes are `hdl/netlist.ys` (memories stay whole, only plain $dff registers remain; see
# there), the same text the browser app runs when it synthesizes Verilog itself.
set -euo pipefail
if [ "$#" -lt 3 ]; then
  echo "usage: $0 TOP OUT.json FILE.v [FILE.v ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
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
# The passes, one command a line with comments and blank lines left out, joined by `;`.
passes=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/netlist.ys" | sed 's/$/;/' | tr '\n' ' ')
yosys -q -p "$reads hierarchy -check -top $top; $passes write_json \"$out\""
