//! Conformance tests for `podcheck_model::k8s`.
//!
//! Every row of /work/shared/k8s/VECTORS.md sections V1–V7 is transcribed below as table data
//! and run through the module's functions; test functions are named after the upstream test
//! tables (snake_case). A few extra tables are transcribed from upstream tests that VECTORS.md
//! does not carry (apimachinery `TestHumanDuration*`, scheduler
//! `TestLeastAllocatedScoringStrategy`), and a few checks are derived from FACTS.md (cited
//! as `F n`). Property tests close the file.
//!
//! Rows NOT covered, and why:
//! * V2.1, V2.3, V2.5 (TestConvertToAPIContainerStatuses): covered in `convert_vectors.rs`,
//!   through `convert_to_api_container_statuses`, which the model's kubelet calls.
//!
//! Formerly uncovered, now covered here:
//! * V1.11 (TestPodPhaseWithRestartAllContainers): `Gates` has
//!   `restart_all_containers_on_container_exits` and `ContainerSpecView` has
//!   `restart_policy_rules` (both off / empty by default); see
//!   `test_pod_phase_with_restart_all_containers`.
//! * V3.3 "row condition" column and V3.1 row 17's row condition: `PrintedPod` has
//!   `row_condition` (`podSuccessConditions` / `podFailedConditions`).
//! * V7.4 last row (podFailurePolicy Ignore on DisruptionTarget): `match_pod_failure_policy`
//!   in `jobs.rs`; see `pod_failure_policy_ignore_on_disruption_target` and F 98 checks.

// Test tables are tuples by design; one row per line.
#![allow(clippy::type_complexity)]

use podcheck_model::k8s::*;
use proptest::prelude::*;
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------
// Token parser for the VECTORS.md container-state notation.
// ---------------------------------------------------------------------------------------

fn terminated(exit_code: i32) -> Terminated {
    Terminated {
        exit_code,
        ..Terminated::default()
    }
}

/// `—` → no status; `R`, `Rs`, `T<code>`, `W`, `W+L<code>`, `W+RAC` as in the legend.
fn status(name: &str, tok: &str) -> Option<ContainerStatus> {
    let mut s = ContainerStatus {
        name: name.to_string(),
        ..ContainerStatus::default()
    };
    match tok {
        "—" | "-" => return None,
        "R" => s.state = ContainerState::Running,
        "Rs" => {
            s.state = ContainerState::Running;
            s.started = Some(true);
        }
        "W" => {
            s.state = ContainerState::Waiting {
                reason: String::new(),
            }
        }
        "W+RAC" => {
            s.state = ContainerState::Waiting {
                reason: "RestartingAllContainers".to_string(),
            };
            s.last_state = Some(Terminated {
                exit_code: 137,
                reason: "RestartingAllContainers".to_string(),
                ..Terminated::default()
            });
        }
        t if t.starts_with("W+L") => {
            s.state = ContainerState::Waiting {
                reason: String::new(),
            };
            s.last_state = Some(terminated(t[3..].parse().expect("exit code")));
        }
        t if t.starts_with('T') => {
            s.state = ContainerState::Terminated(terminated(t[1..].parse().expect("exit code")));
        }
        other => panic!("unknown token {other:?}"),
    }
    Some(s)
}

fn statuses(named: &[(&str, &str)]) -> Vec<ContainerStatus> {
    named.iter().filter_map(|(n, t)| status(n, t)).collect()
}

fn spec(name: &str, rp: Option<RestartPolicy>) -> ContainerSpecView {
    ContainerSpecView {
        restart_policy: rp,
        ..ContainerSpecView::new(name)
    }
}

fn sidecar(name: &str) -> ContainerSpecView {
    spec(name, Some(RestartPolicy::Always))
}

const OFF: Gates = Gates {
    container_restart_rules: false,
    restart_all_containers_on_container_exits: false,
};
const RULES: Gates = Gates {
    container_restart_rules: true,
    restart_all_containers_on_container_exits: false,
};
/// V1.11's gates: ContainerRestartRules and RestartAllContainersOnContainerExits (the
/// third, NodeDeclaredFeatures, changes nothing `get_phase` reads).
const RAC: Gates = Gates {
    container_restart_rules: true,
    restart_all_containers_on_container_exits: true,
};

use Phase::{Failed, Pending, Running, Succeeded};
use RestartPolicy::{Always, Never, OnFailure};

/// Run `get_phase` for one row and report the row on failure.
#[allow(clippy::too_many_arguments)]
fn check_phase(
    table: &str,
    row: u32,
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
    assert_eq!(got, expected, "{table} row {row} ({name})");
}

// ---------------------------------------------------------------------------------------
// V1. Pod phase (getPhase), pkg/kubelet/kubelet_pods_test.go
// ---------------------------------------------------------------------------------------

/// V1.1 TestPodPhaseWithRestartAlways — A, B; Always; init=false.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_always() {
    let rows: &[(u32, &str, &str, bool, Phase, &str)] = &[
        (1, "—", "—", false, Pending, "waiting"),
        (3, "T0", "T0", false, Running, "all stopped with restart always"),
        (5, "T0", "T-1", true, Failed, "all stopped with restart always, but the pod is terminal"),
        (7, "R", "—", false, Pending, "mixed state #2 with restart always"),
        (9, "R", "W+L0", false, Running, "backoff crashloop container with restart always"),
    ];
    for &(row, a, b, term, exp, name) in rows {
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase("V1.1", row, name, Always, &[], &regular, term, false, OFF, exp);
    }
}

/// V1.2 TestPodPhaseWithRestartAlwaysInitContainers — regular init X; A, B; Always.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_always_init_containers() {
    let rows: &[(u32, &str, &str, &str, Phase, &str)] = &[
        (1, "—", "—", "—", Pending, "empty, waiting"),
        (3, "T-1", "—", "—", Pending, "init container terminated non-zero"),
        (5, "W+L-1", "—", "—", Pending, "init container waiting, terminated non-zero"),
        (7, "T0", "R", "R", Running, "init container succeeded"),
    ];
    for &(row, x, a, b, exp, name) in rows {
        let init = [(spec("X", None), x)];
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase("V1.2", row, name, Always, &init, &regular, false, false, OFF, exp);
    }
}

/// V1.3 TestPodPhaseWithRestartAlwaysRestartableInitContainers — sidecar X; A, B; Always.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_always_restartable_init_containers() {
    let rows: &[(u32, &str, &str, &str, bool, bool, Phase, &str)] = &[
        (1, "—", "—", "—", false, false, Pending, "empty, waiting"),
        (3, "T0", "—", "—", false, false, Pending, "restartable init container stopped"),
        (5, "W+L-1", "—", "—", false, false, Pending, "restartable init container waiting, terminated non-zero"),
        (7, "Rs", "R", "—", false, true, Pending, "restartable init container started, 1/2 regular container running"),
        (9, "R", "R", "R", false, true, Running, "restartable init container running, all regular containers running"),
        (11, "W+L0", "R", "R", false, true, Running, "backoff crashloop restartable init container, all regular containers running"),
        (13, "T0", "T0", "T0", true, true, Succeeded, "all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal"),
    ];
    for &(row, x, a, b, term, init_done, exp, name) in rows {
        let init = [(sidecar("X"), x)];
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase("V1.3", row, name, Always, &init, &regular, term, init_done, OFF, exp);
    }
}

/// V1.4 TestPodPhaseWithRestartAlwaysAndPodHasRun — regular init X, sidecar Y; A; Always.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_always_and_pod_has_run() {
    let rows: &[(u32, &str, &str, &str, bool, Phase, &str)] = &[
        (1, "R", "R", "R", false, Pending, "regular init containers, restartable init container and regular container are all running"),
        (3, "T0", "R", "T0", false, Pending, "re-created sandbox: regular init container is succeeded, restartable init container is running, old regular containers is stopped"),
        (5, "T0", "R", "R", true, Running, "regular init container is succeeded, restartable init container and regular containers are both running"),
    ];
    for &(row, x, y, a, init_done, exp, name) in rows {
        let init = [(spec("X", None), x), (sidecar("Y"), y)];
        let regular = [(spec("A", None), a)];
        check_phase("V1.4", row, name, Always, &init, &regular, false, init_done, OFF, exp);
    }
}

/// V1.5 TestPodPhaseWithRestartNever — A, B; Never.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_never() {
    let rows: &[(u32, &str, &str, Phase, &str)] = &[
        (1, "—", "—", Pending, "waiting"),
        (3, "T0", "T0", Succeeded, "all succeeded with restart never"),
        (5, "R", "T0", Running, "mixed state #1 with restart never"),
        (7, "R", "W", Pending, "mixed state #3 with restart never"),
    ];
    for &(row, a, b, exp, name) in rows {
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase("V1.5", row, name, Never, &[], &regular, false, false, OFF, exp);
    }
}

