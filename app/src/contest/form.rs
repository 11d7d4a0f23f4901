//! The contest form as typed: entrants, limits and seed, to and from a [`Plan`].

use crate::contest::session::{Entrant, Limits, Plan};

/// What the form holds, as typed.
#[derive(Clone, PartialEq, Default)]
pub(crate) struct Form {
    pub(crate) entrants: Vec<Entrant>,
    pub(crate) time: String,
    pub(crate) memory: String,
    pub(crate) seed: String,
}

impl Form {
    pub(crate) fn new() -> Form {
        let limits = Limits::default();
        Form {
            entrants: Vec::new(),
            time: limits.time_secs.to_string(),
            memory: limits.memory_mib.to_string(),
            seed: "0".into(),
        }
    }

    pub(crate) fn of(plan: &Plan) -> Form {
        Form {
            entrants: plan.entrants.clone(),
            time: plan.limits.time_secs.to_string(),
            memory: plan.limits.memory_mib.to_string(),
            seed: plan.seed.to_string(),
        }
    }

    pub(crate) fn plan(&self) -> Result<Plan, String> {
        let number = |text: &str, what: &str| {
            text.trim()
                .parse::<f64>()
                .map_err(|_| format!("the {what} limit {text:?} is not a number"))
        };
        Ok(Plan {
            entrants: self.entrants.clone(),
            limits: Limits {
                time_secs: number(&self.time, "time")?,
                memory_mib: number(&self.memory, "memory")?,
            },
            seed: self
                .seed
                .trim()
                .parse()
                .map_err(|_| format!("the seed {:?} is not a whole number", self.seed))?,
        })
    }
}
