//! Where a scenario's states come from: the steps of each kind, and the states each kind
//! found first.
//!
//! ```text
//! cargo run --release -p podcheck-properties --example state_sources -- statefulset-partition-clusterip 3 2 [MAX]
//! cargo run --release -p podcheck-properties --example state_sources -- -f MANIFESTS PLAN [MAX] [--reduced]
//! ```
//!
//! With `-f`, it measures the first scenario of the fault plan PLAN (as `podcheck check -f
//! MANIFESTS --plan PLAN` makes it, reduced to its cone of influence, with the Service that
//! concerns its pods; `PLAN:WORKLOAD`, such as `drain:reviews-v1`, for the plan's scenario
//! about that workload) over the manifests of a file or folder; with `--reduced`, one state per class of the symmetry reduction where it
//! applies, as `podcheck check` keeps.
//!
//! This is a measuring instrument, not a checker: it judges no property. It explores the
//! scenario at NODES × REPLICAS breadth first, without the symmetry reduction, and stops after
//! MAX states (default 300,000; a breadth-first prefix, so the figures describe the states
//! nearest the start). For each kind of action (its variant names, the fields left out) it
//! prints how many steps of that kind the expanded states have, how many of those lead back
//! to the state they leave, and how many found a state no earlier step had found.
//!
//! A kind that finds most of the new states is where a reduction would pay: on
//! statefulset-partition-clusterip 3 × 2 it is the kube-proxies' syncs (their sync may come at any
//! moment within the proxy lag, so every moment is a branch).

use podcheck_input::catalogue;
use podcheck_input::spec::Scenario;
use podcheck_model::footprint::action_kind;
use podcheck_model::Cluster;
use podcheck_properties::explore::fingerprint;
use stateright::Model;
use std::collections::{HashMap, HashSet, VecDeque};
use std::process::ExitCode;

#[path = "common/manifest.rs"]
mod manifest;
use manifest::manifest_scenario;

/// Per kind: (steps, steps back to the same state, states found first).
type Tally = HashMap<String, [usize; 3]>;

fn measure(name: &str, nodes: &str, replicas: &str, max: usize) -> Result<(usize, Tally), String> {
    let mut scenario =
        catalogue::find(name).ok_or(format!("no built-in scenario is named {name:?}"))?;
    let (Ok(n), Ok(r)) = (nodes.parse::<u8>(), replicas.parse::<u8>()) else {
        return Err(format!(
            "NODES and REPLICAS are small numbers: {nodes:?} {replicas:?}"
        ));
    };
    scenario.resize(Some(n), Some(r))?;
    Ok(explore(scenario, max, false))
}

fn explore(scenario: Scenario, max: usize, reduced: bool) -> (usize, Tally) {
    let m = Cluster::new(scenario, Vec::new());
    // With `reduced`: one state per class of the symmetry reduction, where it applies.
    let class = m.symmetry.class_key().filter(|_| reduced);
    let key = |s: &podcheck_model::state::State| match &class {
        Some(k) => k(s),
        None => fingerprint(s),
    };
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    for s in m.init_states() {
        if seen.insert(key(&s)) {
            queue.push_back(s);
        }
    }
    let mut tally = Tally::new();
    let mut actions = Vec::new();
    let mut expanded = 0;
    while let Some(s) = queue.pop_front() {
        if expanded == max {
            break;
        }
        expanded += 1;
        let here = key(&s);
        m.actions(&s, &mut actions);
        for a in actions.drain(..) {
            let Some(next) = m.next_state(&s, a) else {
                continue;
            };
            let f = key(&next);
            let t = tally.entry(action_kind(&a)).or_default();
            t[0] += 1;
            t[1] += usize::from(f == here);
            if seen.insert(f) {
                t[2] += 1;
                queue.push_back(next);
            }
        }
    }
    (expanded, tally)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [f, path, plan, rest @ ..] = args.as_slice() {
        if f == "-f" {
            let reduced = rest.iter().any(|a| a == "--reduced");
            let max = rest
                .iter()
                .find(|a| *a != "--reduced")
                .map_or(Ok(300_000), |m| m.parse::<usize>());
            let Ok(max) = max else {
                eprintln!("MAX is a number of states");
                return ExitCode::from(2);
            };
            return match manifest_scenario(path, plan) {
                Ok(s) => {
                    let name = s.name.clone();
                    let (expanded, tally) = explore(s, max, reduced);
                    print_tally(&name, "", expanded, tally);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(2)
                }
            };
        }
    }
    let (name, nodes, replicas, max) = match args.as_slice() {
        [name, nodes, replicas] => (name, nodes, replicas, Ok(300_000)),
        [name, nodes, replicas, max] => (name, nodes, replicas, max.parse::<usize>()),
        _ => {
            eprintln!("usage: state_sources SCENARIO NODES REPLICAS [MAX]");
            return ExitCode::from(2);
        }
    };
    let Ok(max) = max else {
        eprintln!("MAX is a number of states");
        return ExitCode::from(2);
    };
    let (expanded, tally) = match measure(name, nodes, replicas, max) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    print_tally(name, &format!(" {nodes} × {replicas}"), expanded, tally);
    ExitCode::SUCCESS
}

fn print_tally(name: &str, size: &str, expanded: usize, tally: Tally) {
    let mut rows: Vec<_> = tally.into_iter().collect();
    rows.sort_by(|a, b| {
        b.1[2]
            .cmp(&a.1[2])
            .then(b.1[0].cmp(&a.1[0]))
            .then(a.0.cmp(&b.0))
    });
    let found: usize = rows.iter().map(|r| r.1[2]).sum();
    println!("{name}{size}: {expanded} states expanded, {found} found by steps");
    println!("| kind | steps | back to the same state | states found first | share |");
    println!("|---|---:|---:|---:|---:|");
    for (k, [steps, same, new]) in rows {
        let share = 100.0 * new as f64 / found.max(1) as f64;
        println!("| {k} | {steps} | {same} | {new} | {share:.1} % |");
    }
}

#[cfg(test)]
mod tests {
    use super::measure;

    /// Pinned on a small scenario explored whole: every state is expanded (the count
    /// `podcheck check --no-reduction` reports), every state but the first is found by a
    /// step, and the kube-proxies' syncs find the most.
    #[test]
    fn statefulset_partition_2_by_1() {
        let (expanded, tally) =
            measure("statefulset-partition-clusterip", "2", "1", 300_000).unwrap();
        assert_eq!(expanded, 1578);
        assert_eq!(tally.values().map(|t| t[2]).sum::<usize>(), 1577);
        assert_eq!(tally["KubeProxy.Sync"], [1417, 0, 742]);
        assert_eq!(tally["Kubelet.StatusUpdate"], [774, 0, 220]);
        let top = tally.iter().max_by_key(|(_, t)| t[2]).unwrap();
        assert_eq!(top.0, "KubeProxy.Sync");
    }

    #[test]
    fn a_bad_name_or_size_is_an_error() {
        assert!(measure("no-such-scenario", "2", "1", 10).is_err());
        assert!(measure("healthy", "two", "1", 10).is_err());
        assert!(measure("healthy", "9", "1", 10).is_err());
    }
}
