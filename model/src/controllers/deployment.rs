//! The Deployment controller: it owns one ReplicaSet per template revision and sets their
//! `spec.replicas` (it never deletes a pod itself: the ReplicaSet controller does, by its
//! ranking), rolling (`rolling.go` `rolloutRolling`) or recreating (`recreate.go`
//! `rolloutRecreate`), and writes the `Progressing` condition (`progress.go`
//! `syncRolloutStatus`).
//!
//! The ReplicaSets' `status` (`replicas`, `readyReplicas`, `availableReplicas`) is read as the
//! ReplicaSet controller computes it from the pods (`calculateStatus`, over active pods only),
//! without the lag of its write. The model follows the Deployment from its first template
//! change on: the scenario's ReplicaSet (revision 0) exists at `replicas` from the start, and
//! the `Progressing` condition is written from the rollout on.
//!
//! Sources: `docs/sources.md#deployment-rolling-update`,
//! `docs/sources.md#deployment-recreate`, `docs/sources.md#deployment-progress-deadline`.

use super::*;
use crate::k8s::deployment::{new_rs_new_replicas, reconcile_old_replica_sets, Bounds, OldRs};
use podcheck_input::spec::{DeploymentSpec, StrategyType};

/// `IsPodAvailable`: Ready, and Ready for `minReadySeconds` ([`Pod::available_in`]).
pub fn is_available(spec: &DeploymentSpec, p: &Pod) -> bool {
    p.status.ready && (spec.min_ready_seconds == 0 || p.available_in == Some(0))
}

/// The bounds of the Deployment's rollout (`MaxSurge`, `MaxUnavailable`).
pub fn bounds(spec: &DeploymentSpec) -> Bounds {
    let rolling = spec.strategy.rolling();
    Bounds::of(
        rolling.as_ref().map(|(s, u)| (s, u)),
        i64::from(spec.replicas),
    )
}

/// What the Deployment's status counts (`calculateStatus`, over active pods):
/// `replicas`, `updatedReplicas`, `readyReplicas`, `availableReplicas`.
pub fn counts(spec: &DeploymentSpec, s: &State, w: u8, template: u8) -> Seen {
    let active = || {
        s.api
            .pods
            .iter()
            .filter(move |p| p.workload == w && is_active(p))
    };
    let n = |it: usize| it.min(u8::MAX as usize) as u8;
    Seen {
        replicas: n(active().count()),
        updated: n(active().filter(|p| p.revision == template).count()),
        ready: n(active().filter(|p| p.status.ready).count()),
        available: n(active().filter(|p| is_available(spec, p)).count()),
    }
}

/// `DeploymentComplete`: every replica is updated and available, and no old one is left.
pub fn complete(spec: &DeploymentSpec, c: Seen) -> bool {
    let r = spec.replicas;
    c.updated == r && c.replicas == r && c.available == r
}

/// The sync would change something (a template that changed, a ReplicaSet to scale, a
/// condition to write).
pub fn enabled(m: &Context, s: &State, w: u8) -> bool {
    let mut t = s.clone();
    sync(m, &mut t, w).is_some() && t.api != s.api
}

