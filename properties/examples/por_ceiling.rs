//! How much could a partial-order reduction save? An upper bound, measured with an oracle.
//!
//! ```text
//! cargo run --release -p podcheck-properties --example por_ceiling -- statefulset-partition-clusterip 3 2
//! cargo run --release -p podcheck-properties --example por_ceiling -- -f MANIFESTS PLAN
//! ```
//!
//! This is a measuring instrument, not a checker: it judges no property, and its reduced
//! searches are not sound. It explores a scenario (at NODES × REPLICAS, without the
//! symmetry reduction) six times, breadth first, and prints the unique states of each:
//!
//! - `full`: every enabled action of every state (the count `podcheck check --no-reduction`
//!   reports).
//! - `independence only`: at a state with two or more enabled component actions, only the
//!   smallest set `A` of component actions is taken such that every action of `A` commutes
//!   with every enabled action outside `A` *in this state* (both stay enabled after the
//!   other, and one then the other reaches the same state in either order), unless one of
//!   the states `A` leads to is already known (then every action is taken: the cycle
//!   condition). `A` is a class of the "does not commute" relation over the enabled actions.
//! - `with visibility`: the same, and no action of `A` may change the value of an `always`
//!   condition or a `leads_to`/`within` premise or goal in this state.
//! - `relaxed visibility`: the same, but `A` may change such a value when no enabled action
//!   outside `A` does. Moving an action of `A` ahead of actions that change nothing visible
//!   keeps the sequence of visible values up to repetition (stuttering), so the usual rule
//!   (only invisible actions may be taken first) is stricter than it needs to be; this
//!   count shows what the weaker rule could add.
//! - `footprints`: as `independence only`, but two actions count as commuting when their
//!   declared footprints are independent (`podcheck_model::footprint`), not by computing
//!   both orders. This is the most a reduction built on the footprints could keep out: it
//!   looks only at the actions enabled in the state, and at no property.
//! - `stubborn sets`: the stubborn-set closure over the footprints, still with no property
//!   visible (`stubborn` below): what the footprints give once the actions not enabled yet
//!   are accounted for. It takes each action's footprint in the state at hand; a sound
//!   reduction must also cover the footprints that the actions it leaves out may have in
//!   the states they lead to (a workload controller's reads grow where its sync comes to
//!   create a pod), so it keeps at least as many states. Its test checks that it keeps
//!   every deadlock of two scenarios.
//!
//! Why the first four (and the two over the footprints, for the last reason) are upper
//! bounds on what a sound reduction can keep out:
//! - independence is judged in the one state at hand, with an oracle (both orders computed).
//!   A sound persistent set must hold along every path from the state, also through actions
//!   that become enabled later, and must be decided without computing the successors it
//!   saves;
//! - visibility is judged in the state at hand, where a sound reduction must know that no
//!   step of `A` changes a condition in any state where it may be moved first (by the
//!   relaxed rule: that no action outside `A` that may come first, enabled now or later,
//!   changes one);
//! - `step` properties, `sometimes` witnesses and vacuity premises are not counted as
//!   visible (a sound reduction must account for those still undecided);
//! - fairness is not considered (a `leads_to` verdict under weak fairness needs more than
//!   stuttering equivalence).
//!
//! So `full / relaxed visibility` bounds from above the factor any partial-order reduction of
//! the model's interleavings could give on that scenario with its own properties.

use podcheck_input::catalogue;
use podcheck_model::footprint::{footprint, Footprint};
use podcheck_model::{Action, Cluster, State};
use podcheck_properties::catalogue::{Kind, StateFn};
use podcheck_properties::check::selected;
use podcheck_properties::explore::fingerprint;
use stateright::Model;
use std::collections::{HashSet, VecDeque};
use std::process::ExitCode;

#[path = "common/manifest.rs"]
mod manifest;
use manifest::manifest_scenario;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Full,
    IndependenceOnly,
    WithVisibility,
    /// Visibility by the relaxed rule (see the module documentation).
    Relaxed,
    /// Commutation judged by the declared footprints, no visibility.
    Footprints,
    /// The stubborn-set closure over the declared footprints, no visibility.
    Stubborn,
}

