//! A serial line's settings, as the set-up forms show them and as `SerialPort.open()` takes them.
//!
//! Defaults are the contest referee's (spec §4): 115200 baud, 8 data bits, no parity, 2 stop
//! bits, no flow control.

use std::fmt;

/// Bits per character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DataBits {
    Seven,
    #[default]
    Eight,
}

/// The parity bit after the data bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parity {
    #[default]
    None,
    Even,
    Odd,
}

/// Stop bits after each character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StopBits {
    One,
    #[default]
    Two,
}

/// Flow control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FlowControl {
    #[default]
    None,
    /// RTS/CTS.
    Hardware,
}

/// Everything `SerialPort.open()` needs besides the port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSettings {
    pub baud: u32,
    pub data_bits: DataBits,
    pub parity: Parity,
    pub stop_bits: StopBits,
    pub flow: FlowControl,
}

impl Default for LineSettings {
    /// The contest referee's line: 115200 baud, 8N2, no flow control.
    fn default() -> Self {
        LineSettings {
            baud: engine::soccer::protocol::BAUD,
            data_bits: DataBits::default(),
            parity: Parity::default(),
            stop_bits: StopBits::default(),
            flow: FlowControl::default(),
        }
    }
}

/// The baud rates offered in the forms (any positive rate is accepted when typed).
pub const BAUD_RATES: [u32; 8] = [
    9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600,
];

/// A setting typed or chosen in a form that a serial line cannot have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("baud rate “{0}” is not a whole number from 1 to 4000000")]
    Baud(String),
    #[error("“{value}” is not a choice for {setting}")]
    Choice {
        setting: &'static str,
        value: String,
    },
}

impl DataBits {
    pub fn count(self) -> u8 {
        match self {
            DataBits::Seven => 7,
            DataBits::Eight => 8,
        }
    }
}

impl StopBits {
    pub fn count(self) -> u8 {
        match self {
            StopBits::One => 1,
            StopBits::Two => 2,
        }
    }
}

impl Parity {
    /// The name `SerialOptions.parity` takes.
    pub fn name(self) -> &'static str {
        match self {
            Parity::None => "none",
            Parity::Even => "even",
            Parity::Odd => "odd",
        }
    }
}

impl FlowControl {
    /// The name `SerialOptions.flowControl` takes.
    pub fn name(self) -> &'static str {
        match self {
            FlowControl::None => "none",
            FlowControl::Hardware => "hardware",
        }
    }
}

impl LineSettings {
    /// Parses a baud rate as typed (the Web Serial API refuses 0 and absurd rates).
    pub fn parse_baud(text: &str) -> Result<u32, SettingError> {
        match text.trim().parse::<u32>() {
            Ok(baud) if (1..=4_000_000).contains(&baud) => Ok(baud),
            _ => Err(SettingError::Baud(text.trim().to_owned())),
        }
    }

    /// Sets one setting from a form control's `name` and `value` (`baud`, `data-bits`,
    /// `parity`, `stop-bits`, `flow`).
    pub fn set(&mut self, setting: &'static str, value: &str) -> Result<(), SettingError> {
        let bad = || SettingError::Choice {
            setting,
            value: value.to_owned(),
        };
        match setting {
            "baud" => self.baud = LineSettings::parse_baud(value)?,
            "data-bits" => {
                self.data_bits = match value {
                    "7" => DataBits::Seven,
                    "8" => DataBits::Eight,
                    _ => return Err(bad()),
                }
            }
            "parity" => {
                self.parity = match value {
                    "none" => Parity::None,
                    "even" => Parity::Even,
                    "odd" => Parity::Odd,
                    _ => return Err(bad()),
                }
            }
            "stop-bits" => {
                self.stop_bits = match value {
                    "1" => StopBits::One,
                    "2" => StopBits::Two,
                    _ => return Err(bad()),
                }
            }
            "flow" => {
                self.flow = match value {
                    "none" => FlowControl::None,
                    "hardware" => FlowControl::Hardware,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(bad()),
        }
        Ok(())
    }

    /// Bits one character occupies on the line: start, data, parity and stop bits.
    pub fn bits_per_character(&self) -> u8 {
        1 + self.data_bits.count() + u8::from(self.parity != Parity::None) + self.stop_bits.count()
    }
}

impl fmt::Display for LineSettings {
    /// The usual short form, e.g. `115200 8N2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parity = match self.parity {
            Parity::None => 'N',
            Parity::Even => 'E',
            Parity::Odd => 'O',
        };
        write!(
            f,
            "{} {}{}{}",
            self.baud,
            self.data_bits.count(),
            parity,
            self.stop_bits.count()
        )?;
        if self.flow == FlowControl::Hardware {
            f.write_str(" RTS/CTS")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_contest_referees() {
        let line = LineSettings::default();
        assert_eq!(line.to_string(), "115200 8N2");
        assert_eq!(line.bits_per_character(), 11);
    }

    #[test]
    fn form_values_set_each_setting() {
        let mut line = LineSettings::default();
        line.set("baud", " 9600 ").unwrap();
        line.set("data-bits", "7").unwrap();
        line.set("parity", "even").unwrap();
        line.set("stop-bits", "1").unwrap();
        line.set("flow", "hardware").unwrap();
        assert_eq!(line.to_string(), "9600 7E1 RTS/CTS");
        assert_eq!(line.bits_per_character(), 10);
    }

    #[test]
    fn impossible_values_are_refused_and_change_nothing() {
        let mut line = LineSettings::default();
        assert_eq!(line.set("baud", "0"), Err(SettingError::Baud("0".into())));
        assert!(line.set("baud", "fast").is_err());
        assert!(line.set("parity", "mark").is_err());
        assert!(line.set("stop-bits", "1.5").is_err());
        assert!(line.set("colour", "red").is_err());
        assert_eq!(line, LineSettings::default());
    }
}
