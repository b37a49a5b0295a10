//! How many states a scenario would have if some of its fields were left out: a measuring
//! instrument for finding fields that split states apart.
//!
//! ```text
//! cargo run --release -p podcheck-properties --example masked_states -- -f MANIFESTS PLAN [MAX]
//! ```
//!
//! For each mask (a set of fields set to one value), it explores the first plan scenario of
//! PLAN (as `state_sources -f` makes it) breadth first, keeping one state per class of the
//! symmetry reduction of pods of the masked state, and stops after MAX states (default
//! 2,000,000). A masked search is not a check of the model: where a masked field is read, it
//! merges states that behave differently, so its count is what an exact merge on that field
//! could keep at best, not what one keeps.

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

/// States found per second of the model's clock (along the path that found them).
static SECONDS: std::sync::Mutex<std::collections::BTreeMap<u32, usize>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

fn none(_: &mut State) {}

fn events(s: &mut State) {
    for p in s.api.pods.iter_mut() {
        if !p.events.is_empty() {
            p.events = Default::default();
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

fn workloads(s: &mut State) {
    s.api.workloads = Default::default();
}

fn node_objects(s: &mut State) {
    s.api.nodes = Default::default();
}

/// The states of the first `depth` levels (breadth first, one per class of the symmetry
/// reduction of pods), at most `max` of them; and whether every state of those levels is in.
fn explore(m: &Cluster, max: usize, depth: usize) -> (Vec<State>, bool) {
    let class = m.symmetry.class_key();
    let key = |s: &State| match &class {
        Some(k) => k(s),
        None => fingerprint(s),
    };
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    let mut states = Vec::new();
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
            return (states, false);
        }
        if d < depth {
            m.actions(&s, &mut actions);
            for a in actions.drain(..) {
                let Some(next) = m.next_state(&s, a) else {
                    continue;
                };
                if seen.insert(key(&next)) {
                    let t = match a {
                        podcheck_model::cluster::Action::Tick(x) => t + u32::from(x),
                        _ => t,
                    };
                    *SECONDS.lock().unwrap().entry(t).or_default() += 1;
                    queue.push_back((next, d + 1, t));
                }
            }
        }
        states.push(s);
    }
    (states, true)
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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [f, path, plan, rest @ ..] = args.as_slice() else {
        eprintln!("usage: masked_states -f MANIFESTS PLAN [MAX] [DEPTH] [MASK...]");
        return ExitCode::from(2);
    };
    if f != "-f" {
        eprintln!("usage: masked_states -f MANIFESTS PLAN [MAX] [DEPTH] [MASK...]");
        return ExitCode::from(2);
    }
    let max = rest
        .first()
        .and_then(|m| m.parse::<usize>().ok())
        .unwrap_or(2_000_000);
    let scenario = match manifest_scenario(path, plan) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let masks: [(&str, Mask); 10] = [
        ("none", none),
        ("events", events),
        ("probe-timers", probe_timers),
        ("probe-runs", probe_runs),
        ("proxy-routes", proxy_routes),
        ("ghosts", ghosts),
        ("endpoints", endpoints),
        ("statuses", statuses),
        ("workloads", workloads),
        ("node-objects", node_objects),
    ];
    let depth = rest
        .get(1)
        .and_then(|m| m.parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    let wanted: Vec<&String> = rest.iter().skip(2).collect();
    let mut m = Cluster::new(scenario, Vec::new());
    m.postpone_probes = std::env::var_os("POSTPONE").is_some();
    let (states, complete) = explore(&m, max, depth);
    println!(
        "{} states within {depth} steps of the start{}",
        states.len(),
        if complete {
            ""
        } else {
            " (stopped at MAX: a part of them)"
        }
    );
    println!("states found per second: {:?}", SECONDS.lock().unwrap());
    println!("| fields left out | distinct states |");
    println!("|---|---:|");
    for (name, mask) in masks {
        if !wanted.is_empty() && !wanted.iter().any(|w| *w == name) {
            continue;
        }
        println!("| {name} | {} |", distinct(&m, &states, mask));
    }
    ExitCode::SUCCESS
}
