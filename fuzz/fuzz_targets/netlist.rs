//! libFuzzer entry point of the `netlist` target: see [`quadrille_fuzz::netlist`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| quadrille_fuzz::netlist(data));
