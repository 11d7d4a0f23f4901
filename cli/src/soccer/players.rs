//! The kinds of Paper Soccer player the referee can connect to, as written on the command line.
//!
//! To add a kind: a variant here, its syntax in [`PlayerSpec::from_str`], and an arm in
//! [`PlayerSpec::connect`] that returns a [`Connection`] — any reader/writer pair will do. A
//! player living in this process (an engine, a simulated board) uses
//! [`transport::in_process`]: it gets the two pipe ends and serves the protocol on them from its
//! own thread, exactly as a board would on its UART.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use anyhow::Context;

use crate::transport::{self, Connection, exec, serial, sim, wasm};

use engine::soccer::search::Engine;

use super::play;

/// One player of `--red` / `--blue`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A serial device path, e.g. `/dev/ttyUSB0` (anything that is not one of the forms below).
    Serial(String),
    /// `engine` or `engine:LEVEL`: the built-in engine, in this process (levels 0-5 search
    /// a fixed number of nodes; 6 thinks 650 ms a turn: see [`Engine::at_level`]).
    Engine { level: u8 },
    /// `engine:MSms`, e.g. `engine:400ms`: the built-in engine thinking that long a turn.
    TimedEngine { millis: u32 },
    /// `exec:COMMAND`: a child process (`sh -c COMMAND`) on its standard input and output.
    Exec(String),
    /// `wasm:PATH.wasm`: a WASI preview-1 command run sandboxed in this process (see
    /// [`transport::wasm`]), speaking the protocol on its standard input and output.
    Wasm(PathBuf),
    /// `sim[:NETLIST.json][@SW]`: a board emulated in this process (see
    /// [`transport::sim`]) — the reference player built into the binary, or a yosys JSON
    /// netlist with the DE2-115's pin names — with slide switches `SW` (decimal or `0x` hex;
    /// default 0; for the reference player `SW[3:0]` is the strength, `SW[4]` the one-ply mode).
    Sim {
        netlist: Option<PathBuf>,
        switches: u64,
    },
}

/// The memory limit of `wasm:` bots when none is given: sandbox's default, 64 MiB.
pub const DEFAULT_BOT_MEMORY_MB: u64 = sandbox::bot::DEFAULT_BOT_MEMORY >> 20;

/// The largest memory limit a bot can be given: a 32-bit WebAssembly memory's 4 GiB.
pub const MAX_BOT_MEMORY_MB: u64 = 4096;

/// What starting a player takes besides its spec and seed: the serial line of boards and the
/// linear-memory limit of `wasm:` bots (other players ignore what is not theirs).
#[derive(Clone, Copy, Debug)]
pub struct Launch {
    pub line: serial::LineSettings,
    /// A `wasm:` bot's linear memory at most, in MiB (`--bot-memory-mb`).
    pub bot_memory_mb: u64,
}

/// A `--red`/`--blue` value that names no player.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("`{0}`: the engine level is a number 0-255")]
    Level(String),
    #[error("`{0}`: the engine's time is `engine:MSms`, MS a number of milliseconds")]
    Millis(String),
    #[error("`exec:` needs a command")]
    EmptyCommand,
    #[error("`wasm:` needs the path of a .wasm module")]
    EmptyModule,
    #[error("an empty player")]
    Empty,
    #[error("`{0}`: the switches after `@` are a number (decimal or 0x hex)")]
    Switches(String),
    #[error("`sim:` needs a netlist path (or use plain `sim` for the reference player)")]
    EmptyNetlist,
}

/// `SW` of `sim…@SW`: decimal or `0x` hexadecimal.
fn parse_switches(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        if s == "engine" {
            return Ok(PlayerSpec::Engine {
                level: play::DEFAULT_LEVEL,
            });
        }
        if let Some(ms) = s.strip_prefix("engine:").and_then(|r| r.strip_suffix("ms")) {
            let millis = ms.parse().map_err(|_| SpecError::Millis(s.into()))?;
            return Ok(PlayerSpec::TimedEngine { millis });
        }
        if let Some(level) = s.strip_prefix("engine:") {
            let level = level.parse().map_err(|_| SpecError::Level(s.into()))?;
            return Ok(PlayerSpec::Engine { level });
        }
        if let Some(command) = s.strip_prefix("exec:") {
            if command.trim().is_empty() {
                return Err(SpecError::EmptyCommand);
            }
            return Ok(PlayerSpec::Exec(command.into()));
        }
        if let Some(path) = s.strip_prefix("wasm:") {
            if path.is_empty() {
                return Err(SpecError::EmptyModule);
            }
            return Ok(PlayerSpec::Wasm(PathBuf::from(path)));
        }
        if s == "sim" || s.starts_with("sim:") || s.starts_with("sim@") {
            let (rest, switches) = match s.rsplit_once('@') {
                Some((rest, sw)) => (
                    rest,
                    parse_switches(sw).ok_or_else(|| SpecError::Switches(s.into()))?,
                ),
                None => (s, 0),
            };
            let netlist = match rest.strip_prefix("sim:") {
                Some("") => return Err(SpecError::EmptyNetlist),
                Some(path) => Some(PathBuf::from(path)),
                None => None,
            };
            return Ok(PlayerSpec::Sim { netlist, switches });
        }
        if s.is_empty() {
            return Err(SpecError::Empty);
        }
        Ok(PlayerSpec::Serial(s.into()))
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Serial(path) => f.write_str(path),
            PlayerSpec::Engine { level } => write!(f, "engine:{level}"),
            PlayerSpec::TimedEngine { millis } => write!(f, "engine:{millis}ms"),
            PlayerSpec::Exec(command) => write!(f, "exec:{command}"),
            PlayerSpec::Wasm(path) => write!(f, "wasm:{}", path.display()),
            PlayerSpec::Sim { netlist, switches } => {
                f.write_str("sim")?;
                if let Some(path) = netlist {
                    write!(f, ":{}", path.display())?;
                }
                if *switches != 0 {
                    write!(f, "@{switches}")?;
                }
                Ok(())
            }
        }
    }
}

