//! The StatefulSet controller.
//!
//! Sources: `docs/sources.md#statefulset-one-pod-per-identity`,
//! `docs/sources.md#statefulset-rolling-update`.

use super::*;
use podcheck_input::spec::{PodManagementPolicy, StatefulSetSpec, StatefulSetStrategyType};

/// `isRunningAndReady`, and with `minReadySeconds` Available too (Ready that long:
/// `isRunningAndAvailable`, from 1.23).
fn running_and_available(spec: &StatefulSetSpec, p: &Pod) -> bool {
    p.status.phase == Phase::Running
        && p.status.ready
        && (spec.min_ready_seconds == 0 || p.available_in == Some(0))
}

/// `isHealthy`: Running and Ready, and not terminating.
fn healthy(p: &Pod) -> bool {
    p.status.phase == Phase::Running && p.status.ready && p.deletion.is_none()
}

/// `isUnavailable`: not Running and Available, or terminating.
fn unavailable(spec: &StatefulSetSpec, p: &Pod) -> bool {
    !running_and_available(spec, p) || p.deletion.is_some()
}

/// The revision a pod of `ordinal` is created at (`newVersionedStatefulSetPod`): under
/// RollingUpdate, an ordinal below the partition gets the current revision; every other one
/// (and every one under OnDelete) the update revision.
pub fn revision_at(spec: &StatefulSetSpec, revs: StatefulSetStatus, ordinal: u8) -> u8 {
    let strategy = &spec.update_strategy;
    if strategy.kind == StatefulSetStrategyType::RollingUpdate && ordinal < strategy.partition() {
        revs.current
    } else {
        revs.update
    }
}

/// The StatefulSet's revisions: its status once its template has changed, else revision 0
/// for both.
pub fn revisions(s: &State, w: u8) -> StatefulSetStatus {
    s.api.workloads[w as usize].statefulset.unwrap_or_default()
}

/// StatefulSet controller (`updateStatefulSet`), one sync.
///
/// `processReplica`: one object per identity `<name>-<ordinal>`. A missing ordinal is
/// created, at the revision [`revision_at`] gives it; a finished pod (Succeeded or Failed) is
/// deleted, to be recreated once its object is gone; while an object with that name exists
/// — Terminating on a partitioned node included — nothing else is created for it.
/// OrderedReady works one ordinal at a time and waits for each to be Running and Ready, and
/// with `minReadySeconds` Available too (Ready that long: `isRunningAndAvailable`, from 1.23);
/// Parallel creates every missing ordinal at once.
///
/// Then, once OrderedReady has found every pod Running and Available (Parallel: always), the
/// rolling update ([`update`]); OnDelete never deletes a pod for an update. Last, the status:
/// `completeRollingUpdate` makes the update revision the current one once every pod object
/// is at it and Running and Ready.
pub fn sync(m: &Context, s: &mut State, w: u8) -> Option<()> {
    let Workload::StatefulSet { spec, .. } = m.workload(w) else {
        return None;
    };
    let revs = revisions(s, w);
    // The status counts, over the pod objects as the sync reads them (`updateStatus`).
    let (replicas, updated, ready) = {
        let pods = || s.api.pods.iter().filter(|p| p.workload == w);
        (
            pods().count(),
            pods().filter(|p| p.revision == revs.update).count(),
            pods()
                .filter(|p| p.status.phase == Phase::Running && p.status.ready)
                .count(),
        )
    };
    if !process_replicas(m, s, w, spec, revs)
        && spec.update_strategy.kind == StatefulSetStrategyType::RollingUpdate
    {
        update(m, s, w, spec, revs);
    }
    // `completeRollingUpdate`.
    if spec.update_strategy.kind == StatefulSetStrategyType::RollingUpdate
        && revs.current != revs.update
        && updated == replicas
        && ready == replicas
    {
        if let Some(st) = s.api.workloads[w as usize].statefulset.as_mut() {
            st.current = st.update;
        }
    }
    Some(())
}

