//! Command-line parsing for the xtask binary (a handful of flags: no parser crate needed).

use std::fmt;

use crate::fuzz::{self, FuzzOptions};
use crate::test::StageName;

/// The help text, also printed after a usage error.
pub const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  serve [--port <N>] [--release]
        install what the build needs, build the app and serve it on http://127.0.0.1:<N>
        (default 8080), rebuilding on changes
  test [--only <stage>[,<stage>...]]
        install what the tests need, then run every stage, stopping at the first failure:
        fmt, clippy, doc (rustdoc, warnings denied), test (native), fuzz (25 s of libFuzzer
        per reader), wasm (headless Chromium), build (release trunk build), e2e (Playwright
        against that build)
  fuzz [--seconds <N>] [<target>...]
        fuzz the readers with libFuzzer (cargo-fuzz), <N> seconds per target (default 300);
        targets: cir, f1, bmp, record, protocol, netlist (default: all). Failing inputs are
        kept in fuzz/regressions/<target>/
  fuzz --plant [--seconds <N>]
        check that the fuzzer finds a panic planted in the .F1 reader within <N> seconds
  setup
        only install what `serve` and `test` need
  pilots
        build the example pilot programs (pilots/) for WASI into target/pilots/wasm
        (the `test` stage does it before the native tests)
  help
        print this text";

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Help,
    Setup,
    Pilots,
    Serve(ServeOptions),
    Test(TestOptions),
    Fuzz(FuzzOptions),
}

/// Options of `cargo xtask serve`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeOptions {
    pub port: u16,
    pub release: bool,
}

/// Options of `cargo xtask test`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TestOptions {
    /// Run only these stages (in the usual order); `None` runs them all.
    pub only: Option<Vec<StageName>>,
}

/// A command line that cannot be understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsageError {
    MissingCommand,
    UnknownCommand(String),
    UnknownOption {
        command: &'static str,
        option: String,
    },
    MissingValue(&'static str),
    BadPort(String),
    UnknownStage(String),
    BadSeconds(String),
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingCommand => write!(f, "no command given"),
            Self::UnknownCommand(c) => write!(f, "unknown command `{c}`"),
            Self::UnknownOption { command, option } => {
                write!(f, "unknown option `{option}` for `{command}`")
            }
            Self::MissingValue(option) => write!(f, "`{option}` needs a value"),
            Self::BadPort(p) => write!(f, "`{p}` is not a port number (1-65535)"),
            Self::BadSeconds(s) => write!(f, "`{s}` is not a number of seconds (at least 1)"),
            Self::UnknownStage(s) => write!(
                f,
                "unknown stage `{s}` (stages: {})",
                StageName::ALL.map(|s| s.as_str()).join(", ")
            ),
        }
    }
}

impl std::error::Error for UsageError {}

/// Parses the arguments that follow `cargo xtask`.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, UsageError> {
    let mut args = args.into_iter();
    let command = args.next().ok_or(UsageError::MissingCommand)?;
    match command.as_str() {
        "help" | "--help" | "-h" => Ok(Command::Help),
        "setup" => match args.next() {
            None => Ok(Command::Setup),
            Some(option) => Err(UsageError::UnknownOption {
                command: "setup",
                option,
            }),
        },
        "pilots" => match args.next() {
            None => Ok(Command::Pilots),
            Some(option) => Err(UsageError::UnknownOption {
                command: "pilots",
                option,
            }),
        },
        "serve" => parse_serve(args).map(Command::Serve),
        "test" => parse_test(args).map(Command::Test),
        "fuzz" => parse_fuzz(args).map(Command::Fuzz),
        _ => Err(UsageError::UnknownCommand(command)),
    }
}

fn parse_serve(mut args: impl Iterator<Item = String>) -> Result<ServeOptions, UsageError> {
    let mut options = ServeOptions {
        port: 8080,
        release: false,
    };
    while let Some(arg) = args.next() {
        let (name, inline) = split_inline(&arg);
        match name {
            "--port" | "-p" => {
                let value = inline
                    .or_else(|| args.next())
                    .ok_or(UsageError::MissingValue("--port"))?;
                options.port = match value.parse::<u16>() {
                    Ok(port) if port != 0 => port,
                    _ => return Err(UsageError::BadPort(value)),
                };
            }
            "--release" if inline.is_none() => options.release = true,
            _ => {
                return Err(UsageError::UnknownOption {
                    command: "serve",
                    option: arg,
                });
            }
        }
    }
    Ok(options)
}

