//! The ReplicaSet controller (a Deployment is its ReplicaSet here).
//!
//! Sources: `docs/sources.md#replicaset-active-pods`.

use super::*;

/// ReplicaSet: create pods until the active ones equal `replicas`. A terminating pod
/// is not active, so its replacement is created at once.
pub fn sync(m: &Context, s: &mut State, w: u8) -> Option<()> {
    let Workload::Deployment { spec, .. } = m.workload(w) else {
        return None;
    };
    for _ in active_pods(s, w)..spec.replicas as usize {
        apiserver::create_pod(m, s, w);
    }
    Some(())
}
