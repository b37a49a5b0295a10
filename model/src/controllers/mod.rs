//! The controllers of kube-controller-manager: ReplicaSet (a Deployment is its ReplicaSet),
//! Job, StatefulSet, EndpointSlice, PodGC, attach/detach, node lifecycle, taint eviction and
//! disruption (PodDisruptionBudgets).
//! Each acts only on the API objects it watches; a controller's action is enabled when its
//! sync would change something.

use crate::apiserver;
use crate::context::Context;
use crate::derived::*;
use crate::k8s::{self, Phase, Taint, TaintEffect};
use crate::state::*;
use podcheck_input::spec::{FailingStep, Workload};

pub mod attachdetach;
pub mod deployment;
pub mod disruption;
pub mod endpointslice;
pub mod job;
pub mod node_lifecycle;
pub mod podgc;
pub mod replicaset;
pub mod statefulset;
pub mod taint_eviction;

pub use endpointslice::desired_endpoints;
pub use podgc::terminated_gc_victim;

/// A step of one of the controllers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// ReplicaSet controller: create the missing pods of the ReplicaSet of a Deployment's
    /// template revision, or delete its surplus: `pick` says which of the pods tied at the
    /// cut of its ranking go, where that is a choice (`replicaset::picks`), else 0.
    ReplicaSetSync {
        workload: u8,
        revision: u8,
        pick: u32,
    },
    /// Job controller: count, decide, create or delete.
    JobSync { workload: u8 },
    /// StatefulSet controller: create the missing identities, delete finished ones.
    StatefulSetSync { workload: u8 },
    /// EndpointSlice controller: write the slice.
    EndpointSliceSync,
    /// Attach/detach controller: attach the claim's volume to the node (it fails under the
    /// `attachVolume` step failure).
    AttachVolume { claim: u8, node: NodeId },
    /// Attach/detach controller: report the Multi-Attach error to the pods on the node that
    /// need a volume attached to another node.
    MultiAttach { claim: u8, node: NodeId },
    /// Attach/detach controller: detach the claim's volume from the node.
    DetachVolume { claim: u8, node: NodeId },
    /// Node lifecycle controller: one step of `monitorNodeHealth`.
    NodeLifecycle {
        node: NodeId,
        step: node_lifecycle::Step,
    },
    /// Taint eviction deletes a pod whose toleration ran out.
    TaintEviction { uid: u16 },
    /// PodGC force-deletes a pod.
    PodGc { uid: u16 },
    /// Disruption controller: write the budget's status.
    DisruptionSync { pdb: u8 },
    /// Deployment controller: create or scale the ReplicaSets of a Deployment, and write its
    /// `Progressing` condition.
    DeploymentSync { workload: u8 },
}

/// Which controller takes a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Controller {
    ReplicaSet,
    Job,
    StatefulSet,
    EndpointSlice,
    NodeLifecycle,
    TaintEviction,
    PodGc,
    AttachDetach,
    Disruption,
    Deployment,
}

impl Action {
    /// The controller that takes this step.
    pub fn controller(&self) -> Controller {
        match self {
            Action::ReplicaSetSync { .. } => Controller::ReplicaSet,
            Action::JobSync { .. } => Controller::Job,
            Action::StatefulSetSync { .. } => Controller::StatefulSet,
            Action::EndpointSliceSync => Controller::EndpointSlice,
            Action::AttachVolume { .. }
            | Action::MultiAttach { .. }
            | Action::DetachVolume { .. } => Controller::AttachDetach,
            Action::NodeLifecycle { .. } => Controller::NodeLifecycle,
            Action::TaintEviction { .. } => Controller::TaintEviction,
            Action::PodGc { .. } => Controller::PodGc,
            Action::DisruptionSync { .. } => Controller::Disruption,
            Action::DeploymentSync { .. } => Controller::Deployment,
        }
    }

    /// The pod the step is about, if it is about one pod.
    pub fn pod(&self) -> Option<u16> {
        match *self {
            Action::TaintEviction { uid } | Action::PodGc { uid } => Some(uid),
            _ => None,
        }
    }
}

/// Applies a controller step; None if it is not enabled.
pub fn apply(m: &Context, s: &mut State, a: Action) -> Option<()> {
    match a {
        Action::ReplicaSetSync {
            workload,
            revision,
            pick,
        } => replicaset::sync(m, s, workload, revision, pick),
        Action::DeploymentSync { workload } => deployment::sync(m, s, workload),
        Action::JobSync { workload } => job::sync(m, s, workload),
        Action::StatefulSetSync { workload } => statefulset::sync(m, s, workload),
        Action::EndpointSliceSync => endpointslice::sync(m, s),
        Action::AttachVolume { claim, node } => attachdetach::attach_volume(m, s, claim, node),
        Action::MultiAttach { claim, node } => attachdetach::multi_attach(m, s, claim, node),
        Action::DetachVolume { claim, node } => attachdetach::detach_volume(m, s, claim, node),
        Action::NodeLifecycle { node, step } => node_lifecycle::apply(m, s, node, step),
        Action::TaintEviction { uid } => taint_eviction::evict(m, s, uid),
        Action::PodGc { uid } => podgc::collect(m, s, uid),
        Action::DisruptionSync { pdb } => disruption::sync(m, s, pdb),
    }
}

