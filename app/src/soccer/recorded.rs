//! A game on screen with its record: it owns the position, takes steps from a local player and
//! whole turns from remote ones, and gives the record of the completed turns.
//!
//! Every judgement is the engine's: steps go through [`Game::step`], whole turns through
//! [`Game::play_turn`], records through [`Record::replay`]. The history is the engine's too:
//! the completed turns, the current turn's steps and every earlier position come from the
//! [`Game`]'s own undo history. The only thing kept beside it is the digits of a delivered
//! turn that ended the game, which the record holds as sent (a goal ignores the digits after
//! it, a fault stops at the faulty one) while the game drew only its real steps.

use engine::soccer::field::Field;
use engine::soccer::game::{Game, IllegalStep, StepEffect};
use engine::soccer::record::{Record, RecordTurn, ReplayError};
use engine::soccer::{Dir, Outcome, Point, Reason, Side};

/// A game in progress or finished, with its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    game: Game,
    /// The turn that ended the game as the record holds it; `None` while the game goes on or
    /// when a verdict no turn shows (a timeout, a disconnect) ended it.
    ending: Option<RecordTurn>,
}

/// What a step of the local player did to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The ball bounced: the same player steps again.
    StepAgain,
    /// The turn is complete; the opponent is to move.
    TurnOver,
    /// The game is over.
    GameOver(Outcome),
}

impl RecordedGame {
    /// The kick-off of a new game.
    pub fn new(field: Field, starter: Side) -> RecordedGame {
        RecordedGame {
            game: Game::new(field, starter),
            ending: None,
        }
    }

    /// The game a record describes, judged by the engine. A verdict the moves cannot show
    /// (`timeout`, `disconnect`) that the record states and the engine accepts is applied.
    pub fn from_record(record: &Record) -> Result<RecordedGame, ReplayError> {
        let mut game = record.replay()?;
        let mut ending = None;
        if game.outcome().is_some() {
            ending = record.turns.last().cloned();
        } else if let Some(verdict) = record.result {
            game.adjudicate(verdict);
        }
        Ok(RecordedGame { game, ending })
    }

    /// The position after the first `turns` completed turns (all of them if there are fewer),
    /// as a game that goes on from there: the game's own history taken back to that turn.
    pub fn after_turns(&self, turns: usize) -> RecordedGame {
        let mut whole = self.clone();
        whole.take_back_turn();
        if turns >= whole.turns().len() {
            return whole;
        }
        let mut game = whole.game;
        while game.outcome().is_some() || game.steps_in_turn() > 0 || game.turn_number() > turns {
            if !game.undo_step() {
                break;
            }
        }
        RecordedGame { game, ending: None }
    }

    /// The position (the current unfinished turn's steps included).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The field.
    pub fn field(&self) -> &Field {
        self.game.field()
    }

