//! Symmetry changes no verdict and no trace length: every built-in scenario, at sizes where
//! it has interchangeable nodes or interchangeable Deployment pods, checked with and without
//! the reduction.

use podcheck_input::catalogue;
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
    let mut with_leads_to = Vec::new();
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
            if !on.symmetry.is_empty()
                && on
                    .properties
                    .iter()
                    .any(|p| matches!(p.def.kind, podcheck_properties::Kind::LeadsTo { .. }))
            {
                with_leads_to.push(s.name.clone());
            }
        }
    }
    // A `leads_to` the quotient shows to hold is judged there, not on the whole graph.
    assert!(
        !with_leads_to.is_empty(),
        "no scenario with a leads_to property was reduced: {reduced:?}"
    );
    // Not vacuous: most scenarios that fit the bound get smaller at four nodes. (Those whose
    // `within` or `leads_to` the quotient cannot show to hold are checked whole: healthy,
    // sigterm-ignored and all-nodes-unreachable among them.)
    assert!(reduced.len() >= 7, "only {reduced:?} were reduced");
    eprintln!("reduced: {reduced:?}; with leads_to: {with_leads_to:?}");
}

#[test]
fn node_symmetry_on_threads_gives_the_same_traces() {
    // At two nodes, reduced by its interchangeable pods (at three, one of its `leads_to`
    // properties is not shown to hold on the quotient, and the check runs whole).
    let mut s = catalogue::find("termination-race").unwrap();
    s.resize(Some(2), None).unwrap();
    let one = run(&s, true, 1);
    let two = run(&s, true, 2);
    assert!(!one.symmetry.is_empty());
    assert_eq!(one.unique_states, two.unique_states);
    for (a, b) in one.properties.iter().zip(&two.properties) {
        assert_eq!(a.verdict, b.verdict, "{}", a.def.name);
        assert_eq!(a.actions(), b.actions(), "{}", a.def.name);
    }
}

#[test]
fn nodes_and_pods_reduced_together_give_the_same_graph_on_threads() {
    // Interchangeable nodes and pods together: here the representative of a representative
    // is at times another state of its class (the pods renumbered for the new node order
    // change the nodes' keys), and a successor the graph holds is taken as it is. The chunked
    // search must decide that as one thread does, and every trace must still replay.
    let mut s = catalogue::find("deployment-partition").unwrap();
    s.resize(Some(3), Some(2)).unwrap();
    let one = run(&s, true, 1);
    let two = run(&s, true, 2);
    assert!(one.complete && two.complete);
    // Two classes: the nodes node-2 and node-3, and the pods of web.
    assert_eq!(one.symmetry.len(), 2, "{:?}", one.symmetry);
    assert_eq!(one.unique_states, two.unique_states);
    for (a, b) in one.properties.iter().zip(&two.properties) {
        assert_eq!(a.verdict, b.verdict, "{}", a.def.name);
        assert_eq!(a.actions(), b.actions(), "{}", a.def.name);
    }
    let off = run(&s, false, 1);
    assert!(compare(&s.name, &one, &off));
}

#[test]
fn a_leads_to_the_quotient_cannot_show_is_judged_on_the_whole_graph() {
    // The sandbox never starts: `scheduled_leads_to_running` is violated. The quotient cannot
    // give that verdict, so the check runs again without the reduction, and its lasso is a
    // real run.
    let mut s = catalogue::find("stuck-sandbox").unwrap();
    s.resize(Some(3), None).unwrap();
    assert!(!podcheck_model::symmetry::Symmetry::of(&s).is_trivial());
    let r = run(&s, true, 1);
    assert!(
        r.symmetry.is_empty(),
        "it must have fallen back to the whole graph"
    );
    let off = run(&s, false, 1);
    assert_eq!(r.unique_states, off.unique_states);
    let p = r
        .properties
        .iter()
        .find(|p| p.def.name == "scheduled_leads_to_running")
        .unwrap();
    assert_eq!(p.verdict, podcheck_model::Verdict::Violated);
    assert!(p.lasso.is_some());
}

