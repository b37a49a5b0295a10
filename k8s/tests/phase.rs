//! Conformance of `podcheck_k8s::phase` (`getPhase`, pkg/kubelet/kubelet_pods.go) with
//! the cases of the upstream tests in pkg/kubelet/kubelet_pods_test.go (at commit
//! 001a80e975bb880d0fe60b304d30950fe661f278), one table per upstream test function, each row
//! naming its upstream case. Checks derived from the upstream source (not from a test table)
//! say so and name the function they read. Property tests close the file.

// Test tables are tuples by design; one row per line.
#![allow(clippy::type_complexity)]

mod common;

use common::*;
use podcheck_k8s::*;
use proptest::prelude::*;
use Phase::{Failed, Pending, Running, Succeeded};
use RestartPolicy::{Always, Never, OnFailure};

const fn kp(test: &'static str) -> Upstream {
    Upstream {
        file: "pkg/kubelet/kubelet_pods_test.go",
        test,
    }
}
const TESTPODPHASEWITHRESTARTALWAYS: Upstream = kp("TestPodPhaseWithRestartAlways");
const TESTPODPHASEWITHRESTARTALWAYSINITCONTAINERS: Upstream =
    kp("TestPodPhaseWithRestartAlwaysInitContainers");
const TESTPODPHASEWITHRESTARTALWAYSRESTARTABLEINITCONTAINERS: Upstream =
    kp("TestPodPhaseWithRestartAlwaysRestartableInitContainers");
const TESTPODPHASEWITHRESTARTALWAYSANDPODHASRUN: Upstream =
    kp("TestPodPhaseWithRestartAlwaysAndPodHasRun");
const TESTPODPHASEWITHRESTARTNEVER: Upstream = kp("TestPodPhaseWithRestartNever");
const TESTPODPHASEWITHRESTARTNEVERINITCONTAINERS: Upstream =
    kp("TestPodPhaseWithRestartNeverInitContainers");
const TESTPODPHASEWITHRESTARTNEVERRESTARTABLEINITCONTAINERS: Upstream =
    kp("TestPodPhaseWithRestartNeverRestartableInitContainers");
const TESTPODPHASEWITHRESTARTONFAILURE: Upstream = kp("TestPodPhaseWithRestartOnFailure");
const TESTPODPHASEWITHCONTAINERRESTARTPOLICY: Upstream =
    kp("TestPodPhaseWithContainerRestartPolicy");
const TESTPODPHASEWITHCONTAINERRESTARTPOLICYINITCONTAINERS: Upstream =
    kp("TestPodPhaseWithContainerRestartPolicyInitContainers");
const TESTPODPHASEWITHRESTARTALLCONTAINERS: Upstream = kp("TestPodPhaseWithRestartAllContainers");

/// Run `get_phase` for one row and report the upstream case on failure.
#[allow(clippy::too_many_arguments)]
fn check_phase(
    src: &Upstream,
    name: &str,
    rp: RestartPolicy,
    init: &[(ContainerSpecView, &str)],
    regular: &[(ContainerSpecView, &str)],
    term: bool,
    initialized: bool,
    gates: Gates,
    expected: Phase,
) {
    let init_specs: Vec<_> = init.iter().map(|(s, _)| s.clone()).collect();
    let specs: Vec<_> = regular.iter().map(|(s, _)| s.clone()).collect();
    let init_st: Vec<_> = init
        .iter()
        .filter_map(|(s, t)| status(&s.name, t))
        .collect();
    let st: Vec<_> = regular
        .iter()
        .filter_map(|(s, t)| status(&s.name, t))
        .collect();
    let got = get_phase(
        rp,
        &init_specs,
        &specs,
        &init_st,
        &st,
        term,
        initialized,
        false,
        gates,
    );
    assert_eq!(got, expected, "{}", src.case(name));
}