/// The smallest set of component actions of `s` each of which commutes with every enabled
/// action outside it in `s` (and, `WithVisibility`, changes none of `visible` there;
/// `Relaxed`, changes none of them unless no enabled action outside it does), with the
/// states they lead to: a class of the "does not commute" relation over the enabled actions.
fn oracle_ample(
    m: &Cluster,
    s: &State,
    enabled: &[Action],
    visible: &[StateFn],
    mode: Mode,
) -> Option<Vec<State>> {
    let mut urgent = Vec::new();
    m.urgent_actions(s, &mut urgent);
    if urgent.len() < 2 {
        return None;
    }
    let next: Vec<Option<State>> = enabled.iter().map(|a| m.next_state(s, *a)).collect();
    let footprints: Vec<Footprint> = match mode {
        Mode::Footprints => enabled.iter().map(|a| footprint(m, s, a)).collect(),
        _ => Vec::new(),
    };
    let live: Vec<usize> = (0..enabled.len()).filter(|&i| next[i].is_some()).collect();
    // Union-find over the enabled actions: two that do not commute in `s` are one class.
    let mut class: Vec<usize> = (0..enabled.len()).collect();
    fn root(class: &mut [usize], mut i: usize) -> usize {
        while class[i] != i {
            class[i] = class[class[i]];
            i = class[i];
        }
        i
    }
    for (x, &i) in live.iter().enumerate() {
        for &j in &live[x + 1..] {
            let (Some(si), Some(sj)) = (&next[i], &next[j]) else {
                continue;
            };
            let commute = match mode {
                Mode::Footprints => footprints[i].independent(&footprints[j]),
                _ => match (m.next_state(si, enabled[j]), m.next_state(sj, enabled[i])) {
                    (Some(ij), Some(ji)) => fingerprint(&ij) == fingerprint(&ji),
                    _ => false,
                },
            };
            if !commute {
                let (a, b) = (root(&mut class, i), root(&mut class, j));
                class[a] = b;
            }
        }
    }
    let roots: Vec<usize> = (0..enabled.len()).map(|i| root(&mut class, i)).collect();
    let mut best: Option<Vec<usize>> = None;
    // The classes in the order of their first action (the model's action order); of equal
    // size, the first is taken.
    let mut classes: Vec<usize> = Vec::new();
    for &i in &live {
        if !classes.contains(&roots[i]) {
            classes.push(roots[i]);
        }
    }
    for r in classes {
        let members: Vec<usize> = live.iter().copied().filter(|&i| roots[i] == r).collect();
        if members.len() == live.len() {
            continue;
        }
        if !members.iter().all(|&i| urgent.contains(&enabled[i])) {
            continue;
        }
        let changes = |i: usize| {
            let t = next[i].as_ref().expect("live");
            visible.iter().any(|f| f(m, s) != f(m, t))
        };
        if mode == Mode::WithVisibility && members.iter().any(|&i| changes(i)) {
            continue;
        }
        if mode == Mode::Relaxed
            && members.iter().any(|&i| changes(i))
            && live.iter().any(|&i| roots[i] != r && changes(i))
        {
            continue;
        }
        if best.as_ref().is_none_or(|b| members.len() < b.len()) {
            best = Some(members);
        }
    }
    best.map(|b| {
        b.into_iter()
            .map(|i| next[i].clone().expect("live"))
            .collect()
    })
}

/// A stubborn set of `s` over the footprints (`universe`: every action enabled in some
/// reachable state, the only ones that can ever act): from one enabled component step, the
/// closure that takes in, for an enabled action in the set, every action dependent on it
/// (enabled now or not), and for a disabled one, every action that writes a part its guard
/// reads (a necessary enabling set: it cannot become enabled before one of them acts). The
/// clock is the exception: it is enabled only when no component step is, and the seed stays
/// enabled until it or an action dependent on it (both in the set) acts, so no action
/// outside the set can enable it. Of the seeds, the set with the fewest enabled actions is
/// kept, with the states its enabled actions lead to; None where it would take every
/// enabled action.
fn stubborn(m: &Cluster, s: &State, enabled: &[Action], universe: &[Action]) -> Option<Vec<State>> {
    let mut urgent = Vec::new();
    m.urgent_actions(s, &mut urgent);
    if urgent.is_empty() || enabled.len() < 2 {
        return None;
    }
    let fps: Vec<Footprint> = universe.iter().map(|a| footprint(m, s, a)).collect();
    let on: Vec<bool> = universe.iter().map(|a| enabled.contains(a)).collect();
    let mut best: Option<Vec<usize>> = None;
    for seed in urgent {
        let Some(seed) = universe.iter().position(|a| *a == seed) else {
            continue;
        };
        let limit = best.as_ref().map_or(enabled.len(), |b| b.len());
        let mut in_t = vec![false; universe.len()];
        in_t[seed] = true;
        let mut work = vec![seed];
        let mut count = 1;
        while let Some(x) = work.pop() {
            if count >= limit {
                break;
            }
            for y in 0..universe.len() {
                if in_t[y] {
                    continue;
                }
                let pull = if on[x] {
                    !fps[x].independent(&fps[y])
                } else if matches!(universe[x], Action::Tick(_)) {
                    false
                } else {
                    fps[y]
                        .writes
                        .iter()
                        .any(|w| fps[x].reads.iter().any(|r| w.overlaps(*r)))
                };
                if pull {
                    in_t[y] = true;
                    work.push(y);
                    if on[y] {
                        count += 1;
                    }
                }
            }
        }
        if count < limit {
            best = Some((0..universe.len()).filter(|&i| in_t[i] && on[i]).collect());
        }
    }
    best.map(|b| {
        b.into_iter()
            .filter_map(|i| m.next_state(s, universe[i]))
            .collect()
    })
}

