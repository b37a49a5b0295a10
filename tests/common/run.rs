//! Driving the model along its canonical run: the first urgent action, else time passing to
//! the next deadline.

use podcheck_model::state::State;
use podcheck_model::{time, Action, Cluster};

/// The canonical run's next step from `s`: the first urgent action, else a tick to the next
/// deadline; `None` when nothing is left to happen.
pub fn next_step(m: &Cluster, s: &State) -> Option<Action> {
    let mut acts = Vec::new();
    m.urgent_actions(s, &mut acts);
    match acts.first() {
        Some(a) => Some(*a),
        None => time::next_deadline(m, s).map(Action::Tick),
    }
}
