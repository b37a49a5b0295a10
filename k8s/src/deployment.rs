//! The Deployment controller's arithmetic and the ReplicaSet controller's choice of pods to
//! delete, ported from `pkg/controller/deployment/util/deployment_util.go`,
//! `pkg/controller/deployment/rolling.go`, `recreate.go` and
//! `pkg/controller/controller_utils.go` (`docs/sources.md#deployment-rolling-update`,
//! `docs/sources.md#replicaset-scale-down-order`).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// An `IntOrString` field: `1` or `"25%"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrString {
    Int(i64),
    String(String),
}

impl std::fmt::Display for IntOrString {
    /// As `kubectl` prints an invalid value: a number bare, a string quoted.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IntOrString::Int(i) => write!(f, "{i}"),
            IntOrString::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// The number of a percentage string (`IsValidPercent`: `^[0-9]+%$`), if it is one.
pub fn percent(text: &str) -> Option<i64> {
    let digits = text.strip_suffix('%')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // More digits than an i64 holds is still a valid percent string; it saturates.
    Some(digits.parse().unwrap_or(i64::MAX))
}

/// `intstr.GetScaledValueFromIntOrPercent`: an integer as it is; `N%` of `total`, rounded up
/// (`ceil`) or down (`floor`). A string that is not a percentage is an error (validation has
/// refused it before).
pub fn scaled_value(v: &IntOrString, total: i64, round_up: bool) -> Result<i64, String> {
    match v {
        IntOrString::Int(n) => Ok(*n),
        IntOrString::String(s) => {
            let p =
                percent(s).ok_or_else(|| "invalid type: string is not a percentage".to_string())?;
            let x = p.saturating_mul(total);
            Ok(if round_up { (x + 99) / 100 } else { x / 100 })
        }
    }
}

/// `ResolveFenceposts`: (maxSurge, maxUnavailable) against `desired` replicas: the surge
/// rounds up, unavailability down, and if both come out 0, maxUnavailable is 1 ("surge might
/// not work due to quota").
pub fn resolve_fenceposts(
    max_surge: &IntOrString,
    max_unavailable: &IntOrString,
    desired: i64,
) -> Result<(i64, i64), String> {
    let surge = scaled_value(max_surge, desired, true)?;
    let unavailable = scaled_value(max_unavailable, desired, false)?;
    if surge == 0 && unavailable == 0 {
        return Ok((0, 1));
    }
    Ok((surge, unavailable))
}

/// The resolved bounds of a rollout: `MaxSurge(d)` and `MaxUnavailable(d)`
/// (`deployment_util.go`): both 0 for Recreate; maxUnavailable clamped to `replicas`, and 0
/// when `replicas` is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub max_surge: i64,
    pub max_unavailable: i64,
}

impl Bounds {
    /// `rolling`: RollingUpdate's (maxSurge, maxUnavailable) after defaulting; None for
    /// Recreate.
    pub fn of(rolling: Option<(&IntOrString, &IntOrString)>, replicas: i64) -> Self {
        let Some((s, u)) = rolling else {
            return Bounds {
                max_surge: 0,
                max_unavailable: 0,
            };
        };
        let (surge, unavailable) = resolve_fenceposts(s, u, replicas).unwrap_or((0, 1));
        Bounds {
            max_surge: surge,
            max_unavailable: if replicas == 0 {
                0
            } else {
                unavailable.min(replicas)
            },
        }
    }

    /// `MinAvailable(d)`: `replicas − MaxUnavailable(d)`.
    pub fn min_available(self, replicas: i64) -> i64 {
        replicas - self.max_unavailable
    }
}

/// `NewRSNewReplicas` for RollingUpdate: the new ReplicaSet may grow until the sum of every
/// ReplicaSet's `spec.replicas` reaches `replicas + maxSurge`, and no further than
/// `replicas`.
pub fn new_rs_new_replicas(
    replicas: i64,
    max_surge: i64,
    all_rs_replicas: i64,
    new_rs: i64,
) -> i64 {
    let max_total = replicas + max_surge;
    if all_rs_replicas >= max_total {
        return new_rs;
    }
    let scale_up = (max_total - all_rs_replicas).min(replicas - new_rs);
    new_rs + scale_up
}

