//! The pod garbage collector (PodGC).
//!
//! Sources: `docs/sources.md#podgc`.

use super::*;

/// PodGC `gcTerminated`: when more pods are terminated than the threshold, the
/// oldest goes first (evicted ones before the others). A threshold of 0 turns it off (`gc`
/// calls `gcTerminated` only for a threshold above 0). The model runs it before anything
/// else happens (see the cluster's `urgent_actions`).
pub fn terminated_gc_victim(m: &Context, s: &State) -> Option<u16> {
    let terminated = || s.api.pods.iter().filter(|p| p.status.phase.is_terminal());
    let threshold = m.scenario.cluster.terminated_pod_gc_threshold as usize;
    if threshold == 0 || terminated().count() <= threshold {
        return None;
    }
    terminated()
        .find(|p| p.status.reason == "Evicted")
        .or(terminated().next())
        .map(|p| p.uid)
}

/// PodGC's force delete (`markFailedAndDeletePod`): the status patch, then a delete with
/// grace 0.
pub fn collect(m: &Context, s: &mut State, uid: u16) -> Option<()> {
    mark_failed(m, s, uid)?;
    s.api.pods.retain(|p| p.uid != uid);
    Some(())
}

/// The status patch PodGC sends before it force-deletes a pod
/// (`markFailedAndDeletePodWithCondition`): phase Failed for a pod not yet terminal, and
/// `DisruptionTarget` (reason `DeletionByPodGC`, "PodGC: node no longer exists") only for an
/// orphan, a pod whose Node object is gone (`gcOrphaned`). The out-of-service collection
/// (`gcTerminating`) and the terminated-pod collection (`gcTerminated`) pass no condition
/// (`markFailedAndDeletePod`). From 1.26: the patch comes with the gate
/// `PodDisruptionConditions` (before, PodGC only deletes; the gate check is gone once GA).
pub fn mark_failed(m: &Context, s: &mut State, uid: u16) -> Option<()> {
    let conditions = m.by_release.pod_disruption_conditions;
    let orphan = s
        .pod(uid)?
        .node
        .is_some_and(|n| s.api.nodes[n.index()].deleted);
    let p = s.pod_mut(uid)?;
    if !p.status.phase.is_terminal() && conditions {
        p.status.phase = Phase::Failed;
        if orphan {
            p.disruption_target = true;
        }
    }
    Some(())
}
