//! A league in the browser, without the browser: the plan from the form, which games to start
//! next and on what, the results so far and what to keep of them across a reload. Every rule
//! of the league itself (schedule, seeds, standings) is [`engine::soccer::league`]'s; this
//! module only decides what runs where, and is driven by inputs in, effects out.

use std::fmt;

use engine::soccer::field::Field;
use engine::soccer::league::{League, LeagueError, Pairing, Report, size_name};
use engine::soccer::record::Record;
use engine::soccer::search::MAX_LEVEL;

use crate::hash::ContentHash;
use crate::scheduler::Scheduler;

/// A file a player is made of, as the page was given it: its name, which the CLI's plan names
/// (`wasm:NAME`, `sim:NAME`) and the tables show, and the hash of its bytes, by which the page
/// keeps it. Two files of one name are two players, and results kept for one are never taken
/// for the other.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Upload {
    pub file: String,
    pub hash: ContentHash,
}

impl Upload {
    pub fn of(file: &str, bytes: &[u8]) -> Upload {
        Upload {
            file: file.to_owned(),
            hash: ContentHash::of(bytes),
        }
    }

    /// `NAME#HASH`, the file in a player's [`PlayerKind::key`].
    fn key(&self) -> String {
        format!("{}#{}", self.file, self.hash)
    }

    fn from_key(key: &str) -> Option<Upload> {
        let (file, hash) = key.rsplit_once('#')?;
        Some(Upload {
            file: (!file.is_empty()).then(|| file.to_owned())?,
            hash: ContentHash::parse(hash)?,
        })
    }
}

/// A kind of player the page can field. Each kind runs somewhere different: to add one, add a
/// variant, its CLI spec and whether it is a single device that plays one game at a time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// The built-in engine at a level (0 = random, up to [`MAX_LEVEL`]), in a soccer worker.
    Engine { level: u8 },
    /// A design on an emulated board, in a board worker: the reference player (`None`, the
    /// CLI's `sim`) or a yosys netlist the page was given, uploaded or synthesized from
    /// Verilog in the page (`sim:NAME.json`).
    Emulated { netlist: Option<Upload> },
    /// A real board on a serial port the page opened, by the port's name on the page (its USB
    /// ids). The CLI's plan names the device path instead (`/dev/ttyUSB0`).
    Serial { port: String },
    /// A WebAssembly bot (a WASI command speaking the protocol), by its file
    /// (`wasm:NAME.wasm`).
    Bot(Upload),
}

impl PlayerKind {
    /// The player as the CLI's plan writes it (`spec = "engine:2"`, `"sim"`,
    /// `"sim:mine.json"`, `"wasm:bot.wasm"`); a serial board is `serial:NAME` here, which the
    /// organiser replaces by the port's path.
    pub fn spec(&self) -> String {
        match self {
            PlayerKind::Engine { level } => format!("engine:{}", (*level).min(MAX_LEVEL)),
            PlayerKind::Emulated { netlist: None } => "sim".into(),
            PlayerKind::Emulated {
                netlist: Some(netlist),
            } => format!("sim:{}", netlist.file),
            PlayerKind::Serial { port } => format!("serial:{port}"),
            PlayerKind::Bot(bot) => format!("wasm:{}", bot.file),
        }
    }

    /// The player as the page keeps it: its [`PlayerKind::spec`], with `#HASH` after an
    /// uploaded file's name (`wasm:bot.wasm#0123456789abcdef`).
    pub fn key(&self) -> String {
        match self {
            PlayerKind::Emulated {
                netlist: Some(netlist),
            } => format!("sim:{}", netlist.key()),
            PlayerKind::Bot(bot) => format!("wasm:{}", bot.key()),
            _ => self.spec(),
        }
    }

