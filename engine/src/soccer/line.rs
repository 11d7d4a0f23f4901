//! The serial line between the referee and a board (spec §4): its settings, one type for every
//! shell.
//!
//! The spec fixes the contest referee's line (115200 baud, 8 data bits, no parity, 2 stop bits,
//! no flow control) and says each of them is a setting. The CLI opens ports through the
//! operating system, which offers everything below; the browser's Web Serial API has no 5 or 6
//! data bits and no XON/XOFF, so the app refuses those ([`LineSettings::web_serial_gap`]) rather
//! than keep a second, narrower copy of these types.

use std::fmt;
use std::str::FromStr;

use super::protocol::BAUD;

/// Bits per character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DataBits {
    Five,
    Six,
    Seven,
    #[default]
    Eight,
}

/// The parity bit after the data bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Parity {
    #[default]
    None,
    Even,
    Odd,
}

/// Stop bits after each character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StopBits {
    One,
    #[default]
    Two,
}

/// Flow control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FlowControl {
    #[default]
    None,
    /// XON/XOFF.
    Software,
    /// RTS/CTS.
    Hardware,
}

/// Everything a serial port needs besides its name. [`Default`] is the contest referee's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineSettings {
    pub baud: u32,
    pub data_bits: DataBits,
    pub parity: Parity,
    pub stop_bits: StopBits,
    pub flow_control: FlowControl,
}

impl Default for LineSettings {
    /// 115200 baud, 8N2, no flow control (spec §4).
    fn default() -> Self {
        LineSettings {
            baud: BAUD,
            data_bits: DataBits::default(),
            parity: Parity::default(),
            stop_bits: StopBits::default(),
            flow_control: FlowControl::default(),
        }
    }
}

/// The fastest rate accepted: beyond what any USB-to-RS-232 adapter of a DE2-115 runs at.
pub const MAX_BAUD: u32 = 4_000_000;

/// A setting, as typed on a command line or chosen in a form, that a serial line cannot have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("baud rate “{0}” is not a whole number from 1 to {MAX_BAUD}")]
    Baud(String),
    #[error("“{value}” is not a choice for {setting} (choose one of {choices})")]
    Choice {
        setting: &'static str,
        value: String,
        choices: String,
    },
}

