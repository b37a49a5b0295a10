//! The status manager: the status the kubelet computes (`generateAPIPodStatus`), its write to
//! the API server, and the deletion of a finished pod's object.
//!
//! Sources: `docs/sources.md#kubelet-status-merge`, `docs/sources.md#kubelet-object-removal`,
//! `docs/sources.md#kubelet-pod-conditions`.

use super::*;

/// The runtime's records of one container, newest first (the current instance, then the
/// one before it), as `GetPodStatus` returns them.
pub(super) fn runtime_records(c: &Ctr) -> Vec<RuntimeRecord> {
    let exited = |e: Exit, restart_count: u32| RuntimeRecord {
        state: RuntimeState::Exited { exit_code: e.code },
        reason: e.reason().to_string(),
        restart_count,
        finished_ago: None,
        // The model's kubelet runs with gate RestartAllContainersOnContainerExits off, the
        // only reader of container IDs in the conversion (docs/sources.md#kubelet-container-statuses).
        id: String::new(),
    };
    let mut out = Vec::new();
    match c.run {
        Run::None => return out,
        Run::Running(_) => out.push(RuntimeRecord {
            state: RuntimeState::Running,
            reason: String::new(),
            restart_count: c.restart_count,
            finished_ago: None,
            id: String::new(),
        }),
        Run::Exited(e) => out.push(exited(e, c.restart_count)),
    }
    if let Some(e) = c.last {
        out.push(exited(e, c.restart_count.saturating_sub(1)));
    }
    out
}

/// `started` and `ready` of a running regular container or sidecar, from its probe results.
/// `no_workers`: a restarted kubelet has not created the pod's probe workers yet, so
/// `UpdatePodStatus` finds neither a result nor a worker and takes started = ready = !exists
/// (kubernetes#135795).
fn started_and_ready(c: &Ctr, cs: &Container, no_workers: bool) -> (Option<bool>, bool) {
    let result =
        |k: ProbeKind| c.probes[k as usize].map(|w| w.result) == Some(ProbeResult::Success);
    k8s::container_started_and_ready(
        matches!(c.run, Run::Running(_)),
        cs.startup_probe.is_some() && !no_workers,
        result(ProbeKind::Startup),
        cs.readiness_probe.is_some() && !no_workers,
        result(ProbeKind::Readiness),
    )
}

/// The status the kubelet would write now (`generateAPIPodStatus`): container
/// statuses from the upstream `convertToAPIContainerStatuses` port, `started` / `ready` from
/// the prober, then phase and conditions.
pub fn compute_status(m: &Context, _s: &State, pod: &Pod, rt: &PodRt) -> PodStatus {
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
            restart_all_containers_on_container_exits: false,
            pod_restarting: false,
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
        let (c, cs) = (&rt.init[i], &spec.init_containers[i]);
        if cs.is_sidecar() {
            // A sidecar's started and ready come from its probes, as a regular container's
            // (prober_manager.go `UpdatePodStatus`; docs/sources.md#sidecar-containers).
            (st.started, st.ready) = started_and_ready(c, cs, rt.probes_pending);
            continue;
        }
        // Init containers are Ready once they exited 0 (older wording).
        st.ready = matches!(c.run, Run::Exited(Exit { code: 0, .. }));
        st.started = Some(matches!(c.run, Run::Running(_)));
    }
    for st in &mut statuses {
        let Some(i) = spec.containers.iter().position(|c| c.name == st.name) else {
            continue;
        };
        (st.started, st.ready) =
            started_and_ready(&rt.ctrs[i], &spec.containers[i], rt.probes_pending);
    }
    // The model reports the terminal phase of a terminating pod once the pod worker has
    // finished with it (`rt.killed`), as the merge below does for every terminal phase; the
    // hold (PR #108366) closed the OutOfcpu race of kubernetes#106884 (see docs/model.md).
    // Before 1.27 (PR #115331) the kubelet wrote no terminal phase for a pod it terminated:
    // `getPhase` had no `podIsTerminal`, and `TerminatePod` did not mark the pod Failed.
    let terminal_phase = m.by_release.terminal_phase_on_delete;
    let pod_is_terminal = rt.killed && terminal_phase;
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
        if !phase.is_terminal() && terminal_phase {
            phase = Phase::Failed;
        }
        // Before 1.27 a pod deleted while still Pending stayed Pending until its object was
        // removed: nothing gave it a terminal phase, and with no container ever started
        // `getPhase` never reached Running (the motivation of PR #115331).
        if !terminal_phase && !pod.ghost.ever_started {
            phase = Phase::Pending;
        }
    }
    // The eviction manager kills with a status function (`eviction_manager.go` `evictPod`):
    // phase Failed and reason Evicted, which the merge below holds back until the containers
    // have stopped; never Running with reason Evicted.
    if rt.evicted {
        phase = Phase::Failed;
    }
    // So does the node shutdown manager (`processShutdownEvent`): Failed unless the pod
    // Succeeded, reason Terminated.
    if rt.shutdown && phase != Phase::Succeeded {
        phase = Phase::Failed;
    }
    // `generateAPIPodStatus`: a terminal phase is never left.
    if pod.status.phase.is_terminal() && phase != pod.status.phase {
        phase = pod.status.phase;
    }
    // status_manager.go `syncPod` → `mergePodStatus(old, new, couldHaveRunningContainers)`:
    // while the pod worker could still have running containers
    // (`podWorkers.CouldHaveRunningContainers`: until SyncTerminatingPod has completed, here
    // `rt.killed`), a transition to a terminal phase is held back, and the API keeps the old
    // phase with its reason and message. This holds for every status the kubelet writes: a
    // pod that finished on its own, one evicted, one shut down
    // (docs/sources.md#kubelet-terminal-phase-only-after-the-containers-stop).
    let held = terminal_held(pod, rt, phase);
    if held {
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
        // The reason carries over; an evicted pod's is `Evicted`, once its phase is written.
        reason: if held {
            pod.status.reason.clone()
        } else if rt.evicted {
            "Evicted".into()
        } else if rt.shutdown {
            "Terminated".into()
        } else {
            pod.status.reason.clone()
        },
        message: if held {
            pod.status.message.clone()
        } else if rt.shutdown {
            "Pod was terminated in response to imminent node shutdown.".into()
        } else {
            pod.status.message.clone()
        },
        pod_ip: pod.status.pod_ip || rt.sandbox,
        initialized: cond("Initialized"),
        containers_ready: cond("ContainersReady"),
        ready: cond("Ready"),
        init_statuses,
        statuses,
    }
}

