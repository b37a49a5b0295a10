//! Conformance of `podcheck_k8s::printer` (`printPod`, pkg/printers/internalversion/
//! printers.go, and apimachinery's `HumanDuration`) with the cases of the upstream tests in
//! pkg/printers/internalversion/printers_test.go and
//! staging/src/k8s.io/apimachinery/pkg/util/duration/duration_test.go, each row naming its
//! upstream case; then rules derived from printers.go, then property tests.

mod common;

use common::*;
use podcheck_k8s::*;
use proptest::prelude::*;

const fn ppt(test: &'static str) -> Upstream {
    Upstream {
        file: "pkg/printers/internalversion/printers_test.go",
        test,
    }
}
const PRINT_POD: Upstream = ppt("TestPrintPod");
const WITH_SIDECARS: Upstream = ppt("TestPrintPodWithRestartableInitContainer");
const CONDITIONS: Upstream = ppt("TestPrintPodConditions");
const DURATION: &str = "staging/src/k8s.io/apimachinery/pkg/util/duration/duration_test.go";

fn run() -> ContainerState {
    ContainerState::Running
}
fn wait(reason: &str) -> ContainerState {
    ContainerState::Waiting {
        reason: reason.to_string(),
    }
}
fn term(reason: &str, exit_code: i32) -> ContainerState {
    ContainerState::Terminated(Terminated {
        exit_code,
        reason: reason.to_string(),
        ..Terminated::default()
    })
}

/// A status for printPod: state, Ready, RestartCount, LastTerminationState finished `lt` s ago.
fn ps(
    name: &str,
    state: ContainerState,
    is_ready: bool,
    rc: u32,
    lt: Option<u64>,
) -> ContainerStatus {
    ContainerStatus {
        name: name.to_string(),
        state,
        last_state: lt.map(|ago| Terminated {
            finished_ago: Some(ago),
            ..Terminated::default()
        }),
        ready: is_ready,
        started: None,
        restart_count: rc,
        container_id: String::new(),
    }
}

fn started(mut s: ContainerStatus, v: bool) -> ContainerStatus {
    s.started = Some(v);
    s
}

fn pod(phase: &str, containers: &[&str], statuses: Vec<ContainerStatus>) -> PodView {
    PodView {
        phase_str: phase.to_string(),
        containers: containers.iter().map(|n| spec(n, None)).collect(),
        statuses,
        ..PodView::default()
    }
}

fn printed(ready: &str, status: &str, restarts: &str) -> PrintedPod {
    PrintedPod {
        ready: ready.to_string(),
        status: status.to_string(),
        restarts: restarts.to_string(),
        row_condition: None,
    }
}

/// printers.go `podSuccessConditions`.
fn pod_success_conditions() -> TableRowCondition {
    TableRowCondition {
        type_: "Completed".to_string(),
        status: ConditionStatus::True,
        reason: "Succeeded".to_string(),
        message: "The pod has completed successfully.".to_string(),
    }
}

/// printers.go `podFailedConditions`.
fn pod_failed_conditions() -> TableRowCondition {
    TableRowCondition {
        type_: "Completed".to_string(),
        status: ConditionStatus::True,
        reason: "Failed".to_string(),
        message: "The pod failed.".to_string(),
    }
}

fn with_row_condition(mut p: PrintedPod, c: TableRowCondition) -> PrintedPod {
    p.row_condition = Some(c);
    p
}

const DAY: u64 = 24 * 3600;

