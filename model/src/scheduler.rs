//! kube-scheduler: one pod without a node at a time. Filter (NodeUnschedulable,
//! NodeResourcesFit over cpu, memory, ephemeral-storage, extended resources and hugepages, TaintToleration, nodeSelector), score (LeastAllocated), bind. When no node fits, the pod gets
//! `PodScheduled=False` / Unschedulable with the upstream message, and it is tried again when
//! the cluster has changed so that it would fit — the effect of the unschedulable queue being
//! flushed on cluster events. Among equally scored nodes the real scheduler
//! picks at random; the model explores each.
//!
//! Sources: `docs/sources.md#scheduler-resource-fit-and-scoring`,
//! `docs/sources.md#scheduler-taints-and-tolerations`, `docs/sources.md#scheduler-nodeselector`.

use crate::context::Context;
use crate::derived::{pod_request, request_against, taints, tolerations};
use crate::k8s::{self, Resources, TaintEffect};
use crate::state::*;

/// The scheduler's decision for one pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Bind the pod to a node, or record it Unschedulable (`node` None).
    Schedule { uid: u16, node: Option<NodeId> },
}

/// Requests of the pods the scheduler's cache places on node `n`: other pods, plus every
/// non-terminal pod object bound there (the API view, not the kubelet's).
pub fn requested_on(m: &Context, s: &State, n: NodeId) -> Resources {
    let mut r = m.scenario.cluster.nodes[n.index()]
        .used_by_other_pods
        .clone();
    for p in &s.api.pods {
        if p.node == Some(n) && !p.status.phase.is_terminal() {
            r.add(&pod_request(m.workload(p.workload).template()));
        }
    }
    r
}

/// For each node: the reasons it was filtered out (empty = feasible).
pub fn filter(m: &Context, s: &State, pod: &Pod) -> Vec<Vec<String>> {
    let spec = m.workload(pod.workload).template();
    let req = pod_request(spec);
    m.scenario
        .cluster
        .nodes
        .iter()
        .enumerate()
        .map(|(n, node)| {
            let mut reasons: Vec<String> = Vec::new();
            if s.api.nodes[n].deleted {
                reasons.push("node(s) were deleted".into());
                return reasons;
            }
            let node_taints = taints(m, s, NodeId::new(n));
            let tolerations = tolerations(spec);
            // NodeUnschedulable, the first filter plugin: a cordoned node, unless the pod
            // tolerates its unschedulable taint.
            if s.api.nodes[n].unschedulable
                && k8s::first_untolerated_taint(
                    &node_taints
                        .iter()
                        .filter(|t| t.key == "node.kubernetes.io/unschedulable")
                        .cloned()
                        .collect::<Vec<_>>(),
                    &tolerations,
                    &[TaintEffect::NoSchedule],
                )
                .is_some()
            {
                reasons.push("node(s) were unschedulable".into());
                return reasons;
            }
            if !k8s::required_node_affinity_matches(
                &spec.node_selector,
                spec.required_node_affinity.as_deref(),
                &node.name,
                &m.node_labels[n],
            ) {
                reasons.push("node(s) didn't match Pod's node affinity/selector".into());
            }
            if let Some(t) = k8s::first_untolerated_taint(
                &node_taints,
                &tolerations,
                &[TaintEffect::NoSchedule, TaintEffect::NoExecute],
            ) {
                reasons.push(format!(
                    "node(s) had untolerated taint {{{}: {}}}",
                    t.key, t.value
                ));
            }
            reasons.extend(k8s::insufficient_resources(
                request_against(&req, &node.allocatable, false),
                node.allocatable.clone(),
                requested_on(m, s, NodeId::new(n)),
            ));
            reasons
        })
        .collect()
}

/// Enabled scheduling decisions.
pub fn actions<A: From<Action>>(m: &Context, s: &State, out: &mut Vec<A>) {
    for pod in &s.api.pods {
        if pod.node.is_some() || pod.deletion.is_some() || pod.status.phase.is_terminal() {
            continue;
        }
        let reasons = filter(m, s, pod);
        let feasible: Vec<NodeId> = (0..reasons.len())
            .map(NodeId::new)
            .filter(|&n| reasons[n.index()].is_empty())
            .collect();
        if feasible.is_empty() {
            let msg = k8s::unschedulable_message(reasons.len(), &reasons);
            if pod.unschedulable.as_deref() != Some(msg.as_str()) {
                out.push(
                    Action::Schedule {
                        uid: pod.uid,
                        node: None,
                    }
                    .into(),
                );
            }
            continue;
        }
        let spec = m.workload(pod.workload).template();
        let req = pod_request(spec);
        let scores: Vec<i64> = feasible
            .iter()
            .map(|&n| {
                k8s::least_allocated_score(
                    req.clone(),
                    m.scenario.cluster.nodes[n.index()].allocatable.clone(),
                    requested_on(m, s, n),
                )
            })
            .collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        for (i, &n) in feasible.iter().enumerate() {
            if scores[i] == best {
                out.push(
                    Action::Schedule {
                        uid: pod.uid,
                        node: Some(n),
                    }
                    .into(),
                );
            }
        }
    }
}

/// Writes the Binding, or the Unschedulable condition.
pub fn schedule(m: &Context, s: &mut State, uid: u16, node: Option<NodeId>) -> Option<()> {
    match node {
        Some(n) => {
            let pod = s.pod_mut(uid)?;
            pod.node = Some(n);
            pod.unschedulable = None;
            crate::apiserver::record_event(
                s,
                None,
                uid,
                crate::events::EventKind::Scheduled { node: n },
                true,
            );
        }
        None => {
            let reasons = filter(m, s, s.pod(uid)?);
            let msg = k8s::unschedulable_message(reasons.len(), &reasons);
            s.pod_mut(uid)?.unschedulable = Some(msg);
            crate::apiserver::record_event(
                s,
                None,
                uid,
                crate::events::EventKind::FailedScheduling,
                true,
            );
        }
    }
    Some(())
}