/// Every action enabled in some reachable state of `m`.
fn universe(m: &Cluster) -> Vec<Action> {
    let mut seen = HashSet::new();
    let mut all = HashSet::new();
    let mut queue: VecDeque<State> = m.init_states().into();
    for s in &queue {
        seen.insert(fingerprint(s));
    }
    while let Some(s) = queue.pop_front() {
        let mut acts = Vec::new();
        m.actions(&s, &mut acts);
        for a in acts {
            all.insert(a);
            if let Some(t) = m.next_state(&s, a) {
                if seen.insert(fingerprint(&t)) {
                    queue.push_back(t);
                }
            }
        }
    }
    let mut out: Vec<Action> = all.into_iter().collect();
    out.sort_by_key(|a| format!("{a:?}"));
    out
}

fn explore(m: &Cluster, visible: &[StateFn], mode: Mode) -> usize {
    explore_ends(m, visible, mode).0
}

/// The unique states of the search, and the fingerprints of those where no action is
/// enabled (the deadlocks, which a sound reduction keeps every one of).
fn explore_ends(m: &Cluster, visible: &[StateFn], mode: Mode) -> (usize, Vec<u64>) {
    let mut ends = Vec::new();
    let universe = match mode {
        Mode::Stubborn => universe(m),
        _ => Vec::new(),
    };
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    for s in m.init_states() {
        if seen.insert(fingerprint(&s)) {
            queue.push_back(s);
        }
    }
    while let Some(s) = queue.pop_front() {
        let mut enabled = Vec::new();
        m.actions(&s, &mut enabled);
        if enabled.is_empty() {
            ends.push(fingerprint(&s));
        }
        if mode != Mode::Full {
            let ample = match mode {
                Mode::Stubborn => stubborn(m, &s, &enabled, &universe),
                _ => oracle_ample(m, &s, &enabled, visible, mode),
            };
            if let Some(ample) = ample {
                // The cycle condition: every successor it keeps is new.
                if ample.iter().all(|t| !seen.contains(&fingerprint(t))) {
                    for t in ample {
                        if seen.insert(fingerprint(&t)) {
                            queue.push_back(t);
                        }
                    }
                    continue;
                }
            }
        }
        for a in enabled {
            if let Some(next) = m.next_state(&s, a) {
                if seen.insert(fingerprint(&next)) {
                    queue.push_back(next);
                }
            }
        }
    }
    ends.sort();
    (seen.len(), ends)
}