/// V1.6 TestPodPhaseWithRestartNeverInitContainers — regular init X; A, B; Never.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_never_init_containers() {
    let rows: &[(u32, &str, &str, &str, Phase, &str)] = &[
        (1, "—", "—", "—", Pending, "empty, waiting"),
        (3, "T-1", "—", "—", Failed, "init container terminated non-zero"),
        (5, "W+L-1", "—", "—", Failed, "init container waiting, terminated non-zero"),
        (7, "T0", "R", "R", Running, "init container succeeded"),
    ];
    for &(row, x, a, b, exp, name) in rows {
        let init = [(spec("X", None), x)];
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase("V1.6", row, name, Never, &init, &regular, false, false, OFF, exp);
    }
}

/// V1.7 TestPodPhaseWithRestartNeverRestartableInitContainers — sidecar X; A, B; Never.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_never_restartable_init_containers() {
    let rows: &[(u32, &str, &str, &str, bool, Phase, &str)] = &[
        (1, "—", "—", "—", false, Pending, "empty, waiting"),
        (3, "T0", "—", "—", false, Pending, "restartable init container stopped"),
        (5, "W+L-1", "—", "—", false, Pending, "restartable init container waiting, terminated non-zero"),
        (7, "Rs", "R", "—", true, Pending, "restartable init container started, one main container running"),
        (9, "R", "T0", "T0", true, Running, "restartable init container re-running, main containers succeeded"),
        (11, "T-1", "T0", "T0", true, Succeeded, "restartable init container terminated non-zero, main containers succeeded"),
        (13, "W+L-1", "T0", "T0", true, Succeeded, "backoff crashloop with non-zero restartable init container, main containers succeeded"),
    ];
    for &(row, x, a, b, init_done, exp, name) in rows {
        let init = [(sidecar("X"), x)];
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase("V1.7", row, name, Never, &init, &regular, false, init_done, OFF, exp);
    }
}

/// V1.8 TestPodPhaseWithRestartOnFailure — A, B; OnFailure.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_on_failure() {
    let rows: &[(u32, &str, &str, Phase, &str)] = &[
        (1, "—", "—", Pending, "waiting"),
        (3, "T0", "T0", Succeeded, "all succeeded with restart onfailure"),
        (5, "R", "T0", Running, "mixed state #1 with restart onfailure"),
        (7, "R", "W", Pending, "mixed state #3 with restart onfailure"),
    ];
    for &(row, a, b, exp, name) in rows {
        let regular = [(spec("A", None), a), (spec("B", None), b)];
        check_phase("V1.8", row, name, OnFailure, &[], &regular, false, false, OFF, exp);
    }
}

/// V1.9 TestPodPhaseWithContainerRestartPolicy — gate ContainerRestartRules; init=true.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_container_restart_policy() {
    // (row, containers [name, container RP, state], pod RP, expected, upstream name)
    let rows: &[(u32, &[(&str, RestartPolicy, &str)], RestartPolicy, Phase, &str)] = &[
        (1, &[("c", Never, "T-1")], Always, Failed, "container with restart policy Never failed"),
        (3, &[("c", Always, "T-1")], Always, Running, "container with restart policy Always failed"),
        (5, &[("A", Never, "T-1"), ("B", OnFailure, "T0")], Always, Failed, "All containers without restartable container-level restart policy failed"),
    ];
    for &(row, cs, rp, exp, name) in rows {
        let regular: Vec<_> = cs.iter().map(|&(n, crp, t)| (spec(n, Some(crp)), t)).collect();
        check_phase("V1.9", row, name, rp, &[], &regular, false, true, RULES, exp);
    }
}

