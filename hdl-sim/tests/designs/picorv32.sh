#!/usr/bin/env bash
# Assembles picorv32_prog.s (clang for riscv32, no linker relaxation: the branches resolved), writes its words into picorv32_soc.v's RAM
# initialisation, and netlists the SoC with hdl/netlist.sh into picorv32_soc.json.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang --target=riscv32 -march=rv32i -mno-relax -c picorv32_prog.s -o "$tmp/prog.o"
llvm-objcopy -O binary -j .text "$tmp/prog.o" "$tmp/prog.bin"
python3 - "$tmp/prog.bin" <<'PY'
import sys, re
words = open(sys.argv[1], 'rb').read()
lines = ["    ram[%d] = 32'h%08x;" % (i // 4, int.from_bytes(words[i:i + 4], 'little'))
         for i in range(0, len(words), 4)]
soc = open('picorv32_soc.v').read()
block = "    // program: begin\n" + "\n".join(lines) + "\n    // program: end"
soc = re.sub(r"    // program: begin.*?    // program: end", block, soc, flags=re.S)
open('picorv32_soc.v', 'w').write(soc)
PY
bash ../../../hdl/netlist.sh picorv32_soc picorv32_soc.json picorv32_soc.v picorv32/picorv32.v