#[test]
fn a_bounded_quotient_leaves_leads_to_incomplete_without_running_again() {
    let mut s = catalogue::find("statefulset-partition").unwrap();
    s.resize(Some(3), Some(2)).unwrap();
    let opts = CheckOptions {
        max_states: Some(20_000),
        ..CheckOptions::default()
    };
    let r = check::check(&s, &opts).unwrap();
    assert!(!r.complete);
    // Still the quotient's run: it did not start over on the whole graph.
    assert!(!r.symmetry.is_empty());
    assert_eq!(r.unique_states, 20_000);
    let p = r
        .properties
        .iter()
        .find(|p| p.def.name == "deleted_leads_to_gone")
        .unwrap();
    assert_eq!(p.verdict, podcheck_model::Verdict::Incomplete);
}

#[test]
fn pod_symmetry_keeps_every_built_in_verdict_and_trace_length() {
    let mut reduced = Vec::new();
    let mut with_leads_to = Vec::new();
    for base in catalogue::builtin() {
        if podcheck_model::symmetry::interchangeable_pods(&base).is_empty() {
            continue;
        }
        for (nodes, replicas) in [(None, Some(2)), (Some(2), Some(2)), (None, Some(3))] {
            let mut s = base.clone();
            if s.resize(nodes, replicas).is_err() {
                continue;
            }
            let off = run(&s, false, 1);
            if !off.complete {
                continue;
            }
            let on = run(&s, true, 1);
            assert!(on.complete, "{}: the reduced run is incomplete", s.name);
            let name = format!("{} at {nodes:?} x {replicas:?}", s.name);
            if compare(&name, &on, &off) {
                reduced.push(name.clone());
                if on.symmetry.iter().any(|c| c[0].starts_with("pods of "))
                    && on
                        .properties
                        .iter()
                        .any(|p| matches!(p.def.kind, podcheck_properties::Kind::LeadsTo { .. }))
                {
                    with_leads_to.push(name);
                }
            }
        }
    }
    assert!(
        !with_leads_to.is_empty(),
        "no scenario with a leads_to property was reduced by its pods: {reduced:?}"
    );
    assert!(reduced.len() >= 10, "only {reduced:?} were reduced");
    eprintln!("reduced: {reduced:?}; with leads_to: {with_leads_to:?}");
}

#[test]
fn pod_symmetry_under_a_scale_or_rollout_keeps_every_verdict_and_trace_length() {
    // The ReplicaSet's scale-down chooses among the pods tied at its cut, so a Deployment
    // that a `scale` or a `rolloutRestart` scales down keeps its pods interchangeable: every
    // such built-in scenario, with those pods reduced and not (`scaled_pod_symmetry`).
    let run = |s: &podcheck_model::Scenario, on: bool| {
        let opts = CheckOptions {
            max_states: Some(BOUND),
            scaled_pod_symmetry: on,
            ..CheckOptions::default()
        };
        check::check(s, &opts).expect("a built-in scenario checks")
    };
    let mut scaled = Vec::new();
    let mut reduced = Vec::new();
    for base in catalogue::builtin() {
        // A StatefulSet's pods are told apart by ordinal, and its rollout deletes by
        // ordinal: only a Deployment's scale or rollout is about interchangeable pods.
        let scales = base.faults.iter().any(|f| match f {
            podcheck_input::spec::Fault::Scale { workload, .. }
            | podcheck_input::spec::Fault::RolloutRestart { workload } => {
                base.workloads.iter().any(|w| {
                    w.name() == workload
                        && matches!(w, podcheck_input::spec::Workload::Deployment { .. })
                })
            }
            _ => false,
        });
        if !scales {
            continue;
        }
        assert!(
            podcheck_model::symmetry::scaled_pods(&base),
            "{}: its pods are told apart",
            base.name
        );
        scaled.push(base.name.clone());
        for (nodes, replicas) in [(None, None), (None, Some(2)), (Some(2), Some(3))] {
            let mut s = base.clone();
            if s.resize(nodes, replicas).is_err() {
                continue;
            }
            let name = format!("{} at {nodes:?} x {replicas:?}", s.name);
            let off = run(&s, false);
            if !off.complete {
                continue;
            }
            assert!(
                !off.symmetry.iter().any(|c| c[0].starts_with("pods of ")),
                "{name}: the pods were reduced with scaled_pod_symmetry off"
            );
            let on = run(&s, true);
            assert!(on.complete, "{name}: the reduced run is incomplete");
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
            assert!(on.unique_states <= off.unique_states, "{name}");
            if on.unique_states < off.unique_states {
                assert!(
                    on.symmetry.iter().any(|c| c[0].starts_with("pods of ")),
                    "{name}"
                );
                reduced.push(name);
            }
        }
    }
    // rolling-update, rolling-update-prestop, recreate, scale-down.
    assert!(scaled.len() >= 4, "only {scaled:?} scale or roll out");
    assert!(reduced.len() >= 4, "only {reduced:?} were reduced");
    eprintln!("reduced: {reduced:?}");
}

