//! The set-up form's values and what they mean: the field, who plays each side, who starts,
//! and each side's turn time limit.

use engine::soccer::field::{Field, FieldError};
use engine::soccer::referee::Starter;
use engine::soccer::search::MAX_LEVEL;
use engine::soccer::{BySide, Side};

use super::players::PlayerKind;

/// The engine level a new engine side gets.
pub const DEFAULT_LEVEL: u8 = 3;
/// The turn time limit machines get unless another is chosen (the contest's referee's).
pub const MACHINE_LIMIT_MS: u32 = engine::soccer::protocol::TURN_MS as u32;

/// Why the size typed in the form gives no field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// Not a whole number that fits a byte (the protocol sends each side as one byte).
    NotAByte { side: &'static str, text: String },
    /// A byte the rules refuse.
    Field(FieldError),
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeError::NotAByte { side, text } => {
                write!(f, "{side} “{text}” is not a whole number from 0 to 255")
            }
            SizeError::Field(err) => write!(f, "{err}"),
        }
    }
}

/// The field typed in the form; the engine decides which sizes exist.
pub fn parse_size(width: &str, length: &str) -> Result<Field, SizeError> {
    let byte = |side: &'static str, text: &str| {
        text.trim().parse::<u8>().map_err(|_| SizeError::NotAByte {
            side,
            text: text.trim().to_owned(),
        })
    };
    Field::new(byte("width", width)?, byte("length", length)?).map_err(SizeError::Field)
}

/// One side's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideSetup {
    /// `human` or `engine` (the select's value).
    pub kind: String,
    pub level: u8,
    /// The turn time limit in milliseconds as typed; empty for none.
    pub limit: String,
}

impl SideSetup {
    pub fn human() -> SideSetup {
        SideSetup {
            kind: "human".into(),
            level: DEFAULT_LEVEL,
            limit: String::new(),
        }
    }

    pub fn engine() -> SideSetup {
        SideSetup {
            kind: "engine".into(),
            level: DEFAULT_LEVEL,
            limit: MACHINE_LIMIT_MS.to_string(),
        }
    }

    /// Chooses another kind; the time limit follows it (machines get the referee's default,
    /// humans none) unless one was typed that differs from the old kind's default.
    pub fn set_kind(&mut self, value: &str) {
        let typed = (self.limit.trim() != self.default_limit()).then(|| self.limit.clone());
        self.kind = match value {
            "engine" | "serial" | "emulated" => value,
            _ => "human",
        }
        .into();
        self.limit = typed.unwrap_or_else(|| self.default_limit());
    }

    fn default_limit(&self) -> String {
        // An emulated board's clock is its simulated time, kept by its own referee.
        match self.kind.as_str() {
            "engine" | "serial" => MACHINE_LIMIT_MS.to_string(),
            _ => String::new(),
        }
    }

    pub fn player(&self) -> PlayerKind {
        match self.kind.as_str() {
            "engine" => PlayerKind::Engine {
                level: self.level.min(MAX_LEVEL),
            },
            "serial" => PlayerKind::Board(crate::serial::BoardKind::Serial),
            "emulated" => PlayerKind::Board(crate::serial::BoardKind::Emulated),
            _ => PlayerKind::Human,
        }
    }

    /// The time limit: `None` when the box is empty, an error for anything but a positive
    /// whole number of milliseconds.
    pub fn limit_ms(&self) -> Result<Option<u32>, String> {
        let text = self.limit.trim();
        if text.is_empty() {
            return Ok(None);
        }
        match text.parse::<u32>() {
            Ok(ms) if ms > 0 => Ok(Some(ms)),
            _ => Err(format!(
                "time limit “{text}” is not a whole number of milliseconds"
            )),
        }
    }
}

/// The size the page opens with (the contest's usual field).
pub const DEFAULT_SIZE: (u8, u8) = (8, 10);

/// The whole set-up form: the field typed, who starts, both sides and the engine's seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub width: String,
    pub length: String,
    pub starter: Starter,
    /// Red's and blue's settings.
    pub sides: BySide<SideSetup>,
    pub seed: String,
}

/// One edit of the set-up form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    Width(String),
    Length(String),
    /// A size preset's button.
    Preset(u8, u8),
    /// The `starter` select's value.
    Starter(String),
    /// A side's `side-…` select value.
    Kind(Side, String),
    /// A side's `level-…` select value.
    Level(Side, String),
    /// A side's time limit as typed.
    Limit(Side, String),
    Seed(String),
}

impl Default for Setup {
    /// A person (red) against the engine (blue) on the contest's field, a random starter.
    fn default() -> Setup {
        Setup {
            width: DEFAULT_SIZE.0.to_string(),
            length: DEFAULT_SIZE.1.to_string(),
            starter: Starter::Random,
            sides: BySide::new(SideSetup::human(), SideSetup::engine()),
            seed: "1".into(),
        }
    }
}

