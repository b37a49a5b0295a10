//! The kubelet of each node: admission, the per-pod worker (SyncPod, SyncTerminatingPod,
//! SyncTerminatedPod), the prober, the status manager, the eviction manager and the node
//! status.
//!
//! The pod worker handles one pod serially, so a pod has at most one worker step enabled at a
//! time; different pods, the prober goroutines and the status manager interleave freely.
//! Which container to start, restart or leave alone comes from the upstream
//! `computePodActions` ([`crate::k8s::compute_pod_actions`]); waiting reasons, back-off and
//! status from the other upstream functions in [`crate::k8s`].
//!
//! Sources: the kubelet entries of `docs/sources.md`, from
//! `docs/sources.md#kubelet-pod-phase` to `docs/sources.md#kubelet-node-lease-and-status`.

use crate::context::{Context, MemoEntry};
use crate::derived::*;
use crate::k8s::{
    self, BackoffEntry, ContainerSpecView, ContainerState, ContainerStatus, ConvertInput, Phase,
    RuntimeContainerView, RuntimeRecord, RuntimeState, SandboxView, TaintEffect, Terminated,
    CRASH_LOOP_BACKOFF, IMAGE_PULL_BACKOFF,
};
use crate::runtime::{begin_stop, exit_now};
use crate::state::*;
use podcheck_input::spec::{Container, FailingStep, PodSpec, Probe};

pub mod admission;
pub mod eviction_manager;
pub mod node_status;
pub mod pod_worker;
pub mod prober;
pub mod shutdown;
pub mod status_manager;
pub mod termination;

use admission::*;
pub use eviction_manager::under_memory_pressure;
use pod_worker::*;
pub use pod_worker::{new_rt, Step};
use prober::*;
pub use status_manager::{compute_status, computed_status, status_differs};
use termination::*;
pub use termination::{terminate, terminate_for};

/// What a kubelet does, on its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Pod worker: the next step of SyncPod / SyncTerminatingPod / SyncTerminatedPod.
    Sync { node: NodeId, uid: u16, step: Step },
    /// Prober: one probe run.
    Probe {
        node: NodeId,
        uid: u16,
        /// A sidecar's probe (an init container's index), else a regular container's.
        init: bool,
        ctr: u8,
        kind: ProbeKind,
    },
    /// Status manager: write the pod status it computed to the API.
    StatusUpdate { node: NodeId, uid: u16 },
    /// Status manager: delete the finished pod's object (grace 0).
    RemoveObject { node: NodeId, uid: u16 },
    /// Node status: post Ready=True once the API server can be reached again.
    NodeStatus { node: NodeId },
    /// Eviction manager: evict a pod under memory pressure.
    Evict { node: NodeId, uid: u16 },
    /// The kubelet process starts again after a restart.
    Start { node: NodeId },
    /// Node shutdown manager: the next group of pods is killed, or the machine powers off.
    Shutdown { node: NodeId },
}

impl Action {
    /// The node whose kubelet acts.
    pub fn node(&self) -> NodeId {
        match *self {
            Action::Sync { node, .. }
            | Action::Probe { node, .. }
            | Action::StatusUpdate { node, .. }
            | Action::RemoveObject { node, .. }
            | Action::NodeStatus { node }
            | Action::Start { node }
            | Action::Shutdown { node }
            | Action::Evict { node, .. } => node,
        }
    }

    /// The pod the action is about (None for the node status).
    pub fn pod(&self) -> Option<u16> {
        match *self {
            Action::Sync { uid, .. }
            | Action::Probe { uid, .. }
            | Action::StatusUpdate { uid, .. }
            | Action::RemoveObject { uid, .. }
            | Action::Evict { uid, .. } => Some(uid),
            Action::NodeStatus { .. } | Action::Start { .. } | Action::Shutdown { .. } => None,
        }
    }
}

