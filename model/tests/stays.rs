//! The steps [`Cluster::leaves_state_as_is`] names lead back to exactly the state they leave,
//! checked on data: on the first states of every built-in scenario, breadth first, each such
//! enabled step is made and compared with the state (equal, and the same hash). The search
//! takes these steps as edges to the state being expanded without making them
//! (`podcheck_properties::explore::Stays`), so a step named here that changed anything would
//! lose states; this test fails first, with the scenario and the step.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashSet, VecDeque};
use std::hash::{Hash, Hasher};

use podcheck_input::catalogue;
use podcheck_model::{Cluster, State};
use stateright::Model;

/// States per scenario, in breadth-first order from its start.
const STATES: usize = 3000;

fn hash(s: &State) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

#[test]
fn the_steps_that_leave_the_state_as_is_do_on_every_builtin_scenario() {
    let (mut steps, mut scenarios) = (0usize, 0usize);
    let mut failures = Vec::new();
    for scenario in catalogue::builtin() {
        let name = scenario.name.clone();
        let m = Cluster::new(scenario, Vec::new());
        let mut seen: HashSet<State> = m.init_states().into_iter().collect();
        let mut queue: VecDeque<State> = m.init_states().into();
        let (mut expanded, before) = (0, steps);
        while let Some(s) = queue.pop_front() {
            expanded += 1;
            if expanded > STATES {
                break;
            }
            let mut acts = Vec::new();
            m.actions(&s, &mut acts);
            for a in acts {
                let Some(t) = m.next_state(&s, a) else {
                    failures.push(format!("{name}: {a:?} offered but not enabled"));
                    continue;
                };
                if Cluster::leaves_state_as_is(&a) {
                    steps += 1;
                    if t != s || hash(&t) != hash(&s) {
                        failures.push(format!("{name}: {a:?} changes the state"));
                    }
                }
                if seen.insert(t.clone()) {
                    queue.push_back(t);
                }
            }
        }
        scenarios += usize::from(steps > before);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Not vacuous: the scenarios with clients sending requests are among them.
    eprintln!("{steps} steps in {scenarios} scenarios");
    assert!(scenarios >= 3, "only {scenarios} scenarios have such steps");
    assert!(steps >= 10_000, "only {steps} such steps checked");
}
