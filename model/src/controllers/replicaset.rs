//! The ReplicaSet controller: one ReplicaSet per template revision of a Deployment (the
//! Deployment controller, `deployment.rs`, sets their `spec.replicas`).
//!
//! Sources: `docs/sources.md#replicaset-active-pods`,
//! `docs/sources.md#replicaset-scale-down-order`.

use super::*;
use crate::k8s::deployment::{delete_first, phase_ordinal, PodRank};
use std::cmp::Ordering;

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

/// The pods a scale-down of the ReplicaSet of `revision` of Deployment `w` deletes, before
/// its tie is broken: `certain` are ranked strictly before the cut of `ActivePodsWithRanks`
/// (`getPodsToDelete`), `tied` are the pods ranked equal to the last one deleted (in
/// descending uid order), of which `take` go. None where the sync does not scale down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Surplus {
    pub certain: Vec<u16>,
    pub tied: Vec<u16>,
    pub take: usize,
}

impl Surplus {
    /// Whether the sync has a choice: some but not all of the tied pods go (and the tie has
    /// at most [`MAX_TIE`] pods).
    pub fn chooses(&self) -> bool {
        self.take > 0 && self.take < self.tied.len() && self.tied.len() <= MAX_TIE
    }
}

/// The most pods of one tie whose choice is offered (one bit each of the action's `pick`; at
/// most 252 sets, 5 of 10). A ReplicaSet never has more active pods than its Deployment's
/// largest `replicas` (its own `spec.replicas` never exceeds them), so only a Deployment of
/// more than 10 replicas (or scaled to more) can tie more: such a tie is broken by the
/// higher uid, with no choice, and `crate::symmetry::interchangeable_pods` leaves that
/// Deployment's pods apart. (Kept with the state, which both read.)
pub use crate::state::MAX_TIE;

/// See [`Surplus`].
pub fn surplus(s: &State, w: u8, revision: u8) -> Option<Surplus> {
    let want = rs_replicas(s, w, revision)? as usize;
    let active: Vec<&Pod> = active_of(s, w, revision).collect();
    if active.len() <= want {
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
    let k = active.len() - want;
    let last = ranked[k - 1].0;
    let equal = |r: &PodRank| delete_first(r, &last) == Ordering::Equal;
    let certain: Vec<u16> = ranked
        .iter()
        .take_while(|r| !equal(&r.0))
        .map(|r| r.1)
        .collect();
    let tied: Vec<u16> = ranked.iter().filter(|r| equal(&r.0)).map(|r| r.1).collect();
    Some(Surplus {
        take: k - certain.len(),
        certain,
        tied,
    })
}

/// The choices of a sync of the ReplicaSet of `revision` of Deployment `w` that is enabled
/// ([`enabled`]), each an action's `pick`: one per set of the tied pods that may go
/// ([`Surplus`]), a bit per pod of `tied`; the first is the set of the higher uids. `0`
/// alone where there is no choice.
pub fn picks(s: &State, w: u8, revision: u8) -> smallvec::SmallVec<[u32; 4]> {
    let mut out = smallvec::SmallVec::new();
    match surplus(s, w, revision) {
        Some(x) if x.chooses() => {
            let (n, take) = (x.tied.len(), x.take);
            // Every mask of `take` bits among `n`, in ascending order (Gosper's hack).
            let mut mask: u64 = (1 << take) - 1;
            while mask < (1u64 << n) {
                out.push(mask as u32);
                let c = mask & mask.wrapping_neg();
                let r = mask + c;
                mask = (((r ^ mask) >> 2) / c) | r;
            }
        }
        _ => out.push(0),
    }
    out
}

/// `manageReplicas`: create the missing pods at once (a terminating pod is not active, so its
/// replacement is created at once), or delete the surplus, the first ones of
/// `ActivePodsWithRanks` (`getPodsToDelete`). Upstream breaks the ties of the steps the model
/// ranks by Ready time and creation time, compared in logarithmic buckets, and then by the
/// pods' random uids (`LogarithmicScaleDown`); the model keeps no timestamps, so which of
/// the tied pods go is a choice: `pick` names them, a bit per pod of [`Surplus::tied`]
/// ([`picks`]), and is 0 where there is no choice.
pub fn sync(m: &Context, s: &mut State, w: u8, revision: u8, pick: u32) -> Option<()> {
    let Workload::Deployment { .. } = m.workload(w) else {
        return None;
    };
    let want = rs_replicas(s, w, revision)? as usize;
    let active = active_of(s, w, revision).count();
    if active < want {
        if pick != 0 {
            return None;
        }
        for _ in active..want {
            apiserver::create_pod_of_revision(m, s, w, revision);
        }
        return Some(());
    }
    let x = surplus(s, w, revision)?;
    let mut victims = x.certain.clone();
    if x.chooses() {
        let n = x.tied.len();
        if pick.count_ones() as usize != x.take || pick >> n != 0 {
            return None;
        }
        victims.extend((0..n).filter(|i| pick & (1 << i) != 0).map(|i| x.tied[i]));
    } else {
        if pick != 0 {
            return None;
        }
        victims.extend(&x.tied[..x.take]);
    }
    for uid in victims {
        apiserver::delete_pod(m, s, uid, None)?;
    }
    Some(())
}
