//! The pod worker: SyncPod (volumes, sandbox, image pulls, back-off, container starts, postStart
//! hooks), the static pods and their mirror pods.
//!
//! Sources: `docs/sources.md#kubelet-pod-actions`,
//! `docs/sources.md#kubelet-volumes-sandbox-and-containers`,
//! `docs/sources.md#kubelet-crash-back-off`, `docs/sources.md#kubelet-image-pull-back-off`,
//! `docs/sources.md#kubelet-poststart-hook`, `docs/sources.md#kubelet-static-and-mirror-pods`.

use super::*;

/// One step of a pod worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Admission passed: the pod gets a runtime record on the node.
    Admit,
    /// Admission failed: the pod is Failed with the admission reason.
    Reject,
    /// Attach and mount the pod's volumes (kubelet SyncPod `WaitForAttachAndMount`).
    MountVolumes,
    /// CRI RunPodSandbox and CNI ADD: sandbox and pod IP (`kuberuntime_manager.go` SyncPod).
    CreateSandbox,
    /// Pull the image of a container.
    PullImage { init: bool, ctr: u8 },
    /// The image pull is in back-off: `ImagePullBackOff`.
    ImagePullBackOff { init: bool, ctr: u8 },
    /// The image is not on the node and `imagePullPolicy` is Never: `ErrImageNeverPull`.
    NeverPull { init: bool, ctr: u8 },
    /// The container is in crash back-off: `CrashLoopBackOff`.
    CrashLoopBackOff { init: bool, ctr: u8 },
    /// CRI CreateContainer + StartContainer.
    Start { init: bool, ctr: u8 },
    /// SyncTerminatingPod: preStop, SIGTERM, SIGKILL after grace for every running container.
    KillPod,
    /// SyncTerminatedPod: tear down sandbox and network (CNI DEL, unmount).
    Cleanup,
    /// The pod object is gone from the API (a force delete): `HandlePodRemoves` has the
    /// pod worker kill what still runs, with the grace of the last version the kubelet saw
    /// (`deletionGracePeriodSeconds` 0, which `calculateEffectiveGracePeriod` turns into 1 s
    /// from 1.31 and into the spec's grace before: [`crate::context::ByRelease`]; then at
    /// least 2 s per container, `killContainer`).
    KillOrphan,
    /// The pod object is gone and nothing of it runs: drop what is left on the node.
    Forget,
    /// A sidecar's turn to stop has come in a pod kill: every regular container and the next
    /// sidecar have stopped (`waitForTurn` returns), so StopContainer sends SIGTERM with the
    /// grace left, at least 2 s (`kuberuntime_container.go` `killContainer`).
    SidecarTurn { ctr: u8 },
    /// computePodActions found the running regular container's spec hash changed (its image
    /// was set in place): killContainer with the pod's grace (preStop, SIGTERM, SIGKILL;
    /// `Killing` "Container X definition changed, will be restarted"), and start it again
    /// once it has stopped, whatever the restart policy.
    RestartChanged { ctr: u8 },
    /// The postStart hook of a container returned (success, or failure: the container is
    /// killed, `kuberuntime_container.go` startContainer).
    PostStartDone { ctr: u8 },
    /// A restarted kubelet's first SyncPod of the pod reaches `probeManager.AddPod`: new
    /// probe workers (readiness Failure, liveness Success, startup Unknown).
    AddProbeWorkers,
    /// `tryReconcileMirrorPods`: create the mirror pod of a static pod.
    CreateMirror,
    /// `tryReconcileMirrorPods`: the mirror pod has a deletionTimestamp; delete it (grace 0,
    /// UID precondition) so that it can be created again.
    DeleteMirror,
}

/// Whether the pod's teardown fails for good: StopPodSandbox or the volume unmount.
pub(super) fn cleanup_fails(m: &Context, rt: &PodRt) -> bool {
    m.step_failure(rt.workload, FailingStep::KillPodSandbox)
        .is_some()
        || m.step_failure(rt.workload, FailingStep::UnmountVolume)
            .is_some()
}