/// V1.10 TestPodPhaseWithContainerRestartPolicyInitContainers — gate ContainerRestartRules.
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_container_restart_policy_init_containers() {
    // (row, init container RP, pod RP, init state, expected, upstream name); no regular
    // containers are given in the VECTORS row.
    let rows: &[(u32, RestartPolicy, RestartPolicy, &str, Phase, &str)] = &[
        (1, Never, Always, "T-1", Failed, "init container with restart policy Never failed"),
        (3, Always, Never, "T-1", Pending, "container with restart policy Always failed"),
    ];
    for &(row, irp, rp, t, exp, name) in rows {
        let init = [(spec("i", Some(irp)), t)];
        check_phase("V1.10", row, name, rp, &init, &[], false, true, RULES, exp);
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

/// V1.11 `containerWithRule`: "container", restartPolicy Never, rule RestartAllContainers
/// on exit codes In [42].
fn rac_rule() -> ContainerSpecView {
    with_rule(
        spec("container", Some(Never)),
        ContainerRestartRuleAction::RestartAllContainers,
        ExitCodesOperator::In,
        &[42],
    )
}

/// V1.11 `sidecarContainerWithRule`: the same rule on a sidecar (restartPolicy Always).
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
/// name (first match wins, as in row 15's duplicate "container").
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

/// V1.11 TestPodPhaseWithRestartAllContainers — gates ContainerRestartRules,
/// NodeDeclaredFeatures, RestartAllContainersOnContainerExits; pod RP Never; init=true.
/// `getPhase` (KP): "restartable" = `ContainerShouldRestart` (a matched RestartAllContainers
/// rule → true under the gate) `||` terminated reason `RestartingAllContainers` (F 25, F 26).
#[test]
#[rustfmt::skip]
fn test_pod_phase_with_restart_all_containers() {
    let init = || spec("init", None);
    let regular = || spec("regular", None);
    let rows: Vec<(u32, Vec<ContainerSpecView>, Vec<ContainerSpecView>, &[(&str, &str)], Phase, &str)> = vec![
        (1, vec![], vec![rac_rule()], &[("container", "T42")], Running,
            "regular container triggers RestartAllContainers"),
        (3, vec![rac_sidecar_rule()], vec![regular()], &[("container", "T42"), ("regular", "W")], Pending,
            "sidecar container triggers RestartAllContainers"),
        (5, vec![], vec![rac_rule()], &[("container", "W+RAC")], Running,
            "regular container triggers RestartAllContainers, cleaned up"),
        (7, vec![rac_sidecar_rule()], vec![regular()], &[("container", "W+RAC"), ("regular", "W")], Pending,
            "sidecar container triggers RestartAllContainers, cleaned up"),
        (9, vec![init()], vec![rac_rule()], &[("init", "T0"), ("container", "W+RAC")], Running,
            "regular container triggered RestartAllContainers; init container succeeded"),
        (11, vec![rac_rule()], vec![regular()], &[("container", "T42"), ("regular", "W")], Pending,
            "init container triggered RestartAllContainers"),
        (13, vec![rac_sidecar_rule()], vec![regular()], &[("container", "W+RAC"), ("regular", "W+RAC")], Running,
            "sidecar container triggered RestartAllContainers kills regular container"),
        (15, vec![rac_sidecar_rule(), init()], vec![regular()],
            &[("container", "R"), ("container", "W+RAC"), ("regular", "W")], Pending,
            "sidecar container triggered RestartAllContainers; kills init container; sidecar running"),
    ];
    for (row, init_specs, specs, named, exp, name) in rows {
        let got = phase_one_list(&init_specs, &specs, named, RAC);
        assert_eq!(got, exp, "V1.11 row {row} ({name})");
    }
}

/// V1.11 pods with the gate `RestartAllContainersOnContainerExits` off [derived from the
/// `getPhase` / `ContainerShouldRestart` code, not upstream rows]: a matched
/// RestartAllContainers rule falls back to the container-level policy (Never), and the
/// `RestartingAllContainers` reason is not looked at, so the V1.11 Running/Pending rows
/// that rest on the rule or the reason become Failed (F 25, F 26 step 4).
#[test]
fn restart_all_containers_needs_its_gate() {
    for gates in [RULES, OFF] {
        // Row 1's pod: stopped 1, not restartable, exit 42 ≠ 0.
        let p = phase_one_list(&[], &[rac_rule()], &[("container", "T42")], gates);
        assert_eq!(p, Failed, "row 1 pod, {gates:?}");
        // Row 5's pod: Waiting with last termination 137 → stopped, not restartable.
        let p = phase_one_list(&[], &[rac_rule()], &[("container", "W+RAC")], gates);
        assert_eq!(p, Failed, "row 5 pod, {gates:?}");
    }
    // Row 11's pod: the failed init container is not restartable → Failed (F 25, with the
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

/// `ContainerShouldRestart` rule matching under gate `ContainerRestartRules` (F 25, F 26):
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

/// F 27: a terminal static pod keeps the non-terminal rule (TODO #116484 upstream).
#[test]
fn static_pods_do_not_get_terminal_phase_from_pod_is_terminal() {
    let specs = [spec("A", None)];
    let st = statuses(&[("A", "T0")]);
    let p = get_phase(Always, &[], &specs, &[], &st, true, false, true, OFF);
    assert_eq!(p, Running);
    let p = get_phase(Always, &[], &specs, &[], &st, true, false, false, OFF);
    assert_eq!(p, Succeeded);
}

/// `HasAnyRegularContainerStarted` (F 21): Running or Terminated regular containers count;
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

// ---------------------------------------------------------------------------------------
// Conditions (F 39–41, F 43). Not a VECTORS section: checks derived from FACTS.md.
// ---------------------------------------------------------------------------------------

fn c(type_: &str, status: ConditionStatus, reason: &str) -> Condition {
    Condition {
        type_: type_.to_string(),
        status,
        reason: reason.to_string(),
    }
}

fn ready(mut s: ContainerStatus) -> ContainerStatus {
    s.ready = true;
    s
}

#[test]
fn generate_conditions_from_facts() {
    use ConditionStatus::{False, True};
    let init = [spec("X", None)];
    let specs = [spec("A", None), spec("B", None)];

    // All ready and running (F 39, F 40, F 41).
    let i = vec![ready(status("X", "T0").unwrap())];
    let r = vec![
        ready(status("A", "R").unwrap()),
        ready(status("B", "R").unwrap()),
    ];
    assert_eq!(
        generate_conditions(&init, &specs, &i, &r, Running),
        vec![
            c("Initialized", True, ""),
            c("Ready", True, ""),
            c("ContainersReady", True, "")
        ]
    );

    // No statuses at all: UnknownContainerStatuses (F 39, F 41).
    assert_eq!(
        generate_conditions(&init, &specs, &[], &[], Pending),
        vec![
            c("Initialized", False, "UnknownContainerStatuses"),
            c("Ready", False, "UnknownContainerStatuses"),
            c("ContainersReady", False, "UnknownContainerStatuses"),
        ]
    );

    // One container unready: ContainersNotReady, copied into Ready (F 39, F 40).
    let r2 = vec![ready(status("A", "R").unwrap()), status("B", "R").unwrap()];
    assert_eq!(
        generate_conditions(&init, &specs, &i, &r2, Running),
        vec![
            c("Initialized", True, ""),
            c("Ready", False, "ContainersNotReady"),
            c("ContainersReady", False, "ContainersNotReady"),
        ]
    );

    // Succeeded with all known: PodCompleted (F 39, F 41).
    let r3 = vec![status("A", "T0").unwrap(), status("B", "T0").unwrap()];
    assert_eq!(
        generate_conditions(&init, &specs, &i, &r3, Succeeded),
        vec![
            c("Initialized", True, "PodCompleted"),
            c("Ready", False, "PodCompleted"),
            c("ContainersReady", False, "PodCompleted"),
        ]
    );

    // Failed: PodFailed (F 39).
    let r4 = vec![status("A", "T0").unwrap(), status("B", "T-1").unwrap()];
    assert_eq!(
        generate_conditions(&init, &specs, &i, &r4, Failed)[2],
        c("ContainersReady", False, "PodFailed")
    );

    // Init container still running, regular containers not started: not initialized (F 41).
    let i5 = vec![status("X", "R").unwrap()];
    let r5 = vec![status("A", "W").unwrap(), status("B", "W").unwrap()];
    assert_eq!(
        generate_conditions(&init, &specs, &i5, &r5, Pending)[0],
        c("Initialized", False, "ContainersNotInitialized")
    );

    // A sidecar restarting after a main container started: still initialized (F 41).
    let sc = [sidecar("S")];
    let i6 = vec![status("S", "W+L-1").unwrap()];
    let r6 = vec![
        ready(status("A", "R").unwrap()),
        ready(status("B", "R").unwrap()),
    ];
    let got = generate_conditions(&sc, &specs, &i6, &r6, Running);
    assert_eq!(got[0], c("Initialized", True, ""));
    // The sidecar is counted by ContainersReady and is not ready (F 39).
    assert_eq!(got[2], c("ContainersReady", False, "ContainersNotReady"));
}

/// F 43 (`UpdatePodStatus` / `isContainerStarted`).
#[test]
#[rustfmt::skip]
fn container_started_and_ready_from_facts() {
    // (running, startup probe, startup ok, readiness probe, readiness ok) → (started, ready)
    let rows: &[((bool, bool, bool, bool, bool), (Option<bool>, bool))] = &[
        ((false, false, false, false, false), (Some(false), false)),
        ((true,  false, false, false, false), (Some(true),  true)),
        ((true,  true,  false, false, false), (Some(false), false)),
        ((true,  true,  true,  false, false), (Some(true),  true)),
        ((true,  false, false, true,  false), (Some(true),  false)),
        ((true,  false, false, true,  true),  (Some(true),  true)),
        ((true,  true,  false, true,  true),  (Some(false), false)),
        ((false, false, false, true,  true),  (Some(false), false)),
    ];
    for &((r, sp, so, rp, ro), exp) in rows {
        assert_eq!(container_started_and_ready(r, sp, so, rp, ro), exp, "{r} {sp} {so} {rp} {ro}");
    }
}

// ---------------------------------------------------------------------------------------
// V3. kubectl STATUS — pkg/printers/internalversion/printers_test.go
// ---------------------------------------------------------------------------------------

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

/// V3.1 TestPrintPod.
#[test]
fn test_print_pod() {
    let mut rows: Vec<(u32, PodView, PrintedPod)> = Vec::new();

    rows.push((
        1,
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
        3,
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
    rows.push((5, p5, printed("1/2", "podReason", "6")));
    // Row 7's pod ("same as 6") as in upstream printers_test.go: phase Running, one Ready
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
    rows.push((7, p7, printed("1/2", "Running", "6")));
    let mut p9 = pod("Pending", &["c0"], vec![ps("c0", wait(""), false, 0, None)]);
    p9.init_containers = vec![spec("i0", None), spec("i1", None)];
    p9.init_statuses = vec![
        ps("i0", run(), false, 3, Some(10)),
        ps("i1", wait(""), false, 0, None),
    ];
    rows.push((9, p9, printed("0/1", "Init:0/2", "3 (10s ago)")));
    let mut p11 = pod("Pending", &["c0"], vec![ps("c0", wait(""), false, 0, None)]);
    p11.init_containers = vec![spec("i0", None), spec("i1", None)];
    p11.init_statuses = vec![
        ps("i0", term("", 0), false, 2, Some(120)),
        ps("i1", run(), false, 3, Some(10)),
    ];
    rows.push((11, p11, printed("0/1", "Init:1/2", "5 (10s ago)")));
    rows.push((
        13,
        pod(
            "Running",
            &["c0"],
            vec![ps("c0", run(), true, 3, Some(5 * DAY))],
        ),
        printed("1/1", "Running", "3 (5d ago)"),
    ));
    rows.push((
        15,
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
        17,
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
    // VECTORS gives only the cells; `printPod` sets the row condition from the phase alone,
    // so a Succeeded pod being deleted also gets `podSuccessConditions` [from source].
    rows.push((
        19,
        p19,
        with_row_condition(printed("0/1", "Completed", "0"), pod_success_conditions()),
    ));
    let mut p21 = pod("Pending", &["c0"], vec![]);
    p21.deletion_timestamp = true;
    rows.push((21, p21, printed("0/1", "Terminating", "0")));

    for (row, p, exp) in rows {
        assert_eq!(print_pod(&p), exp, "V3.1 row {row}");
    }
}

/// V3.2 TestPrintPodWithRestartableInitContainer.
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
        "V3.2 row 1"
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
        "V3.2 row 3"
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
        "V3.2 row 5"
    );
}

/// V3.3 TestPrintPodConditions: cells and the row condition (none for Running,
/// `podFailedConditions` for Failed).
#[test]
fn test_print_pod_conditions() {
    let rows = [
        (1, "Running", "Running", None),
        (3, "Failed", "Failed", Some(pod_failed_conditions())),
    ];
    for (row, phase, exp, cond) in rows {
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
        assert_eq!(print_pod(&p), want, "V3.3 row {row}");
    }
}

/// `printPod` row conditions [from source, printers.go]: set from `status.Phase` only —
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

/// F 73, F 74, F 75, F 77, F 79: further printPod rules.
#[test]
fn print_pod_rules_from_facts() {
    // Init container failed with no reason: Init:ExitCode:N / Init:Signal:N (F 74).
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
    // PodInitializing is not shown as Init:PodInitializing (F 74).
    p.init_statuses[0].state = wait("PodInitializing");
    assert_eq!(print_pod(&p).status, "Init:0/1");

    // Container reason overrides status.reason (F 79); first container wins (F 75).
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

    // Completed + a ready running container without PodReady → NotReady (F 76).
    let n = pod(
        "Running",
        &["c0", "c1"],
        vec![
            ps("c0", term("Completed", 0), true, 0, None),
            ps("c1", run(), true, 0, None),
        ],
    );
    assert_eq!(print_pod(&n).status, "NotReady");

    // SchedulingGated (F 73); NodeLost + deletion → Unknown (F 77).
    let mut g = pod("Pending", &["c0"], vec![]);
    g.conditions = vec![c("PodScheduled", ConditionStatus::False, "SchedulingGated")];
    assert_eq!(print_pod(&g).status, "SchedulingGated");
    let mut u = pod("Running", &["c0"], vec![ps("c0", run(), true, 0, None)]);
    u.reason = "NodeLost".to_string();
    u.deletion_timestamp = true;
    assert_eq!(print_pod(&u).status, "Unknown");
}

/// Extra: staging/src/k8s.io/apimachinery/pkg/util/duration/duration_test.go TestHumanDuration.
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
        assert_eq!(human_duration(s), exp, "{s}s");
    }
}

/// Extra: TestHumanDurationBoundaries. Sub-second rows are floored to whole seconds, which is
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
        assert_eq!(human_duration(s), exp, "{s}s");
    }
}

// ---------------------------------------------------------------------------------------
// V4. Kubelet restart decisions — pkg/kubelet/kuberuntime/kuberuntime_manager_test.go
// ---------------------------------------------------------------------------------------

fn rtv(state: RuntimeState) -> Option<RuntimeContainerView> {
    Some(RuntimeContainerView {
        state,
        liveness_failed: false,
        startup_failed: false,
    })
}

const RUNNING: RuntimeState = RuntimeState::Running;
const fn exited(exit_code: i32) -> RuntimeState {
    RuntimeState::Exited { exit_code }
}

fn sandbox(ready: bool, has_ip: bool, attempt: u32) -> Option<SandboxView> {
    Some(SandboxView {
        ready,
        has_ip,
        attempt,
    })
}

fn actions(kill_pod: bool, create_sandbox: bool, attempt: u32) -> PodActions {
    PodActions {
        kill_pod,
        create_sandbox,
        attempt,
        ..PodActions::default()
    }
}

/// V4.1 TestComputePodActions — foo1..3 running; sandbox ready with IP, attempt 0.
#[test]
fn test_compute_pod_actions() {
    let base_rt = || vec![rtv(RUNNING), rtv(RUNNING), rtv(RUNNING)];
    let ok = sandbox(true, true, 0);
    let run_case = |row: u32,
                    rp: RestartPolicy,
                    sb: Option<SandboxView>,
                    rt: Vec<Option<RuntimeContainerView>>,
                    exp: PodActions| {
        let got = compute_pod_actions(rp, &[], 3, sb, &[], &rt, false);
        assert_eq!(got, exp, "V4.1 row {row}");
    };

    run_case(1, Always, ok, base_rt(), actions(false, false, 0));

    let mut rt = base_rt();
    rt[0] = rtv(exited(0));
    rt[1] = rtv(exited(111));
    run_case(
        3,
        Always,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![0, 1],
            ..actions(false, false, 0)
        },
    );

    let mut rt = base_rt();
    rt[0] = rtv(exited(0));
    rt[1] = rtv(RuntimeState::Created);
    run_case(
        5,
        OnFailure,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![1],
            ..actions(false, false, 0)
        },
    );

    run_case(
        7,
        Always,
        sandbox(false, true, 0),
        base_rt(),
        PodActions {
            containers_to_start: vec![0, 1, 2],
            ..actions(true, true, 1)
        },
    );

    // RP left unset: the API default is Always (F 15).
    run_case(
        9,
        Always,
        sandbox(true, false, 0),
        base_rt(),
        PodActions {
            containers_to_start: vec![0, 1, 2],
            ..actions(true, true, 1)
        },
    );

    let mut rt = base_rt();
    rt[1] = Some(RuntimeContainerView {
        state: RUNNING,
        liveness_failed: true,
        startup_failed: false,
    });
    run_case(
        11,
        Always,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![1],
            containers_to_kill: vec![1],
            ..actions(false, false, 0)
        },
    );

    run_case(
        13,
        Never,
        sandbox(false, true, 1),
        vec![rtv(exited(0)), rtv(exited(0)), rtv(exited(0))],
        actions(true, false, 2),
    );

    run_case(
        15,
        Never,
        sandbox(false, true, 2),
        vec![None, None, None],
        PodActions {
            containers_to_start: vec![0, 1, 2],
            ..actions(true, true, 3)
        },
    );

    let mut rt = base_rt();
    rt[1] = rtv(RuntimeState::Created);
    run_case(
        17,
        Never,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![1],
            ..actions(false, false, 0)
        },
    );
}