/// `processReplica` over every ordinal; true: the sync stops here (OrderedReady blocked).
fn process_replicas(
    m: &Context,
    s: &mut State,
    w: u8,
    spec: &StatefulSetSpec,
    revs: StatefulSetStatus,
) -> bool {
    let monotonic = spec.pod_management_policy == PodManagementPolicy::OrderedReady;
    for ordinal in 0..spec.replicas {
        let existing = s
            .api
            .pods
            .iter()
            .find(|p| p.workload == w && p.suffix == ordinal)
            .map(|p| {
                let available =
                    p.status.ready && (spec.min_ready_seconds == 0 || p.available_in == Some(0));
                (p.uid, p.status.phase, p.deletion.is_some(), available)
            });
        match existing {
            None => {
                let uid = apiserver::create_pod_named(m, s, w, ordinal);
                let revision = revision_at(spec, revs, ordinal);
                if revision != 0 {
                    if let Some(p) = s.pod_mut(uid) {
                        p.revision = revision;
                    }
                }
                if monotonic {
                    return true;
                }
            }
            Some((uid, phase, deleting, _)) if phase.is_terminal() => {
                if !deleting {
                    apiserver::delete_pod(m, s, uid, None);
                }
                if monotonic {
                    return true;
                }
            }
            Some((_, _, true, _)) => {
                // "StatefulSet is waiting for Pod to Terminate".
                if monotonic {
                    return true;
                }
            }
            Some((_, phase, false, available)) => {
                if monotonic && !(phase == Phase::Running && available) {
                    return true;
                }
            }
        }
    }
    false
}

/// The rolling update (`updateStatefulSet`'s last loop; from 1.35
/// `updateStatefulSetAfterInvariantEstablished`), over the ordinals from the partition up:
///
/// - from 1.35 (`MaxUnavailableStatefulSet`): count the unavailable pods among all ordinals
///   ([`unavailable`]; a missing one too); if they are `maxUnavailable` or more, wait; else
///   delete, from the largest ordinal down to the partition, up to `maxUnavailable` minus
///   that many pods that are not at the update revision and not terminating;
/// - before: from the largest ordinal down, delete the first pod that is neither at the
///   update revision nor terminating, and stop; stop too at the first pod that is not
///   healthy ([`healthy`]: Running, Ready, not terminating).
///
/// The deletes are plain DELETEs with the pod's grace period (`DeleteStatefulPod`), not
/// evictions: a PodDisruptionBudget does not hold them back.
fn update(m: &Context, s: &mut State, w: u8, spec: &StatefulSetSpec, revs: StatefulSetStatus) {
    let partition = spec.update_strategy.partition();
    let at = |s: &State, ordinal: u8| {
        s.api
            .pods
            .iter()
            .find(|p| p.workload == w && p.suffix == ordinal)
            .map(|p| (p.uid, p.revision, p.deletion.is_some(), healthy(p)))
    };
    if m.by_release.max_unavailable_statefulset {
        let max = i64::from(spec.update_strategy.max_unavailable(spec.replicas));
        let down = (0..spec.replicas)
            .filter(|&o| {
                s.api
                    .pods
                    .iter()
                    .find(|p| p.workload == w && p.suffix == o)
                    .is_none_or(|p| unavailable(spec, p))
            })
            .count() as i64;
        if down >= max {
            return;
        }
        let mut left = max - down;
        for ordinal in (partition..spec.replicas).rev() {
            if left == 0 {
                break;
            }
            if let Some((uid, revision, false, _)) = at(s, ordinal) {
                if revision != revs.update {
                    apiserver::delete_pod(m, s, uid, None);
                    left -= 1;
                }
            }
        }
    } else {
        for ordinal in (partition..spec.replicas).rev() {
            // A missing ordinal stands for the pod about to be created at the update
            // revision: not healthy.
            let Some((uid, revision, terminating, ok)) = at(s, ordinal) else {
                return;
            };
            if revision != revs.update && !terminating {
                apiserver::delete_pod(m, s, uid, None);
                return;
            }
            if !ok {
                return;
            }
        }
    }
}

/// The StatefulSet's rollout is complete, as `kubectl rollout status statefulset` waits for
/// it (kubectl `polymorphichelpers/rollout_status.go`, `StatefulSetStatusViewer.Status`: every
/// replica Ready, and `replicas − partition` pods at the update revision), per ordinal: every
/// ordinal has its pod, not terminating, Running and Ready, at the update revision from the
/// partition up (under OnDelete, which kubectl does not wait on, every ordinal).
pub fn rollout_complete(spec: &StatefulSetSpec, s: &State, w: u8) -> bool {
    let revs = revisions(s, w);
    let from = match spec.update_strategy.kind {
        StatefulSetStrategyType::RollingUpdate => spec.update_strategy.partition(),
        StatefulSetStrategyType::OnDelete => 0,
    };
    (0..spec.replicas).all(|o| {
        s.api
            .pods
            .iter()
            .find(|p| p.workload == w && p.suffix == o)
            .is_some_and(|p| healthy(p) && (o < from || p.revision == revs.update))
    })
}