pub(super) fn runtime_view(c: &Ctr) -> Option<RuntimeContainerView> {
    let state = match c.run {
        Run::None => return None,
        Run::Running(_) => RuntimeState::Running,
        Run::Exited(e) => RuntimeState::Exited { exit_code: e.code },
    };
    // The prober kills a container on a liveness or startup failure itself, so the pod
    // worker never sees `liveness_failed` or `startup_failed`; a startup probe that has not
    // succeeded holds a sidecar's successors back.
    let startup_pending = matches!(
        c.probes[ProbeKind::Startup as usize],
        Some(w) if w.result != ProbeResult::Success
    );
    Some(RuntimeContainerView {
        state,
        liveness_failed: false,
        startup_failed: false,
        startup_pending,
        spec_changed: false,
    })
}

/// The pod worker's next step for a pod it holds, if any.
pub(super) fn next_step(
    m: &Context,
    s: &State,
    node: NodeId,
    pod: &Pod,
    rt: &PodRt,
    online: bool,
) -> Option<Step> {
    for (i, c) in rt.ctrs.iter().enumerate() {
        if let Run::Running(p) = &c.run {
            if p.post_start.is_some_and(|h| h.left == Some(0)) {
                return Some(Step::PostStartDone { ctr: i as u8 });
            }
        }
    }
    // Inside the SyncPod that killed a container for a spec change: killContainer returns
    // once the container has stopped, and the same SyncPod pulls and starts the new instance
    // (ContainersToStart) before the pod worker does anything else. A pod that is being
    // terminated meanwhile (eviction, node shutdown) starts nothing.
    if let Some(i) = rt
        .ctrs
        .iter()
        .position(|c| c.respawn)
        .filter(|_| !rt.terminating)
    {
        return match rt.ctrs[i].run {
            Run::Exited(_) => start_step(m, s, node, spec_of(m, pod), rt, false, i),
            _ => None,
        };
    }
    if worker_blocked(rt) {
        return None;
    }
    if online && pod.deletion.is_some() && !rt.terminating {
        return Some(Step::KillPod);
    }
    if rt.probes_pending && !rt.terminating {
        return Some(Step::AddProbeWorkers);
    }
    let waiting_retry = rt.retry_left.is_some_and(|t| t > 0);
    if rt.terminating {
        if let Some(i) = next_sidecar_turn(spec_of(m, pod), rt) {
            return Some(Step::SidecarTurn { ctr: i as u8 });
        }
        if rt.any_running() || rt.cleaned {
            return None;
        }
        if rt.killed {
            // SyncTerminatedPod: a failing unmount is retried silently (kubelet.go returns the
            // `WaitForUnmount` error without an event); nothing the model shows changes.
            let unmount_fails = m
                .step_failure(rt.workload, FailingStep::UnmountVolume)
                .is_some();
            return (!unmount_fails).then_some(Step::Cleanup);
        }
        return (!waiting_retry).then_some(Step::Cleanup);
    }
    let spec = spec_of(m, pod);
    // SyncPod (kubelet.go) generates the pod's status first, and a pod whose phase is
    // terminal there (from its containers, or already terminal in the API: a terminal phase
    // is never left) returns `isTerminal` before computePodActions; the pod worker then
    // moves it to terminating (pod_workers.go `completeSync`) and no container of it starts
    // again. Without this, a Job pod whose main container and sidecar exit at the same
    // instant would have its sidecar started again: computePodActions sees no regular
    // container Created or Running and redoes the init sequence.
    // docs/sources.md#kubelet-terminal-pods-start-no-container.
    // The API's phase is the kubelet's to read only while it reaches the API server (a
    // partitioned kubelet does not see what PodGC writes).
    let maybe_terminal = (online && pod.status.phase.is_terminal())
        || (spec.restart_policy != k8s::RestartPolicy::Always
            && rt.ctrs.iter().all(|c| matches!(c.run, Run::Exited(_))));
    if maybe_terminal
        && super::computed_status(m, s, node, pod.uid).is_some_and(|e| e.status.phase.is_terminal())
    {
        return Some(Step::KillPod);
    }
    let claims = m.claims_of(pod.workload, pod.suffix);
    if (!spec.volumes.is_empty() || !claims.is_empty()) && !rt.volumes {
        // The volume manager mounts a claim's volume once the attach/detach controller has
        // attached it to this node (`volumesAttached` in the node status,
        // `VerifyControllerAttachedVolume`). Until then WaitForAttachAndMount times out
        // silently (`wait.Interrupted`, kubelet.go SyncPod) and the pod worker tries again.
        // A volume without an attacher counts as attached at once
        // (`GenerateVerifyControllerAttachedVolumeFunc`).
        let mut attachable = claims
            .iter()
            .filter(|(c, _)| m.claims[*c as usize].attachable)
            .peekable();
        if attachable.peek().is_some()
            && (!online || !attachable.all(|(c, _)| attached_to(s, *c, node)))
        {
            return None;
        }
        return match m.step_failure(pod.workload, FailingStep::MountVolume) {
            Some(f) if f.hangs => None,
            Some(_) if rt.volume_retry.is_some_and(|r| r.left > 0) => None,
            _ => Some(Step::MountVolumes),
        };
    }
    let (init_views, _) = &m.views[pod.workload as usize];
    let sandbox = rt.sandbox.then_some(SandboxView {
        ready: true,
        has_ip: true,
        attempt: 0,
    });
    let init_rt: Vec<_> = rt.init.iter().map(runtime_view).collect();
    let ctr_rt: Vec<_> = rt
        .ctrs
        .iter()
        .zip(&spec.containers)
        .map(|(c, cs)| {
            runtime_view(c).map(|mut v| {
                // `containerChanged`: the instance's recorded hash is not the spec's. One
                // being killed already is not looked at again.
                v.spec_changed = matches!(&c.run, Run::Running(p) if p.stop.is_none())
                    && c.patched != m.image_changed(pod, cs);
                v
            })
        })
        .collect();
    let acts = k8s::compute_pod_actions(
        spec.restart_policy,
        init_views,
        rt.ctrs.len(),
        sandbox,
        &init_rt,
        &ctr_rt,
        pod.deletion.is_some(),
    );
    if acts.create_sandbox {
        return (!waiting_retry).then_some(Step::CreateSandbox);
    }
    if acts.kill_pod {
        return Some(Step::KillPod);
    }
    // SyncPod kills ContainersToKill before it starts anything.
    for &i in &acts.containers_to_kill {
        if ctr_rt
            .get(i)
            .copied()
            .flatten()
            .is_some_and(|v| v.spec_changed)
        {
            return Some(Step::RestartChanged { ctr: i as u8 });
        }
    }
    let starts = acts
        .init_containers_to_start
        .iter()
        .map(|&i| (true, i))
        .chain(acts.containers_to_start.iter().map(|&i| (false, i)));
    for (init, i) in starts {
        if let Some(step) = start_step(m, s, node, spec, rt, init, i) {
            return Some(step);
        }
    }
    None
}

