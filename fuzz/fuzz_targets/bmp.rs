//! libFuzzer entry point of the `bmp` target: see [`quadrille_fuzz::bmp`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| quadrille_fuzz::bmp(data));
