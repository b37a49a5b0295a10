//! The node lifecycle controller (`monitorNodeHealth`, `processTaintBaseEviction`,
//! `handleDisruption`).
//!
//! Sources: `docs/sources.md#node-lifecycle-unknown-after-the-grace-period`,
//! `docs/sources.md#node-lifecycle-pods-not-ready-and-unreachable-taints`,
//! `docs/sources.md#node-lifecycle-full-disruption`,
//! `docs/sources.md#node-lifecycle-zone-disruption`.

use super::*;

/// A step of the node lifecycle controller's `monitorNodeHealth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Ready → Unknown ("Kubelet stopped posting node status."), `MarkPodsNotReady`,
    /// and the zone's disruption handling in the same pass.
    MarkUnknown,
    /// The kubelet posted Ready=False: `MarkPodsNotReady` (on any transition away from
    /// Ready=True, not only to Unknown), the zone's disruption handling, and, unless the
    /// zone's tainting rate is 0, `node.kubernetes.io/not-ready` NoSchedule
    /// (`doNoScheduleTaintingPass`) and NoExecute (`doNoExecuteTaintingPass`) in one step.
    MarkNotReady,
    /// Add `node.kubernetes.io/unreachable` NoSchedule and NoExecute (in place of the
    /// not-ready ones: `SwapNodeControllerTaint`).
    Taint,
    /// Add `node.kubernetes.io/not-ready` NoSchedule and NoExecute to a node whose Ready is
    /// False, in place of the unreachable ones (a swap, at once), or once its zone's
    /// tainting rate is no longer 0 (the node waited in the tainting queue).
    TaintNotReady,
    /// Remove them: the node is Ready again, or every node is down (master disruption
    /// mode).
    Untaint,
}

/// Applies a node lifecycle controller step.
pub fn apply(m: &Context, s: &mut State, node: NodeId, step: Step) -> Option<()> {
    match step {
        Step::MarkUnknown | Step::MarkNotReady => {
            let obj = &mut s.api.nodes[node.index()];
            if step == Step::MarkUnknown {
                obj.unknown = true;
            }
            obj.seen_not_ready = true;
            for p in s.api.pods.iter_mut().filter(|p| p.node == Some(node)) {
                if p.status.ready {
                    p.status.ready = false;
                }
            }
            let disruption = Disruption::of(m, s);
            if disruption.all_fully_disrupted {
                // Entering master disruption mode: `markNodeAsReachable` removes both
                // NoExecute taints of every node.
                for obj in s.api.nodes.iter_mut() {
                    obj.unreachable_taint = false;
                    obj.not_ready_taint = false;
                }
            } else if step == Step::MarkNotReady
                && (!disruption.tainting_stopped(m, node)
                    || s.api.nodes[node.index()].unreachable_taint)
            {
                taint_not_ready(&mut s.api.nodes[node.index()]);
            }
        }
        Step::Taint => {
            let obj = &mut s.api.nodes[node.index()];
            obj.not_ready_taint = false;
            obj.unreachable_taint = true;
            obj.taint_age = 0;
        }
        Step::TaintNotReady => taint_not_ready(&mut s.api.nodes[node.index()]),
        Step::Untaint => {
            let obj = &mut s.api.nodes[node.index()];
            obj.unreachable_taint = false;
            obj.not_ready_taint = false;
            obj.taint_age = 0;
        }
    }
    Some(())
}

fn taint_not_ready(obj: &mut NodeObj) {
    obj.unreachable_taint = false;
    obj.not_ready_taint = true;
    obj.taint_age = 0;
}
