//! The kubelet's node status: it posts Ready=True once it reaches the API server again, and
//! reports the volumes mounted on the node (`volumesInUse`).
//!
//! Sources: `docs/sources.md#kubelet-node-lease-and-status`,
//! `docs/sources.md#attach-detach-detach-and-force-detach`.

use super::*;

/// The kubelet posts its Ready condition: True (reason `KubeletReady`), or False with reason
/// `KubeletNotReady` and message "node is shutting down" while its node shutdown manager
/// reports so (`nodestatus.ReadyCondition`, whose errors include `ShutdownStatus`; the
/// shutdown manager syncs the node status at once). The condition is
/// [`crate::derived::node_ready_condition`]. A node Ready again ends the node lifecycle
/// controller's not-Ready transition.
pub fn post(s: &mut State, node: NodeId) -> Option<()> {
    let not_ready = s.nodes[node.index()].shutdown.is_some();
    let obj = &mut s.api.nodes[node.index()];
    obj.unknown = false;
    obj.not_ready = not_ready;
    if !not_ready {
        obj.seen_not_ready = false;
    }
    Some(())
}

/// `status.volumesInUse`: every kubelet that reaches the API server reports the volumes
/// mounted on its node (`kubelet_node_status.go` `setNodeVolumesInUseStatus`; the volume
/// manager has a volume reported in use before it mounts it, `MarkVolumesAsReportedInUse`).
/// Here the report follows every step (the real one comes with the next node status update);
/// a cut-off kubelet's last report stands. Writes only what changes.
pub fn report_volumes_in_use(m: &Context, s: &mut State) {
    if m.claims.is_empty() {
        return;
    }
    for n in 0..s.nodes.len() {
        if s.nodes[n].partitioned || s.api.nodes[n].deleted {
            continue;
        }
        let now = mounted_claims(m, s, NodeId::new(n));
        if s.api.nodes[n].volumes_in_use != now {
            s.api.nodes[n].volumes_in_use = now;
        }
    }
}
