//! The Job controller (`pkg/controller/job/job_controller.go` `syncJob`).
//!
//! One sync, in upstream's order:
//! 1. **Count** the pods that finished (`trackJobStatusAndRemoveFinalizers`): a Succeeded pod
//!    counts in `succeeded` (an Indexed Job's once per index below `completions`); a failed
//!    one (`isPodFailed`: phase Failed, or deleted and not Succeeded unless only failed pods
//!    are replaced) goes through the podFailurePolicy (`matchPodFailurePolicy`): Ignore does
//!    not count it, FailJob fails the Job, FailIndex fails its index. Once a failure verdict
//!    is pending, every pod not Succeeded counts as failed when its finalizer goes.
//! 2. **Decide**, the first that applies: a FailJob match; `failed > backoffLimit` or
//!    (OnFailure) the restart counts (`pastBackoffLimitOnFailure`); `activeDeadlineSeconds`
//!    passed; too many failed indexes, or every index finished with one failed; the
//!    successPolicy; `completions` reached with no pod active.
//! 3. **Act**: a verdict deletes the active pods. From 1.29 (`delayTerminalCondition`) it
//!    is written as `FailureTarget` / `SuccessCriteriaMet` first, and `Failed` / `Complete`
//!    follows once no pod is terminating; before 1.29 the terminal condition is written at
//!    once. Without a verdict (`manageJob`): keep `min(completions − succeeded,
//!    parallelism)` pods active, minus the terminating ones when only failed pods are
//!    replaced, after the pod-failure back-off; an Indexed Job's new pods take the lowest
//!    pending indexes.
//!
//! Sources: `docs/sources.md#job-backofflimit`, `docs/sources.md#job-pod-failure-back-off`,
//! `docs/sources.md#job-pod-failure-policy`, `docs/sources.md#job-conditions-and-counters`.

use super::*;
use crate::k8s::{Condition, ConditionStatus, FailedPodView, PodFailurePolicyAction};
use podcheck_input::spec::{JobSpec, PodReplacementPolicy};

/// Whether the Job replaces only pods that are fully terminal (`onlyReplaceFailedPods`):
/// podReplacementPolicy Failed (with its gate), or any podFailurePolicy.
pub fn only_replace_failed_pods(m: &Context, spec: &JobSpec) -> bool {
    if spec.pod_failure_policy.is_some() {
        return true;
    }
    m.by_release.job_pod_replacement_policy
        && spec.pod_replacement_policy == Some(PodReplacementPolicy::Failed)
}

/// What `matchPodFailurePolicy` reads of a pod.
fn failed_pod_view(m: &Context, p: &Pod) -> FailedPodView {
    let cond = |t: &str, on: bool| Condition {
        type_: t.into(),
        status: if on {
            ConditionStatus::True
        } else {
            ConditionStatus::False
        },
        reason: String::new(),
    };
    let mut conditions = Vec::new();
    if p.disruption_target {
        conditions.push(cond("DisruptionTarget", true));
    }
    conditions.push(cond("PodReadyToStartContainers", p.status.pod_ip));
    conditions.push(cond("Initialized", p.status.initialized));
    conditions.push(cond("Ready", p.status.ready));
    conditions.push(cond("ContainersReady", p.status.containers_ready));
    conditions.push(cond("PodScheduled", p.node.is_some()));
    FailedPodView {
        namespace: "default".into(),
        name: m.pod_name(p),
        statuses: p.status.statuses.clone(),
        init_statuses: p.status.init_statuses.clone(),
        conditions,
    }
}

/// `status.active`, `status.ready` and the terminating pods of Job `w`.
fn counts(s: &State, w: u8) -> (u8, u8, u8) {
    let mut active = 0u8;
    let mut ready = 0u8;
    let mut terminating = 0u8;
    for p in s.api.pods.iter().filter(|p| p.workload == w) {
        if is_active(p) {
            active += 1;
            if p.status.ready {
                ready += 1;
            }
        } else if p.deletion.is_some() && !p.status.phase.is_terminal() {
            terminating += 1;
        }
    }
    (active, ready, terminating)
}

