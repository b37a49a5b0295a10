//! The Kubernetes release as input: every behaviour the model knows to differ between releases
//! is chosen by `cluster.kubernetesVersion` (or `--kubernetes-version`), and a release changes
//! exactly the verdicts that the cited changes imply (`docs/sources.md#behaviour-by-release`).

mod common;

use podcheck_input::catalogue;
use podcheck_input::spec::{Expectation, Release, Scenario};
use podcheck_model::context::{ByRelease, Context};
use podcheck_model::Verdict;
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};
use std::collections::BTreeMap;

fn at(name: &str, release: &str) -> Scenario {
    let mut s = catalogue::find(name).unwrap_or_else(|| panic!("no scenario {name}"));
    s.cluster.kubernetes_version = Some(release.into());
    s.validate().unwrap();
    s
}

fn verdicts(r: &ScenarioResult) -> BTreeMap<&'static str, Verdict> {
    r.properties
        .iter()
        .map(|p| (p.def.name, p.verdict))
        .collect()
}

fn run(s: &Scenario) -> ScenarioResult {
    let r = check::check(s, &CheckOptions::default()).unwrap();
    assert!(
        r.complete,
        "{} at {:?}",
        s.name, s.cluster.kubernetes_version
    );
    r
}

/// The properties whose verdicts differ between two runs, with (before, after).
fn changed(a: &ScenarioResult, b: &ScenarioResult) -> BTreeMap<&'static str, (Verdict, Verdict)> {
    let (va, vb) = (verdicts(a), verdicts(b));
    assert_eq!(
        va.keys().collect::<Vec<_>>(),
        vb.keys().collect::<Vec<_>>(),
        "the same properties are checked at both releases"
    );
    va.iter()
        .filter(|(k, v)| vb[*k] != **v)
        .map(|(k, v)| (*k, (*v, vb[k])))
        .collect()
}

use Verdict::{Holds, Violated};

/// The done-when: one replica, preStop sleep longer than the proxy lag. Before 1.26
/// kube-proxy drops the deleted pod (it is not ready) and never routes to it after SIGTERM;
/// from 1.26 it falls back to it while it still serves, and keeps routing to it after
/// SIGTERM (KEP-1669). The terminal phase of the deleted pod comes with 1.27 (PR #115331).
/// Nothing else changes.
#[test]
fn single_replica_prestop_differs_exactly_by_the_fallback_and_the_terminal_phase() {
    let old = run(&at("prestop-single-replica", "1.25"));
    let new = run(&at("prestop-single-replica", "1.35"));
    let expected: BTreeMap<&str, (Verdict, Verdict)> = [
        ("no_request_to_stopped_container", (Holds, Violated)),
        ("deleted_pod_ends_succeeded", (Violated, Holds)),
    ]
    .into();
    assert_eq!(changed(&old, &new), expected);
    // Each change at its own release: 1.26 has the fallback, not the terminal phase.
    let mid = run(&at("prestop-single-replica", "1.26"));
    assert_eq!(
        changed(&old, &mid),
        [("no_request_to_stopped_container", (Holds, Violated))].into()
    );
    assert_eq!(
        changed(&mid, &new),
        [("deleted_pod_ends_succeeded", (Violated, Holds))].into()
    );
}

/// A force delete with a preStop sleep: from 1.31 the kubelet kills the orphan with 1 s
/// (PR #124063), which cuts the 5 s sleep short inside the proxies' 3 s lag; in 1.30 it had the
/// spec's 30 s. That one verdict changes, and nothing else.
#[test]
fn force_delete_grace_differs_between_1_30_and_1_31() {
    let old = run(&at("force-delete-prestop", "1.30"));
    let new = run(&at("force-delete-prestop", "1.31"));
    assert_eq!(
        changed(&old, &new),
        [("no_request_to_stopped_container", (Holds, Violated))].into()
    );
}

