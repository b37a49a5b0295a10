//! The Job controller.
//!
//! Sources: `docs/sources.md#job-backofflimit`, `docs/sources.md#job-pod-failure-back-off`.

use super::*;

/// Job controller: count finished pods, fail the Job past its backoffLimit (and
/// delete its active pods), complete it on a success, otherwise keep one pod running, after
/// the pod-failure back-off.
pub fn sync(m: &Context, s: &mut State, w: u8) -> Option<()> {
    let Workload::Job { spec, .. } = m.workload(w) else {
        return None;
    };
    let policy = spec.template.spec.restart_policy;
    let limit = spec.backoff_limit as u32;
    let mut newly_failed = 0u8;
    let mut newly_succeeded = 0u8;
    for p in s
        .api
        .pods
        .iter_mut()
        .filter(|p| p.workload == w && !p.job_counted)
    {
        if p.status.phase == Phase::Succeeded {
            p.job_counted = true;
            newly_succeeded += 1;
        } else if k8s::is_pod_failed(p.status.phase, p.deletion.is_some(), false) {
            p.job_counted = true;
            newly_failed += 1;
        }
    }
    let restart_sum: u32 = s
        .api
        .pods
        .iter()
        .filter(|p| p.workload == w && matches!(p.status.phase, Phase::Running | Phase::Pending))
        .flat_map(|p| p.status.init_statuses.iter().chain(&p.status.statuses))
        .map(|c| c.restart_count)
        .sum();
    let job = s.api.workloads[w as usize].job.as_mut()?;
    job.failed = job.failed.saturating_add(newly_failed);
    job.succeeded = job.succeeded.saturating_add(newly_succeeded);
    if newly_failed > 0 {
        job.backoff_left =
            k8s::job_pod_failure_backoff(job.failed as u32).min(Secs::MAX as u64) as Secs;
    }
    if job.condition.is_none() {
        if k8s::exceeds_backoff_limit(job.failed as u32, limit)
            || k8s::past_backoff_limit_on_failure(policy, limit, restart_sum)
        {
            job.condition = Some(JobCondition::BackoffLimitExceeded);
        } else if job.succeeded >= 1 {
            let any_active = s.api.pods.iter().any(|p| p.workload == w && is_active(p));
            if !any_active {
                s.api.workloads[w as usize].job.as_mut()?.condition = Some(JobCondition::Complete);
            }
        }
    }
    let job = s.api.workloads[w as usize].job.clone()?;
    let active: Vec<u16> = s
        .api
        .pods
        .iter()
        .filter(|p| p.workload == w && is_active(p))
        .map(|p| p.uid)
        .collect();
    match job.condition {
        // A failing Job deletes its active pods (`syncJob`).
        Some(JobCondition::BackoffLimitExceeded) => {
            for uid in active {
                apiserver::delete_pod(m, s, uid, None);
            }
        }
        Some(JobCondition::Complete) => {}
        None => {
            if active.is_empty() && job.succeeded == 0 && job.backoff_left == 0 {
                apiserver::create_pod(m, s, w);
            }
        }
    }
    Some(())
}
