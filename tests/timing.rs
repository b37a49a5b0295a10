//! Promises with deadlines on the built-in scenarios: the worst and best times follow from the
//! upstream defaults (node-monitor-grace-period, the 300 s default toleration, the proxy lag,
//! the grace period), and each slowest run and counterexample replays and says what it claims.

use podcheck_input::catalogue;

use podcheck_model::{Action, Cluster, Verdict};
use podcheck_properties::check::{self, CheckOptions, ScenarioResult, WorstTime};
use podcheck_properties::PropertyResult;

fn check_scenario(s: &podcheck_input::spec::Scenario, worst_case: bool) -> ScenarioResult {
    let r = check::check(
        s,
        &CheckOptions {
            worst_case,
            ..CheckOptions::default()
        },
    )
    .unwrap();
    assert!(r.complete, "{}", s.name);
    r
}

fn prop<'a>(r: &'a ScenarioResult, name: &str) -> &'a PropertyResult {
    r.properties
        .iter()
        .find(|p| p.def.name == name)
        .unwrap_or_else(|| panic!("{}: no {name}", r.scenario.name))
}

fn worst(r: &ScenarioResult, name: &str) -> WorstTime {
    prop(r, name).timing.as_ref().expect("timed").worst
}

/// Seconds after state `from` of a run.
fn seconds_after(actions: &[Action], from: usize) -> u64 {
    actions[from..].iter().map(check::seconds_of).sum()
}

/// The partition timeline: Unknown at the first whole second past the grace period, the
/// endpoint off every reachable proxy one proxy lag later, the pod deleted when its 300 s
/// toleration ends, and the replacement running at once on the other node.
#[test]
fn partition_timeline_follows_from_the_grace_period_the_toleration_and_the_proxy_lag() {
    // The default grace period follows the release (40 s before 1.32, 50 s from it); an
    // explicit setting wins.
    for (release, set, grace) in [
        (None, None, 50u16),
        (Some("1.31"), None, 40),
        (Some("1.32"), None, 50),
        (Some("1.35"), Some(40), 40),
    ] {
        let mut s = catalogue::find("deployment-partition-traffic").unwrap();
        s.cluster.kubernetes_version = release.map(String::from);
        s.cluster.node_monitor_grace_period_seconds = set;
        let r = check_scenario(&s, false);
        let g = grace as u64;
        let lag = s.cluster.proxy_lag_seconds as u64;
        assert_eq!(
            worst(&r, "cut_off_node_unknown_within_grace"),
            WorstTime::Seconds(g + 1),
            "grace {grace}"
        );
        assert_eq!(
            worst(&r, "cut_off_pod_unrouted_within"),
            WorstTime::Seconds(g + 1 + lag)
        );
        assert_eq!(
            worst(&r, "pod_on_unknown_node_deleted_within"),
            WorstTime::Seconds(300)
        );
        assert_eq!(
            worst(&r, "cut_off_pod_replaced_within"),
            WorstTime::Seconds(g + 1 + 300)
        );
        for p in r.properties.iter().filter(|p| p.def.kind.is_within()) {
            assert_eq!(p.verdict, Verdict::Holds, "{}", p.def.name);
            // The partition may heal at once: the best case is no wait at all.
            assert_eq!(p.timing.as_ref().unwrap().best, Some(0), "{}", p.def.name);
        }
    }
}

/// Every slowest run replays, has P where its clock starts, no Q until its last state, and
/// takes exactly the worst case.
#[test]
fn slowest_runs_take_exactly_the_worst_case() {
    let mut seen = 0;
    for s in catalogue::builtin() {
        let r = check_scenario(&s, false);
        let m = Cluster::new(s.clone(), Vec::new());
        for p in &r.properties {
            let Some(t) = &p.timing else { continue };
            let Some(run) = &t.slowest else { continue };
            let (pf, qf) = p.def.kind.premise_and_goal().unwrap();
            let states = run.states(&m).unwrap();
            assert!(pf(&m, &states[t.p_index]), "{}/{}", s.name, p.def.name);
            assert!(qf(&m, states.last().unwrap()), "{}/{}", s.name, p.def.name);
            assert!(
                states[t.p_index..states.len() - 1]
                    .iter()
                    .all(|x| !qf(&m, x)),
                "{}/{}",
                s.name,
                p.def.name
            );
            assert_eq!(
                WorstTime::Seconds(seconds_after(&run.actions, t.p_index)),
                t.worst,
                "{}/{}",
                s.name,
                p.def.name
            );
            seen += 1;
        }
    }
    assert!(seen >= 10, "only {seen} slowest runs");
}

