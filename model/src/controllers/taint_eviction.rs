//! The taint-eviction controller.
//!
//! Sources: `docs/sources.md#taint-eviction`, `docs/sources.md#api-server-default-tolerations`.

use super::*;

/// Taint eviction deletes a pod: DisruptionTarget=True (DeletionByTaintManager), then a
/// graceful delete.
pub fn evict(m: &Context, s: &mut State, uid: u16) -> Option<()> {
    s.pod_mut(uid)?.disruption_target = true;
    crate::apiserver::record_event(
        s,
        None,
        uid,
        crate::events::EventKind::TaintManagerEviction,
        true,
    );
    apiserver::delete_pod(m, s, uid, None)
}
