//! Vacuity: a check that saw nothing of what it was asked about says so. Each warning class
//! on a scenario made to have it, none on the scenarios that do not, and none from an
//! incomplete run; and no verdict contradicts itself: a violated property is never vacuous.

use podcheck_input::catalogue;
use podcheck_input::spec::parse_scenarios;
use podcheck_model::{Scenario, Verdict};
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};
use podcheck_properties::vacuity::Warning;

mod common;

/// What the scenario expects: a premise that never holds and a witness never met.
const EXPECT: &str = r#"  expect:
    - {property: statefulset_at_most_one, verdict: holds, source: "test"}
    - {property: pod_becomes_ready, verdict: holds, source: "test: wrongly expected"}
"#;

/// A Deployment whose pod requests more cpu than any node has: it never schedules, so it is
/// never Ready, and a `deletePod` (which deletes a Ready pod) is never enabled.
fn scenario(start: &str) -> Scenario {
    let text = common::yaml::pod_fitting_no_node("never-schedules", Some(start), EXPECT);
    parse_scenarios(&text, "test.yaml").unwrap().remove(0)
}

fn check(s: &Scenario, opts: &CheckOptions) -> ScenarioResult {
    check::check(s, opts).unwrap()
}

#[test]
fn a_check_where_nothing_happens_warns_of_each_thing_that_never_happened() {
    let r = check(&scenario("empty"), &CheckOptions::default());
    assert!(r.complete);
    assert_eq!(
        r.warnings,
        vec![
            Warning::FaultNeverHappened {
                index: 0,
                fault: "deletePod of workload web".into()
            },
            Warning::PremiseNeverHolds {
                property: "statefulset_at_most_one",
                premise: "a running container of a StatefulSet pod",
            },
            Warning::WitnessNeverMet {
                property: "pod_becomes_ready"
            },
        ]
    );
    let text = r.warnings[0].to_string();
    assert!(text.starts_with("faults[0] (deletePod of workload web) never happened"));
    // The unlisted vacuous safety properties are marked, not warned of.
    let marked = |name: &str| {
        r.properties
            .iter()
            .find(|p| p.def.name == name)
            .unwrap()
            .vacuous
    };
    assert!(marked("statefulset_at_most_one"));
    assert!(marked("job_one_pod_per_index"));
    assert!(
        marked("backoff_bounded"),
        "no container is ever in a back-off"
    );
    assert!(!marked("pending_until_first_start"), "it has no premise");
}

#[test]
fn a_settled_start_that_never_settled_is_a_warning() {
    let r = check(&scenario("settled"), &CheckOptions::default());
    assert_eq!(
        r.warnings[0],
        Warning::StartNeverSettled {
            missing: vec!["web has 0 of 1 pods Ready".into()]
        }
    );
}

#[test]
fn an_incomplete_run_never_says_never() {
    let r = check(
        &scenario("empty"),
        &CheckOptions {
            max_states: Some(2),
            ..CheckOptions::default()
        },
    );
    assert!(!r.complete);
    assert!(r.warnings.is_empty());
    assert!(r.properties.iter().all(|p| !p.vacuous));
}

#[test]
fn a_premise_that_happens_is_not_vacuous() {
    let s = catalogue::find("statefulset-partition").unwrap();
    let r = check(&s, &CheckOptions::default());
    let p = |name: &str| r.properties.iter().find(|p| p.def.name == name).unwrap();
    assert!(!p("statefulset_at_most_one").vacuous);
    assert!(!p("unreachable_pods_leave_endpoints").vacuous);
    assert!(p("job_running_pods_within_parallelism").vacuous);
}