/// Local frame for back-off arithmetic: now = 0, so the last update was `age` seconds ago.
pub(super) fn entry(bo: Option<Bo>) -> Option<BackoffEntry> {
    bo.map(|b| BackoffEntry {
        backoff: b.backoff as u64,
        last_update: -(b.age as i64),
    })
}

/// The start of a container, as SyncPod's `start` does it: doBackOff first, then
/// startContainer, whose EnsureImageExists pulls the image or not by `imagePullPolicy`
/// (`image_manager.go`; docs/sources.md#kubelet-image-pull-policy), then creates it.
pub(super) fn start_step(
    m: &Context,
    s: &State,
    node: NodeId,
    spec: &PodSpec,
    rt: &PodRt,
    init: bool,
    i: usize,
) -> Option<Step> {
    let c = rt.ctr(init, i);
    let cs = container_spec(spec, init, i);
    let ctr = i as u8;
    match c.waiting {
        Some(
            Waiting::CrashLoopBackOff { left }
            | Waiting::CreateContainerConfigError { left }
            | Waiting::CreateContainerError { left },
        ) if left > 0 => return None,
        Some(
            Waiting::CrashLoopBackOff { .. }
            | Waiting::CreateContainerConfigError { .. }
            | Waiting::CreateContainerError { .. },
        ) => {}
        _ => {
            // The newest exited record: FinishedAt is now (the pod worker reacts at once).
            // Not after a kill for a spec change: doBackOff reads the status from before the
            // kill, in which the container runs.
            if matches!(c.run, Run::Exited(_))
                && !c.respawn
                && CRASH_LOOP_BACKOFF.is_in_backoff_since(entry(c.crash_bo), 0, 0)
            {
                return Some(Step::CrashLoopBackOff { init, ctr });
            }
        }
    }
    let image = match s.kpod(node, rt.uid) {
        Some(pod) => m.container_image(pod, init, cs),
        None => &cs.image,
    };
    let image_bit = 1u32 << m.image_index(image);
    let present = s.nodes[node.index()].images & image_bit != 0;
    match k8s::image_action(cs.pull_policy(), present) {
        k8s::ImageAction::Pull if !c.pulled => match c.waiting {
            Some(w @ (Waiting::ErrImagePull { .. } | Waiting::ImagePullBackOff { .. }))
                if w.left() > 0 =>
            {
                None
            }
            _ => {
                if IMAGE_PULL_BACKOFF.is_in_backoff_since_update(entry(c.pull_bo), 0) {
                    Some(Step::ImagePullBackOff { init, ctr })
                } else {
                    Some(Step::PullImage { init, ctr })
                }
            }
        },
        k8s::ImageAction::NeverPull => match c.waiting {
            Some(Waiting::ErrImageNeverPull { left }) if left > 0 => None,
            _ => Some(Step::NeverPull { init, ctr }),
        },
        _ => Some(Step::Start { init, ctr }),
    }
}