/// V4.2 TestComputePodActionsWithInitContainers — init1..3 exited 0; no regular records.
#[test]
fn test_compute_pod_actions_with_init_containers() {
    let init_specs = vec![
        spec("init1", None),
        spec("init2", None),
        spec("init3", None),
    ];
    let base_init = || vec![rtv(exited(0)), rtv(exited(0)), rtv(exited(0))];
    let no_rt: Vec<Option<RuntimeContainerView>> = vec![None, None, None];
    let ok = sandbox(true, true, 0);
    let run_case = |row: u32,
                    rp: RestartPolicy,
                    sb: Option<SandboxView>,
                    init_rt: Vec<Option<RuntimeContainerView>>,
                    exp: PodActions| {
        let got = compute_pod_actions(rp, &init_specs, 3, sb, &init_rt, &no_rt, false);
        assert_eq!(got, exp, "V4.2 row {row}");
    };

    run_case(
        1,
        Always,
        ok,
        base_init(),
        PodActions {
            containers_to_start: vec![0, 1, 2],
            ..actions(false, false, 0)
        },
    );

    let mut i = base_init();
    i[2] = rtv(RUNNING);
    run_case(3, Always, ok, i, actions(false, false, 0));

    let mut i = base_init();
    i[2] = rtv(exited(137));
    run_case(
        5,
        Always,
        ok,
        i.clone(),
        PodActions {
            init_containers_to_start: vec![2],
            ..actions(false, false, 0)
        },
    );
    run_case(7, Never, ok, i, actions(true, false, 0));

    let mut i = base_init();
    i[2] = rtv(RuntimeState::Unknown);
    run_case(
        9,
        OnFailure,
        ok,
        i,
        PodActions {
            init_containers_to_start: vec![2],
            init_containers_to_kill: vec![2],
            ..actions(false, false, 0)
        },
    );

    run_case(
        11,
        Never,
        sandbox(false, true, 0),
        base_init(),
        actions(true, false, 1),
    );

    let mut i = base_init();
    i[2] = rtv(exited(137));
    run_case(
        13,
        OnFailure,
        sandbox(false, true, 0),
        i,
        PodActions {
            init_containers_to_start: vec![0],
            ..actions(true, true, 1)
        },
    );

    let mut i = base_init();
    i[2] = rtv(RuntimeState::Created);
    run_case(
        15,
        Always,
        ok,
        i,
        PodActions {
            init_containers_to_start: vec![2],
            ..actions(false, false, 0)
        },
    );
}

/// F 55: a pod being deleted never restarts its containers; with nothing kept, the pod is
/// killed.
#[test]
fn compute_pod_actions_with_deletion_timestamp() {
    let rt = vec![rtv(exited(1)), rtv(RUNNING)];
    let got = compute_pod_actions(Always, &[], 2, sandbox(true, true, 0), &[], &rt, true);
    assert_eq!(got, actions(false, false, 0));
    let rt = vec![rtv(exited(1)), rtv(exited(0))];
    let got = compute_pod_actions(Always, &[], 2, sandbox(true, true, 0), &[], &rt, true);
    assert_eq!(got, actions(true, false, 0));
}

// ---------------------------------------------------------------------------------------
// V5. flowcontrol.Backoff — staging/src/k8s.io/client-go/util/flowcontrol/backoff_test.go
// ---------------------------------------------------------------------------------------

const fn fake(initial: u64, max: u64) -> BackoffPolicy {
    // NewFakeBackOff: default reset rule (2 × max).
    BackoffPolicy {
        initial,
        max,
        expiry: Expiry::TwiceMax,
    }
}

/// V5.1 TestSlowBackoff (1 s, 50 s).
#[test]
fn test_slow_backoff() {
    let p = fake(1, 50);
    let expected = [0u64, 1, 2, 4, 8, 16, 32, 50, 50, 50];
    let mut now = 0i64;
    let mut e: Option<BackoffEntry> = None;
    for (ix, want) in expected.iter().enumerate() {
        now += 1;
        assert_eq!(BackoffPolicy::get(e), *want, "call {}", ix + 1);
        e = Some(p.next(e, now, now));
    }
    // Next then Reset (drop the entry): Get == 0.
    e = Some(p.next(e, now, now));
    assert_eq!(BackoffPolicy::get(e), 50);
    e = None;
    assert_eq!(BackoffPolicy::get(e), 0);
}

/// Six `Next` calls one second apart with (1 s, 5 s): backoff 5 s, lastUpdate at t = 6.
fn to_max(p: &BackoffPolicy) -> (Option<BackoffEntry>, i64) {
    let mut now = 0i64;
    let mut e = None;
    for _ in 0..=5 {
        now += 1;
        e = Some(p.next(e, now, now));
    }
    (e, now)
}

/// V5.2 TestBackoffReset.
#[test]
fn test_backoff_reset() {
    let p = fake(1, 5);
    let (e, now) = to_max(&p);
    assert_eq!(BackoffPolicy::get(e), 5);
    assert!(p.is_in_backoff_since(e, now, now));
    let last_update = now;
    let now = now + 2 * 5 + 1;
    // `now - lastUpdate = 11 ≥ 5`, so not in back-off. (The eventTime passed is lastUpdate
    // itself, so it is the elapsed-time test, not the expiry test, that gives false.)
    assert!(!p.is_in_backoff_since(e, last_update, now));
}