/// One sync of the Deployment (`syncDeployment`).
pub fn sync(m: &Context, s: &mut State, w: u8) -> Option<()> {
    let Workload::Deployment { spec, .. } = m.workload(w) else {
        return None;
    };
    let d = s.api.workloads[w as usize].deployment.clone()?;
    if d.template == 0 {
        // No rollout: the one ReplicaSet follows the Deployment's replicas (`sync.go` `scale`
        // with a single active ReplicaSet, after a `kubectl scale`;
        // docs/sources.md#kubectl-scale). A scale during a rollout is not modelled.
        if d.replica_sets[0] == Some(d.replicas) {
            return None;
        }
        s.api.workloads[w as usize]
            .deployment
            .as_mut()?
            .replica_sets[0] = Some(d.replicas);
        return Some(());
    }
    let mut rs = d.replica_sets;
    let new = d.template as usize;
    let replicas = i64::from(spec.replicas);
    let b = bounds(spec);
    let available_of = |s: &State, r: usize| {
        s.api
            .pods
            .iter()
            .filter(|p| {
                p.workload == w && p.revision as usize == r && is_active(p) && is_available(spec, p)
            })
            .count() as i64
    };
    let sum = |rs: &[Option<u8>; REVISIONS]| rs.iter().flatten().map(|&r| i64::from(r)).sum();
    let mut created = false;
    match spec.strategy.kind {
        StrategyType::RollingUpdate => 'sync: {
            // getNewReplicaSet: a missing new ReplicaSet is created at NewRSNewReplicas.
            if rs[new].is_none() {
                rs[new] = Some(new_rs_new_replicas(replicas, b.max_surge, sum(&rs), 0) as u8);
                created = true;
            }
            // reconcileNewReplicaSet.
            let new_replicas = i64::from(rs[new].unwrap_or(0));
            let target = if new_replicas > replicas {
                replicas
            } else {
                new_rs_new_replicas(replicas, b.max_surge, sum(&rs), new_replicas)
            };
            if target != new_replicas {
                rs[new] = Some(target as u8);
                break 'sync;
            }
            // reconcileOldReplicaSets, the oldest (lowest revision) first.
            let olds: Vec<usize> = (0..REVISIONS)
                .filter(|&r| r != new && rs[r].is_some())
                .collect();
            let old: Vec<OldRs> = olds
                .iter()
                .map(|&r| OldRs {
                    replicas: i64::from(rs[r].unwrap_or(0)),
                    available: available_of(s, r),
                })
                .collect();
            let available_all = (0..REVISIONS).map(|r| available_of(s, r)).sum();
            let new_rs = OldRs {
                replicas: new_replicas,
                available: available_of(s, new),
            };
            let scaled = reconcile_old_replica_sets(
                &old,
                sum(&rs),
                new_rs,
                available_all,
                b.min_available(replicas),
            );
            for (&r, v) in olds.iter().zip(scaled) {
                rs[r] = Some(v as u8);
            }
        }
        StrategyType::Recreate => 'sync: {
            // Scale every active old ReplicaSet to 0, and return if that scaled anything.
            let mut scaled = false;
            for r in (0..REVISIONS).filter(|&r| r != new) {
                if rs[r].is_some_and(|v| v > 0) {
                    rs[r] = Some(0);
                    scaled = true;
                }
            }
            if scaled {
                break 'sync;
            }
            // oldPodsRunning: an old ReplicaSet still counts active pods, or one of its pods
            // is in a phase other than Failed or Succeeded (a terminating pod still Running
            // blocks the rollout).
            let old_running = s.api.pods.iter().any(|p| {
                p.workload == w && p.revision as usize != new && !p.status.phase.is_terminal()
            });
            if old_running {
                break 'sync;
            }
            if rs[new].is_none() {
                // NewRSNewReplicas for Recreate: replicas.
                rs[new] = Some(spec.replicas);
                created = true;
            }
        }
    }
    let dep = s.api.workloads[w as usize].deployment.as_ref()?;
    if dep.replica_sets != rs {
        s.api.workloads[w as usize]
            .deployment
            .as_mut()?
            .replica_sets = rs;
    }
    // cleanupDeployment runs only once the rollout is complete; with two revisions the old
    // ReplicaSet is removed only under revisionHistoryLimit 0, once it has no active pod
    // (`cleanupDeployment` skips one with `status.replicas` ≠ 0).
    let now = counts(spec, s, w, d.template);
    if complete(spec, now) && spec.revision_history_limit == 0 {
        for r in (0..REVISIONS).filter(|&r| r != new) {
            let empty = !s
                .api
                .pods
                .iter()
                .any(|p| p.workload == w && p.revision as usize == r && is_active(p));
            if rs[r] == Some(0) && empty {
                rs[r] = None;
            }
        }
        let dep = s.api.workloads[w as usize].deployment.as_mut()?;
        if dep.replica_sets != rs {
            dep.replica_sets = rs;
        }
    }
    // syncRolloutStatus.
    let deadline = spec.progress_deadline_seconds + 1;
    let next = match d.progressing {
        _ if created => Some(Progressing::Updated {
            left: deadline,
            seen: now,
        }),
        Some(Progressing::NewReplicaSetAvailable) if now.replicas == now.updated => {
            Some(Progressing::NewReplicaSetAvailable)
        }
        Some(p @ (Progressing::Updated { .. } | Progressing::ProgressDeadlineExceeded { .. })) => {
            let (seen, left, timed_out) = match p {
                Progressing::Updated { left, seen } => (seen, left, left == 0),
                Progressing::ProgressDeadlineExceeded { seen } => (seen, 0, true),
                Progressing::NewReplicaSetAvailable => (now, 0, false),
            };
            if complete(spec, now) {
                Some(Progressing::NewReplicaSetAvailable)
            } else if progressed(seen, now) {
                Some(Progressing::Updated {
                    left: deadline,
                    seen: now,
                })
            } else if timed_out {
                Some(Progressing::ProgressDeadlineExceeded { seen: now })
            } else {
                Some(Progressing::Updated { left, seen: now })
            }
        }
        other => other,
    };
    if next != d.progressing {
        s.api.workloads[w as usize].deployment.as_mut()?.progressing = next;
    }
    Some(())
}

/// `DeploymentProgressing`: more updated replicas, fewer old ones, more ready or more
/// available ones than the status last written.
pub fn progressed(before: Seen, now: Seen) -> bool {
    let old = |c: Seen| c.replicas.saturating_sub(c.updated);
    now.updated > before.updated
        || old(now) < old(before)
        || now.ready > before.ready
        || now.available > before.available
}

/// Keeps [`Pod::available_in`] for Deployments and StatefulSets with `minReadySeconds`: None
/// while a pod is not Ready, and from the step its Ready condition turns True (its
/// `lastTransitionTime`), the seconds left until it is available.
pub fn observe(m: &Context, s: &mut State) {
    // Only a workload with `minReadySeconds` keeps availability.
    if !m.min_ready {
        return;
    }
    for (w, wl) in m.scenario.workloads.iter().enumerate() {
        let min_ready_seconds = crate::context::min_ready_seconds(wl);
        if min_ready_seconds == 0 {
            continue;
        }
        let stale: Vec<u16> = s
            .api
            .pods
            .iter()
            .filter(|p| p.workload as usize == w && p.status.ready != p.available_in.is_some())
            .map(|p| p.uid)
            .collect();
        for uid in stale {
            if let Some(p) = s.pod_mut(uid) {
                p.available_in = p.status.ready.then_some(min_ready_seconds + 1);
            }
        }
    }
}
