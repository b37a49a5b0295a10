//! Whether a workload's pods can be placed on some node of its scenario at all: the
//! scheduler's filters for one pod alone on each node (node affinity and nodeSelector,
//! untolerated NoSchedule and NoExecute taints, resources against what the node has left
//! after other pods), before any other workload's pods are placed.
//!
//! A workload that no node can take never runs: its pods stay Pending whatever happens, so a
//! plan that acts on it checks nothing about it, and a finding about it would be one about
//! the nodes, not about the manifest. The manifest reader warns of it once, and the plans
//! leave it out.

use super::{Container, NodeSpec, PodSpec, Scenario, Workload};
use podcheck_k8s::{self as k8s, Resources, TaintEffect};

/// A pod's request as a node's resource check sees it (`fitsRequest`).
///
/// * `ephemeral-storage` is checked only against a node that lists it: every real kubelet
///   reports its node's ephemeral storage, but the default nodes (and a Node object without
///   it) do not say how much there is, so the model does not guess.
/// * With `kubelet`, the kubelet's admission drops the extended resources the node does not
///   list at all (`removeMissingExtendedResources`, pkg/kubelet/lifecycle/predicate.go: they
///   may be cluster-level resources); the scheduler does not.
pub fn request_against(req: &Resources, allocatable: &Resources, kubelet: bool) -> Resources {
    let mut r = req.clone();
    r.scalar.retain(|name, _| {
        let listed = allocatable.scalar.contains_key(name);
        if name == k8s::EPHEMERAL_STORAGE {
            return listed;
        }
        listed || !(kubelet && k8s::is_extended_resource(name))
    });
    r
}

/// The request of one pod of `spec` (`computePodResourceRequest`).
pub fn pod_request(spec: &PodSpec) -> Resources {
    let init: Vec<Resources> = spec
        .init_containers
        .iter()
        .map(|c| c.resources.requests.clone())
        .collect();
    let regular: Vec<Resources> = spec
        .containers
        .iter()
        .map(|c| c.resources.requests.clone())
        .collect();
    k8s::pod_request(&init, &regular)
}

/// The request of one pod of `spec` as the scheduler's scoring counts it
/// (`NonZeroRequested`: [`k8s::non_zero_pod_request`]).
pub fn non_zero_pod_request(spec: &PodSpec) -> Resources {
    let reqs = |cs: &[Container]| -> Vec<Resources> {
        cs.iter().map(|c| c.resources.requests.clone()).collect()
    };
    k8s::non_zero_pod_request(&reqs(&spec.init_containers), &reqs(&spec.containers))
}

/// Why the scheduler's filters refuse one pod of `spec` on `node` with nothing else of the
/// scenario placed (empty: the node can take it). With `kubelet`, the kubelet's admission
/// instead (`generalFilter`: a pod bound by `nodeName` skips the scheduler): only NoExecute
/// taints, and the extended resources the node does not list are dropped.
pub fn refusals(spec: &PodSpec, node: &NodeSpec, kubelet: bool) -> Vec<String> {
    let mut reasons = Vec::new();
    let labels = k8s::node_labels_with_kubelet_defaults(&node.name, &node.labels);
    if !k8s::required_node_affinity_matches(
        &spec.node_selector,
        spec.required_node_affinity.as_deref(),
        &node.name,
        &labels,
    ) {
        reasons.push("node(s) didn't match Pod's node affinity/selector".to_string());
    }
    let tolerations = k8s::with_default_tolerations(&spec.tolerations);
    if let Some(t) = k8s::first_untolerated_taint(
        &node.taints,
        &tolerations,
        if kubelet {
            &[TaintEffect::NoExecute]
        } else {
            &[TaintEffect::NoSchedule, TaintEffect::NoExecute]
        },
    ) {
        reasons.push(format!(
            "node(s) had untolerated taint {{{}: {}}}",
            t.key, t.value
        ));
    }
    let req = pod_request(spec);
    reasons.extend(k8s::insufficient_resources(
        request_against(&req, &node.allocatable, kubelet),
        node.allocatable.clone(),
        node.used_by_other_pods.clone(),
    ));
    reasons
}

/// Why no node of `s` can take a pod of `w`, as the scheduler would say it
/// (`0/2 nodes are available: 2 Insufficient nvidia.com/gpu.`), or None if some node can. A
/// static pod is placed by its manifest, not by the scheduler: None.
pub fn no_node_can_take(s: &Scenario, w: &Workload) -> Option<String> {
    if matches!(w, Workload::StaticPod { .. }) {
        return None;
    }
    let spec = w.template();
    let nodes = &s.cluster.nodes;
    let reasons: Vec<Vec<String>> = nodes
        .iter()
        .filter(|n| spec.node_name.as_ref().is_none_or(|name| *name == n.name))
        .map(|n| refusals(spec, n, spec.node_name.is_some()))
        .collect();
    if reasons.iter().any(|r| r.is_empty()) {
        return None;
    }
    if reasons.is_empty() {
        let name = spec.node_name.as_deref().unwrap_or_default();
        return Some(format!("its nodeName `{name}` is no node of the cluster"));
    }
    Some(k8s::unschedulable_message(nodes.len(), &reasons))
}
