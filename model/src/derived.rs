//! Facts derived from the state and the scenario that several components read — a pod's
//! resource requests, a node's taints, a pod's tolerations, which pods are active, a pod's QoS
//! class — computed in one place below the components, so that no component has to ask
//! another.

use crate::context::Context;
use crate::k8s::{self, EvictionDecision, Taint, TaintEffect, Toleration};
use crate::state::*;
use podcheck_input::spec::PodSpec;

pub use podcheck_input::spec::placement::request_against;
/// The requests of a pod (`computePodResourceRequest`: sum of containers, max with each init
/// container), as the reader's placement check counts them.
pub use podcheck_input::spec::placement::{non_zero_pod_request, pod_request};

/// The pod worker is inside SyncPod, blocked in startContainer: a postStart hook runs, or
/// the container it failed for is being killed (`kuberuntime_container.go`; a hung exec
/// hook has no timeout and blocks even the pod's deletion, kubernetes#116032).
pub fn worker_blocked(rt: &PodRt) -> bool {
    rt.init.iter().chain(&rt.ctrs).any(|c| match &c.run {
        Run::Running(p) => {
            p.post_start.is_some() || p.stop.is_some_and(|st| st.why == StopWhy::PostStartHook)
        }
        _ => false,
    })
}

/// The unreachable taints, the out-of-service taint and the unschedulable taint a node
/// carries now. The node lifecycle controller adds `node.kubernetes.io/unschedulable:NoSchedule`
/// to a node with `spec.unschedulable` (`doNoScheduleTaintingPass`, TaintNodesByCondition);
/// the model has it there at once (docs/sources.md#kubectl-drain).
pub fn dynamic_taints(obj: &NodeObj) -> Vec<Taint> {
    let mut t = Vec::new();
    if obj.unschedulable {
        t.push(Taint {
            key: "node.kubernetes.io/unschedulable".into(),
            value: String::new(),
            effect: TaintEffect::NoSchedule,
        });
    }
    if obj.unreachable_taint {
        for effect in [TaintEffect::NoSchedule, TaintEffect::NoExecute] {
            t.push(Taint {
                key: "node.kubernetes.io/unreachable".into(),
                value: String::new(),
                effect,
            });
        }
    }
    if obj.not_ready_taint {
        for effect in [TaintEffect::NoSchedule, TaintEffect::NoExecute] {
            t.push(Taint {
                key: "node.kubernetes.io/not-ready".into(),
                value: String::new(),
                effect,
            });
        }
    }
    if obj.out_of_service {
        t.push(Taint {
            key: "node.kubernetes.io/out-of-service".into(),
            value: "nodeshutdown".into(),
            effect: TaintEffect::NoExecute,
        });
    }
    t
}

/// All taints of a node: the scenario's and the control plane's.
pub fn taints(m: &Context, s: &State, n: NodeId) -> Vec<Taint> {
    let mut t = m.scenario.cluster.nodes[n.index()].taints.clone();
    t.extend(dynamic_taints(&s.api.nodes[n.index()]));
    t
}

/// The pod's tolerations after the DefaultTolerationSeconds admission plugin.
pub fn tolerations(spec: &PodSpec) -> Vec<Toleration> {
    k8s::with_default_tolerations(&spec.tolerations)
}

/// The node's Ready condition is True: the kubelet posts Ready and the node lifecycle
/// controller has not marked it Unknown (`IsNodeReady`).
pub fn node_ready(obj: &NodeObj) -> bool {
    !obj.unknown && !obj.not_ready
}

/// The node's Ready condition as the API holds it, with upstream's reason and message
/// (`docs/sources.md#kubelet-node-lease-and-status`).
pub fn node_ready_condition(obj: &NodeObj) -> k8s::NodeReadyCondition {
    k8s::node_ready_condition(obj.unknown, obj.not_ready)
}

