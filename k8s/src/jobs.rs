//! Job controller failure accounting: ports from pkg/controller/job/job_controller.go
//! (`exceedsBackoffLimit`, `pastBackoffLimitOnFailure`, `isPodFailed`),
//! pkg/controller/job/backoff_utils.go (`getRemainingTimeForFailuresCount`) and
//! pkg/controller/job/pod_failure_policy.go (`matchPodFailurePolicy`).
//!
//! Sources: `docs/sources.md#job-backofflimit`, `docs/sources.md#job-pod-failure-back-off`,
//! `docs/sources.md#job-pod-failure-policy`. Conformance rows: the derived Job failure-limit
//! table (`docs/sources.md#conformance-tables`).

use super::types::{
    Condition, ConditionStatus, ContainerState, ContainerStatus, ExitCodesOperator, Phase,
    RestartPolicy,
};

/// `DefaultJobPodFailureBackOff`, seconds.
pub const DEFAULT_JOB_POD_FAILURE_BACKOFF: u64 = 10;
/// `MaxJobPodFailureBackOff`, seconds.
pub const MAX_JOB_POD_FAILURE_BACKOFF: u64 = 600;

/// `exceedsBackoffLimit := failed > *job.Spec.BackoffLimit`: strict `>`.
pub fn exceeds_backoff_limit(failed: u32, backoff_limit: u32) -> bool {
    failed > backoff_limit
}

/// `pastBackoffLimitOnFailure(job, pods)`: only for template RestartPolicy OnFailure;
/// `restart_count_sum_running_or_pending` is the sum of init and regular RestartCount over
/// pods in phase Running or Pending. backoffLimit 0 → `sum > 0`, else `sum >= backoffLimit`.
pub fn past_backoff_limit_on_failure(
    template_restart_policy: RestartPolicy,
    backoff_limit: u32,
    restart_count_sum_running_or_pending: u32,
) -> bool {
    if template_restart_policy != RestartPolicy::OnFailure {
        return false;
    }
    if backoff_limit == 0 {
        return restart_count_sum_running_or_pending > 0;
    }
    restart_count_sum_running_or_pending >= backoff_limit
}

/// `isPodFailed(p, job)`: phase Failed → true; with podReplacementPolicy Failed
/// (`onlyReplaceFailedPods`) → false; otherwise a deleted pod that is not Succeeded counts
/// as failed ("Count deleted Pods as failures to account for orphan Pods").
pub fn is_pod_failed(
    phase: Phase,
    deletion_timestamp: bool,
    only_replace_failed_pods: bool,
) -> bool {
    if phase == Phase::Failed {
        return true;
    }
    if only_replace_failed_pods {
        return false;
    }
    deletion_timestamp && phase != Phase::Succeeded
}

/// The pod-replacement delay after `failures` consecutive failures, as
/// `getRemainingTimeForFailuresCount(clock, DefaultJobPodFailureBackOff,
/// MaxJobPodFailureBackOff, failures, lastFailureTime)` computes it at the moment of the last
/// failure (elapsed 0): 0 for no failure, else 10 s doubled per further failure, capped at
/// 600 s (10, 20, 40, 80, 160, 320, 600, …).
pub fn job_pod_failure_backoff(failures: u32) -> u64 {
    if failures == 0 {
        return 0;
    }
    let mut d = DEFAULT_JOB_POD_FAILURE_BACKOFF;
    for _ in 1..failures {
        d = d.saturating_mul(2);
        if d >= MAX_JOB_POD_FAILURE_BACKOFF {
            d = MAX_JOB_POD_FAILURE_BACKOFF;
            break;
        }
    }
    d
}

/// `batch.PodFailurePolicyAction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PodFailurePolicyAction {
    /// The Job fails (FailureTarget, reason PodFailurePolicy); the pod is counted.
    FailJob,
    /// Only with gate `JobBackoffLimitPerIndex`: the pod's index fails; the pod is counted.
    FailIndex,
    /// The pod is not counted towards backoffLimit.
    Ignore,
    /// The pod is counted, as with no match.
    Count,
}