/// TestPodPhaseWithRestartAlways: containers A, B; pod restartPolicy Always; podHasInitialized false.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_always() {
    let rows: &[(&str, &str, bool, Phase, &str)] = &[
        ("—", "—", false, Pending, "waiting"),
        ("T0", "T0", false, Running, "all stopped with restart always"),
        ("T0", "T-1", true, Failed, "all stopped with restart always, but the pod is terminal"),
        ("R", "—", false, Pending, "mixed state #2 with restart always"),
        ("R", "W+L0", false, Running, "backoff crashloop container with restart always"),
    ];
    for &(a, b, term, exp, name) in rows {
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase(&TESTPODPHASEWITHRESTARTALWAYS, name, Always, &[], &regular, term, false, OFF, exp);
    }
}

/// TestPodPhaseWithRestartAlwaysInitContainers: regular init container X; A, B; Always.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_always_init_containers() {
    let rows: &[(&str, &str, &str, Phase, &str)] = &[
        ("—", "—", "—", Pending, "empty, waiting"),
        ("T-1", "—", "—", Pending, "init container terminated non-zero"),
        ("W+L-1", "—", "—", Pending, "init container waiting, terminated non-zero"),
        ("T0", "R", "R", Running, "init container succeeded"),
    ];
    for &(x, a, b, exp, name) in rows {
        let init = [(spec("X", None), x)];
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase(&TESTPODPHASEWITHRESTARTALWAYSINITCONTAINERS, name, Always, &init, &regular, false, false, OFF, exp);
    }
}

/// TestPodPhaseWithRestartAlwaysRestartableInitContainers: sidecar X; A, B; Always.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_always_restartable_init_containers() {
    let rows: &[(&str, &str, &str, bool, bool, Phase, &str)] = &[
        ("—", "—", "—", false, false, Pending, "empty, waiting"),
        ("T0", "—", "—", false, false, Pending, "restartable init container stopped"),
        ("W+L-1", "—", "—", false, false, Pending, "restartable init container waiting, terminated non-zero"),
        ("Rs", "R", "—", false, true, Pending, "restartable init container started, 1/2 regular container running"),
        ("R", "R", "R", false, true, Running, "restartable init container running, all regular containers running"),
        ("W+L0", "R", "R", false, true, Running, "backoff crashloop restartable init container, all regular containers running"),
        ("T0", "T0", "T0", true, true, Succeeded, "all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal"),
    ];
    for &(x, a, b, term, init_done, exp, name) in rows {
        let init = [(sidecar("X"), x)];
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase(&TESTPODPHASEWITHRESTARTALWAYSRESTARTABLEINITCONTAINERS, name, Always, &init, &regular, term, init_done, OFF, exp);
    }
}

/// TestPodPhaseWithRestartAlwaysAndPodHasRun: regular init X, sidecar Y; A; Always.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_always_and_pod_has_run() {
    let rows: &[(&str, &str, &str, bool, Phase, &str)] = &[
        ("R", "R", "R", false, Pending, "regular init containers, restartable init container and regular container are all running"),
        ("T0", "R", "T0", false, Pending, "re-created sandbox: regular init container is succeeded, restartable init container is running, old regular containers is stopped"),
        ("T0", "R", "R", true, Running, "regular init container is succeeded, restartable init container and regular containers are both running"),
    ];
    for &(x, y, a, init_done, exp, name) in rows {
        let init = [(spec("X", None), x), (sidecar("Y"), y)];
        let regular = [(spec("A", None), a)];
        check_phase(&TESTPODPHASEWITHRESTARTALWAYSANDPODHASRUN, name, Always, &init, &regular, false, init_done, OFF, exp);
    }
}

/// TestPodPhaseWithRestartNever: A, B; Never.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_never() {
    let rows: &[(&str, &str, Phase, &str)] = &[
        ("—", "—", Pending, "waiting"),
        ("T0", "T0", Succeeded, "all succeeded with restart never"),
        ("R", "T0", Running, "mixed state #1 with restart never"),
        ("R", "W", Pending, "mixed state #3 with restart never"),
    ];
    for &(a, b, exp, name) in rows {
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase(&TESTPODPHASEWITHRESTARTNEVER, name, Never, &[], &regular, false, false, OFF, exp);
    }
}

