//! The independent cross-check: Stateright's own BFS checker over the same model, which must
//! find the same number of unique states and the same `always` and `sometimes` verdicts as
//! [`crate::explore`]. Only complete runs are compared (Stateright's bounds are of another
//! kind). `leads_to` and `step` properties have no Stateright form and are not compared.
//!
//! The Stateright form of the properties ([`to_fn`]) and the model that carries them
//! ([`model`], also the model every trace is replayed through) are here.

use crate::catalogue::{Kind, PropertyDef};
use crate::result::PropertyResult;
use podcheck_input::spec::{Scenario, Verdict};
use podcheck_model::{Cluster, PropertyFn, State};
use stateright::{Checker, Expectation, Model};

/// Name of the sentinel property a Stateright run carries so that it explores everything.
pub const SENTINEL: &str = "(explore the whole state space)";

/// The Stateright form of a state property: only `always` and `sometimes` have one.
/// A `leads_to` is not an `always` of its P, and a `step` property reads transitions.
pub fn to_fn(def: &PropertyDef) -> Option<PropertyFn> {
    let (expectation, condition) = match def.kind {
        Kind::Always(c) => (Expectation::Always, c),
        Kind::Sometimes(c) => (Expectation::Sometimes, c),
        Kind::LeadsTo { .. } | Kind::Within { .. } | Kind::Step { .. } => return None,
    };
    Some(PropertyFn {
        name: def.name,
        expectation,
        condition,
    })
}

fn sentinel(_: &Cluster, _: &State) -> bool {
    true
}

/// The model of a scenario carrying the `always` and `sometimes` properties among `defs`
/// (the others have no Stateright form and are left out), and with `with_sentinel` a property
/// that is never discovered, so that a Stateright BFS explores everything.
pub fn model(scenario: &Scenario, defs: &[PropertyDef], with_sentinel: bool) -> Cluster {
    let mut props: Vec<PropertyFn> = defs.iter().filter_map(to_fn).collect();
    if with_sentinel {
        props.push(PropertyFn {
            name: SENTINEL,
            expectation: Expectation::Always,
            condition: sentinel,
        });
    }
    Cluster::new(scenario.clone(), props)
}

/// What Stateright found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaterightRun {
    pub unique_states: usize,
    /// The verdict of each `always` and `sometimes` property, by name.
    pub verdicts: Vec<(&'static str, Verdict)>,
}

/// Runs Stateright's BFS with `threads` threads on the scenario's model carrying the `always`
/// and `sometimes` properties of `defs`, plus a sentinel that keeps it going to the end.
pub fn stateright(scenario: &Scenario, defs: &[PropertyDef], threads: usize) -> StaterightRun {
    stateright_with(scenario, defs, threads, true, true)
}

/// [`stateright`], with `deferred_gone` as [`crate::CheckOptions::deferred_gone`] and
/// `events_as_read` as [`crate::CheckOptions::events_as_read`].
pub fn stateright_with(
    scenario: &Scenario,
    defs: &[PropertyDef],
    threads: usize,
    deferred_gone: bool,
    events_as_read: bool,
) -> StaterightRun {
    let mut m = model(scenario, defs, true).with_events_as_read(events_as_read);
    m.ctx.deferred_gone &= deferred_gone;
    let checker = m.checker().threads(threads.max(1)).spawn_bfs().join();
    let verdicts = defs
        .iter()
        .filter_map(to_fn)
        .map(|f| {
            let found = checker.discovery(f.name).is_some();
            let verdict = match (f.expectation, found) {
                (Expectation::Always, true) | (Expectation::Sometimes, false) => Verdict::Violated,
                _ => Verdict::Holds,
            };
            (f.name, verdict)
        })
        .collect();
    StaterightRun {
        unique_states: checker.unique_state_count(),
        verdicts,
    }
}

/// Compares a complete run of ours with Stateright's; the error lists every difference.
pub fn compare(
    unique_states: usize,
    ours: &[PropertyResult],
    theirs: &StaterightRun,
) -> Result<(), String> {
    let mut diffs = Vec::new();
    if unique_states != theirs.unique_states {
        diffs.push(format!(
            "{unique_states} unique states here, {} by Stateright",
            theirs.unique_states
        ));
    }
    for (name, verdict) in &theirs.verdicts {
        match ours.iter().find(|p| p.def.name == *name) {
            Some(p) if p.verdict == *verdict => {}
            Some(p) => diffs.push(format!(
                "{name}: {} here, {} by Stateright",
                p.verdict.as_str(),
                verdict.as_str()
            )),
            None => diffs.push(format!("{name}: not judged here")),
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("; "))
    }
}

/// Checks `model`'s Stateright unique-state count against ours, for any model.
pub fn unique_states<M>(model: M, threads: usize) -> usize
where
    M: Model + Send + Sync + 'static,
    M::State: std::hash::Hash + Send + Sync + Clone + PartialEq + std::fmt::Debug + 'static,
    M::Action: Clone + PartialEq + std::fmt::Debug,
{
    model
        .checker()
        .threads(threads.max(1))
        .spawn_bfs()
        .join()
        .unique_state_count()
}
