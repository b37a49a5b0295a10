//! Kubelet admission (`canAdmitPod`, `generalFilter`): resources, node affinity, NoExecute taints.
//!
//! Sources: `docs/sources.md#kubelet-admission`.

use super::*;

/// Why kubelet admission rejects the pod, if it does: resources against what the
/// admitted, unfinished pods on the node request; NoExecute taints.
pub(super) fn admission_failure(
    m: &Context,
    s: &State,
    n: NodeId,
    pod: &Pod,
) -> Option<(String, String)> {
    let node = &m.scenario.cluster.nodes[n.index()];
    let mut requested = node.used_by_other_pods.clone();
    for rt in &s.nodes[n.index()].pods {
        // `filterOutInactivePods` (kubelet_pods.go): a pod whose worker has finished
        // terminating it (`IsPodKnownTerminated`), or whose phase is terminal and whose
        // termination was not requested, does not count.
        if rt.killed {
            continue;
        }
        if let Some(p) = s.kpod(n, rt.uid) {
            if p.status.phase.is_terminal() && !rt.terminating {
                continue;
            }
            requested.add(&pod_request(spec_of(m, p)));
        }
    }
    let spec = spec_of(m, pod);
    let request = request_against(&pod_request(spec), &node.allocatable, true);
    let insufficient =
        k8s::insufficient_resources(request.clone(), node.allocatable.clone(), requested.clone());
    let first: Vec<&str> = insufficient.iter().map(String::as_str).collect();
    if let Some(reason) = k8s::admission_failure_reason(&first) {
        // predicate.go `InsufficientResourceError.Error()`.
        let name = reason.trim_start_matches("OutOf");
        let (req, used, cap) = match name {
            "memory" => (
                request.memory_mi,
                requested.memory_mi,
                node.allocatable.memory_mi,
            ),
            "cpu" => (
                request.cpu_milli,
                requested.cpu_milli,
                node.allocatable.cpu_milli,
            ),
            other => (
                request.scalar(other),
                requested.scalar(other),
                node.allocatable.scalar(other),
            ),
        };
        return Some((
            reason.clone(),
            format!(
                "Node didn't have enough resource: {name}, requested: {req}, used: {used}, capacity: {cap}"
            ),
        ));
    }
    // `generalFilter` runs the scheduler's node-affinity check too: a pod bound
    // by `nodeName` to a node whose labels do not match its nodeSelector is rejected.
    if !k8s::required_node_affinity_matches(
        &spec.node_selector,
        spec.required_node_affinity.as_deref(),
        &node.name,
        &m.node_labels[n.index()],
    ) {
        return Some((
            "NodeAffinity".into(),
            "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"
                .into(),
        ));
    }
    // `generalFilter`: the taint check is skipped for static pods.
    let is_static = s.nodes[n.index()]
        .static_pods
        .iter()
        .any(|p| p.uid == pod.uid);
    if !is_static
        && k8s::first_untolerated_taint(&node.taints, &spec.tolerations, &[TaintEffect::NoExecute])
            .is_some()
    {
        return Some((
            "TaintToleration".into(),
            "Predicate TaintToleration failed: node(s) had untolerated taint".into(),
        ));
    }
    // The node shutdown manager's admit handler (`nodeshutdown_manager_linux.go` `Admit`).
    if s.nodes[n.index()].shutdown.is_some() {
        return Some((
            "NodeShutdown".into(),
            "Pod was rejected as the node is shutting down.".into(),
        ));
    }
    None
}
