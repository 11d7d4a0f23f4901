//! The league plan: a TOML file naming the players, the field sizes, the time per turn and the
//! seed.
//!
//! ```toml
//! seed = 7                    # optional: the league's seed (default: from the clock, printed)
//! turn_ms = 1000              # optional: each player's time per turn in ms (default 1000)
//! sizes = ["8x10", "10x8"]    # optional: field sizes W x L, even, 2-254 (default ["8x10"])
//! bot_memory_mb = 64          # optional: a wasm: bot's linear memory at most, MiB (1-4096,
//!                             # default 64; `--bot-memory-mb` overrides it)
//!
//! [[player]]                  # two or more, in the order that decides colours (spec §7)
//! name = "eng2"               # optional: shown in the tables (default: the spec); unique
//! spec = "engine:2"           # any player of `soccer referee --red`: engine[:LEVEL],
//!                             # sim[:NETLIST.json][@SW], exec:COMMAND, wasm:PATH.wasm,
//!                             # a serial port path
//! ```
//!
//! Relative paths inside specs (netlists, serial ports, files an `exec:` command names) are the
//! plan's, as in a contest plan: the league runs in the plan's directory, so `exec:` commands
//! start there too.

use std::path::Path;

use anyhow::{Context, bail};
use engine::soccer::field::Field;
use serde::Deserialize;

use crate::soccer::players::{MAX_BOT_MEMORY_MB, PlayerSpec};

/// The plan file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanFile {
    seed: Option<u64>,
    turn_ms: Option<u64>,
    sizes: Option<Vec<String>>,
    bot_memory_mb: Option<u64>,
    #[serde(default)]
    player: Vec<PlayerFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    name: Option<String>,
    spec: String,
}

/// A checked plan.
#[derive(Debug)]
pub struct Plan {
    pub seed: Option<u64>,
    pub turn_ms: u64,
    pub sizes: Vec<Field>,
    /// `wasm:` bots' memory limit in MiB, when the plan sets one.
    pub bot_memory_mb: Option<u64>,
    pub players: Vec<Player>,
}

/// One player of the league.
#[derive(Debug)]
pub struct Player {
    pub name: String,
    pub spec: PlayerSpec,
}

/// A field size `WxL`, e.g. `8x10`.
fn parse_size(text: &str) -> Option<Field> {
    let (w, l) = text.split_once('x')?;
    Field::new(w.trim().parse().ok()?, l.trim().parse().ok()?).ok()
}

impl Plan {
    pub fn read(path: &Path) -> anyhow::Result<Plan> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        Plan::parse(&text).with_context(|| format!("{}", path.display()))
    }

    /// Parses a plan's text; errors name the player or size at fault.
    pub fn parse(text: &str) -> anyhow::Result<Plan> {
        let file: PlanFile = toml::from_str(text).context("not a league plan")?;
        let turn_ms = file.turn_ms.unwrap_or(engine::soccer::protocol::TURN_MS);
        if turn_ms == 0 {
            bail!("turn_ms must be at least 1");
        }
        if let Some(mb) = file.bot_memory_mb
            && !(1..=MAX_BOT_MEMORY_MB).contains(&mb)
        {
            bail!("bot_memory_mb = {mb}: a bot's memory limit is 1-{MAX_BOT_MEMORY_MB} MiB");
        }
        let sizes = match file.sizes {
            None => vec![Field::new(8, 10).expect("the contest's field")],
            Some(sizes) => sizes
                .iter()
                .enumerate()
                .map(|(k, text)| {
                    parse_size(text).with_context(|| {
                        format!(
                            "sizes[{k}] = {text:?}: a field is `WxL`, both even and in 2-254, \
                             e.g. \"8x10\""
                        )
                    })
                })
                .collect::<anyhow::Result<_>>()?,
        };
        let players = file
            .player
            .into_iter()
            .enumerate()
            .map(|(k, p)| {
                let spec: PlayerSpec = p.spec.parse().with_context(|| {
                    format!("player {} ({:?}): spec {:?}", k + 1, p.name, p.spec)
                })?;
                Ok(Player {
                    name: p.name.unwrap_or_else(|| p.spec.clone()),
                    spec,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Plan {
            seed: file.seed,
            turn_ms,
            sizes,
            bot_memory_mb: file.bot_memory_mb,
            players,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_parses_with_its_defaults() {
        let plan = Plan::parse(
            r#"
seed = 7
sizes = ["8x10", "10x8"]
[[player]]
name = "eng2"
spec = "engine:2"
[[player]]
spec = "sim@3"
"#,
        )
        .unwrap();
        assert_eq!(plan.seed, Some(7));
        assert_eq!(plan.turn_ms, 1000);
        assert_eq!(
            plan.sizes,
            [Field::new(8, 10).unwrap(), Field::new(10, 8).unwrap()]
        );
        assert_eq!(plan.players[0].name, "eng2");
        assert_eq!(plan.players[0].spec, PlayerSpec::Engine { level: 2 });
        assert_eq!(plan.players[1].name, "sim@3");
        let plan = Plan::parse("[[player]]\nspec = \"engine\"").unwrap();
        assert_eq!(plan.sizes, [Field::new(8, 10).unwrap()]);
        assert_eq!(plan.seed, None);
        assert_eq!(plan.bot_memory_mb, None);
        let plan = Plan::parse("bot_memory_mb = 128\n[[player]]\nspec = \"engine\"").unwrap();
        assert_eq!(plan.bot_memory_mb, Some(128));
    }

    #[test]
    fn bad_plans_name_the_place() {
        let err = |text: &str| format!("{:#}", Plan::parse(text).unwrap_err());
        assert!(err("sizes = [\"8x10\", \"9x10\"]").contains("sizes[1]"));
        assert!(err("sizes = [\"8by10\"]").contains("sizes[0]"));
        let e = err("[[player]]\nname = \"a\"\nspec = \"engine:x\"");
        assert!(e.contains("player 1") && e.contains("engine level"), "{e}");
        assert!(err("turn_ms = 0").contains("turn_ms"));
        assert!(err("bot_memory_mb = 0").contains("bot_memory_mb = 0"));
        assert!(err("bot_memory_mb = 4097").contains("1-4096 MiB"));
        let e = err("seed = 1\ncolour = \"red\"");
        assert!(e.contains("colour"), "{e}");
        let e = err("[[player]]\nname = \"a\"");
        assert!(e.contains("spec"), "{e}");
    }
}
