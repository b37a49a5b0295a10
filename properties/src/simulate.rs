//! Swarm checking: random walks through a scenario's state space instead of the exhaustive
//! search, so that many machines can each run a share of the walks (a *shard*) and their
//! findings can be merged.
//!
//! # What a walk is
//!
//! A walk starts in an initial state of the model and takes up to `depth` steps. Each step is
//! an action chosen uniformly among those **enabled** in the current state: among the model's
//! [`Model::actions`], the ones whose [`Model::next_state`] gives a state within the model's
//! boundary (as in the exhaustive search, [`crate::explore`]). A walk ends early in a state
//! where no action is enabled.
//!
//! # Determinism
//!
//! The choices come from [`rand_chacha::ChaCha8Rng`] seeded with the seed, on the ChaCha
//! stream numbered by the shard's index ([`shard_rng`]): the same (seed, shard index, walks,
//! depth) give the same walks, and so the same result, on every machine and every run of the
//! same podcheck build. Different shards of one seed walk independent streams.
//!
//! # What a simulation may say
//!
//! A walk visits some of the reachable states, so a simulation can only report what it
//! **found**, never that something is absent:
//!
//! - `always`: a visited state that breaks it gives `violated`, with the walk's prefix up to
//!   that state as the trace; otherwise `incomplete`, never `holds`.
//! - `step`: a walked transition (state, action, next state) that breaks it gives `violated`,
//!   the trace ending with that step; otherwise `incomplete`, never `holds`.
//! - `sometimes`: a visited state that has it gives `holds`, with its witness prefix;
//!   otherwise `incomplete`, never `violated`.
//! - `leads_to`: always `incomplete`. A counterexample is an infinite fair run (or one that
//!   stops where no fair component acts); a walk cut at a depth shows neither.
//!
//! For each property the shortest trace found is kept; of equally short ones, the one of the
//! lowest walk number. A walk stops early once it cannot improve any trace (every property
//! already has one no longer than the walk's next step would give), so later walks spend
//! their steps only where they can still find something.
//!
//! Every trace is replayed through the model ([`confirm`]) before it is reported: each action
//! enabled, each state what its action gives, and the last state (or step) breaking, or
//! having, the property.

use crate::catalogue::{Kind, PropertyDef};
use crate::check::{expectation, selected};
use crate::explore::{fingerprint, Run};
use podcheck_model::spec::{Scenario, Verdict};
use podcheck_model::{Action, Cluster, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use stateright::Model;
use std::collections::HashSet;

/// One shard of a swarm run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// The swarm's seed: the same for every shard of one run.
    pub seed: u64,
    /// This shard's index (its ChaCha stream).
    pub shard: u64,
    /// Walks in this shard.
    pub walks: u64,
    /// Steps per walk at most.
    pub depth: usize,
}

/// Where a trace was found: the walk's number in its shard and the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub walk: u64,
    pub run: Run<Action>,
}

/// The verdict of one property in one shard.
#[derive(Clone, Debug)]
pub struct SimProperty {
    pub def: PropertyDef,
    /// `violated` (an `always` or `step` counterexample), `holds` (a `sometimes` witness), or
    /// `incomplete`.
    pub verdict: Verdict,
    pub expected: Verdict,
    pub expected_source: String,
    /// The shortest trace found, replayed.
    pub found: Option<Found>,
}

/// The result of one shard.
#[derive(Clone, Debug)]
pub struct SimResult {
    pub scenario: Scenario,
    pub options: SimOptions,
    /// States visited by the walks, the initial state of each walk included (a state
    /// visited twice counts twice).
    pub states_visited: u64,
    /// Distinct states among them (by the exploration's fingerprint).
    pub distinct_states: u64,
    /// Walks that ended in a state where no action is enabled, before the depth.
    pub walks_to_terminal: u64,
    pub properties: Vec<SimProperty>,
}

/// The random source of a shard: ChaCha8 seeded with `seed`, on stream `shard`.
pub fn shard_rng(seed: u64, shard: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(shard);
    rng
}

/// The verdict a trace gives a property of this kind: `violated` for a counterexample of an
/// `always` or `step` property, `holds` for a witness of a `sometimes` one. None for
/// `leads_to`: a simulation has no trace for it.
pub fn found_verdict(kind: Kind) -> Option<Verdict> {
    match kind {
        Kind::Always(_) | Kind::Step(_) => Some(Verdict::Violated),
        Kind::Sometimes(_) => Some(Verdict::Holds),
        Kind::LeadsTo { .. } => None,
    }
}