/// V5.2 TestBackoffHighWaterMark.
#[test]
fn test_backoff_high_water_mark() {
    let p = fake(1, 5);
    let (e, now) = to_max(&p);
    let now = now + 5 + 1;
    let e = Some(p.next(e, now, now));
    assert_eq!(BackoffPolicy::get(e), 5);
}

/// V5.2 TestBackoffGC.
#[test]
fn test_backoff_gc() {
    let p = fake(1, 5);
    let (e, now) = to_max(&p);
    let e = e.expect("entry");
    let now = now + 6;
    assert!(p.gc_keeps(e, now), "6 s after the last update: kept");
    let now = now + 6;
    assert!(!p.gc_keeps(e, now), "12 s > 2 × 5 s: removed");
}

/// V5.3 TestIsInBackOffSinceUpdate (1 s, 10 s). Upstream asserts the value only on
/// in-back-off rows; here the value of the other rows is checked too as `Get` before the
/// `Next` call, except tick 56, whose "0 (reset)" means the entry has expired (21 s > 20 s),
/// so `Next` restarts from the initial 1 s (checked at tick 57).
#[test]
fn test_is_in_backoff_since_update() {
    let p = fake(1, 10);
    let mut rows: Vec<(i64, bool, u64)> = vec![
        (0, false, 0),
        (1, false, 1),
        (2, true, 2),
        (3, false, 2),
        (4, true, 4),
        (5, true, 4),
        (6, true, 4),
        (7, false, 4),
        (8, true, 8),
    ];
    rows.extend((9..=14).map(|t| (t, true, 8)));
    rows.push((15, false, 8));
    rows.push((16, true, 10));
    rows.extend((17..=24).map(|t| (t, true, 10)));
    rows.push((25, false, 10));
    rows.extend((26..=34).map(|t| (t, true, 10)));
    rows.push((35, false, 10));
    rows.push((56, false, 0));
    rows.push((57, false, 1));

    let mut e: Option<BackoffEntry> = None;
    for (tick, in_backoff, value) in rows {
        assert_eq!(
            p.is_in_backoff_since_update(e, tick),
            in_backoff,
            "tick {tick}"
        );
        if tick == 56 {
            let last = e.expect("entry").last_update;
            assert!(p.has_expired(tick, last), "tick 56: expired");
        } else {
            assert_eq!(BackoffPolicy::get(e), value, "value at tick {tick}");
        }
        if !in_backoff {
            e = Some(p.next(e, tick, tick));
        }
    }
    assert_eq!(BackoffPolicy::get(e), 2, "after tick 57's Next");
}

/// F 5, F 7: the two kubelet policies differ only in the reset rule.
#[test]
fn kubelet_backoff_policies() {
    assert_eq!(
        CRASH_LOOP_BACKOFF,
        BackoffPolicy {
            initial: 10,
            max: 300,
            expiry: Expiry::After(600)
        }
    );
    assert_eq!(
        IMAGE_PULL_BACKOFF,
        BackoffPolicy {
            initial: 10,
            max: 300,
            expiry: Expiry::TwiceMax
        }
    );
    assert!(!CRASH_LOOP_BACKOFF.has_expired(600, 0));
    assert!(CRASH_LOOP_BACKOFF.has_expired(601, 0));
    assert!(!IMAGE_PULL_BACKOFF.has_expired(600, 0));
    assert!(IMAGE_PULL_BACKOFF.has_expired(601, 0));
}

// ---------------------------------------------------------------------------------------
// V6. Kubelet CrashLoopBackOff schedule [derived]
// ---------------------------------------------------------------------------------------

/// V6 rows 1–7+ (wait before restart, entry after restart) and the reset row.
#[test]
fn crash_loop_backoff_schedule() {
    let rows: &[(usize, u64, u64)] = &[
        (1, 0, 10),
        (2, 10, 20),
        (3, 20, 40),
        (4, 40, 80),
        (5, 80, 160),
        (6, 160, 300),
        (7, 300, 300),
        (8, 300, 300),
        (9, 300, 300),
    ];
    let sched = crash_loop_schedule(rows.len());
    let delays = crash_loop_delays(rows.len());
    for &(exit, wait_s, entry) in rows {
        assert_eq!(sched[exit - 1], (wait_s, entry), "exit #{exit}");
        assert_eq!(delays[exit - 1], wait_s, "exit #{exit}");
    }

    // Reset row: the container ran > 600 s after the last restart → restart at once, entry 10.
    let p = CRASH_LOOP_BACKOFF;
    let e = Some(BackoffEntry {
        backoff: 300,
        last_update: 0,
    });
    let finished = 601;
    assert!(!p.is_in_backoff_since(e, finished, finished));
    assert_eq!(p.next(e, finished, finished).backoff, 10);
    // Exactly 600 s is not > 600 s: still in back-off, and Next would double (capped).
    assert!(p.is_in_backoff_since(e, 600, 600));
    assert_eq!(p.next(e, 600, 900).backoff, 300);
}

// ---------------------------------------------------------------------------------------
// V7. Truth tables derived from source
// ---------------------------------------------------------------------------------------

/// V7.1 EndpointSlice endpoint conditions (`ShouldPodBeInEndpoints(pod, true)`, `podToEndpoint`).
#[test]
#[rustfmt::skip]
fn endpoint_slice_conditions() {
    // (phase, has IP, PodReady, deletion, publishNotReady) → (in slice, ready, serving, terminating)
    let rows: &[(Phase, bool, bool, bool, bool, bool, bool, bool, bool)] = &[
        (Running, true, true,  false, false, true, true,  true,  false),
        (Running, true, false, false, false, true, false, false, false),
        (Running, true, true,  true,  false, true, false, true,  true),
        (Running, true, false, true,  false, true, false, false, true),
        (Running, true, false, true,  true,  true, true,  false, true),
    ];
    for (i, &(ph, ip, pr, del, pub_nr, in_slice, r, s, t)) in rows.iter().enumerate() {
        assert_eq!(should_pod_be_in_endpoints(ph, ip, del, true), in_slice, "V7.1 row {}", i + 1);
        assert_eq!(
            pod_to_endpoint_conditions(pr, del, pub_nr),
            EndpointConditions { ready: r, serving: s, terminating: t },
            "V7.1 row {}", i + 1
        );
    }
    // Pending, no IP → not in the slice.
    assert!(!should_pod_be_in_endpoints(Pending, false, false, true));
    // Succeeded/Failed, IP, any PodReady/deletion/publishNotReady → not in the slice.
    for ph in [Succeeded, Failed] {
        for del in [false, true] {
            assert!(!should_pod_be_in_endpoints(ph, true, del, true));
        }
    }
    // F 82: the legacy Endpoints controller (includeTerminating=false) drops terminating pods.
    assert!(!should_pod_be_in_endpoints(Running, true, true, false));
}

/// V7.2 `ShouldContainerBeRestarted`.
#[test]
fn should_container_be_restarted_truth_table() {
    use RuntimeState::{Created, Exited, Unknown};
    let all_rp = [Always, OnFailure, Never];
    let all_states = [
        None,
        Some(Created),
        Some(RUNNING),
        Some(Exited { exit_code: 0 }),
        Some(Exited { exit_code: 3 }),
        Some(Unknown),
    ];
    for rp in all_rp {
        for s in all_states {
            assert!(
                !should_container_be_restarted(true, s, rp),
                "deletion set: {s:?} {rp:?}"
            );
        }
        assert!(
            should_container_be_restarted(false, None, rp),
            "no runtime status"
        );
        assert!(
            !should_container_be_restarted(false, Some(RUNNING), rp),
            "running"
        );
        assert!(
            should_container_be_restarted(false, Some(Unknown), rp),
            "unknown"
        );
        assert!(
            should_container_be_restarted(false, Some(Created), rp),
            "created"
        );
    }
    for code in [0, 1, 137] {
        assert!(!should_container_be_restarted(
            false,
            Some(Exited { exit_code: code }),
            Never
        ));
        assert!(should_container_be_restarted(
            false,
            Some(Exited { exit_code: code }),
            Always
        ));
    }
    assert!(!should_container_be_restarted(
        false,
        Some(Exited { exit_code: 0 }),
        OnFailure
    ));
    assert!(should_container_be_restarted(
        false,
        Some(Exited { exit_code: 1 }),
        OnFailure
    ));
}

fn taint(key: &str, effect: TaintEffect) -> Taint {
    Taint {
        key: key.to_string(),
        value: String::new(),
        effect,
    }
}

fn tol_exists(key: &str, effect: Option<TaintEffect>, secs: Option<i64>) -> Toleration {
    Toleration {
        key: key.to_string(),
        operator: TolerationOperator::Exists,
        value: String::new(),
        effect,
        toleration_seconds: secs,
    }
}

const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
const NOT_READY: &str = "node.kubernetes.io/not-ready";