/// The zone states the node lifecycle controller computes at the end of a monitor pass
/// (`monitorNodeHealth` → `handleDisruption`), over the Node objects that exist and are not
/// excluded from disruption checks, grouped by zone (`GetZoneKey`; a scenario whose nodes
/// carry no zone label has one zone, the whole cluster). A node is not Ready when its
/// Ready condition is False or Unknown (`ComputeZoneState`).
/// `docs/sources.md#node-lifecycle-zone-disruption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disruption {
    /// Per zone (as [`Context::node_zone`] numbers them): its state and its size, or None
    /// for a zone with no node counted.
    pub zones: Vec<Option<(k8s::ZoneState, usize)>>,
    /// Every zone is fully disrupted ("master disruption mode"): the controller removes
    /// every node's NoExecute taints and adds none.
    pub all_fully_disrupted: bool,
}

impl Disruption {
    /// The zone states now.
    pub fn of(m: &Context, s: &State) -> Self {
        let zone_count = m
            .node_zone
            .iter()
            .map(|z| *z as usize + 1)
            .max()
            .unwrap_or(0);
        let mut counts = vec![(0usize, 0usize); zone_count];
        for (n, obj) in s.api.nodes.iter().enumerate() {
            if obj.deleted || m.disruption_excluded[n] {
                continue;
            }
            let c = &mut counts[m.node_zone[n] as usize];
            if node_ready(obj) {
                c.0 += 1;
            } else {
                c.1 += 1;
            }
        }
        let zones: Vec<Option<(k8s::ZoneState, usize)>> = counts
            .iter()
            .map(|&(ready, not_ready)| {
                (ready + not_ready > 0)
                    .then(|| (k8s::compute_zone_state(ready, not_ready), ready + not_ready))
            })
            .collect();
        let counted: Vec<_> = zones.iter().flatten().collect();
        let all_fully_disrupted = !counted.is_empty()
            && counted
                .iter()
                .all(|(st, _)| *st == k8s::ZoneState::FullDisruption);
        Disruption {
            zones,
            all_fully_disrupted,
        }
    }

    /// The controller adds no NoExecute taint to `node` now: its zone's tainting rate is 0
    /// (`setLimiterInZone`; a rate-0 limiter never lets the queue through, and the node
    /// waits in it). A zone with no node counted keeps the normal rate.
    pub fn tainting_stopped(&self, m: &Context, node: NodeId) -> bool {
        let zone = self.zones[m.node_zone[node.index()] as usize];
        let rate = match zone {
            Some((st, size)) => k8s::zone_tainting_rate(st, size, self.all_fully_disrupted),
            None => k8s::zone_tainting_rate(k8s::ZoneState::Normal, 0, self.all_fully_disrupted),
        };
        rate <= 0.0
    }
}

/// No node is Ready: every zone is fully disrupted ("master disruption mode"; with no zone
/// labels, the one zone is the cluster).
pub fn full_disruption(m: &Context, s: &State) -> bool {
    Disruption::of(m, s).all_fully_disrupted
}

/// The taint-eviction controller's decision for a pod, on a node whose NoExecute taints are
/// `taint_age` seconds old.
pub fn evict_now(m: &Context, p: &Pod, no_exec: &[Taint], taint_age: Secs) -> bool {
    let tol = tolerations(m.workload(p.workload).template());
    match k8s::taint_eviction_decision(no_exec, &tol, -(taint_age as i64), 0) {
        EvictionDecision::Now => true,
        EvictionDecision::At(t) => t <= 0,
        EvictionDecision::Cancel | EvictionDecision::Never => false,
    }
}

/// Seconds until the taint-eviction controller's next eviction on a tainted node, if one is
/// scheduled.
pub fn next_eviction_in(m: &Context, s: &State, n: NodeId) -> Option<Secs> {
    let obj = &s.api.nodes[n.index()];
    let no_exec: Vec<Taint> = taints(m, s, n)
        .into_iter()
        .filter(|t| t.effect == TaintEffect::NoExecute)
        .collect();
    if no_exec.is_empty() || obj.deleted {
        return None;
    }
    s.api
        .pods
        .iter()
        .filter(|p| p.node == Some(n) && p.deletion.is_none() && !p.status.phase.is_terminal())
        .filter_map(|p| {
            let tol = tolerations(m.workload(p.workload).template());
            match k8s::taint_eviction_decision(&no_exec, &tol, -(obj.taint_age as i64), 0) {
                EvictionDecision::At(t) if t > 0 => Some(t as Secs),
                _ => None,
            }
        })
        .min()
}