/// TestPodPhaseWithRestartNeverInitContainers: regular init X; A, B; Never.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_never_init_containers() {
    let rows: &[(&str, &str, &str, Phase, &str)] = &[
        ("—", "—", "—", Pending, "empty, waiting"),
        ("T-1", "—", "—", Failed, "init container terminated non-zero"),
        ("W+L-1", "—", "—", Failed, "init container waiting, terminated non-zero"),
        ("T0", "R", "R", Running, "init container succeeded"),
    ];
    for &(x, a, b, exp, name) in rows {
        let init = [(spec("X", None), x)];
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase(&TESTPODPHASEWITHRESTARTNEVERINITCONTAINERS, name, Never, &init, &regular, false, false, OFF, exp);
    }
}

/// TestPodPhaseWithRestartNeverRestartableInitContainers: sidecar X; A, B; Never.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_never_restartable_init_containers() {
    let rows: &[(&str, &str, &str, bool, Phase, &str)] = &[
        ("—", "—", "—", false, Pending, "empty, waiting"),
        ("T0", "—", "—", false, Pending, "restartable init container stopped"),
        ("W+L-1", "—", "—", false, Pending, "restartable init container waiting, terminated non-zero"),
        ("Rs", "R", "—", true, Pending, "restartable init container started, one main container running"),
        ("R", "T0", "T0", true, Running, "restartable init container re-running, main containers succeeded"),
        ("T-1", "T0", "T0", true, Succeeded, "restartable init container terminated non-zero, main containers succeeded"),
        ("W+L-1", "T0", "T0", true, Succeeded, "backoff crashloop with non-zero restartable init container, main containers succeeded"),
    ];
    for &(x, a, b, init_done, exp, name) in rows {
        let init = [(sidecar("X"), x)];
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase(&TESTPODPHASEWITHRESTARTNEVERRESTARTABLEINITCONTAINERS, name, Never, &init, &regular, false, init_done, OFF, exp);
    }
}

/// TestPodPhaseWithRestartOnFailure: A, B; OnFailure.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_on_failure() {
    let rows: &[(&str, &str, Phase, &str)] = &[
        ("—", "—", Pending, "waiting"),
        ("T0", "T0", Succeeded, "all succeeded with restart onfailure"),
        ("R", "T0", Running, "mixed state #1 with restart onfailure"),
        ("R", "W", Pending, "mixed state #3 with restart onfailure"),
    ];
    for &(a, b, exp, name) in rows {
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase(&TESTPODPHASEWITHRESTARTONFAILURE, name, OnFailure, &[], &regular, false, false, OFF, exp);
    }
}

/// TestPodPhaseWithContainerRestartPolicy: gate ContainerRestartRules; podHasInitialized true.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_container_restart_policy() {
    // (containers [name, container RP, state], pod RP, expected, upstream case)
    let rows: &[(&[(&str, RestartPolicy, &str)], RestartPolicy, Phase, &str)] = &[
        (&[("c", Never, "T-1")], Always, Failed, "container with restart policy Never failed"),
        (&[("c", Always, "T-1")], Always, Running, "container with restart policy Always failed"),
        (&[("A", Never, "T-1"), ("B", OnFailure, "T0")], Always, Failed, "All containers without restartable container-level restart policy failed"),
    ];
    for &(cs, rp, exp, name) in rows {
        let regular: Vec<_> = cs.iter().map(|&(n, crp, t)| (spec(n, Some(crp)), t)).collect();
        check_phase(&TESTPODPHASEWITHCONTAINERRESTARTPOLICY, name, rp, &[], &regular, false, true, RULES, exp);
    }
}

/// TestPodPhaseWithContainerRestartPolicyInitContainers: gate ContainerRestartRules.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_container_restart_policy_init_containers() {
    // (init container RP, pod RP, init state, expected, upstream case); the cases need no
    // regular container.
    let rows: &[(RestartPolicy, RestartPolicy, &str, Phase, &str)] = &[
        (Never, Always, "T-1", Failed, "init container with restart policy Never failed"),
        (Always, Never, "T-1", Pending, "container with restart policy Always failed"),
    ];
    for &(irp, rp, t, exp, name) in rows {
        let init = [(spec("i", Some(irp)), t)];
        check_phase(&TESTPODPHASEWITHCONTAINERRESTARTPOLICYINITCONTAINERS, name, rp, &init, &[], false, true, RULES, exp);
    }
}

