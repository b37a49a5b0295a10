//! EndpointSlice membership and endpoint conditions: ports of `ShouldPodBeInEndpoints`
//! (staging/src/k8s.io/endpointslice/util/controller_utils.go) and of the condition part of
//! `podToEndpoint` (staging/src/k8s.io/endpointslice/utils.go).
//!
//! Source: `docs/sources.md#endpointslice-conditions`. Conformance rows: the derived
//! EndpointSlice truth table (`docs/sources.md#conformance-tables`).

use super::types::Phase;

/// `discovery.EndpointConditions` (all three are set, never nil, by `podToEndpoint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EndpointConditions {
    pub ready: bool,
    pub serving: bool,
    pub terminating: bool,
}

/// `ShouldPodBeInEndpoints(pod, includeTerminating)`: terminal pods (Succeeded or
/// Failed) and pods without an IP are excluded; terminating pods only when
/// `include_terminating` is false. The EndpointSlice reconciler passes `true`.
pub fn should_pod_be_in_endpoints(
    phase: Phase,
    has_ip: bool,
    deletion_timestamp: bool,
    include_terminating: bool,
) -> bool {
    if phase.is_terminal() {
        return false;
    }
    if !has_ip {
        return false;
    }
    if !include_terminating && deletion_timestamp {
        return false;
    }
    true
}

/// `podToEndpoint` conditions: `serving = IsPodReady(pod)`,
/// `terminating = DeletionTimestamp != nil`,
/// `ready = service.Spec.PublishNotReadyAddresses || (serving && !terminating)`.
pub fn pod_to_endpoint_conditions(
    pod_ready: bool,
    deletion_timestamp: bool,
    publish_not_ready_addresses: bool,
) -> EndpointConditions {
    let serving = pod_ready;
    let terminating = deletion_timestamp;
    EndpointConditions {
        ready: publish_not_ready_addresses || (serving && !terminating),
        serving,
        terminating,
    }
}