impl Setup {
    /// Applies one edit; returns whether it changed the field's size.
    pub fn apply(&mut self, edit: Edit) -> bool {
        match edit {
            Edit::Width(text) => self.width = text,
            Edit::Length(text) => self.length = text,
            Edit::Preset(w, l) => {
                self.width = w.to_string();
                self.length = l.to_string();
            }
            Edit::Starter(value) => {
                if let Some(choice) = Starter::from_name(&value) {
                    self.starter = choice;
                }
                return false;
            }
            Edit::Kind(side, value) => {
                self.sides[side].set_kind(&value);
                return false;
            }
            Edit::Level(side, value) => {
                if let Ok(level) = value.parse::<u8>() {
                    self.sides[side].level = level.min(MAX_LEVEL);
                }
                return false;
            }
            Edit::Limit(side, text) => {
                self.sides[side].limit = text;
                return false;
            }
            Edit::Seed(text) => {
                self.seed = text;
                return false;
            }
        }
        true
    }

    /// One side's settings.
    pub fn side(&self, side: Side) -> &SideSetup {
        &self.sides[side]
    }

    /// The field typed.
    pub fn field(&self) -> Result<Field, SizeError> {
        parse_size(&self.width, &self.length)
    }

    /// The engine's seed (1 unless a whole number is typed).
    pub fn seed(&self) -> u64 {
        self.seed.trim().parse::<u64>().unwrap_or(1)
    }

    /// Both sides' time limits, or the first side's error.
    pub fn limits(&self) -> Result<BySide<Option<u32>>, String> {
        Ok(BySide::new(
            self.sides.red.limit_ms()?,
            self.sides.blue.limit_ms()?,
        ))
    }

    /// Both sides' players.
    pub fn kinds(&self) -> BySide<PlayerKind> {
        self.sides.as_ref().map(|_, side| side.player())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked_by_the_engine() {
        assert_eq!(
            parse_size("8", "10"),
            Field::new(8, 10).map_err(SizeError::Field)
        );
        assert_eq!(
            parse_size(" 254 ", "2"),
            Field::new(254, 2).map_err(SizeError::Field)
        );
        assert_eq!(
            parse_size("7", "10"),
            Err(SizeError::Field(FieldError::Width(7)))
        );
        let err = parse_size("300", "10").unwrap_err();
        assert_eq!(
            err.to_string(),
            "width “300” is not a whole number from 0 to 255"
        );
        assert!(matches!(
            parse_size("8", ""),
            Err(SizeError::NotAByte { side: "length", .. })
        ));
    }

    #[test]
    fn boards_are_sides_too() {
        let mut side = SideSetup::human();
        side.set_kind("serial");
        assert_eq!(
            side.player(),
            PlayerKind::Board(crate::serial::BoardKind::Serial)
        );
        assert_eq!(
            side.limit_ms(),
            Ok(Some(1000)),
            "a real board gets the referee's clock"
        );
        side.set_kind("emulated");
        assert_eq!(side.player().value(), "emulated");
        assert_eq!(
            side.limit_ms(),
            Ok(None),
            "its own referee keeps simulated time"
        );
    }

    #[test]
    fn edits_change_the_form_and_say_when_the_field_changed() {
        let mut setup = Setup::default();
        assert_eq!(setup.field(), Field::new(8, 10).map_err(SizeError::Field));
        assert!(setup.apply(Edit::Preset(10, 8)));
        assert_eq!(setup.field(), Field::new(10, 8).map_err(SizeError::Field));
        assert!(setup.apply(Edit::Width("7".into())));
        assert!(setup.field().is_err());
        assert!(!setup.apply(Edit::Level(Side::Blue, "99".into())));
        assert_eq!(setup.side(Side::Blue).level, MAX_LEVEL);
        assert!(!setup.apply(Edit::Starter("nobody".into())));
        assert_eq!(setup.starter, Starter::Random);
        assert!(!setup.apply(Edit::Starter("blue".into())));
        assert_eq!(setup.starter, Starter::Fixed(Side::Blue));
        assert_eq!(setup.limits(), Ok(BySide::new(None, Some(1000))));
        setup.apply(Edit::Limit(Side::Red, "x".into()));
        assert!(setup.limits().is_err());
        setup.apply(Edit::Kind(Side::Red, "engine".into()));
        assert_eq!(setup.kinds().red.value(), "engine");
        setup.apply(Edit::Seed("junk".into()));
        assert_eq!(setup.seed(), 1);
        setup.apply(Edit::Seed(" 42 ".into()));
        assert_eq!(setup.seed(), 42);
    }

    #[test]
    fn machines_get_a_clock_humans_do_not() {
        let mut side = SideSetup::human();
        assert_eq!(side.limit_ms(), Ok(None));
        side.set_kind("engine");
        assert_eq!(side.limit_ms(), Ok(Some(1000)));
        assert_eq!(
            side.player(),
            PlayerKind::Engine {
                level: DEFAULT_LEVEL
            }
        );
        side.set_kind("human");
        assert_eq!(side.limit_ms(), Ok(None));
        // A limit the user chose survives a change of kind.
        side.limit = "5000".into();
        side.set_kind("engine");
        assert_eq!(side.limit_ms(), Ok(Some(5000)));
        side.limit = "soon".into();
        assert!(side.limit_ms().is_err());
    }
}
