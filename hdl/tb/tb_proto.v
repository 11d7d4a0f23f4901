// Self-checking: the protocol parser (spec §4) on raw width/length bytes that look like
// protocol characters (0x0A = LF, 'l', 'r'), stray bytes, and resynchronisation on `w` in the
// middle of a turn. Prints PASS or FAIL.
module tb_proto;
    reg clk = 1'b0;
    reg rst = 1'b1;
    always #10 clk = ~clk;

    reg  [7:0] rx_data = 8'd0;
    reg        rx_valid = 1'b0;
    wire [7:0] width, length;
    wire       red, new_game, ev_empty;
    reg        ev_pop = 1'b0;
    wire [3:0] ev_data;

    proto_rx dut (
        .clk(clk), .rst(rst), .rx_data(rx_data), .rx_valid(rx_valid),
        .width(width), .length(length), .red(red), .new_game(new_game),
        .ev_empty(ev_empty), .ev_pop(ev_pop), .ev_data(ev_data)
    );

    `include "verdict.vh"
    integer games = 0;
    always @(posedge clk) if (new_game) games = games + 1;

    task send;
        input [7:0] b;
        begin
            @(negedge clk);
            rx_data = b;
            rx_valid = 1'b1;
            @(negedge clk);
            rx_valid = 1'b0;
            repeat (3) @(negedge clk);
        end
    endtask

    // Pops every queued event into a string of hex digits (8 = `}`, 9 = field known).
    reg [8*32-1:0] got;
    task drain;
        begin
            got = 0;
            @(negedge clk);
            while (!ev_empty) begin
                ev_pop = 1'b1;
                @(negedge clk);
                ev_pop = 1'b0;
                got = {got[8*31-1:0], (ev_data < 10) ? ("0" + {4'd0, ev_data}) : "?"};
                @(negedge clk);
            end
        end
    endtask

    task expect_events;
        input [8*32-1:0] want;
        input [8*32-1:0] what;
        begin
            drain;
            if (got !== want) begin
                $display("%0s: events \"%0s\", want \"%0s\"", what, got, want);
                errors = errors + 1;
            end
        end
    endtask

    task expect_field;
        input [7:0] w, l;
        input r;
        input [8*32-1:0] what;
        begin
            if (width !== w || length !== l || red !== r) begin
                $display("%0s: W=%0d L=%0d red=%b, want W=%0d L=%0d red=%b", what, width, length,
                         red, w, l, r);
                errors = errors + 1;
            end
        end
    endtask

    initial begin
        repeat (3) @(negedge clk);
        rst = 1'b0;

        // W = L = 10: the raw bytes are LF.
        send("w"); send(8'h0a); send(8'h0a);
        send("l"); send(8'h0a); send(8'h0a);
        send("c"); send("b"); send(8'h0a);
        expect_field(10, 10, 1'b0, "W=L=10");
        expect_events("9", "W=L=10");

        // The opponent's turn with a stray byte and a line end.
        send("{"); send("4"); send("5"); send("x"); send("8"); send("0"); send("7"); send("}");
        send(8'h0a);
        expect_events("45078", "a turn");  // `x` and `8` are ignored

        // Our turn to start.
        send("{"); send("}"); send(8'h0a);
        expect_events("8", "an empty turn");

        // A new game in the middle of a turn: the queued digits are dropped.
        send("{"); send("1"); send("2");
        send("w"); send(8'd8); send(8'h0a);
        send("l"); send(8'd12); send(8'h0a);
        send("c"); send("r"); send(8'h0a);
        send("{"); send("}"); send(8'h0a);
        expect_field(8, 12, 1'b1, "resync");
        expect_events("98", "resync");

        // Raw bytes that look like message letters: W = 'l' (108), L = 'r' (114).
        send("w"); send("l"); send(8'h0a);
        send("l"); send("r"); send(8'h0a);
        send("c"); send("b"); send(8'h0a);
        expect_field(108, 114, 1'b0, "letters as sizes");
        expect_events("9", "letters as sizes");

        // The largest field.
        send("w"); send(8'd254); send(8'h0a);
        send("l"); send(8'd254); send(8'h0a);
        send("c"); send("r"); send(8'h0a);
        expect_field(254, 254, 1'b1, "254x254");
        expect_events("9", "254x254");

        if (games != 4) begin
            $display("%0d new-game pulses, want 4", games);
            errors = errors + 1;
        end
        finish_with_verdict;
    end
endmodule
