;; dice: draws 8 bytes with random_get; an odd first byte drives the optimal lap of ring.cir (valid, 52.38 s), an even one stops at the start (did_not_finish). Seeds 0 and 1: valid; seed 2: did_not_finish
(module
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; the result file's name
  (data (i32.const 100) "dice.F1")
  ;; the optimal lap, 54 positions (394 bytes); its first 22 bytes are the short one
  (data (i32.const 4096)
    "dice\0d\0aring.cir\0d\0a"
    "40,4\0d\0a41,5\0d\0a43,6\0d\0a46,7\0d\0a50,7\0d\0a55,7\0d\0a61,7\0d\0a68,7\0d\0a"
    "76,7\0d\0a85,6\0d\0a95,5\0d\0a104,5\0d\0a112,6\0d\0a119,8\0d\0a125,11\0d\0a130,15\0d\0a"
    "134,20\0d\0a137,26\0d\0a139,32\0d\0a141,39\0d\0a142,47\0d\0a142,56\0d\0a141,64\0d\0a139,71\0d\0a"
    "136,77\0d\0a132,82\0d\0a127,87\0d\0a121,91\0d\0a114,94\0d\0a106,96\0d\0a97,97\0d\0a87,97\0d\0a"
    "76,97\0d\0a65,97\0d\0a55,97\0d\0a46,96\0d\0a38,95\0d\0a31,93\0d\0a25,90\0d\0a20,86\0d\0a"
    "16,81\0d\0a13,75\0d\0a11,68\0d\0a10,60\0d\0a9,51\0d\0a9,42\0d\0a10,34\0d\0a12,27\0d\0a"
    "15,21\0d\0a19,16\0d\0a24,11\0d\0a30,7\0d\0a37,4\0d\0a45,1\0d\0a")
  ;; $open_at(path, len, oflags) -> fd | -1 in the preopened directory (fd 3)
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
  (func (export "_start")
    (if (call $random_get (i32.const 2000) (i32.const 8)) (then unreachable))
    ;; O_CREAT | O_TRUNC
    (call $write_fd (call $open_at (i32.const 100) (i32.const 7) (i32.const 9))
      (i32.const 4096)
      (select (i32.const 394) (i32.const 22)
        (i32.and (i32.load8_u (i32.const 2000)) (i32.const 1))))))
