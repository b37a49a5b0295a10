//! The kubelet of each node: admission, the per-pod worker (SyncPod, SyncTerminatingPod,
//! SyncTerminatedPod), the prober, and the status manager.
//!
//! The pod worker handles one pod serially (PW), so a pod has at most one worker step enabled
//! at a time; different pods, the prober goroutines and the status manager interleave freely.
//! Which container to start, restart or leave alone comes from the upstream
//! `computePodActions` ([`crate::k8s::compute_pod_actions`]); waiting reasons, back-off and
//! status from the other upstream functions in [`crate::k8s`].

use crate::cluster::{Action, Cluster};
use crate::k8s::{
    self, BackoffEntry, ContainerSpecView, ContainerState, ContainerStatus, ConvertInput, Phase,
    Resources, RuntimeContainerView, RuntimeRecord, RuntimeState, SandboxView, TaintEffect,
    Terminated, CRASH_LOOP_BACKOFF, IMAGE_PULL_BACKOFF,
};
use crate::spec::{Container, FailingStep, OnSigterm, PodSpec, Probe};
use crate::state::*;

/// One step of a pod worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Admission passed (F 110): the pod gets a runtime record on the node.
    Admit,
    /// Admission failed: the pod is Failed with the admission reason (F 110).
    Reject,
    /// Attach and mount the pod's volumes (kubelet SyncPod `WaitForAttachAndMount`; seed 002).
    MountVolumes,
    /// CRI RunPodSandbox and CNI ADD: sandbox and pod IP (seed 000).
    CreateSandbox,
    /// Pull the image of a container (F 60).
    PullImage { init: bool, ctr: u8 },
    /// The image pull is in back-off: `ImagePullBackOff` (F 60, 62).
    ImagePullBackOff { init: bool, ctr: u8 },
    /// The container is in crash back-off: `CrashLoopBackOff` (F 56).
    CrashLoopBackOff { init: bool, ctr: u8 },
    /// CRI CreateContainer + StartContainer.
    Start { init: bool, ctr: u8 },
    /// SyncTerminatingPod: preStop, SIGTERM, SIGKILL after grace for every running container
    /// (F 64–67).
    KillPod,
    /// SyncTerminatedPod: tear down sandbox and network (seed 000: CNI DEL, unmount).
    Cleanup,
    /// The pod object is gone from the API (a force delete, F 71): `HandlePodRemoves` has the
    /// pod worker kill what still runs, with the grace of the last version the kubelet saw
    /// (`deletionGracePeriodSeconds` 0, floored to 1 s by `calculateEffectiveGracePeriod`,
    /// F 64; then at least 2 s per container, F 65).
    KillOrphan,
    /// The pod object is gone and nothing of it runs: drop what is left on the node.
    Forget,
    /// The postStart hook of a container returned (success, or failure: the container is
    /// killed, `kuberuntime_container.go` startContainer).
    PostStartDone { ctr: u8 },
    /// `tryReconcileMirrorPods`: create the mirror pod of a static pod.
    CreateMirror,
    /// `tryReconcileMirrorPods`: the mirror pod has a deletionTimestamp; delete it (grace 0,
    /// UID precondition) so that it can be created again.
    DeleteMirror,
}

/// Human words for a step.
pub fn describe_step(m: &Cluster, state: &State, uid: u16, step: Step) -> String {
    let cname = |init: bool, ctr: u8| -> String {
        state
            .pod(uid)
            .or_else(|| {
                state
                    .nodes
                    .iter()
                    .find_map(|n| n.static_pods.iter().find(|p| p.uid == uid))
            })
            .map(|p| {
                let t = m.workload(p.workload).template();
                let list = if init {
                    &t.init_containers
                } else {
                    &t.containers
                };
                list[ctr as usize].name.clone()
            })
            .unwrap_or_default()
    };
    match step {
        Step::Admit => "admit".into(),
        Step::Reject => "reject (admission)".into(),
        Step::MountVolumes => "mount volumes of".into(),
        Step::CreateSandbox => "RunPodSandbox + CNI ADD (pod IP) for".into(),
        Step::PullImage { init, ctr } => format!("pull image of {}", cname(init, ctr)),
        Step::ImagePullBackOff { init, ctr } => {
            format!("back-off pulling image of {}", cname(init, ctr))
        }
        Step::CrashLoopBackOff { init, ctr } => {
            format!("back-off restarting {}", cname(init, ctr))
        }
        Step::Start { init, ctr } => format!(
            "start {}container {}",
            if init { "init " } else { "" },
            cname(init, ctr)
        ),
        Step::KillPod => "kill (preStop, SIGTERM) containers of".into(),
        Step::Cleanup => "tear down sandbox and network of".into(),
        Step::KillOrphan => "kill (SIGTERM) containers of force-deleted".into(),
        Step::Forget => "forget".into(),
        Step::PostStartDone { ctr } => {
            format!("postStart hook of {} returned in", cname(false, ctr))
        }
        Step::CreateMirror => "create the mirror pod of static pod".into(),
        Step::DeleteMirror => "delete (grace 0) the deleted mirror pod of static pod".into(),
    }
}

