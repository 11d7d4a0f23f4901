// Interactive harness around de2_115_top for the Rust game tests (not self-checking alone).
//
// Commands come from the file named by +cmd=PATH (default /dev/stdin), one character at a time:
//   two hex digits   send that byte to the player over its UART (8N2)
//   s HH             set SW[7:0] to the hex byte HH
//   k                pulse KEY[0] (reset)
//   r                wait until the player has sent one more line
//   x                wait 24 bit times (a byte in flight ends), drop the partial line, print
//                    CLEARED
//   q                finish
// Whitespace is ignored. Every line the player sends is printed as
//   REPLY <hex bytes> <think cycles of the core's last turn> <cycles since the last byte sent>
// The simulation gives up with "TIMEOUT" after +timeout=N cycles of waiting (default 50M).
module tb_player;
    parameter integer CPB = 4;  // clocks per UART bit; the board uses 434

    reg        clk = 1'b0;
    reg [3:0]  key = 4'hf;
    reg [17:0] sw = 18'd0;
    reg        rxd = 1'b1;
    wire       txd;
    wire [17:0] ledr;
    wire [8:0] ledg;
    wire [6:0] h0, h1, h2, h3, h4, h5, h6, h7;

    de2_115_top #(.CLKS_PER_BIT(CPB)) dut (
        .CLOCK_50(clk), .KEY(key), .SW(sw), .UART_RXD(rxd), .UART_TXD(txd),
        .LEDR(ledr), .LEDG(ledg), .HEX0(h0), .HEX1(h1), .HEX2(h2), .HEX3(h3),
        .HEX4(h4), .HEX5(h5), .HEX6(h6), .HEX7(h7)
    );

    always #10 clk = ~clk;

    reg [63:0] cycle = 0;
    reg [63:0] last_sent = 0;  // when the last byte sent to the player ended
    always @(posedge clk) cycle <= cycle + 1;

    `include "uart_host.vh"

    // The player's transmissions, collected into lines.
    integer replies = 0;
    reg [7:0] line[0:65599];
    integer line_len = 0;
    integer j;
    reg [7:0] rbyte;
    initial begin : monitor
        forever begin
            receive_byte(rbyte);
            repeat (CPB) @(posedge clk);
            if (txd !== 1'b1) $display("FRAMING error at cycle %0d", cycle);
            if (line_len < 65600) begin
                line[line_len] = rbyte;
                line_len = line_len + 1;
            end
            if (rbyte == 8'h0a) begin
                $write("REPLY ");
                for (j = 0; j < line_len; j = j + 1) $write("%02x", line[j]);
                $display(" %0d %0d", dut.core.last_think, cycle - last_sent);
                $fflush;
                line_len = 0;
                replies = replies + 1;
            end
        end
    end

    function integer hexval;
        input integer c;
        begin
            if (c >= "0" && c <= "9") hexval = c - "0";
            else if (c >= "a" && c <= "f") hexval = c - "a" + 10;
            else if (c >= "A" && c <= "F") hexval = c - "A" + 10;
            else hexval = -1;
        end
    endfunction

    integer fd, c, c2, want, timeout, waited;
    reg [8*256-1:0] path;
    initial begin
        if (!$value$plusargs("cmd=%s", path)) path = "/dev/stdin";
        if (!$value$plusargs("timeout=%d", timeout)) timeout = 50000000;
        fd = $fopen(path, "r");
        if (fd == 0) begin
            $display("cannot open %0s", path);
            $finish;
        end
        key[0] = 1'b0;
        repeat (4) @(posedge clk);
        key[0] = 1'b1;
        repeat (40) @(posedge clk);
        forever begin
            c = $fgetc(fd);
            if (c < 0 || c == "q") begin
                repeat (4 * CPB) @(posedge clk);
                $display("DONE %0d", cycle);
                $finish;
            end else if (c == "k") begin
                key[0] = 1'b0;
                repeat (4) @(posedge clk);
                key[0] = 1'b1;
                repeat (40) @(posedge clk);
            end else if (c == "s") begin
                c = $fgetc(fd);
                c2 = $fgetc(fd);
                sw[7:0] = hexval(c) * 16 + hexval(c2);
            end else if (c == "x") begin
                repeat (24 * CPB) @(posedge clk);
                line_len = 0;
                $display("CLEARED");
                $fflush;
            end else if (c == "r") begin
                want = replies + 1;
                waited = 0;
                while (replies < want && waited < timeout) begin
                    @(posedge clk);
                    waited = waited + 1;
                end
                if (replies < want) begin
                    $display("TIMEOUT %0d", cycle);
                    $fflush;
                    $finish;
                end
            end else if (hexval(c) >= 0) begin
                c2 = $fgetc(fd);
                send_byte(hexval(c) * 16 + hexval(c2));
                last_sent = cycle;
            end
        end
    end
endmodule