/// V7.3 taint eviction timing (`getMinTolerationTime` + `processPodOnNode`).
#[test]
fn taint_eviction_timing() {
    use EvictionDecision::{At, Cancel, Never as NeverEvict, Now};
    use TaintEffect::NoExecute;
    let t0 = 1_000;
    let now = t0;
    let unreachable = [taint(UNREACHABLE, NoExecute)];

    // none → cancel.
    assert_eq!(
        taint_eviction_decision(
            &[],
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(300))],
            t0,
            now
        ),
        Cancel
    );
    // some untolerated → delete now.
    assert_eq!(taint_eviction_decision(&unreachable, &[], t0, now), Now);
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(NOT_READY, Some(NoExecute), Some(300))],
            t0,
            now
        ),
        Now
    );
    // all tolerated, a matching tolerationSeconds ≤ 0 → now.
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(0))],
            t0,
            now
        ),
        Now
    );
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(-5))],
            t0,
            now
        ),
        Now
    );
    // all tolerated, none with tolerationSeconds → never.
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), None)],
            t0,
            now
        ),
        NeverEvict
    );
    // {300} (default from admission, F 14) → taint-time + 300.
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(300))],
            t0,
            now
        ),
        At(t0 + 300)
    );
    // ... later re-evaluation keeps the original start (scheduledEviction.CreatedAt).
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(300))],
            t0,
            t0 + 100
        ),
        At(t0 + 300)
    );
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(300))],
            t0,
            t0 + 300
        ),
        Now
    );
    // {300, 60} → +60 (minimum over the tolerations used). `GetMatchingTolerations` uses, per
    // taint, the first toleration that tolerates it, so the row needs two tolerated taints.
    let two = [
        taint(UNREACHABLE, NoExecute),
        taint("example.com/maintenance", NoExecute),
    ];
    let tols = [
        tol_exists(UNREACHABLE, Some(NoExecute), Some(300)),
        tol_exists("example.com/maintenance", Some(NoExecute), Some(60)),
    ];
    assert_eq!(taint_eviction_decision(&two, &tols, t0, now), At(t0 + 60));
    // Reading note: with ONE taint and two tolerations {300, 60} that both match it, only the
    // first (300) is used.
    let both = [
        tol_exists(UNREACHABLE, Some(NoExecute), Some(300)),
        tol_exists("", None, Some(60)),
    ];
    assert_eq!(
        taint_eviction_decision(&unreachable, &both, t0, now),
        At(t0 + 300)
    );
}

/// V7.4 Job failure limit.
#[test]
fn job_failure_limit() {
    let fails = |rp: RestartPolicy, limit: u32, failed: u32, restart_sum: u32| {
        exceeds_backoff_limit(failed, limit)
            || past_backoff_limit_on_failure(rp, limit, restart_sum)
    };
    assert!(!fails(Never, 6, 6, 0), "6 > 6 is false");
    assert!(fails(Never, 6, 7, 0), "7 > 6");
    assert!(fails(OnFailure, 6, 0, 6), "6 ≥ 6");
    assert!(!fails(OnFailure, 6, 0, 5));
    assert!(fails(OnFailure, 0, 0, 1), "limit 0: sum > 0");
    assert!(!fails(OnFailure, 0, 0, 0));
    assert!(fails(Never, 0, 1, 0), "1 > 0");
    // pastBackoffLimitOnFailure applies only to OnFailure templates.
    assert!(!past_backoff_limit_on_failure(Never, 6, 100));
    assert!(!past_backoff_limit_on_failure(Always, 6, 100));
    // A deleted pod that is not Succeeded counts as failed unless podReplacementPolicy Failed.
    for ph in [Pending, Running, Phase::Unknown] {
        assert!(is_pod_failed(ph, true, false));
        assert!(!is_pod_failed(ph, true, true));
        assert!(!is_pod_failed(ph, false, false));
    }
    assert!(!is_pod_failed(Succeeded, true, false));
    assert!(is_pod_failed(Failed, false, true));
}

fn pfp_exit_codes(
    action: PodFailurePolicyAction,
    container_name: Option<&str>,
    operator: ExitCodesOperator,
    values: &[i32],
) -> PodFailurePolicyRule {
    PodFailurePolicyRule {
        action,
        requirement: PodFailurePolicyRequirement::OnExitCodes(PodFailurePolicyOnExitCodes {
            container_name: container_name.map(str::to_string),
            operator,
            values: values.to_vec(),
        }),
    }
}

fn pfp_conditions(
    action: PodFailurePolicyAction,
    patterns: &[(&str, ConditionStatus)],
) -> PodFailurePolicyRule {
    PodFailurePolicyRule {
        action,
        requirement: PodFailurePolicyRequirement::OnPodConditions(
            patterns
                .iter()
                .map(|&(t, st)| PodFailurePolicyOnPodConditionsPattern {
                    type_: t.to_string(),
                    status: st,
                })
                .collect(),
        ),
    }
}

fn failed_pod(
    statuses: Vec<ContainerStatus>,
    init_statuses: Vec<ContainerStatus>,
    conditions: Vec<Condition>,
) -> FailedPodView {
    FailedPodView {
        namespace: "default".to_string(),
        name: "job-pod".to_string(),
        statuses,
        init_statuses,
        conditions,
    }
}

fn pfp_result(
    msg: Option<&str>,
    count_failed: bool,
    action: Option<PodFailurePolicyAction>,
) -> PodFailurePolicyMatch {
    PodFailurePolicyMatch {
        job_failure_message: msg.map(str::to_string),
        count_failed,
        action,
    }
}

/// V7.4 last row: template RP Never + podFailurePolicy Ignore on DisruptionTarget; an evicted
/// pod with DisruptionTarget=True is not counted (`matchPodFailurePolicy`, F 98), so it adds
/// nothing to the failure count that `exceedsBackoffLimit` compares (F 93).
#[test]
fn pod_failure_policy_ignore_on_disruption_target() {
    use PodFailurePolicyAction::Ignore;
    let policy = PodFailurePolicy {
        rules: vec![pfp_conditions(
            Ignore,
            &[("DisruptionTarget", ConditionStatus::True)],
        )],
    };
    // The evicted pod: phase Failed, its container killed, DisruptionTarget=True.
    let evicted = failed_pod(
        statuses(&[("c", "T137")]),
        vec![],
        vec![
            c(
                "DisruptionTarget",
                ConditionStatus::True,
                "TerminationByKubelet",
            ),
            c("Ready", ConditionStatus::False, "PodFailed"),
        ],
    );
    assert!(is_pod_failed(Failed, false, false));
    let m = match_pod_failure_policy(Some(&policy), &evicted, false);
    assert_eq!(m, pfp_result(None, false, Some(Ignore)), "V7.4 last row");
    // F 93: failed = Status.Failed + new failed pods not ignored. With backoffLimit 0 the
    // ignored pod does not fail the Job; without the policy it would (1 > 0).
    let counted = |m: &PodFailurePolicyMatch| u32::from(m.count_failed);
    assert!(!exceeds_backoff_limit(counted(&m), 0));
    let no_policy = match_pod_failure_policy(None, &evicted, false);
    assert_eq!(no_policy, pfp_result(None, true, None));
    assert!(exceeds_backoff_limit(counted(&no_policy), 0));
    // DisruptionTarget with another status does not match the True pattern → counted.
    let not_disrupted = failed_pod(
        statuses(&[("c", "T137")]),
        vec![],
        vec![c("DisruptionTarget", ConditionStatus::False, "")],
    );
    let m = match_pod_failure_policy(Some(&policy), &not_disrupted, false);
    assert_eq!(m, pfp_result(None, true, None));
}

