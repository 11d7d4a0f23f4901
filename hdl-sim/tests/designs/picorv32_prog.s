# The program PicoRV32 runs in picorv32_soc.v: a xorshift generator whose values are added into a
# ring of 64 words in RAM (word and byte stores, loads) and written to the output port, forever.
    .text
    .globl _start
_start:
    li   s0, 0x10000000      # the output port
    li   s1, 0x12345678      # xorshift32 state
    li   s2, 0               # iteration
    li   s3, 0x800           # the ring (RAM bytes 0x800-0x8ff)
loop:
    slli t0, s1, 13
    xor  s1, s1, t0
    srli t0, s1, 17
    xor  s1, s1, t0
    slli t0, s1, 5
    xor  s1, s1, t0
    andi t1, s2, 63
    slli t1, t1, 2
    add  t1, t1, s3
    lw   t2, 0(t1)
    add  t2, t2, s1
    sw   t2, 0(t1)
    sb   s2, 1(t1)
    lhu  t3, 0(t1)
    sltu t4, t2, s1
    add  t3, t3, t4
    addi s2, s2, 1
    sw   t3, 0(s0)
    j    loop
