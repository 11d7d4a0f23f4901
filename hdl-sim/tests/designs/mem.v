// Memories: byte-enable writes, a synchronous and an asynchronous read port, initial contents,
// a wide (70-bit) memory read through a registered address (a transparent port), and
// registers with enables, synchronous and asynchronous resets and a falling-edge register.
module mem (
  input clk,
  input rst,
  input we,
  input [1:0] be,
  input [4:0] wa, ra, ra2,
  input [15:0] wd,
  input [69:0] wide_d,
  input en,
  output reg [15:0] rd_sync,
  output [15:0] rd_async,
  output [69:0] rd_wide,
  output reg [7:0] cnt_sync,
  output reg [7:0] cnt_async,
  output reg [7:0] neg_q,
  output [7:0] mix
);
  reg [15:0] m [0:31];
  reg [69:0] w [0:7];
  integer i;
  initial begin
    for (i = 0; i < 32; i = i + 1) m[i] = i * 16'h0123;
    for (i = 0; i < 8; i = i + 1) w[i] = 70'h0;
    rd_sync = 0;
    cnt_sync = 8'd3;
    cnt_async = 8'd200;
    neg_q = 0;
  end
  always @(posedge clk) begin
    if (we) begin
      if (be[0]) m[wa][7:0] <= wd[7:0];
      if (be[1]) m[wa][15:8] <= wd[15:8];
    end
    if (en) rd_sync <= m[ra];
  end
  assign rd_async = m[ra2];
  reg [2:0] wra = 0;
  always @(posedge clk) begin
    if (we && be == 2'b11) w[wa[2:0]] <= wide_d;
    wra <= ra[2:0];
  end
  assign rd_wide = w[wra];
  always @(posedge clk) begin
    if (rst) cnt_sync <= 8'd7;
    else if (en) cnt_sync <= cnt_sync + wd[3:0];
  end
  always @(posedge clk or posedge rst) begin
    if (rst) cnt_async <= 8'd100;
    else cnt_async <= cnt_async - 1'b1;
  end
  always @(negedge clk) neg_q <= cnt_sync ^ wd[7:0];
  assign mix = cnt_async ^ rd_sync[7:0] ^ (clk ? 8'h0f : 8'hf0);
endmodule