/// Replays a trace through the model and checks that it is what it claims: for an `always`
/// property its last state breaks it, for a `sometimes` one its last state has it, for a
/// `step` one its last step breaks it. Returns the verdict the trace gives.
pub fn confirm(m: &Cluster, def: &PropertyDef, run: &Run<Action>) -> Result<Verdict, String> {
    let states = run
        .states(m)
        .map_err(|e| format!("{}: the trace does not replay: {e}", def.name))?;
    let last = states.last().expect("a run has its initial state");
    let ok = match def.kind {
        Kind::Always(c) => !c(m, last),
        Kind::Sometimes(c) => c(m, last),
        Kind::Step(c) => {
            let n = states.len();
            if n < 2 {
                return Err(format!("{}: a step trace has no step", def.name));
            }
            !c(m, &states[n - 2], &run.actions[n - 2], last)
        }
        Kind::LeadsTo { .. } => {
            return Err(format!(
                "{}: a simulation has no traces of leads_to properties",
                def.name
            ))
        }
    };
    if !ok {
        return Err(format!(
            "{}: the trace's last {} does not {} it on replay",
            def.name,
            if def.kind.is_step() { "step" } else { "state" },
            if def.kind.is_sometimes() {
                "have"
            } else {
                "break"
            }
        ));
    }
    Ok(found_verdict(def.kind).expect("not a leads_to"))
}

/// Runs one shard of random walks on every selected property of the scenario
/// ([`crate::check::selected`]).
pub fn simulate(scenario: &Scenario, opts: &SimOptions) -> Result<SimResult, String> {
    scenario.validate()?;
    let defs = selected(scenario)?;
    simulate_with(scenario, &defs, opts)
}

