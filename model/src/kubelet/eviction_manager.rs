//! The eviction manager: node-pressure eviction under memory pressure.
//!
//! Sources: `docs/sources.md#kubelet-node-pressure-eviction`.

use super::*;

/// Memory a pod's running programs use on the node (MiB), once the node is hogged.
pub(super) fn usage(m: &Context, rt: &PodRt) -> u64 {
    let spec = m.workload(rt.workload).template();
    rt.ctrs
        .iter()
        .zip(&spec.containers)
        .filter(|(c, _)| matches!(c.run, Run::Running(_)))
        .map(|(_, cs)| cs.app.memory_usage_mi)
        .sum()
}

/// `memory.available < 100Mi` (the default hard threshold).
pub fn under_memory_pressure(m: &Context, s: &State, n: NodeId) -> bool {
    let alloc = m.scenario.cluster.nodes[n.index()].allocatable.memory_mi;
    let used: u64 = s.nodes[n.index()].pods.iter().map(|rt| usage(m, rt)).sum();
    alloc.saturating_sub(used) < 100
}

/// The pods the eviction manager would evict first (usage above request first, then
/// lower priority, then larger usage − request: `pkg/kubelet/eviction/helpers.go`); ties are
/// all candidates.
pub(super) fn eviction_candidates(m: &Context, s: &State, n: NodeId) -> Vec<u16> {
    let mut ranked: Vec<((bool, i32, i64), u16)> = s.nodes[n.index()]
        .pods
        .iter()
        // Critical pods are never evicted; static pods are critical
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

/// The eviction manager evicts a pod: hard threshold (a requested grace of 0, which the pod
/// worker turns into 1 s from 1.31 and into the spec's grace before, PR #124063), status
/// Failed / Evicted once the containers have stopped, one pod per 10 s interval.
pub fn evict(m: &Context, s: &mut State, node: NodeId, uid: u16) -> Option<()> {
    s.rt(node, uid)?;
    s.nodes[node.index()].eviction_wait = 10;
    // The status function (phase Failed, reason Evicted, DisruptionTarget from 1.26) reaches
    // the API only once the containers have stopped (`status_manager::status_update`).
    s.rt_mut(node, uid)?.evicted = true;
    crate::apiserver::kubelet_event(s, node, uid, crate::events::EventKind::Evicted);
    let spec_grace = m
        .workload(s.rt(node, uid)?.workload)
        .template()
        .termination_grace_period_seconds;
    terminate(
        m,
        s,
        node,
        uid,
        m.by_release.immediate_kill(spec_grace),
        StopWhy::Evicted,
    )
}

/// Node-pressure eviction: one pod per interval, while the node is under memory pressure.
pub fn actions<A: From<super::Action>>(m: &Context, s: &State, node: NodeId, out: &mut Vec<A>) {
    let rt = &s.nodes[node.index()];
    if rt.memory_hog
        && !rt.kubelet_down
        && rt.eviction_wait == 0
        && under_memory_pressure(m, s, node)
    {
        for uid in eviction_candidates(m, s, node) {
            out.push(super::Action::Evict { node, uid }.into());
        }
    }
}
