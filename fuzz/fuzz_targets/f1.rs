//! libFuzzer entry point of the `f1` target: see [`quadrille_fuzz::f1`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| quadrille_fuzz::f1(data));
