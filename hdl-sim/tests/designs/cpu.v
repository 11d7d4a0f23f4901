// A small accumulator machine: program ROM, data RAM, an LFSR, branches. Busy every cycle, so
// it is the benchmark's worst case as well as an equivalence test of a design with feedback.
module cpu (
  input clk,
  input rst,
  input [15:0] din,
  output [15:0] dout,
  output [7:0] pc_out,
  output tx
);
  reg [15:0] rom [0:255];
  reg [15:0] ram [0:255];
  reg [7:0] pc = 0;
  reg [15:0] acc = 0;
  reg [15:0] x = 1;
  reg [31:0] lfsr = 32'hdeadbeef;
  reg [15:0] out_r = 0;
  integer i;
  initial begin
    for (i = 0; i < 256; i = i + 1) begin
      rom[i] = (i * 16'h9e37) ^ (i << 7) ^ 16'h5a5a;
      ram[i] = i * 3;
    end
  end
  wire [15:0] ins = rom[pc];
  wire [3:0] op = ins[15:12];
  wire [7:0] imm = ins[7:0];
  wire [15:0] mval = ram[imm ^ x[7:0]];
  wire take = (op == 4'd8 && acc[0]) || (op == 4'd9 && acc == x) || (op == 4'd10 && $signed(acc) < $signed(x));
  always @(posedge clk) begin
    lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
    if (rst) begin
      pc <= 0;
      acc <= 0;
    end else begin
      pc <= take ? imm : pc + 1'b1;
      case (op)
        4'd0: acc <= acc + mval;
        4'd1: acc <= acc - mval;
        4'd2: acc <= acc ^ lfsr[15:0];
        4'd3: acc <= acc << imm[3:0];
        4'd4: ram[imm] <= acc;
        4'd5: x <= acc ^ din;
        4'd6: acc <= acc * x;
        4'd7: acc <= {acc[7:0], acc[15:8]};
        4'd11: out_r <= acc;
        4'd12: acc <= acc >> imm[3:0];
        4'd13: acc <= (x == 0) ? acc : acc / x;
        default: acc <= acc + imm;
      endcase
    end
  end
  assign dout = out_r;
  assign pc_out = pc;
  assign tx = ^out_r;
endmodule