/// The six counts for a built-in scenario at NODES × REPLICAS: every action, commuting
/// steps only, those with no property changed, those with the relaxed rule, steps whose
/// footprints are independent, and stubborn sets over the footprints.
fn ceiling(name: &str, nodes: &str, replicas: &str) -> Result<[usize; 6], String> {
    let scenario = if name == "-f" {
        // `-f MANIFESTS PLAN`: the plan's first scenario over the manifests.
        manifest_scenario(nodes, replicas)?
    } else {
        let mut scenario =
            catalogue::find(name).ok_or(format!("no built-in scenario is named {name:?}"))?;
        let (Ok(n), Ok(r)) = (nodes.parse::<u8>(), replicas.parse::<u8>()) else {
            return Err("NODES and REPLICAS are numbers 1 to 5".into());
        };
        scenario.resize(Some(n), Some(r))?;
        scenario
    };
    let visible: Vec<StateFn> = selected(&scenario)?
        .iter()
        .flat_map(|d| match d.kind {
            Kind::Always(f) => vec![f],
            Kind::LeadsTo { p, q } | Kind::Within { p, q, .. } => vec![p, q],
            Kind::Sometimes(_) | Kind::Step { .. } => vec![],
        })
        .collect();
    let model = Cluster::new(scenario, Vec::new());
    Ok([
        explore(&model, &visible, Mode::Full),
        explore(&model, &visible, Mode::IndependenceOnly),
        explore(&model, &visible, Mode::WithVisibility),
        explore(&model, &visible, Mode::Relaxed),
        explore(&model, &visible, Mode::Footprints),
        explore(&model, &visible, Mode::Stubborn),
    ])
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, nodes, replicas] = args.as_slice() else {
        eprintln!("usage: por_ceiling SCENARIO NODES REPLICAS");
        return ExitCode::from(2);
    };
    let [full, independent, with_visibility, relaxed, footprints, stubborn] =
        match ceiling(name, nodes, replicas) {
            Ok(counts) => counts,
            Err(e) => {
                eprintln!("por_ceiling: {e}");
                return ExitCode::from(2);
            }
        };
    let factor = |k: usize| full as f64 / k.max(1) as f64;
    println!("{name} {nodes} x {replicas}, no symmetry reduction");
    println!("  full                {full:>10}");
    println!(
        "  independence only   {independent:>10}   ({:.1}x fewer)",
        factor(independent)
    );
    println!(
        "  with visibility     {with_visibility:>10}   ({:.1}x fewer)",
        factor(with_visibility)
    );
    println!(
        "  relaxed visibility  {relaxed:>10}   ({:.1}x fewer: the ceiling)",
        factor(relaxed)
    );
    println!(
        "  footprints          {footprints:>10}   ({:.1}x fewer: what the declared footprints allow)",
        factor(footprints)
    );
    println!(
        "  stubborn sets       {stubborn:>10}   ({:.1}x fewer: their stubborn sets, no property)",
        factor(stubborn)
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::{catalogue, ceiling, explore_ends, Cluster, Mode};

    /// The counts are pinned: the full count is the one `podcheck check --no-reduction`
    /// reports, and the oracle's choices are deterministic (the model's action order).
    #[test]
    fn the_ceilings_of_two_small_scenarios() {
        assert_eq!(
            ceiling("statefulset-partition-clusterip", "2", "1"),
            Ok([1578, 916, 916, 916, 1031, 1565])
        );
        assert_eq!(
            ceiling("deployment-partition", "2", "1"),
            Ok([634, 375, 461, 381, 583, 634])
        );
    }

    /// The stubborn sets keep every state where no action is enabled, where it is checked.
    /// On `statefulset-partition-clusterip` 2 × 1 they keep 13 states out and its 4 deadlocks
    /// in; on the Job they keep nothing out of 5,409 states, 39 of them deadlocks. (5 deadlocks,
    /// and 5,437 states with 43, before states were told apart by what is read of their pods'
    /// events; 5,348 states on the Job before the kubelet held a terminal phase back until the
    /// pod worker has stopped the pod.)
    #[test]
    fn the_stubborn_sets_keep_every_deadlock() {
        for (name, n, r, kept, deadlocks) in [
            ("statefulset-partition-clusterip", 2, 1, 1565, 4),
            ("job-pod-deleted", 1, 2, 5409, 39),
        ] {
            let mut scenario = catalogue::find(name).expect("built in");
            scenario.resize(Some(n), Some(r)).expect("a size");
            let model = Cluster::new(scenario, Vec::new());
            let full = explore_ends(&model, &[], Mode::Full);
            let reduced = explore_ends(&model, &[], Mode::Stubborn);
            assert_eq!(reduced.1, full.1, "{name}: deadlocks");
            assert_eq!((reduced.0, full.1.len()), (kept, deadlocks), "{name}");
        }
    }

    #[test]
    fn a_bad_name_or_size_is_an_error() {
        assert!(ceiling("no-such-scenario", "2", "1").is_err());
        assert!(ceiling("healthy", "two", "1").is_err());
        assert!(ceiling("healthy", "9", "1").is_err());
    }
}
