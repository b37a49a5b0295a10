//! PodGC's collection of terminated pods (`pkg/controller/podgc/gc_controller.go` `gc`,
//! `gcTerminated`).

use podcheck_model::context::Context;
use podcheck_model::controllers::podgc::terminated_gc_victim;
use podcheck_model::{Action, Cluster, State};
use stateright::Model;
use std::collections::HashSet;

/// Whether some reachable state of the job-never scenario (three failed pods in the end) has
/// a terminated pod for PodGC to collect, under `threshold`.
fn collects(threshold: u16) -> bool {
    let mut s = podcheck_input::catalogue::find("job-never").expect("job-never");
    s.cluster.terminated_pod_gc_threshold = threshold;
    let m = Cluster::new(s.clone(), Vec::new());
    let ctx = Context::new(s);
    let mut seen: HashSet<State> = HashSet::new();
    let mut todo: Vec<State> = m.init_states();
    while let Some(st) = todo.pop() {
        if !seen.insert(st.clone()) {
            continue;
        }
        if terminated_gc_victim(&ctx, &st).is_some() {
            return true;
        }
        let mut acts: Vec<Action> = Vec::new();
        m.actions(&st, &mut acts);
        todo.extend(acts.into_iter().filter_map(|a| m.next_state(&st, a)));
    }
    false
}

#[test]
fn a_threshold_of_zero_turns_terminated_pod_collection_off() {
    assert!(collects(1));
    assert!(!collects(0));
}