/// The out-of-service taint: from 1.26 PodGC force-deletes the Terminating db-0 of the
/// tainted node (gate `NodeOutOfServiceVolumeDetach` on by default, KEP-2268) and the new db-0
/// runs beside the old one; in 1.25 the taint only evicts, gracefully, and db-0 stays fenced.
#[test]
fn out_of_service_taint_differs_between_1_25_and_1_26() {
    let old = run(&at("statefulset-out-of-service", "1.25"));
    let new = run(&at("statefulset-out-of-service", "1.26"));
    assert_eq!(
        changed(&old, &new),
        [
            ("force_delete_cleans_runtime", (Holds, Violated)),
            ("statefulset_at_most_one", (Holds, Violated)),
            // With its ReadWriteOnce claim: from 1.26 the taint also force-detaches the
            // volume at once, while the old node still has it mounted.
            ("rwo_volume_mounted_on_one_node", (Holds, Violated)),
        ]
        .into()
    );
}

/// `unhealthyPodEvictionPolicy: AlwaysAllow`: from 1.27 (gate `PDBUnhealthyPodEvictionPolicy`
/// beta, KEP-3017) the Eviction API deletes an unready pod though the budget has no healthy
/// pod; in 1.26 the field is dropped and the pod gets 429. That one verdict changes.
#[test]
fn unhealthy_pod_eviction_policy_differs_between_1_26_and_1_27() {
    let old = run(&at("drain-unhealthy-always-allow", "1.26"));
    let new = run(&at("drain-unhealthy-always-allow", "1.27"));
    assert_eq!(
        changed(&old, &new),
        [("unready_pod_evicted_only_within_budget", (Holds, Violated))].into()
    );
}

/// A liveness probe's own `terminationGracePeriodSeconds`: from 1.25 (gate
/// `ProbeTerminationGracePeriod` on by default, KEP-2238) the kill it causes has the probe's
/// 5 s; in 1.24 the field is dropped and the program that ignores SIGTERM lives the pod's 30 s.
/// That one verdict changes.
#[test]
fn probe_termination_grace_differs_between_1_24_and_1_25() {
    let old = run(&at("probe-termination-grace", "1.24"));
    let new = run(&at("probe-termination-grace", "1.25"));
    assert_eq!(
        changed(&old, &new),
        [("probe_kill_within_probe_grace", (Violated, Holds))].into()
    );
}

/// The canonical run of `node-shutdown-prestop` at `release`, its preStop lengthened to 15 s
/// so that a readiness period (10 s) passes while the shut-down pod stops: whether a probe of
/// the pod ran after the shutdown manager killed it, and whether, with its readiness result
/// set to Failure at the kill, the kubelet then reads its running container ready.
fn shutdown_probing(release: &str) -> (bool, bool) {
    use podcheck_input::spec::{PreStop, SleepAction, Workload};
    use podcheck_model::state::{ProbeKind, ProbeResult, Run};
    use podcheck_model::{faults, kubelet, Action};
    use stateright::Model;
    let mut s = at("node-shutdown-prestop", release);
    let Workload::Deployment { spec, .. } = &mut s.workloads[0] else {
        panic!("a Deployment");
    };
    let pre_stop = &mut spec.template.spec.containers[0]
        .lifecycle
        .as_mut()
        .unwrap()
        .pre_stop;
    *pre_stop = Some(PreStop {
        sleep: SleepAction { seconds: 15 },
    });
    s.validate().unwrap();
    let m = check::model(&s, &[], false);
    let mut st = m.initial_state();
    let mut acts = Vec::new();
    m.actions(&st, &mut acts);
    let shutdown = acts
        .into_iter()
        .find(|a| matches!(a, Action::Fault(faults::Action::Fault { index: 0, .. })))
        .expect("the shutdown is enabled");
    st = m.apply(&st, &shutdown).unwrap();
    let (mut probed, mut ready_unprobed) = (false, None);
    for _ in 0..1_000 {
        let Some(a) = common::run::next_step(&m, &st) else {
            break;
        };
        let killed = |st: &podcheck_model::state::State, uid| {
            st.nodes[0]
                .pods
                .iter()
                .any(|rt| rt.uid == uid && rt.shutdown)
        };
        if let Action::Kubelet(kubelet::Action::Probe { uid, .. }) = a {
            probed |= killed(&st, uid);
        }
        let next = m.apply(&st, &a).unwrap();
        // At the kill: the readiness result Failure, as a program that stops answering gives.
        if ready_unprobed.is_none() {
            if let Some(rt) = next.nodes[0].pods.iter().find(|rt| rt.shutdown) {
                let mut failing = (**rt).clone();
                if let Some(w) = failing.ctrs[0].probes[ProbeKind::Readiness as usize].as_mut() {
                    w.result = ProbeResult::Failure;
                }
                assert!(matches!(failing.ctrs[0].run, Run::Running(_)));
                let pod = next.pod(rt.uid).unwrap();
                let status = kubelet::compute_status(&m, &next, pod, &failing);
                ready_unprobed = Some(status.statuses[0].ready);
            }
        }
        st = next;
    }
    (probed, ready_unprobed.expect("the pod is killed"))
}