/// F 98: `matchPodFailurePolicy` rule matching.
#[test]
fn pod_failure_policy_rules_from_facts() {
    use ExitCodesOperator::{In, NotIn};
    use PodFailurePolicyAction::{Count, FailIndex, FailJob, Ignore};
    let main_42 = failed_pod(statuses(&[("main", "T42"), ("side", "T0")]), vec![], vec![]);

    // Rules in order; the first match wins.
    let policy = PodFailurePolicy {
        rules: vec![
            pfp_exit_codes(Count, None, In, &[42]),
            pfp_exit_codes(FailJob, None, In, &[42]),
        ],
    };
    let m = match_pod_failure_policy(Some(&policy), &main_42, false);
    assert_eq!(m, pfp_result(None, true, Some(Count)));

    // FailJob: counted, with the message naming container, pod, exit code, action, index.
    let policy = PodFailurePolicy {
        rules: vec![
            pfp_conditions(Ignore, &[("DisruptionTarget", ConditionStatus::True)]),
            pfp_exit_codes(FailJob, None, In, &[42]),
        ],
    };
    let m = match_pod_failure_policy(Some(&policy), &main_42, false);
    let msg = "Container main for pod default/job-pod failed with exit code 42 matching FailJob rule at index 1";
    assert_eq!(m, pfp_result(Some(msg), true, Some(FailJob)));

    // NotIn: exit code 0 never matches (only Terminated with exit ≠ 0 is looked at).
    let policy = PodFailurePolicy {
        rules: vec![pfp_exit_codes(Ignore, None, NotIn, &[1])],
    };
    let ok = failed_pod(statuses(&[("main", "T0")]), vec![], vec![]);
    assert_eq!(
        match_pod_failure_policy(Some(&policy), &ok, false),
        pfp_result(None, true, None)
    );
    assert_eq!(
        match_pod_failure_policy(Some(&policy), &main_42, false),
        pfp_result(None, false, Some(Ignore))
    );
    // Waiting/Running containers have no exit code to match, even with a last termination.
    let waiting = failed_pod(statuses(&[("main", "W+L-1"), ("x", "R")]), vec![], vec![]);
    assert_eq!(
        match_pod_failure_policy(Some(&policy), &waiting, false),
        pfp_result(None, true, None)
    );

    // containerName restricts the match; regular statuses are searched before init ones.
    let both = failed_pod(
        statuses(&[("main", "T3")]),
        statuses(&[("setup", "T3")]),
        vec![],
    );
    let policy = PodFailurePolicy {
        rules: vec![pfp_exit_codes(FailJob, Some("setup"), In, &[3])],
    };
    let m = match_pod_failure_policy(Some(&policy), &both, false);
    let msg = "Container setup for pod default/job-pod failed with exit code 3 matching FailJob rule at index 0";
    assert_eq!(m, pfp_result(Some(msg), true, Some(FailJob)));
    let policy = PodFailurePolicy {
        rules: vec![pfp_exit_codes(FailJob, None, In, &[3])],
    };
    let m = match_pod_failure_policy(Some(&policy), &both, false);
    let msg = "Container main for pod default/job-pod failed with exit code 3 matching FailJob rule at index 0";
    assert_eq!(m, pfp_result(Some(msg), true, Some(FailJob)));
    let policy = PodFailurePolicy {
        rules: vec![pfp_exit_codes(FailJob, Some("other"), In, &[3])],
    };
    assert_eq!(
        match_pod_failure_policy(Some(&policy), &both, false),
        pfp_result(None, true, None)
    );

    // FailJob on a pod condition: the message names the condition type.
    let policy = PodFailurePolicy {
        rules: vec![pfp_conditions(
            FailJob,
            &[("ConfigIssue", ConditionStatus::True)],
        )],
    };
    let cond = failed_pod(
        vec![],
        vec![],
        vec![c("ConfigIssue", ConditionStatus::True, "")],
    );
    let msg = "Pod default/job-pod has condition ConfigIssue matching FailJob rule at index 0";
    assert_eq!(
        match_pod_failure_policy(Some(&policy), &cond, false),
        pfp_result(Some(msg), true, Some(FailJob))
    );

    // FailIndex needs gate JobBackoffLimitPerIndex; without it the rule acts as unmatched
    // and the next rule is tried.
    let policy = PodFailurePolicy {
        rules: vec![
            pfp_exit_codes(FailIndex, None, In, &[42]),
            pfp_exit_codes(Ignore, None, In, &[42]),
        ],
    };
    assert_eq!(
        match_pod_failure_policy(Some(&policy), &main_42, true),
        pfp_result(None, true, Some(FailIndex))
    );
    assert_eq!(
        match_pod_failure_policy(Some(&policy), &main_42, false),
        pfp_result(None, false, Some(Ignore))
    );

    // No rule matches → counted.
    let policy = PodFailurePolicy {
        rules: vec![pfp_exit_codes(Ignore, None, In, &[7])],
    };
    assert_eq!(
        match_pod_failure_policy(Some(&policy), &main_42, false),
        pfp_result(None, true, None)
    );
}

/// F 18 + `getRemainingTimeForFailuresCount`: 10 s doubling, capped at 10 min.
#[test]
#[rustfmt::skip]
fn job_pod_failure_backoff_schedule() {
    let rows: &[(u32, u64)] = &[
        (0, 0), (1, 10), (2, 20), (3, 40), (4, 80), (5, 160), (6, 320), (7, 600), (8, 600), (100, 600),
    ];
    for &(n, d) in rows {
        assert_eq!(job_pod_failure_backoff(n), d, "{n} failures");
    }
}

// ---------------------------------------------------------------------------------------
// Scheduling and admission (F 106–110). Not a VECTORS section except V7.3 above.
// ---------------------------------------------------------------------------------------

/// F 108 `ToleratesTaint`.
#[test]
fn tolerates_taint_rules() {
    use TaintEffect::{NoExecute, NoSchedule};
    let t = Taint {
        key: "k".into(),
        value: "v".into(),
        effect: NoSchedule,
    };
    let eq = |key: &str, value: &str, effect| Toleration {
        key: key.into(),
        operator: TolerationOperator::Equal,
        value: value.into(),
        effect,
        toleration_seconds: None,
    };
    assert!(tolerates_taint(&eq("k", "v", Some(NoSchedule)), &t));
    assert!(
        tolerates_taint(&eq("k", "v", None), &t),
        "empty effect matches all"
    );
    assert!(
        !tolerates_taint(&eq("k", "v", Some(NoExecute)), &t),
        "effects differ"
    );
    assert!(!tolerates_taint(&eq("k", "w", None), &t), "values differ");
    assert!(!tolerates_taint(&eq("j", "v", None), &t), "keys differ");
    assert!(
        tolerates_taint(&tol_exists("k", None, None), &t),
        "Exists: any value"
    );
    assert!(
        tolerates_taint(&tol_exists("", None, None), &t),
        "empty key + Exists: everything"
    );
    assert!(!tolerates_taint(&tol_exists("", Some(NoExecute), None), &t));
}

/// F 107, F 110: the first untolerated taint among the filtered effects.
#[test]
fn first_untolerated_taint_filters_effects() {
    use TaintEffect::{NoExecute, NoSchedule, PreferNoSchedule};
    let taints = [
        taint("a", PreferNoSchedule),
        taint("b", NoSchedule),
        taint("c", NoExecute),
    ];
    let sched = [NoSchedule, NoExecute];
    assert_eq!(
        first_untolerated_taint(&taints, &[], &sched).map(|t| t.key.as_str()),
        Some("b")
    );
    let tol_b = [tol_exists("b", None, None)];
    assert_eq!(
        first_untolerated_taint(&taints, &tol_b, &sched).map(|t| t.key.as_str()),
        Some("c")
    );
    // Kubelet admission checks only NoExecute (F 110).
    assert_eq!(
        first_untolerated_taint(&taints, &[], &[NoExecute]).map(|t| t.key.as_str()),
        Some("c")
    );
    let all = [tol_exists("", None, None)];
    assert_eq!(first_untolerated_taint(&taints, &all, &sched), None);
}

/// F 106: pod request and `fitsRequest`.
#[test]
fn resource_fit_rules() {
    let r = |cpu_milli, memory_mi| Resources {
        cpu_milli,
        memory_mi,
    };
    assert_eq!(
        pod_request(&[r(2000, 64)], &[r(500, 128), r(500, 128)]),
        r(2000, 256)
    );
    assert_eq!(pod_request(&[], &[]), r(0, 0));
    let alloc = r(2000, 4096);
    assert_eq!(
        insufficient_resources(r(1000, 100), alloc, r(1000, 0)),
        Vec::<&str>::new()
    );
    assert_eq!(
        insufficient_resources(r(1001, 100), alloc, r(1000, 0)),
        vec!["Insufficient cpu"]
    );
    assert_eq!(
        insufficient_resources(r(3000, 5000), alloc, r(0, 0)),
        vec!["Insufficient cpu", "Insufficient memory"]
    );
    assert_eq!(
        insufficient_resources(r(0, 0), alloc, r(9999, 9999)),
        Vec::<&str>::new(),
        "zero request fits"
    );
    // Overcommitted node (requested > allocatable): any positive request is short.
    assert_eq!(
        insufficient_resources(r(1, 0), alloc, r(3000, 0)),
        vec!["Insufficient cpu"]
    );
}

