//! Controllers of the controller-manager: ReplicaSet (a Deployment is its ReplicaSet), Job,
//! EndpointSlice. Each acts only on the API objects it watches. A controller's action is
//! enabled when its sync would change something.

use crate::apiserver;
use crate::cluster::{Action, Cluster};
use crate::k8s::{self, Phase};
use crate::spec::{FailingStep, Workload};
use crate::state::*;

/// Enabled controller syncs.
pub fn actions(m: &Cluster, s: &State, out: &mut Vec<Action>) {
    for (w, workload) in m.scenario.workloads.iter().enumerate() {
        let w = w as u8;
        match workload {
            Workload::Deployment { spec, .. } => {
                if active_pods(s, w) < spec.replicas as usize {
                    out.push(Action::ReplicaSetSync { workload: w });
                }
            }
            Workload::Job { .. } => {
                let action = Action::JobSync { workload: w };
                if changes(m, s, &action) {
                    out.push(action);
                }
            }
            Workload::StatefulSet { .. } => {
                let action = Action::StatefulSetSync { workload: w };
                if changes(m, s, &action) {
                    out.push(action);
                }
            }
            Workload::Pod { .. } | Workload::StaticPod { .. } => {}
        }
    }
    if desired_endpoints(m, s).is_some_and(|d| d != s.api.endpoints) {
        out.push(Action::EndpointSliceSync);
    }
    // Attach/detach controller: a failing attach is retried after its back-off.
    for p in &s.api.pods {
        if p.node.is_none()
            || p.status.phase.is_terminal()
            || m.step_failure(p.workload, FailingStep::AttachVolume)
                .is_none()
        {
            continue;
        }
        let waiting = s
            .api
            .attach_retry
            .iter()
            .any(|(u, r)| *u == p.uid && r.left > 0);
        if !waiting {
            out.push(Action::AttachVolume { uid: p.uid });
        }
    }
}

/// PodGC `gcTerminated` (F 103): when more pods are terminated than the threshold, the
/// oldest goes first (evicted ones before the others). The model runs it before anything
/// else happens (see [`crate::cluster::Cluster::urgent_actions`]).
pub fn terminated_gc_victim(m: &Cluster, s: &State) -> Option<u16> {
    let terminated: Vec<&Pod> = s
        .api
        .pods
        .iter()
        .filter(|p| p.status.phase.is_terminal())
        .collect();
    let threshold = m.scenario.cluster.terminated_pod_gc_threshold as usize;
    if terminated.len() <= threshold {
        return None;
    }
    terminated
        .iter()
        .find(|p| p.status.reason == "Evicted")
        .or(terminated.first())
        .map(|p| p.uid)
}

/// The attach/detach controller's attach fails (`GenerateAttachVolumeFunc`): it records
/// `FailedAttachVolume` on the pod and retries after the exponential back-off (0.5 s
/// doubling, at most 2m2s; whole seconds here).
pub fn attach_volume(s: &mut State, uid: u16) -> Option<()> {
    s.pod(uid)?;
    let pos = s.api.attach_retry.iter().position(|(u, _)| *u == uid);
    let backoff = pos.map_or(1, |i| (s.api.attach_retry[i].1.backoff * 2).min(244));
    let r = Retry {
        left: backoff.div_ceil(2),
        backoff,
    };
    match pos {
        Some(i) => s.api.attach_retry[i].1 = r,
        None => s.api.attach_retry.push((uid, r)),
    }
    crate::events::record(
        s,
        None,
        uid,
        crate::events::EventKind::FailedAttachVolume,
        true,
    );
    Some(())
}

fn changes(m: &Cluster, s: &State, a: &Action) -> bool {
    let mut t = s.clone();
    let r = match *a {
        Action::JobSync { workload } => job_sync(m, &mut t, workload),
        Action::StatefulSetSync { workload } => statefulset_sync(m, &mut t, workload),
        _ => None,
    };
    r.is_some() && t != *s
}

/// `IsPodActive` (F 85): not Succeeded, not Failed, no deletionTimestamp.
pub fn is_active(p: &Pod) -> bool {
    !p.status.phase.is_terminal() && p.deletion.is_none()
}

