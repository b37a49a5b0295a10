//! The premises of the catalogue's safety properties ([`PropertyDef::premise`]), checked on
//! data: wherever a property's condition fails, in a state (`always`) or on a transition it
//! judges (`step`), its premise holds there (for a step, in the state before it or the one
//! after it: both are reachable). A complete run in which no reachable state has a property's
//! premise marks it vacuous, "it judged nothing"; a premise that did not cover every state
//! where its property can be broken would call a violated property vacuous, and one that holds
//! vacuous where it judged a pod that broke nothing.
//!
//! The states are those of every built-in scenario (breadth first, up to `STATES` each) and of
//! the scenarios below, which reach what the catalogue does not: a force-deleted pod whose
//! program ignores SIGTERM (its object is gone at once, and the kubelet kills its containers
//! as a pod being deleted).

use podcheck_input::catalogue as scenarios;
use podcheck_input::spec::{parse_scenarios, Scenario};
use podcheck_model::{Action, Cluster, State};
use podcheck_properties::catalogue::{self, Kind};
use podcheck_properties::PropertyDef;
use stateright::Model;
use std::collections::{HashSet, VecDeque};

/// States per scenario, in breadth-first order from its start.
const STATES: usize = 20_000;

/// Scenarios beyond the catalogue's: each breaks a property in a situation no built-in
/// scenario breaks it in.
const MORE: &str = r#"
- name: force-delete-sigterm-ignored
  description: A shell as PID 1 ignores SIGTERM; kubectl delete pod --grace-period=0 --force on its pod.
  source: "this test"
  workloads:
    - kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 1
        template:
          spec:
            containers:
              - name: app
                image: web:1.0
                resources: {requests: {cpuMilli: 500}}
                app: {onSigterm: ignore}
  faults:
    - forceDeletePod: {workload: web}
"#;

/// Where `def` breaks in `s` or on one of its `steps`: the places (`a state`, or the step's
/// action), each with whether its premise holds there.
fn broken_at(
    m: &Cluster,
    def: &PropertyDef,
    s: &State,
    steps: &[(Action, State)],
) -> Vec<(String, bool)> {
    let premise = def
        .premise
        .expect("asked about properties with a premise")
        .condition;
    match def.kind {
        Kind::Always(c) if !c(m, s) => vec![("a state".to_string(), premise(m, s))],
        Kind::Step { condition, on } => steps
            .iter()
            .filter(|(a, n)| on.judges(a) && !condition(m, s, a, n))
            .map(|(a, n)| (format!("{a:?}"), premise(m, s) || premise(m, n)))
            .collect(),
        _ => Vec::new(),
    }
}

#[test]
fn every_premise_holds_where_its_property_is_broken() {
    let defs: Vec<PropertyDef> = catalogue::all()
        .into_iter()
        .filter(|d| d.kind.is_safety() && d.premise.is_some())
        .collect();
    assert!(
        defs.len() >= 30,
        "{} safety properties with a premise",
        defs.len()
    );
    let mut all: Vec<Scenario> = scenarios::builtin();
    all.extend(parse_scenarios(MORE, "this test").expect("the test's scenarios are valid"));
    let mut broken = vec![0usize; defs.len()];
    let mut failures = Vec::new();
    for scenario in all {
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
            let steps: Vec<_> = actions
                .iter()
                .filter_map(|a| Some((*a, m.next_state(&s, *a)?)))
                .collect();
            for (k, d) in defs.iter().enumerate() {
                let places = broken_at(&m, d, &s, &steps);
                broken[k] += places.len();
                // One example for each scenario and property.
                let Some((at, _)) = places.into_iter().find(|(_, covered)| !covered) else {
                    continue;
                };
                let key = format!("{name}: {} ", d.name);
                if !failures.iter().any(|f: &String| f.starts_with(&key)) {
                    failures.push(format!(
                        "{key}is broken at {at}, where its premise ({}) does not hold",
                        d.premise.unwrap().sentence
                    ));
                }
            }
            for (_, n) in steps {
                if seen.insert(n.clone()) {
                    queue.push_back(n);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Not vacuous itself: the scenarios break many of the properties.
    let judged = broken.iter().filter(|&&b| b > 0).count();
    assert!(judged >= 15, "only {judged} properties broken anywhere");
    assert!(
        broken[defs
            .iter()
            .position(|d| d.name == "graceful_stop_within_grace")
            .unwrap()]
            > 0,
        "no scenario breaks graceful_stop_within_grace"
    );
}
