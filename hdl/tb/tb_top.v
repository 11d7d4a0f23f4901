// Self-checking: the whole board (de2_115_top) at the real divisor, 115200 baud from 50 MHz.
// Plays the first turn of a 10x10 game (W and L are the byte 0x0A) as red, then resynchronises
// on a `w` sent in the middle of an opponent's turn and answers as blue. Checks that replies
// are `{digits}\n`, that the first step is legal from the centre, and that every byte the
// board sends has two stop bits. Prints PASS or FAIL.
module tb_top;
    localparam integer CPB = 434;

    reg        clk = 1'b0;
    reg [3:0]  key = 4'hf;
    reg        rxd = 1'b1;
    wire       txd;
    wire [17:0] ledr;
    wire [8:0] ledg;
    wire [6:0] h0, h1, h2, h3, h4, h5, h6, h7;

    de2_115_top dut (
        .CLOCK_50(clk), .KEY(key), .SW(18'd0), .UART_RXD(rxd), .UART_TXD(txd),
        .LEDR(ledr), .LEDG(ledg), .HEX0(h0), .HEX1(h1), .HEX2(h2), .HEX3(h3),
        .HEX4(h4), .HEX5(h5), .HEX6(h6), .HEX7(h7)
    );

    always #10 clk = ~clk;

    `include "verdict.vh"

    `include "uart_host.vh"

    // Receive the board's bytes, checking both stop bits.
    reg [7:0] line[0:255];
    integer   len = 0;
    integer   lines = 0;
    reg [7:0] rb;
    initial begin : monitor
        forever begin
            receive_byte(rb);
            repeat (CPB) @(posedge clk);
            if (txd !== 1'b1) begin
                $display("first stop bit missing after %h", rb);
                errors = errors + 1;
            end
            repeat (CPB) @(posedge clk);
            if (txd !== 1'b1) begin
                $display("second stop bit missing after %h", rb);
                errors = errors + 1;
            end
            if (len < 256) line[len] = rb;
            len = len + 1;
            if (rb == 8'h0a) lines = lines + 1;
        end
    end

    task new_game;
        input [7:0] colour;
        begin
            send_byte("w"); send_byte(8'h0a); send_byte(8'h0a);
            send_byte("l"); send_byte(8'h0a); send_byte(8'h0a);
            send_byte("c"); send_byte(colour); send_byte(8'h0a);
        end
    endtask

    // Waits for one line and checks it is `{digits}\n` with a first step in `allowed`.
    task expect_turn;
        input [7:0] allowed;  // bit d set: digit d may start the turn
        input [8*16-1:0] what;
        integer want, waited, j;
        begin
            want = lines + 1;
            waited = 0;
            while (lines < want && waited < 2000000) begin
                @(posedge clk);
                waited = waited + 1;
            end
            if (lines < want) begin
                $display("%0s: no reply", what);
                errors = errors + 1;
            end else begin
                $write("%0s: reply ", what);
                for (j = 0; j < len; j = j + 1) if (line[j] != 8'h0a) $write("%c", line[j]);
                $display("");
                if (len < 4 || line[0] != "{" || line[len - 2] != "}") begin
                    $display("%0s: not a turn message", what);
                    errors = errors + 1;
                end else begin
                    for (j = 1; j < len - 2; j = j + 1)
                        if (line[j] < "0" || line[j] > "7") begin
                            $display("%0s: byte %0d is not a digit", what, j);
                            errors = errors + 1;
                        end
                    if (!allowed[line[1] - "0"]) begin
                        $display("%0s: illegal first step %c", what, line[1]);
                        errors = errors + 1;
                    end
                end
            end
            len = 0;
        end
    endtask

    initial begin
        key[0] = 1'b0;
        repeat (10) @(posedge clk);
        key[0] = 1'b1;
        repeat (100) @(posedge clk);

        // Red starts on 10x10: anything but along the centre line (E = 2, W = 6).
        new_game("r");
        send_byte("{"); send_byte("}"); send_byte(8'h0a);
        expect_turn(8'b1011_1011, "red starts");

        // A new game while the opponent's turn is half sent; then red plays 4 (south) and
        // blue answers from (5, 6), where only the segment back north (0) is drawn.
        send_byte("{"); send_byte("4"); send_byte("4");
        new_game("b");
        send_byte("{"); send_byte("4"); send_byte("}"); send_byte(8'h0a);
        expect_turn(8'b1111_1110, "blue answers");

        finish_with_verdict;
    end
endmodule
