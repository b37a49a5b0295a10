//! Node health and what follows from it: the kubelet's node status, the node lifecycle
//! controller (NLC), the taint-eviction controller (TE), PodGC, and the kubelet's
//! node-pressure eviction manager.

use crate::apiserver;
use crate::cluster::{Action, Cluster};
use crate::k8s::{
    self, EvictionDecision, Phase, Taint, TaintEffect, Toleration, TolerationOperator,
};
use crate::kubelet;
use crate::spec::PodSpec;
use crate::state::*;

/// A step of the node lifecycle controller's `monitorNodeHealth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NlcStep {
    /// Ready → Unknown ("Kubelet stopped posting node status.", F 99), `MarkPodsNotReady`
    /// (F 100), and the zone's disruption handling in the same pass (F 101).
    MarkUnknown,
    /// Add `node.kubernetes.io/unreachable` NoSchedule and NoExecute (F 100).
    Taint,
    /// Remove them: the node is Ready again, or every node is down (master disruption
    /// mode, F 101).
    Untaint,
}

/// The unreachable taints and the out-of-service taint a node carries now.
pub fn dynamic_taints(obj: &NodeObj) -> Vec<Taint> {
    let mut t = Vec::new();
    if obj.unreachable_taint {
        for effect in [TaintEffect::NoSchedule, TaintEffect::NoExecute] {
            t.push(Taint {
                key: "node.kubernetes.io/unreachable".into(),
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
pub fn taints(m: &Cluster, s: &State, n: u8) -> Vec<Taint> {
    let mut t = m.scenario.cluster.nodes[n as usize].taints.clone();
    t.extend(dynamic_taints(&s.api.nodes[n as usize]));
    t
}

/// The pod's tolerations after the DefaultTolerationSeconds admission plugin: not-ready and
/// unreachable NoExecute for 300 s unless the pod tolerates them already (F 14).
pub fn tolerations(spec: &PodSpec) -> Vec<Toleration> {
    let mut t = spec.tolerations.clone();
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        let covered = t.iter().any(|x| {
            (x.key == key || x.key.is_empty())
                && matches!(x.effect, None | Some(TaintEffect::NoExecute))
        });
        if !covered {
            t.push(Toleration {
                key: key.into(),
                operator: TolerationOperator::Exists,
                value: String::new(),
                effect: Some(TaintEffect::NoExecute),
                toleration_seconds: Some(300),
            });
        }
    }
    t
}

/// No node is Ready: every zone (here: the one zone) is in full disruption (F 101).
pub fn full_disruption(s: &State) -> bool {
    let live: Vec<&NodeObj> = s.api.nodes.iter().filter(|n| !n.deleted).collect();
    !live.is_empty() && live.iter().all(|n| n.unknown)
}

/// Enabled actions of the NLC, TE, PodGC and the kubelets' node-level work.
pub fn actions(m: &Cluster, s: &State, out: &mut Vec<Action>) {
    if !m.node_health {
        return;
    }
    let grace = m.scenario.cluster.node_monitor_grace_period_seconds;
    let full = full_disruption(s);
    for (n, obj) in s.api.nodes.iter().enumerate() {
        let node = n as u8;
        let rt = &s.nodes[n];
        if obj.deleted {
            if obj.gc_left == Some(0) {
                // PodGC: orphans of a deleted node (F 103).
                for p in s.api.pods.iter().filter(|p| p.node == Some(node)) {
                    out.push(Action::PodGc { uid: p.uid });
                }
            }
            continue;
        }
        // The kubelet posts node status when it can reach the API server again.
        if !rt.partitioned && obj.unknown {
            out.push(Action::KubeletNodeStatus { node });
        }
        if !obj.unknown && rt.partitioned && rt.lease_age > grace {
            out.push(Action::NodeLifecycle {
                node,
                step: NlcStep::MarkUnknown,
            });
        }
        if obj.unknown && !obj.unreachable_taint && !full {
            out.push(Action::NodeLifecycle {
                node,
                step: NlcStep::Taint,
            });
        }
        if obj.unreachable_taint && (!obj.unknown || full) {
            out.push(Action::NodeLifecycle {
                node,
                step: NlcStep::Untaint,
            });
        }
        // Taint eviction (F 102): pods whose tolerations of the NoExecute taints ran out.
        let no_exec: Vec<Taint> = taints(m, s, node)
            .into_iter()
            .filter(|t| t.effect == TaintEffect::NoExecute)
            .collect();
        if !no_exec.is_empty() {
            for p in s.api.pods.iter().filter(|p| p.node == Some(node)) {
                if p.deletion.is_some() || p.status.phase.is_terminal() {
                    continue;
                }
                if evict_now(m, p, &no_exec, obj.taint_age) {
                    out.push(Action::TaintEviction { uid: p.uid });
                }
            }
        }
        // PodGC: terminating pods on a not-Ready node with the out-of-service taint (F 103).
        if obj.out_of_service && obj.unknown {
            for p in s.api.pods.iter().filter(|p| p.node == Some(node)) {
                if p.deletion.is_some() {
                    out.push(Action::PodGc { uid: p.uid });
                }
            }
        }
        // Node-pressure eviction (F 111, 112): one pod per interval.
        if rt.memory_hog && rt.eviction_wait == 0 && under_memory_pressure(m, s, node) {
            for uid in eviction_candidates(m, s, node) {
                out.push(Action::Evict { node, uid });
            }
        }
    }
}

/// TE's decision for a pod, on a node whose NoExecute taints are `taint_age` seconds old.
fn evict_now(m: &Cluster, p: &Pod, no_exec: &[Taint], taint_age: Secs) -> bool {
    let tol = tolerations(m.workload(p.workload).template());
    match k8s::taint_eviction_decision(no_exec, &tol, -(taint_age as i64), 0) {
        EvictionDecision::Now => true,
        EvictionDecision::At(t) => t <= 0,
        EvictionDecision::Cancel | EvictionDecision::Never => false,
    }
}

/// Seconds until TE's next eviction on a tainted node, if one is scheduled.
pub fn next_eviction_in(m: &Cluster, s: &State, n: u8) -> Option<Secs> {
    let obj = &s.api.nodes[n as usize];
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

/// Applies an NLC step.
pub fn nlc(m: &Cluster, s: &mut State, node: u8, step: NlcStep) -> Option<()> {
    let _ = m;
    match step {
        NlcStep::MarkUnknown => {
            s.api.nodes[node as usize].unknown = true;
            for p in s.api.pods.iter_mut().filter(|p| p.node == Some(node)) {
                p.status.ready = false;
            }
            if full_disruption(s) {
                for obj in &mut s.api.nodes {
                    obj.unreachable_taint = false;
                }
            }
        }
        NlcStep::Taint => {
            let obj = &mut s.api.nodes[node as usize];
            obj.unreachable_taint = true;
            obj.taint_age = 0;
        }
        NlcStep::Untaint => {
            let obj = &mut s.api.nodes[node as usize];
            obj.unreachable_taint = false;
            obj.taint_age = 0;
        }
    }
    Some(())
}

/// The kubelet posts Ready=True again.
pub fn kubelet_node_status(s: &mut State, node: u8) -> Option<()> {
    s.api.nodes[node as usize].unknown = false;
    Some(())
}

/// TE deletes a pod: DisruptionTarget=True (DeletionByTaintManager), then a graceful delete.
pub fn taint_eviction(m: &Cluster, s: &mut State, uid: u16) -> Option<()> {
    if full_disruption(s) {
        s.env.evicted_in_full_disruption = true;
    }
    s.pod_mut(uid)?.disruption_target = true;
    crate::events::record(
        s,
        None,
        uid,
        crate::events::EventKind::TaintManagerEviction,
        true,
    );
    apiserver::delete_pod(m, s, uid, None)
}

/// PodGC: phase Failed, DisruptionTarget, then a force delete (grace 0).
pub fn pod_gc(s: &mut State, uid: u16) -> Option<()> {
    let p = s.pod_mut(uid)?;
    if !p.status.phase.is_terminal() {
        p.status.phase = Phase::Failed;
        p.disruption_target = true;
    }
    s.api.pods.retain(|p| p.uid != uid);
    Some(())
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
pub fn qos(m: &Cluster, w: u8) -> QosClass {
    qos_of(m.workload(w).template())
}

/// Memory a pod's running programs use on the node (MiB), once the node is hogged.
fn usage(m: &Cluster, rt: &PodRt) -> u64 {
    let spec = m.workload(rt.workload).template();
    rt.ctrs
        .iter()
        .zip(&spec.containers)
        .filter(|(c, _)| matches!(c.run, Run::Running(_)))
        .map(|(_, cs)| cs.app.memory_usage_mi)
        .sum()
}

/// `memory.available < 100Mi` (the default hard threshold, F 20).
pub fn under_memory_pressure(m: &Cluster, s: &State, n: u8) -> bool {
    let alloc = m.scenario.cluster.nodes[n as usize].allocatable.memory_mi;
    let used: u64 = s.nodes[n as usize].pods.iter().map(|rt| usage(m, rt)).sum();
    alloc.saturating_sub(used) < 100
}

/// The pods the eviction manager would evict first (F 111: usage above request first, then
/// lower priority, then larger usage − request); ties are all candidates.
fn eviction_candidates(m: &Cluster, s: &State, n: u8) -> Vec<u16> {
    let mut ranked: Vec<((bool, i32, i64), u16)> = s.nodes[n as usize]
        .pods
        .iter()
        // Critical pods are never evicted (F 112); static pods are critical
        // (pkg/kubelet/types/pod_update.go `IsCriticalPod`).
        .filter(|rt| !rt.evicted && !rt.terminating && !rt.static_pod && usage(m, rt) > 0)
        .map(|rt| {
            let spec = m.workload(rt.workload).template();
            let req: u64 = spec
                .containers
                .iter()
                .map(|c| c.resources.requests.memory_mi)
                .sum();
            let u = usage(m, rt);
            // Sort key: exceeds requests first, then lower priority, then more above request.
            ((u <= req, spec.priority, -(u as i64 - req as i64)), rt.uid)
        })
        .collect();
    ranked.sort();
    let Some(best) = ranked.first().map(|r| r.0) else {
        return Vec::new();
    };
    ranked
        .into_iter()
        .filter(|r| r.0 == best)
        .map(|r| r.1)
        .collect()
}

/// The eviction manager evicts a pod: hard threshold, grace 1 s (F 20, 112), status Failed /
/// Evicted, one pod per 10 s interval.
pub fn evict(m: &Cluster, s: &mut State, node: u8, uid: u16) -> Option<()> {
    let w = s.rt(node, uid)?.workload;
    let my_qos = qos(m, w);
    let lower_still_running = s.nodes[node as usize]
        .pods
        .iter()
        .any(|rt| rt.uid != uid && !rt.evicted && rt.any_running() && qos(m, rt.workload) < my_qos);
    if lower_still_running {
        s.env.evicted_out_of_qos_order = true;
    }
    s.nodes[node as usize].eviction_wait = 10;
    s.rt_mut(node, uid)?.evicted = true;
    if let Some(p) = s.pod_mut(uid) {
        p.disruption_target = true;
    }
    crate::events::kubelet(s, node, uid, crate::events::EventKind::Evicted);
    kubelet::terminate(m, s, node, uid, 1)
}