/// `mergePodStatus`: the status computed now would move the API's phase to Succeeded or
/// Failed while the pod worker could still have running containers (it has not completed
/// SyncTerminatingPod), so the old phase, reason and message stay in the API.
pub fn terminal_held(pod: &Pod, rt: &PodRt, computed: Phase) -> bool {
    !rt.killed && !pod.status.phase.is_terminal() && computed.is_terminal()
}

/// The status the kubelet computes now for the pod on node `n` ([`compute_status`]), and
/// whether the object's status differs from it; kept by content in the context's memo.
pub fn computed_status(m: &Context, s: &State, n: NodeId, uid: u16) -> Option<MemoEntry> {
    let (pod, rt) = s.shared_pair(n, uid)?;
    Some(
        m.status_memo
            .get((pod.content_hash(), rt.content_hash()), || {
                compute_entry(m, s, pod, rt)
            }),
    )
}

/// Whether a status update is due for the pod on node `n`: the object's status differs from
/// the one the kubelet computes now (kept by content, as [`computed_status`]).
pub fn status_differs(m: &Context, s: &State, n: NodeId, uid: u16) -> bool {
    let Some((pod, rt)) = s.shared_pair(n, uid) else {
        return false;
    };
    m.status_memo.read(
        (pod.content_hash(), rt.content_hash()),
        || compute_entry(m, s, pod, rt),
        |e| e.differs,
    )
}

fn compute_entry(m: &Context, s: &State, pod: &Pod, rt: &PodRt) -> MemoEntry {
    let status = compute_status(m, s, pod, rt);
    MemoEntry {
        differs: status != *pod.status,
        status: Shared::new(status),
    }
}

/// The status manager writes the computed status.
pub fn status_update(m: &Context, s: &mut State, n: NodeId, uid: u16) -> Option<()> {
    let status = computed_status(m, s, n, uid)?.status;
    // `mergePodStatus` sends the kubelet's `DisruptionTarget` (the status function of a
    // node-pressure eviction or a graceful node shutdown; gate `PodDisruptionConditions`,
    // from 1.26) only with the write that moves the phase to Succeeded or Failed, once no
    // container can run (docs/sources.md#kubelet-terminal-phase-only-after-the-containers-stop).
    let rt = s.rt(n, uid)?;
    let disrupted = (rt.evicted || rt.shutdown) && m.by_release.pod_disruption_conditions;
    let pod = s.kpod_mut(n, uid)?;
    if disrupted && !pod.status.phase.is_terminal() && status.phase.is_terminal() {
        pod.disruption_target = true;
    }
    pod.status = status;
    // A static pod's status goes to its mirror pod (status_manager.go: "only status in
    // mirror pod is meaningful"); a mirror being deleted is left alone.
    let (status, ghost) = (pod.status.clone(), pod.ghost.clone());
    let mirror = |p: &Pod| p.mirror_of == Some(uid) && p.deletion.is_none();
    if s.api.pods.iter().any(|p| mirror(p)) {
        if let Some(mp) = s.api.pods.iter_mut().find(|p| mirror(p)) {
            mp.status = status;
            mp.ghost.ever_started = ghost.ever_started;
        }
    }
    Some(())
}

/// `canBeDeleted` holds: the kubelet deletes the object with grace 0.
pub fn remove_object(_m: &Context, s: &mut State, n: NodeId, uid: u16) -> Option<()> {
    s.api.pods.retain(|p| p.uid != uid);
    s.nodes[n.index()].pods.retain(|r| r.uid != uid);
    Some(())
}
