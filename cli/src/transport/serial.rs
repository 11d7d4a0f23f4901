//! Serial ports (a DE2-115 behind a USB-to-RS232 adapter, or a pseudo-terminal in tests).

use std::time::Duration;

use anyhow::Context;

use super::Connection;

/// Line settings: 8 data bits, no parity, no flow control are fixed by the spec; the speed and
/// the stop bits are settings (contest defaults: 115200 baud, 2 stop bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSettings {
    pub baud: u32,
    pub stop_bits: StopBits,
}

impl Default for LineSettings {
    fn default() -> Self {
        LineSettings {
            baud: 115_200,
            stop_bits: StopBits::Two,
        }
    }
}

/// The number of stop bits, as `--stop-bits 1|2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StopBits {
    #[value(name = "1")]
    One,
    #[value(name = "2")]
    Two,
}

/// How long one read or write waits before the thread looks again; short enough that a closed
/// port is noticed quickly, long enough not to spin.
const POLL: Duration = Duration::from_millis(50);

/// Opens `path` with `settings`, split into a reader and a writer half.
pub fn open(path: &str, settings: LineSettings) -> anyhow::Result<Connection> {
    let port = serialport::new(path, settings.baud)
        .data_bits(serialport::DataBits::Eight)
        .parity(serialport::Parity::None)
        .stop_bits(match settings.stop_bits {
            StopBits::One => serialport::StopBits::One,
            StopBits::Two => serialport::StopBits::Two,
        })
        .flow_control(serialport::FlowControl::None)
        .timeout(POLL)
        .open_native()
        .with_context(|| format!("{path}: cannot open the serial port"))?;
    let writer = port
        .try_clone_native()
        .with_context(|| format!("{path}: cannot share the serial port"))?;
    Ok(Connection {
        name: path.to_string(),
        reader: Box::new(port),
        writer: Box::new(writer),
        closer: None,
    })
}
