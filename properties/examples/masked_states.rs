//! Which fields split a scenario's states apart: the states near the start, counted again
//! with some fields left out, and the model's second at which each was found.
//!
//! ```text
//! cargo run --release -p podcheck-properties --example masked_states -- -f MANIFESTS PLAN [MAX [DEPTH [MASK...]]]
//! cargo run --release -p podcheck-properties --example masked_states -- SCENARIO NODES REPLICAS [MAX [DEPTH [MASK...]]]
//! ```
//!
//! It explores the scenario (with `-f`, the first plan scenario of PLAN over the manifests,
//! as `state_sources -f` makes it) breadth first, one state per class of the symmetry
//! reduction of pods where it applies, down to DEPTH steps from the start (default: all) and
//! stopping after MAX states (default 2,000,000). It prints how many states it found at
//! each second of the model's clock (the Ticks along the path that found the state), then,
//! for each mask (a set of fields set to one value; MASK names pick some), how many of those
//! states stay apart with the fields left out.
//!
//! With the environment variable `FAULTS_AT_START` set, the scenario's faults are offered in
//! the first state only (a measurement of how many states the moment a fault comes at
//! makes, not a model of anything).
//!
//! A measuring instrument, not a checker: a field whose masking merges many states is where
//! a merge could pay, but merging is exact only where nothing reads the field, and a mask
//! also merges states of different seconds (the timers differ between them).

use podcheck_input::catalogue;
use podcheck_input::spec::Scenario;
use podcheck_model::state::State;
use podcheck_model::Cluster;
use podcheck_properties::explore::fingerprint;
use stateright::Model;
use std::collections::{HashSet, VecDeque};
use std::process::ExitCode;

#[path = "common/manifest.rs"]
mod manifest;
use manifest::manifest_scenario;

type Mask = fn(&mut State);

/// States found per second of the model's clock.
type Seconds = std::collections::BTreeMap<u32, usize>;

fn none(_: &mut State) {}

fn events(s: &mut State) {
    for p in s.api.pods.iter_mut() {
        if !p.events.is_empty() {
            p.events = Default::default();
        }
    }
}

fn event_counts(s: &mut State) {
    for p in s.api.pods.iter_mut() {
        if p.events.iter().any(|e| e.count > 1) {
            p.events.edit(|e| e.count = 1);
        }
    }
}

/// The events no step and no property reads left out (`podcheck_model::events::Read`): the
/// model's own identity of a state does this already (`CheckOptions::events_as_read`), so
/// this mask changes nothing there; it measures what the merge gives a model that keeps
/// whole event lists.
fn unread_events(s: &mut State) {
    use podcheck_model::events::Events;
    for p in s.api.pods.iter_mut() {
        if p.events.iter().any(|e| e.count > 1 || !e.kind.is_read()) {
            let mut kept = Events::new(p.events.whole());
            for e in p.events.iter().filter(|e| e.kind.is_read()) {
                kept.record(e.kind);
            }
            p.events = kept.into();
        }
    }
}

fn probe_timers(s: &mut State) {
    for n in s.nodes.iter_mut() {
        for rt in n.pods.iter_mut() {
            let rt = &mut **rt;
            for c in rt.init.iter_mut().chain(rt.ctrs.iter_mut()) {
                for w in c.probes.iter_mut().flatten() {
                    w.next_in = w.next_in.map(|_| 0);
                    w.answer_in = w.answer_in.map(|_| 0);
                }
            }
        }
    }
}

fn probe_runs(s: &mut State) {
    for n in s.nodes.iter_mut() {
        for rt in n.pods.iter_mut() {
            let rt = &mut **rt;
            for c in rt.init.iter_mut().chain(rt.ctrs.iter_mut()) {
                for w in c.probes.iter_mut().flatten() {
                    w.run = 0;
                    w.last = w.result;
                }
            }
        }
    }
}

fn proxy_routes(s: &mut State) {
    for p in s.proxies.iter_mut() {
        p.routes = Default::default();
        p.lag_left = p.lag_left.map(|_| 0);
        p.served = false;
    }
}

fn ghosts(s: &mut State) {
    for p in s.api.pods.iter_mut() {
        p.ghost = Default::default();
    }
}

fn endpoints(s: &mut State) {
    s.api.endpoints = Default::default();
}

fn statuses(s: &mut State) {
    for p in s.api.pods.iter_mut() {
        p.status = Default::default();
    }
}

fn node_objects(s: &mut State) {
    s.api.nodes = Default::default();
}

/// The states of the first `depth` levels (breadth first, one per class of the symmetry
/// reduction of pods), at most `max` of them; whether every state of those levels is in; and
/// how many were found at each second.
fn explore(m: &Cluster, max: usize, depth: usize) -> (Vec<State>, bool, Seconds) {
    // A measurement only: with FAULTS_AT_START set, the scenario's faults may come in the
    // first state and nowhere else.
    let at_start = std::env::var_os("FAULTS_AT_START").is_some();
    let class = m.symmetry.class_key();
    let key = |s: &State| match &class {
        Some(k) => k(s),
        None => fingerprint(s),
    };
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    let mut states = Vec::new();
    let mut seconds = Seconds::new();
    for s in m.init_states() {
        if seen.insert(key(&s)) {
            queue.push_back((s, 0, 0u32));
        }
    }
    let mut actions = Vec::new();
    while let Some((s, d, t)) = queue.pop_front() {
        if seen.len() >= max {
            states.push(s);
            states.extend(queue.into_iter().map(|(s, ..)| s));
            return (states, false, seconds);
        }
        if d < depth {
            m.actions(&s, &mut actions);
            if at_start && d > 0 {
                actions.retain(|a| !matches!(a, podcheck_model::cluster::Action::Fault(_)));
            }
            for a in actions.drain(..) {
                let Some(next) = m.next_state(&s, a) else {
                    continue;
                };
                if seen.insert(key(&next)) {
                    let t = match a {
                        podcheck_model::cluster::Action::Tick(x) => t + u32::from(x),
                        _ => t,
                    };
                    *seconds.entry(t).or_default() += 1;
                    queue.push_back((next, d + 1, t));
                }
            }
        }
        states.push(s);
    }
    (states, true, seconds)
}

