//! Node symmetry changes no verdict and no trace length: every built-in scenario, at sizes
//! where it has interchangeable nodes, checked with and without the reduction.

use podcheck_model::catalogue;
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};

/// Unreduced runs above this are skipped (they would take minutes in a debug build).
const BOUND: usize = 400_000;

fn run(s: &podcheck_model::Scenario, reduction: bool, threads: usize) -> ScenarioResult {
    let opts = CheckOptions {
        max_states: Some(BOUND),
        reduction,
        threads,
        ..CheckOptions::default()
    };
    check::check(s, &opts).expect("a built-in scenario checks")
}

/// The verdicts and trace lengths of the two runs are the same; returns whether the
/// reduction applied.
fn compare(name: &str, on: &ScenarioResult, off: &ScenarioResult) -> bool {
    assert!(off.symmetry.is_empty(), "{name}: --no-reduction reduced");
    assert_eq!(on.properties.len(), off.properties.len(), "{name}");
    for (a, b) in on.properties.iter().zip(&off.properties) {
        assert_eq!(a.def.name, b.def.name, "{name}");
        assert_eq!(a.verdict, b.verdict, "{name}: {}", a.def.name);
        assert_eq!(
            a.trace_steps(),
            b.trace_steps(),
            "{name}: trace length of {}",
            a.def.name
        );
    }
    if on.symmetry.is_empty() {
        assert_eq!(on.unique_states, off.unique_states, "{name}");
    }
    // The quotient never has more states; where nothing merges it has as many.
    assert!(on.unique_states <= off.unique_states, "{name}");
    on.unique_states < off.unique_states
}

#[test]
fn node_symmetry_keeps_every_built_in_verdict_and_trace_length() {
    let mut reduced = Vec::new();
    for mut s in catalogue::builtin() {
        if s.resize(Some(4), None).is_err() {
            continue;
        }
        let off = run(&s, false, 1);
        if !off.complete {
            continue;
        }
        let on = run(&s, true, 1);
        assert!(on.complete, "{}: the reduced run is incomplete", s.name);
        if compare(&s.name, &on, &off) {
            reduced.push(s.name.clone());
        }
    }
    // Not vacuous: six scenarios get smaller at four nodes within the bound (those with a
    // `leads_to` property are explored whole, and the largest are past the bound).
    assert!(reduced.len() >= 6, "only {reduced:?} were reduced");
}

#[test]
fn node_symmetry_on_threads_gives_the_same_traces() {
    let mut s = catalogue::find("termination-race").unwrap();
    s.resize(Some(3), None).unwrap();
    let one = run(&s, true, 1);
    let two = run(&s, true, 2);
    assert!(!one.symmetry.is_empty());
    assert_eq!(one.unique_states, two.unique_states);
    for (a, b) in one.properties.iter().zip(&two.properties) {
        assert_eq!(a.verdict, b.verdict, "{}", a.def.name);
        assert_eq!(a.actions(), b.actions(), "{}", a.def.name);
    }
}
