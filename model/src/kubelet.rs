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
use crate::spec::{Container, OnSigterm, PodSpec, Probe};
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
}

/// Human words for a step.
pub fn describe_step(m: &Cluster, state: &State, uid: u16, step: Step) -> String {
    let cname = |init: bool, ctr: u8| -> String {
        state
            .pod(uid)
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
            let Some(pod) = s.pod(rt.uid) else {
                // The object is gone. A partitioned kubelet does not know yet (and, in this
                // model, holds its pod worker still until it does).
                let step = if !online {
                    None
                } else if !rt.terminating {
                    Some(Step::KillOrphan)
                } else if !rt.any_running() {
                    Some(Step::Forget)
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
            if compute_status(m, s, pod, rt) != pod.status {
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
fn admission_failure(m: &Cluster, s: &State, n: u8, pod: &Pod) -> Option<String> {
    let node = &m.scenario.cluster.nodes[n as usize];
    let mut requested = node.used_by_other_pods;
    for rt in &s.nodes[n as usize].pods {
        // `filterOutInactivePods` (kubelet_pods.go): a pod whose worker has finished, or whose
        // phase is terminal and whose termination was not requested, does not count.
        if rt.cleaned {
            continue;
        }
        if let Some(p) = s.pod(rt.uid) {
            if p.status.phase.is_terminal() && !rt.terminating {
                continue;
            }
            let r = pod_request(spec_of(m, p));
            requested.cpu_milli += r.cpu_milli;
            requested.memory_mi += r.memory_mi;
        }
    }
    let spec = spec_of(m, pod);
    let insufficient = k8s::insufficient_resources(pod_request(spec), node.allocatable, requested);
    if let Some(reason) = k8s::admission_failure_reason(&insufficient) {
        return Some(reason);
    }
    if k8s::first_untolerated_taint(&node.taints, &spec.tolerations, &[TaintEffect::NoExecute])
        .is_some()
    {
        return Some("TaintToleration".into());
    }
    None
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
    if online && pod.deletion.is_some() && !rt.terminating {
        return Some(Step::KillPod);
    }
    if rt.terminating {
        if rt.any_running() || rt.cleaned {
            return None;
        }
        return Some(Step::Cleanup);
    }
    let spec = spec_of(m, pod);
    if !spec.volumes.is_empty() && !rt.volumes {
        return Some(Step::MountVolumes);
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
        return Some(Step::CreateSandbox);
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
        Some(Waiting::CrashLoopBackOff { left }) => {
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
    match step {
        Step::Admit => {
            let pod = s.pod(uid)?;
            let spec = spec_of(m, pod);
            let rt = PodRt {
                uid,
                workload: pod.workload,
                suffix: pod.suffix,
                evicted: false,
                volumes: false,
                sandbox: false,
                init: vec![Ctr::default(); spec.init_containers.len()],
                ctrs: vec![Ctr::default(); spec.containers.len()],
                terminating: false,
                cleaned: false,
            };
            s.nodes[n as usize].pods.push(rt);
        }
        Step::Reject => {
            let reason = admission_failure(m, s, n, s.pod(uid)?)?;
            let pod = s.pod_mut(uid)?;
            pod.status.phase = Phase::Failed;
            pod.status.reason = reason;
            pod.ghost.first_terminal.get_or_insert(Phase::Failed);
        }
        Step::MountVolumes => {
            s.rt_mut(n, uid)?.volumes = true;
        }
        Step::CreateSandbox => {
            s.rt_mut(n, uid)?.sandbox = true;
        }
        Step::PullImage { init, ctr } => {
            let pod = s.pod(uid)?;
            let cs = container_spec(spec_of(m, pod), init, ctr as usize);
            let fails = cs.app.image_pull_fails;
            let bit = 1u32 << m.image_index(&cs.image);
            let c = s.rt_mut(n, uid)?.ctr_mut(init, ctr as usize);
            if fails {
                let e = IMAGE_PULL_BACKOFF.next(entry(c.pull_bo), 0, 0);
                c.pull_bo = Some(Bo {
                    backoff: e.backoff as Secs,
                    age: 0,
                });
                // The pod worker retries the sync after backOffPeriod (F 8).
                c.waiting = Some(Waiting::ErrImagePull { left: 10 });
            } else {
                c.waiting = None;
                s.nodes[n as usize].images |= bit;
            }
        }
        Step::ImagePullBackOff { init, ctr } => {
            let c = s.rt_mut(n, uid)?.ctr_mut(init, ctr as usize);
            let bo = c.pull_bo?;
            c.waiting = Some(Waiting::ImagePullBackOff {
                left: bo.backoff.saturating_sub(bo.age),
            });
        }
        Step::CrashLoopBackOff { init, ctr } => {
            let c = s.rt_mut(n, uid)?.ctr_mut(init, ctr as usize);
            let bo = c.crash_bo?;
            c.waiting = Some(Waiting::CrashLoopBackOff { left: bo.backoff });
        }
        Step::Start { init, ctr } => start(m, s, n, uid, init, ctr as usize)?,
        Step::KillPod => {
            let pod = s.pod(uid)?;
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
            terminate_for(s.rt_mut(n, uid)?, &spec, grace, why);
        }
        Step::Cleanup => {
            s.rt_mut(n, uid)?.cleaned = true;
        }
        Step::KillOrphan => {
            let rt = s.rt_mut(n, uid)?;
            let spec = m.workload(rt.workload).template().clone();
            terminate_for(rt, &spec, 1, StopWhy::Deletion);
        }
        Step::Forget => {
            let node = &mut s.nodes[n as usize];
            node.pods.retain(|r| r.uid != uid);
        }
    }
    Some(())
}

/// The pod worker terminates a pod (SyncTerminatingPod, F 64–67): no more restarts, liveness
/// and startup probes stop with Success (F 48), every running container is stopped with
/// `grace`. With nothing running, SyncTerminatedPod follows in the same pass.
pub fn terminate_for(rt: &mut PodRt, spec: &PodSpec, grace: Secs, why: StopWhy) {
    rt.terminating = true;
    if !rt.any_running() {
        rt.cleaned = true;
    }
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
        }
    }
}

/// The eviction manager's kill (F 112): grace 1 s for a hard threshold.
pub fn terminate(rt: &mut PodRt, spec: &PodSpec, grace: Secs) {
    terminate_for(rt, spec, grace, StopWhy::Evicted);
}

/// Starts a container: a new instance, restartCount + 1 if one ran before, the crash
/// back-off advanced (F 56), probe workers reset to their initial results (F 44).
fn start(m: &Cluster, s: &mut State, n: u8, uid: u16, init: bool, i: usize) -> Option<()> {
    let pod = s.pod(uid)?;
    // The deletion as the kubelet knows it: a partitioned kubelet has not seen it.
    let deleted = pod.deletion.is_some() && !s.nodes[n as usize].partitioned;
    let cs = container_spec(spec_of(m, pod), init, i).clone();
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
                // F 49: no probe before initialDelaySeconds.
                *slot = Some(Worker {
                    result: initial,
                    last,
                    run,
                    on_hold: false,
                    next_in: Some(p.initial_delay_seconds),
                });
            }
        }
    }
    if c.run_exits_now() {
        exit_now(c, app.exit_code, false);
    }
    let pod = s.pod_mut(uid)?;
    pod.ghost.ever_started = true;
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
    let pod = s.pod(uid)?;
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
    if w.run < threshold {
        return Some(());
    }
    w.result = outcome;
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
    let pod_is_terminal = rt.cleaned;
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
    if rt.cleaned {
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
    let pod = s.pod(uid)?;
    let status = compute_status(m, s, pod, rt);
    let pod = s.pod_mut(uid)?;
    if status.phase.is_terminal() && pod.ghost.first_terminal.is_none() {
        pod.ghost.first_terminal = Some(status.phase);
    }
    pod.status = status;
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