/// Job controller: one `syncJob` of workload `w`.
pub fn sync(m: &Context, s: &mut State, w: u8) -> Option<()> {
    let Workload::Job { spec, .. } = m.workload(w) else {
        return None;
    };
    let r = &m.by_release;
    let policy = m.job_policies[w as usize].as_ref();
    let only_failed = only_replace_failed_pods(m, spec);
    let completions = spec.completions();
    let per_index = spec.backoff_limit_per_index;
    // `startTime`: set by the first sync.
    {
        let job = s.api.workloads[w as usize].job.as_mut()?;
        if job.deadline_left.is_none() {
            job.deadline_left = spec.active_deadline_seconds;
        }
    }
    // 1. Count the finished pods.
    count_finished(m, s, w, spec, policy, only_failed, per_index);
    // 2. Decide.
    let (active, _, terminating) = counts(s, w);
    let restart_sum: u32 = s
        .api
        .pods
        .iter()
        .filter(|p| p.workload == w && matches!(p.status.phase, Phase::Running | Phase::Pending))
        .flat_map(|p| p.status.init_statuses.iter().chain(&p.status.statuses))
        .map(|c| c.restart_count)
        .sum();
    let job = s.api.workloads[w as usize].job.as_mut()?;
    if !job.decided() {
        let failed_idx = job.failed_indexes.count_ones() as u8;
        let done_idx = (job.failed_indexes | job.completed_indexes).count_ones() as u8;
        let success_rule_met = m.success_rules[w as usize].iter().any(|(set, count)| {
            let done = match set {
                Some(set) => job.completed_indexes & set,
                None => job.completed_indexes,
            };
            match (set, count) {
                (Some(set), None) => done == *set,
                (_, Some(c)) => done.count_ones() as u8 >= *c,
                (None, None) => false,
            }
        });
        let complete = match completions {
            None => job.succeeded > 0 && active == 0,
            Some(c) => job.succeeded >= c && active == 0,
        };
        let verdict = if job.failure().is_some() {
            // A FailJob match of this sync's counting.
            job.target
        } else if k8s::exceeds_backoff_limit(job.failed as u32, spec.backoff_limit())
            || k8s::past_backoff_limit_on_failure(
                spec.template.spec.restart_policy,
                spec.backoff_limit(),
                restart_sum,
            )
        {
            Some(JobTarget::Failure(JobReason::BackoffLimitExceeded))
        } else if job.deadline_left == Some(0) {
            Some(JobTarget::Failure(JobReason::DeadlineExceeded))
        } else if per_index.is_some() && spec.max_failed_indexes.is_some_and(|max| failed_idx > max)
        {
            Some(JobTarget::Failure(JobReason::MaxFailedIndexesExceeded))
        } else if per_index.is_some() && failed_idx > 0 && Some(done_idx) >= completions {
            Some(JobTarget::Failure(JobReason::FailedIndexes))
        } else if success_rule_met {
            Some(JobTarget::Success(JobReason::SuccessPolicy))
        } else if complete {
            Some(JobTarget::Success(JobReason::CompletionsReached))
        } else {
            None
        };
        job.target = verdict;
    }
    let job = s.api.workloads[w as usize].job.clone()?;
    // 3. Act.
    let active_pods: Vec<u16> = s
        .api
        .pods
        .iter()
        .filter(|p| p.workload == w && is_active(p))
        .map(|p| p.uid)
        .collect();
    match (job.condition, job.target) {
        (Some(_), _) => {}
        (None, Some(target)) => {
            // A verdict deletes the Job's active pods (`deleteActivePods`).
            for uid in active_pods {
                apiserver::delete_pod(m, s, uid, None);
            }
            if matches!(target, JobTarget::Failure(_)) {
                // Every pod not Succeeded counts as failed once a failure is pending.
                count_finished(m, s, w, spec, policy, only_failed, per_index);
            }
            let (_, _, terminating) = counts(s, w);
            let uncounted = s
                .api
                .pods
                .iter()
                .any(|p| p.workload == w && !p.job_counted && p.status.phase.is_terminal());
            let job = s.api.workloads[w as usize].job.as_mut()?;
            if !r.job_pod_replacement_policy || (terminating == 0 && !uncounted) {
                job.condition = Some(match target {
                    JobTarget::Failure(why) => JobCondition::Failed(why),
                    JobTarget::Success(why) => JobCondition::Complete(why),
                });
                if !r.job_pod_replacement_policy {
                    job.target = None;
                }
            }
        }
        (None, None) => {
            manage(m, s, w, spec, &job, active, terminating, only_failed);
        }
    }
    let (active, ready, terminating) = counts(s, w);
    let job = s.api.workloads[w as usize].job.as_mut()?;
    job.active = active;
    job.ready = ready;
    job.terminating = r.job_pod_replacement_policy.then_some(terminating);
    if job.decided() {
        // A decided Job waits for nothing more.
        job.deadline_left = job.deadline_left.map(|_| 0);
        job.backoff_left = 0;
    }
    Some(())
}

