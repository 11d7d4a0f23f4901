//! libFuzzer entry point of the `cir` target: see [`quadrille_fuzz::cir`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| quadrille_fuzz::cir(data));
