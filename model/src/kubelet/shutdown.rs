//! The node shutdown manager: graceful node shutdown.
//!
//! When logind announces a shutdown, a kubelet with `shutdownGracePeriod` set (it holds a
//! delay inhibitor lock for that long) reports the node not Ready, refuses new pods, and
//! kills its pods in priority groups, lowest first: the regular pods for
//! `shutdownGracePeriod − shutdownGracePeriodCriticalPods`, then the pods of priority
//! 2000000000 or more for `shutdownGracePeriodCriticalPods`. Each pod gets the smaller of its
//! group's grace and its own `terminationGracePeriodSeconds`, and a status function: phase
//! Failed (unless it Succeeded), reason `Terminated`, DisruptionTarget from 1.26, which the
//! status manager writes only once the pod's containers have stopped. The next
//! group starts when every pod of the group has been killed or the group's grace is over;
//! after the last one the kubelet releases its lock and the machine powers off.
//!
//! Sources: `docs/sources.md#graceful-node-shutdown`.

use super::*;

/// `scheduling.SystemCriticalPriority`: from here on a pod is in the critical group
/// (`migrateConfig`, `groupByPriority`).
const SYSTEM_CRITICAL_PRIORITY: i32 = 2_000_000_000;

/// The shutdown group of the pods of workload `w`.
pub fn group_of(m: &Context, w: u8) -> u8 {
    u8::from(m.workload(w).template().priority >= SYSTEM_CRITICAL_PRIORITY)
}

/// The grace period of group `group` on node `n` (`migrateConfig`).
pub fn group_grace(m: &Context, n: NodeId, group: u8) -> Secs {
    let node = &m.scenario.cluster.nodes[n.index()];
    let critical = node.shutdown_grace_period_critical_pods_seconds;
    if group == 0 {
        node.shutdown_grace_period_seconds - critical
    } else {
        critical
    }
}

/// Whether the pod counts among the kubelet's active pods (`GetActivePods`: its worker has
/// not finished terminating it, and it is not terminal unless it is being terminated).
fn active(s: &State, n: NodeId, rt: &PodRt) -> bool {
    !rt.killed
        && s.kpod(n, rt.uid)
            .is_none_or(|p| !p.status.phase.is_terminal() || rt.terminating)
}

/// The shutdown manager's next step on node `n` is due: a group is to start, or the running
/// group is done (every pod killed) or out of time.
pub fn actions<A: From<Action>>(m: &Context, s: &State, n: NodeId, out: &mut Vec<A>) {
    let node = &s.nodes[n.index()];
    let Some(sd) = node.shutdown else {
        return;
    };
    let due = !sd.killing
        || sd.left == 0
        || node
            .pods
            .iter()
            .filter(|rt| rt.shutdown && group_of(m, rt.workload) == sd.group)
            .all(|rt| rt.killed);
    if due {
        out.push(Action::Shutdown { node: n }.into());
    }
}

/// The pods of group `group` the shutdown manager would kill now on node `n`.
fn group_pods(m: &Context, s: &State, n: NodeId, group: u8) -> Vec<u16> {
    s.nodes[n.index()]
        .pods
        .iter()
        .filter(|rt| group_of(m, rt.workload) == group && active(s, n, rt))
        .map(|rt| rt.uid)
        .collect()
}

/// The group the shutdown manager's next step starts (empty groups are skipped without
/// waiting); None: it releases its inhibitor lock and the machine powers off.
pub fn next_group(m: &Context, s: &State, n: NodeId) -> Option<u8> {
    let sd = s.nodes[n.index()].shutdown?;
    let first = if sd.killing { sd.group + 1 } else { sd.group };
    (first..2).find(|&g| !group_pods(m, s, n, g).is_empty())
}

/// The shutdown manager moves on: it starts the next group that has pods, or, after the
/// last group, releases its inhibitor lock and the machine powers off.
pub(super) fn advance(m: &Context, s: &mut State, n: NodeId) -> Option<()> {
    s.nodes[n.index()].shutdown?;
    let Some(group) = next_group(m, s, n) else {
        crate::runtime::power_off(s, n.index());
        return Some(());
    };
    let grace = group_grace(m, n, group);
    s.nodes[n.index()].shutdown = Some(Shutdown {
        group,
        killing: true,
        left: grace,
    });
    for uid in group_pods(m, s, n, group) {
        kill(m, s, n, uid, grace);
    }
    Some(())
}

/// `killPodFunc` with the group's grace (or the pod's own, if smaller) and the shutdown
/// status function. A pod that is already being terminated keeps its termination; only the
/// status function is added to it.
fn kill(m: &Context, s: &mut State, n: NodeId, uid: u16, group_grace: Secs) -> Option<()> {
    let rt = s.rt_mut(n, uid)?;
    rt.shutdown = true;
    let already = rt.terminating;
    let spec_grace = m
        .workload(rt.workload)
        .template()
        .termination_grace_period_seconds;
    // The status function's phase, reason, message and DisruptionTarget (TerminationByKubelet,
    // from 1.26) reach the API only once the containers have stopped
    // (`status_manager::status_update`).
    if !already {
        terminate(
            m,
            s,
            n,
            uid,
            group_grace.min(spec_grace),
            StopWhy::NodeShutdown,
        )?;
    }
    // 1.23–1.24: "Stop probes for the pod" (`probeManager.RemovePod`, PR #105215) before
    // `killPodFunc`.
    if m.by_release.shutdown_removes_probe_workers {
        prober::remove_probe_workers(s.rt_mut(n, uid)?);
    }
    Some(())
}
