//! The node lifecycle controller's zone states and NoExecute tainting rates
//! (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`: `ComputeZoneState`,
//! `handleDisruption`, `setLimiterInZone`, `HealthyQPSFunc`, `ReducedQPSFunc`), the zone key
//! of a node (`k8s.io/component-helpers/node/topology` `GetZoneKey`) and the Ready condition
//! the kubelet posts (`pkg/kubelet/nodestatus/setters.go` `ReadyCondition`).

use std::collections::BTreeMap;

/// `--unhealthy-zone-threshold` default: the fraction of a zone's nodes that must be not
/// Ready (at least 3 of them) for the zone to be partially disrupted.
pub const UNHEALTHY_ZONE_THRESHOLD: f32 = 0.55;

/// `--large-cluster-size-threshold` default: a zone of this many nodes or fewer gets no
/// secondary eviction rate (`ReducedQPSFunc` returns 0).
pub const LARGE_CLUSTER_SIZE_THRESHOLD: usize = 50;

/// `--node-eviction-rate` default (nodes per second): the tainting rate of a zone in normal
/// state (`HealthyQPSFunc`).
pub const NODE_EVICTION_RATE: f32 = 0.1;

/// `--secondary-node-eviction-rate` default: the tainting rate of a partially disrupted zone
/// larger than [`LARGE_CLUSTER_SIZE_THRESHOLD`].
pub const SECONDARY_NODE_EVICTION_RATE: f32 = 0.01;

/// The label that leaves a node out of the zone states (`labelNodeDisruptionExclusion`).
pub const LABEL_NODE_DISRUPTION_EXCLUSION: &str = "node.kubernetes.io/exclude-disruption";

/// A zone's state (`ZoneState`; `stateInitial` is the state of a zone never computed, which
/// the model does not need).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZoneState {
    Normal,
    PartialDisruption,
    FullDisruption,
}

/// `ComputeZoneState`: full disruption with no Ready node (and at least one not Ready);
/// partial disruption with more than 2 not Ready that are at least
/// [`UNHEALTHY_ZONE_THRESHOLD`] of the zone; normal otherwise. A node is not Ready when its
/// Ready condition is False or Unknown (or missing).
pub fn compute_zone_state(ready: usize, not_ready: usize) -> ZoneState {
    if ready == 0 && not_ready > 0 {
        ZoneState::FullDisruption
    } else if not_ready > 2
        && (not_ready as f32) / ((not_ready + ready) as f32) >= UNHEALTHY_ZONE_THRESHOLD
    {
        ZoneState::PartialDisruption
    } else {
        ZoneState::Normal
    }
}

/// The tainting rate (`setLimiterInZone`) of a zone of `zone_size` nodes in `state`, when
/// not every zone is fully disrupted: normal and fully disrupted zones get
/// `HealthyQPSFunc` (the normal rate), a partially disrupted one `ReducedQPSFunc`: the
/// secondary rate above [`LARGE_CLUSTER_SIZE_THRESHOLD`] nodes, else 0. When every zone is
/// fully disrupted ("master disruption mode", `handleDisruption`) every zone's rate is 0.
pub fn zone_tainting_rate(state: ZoneState, zone_size: usize, all_fully_disrupted: bool) -> f32 {
    if all_fully_disrupted {
        return 0.0;
    }
    match state {
        ZoneState::Normal | ZoneState::FullDisruption => NODE_EVICTION_RATE,
        ZoneState::PartialDisruption => {
            if zone_size > LARGE_CLUSTER_SIZE_THRESHOLD {
                SECONDARY_NODE_EVICTION_RATE
            } else {
                0.0
            }
        }
    }
}

/// `GetZoneKey` (`k8s.io/component-helpers/node/topology`): region and zone from the
/// deprecated `failure-domain.beta.kubernetes.io` labels where the node has them, else from
/// `topology.kubernetes.io/region` and `topology.kubernetes.io/zone` (that order is
/// upstream's); the empty key when the node has neither.
pub fn zone_key(labels: &BTreeMap<String, String>) -> String {
    let get = |beta: &str, ga: &str| {
        labels
            .get(beta)
            .or_else(|| labels.get(ga))
            .cloned()
            .unwrap_or_default()
    };
    let zone = get(
        "failure-domain.beta.kubernetes.io/zone",
        "topology.kubernetes.io/zone",
    );
    let region = get(
        "failure-domain.beta.kubernetes.io/region",
        "topology.kubernetes.io/region",
    );
    if region.is_empty() && zone.is_empty() {
        return String::new();
    }
    format!("{region}:\x00:{zone}")
}

/// A node's Ready condition as the API holds it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeReadyCondition {
    pub status: crate::ConditionStatus,
    pub reason: &'static str,
    pub message: &'static str,
}

/// What the kubelet's node shutdown manager reports while the node shuts down
/// (`nodeshutdown_manager_linux.go` `ShutdownStatus`).
pub const NODE_SHUTTING_DOWN: &str = "node is shutting down";

/// The Ready condition: Unknown as the node lifecycle controller writes it when the kubelet
/// stopped posting (`tryUpdateNodeHealth`); else as the kubelet posts it (`ReadyCondition`):
/// False with reason `KubeletNotReady` and the aggregated errors as message (the shutdown
/// manager's alone: an aggregate of one error reads as that error) while the node shuts
/// down, True with `KubeletReady` otherwise.
pub fn node_ready_condition(unknown: bool, shutting_down: bool) -> NodeReadyCondition {
    use crate::ConditionStatus;
    if unknown {
        NodeReadyCondition {
            status: ConditionStatus::Unknown,
            reason: "NodeStatusUnknown",
            message: "Kubelet stopped posting node status.",
        }
    } else if shutting_down {
        NodeReadyCondition {
            status: ConditionStatus::False,
            reason: "KubeletNotReady",
            message: NODE_SHUTTING_DOWN,
        }
    } else {
        NodeReadyCondition {
            status: ConditionStatus::True,
            reason: "KubeletReady",
            message: "kubelet is posting ready status",
        }
    }
}

/// kubectl's STATUS column of a node (`printNode`): `Ready` or `NotReady` (False and
/// Unknown alike), then `SchedulingDisabled` for a cordoned node.
pub fn print_node_status(ready: &NodeReadyCondition, unschedulable: bool) -> String {
    let mut s = if ready.status == crate::ConditionStatus::True {
        "Ready".to_string()
    } else {
        "NotReady".to_string()
    };
    if unschedulable {
        s.push_str(",SchedulingDisabled");
    }
    s
}