/// Applies a kubelet action; None if it is not enabled.
pub fn apply(m: &Context, s: &mut State, a: Action) -> Option<()> {
    match a {
        Action::Sync { node, uid, step } => pod_worker::step(m, s, node, uid, step),
        Action::Probe {
            node,
            uid,
            init,
            ctr,
            kind,
        } => prober::probe(m, s, node, uid, init, ctr as usize, kind),
        Action::StatusUpdate { node, uid } => status_manager::status_update(m, s, node, uid),
        Action::RemoveObject { node, uid } => status_manager::remove_object(m, s, node, uid),
        Action::NodeStatus { node } => node_status::post(s, node),
        Action::Evict { node, uid } => eviction_manager::evict(m, s, node, uid),
        Action::Start { node } => start(m, s, node),
        Action::Shutdown { node } => shutdown::advance(m, s, node),
    }
}

/// A restarted kubelet (`kubelet.go` `HandlePodAdditions`): the containers it finds running
/// keep running, but its probe results were in memory only, and each pod's probe workers are
/// created only when its first SyncPod reaches `probeManager.AddPod`, after that sync has
/// generated the pod's status ([`Step::AddProbeWorkers`], [`add_probe_workers`]).
pub fn start(_: &Context, s: &mut State, n: NodeId) -> Option<()> {
    if !s.nodes[n.index()].kubelet_down {
        return None;
    }
    s.nodes[n.index()].kubelet_down = false;
    for rt in s.nodes[n.index()].pods.iter_mut() {
        let has_workers = rt
            .init
            .iter()
            .chain(&rt.ctrs)
            .any(|c| matches!(c.run, Run::Running(_)) && c.probes.iter().any(|w| w.is_some()));
        if has_workers && !rt.terminating {
            rt.probes_pending = true;
        }
    }
    Some(())
}

/// `prober_manager.go` `AddPod` for a pod of a restarted kubelet: each probe worker starts
/// again as a new one, readiness Failure, liveness Success, startup Unknown (`worker.go`
/// `newWorker`), so a started container is not started until its startup probe succeeds
/// again and not Ready until its readiness probe does. The readiness probe runs at once (the
/// status generation triggers it: `UpdatePodStatus`); the others after one period (their
/// first tick is delayed by up to a period after a kubelet start: the model takes the whole
/// period).
pub(super) fn add_probe_workers(m: &Context, rt: &mut PodRt) {
    rt.probes_pending = false;
    let w = rt.workload;
    let (init, ctrs) = (&mut rt.init, &mut rt.ctrs);
    let all = (init.iter_mut().enumerate().map(|(i, c)| (true, i, c)))
        .chain(ctrs.iter_mut().enumerate().map(|(i, c)| (false, i, c)));
    for (is_init, i, c) in all {
        if !matches!(c.run, Run::Running(_)) {
            continue;
        }
        let cs = m.container(w, is_init, i);
        for kind in ProbeKind::ALL {
            let (Some(p), Some(slot)) = (
                prober::probe_spec(cs, kind),
                c.probes[kind as usize].as_mut(),
            ) else {
                continue;
            };
            *slot = Worker {
                result: match kind {
                    ProbeKind::Startup => ProbeResult::Unknown,
                    ProbeKind::Readiness => ProbeResult::Failure,
                    ProbeKind::Liveness => ProbeResult::Success,
                },
                last: ProbeResult::Unknown,
                run: 0,
                on_hold: false,
                next_in: Some(if kind == ProbeKind::Readiness {
                    0
                } else {
                    p.period_seconds
                }),
                answer_in: None,
            };
        }
    }
}

/// The node-level actions of node `node`'s kubelet: its node status once it reaches the API
/// server again (`status_first`) and, after the controllers' node-level steps, eviction under
/// memory pressure.
pub fn node_status_actions<A: From<Action>>(s: &State, node: NodeId, out: &mut Vec<A>) {
    let kubelet = &s.nodes[node.index()];
    let obj = &s.api.nodes[node.index()];
    let shutting_down = kubelet.shutdown.is_some();
    if !kubelet.partitioned
        && !kubelet.kubelet_down
        && (obj.unknown || obj.not_ready != shutting_down)
    {
        out.push(Action::NodeStatus { node }.into());
    }
}

fn spec_of<'a>(m: &'a Context, pod: &Pod) -> &'a PodSpec {
    m.workload(pod.workload).template()
}

fn container_spec(spec: &PodSpec, init: bool, i: usize) -> &Container {
    if init {
        &spec.init_containers[i]
    } else {
        &spec.containers[i]
    }
}

