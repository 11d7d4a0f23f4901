//! The league's form: the players as they were added, the sizes, time per turn and seed as
//! typed, and the serial line new boards are opened with. Every change is a [`Change`] applied
//! to the form as it is *then* (the page's reducer), never to a copy taken earlier: a player
//! made on the side — a file read, a design synthesized, a port opened — lands in the form
//! with every player added meanwhile, however the two interleave.

use std::rc::Rc;

use yew::Reducible;

use super::session::{Entrant, Plan, PlayerKind, add_player};
use crate::serial::settings::{FormSettings, LineSettings};

/// What the form holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub players: Vec<Entrant>,
    pub sizes: String,
    pub turn_ms: String,
    pub seed: String,
    /// The line of the boards on serial ports opened next (spec §4: the contest's defaults,
    /// 115200 8N2, are settings). Emulated boards always run the contest's line, as the CLI's
    /// `sim` does.
    pub line: LineSettings,
    /// Why the last line setting was refused (not kept).
    pub line_error: Option<String>,
    /// Players on their way: files being read or synthesized (not kept: a reload drops them).
    pub pending: usize,
}

/// A change to the form.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Players to add at the end, in order.
    Add(Vec<PlayerKind>),
    /// Remove the player at this position.
    Remove(usize),
    Sizes(String),
    TurnMs(String),
    Seed(String),
    /// A line setting (`baud`, `data-bits`, `parity`, `stop-bits`, `flow`) as a control has it.
    Line {
        setting: String,
        value: String,
    },
    /// A player is on its way (a file is being read).
    Pending,
    /// What a pending player turned out to be: players to add (none when the file was
    /// refused).
    Arrived(Vec<PlayerKind>),
}

impl Default for Form {
    /// A small league: the engine at levels 1 and 2 on the usual field.
    fn default() -> Form {
        let mut form = Form {
            players: Vec::new(),
            sizes: "8x10".into(),
            turn_ms: "1000".into(),
            seed: "1".into(),
            line: LineSettings::default(),
            line_error: None,
            pending: 0,
        };
        for level in [1, 2] {
            add_player(&mut form.players, PlayerKind::Engine { level });
        }
        form
    }
}

impl Form {
    pub fn apply(&mut self, change: Change) {
        match change {
            Change::Add(kinds) => self.add(kinds),
            Change::Remove(k) => {
                if k < self.players.len() {
                    self.players.remove(k);
                }
            }
            Change::Sizes(text) => self.sizes = text,
            Change::TurnMs(text) => self.turn_ms = text,
            Change::Seed(text) => self.seed = text,
            Change::Line { setting, value } => {
                self.line_error = self.line.set(&setting, &value).err().map(|e| e.to_string());
            }
            Change::Pending => self.pending += 1,
            Change::Arrived(kinds) => {
                self.pending = self.pending.saturating_sub(1);
                self.add(kinds);
            }
        }
    }

    fn add(&mut self, kinds: Vec<PlayerKind>) {
        for kind in kinds {
            add_player(&mut self.players, kind);
        }
    }

    /// The plan of the form, or what is wrong with it (a player still on its way included).
    pub fn plan(&self) -> Result<Plan, String> {
        if self.pending > 0 {
            return Err(format!(
                "{} player{} still being read or synthesized: run the league once {}",
                self.pending,
                if self.pending == 1 { " is" } else { "s are" },
                if self.pending == 1 {
                    "it is in"
                } else {
                    "they are in"
                },
            ));
        }
        Plan::from_form(self.players.clone(), &self.sizes, &self.turn_ms, &self.seed)
            .map_err(|e| e.to_string())
    }

