// Falling-edge elements with initial values: a testbench whose clock starts at 0 drives it
// from x to 0 at time 0, a falling edge, so each of them updates once before the first rising
// edge (Icarus Verilog does; so must `quadrille sim`).
module negedge_count (
  input clk,
  input [3:0] step,
  output reg [7:0] down,
  output reg [7:0] up,
  output [7:0] slot0
);
  reg [7:0] mem [0:3];
  initial begin
    down = 8'd100;
    up = 8'd0;
    mem[0] = 8'd7;
    mem[1] = 8'd0;
    mem[2] = 8'd0;
    mem[3] = 8'd0;
  end
  always @(negedge clk) down <= down - step;
  always @(posedge clk) up <= up + down[3:0];
  always @(negedge clk) mem[up[1:0]] <= mem[up[1:0]] + step;
  assign slot0 = mem[0];
endmodule