/// printers_test.go TestPrintPod: the cases named by their upstream pod name.
#[test]
fn test_print_pod() {
    let mut rows: Vec<(&str, PodView, PrintedPod)> = Vec::new();

    rows.push((
        "test1",
        pod(
            "podPhase",
            &["c0", "c1"],
            vec![
                ps("c0", run(), true, 3, None),
                ps("c1", ContainerState::None, false, 3, None),
            ],
        ),
        printed("1/2", "podPhase", "6"),
    ));
    rows.push((
        "test3",
        pod(
            "podPhase",
            &["c0", "c1"],
            vec![
                ps("c0", wait("ContainerWaitingReason"), false, 3, None),
                ps("c1", term("ContainerTerminatedReason", 0), false, 3, None),
            ],
        ),
        printed("0/2", "ContainerWaitingReason", "6"),
    ));
    let mut p5 = pod(
        "podPhase",
        &["c0", "c1"],
        vec![
            ps("c0", run(), true, 3, None),
            ps("c1", ContainerState::None, true, 3, None),
        ],
    );
    p5.reason = "podReason".to_string();
    rows.push(("test5", p5, printed("1/2", "podReason", "6")));
    // The second upstream pod named "test6": phase Running, one Ready
    // container Terminated{Completed, 0} and one Ready running container; plus Ready=True.
    let mut p7 = pod(
        "Running",
        &["c0", "c1"],
        vec![
            ps("c0", term("Completed", 0), true, 3, None),
            ps("c1", run(), true, 3, None),
        ],
    );
    p7.conditions = vec![c("Ready", ConditionStatus::True, "")];
    rows.push((
        "test6 (the case with the Ready condition)",
        p7,
        printed("1/2", "Running", "6"),
    ));
    let mut p9 = pod("Pending", &["c0"], vec![ps("c0", wait(""), false, 0, None)]);
    p9.init_containers = vec![spec("i0", None), spec("i1", None)];
    p9.init_statuses = vec![
        ps("i0", run(), false, 3, Some(10)),
        ps("i1", wait(""), false, 0, None),
    ];
    rows.push(("test8", p9, printed("0/1", "Init:0/2", "3 (10s ago)")));
    let mut p11 = pod("Pending", &["c0"], vec![ps("c0", wait(""), false, 0, None)]);
    p11.init_containers = vec![spec("i0", None), spec("i1", None)];
    p11.init_statuses = vec![
        ps("i0", term("", 0), false, 2, Some(120)),
        ps("i1", run(), false, 3, Some(10)),
    ];
    rows.push(("test10", p11, printed("0/1", "Init:1/2", "5 (10s ago)")));
    rows.push((
        "test12",
        pod(
            "Running",
            &["c0"],
            vec![ps("c0", run(), true, 3, Some(5 * DAY))],
        ),
        printed("1/1", "Running", "3 (5d ago)"),
    ));
    rows.push((
        "test14",
        pod(
            "Running",
            &["c0", "c1"],
            vec![
                ps("c0", run(), true, 6, Some(5 * DAY)),
                ps("c1", run(), true, 3, Some(20 * DAY)),
            ],
        ),
        printed("2/2", "Running", "9 (5d ago)"),
    ));
    rows.push((
        "test16",
        pod(
            "Succeeded",
            &["c0"],
            vec![ps("c0", term("Completed", 0), false, 0, None)],
        ),
        // Row condition Completed/Succeeded (`podSuccessConditions`).
        with_row_condition(printed("0/1", "Completed", "0"), pod_success_conditions()),
    ));
    let mut p19 = pod(
        "Succeeded",
        &["c0"],
        vec![ps("c0", term("Completed", 0), false, 0, None)],
    );
    p19.deletion_timestamp = true;
    // Upstream expects `podSuccessConditions` here too: `printPod` sets the row condition
    // from the phase alone.
    rows.push((
        "test18",
        p19,
        with_row_condition(printed("0/1", "Completed", "0"), pod_success_conditions()),
    ));
    let mut p21 = pod("Pending", &["c0"], vec![]);
    p21.deletion_timestamp = true;
    rows.push(("test20", p21, printed("0/1", "Terminating", "0")));

    for (case, p, exp) in rows {
        assert_eq!(print_pod(&p), exp, "{}", PRINT_POD.case(case));
    }
}

/// printers_test.go TestPrintPodWithRestartableInitContainer.
#[test]
fn test_print_pod_with_restartable_init_container() {
    let mut p1 = pod("Pending", &["c0"], vec![ps("c0", wait(""), false, 0, None)]);
    p1.init_containers = vec![sidecar("sc1"), sidecar("sc2")];
    p1.init_statuses = vec![
        started(ps("sc1", run(), false, 3, Some(10)), false),
        started(ps("sc2", wait(""), false, 0, None), false),
    ];
    p1.conditions = vec![c("Initialized", ConditionStatus::False, "")];
    assert_eq!(
        print_pod(&p1),
        printed("0/3", "Init:0/2", "3 (10s ago)"),
        "{}",
        WITH_SIDECARS
            .case("test1: 2 restartable init containers, the first one running but not started")
    );

    let mut p3 = pod("Running", &["c0"], vec![ps("c0", run(), true, 4, Some(20))]);
    p3.init_containers = vec![sidecar("sc1"), sidecar("sc2")];
    p3.init_statuses = vec![
        started(ps("sc1", run(), false, 3, Some(10)), true),
        started(ps("sc2", run(), false, 0, None), true),
    ];
    p3.conditions = vec![c("Initialized", ConditionStatus::True, "")];
    assert_eq!(
        print_pod(&p3),
        printed("1/3", "Running", "7 (10s ago)"),
        "{}",
        WITH_SIDECARS.case("test2: 2 restartable init containers started and 1 container running")
    );

    let mut p5 = pod(
        "Running",
        &["container1"],
        vec![
            ps("containerinvalid", ContainerState::None, false, 0, None),
            ps("container1", ContainerState::None, false, 0, None),
        ],
    );
    p5.init_containers = vec![spec("init1", None), sidecar("sidecar1")];
    p5.init_statuses = vec![
        ps("initinvalid", ContainerState::None, false, 0, None),
        ps("init1", ContainerState::None, false, 0, None),
        ps("sidecar1", ContainerState::None, false, 0, None),
    ];
    assert_eq!(
        print_pod(&p5),
        printed("0/2", "Init:0/2", "0"),
        "{}",
        WITH_SIDECARS
            .case("test4: container statuses for non-existent initContainers and containers")
    );
}

