//! The prober: startup, readiness and liveness probe workers (`prober/worker.go` `doProbe`).
//!
//! Sources: `docs/sources.md#kubelet-probe-worker`, `docs/sources.md#kubelet-probe-results`,
//! `docs/sources.md#kubelet-probe-failure-kills-the-container`.

use super::*;

pub(super) fn probe_spec(c: &Container, kind: ProbeKind) -> Option<&Probe> {
    match kind {
        ProbeKind::Startup => c.startup_probe.as_ref(),
        ProbeKind::Readiness => c.readiness_probe.as_ref(),
        ProbeKind::Liveness => c.liveness_probe.as_ref(),
    }
}

/// One probe run (`doProbe` in `pkg/kubelet/prober/worker.go`), or the end of one that got no
/// answer. A program that answers does so at once: Success, or Failure while it boots or
/// while the dependency its endpoint checks is down. A deadlocked program never answers: the
/// probe counts as a Failure once its `timeoutSeconds` have passed (`prober.go` `runProbe`,
/// the HTTP client's timeout and the exec probe's `ExecProbeTimeout`, locked on since 1.22;
/// docs/sources.md#kubelet-probe-timeout). The worker's ticker keeps its period meanwhile.
pub fn probe(
    m: &Context,
    s: &mut State,
    n: NodeId,
    uid: u16,
    init: bool,
    i: usize,
    kind: ProbeKind,
) -> Option<()> {
    use crate::events::{EventKind as E, C};
    let pod = s.kpod(n, uid)?;
    // `setTerminationGracePeriod`: the deletion's grace first, then the probe's own (from
    // 1.25), then the pod's.
    let deletion = pod.deletion;
    let spec = spec_of(m, pod).clone();
    let cs = container_spec(&spec, init, i);
    let e = C { init, ctr: i as u8 };
    let p = probe_spec(cs, kind)?.clone();
    let dependency_down = s.env.dependency_down;
    let rt = s.rt_mut(n, uid)?;
    let c = rt.ctr_mut(init, i);
    let started = match (
        cs.startup_probe.is_some(),
        c.probes[ProbeKind::Startup as usize],
    ) {
        (false, _) => true,
        (true, Some(w)) => w.result == ProbeResult::Success,
        (true, None) => false,
    };
    let Run::Running(proc_) = &c.run else {
        return None;
    };
    let answers = proc_.answers() && !(p.checks_dependency && dependency_down);
    let hangs = proc_.deadlocked;
    let w = c.probes[kind as usize].as_mut()?;
    let timed_out = w.answer_in == Some(0);
    if timed_out {
        w.answer_in = None;
    } else {
        w.next_in = Some(p.period_seconds);
    }
    // Startup gates the others; a started container skips the startup probe.
    let skip = match kind {
        ProbeKind::Startup => started,
        _ => !started,
    };
    if skip || w.on_hold {
        return Some(());
    }
    if !timed_out && hangs {
        w.answer_in = Some(p.timeout());
        return Some(());
    }
    let outcome = if answers && !timed_out {
        ProbeResult::Success
    } else {
        ProbeResult::Failure
    };
    // Thresholds count runs of equal outcomes.
    let threshold = match outcome {
        ProbeResult::Success => p.success_threshold,
        _ => p.failure_threshold,
    };
    if w.last == outcome {
        w.run = (w.run + 1).min(threshold);
    } else {
        w.last = outcome;
        w.run = 1;
    }
    let failed = outcome == ProbeResult::Failure;
    if w.run < threshold {
        if failed {
            // prober.go: every failed probe records `Unhealthy`.
            crate::apiserver::kubelet_event(s, n, uid, E::Unhealthy(e, kind));
        }
        return Some(());
    }
    w.result = outcome;
    let mut killed = None;
    if outcome == ProbeResult::Failure && kind != ProbeKind::Readiness {
        // The worker goes on hold and the container is killed (`computePodActions`).
        w.on_hold = true;
        w.run = 0;
        w.next_in = None;
        let why = if kind == ProbeKind::Liveness {
            StopWhy::LivenessProbe
        } else {
            StopWhy::StartupProbe
        };
        let probe_grace = p
            .termination_grace_period_seconds
            .filter(|_| m.by_release.probe_termination_grace_period);
        let grace = deletion
            .or(probe_grace)
            .unwrap_or(spec.termination_grace_period_seconds);
        begin_stop(c, cs, grace.max(1), why);
        killed = Some(why);
    }
    if failed {
        crate::apiserver::kubelet_event(s, n, uid, E::Unhealthy(e, kind));
    }
    if let Some(why) = killed {
        crate::apiserver::kubelet_event(s, n, uid, E::Killing(e, why));
    }
    Some(())
}

/// `probeManager.RemovePod`: the pod's probe workers stop and are gone. Nothing probes the
/// pod any more, and `UpdatePodStatus`, finding neither a result nor a worker, reads each
/// running container started and ready (`rt.probes_pending`, as before a restarted
/// kubelet's `AddPod`). The node shutdown manager does this in 1.23 and 1.24
/// ([`crate::context::ByRelease::shutdown_removes_probe_workers`]).
pub(super) fn remove_probe_workers(rt: &mut PodRt) {
    rt.probes_pending = true;
    for c in rt.init.iter_mut().chain(rt.ctrs.iter_mut()) {
        for w in c.probes.iter_mut().flatten() {
            w.next_in = None;
            w.answer_in = None;
        }
    }
}
