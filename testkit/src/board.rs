//! The reference player ([`hdl_sim::reference::NETLIST`]) on an emulated DE2-115.

use hdl_sim::{BoardConfig, BoardEmulator, UartConfig};

/// The DE2-115's `CLOCK_50`.
pub const CLOCK_HZ: u64 = 50_000_000;

/// The contest's serial line on that clock: 115200 baud, 8 data bits, 2 stop bits.
pub fn contest_uart() -> UartConfig {
    UartConfig::new(CLOCK_HZ, u64::from(engine::soccer::protocol::BAUD)).with_stop_bits(2)
}

/// The reference player powered up with `config`.
pub fn reference_board(config: BoardConfig) -> BoardEmulator {
    BoardEmulator::from_json(hdl_sim::reference::NETLIST, config)
        .expect("the reference netlist loads")
}

/// The reference player on the contest's serial line, its slide switches set to `switches`.
pub fn contest_board(switches: u64) -> BoardEmulator {
    reference_board(BoardConfig {
        switch_value: switches,
        uart: contest_uart(),
        ..BoardConfig::default()
    })
}
