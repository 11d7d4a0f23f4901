//! What the league page keeps in `localStorage`: the form as last typed, whether a league was
//! running, and each plan's results so far (keyed by the plan's text, so results never mix
//! between plans). Storage that is missing or refuses only loses the resumption.

use super::session::{Entrant, Plan, PlayerKind, add_player};

/// The form as last typed: `sizes<TAB>turn_ms<TAB>seed`, then `name<TAB>spec` per player.
pub const FORM_KEY: &str = "quadrille.league.form";
/// Set while a league runs: the next visit resumes it.
pub const RUNNING_KEY: &str = "quadrille.league.running";

/// The key of a plan's results ([`super::session::Session::stored`]).
pub fn results_key(plan: &Plan) -> String {
    format!("quadrille.league.results\n{plan}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The stored value of `key`, if any.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

/// Stores `value` under `key` (`None` removes it).
pub fn save(key: &str, value: Option<&str>) {
    if let Some(s) = storage() {
        let _ = match value {
            Some(v) => s.set_item(key, v),
            None => s.remove_item(key),
        };
    }
}

/// What the form holds, as typed.
#[derive(Clone, PartialEq)]
pub struct Form {
    pub players: Vec<Entrant>,
    pub sizes: String,
    pub turn_ms: String,
    pub seed: String,
}

impl Form {
    /// The form kept by the last visit, or a small default league.
    pub fn stored() -> Form {
        let mut form = Form {
            players: Vec::new(),
            sizes: "8x10".into(),
            turn_ms: "1000".into(),
            seed: "1".into(),
        };
        let Some(text) = load(FORM_KEY) else {
            for level in [1, 2] {
                add_player(&mut form.players, PlayerKind::Engine { level });
            }
            return form;
        };
        let mut lines = text.lines();
        if let Some([sizes, turn_ms, seed]) = lines
            .next()
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .and_then(|v| <[&str; 3]>::try_from(v).ok())
        {
            (form.sizes, form.turn_ms, form.seed) = (sizes.into(), turn_ms.into(), seed.into());
        }
        for line in lines {
            if let Some((name, spec)) = line.split_once('\t')
                && let Some(kind) = PlayerKind::from_spec(spec)
            {
                form.players.push(Entrant {
                    name: name.into(),
                    kind,
                });
            }
        }
        form
    }

    pub fn store(&self) {
        let mut text = format!("{}\t{}\t{}\n", self.sizes, self.turn_ms, self.seed);
        for p in &self.players {
            text.push_str(&format!("{}\t{}\n", p.name, p.kind.spec()));
        }
        save(FORM_KEY, Some(&text));
    }
}
