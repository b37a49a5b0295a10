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
//! - `leads_to` (`P ~> Q`): a walk that reaches a state where a run may stop (no fair
//!   component has an enabled action, [`quiescent`]; the exhaustive check's
//!   [`crate::liveness::Ends::Quiescence`]) after a state where `P` holds, with `Q` false in
//!   every state from there on, gives `violated`: the run that stops there is a fair run on
//!   which `P` is never followed by `Q`. Otherwise `incomplete`, never `holds`. A
//!   counterexample that is an infinite fair cycle (a lasso) is not looked for: a walk cut at
//!   a depth cannot tell a fair cycle from a long run.
//!
//! For each property the shortest trace found is kept; of equally short ones, the one of the
//! lowest walk number. A walk stops early once it cannot improve any trace (every property
//! already has one no longer than the walk's next step would give): it takes no step that
//! could not change the result.
//!
//! Every trace is replayed through the model ([`confirm`]) before it is reported: each action
//! enabled, each state what its action gives, and the last state (or step) breaking, or
//! having, the property.
//!
//! # After a bound
//!
//! [`walk_incomplete`] walks a scenario whose exhaustive check stopped at a bound (its time
//! budget, the memory bound, `max_states`) and gives each property the check left
//! `incomplete` what the walks found, by the rules above (`check -f --simulate`): a violation
//! found is a real counterexample, replayed; nothing found leaves the property `incomplete`.

use crate::catalogue::{Kind, PropertyDef};
use crate::check::ScenarioResult;
use crate::check::{fair_actor, seconds_of, selected};
use crate::explore::{fingerprint, Run};
use crate::result::{expectation, LassoPath};
use podcheck_input::spec::{Scenario, Verdict};
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
    /// For a `leads_to` counterexample: the index of the state (0 = the initial state) where
    /// `P` holds, with `Q` false from there to the end.
    pub p_index: Option<usize>,
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

/// The verdict a trace gives a property: `violated` for a counterexample of an `always`,
/// `step` or `leads_to` property, `holds` for a witness of a `sometimes` one.
pub fn found_verdict(kind: Kind) -> Verdict {
    match kind {
        Kind::Always(_) | Kind::Step { .. } | Kind::LeadsTo { .. } | Kind::Within { .. } => {
            Verdict::Violated
        }
        Kind::Sometimes(_) => Verdict::Holds,
    }
}

/// Whether a run may stop in this state: no fair actor has an enabled action there (as in
/// the exhaustive check's `leads_to`, [`crate::liveness::Ends::Quiescence`]; a state where
/// nothing at all is enabled is one).
pub fn quiescent(m: &Cluster, s: &State) -> bool {
    let mut listed = Vec::new();
    m.actions(s, &mut listed);
    !listed.into_iter().any(|a| {
        fair_actor(&a).is_some() && m.next_state(s, a).is_some_and(|n| m.within_boundary(&n))
    })
}

