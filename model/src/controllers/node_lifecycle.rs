//! The node lifecycle controller (`monitorNodeHealth`).
//!
//! Sources: `docs/sources.md#node-lifecycle-unknown-after-the-grace-period`,
//! `docs/sources.md#node-lifecycle-pods-not-ready-and-unreachable-taints`,
//! `docs/sources.md#node-lifecycle-full-disruption`.

use super::*;

/// A step of the node lifecycle controller's `monitorNodeHealth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Ready → Unknown ("Kubelet stopped posting node status."), `MarkPodsNotReady`,
    /// and the zone's disruption handling in the same pass.
    MarkUnknown,
    /// The kubelet posted Ready=False: `MarkPodsNotReady` (on any transition away from
    /// Ready=True, not only to Unknown), and `node.kubernetes.io/not-ready` NoSchedule
    /// (`doNoScheduleTaintingPass`) and NoExecute (`doNoExecuteTaintingPass`) in one step.
    MarkNotReady,
    /// Add `node.kubernetes.io/unreachable` NoSchedule and NoExecute (in place of the
    /// not-ready ones: `SwapNodeControllerTaint`).
    Taint,
    /// Remove them: the node is Ready again, or every node is down (master disruption
    /// mode).
    Untaint,
}

/// Applies a node lifecycle controller step.
pub fn apply(m: &Context, s: &mut State, node: NodeId, step: Step) -> Option<()> {
    let _ = m;
    match step {
        Step::MarkUnknown => {
            s.api.nodes[node.index()].unknown = true;
            for p in s.api.pods.iter_mut().filter(|p| p.node == Some(node)) {
                p.status.ready = false;
            }
            if full_disruption(s) {
                // `markNodeAsReachable` removes both NoExecute taints.
                for obj in s.api.nodes.iter_mut() {
                    obj.unreachable_taint = false;
                    obj.not_ready_taint = false;
                }
            }
        }
        Step::MarkNotReady => {
            for p in s.api.pods.iter_mut().filter(|p| p.node == Some(node)) {
                if p.status.ready {
                    p.status.ready = false;
                }
            }
            let obj = &mut s.api.nodes[node.index()];
            obj.not_ready_taint = true;
            obj.taint_age = 0;
        }
        Step::Taint => {
            let obj = &mut s.api.nodes[node.index()];
            obj.not_ready_taint = false;
            obj.unreachable_taint = true;
            obj.taint_age = 0;
        }
        Step::Untaint => {
            let obj = &mut s.api.nodes[node.index()];
            obj.unreachable_taint = false;
            obj.not_ready_taint = false;
            obj.taint_age = 0;
        }
    }
    Some(())
}