/// An old ReplicaSet as `reconcileOldReplicaSets` reads it: `spec.replicas` and
/// `status.availableReplicas`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OldRs {
    pub replicas: i64,
    pub available: i64,
}

/// `reconcileOldReplicaSets` (rolling.go): the new `spec.replicas` of each old ReplicaSet
/// (given oldest first). `all_replicas`: Σ `spec.replicas` of every ReplicaSet;
/// `new_rs`: the new one's `spec.replicas` and `status.availableReplicas`;
/// `available_all`: Σ `status.availableReplicas` of every ReplicaSet.
///
/// First `cleanupUnhealthyReplicas` takes the unavailable replicas of the old ReplicaSets,
/// up to `maxScaledDown = all − minAvailable − newRSUnavailable`; then
/// `scaleDownOldReplicaSetsForRollingUpdate` takes available ones, down to `minAvailable`
/// available pods in all.
pub fn reconcile_old_replica_sets(
    old: &[OldRs],
    all_replicas: i64,
    new_rs: OldRs,
    available_all: i64,
    min_available: i64,
) -> Vec<i64> {
    let mut out: Vec<i64> = old.iter().map(|r| r.replicas).collect();
    let old_count: i64 = out.iter().sum();
    if old_count == 0 {
        return out;
    }
    let new_unavailable = new_rs.replicas - new_rs.available;
    let max_scaled_down = all_replicas - min_available - new_unavailable;
    if max_scaled_down <= 0 {
        return out;
    }
    // cleanupUnhealthyReplicas
    let mut cleaned = 0;
    for (i, r) in old.iter().enumerate() {
        if cleaned >= max_scaled_down {
            break;
        }
        if r.replicas == 0 || r.replicas == r.available {
            continue;
        }
        let down = (max_scaled_down - cleaned).min(r.replicas - r.available);
        out[i] -= down;
        cleaned += down;
    }
    // scaleDownOldReplicaSetsForRollingUpdate: the available count is unchanged by the
    // cleanup, which removed unavailable replicas only.
    if available_all <= min_available {
        return out;
    }
    let mut budget = available_all - min_available;
    for v in out.iter_mut() {
        if budget <= 0 {
            break;
        }
        if *v == 0 {
            continue;
        }
        let down = (*v).min(budget);
        *v -= down;
        budget -= down;
    }
    out
}

/// What `ActivePodsWithRanks.Less` (controller_utils.go) reads of a pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PodRank {
    /// `spec.nodeName` is set.
    pub assigned: bool,
    /// Pending 0, Unknown 1, Running 2 (`podPhaseToOrdinal`).
    pub phase: u8,
    pub ready: bool,
    /// Active pods of the same owner on the same node (`getPodsRankedByRelatedPodsOnSameNode`).
    pub colocated: u32,
    /// The highest restart count of its containers (`maxContainerRestarts`).
    pub restarts: u32,
}

/// `podPhaseToOrdinal`: Pending 0, Unknown 1, Running 2 (others are never active).
pub fn phase_ordinal(phase: crate::Phase) -> u8 {
    use crate::Phase;
    match phase {
        Phase::Pending => 0,
        Phase::Unknown => 1,
        Phase::Running => 2,
        _ => 3,
    }
}

