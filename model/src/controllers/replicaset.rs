//! The ReplicaSet controller: one ReplicaSet per template revision of a Deployment (the
//! Deployment controller, `deployment.rs`, sets their `spec.replicas`).
//!
//! Sources: `docs/sources.md#replicaset-active-pods`,
//! `docs/sources.md#replicaset-scale-down-order`.

use super::*;
use crate::k8s::deployment::{delete_first, phase_ordinal, PodRank};

/// `spec.replicas` of the ReplicaSet of `revision` of Deployment `w` (None: no such
/// ReplicaSet).
pub fn rs_replicas(s: &State, w: u8, revision: u8) -> Option<u8> {
    s.api.workloads[w as usize]
        .deployment
        .as_ref()
        .and_then(|d| d.replica_sets.get(revision as usize).copied().flatten())
}

/// The active pods (`IsPodActive`) of the ReplicaSet of `revision` of Deployment `w`.
pub fn active_of(s: &State, w: u8, revision: u8) -> impl Iterator<Item = &Pod> {
    s.api
        .pods
        .iter()
        .map(|p| &**p)
        .filter(move |p| p.workload == w && p.revision == revision && is_active(p))
}

/// The sync would change something: the ReplicaSet has fewer or more active pods than its
/// `spec.replicas`.
pub fn enabled(s: &State, w: u8, revision: u8) -> bool {
    rs_replicas(s, w, revision).is_some_and(|r| active_of(s, w, revision).count() != r as usize)
}

/// `manageReplicas`: create the missing pods at once (a terminating pod is not active, so its
/// replacement is created at once), or delete the surplus, the first ones of
/// `ActivePodsWithRanks` (`getPodsToDelete`). Ties that upstream breaks by Ready time or
/// creation time, which the model does not keep, go to the pod with the higher uid.
pub fn sync(m: &Context, s: &mut State, w: u8, revision: u8) -> Option<()> {
    let Workload::Deployment { .. } = m.workload(w) else {
        return None;
    };
    let want = rs_replicas(s, w, revision)? as usize;
    let active: Vec<&Pod> = active_of(s, w, revision).collect();
    if active.len() < want {
        for _ in active.len()..want {
            apiserver::create_pod_of_revision(m, s, w, revision);
        }
        return Some(());
    }
    if active.len() == want {
        return None;
    }
    // The rank: active pods of any ReplicaSet of the same Deployment on the same node
    // (`getPodsRankedByRelatedPodsOnSameNode`).
    let colocated = |node: Option<NodeId>| {
        s.api
            .pods
            .iter()
            .filter(|p| p.workload == w && is_active(p) && p.node == node)
            .count() as u32
    };
    let mut ranked: Vec<(PodRank, u16)> = active
        .iter()
        .map(|p| {
            (
                PodRank {
                    assigned: p.node.is_some(),
                    phase: phase_ordinal(p.status.phase),
                    ready: p.status.ready,
                    colocated: colocated(p.node),
                    restarts: p
                        .status
                        .statuses
                        .iter()
                        .map(|c| c.restart_count)
                        .max()
                        .unwrap_or(0),
                },
                p.uid,
            )
        })
        .collect();
    ranked.sort_by(|a, b| delete_first(&a.0, &b.0).then(b.1.cmp(&a.1)));
    let victims: Vec<u16> = ranked
        .iter()
        .take(active.len() - want)
        .map(|r| r.1)
        .collect();
    for uid in victims {
        apiserver::delete_pod(m, s, uid, None)?;
    }
    Some(())
}
