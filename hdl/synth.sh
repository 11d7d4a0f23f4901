#!/usr/bin/env bash
# Resource figures of the player for the Cyclone IV E (EP4CE115) with yosys' synth_intel.
#
#   hdl/synth.sh            (from anywhere; prints yosys' `stat` of the mapped design)
#
# yosys 0.23's M9K techmap fails on this design ("Can't find object for defparam INIT"), so the
# flow stops after `memory_bram` has packed the memories into M9K cells and maps the logic as
# synth_intel does (4-input LUTs = cycloneive_lcell_comb, flip-flops = dffeas). Quartus, not
# yosys, builds the real bitstream; see README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
yosys -q -p "read_verilog $here/src/*.v; \
  synth_intel -family cycloneive -top de2_115_top -run begin:map_bram; \
  memory_bram -rules +/intel/common/brams_m9k.txt; \
  synth_intel -family cycloneive -top de2_115_top -run map_ffram:check; \
  tee -o /dev/stdout stat" 2>/dev/null | sed -n '/=== de2_115_top ===/,$p'
