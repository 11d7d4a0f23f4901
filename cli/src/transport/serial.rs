//! Serial ports (a DE2-115 behind a USB-to-RS232 adapter, or a pseudo-terminal in tests).

use std::time::Duration;

use anyhow::Context;

use super::Connection;

/// Line settings. Spec §4 gives the contest's referee defaults (115200 baud, 8 data bits, no
/// parity, 2 stop bits, no flow control) and says all of them are settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSettings {
    pub baud: u32,
    pub data_bits: DataBits,
    pub parity: Parity,
    pub stop_bits: StopBits,
    pub flow_control: FlowControl,
}

impl Default for LineSettings {
    fn default() -> Self {
        LineSettings {
            baud: engine::soccer::protocol::BAUD,
            data_bits: DataBits::Eight,
            parity: Parity::None,
            stop_bits: StopBits::Two,
            flow_control: FlowControl::None,
        }
    }
}

/// The bits of one character, as `--data-bits 5|6|7|8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DataBits {
    #[value(name = "5")]
    Five,
    #[value(name = "6")]
    Six,
    #[value(name = "7")]
    Seven,
    #[value(name = "8")]
    Eight,
}

/// The parity bit, as `--parity none|odd|even`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Parity {
    None,
    Odd,
    Even,
}

/// Flow control, as `--flow-control none|software|hardware` (XON/XOFF or RTS/CTS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FlowControl {
    None,
    Software,
    Hardware,
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
        .data_bits(match settings.data_bits {
            DataBits::Five => serialport::DataBits::Five,
            DataBits::Six => serialport::DataBits::Six,
            DataBits::Seven => serialport::DataBits::Seven,
            DataBits::Eight => serialport::DataBits::Eight,
        })
        .parity(match settings.parity {
            Parity::None => serialport::Parity::None,
            Parity::Odd => serialport::Parity::Odd,
            Parity::Even => serialport::Parity::Even,
        })
        .stop_bits(match settings.stop_bits {
            StopBits::One => serialport::StopBits::One,
            StopBits::Two => serialport::StopBits::Two,
        })
        .flow_control(match settings.flow_control {
            FlowControl::None => serialport::FlowControl::None,
            FlowControl::Software => serialport::FlowControl::Software,
            FlowControl::Hardware => serialport::FlowControl::Hardware,
        })
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