/// Enabled syncs of the workload controllers, the EndpointSlice controller and the
/// attach/detach controller.
pub fn actions<A: From<Action>>(m: &Context, s: &State, out: &mut Vec<A>) {
    for (w, workload) in m.scenario.workloads.iter().enumerate() {
        let w = w as u8;
        match workload {
            Workload::Deployment { .. } => {
                for revision in 0..REVISIONS as u8 {
                    if replicaset::enabled(s, w, revision) {
                        for pick in replicaset::picks(s, w, revision) {
                            out.push(
                                Action::ReplicaSetSync {
                                    workload: w,
                                    revision,
                                    pick,
                                }
                                .into(),
                            );
                        }
                    }
                }
                if deployment::enabled(m, s, w) {
                    out.push(Action::DeploymentSync { workload: w }.into());
                }
            }
            Workload::Job { .. } => {
                let action = Action::JobSync { workload: w };
                if changes(m, s, action) {
                    out.push(action.into());
                }
            }
            Workload::StatefulSet { .. } => {
                let action = Action::StatefulSetSync { workload: w };
                if changes(m, s, action) {
                    out.push(action.into());
                }
            }
            Workload::Pod { .. } | Workload::StaticPod { .. } => {}
        }
    }
    if desired_endpoints(m, s).is_some_and(|d| d != *s.api.endpoints) {
        out.push(Action::EndpointSliceSync.into());
    }
    attachdetach::actions(m, s, out);
    disruption::actions(m, s, out);
}

/// PodGC's orphans of a deleted node, once its quarantine has passed.
pub fn deleted_node_actions<A: From<Action>>(s: &State, node: NodeId, out: &mut Vec<A>) {
    if s.api.nodes[node.index()].gc_left == Some(0) {
        for p in s.api.pods.iter().filter(|p| p.node == Some(node)) {
            out.push(Action::PodGc { uid: p.uid }.into());
        }
    }
}

/// The node lifecycle controller's one step that reads the node's lease: a node that still
/// exists, whose kubelet has not renewed it for longer than the grace period, is marked
/// Unknown (`monitorNodeHealth`). It goes before [`node_api_actions`].
pub fn node_lease_actions<A: From<Action>>(m: &Context, s: &State, node: NodeId, out: &mut Vec<A>) {
    let obj = &s.api.nodes[node.index()];
    let rt = &s.nodes[node.index()];
    if !obj.unknown && rt.partitioned && rt.lease_age > m.node_monitor_grace {
        out.push(
            Action::NodeLifecycle {
                node,
                step: node_lifecycle::Step::MarkUnknown,
            }
            .into(),
        );
    }
}

/// The rest of the node lifecycle controller, taint eviction and PodGC's out-of-service
/// collection for one node that still exists (`disruption`: the zone states now). It reads
/// the API objects alone (the Node objects' conditions, taints and their age, the pods bound
/// to the node), so the search keeps it by the API's content hash.
pub fn node_api_actions<A: From<Action>>(
    m: &Context,
    s: &State,
    node: NodeId,
    disruption: &Disruption,
    out: &mut Vec<A>,
) {
    let obj = &s.api.nodes[node.index()];
    let master = disruption.all_fully_disrupted;
    let stopped = disruption.tainting_stopped(m, node);
    let step = |step| Action::NodeLifecycle { node, step }.into();
    // Ready=False from the kubelet (a node shutting down): `MarkPodsNotReady` on the
    // transition, and the not-ready taints unless the zone's tainting rate is 0.
    if obj.not_ready && !obj.unknown && !obj.seen_not_ready {
        out.push(step(node_lifecycle::Step::MarkNotReady));
    }
    // `processTaintBaseEviction`: a node whose Ready is Unknown (False) gets the unreachable
    // (not-ready) taint through the rate-limited queue, which a rate of 0 holds back; a node
    // with the opposite taint has it swapped at once.
    if obj.unknown && !obj.unreachable_taint && (!stopped || (obj.not_ready_taint && !master)) {
        out.push(step(node_lifecycle::Step::Taint));
    }
    if obj.not_ready
        && !obj.unknown
        && obj.seen_not_ready
        && !obj.not_ready_taint
        && (!stopped || (obj.unreachable_taint && !master))
    {
        out.push(step(node_lifecycle::Step::TaintNotReady));
    }
    // Ready again (`markNodeAsReachable`), or master disruption mode.
    if (obj.unreachable_taint || obj.not_ready_taint) && (node_ready(obj) || master) {
        out.push(step(node_lifecycle::Step::Untaint));
    }
    // Taint eviction: pods whose tolerations of the NoExecute taints ran out.
    let no_exec: Vec<Taint> = taints(m, s, node)
        .into_iter()
        .filter(|t| t.effect == TaintEffect::NoExecute)
        .collect();
    if !no_exec.is_empty() {
        for p in s.api.pods.iter().filter(|p| p.node == Some(node)) {
            if p.deletion.is_some() || p.status.phase.is_terminal() {
                continue;
            }
            if evict_now(m, p, &no_exec, obj.taint_age) {
                out.push(Action::TaintEviction { uid: p.uid }.into());
            }
        }
    }
    // PodGC `gcTerminating`: terminating pods on a node that is not Ready (Unknown or
    // False) and has the out-of-service taint (from 1.26).
    if obj.out_of_service && !node_ready(obj) && m.by_release.pod_gc_out_of_service {
        for p in s.api.pods.iter().filter(|p| p.node == Some(node)) {
            if p.deletion.is_some() {
                out.push(Action::PodGc { uid: p.uid }.into());
            }
        }
    }
}

/// Whether a Job or StatefulSet sync would change anything.
fn changes(m: &Context, s: &State, a: Action) -> bool {
    let mut t = s.clone();
    let r = match a {
        Action::JobSync { workload } => job::sync(m, &mut t, workload),
        Action::StatefulSetSync { workload } => statefulset::sync(m, &mut t, workload),
        _ => None,
    };
    r.is_some() && t != *s
}
