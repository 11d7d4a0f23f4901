// A simple dual-port RAM: one synchronous write port, one synchronous read port.
//
// Written so that both yosys (`memory -nomap` keeps it as one $mem_v2 cell) and Quartus (M9K
// blocks) infer it as RAM. A read of the address being written returns the old data; the player
// core never relies on either behaviour.
module ram_1r1w #(
    parameter integer AW = 8,
    parameter integer DW = 8
) (
    input  wire          clk,
    input  wire          we,
    input  wire [AW-1:0] waddr,
    input  wire [DW-1:0] wdata,
    input  wire [AW-1:0] raddr,
    output reg  [DW-1:0] rdata
);
    reg [DW-1:0] mem[0:(1<<AW)-1];

    always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
        rdata <= mem[raddr];
    end
endmodule