/// Applies a pod-worker step.
pub fn step(m: &Context, s: &mut State, n: NodeId, uid: u16, step: Step) -> Option<()> {
    use crate::apiserver::kubelet_event as record;
    use crate::events::{EventKind as E, C};
    match step {
        Step::Admit => {
            let pod = s.pod(uid)?;
            let rt = new_rt(m, pod);
            s.nodes[n.index()].pods.push(rt.into());
        }
        Step::Reject => {
            let (reason, message) = admission_failure(m, s, n, s.pod(uid)?)?;
            let pod = s.pod_mut(uid)?;
            // kubelet.go `rejectPod`: the event, then phase Failed with the reason.
            pod.status.phase = Phase::Failed;
            pod.status.reason = reason;
            pod.status.message = format!("Pod was rejected: {message}");
            record(s, n, uid, E::Rejected);
        }
        Step::MountVolumes => {
            let w = s.rt(n, uid)?.workload;
            if m.step_failure(w, FailingStep::MountVolume).is_some() {
                // operation_generator.go: the reconciler records FailedMount on the pod and
                // retries after the exponential back-off (0.5 s doubling, at most 2m2s).
                let rt = s.rt_mut(n, uid)?;
                let backoff = rt.volume_retry.map_or(1, |r| (r.backoff * 2).min(244));
                rt.volume_retry = Some(Retry {
                    left: backoff.div_ceil(2),
                    backoff,
                });
                record(s, n, uid, E::FailedMount);
            } else {
                s.rt_mut(n, uid)?.volumes = true;
            }
        }
        Step::CreateSandbox => {
            let w = s.rt(n, uid)?.workload;
            let fails = m.step_failure(w, FailingStep::RunPodSandbox).is_some()
                || m.step_failure(w, FailingStep::CniAdd).is_some();
            let rt = s.rt_mut(n, uid)?;
            if fails {
                // kuberuntime SyncPod: FailedCreatePodSandBox, and the pod worker requeues
                // the pod after backOffPeriod (10 s; CNI ADD fails inside RunPodSandbox).
                rt.retry_left = Some(10);
                record(s, n, uid, E::FailedCreatePodSandBox);
            } else {
                rt.sandbox = true;
                rt.retry_left = None;
            }
        }
        Step::PullImage { init, ctr } => {
            let pod = s.kpod(n, uid)?;
            let cs = container_spec(spec_of(m, pod), init, ctr as usize);
            let fails = cs.app.image_pull_fails;
            let bit = 1u32 << m.image_index(m.container_image(pod, init, cs));
            let c = s.rt_mut(n, uid)?.ctr_mut(init, ctr as usize);
            let e = C { init, ctr };
            if fails {
                let next = IMAGE_PULL_BACKOFF.next(entry(c.pull_bo), 0, 0);
                c.pull_bo = Some(Bo {
                    backoff: next.backoff as Secs,
                    age: 0,
                });
                // The pod worker retries the sync after backOffPeriod.
                c.waiting = Some(Waiting::ErrImagePull { left: 10 });
                // A SyncPod that restarts a changed container ends here with the error.
                c.respawn = false;
                record(s, n, uid, E::Pulling(e));
                record(s, n, uid, E::PullFailed(e));
                record(s, n, uid, E::ErrImagePull(e));
            } else {
                c.waiting = None;
                c.pulled = true;
                s.nodes[n.index()].images |= bit;
                record(s, n, uid, E::Pulling(e));
                record(s, n, uid, E::Pulled(e));
            }
        }
        Step::NeverPull { init, ctr } => {
            // EnsureImageExists: the Warning `ErrImageNeverPull`; startContainer: `Failed`
            // "Error: ErrImageNeverPull"; the pod worker syncs again after backOffPeriod.
            let c = s.rt_mut(n, uid)?.ctr_mut(init, ctr as usize);
            c.waiting = Some(Waiting::ErrImageNeverPull { left: 10 });
            c.respawn = false;
            let e = C { init, ctr };
            record(s, n, uid, E::ErrImageNeverPull(e));
            record(s, n, uid, E::NeverPullFailed(e));
        }
        Step::ImagePullBackOff { init, ctr } => {
            let c = s.rt_mut(n, uid)?.ctr_mut(init, ctr as usize);
            let bo = c.pull_bo?;
            c.waiting = Some(Waiting::ImagePullBackOff {
                left: bo.backoff.saturating_sub(bo.age),
            });
            record(s, n, uid, E::PullBackOff(C { init, ctr }));
            record(s, n, uid, E::ImagePullBackOff(C { init, ctr }));
        }
        Step::CrashLoopBackOff { init, ctr } => {
            let c = s.rt_mut(n, uid)?.ctr_mut(init, ctr as usize);
            let bo = c.crash_bo?;
            c.waiting = Some(Waiting::CrashLoopBackOff { left: bo.backoff });
            record(s, n, uid, E::BackOff(C { init, ctr }));
        }
        Step::Start { init, ctr } => start(m, s, n, uid, init, ctr as usize)?,
        Step::RestartChanged { ctr } => {
            let pod = s.kpod(n, uid)?;
            // killContainer (setTerminationGracePeriod): the deletion's grace, else the
            // spec's; the kill reason is not a probe's, so no probe grace applies.
            let grace = pod
                .deletion
                .unwrap_or(spec_of(m, pod).termination_grace_period_seconds);
            let cs = spec_of(m, pod).containers.get(ctr as usize)?.clone();
            let c = s.rt_mut(n, uid)?.ctrs.get_mut(ctr as usize)?;
            if !matches!(&c.run, Run::Running(p) if p.stop.is_none()) {
                return None;
            }
            c.respawn = true;
            begin_stop(c, &cs, grace, StopWhy::SpecChanged);
            record(
                s,
                n,
                uid,
                E::Killing(C { init: false, ctr }, StopWhy::SpecChanged),
            );
        }
        Step::PostStartDone { ctr } => post_start_done(m, s, n, uid, ctr as usize)?,
        Step::AddProbeWorkers => {
            let rt = s.rt_mut(n, uid)?;
            if !rt.probes_pending {
                return None;
            }
            super::add_probe_workers(m, rt);
        }
        Step::KillPod => {
            let pod = s.kpod(n, uid)?;
            let spec = spec_of(m, pod).clone();
            // `calculateEffectiveGracePeriod`: grace from the deletion, else the spec; never
            // below 1 s.
            let grace = pod
                .deletion
                .unwrap_or(spec.termination_grace_period_seconds)
                .max(1);
            let why = if pod.deletion.is_some() {
                StopWhy::Deletion
            } else {
                StopWhy::PodFinished
            };
            // With nothing running, SyncTerminatedPod follows in the same pass.
            let idle = !s.rt(n, uid)?.any_running();
            let ordered = m.by_release.sidecar_containers;
            let stopped = terminate_for(s.rt_mut(n, uid)?, &spec, grace, why, ordered);
            for c in stopped {
                record(s, n, uid, E::Killing(c, why));
            }
            if idle {
                finish_termination(m, s, n, uid)?;
            }
        }
        Step::Cleanup => finish_termination(m, s, n, uid)?,
        Step::KillOrphan => {
            let rt = s.rt_mut(n, uid)?;
            let spec = m.workload(rt.workload).template().clone();
            let idle = !rt.any_running();
            let grace = m
                .by_release
                .immediate_kill(spec.termination_grace_period_seconds);
            terminate_for(
                rt,
                &spec,
                grace,
                StopWhy::Deletion,
                m.by_release.sidecar_containers,
            );
            if idle && !cleanup_fails(m, rt) {
                rt.killed = true;
                rt.cleaned = true;
            }
        }
        Step::SidecarTurn { ctr } => {
            let rt = s.rt_mut(n, uid)?;
            let spec = m.workload(rt.workload).template();
            crate::runtime::take_turn(
                &mut rt.init[ctr as usize],
                &spec.init_containers[ctr as usize],
            );
        }
        Step::Forget => {
            let node = &mut s.nodes[n.index()];
            node.pods.retain(|r| r.uid != uid);
        }
        Step::CreateMirror => {
            let sp = s.kpod(n, uid)?.clone();
            let mirror = crate::apiserver::create_pod_named(m, s, sp.workload, sp.suffix);
            let mp = s.pod_mut(mirror)?;
            mp.node = Some(n);
            mp.mirror_of = Some(uid);
            mp.status = sp.status.clone();
            mp.ghost.ever_started = sp.ghost.ever_started;
        }
        Step::DeleteMirror => {
            s.api.pods.retain(|p| p.mirror_of != Some(uid));
            s.env.mirror_deleted = true;
        }
    }
    Some(())
}