/// Counts the Job's finished pods not yet counted (`trackJobStatusAndRemoveFinalizers`).
fn count_finished(
    m: &Context,
    s: &mut State,
    w: u8,
    spec: &JobSpec,
    policy: Option<&k8s::PodFailurePolicy>,
    only_failed: bool,
    per_index: Option<u8>,
) -> Option<()> {
    let failing = s.api.workloads[w as usize]
        .job
        .as_ref()?
        .failure()
        .is_some();
    let completions = spec.completions().unwrap_or(0);
    let mut updates = Vec::new();
    for p in s
        .api
        .pods
        .iter()
        .filter(|p| p.workload == w && !p.job_counted)
    {
        if p.status.phase == Phase::Succeeded {
            updates.push((p.uid, None));
            continue;
        }
        let failed = k8s::is_pod_failed(p.status.phase, p.deletion.is_some(), only_failed);
        let finishing = failing && (p.deletion.is_some() || p.status.phase.is_terminal());
        if failed {
            let matched = k8s::match_pod_failure_policy(
                policy,
                &failed_pod_view(m, p),
                m.by_release.job_backoff_limit_per_index,
            );
            updates.push((p.uid, Some(matched)));
        } else if finishing {
            updates.push((
                p.uid,
                Some(k8s::match_pod_failure_policy(
                    None,
                    &FailedPodView::default(),
                    false,
                )),
            ));
        }
    }
    for (uid, outcome) in updates {
        let pod = s.pod_mut(uid)?;
        pod.job_counted = true;
        let (index, index_failures, disrupted) =
            (pod.job_index, pod.index_failures, pod.disruption_target);
        let job = s.api.workloads[w as usize].job.as_mut()?;
        match outcome {
            None => {
                match index {
                    Some(i) if i < completions => {
                        if job.completed_indexes & (1 << i) == 0 {
                            job.completed_indexes |= 1 << i;
                            job.succeeded = job.succeeded.saturating_add(1);
                        }
                    }
                    Some(_) => {}
                    None => job.succeeded = job.succeeded.saturating_add(1),
                }
                job.consecutive_failures = 0;
                job.backoff_left = 0;
            }
            Some(matched) => {
                // The back-off counts every failed pod, ignored ones too (kubernetes#130881).
                // Counted up to where the back-off reaches its cap: more failures change
                // nothing.
                if k8s::job_pod_failure_backoff(job.consecutive_failures as u32)
                    < k8s::MAX_JOB_POD_FAILURE_BACKOFF
                {
                    job.consecutive_failures += 1;
                }
                job.backoff_left = k8s::job_pod_failure_backoff(job.consecutive_failures as u32)
                    .min(Secs::MAX as u64) as Secs;
                if !matched.count_failed {
                    continue;
                }
                job.failed = job.failed.saturating_add(1);
                if disrupted {
                    job.failed_disrupted = job.failed_disrupted.saturating_add(1);
                }
                if let Some(msg) = matched.job_failure_message {
                    if !job.decided() {
                        job.target = Some(JobTarget::Failure(JobReason::PodFailurePolicy));
                        job.message = msg;
                    }
                }
                if let (Some(i), Some(limit)) = (index, per_index) {
                    let fail_index = matched.action == Some(PodFailurePolicyAction::FailIndex);
                    if fail_index || index_failures >= limit {
                        job.failed_indexes |= 1 << i;
                    }
                }
            }
        }
    }
    Some(())
}

/// `manageJob` without a verdict: create the missing pods, or delete the surplus.
#[allow(clippy::too_many_arguments)]
fn manage(
    m: &Context,
    s: &mut State,
    w: u8,
    spec: &JobSpec,
    job: &JobStatus,
    active: u8,
    terminating: u8,
    only_failed: bool,
) {
    let parallelism = spec.parallelism();
    let want = match spec.completions() {
        None if job.succeeded > 0 => active,
        None => parallelism,
        Some(c) => c.saturating_sub(job.succeeded).min(parallelism),
    };
    if active > want {
        // The surplus goes, ranked as `controller.ActivePods` does: unassigned before
        // assigned, Pending before Running, not ready before ready, newest first.
        let mut pods: Vec<&Pod> = s
            .api
            .pods
            .iter()
            .filter(|p| p.workload == w && is_active(p))
            .map(|p| &**p)
            .collect();
        pods.sort_by_key(|p| {
            (
                p.node.is_some(),
                p.status.phase == Phase::Running,
                p.status.ready,
                std::cmp::Reverse(p.uid),
            )
        });
        let doomed: Vec<u16> = pods
            .iter()
            .take((active - want) as usize)
            .map(|p| p.uid)
            .collect();
        for uid in doomed {
            apiserver::delete_pod(m, s, uid, None);
        }
        return;
    }
    let blocking = if only_failed { terminating } else { 0 };
    let missing = want.saturating_sub(active).saturating_sub(blocking);
    if missing == 0 || job.backoff_left > 0 {
        return;
    }
    if !spec.indexed() {
        for _ in 0..missing {
            apiserver::create_pod(m, s, w);
        }
        return;
    }
    // The lowest pending indexes: not succeeded, not failed, without an active pod (nor a
    // terminating one when only failed pods are replaced).
    let completions = spec.completions().unwrap_or(0);
    let mut created = 0;
    for i in 0..completions {
        if created == missing {
            break;
        }
        let bit = 1u16 << i;
        if (job.completed_indexes | job.failed_indexes) & bit != 0 {
            continue;
        }
        let taken = s.api.pods.iter().any(|p| {
            p.workload == w
                && p.job_index == Some(i)
                && (is_active(p)
                    || (only_failed && p.deletion.is_some() && !p.status.phase.is_terminal()))
        });
        if taken {
            continue;
        }
        // The replacement inherits the index's failure count.
        let failures = s
            .api
            .pods
            .iter()
            .filter(|p| p.workload == w && p.job_index == Some(i))
            .map(|p| p.index_failures + u8::from(p.status.phase == Phase::Failed))
            .max()
            .unwrap_or(0);
        let uid = apiserver::create_pod(m, s, w);
        if let Some(p) = s.pod_mut(uid) {
            p.job_index = Some(i);
            p.index_failures = failures;
        }
        created += 1;
    }
}