    /// The form as kept: `sizes<TAB>turn_ms<TAB>seed<TAB>` and the line's five settings as
    /// the controls write them, then `name<TAB>key` per player ([`PlayerKind::key`]).
    pub fn to_text(&self) -> String {
        let line = &self.line;
        let mut text = format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            self.sizes,
            self.turn_ms,
            self.seed,
            line.baud,
            line.data_bits.count(),
            line.parity.name(),
            line.stop_bits.count(),
            line.flow_control.name()
        );
        for p in &self.players {
            text.push_str(&format!("{}\t{}\n", p.name, p.kind.key()));
        }
        text
    }

    /// The form kept as `text` ([`Form::to_text`]); what cannot be read keeps its default
    /// (a player whose key the page cannot field is left out).
    pub fn from_text(text: &str) -> Form {
        let mut form = Form {
            players: Vec::new(),
            ..Form::default()
        };
        let mut lines = text.lines();
        let first: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
        if let [sizes, turn_ms, seed, line @ ..] = first.as_slice() {
            (form.sizes, form.turn_ms, form.seed) =
                ((*sizes).into(), (*turn_ms).into(), (*seed).into());
            for (setting, value) in ["baud", "data-bits", "parity", "stop-bits", "flow"]
                .iter()
                .zip(line)
            {
                let _ = form.line.set(setting, value);
            }
        }
        for line in lines {
            if let Some((name, key)) = line.split_once('\t')
                && let Some(kind) = PlayerKind::from_key(key)
            {
                form.players.push(Entrant {
                    name: name.into(),
                    kind,
                });
            }
        }
        form
    }
}

impl Reducible for Form {
    type Action = Change;

    /// The change applied to the form as it is now, which is kept for the next visit.
    fn reduce(self: Rc<Self>, change: Change) -> Rc<Self> {
        let mut next = (*self).clone();
        next.apply(change);
        #[cfg(target_arch = "wasm32")]
        super::storage::store_form(&next);
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::session::Upload;

    fn names(form: &Form) -> Vec<&str> {
        form.players.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn a_player_added_while_a_file_is_read_is_kept() {
        // The page's reducer gets the changes in the order they happen: a bot's file starts
        // being read, an engine is added, a netlist starts, the bot arrives, the netlist is
        // refused.
        let mut form = Rc::new(Form::default());
        let bot = PlayerKind::Bot(Upload::of("good.wasm", b"\0asm"));
        for change in [
            Change::Remove(0),
            Change::Pending,
            Change::Add(vec![PlayerKind::Engine { level: 4 }]),
            Change::Pending,
        ] {
            form = form.reduce(change);
        }
        assert_eq!(form.pending, 2);
        assert!(
            form.plan()
                .unwrap_err()
                .contains("2 players are still being read")
        );
        form = form.reduce(Change::Arrived(vec![bot.clone()]));
        assert!(form.plan().unwrap_err().contains("1 player is still"));
        form = form.reduce(Change::Arrived(Vec::new()));
        assert_eq!(names(&form), ["engine:2", "engine:4", "good"]);
        assert_eq!(form.pending, 0);
        let plan = form.plan().unwrap();
        assert_eq!(plan.players[2].kind, bot);
    }

    #[test]
    fn the_form_comes_back_as_kept_with_its_files_hashes_and_line() {
        let mut form = Form::default();
        form.apply(Change::Add(vec![
            PlayerKind::Bot(Upload::of("b.wasm", b"one")),
            PlayerKind::Emulated {
                netlist: Some(Upload::of("de2_115_top.json", b"{}")),
            },
            PlayerKind::Serial {
                port: "USB 0403:6001".into(),
            },
        ]));
        form.apply(Change::Remove(0));
        form.apply(Change::Sizes("4x4,6x6".into()));
        form.apply(Change::Seed("9".into()));
        form.apply(Change::Line {
            setting: "baud".into(),
            value: "9600".into(),
        });
        form.apply(Change::Line {
            setting: "parity".into(),
            value: "even".into(),
        });
        form.apply(Change::Line {
            setting: "data-bits".into(),
            value: "5".into(),
        });
        assert!(
            form.line_error.as_deref().unwrap().contains('5'),
            "{form:?}"
        );
        assert_eq!(form.line.to_string(), "9600 8E2");
        let text = form.to_text();
        assert!(
            text.starts_with("4x4,6x6\t1000\t9\t9600\t8\teven\t2\tnone\n"),
            "{text}"
        );
        let back = Form::from_text(&text);
        assert_eq!(
            back,
            Form {
                line_error: None,
                ..form.clone()
            }
        );
        assert_eq!(
            names(&back),
            ["engine:2", "b", "de2_115_top", "board USB 0403:6001"]
        );
        // A form kept before the line was: the contest's line; a bot kept without its hash
        // is dropped (its file cannot be found).
        let old = Form::from_text("8x10\t500\t3\nb\twasm:b.wasm\nengine:1\tengine:1\n");
        assert_eq!(old.line, LineSettings::default());
        assert_eq!(old.turn_ms, "500");
        assert_eq!(names(&old), ["engine:1"]);
    }
}
