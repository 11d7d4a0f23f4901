//! hdl-sim: runs a yosys JSON netlist cycle by cycle, natively and in WebAssembly.
