//! libFuzzer entry point of the `protocol` target: see [`quadrille_fuzz::protocol`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| quadrille_fuzz::protocol(data));