/// Runs one shard of random walks on the given properties.
pub fn simulate_with(
    scenario: &Scenario,
    defs: &[PropertyDef],
    opts: &SimOptions,
) -> Result<SimResult, String> {
    scenario.validate()?;
    if opts.depth == 0 {
        return Err("a walk needs a depth of at least 1".into());
    }
    let m = Cluster::new(scenario.clone(), Vec::new());
    let inits: Vec<(usize, State)> = m
        .init_states()
        .into_iter()
        .enumerate()
        .filter(|(_, s)| m.within_boundary(s))
        .collect();
    if inits.is_empty() {
        return Err(format!("{}: the model has no initial state", scenario.name));
    }
    let mut rng = shard_rng(opts.seed, opts.shard);
    // Per property: the length of its best trace so far, and the trace.
    let mut best: Vec<Option<(usize, Found)>> = vec![None; defs.len()];
    // Whether a property can still get a trace shorter than `len`.
    let improvable = |best: &[Option<(usize, Found)>], i: usize, len: usize| {
        !defs[i].kind.is_leads_to() && best[i].as_ref().is_none_or(|(l, _)| len < *l)
    };
    let mut visited = 0u64;
    let mut distinct: HashSet<u64> = HashSet::new();
    let mut to_terminal = 0u64;
    let mut enabled: Vec<Action> = Vec::new();
    let mut path: Vec<Action> = Vec::new();
    for walk in 0..opts.walks {
        let (init, first) = &inits[rng.random_range(0..inits.len())];
        let mut state = first.clone();
        path.clear();
        visited += 1;
        distinct.insert(fingerprint(&state));
        for (i, d) in defs.iter().enumerate() {
            let hit = match d.kind {
                Kind::Always(c) => !c(&m, &state),
                Kind::Sometimes(c) => c(&m, &state),
                _ => false,
            };
            if hit && improvable(&best, i, 0) {
                let run = Run {
                    init: *init,
                    actions: Vec::new(),
                };
                best[i] = Some((0, Found { walk, run }));
            }
        }
        for _ in 0..opts.depth {
            // The trace a finding in the next step would give.
            let len = path.len() + 1;
            if !(0..defs.len()).any(|i| improvable(&best, i, len)) {
                break;
            }
            enabled.clear();
            m.actions(&state, &mut enabled);
            // Draw without replacement until an enabled action turns up: the first one is
            // uniform among the enabled ones.
            let mut step = None;
            while !enabled.is_empty() {
                let a = enabled.swap_remove(rng.random_range(0..enabled.len()));
                if let Some(next) = m.next_state(&state, a) {
                    if m.within_boundary(&next) {
                        step = Some((a, next));
                        break;
                    }
                }
            }
            let Some((action, next)) = step else {
                to_terminal += 1;
                break;
            };
            path.push(action);
            visited += 1;
            distinct.insert(fingerprint(&next));
            for (i, d) in defs.iter().enumerate() {
                if !improvable(&best, i, len) {
                    continue;
                }
                let hit = match d.kind {
                    Kind::Always(c) => !c(&m, &next),
                    Kind::Sometimes(c) => c(&m, &next),
                    Kind::Step(c) => !c(&m, &state, &action, &next),
                    Kind::LeadsTo { .. } => false,
                };
                if hit {
                    let run = Run {
                        init: *init,
                        actions: path.clone(),
                    };
                    best[i] = Some((len, Found { walk, run }));
                }
            }
            state = next;
        }
    }
    let mut properties = Vec::new();
    for (d, b) in defs.iter().zip(best) {
        let (expected, expected_source) = expectation(scenario, d);
        let (verdict, found) = match b {
            Some((_, f)) => (confirm(&m, d, &f.run)?, Some(f)),
            None => (Verdict::Incomplete, None),
        };
        properties.push(SimProperty {
            def: *d,
            verdict,
            expected,
            expected_source,
            found,
        });
    }
    Ok(SimResult {
        scenario: scenario.clone(),
        options: *opts,
        states_visited: visited,
        distinct_states: distinct.len() as u64,
        walks_to_terminal: to_terminal,
        properties,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use podcheck_model::catalogue;

    fn opts(seed: u64, shard: u64) -> SimOptions {
        SimOptions {
            seed,
            shard,
            walks: 50,
            depth: 60,
        }
    }

    #[test]
    fn a_shard_is_deterministic_and_shards_differ() {
        let s = catalogue::find("deployment-partition").unwrap();
        let a = simulate(&s, &opts(7, 0)).unwrap();
        let b = simulate(&s, &opts(7, 0)).unwrap();
        let c = simulate(&s, &opts(7, 1)).unwrap();
        let runs = |r: &SimResult| -> Vec<Option<Found>> {
            r.properties.iter().map(|p| p.found.clone()).collect()
        };
        assert_eq!(runs(&a), runs(&b));
        assert_eq!(a.states_visited, b.states_visited);
        assert_eq!(a.distinct_states, b.distinct_states);
        // Another stream walks elsewhere: not the same sequence of states.
        assert!(
            (a.states_visited, a.distinct_states, runs(&a))
                != (c.states_visited, c.distinct_states, runs(&c))
        );
    }

    #[test]
    fn never_holds_for_always_nor_violated_for_sometimes() {
        for name in [
            "healthy",
            "deployment-partition",
            "crash-loop",
            "statefulset-force-delete",
        ] {
            let s = catalogue::find(name).unwrap();
            let r = simulate(&s, &opts(1, 0)).unwrap();
            for p in &r.properties {
                match p.def.kind {
                    Kind::Always(_) | Kind::Step(_) => assert_ne!(p.verdict, Verdict::Holds),
                    Kind::Sometimes(_) => assert_ne!(p.verdict, Verdict::Violated),
                    Kind::LeadsTo { .. } => assert_eq!(p.verdict, Verdict::Incomplete),
                }
                assert_eq!(p.found.is_some(), p.verdict != Verdict::Incomplete);
                // Every reported trace replays and gives its verdict.
                if let Some(f) = &p.found {
                    let m = Cluster::new(s.clone(), Vec::new());
                    assert_eq!(confirm(&m, &p.def, &f.run), Ok(p.verdict), "{}", p.def.name);
                }
            }
        }
    }

    #[test]
    fn confirm_rejects_a_trace_that_does_not_break_the_property() {
        let s = catalogue::find("statefulset-force-delete").unwrap();
        let m = Cluster::new(s.clone(), Vec::new());
        let r = simulate(&s, &opts(3, 0)).unwrap();
        let p = r
            .properties
            .iter()
            .find(|p| p.def.name == "statefulset_at_most_one")
            .unwrap();
        let found = p.found.as_ref().expect("found in 50 walks");
        assert_eq!(confirm(&m, &p.def, &found.run), Ok(Verdict::Violated));
        // One step short: the last state does not break it (the trace is the first state
        // of its walk that does).
        let mut short = found.run.clone();
        short.actions.pop();
        assert!(confirm(&m, &p.def, &short).is_err());
        // An action that is not enabled where it is taken does not replay.
        let mut wrong = found.run.clone();
        wrong.actions.swap(0, found.run.actions.len() - 1);
        assert!(confirm(&m, &p.def, &wrong).is_err());
    }
}
