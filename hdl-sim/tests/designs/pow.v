// `**` with operands of mixed signedness: the base is signed by itself (the exponent is
// self-determined), so `$signed(c) ** u` sign-extends c even though u is unsigned.
module pow_mixed (
  input clk,
  input signed [3:0] b,
  input [3:0] u,
  output signed [7:0] signed_base,
  output [7:0] unsigned_base,
  output signed [7:0] both_signed,
  output [69:0] wide_signed_base
);
  reg signed [3:0] c = -4'sd8;
  always @(posedge clk) c <= c + 4'sd1;
  assign signed_base = c ** u;
  assign unsigned_base = u ** b;
  assign both_signed = c ** b;
  assign wide_signed_base = c ** u;
endmodule