impl PodFailurePolicyAction {
    /// The API spelling (what `%v` prints in the FailJob messages).
    pub fn as_str(self) -> &'static str {
        match self {
            PodFailurePolicyAction::FailJob => "FailJob",
            PodFailurePolicyAction::FailIndex => "FailIndex",
            PodFailurePolicyAction::Ignore => "Ignore",
            PodFailurePolicyAction::Count => "Count",
        }
    }
}

/// `batch.PodFailurePolicyOnExitCodesRequirement`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PodFailurePolicyOnExitCodes {
    /// `containerName`: `None` = any container.
    pub container_name: Option<String>,
    pub operator: ExitCodesOperator,
    pub values: Vec<i32>,
}

/// `batch.PodFailurePolicyOnPodConditionsPattern`: a condition type and status.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PodFailurePolicyOnPodConditionsPattern {
    pub type_: String,
    pub status: ConditionStatus,
}

/// The requirement of a rule. API validation requires exactly one of `onExitCodes` and
/// `onPodConditions`; upstream tests `OnExitCodes != nil` first, then `OnPodConditions`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PodFailurePolicyRequirement {
    OnExitCodes(PodFailurePolicyOnExitCodes),
    OnPodConditions(Vec<PodFailurePolicyOnPodConditionsPattern>),
}

/// `batch.PodFailurePolicyRule`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PodFailurePolicyRule {
    pub action: PodFailurePolicyAction,
    pub requirement: PodFailurePolicyRequirement,
}

/// `batch.PodFailurePolicy`: rules tried in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PodFailurePolicy {
    pub rules: Vec<PodFailurePolicyRule>,
}

/// What `matchPodFailurePolicy` reads of a failed pod.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FailedPodView {
    pub namespace: String,
    pub name: String,
    /// `status.containerStatuses`.
    pub statuses: Vec<ContainerStatus>,
    /// `status.initContainerStatuses`.
    pub init_statuses: Vec<ContainerStatus>,
    /// `status.conditions`.
    pub conditions: Vec<Condition>,
}

/// The three results of `matchPodFailurePolicy`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PodFailurePolicyMatch {
    /// The Job failure message, only for a matched FailJob rule.
    pub job_failure_message: Option<String>,
    /// Whether the failure counts towards backoffLimit (and backoffLimitPerIndex); false only
    /// for a matched Ignore rule.
    pub count_failed: bool,
    /// The matched rule's action; `None` when no rule matched (or there is no policy).
    pub action: Option<PodFailurePolicyAction>,
}

/// `getMatchingContainerFromList`: the first status in list order that is Terminated with a
/// non-zero exit code, has the required `containerName` (if any), and satisfies the
/// operator. Waiting and Running statuses are skipped ("There is no exit code to match"),
/// and so is exit code 0 whatever the operator.
fn matching_container<'a>(
    statuses: &'a [ContainerStatus],
    req: &PodFailurePolicyOnExitCodes,
) -> Option<(&'a ContainerStatus, i32)> {
    statuses.iter().find_map(|cs| {
        let ContainerState::Terminated(t) = &cs.state else {
            return None;
        };
        let name_ok = match &req.container_name {
            None => true,
            Some(n) => *n == cs.name,
        };
        (name_ok && t.exit_code != 0 && req.operator.matches(t.exit_code, &req.values))
            .then_some((cs, t.exit_code))
    })
}

/// `matchOnPodConditions`: the first pod condition, in `status.conditions` order, whose type
/// and status equal those of some pattern.
fn matching_condition<'a>(
    conditions: &'a [Condition],
    patterns: &[PodFailurePolicyOnPodConditionsPattern],
) -> Option<&'a Condition> {
    conditions.iter().find(|c| {
        patterns
            .iter()
            .any(|p| c.type_ == p.type_ && c.status == p.status)
    })
}