fn spec_of<'a>(m: &'a Cluster, pod: &Pod) -> &'a PodSpec {
    m.workload(pod.workload).template()
}

fn container_spec(spec: &PodSpec, init: bool, i: usize) -> &Container {
    if init {
        &spec.init_containers[i]
    } else {
        &spec.containers[i]
    }
}

fn probe_spec(c: &Container, kind: ProbeKind) -> Option<&Probe> {
    match kind {
        ProbeKind::Startup => c.startup_probe.as_ref(),
        ProbeKind::Readiness => c.readiness_probe.as_ref(),
        ProbeKind::Liveness => c.liveness_probe.as_ref(),
    }
}

/// The requests of a pod (F 106: sum of containers, max with each init container).
pub fn pod_request(spec: &PodSpec) -> Resources {
    let init: Vec<Resources> = spec
        .init_containers
        .iter()
        .map(|c| c.resources.requests)
        .collect();
    let regular: Vec<Resources> = spec
        .containers
        .iter()
        .map(|c| c.resources.requests)
        .collect();
    k8s::pod_request(&init, &regular)
}

/// Enabled kubelet actions: pod-worker steps, due probes, status updates, object removal.
pub fn actions(m: &Cluster, s: &State, out: &mut Vec<Action>) {
    for (n, node) in s.nodes.iter().enumerate() {
        let n = n as u8;
        // Cut off from the API server, the kubelet sees no new pods, no deletions and no
        // removals, and writes no status; its pod workers and probers go on locally.
        let online = !node.partitioned;
        // Pods bound here that have no runtime record yet.
        for pod in s.api.pods.iter().filter(|_| online) {
            if pod.node == Some(n)
                && pod.mirror_of.is_none()
                && !pod.status.phase.is_terminal()
                && !node.pods.iter().any(|r| r.uid == pod.uid)
            {
                let step = if admission_failure(m, s, n, pod).is_some() {
                    Step::Reject
                } else {
                    Step::Admit
                };
                out.push(Action::Kubelet {
                    node: n,
                    uid: pod.uid,
                    step,
                });
            }
        }
        for rt in &node.pods {
            let Some(pod) = s.kpod(n, rt.uid) else {
                // The object is gone. A partitioned kubelet does not know yet (and, in this
                // model, holds its pod worker still until it does). A failing sandbox stop or
                // unmount leaves the rest on the node for good (HandlePodCleanups retries it,
                // silently but for FailedKillPod on a pod that no longer exists).
                let hook_done = rt.ctrs.iter().position(|c| {
                    matches!(&c.run, Run::Running(p) if p.post_start.is_some_and(|h| h.left == Some(0)))
                });
                let step = if let Some(i) = hook_done {
                    Some(Step::PostStartDone { ctr: i as u8 })
                } else if !online || worker_blocked(rt) {
                    None
                } else if !rt.terminating {
                    Some(Step::KillOrphan)
                } else if !rt.any_running() && !cleanup_fails(m, rt) {
                    Some(Step::Forget)
                } else if !rt.any_running()
                    && !rt.killed
                    && m.step_failure(rt.workload, FailingStep::KillPodSandbox)
                        .is_none()
                {
                    // The sandbox can still be stopped; the unmount is what fails.
                    Some(Step::Cleanup)
                } else {
                    None
                };
                if let Some(step) = step {
                    out.push(Action::Kubelet {
                        node: n,
                        uid: rt.uid,
                        step,
                    });
                }
                continue;
            };
            if let Some(step) = next_step(m, s, n, pod, rt, online) {
                out.push(Action::Kubelet {
                    node: n,
                    uid: rt.uid,
                    step,
                });
            }
            for (i, c) in rt.ctrs.iter().enumerate() {
                for kind in ProbeKind::ALL {
                    if let Some(w) = c.probes[kind as usize] {
                        if w.next_in == Some(0) && matches!(c.run, Run::Running(_)) {
                            out.push(Action::Probe {
                                node: n,
                                uid: rt.uid,
                                ctr: i as u8,
                                kind,
                            });
                        }
                    }
                }
            }
            if !online {
                continue;
            }
            if rt.static_pod {
                match s.mirror(rt.uid) {
                    None if !s.api.nodes[n as usize].deleted => out.push(Action::Kubelet {
                        node: n,
                        uid: rt.uid,
                        step: Step::CreateMirror,
                    }),
                    Some(mp) if mp.deletion.is_some() => out.push(Action::Kubelet {
                        node: n,
                        uid: rt.uid,
                        step: Step::DeleteMirror,
                    }),
                    _ => {}
                }
            }
            // The pod worker is inside SyncPod (a postStart hook): the status computed at the
            // start of that sync stands until it returns.
            if worker_blocked(rt) {
                continue;
            }
            let stale_mirror = rt.static_pod
                && s.mirror(rt.uid)
                    .is_some_and(|mp| mp.deletion.is_none() && mp.status != pod.status);
            if stale_mirror || compute_status(m, s, pod, rt) != pod.status {
                out.push(Action::StatusUpdate {
                    node: n,
                    uid: rt.uid,
                });
            }
            if pod.deletion.is_some() && pod.status.phase.is_terminal() && rt.cleaned {
                out.push(Action::RemoveObject {
                    node: n,
                    uid: rt.uid,
                });
            }
        }
    }
}

