# The DE2-115's 50 MHz oscillator on CLOCK_50 (PIN_Y2).
create_clock -name CLOCK_50 -period 20.000 [get_ports {CLOCK_50}]
derive_clock_uncertainty
# The UART, keys, switches, LEDs and displays are asynchronous to the clock (the inputs go
# through synchronisers); do not time them.
set_false_path -from [get_ports {KEY[*] SW[*] UART_RXD}]
set_false_path -to [get_ports {LEDR[*] LEDG[*] HEX0[*] HEX1[*] HEX2[*] HEX3[*] HEX4[*] HEX5[*] HEX6[*] HEX7[*] UART_TXD}]
