//! Conformance of `podcheck_k8s::jobs` with the Job controller (pkg/controller/job:
//! job_controller.go and pod_failure_policy.go). These are checks derived from that source, not
//! upstream test rows; each names the function it reads.

mod common;

use common::*;
use podcheck_k8s::*;
use Phase::{Failed, Pending, Running, Succeeded};
use RestartPolicy::{Always, Never, OnFailure};

/// The Job failure limit, derived from `exceedsBackoffLimit`, `pastBackoffLimitOnFailure` and
/// `isPodFailed` (pkg/controller/job/job_controller.go), not from an upstream test table.
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

/// Template restartPolicy Never + podFailurePolicy Ignore on DisruptionTarget: an evicted pod
/// with DisruptionTarget=True is not counted (`matchPodFailurePolicy`,
/// pkg/controller/job/pod_failure_policy.go), so it adds nothing to the failure count that
/// `exceedsBackoffLimit` compares (job_controller.go). Derived from that source.
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
    assert_eq!(
        m,
        pfp_result(None, false, Some(Ignore)),
        "matchPodFailurePolicy: Ignore on DisruptionTarget=True"
    );
    // job_controller.go: failed = Status.Failed + new failed pods not ignored. With backoffLimit 0 the
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

/// `matchPodFailurePolicy` rule matching (pkg/controller/job/pod_failure_policy.go, derived):
/// rules in order, first match wins; onExitCodes over regular then init statuses Terminated
/// with a non-zero exit; onPodConditions by type and status; FailIndex behind its gate.
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

/// `DefaultJobPodFailureBackOff` / `MaxJobPodFailureBackOff` and
/// `getRemainingTimeForFailuresCount` (pkg/controller/job): 10 s doubling, capped at 10 min.
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

#[test]
fn index_sets_parse_and_print_as_the_job_controller_writes_them() {
    use podcheck_k8s::{format_indexes, parse_indexes};
    assert_eq!(parse_indexes("0,2-4", 5), Ok(0b11101));
    assert_eq!(format_indexes(0b11101), "0,2-4");
    assert_eq!(format_indexes(0b1011), "0-1,3");
    assert_eq!(format_indexes(0), "");
    assert!(parse_indexes("1,0", 3)
        .unwrap_err()
        .contains("non-increasing order"));
    assert!(parse_indexes("3", 3)
        .unwrap_err()
        .contains("too large index: 3"));
    assert!(parse_indexes("a", 3)
        .unwrap_err()
        .contains("cannot convert"));
    for set in 0..64u16 {
        let text = format_indexes(set);
        if set != 0 {
            assert_eq!(parse_indexes(&text, 6), Ok(set), "{text}");
        }
    }
}