/// `ActivePodsWithRanks.Less`: `Less` first means deleted first. The model has no
/// timestamps, so the comparisons of the Ready time and the creation time (steps 6 and 8)
/// are left out, and no pod has a `pod-deletion-cost` annotation (step 4); pods equal
/// on every other step compare Equal, and the caller breaks the tie.
pub fn delete_first(a: &PodRank, b: &PodRank) -> Ordering {
    // 1. Unassigned < assigned.
    a.assigned
        .cmp(&b.assigned)
        // 2. PodPending < PodUnknown < PodRunning.
        .then(a.phase.cmp(&b.phase))
        // 3. Not ready < ready.
        .then(a.ready.cmp(&b.ready))
        // 5. Doubled up < not doubled up: more co-located pods go first.
        .then(b.colocated.cmp(&a.colocated))
        // 7. Pods with containers with higher restart counts < lower restart counts.
        .then(b.restarts.cmp(&a.restarts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pct(s: &str) -> IntOrString {
        IntOrString::String(s.into())
    }

    #[test]
    fn percentages_round_as_upstream() {
        // 25% of 10: surge ceil(2.5) = 3, unavailable floor(2.5) = 2.
        assert_eq!(resolve_fenceposts(&pct("25%"), &pct("25%"), 10), Ok((3, 2)));
        // 25% of 3: surge 1, unavailable 0.
        assert_eq!(resolve_fenceposts(&pct("25%"), &pct("25%"), 3), Ok((1, 0)));
        // Both round to 0: maxUnavailable becomes 1.
        assert_eq!(
            resolve_fenceposts(&IntOrString::Int(0), &pct("20%"), 3),
            Ok((0, 1))
        );
        assert_eq!(
            scaled_value(&pct("abc"), 3, true),
            Err("invalid type: string is not a percentage".into())
        );
        assert_eq!(scaled_value(&IntOrString::Int(7), 3, true), Ok(7));
    }

    #[test]
    fn recreate_has_no_surge_and_no_unavailability() {
        let b = Bounds::of(None, 3);
        assert_eq!(
            (b.max_surge, b.max_unavailable, b.min_available(3)),
            (0, 0, 3)
        );
        let big = IntOrString::Int(9);
        let b = Bounds::of(Some((&big, &big)), 3);
        assert_eq!(b.max_unavailable, 3, "clamped to replicas");
    }

    #[test]
    fn new_replica_set_grows_within_the_surge() {
        // 3 replicas, surge 1: from 3 old + 0 new, the new one may go to 1.
        assert_eq!(new_rs_new_replicas(3, 1, 3, 0), 1);
        // At the cap: unchanged.
        assert_eq!(new_rs_new_replicas(3, 1, 4, 1), 1);
        // Never past replicas.
        assert_eq!(new_rs_new_replicas(3, 5, 3, 2), 3);
    }

    #[test]
    fn old_replica_sets_shrink_down_to_min_available() {
        let old = [OldRs {
            replicas: 3,
            available: 3,
        }];
        // New RS at 1, not available yet: nothing may go when minAvailable is 3.
        let new = OldRs {
            replicas: 1,
            available: 0,
        };
        assert_eq!(reconcile_old_replica_sets(&old, 4, new, 3, 3), vec![3]);
        // Once it is available, one old pod may go.
        let new = OldRs {
            replicas: 1,
            available: 1,
        };
        assert_eq!(reconcile_old_replica_sets(&old, 4, new, 4, 3), vec![2]);
        // Unavailable old replicas go first, within maxScaledDown.
        let old = [OldRs {
            replicas: 3,
            available: 1,
        }];
        let new = OldRs {
            replicas: 0,
            available: 0,
        };
        assert_eq!(reconcile_old_replica_sets(&old, 3, new, 1, 2), vec![2]);
    }

    #[test]
    fn scale_down_order_follows_active_pods_with_ranks() {
        let running_ready = PodRank {
            assigned: true,
            phase: 2,
            ready: true,
            colocated: 1,
            restarts: 0,
        };
        let unassigned = PodRank {
            assigned: false,
            phase: 0,
            ready: false,
            ..running_ready
        };
        let not_ready = PodRank {
            ready: false,
            ..running_ready
        };
        let doubled = PodRank {
            colocated: 2,
            ..running_ready
        };
        let restarted = PodRank {
            restarts: 3,
            ..running_ready
        };
        for first in [unassigned, not_ready, doubled, restarted] {
            assert_eq!(delete_first(&first, &running_ready), Ordering::Less);
            assert_eq!(delete_first(&running_ready, &first), Ordering::Greater);
        }
        assert_eq!(delete_first(&unassigned, &not_ready), Ordering::Less);
    }
}
