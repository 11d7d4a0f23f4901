// Word-level false loops: each cell's output feeds its own input at other bits. hdl-sim splits
// such bitwise cells into bits; the result must still match Icarus cycle for cycle.
module loops (
  input clk,
  input [7:0] x,
  input [7:0] y,
  output [8:0] c,
  output [7:0] p,
  output reg [7:0] acc
);
  initial acc = 0;
  // A carry chain written word-wide: bit i+1 of c depends on bit i.
  assign c = {(x & y) | ((x ^ y) & c[7:0]), 1'b0};
  // A prefix XOR.
  assign p = ~c[8:1] ^ {p[6:0], 1'b1};
  always @(posedge clk) acc <= acc + (c[8:1] ^ p);
endmodule
