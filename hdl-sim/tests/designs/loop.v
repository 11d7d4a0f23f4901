// A DE2-115-style top whose transmit pin echoes its receive pin, with a reset-held counter:
// the smallest board the UART transactors and the board emulator can talk to.
module loop (
  input CLOCK_50,
  input UART_RXD,
  output UART_TXD,
  input [3:0] KEY,
  input [17:0] SW,
  output reg [7:0] LEDG
);
  initial LEDG = 0;
  assign UART_TXD = UART_RXD;
  always @(posedge CLOCK_50)
    if (!KEY[0]) LEDG <= 0;
    else LEDG <= LEDG + SW[7:0];
endmodule