/// `matchPodFailurePolicy(podFailurePolicy, failedPod)`.
///
/// * No policy → counted, no action.
/// * Rules are tried in order; the first rule whose requirement matches and whose action
///   returns decides:
///   - `onExitCodes` (`matchOnExitCodes`): regular container statuses first, then init
///     container statuses (`getMatchingContainerFromList`): the first status that is
///     Terminated with a non-zero exit code, has the required `containerName` if one is
///     set, and satisfies In / NotIn over the values.
///   - `onPodConditions`: any pod condition with equal type and status.
///   - Ignore → not counted; Count → counted; FailJob → counted, with the message
///     "Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d"
///     (exit codes) or "Pod %s/%s has condition %v matching %v rule at index %d"
///     (conditions); FailIndex → counted, only with gate `JobBackoffLimitPerIndex`
///     (`job_backoff_limit_per_index`). Without the gate upstream's `switch` case returns
///     nothing and the loop goes on to the next rule, so the rule acts as unmatched.
/// * No rule matched → counted, no action.
///
/// The Job template must use RestartPolicy Never when a podFailurePolicy is set;
/// that is API validation and not checked here.
pub fn match_pod_failure_policy(
    policy: Option<&PodFailurePolicy>,
    pod: &FailedPodView,
    job_backoff_limit_per_index: bool,
) -> PodFailurePolicyMatch {
    let decided = |msg: Option<String>, count_failed: bool, action| PodFailurePolicyMatch {
        job_failure_message: msg,
        count_failed,
        action: Some(action),
    };
    let no_match = PodFailurePolicyMatch {
        job_failure_message: None,
        count_failed: true,
        action: None,
    };
    let Some(policy) = policy else {
        return no_match;
    };
    for (index, rule) in policy.rules.iter().enumerate() {
        // The FailJob message for this rule, if the requirement matched.
        let fail_job_message = match &rule.requirement {
            PodFailurePolicyRequirement::OnExitCodes(req) => {
                let Some((cs, exit_code)) = matching_container(&pod.statuses, req)
                    .or_else(|| matching_container(&pod.init_statuses, req))
                else {
                    continue;
                };
                format!(
                    "Container {} for pod {}/{} failed with exit code {} matching {} rule at index {}",
                    cs.name,
                    pod.namespace,
                    pod.name,
                    exit_code,
                    rule.action.as_str(),
                    index
                )
            }
            PodFailurePolicyRequirement::OnPodConditions(patterns) => {
                let Some(cond) = matching_condition(&pod.conditions, patterns) else {
                    continue;
                };
                format!(
                    "Pod {}/{} has condition {} matching {} rule at index {}",
                    pod.namespace,
                    pod.name,
                    cond.type_,
                    rule.action.as_str(),
                    index
                )
            }
        };
        match rule.action {
            PodFailurePolicyAction::Ignore => return decided(None, false, rule.action),
            PodFailurePolicyAction::FailIndex => {
                if job_backoff_limit_per_index {
                    return decided(None, true, rule.action);
                }
            }
            PodFailurePolicyAction::Count => return decided(None, true, rule.action),
            PodFailurePolicyAction::FailJob => {
                return decided(Some(fail_job_message), true, rule.action)
            }
        }
    }
    no_match
}

/// `parseIndexesFromString` / `validateIndexesFormat` (pkg/controller/job/indexed_job_utils.go,
/// pkg/apis/batch/validation): a comma-separated list of indexes and `a-b` intervals, in
/// increasing order, each below `completions`, as a bit set.
pub fn parse_indexes(s: &str, completions: u8) -> Result<u16, String> {
    let mut set = 0u16;
    let mut last: Option<u32> = None;
    for part in s.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a, b),
            None => (part, part),
        };
        let num = |x: &str| {
            x.parse::<u32>()
                .map_err(|_| format!("cannot convert string to integer for index: {x:?}"))
        };
        let (a, b) = (num(a)?, num(b)?);
        if a > b {
            return Err(format!("non-increasing order, previous: {a}, current: {b}"));
        }
        if let Some(l) = last {
            if a <= l {
                return Err(format!("non-increasing order, previous: {l}, current: {a}"));
            }
        }
        if b >= completions as u32 {
            return Err(format!(
                "too large index: {b}, must be less than completions: {completions}"
            ));
        }
        for i in a..=b {
            set |= 1 << i;
        }
        last = Some(b);
    }
    Ok(set)
}

/// The interval form the Job controller writes `status.completedIndexes` and
/// `status.failedIndexes` in (`orderedIntervals.String`, indexed_job_utils.go): "1,3-5,7".
pub fn format_indexes(set: u16) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0u32;
    while i < 16 {
        if set & (1 << i) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i + 1 < 16 && set & (1 << (i + 1)) != 0 {
            i += 1;
        }
        out.push(if start == i {
            format!("{start}")
        } else {
            format!("{start}-{i}")
        });
        i += 1;
    }
    out.join(",")
}