/// The workload's active pods (F 85).
pub fn active_pods(s: &State, w: u8) -> usize {
    s.api
        .pods
        .iter()
        .filter(|p| p.workload == w && is_active(p))
        .count()
}

/// ReplicaSet: create pods until the active ones equal `replicas` (F 85). A terminating pod
/// is not active, so its replacement is created at once.
pub fn replicaset_sync(m: &Cluster, s: &mut State, w: u8) -> Option<()> {
    let Workload::Deployment { spec, .. } = m.workload(w) else {
        return None;
    };
    for _ in active_pods(s, w)..spec.replicas as usize {
        apiserver::create_pod(m, s, w);
    }
    Some(())
}

/// Job controller (F 93–97): count finished pods, fail the Job past its backoffLimit (and
/// delete its active pods), complete it on a success, otherwise keep one pod running, after
/// the pod-failure back-off (F 18).
pub fn job_sync(m: &Cluster, s: &mut State, w: u8) -> Option<()> {
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
        // F 95: a failing Job deletes its active pods.
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

/// StatefulSet controller (`processReplica`, F 87–91): one object per identity
/// `<name>-<ordinal>`. A missing ordinal is created; a finished pod (Succeeded or Failed) is
/// deleted, to be recreated once its object is gone; while an object with that name exists
/// — Terminating on a partitioned node included — nothing else is created for it (F 89).
/// OrderedReady works one ordinal at a time and waits for each to be Running and Ready;
/// Parallel creates every missing ordinal at once (F 90).
pub fn statefulset_sync(m: &Cluster, s: &mut State, w: u8) -> Option<()> {
    let Workload::StatefulSet { spec, .. } = m.workload(w) else {
        return None;
    };
    let monotonic = spec.pod_management_policy == crate::spec::PodManagementPolicy::OrderedReady;
    for ordinal in 0..spec.replicas {
        let existing = s
            .api
            .pods
            .iter()
            .find(|p| p.workload == w && p.suffix == ordinal)
            .map(|p| (p.uid, p.status.phase, p.deletion.is_some(), p.status.ready));
        match existing {
            None => {
                apiserver::create_pod_named(m, s, w, ordinal);
                if monotonic {
                    return Some(());
                }
            }
            Some((uid, phase, deleting, _)) if phase.is_terminal() => {
                if !deleting {
                    apiserver::delete_pod(m, s, uid, None);
                }
                if monotonic {
                    return Some(());
                }
            }
            Some((_, _, true, _)) => {
                // "StatefulSet is waiting for Pod to Terminate".
                if monotonic {
                    return Some(());
                }
            }
            Some((_, phase, false, ready)) => {
                if monotonic && !(phase == Phase::Running && ready) {
                    return Some(());
                }
            }
        }
    }
    Some(())
}

/// EndpointSlice controller (F 82, 83): every pod of the selected workloads that should be in
/// endpoints, with ready / serving / terminating.
pub fn endpointslice_sync(m: &Cluster, s: &mut State) -> Option<()> {
    s.api.endpoints = desired_endpoints(m, s)?;
    Some(())
}

/// The slice the EndpointSlice controller would write now (None without a Service).
pub fn desired_endpoints(m: &Cluster, s: &State) -> Option<Vec<Endpoint>> {
    let svc = m.scenario.service.as_ref()?;
    let selected: Vec<u8> = m
        .scenario
        .workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| svc.selects.iter().any(|n| n == w.name()))
        .map(|(i, _)| i as u8)
        .collect();
    let mut eps: Vec<Endpoint> = s
        .api
        .pods
        .iter()
        .filter(|p| selected.contains(&p.workload))
        .filter(|p| {
            k8s::should_pod_be_in_endpoints(
                p.status.phase,
                p.status.pod_ip,
                p.deletion.is_some(),
                true,
            )
        })
        .filter_map(|p| {
            Some(Endpoint {
                uid: p.uid,
                node: p.node?,
                conditions: k8s::pod_to_endpoint_conditions(
                    p.status.ready,
                    p.deletion.is_some(),
                    svc.publish_not_ready_addresses,
                ),
            })
        })
        .collect();
    eps.sort();
    Some(eps)
}
