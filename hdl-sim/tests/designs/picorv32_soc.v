// PicoRV32 (picorv32/picorv32.v, vendored with its ISC licence) running a program from 4 KiB of
// single-cycle RAM: a public soft-CPU core as a busy test design and benchmark. Writes to
// 0x1000_0000 appear on `out` (with `out_valid` for one cycle). The RAM's first words are the
// program assembled from picorv32_prog.s (picorv32.sh writes them).
module picorv32_soc (
  input clk,
  input rst,
  output reg [31:0] out,
  output reg out_valid,
  output [31:0] pc_addr,
  output trap
);
  reg [31:0] ram [0:1023];
  integer i;
  initial begin
    for (i = 0; i < 1024; i = i + 1) ram[i] = 0;
    // program: begin
    ram[0] = 32'h10000437;
    ram[1] = 32'h123454b7;
    ram[2] = 32'h67848493;
    ram[3] = 32'h00000913;
    ram[4] = 32'h000019b7;
    ram[5] = 32'h80098993;
    ram[6] = 32'h00d49293;
    ram[7] = 32'h0054c4b3;
    ram[8] = 32'h0114d293;
    ram[9] = 32'h0054c4b3;
    ram[10] = 32'h00549293;
    ram[11] = 32'h0054c4b3;
    ram[12] = 32'h03f97313;
    ram[13] = 32'h00231313;
    ram[14] = 32'h01330333;
    ram[15] = 32'h00032383;
    ram[16] = 32'h009383b3;
    ram[17] = 32'h00732023;
    ram[18] = 32'h012300a3;
    ram[19] = 32'h00035e03;
    ram[20] = 32'h0093beb3;
    ram[21] = 32'h01de0e33;
    ram[22] = 32'h00190913;
    ram[23] = 32'h01c42023;
    ram[24] = 32'hfb9ff06f;
    // program: end
  end
  initial out = 0;
  initial out_valid = 0;
  wire mem_valid, mem_instr;
  reg mem_ready = 0;
  wire [31:0] mem_addr, mem_wdata;
  wire [3:0] mem_wstrb;
  reg [31:0] mem_rdata = 0;
  assign pc_addr = mem_addr;
  picorv32 #(.ENABLE_COUNTERS(0)) cpu (
    .clk(clk), .resetn(!rst), .trap(trap),
    .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
    .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
    .pcpi_wr(1'b0), .pcpi_rd(32'b0), .pcpi_wait(1'b0), .pcpi_ready(1'b0), .irq(32'b0)
  );
  wire [9:0] word = mem_addr[11:2];
  always @(posedge clk) begin
    mem_ready <= 0;
    out_valid <= 0;
    if (mem_valid && !mem_ready) begin
      mem_ready <= 1;
      if (mem_addr < 32'h1000) begin
        mem_rdata <= ram[word];
        if (mem_wstrb[0]) ram[word][7:0] <= mem_wdata[7:0];
        if (mem_wstrb[1]) ram[word][15:8] <= mem_wdata[15:8];
        if (mem_wstrb[2]) ram[word][23:16] <= mem_wdata[23:16];
        if (mem_wstrb[3]) ram[word][31:24] <= mem_wdata[31:24];
      end else if (mem_addr == 32'h1000_0000 && mem_wstrb != 0) begin
        out <= mem_wdata;
        out_valid <= 1;
      end
    end
  end
endmodule