fn qos_of(spec: &PodSpec) -> QosClass {
    let cs: Vec<_> = spec
        .containers
        .iter()
        .chain(&spec.init_containers)
        .collect();
    let none = cs.iter().all(|c| {
        let r = &c.resources;
        r.requests.cpu_milli == 0
            && r.requests.memory_mi == 0
            && r.limits.cpu_milli == 0
            && r.limits.memory_mi == 0
    });
    if none {
        return QosClass::BestEffort;
    }
    let guaranteed = cs.iter().all(|c| {
        let r = &c.resources;
        r.limits.cpu_milli > 0
            && r.limits.memory_mi > 0
            && r.requests.cpu_milli == r.limits.cpu_milli
            && r.requests.memory_mi == r.limits.memory_mi
    });
    if guaranteed {
        QosClass::Guaranteed
    } else {
        QosClass::Burstable
    }
}

/// The QoS class of a workload's pods.
pub fn qos(m: &Context, w: u8) -> QosClass {
    qos_of(m.workload(w).template())
}

/// The `spec.replicas` of workload `w` now: a Deployment's as the API holds it (a `kubectl
/// scale` changes it), else the scenario's; None for a workload without replicas.
pub fn desired_replicas(m: &Context, s: &State, w: u8) -> Option<u8> {
    s.api
        .workloads
        .get(w as usize)
        .and_then(|x| x.deployment.as_ref())
        .map(|d| d.replicas)
        .or_else(|| m.workload(w).replicas())
}

/// `IsPodActive`: not Succeeded, not Failed, no deletionTimestamp.
pub fn is_active(p: &Pod) -> bool {
    !p.status.phase.is_terminal() && p.deletion.is_none()
}

/// The workload's active pods.
pub fn active_pods(s: &State, w: u8) -> usize {
    s.api
        .pods
        .iter()
        .filter(|p| p.workload == w && is_active(p))
        .count()
}

/// A pod is stuck: on a node whose kubelet reaches the API
/// server, it shows `ContainerCreating`, or it was deleted and nothing of it runs any more
/// but its object is still there.
pub fn stuck_now(m: &Context, s: &State, p: &Pod) -> bool {
    let Some(n) = p.node else {
        return false;
    };
    if s.nodes[n.index()].partitioned || p.mirror_of.is_some() {
        return false;
    }
    if p.deletion.is_some() {
        return s.rt(n, p.uid).is_none_or(|rt| !rt.any_running());
    }
    crate::kubectl::print(m, p).status == k8s::CONTAINER_CREATING
}

/// The pod's events include a warning of a failing kubelet step (each failing step has its
/// diagnostic, docs/sources.md#kubelet-volumes-sandbox-and-containers).
pub fn has_step_failure_event(pod: &Pod) -> bool {
    pod.events.read().step_failure
}

/// `IsPodTerminated` (`pkg/volume/util/util.go`), as the attach/detach controller applies it
/// to the pod objects it watches: phase Succeeded or Failed, or deleted with no container
/// reported running. A Terminating pod whose status still shows a running container (a
/// kubelet that cannot report) keeps its volumes in the desired state of the world
/// (docs/sources.md#attach-detach-desired-state).
pub fn volumes_released(p: &Pod) -> bool {
    let running = |cs: &[k8s::ContainerStatus]| {
        cs.iter()
            .any(|c| matches!(c.state, k8s::ContainerState::Running))
    };
    p.status.phase.is_terminal()
        || (p.deletion.is_some()
            && !running(&p.status.init_statuses)
            && !running(&p.status.statuses))
}

