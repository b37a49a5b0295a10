//! Which violated properties are findings about a user's manifests.
//!
//! The catalogue states what Kubernetes promises and what people assume it promises; a
//! scenario of the catalogue expects each verdict. A user's manifests expect nothing: every
//! property is expected to hold, and a violated one is reported. Most violations are
//! findings — something the manifests can change (a probe, a preStop hook, the grace period,
//! how the program handles SIGTERM, replicas, a budget, an access mode). A few are how
//! Kubernetes itself behaves whatever the manifests say; those are reported as behaviour,
//! with why, and do not make a manifest unsafe.

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
