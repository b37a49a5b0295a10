//! kube-scheduler: one pod without a node at a time. Filter (NodeUnschedulable,
//! NodeResourcesFit over cpu, memory, ephemeral-storage, extended resources and hugepages,
//! TaintToleration, nodeSelector and required node affinity), score as the default profile
//! does ([`scores`]: NodeResourcesFit's LeastAllocated over the non-zero requests,
//! NodeResourcesBalancedAllocation, PodTopologySpread's system default constraints over the
//! pods of the same ReplicaSet, StatefulSet or Service, TaintToleration's PreferNoSchedule
//! count, weighted), bind. When no node fits, the pod gets
//! `PodScheduled=False` / Unschedulable with the upstream message, and it is tried again when
//! the cluster has changed so that it would fit — the effect of the unschedulable queue being
//! flushed on cluster events. Among equally scored nodes the real scheduler
//! picks at random (`selectHost`); the model explores each.
//!
//! Sources: `docs/sources.md#scheduler-resource-fit-and-scoring`,
//! `docs/sources.md#scheduler-default-scoring`,
//! `docs/sources.md#scheduler-taints-and-tolerations`, `docs/sources.md#scheduler-nodeselector`.

use crate::context::Context;
use crate::derived::{non_zero_pod_request, pod_request, request_against, taints, tolerations};
use crate::k8s::{self, Resources, TaintEffect};
use crate::state::*;
use podcheck_input::spec::Workload;

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

/// The node's `NonZeroRequested`, as scoring reads it: [`requested_on`] with each pod's
/// [`non_zero_pod_request`] (a container without a cpu or memory request counts 100m or
/// 200Mi), and for the other pods `scoredAsUsedByOtherPods` where the scenario gives it.
pub fn non_zero_requested_on(m: &Context, s: &State, n: NodeId) -> Resources {
    let node = &m.scenario.cluster.nodes[n.index()];
    let mut r = node
        .scored_as_used_by_other_pods
        .clone()
        .unwrap_or_else(|| node.used_by_other_pods.clone());
    for p in &s.api.pods {
        if p.node == Some(n) && !p.status.phase.is_terminal() {
            r.add(&non_zero_pod_request(m.workload(p.workload).template()));
        }
    }
    r
}

/// Which pods PodTopologySpread's system default constraints count for a pod of workload
/// `w`, revision `revision` (`helper.DefaultSelector`): the labels of the Services selecting
/// the pod, ANDed with the selector of its controller when that is a ReplicaSet or a
/// StatefulSet. The model's ReplicaSet selector carries `pod-template-hash`, so a Deployment's
/// pod counts the pods of its own revision; a StatefulSet's pod those of its StatefulSet (the
/// model knows no other object's pods to match its labels); a bare pod or a Job's pod (a Job
/// is not one of the kinds read) those of the workloads the scenario's Service selects, when
/// it selects this one. None: the selector is empty and the plugin skips the pod.
pub fn spread_peer(m: &Context, w: u8, revision: u8) -> Option<impl Fn(&Pod) -> bool + '_> {
    let selected = |i: u8| {
        m.scenario
            .service
            .as_ref()
            .is_some_and(|svc| svc.selects.iter().any(|n| n == m.workload(i).name()))
    };
    let kind = match m.workload(w) {
        Workload::Deployment { .. } => 0,
        Workload::StatefulSet { .. } => 1,
        Workload::Pod { .. } | Workload::Job { .. } if selected(w) => 2,
        _ => return None,
    };
    Some(move |p: &Pod| match kind {
        0 => p.workload == w && p.revision == revision,
        1 => p.workload == w,
        _ => selected(p.workload),
    })
}

/// The default profile's total score of each node for `pod` (`RunScorePlugins`), None for
/// a node the filters refused (`reasons[n]` not empty). The plugins
/// (`docs/sources.md#scheduler-default-scoring`): NodeResourcesFit's LeastAllocated over the
/// non-zero requests, NodeResourcesBalancedAllocation, PodTopologySpread with the system
/// default constraints, TaintToleration over PreferNoSchedule taints, each normalized and
/// weighted as the release's default profile does ([`crate::context::ByRelease`]).
/// NodeAffinity's preferred terms, InterPodAffinity and ImageLocality read what the model
/// does not have, and add the same to every node.
pub fn scores(m: &Context, s: &State, pod: &Pod, reasons: &[Vec<String>]) -> Vec<Option<i64>> {
    let spec = m.workload(pod.workload).template();
    let form = m.by_release.balanced_allocation;
    let feasible: Vec<usize> = (0..reasons.len())
        .filter(|&n| reasons[n].is_empty())
        .collect();
    let pod_nz = non_zero_pod_request(spec);
    let pod_plain = pod_request(spec);
    let tolerations = tolerations(spec);
    let mut taint_counts: Vec<i64> = feasible
        .iter()
        .map(|&n| {
            k8s::intolerable_prefer_no_schedule_taints(&taints(m, s, NodeId::new(n)), &tolerations)
        })
        .collect();
    k8s::default_normalize_score(k8s::MAX_NODE_SCORE, true, &mut taint_counts);
    let spread: Option<Vec<i64>> = spread_peer(m, pod.workload, pod.revision).map(|peer| {
        let mut counts = vec![0u64; reasons.len()];
        for p in &s.api.pods {
            if let Some(n) = p.node {
                // `countPodsMatchSelector` bypasses terminating pods; the scheduler's cache
                // holds no terminal ones.
                if p.deletion.is_none() && !p.status.phase.is_terminal() && peer(p) {
                    counts[n.index()] += 1;
                }
            }
        }
        let nodes: Vec<k8s::SpreadNode> = (0..reasons.len())
            .filter(|&n| !s.api.nodes[n].deleted)
            .map(|n| k8s::SpreadNode {
                feasible: reasons[n].is_empty(),
                affinity_matches: k8s::required_node_affinity_matches(
                    &spec.node_selector,
                    spec.required_node_affinity.as_deref(),
                    &m.scenario.cluster.nodes[n].name,
                    &m.node_labels[n],
                ),
                zone: m.node_labels[n]
                    .get(k8s::LABEL_TOPOLOGY_ZONE)
                    .map(String::as_str),
                matching_pods: counts[n],
            })
            .collect();
        k8s::default_spread_scores(&nodes)
    });
    let mut out = vec![None; reasons.len()];
    for (i, &n) in feasible.iter().enumerate() {
        let node = NodeId::new(n);
        let allocatable = &m.scenario.cluster.nodes[n].allocatable;
        let balanced = if form.reads_non_zero() {
            k8s::balanced_allocation_score(
                form,
                &pod_nz,
                allocatable,
                &non_zero_requested_on(m, s, node),
            )
        } else {
            k8s::balanced_allocation_score(form, &pod_plain, allocatable, &requested_on(m, s, node))
        };
        let plugin = k8s::PluginScores {
            node_resources_fit: k8s::least_allocated_score(
                pod_nz.clone(),
                allocatable.clone(),
                non_zero_requested_on(m, s, node),
            ),
            balanced_allocation: balanced,
            pod_topology_spread: spread.as_ref().map(|v| v[i]),
            taint_toleration: taint_counts[i],
        };
        out[n] = Some(k8s::weighted_score(m.by_release.score_weights, plugin));
    }
    out
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
        let scores = scores(m, s, pod, &reasons);
        let best = scores.iter().flatten().copied().max().unwrap_or(0);
        for &n in &feasible {
            if scores[n.index()] == Some(best) {
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
