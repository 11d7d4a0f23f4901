//! libFuzzer entry point of the `record` target: see [`quadrille_fuzz::record`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| quadrille_fuzz::record(data));