/// The pods the attach/detach controller's desired state of the world holds for `claim` on
/// `node`: the pod objects bound there that mount the claim and have not terminated
/// (`desired_state_of_world_populator.go`, `util.DetermineVolumeAction`).
pub fn dsw_pods<'a>(
    m: &'a Context,
    s: &'a State,
    claim: u8,
    node: NodeId,
) -> impl Iterator<Item = &'a Pod> + 'a {
    s.api.pods.iter().map(|p| &**p).filter(move |p| {
        p.node == Some(node)
            && m.claims_of(p.workload, p.suffix)
                .iter()
                .any(|(c, _)| *c == claim)
            && !volumes_released(p)
    })
}

/// The desired state of the world has `claim`'s volume on `node` (never a volume without an
/// attacher: the controller skips it).
pub fn volume_desired(m: &Context, s: &State, claim: u8, node: NodeId) -> bool {
    m.claims[claim as usize].attachable && dsw_pods(m, s, claim, node).next().is_some()
}

/// The claim's volume is attached to `node` in the actual state of the world.
pub fn attached_to(s: &State, claim: u8, node: NodeId) -> bool {
    s.api
        .attached
        .iter()
        .any(|a| a.claim == claim && a.node == node)
}

/// The claims whose volumes are mounted on `node` now, as a set of claim bits: a pod's
/// volumes are mounted from the volume manager's mount until its unmount
/// (SyncTerminatedPod). What the kubelet reports as `volumesInUse`.
pub fn mounted_claims(m: &Context, s: &State, node: NodeId) -> u32 {
    s.nodes[node.index()]
        .pods
        .iter()
        .filter(|rt| rt.volumes && !rt.cleaned)
        .flat_map(|rt| m.claims_of(rt.workload, rt.suffix).iter())
        .fold(0, |acc, (c, _)| acc | (1u32 << c))
}

/// The node is healthy for the attach/detach controller: its Node object exists and is Ready
/// (`nodeIsHealthy`, `IsNodeReady`; a deleted node is not found, so not healthy).
pub fn node_healthy(s: &State, node: NodeId) -> bool {
    let obj = &s.api.nodes[node.index()];
    !obj.deleted && !obj.unknown
}

/// Why the reconciler may detach a volume now, if it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DetachWhy {
    /// The node no longer reports the volume in use: a safe detach.
    Unmounted,
    /// Still mounted, but the node is unhealthy and the detach request is older than
    /// `maxWaitForUnmountDuration`: a force detach (`ForceDetachReasonTimeout`).
    Timeout,
    /// Still mounted, but the node has the out-of-service taint: a force detach at once
    /// (`ForceDetachReasonOutOfService`, KEP-2268).
    OutOfService,
}

/// The reconciler's detach decision for an attachment no pod on its node needs
/// (`reconcile`: `MountedByNode && !forceDetach && !hasOutOfServiceTaint` skips it).
pub fn detach_why(m: &Context, s: &State, a: &Attachment) -> Option<DetachWhy> {
    if volume_desired(m, s, a.claim, a.node) {
        return None;
    }
    let obj = &s.api.nodes[a.node.index()];
    let mounted = obj.volumes_in_use & (1 << a.claim) != 0;
    if !mounted {
        return Some(DetachWhy::Unmounted);
    }
    let expired = a.detach_age.unwrap_or(0) > MAX_WAIT_FOR_UNMOUNT;
    let force_on_timeout = !m.scenario.cluster.disable_force_detach_on_timeout;
    if !node_healthy(s, a.node) && expired && force_on_timeout {
        return Some(DetachWhy::Timeout);
    }
    if obj.out_of_service && !obj.deleted {
        return Some(DetachWhy::OutOfService);
    }
    None
}

/// Whether the clock must stop when the detach request of `a` passes
/// `maxWaitForUnmountDuration`: a force detach on timeout would then be the only way out.
pub fn timeout_pending(m: &Context, s: &State, a: &Attachment) -> bool {
    a.detach_age.is_some()
        && !m.scenario.cluster.disable_force_detach_on_timeout
        && !node_healthy(s, a.node)
        && detach_why(m, s, a).is_none()
}