impl PlayerSpec {
    /// The serial port this player sits behind, if it is a board: a board plays one game at a
    /// time, so a league never gives it two at once.
    pub fn serial_port(&self) -> Option<&str> {
        match self {
            PlayerSpec::Serial(path) => Some(path),
            _ => None,
        }
    }

    /// The engine in this process, on pipes.
    fn serve_engine(&self, engine: Engine) -> anyhow::Result<Connection> {
        let name = self.to_string();
        let label = name.clone();
        Ok(transport::in_process(name, move |input, output| {
            // The engine only stops when the referee closes its pipe; a failure to write
            // means the referee is gone too.
            let _ = play::serve(input, output, engine, |note| eprintln!("{label}: {note}"));
        })?)
    }

    /// Opens the wire to this player. `seed` feeds a player's own randomness (the engine's, a
    /// bot's `random_get`).
    pub fn connect(&self, launch: Launch, seed: u64) -> anyhow::Result<Connection> {
        let line = launch.line;
        match self {
            PlayerSpec::Serial(path) => serial::open(path, line),
            PlayerSpec::Exec(command) => exec::spawn(command),
            PlayerSpec::Wasm(path) => wasm::spawn(path, seed, launch.bot_memory_mb << 20),
            PlayerSpec::Sim { netlist, switches } => {
                let text = match netlist {
                    Some(path) => std::fs::read_to_string(path)
                        .with_context(|| format!("reading the netlist {}", path.display()))?,
                    None => hdl_sim::reference::NETLIST.to_string(),
                };
                let board = sim::board(&text, *switches, line)
                    .with_context(|| format!("{self}: the netlist is not a board"))?;
                Ok(sim::serve(self.to_string(), board)?)
            }
            PlayerSpec::Engine { level } => self.serve_engine(Engine::at_level(*level, seed)),
            PlayerSpec::TimedEngine { millis } => self.serve_engine(Engine::timed(*millis, seed)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(
            "engine:3".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Engine { level: 3 }
        );
        assert_eq!(
            "engine:400ms".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::TimedEngine { millis: 400 }
        );
        assert_eq!(
            PlayerSpec::TimedEngine { millis: 400 }.to_string(),
            "engine:400ms"
        );
        assert!("engine:xms".parse::<PlayerSpec>().is_err());
        assert_eq!(
            "engine".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Engine {
                level: play::DEFAULT_LEVEL
            }
        );
        assert_eq!(
            "exec:python3 bot.py".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Exec("python3 bot.py".into())
        );
        assert_eq!(
            "/dev/ttyUSB0".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Serial("/dev/ttyUSB0".into())
        );
        assert_eq!(
            "sim".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Sim {
                netlist: None,
                switches: 0
            }
        );
        assert_eq!(
            "sim@0x13".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Sim {
                netlist: None,
                switches: 0x13
            }
        );
        assert_eq!(
            "sim:my board.json@3".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Sim {
                netlist: Some("my board.json".into()),
                switches: 3
            }
        );
        for spec in ["sim", "sim@3", "sim:a.json", "sim:a.json@17"] {
            assert_eq!(
                spec.parse::<PlayerSpec>().unwrap().to_string(),
                spec,
                "round trip"
            );
        }
        assert!("sim:".parse::<PlayerSpec>().is_err());
        assert!("sim@x".parse::<PlayerSpec>().is_err());
        assert!("engine:x".parse::<PlayerSpec>().is_err());
        assert!("exec:".parse::<PlayerSpec>().is_err());
        assert_eq!(
            "wasm:bots/random.wasm".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Wasm("bots/random.wasm".into())
        );
        assert_eq!(
            "wasm:a b.wasm".parse::<PlayerSpec>().unwrap().to_string(),
            "wasm:a b.wasm"
        );
        assert!("wasm:".parse::<PlayerSpec>().is_err());
    }
}
