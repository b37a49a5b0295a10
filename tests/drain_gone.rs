//! A drain's observation that a pod is gone, deferred to the end of its instant
//! (`podcheck_model::drain`, `CheckOptions::deferred_gone`), changes no verdict, no trace
//! length and no time: every built-in scenario with a drain, at several sizes, checked with
//! and without the deferral.

use podcheck_input::catalogue;
use podcheck_model::drain::gone_deferrable;
use podcheck_model::Verdict;
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};

mod common;
use common::judged::alike as compare;

/// Runs above this are skipped (they would take minutes in a debug build).
const BOUND: usize = 400_000;

fn run(s: &podcheck_model::Scenario, deferred_gone: bool) -> ScenarioResult {
    let opts = CheckOptions {
        max_states: Some(BOUND),
        deferred_gone,
        ..CheckOptions::default()
    };
    check::check(s, &opts).expect("a built-in scenario checks")
}

#[test]
fn deferred_gone_keeps_every_built_in_verdict_trace_length_and_time() {
    let mut reduced = Vec::new();
    let mut sizes = 0;
    for base in catalogue::builtin() {
        if !gone_deferrable(&base) {
            continue;
        }
        for (nodes, replicas) in [(None, None), (None, Some(3)), (Some(3), Some(2))] {
            let mut s = base.clone();
            if s.resize(nodes, replicas).is_err() {
                continue;
            }
            let off = run(&s, false);
            if !off.complete {
                continue;
            }
            let on = run(&s, true);
            assert!(on.complete, "{}: the deferred run is incomplete", s.name);
            let name = format!("{} at {nodes:?} x {replicas:?}", s.name);
            compare(&name, &on, &off);
            sizes += 1;
            if on.unique_states < off.unique_states {
                reduced.push(name);
            }
        }
    }
    // Not vacuous: the catalogue's drains, at several sizes, and most of them smaller.
    assert!(
        sizes >= 8,
        "only {sizes} scenario sizes with a drain were compared"
    );
    assert!(reduced.len() >= 4, "only {reduced:?} were reduced");
    eprintln!("{sizes} compared; reduced: {reduced:?}");
}

#[test]
fn a_drain_that_never_ends_is_judged_without_the_deferral() {
    // The budget is never met: `drain_completes` is violated. Deferred, that is not a
    // verdict, so the check runs again without the deferral and its lasso is a real run.
    let s = catalogue::find("drain-budget-never-met").unwrap();
    assert!(gone_deferrable(&s));
    let on = run(&s, true);
    let off = run(&s, false);
    assert_eq!(on.unique_states, off.unique_states);
    let p = on
        .properties
        .iter()
        .find(|p| p.def.name == "drain_completes")
        .unwrap();
    assert_eq!(p.verdict, Verdict::Violated);
    assert!(p.lasso.is_some());
}

#[test]
fn a_scale_keeps_every_gone_as_it_is_due() {
    // A scale-down names the pods of its tie by their order of uids: the uid a new pod takes
    // is read by more than equality, so the deferral does not apply.
    let s = catalogue::builtin()
        .into_iter()
        .find(|s| {
            s.faults.iter().any(|f| {
                matches!(
                    f,
                    podcheck_input::spec::Fault::Scale { .. }
                        | podcheck_input::spec::Fault::RolloutRestart { .. }
                )
            })
        })
        .expect("a built-in scenario scales or restarts a rollout");
    let mut with_drain = s.clone();
    with_drain.faults.push(podcheck_input::spec::Fault::Drain {
        node: with_drain.cluster.nodes[0].name.clone(),
        disable_eviction: false,
        force: false,
        delete_emptydir_data: false,
    });
    assert!(!gone_deferrable(&with_drain));
    assert!(!gone_deferrable(&s));
}
