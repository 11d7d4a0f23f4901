//! Timing named stages and printing one summary line for each.

use std::fmt;
use std::time::{Duration, Instant};

use anyhow::Result;

/// The stages run so far, with their durations.
#[derive(Debug, Default)]
pub struct Report {
    rows: Vec<(String, Duration, bool)>,
    started: Option<Instant>,
}

impl Report {
    pub fn new() -> Self {
        Self {
            rows: Vec::new(),
            started: Some(Instant::now()),
        }
    }

    /// Runs `body` as stage `name`, printing a banner before and a one-line summary after.
    pub fn stage(
        &mut self,
        name: &str,
        what: &str,
        body: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        println!("\n==> {name}: {what}");
        let start = Instant::now();
        let result = body();
        let elapsed = start.elapsed();
        let ok = result.is_ok();
        println!("{}", summary_line(name, elapsed, ok));
        self.rows.push((name.to_owned(), elapsed, ok));
        result.map_err(|err| err.context(format!("stage `{name}` failed")))
    }

    /// Prints every stage's line again, then the total.
    pub fn print_summary(&self) {
        println!("\nsummary:");
        for (name, elapsed, ok) in &self.rows {
            println!("{}", summary_line(name, *elapsed, *ok));
        }
        let total = self.started.map(|s| s.elapsed()).unwrap_or_default();
        let failed = self.rows.iter().filter(|(_, _, ok)| !ok).count();
        match failed {
            0 => println!("all {} stages passed in {}", self.rows.len(), Human(total)),
            _ => println!("FAILED after {} ({failed} stage failed)", Human(total)),
        }
    }
}

fn summary_line(name: &str, elapsed: Duration, ok: bool) -> String {
    let verdict = if ok { "ok" } else { "FAILED" };
    format!("[{verdict:>6}] {name:<8} {:>9}", Human(elapsed).to_string())
}

/// A duration as people read it: `0.4s`, `12.3s`, `4m 05s`.
pub struct Human(pub Duration);

impl fmt::Display for Human {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.0.as_secs_f64();
        if secs < 60.0 {
            write!(f, "{secs:.1}s")
        } else {
            let whole = self.0.as_secs();
            write!(f, "{}m {:02}s", whole / 60, whole % 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(Human(Duration::from_millis(420)).to_string(), "0.4s");
        assert_eq!(Human(Duration::from_millis(59_940)).to_string(), "59.9s");
        assert_eq!(Human(Duration::from_secs(245)).to_string(), "4m 05s");
    }

    #[test]
    fn a_failing_stage_is_reported_and_named() {
        let mut report = Report::new();
        report.stage("one", "passes", || Ok(())).unwrap();
        let err = report
            .stage("two", "fails", || anyhow::bail!("boom"))
            .unwrap_err();
        assert_eq!(format!("{err:#}"), "stage `two` failed: boom");
        assert_eq!(
            report.rows.iter().map(|r| r.2).collect::<Vec<_>>(),
            [true, false]
        );
        assert!(summary_line("two", Duration::from_secs(2), false).starts_with("[FAILED] two"));
    }
}
