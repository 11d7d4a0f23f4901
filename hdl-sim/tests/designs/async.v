// Asynchronous load ($aldff) and per-bit set/reset ($dffsr) flip-flops, netlisted by ffs.sh.
module async (
  input clk,
  input ld,
  input [7:0] d,
  input [3:0] set,
  input [3:0] clr,
  input en,
  output reg [7:0] q_aldff,
  output reg [3:0] q_sr
);
  always @(posedge clk or posedge ld) if (ld) q_aldff <= d; else q_aldff <= q_aldff + 8'd3;
  genvar i;
  generate for (i = 0; i < 4; i = i + 1) begin : sr
    always @(posedge clk or posedge set[i] or posedge clr[i])
      if (clr[i]) q_sr[i] <= 1'b0;
      else if (set[i]) q_sr[i] <= 1'b1;
      else q_sr[i] <= en;
  end endgenerate
endmodule
