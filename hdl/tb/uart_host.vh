// The host's end of the board's serial line, shared by the testbenches that talk to the whole
// board (`tb_player.v`, `tb_top.v`): `include it inside the module, after declaring
//   clk  the clock,    rxd  the host's line into the board (a reg, idle high),
//   txd  the board's line to the host,    CPB  the clocks per UART bit.
// Frames are 8N2 like the board's: a start bit, eight data bits LSB first, two stop bits.

// Sends `v` to the board and returns after its second stop bit.
task send_byte;
    input [7:0] v;
    integer k;
    begin
        rxd = 1'b0;
        repeat (CPB) @(posedge clk);
        for (k = 0; k < 8; k = k + 1) begin
            rxd = v[k];
            repeat (CPB) @(posedge clk);
        end
        rxd = 1'b1;
        repeat (2 * CPB) @(posedge clk);
    end
endtask

// Waits for the board's next start bit and samples the eight data bits in their middles;
// returns in the middle of the last data bit, so the caller can check the stop bits.
task receive_byte;
    output [7:0] v;
    integer k;
    begin
        @(negedge txd);
        repeat (CPB / 2) @(posedge clk);
        for (k = 0; k < 8; k = k + 1) begin
            repeat (CPB) @(posedge clk);
            v[k] = txd;
        end
    end
endtask