/// A property judged on client requests is vacuous where no client sends any
/// (`service.clients: false`), however many routes the kube-proxies hold; with clients, the
/// same routes make it judged.
#[test]
fn a_request_property_without_clients_is_vacuous() {
    let vacuous = |clients: bool| {
        // A ClusterIP Service: the kube-proxies route it (a headless one has no clients).
        let mut s = catalogue::find("statefulset-partition-clusterip").unwrap();
        s.service.as_mut().unwrap().clients = clients;
        let r = check(&s, &CheckOptions::default());
        assert!(r.complete);
        [
            "no_request_to_stopped_container",
            "no_request_finds_no_endpoints",
        ]
        .map(|name| {
            r.properties
                .iter()
                .find(|p| p.def.name == name)
                .unwrap()
                .vacuous
        })
    };
    assert_eq!(vacuous(false), [true, true]);
    assert_eq!(vacuous(true), [false, false]);
}

/// What contradicts itself in a result: a property both violated and vacuous, or a warning
/// that a violated property holds vacuously.
fn contradictions(r: &ScenarioResult) -> Vec<String> {
    let violated = |name: &str| {
        r.properties
            .iter()
            .any(|p| p.def.name == name && p.verdict == Verdict::Violated)
    };
    let marked = r
        .properties
        .iter()
        .filter(|p| p.verdict == Verdict::Violated && p.vacuous)
        .map(|p| {
            format!(
                "{}: {} is violated and vacuous",
                r.scenario.name, p.def.name
            )
        });
    let warned = r.warnings.iter().filter_map(|w| match w {
        Warning::PremiseNeverHolds { property, .. } if violated(property) => {
            Some(format!("{}: {w}, but it is violated", r.scenario.name))
        }
        _ => None,
    });
    marked.chain(warned).collect()
}

/// No property is both violated and vacuous, in any built-in scenario nor in a force delete of
/// a pod whose program ignores SIGTERM: there the object is gone at once, without a
/// deletionTimestamp, and the kubelet kills the containers as a pod being deleted, so
/// `graceful_stop_within_grace` is violated, and judged.
#[test]
fn no_violated_property_is_vacuous() {
    let mut all = catalogue::builtin();
    let force = common::yaml::force_delete_ignoring_sigterm("force-delete-sigterm-ignored");
    all.extend(parse_scenarios(&force, "test.yaml").unwrap());
    let (mut failures, mut violated) = (Vec::new(), 0);
    for s in &all {
        let r = check(s, &CheckOptions::default());
        assert!(r.complete, "{}", s.name);
        failures.extend(contradictions(&r));
        violated += r
            .properties
            .iter()
            .filter(|p| p.verdict == Verdict::Violated && p.def.premise.is_some())
            .count();
        if s.name == "force-delete-sigterm-ignored" {
            let p = r
                .properties
                .iter()
                .find(|p| p.def.name == "graceful_stop_within_grace")
                .unwrap();
            assert_eq!(p.verdict, Verdict::Violated);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Not vacuous itself: many violated verdicts of properties with a premise were looked at.
    assert!(
        violated >= 50,
        "{violated} violated properties with a premise"
    );
}

/// The rule, whatever a premise says: a property of one's own whose premise no state has, and
/// that a run breaks, is violated, not vacuous, and no warning says it holds vacuously (here
/// under the name of a property the scenario lists, which is what a warning needs).
#[test]
fn a_violated_property_is_not_vacuous_whatever_its_premise() {
    use podcheck_model::{Cluster, State};
    use podcheck_properties::{Kind, Premise, PropertyDef};
    fn never(_: &Cluster, _: &State) -> bool {
        false
    }
    let name = "force-delete-sigterm-ignored";
    let text = common::yaml::force_delete_ignoring_sigterm(name);
    let s = parse_scenarios(&text, "test.yaml").unwrap().remove(0);
    let def = PropertyDef {
        name: "graceful_stop_within_grace",
        kind: Kind::Always(never),
        sentence: "Nothing ever happens.",
        source: "this test",
        layer: "model",
        premise: Some(Premise {
            condition: never,
            sentence: "a state that no run has",
        }),
    };
    let r = check::check_with(&s, &[def], &CheckOptions::default()).unwrap();
    assert!(r.complete);
    assert_eq!(r.properties[0].verdict, Verdict::Violated);
    assert!(!r.properties[0].vacuous);
    assert!(contradictions(&r).is_empty(), "{:?}", contradictions(&r));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}