/// How many of `states` stay apart with `mask` applied to each.
fn distinct(m: &Cluster, states: &[State], mask: Mask) -> usize {
    let class = m.symmetry.class_key();
    let mut seen = HashSet::new();
    for s in states {
        let mut t = s.clone();
        mask(&mut t);
        seen.insert(match &class {
            Some(k) => k(&t),
            None => fingerprint(&t),
        });
    }
    seen.len()
}

/// The scenario the arguments name, and the arguments after it.
fn scenario(args: &[String]) -> Result<(Scenario, &[String]), String> {
    match args {
        [f, path, plan, rest @ ..] if f == "-f" => Ok((manifest_scenario(path, plan)?, rest)),
        [name, nodes, replicas, rest @ ..] => {
            let mut s =
                catalogue::find(name).ok_or(format!("no built-in scenario is named {name:?}"))?;
            let (Ok(n), Ok(r)) = (nodes.parse::<u8>(), replicas.parse::<u8>()) else {
                return Err(format!(
                    "NODES and REPLICAS are small numbers: {nodes:?} {replicas:?}"
                ));
            };
            s.resize(Some(n), Some(r))?;
            Ok((s, rest))
        }
        _ => Err(
            "usage: masked_states (-f MANIFESTS PLAN | SCENARIO NODES REPLICAS) [MAX [DEPTH [MASK...]]]"
                .into(),
        ),
    }
}

const MASKS: [(&str, Mask); 11] = [
    ("none", none),
    ("events", events),
    ("event-counts", event_counts),
    ("unread-events", unread_events),
    ("probe-timers", probe_timers),
    ("probe-runs", probe_runs),
    ("proxy-routes", proxy_routes),
    ("ghosts", ghosts),
    ("endpoints", endpoints),
    ("statuses", statuses),
    ("node-objects", node_objects),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (scenario, rest) = match scenario(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let number = |i: usize, default: usize| match rest.get(i) {
        None => Ok(default),
        Some(m) => m
            .parse::<usize>()
            .map_err(|_| format!("not a number: {m:?}")),
    };
    let (max, depth) = match (number(0, 2_000_000), number(1, usize::MAX)) {
        (Ok(m), Ok(d)) => (m, d),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let wanted: Vec<&String> = rest.iter().skip(2).collect();
    if let Some(w) = wanted.iter().find(|w| !MASKS.iter().any(|(n, _)| n == *w)) {
        eprintln!("no mask is named {w:?}");
        return ExitCode::from(2);
    }
    let m = Cluster::new(scenario, Vec::new());
    let (states, complete, seconds) = explore(&m, max, depth);
    println!(
        "{} states within {} steps of the start{}",
        states.len(),
        if depth == usize::MAX {
            "any number of".to_string()
        } else {
            depth.to_string()
        },
        if complete {
            ""
        } else {
            " (stopped at MAX: a part of them)"
        }
    );
    println!("states found at each second: {seconds:?}");
    println!("| fields left out | distinct states |");
    println!("|---|---:|");
    for (name, mask) in MASKS {
        if !wanted.is_empty() && !wanted.iter().any(|w| *w == name) {
            continue;
        }
        println!("| {name} | {} |", distinct(&m, &states, mask));
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned on a small scenario explored whole: as many states as `podcheck check healthy
    /// --nodes 1 --replicas 2` reports (373, up to interchangeable pods; 736 before states
    /// were told apart by what is read of their pods' events), every state found once, and
    /// the masks only merge (the pods' statuses left out, 107); the events' masks merge
    /// nothing more, since the model's identity already leaves out what no one reads.
    #[test]
    fn healthy_1_by_2() {
        let args: Vec<String> = ["healthy", "1", "2"].map(String::from).to_vec();
        let (s, rest) = scenario(&args).unwrap();
        assert!(rest.is_empty());
        let m = Cluster::new(s, Vec::new());
        let (states, complete, seconds) = explore(&m, 1_000_000, usize::MAX);
        assert!(complete);
        assert_eq!(seconds.values().sum::<usize>() + 1, states.len());
        let count = |name: &str| {
            let mask = MASKS.iter().find(|(n, _)| *n == name).unwrap().1;
            distinct(&m, &states, mask)
        };
        assert_eq!(count("none"), states.len());
        for (name, _) in MASKS {
            assert!(count(name) <= states.len(), "{name}");
        }
        assert_eq!(
            [
                states.len(),
                count("statuses"),
                count("events"),
                count("unread-events"),
                count("event-counts")
            ],
            [373, 107, 373, 373, 373]
        );
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(scenario(&args(&["no-such-scenario", "1", "1"])).is_err());
        assert!(scenario(&args(&["healthy", "two", "1"])).is_err());
        assert!(scenario(&args(&["healthy"])).is_err());
    }
}
