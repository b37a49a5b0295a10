//! Job controller failure accounting: ports from pkg/controller/job/job_controller.go
//! (`exceedsBackoffLimit`, `pastBackoffLimitOnFailure`, `isPodFailed`) and
//! pkg/controller/job/backoff_utils.go (`getRemainingTimeForFailuresCount`).
//!
//! Facts: F 18, F 93–97. Conformance rows: VECTORS V7.4.

use super::types::{Phase, RestartPolicy};

/// `DefaultJobPodFailureBackOff` (F 18), seconds.
pub const DEFAULT_JOB_POD_FAILURE_BACKOFF: u64 = 10;
/// `MaxJobPodFailureBackOff` (F 18), seconds.
pub const MAX_JOB_POD_FAILURE_BACKOFF: u64 = 600;

/// `exceedsBackoffLimit := failed > *job.Spec.BackoffLimit` (F 93): strict `>`.
pub fn exceeds_backoff_limit(failed: u32, backoff_limit: u32) -> bool {
    failed > backoff_limit
}

/// `pastBackoffLimitOnFailure(job, pods)` (F 94): only for template RestartPolicy OnFailure;
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

/// `isPodFailed(p, job)` (F 97): phase Failed → true; with podReplacementPolicy Failed
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