    /// Who played the first turn.
    pub fn starter(&self) -> Side {
        self.game.starter()
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// Whose turn it is (once over, whose turn ended the game).
    pub fn to_move(&self) -> Side {
        self.game.to_move()
    }

    /// The completed turns, the game-ending one included, starting with the starter's.
    pub fn turns(&self) -> Vec<RecordTurn> {
        // A record keeps turns as sent: the ending one may be `{}` or faulty bytes.
        let mut turns: Vec<RecordTurn> = self.game.turns().into_iter().map(Into::into).collect();
        if self.outcome().is_some() {
            // The game ended during turn `turn_number`: the turns before it are the game's
            // own, the ending one is as it was played (none for a verdict).
            turns.truncate(self.game.turn_number().saturating_sub(1));
            turns.extend(self.ending.clone());
        } else {
            turns.truncate(self.game.turn_number());
        }
        turns
    }

    /// The digits of the current unfinished turn.
    pub fn partial(&self) -> Vec<u8> {
        self.game.current_turn()
    }

    /// The record of the completed turns (spec §5), without a verdict.
    pub fn record(&self) -> Record {
        let mut record = Record::new(*self.field(), self.starter());
        record.turns = self.turns();
        record
    }

    /// The record with the verdict appended once the game is over.
    pub fn record_with_verdict(&self) -> Record {
        let mut record = self.record();
        record.result = self.outcome();
        record
    }

    /// One step of the player to move, made on this screen. A refused step changes nothing.
    pub fn step(&mut self, dir: Dir) -> Result<Progress, IllegalStep> {
        let partial = self.partial();
        Ok(match self.game.step(dir)? {
            StepEffect::Bounce => Progress::StepAgain,
            StepEffect::TurnOver => Progress::TurnOver,
            StepEffect::GameOver(outcome) => {
                let mut ending = partial;
                ending.push(dir.digit());
                self.ending = Some(RecordTurn::new(&ending));
                Progress::GameOver(outcome)
            }
        })
    }

    /// Takes back the last step of the current unfinished turn; false if it has none.
    pub fn take_back(&mut self) -> bool {
        self.game.outcome().is_none() && self.game.steps_in_turn() > 0 && self.game.undo_step()
    }

    /// Takes back every step of the current unfinished turn.
    pub fn take_back_turn(&mut self) {
        while self.take_back() {}
    }

    /// A whole turn delivered by a player (the payload of the protocol's `{…}`), judged with
    /// the protocol's semantics: a fault ends the game against its player, and the turn is
    /// part of the record either way. Steps of an unfinished turn are taken back first.
    /// Returns the outcome once the game is over.
    pub fn play_turn(&mut self, digits: &[u8]) -> Option<Outcome> {
        if let Some(outcome) = self.outcome() {
            return Some(outcome);
        }
        self.take_back_turn();
        let outcome = self.game.play_message(digits);
        if outcome.is_some() {
            self.ending = Some(RecordTurn::new(digits));
        }
        outcome
    }

    /// The player to move ran out of time: the opponent wins with `timeout`.
    pub fn time_out(&mut self) -> Option<Outcome> {
        let winner = self.to_move().opponent();
        self.adjudicate(Outcome {
            winner,
            reason: Reason::Timeout,
        })
    }

    /// Ends the game with a verdict no turn shows (a timeout, a disconnect, a protocol fault
    /// seen on a wire). The steps of the unfinished turn are taken back first: the record holds
    /// complete turns only. Nothing changes once the game is over.
    pub fn adjudicate(&mut self, outcome: Outcome) -> Option<Outcome> {
        if self.outcome().is_none() {
            self.take_back_turn();
            self.game.adjudicate(outcome);
            self.ending = None;
        }
        self.outcome()
    }

    /// Every line drawn by a step, in play order, with the side that drew it: the game's
    /// steps, each charged to the side that was to move when it was taken.
    pub fn lines(&self) -> Vec<(Point, Point, Side)> {
        let mut replay = Game::new(*self.field(), self.starter());
        let mut out = Vec::new();
        for (a, b) in self.game.step_segments() {
            let side = replay.to_move();
            if let Some(dir) = engine::soccer::field::dir_between(a, b) {
                let _ = replay.step(dir);
            }
            out.push((a, b, side));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(w: u8, l: u8) -> Field {
        Field::new(w, l).unwrap()
    }

    #[test]
    fn the_record_of_no_turn_is_the_engines() {
        let recorded = RecordedGame::new(field(8, 10), Side::Red);
        assert_eq!(recorded.record().to_string(), "8x10 red: ");
    }

    #[test]
    fn only_completed_turns_are_recorded() {
        let mut recorded = RecordedGame::new(field(8, 10), Side::Red);
        // 3 from the centre (4,5) lands on a fresh point: one turn.
        assert_eq!(recorded.step(Dir::SE), Ok(Progress::TurnOver));
        assert_eq!(recorded.record().to_string(), "8x10 red: 3");
        assert_eq!(recorded.to_move(), Side::Blue);
        // 7 goes back along the drawn line: refused, nothing changes.
        assert!(recorded.step(Dir::NW).is_err());
        assert_eq!(recorded.partial(), b"");
        // Blue: 0 from (5,6) to (5,5) lands on the centre line: bounce.
        assert_eq!(recorded.step(Dir::N), Ok(Progress::StepAgain));
        assert_eq!(recorded.partial(), b"0");
        assert_eq!(recorded.record().to_string(), "8x10 red: 3");
        assert!(recorded.take_back());
        assert!(
            !recorded.take_back(),
            "only the current turn can be taken back"
        );
        assert_eq!(
            recorded.game(),
            RecordedGame::from_record(&recorded.record())
                .unwrap()
                .game()
        );
    }

    #[test]
    fn a_goal_ends_the_game_and_its_turn_is_recorded() {
        // 2x2: (1,1) -3-> (2,2) bounce -5-> (1,3), red scores in blue's goal.
        let mut recorded = RecordedGame::new(field(2, 2), Side::Red);
        assert_eq!(recorded.step(Dir::SE), Ok(Progress::StepAgain));
        let outcome = Outcome {
            winner: Side::Red,
            reason: Reason::Goal,
        };
        assert_eq!(recorded.step(Dir::SW), Ok(Progress::GameOver(outcome)));
        assert_eq!(recorded.record().to_string(), "2x2 red: 35");
        assert_eq!(
            recorded.record_with_verdict().to_string(),
            "2x2 red: 35 # red goal"
        );
        assert_eq!(recorded.step(Dir::N), Err(IllegalStep::GameOver));
    }

    #[test]
    fn delivered_turns_are_judged_by_the_engine() {
        let mut recorded = RecordedGame::new(field(8, 10), Side::Red);
        assert_eq!(recorded.play_turn(b"3"), None);
        let outcome = recorded
            .play_turn(b"44")
            .expect("a step after the end is a fault");
        assert_eq!(
            outcome,
            Outcome {
                winner: Side::Red,
                reason: Reason::AfterEnd
            }
        );
        assert_eq!(recorded.record().to_string(), "8x10 red: 3/44");
        // The judge agrees with the record.
        let judged = RecordedGame::from_record(&recorded.record()).unwrap();
        assert_eq!(judged.outcome(), Some(outcome));
    }

    #[test]
    fn a_timeout_takes_back_the_unfinished_turn() {
        let mut recorded = RecordedGame::new(field(8, 10), Side::Red);
        recorded.play_turn(b"3");
        recorded.step(Dir::N).unwrap();
        let outcome = recorded.time_out().unwrap();
        assert_eq!(outcome.winner, Side::Red);
        assert_eq!(outcome.reason, Reason::Timeout);
        assert_eq!(recorded.record().to_string(), "8x10 red: 3");
        assert_eq!(
            recorded.record_with_verdict().to_string(),
            "8x10 red: 3 # red timeout"
        );
        let reloaded = RecordedGame::from_record(&recorded.record_with_verdict()).unwrap();
        assert_eq!(reloaded.outcome(), Some(outcome));
        assert_eq!(reloaded.lines(), recorded.lines());
    }

    #[test]
    fn a_forfeit_ends_the_game_with_its_verdict() {
        let mut recorded = RecordedGame::new(field(8, 10), Side::Red);
        recorded.step(Dir::SE).unwrap();
        recorded.step(Dir::N).unwrap();
        let outcome = Outcome {
            winner: Side::Red,
            reason: Reason::Disconnect,
        };
        assert_eq!(recorded.adjudicate(outcome), Some(outcome));
        assert_eq!(recorded.partial(), b"");
        assert_eq!(
            recorded.record_with_verdict().to_string(),
            "8x10 red: 3 # red disconnect"
        );
        let later = Outcome {
            winner: Side::Blue,
            reason: Reason::Timeout,
        };
        assert_eq!(
            recorded.adjudicate(later),
            Some(outcome),
            "the first verdict stands"
        );
    }

    #[test]
    fn lines_belong_to_the_side_that_drew_them() {
        let mut recorded = RecordedGame::new(field(8, 10), Side::Blue);
        recorded.play_turn(b"3");
        recorded.step(Dir::N).unwrap();
        let sides: Vec<Side> = recorded.lines().iter().map(|l| l.2).collect();
        assert_eq!(sides, [Side::Blue, Side::Red]);
        // A goal ignores the digits after it: the game-ending turn keeps only its real steps.
        let mut recorded = RecordedGame::new(field(2, 2), Side::Blue);
        recorded.play_turn(b"35777");
        let lines = recorded.lines();
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.2 == Side::Blue));
    }

    #[test]
    fn the_record_keeps_the_ending_turn_as_played_and_the_history_goes_back_past_it() {
        // A goal ignores the digits after it; the record keeps them.
        let mut recorded = RecordedGame::new(field(2, 2), Side::Blue);
        assert!(recorded.play_turn(b"35777").is_some());
        assert_eq!(recorded.record().to_string(), "2x2 blue: 35777");
        assert_eq!(
            recorded.after_turns(0),
            RecordedGame::new(field(2, 2), Side::Blue)
        );
        // A faulty turn that drew a step first: the position before it comes back whole.
        let mut recorded = RecordedGame::new(field(8, 10), Side::Red);
        recorded.play_turn(b"3");
        recorded.play_turn(b"09");
        assert_eq!(recorded.record().to_string(), "8x10 red: 3/09");
        let before = recorded.after_turns(1);
        assert_eq!(before.record().to_string(), "8x10 red: 3");
        assert_eq!(
            before.game(),
            RecordedGame::from_record(&before.record()).unwrap().game()
        );
        // An empty turn is recorded too, and a goal stepped here ends with the turn's steps.
        let mut recorded = RecordedGame::new(field(8, 10), Side::Red);
        recorded.play_turn(b"");
        assert_eq!(recorded.record().to_string(), "8x10 red: {}");
        assert_eq!(recorded.turns(), [RecordTurn::new(b"")]);
        let mut recorded = RecordedGame::new(field(2, 2), Side::Red);
        recorded.step(Dir::SE).unwrap();
        recorded.step(Dir::SW).unwrap();
        assert_eq!(recorded.turns(), [RecordTurn::new(b"35")]);
    }

    #[test]
    fn positions_after_some_turns_continue_the_same_game() {
        let mut recorded = RecordedGame::new(field(8, 10), Side::Red);
        recorded.play_turn(b"3");
        recorded.play_turn(b"2");
        recorded.step(Dir::S).unwrap();
        let start = recorded.after_turns(0);
        assert_eq!(start, RecordedGame::new(field(8, 10), Side::Red));
        let one = recorded.after_turns(1);
        assert_eq!(one.record().to_string(), "8x10 red: 3");
        assert_eq!(one.to_move(), Side::Blue);
        let all = recorded.after_turns(9);
        assert_eq!(all.record(), recorded.record());
        assert_eq!(all.partial(), b"");
    }
}