/// A new runtime record for an admitted pod.
pub fn new_rt(m: &Context, pod: &Pod) -> PodRt {
    let spec = spec_of(m, pod);
    PodRt {
        uid: pod.uid,
        workload: pod.workload,
        suffix: pod.suffix,
        job_index: pod.job_index,
        revision: pod.revision,
        evicted: false,
        shutdown: false,
        probes_pending: false,
        volumes: false,
        sandbox: false,
        init: vec![Ctr::default(); spec.init_containers.len()],
        ctrs: vec![Ctr::default(); spec.containers.len()],
        terminating: false,
        killed: false,
        cleaned: false,
        retry_left: None,
        volume_retry: None,
        static_pod: false,
    }
}

/// How long a container's postStart hook runs: its sleep, or the exec command's time.
pub(super) fn post_start_seconds(cs: &Container) -> Option<Secs> {
    let ps = cs.lifecycle.as_ref()?.post_start.as_ref()?;
    Some(match &ps.sleep {
        Some(sl) => sl.seconds,
        None => cs.app.post_start_seconds,
    })
}

/// The postStart hook returned. On failure (`kuberuntime_container.go` startContainer):
/// `FailedPostStartHook` "PostStartHook failed", then killContainer with the pod's grace
/// (`Killing` "FailedPostStartHook"), and the reason cache holds `PostStartHookError`.
pub(super) fn post_start_done(
    m: &Context,
    s: &mut State,
    n: NodeId,
    uid: u16,
    i: usize,
) -> Option<()> {
    use crate::events::{EventKind as E, C};
    let spec = m.workload(s.rt(n, uid)?.workload).template();
    let grace = s
        .kpod(n, uid)
        .and_then(|p| p.deletion)
        .unwrap_or(spec.termination_grace_period_seconds);
    let cs = spec.containers[i].clone();
    let c = &mut s.rt_mut(n, uid)?.ctrs[i];
    let Run::Running(p) = &mut c.run else {
        return None;
    };
    let hook = p.post_start.take()?;
    if hook.fails {
        c.waiting = Some(Waiting::PostStartHookError);
        begin_stop(c, &cs, grace, StopWhy::PostStartHook);
        let e = C {
            init: false,
            ctr: i as u8,
        };
        crate::apiserver::kubelet_event(s, n, uid, E::FailedPostStartHook(e));
        crate::apiserver::kubelet_event(s, n, uid, E::Killing(e, StopWhy::PostStartHook));
    } else {
        // The container is reported Running from now on, and the probes begin.
        let elapsed = post_start_seconds(&cs).unwrap_or(0);
        for kind in ProbeKind::ALL {
            if let (Some(w), Some(ps)) = (c.probes[kind as usize].as_mut(), probe_spec(&cs, kind)) {
                w.next_in = Some(ps.initial_delay_seconds.saturating_sub(elapsed));
            }
        }
    }
    Some(())
}

