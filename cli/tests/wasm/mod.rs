//! Purpose-built WASI pilot modules for the tests, assembled from WebAssembly text with the
//! `wat` crate: each does one thing right or wrong (spec §7 outcomes). And where the example
//! pilots built by `cargo xtask pilots` live.

#![allow(dead_code, reason = "each test binary uses some of the modules")]

use std::fs;
use std::path::{Path, PathBuf};

const IMPORTS: &str = r#"
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink"
    (func $path_symlink (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll_oneoff (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory"
    (func $path_create_directory (param i32 i32 i32) (result i32)))
"#;

/// Helpers every module gets: `$open_at(path, len, oflags) -> fd | -1` on the preopened
/// directory (fd 3), `$write_file(name, name_len, ptr, len)` creating or truncating a file, and
/// `$say(ptr, len)` on standard output. Memory: names and texts below 2000, scratch at 1000.
const HELPERS: &str = r#"
  (func $open_at (param $path i32) (param $len i32) (param $oflags i32) (result i32)
    (if (result i32)
      (i32.eqz (call $path_open (i32.const 3) (i32.const 0) (local.get $path) (local.get $len)
        (local.get $oflags) (i64.const 0x1fffffff) (i64.const 0x1fffffff) (i32.const 0)
        (i32.const 1000)))
      (then (i32.load (i32.const 1000)))
      (else (i32.const -1))))
  (func $write_fd (param $fd i32) (param $ptr i32) (param $len i32)
    (i32.store (i32.const 1008) (local.get $ptr))
    (i32.store (i32.const 1012) (local.get $len))
    (drop (call $fd_write (local.get $fd) (i32.const 1008) (i32.const 1) (i32.const 1016))))
  (func $write_file (param $name i32) (param $name_len i32) (param $ptr i32) (param $len i32)
    ;; O_CREAT | O_TRUNC
    (call $write_fd (call $open_at (local.get $name) (local.get $name_len) (i32.const 9))
      (local.get $ptr) (local.get $len)))
  (func $say (param $ptr i32) (param $len i32)
    (call $write_fd (i32.const 1) (local.get $ptr) (local.get $len)))
"#;

/// A WebAssembly string literal holding `bytes`.
fn literal(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\{b:02x}")).collect()
}

/// A command module with the helpers, data segments `(offset, bytes)`, and `body` as `_start`.
pub fn module(pages: u32, data: &[(u32, &[u8])], body: &str) -> Vec<u8> {
    let data: String = data
        .iter()
        .map(|(at, bytes)| format!("(data (i32.const {at}) \"{}\")\n", literal(bytes)))
        .collect();
    let text = format!(
        "(module {IMPORTS} (memory (export \"memory\") {pages}) {data} {HELPERS}
           (func (export \"_start\") (local $fd i32) {body}))"
    );
    wat::parse_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Writes `<stem>.F1` holding `content`, then does `after` (e.g. `unreachable`).
pub fn writer(stem: &str, content: &[u8], after: &str) -> Vec<u8> {
    let name = format!("{stem}.F1");
    module(
        1,
        &[(100, name.as_bytes()), (4096, content)],
        &format!(
            "(call $write_file (i32.const 100) (i32.const {}) (i32.const 4096) (i32.const {}))
             {after}",
            name.len(),
            content.len()
        ),
    )
}

/// Writes `module` as `dir/<file>` and returns its path.
pub fn save(dir: &Path, file: &str, module: &[u8]) -> PathBuf {
    let path = dir.join(file);
    fs::write(&path, module).unwrap();
    path
}

/// Tries to read `/etc/passwd` from inside the sandbox (through `..` and as an absolute path)
/// and to link its result file there. If a read works, what it read becomes `escape.F1`;
/// otherwise it writes a one-position lap that says `blocked`.
pub fn escape(circuit: &str) -> Vec<u8> {
    escape_to(circuit, "../../../../../../etc/passwd", "/etc/passwd")
}

/// [`escape`] aimed at another file: `relative` (a path through `..`) and `absolute`, then a
/// link `link.F1` to `absolute`, each opened and, if it opens, read into `escape.F1`.
pub fn escape_to(circuit: &str, relative: &str, absolute: &str) -> Vec<u8> {
    let blocked = format!("blocked\r\n{circuit}\r\n40,4\r\n");
    module(
        1,
        &[
            (100, b"escape.F1"),
            (200, relative.as_bytes()),
            (300, absolute.as_bytes()),
            (600, b"link.F1"),
            (700, blocked.as_bytes()),
        ],
        &format!(
            r#"
            (drop (call $path_symlink (i32.const 300) (i32.const {abs}) (i32.const 3)
              (i32.const 600) (i32.const 7)))
            (local.set $fd (call $open_at (i32.const 200) (i32.const {rel}) (i32.const 0)))
            (if (i32.lt_s (local.get $fd) (i32.const 0))
              (then (local.set $fd (call $open_at (i32.const 300) (i32.const {abs}) (i32.const 0)))))
            (if (i32.lt_s (local.get $fd) (i32.const 0))
              (then (local.set $fd (call $open_at (i32.const 600) (i32.const 7) (i32.const 0)))))
            (if (i32.ge_s (local.get $fd) (i32.const 0))
              (then
                (i32.store (i32.const 1008) (i32.const 4096))
                (i32.store (i32.const 1012) (i32.const 4096))
                (drop (call $fd_read (local.get $fd) (i32.const 1008) (i32.const 1) (i32.const 1016)))
                (call $write_file (i32.const 100) (i32.const 9) (i32.const 4096)
                  (i32.load (i32.const 1016)))
                (return)))
            (call $write_file (i32.const 100) (i32.const 9) (i32.const 700) (i32.const {}))"#,
            blocked.len(),
            rel = relative.len(),
            abs = absolute.len(),
        ),
    )
}

/// Opens `circuit` `limit` times without closing it, then checks that one more `path_open`
/// fails with `EMFILE` (33), that closing one lets it open one again, and writes a one-position
/// lap from `limited` (`hydra.F1`); any step that goes otherwise traps.
pub fn hydra(circuit: &str, limit: usize) -> Vec<u8> {
    let lap = format!("limited\r\n{circuit}\r\n40,4\r\n");
    module(
        1,
        &[
            (100, b"hydra.F1"),
            (200, circuit.as_bytes()),
            (400, lap.as_bytes()),
        ],
        &format!(
            r#"
            (i32.store (i32.const 2000) (i32.const 0))
            (loop $again
              (local.set $fd (call $open_at (i32.const 200) (i32.const {len}) (i32.const 0)))
              (if (i32.lt_s (local.get $fd) (i32.const 0)) (then unreachable))
              (i32.store (i32.const 2000) (i32.add (i32.load (i32.const 2000)) (i32.const 1)))
              (br_if $again (i32.lt_u (i32.load (i32.const 2000)) (i32.const {limit}))))
            (if (i32.ne (i32.const 33)
                  (call $path_open (i32.const 3) (i32.const 0) (i32.const 200) (i32.const {len})
                    (i32.const 0) (i64.const 0x1fffffff) (i64.const 0x1fffffff) (i32.const 0)
                    (i32.const 1000)))
              (then unreachable))
            (if (i32.ne (call $fd_close (local.get $fd)) (i32.const 0)) (then unreachable))
            (local.set $fd (call $open_at (i32.const 200) (i32.const {len}) (i32.const 0)))
            (if (i32.lt_s (local.get $fd) (i32.const 0)) (then unreachable))
            (drop (call $fd_close (local.get $fd)))
            (call $write_file (i32.const 100) (i32.const 8) (i32.const 400) (i32.const {lap_len}))"#,
            len = circuit.len(),
            lap_len = lap.len(),
        ),
    )
}

/// Sleeps in a host call (`poll_oneoff` on the monotonic clock) for 1000 s.
pub fn sleeper() -> Vec<u8> {
    module(
        1,
        &[],
        r#"
        ;; subscription at 2000: userdata 0, tag 0 (clock), clock id 1, timeout 1000 s
        (i32.store8 (i32.const 2008) (i32.const 0))
        (i32.store (i32.const 2016) (i32.const 1))
        (i64.store (i32.const 2024) (i64.const 1000000000000))
        (i64.store (i32.const 2032) (i64.const 0))
        (i32.store16 (i32.const 2040) (i32.const 0))
        (drop (call $poll_oneoff (i32.const 2000) (i32.const 3000) (i32.const 1) (i32.const 3100)))"#,
    )
}

/// Where `cargo xtask pilots` puts the example pilots: `<target>/pilots/wasm/`.
pub fn examples_dir() -> PathBuf {
    // The test binary's `quadrille` is `<target>/debug/quadrille`.
    let bin = Path::new(env!("CARGO_BIN_EXE_quadrille"));
    bin.parent()
        .and_then(Path::parent)
        .expect("quadrille lives in <target>/<profile>/")
        .join("pilots")
        .join("wasm")
}

/// The example pilot `name` (`demo.wasm`, `greedy.wasm`, `crawler.wasm`); the tests need them
/// built first.
pub fn example(name: &str) -> PathBuf {
    let path = examples_dir().join(name);
    assert!(
        path.is_file(),
        "{} is missing: build the example pilots first with `cargo xtask pilots`",
        path.display()
    );
    path
}
