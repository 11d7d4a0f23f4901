//! A serial line's settings as the set-up forms show and change them.
//!
//! The settings themselves are the engine's ([`engine::soccer::line`]), shared with the CLI;
//! this module only adds what the forms need: the rates they offer and how a control's value
//! changes a setting, refusing what the Web Serial API cannot open.

pub use engine::soccer::line::{LineError, LineSettings};

/// The baud rates offered in the forms (any positive rate is accepted when typed).
pub const BAUD_RATES: [u32; 8] = [
    9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600,
];

/// Changes a [`LineSettings`] from a form control.
pub trait FormSettings {
    /// Sets one setting from a control's `name` and `value` (`baud`, `data-bits`, `parity`,
    /// `stop-bits`, `flow`); on an error nothing changes.
    fn set(&mut self, setting: &str, value: &str) -> Result<(), LineError>;
}

impl FormSettings for LineSettings {
    fn set(&mut self, setting: &str, value: &str) -> Result<(), LineError> {
        let mut line = *self;
        match setting {
            "baud" => line.baud = LineSettings::parse_baud(value)?,
            "data-bits" => line.data_bits = value.parse()?,
            "parity" => line.parity = value.parse()?,
            "stop-bits" => line.stop_bits = value.parse()?,
            "flow" => line.flow_control = value.parse()?,
            _ => {
                return Err(LineError::Choice {
                    setting: "a line setting",
                    value: setting.to_owned(),
                    choices: "baud, data-bits, parity, stop-bits, flow".to_owned(),
                });
            }
        }
        if let Some(gap) = line.web_serial_gap() {
            return Err(gap);
        }
        *self = line;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_values_set_each_setting() {
        let mut line = LineSettings::default();
        line.set("baud", " 9600 ").unwrap();
        line.set("data-bits", "7").unwrap();
        line.set("parity", "even").unwrap();
        line.set("stop-bits", "1").unwrap();
        line.set("flow", "hardware").unwrap();
        assert_eq!(line.to_string(), "9600 7E1 RTS/CTS");
    }

    #[test]
    fn impossible_values_are_refused_and_change_nothing() {
        let mut line = LineSettings::default();
        assert_eq!(line.set("baud", "0"), Err(LineError::Baud("0".into())));
        assert!(line.set("baud", "fast").is_err());
        assert!(line.set("parity", "mark").is_err());
        assert!(line.set("stop-bits", "1.5").is_err());
        assert!(line.set("colour", "red").is_err());
        // Settings a serial port has but the Web Serial API cannot open.
        assert!(line.set("data-bits", "5").is_err());
        assert!(line.set("flow", "software").is_err());
        assert_eq!(line, LineSettings::default());
    }
}
