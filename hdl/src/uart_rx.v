// UART receiver, 8 data bits, no parity, one or more stop bits (8N1 and 8N2 alike).
//
// The line is synchronised through two flip-flops, a start bit is confirmed at its middle, and
// every data bit is sampled at its middle. The receiver is ready for the next start bit right
// after the middle of the first stop bit, so a second stop bit is simply idle line.
// A frame whose stop bit reads low (a framing error or a break) is dropped.
module uart_rx #(
    parameter integer CLKS_PER_BIT = 434
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       rxd,
    output reg  [7:0] data,
    output reg        valid
);
    localparam integer CW = $clog2(CLKS_PER_BIT + 1);
    localparam integer FULL_I = CLKS_PER_BIT - 1;
    localparam integer HALF_I = (CLKS_PER_BIT - 1) / 2;
    localparam [CW-1:0] FULL = FULL_I[CW-1:0];
    localparam [CW-1:0] HALF = HALF_I[CW-1:0];

    localparam [1:0] IDLE = 2'd0, START = 2'd1, DATA = 2'd2, STOP = 2'd3;

    reg [1:0]    sync;
    reg [1:0]    state;
    reg [CW-1:0] cnt;
    reg [2:0]    bitn;
    reg [7:0]    shift;

    wire line = sync[1];

    always @(posedge clk) begin
        if (rst) begin
            sync  <= 2'b11;
            state <= IDLE;
            cnt   <= {CW{1'b0}};
            bitn  <= 3'd0;
            shift <= 8'd0;
            data  <= 8'd0;
            valid <= 1'b0;
        end else begin
            sync  <= {sync[0], rxd};
            valid <= 1'b0;
            case (state)
                IDLE: begin
                    cnt <= {CW{1'b0}};
                    if (!line) state <= START;
                end
                START: begin
                    if (cnt == HALF) begin
                        cnt   <= {CW{1'b0}};
                        bitn  <= 3'd0;
                        state <= line ? IDLE : DATA;
                    end else begin
                        cnt <= cnt + 1'b1;
                    end
                end
                DATA: begin
                    if (cnt == FULL) begin
                        cnt   <= {CW{1'b0}};
                        shift <= {line, shift[7:1]};
                        bitn  <= bitn + 1'b1;
                        if (bitn == 3'd7) state <= STOP;
                    end else begin
                        cnt <= cnt + 1'b1;
                    end
                end
                default: begin  // STOP
                    if (cnt == FULL) begin
                        cnt   <= {CW{1'b0}};
                        state <= IDLE;
                        if (line) begin
                            data  <= shift;
                            valid <= 1'b1;
                        end
                    end else begin
                        cnt <= cnt + 1'b1;
                    end
                end
            endcase
        end
    end
endmodule