/// The names a setting is written with, and the values they stand for, in one list so that
/// parsing and printing cannot disagree.
trait Named: Copy + PartialEq + 'static {
    const SETTING: &'static str;
    const ALL: &'static [(Self, &'static str)];

    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(value, _)| *value == self)
            .map_or("?", |(_, name)| name)
    }

    fn parse_name(text: &str) -> Result<Self, LineError> {
        let text = text.trim();
        Self::ALL
            .iter()
            .find(|(_, name)| name.eq_ignore_ascii_case(text))
            .map(|(value, _)| *value)
            .ok_or_else(|| LineError::Choice {
                setting: Self::SETTING,
                value: text.to_owned(),
                choices: Self::ALL
                    .iter()
                    .map(|(_, name)| *name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// Implements the public face of [`Named`] for one setting: `NAMES`, `name`, `FromStr`.
macro_rules! named_setting {
    ($type:ty, $setting:literal, [$(($value:expr, $name:literal)),+ $(,)?]) => {
        impl Named for $type {
            const SETTING: &'static str = $setting;
            const ALL: &'static [(Self, &'static str)] = &[$(($value, $name)),+];
        }

        impl $type {
            /// Every value's name, as the CLI's flags and the app's forms write it.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The value's name (`SerialOptions` takes these for parity and flow control).
            pub fn name(self) -> &'static str {
                Named::name(self)
            }
        }

        impl FromStr for $type {
            type Err = LineError;

            fn from_str(text: &str) -> Result<Self, LineError> {
                Self::parse_name(text)
            }
        }
    };
}

named_setting!(
    DataBits,
    "data bits",
    [
        (DataBits::Five, "5"),
        (DataBits::Six, "6"),
        (DataBits::Seven, "7"),
        (DataBits::Eight, "8"),
    ]
);
named_setting!(
    Parity,
    "parity",
    [
        (Parity::None, "none"),
        (Parity::Even, "even"),
        (Parity::Odd, "odd"),
    ]
);
named_setting!(
    StopBits,
    "stop bits",
    [(StopBits::One, "1"), (StopBits::Two, "2")]
);
named_setting!(
    FlowControl,
    "flow control",
    [
        (FlowControl::None, "none"),
        (FlowControl::Software, "software"),
        (FlowControl::Hardware, "hardware"),
    ]
);

impl DataBits {
    pub fn count(self) -> u8 {
        match self {
            DataBits::Five => 5,
            DataBits::Six => 6,
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

impl LineSettings {
    /// Parses a baud rate as typed: a whole number from 1 to [`MAX_BAUD`].
    pub fn parse_baud(text: &str) -> Result<u32, LineError> {
        match text.trim().parse::<u32>() {
            Ok(baud) if (1..=MAX_BAUD).contains(&baud) => Ok(baud),
            _ => Err(LineError::Baud(text.trim().to_owned())),
        }
    }

    /// Bits one character occupies on the line: start, data, parity and stop bits.
    pub fn bits_per_character(&self) -> u8 {
        1 + self.data_bits.count() + u8::from(self.parity != Parity::None) + self.stop_bits.count()
    }

    /// The first setting the Web Serial API cannot open (it knows 7 and 8 data bits and
    /// RTS/CTS flow control only), as the error a form shows; `None` when it can.
    pub fn web_serial_gap(&self) -> Option<LineError> {
        let refuse = |setting, value: &str, choices: &str| {
            Some(LineError::Choice {
                setting,
                value: value.to_owned(),
                choices: choices.to_owned(),
            })
        };
        if matches!(self.data_bits, DataBits::Five | DataBits::Six) {
            return refuse(DataBits::SETTING, self.data_bits.name(), "7, 8");
        }
        if self.flow_control == FlowControl::Software {
            return refuse(
                FlowControl::SETTING,
                self.flow_control.name(),
                "none, hardware",
            );
        }
        None
    }
}

impl fmt::Display for LineSettings {
    /// The usual short form, e.g. `115200 8N2`, then the flow control if any.
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
        match self.flow_control {
            FlowControl::None => Ok(()),
            FlowControl::Software => f.write_str(" XON/XOFF"),
            FlowControl::Hardware => f.write_str(" RTS/CTS"),
        }
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
        assert_eq!(line.web_serial_gap(), None);
    }

    #[test]
    fn every_name_parses_back_to_its_value() {
        fn round_trip<T: Named + FromStr<Err = LineError> + fmt::Debug>() {
            for &(value, name) in T::ALL {
                assert_eq!(name.parse::<T>(), Ok(value));
                assert_eq!(value.name(), name);
                assert_eq!(format!(" {} ", name.to_uppercase()).parse::<T>(), Ok(value));
            }
        }
        round_trip::<DataBits>();
        round_trip::<Parity>();
        round_trip::<StopBits>();
        round_trip::<FlowControl>();
        assert_eq!(DataBits::NAMES, ["5", "6", "7", "8"]);
        assert_eq!(FlowControl::NAMES, ["none", "software", "hardware"]);
    }

    #[test]
    fn impossible_values_name_the_setting_and_the_choices() {
        let error = "mark".parse::<Parity>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "“mark” is not a choice for parity (choose one of none, even, odd)"
        );
        assert!("1.5".parse::<StopBits>().is_err());
        assert!("9".parse::<DataBits>().is_err());
        assert_eq!(LineSettings::parse_baud(" 9600 "), Ok(9600));
        assert_eq!(
            LineSettings::parse_baud("0"),
            Err(LineError::Baud("0".into()))
        );
        assert!(LineSettings::parse_baud("4000001").is_err());
        assert!(LineSettings::parse_baud("fast").is_err());
    }

    #[test]
    fn the_short_form_and_the_character_length_follow_every_setting() {
        let line = LineSettings {
            baud: 9600,
            data_bits: DataBits::Seven,
            parity: Parity::Even,
            stop_bits: StopBits::One,
            flow_control: FlowControl::Hardware,
        };
        assert_eq!(line.to_string(), "9600 7E1 RTS/CTS");
        assert_eq!(line.bits_per_character(), 10);
        let line = LineSettings {
            data_bits: DataBits::Five,
            parity: Parity::Odd,
            flow_control: FlowControl::Software,
            ..LineSettings::default()
        };
        assert_eq!(line.to_string(), "115200 5O2 XON/XOFF");
        assert_eq!(line.bits_per_character(), 9);
    }

    #[test]
    fn web_serial_refuses_what_it_cannot_open() {
        let five = LineSettings {
            data_bits: DataBits::Five,
            ..LineSettings::default()
        };
        assert!(
            five.web_serial_gap()
                .is_some_and(|e| e.to_string().contains("data bits"))
        );
        let xon = LineSettings {
            flow_control: FlowControl::Software,
            ..LineSettings::default()
        };
        assert!(
            xon.web_serial_gap()
                .is_some_and(|e| e.to_string().contains("flow control"))
        );
        let rts = LineSettings {
            data_bits: DataBits::Seven,
            flow_control: FlowControl::Hardware,
            ..LineSettings::default()
        };
        assert_eq!(rts.web_serial_gap(), None);
    }
}