#[test]
fn the_pod_quotient_has_one_state_per_class_of_the_whole_graph() {
    // Where the pods alone are interchangeable, `representative` (the pods renumbered in
    // canonical order) is one state per class: count the classes of every reachable state,
    // by a search of its own, and compare with the quotient's count.
    use podcheck_model::Cluster;
    use stateright::Model;
    use std::collections::{HashSet, VecDeque};
    let fp = podcheck_properties::explore::fingerprint::<podcheck_model::state::State>;
    // drain-respects-budget: a drain run's list of pods is a set (it is renumbered too).
    for name in [
        "deployment-partition",
        "termination-race",
        "drain-respects-budget",
    ] {
        let mut s = catalogue::find(name).unwrap();
        s.resize(Some(2), Some(2)).unwrap();
        // The pods alone: without the interchangeable kube-proxies.
        let mut m = Cluster::new(s.clone(), Vec::new());
        m.symmetry = m.symmetry.without_proxies();
        assert!(
            m.symmetry.classes().is_empty(),
            "{name}: nodes are interchangeable"
        );
        assert!(
            !m.symmetry.pod_workloads().is_empty(),
            "{name}: pods are not"
        );
        let mut seen = HashSet::new();
        let mut classes = HashSet::new();
        let mut queue: VecDeque<_> = m.init_states().into_iter().collect();
        queue.retain(|s| seen.insert(fp(s)));
        let mut actions = Vec::new();
        while let Some(s) = queue.pop_front() {
            classes.insert(fp(&m.symmetry.representative(&s)));
            m.actions(&s, &mut actions);
            for a in actions.drain(..) {
                if let Some(t) = m.next_state(&s, a) {
                    if m.within_boundary(&t) && seen.insert(fp(&t)) {
                        queue.push_back(t);
                    }
                }
            }
        }
        let on = check::check(
            &s,
            &CheckOptions {
                max_states: Some(BOUND),
                proxy_symmetry: false,
                ..CheckOptions::default()
            },
        )
        .expect("a built-in scenario checks");
        assert!(on.complete, "{name}");
        assert!(
            classes.len() < seen.len(),
            "{name}: no two states are one class"
        );
        assert_eq!(
            on.unique_states,
            classes.len(),
            "{name}: {} states",
            seen.len()
        );
    }
}

/// The plan scenarios of `yaml` under the drain plan.
fn drain_scenarios(check: podcheck::Check) -> Vec<podcheck_model::Scenario> {
    struct Quiet;
    impl podcheck::Observer for Quiet {}
    check
        .plan(podcheck::Plan::Drain)
        .prepare(&mut Quiet)
        .expect("the manifests read")
        .planned
        .into_iter()
        .map(|p| p.scenario)
        .collect()
}

#[test]
fn pod_symmetry_under_a_drain_keeps_every_verdict_and_trace_length() {
    // Two replicas on the drained node, evicted side by side, and their two replacements:
    // four pods of one Deployment.
    let yaml = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}\n";
    let mut scenarios = drain_scenarios(podcheck::Check::text("web.yaml", yaml));
    for app in ["pdb-drain/unsafe", "pdb-drain/fixed"] {
        let check = podcheck::Check::manifests(format!("examples/manifests/{app}")).unwrap();
        scenarios.extend(drain_scenarios(check));
    }
    let mut reduced = Vec::new();
    for s in &scenarios {
        assert!(
            !podcheck_model::symmetry::interchangeable_pods(s).is_empty(),
            "{}: its pods are not interchangeable",
            s.name
        );
        let off = run(s, false, 1);
        assert!(off.complete, "{}", s.name);
        let on = run(s, true, 1);
        assert!(on.complete, "{}", s.name);
        if compare(&s.name, &on, &off) {
            reduced.push(s.name.clone());
        }
    }
    assert!(
        reduced.iter().any(|n| n.starts_with("web.yaml")),
        "the two replicas' drain was not reduced: {reduced:?}"
    );
}