/// A container with one restart rule `{action, exitCodes: {operator, values}}`.
fn with_rule(
    mut c: ContainerSpecView,
    action: ContainerRestartRuleAction,
    operator: ExitCodesOperator,
    values: &[i32],
) -> ContainerSpecView {
    c.restart_policy_rules.push(ContainerRestartRule {
        action,
        exit_codes: Some(ContainerRestartRuleOnExitCodes {
            operator,
            values: values.to_vec(),
        }),
    });
    c
}

/// TestPodPhaseWithRestartAllContainers' `containerWithRule`: "container", restartPolicy Never, rule RestartAllContainers
/// on exit codes In [42].
fn rac_rule() -> ContainerSpecView {
    with_rule(
        spec("container", Some(Never)),
        ContainerRestartRuleAction::RestartAllContainers,
        ExitCodesOperator::In,
        &[42],
    )
}

/// Its `sidecarContainerWithRule`: the same rule on a sidecar (restartPolicy Always).
fn rac_sidecar_rule() -> ContainerSpecView {
    with_rule(
        sidecar("container"),
        ContainerRestartRuleAction::RestartAllContainers,
        ExitCodesOperator::In,
        &[42],
    )
}

/// `get_phase` as TestPodPhaseWithRestartAllContainers calls it: pod RestartPolicy Never,
/// podIsTerminal false, podHasInitialized true, and all statuses in one list looked up by
/// name (first match wins, as in the duplicate "container" of case "sidecar container
/// triggered RestartAllContainers; kills init container; sidecar running").
fn phase_one_list(
    init: &[ContainerSpecView],
    regular: &[ContainerSpecView],
    named: &[(&str, &str)],
    gates: Gates,
) -> Phase {
    get_phase(
        Never,
        init,
        regular,
        &[],
        &statuses(named),
        false,
        true,
        false,
        gates,
    )
}

/// TestPodPhaseWithRestartAllContainers: gates ContainerRestartRules,
/// NodeDeclaredFeatures, RestartAllContainersOnContainerExits; pod RP Never; init=true.
/// `getPhase` (KP): "restartable" = `ContainerShouldRestart` (a matched RestartAllContainers
/// rule → true under the gate) `||` terminated reason `RestartingAllContainers`
/// (`getPhase` in pkg/kubelet/kubelet_pods.go).
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_all_containers() {
    let init = || spec("init", None);
    let regular = || spec("regular", None);
    let rows: Vec<(Vec<ContainerSpecView>, Vec<ContainerSpecView>, &[(&str, &str)], Phase, &str)> = vec![
        (vec![], vec![rac_rule()], &[("container", "T42")], Running,
            "regular container triggers RestartAllContainers"),
        (vec![rac_sidecar_rule()], vec![regular()], &[("container", "T42"), ("regular", "W")], Pending,
            "sidecar container triggers RestartAllContainers"),
        (vec![], vec![rac_rule()], &[("container", "W+RAC")], Running,
            "regular container triggers RestartAllContainers, cleaned up"),
        (vec![rac_sidecar_rule()], vec![regular()], &[("container", "W+RAC"), ("regular", "W")], Pending,
            "sidecar container triggers RestartAllContainers, cleaned up"),
        (vec![init()], vec![rac_rule()], &[("init", "T0"), ("container", "W+RAC")], Running,
            "regular container triggered RestartAllContainers; init container succeeded"),
        (vec![rac_rule()], vec![regular()], &[("container", "T42"), ("regular", "W")], Pending,
            "init container triggered RestartAllContainers"),
        (vec![rac_sidecar_rule()], vec![regular()], &[("container", "W+RAC"), ("regular", "W+RAC")], Running,
            "sidecar container triggered RestartAllContainers kills regular container"),
        (vec![rac_sidecar_rule(), init()], vec![regular()],
            &[("container", "R"), ("container", "W+RAC"), ("regular", "W")], Pending,
            "sidecar container triggered RestartAllContainers; kills init container; sidecar running"),
    ];
    for (init_specs, specs, named, exp, name) in rows {
        let got = phase_one_list(&init_specs, &specs, named, RAC);
        assert_eq!(got, exp, "{}", TESTPODPHASEWITHRESTARTALLCONTAINERS.case(name));
    }
}