/// Starts a container: a new instance, restartCount + 1 if one ran before, the crash
/// back-off advanced, probe workers reset to their initial results.
pub(super) fn start(
    m: &Context,
    s: &mut State,
    n: NodeId,
    uid: u16,
    init: bool,
    i: usize,
) -> Option<()> {
    use crate::events::{EventKind as E, C};
    let pod = s.kpod(n, uid)?;
    let w = pod.workload;
    let cs = container_spec(spec_of(m, pod), init, i).clone();
    let e = C { init, ctr: i as u8 };
    // EnsureImageExists, before the container is created: the image this start pulled, or
    // the one on the node ("already present on machine").
    let c = s.rt_mut(n, uid)?.ctr_mut(init, i);
    let pulled = std::mem::take(&mut c.pulled);
    if !pulled {
        crate::apiserver::kubelet_event(s, n, uid, E::AlreadyPresent(e));
    }
    // startContainer: generateContainerConfig, then CRI CreateContainer. Either error
    // records `Failed` "Error: …", leaves the container waiting with that reason, and the
    // pod worker syncs again after backOffPeriod (no crash back-off: nothing ran).
    for (step, waiting) in [
        (
            FailingStep::CreateContainerConfig,
            Waiting::CreateContainerConfigError { left: 10 },
        ),
        (
            FailingStep::CreateContainer,
            Waiting::CreateContainerError { left: 10 },
        ),
    ] {
        if m.failing_container(w, step) == Some((init, i)) {
            let c = s.rt_mut(n, uid)?.ctr_mut(init, i);
            c.waiting = Some(waiting);
            c.respawn = false;
            crate::apiserver::kubelet_event(s, n, uid, E::CreateFailed(e));
            return Some(());
        }
    }
    let hook = post_start_seconds(&cs).filter(|_| !init).map(|secs| {
        let f = m
            .step_failure(w, FailingStep::PostStartHook)
            .filter(|_| m.failing_container(w, FailingStep::PostStartHook) == Some((init, i)));
        Hook {
            left: if f.is_some_and(|f| f.hangs) {
                None
            } else {
                Some(secs)
            },
            fails: f.is_some_and(|f| !f.hangs),
        }
    });
    let patched = !init && s.kpod(n, uid).is_some_and(|p| m.image_changed(p, &cs));
    let c = s.rt_mut(n, uid)?.ctr_mut(init, i);
    if let Run::Exited(e) = c.run {
        c.last = Some(e);
        c.restart_count = (c.restart_count + 1).min(RESTART_COUNT_CAP);
        if c.respawn {
            // The back-off key includes the container's hash (`getStableKey`): the new spec
            // starts without an entry, and doBackOff, which saw the container running, made
            // none.
            c.crash_bo = None;
        } else {
            let next = CRASH_LOOP_BACKOFF.next(entry(c.crash_bo), 0, 0);
            c.crash_bo = Some(Bo {
                backoff: next.backoff as Secs,
                age: 0,
            });
        }
    }
    c.respawn = false;
    c.patched = patched;
    c.waiting = None;
    let app = &cs.app;
    c.run = Run::Running(Proc {
        boot_left: app.boot_seconds,
        exit_left: app.exit_after_seconds,
        oom_left: app.exceeds_memory_limit_after_seconds,
        deadlocked: false,
        stop: None,
        post_start: hook,
    });
    for kind in ProbeKind::ALL {
        let slot = &mut c.probes[kind as usize];
        match probe_spec(&cs, kind) {
            None => *slot = None,
            Some(p) => {
                // A new worker: readiness starts Failure, liveness Success, startup Unknown.
                let initial = match kind {
                    ProbeKind::Startup => ProbeResult::Unknown,
                    ProbeKind::Readiness => ProbeResult::Failure,
                    ProbeKind::Liveness => ProbeResult::Success,
                };
                let (last, run) = slot
                    .map(|w| (w.last, w.run))
                    .unwrap_or((ProbeResult::Unknown, 0));
                // No probe before initialDelaySeconds; none while the postStart hook
                // runs (the status does not show the container yet).
                *slot = Some(Worker {
                    result: initial,
                    last,
                    run,
                    on_hold: false,
                    next_in: hook.is_none().then_some(p.initial_delay_seconds),
                    answer_in: None,
                });
            }
        }
    }
    if c.run_exits_now() {
        exit_now(c, app.exit_code, false);
    }
    s.kpod_mut(n, uid)?.ghost.ever_started = true;
    crate::apiserver::kubelet_event(s, n, uid, E::Created(e));
    crate::apiserver::kubelet_event(s, n, uid, E::Started(e));
    if hook.is_some_and(|h| h.left == Some(0)) {
        post_start_done(m, s, n, uid, i)?;
    }
    Some(())
}

impl Ctr {
    fn run_exits_now(&self) -> bool {
        matches!(&self.run, Run::Running(p) if p.exit_left == Some(0))
    }
}