/// printers_test.go TestPrintPodConditions (its runningPod and failedPod): cells and the row condition (none for Running,
/// `podFailedConditions` for Failed).
#[test]
fn test_print_pod_conditions() {
    let rows = [
        ("runningPod test1", "Running", "Running", None),
        (
            "failedPod test2",
            "Failed",
            "Failed",
            Some(pod_failed_conditions()),
        ),
    ];
    for (case, phase, exp, cond) in rows {
        let p = pod(
            phase,
            &["c0", "c1"],
            vec![
                ps("c0", run(), true, 3, None),
                ps("c1", ContainerState::None, false, 3, None),
            ],
        );
        let mut want = printed("1/2", exp, "6");
        want.row_condition = cond;
        assert_eq!(print_pod(&p), want, "{}", CONDITIONS.case(case));
    }
}

/// `printPod` row conditions (derived from printers.go, not an upstream table): set from `status.Phase` only —
/// not from `status.reason`, the STATUS cell, or deletion.
#[test]
fn print_pod_row_condition_follows_phase_only() {
    assert_eq!(
        pod_row_condition("Succeeded"),
        Some(pod_success_conditions())
    );
    assert_eq!(pod_row_condition("Failed"), Some(pod_failed_conditions()));
    for phase in ["Pending", "Running", "Unknown", "podPhase", ""] {
        assert_eq!(pod_row_condition(phase), None, "{phase}");
    }
    // An evicted pod: phase Failed, reason Evicted → STATUS "Evicted", row condition Failed.
    let mut e = pod("Failed", &["c0"], vec![ps("c0", wait(""), false, 0, None)]);
    e.reason = "Evicted".to_string();
    let got = print_pod(&e);
    assert_eq!(got.status, "Evicted");
    assert_eq!(got.row_condition, Some(pod_failed_conditions()));
    // A Running pod whose container completed shows "Completed" but has no row condition.
    let c = pod(
        "Running",
        &["c0"],
        vec![ps("c0", term("Completed", 0), false, 0, None)],
    );
    let got = print_pod(&c);
    assert_eq!(got.status, "Completed");
    assert_eq!(got.row_condition, None);
}

/// Further `printPod` rules, derived from printers.go (not upstream rows): the init-container
/// loop, the regular-container loop (first container wins, container reason over pod reason),
/// Completed with a running container, SchedulingGated, NodeLost.
#[test]
fn print_pod_rules_from_facts() {
    // Init container failed with no reason: Init:ExitCode:N / Init:Signal:N.
    let mut p = pod(
        "Pending",
        &["c0"],
        vec![ps("c0", wait("PodInitializing"), false, 0, None)],
    );
    p.init_containers = vec![spec("i0", None)];
    p.init_statuses = vec![ps("i0", term("", 2), false, 0, None)];
    assert_eq!(print_pod(&p).status, "Init:ExitCode:2");
    if let ContainerState::Terminated(t) = &mut p.init_statuses[0].state {
        t.signal = 9;
    }
    assert_eq!(print_pod(&p).status, "Init:Signal:9");
    p.init_statuses[0].state = wait("CrashLoopBackOff");
    assert_eq!(print_pod(&p).status, "Init:CrashLoopBackOff");
    // PodInitializing is not shown as Init:PodInitializing.
    p.init_statuses[0].state = wait("PodInitializing");
    assert_eq!(print_pod(&p).status, "Init:0/1");

    // A container's reason overrides status.reason; the first container wins.
    let mut e = pod(
        "Failed",
        &["c0", "c1"],
        vec![
            ps("c0", term("Error", 1), false, 0, None),
            ps("c1", term("", 137), false, 0, None),
        ],
    );
    e.reason = "Evicted".to_string();
    assert_eq!(print_pod(&e).status, "Error");
    let mut e2 = pod("Failed", &["c0"], vec![ps("c0", wait(""), false, 0, None)]);
    e2.reason = "Evicted".to_string();
    assert_eq!(print_pod(&e2).status, "Evicted");

    // Completed + a ready running container without PodReady → NotReady.
    let n = pod(
        "Running",
        &["c0", "c1"],
        vec![
            ps("c0", term("Completed", 0), true, 0, None),
            ps("c1", run(), true, 0, None),
        ],
    );
    assert_eq!(print_pod(&n).status, "NotReady");

    // SchedulingGated; NodeLost + deletion → Unknown.
    let mut g = pod("Pending", &["c0"], vec![]);
    g.conditions = vec![c("PodScheduled", ConditionStatus::False, "SchedulingGated")];
    assert_eq!(print_pod(&g).status, "SchedulingGated");
    let mut u = pod("Running", &["c0"], vec![ps("c0", run(), true, 0, None)]);
    u.reason = "NodeLost".to_string();
    u.deletion_timestamp = true;
    assert_eq!(print_pod(&u).status, "Unknown");
}