fn parse_test(mut args: impl Iterator<Item = String>) -> Result<TestOptions, UsageError> {
    let mut options = TestOptions::default();
    while let Some(arg) = args.next() {
        let (name, inline) = split_inline(&arg);
        match name {
            "--only" => {
                let value = inline
                    .or_else(|| args.next())
                    .ok_or(UsageError::MissingValue("--only"))?;
                let stages = value
                    .split(',')
                    .map(|s| {
                        StageName::parse(s.trim())
                            .ok_or_else(|| UsageError::UnknownStage(s.to_owned()))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                options.only = Some(stages);
            }
            _ => {
                return Err(UsageError::UnknownOption {
                    command: "test",
                    option: arg,
                });
            }
        }
    }
    Ok(options)
}

fn parse_fuzz(mut args: impl Iterator<Item = String>) -> Result<FuzzOptions, UsageError> {
    let mut options = FuzzOptions::default();
    while let Some(arg) = args.next() {
        let (name, inline) = split_inline(&arg);
        match name {
            "--seconds" => {
                let value = inline
                    .or_else(|| args.next())
                    .ok_or(UsageError::MissingValue("--seconds"))?;
                options.seconds = match value.parse::<u64>() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(UsageError::BadSeconds(value)),
                };
            }
            "--plant" if inline.is_none() => options.plant = true,
            _ if !arg.starts_with('-') && fuzz::target(&arg).is_some() => options.targets.push(arg),
            _ => {
                return Err(UsageError::UnknownOption {
                    command: "fuzz",
                    option: arg,
                });
            }
        }
    }
    Ok(options)
}

/// Splits `--name=value` into its name and value.
fn split_inline(arg: &str) -> (&str, Option<String>) {
    match arg.split_once('=') {
        Some((name, value)) if name.starts_with("--") => (name, Some(value.to_owned())),
        _ => (arg, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Command, UsageError> {
        parse(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn serve_defaults_to_port_8080() {
        assert_eq!(
            parse_str("serve"),
            Ok(Command::Serve(ServeOptions {
                port: 8080,
                release: false
            }))
        );
    }

    #[test]
    fn serve_port_in_both_spellings() {
        let expected = Ok(Command::Serve(ServeOptions {
            port: 9000,
            release: true,
        }));
        assert_eq!(parse_str("serve --port 9000 --release"), expected);
        assert_eq!(parse_str("serve --release --port=9000"), expected);
    }

    #[test]
    fn bad_ports_are_refused() {
        assert_eq!(
            parse_str("serve --port 0"),
            Err(UsageError::BadPort("0".into()))
        );
        assert_eq!(
            parse_str("serve --port 70000"),
            Err(UsageError::BadPort("70000".into()))
        );
        assert_eq!(
            parse_str("serve --port"),
            Err(UsageError::MissingValue("--port"))
        );
    }

    #[test]
    fn test_only_takes_a_list_of_stages() {
        assert_eq!(
            parse_str("test --only fmt,e2e"),
            Ok(Command::Test(TestOptions {
                only: Some(vec![StageName::Fmt, StageName::E2e])
            }))
        );
        assert_eq!(
            parse_str("test --only lint"),
            Err(UsageError::UnknownStage("lint".into()))
        );
    }

    #[test]
    fn pilots_takes_no_option() {
        assert_eq!(parse_str("pilots"), Ok(Command::Pilots));
        assert_eq!(
            parse_str("pilots --release"),
            Err(UsageError::UnknownOption {
                command: "pilots",
                option: "--release".into()
            })
        );
    }

    #[test]
    fn fuzz_takes_seconds_targets_and_plant() {
        assert_eq!(parse_str("fuzz"), Ok(Command::Fuzz(FuzzOptions::default())));
        assert_eq!(
            parse_str("fuzz --seconds 3600 bmp cir"),
            Ok(Command::Fuzz(FuzzOptions {
                seconds: 3600,
                targets: vec!["bmp".into(), "cir".into()],
                plant: false,
                seed: None,
            }))
        );
        assert_eq!(
            parse_str("fuzz --plant --seconds=25"),
            Ok(Command::Fuzz(FuzzOptions {
                seconds: 25,
                targets: vec![],
                plant: true,
                seed: None,
            }))
        );
        assert_eq!(
            parse_str("fuzz --seconds 0"),
            Err(UsageError::BadSeconds("0".into()))
        );
        assert_eq!(
            parse_str("fuzz png"),
            Err(UsageError::UnknownOption {
                command: "fuzz",
                option: "png".into()
            })
        );
        assert_eq!(
            parse_str("test --only fuzz"),
            Ok(Command::Test(TestOptions {
                only: Some(vec![StageName::Fuzz])
            }))
        );
    }

    #[test]
    fn unknown_things_are_named() {
        assert_eq!(parse_str(""), Err(UsageError::MissingCommand));
        assert_eq!(
            parse_str("deploy"),
            Err(UsageError::UnknownCommand("deploy".into()))
        );
        assert_eq!(
            parse_str("test --fast"),
            Err(UsageError::UnknownOption {
                command: "test",
                option: "--fast".into()
            })
        );
    }
}