    /// The kind a [`PlayerKind::key`] names, if the page can field it (an uploaded file
    /// without its hash is not one).
    pub fn from_key(key: &str) -> Option<PlayerKind> {
        if key == "sim" {
            return Some(PlayerKind::Emulated { netlist: None });
        }
        if let Some(file) = key.strip_prefix("sim:") {
            return Some(PlayerKind::Emulated {
                netlist: Some(Upload::from_key(file)?),
            });
        }
        if let Some(port) = key.strip_prefix("serial:") {
            return (!port.is_empty()).then(|| PlayerKind::Serial { port: port.into() });
        }
        if let Some(file) = key.strip_prefix("wasm:") {
            return Some(PlayerKind::Bot(Upload::from_key(file)?));
        }
        let level = key.strip_prefix("engine:")?.parse().ok()?;
        Some(PlayerKind::Engine { level })
    }

    /// Whether the player is one device, which plays one game at a time.
    pub fn is_device(&self) -> bool {
        matches!(
            self,
            PlayerKind::Emulated { .. } | PlayerKind::Serial { .. }
        )
    }

    /// The name a player of this kind gets in the tables (made unique by [`add_player`]): the
    /// spec, or a file's stem for an uploaded netlist or bot.
    pub fn default_name(&self) -> String {
        let stem = |file: &str| {
            let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
            if stem.is_empty() { file } else { stem }.to_owned()
        };
        match self {
            PlayerKind::Emulated {
                netlist: Some(Upload { file, .. }),
            }
            | PlayerKind::Bot(Upload { file, .. }) => stem(file),
            PlayerKind::Serial { port } => format!("board {port}"),
            _ => self.spec(),
        }
    }
}

/// One player of the league: its name in the tables (unique) and its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    pub kind: PlayerKind,
}

/// Adds a player of `kind` to `players`, named by [`PlayerKind::default_name`] (the spec, as
/// the CLI does, or a file's stem), with ` #2`, ` #3`… when the name is taken.
pub fn add_player(players: &mut Vec<Entrant>, kind: PlayerKind) {
    let base = kind.default_name();
    let name = crate::names::first_free(
        &base,
        |base, k| format!("{base} #{k}"),
        |name| players.iter().any(|p| p.name == name),
    );
    players.push(Entrant { name, kind });
}

/// A field-size list or number from the form that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("size {position} ({text:?}): write W x L with even numbers, e.g. 8x10")]
    Size { position: usize, text: String },
    #[error("the time per turn {0:?} is not a number of milliseconds (at least 1)")]
    TurnMs(String),
    #[error("the seed {0:?} is not a whole number 0-18446744073709551615")]
    Seed(String),
    #[error(transparent)]
    League(#[from] LeagueError),
}

/// `8x10,10x8` (commas or spaces between sizes). Errors name the size at fault, from 1.
pub fn parse_sizes(text: &str) -> Result<Vec<Field>, PlanError> {
    text.split([',', ' '])
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(k, s)| {
            let size = s
                .trim()
                .split_once(['x', 'X'])
                .and_then(|(w, l)| Field::new(w.trim().parse().ok()?, l.trim().parse().ok()?).ok());
            size.ok_or_else(|| PlanError::Size {
                position: k + 1,
                text: s.into(),
            })
        })
        .collect()
}

/// What the form sets: the players, in the order that decides colours, the sizes, the time
/// per turn and the seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub players: Vec<Entrant>,
    pub sizes: Vec<Field>,
    pub turn_ms: u64,
    pub seed: u64,
}

impl Plan {
    /// The plan from the form's fields; errors name the field at fault.
    pub fn from_form(
        players: Vec<Entrant>,
        sizes: &str,
        turn_ms: &str,
        seed: &str,
    ) -> Result<Plan, PlanError> {
        let plan = Plan {
            players,
            sizes: parse_sizes(sizes)?,
            turn_ms: turn_ms
                .trim()
                .parse()
                .ok()
                .filter(|&ms| ms > 0)
                .ok_or_else(|| PlanError::TurnMs(turn_ms.into()))?,
            seed: seed
                .trim()
                .parse()
                .map_err(|_| PlanError::Seed(seed.into()))?,
        };
        plan.league()?;
        Ok(plan)
    }