/// TestPodPhaseWithRestartAllContainers' pods with the gate
/// `RestartAllContainersOnContainerExits` off. Not upstream rows: derived from `getPhase` and
/// `ContainerShouldRestart` (pkg/kubelet/kubelet_pods.go, pkg/kubelet/container/helpers.go).
/// A matched
/// RestartAllContainers rule falls back to the container-level policy (Never), and the
/// `RestartingAllContainers` reason is not looked at, so the upstream Running/Pending cases
/// that rest on the rule or the reason become Failed (a failed container that will not be
/// restarted, with pod policy Never).
#[test]
fn restart_all_containers_needs_its_gate() {
    for gates in [RULES, OFF] {
        // Row 1's pod: stopped 1, not restartable, exit 42 ≠ 0.
        let p = phase_one_list(&[], &[rac_rule()], &[("container", "T42")], gates);
        assert_eq!(
            p, Failed,
            "pod of \"regular container triggers RestartAllContainers\", {gates:?}"
        );
        // Row 5's pod: Waiting with last termination 137 → stopped, not restartable.
        let p = phase_one_list(&[], &[rac_rule()], &[("container", "W+RAC")], gates);
        assert_eq!(
            p, Failed,
            "pod of \"regular container triggers RestartAllContainers, cleaned up\", {gates:?}"
        );
    }
    // The pod of "init container triggered RestartAllContainers": the failed init container is
    // not restartable → Failed (`getPhase`'s init-failure rule, with the
    // ContainerRestartRules rule and with the default pod-level rule alike).
    let init = [rac_rule()];
    let regular = [spec("regular", None)];
    let named = [("container", "T42"), ("regular", "W")];
    assert_eq!(phase_one_list(&init, &regular, &named, RULES), Failed);
    assert_eq!(phase_one_list(&init, &regular, &named, OFF), Failed);
    // The reason alone (no rule) is enough under the gate: a plain Never container.
    let plain = [spec("c", Some(Never))];
    assert_eq!(phase_one_list(&[], &plain, &[("c", "W+RAC")], RAC), Running);
    assert_eq!(
        phase_one_list(&[], &plain, &[("c", "W+RAC")], RULES),
        Failed
    );
}

/// `ContainerShouldRestart` rule matching under gate `ContainerRestartRules` (derived from
/// pkg/kubelet/container/helpers.go and `getPhase`, not upstream rows):
/// rules are read only when the container-level restartPolicy is set, the first rule whose
/// exitCodes requirement holds decides, `Restart` → restart, In / NotIn over the values.
#[test]
fn container_restart_rules_first_match_decides() {
    let restart_on = |op, vals: &[i32]| {
        with_rule(
            spec("c", Some(Never)),
            ContainerRestartRuleAction::Restart,
            op,
            vals,
        )
    };
    let run = |c: &ContainerSpecView, tok: &str, gates: Gates| {
        phase_one_list(&[], std::slice::from_ref(c), &[("c", tok)], gates)
    };
    let in42 = restart_on(ExitCodesOperator::In, &[42]);
    assert_eq!(run(&in42, "T42", RULES), Running);
    assert_eq!(run(&in42, "T-1", RULES), Failed);
    let not_in42 = restart_on(ExitCodesOperator::NotIn, &[42]);
    assert_eq!(run(&not_in42, "T42", RULES), Failed);
    assert_eq!(run(&not_in42, "T-1", RULES), Running);
    // Without a container-level restartPolicy the rules are not read: pod policy Never.
    let mut no_policy = in42.clone();
    no_policy.restart_policy = None;
    assert_eq!(run(&no_policy, "T42", RULES), Failed);
    // First match wins: a RestartAllContainers rule listed first shadows a Restart rule
    // for the same code; with its gate off it falls back to Never.
    let shadowed = with_rule(
        rac_rule(),
        ContainerRestartRuleAction::Restart,
        ExitCodesOperator::In,
        &[42],
    );
    assert_eq!(run_named(&shadowed, "T42", RULES), Failed);
    assert_eq!(run_named(&shadowed, "T42", RAC), Running);
    // A rule without exitCodes never matches.
    let mut bare = spec("c", Some(Never));
    bare.restart_policy_rules.push(ContainerRestartRule {
        action: ContainerRestartRuleAction::Restart,
        exit_codes: None,
    });
    assert_eq!(run(&bare, "T42", RULES), Failed);
    // Without gate ContainerRestartRules neither rules nor container policy are read.
    assert_eq!(run(&in42, "T42", OFF), Failed);
}