/// Replays a trace through the model and checks that it is what it claims, and returns the
/// verdict it gives ([`found_verdict`]):
///
/// - `always`: its last state breaks the property;
/// - `sometimes`: its last state has it;
/// - `step`: its last step breaks it;
/// - `leads_to`: `P` holds in state `p_index`, `Q` holds in no state from there to the end,
///   and the last state is one where a run may stop ([`quiescent`]): the run that stops there
///   is a fair run on which `P` is never followed by `Q`.
pub fn confirm(
    m: &Cluster,
    def: &PropertyDef,
    run: &Run<Action>,
    p_index: Option<usize>,
) -> Result<Verdict, String> {
    let states = run
        .states(m)
        .map_err(|e| format!("{}: the trace does not replay: {e}", def.name))?;
    let last = states.last().expect("a run has its initial state");
    let fail = |what: &str| Err(format!("{}: {what} on replay", def.name));
    match (def.kind, p_index) {
        (Kind::LeadsTo { p, q }, Some(i)) => {
            if i >= states.len() || !p(m, &states[i]) {
                return fail(&format!("P does not hold in state {i}"));
            }
            if let Some(j) = (i..states.len()).find(|&j| q(m, &states[j])) {
                return fail(&format!("Q holds in state {j}"));
            }
            if !quiescent(m, last) {
                return fail("a fair component can still act in the last state");
            }
        }
        (Kind::Within { p, q, seconds }, Some(i)) => {
            if i >= states.len() || !p(m, &states[i]) {
                return fail(&format!("P does not hold in state {i}"));
            }
            if let Some(j) = (i..states.len()).find(|&j| q(m, &states[j])) {
                return fail(&format!("Q holds in state {j}"));
            }
            let t = seconds(m);
            let elapsed: u64 = run.actions[i..].iter().map(seconds_of).sum();
            if elapsed <= t && !quiescent(m, last) {
                return fail(&format!(
                    "only {elapsed} s of the {t} s deadline pass, and a fair component can still act"
                ));
            }
        }
        (Kind::LeadsTo { .. } | Kind::Within { .. }, None) => {
            return Err(format!(
                "{}: a leads_to trace needs the index of its P state",
                def.name
            ))
        }
        (_, Some(_)) => return Err(format!("{}: only a leads_to trace has a P state", def.name)),
        (Kind::Always(c), None) => {
            if c(m, last) {
                return fail("the trace's last state does not break it");
            }
        }
        (Kind::Sometimes(c), None) => {
            if !c(m, last) {
                return fail("the trace's last state does not have it");
            }
        }
        (Kind::Step { condition: c, .. }, None) => {
            let n = states.len();
            if n < 2 {
                return Err(format!("{}: a step trace has no step", def.name));
            }
            if c(m, &states[n - 2], &run.actions[n - 2], last) {
                return fail("the trace's last step does not break it");
            }
        }
    }
    Ok(found_verdict(def.kind))
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
        best[i].as_ref().is_none_or(|(l, _)| len < *l)
    };
    let keep = |best: &mut [Option<(usize, Found)>], i, walk, init, path: &[Action], p_index| {
        let run = Run {
            init,
            actions: path.to_vec(),
        };
        best[i] = Some((path.len(), Found { walk, run, p_index }));
    };
    let mut visited = 0u64;
    let mut distinct: HashSet<u64> = HashSet::new();
    let mut to_terminal = 0u64;
    let mut enabled: Vec<Action> = Vec::new();
    let mut path: Vec<Action> = Vec::new();
    // Per `leads_to` property, in this walk: the first state where P holds with no Q since.
    let mut pending: Vec<Option<usize>> = vec![None; defs.len()];
    for walk in 0..opts.walks {
        let (init, first) = &inits[rng.random_range(0..inits.len())];
        let init = *init;
        let mut state = first.clone();
        path.clear();
        pending.fill(None);
        loop {
            // State number k of the walk: its state properties.
            let k = path.len();
            visited += 1;
            distinct.insert(fingerprint(&state));
            for (i, d) in defs.iter().enumerate() {
                if !improvable(&best, i, k) {
                    continue;
                }
                match d.kind {
                    Kind::Always(c) if !c(&m, &state) => {
                        keep(&mut best, i, walk, init, &path, None)
                    }
                    Kind::Sometimes(c) if c(&m, &state) => {
                        keep(&mut best, i, walk, init, &path, None)
                    }
                    Kind::LeadsTo { p, q } | Kind::Within { p, q, .. } => {
                        if q(&m, &state) {
                            pending[i] = None;
                        } else if pending[i].is_none() && p(&m, &state) {
                            pending[i] = Some(k);
                        }
                        // A deadline that has passed with P and no Q since: a violation.
                        if let (Kind::Within { seconds, .. }, Some(from)) = (d.kind, pending[i]) {
                            let elapsed: u64 = path[from..].iter().map(seconds_of).sum();
                            if elapsed > seconds(&m) {
                                keep(&mut best, i, walk, init, &path, Some(from));
                                pending[i] = None;
                            }
                        }
                    }
                    _ => {}
                }
            }
            // A run may stop here: then a P with no Q since is never followed by Q.
            let owed: Vec<(usize, usize)> = pending
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.filter(|_| improvable(&best, i, k)).map(|p| (i, p)))
                .collect();
            if !owed.is_empty() && quiescent(&m, &state) {
                for (i, p) in owed {
                    keep(&mut best, i, walk, init, &path, Some(p));
                }
            }
            // The next step would give traces of k + 1 steps: is one of them still wanted?
            if k == opts.depth || !(0..defs.len()).any(|i| improvable(&best, i, k + 1)) {
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
            for (i, d) in defs.iter().enumerate() {
                if let Kind::Step { condition: c, .. } = d.kind {
                    if improvable(&best, i, k + 1) && !c(&m, &state, &action, &next) {
                        keep(&mut best, i, walk, init, &path, None);
                    }
                }
            }
            state = next;
        }
    }
    let mut properties = Vec::new();
    for (d, b) in defs.iter().zip(best) {
        let (expected, expected_source) = expectation(scenario, d);
        let (verdict, found) = match b {
            Some((_, f)) => (confirm(&m, d, &f.run, f.p_index)?, Some(f)),
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
    use podcheck_input::catalogue;

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
                    Kind::Always(_) | Kind::Step { .. } => assert_ne!(p.verdict, Verdict::Holds),
                    Kind::Sometimes(_) => assert_ne!(p.verdict, Verdict::Violated),
                    Kind::LeadsTo { .. } | Kind::Within { .. } => {
                        assert_ne!(p.verdict, Verdict::Holds)
                    }
                }
                assert_eq!(p.found.is_some(), p.verdict != Verdict::Incomplete);
                // Every reported trace replays and gives its verdict.
                if let Some(f) = &p.found {
                    let m = Cluster::new(s.clone(), Vec::new());
                    assert_eq!(
                        confirm(&m, &p.def, &f.run, f.p_index),
                        Ok(p.verdict),
                        "{}",
                        p.def.name
                    );
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
        assert_eq!(confirm(&m, &p.def, &found.run, None), Ok(Verdict::Violated));
        // One step short: the last state does not break it (the trace is the first state
        // of its walk that does).
        let mut short = found.run.clone();
        short.actions.pop();
        assert!(confirm(&m, &p.def, &short, None).is_err());
        // An action that is not enabled where it is taken does not replay.
        let mut wrong = found.run.clone();
        wrong.actions.swap(0, found.run.actions.len() - 1);
        assert!(confirm(&m, &p.def, &wrong, None).is_err());
    }

    #[test]
    fn a_walk_that_stops_after_p_without_q_breaks_a_leads_to() {
        // The exhaustive check: with a partition that never heals, the Terminating object is
        // never removed (a run that stops where only the operator could act).
        let s = catalogue::find("statefulset-force-delete").unwrap();
        let m = Cluster::new(s.clone(), Vec::new());
        let r = simulate(&s, &opts(3, 0)).unwrap();
        let p = r
            .properties
            .iter()
            .find(|p| p.def.name == "deleted_leads_to_gone")
            .unwrap();
        assert_eq!(p.verdict, Verdict::Violated);
        let f = p.found.as_ref().unwrap();
        let states = f.run.states(&m).unwrap();
        assert!(quiescent(&m, states.last().unwrap()));
        assert_eq!(
            confirm(&m, &p.def, &f.run, f.p_index),
            Ok(Verdict::Violated)
        );
        assert!(confirm(&m, &p.def, &f.run, None).is_err());
        assert!(confirm(&m, &p.def, &f.run, Some(states.len())).is_err());
        // The initial state is settled: nothing is being deleted there, so P does not hold.
        assert!(confirm(&m, &p.def, &f.run, Some(0)).is_err());
    }
}

