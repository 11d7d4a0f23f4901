// Self-checking: UART loopback at the board's divisor (50 MHz / 115200 = 434 clocks per bit).
// An 8N2 transmitter feeds one receiver and an 8N1 transmitter another (the receiver must accept
// both), with back-to-back frames; the 8N2 frame must last exactly 11 bit times.
// Prints PASS or FAIL.
module tb_uart;
    localparam integer CPB = 434;
    localparam integer N = 8;

    reg clk = 1'b0;
    reg rst = 1'b1;
    always #10 clk = ~clk;

    reg  [7:0] bytes[0:N-1];

    // Two loopbacks, each indexed by its transmitter's stop bits: [2] is 8N2, [1] is 8N1.
    reg  [7:0] data[1:2];
    reg  [2:1] start = 2'b00;
    wire [2:1] txd, busy, valid;
    wire [7:0] got[1:2];

    uart_tx #(.CLKS_PER_BIT(CPB), .STOP_BITS(2)) tx2 (
        .clk(clk), .rst(rst), .start(start[2]), .data(data[2]), .txd(txd[2]), .busy(busy[2])
    );
    uart_rx #(.CLKS_PER_BIT(CPB)) rx2 (
        .clk(clk), .rst(rst), .rxd(txd[2]), .data(got[2]), .valid(valid[2])
    );
    uart_tx #(.CLKS_PER_BIT(CPB), .STOP_BITS(1)) tx1 (
        .clk(clk), .rst(rst), .start(start[1]), .data(data[1]), .txd(txd[1]), .busy(busy[1])
    );
    uart_rx #(.CLKS_PER_BIT(CPB)) rx1 (
        .clk(clk), .rst(rst), .rxd(txd[1]), .data(got[1]), .valid(valid[1])
    );

    `include "verdict.vh"

    // Bytes received on each loopback, each checked against the one sent.
    integer n[1:2];
    initial begin
        n[1] = 0;
        n[2] = 0;
    end

    task check_received;
        input integer stops;
        begin
            if (valid[stops]) begin
                if (got[stops] !== bytes[n[stops]]) begin
                    $display("8N%0d byte %0d: got %h, want %h", stops, n[stops], got[stops],
                             bytes[n[stops]]);
                    errors = errors + 1;
                end
                n[stops] = n[stops] + 1;
            end
        end
    endtask

    always @(posedge clk) begin
        check_received(2);
        check_received(1);
    end

    // Sends the N bytes on the loopback with `stops` stop bits, each as soon as its transmitter
    // is free, so that the frames go back to back. Both loopbacks are fed at once.
    task automatic feed;
        input integer stops;
        integer k;
        begin
            for (k = 0; k < N; k = k + 1) begin
                @(negedge clk);
                while (busy[stops] || start[stops]) @(negedge clk);
                data[stops] = bytes[k];
                start[stops] = 1'b1;
                @(negedge clk);
                start[stops] = 1'b0;
            end
        end
    endtask

    // Frame length: from one start bit's falling edge to the next, back to back.
    integer cycle = 0;
    integer fall0 = -1, fall1 = -1;
    reg txd2_q = 1'b1;
    always @(posedge clk) begin
        cycle = cycle + 1;
        txd2_q <= txd[2];
        if (txd2_q && !txd[2]) begin
            if (fall0 < 0) fall0 = cycle;
            else if (fall1 < 0) fall1 = cycle;
        end
    end

    initial begin
        bytes[0] = 8'h00; bytes[1] = 8'h0a; bytes[2] = 8'h55; bytes[3] = 8'haa;
        bytes[4] = 8'hff; bytes[5] = "w";   bytes[6] = "{";   bytes[7] = 8'h80;
        repeat (5) @(posedge clk);
        rst = 1'b0;
        repeat (5) @(posedge clk);
        fork
            feed(2);
            feed(1);
        join
        repeat (12 * CPB) @(posedge clk);
        if (n[2] != N || n[1] != N) begin
            $display("received %0d (8N2) and %0d (8N1) of %0d bytes", n[2], n[1], N);
            errors = errors + 1;
        end
        // Back-to-back 8N2 frames: 11 bit times, plus the cycle `busy` needs to fall and the
        // cycle the next start takes.
        if (fall1 - fall0 < 11 * CPB || fall1 - fall0 > 11 * CPB + 3) begin
            $display("8N2 frame took %0d cycles, want 11 * %0d", fall1 - fall0, CPB);
            errors = errors + 1;
        end
        finish_with_verdict;
    end
endmodule
