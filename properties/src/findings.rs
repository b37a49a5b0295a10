//! Which violated properties are findings about a user's manifests.
//!
//! The catalogue states what Kubernetes promises and what people assume it promises; a
//! scenario of the catalogue expects each verdict. A user's manifests expect nothing: every
//! property is expected to hold, and a violated one is reported. Most violations are
//! findings — something the manifests can change (a probe, a preStop hook, the grace period,
//! how the program handles SIGTERM, replicas, a budget, an access mode). A few are how
//! Kubernetes itself behaves whatever the manifests say; those are reported as behaviour,
//! with why, and do not make a manifest unsafe. Some of them are so only under a fault: a
//! program that dies at once gets requests until its kubelet and the proxies have seen it,
//! whatever the manifests say ([`kubernetes_behaviour_in`]).

use podcheck_input::spec::{Fault, Scenario};

/// Why a violation of property `name` is Kubernetes' own behaviour, not a finding about the
/// manifests; `None` for a finding.
pub fn kubernetes_behaviour(name: &str) -> Option<&'static str> {
    Some(match name {
        "deployment_at_most_replicas_running" | "rollout_running_within_surge" => {
            "a ReplicaSet does not count terminating pods (controller_utils.go IsPodActive; kubernetes#95498): a replacement may run beside a pod that is still stopping, whatever the manifest says"
        }
        "force_delete_cleans_runtime" => {
            "a force delete removes the object without waiting for the kubelet (strategy.go CheckGracefulDelete): the containers stop later; what that does to the workload shows in its own properties (statefulset_at_most_one, rwo_volume_attached_to_one_node)"
        }
        _ => return None,
    })
}

/// [`kubernetes_behaviour`], and what the faults of `scenario` make unavoidable: after a
/// crash or a power-off the program is gone before anything else knows, so requests reach
/// it until the kubelet (or, for a dead node, the node lifecycle controller) and then the
/// EndpointSlice and each kube-proxy have caught up, and no probe or hook can close that
/// window; while a dependency is down, requests fail whatever the probes check.
pub fn kubernetes_behaviour_in(name: &str, scenario: &Scenario) -> Option<&'static str> {
    if let Some(why) = kubernetes_behaviour(name) {
        return Some(why);
    }
    let dies_at_once = scenario
        .faults
        .iter()
        .any(|f| matches!(f, Fault::Crash { .. } | Fault::PowerOff { .. }));
    let outage = scenario
        .faults
        .iter()
        .any(|f| matches!(f, Fault::DependencyOutage { .. }));
    match name {
        "no_request_finds_no_endpoints" if outage => Some(
            "while the dependency is down, requests fail either way: refused by kube-proxy when readiness checks the dependency and every pod is unready, or answered with the program's own error when it does not; which is better is the application's choice",
        ),
        "no_request_to_stopped_container" if dies_at_once => Some(
            "a program that crashes, or whose node powers off, stops before the kubelet, the EndpointSlice and the kube-proxies know: requests reach it until they have caught up (docs/sources.md#kube-proxy-terminating-endpoints), whatever the manifest says",
        ),
        _ => None,
    }
}