/// Enabled kubelet actions: pod-worker steps, due probes, status updates, object removal.
pub fn actions<A: From<Action>>(m: &Context, s: &State, out: &mut Vec<A>) {
    for (n, node) in s.nodes.iter().enumerate() {
        let n = NodeId::new(n);
        if node.kubelet_down {
            // Nothing acts on the node until the kubelet has started again.
            out.push(Action::Start { node: n }.into());
            continue;
        }
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
                out.push(
                    Action::Sync {
                        node: n,
                        uid: pod.uid,
                        step,
                    }
                    .into(),
                );
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
                let turn = rt
                    .terminating
                    .then(|| next_sidecar_turn(m.workload(rt.workload).template(), rt))
                    .flatten();
                let step = if let Some(i) = hook_done {
                    Some(Step::PostStartDone { ctr: i as u8 })
                } else if let Some(i) = turn {
                    // The pod worker goes on killing locally, as it does while cut off.
                    Some(Step::SidecarTurn { ctr: i as u8 })
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
                    out.push(
                        Action::Sync {
                            node: n,
                            uid: rt.uid,
                            step,
                        }
                        .into(),
                    );
                }
                continue;
            };
            if let Some(step) = next_step(m, s, n, pod, rt, online) {
                out.push(
                    Action::Sync {
                        node: n,
                        uid: rt.uid,
                        step,
                    }
                    .into(),
                );
            }
            // Sidecars are probed as regular containers are (only they have probe workers
            // among the init containers: the scenario validation refuses probes elsewhere).
            let all = (rt.init.iter().enumerate().map(|(i, c)| (true, i, c)))
                .chain(rt.ctrs.iter().enumerate().map(|(i, c)| (false, i, c)));
            for (init, i, c) in all {
                for kind in ProbeKind::ALL {
                    if let Some(w) = c.probes[kind as usize] {
                        let due = w.next_in == Some(0) || w.answer_in == Some(0);
                        // A restarted kubelet probes only once the workers exist.
                        if due && !rt.probes_pending && matches!(c.run, Run::Running(_)) {
                            out.push(
                                Action::Probe {
                                    node: n,
                                    uid: rt.uid,
                                    init,
                                    ctr: i as u8,
                                    kind,
                                }
                                .into(),
                            );
                        }
                    }
                }
            }
            if !online {
                continue;
            }
            if rt.static_pod {
                match s.mirror(rt.uid) {
                    None if !s.api.nodes[n.index()].deleted => out.push(
                        Action::Sync {
                            node: n,
                            uid: rt.uid,
                            step: Step::CreateMirror,
                        }
                        .into(),
                    ),
                    Some(mp) if mp.deletion.is_some() => out.push(
                        Action::Sync {
                            node: n,
                            uid: rt.uid,
                            step: Step::DeleteMirror,
                        }
                        .into(),
                    ),
                    _ => {}
                }
            }
            // The pod worker is inside SyncPod (a postStart hook, or the kill, pull and start
            // of a container whose spec changed): the status computed at the start of that
            // sync stands until it returns.
            if worker_blocked(rt) || (!rt.terminating && rt.ctrs.iter().any(|c| c.respawn)) {
                continue;
            }
            let stale_mirror = rt.static_pod
                && s.mirror(rt.uid)
                    .is_some_and(|mp| mp.deletion.is_none() && mp.status != pod.status);
            if stale_mirror || status_differs(m, s, n, rt.uid) {
                out.push(
                    Action::StatusUpdate {
                        node: n,
                        uid: rt.uid,
                    }
                    .into(),
                );
            }
            // `canBeDeleted`: from 1.27 the API must hold a terminal phase first; before, the
            // pod's resources being reclaimed was enough
            // (`docs/sources.md#kubelet-object-removal`).
            let phase_ok = pod.status.phase.is_terminal() || !m.by_release.terminal_phase_on_delete;
            if pod.deletion.is_some() && phase_ok && rt.cleaned {
                out.push(
                    Action::RemoveObject {
                        node: n,
                        uid: rt.uid,
                    }
                    .into(),
                );
            }
        }
    }
}
