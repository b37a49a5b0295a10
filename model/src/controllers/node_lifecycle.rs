//! The node lifecycle controller (`monitorNodeHealth`).

use super::*;

/// A step of the node lifecycle controller's `monitorNodeHealth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Ready → Unknown ("Kubelet stopped posting node status.", F 99), `MarkPodsNotReady`
    /// (F 100), and the zone's disruption handling in the same pass (F 101).
    MarkUnknown,
    /// Add `node.kubernetes.io/unreachable` NoSchedule and NoExecute (F 100).
    Taint,
    /// Remove them: the node is Ready again, or every node is down (master disruption
    /// mode, F 101).
    Untaint,
}

/// Applies an NLC step.
pub fn apply(m: &Context, s: &mut State, node: u8, step: Step) -> Option<()> {
    let _ = m;
    match step {
        Step::MarkUnknown => {
            s.api.nodes[node as usize].unknown = true;
            for p in s.api.pods.iter_mut().filter(|p| p.node == Some(node)) {
                p.status.ready = false;
            }
            if full_disruption(s) {
                for obj in &mut s.api.nodes {
                    obj.unreachable_taint = false;
                }
            }
        }
        Step::Taint => {
            let obj = &mut s.api.nodes[node as usize];
            obj.unreachable_taint = true;
            obj.taint_age = 0;
        }
        Step::Untaint => {
            let obj = &mut s.api.nodes[node as usize];
            obj.unreachable_taint = false;
            obj.taint_age = 0;
        }
    }
    Some(())
}
