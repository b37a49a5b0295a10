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

/// PodGC: phase Failed, DisruptionTarget (from 1.26, gate `PodDisruptionConditions`), then a
/// force delete (grace 0).
pub fn collect(m: &Context, s: &mut State, uid: u16) -> Option<()> {
    let conditions = m.by_release.pod_disruption_conditions;
    let p = s.pod_mut(uid)?;
    if !p.status.phase.is_terminal() && conditions {
        p.status.phase = Phase::Failed;
        p.disruption_target = true;
    }
    s.api.pods.retain(|p| p.uid != uid);
    Some(())
}
