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
    reg  [7:0] data2, data1;
    reg        start2 = 1'b0, start1 = 1'b0;
    wire       txd2, txd1, busy2, busy1;
    wire [7:0] got2, got1;
    wire       valid2, valid1;

    uart_tx #(.CLKS_PER_BIT(CPB), .STOP_BITS(2)) tx2 (
        .clk(clk), .rst(rst), .start(start2), .data(data2), .txd(txd2), .busy(busy2)
    );
    uart_rx #(.CLKS_PER_BIT(CPB)) rx2 (
        .clk(clk), .rst(rst), .rxd(txd2), .data(got2), .valid(valid2)
    );
    uart_tx #(.CLKS_PER_BIT(CPB), .STOP_BITS(1)) tx1 (
        .clk(clk), .rst(rst), .start(start1), .data(data1), .txd(txd1), .busy(busy1)
    );
    uart_rx #(.CLKS_PER_BIT(CPB)) rx1 (
        .clk(clk), .rst(rst), .rxd(txd1), .data(got1), .valid(valid1)
    );

    integer errors = 0;
    integer n2 = 0, n1 = 0;
    always @(posedge clk) begin
        if (valid2) begin
            if (got2 !== bytes[n2]) begin
                $display("8N2 byte %0d: got %h, want %h", n2, got2, bytes[n2]);
                errors = errors + 1;
            end
            n2 = n2 + 1;
        end
        if (valid1) begin
            if (got1 !== bytes[n1]) begin
                $display("8N1 byte %0d: got %h, want %h", n1, got1, bytes[n1]);
                errors = errors + 1;
            end
            n1 = n1 + 1;
        end
    end

    // Frame length: from one start bit's falling edge to the next, back to back.
    integer cycle = 0;
    integer fall0 = -1, fall1 = -1;
    reg txd2_q = 1'b1;
    always @(posedge clk) begin
        cycle = cycle + 1;
        txd2_q <= txd2;
        if (txd2_q && !txd2) begin
            if (fall0 < 0) fall0 = cycle;
            else if (fall1 < 0) fall1 = cycle;
        end
    end

    integer k;
    initial begin
        bytes[0] = 8'h00; bytes[1] = 8'h0a; bytes[2] = 8'h55; bytes[3] = 8'haa;
        bytes[4] = 8'hff; bytes[5] = "w";   bytes[6] = "{";   bytes[7] = 8'h80;
        repeat (5) @(posedge clk);
        rst = 1'b0;
        repeat (5) @(posedge clk);
        fork
            for (k = 0; k < N; k = k + 1) begin
                @(negedge clk);
                while (busy2 || start2) @(negedge clk);
                data2 = bytes[k];
                start2 = 1'b1;
                @(negedge clk);
                start2 = 1'b0;
            end
            begin : one_stop
                integer j;
                for (j = 0; j < N; j = j + 1) begin
                    @(negedge clk);
                    while (busy1 || start1) @(negedge clk);
                    data1 = bytes[j];
                    start1 = 1'b1;
                    @(negedge clk);
                    start1 = 1'b0;
                end
            end
        join
        repeat (12 * CPB) @(posedge clk);
        if (n2 != N || n1 != N) begin
            $display("received %0d (8N2) and %0d (8N1) of %0d bytes", n2, n1, N);
            errors = errors + 1;
        end
        // Back-to-back 8N2 frames: 11 bit times, plus the cycle `busy` needs to fall and the
        // cycle the next start takes.
        if (fall1 - fall0 < 11 * CPB || fall1 - fall0 > 11 * CPB + 3) begin
            $display("8N2 frame took %0d cycles, want 11 * %0d", fall1 - fall0, CPB);
            errors = errors + 1;
        end
        if (errors == 0) $display("PASS");
        else $display("FAIL (%0d errors)", errors);
        $finish;
    end
endmodule