/// staging/src/k8s.io/apimachinery/pkg/util/duration/duration_test.go TestHumanDuration, one row per
/// upstream case (the duration in seconds).
#[test]
fn test_human_duration() {
    const H: u64 = 3600;
    let rows: &[(u64, &str)] = &[
        (1, "1s"),
        (70, "70s"),
        (190, "3m10s"),
        (70 * 60, "70m"),
        (47 * H, "47h"),
        (49 * H, "2d1h"),
        ((8 * 24 + 2) * H, "8d"),
        (367 * 24 * H, "367d"),
        ((365 * 2 * 24 + 25) * H, "2y1d"),
        ((365 * 8 * 24 + 2) * H, "8y"),
    ];
    for &(s, exp) in rows {
        assert_eq!(human_duration(s), exp, "{DURATION} TestHumanDuration {s}s");
    }
}

/// duration_test.go TestHumanDurationBoundaries. Sub-second rows are floored to whole seconds, which is
/// what `int(d.Seconds())` / `d / time.Minute` do; the two negative rows (`-2s` →
/// "<invalid>", `-2s+1ns` → "0s") cannot be expressed with `u64` seconds.
#[test]
fn test_human_duration_boundaries() {
    const M: u64 = 60;
    const H: u64 = 3600;
    const D: u64 = 24 * H;
    const Y: u64 = 365 * D;
    let rows: &[(u64, &str)] = &[
        (0, "0s"),
        (0, "0s"), // time.Second - time.Millisecond
        (2 * M - 1, "119s"),
        (2 * M, "2m"),
        (2 * M + 1, "2m1s"),
        (10 * M - 1, "9m59s"),
        (10 * M, "10m"),
        (10 * M + 1, "10m"),
        (3 * H - 1, "179m"),
        (3 * H, "3h"),
        (3 * H + M, "3h1m"),
        (8 * H - 1, "7h59m"),
        (8 * H, "8h"),
        (8 * H + 59 * M, "8h"),
        (2 * D - 1, "47h"),
        (2 * D, "2d"),
        (2 * D + H, "2d1h"),
        (8 * D - 1, "7d23h"),
        (8 * D, "8d"),
        (8 * D + 23 * H, "8d"),
        (2 * Y - 1, "729d"),
        (2 * Y, "2y"),
        (2 * Y + 23 * H, "2y"),
        (2 * Y + 23 * H + 59 * M, "2y"),
        (2 * Y + 24 * H - 1, "2y"),
        (2 * Y + 24 * H, "2y1d"),
        (3 * Y, "3y"),
        (4 * Y, "4y"),
        (5 * Y, "5y"),
        (6 * Y, "6y"),
        (7 * Y, "7y"),
        (8 * Y - 1, "7y364d"),
        (8 * Y, "8y"),
        (8 * Y + 364 * D, "8y"),
        (9 * Y, "9y"),
    ];
    for &(s, exp) in rows {
        assert_eq!(
            human_duration(s),
            exp,
            "{DURATION} TestHumanDurationBoundaries {s}s"
        );
    }
}

proptest! {
    /// human_duration always ends with a unit and is non-empty.
    #[test]
    fn human_duration_has_unit(s in 0u64..(20 * 365 * 24 * 3600)) {
        let h = human_duration(s);
        prop_assert!(h.ends_with(['s', 'm', 'h', 'd', 'y']));
    }

    /// printPod READY never shows more ready containers than the total.
    #[test]
    fn print_pod_ready_not_above_total(
        toks in prop::collection::vec(prop_oneof![Just("R"), Just("T0"), Just("T1"), Just("W"), Just("W+L1")], 0..4),
        readies in prop::collection::vec(prop::bool::ANY, 4),
    ) {
        let names: Vec<String> = (0..toks.len()).map(|i| format!("c{i}")).collect();
        let sts: Vec<ContainerStatus> = toks.iter().enumerate().filter_map(|(i, t)| {
            status(&names[i], t).map(|mut s| { s.ready = readies[i]; s })
        }).collect();
        let p = PodView {
            phase_str: "Running".into(),
            containers: names.iter().map(|n| spec(n, None)).collect(),
            statuses: sts,
            ..PodView::default()
        };
        let out = print_pod(&p);
        let (r, t) = out.ready.split_once('/').expect("ready/total");
        prop_assert!(r.parse::<usize>().unwrap() <= t.parse::<usize>().unwrap());
    }
}