/// Why kubelet admission rejects the pod, if it does (F 110): resources against what the
/// admitted, unfinished pods on the node request; NoExecute taints.
fn admission_failure(m: &Cluster, s: &State, n: u8, pod: &Pod) -> Option<(String, String)> {
    let node = &m.scenario.cluster.nodes[n as usize];
    let mut requested = node.used_by_other_pods;
    for rt in &s.nodes[n as usize].pods {
        // `filterOutInactivePods` (kubelet_pods.go): a pod whose worker has finished
        // terminating it (`IsPodKnownTerminated`), or whose phase is terminal and whose
        // termination was not requested, does not count.
        if rt.killed {
            continue;
        }
        if let Some(p) = s.kpod(n, rt.uid) {
            if p.status.phase.is_terminal() && !rt.terminating {
                continue;
            }
            let r = pod_request(spec_of(m, p));
            requested.cpu_milli += r.cpu_milli;
            requested.memory_mi += r.memory_mi;
        }
    }
    let spec = spec_of(m, pod);
    let request = pod_request(spec);
    let insufficient = k8s::insufficient_resources(request, node.allocatable, requested);
    if let Some(reason) = k8s::admission_failure_reason(&insufficient) {
        // predicate.go `InsufficientResourceError.Error()`.
        let (name, req, used, cap) = if reason == "OutOfmemory" {
            (
                "memory",
                request.memory_mi,
                requested.memory_mi,
                node.allocatable.memory_mi,
            )
        } else {
            (
                "cpu",
                request.cpu_milli,
                requested.cpu_milli,
                node.allocatable.cpu_milli,
            )
        };
        return Some((
            reason,
            format!(
                "Node didn't have enough resource: {name}, requested: {req}, used: {used}, capacity: {cap}"
            ),
        ));
    }
    // `generalFilter` runs the scheduler's node-affinity check too (F 109, 110): a pod bound
    // by `nodeName` to a node whose labels do not match its nodeSelector is rejected.
    if !k8s::node_selector_matches(&spec.node_selector, &node.labels) {
        return Some((
            "NodeAffinity".into(),
            "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"
                .into(),
        ));
    }
    // `generalFilter`: the taint check is skipped for static pods.
    let is_static = s.nodes[n as usize]
        .static_pods
        .iter()
        .any(|p| p.uid == pod.uid);
    if !is_static
        && k8s::first_untolerated_taint(&node.taints, &spec.tolerations, &[TaintEffect::NoExecute])
            .is_some()
    {
        return Some((
            "TaintToleration".into(),
            "Predicate TaintToleration failed: node(s) had untolerated taint".into(),
        ));
    }
    None
}

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

/// Whether the pod's teardown fails for good: StopPodSandbox or the volume unmount.
fn cleanup_fails(m: &Cluster, rt: &PodRt) -> bool {
    m.step_failure(rt.workload, FailingStep::KillPodSandbox)
        .is_some()
        || m.step_failure(rt.workload, FailingStep::UnmountVolume)
            .is_some()
}

fn runtime_view(c: &Ctr) -> Option<RuntimeContainerView> {
    let state = match c.run {
        Run::None => return None,
        Run::Running(_) => RuntimeState::Running,
        Run::Exited(e) => RuntimeState::Exited { exit_code: e.code },
    };
    Some(RuntimeContainerView {
        state,
        liveness_failed: false,
        startup_failed: false,
    })
}

