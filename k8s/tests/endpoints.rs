//! Conformance of `podcheck_k8s::endpoints` with the EndpointSlice controller's
//! `ShouldPodBeInEndpoints` and `podToEndpoint` (staging/src/k8s.io/endpointslice, utils.go and
//! util/controller_utils.go). A truth table derived from that source, not from an upstream
//! test table.

// Test tables are tuples by design; one row per line.
#![allow(clippy::type_complexity)]

use podcheck_k8s::*;
use proptest::prelude::*;
use Phase::{Failed, Pending, Running, Succeeded};

/// Where the truth table comes from.
const SRC: &str = "staging/src/k8s.io/endpointslice ShouldPodBeInEndpoints(pod, includeTerminating=true) + podToEndpoint";

/// EndpointSlice endpoint conditions: in the slice unless terminal or without an IP;
/// serving = PodReady, terminating = deletionTimestamp set, ready = publishNotReadyAddresses ||
/// (serving && !terminating).
#[test]
#[rustfmt::skip]
fn endpoint_slice_conditions() {
    // (phase, has IP, PodReady, deletion, publishNotReady) → (in slice, ready, serving, terminating)
    let rows: &[(Phase, bool, bool, bool, bool, bool, bool, bool, bool)] = &[
        (Running, true, true,  false, false, true, true,  true,  false),
        (Running, true, false, false, false, true, false, false, false),
        (Running, true, true,  true,  false, true, false, true,  true),
        (Running, true, false, true,  false, true, false, false, true),
        (Running, true, false, true,  true,  true, true,  false, true),
    ];
    for (i, &(ph, ip, pr, del, pub_nr, in_slice, r, s, t)) in rows.iter().enumerate() {
        assert_eq!(should_pod_be_in_endpoints(ph, ip, del, true), in_slice, "{SRC} row {}", i + 1);
        assert_eq!(
            pod_to_endpoint_conditions(pr, del, pub_nr),
            EndpointConditions { ready: r, serving: s, terminating: t },
            "{SRC} row {}", i + 1
        );
    }
    // Pending, no IP → not in the slice.
    assert!(!should_pod_be_in_endpoints(Pending, false, false, true));
    // Succeeded/Failed, IP, any PodReady/deletion/publishNotReady → not in the slice.
    for ph in [Succeeded, Failed] {
        for del in [false, true] {
            assert!(!should_pod_be_in_endpoints(ph, true, del, true));
        }
    }
    // `ShouldPodBeInEndpoints(pod, includeTerminating=false)`, as the legacy Endpoints controller calls it, (includeTerminating=false) drops terminating pods.
    assert!(!should_pod_be_in_endpoints(Running, true, true, false));
}

proptest! {
    /// `podToEndpoint`: without publishNotReadyAddresses, `ready` implies `serving && !terminating`.
    #[test]
    fn endpoint_ready_implies_serving_and_not_terminating(pod_ready in prop::bool::ANY, del in prop::bool::ANY) {
        let c = pod_to_endpoint_conditions(pod_ready, del, false);
        prop_assert!(!c.ready || (c.serving && !c.terminating));
        prop_assert_eq!(c.serving, pod_ready);
        prop_assert_eq!(c.terminating, del);
    }

}
