//! The taint-eviction controller.
//!
//! Sources: `docs/sources.md#taint-eviction`, `docs/sources.md#api-server-default-tolerations`.

use super::*;

/// Taint eviction deletes a pod: DisruptionTarget=True (DeletionByTaintManager; from 1.26,
/// gate `PodDisruptionConditions`), then a graceful delete.
pub fn evict(m: &Context, s: &mut State, uid: u16) -> Option<()> {
    if m.by_release.pod_disruption_conditions {
        s.pod_mut(uid)?.disruption_target = true;
    }
    crate::apiserver::record_event(
        s,
        None,
        uid,
        crate::events::EventKind::TaintManagerEviction,
        true,
    );
    apiserver::delete_pod(m, s, uid, None)
}
