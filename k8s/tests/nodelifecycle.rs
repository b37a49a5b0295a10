//! Conformance of `podcheck_k8s::nodelifecycle`: the zone states and tainting rates of
//! `pkg/controller/nodelifecycle/node_lifecycle_controller.go` (`ComputeZoneState`,
//! `setLimiterInZone`, `ReducedQPSFunc`, `HealthyQPSFunc`, `handleDisruption`), `GetZoneKey`,
//! the kubelet's Ready condition (`nodestatus.ReadyCondition`) and kubectl's node STATUS
//! (`printNode`). Rows derived from source name the function they read.

use podcheck_k8s::*;
use std::collections::BTreeMap;

#[test]
fn compute_zone_state_rows() {
    // (ready, not ready, state) — `ComputeZoneState`.
    let rows = [
        (0, 1, ZoneState::FullDisruption), // no Ready node
        (0, 5, ZoneState::FullDisruption),
        (0, 0, ZoneState::Normal), // an empty zone is not disrupted
        (1, 1, ZoneState::Normal), // 50 %, but not more than 2 not Ready
        (1, 2, ZoneState::Normal), // 67 %, but only 2 not Ready
        (2, 3, ZoneState::PartialDisruption), // 3 of 5: 60 % ≥ 55 %
        (3, 3, ZoneState::Normal), // 50 % < 55 %
        (9, 11, ZoneState::PartialDisruption), // exactly 55 %
        (10, 10, ZoneState::Normal),
        (1, 4, ZoneState::PartialDisruption),
    ];
    for (ready, not_ready, want) in rows {
        assert_eq!(
            compute_zone_state(ready, not_ready),
            want,
            "{ready} Ready, {not_ready} not Ready"
        );
    }
}

#[test]
fn tainting_rates_follow_set_limiter_in_zone() {
    // Normal and (not all zones) fully disrupted: HealthyQPSFunc, the normal rate.
    assert_eq!(zone_tainting_rate(ZoneState::Normal, 5, false), 0.1);
    assert_eq!(zone_tainting_rate(ZoneState::FullDisruption, 5, false), 0.1);
    // Partial disruption: ReducedQPSFunc, 0 up to 50 nodes, the secondary rate above.
    assert_eq!(
        zone_tainting_rate(ZoneState::PartialDisruption, 5, false),
        0.0
    );
    assert_eq!(
        zone_tainting_rate(ZoneState::PartialDisruption, 50, false),
        0.0
    );
    assert_eq!(
        zone_tainting_rate(ZoneState::PartialDisruption, 51, false),
        0.01
    );
    // Every zone fully disrupted: master disruption mode stops all tainting.
    for st in [
        ZoneState::Normal,
        ZoneState::PartialDisruption,
        ZoneState::FullDisruption,
    ] {
        assert_eq!(zone_tainting_rate(st, 100, true), 0.0);
    }
}

#[test]
fn zone_key_reads_the_beta_labels_first() {
    let labels = |kv: &[(&str, &str)]| -> BTreeMap<String, String> {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    assert_eq!(zone_key(&labels(&[])), "");
    assert_eq!(
        zone_key(&labels(&[("topology.kubernetes.io/zone", "a")])),
        ":\u{0}:a"
    );
    assert_eq!(
        zone_key(&labels(&[
            ("topology.kubernetes.io/region", "r"),
            ("topology.kubernetes.io/zone", "a"),
        ])),
        "r:\u{0}:a"
    );
    assert_eq!(
        zone_key(&labels(&[
            ("failure-domain.beta.kubernetes.io/zone", "b"),
            ("topology.kubernetes.io/zone", "a"),
        ])),
        ":\u{0}:b"
    );
}

#[test]
fn ready_condition_and_kubectl_status() {
    let shutting = node_ready_condition(false, true);
    assert_eq!(shutting.status, ConditionStatus::False);
    assert_eq!(shutting.reason, "KubeletNotReady");
    assert_eq!(shutting.message, "node is shutting down");
    let unknown = node_ready_condition(true, true);
    assert_eq!(unknown.status, ConditionStatus::Unknown);
    assert_eq!(unknown.reason, "NodeStatusUnknown");
    assert_eq!(unknown.message, "Kubelet stopped posting node status.");
    let ready = node_ready_condition(false, false);
    assert_eq!(
        (ready.status, ready.reason),
        (ConditionStatus::True, "KubeletReady")
    );
    assert_eq!(print_node_status(&ready, false), "Ready");
    assert_eq!(print_node_status(&ready, true), "Ready,SchedulingDisabled");
    assert_eq!(print_node_status(&shutting, false), "NotReady");
    assert_eq!(
        print_node_status(&unknown, true),
        "NotReady,SchedulingDisabled"
    );
}