/// What the walks of [`walk_incomplete`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walked {
    pub options: SimOptions,
    /// States visited by the walks (a state visited twice counts twice).
    pub states_visited: u64,
    /// Distinct states among them.
    pub distinct_states: u64,
    /// The properties the walks decided (they were `incomplete`).
    pub decided: Vec<&'static str>,
}

/// Walks `result`'s scenario (one shard, `opts`) on `defs`, the properties `result` was
/// checked on, in its order, and gives each property still `incomplete` what the walks found:
/// `violated` with the walk's trace for an `always` or `step` property, and for a `leads_to`
/// one a run that stops with `P` never followed by `Q` (a lasso without a loop); `holds` with
/// a witness for a `sometimes` property. A `within` property, and every property the walks
/// found nothing for, stays `incomplete`: walks never show that an `always` holds. Verdicts
/// the exhaustive check decided are kept.
pub fn walk_incomplete(
    result: &mut ScenarioResult,
    defs: &[PropertyDef],
    opts: &SimOptions,
) -> Result<Walked, String> {
    let sim = simulate_with(&result.scenario, defs, opts)?;
    let mut decided = Vec::new();
    for (p, sp) in result.properties.iter_mut().zip(sim.properties) {
        if p.def.name != sp.def.name {
            return Err(format!(
                "{}: the walks' properties are not the check's ({} against {})",
                result.scenario.name, sp.def.name, p.def.name
            ));
        }
        let Some(found) = sp.found else { continue };
        if p.verdict != Verdict::Incomplete {
            continue;
        }
        match p.def.kind {
            Kind::Always(_) | Kind::Step { .. } | Kind::Sometimes(_) => {
                p.verdict = found_verdict(p.def.kind);
                p.trace = Some(found.run);
            }
            Kind::LeadsTo { .. } => {
                // A lasso runs from the first initial state.
                let (Some(p_index), 0) = (found.p_index, found.run.init) else {
                    continue;
                };
                p.verdict = Verdict::Violated;
                p.lasso = Some(LassoPath {
                    actions: found.run.actions,
                    loop_start: None,
                    p_index,
                });
            }
            Kind::Within { .. } => continue,
        }
        decided.push(p.def.name);
    }
    Ok(Walked {
        options: *opts,
        states_visited: sim.states_visited,
        distinct_states: sim.distinct_states,
        decided,
    })
}
