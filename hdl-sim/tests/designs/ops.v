// Every word-level operator yosys emits, at one width W; `ops_top` instantiates it at
// widths 1, 63, 64, 65 and 200. Divisors are forced nonzero so that no result is x, and at
// least 2 when W > 1: Icarus Verilog 11 divides {N{1'b1}} by 1 to 0 when N > 64.
module ops #(parameter W = 8) (
  input clk,
  input [W-1:0] a, b,
  input [7:0] s,
  output [W-1:0] add, sub, mul, div, mod, sdiv, smod, neg, inv, band, bor, bxor, bxnor,
  output [W-1:0] shl, shr, sshr, sshl, pos, pow2,
  output [W+3:0] wadd, wmul, wsub,
  output [18:0] flags,
  output [W-1:0] sel, pm,
  output pick,
  output reg [W-1:0] acc
);
  wire signed [W-1:0] sa = a, sb = b;
  wire [W-1:0] bo = b | (W > 1 ? 2 : 1);
  wire signed [W-1:0] sbo = bo;
  initial acc = 0;
  assign add = a + b;
  assign sub = a - b;
  assign mul = a * b;
  assign div = a / bo;
  assign mod = a % bo;
  assign sdiv = sa / sbo;
  assign smod = sa % sbo;
  assign neg = -a;
  assign inv = ~a;
  assign band = a & b;
  assign bor = a | b;
  assign bxor = a ^ b;
  assign bxnor = a ~^ b;
  assign shl = a << s;
  assign shr = a >> s;
  assign sshr = sa >>> s;
  assign sshl = sa <<< s[3:0];
  assign pos = +sa;
  assign pow2 = a ** 2'd2;
  assign wadd = sa + sb;
  assign wsub = a - sb;
  assign wmul = sa * sb;
  assign flags = {a == b, a != b, a < b, a <= b, a > b, a >= b, sa < sb, sa <= sb, sa > sb,
                  sa >= sb, a === b, a !== b, &a, |a, ^a, ~^a, !a, a && b, a || b};
  assign sel = s[0] ? a : b;
  reg [W-1:0] pm_r;
  always @* begin
    case (s[2:0])
      3'd0: pm_r = a;
      3'd1: pm_r = b;
      3'd2: pm_r = a ^ b;
      3'd5: pm_r = ~a;
      default: pm_r = a + 1'b1;
    endcase
  end
  assign pm = pm_r;
  assign pick = a[s % W];
  always @(posedge clk) acc <= acc ^ (a + (acc >> 1));
endmodule

module ops_top (
  input clk,
  input [199:0] a, b,
  input [7:0] s,
  output [2*1+1:0] w1, output [63+19:0] w63, output [64+19:0] w64, output [65+19:0] w65,
  output [199:0] add200, sub200, mul200, div200, mod200, sdiv200, smod200, neg200, shl200,
  output [199:0] shr200, sshr200, pm200, acc200, pow200, band200, bxor200,
  output [203:0] wmul200, wadd200,
  output [18:0] flags200,
  output pick200
);
  // Narrow instances: a few outputs folded into one port per width.
  `define NARROW(N, OUT) \
    wire [N-1:0] add``N, sub``N, mul``N, div``N, mod``N, sdiv``N, smod``N, neg``N, inv``N, and``N, or``N, xor``N, xnor``N, shl``N, shr``N, sshr``N, sshl``N, pos``N, pow``N, sel``N, pm``N, acc``N; \
    wire [N+3:0] wadd``N, wmul``N, wsub``N; wire [18:0] flags``N; wire pick``N; \
    ops #(N) u``N (clk, a[N-1:0], b[N-1:0], s, add``N, sub``N, mul``N, div``N, mod``N, sdiv``N, smod``N, neg``N, inv``N, and``N, or``N, xor``N, xnor``N, shl``N, shr``N, sshr``N, sshl``N, pos``N, pow``N, wadd``N, wmul``N, wsub``N, flags``N, sel``N, pm``N, pick``N, acc``N); \
    assign OUT = {flags``N, pick``N, add``N ^ sub``N ^ mul``N ^ div``N ^ mod``N ^ sdiv``N ^ smod``N ^ neg``N ^ inv``N ^ and``N ^ or``N ^ xor``N ^ xnor``N ^ shl``N ^ shr``N ^ sshr``N ^ sshl``N ^ pos``N ^ pow``N ^ sel``N ^ pm``N ^ acc``N ^ wadd``N[N-1:0] ^ wmul``N[N-1:0] ^ wsub``N[N-1:0]};
  wire [0:0] add1, sub1, mul1, div1, mod1, sdiv1, smod1, neg1, inv1, and1, or1, xor1, xnor1, shl1, shr1, sshr1, sshl1, pos1, pow1, sel1, pm1, acc1;
  wire [4:0] wadd1, wmul1, wsub1; wire [18:0] flags1; wire pick1;
  ops #(1) u1 (clk, a[0:0], b[0:0], s, add1, sub1, mul1, div1, mod1, sdiv1, smod1, neg1, inv1, and1, or1, xor1, xnor1, shl1, shr1, sshr1, sshl1, pos1, pow1, wadd1, wmul1, wsub1, flags1, sel1, pm1, pick1, acc1);
  assign w1 = {add1 ^ sub1 ^ mul1 ^ div1 ^ mod1 ^ sdiv1 ^ smod1 ^ neg1, inv1 ^ and1 ^ or1 ^ xor1 ^ xnor1 ^ shl1 ^ shr1 ^ sshr1 ^ sshl1 ^ pos1 ^ pow1 ^ sel1 ^ pm1 ^ acc1, wadd1[0] ^ wmul1[1] ^ wsub1[4] ^ flags1[3] ^ pick1, ^flags1};
  `NARROW(63, w63)
  `NARROW(64, w64)
  `NARROW(65, w65)
  wire [199:0] inv200, bor200, bxnor200, sshl200, pos200, sel200;
  ops #(200) u200 (clk, a, b, s, add200, sub200, mul200, div200, mod200, sdiv200, smod200, neg200,
    inv200, band200, bor200, bxor200, bxnor200, shl200, shr200, sshr200, sshl200, pos200, pow200,
    wadd200, wmul200, , flags200, sel200, pm200, pick200, acc200);
endmodule