/// The pod worker's next step for a pod it holds, if any.
fn next_step(
    m: &Cluster,
    s: &State,
    node: u8,
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
    if worker_blocked(rt) {
        return None;
    }
    if online && pod.deletion.is_some() && !rt.terminating {
        return Some(Step::KillPod);
    }
    let waiting_retry = rt.retry_left.is_some_and(|t| t > 0);
    if rt.terminating {
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
    if !spec.volumes.is_empty() && !rt.volumes {
        // The attach/detach controller never attaches: WaitForAttachAndMount times out
        // silently (`wait.Interrupted`, kubelet.go SyncPod) and the pod worker tries again.
        if m.step_failure(pod.workload, FailingStep::AttachVolume)
            .is_some()
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
    let ctr_rt: Vec<_> = rt.ctrs.iter().map(runtime_view).collect();
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
fn entry(bo: Option<Bo>) -> Option<BackoffEntry> {
    bo.map(|b| BackoffEntry {
        backoff: b.backoff as u64,
        last_update: -(b.age as i64),
    })
}

/// EnsureImageExists, then doBackOff, then start (F 56, 60).
fn start_step(
    m: &Cluster,
    s: &State,
    node: u8,
    spec: &PodSpec,
    rt: &PodRt,
    init: bool,
    i: usize,
) -> Option<Step> {
    let c = rt.ctr(init, i);
    let cs = container_spec(spec, init, i);
    let ctr = i as u8;
    let image_bit = 1u32 << m.image_index(&cs.image);
    if s.nodes[node as usize].images & image_bit == 0 {
        return match c.waiting {
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
        };
    }
    match c.waiting {
        Some(
            Waiting::CrashLoopBackOff { left }
            | Waiting::CreateContainerConfigError { left }
            | Waiting::CreateContainerError { left },
        ) => {
            if left > 0 {
                None
            } else {
                Some(Step::Start { init, ctr })
            }
        }
        _ => {
            // The newest exited record: FinishedAt is now (the pod worker reacts at once).
            if matches!(c.run, Run::Exited(_))
                && CRASH_LOOP_BACKOFF.is_in_backoff_since(entry(c.crash_bo), 0, 0)
            {
                Some(Step::CrashLoopBackOff { init, ctr })
            } else {
                Some(Step::Start { init, ctr })
            }
        }
    }
}

/// Applies a pod-worker step.
pub fn step(m: &Cluster, s: &mut State, n: u8, uid: u16, step: Step) -> Option<()> {
    use crate::events::{kubelet as record, EventKind as E, C};
    match step {
        Step::Admit => {
            let pod = s.pod(uid)?;
            let rt = new_rt(m, pod);
            s.nodes[n as usize].pods.push(rt);
        }
        Step::Reject => {
            let (reason, message) = admission_failure(m, s, n, s.pod(uid)?)?;
            let pod = s.pod_mut(uid)?;
            // kubelet.go `rejectPod`: the event, then phase Failed with the reason.
            pod.status.phase = Phase::Failed;
            pod.status.reason = reason;
            pod.status.message = format!("Pod was rejected: {message}");
            pod.ghost.first_terminal.get_or_insert(Phase::Failed);
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
            let bit = 1u32 << m.image_index(&cs.image);
            let c = s.rt_mut(n, uid)?.ctr_mut(init, ctr as usize);
            let e = C { init, ctr };
            if fails {
                let next = IMAGE_PULL_BACKOFF.next(entry(c.pull_bo), 0, 0);
                c.pull_bo = Some(Bo {
                    backoff: next.backoff as Secs,
                    age: 0,
                });
                // The pod worker retries the sync after backOffPeriod (F 8).
                c.waiting = Some(Waiting::ErrImagePull { left: 10 });
                record(s, n, uid, E::Pulling(e));
                record(s, n, uid, E::PullFailed(e));
                record(s, n, uid, E::ErrImagePull(e));
            } else {
                c.waiting = None;
                s.nodes[n as usize].images |= bit;
                record(s, n, uid, E::Pulling(e));
                record(s, n, uid, E::Pulled(e));
            }
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
        Step::PostStartDone { ctr } => post_start_done(m, s, n, uid, ctr as usize)?,
        Step::KillPod => {
            let pod = s.kpod(n, uid)?;
            let spec = spec_of(m, pod).clone();
            // F 64: grace from the deletion, else the spec; never below 1 s.
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
            let stopped = terminate_for(s.rt_mut(n, uid)?, &spec, grace, why);
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
            terminate_for(rt, &spec, 1, StopWhy::Deletion);
            if idle && !cleanup_fails(m, rt) {
                rt.killed = true;
                rt.cleaned = true;
            }
        }
        Step::Forget => {
            let node = &mut s.nodes[n as usize];
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
            mp.ghost.first_terminal = sp.ghost.first_terminal;
        }
        Step::DeleteMirror => {
            s.api.pods.retain(|p| p.mirror_of != Some(uid));
            s.env.mirror_deleted = true;
        }
    }
    Some(())
}

/// A new runtime record for an admitted pod.
pub fn new_rt(m: &Cluster, pod: &Pod) -> PodRt {
    let spec = spec_of(m, pod);
    PodRt {
        uid: pod.uid,
        workload: pod.workload,
        suffix: pod.suffix,
        evicted: false,
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

/// The end of SyncTerminatingPod and SyncTerminatedPod, once nothing runs: StopPodSandbox
/// (CNI DEL), then the volume unmount. A failing sandbox stop records `FailedKillPod`
/// ("error killing pod: …", kubelet.go SyncTerminatingPod) and is retried after
/// backOffPeriod; the pod stays Terminating. A failing unmount comes after the terminal
/// status is written and records nothing (kubelet.go SyncTerminatedPod `WaitForUnmount`).
fn finish_termination(m: &Cluster, s: &mut State, n: u8, uid: u16) -> Option<()> {
    let rt = s.rt_mut(n, uid)?;
    if !rt.killed {
        if m.step_failure(rt.workload, FailingStep::KillPodSandbox)
            .is_some()
        {
            rt.retry_left = Some(10);
            crate::events::kubelet(s, n, uid, crate::events::EventKind::FailedKillPod);
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

/// The pod worker terminates a pod (SyncTerminatingPod, F 64–67): no more restarts, liveness
/// and startup probes stop with Success (F 48), every running container is stopped with
/// `grace`. Returns the containers it began to stop.
pub fn terminate_for(
    rt: &mut PodRt,
    spec: &PodSpec,
    grace: Secs,
    why: StopWhy,
) -> Vec<crate::events::C> {
    rt.terminating = true;
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
            }
        }
        if matches!(c.run, Run::Running(_)) {
            begin_stop(c, cs, grace, why);
            stopped.push(crate::events::C { init, ctr: i as u8 });
        }
    }
    stopped
}

/// The eviction manager's kill (F 112): grace 1 s for a hard threshold; the pod worker
/// stops the containers (`Killing`) and tears the pod down.
pub fn terminate(m: &Cluster, s: &mut State, n: u8, uid: u16, grace: Secs) -> Option<()> {
    let rt = s.rt_mut(n, uid)?;
    let spec = m.workload(rt.workload).template().clone();
    let idle = !rt.any_running();
    let stopped = terminate_for(rt, &spec, grace, StopWhy::Evicted);
    for c in stopped {
        crate::events::kubelet(
            s,
            n,
            uid,
            crate::events::EventKind::Killing(c, StopWhy::Evicted),
        );
    }
    if idle {
        finish_termination(m, s, n, uid)?;
    }
    Some(())
}

/// How long a container's postStart hook runs: its sleep, or the exec command's time.
fn post_start_seconds(cs: &Container) -> Option<Secs> {
    let ps = cs.lifecycle.as_ref()?.post_start.as_ref()?;
    Some(match &ps.sleep {
        Some(sl) => sl.seconds,
        None => cs.app.post_start_seconds,
    })
}

/// The postStart hook returned. On failure (`kuberuntime_container.go` startContainer):
/// `FailedPostStartHook` "PostStartHook failed", then killContainer with the pod's grace
/// (`Killing` "FailedPostStartHook"), and the reason cache holds `PostStartHookError`.
fn post_start_done(m: &Cluster, s: &mut State, n: u8, uid: u16, i: usize) -> Option<()> {
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
        crate::events::kubelet(s, n, uid, E::FailedPostStartHook(e));
        crate::events::kubelet(s, n, uid, E::Killing(e, StopWhy::PostStartHook));
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
/// back-off advanced (F 56), probe workers reset to their initial results (F 44).
fn start(m: &Cluster, s: &mut State, n: u8, uid: u16, init: bool, i: usize) -> Option<()> {
    use crate::events::{EventKind as E, C};
    let pod = s.kpod(n, uid)?;
    let w = pod.workload;
    // The deletion as the kubelet knows it: a partitioned kubelet has not seen it.
    let deleted = pod.deletion.is_some() && !s.nodes[n as usize].partitioned;
    let cs = container_spec(spec_of(m, pod), init, i).clone();
    let e = C { init, ctr: i as u8 };
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
            s.rt_mut(n, uid)?.ctr_mut(init, i).waiting = Some(waiting);
            crate::events::kubelet(s, n, uid, E::CreateFailed(e));
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
    let c = s.rt_mut(n, uid)?.ctr_mut(init, i);
    if let Run::Exited(e) = c.run {
        c.last = Some(e);
        c.restart_count = (c.restart_count + 1).min(RESTART_COUNT_CAP);
        let next = CRASH_LOOP_BACKOFF.next(entry(c.crash_bo), 0, 0);
        c.crash_bo = Some(Bo {
            backoff: next.backoff as Secs,
            age: 0,
        });
    }
    c.waiting = None;
    if deleted {
        c.ghost.started_after_deletion = true;
    }
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
                // F 44: readiness starts Failure, liveness Success, startup Unknown.
                let initial = match kind {
                    ProbeKind::Startup => ProbeResult::Unknown,
                    ProbeKind::Readiness => ProbeResult::Failure,
                    ProbeKind::Liveness => ProbeResult::Success,
                };
                let (last, run) = slot
                    .map(|w| (w.last, w.run))
                    .unwrap_or((ProbeResult::Unknown, 0));
                // F 49: no probe before initialDelaySeconds; none while the postStart hook
                // runs (the status does not show the container yet).
                *slot = Some(Worker {
                    result: initial,
                    last,
                    run,
                    on_hold: false,
                    next_in: hook.is_none().then_some(p.initial_delay_seconds),
                });
            }
        }
    }
    if c.run_exits_now() {
        exit_now(c, app.exit_code, false);
    }
    s.kpod_mut(n, uid)?.ghost.ever_started = true;
    crate::events::kubelet(s, n, uid, E::Created(e));
    crate::events::kubelet(s, n, uid, E::Started(e));
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

/// The process ends (on its own, OOM-killed, or by a signal).
pub fn exit_now(c: &mut Ctr, code: i32, oom: bool) {
    c.run = Run::Exited(Exit { code, oom });
    for w in c.probes.iter_mut().flatten() {
        w.next_in = None;
        // F 47: a container that does not run reads as Failure.
        w.result = ProbeResult::Failure;
    }
}

/// killContainer (F 65, 66): preStop bounded by grace, then SIGTERM with what is left of the
/// grace (at least 2 s, F 16), then SIGKILL.
pub fn begin_stop(c: &mut Ctr, cs: &Container, grace: Secs, why: StopWhy) {
    let Run::Running(p) = &mut c.run else {
        return;
    };
    if p.stop.is_some() {
        return;
    }
    let prestop = cs
        .lifecycle
        .as_ref()
        .and_then(|l| l.pre_stop.as_ref())
        .map(|ps| ps.sleep.seconds.min(grace));
    let kill_left = grace.saturating_sub(prestop.unwrap_or(0)).max(2);
    p.stop = Some(Stop {
        prestop_left: prestop.filter(|&s| s > 0),
        kill_left,
        why,
    });
    if prestop.unwrap_or(0) == 0 {
        sigterm(c, cs);
    }
}

/// SIGTERM reaches the program.
pub fn sigterm(c: &mut Ctr, cs: &Container) {
    if let OnSigterm::Exit(code) = cs.app.on_sigterm {
        exit_now(c, code, false);
    }
}

/// One probe run (PRW `doProbe`, F 44–52).
pub fn probe(m: &Cluster, s: &mut State, n: u8, uid: u16, i: usize, kind: ProbeKind) -> Option<()> {
    use crate::events::{EventKind as E, C};
    let pod = s.kpod(n, uid)?;
    let spec = spec_of(m, pod).clone();
    let cs = &spec.containers[i];
    let p = probe_spec(cs, kind)?.clone();
    let dependency_down = s.env.dependency_down;
    let rt = s.rt_mut(n, uid)?;
    let c = &mut rt.ctrs[i];
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
    let healthy = proc_.healthy();
    let w = c.probes[kind as usize].as_mut()?;
    w.next_in = Some(p.period_seconds);
    // F 50: startup gates the others; a started container skips the startup probe.
    let skip = match kind {
        ProbeKind::Startup => started,
        _ => !started,
    };
    if skip || w.on_hold {
        return Some(());
    }
    let outcome = if answers {
        ProbeResult::Success
    } else {
        ProbeResult::Failure
    };
    // F 51: thresholds count runs of equal outcomes.
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
            crate::events::kubelet(s, n, uid, E::Unhealthy(i as u8, kind));
        }
        return Some(());
    }
    w.result = outcome;
    let mut killed = None;
    if outcome == ProbeResult::Failure && kind != ProbeKind::Readiness {
        // F 51, 52: the worker goes on hold and the container is killed.
        w.on_hold = true;
        w.run = 0;
        w.next_in = None;
        let why = if kind == ProbeKind::Liveness {
            StopWhy::LivenessProbe
        } else {
            StopWhy::StartupProbe
        };
        if healthy {
            c.ghost.killed_while_healthy = true;
        }
        begin_stop(c, cs, spec.termination_grace_period_seconds.max(1), why);
        killed = Some(why);
    }
    if failed {
        crate::events::kubelet(s, n, uid, E::Unhealthy(i as u8, kind));
    }
    if let Some(why) = killed {
        let e = C {
            init: false,
            ctr: i as u8,
        };
        crate::events::kubelet(s, n, uid, E::Killing(e, why));
    }
    Some(())
}

/// The runtime's records of one container, newest first (the current instance, then the
/// one before it), as `GetPodStatus` returns them.
fn runtime_records(c: &Ctr) -> Vec<RuntimeRecord> {
    let exited = |e: Exit, restart_count: u32| RuntimeRecord {
        state: RuntimeState::Exited { exit_code: e.code },
        reason: e.reason().to_string(),
        restart_count,
        finished_ago: None,
    };
    let mut out = Vec::new();
    match c.run {
        Run::None => return out,
        Run::Running(_) => out.push(RuntimeRecord {
            state: RuntimeState::Running,
            reason: String::new(),
            restart_count: c.restart_count,
            finished_ago: None,
        }),
        Run::Exited(e) => out.push(exited(e, c.restart_count)),
    }
    if let Some(e) = c.last {
        out.push(exited(e, c.restart_count.saturating_sub(1)));
    }
    out
}

/// The status the kubelet would write now (`generateAPIPodStatus`, F 21–41): container
/// statuses from the upstream `convertToAPIContainerStatuses` port, `started` / `ready` from
/// the prober (F 43), then phase and conditions.
pub fn compute_status(m: &Cluster, _s: &State, pod: &Pod, rt: &PodRt) -> PodStatus {
    let spec = spec_of(m, pod);
    let (init_views, views) = &m.views[pod.workload as usize];
    let records = |list: &[Ctr], specs: &[Container]| -> Vec<(String, Vec<RuntimeRecord>)> {
        list.iter()
            .zip(specs)
            .map(|(c, cs)| (cs.name.clone(), runtime_records(c)))
            .collect()
    };
    // The reason cache holds start failures; a pod being terminated starts nothing.
    let cache = |list: &[Ctr], specs: &[Container]| -> Vec<(String, String)> {
        if rt.terminating {
            return Vec::new();
        }
        list.iter()
            .zip(specs)
            .filter_map(|(c, cs)| c.waiting.map(|w| (cs.name.clone(), w.reason().to_string())))
            .collect()
    };
    let init_records = records(&rt.init, &spec.init_containers);
    let ctr_records = records(&rt.ctrs, &spec.containers);
    let convert = |specs: &[ContainerSpecView],
                   previous: &[ContainerStatus],
                   runtime: &[(String, Vec<RuntimeRecord>)],
                   reason_cache: &[(String, String)],
                   is_init: bool| {
        k8s::convert_to_api_container_statuses(&ConvertInput {
            specs,
            previous,
            runtime,
            reason_cache,
            is_init,
            has_init_containers: !spec.init_containers.is_empty(),
            deletion_timestamp: pod.deletion.is_some(),
            restart_policy: spec.restart_policy,
            any_regular_container_created: k8s::has_any_regular_container_created(
                views,
                &ctr_records,
            ),
        })
    };
    let mut init_statuses = convert(
        init_views,
        &pod.status.init_statuses,
        &init_records,
        &cache(&rt.init, &spec.init_containers),
        true,
    );
    let mut statuses = convert(
        views,
        &pod.status.statuses,
        &ctr_records,
        &cache(&rt.ctrs, &spec.containers),
        false,
    );
    for st in &mut init_statuses {
        let Some(i) = spec.init_containers.iter().position(|c| c.name == st.name) else {
            continue;
        };
        let c = &rt.init[i];
        // Init containers are Ready once they exited 0 (F 43, older wording; F 41).
        st.ready = matches!(c.run, Run::Exited(Exit { code: 0, .. }));
        st.started = Some(matches!(c.run, Run::Running(_)));
    }
    for st in &mut statuses {
        let Some(i) = spec.containers.iter().position(|c| c.name == st.name) else {
            continue;
        };
        let (c, cs) = (&rt.ctrs[i], &spec.containers[i]);
        let result =
            |k: ProbeKind| c.probes[k as usize].map(|w| w.result) == Some(ProbeResult::Success);
        let (started, ready) = k8s::container_started_and_ready(
            matches!(c.run, Run::Running(_)),
            cs.startup_probe.is_some(),
            result(ProbeKind::Startup),
            cs.readiness_probe.is_some(),
            result(ProbeKind::Readiness),
        );
        st.started = started;
        st.ready = ready;
    }
    // The model reports the terminal phase of a terminating pod once the pod worker has
    // finished with it (after SyncTerminatedPod). Upstream may write it just before
    // SyncTerminatedPod; that window is where S15's OutOfcpu race lives, which this model
    // leaves out (see README).
    let pod_is_terminal = rt.killed;
    let has_initialized = k8s::has_any_regular_container_started(views, &statuses);
    let mut phase = k8s::get_phase(
        spec.restart_policy,
        init_views,
        views,
        &init_statuses,
        &statuses,
        pod_is_terminal,
        has_initialized,
        false,
        m.gates,
    );
    if rt.killed {
        // status_manager TerminatePod: every container gets a terminated state, and a pod
        // that is not yet terminal is marked Failed.
        for st in init_statuses.iter_mut().chain(statuses.iter_mut()) {
            if !matches!(st.state, ContainerState::Terminated(_)) {
                st.state = ContainerState::Terminated(Terminated {
                    exit_code: 137,
                    reason: "ContainerStatusUnknown".into(),
                    signal: 0,
                    finished_ago: None,
                });
                st.ready = false;
            }
        }
        if !phase.is_terminal() {
            phase = Phase::Failed;
        }
    }
    // F 28, 31: a terminal phase is never left.
    if pod.status.phase.is_terminal() && phase != pod.status.phase {
        phase = pod.status.phase;
    }
    let conditions = k8s::generate_conditions(init_views, views, &init_statuses, &statuses, phase);
    let cond = |t: &str| {
        conditions
            .iter()
            .any(|c| c.type_ == t && c.status == k8s::ConditionStatus::True)
    };
    PodStatus {
        phase,
        // F 29: the reason carries over; an evicted pod's is `Evicted` (F 112).
        reason: if rt.evicted {
            "Evicted".into()
        } else {
            pod.status.reason.clone()
        },
        message: pod.status.message.clone(),
        pod_ip: pod.status.pod_ip || rt.sandbox,
        initialized: cond("Initialized"),
        containers_ready: cond("ContainersReady"),
        ready: cond("Ready"),
        init_statuses,
        statuses,
    }
}

/// The status manager writes the computed status.
pub fn status_update(m: &Cluster, s: &mut State, n: u8, uid: u16) -> Option<()> {
    let rt = s.rt(n, uid)?;
    let pod = s.kpod(n, uid)?;
    let status = compute_status(m, s, pod, rt);
    let in_hook = status.statuses.iter().zip(&rt.ctrs).any(|(st, c)| {
        matches!(st.state, ContainerState::Running)
            && matches!(&c.run, Run::Running(p) if p.post_start.is_some())
    });
    if in_hook {
        s.env.running_reported_in_hook = true;
    }
    let pod = s.kpod_mut(n, uid)?;
    if status.phase.is_terminal() && pod.ghost.first_terminal.is_none() {
        pod.ghost.first_terminal = Some(status.phase);
    }
    pod.status = status;
    // A static pod's status goes to its mirror pod (status_manager.go: "only status in
    // mirror pod is meaningful"); a mirror being deleted is left alone.
    let (status, ghost) = (pod.status.clone(), pod.ghost.clone());
    if let Some(mp) = s
        .api
        .pods
        .iter_mut()
        .find(|p| p.mirror_of == Some(uid) && p.deletion.is_none())
    {
        mp.status = status;
        mp.ghost.ever_started = ghost.ever_started;
        if mp.ghost.first_terminal.is_none() {
            mp.ghost.first_terminal = ghost.first_terminal;
        }
    }
    Some(())
}

/// `canBeDeleted` holds (F 70): the kubelet deletes the object with grace 0.
pub fn remove_object(_m: &Cluster, s: &mut State, n: u8, uid: u16) -> Option<()> {
    if s.nodes[n as usize].partitioned {
        s.env.removed_while_unreachable = true;
    }
    s.api.pods.retain(|p| p.uid != uid);
    s.nodes[n as usize].pods.retain(|r| r.uid != uid);
    Some(())
}