/// Graceful node shutdown in 1.23 and 1.24 removes a pod's probe workers before it kills it
/// (`probeManager.RemovePod`, PR #105215), so nothing probes the stopping pod and, with no
/// readiness worker, its running container reads ready whatever its probe would say
/// (kubernetes#105780, kubernetes#116965); 1.22 had no such call, and from 1.25 the pod
/// worker owns the probes (PR #110191) and readiness is probed until the containers stop.
#[test]
fn shutdown_removes_probe_workers_in_1_23_and_1_24_only() {
    assert_eq!(
        shutdown_probing("1.22"),
        (true, false),
        "1.22 keeps probing"
    );
    assert_eq!(
        shutdown_probing("1.23"),
        (false, true),
        "1.23 removes the workers"
    );
    assert_eq!(
        shutdown_probing("1.24"),
        (false, true),
        "1.24 removes the workers"
    );
    assert_eq!(
        shutdown_probing("1.25"),
        (true, false),
        "1.25 keeps probing"
    );
}

/// Every built-in scenario, at the releases on both sides of each change the model follows:
/// each verdict is the catalogue's expectation for that release.
#[test]
fn every_scenario_meets_its_expectations_at_every_release_boundary() {
    let mut failures = Vec::new();
    let mut refused = Vec::new();
    for release in [
        "1.22", "1.24", "1.25", "1.26", "1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.35",
    ] {
        for s in catalogue::builtin() {
            if s.name == "termination-race" && !["1.25", "1.35"].contains(&release) {
                // The largest scenario: its verdicts change only with the terminal phase
                // (1.27), so the two ends are enough.
                continue;
            }
            let mut sc = s.clone();
            sc.cluster.kubernetes_version = Some(release.into());
            if let Err(e) = sc.validate() {
                // A field whose feature gate is off at this release is refused, never
                // dropped: the scenario is checked from the release that has it.
                assert!(
                    e.to_string().contains("needs Kubernetes"),
                    "{} at {release}: {e}",
                    s.name
                );
                refused.push(format!("{} at {release}", s.name));
                continue;
            }
            let r = run(&sc);
            for p in &r.properties {
                if p.verdict != p.expected {
                    failures.push(format!(
                        "{} at {release}: {} is {} but expected {} ({})",
                        s.name,
                        p.def.name,
                        p.verdict.as_str(),
                        p.expected.as_str(),
                        p.expected_source
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Exactly the scenarios that use a Job field or a sidecar (1.29) younger than the
    // release are refused.
    assert_eq!(
        refused,
        [
            "job-pod-deleted-replace-failed at 1.22",
            "job-evicted-ignored at 1.22",
            "job-fail-job-exit-code at 1.22",
            "job-success-policy at 1.22",
            "job-backoff-limit-per-index at 1.22",
            "job-drained-ignored at 1.22",
            "sidecar-job at 1.22",
            "sidecar-termination at 1.22",
            "sidecar-restart-never at 1.22",
            "sidecar-startup-probe at 1.22",
            "sidecar-indexed-job at 1.22",
            "job-pod-deleted-replace-failed at 1.24",
            "job-evicted-ignored at 1.24",
            "job-fail-job-exit-code at 1.24",
            "job-success-policy at 1.24",
            "job-backoff-limit-per-index at 1.24",
            "job-drained-ignored at 1.24",
            "sidecar-job at 1.24",
            "sidecar-termination at 1.24",
            "sidecar-restart-never at 1.24",
            "sidecar-startup-probe at 1.24",
            "sidecar-indexed-job at 1.24",
            "job-pod-deleted-replace-failed at 1.25",
            "job-evicted-ignored at 1.25",
            "job-fail-job-exit-code at 1.25",
            "job-success-policy at 1.25",
            "job-backoff-limit-per-index at 1.25",
            "job-drained-ignored at 1.25",
            "sidecar-job at 1.25",
            "sidecar-termination at 1.25",
            "sidecar-restart-never at 1.25",
            "sidecar-startup-probe at 1.25",
            "sidecar-indexed-job at 1.25",
            "job-pod-deleted-replace-failed at 1.26",
            "job-success-policy at 1.26",
            "job-backoff-limit-per-index at 1.26",
            "sidecar-job at 1.26",
            "sidecar-termination at 1.26",
            "sidecar-restart-never at 1.26",
            "sidecar-startup-probe at 1.26",
            "sidecar-indexed-job at 1.26",
            "job-pod-deleted-replace-failed at 1.27",
            "job-success-policy at 1.27",
            "job-backoff-limit-per-index at 1.27",
            "sidecar-job at 1.27",
            "sidecar-termination at 1.27",
            "sidecar-restart-never at 1.27",
            "sidecar-startup-probe at 1.27",
            "sidecar-indexed-job at 1.27",
            "job-pod-deleted-replace-failed at 1.28",
            "job-success-policy at 1.28",
            "job-backoff-limit-per-index at 1.28",
            "sidecar-job at 1.28",
            "sidecar-termination at 1.28",
            "sidecar-restart-never at 1.28",
            "sidecar-startup-probe at 1.28",
            "sidecar-indexed-job at 1.28",
            "job-success-policy at 1.29",
            "job-success-policy at 1.30",
        ]
    );
}

/// The release decides each behaviour at the release the sources give.
#[test]
fn behaviours_switch_at_their_releases() {
    let r = |minor| ByRelease::of(Release { minor });
    assert!(!r(25).proxy_terminating_endpoints && r(26).proxy_terminating_endpoints);
    assert!(!r(26).terminal_phase_on_delete && r(27).terminal_phase_on_delete);
    assert_eq!(r(30).immediate_kill(30), 30);
    assert_eq!(r(31).immediate_kill(30), 1);
    assert_eq!(r(30).immediate_kill(0), 1, "never below 1 s");
    assert!(!r(25).pod_gc_out_of_service && r(26).pod_gc_out_of_service);
    assert!(!r(25).pod_disruption_conditions && r(26).pod_disruption_conditions);
    assert!(!r(28).sidecar_containers && r(29).sidecar_containers);
    assert!(!r(26).pdb_unhealthy_pod_eviction_policy && r(27).pdb_unhealthy_pod_eviction_policy);
    assert!(!r(24).probe_termination_grace_period && r(25).probe_termination_grace_period);
    assert!(!r(22).shutdown_removes_probe_workers && r(23).shutdown_removes_probe_workers);
    assert!(r(24).shutdown_removes_probe_workers && !r(25).shutdown_removes_probe_workers);
    assert!(!r(34).max_unavailable_statefulset && r(35).max_unavailable_statefulset);
    assert_eq!(r(31).node_monitor_grace_default, 40);
    assert_eq!(r(32).node_monitor_grace_default, 50);
    use podcheck_model::k8s::BalancedAllocation::*;
    assert_eq!(r(22).balanced_allocation, NonZeroDifference);
    assert_eq!(r(23).balanced_allocation, PlainDeviation);
    assert_eq!(r(32).balanced_allocation, PlainDeviation);
    assert_eq!(r(33).balanced_allocation, SkipBestEffort);
    assert_eq!(r(22).score_weights.taint_toleration, 1);
    assert_eq!(r(23).score_weights.taint_toleration, 3);
}

/// `nodeMonitorGracePeriodSeconds` unset follows the release; set, it stays. The node is
/// marked Unknown when the grace has passed: the witness's last step comes then.
#[test]
fn node_monitor_grace_period_follows_the_release_unless_set() {
    let unknown_at = |s: &Scenario| {
        let r = run(s);
        let m = check::model(&r.scenario, &[], false);
        let p = r
            .properties
            .iter()
            .find(|p| p.def.name == "node_ready_unknown")
            .unwrap();
        let t = podcheck_traces::from_run(
            &m,
            p.trace.as_ref().expect("a witness"),
            p.def.name,
            podcheck_traces::Kind::Sometimes,
            Verdict::Holds,
            None,
        )
        .unwrap();
        t.steps.last().unwrap().time
    };
    let t31 = unknown_at(&at("deployment-partition", "1.31"));
    let t32 = unknown_at(&at("deployment-partition", "1.32"));
    assert_eq!(t32 - t31, 10, "40 s before 1.32, 50 s from 1.32");
    let mut set = at("deployment-partition", "1.31");
    set.cluster.node_monitor_grace_period_seconds = Some(50);
    assert_eq!(unknown_at(&set), t32);
    assert_eq!(Context::new(set).node_monitor_grace, 50);
    assert_eq!(
        Context::new(at("deployment-partition", "1.31")).node_monitor_grace,
        40
    );
}

#[test]
fn releases_parse_and_unsupported_ones_are_refused() {
    assert_eq!(Release::parse("1.33"), Ok(Release { minor: 33 }));
    assert_eq!(Release::parse("v1.22"), Ok(Release::OLDEST));
    assert_eq!(Release::parse("1.35").unwrap().to_string(), "1.35");
    for bad in ["1.21", "1.36", "2.30", "1.33.2", "1", "one.two", "", "1.x"] {
        assert!(Release::parse(bad).is_err(), "{bad}");
    }
    let e = Release::parse("1.36").unwrap_err();
    assert!(e.contains("1.22") && e.contains("1.35"), "{e}");
    // A scenario without a release follows the newest.
    let s = catalogue::find("healthy").unwrap();
    assert_eq!(s.release(), Ok(Release::NEWEST));
    let mut s = at("healthy", "1.30");
    s.cluster.kubernetes_version = Some("1.40".into());
    let e = s.validate().unwrap_err().to_string();
    assert!(e.contains("cluster.kubernetesVersion"), "{e}");
}

/// Expectations bounded by release must say one verdict for each release.
#[test]
fn release_bounded_expectations_cover_every_release_once() {
    let e = |from: Option<&str>, before: Option<&str>| Expectation {
        property: "pod_becomes_ready".into(),
        verdict: Holds,
        source: "test".into(),
        from: from.map(|v| Release::parse(v).unwrap()),
        before: before.map(|v| Release::parse(v).unwrap()),
    };
    let with = |list: Vec<Expectation>| {
        let mut s = catalogue::find("healthy").unwrap();
        s.expect.retain(|x| x.property != "pod_becomes_ready");
        s.expect.extend(list);
        s.validate()
    };
    assert!(with(vec![e(Some("1.27"), None), e(None, Some("1.27"))]).is_ok());
    let gap = with(vec![e(Some("1.28"), None), e(None, Some("1.27"))]).unwrap_err();
    assert!(gap.to_string().contains("1.27"), "{gap}");
    let overlap = with(vec![e(Some("1.26"), None), e(None, Some("1.27"))]).unwrap_err();
    assert!(overlap.to_string().contains("1.26"), "{overlap}");
    assert!(with(vec![e(Some("1.27"), Some("1.27"))]).is_err());
    // The expectation read is the one for the scenario's release.
    let mut s = catalogue::find("prestop-single-replica").unwrap();
    let verdict = |s: &Scenario| {
        s.expected("no_request_to_stopped_container")
            .unwrap()
            .verdict
    };
    assert_eq!(verdict(&s), Violated);
    s.cluster.kubernetes_version = Some("1.25".into());
    assert_eq!(verdict(&s), Holds);
}