/// Extra: pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go
/// TestLeastAllocatedScoringStrategy, rows with default resources (cpu, memory weight 1).
/// Quantities are taken as given; the score is scale-free. Pods with no containers add no
/// request (the non-zero defaults are per container).
#[test]
#[rustfmt::skip]
fn test_least_allocated_scoring_strategy() {
    let r = |cpu_milli, memory_mi| Resources { cpu_milli, memory_mi };
    // (upstream name / node, pod request, node allocatable, node requested, score)
    let rows: &[(&str, Resources, Resources, Resources, i64)] = &[
        ("nothing scheduled, nothing requested", r(0, 0), r(4000, 10000), r(0, 0), 100),
        ("nothing scheduled, resources requested, differently sized nodes / node1", r(3000, 5000), r(4000, 10000), r(0, 0), 37),
        ("nothing scheduled, resources requested, differently sized nodes / node2", r(3000, 5000), r(6000, 10000), r(0, 0), 50),
        ("no resources requested, pods scheduled", r(0, 0), r(4000, 10000), r(0, 0), 100),
        ("no resources requested, pods scheduled with resources / node1", r(0, 0), r(10000, 20000), r(6000, 0), 70),
        ("no resources requested, pods scheduled with resources / node2", r(0, 0), r(10000, 20000), r(6000, 5000), 57),
        ("resources requested, pods scheduled with resources / node1", r(3000, 5000), r(10000, 20000), r(3000, 0), 57),
        ("resources requested, pods scheduled with resources / node2", r(3000, 5000), r(10000, 20000), r(3000, 5000), 45),
        ("resources requested, pods scheduled with resources, differently sized nodes / node1", r(3000, 5000), r(10000, 20000), r(3000, 0), 57),
        ("resources requested, pods scheduled with resources, differently sized nodes / node2", r(3000, 5000), r(10000, 50000), r(3000, 5000), 60),
        ("requested resources exceed node capacity / node1", r(3000, 0), r(4000, 10000), r(3000, 0), 50),
        ("requested resources exceed node capacity / node2", r(3000, 0), r(4000, 10000), r(3000, 5000), 25),
        ("zero node resources, pods scheduled with resources / node1", r(0, 0), r(0, 0), r(3000, 0), 0),
        ("zero node resources, pods scheduled with resources / node2", r(0, 0), r(0, 0), r(3000, 5000), 0),
    ];
    for &(name, pod_req, alloc, req, score) in rows {
        assert_eq!(least_allocated_score(pod_req, alloc, req), score, "{name}");
    }
}

/// F 109 nodeSelector.
#[test]
fn node_selector_rules() {
    let m = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let labels = m(&[("disk", "ssd"), ("zone", "a")]);
    assert!(node_selector_matches(&m(&[]), &labels));
    assert!(node_selector_matches(&m(&[("disk", "ssd")]), &labels));
    assert!(node_selector_matches(
        &m(&[("disk", "ssd"), ("zone", "a")]),
        &labels
    ));
    assert!(!node_selector_matches(&m(&[("disk", "hdd")]), &labels));
    assert!(!node_selector_matches(&m(&[("gpu", "true")]), &labels));
}

/// `FitError.Error()` format.
#[test]
fn unschedulable_message_format() {
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        unschedulable_message(2, &[v(&["Insufficient cpu"]), v(&["Insufficient cpu"])]),
        "0/2 nodes are available: 2 Insufficient cpu."
    );
    // Counted per reason across nodes, sorted as strings ("1 …" before "3 …").
    let msg = unschedulable_message(
        5,
        &[
            v(&["Insufficient memory"]),
            v(&["Insufficient memory"]),
            v(&["Insufficient memory"]),
            v(&["node(s) had untolerated taint {dedicated: gpu}"]),
            v(&["node(s) were unschedulable"]),
        ],
    );
    assert_eq!(
        msg,
        "0/5 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 3 Insufficient memory."
    );
    // One node with two reasons.
    assert_eq!(
        unschedulable_message(1, &[v(&["Insufficient cpu", "Insufficient memory"])]),
        "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory."
    );
    // `sort.Strings` compares bytes: "10 …" sorts before "2 …".
    let mut many: Vec<Vec<String>> = (0..10).map(|_| v(&["Insufficient cpu"])).collect();
    many.push(v(&["Insufficient memory"]));
    many.push(v(&["Insufficient memory"]));
    assert_eq!(
        unschedulable_message(12, &many),
        "0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory."
    );
    assert_eq!(unschedulable_message(0, &[]), "0/0 nodes are available:");
}

/// F 110: `Admit` reasons (constants of pkg/kubelet/lifecycle/predicate.go).
#[test]
fn admission_failure_reasons() {
    assert_eq!(
        admission_failure_reason(&["Insufficient cpu"]).as_deref(),
        Some("OutOfcpu")
    );
    assert_eq!(
        admission_failure_reason(&["Insufficient memory", "Insufficient cpu"]).as_deref(),
        Some("OutOfmemory")
    );
    assert_eq!(
        admission_failure_reason(&["Insufficient ephemeral-storage"]).as_deref(),
        Some("OutOfephemeral-storage")
    );
    assert_eq!(
        admission_failure_reason(&["Too many pods"]).as_deref(),
        Some("OutOfpods")
    );
    assert_eq!(
        admission_failure_reason(&["Insufficient example.com/gpu"]).as_deref(),
        Some("OutOfexample.com/gpu")
    );
    assert_eq!(admission_failure_reason(&[]), None);
}

/// Kubernetes API field names (camelCase).
#[test]
fn scheduling_types_serialize_as_the_api() {
    let t = Toleration {
        key: UNREACHABLE.into(),
        operator: TolerationOperator::Exists,
        value: String::new(),
        effect: Some(TaintEffect::NoExecute),
        toleration_seconds: Some(300),
    };
    let y = serde_saphyr::to_string(&t).expect("serialize");
    assert!(y.contains("tolerationSeconds: 300"), "{y}");
    assert!(y.contains("operator: Exists"), "{y}");
    assert!(y.contains("effect: NoExecute"), "{y}");
    let back: Toleration = serde_saphyr::from_str(&y).expect("deserialize");
    assert_eq!(back, t);
    let partial: Toleration =
        serde_saphyr::from_str("key: a\noperator: Exists\n").expect("defaults");
    assert_eq!(partial, tol_exists("a", None, None));
    let r = serde_saphyr::to_string(&Resources {
        cpu_milli: 500,
        memory_mi: 64,
    })
    .expect("serialize");
    assert!(
        r.contains("cpuMilli: 500") && r.contains("memoryMi: 64"),
        "{r}"
    );
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

fn policy_strategy() -> impl Strategy<Value = BackoffPolicy> {
    prop_oneof![
        Just(CRASH_LOOP_BACKOFF),
        Just(IMAGE_PULL_BACKOFF),
        (1u64..20, 1u64..400, prop::bool::ANY).prop_map(|(i, m, twice)| BackoffPolicy {
            initial: i.min(m),
            max: m,
            expiry: if twice {
                Expiry::TwiceMax
            } else {
                Expiry::After(2 * m)
            },
        }),
    ]
}

/// A regular-container token that is "stopped" for getPhase (F 24).
fn stopped_token() -> impl Strategy<Value = String> {
    prop_oneof![
        (-2i32..3).prop_map(|c| format!("T{c}")),
        (-2i32..3).prop_map(|c| format!("W+L{c}")),
    ]
}

fn rp_strategy() -> impl Strategy<Value = RestartPolicy> {
    prop_oneof![Just(Always), Just(OnFailure), Just(Never)]
}

proptest! {
    /// The back-off never exceeds `max` and never drops below `initial`.
    #[test]
    fn backoff_stays_within_bounds(p in policy_strategy(), steps in prop::collection::vec(0i64..1500, 1..40)) {
        let mut now = 0i64;
        let mut e: Option<BackoffEntry> = None;
        for d in steps {
            now += d;
            let n = p.next(e, now, now);
            prop_assert!(n.backoff <= p.max);
            prop_assert!(n.backoff >= p.initial.min(p.max));
            e = Some(n);
        }
    }

    /// The CrashLoopBackOff wait is non-decreasing for rapid exits and capped at 300 s.
    #[test]
    fn crash_loop_delays_monotone_and_capped(n in 0usize..30) {
        let d = crash_loop_delays(n);
        prop_assert_eq!(d.len(), n);
        prop_assert!(d.windows(2).all(|w| w[0] <= w[1]));
        prop_assert!(d.iter().all(|&x| x <= 300));
    }

    /// F 27: a non-static terminal pod whose containers are all stopped gets Succeeded
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

    /// F 83: without publishNotReadyAddresses, `ready` implies `serving && !terminating`.
    #[test]
    fn endpoint_ready_implies_serving_and_not_terminating(pod_ready in prop::bool::ANY, del in prop::bool::ANY) {
        let c = pod_to_endpoint_conditions(pod_ready, del, false);
        prop_assert!(!c.ready || (c.serving && !c.terminating));
        prop_assert_eq!(c.serving, pod_ready);
        prop_assert_eq!(c.terminating, del);
    }

    /// F 53: a pod being deleted never restarts a container.
    #[test]
    fn deleted_pods_never_restart(code in -5i32..5, rp in rp_strategy(), which in 0usize..5) {
        let s = [None, Some(RuntimeState::Created), Some(RuntimeState::Running), Some(RuntimeState::Exited { exit_code: code }), Some(RuntimeState::Unknown)][which];
        prop_assert!(!should_container_be_restarted(true, s, rp));
    }

    /// LeastAllocated scores stay on the 0–MaxNodeScore scale.
    #[test]
    fn least_allocated_score_in_range(
        p in (0u64..100_000, 0u64..100_000),
        a in (0u64..100_000, 0u64..100_000),
        r in (0u64..100_000, 0u64..100_000),
    ) {
        let s = least_allocated_score(
            Resources { cpu_milli: p.0, memory_mi: p.1 },
            Resources { cpu_milli: a.0, memory_mi: a.1 },
            Resources { cpu_milli: r.0, memory_mi: r.1 },
        );
        prop_assert!((0..=MAX_NODE_SCORE).contains(&s));
    }

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
