// Paper Soccer player for the Terasic DE2-115 (Cyclone IV E EP4CE115F29C7).
//
//   UART_RXD -> uart_rx -> proto_rx (parser, event FIFO) -> player_core -> uart_tx -> UART_TXD
//
// Board controls:
//   KEY[0]    reset (active low); KEY[3:1] unused
//   SW[3:0]   strength: the search budget is 2^(14 + min(SW[3:0], 10)) cycles per turn
//             (0.33 ms at SW = 0 up to 335 ms at SW >= 10, at 50 MHz)
//   SW[4]     up: skip the check of the opponent's replies (a weaker, plain greedy player)
// Status:
//   HEX7      colour: r or b          HEX6   t thinking, - waiting, o game over, blank no game
//   HEX5-4    width W in hex          HEX3-2 length L in hex          HEX0 SW[3:0]
//   LEDG[0]   thinking   LEDG[1] game over   LEDG[2] a game is set up   LEDG[8] heartbeat
//   LEDR      cycles spent on the last turn / 2^8 (LEDR[17] = 2^25 cycles)
module de2_115_top #(
    parameter integer CLKS_PER_BIT = 434,  // 50 MHz / 115200 baud
    parameter integer BUDGET_BASE = 14,
    parameter integer DEPTH_AW = 12
) (
    input  wire        CLOCK_50,
    input  wire [3:0]  KEY,
    input  wire [17:0] SW,
    input  wire        UART_RXD,
    output wire        UART_TXD,
    output wire [17:0] LEDR,
    output wire [8:0]  LEDG,
    output wire [6:0]  HEX0,
    output wire [6:0]  HEX1,
    output wire [6:0]  HEX2,
    output wire [6:0]  HEX3,
    output wire [6:0]  HEX4,
    output wire [6:0]  HEX5,
    output wire [6:0]  HEX6,
    output wire [6:0]  HEX7
);
    localparam integer HARD_LOG2 = 25;

    wire clk = CLOCK_50;

    // Reset: KEY[0] synchronised, then held for 16 more cycles.
    reg [1:0] key_sync;
    reg [4:0] por;
    always @(posedge clk) begin
        key_sync <= {key_sync[0], KEY[0]};
        if (!key_sync[1]) por <= 5'd0;
        else if (!por[4]) por <= por + 1'b1;
    end
    wire rst = !por[4];

    reg [17:0] sw_sync;
    always @(posedge clk) sw_sync <= SW;

    wire [7:0] rx_data;
    wire       rx_valid;
    uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) rx (
        .clk(clk), .rst(rst), .rxd(UART_RXD), .data(rx_data), .valid(rx_valid)
    );

    wire [7:0] width, length;
    wire       red, new_game, ev_empty, ev_pop;
    wire [3:0] ev_data;
    proto_rx proto (
        .clk(clk), .rst(rst), .rx_data(rx_data), .rx_valid(rx_valid),
        .width(width), .length(length), .red(red), .new_game(new_game),
        .ev_empty(ev_empty), .ev_pop(ev_pop), .ev_data(ev_data)
    );

    wire       tx_start, tx_busy, thinking, game_over, have_game;
    wire [7:0] tx_data;
    wire [HARD_LOG2:0] last_think;
    player_core #(
        .DEPTH_AW(DEPTH_AW), .BUDGET_BASE(BUDGET_BASE), .HARD_LOG2(HARD_LOG2)
    ) core (
        .clk(clk), .rst(rst), .new_game(new_game), .width(width), .length(length), .red(red),
        .ev_empty(ev_empty), .ev_pop(ev_pop), .ev_data(ev_data),
        .level(sw_sync[3:0]), .check_en(!sw_sync[4]),
        .tx_start(tx_start), .tx_data(tx_data), .tx_busy(tx_busy),
        .thinking(thinking), .game_over(game_over), .have_game(have_game),
        .last_think(last_think)
    );

    uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT), .STOP_BITS(2)) tx (
        .clk(clk), .rst(rst), .start(tx_start), .data(tx_data), .txd(UART_TXD), .busy(tx_busy)
    );

    // Status.
    reg [25:0] beat;
    always @(posedge clk) begin
        if (rst) beat <= 26'd0;
        else beat <= beat + 1'b1;
    end

    // Inputs and bits the design does not use.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = &{1'b0, KEY[3:1], sw_sync[17:5], last_think[7:0]};
    /* verilator lint_on UNUSEDSIGNAL */

    assign LEDR = last_think[HARD_LOG2:HARD_LOG2-17];
    assign LEDG = {beat[25], 5'd0, have_game, game_over, thinking};

    wire [4:0] g_colour = !have_game ? 5'd16 : red ? 5'd17 : 5'd11;
    wire [4:0] g_state = !have_game ? 5'd16 : game_over ? 5'd21 : thinking ? 5'd19 : 5'd18;
    hex7seg h7 (.code(g_colour), .seg(HEX7));
    hex7seg h6 (.code(g_state), .seg(HEX6));
    hex7seg h5 (.code({1'b0, width[7:4]}), .seg(HEX5));
    hex7seg h4 (.code({1'b0, width[3:0]}), .seg(HEX4));
    hex7seg h3 (.code({1'b0, length[7:4]}), .seg(HEX3));
    hex7seg h2 (.code({1'b0, length[3:0]}), .seg(HEX2));
    hex7seg h1 (.code(5'd16), .seg(HEX1));
    hex7seg h0 (.code({1'b0, sw_sync[3:0]}), .seg(HEX0));
endmodule