fn run_named(c: &ContainerSpecView, tok: &str, gates: Gates) -> Phase {
    phase_one_list(&[], std::slice::from_ref(c), &[(&c.name, tok)], gates)
}

/// The defaults keep the model's behaviour: no rules, all gates off.
#[test]
fn restart_rule_defaults_are_off() {
    assert!(ContainerSpecView::new("a").restart_policy_rules.is_empty());
    assert_eq!(Gates::default(), OFF);
}

/// `getPhase` (pkg/kubelet/kubelet_pods.go): a terminal static pod keeps the non-terminal rule
/// (the TODO for kubernetes#116484 there).
#[test]
fn static_pods_do_not_get_terminal_phase_from_pod_is_terminal() {
    let specs = [spec("A", None)];
    let st = statuses(&[("A", "T0")]);
    let p = get_phase(Always, &[], &specs, &[], &st, true, false, true, OFF);
    assert_eq!(p, Running);
    let p = get_phase(Always, &[], &specs, &[], &st, true, false, false, OFF);
    assert_eq!(p, Succeeded);
}

/// `HasAnyRegularContainerStarted` (pkg/kubelet/container/helpers.go): Running or Terminated regular containers count;
/// init containers and Waiting ones do not.
#[test]
fn has_any_regular_container_started_cases() {
    let specs = [spec("A", None), spec("B", None)];
    assert!(!has_any_regular_container_started(&specs, &[]));
    assert!(!has_any_regular_container_started(
        &specs,
        &statuses(&[("A", "W"), ("B", "W+L0")])
    ));
    assert!(has_any_regular_container_started(
        &specs,
        &statuses(&[("A", "W"), ("B", "R")])
    ));
    assert!(has_any_regular_container_started(
        &specs,
        &statuses(&[("A", "T0")])
    ));
    assert!(!has_any_regular_container_started(
        &specs,
        &statuses(&[("X", "R")])
    ));
}

/// A regular-container token that `getPhase` counts as stopped: Terminated, or Waiting with a
/// last termination.
fn stopped_token() -> impl Strategy<Value = String> {
    prop_oneof![
        (-2i32..3).prop_map(|c| format!("T{c}")),
        (-2i32..3).prop_map(|c| format!("W+L{c}")),
    ]
}

proptest! {
    /// `getPhase` with podIsTerminal (kubernetes PR #115331): a non-static terminal pod whose containers are all stopped gets Succeeded
    /// (all Terminated with exit 0) or Failed, whatever the policy and gates.
    #[test]
    fn terminal_pod_with_stopped_containers_gets_terminal_phase(
        toks in prop::collection::vec(stopped_token(), 1..5),
        rp in rp_strategy(),
        rules in prop::bool::ANY,
        initialized in prop::bool::ANY,
    ) {
        let specs: Vec<_> = (0..toks.len()).map(|i| spec(&format!("c{i}"), None)).collect();
        let st: Vec<_> = toks.iter().enumerate().filter_map(|(i, t)| status(&format!("c{i}"), t)).collect();
        let gates = Gates { container_restart_rules: rules, ..Gates::default() };
        let p = get_phase(rp, &[], &specs, &[], &st, true, initialized, false, gates);
        let all_ok = toks.iter().all(|t| t == "T0");
        prop_assert_eq!(p, if all_ok { Succeeded } else { Failed });
    }

}
