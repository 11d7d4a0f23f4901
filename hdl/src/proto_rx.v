// The referee-to-player half of the protocol (spec §4), turned into events for the core.
//
// Bytes are parsed as they arrive, never split on LF: after `w` and `l` the next byte is raw
// data even when it is 0x0A. A `w` anywhere else starts a new game (`new_game` pulses and the
// event queue is flushed), which is how the player resynchronises. Everything that is not part
// of a message is ignored, like the referee ignores stray bytes.
//
// Events go through a small FIFO because the core may be busy (clearing the field takes up to
// 65,025 cycles, about 15 bytes' time at 115200 baud) while the opponent's turn streams in:
//   0..7  a digit of the opponent's turn
//   8     `}`: the end of a turn (an empty `{}` means "you start")
//   9     width and length are known: clear the field
module proto_rx #(
    parameter integer FIFO_AW = 5
) (
    input  wire       clk,
    input  wire       rst,
    input  wire [7:0] rx_data,
    input  wire       rx_valid,
    output reg  [7:0] width,
    output reg  [7:0] length,
    output reg        red,       // our colour: 1 = red (attacks the bottom goal), 0 = blue
    output reg        new_game,  // one-cycle pulse on every `w`
    // Event queue, read side: `ev_pop` takes the head; `ev_data` is valid the cycle after.
    output wire       ev_empty,
    input  wire       ev_pop,
    output reg  [3:0] ev_data
);
    localparam [2:0] P_IDLE = 3'd0, P_W = 3'd1, P_L = 3'd2, P_C = 3'd3, P_TURN = 3'd4;

    localparam [3:0] EV_END = 4'd8, EV_SETUP = 4'd9;

    reg [2:0] state;

    reg [3:0]         fifo[0:(1<<FIFO_AW)-1];
    reg [FIFO_AW:0]   wr_ptr;
    reg [FIFO_AW:0]   rd_ptr;
    reg               push;
    reg [3:0]         push_data;

    assign ev_empty = (wr_ptr == rd_ptr);
    wire full = (wr_ptr[FIFO_AW] != rd_ptr[FIFO_AW]) && (wr_ptr[FIFO_AW-1:0] == rd_ptr[FIFO_AW-1:0]);

    // Parser.
    always @(posedge clk) begin
        push      <= 1'b0;
        push_data <= 4'd0;
        new_game  <= 1'b0;
        if (rst) begin
            state  <= P_IDLE;
            width  <= 8'd0;
            length <= 8'd0;
            red    <= 1'b1;
        end else if (rx_valid) begin
            case (state)
                P_W: begin
                    width <= rx_data;
                    state <= P_IDLE;
                end
                P_L: begin
                    length    <= rx_data;
                    push      <= 1'b1;
                    push_data <= EV_SETUP;
                    state     <= P_IDLE;
                end
                default: begin
                    if (rx_data == "w") begin
                        new_game <= 1'b1;
                        state    <= P_W;
                    end else if (state == P_C && (rx_data == "r" || rx_data == "b")) begin
                        red   <= (rx_data == "r");
                        state <= P_IDLE;
                    end else if (state == P_TURN) begin
                        if (rx_data >= "0" && rx_data <= "7") begin
                            push      <= 1'b1;
                            push_data <= {1'b0, rx_data[2:0]};
                        end else if (rx_data == "}") begin
                            push      <= 1'b1;
                            push_data <= EV_END;
                            state     <= P_IDLE;
                        end
                    end else if (rx_data == "l") begin
                        state <= P_L;
                    end else if (rx_data == "c") begin
                        state <= P_C;
                    end else if (rx_data == "{") begin
                        state <= P_TURN;
                    end
                end
            endcase
        end
    end

    // Event FIFO: one synchronous write port, one synchronous read port.
    always @(posedge clk) begin
        if (push && !full) fifo[wr_ptr[FIFO_AW-1:0]] <= push_data;
        ev_data <= fifo[rd_ptr[FIFO_AW-1:0]];
    end

    always @(posedge clk) begin
        if (rst || new_game) begin
            wr_ptr <= {(FIFO_AW + 1) {1'b0}};
            rd_ptr <= {(FIFO_AW + 1) {1'b0}};
        end else begin
            if (push && !full) wr_ptr <= wr_ptr + 1'b1;
            if (ev_pop && !ev_empty) rd_ptr <= rd_ptr + 1'b1;
        end
    end
endmodule