/// The interchangeable kube-proxies (`symmetry::interchangeable_proxies`) change no verdict
/// and no trace length: every built-in scenario with a Service the proxies route, at sizes
/// where two proxies or more are interchangeable, checked with the node symmetry alone and
/// with the proxies apart from their nodes as well.
#[test]
fn proxy_symmetry_keeps_every_built_in_verdict_and_trace_length() {
    use podcheck_model::symmetry::interchangeable_proxies;
    let run = |s: &podcheck_model::Scenario, proxies: bool| {
        let opts = CheckOptions {
            max_states: Some(BOUND),
            proxy_symmetry: proxies,
            ..CheckOptions::default()
        };
        check::check(s, &opts).expect("a built-in scenario checks")
    };
    let mut reduced = Vec::new();
    let mut compared = 0;
    for base in catalogue::builtin() {
        for (nodes, replicas) in [(None, None), (Some(3), None), (Some(3), Some(2))] {
            let mut s = base.clone();
            if s.resize(nodes, replicas).is_err() || interchangeable_proxies(&s).is_empty() {
                continue;
            }
            let name = format!("{} at {nodes:?} x {replicas:?}", s.name);
            let off = run(&s, false);
            if !off.complete {
                continue;
            }
            let on = run(&s, true);
            assert!(on.complete, "{name}: the reduced run is incomplete");
            assert!(
                !off.symmetry
                    .iter()
                    .any(|c| c[0].starts_with("kube-proxies")),
                "{name}: the proxies were reduced with the switch off"
            );
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
            assert!(on.unique_states <= off.unique_states, "{name}");
            compared += 1;
            if on.unique_states < off.unique_states {
                reduced.push(name);
            }
        }
    }
    // Not vacuous: several scenarios compared, and some of them smaller.
    assert!(compared >= 3, "only {compared} scenarios compared");
    assert!(reduced.len() >= 2, "only {reduced:?} were reduced");
    eprintln!("{compared} compared; reduced: {reduced:?}");
}

/// A check whose reductions cannot decide a property judges it again without one of them;
/// when that second run stops at a bound, the verdicts the complete first run decided stand
/// (they are exact), and only what neither run decided is `incomplete`. Each scenario here
/// is one the reductions leave a `leads_to` to judge again: without the interchangeable
/// kube-proxies, or without the interchangeable nodes and pods.
#[test]
fn a_stopped_second_run_keeps_what_the_complete_first_run_decided() {
    use podcheck_input::spec::Verdict;
    let mut left_undecided = Vec::new();
    for name in [
        "termination-race-prestop",
        "scale-down",
        "partial-disruption",
        "sigterm-ignored",
    ] {
        let s = catalogue::find(name).expect("a built-in scenario");
        let full = check::check(&s, &CheckOptions::default()).expect("it checks");
        assert!(full.complete && full.earlier.is_none(), "{name}");
        // Room for the first run (a quotient), not for the whole graph.
        let opts = CheckOptions {
            max_states: Some(full.unique_states - 1),
            ..CheckOptions::default()
        };
        let stopped = check::check(&s, &opts).expect("it checks");
        assert!(!stopped.complete, "{name}");
        let e = stopped
            .earlier
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no complete first run"));
        assert!(e.unique_states < full.unique_states, "{name}");
        assert!(!e.undecided.is_empty(), "{name}");
        let mut kept = 0;
        for (a, b) in stopped.properties.iter().zip(&full.properties) {
            assert_eq!(a.def.name, b.def.name, "{name}");
            if e.undecided.contains(&a.def.name) {
                // Judged again only, by the run that stopped.
                assert!(
                    a.verdict == Verdict::Incomplete || a.verdict == b.verdict,
                    "{name}: {}",
                    a.def.name
                );
            } else {
                assert_eq!(a.verdict, b.verdict, "{name}: {}", a.def.name);
                assert_eq!(a.trace_steps(), b.trace_steps(), "{name}: {}", a.def.name);
                assert_eq!(a.vacuous, b.vacuous, "{name}: {}", a.def.name);
                kept += 1;
            }
        }
        assert!(kept > 0, "{name}: nothing kept");
        if stopped
            .properties
            .iter()
            .any(|p| p.verdict == Verdict::Incomplete)
        {
            left_undecided.push(name);
        }
    }
    // Not vacuous: stopped second runs that left something undecided (a stopped run may
    // still find a lasso, which is a real one).
    assert!(left_undecided.len() >= 2, "{left_undecided:?}");
}
