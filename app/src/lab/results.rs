//! A circuit's results log (TESTF1's `<circuit>.log`): the lines `engine::racetrack::log::line`
//! writes, kept as text so what the browser stores is exactly what it exports, and ranked by
//! the spec's §5 order (`engine::racetrack::pools::LapOutcome::rank_cmp`).

use std::cmp::Ordering;

use engine::racetrack::pools::LapOutcome;

/// One line of the log, split into its fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub pilot: String,
    pub file: String,
    /// `valid`, or the fault and where (`collision at move 12`).
    pub verdict: String,
    /// The file's moves, or `-`.
    pub moves: String,
    /// The time as logged (to the hundredth), valid laps only.
    pub time: Option<String>,
    /// The average speed as logged (to a tenth of km/h), valid laps only.
    pub speed: Option<String>,
    pub date: String,
}

impl Entry {
    /// Splits a log line; `None` when it does not have the seven fields.
    pub fn parse(line: &str) -> Option<Entry> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [pilot, file, verdict, moves, time, speed, date] = fields.as_slice() else {
            return None;
        };
        let figure = |s: &str| (s != "-").then(|| s.to_string());
        Some(Entry {
            pilot: pilot.to_string(),
            file: file.to_string(),
            verdict: verdict.to_string(),
            moves: moves.to_string(),
            time: figure(time),
            speed: figure(speed),
            date: date.to_string(),
        })
    }

    /// Whether the lap was valid.
    pub fn is_valid(&self) -> bool {
        self.verdict == "valid"
    }

    /// The lap as the ranking sees it: the logged figures (a valid line whose figures do not
    /// read as numbers ranks as invalid rather than crashing the table).
    pub fn outcome(&self) -> LapOutcome {
        let number = |s: &Option<String>| s.as_deref().and_then(|s| s.parse::<f64>().ok());
        match (self.is_valid(), number(&self.time), number(&self.speed)) {
            (true, Some(time), Some(speed)) => LapOutcome::Valid { time, speed },
            _ => LapOutcome::Invalid,
        }
    }
}

/// A ranked entry: its place (shared when tied, spec §5) and the entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    /// 1-based; `None` for invalid laps, which take no place.
    pub place: Option<usize>,
    pub entry: Entry,
}

/// The log of one circuit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultsLog {
    lines: Vec<String>,
}

impl ResultsLog {
    /// Reads a stored log (one entry per line, any line ending; blank lines skipped).
    pub fn from_text(text: &str) -> ResultsLog {
        ResultsLog {
            lines: text
                .lines()
                .map(|l| l.trim_end_matches('\r'))
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect(),
        }
    }

    /// The log file's text: one line each, CRLF-terminated like the original tool's files.
    pub fn to_text(&self) -> String {
        self.lines.iter().map(|l| format!("{l}\r\n")).collect()
    }

    /// Appends a line (from `JudgedLap::log_line`).
    pub fn push(&mut self, line: String) {
        self.lines.push(line);
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Every readable entry in §5 order (valid before invalid, lower time, higher speed); equal
    /// laps share a place and keep the log's order. Lines that do not split into the seven
    /// fields are skipped.
    pub fn ranking(&self) -> Vec<Ranked> {
        let mut entries: Vec<(Entry, LapOutcome)> = self
            .lines
            .iter()
            .filter_map(|l| Entry::parse(l))
            .map(|e| {
                let o = e.outcome();
                (e, o)
            })
            .collect();
        entries.sort_by(|a, b| a.1.rank_cmp(b.1));
        let mut ranked = Vec::with_capacity(entries.len());
        let mut place = 0;
        let mut previous: Option<LapOutcome> = None;
        for (i, (entry, outcome)) in entries.into_iter().enumerate() {
            if previous.is_none_or(|p| p.rank_cmp(outcome) != Ordering::Equal) {
                place = i + 1;
            }
            previous = Some(outcome);
            ranked.push(Ranked {
                place: outcome.is_valid().then_some(place),
                entry,
            });
        }
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(pilot: &str, verdict: &str, time: &str, speed: &str) -> String {
        format!("{pilot}\t{pilot}.f1\t{verdict}\t50\t{time}\t{speed}\t2026-11-29 22:00:00")
    }

    #[test]
    fn ranks_valid_by_time_then_speed_and_ties_share_a_place() {
        let mut log = ResultsLog::default();
        log.push(line("crash", "collision at move 3", "-", "-"));
        log.push(line("slow", "valid", "60.00", "100.0"));
        log.push(line("fast", "valid", "40.50", "150.0"));
        log.push(line("twin-a", "valid", "45.00", "120.0"));
        log.push(line("twin-b", "valid", "45.00", "120.0"));
        log.push(line("quick", "valid", "45.00", "130.0"));
        let ranked: Vec<(Option<usize>, String)> = log
            .ranking()
            .into_iter()
            .map(|r| (r.place, r.entry.pilot))
            .collect();
        let expected = [
            (Some(1), "fast"),
            (Some(2), "quick"),
            (Some(3), "twin-a"),
            (Some(3), "twin-b"),
            (Some(5), "slow"),
            (None, "crash"),
        ];
        let expected: Vec<(Option<usize>, String)> =
            expected.iter().map(|(p, n)| (*p, n.to_string())).collect();
        assert_eq!(ranked, expected);
    }

    #[test]
    fn text_round_trips_and_garbage_lines_are_skipped() {
        let mut log = ResultsLog::default();
        log.push(line("a", "valid", "1.50", "36.0"));
        log.push(line("b", "syntax at line 4", "-", "-"));
        let text = log.to_text();
        assert!(text.ends_with("\r\n"));
        let back = ResultsLog::from_text(&text);
        assert_eq!(back, log);
        let noisy = ResultsLog::from_text(&format!("{text}\n\nnot a log line\n"));
        assert_eq!(noisy.len(), 3);
        assert_eq!(noisy.ranking().len(), 2);
        let b = &noisy.ranking()[1].entry;
        assert_eq!(
            (b.time.as_deref(), b.verdict.as_str()),
            (None, "syntax at line 4")
        );
    }

    #[test]
    fn a_valid_line_with_unreadable_figures_ranks_last() {
        let mut log = ResultsLog::default();
        log.push(line("odd", "valid", "soon", "fast"));
        log.push(line("ok", "valid", "9.00", "10.0"));
        let ranked = log.ranking();
        assert_eq!(ranked[0].entry.pilot, "ok");
        assert_eq!(ranked[1].place, None);
    }
}