    /// A league of this plan with no game played.
    pub fn league(&self) -> Result<League, LeagueError> {
        let names = self.players.iter().map(|p| p.name.clone()).collect();
        League::new(names, &self.sizes, self.seed)
    }
}

impl fmt::Display for Plan {
    /// The plan as the CLI reads it (`quadrille soccer league PLAN.toml`), with the hash of
    /// each uploaded file in a comment; also the key its results are kept under.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sizes: Vec<String> = self
            .sizes
            .iter()
            .map(|&s| format!("\"{}\"", size_name(s)))
            .collect();
        writeln!(f, "seed = {}", self.seed)?;
        writeln!(f, "turn_ms = {}", self.turn_ms)?;
        writeln!(f, "sizes = [{}]", sizes.join(", "))?;
        for p in &self.players {
            writeln!(
                f,
                "\n[[player]]\nname = {:?}\nspec = {:?}",
                p.name,
                p.kind.spec()
            )?;
            match &p.kind {
                PlayerKind::Serial { .. } => writeln!(
                    f,
                    "# a board: write its port's path in spec, e.g. \"/dev/ttyUSB0\""
                )?,
                // Also what keeps the results of a file apart from another file's of its name.
                PlayerKind::Emulated {
                    netlist: Some(Upload { hash, .. }),
                }
                | PlayerKind::Bot(Upload { hash, .. }) => {
                    writeln!(f, "# the file's FNV-1a hash: {hash}")?
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// A game to start: where and with which seeds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStart {
    pub pairing: Pairing,
    /// The slot (a soccer worker) it runs on.
    pub slot: usize,
    /// The red and blue players' kinds and seeds ([`League::player_seeds`]).
    pub kinds: [PlayerKind; 2],
    pub seeds: [u64; 2],
    pub turn_ms: u64,
}

/// What the page must do: start a game, keep the results so far (the text of
/// [`Session::stored`]), or nothing more (every game has a result).
pub type Effect = crate::scheduler::Effect<GameStart, String>;

/// A running or finished league.
pub struct Session {
    plan: Plan,
    league: League,
    /// Games running, by index, on their slots.
    scheduler: Scheduler<usize>,
}

impl Session {
    /// A league of `plan` running up to `slots` games at once, with the results kept in
    /// `stored` (see [`Session::stored`]); results of another plan, or that the league refuses,
    /// are ignored: their games are played again.
    pub fn new(plan: Plan, slots: usize, stored: Option<&str>) -> Result<Session, LeagueError> {
        let mut league = plan.league()?;
        for line in stored.unwrap_or_default().lines() {
            let Some((index, record)) = line.split_once('\t') else {
                continue;
            };
            if let (Ok(index), Ok(record)) = (index.parse(), Record::parse(record)) {
                let _ = league.report_game(index, record);
            }
        }
        Ok(Session {
            plan,
            league,
            scheduler: Scheduler::new(slots),
        })
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    pub fn league(&self) -> &League {
        &self.league
    }

    /// The games running now, by index.
    pub fn running(&self) -> impl Iterator<Item = usize> + '_ {
        self.scheduler.running()
    }

    /// Games done and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.league.games_done(), self.league.schedule().len())
    }

    pub fn is_done(&self) -> bool {
        self.league.is_complete()
    }

    /// Seconds since the start, or that the whole took once done.
    pub fn elapsed_s(&self, now_ms: f64) -> f64 {
        self.scheduler.elapsed_s(now_ms)
    }

    /// The results kept across a reload: one line per game, `index<TAB>record`.
    pub fn stored(&self) -> String {
        (0..self.league.schedule().len())
            .filter_map(|i| Some(format!("{i}\t{}\n", self.league.result(i)?)))
            .collect()
    }

    /// The standings JSON, as `quadrille soccer league --json` prints it: the engine's report
    /// and the seed.
    pub fn report_json(&self) -> String {
        let report: Report = self.league.report();
        let mut value = serde_json::to_value(report).unwrap_or_default();
        value["seed"] = self.plan.seed.into();
        value.to_string()
    }

    /// Every record so far, one line each, in schedule order (the CLI's records file).
    pub fn records(&self) -> String {
        (0..self.league.schedule().len())
            .filter_map(|i| Some(format!("{}\n", self.league.result(i)?)))
            .collect()
    }

    /// Starts (or resumes) the league at `now_ms`: the first games to run.
    pub fn start(&mut self, now_ms: f64) -> Vec<Effect> {
        self.scheduler.start(now_ms);
        self.fill(now_ms)
    }

    /// Game `index` ended with `record`. A game not running (a stale answer) is ignored.
    pub fn finished(
        &mut self,
        index: usize,
        record: Record,
        now_ms: f64,
    ) -> Result<Vec<Effect>, LeagueError> {
        if !self.scheduler.release(index) {
            return Ok(Vec::new());
        }
        self.league.report_game(index, record)?;
        let mut effects = vec![Effect::Save(self.stored())];
        effects.extend(self.fill(now_ms));
        Ok(effects)
    }

    /// Starts the first pending games, in schedule order, that have a free slot and whose
    /// devices are not playing.
    fn fill(&mut self, now_ms: f64) -> Vec<Effect> {
        if self.league.is_complete() {
            self.scheduler.end(now_ms);
            return vec![Effect::Done];
        }
        let (league, players) = (&self.league, &self.plan.players);
        let schedule = league.schedule();
        let pending = schedule
            .iter()
            .filter(|p| league.result(p.index).is_none())
            .map(|p| p.index);
        let placed = self.scheduler.fill(pending, |running, index| {
            // A device plays one game at a time.
            let busy = |player: usize| {
                players[player].kind.is_device()
                    && running.running().any(|g| {
                        let p = schedule[g];
                        p.red == player || p.blue == player
                    })
            };
            let pairing = schedule[index];
            !busy(pairing.red) && !busy(pairing.blue)
        });
        placed
            .into_iter()
            .map(|(index, slot)| {
                let pairing = schedule[index];
                Effect::Start(GameStart {
                    pairing,
                    slot,
                    kinds: [
                        players[pairing.red].kind.clone(),
                        players[pairing.blue].kind.clone(),
                    ],
                    seeds: league.player_seeds(index),
                    turn_ms: self.plan.turn_ms,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::soccer::game::Game;
    use engine::soccer::search::Engine;
    use engine::soccer::{Side, league::player_seeds};

    fn plan(kinds: &[PlayerKind], sizes: &str) -> Plan {
        let mut players = Vec::new();
        for k in kinds {
            add_player(&mut players, k.clone());
        }
        Plan::from_form(players, sizes, "500", "7").unwrap()
    }

    /// Game `start`, played out by two engines the way the CLI's players play it.
    fn play(start: &GameStart) -> Record {
        let field = start.pairing.field;
        let mut engines = [0, 1].map(|side| {
            let level = match start.kinds[side] {
                PlayerKind::Engine { level } => level,
                _ => 0,
            };
            Engine::new(level, start.seeds[side])
        });
        let mut game = Game::new(field, Side::Red);
        let mut record = Record::new(field, Side::Red);
        while game.outcome().is_none() {
            let side = usize::from(game.to_move() == Side::Blue);
            let turn = engines[side].choose_turn(&game).expect("an open game");
            game.play_turn(&turn);
            record.turns.push(turn.into());
        }
        record.result = game.outcome();
        record
    }

    fn starts(effects: &[Effect]) -> Vec<GameStart> {
        effects
            .iter()
            .filter_map(Effect::started)
            .cloned()
            .collect()
    }

    #[test]
    fn names_are_specs_made_unique_and_the_plan_is_the_clis() {
        let p = plan(
            &[
                PlayerKind::Engine { level: 2 },
                PlayerKind::Engine { level: 2 },
                PlayerKind::Emulated { netlist: None },
            ],
            "8x10, 4x4",
        );
        let names: Vec<&str> = p.players.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["engine:2", "engine:2 #2", "sim"]);
        for e in &p.players {
            assert_eq!(PlayerKind::from_key(&e.kind.key()).as_ref(), Some(&e.kind));
        }
        let toml = p.to_string();
        assert!(toml.starts_with("seed = 7\nturn_ms = 500\nsizes = [\"8x10\", \"4x4\"]\n"));
        assert!(
            toml.contains("name = \"engine:2 #2\"\nspec = \"engine:2\""),
            "{toml}"
        );
    }

    #[test]
    fn uploaded_players_are_named_by_their_file_stems_and_boards_play_alone() {
        let good = Upload::of("good.wasm", b"\0asm\x01\0\0\0");
        let kinds = [
            PlayerKind::Bot(good.clone()),
            PlayerKind::Bot(good.clone()),
            PlayerKind::Emulated {
                netlist: Some(Upload::of("my.board.json", b"{}")),
            },
            PlayerKind::Serial {
                port: "USB 0403:6001".into(),
            },
        ];
        let p = plan(&kinds, "4x4");
        let names: Vec<&str> = p.players.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            ["good", "good #2", "my.board", "board USB 0403:6001"]
        );
        let specs: Vec<String> = kinds.iter().map(PlayerKind::spec).collect();
        assert_eq!(
            specs,
            [
                "wasm:good.wasm",
                "wasm:good.wasm",
                "sim:my.board.json",
                "serial:USB 0403:6001"
            ]
        );
        assert_eq!(kinds[0].key(), format!("wasm:good.wasm#{}", good.hash));
        for k in &kinds {
            assert_eq!(PlayerKind::from_key(&k.key()).as_ref(), Some(k));
        }
        // A spec is no key for an uploaded file: the page would not know which file it is.
        for empty in [
            "wasm:",
            "sim:",
            "serial:",
            "engine:x",
            "bot",
            "wasm:good.wasm",
        ] {
            assert_eq!(PlayerKind::from_key(empty), None, "{empty}");
        }
        assert_eq!(
            PlayerKind::from_key("wasm:a#b.wasm#0123456789abcdef"),
            Some(PlayerKind::Bot(Upload {
                file: "a#b.wasm".into(),
                hash: ContentHash::parse("0123456789abcdef").unwrap()
            }))
        );
        assert!(!kinds[0].is_device());
        assert!(kinds[2].is_device() && kinds[3].is_device());
        // The plan tells the organiser what the CLI needs instead of the page's port name.
        assert!(
            p.to_string()
                .contains("spec = \"serial:USB 0403:6001\"\n# a board: write its port's path")
        );
    }

    #[test]
    fn bad_fields_are_named() {
        assert_eq!(
            parse_sizes("8x10,7x9"),
            Err(PlanError::Size {
                position: 2,
                text: "7x9".into()
            })
        );
        let two = plan(
            &[
                PlayerKind::Emulated { netlist: None },
                PlayerKind::Emulated { netlist: None },
            ],
            "4x4",
        )
        .players;
        assert!(matches!(
            Plan::from_form(two.clone(), "4x4", "0", "1"),
            Err(PlanError::TurnMs(_))
        ));
        assert!(matches!(
            Plan::from_form(two.clone(), "4x4", "10", "-1"),
            Err(PlanError::Seed(_))
        ));
        assert!(matches!(
            Plan::from_form(two[..1].to_vec(), "4x4", "10", "1"),
            Err(PlanError::League(LeagueError::TooFewPlayers(1)))
        ));
    }

    #[test]
    fn another_file_under_the_same_name_is_another_plan() {
        let with = |bytes: &[u8]| {
            plan(
                &[
                    PlayerKind::Engine { level: 1 },
                    PlayerKind::Bot(Upload::of("bot.wasm", bytes)),
                    PlayerKind::Emulated {
                        netlist: Some(Upload::of("mine.json", b"{\"modules\": {}}")),
                    },
                ],
                "4x4",
            )
        };
        let (old, new) = (with(b"\0asm one"), with(b"\0asm two"));
        // The same names and specs, so the same plan for the CLI…
        assert_eq!(old.players[1].kind.spec(), new.players[1].kind.spec());
        assert_eq!(old.players[1].name, new.players[1].name);
        // …but not the same text, which keys the results kept for a reload.
        assert_ne!(old.to_string(), new.to_string());
        assert_eq!(old.to_string(), with(b"\0asm one").to_string());
        let hash = ContentHash::of(b"\0asm one");
        assert!(
            old.to_string().contains(&format!(
                "spec = \"wasm:bot.wasm\"\n# the file's FNV-1a hash: {hash}\n"
            )),
            "{old}"
        );
    }

    #[test]
    fn games_fill_the_slots_in_schedule_order_with_the_leagues_seeds() {
        let p = plan(
            &[0, 1, 2].map(|level| PlayerKind::Engine { level }),
            "4x4,6x6",
        );
        let mut session = Session::new(p, 2, None).unwrap();
        let first = starts(&session.start(0.0));
        assert_eq!(first.len(), 2);
        assert_eq!(first[0].pairing.index, 0);
        assert_eq!(first[1].pairing.index, 1);
        assert_eq!(first[0].seeds, player_seeds(7, 0));
        assert_ne!(first[0].slot, first[1].slot);
        // The second game ends first: its slot takes the next game.
        let effects = session.finished(1, play(&first[1]), 5.0).unwrap();
        assert!(matches!(&effects[0], Effect::Save(s) if s.starts_with("1\t4x4 red: ")));
        let next = starts(&effects);
        assert_eq!(next.len(), 1);
        assert_eq!((next[0].pairing.index, next[0].slot), (2, first[1].slot));
        assert_eq!(session.progress(), (1, 12));
    }

    #[test]
    fn a_device_plays_one_game_at_a_time() {
        let p = plan(
            &[
                PlayerKind::Emulated { netlist: None },
                PlayerKind::Engine { level: 0 },
                PlayerKind::Engine { level: 1 },
            ],
            "4x4",
        );
        let mut session = Session::new(p, 4, None).unwrap();
        let first: Vec<usize> = starts(&session.start(0.0))
            .iter()
            .map(|s| s.pairing.index)
            .collect();
        // Games 0-3 need the board, so only the first of them runs; games 4 and 5 (engine:0
        // and engine:1) do not.
        assert_eq!(first, [0, 4, 5]);
    }

    #[test]
    fn a_reload_keeps_the_results_and_plays_the_rest_to_the_same_standings() {
        let p = plan(&[0, 1, 2].map(|level| PlayerKind::Engine { level }), "4x4");
        let run = |mut session: Session, stop_after: Option<usize>| {
            let mut queue = starts(&session.start(0.0));
            let mut done = 0;
            while let Some(start) = queue.pop() {
                if stop_after == Some(done) {
                    break;
                }
                let effects = session
                    .finished(start.pairing.index, play(&start), 1.0)
                    .unwrap();
                queue.extend(starts(&effects));
                done += 1;
            }
            session
        };
        let whole = run(Session::new(p.clone(), 2, None).unwrap(), None);
        assert!(whole.is_done());
        let half = run(Session::new(p.clone(), 2, None).unwrap(), Some(3));
        assert_eq!(half.progress(), (3, 6));
        let stored = half.stored();
        assert_eq!(stored.lines().count(), 3);
        let resumed = Session::new(p.clone(), 3, Some(&stored)).unwrap();
        assert_eq!(resumed.progress(), (3, 6));
        let resumed = run(resumed, None);
        assert_eq!(resumed.report_json(), whole.report_json());
        assert!(whole.report_json().contains("\"seed\":7"));
        assert_eq!(whole.records().lines().count(), 6);
        // Results of another plan are not taken.
        let other = plan(&[0, 1, 2].map(|level| PlayerKind::Engine { level }), "6x6");
        let fresh = Session::new(other, 2, Some(&stored)).unwrap();
        assert_eq!(fresh.progress(), (0, 6));
    }
}