/// A shell as PID 1 ignores SIGTERM: the delete takes the whole grace period, so it holds
/// within the grace period and is violated within a second of SIGTERM, whose counterexample
/// lets more than a second pass with the object still there.
#[test]
fn sigterm_ignored_takes_the_grace_period() {
    let s = catalogue::find("sigterm-ignored").unwrap();
    let r = check_scenario(&s, false);
    let grace = prop(&r, "deleted_pod_gone_within_grace");
    assert_eq!(grace.verdict, Verdict::Holds);
    assert_eq!(grace.timing.as_ref().unwrap().worst, WorstTime::Seconds(30));
    let soon = prop(&r, "deleted_pod_gone_within_a_second_of_sigterm");
    assert_eq!(soon.verdict, Verdict::Violated);
    let t = soon.timing.as_ref().unwrap();
    assert_eq!(t.worst, WorstTime::Seconds(30));
    let run = soon.trace.as_ref().expect("a counterexample");
    let from = t.trace_p_index.unwrap();
    assert!(seconds_after(&run.actions, from) > 1);
}

/// After the outage the containers wait out their crash back-off: recovery takes longer than
/// a readiness period, and the slowest run is the back-off; with readiness alone checking the
/// dependency it is within a period.
#[test]
fn recovery_after_an_outage_waits_for_the_back_off() {
    let r = check_scenario(&catalogue::find("liveness-on-dependency").unwrap(), false);
    let p = prop(&r, "recovered_dependency_ready_within_probe_period");
    assert_eq!(p.verdict, Verdict::Violated);
    let t = p.timing.as_ref().unwrap();
    let WorstTime::Seconds(w) = t.worst else {
        panic!("bounded: {:?}", t.worst)
    };
    assert!(w > t.deadline.unwrap(), "{w}");
    // The slowest run waits in CrashLoopBackOff after the clock started.
    let m = Cluster::new(r.scenario.clone(), Vec::new());
    let states = t.slowest.as_ref().unwrap().states(&m).unwrap();
    let backing_off = states[t.p_index..].iter().any(|s| {
        s.nodes.iter().flat_map(|n| n.pods.iter()).any(|rt| {
            rt.ctrs.iter().any(|c| {
                matches!(
                    c.waiting,
                    Some(podcheck_model::state::Waiting::CrashLoopBackOff { .. })
                )
            })
        })
    });
    assert!(backing_off, "the slowest run waits out a crash back-off");
    let r = check_scenario(&catalogue::find("dependency-outage").unwrap(), false);
    let p = prop(&r, "recovered_dependency_ready_within_probe_period");
    assert_eq!(p.verdict, Verdict::Holds);
}

/// In master disruption mode nothing is evicted: no bound, with a run that never gets there.
#[test]
fn full_disruption_has_no_bound_on_eviction() {
    let r = check_scenario(&catalogue::find("all-nodes-unreachable").unwrap(), false);
    let p = prop(&r, "pod_on_unknown_node_deleted_within");
    assert_eq!(p.verdict, Verdict::Violated);
    assert_eq!(p.timing.as_ref().unwrap().worst, WorstTime::Unbounded);
    assert!(p.lasso.is_some());
}

/// `--worst-case` gives a `leads_to` its times too, without changing its verdict.
#[test]
fn worst_case_option_times_leads_to_properties() {
    let s = catalogue::find("deployment-partition").unwrap();
    let plain = check_scenario(&s, false);
    let timed = check_scenario(&s, true);
    for (a, b) in plain.properties.iter().zip(&timed.properties) {
        assert_eq!(a.verdict, b.verdict, "{}", a.def.name);
        if a.def.kind.is_leads_to() {
            assert!(a.timing.is_none());
            assert!(b.timing.is_some(), "{}", a.def.name);
        }
    }
    let converge = prop(&timed, "replicas_converge").timing.as_ref().unwrap();
    assert!(matches!(
        converge.worst,
        WorstTime::Seconds(_) | WorstTime::Unbounded
    ));
}

/// A deadlocked program against its liveness probe: each run gets no answer and is a Failure
/// `timeoutSeconds` after it began. With a timeout up to the period, the runs keep the
/// ticker's pace, so the kill comes up to one period (the deadlock just after a run) plus
/// `failureThreshold − 1` periods plus the timeout after the deadlock. With a timeout longer
/// than the period, a tick that comes while a run waits is taken when it ends
/// (`worker.go` `run`), so the runs follow each other back to back: one period, then
/// `failureThreshold` timeouts.
#[test]
fn a_liveness_kill_of_a_deadlock_follows_the_period_and_the_timeout() {
    for (timeout, worst_kill) in [(5u16, 35u64), (10, 40), (12, 46), (25, 85)] {
        let mut s = catalogue::find("probe-timeout").unwrap();
        let podcheck_input::spec::Workload::Deployment { spec, .. } = &mut s.workloads[0] else {
            panic!("probe-timeout runs a Deployment")
        };
        let probe = spec.template.spec.containers[0]
            .liveness_probe
            .as_mut()
            .expect("a liveness probe");
        assert_eq!((probe.period_seconds, probe.failure_threshold), (10, 3));
        probe.timeout_seconds = timeout;
        let r = check_scenario(&s, false);
        assert_eq!(
            worst(&r, "deadlock_killed_within_failure_threshold_periods"),
            WorstTime::Seconds(worst_kill),
            "timeoutSeconds {timeout}"
        );
        assert_eq!(
            prop(&r, "container_restarted").verdict,
            Verdict::Holds,
            "timeoutSeconds {timeout}"
        );
    }
}
