// Flip-flop flavours. Netlisted by ffs.sh WITHOUT async2sync/dffunmap, so yosys keeps $dffe,
// $sdff, $sdffe, $sdffce, $adff, $adffe and falling-edge variants as cells. ($aldff and $dffsr
// are in async.v: Icarus' event semantics differ from theirs when data changes while the
// asynchronous load or set is held, so they are checked against expectations instead.)
module ffs (
  input clk,
  input rst,
  input arst,
  input en,
  input [7:0] d,
  input [69:0] wd,
  output reg [7:0] q_dffe,
  output reg [7:0] q_sdff,
  output reg [7:0] q_sdffe,
  output reg [7:0] q_sdffce,
  output reg [7:0] q_adff,
  output reg [7:0] q_adffe,
  output reg [7:0] q_neg,
  output reg [69:0] q_wide
);
  initial begin
    q_dffe = 1; q_sdff = 2; q_sdffe = 3; q_sdffce = 4; q_neg = 5; q_wide = 0;
  end
  always @(posedge clk) if (en) q_dffe <= d;
  always @(posedge clk) if (rst) q_sdff <= 8'h5a; else q_sdff <= d + q_sdff;
  always @(posedge clk) if (rst) q_sdffe <= 8'h11; else if (en) q_sdffe <= d ^ q_sdffe;
  always @(posedge clk) if (en) begin if (rst) q_sdffce <= 8'h22; else q_sdffce <= q_sdffce - d; end
  always @(posedge clk or posedge arst) if (arst) q_adff <= 8'h33; else q_adff <= q_adff + 1'b1;
  always @(posedge clk or negedge arst) if (!arst) q_adffe <= 8'h44; else if (en) q_adffe <= d;
  always @(negedge clk) if (en) q_neg <= q_neg ^ d;
  always @(posedge clk) if (rst) q_wide <= {70{1'b1}}; else if (en) q_wide <= wd ^ {q_wide[68:0], q_wide[69]};
endmodule
