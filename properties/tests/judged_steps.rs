//! The actions each `step` property of the catalogue judges (its `Kind::Step`'s `on`,
//! [`Steps::Only`]), checked on data: on every transition of every built-in scenario (breadth first, up to
//! `STATES` states each) whose action a property's filter leaves out, the property's
//! condition holds. The search asks such a property only about the transitions its filter
//! keeps, so a filter that left out a transition the property could fail on would hide a
//! violation; this test is what says none does.

use podcheck_input::catalogue as scenarios;

use podcheck_model::{Action, Cluster, State, Verdict};
use podcheck_properties::catalogue::{self, Kind, Steps};
use podcheck_properties::{check_with, CheckOptions, PropertyDef};
use stateright::Model;
use std::collections::{HashSet, VecDeque};

/// States per scenario, in breadth-first order from its start.
const STATES: usize = 20_000;

#[test]
fn every_transition_a_filter_leaves_out_satisfies_its_property() {
    let steps = catalogue::all().into_iter().filter(|d| d.kind.is_step());
    let judged: Vec<_> = steps
        .filter_map(|d| match d.kind {
            Kind::Step {
                condition,
                on: Steps::Only(on),
            } => Some((d.name, condition, on)),
            _ => None,
        })
        .collect();
    assert_eq!(judged.len(), 18, "every step property has a filter");
    let mut left_out = vec![0usize; judged.len()];
    let mut kept = vec![0usize; judged.len()];
    let mut failures = Vec::new();
    for scenario in scenarios::builtin() {
        let name = scenario.name.clone();
        let m = Cluster::new(scenario, Vec::new());
        let mut seen: HashSet<State> = m.init_states().into_iter().collect();
        let mut queue: VecDeque<State> = m.init_states().into();
        let mut expanded = 0;
        let mut actions = Vec::new();
        while let Some(s) = queue.pop_front() {
            expanded += 1;
            if expanded > STATES {
                break;
            }
            actions.clear();
            m.actions(&s, &mut actions);
            for a in &actions {
                let Some(n) = m.next_state(&s, *a) else {
                    continue;
                };
                for (k, (property, c, on)) in judged.iter().enumerate() {
                    if on(a) {
                        kept[k] += 1;
                    } else {
                        left_out[k] += 1;
                        if !c(&m, &s, a, &n) && failures.len() < 20 {
                            failures.push(format!("{name}: {property} fails on {a:?}"));
                        }
                    }
                }
                if seen.insert(n.clone()) {
                    queue.push_back(n);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (k, (property, ..)) in judged.iter().enumerate() {
        assert!(left_out[k] > 0, "{property}: its filter left nothing out");
        assert!(
            kept[k] > 0,
            "{property}: no built-in scenario has a step it judges"
        );
    }
}

/// No tick ever happens: broken on the first tick.
fn no_tick(_: &Cluster, _: &State, a: &Action, _: &State) -> bool {
    !matches!(a, Action::Tick(_))
}

/// The search asks a step property only about the steps its definition keeps, and a property
/// of your own with `Steps::Every` about every step.
#[test]
fn the_search_asks_only_about_the_steps_a_property_judges() {
    let healthy = scenarios::find("healthy").unwrap();
    let def = |on| PropertyDef {
        name: "no_tick",
        kind: Kind::Step {
            condition: no_tick,
            on,
        },
        sentence: "Time never passes.",
        source: "this test",
        layer: "model",
        premise: None,
    };
    let verdict = |on| {
        let r = check_with(&healthy, &[def(on)], &CheckOptions::default()).unwrap();
        assert!(r.complete);
        r.properties[0].verdict
    };
    assert_eq!(verdict(Steps::Every), Verdict::Violated);
    assert_eq!(
        verdict(Steps::Only(|a| matches!(a, Action::Tick(_)))),
        Verdict::Violated
    );
    // A filter that leaves out the ticks hides the violation: what the test above rules out
    // for the catalogue's filters.
    assert_eq!(
        verdict(Steps::Only(|a| !matches!(a, Action::Tick(_)))),
        Verdict::Holds
    );
}
