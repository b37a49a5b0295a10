//! The actions each `step` property of the catalogue judges (`catalogue::judged_steps`),
//! checked on data: on every transition of every built-in scenario (breadth first, up to
//! `STATES` states each) whose action a property's filter leaves out, the property's
//! condition holds. The search asks such a property only about the transitions its filter
//! keeps, so a filter that left out a transition the property could fail on would hide a
//! violation; this test is what says none does.

use podcheck_model::{catalogue as scenarios, Cluster, State};
use podcheck_properties::catalogue::{self, judged_steps, Kind};
use stateright::Model;
use std::collections::{HashSet, VecDeque};

/// States per scenario, in breadth-first order from its start.
const STATES: usize = 20_000;

#[test]
fn every_transition_a_filter_leaves_out_satisfies_its_property() {
    let judged: Vec<_> = catalogue::all()
        .into_iter()
        .filter_map(|d| match (d.kind, judged_steps(&d)) {
            (Kind::Step(c), Some(on)) => Some((d.name, c, on)),
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

/// A property of your own judges every transition, even under a catalogue name.
#[test]
fn a_property_of_your_own_has_no_filter() {
    fn mine(_: &Cluster, _: &State, _: &podcheck_model::Action, _: &State) -> bool {
        true
    }
    let mut def = catalogue::find("no_start_after_deletion").unwrap();
    assert!(judged_steps(&def).is_some());
    def.kind = Kind::Step(mine);
    assert!(judged_steps(&def).is_none());
    let mut def = catalogue::find("terminal_phase_is_final").unwrap();
    assert!(judged_steps(&def).is_some());
    def.kind = Kind::Step(mine);
    assert!(judged_steps(&def).is_none());
}
