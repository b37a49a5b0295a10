//! SyncTerminatingPod and SyncTerminatedPod: stopping the containers with a grace period,
//! then the sandbox and the volumes.
//!
//! Sources: `docs/sources.md#kubelet-termination-and-grace-period`,
//! `docs/sources.md#kubelet-force-deleted-pods-are-killed-with-1-s`.

use super::*;

/// The end of SyncTerminatingPod and SyncTerminatedPod, once nothing runs: StopPodSandbox
/// (CNI DEL), then the volume unmount. A failing sandbox stop records `FailedKillPod`
/// ("error killing pod: …", kubelet.go SyncTerminatingPod) and is retried after
/// backOffPeriod; the pod stays Terminating. A failing unmount comes after the terminal
/// status is written and records nothing (kubelet.go SyncTerminatedPod `WaitForUnmount`).
pub(super) fn finish_termination(m: &Context, s: &mut State, n: NodeId, uid: u16) -> Option<()> {
    let rt = s.rt_mut(n, uid)?;
    if !rt.killed {
        if m.step_failure(rt.workload, FailingStep::KillPodSandbox)
            .is_some()
        {
            rt.retry_left = Some(10);
            crate::apiserver::kubelet_event(s, n, uid, crate::events::EventKind::FailedKillPod);
            return Some(());
        }
        rt.killed = true;
        rt.retry_left = None;
    }
    if m.step_failure(rt.workload, FailingStep::UnmountVolume)
        .is_none()
    {
        rt.cleaned = true;
    }
    Some(())
}

/// The pod worker terminates a pod (SyncTerminatingPod): no more restarts, liveness
/// and startup probes stop with Success, every running container is stopped with
/// `grace`. With `ordered` (gate `SidecarContainers`), the sidecars wait for their turn
/// after their preStop: they are sent SIGTERM once every regular container and the next
/// sidecar have stopped ([`sidecar_turns`]). Returns the containers it began to stop.
pub fn terminate_for(
    rt: &mut PodRt,
    spec: &PodSpec,
    grace: Secs,
    why: StopWhy,
    ordered: bool,
) -> Vec<crate::events::C> {
    rt.terminating = true;
    // A pod being terminated gets no probe workers (`AddPod` is for pods that run on).
    rt.probes_pending = false;
    let mut stopped = Vec::new();
    for (init, i) in (0..rt.init.len())
        .map(|i| (true, i))
        .chain((0..rt.ctrs.len()).map(|i| (false, i)))
    {
        let cs = container_spec(spec, init, i);
        let c = rt.ctr_mut(init, i);
        c.waiting = None;
        for kind in [ProbeKind::Startup, ProbeKind::Liveness] {
            if let Some(w) = c.probes[kind as usize].as_mut() {
                w.result = ProbeResult::Success;
                w.next_in = None;
                w.answer_in = None;
            }
        }
        if matches!(c.run, Run::Running(_)) {
            if ordered && init && cs.is_sidecar() {
                crate::runtime::begin_ordered_stop(c, cs, grace, why);
            } else {
                begin_stop(c, cs, grace, why);
            }
            stopped.push(crate::events::C { init, ctr: i as u8 });
        }
    }
    // The goroutines run at once: a sidecar whose turn has already come (the main
    // containers were done, or exited on SIGTERM) is sent SIGTERM in the same instant, and
    // so is the one before it if that stopped it.
    while let Some(i) = next_sidecar_turn(spec, rt) {
        crate::runtime::take_turn(&mut rt.init[i], &spec.init_containers[i]);
    }
    stopped
}

/// `newTerminationOrdering` and `waitForTurn` (`kuberuntime_termination_order.go`): the
/// latest sidecar (in spec order) that waits for its turn and whose turn has come. A sidecar
/// waits for every regular container and for the nearest sidecar after it in the spec; a
/// container that is not running counts as terminated (its channel is closed), and nothing
/// restarts while the pod terminates, so sidecars stop in reverse spec order after the main
/// containers. `docs/sources.md#sidecar-containers`.
pub fn next_sidecar_turn(spec: &PodSpec, rt: &PodRt) -> Option<usize> {
    let running = |c: &Ctr| matches!(c.run, Run::Running(_));
    if rt.ctrs.iter().any(running) {
        return None;
    }
    // Whether the nearest later sidecar still runs.
    let mut later_running = false;
    for i in (0..rt.init.len()).rev() {
        if !spec.init_containers[i].is_sidecar() {
            continue;
        }
        let c = &rt.init[i];
        let waits = matches!(&c.run, Run::Running(p)
            if p.stop.is_some_and(|st| st.awaits_turn && st.prestop_left.is_none()));
        if waits && !later_running {
            return Some(i);
        }
        later_running = running(c);
    }
    None
}

/// A kill by the kubelet itself (`why`: the eviction manager, with a hard threshold's grace
/// by release; the node shutdown manager, with its group's) with `grace`; the pod worker
/// stops the containers (`Killing`) and tears the pod down.
pub fn terminate(
    m: &Context,
    s: &mut State,
    n: NodeId,
    uid: u16,
    grace: Secs,
    why: StopWhy,
) -> Option<()> {
    let rt = s.rt_mut(n, uid)?;
    let spec = m.workload(rt.workload).template().clone();
    let idle = !rt.any_running();
    let stopped = terminate_for(rt, &spec, grace, why, m.by_release.sidecar_containers);
    for c in stopped {
        crate::apiserver::kubelet_event(s, n, uid, crate::events::EventKind::Killing(c, why));
    }
    if idle {
        finish_termination(m, s, n, uid)?;
    }
    Some(())
}
