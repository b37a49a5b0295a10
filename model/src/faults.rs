//! Faults and operator actions. Each fault of a scenario happens at most once, at any moment
//! it is enabled, or never; none of them is fair. A `drain` starts a `kubectl drain` run,
//! whose own steps are the drain client's (`crate::drain`).

use crate::apiserver;
use crate::context::Context;
use crate::state::*;
use podcheck_input::spec::Fault;

/// A fault or operator action of the scenario happens, or a partition heals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Fault `index` of the scenario happens (to pod `target`, where it picks one).
    Fault { index: u8, target: Option<u16> },
    /// The partition of fault `index` heals.
    Heal { index: u8 },
}

fn k8s_running() -> crate::k8s::ContainerState {
    crate::k8s::ContainerState::Running
}

fn fired(s: &State, i: usize) -> bool {
    s.env.fired & (1 << i) != 0
}

fn workload_index(m: &Context, name: &str) -> Option<u8> {
    m.scenario
        .workloads
        .iter()
        .position(|w| w.name() == name)
        .map(|i| i as u8)
}

fn node_index(m: &Context, name: &str) -> Option<usize> {
    m.scenario.cluster.nodes.iter().position(|n| n.name == name)
}

/// Fault `index`, which picks no pod, is enabled.
fn untargeted<A: From<Action>>(out: &mut Vec<A>, index: u8) {
    out.push(
        Action::Fault {
            index,
            target: None,
        }
        .into(),
    );
}

/// Enabled faults.
pub fn actions<A: From<Action>>(m: &Context, s: &State, out: &mut Vec<A>) {
    for (i, f) in m.scenario.faults.iter().enumerate() {
        if let Fault::Partition { node, heals: true } = f {
            let healed = s.env.healed & (1 << i) != 0;
            let deleted = node_index(m, node).is_some_and(|n| s.api.nodes[n].deleted);
            if fired(s, i) && !healed && !deleted {
                out.push(Action::Heal { index: i as u8 }.into());
            }
        }
        if fired(s, i) {
            continue;
        }
        let index = i as u8;
        match f {
            // A condition in force from the start, not an action.
            Fault::StepFails { .. } => {}
            // `kubectl rollout restart` or `kubectl scale`, at any moment (once).
            Fault::RolloutRestart { .. } | Fault::Scale { .. } => out.push(
                Action::Fault {
                    index,
                    target: None,
                }
                .into(),
            ),
            // `kubectl set image pod/…` of a pod of the workload whose container runs, and
            // whose spec no such change has touched yet.
            Fault::SetPodImage {
                workload,
                container,
                ..
            } => {
                let w = workload_index(m, workload);
                for p in &s.api.pods {
                    let runs = p
                        .status
                        .statuses
                        .iter()
                        .any(|c| &c.name == container && c.state == k8s_running());
                    if Some(p.workload) == w
                        && p.node.is_some()
                        && p.deletion.is_none()
                        && p.mirror_of.is_none()
                        && p.image_set.is_none()
                        && runs
                    {
                        out.push(
                            Action::Fault {
                                index,
                                target: Some(p.uid),
                            }
                            .into(),
                        );
                    }
                }
            }
            // `kubectl delete pod` of a Ready pod of the workload.
            Fault::DeletePod { workload, .. } => {
                let w = workload_index(m, workload);
                for p in &s.api.pods {
                    if Some(p.workload) == w && p.status.ready && p.deletion.is_none() {
                        out.push(
                            Action::Fault {
                                index,
                                target: Some(p.uid),
                            }
                            .into(),
                        );
                    }
                }
            }
            // A force delete of any bound pod of the workload (or only of one stuck
            // Terminating).
            Fault::ForceDeletePod {
                workload,
                terminating_only,
            } => {
                let w = workload_index(m, workload);
                for p in &s.api.pods {
                    if Some(p.workload) == w
                        && p.node.is_some()
                        && (!terminating_only || p.deletion.is_some())
                    {
                        out.push(
                            Action::Fault {
                                index,
                                target: Some(p.uid),
                            }
                            .into(),
                        );
                    }
                }
            }
            Fault::Partition { node, .. } => {
                if let Some(n) = node_index(m, node) {
                    if !s.api.nodes[n].deleted {
                        out.push(
                            Action::Fault {
                                index,
                                target: None,
                            }
                            .into(),
                        );
                    }
                }
            }
            Fault::ControlPlanePartition {} => out.push(
                Action::Fault {
                    index,
                    target: None,
                }
                .into(),
            ),
            // An operator acts on a node that is not Ready.
            Fault::DeleteNode { node } | Fault::OutOfServiceTaint { node } => {
                if node_index(m, node)
                    .is_some_and(|n| s.api.nodes[n].unknown && !s.api.nodes[n].deleted)
                {
                    untargeted(out, index);
                }
            }
            // Memory use grows once the node's pods run.
            Fault::MemoryPressure { node } => {
                if node_index(m, node)
                    .is_some_and(|n| s.nodes[n].pods.iter().any(|p| p.any_running()))
                {
                    untargeted(out, index);
                }
            }
            Fault::PowerOff { node } => {
                if node_index(m, node).is_some_and(|n| !s.api.nodes[n].deleted) {
                    untargeted(out, index);
                }
            }
            // A node that is up is shut down.
            Fault::NodeShutdown { node } => {
                if node_index(m, node).is_some_and(|n| {
                    !s.api.nodes[n].deleted && !s.nodes[n].powered_off && !s.nodes[n].kubelet_down
                }) {
                    untargeted(out, index);
                }
            }
            // The kubelet of a node that runs something restarts.
            Fault::KubeletRestart { node } => {
                if node_index(m, node).is_some_and(|n| {
                    !s.nodes[n].kubelet_down && s.nodes[n].pods.iter().any(|p| p.any_running())
                }) {
                    untargeted(out, index);
                }
            }
            // The dependency fails while some pod is serving.
            Fault::DependencyOutage { .. } => {
                if s.api.pods.iter().any(|p| p.status.ready) {
                    untargeted(out, index);
                }
            }
            // `kubectl cordon` and `kubectl drain` of a node that exists; `kubectl uncordon`
            // of a cordoned one.
            Fault::Cordon { node } | Fault::Drain { node, .. } => {
                if node_index(m, node).is_some_and(|n| !s.api.nodes[n].deleted) {
                    untargeted(out, index);
                }
            }
            Fault::Uncordon { node } => {
                if node_index(m, node)
                    .is_some_and(|n| !s.api.nodes[n].deleted && s.api.nodes[n].unschedulable)
                {
                    untargeted(out, index);
                }
            }
            // The program of a pod's first regular container, running and not being
            // stopped, crashes.
            Fault::Crash { workload } => {
                let w = workload_index(m, workload);
                for node in s.nodes.iter() {
                    for rt in &node.pods {
                        let runs = rt
                            .ctrs
                            .first()
                            .is_some_and(|c| matches!(&c.run, Run::Running(p) if p.stop.is_none()));
                        if Some(rt.workload) == w && runs {
                            out.push(
                                Action::Fault {
                                    index,
                                    target: Some(rt.uid),
                                }
                                .into(),
                            );
                        }
                    }
                }
            }
            // A program that is up deadlocks.
            Fault::Deadlock { workload } => {
                let w = workload_index(m, workload);
                for node in s.nodes.iter() {
                    for rt in &node.pods {
                        if Some(rt.workload) != w {
                            continue;
                        }
                        let up = rt
                            .ctrs
                            .iter()
                            .any(|c| matches!(&c.run, Run::Running(p) if p.answers() && p.stop.is_none()));
                        if up {
                            out.push(
                                Action::Fault {
                                    index,
                                    target: Some(rt.uid),
                                }
                                .into(),
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Applies fault `index`.
pub fn apply(m: &Context, s: &mut State, index: u8, target: Option<u16>) -> Option<()> {
    let f = m.scenario.faults.get(index as usize)?;
    if fired(s, index as usize) {
        return None;
    }
    s.env.fired |= 1 << index;
    match f {
        Fault::StepFails { .. } => None,
        // The request carries the grace kubectl made of its flags (validated on input).
        Fault::DeletePod { .. } => apiserver::delete_pod(m, s, target?, f.delete_grace().ok()?),
        Fault::Partition { node, .. } => {
            let n = node_index(m, node)?;
            s.nodes[n].partitioned = true;
            s.nodes[n].lease_age = 0;
            Some(())
        }
        Fault::ControlPlanePartition {} => {
            for node in s.nodes.iter_mut() {
                node.partitioned = true;
                node.lease_age = 0;
            }
            Some(())
        }
        Fault::DeleteNode { node } => {
            let n = node_index(m, node)?;
            s.api.nodes[n].deleted = true;
            s.api.nodes[n].unreachable_taint = false;
            s.api.nodes[n].gc_left = Some(40);
            Some(())
        }
        Fault::OutOfServiceTaint { node } => {
            let n = node_index(m, node)?;
            s.api.nodes[n].out_of_service = true;
            if !s.api.nodes[n].unreachable_taint {
                s.api.nodes[n].taint_age = 0;
            }
            Some(())
        }
        Fault::MemoryPressure { node } => {
            let n = node_index(m, node)?;
            s.nodes[n].memory_hog = true;
            Some(())
        }
        Fault::ForceDeletePod { .. } => {
            let uid = target?;
            s.pod(uid)?;
            s.api.pods.retain(|p| p.uid != uid);
            Some(())
        }
        Fault::PowerOff { node } => {
            crate::runtime::power_off(s, node_index(m, node)?);
            Some(())
        }
        Fault::KubeletRestart { node } => {
            let n = node_index(m, node)?;
            s.nodes[n].kubelet_down = true;
            Some(())
        }
        // logind announces the shutdown (PrepareForShutdown); the kubelet's shutdown manager
        // takes it from here (`crate::kubelet::shutdown`).
        Fault::NodeShutdown { node } => {
            let n = node_index(m, node)?;
            s.nodes[n].shutdown = Some(Shutdown {
                group: 0,
                killing: false,
                left: 0,
            });
            Some(())
        }
        Fault::DependencyOutage { seconds } => {
            s.env.dependency_down = true;
            s.env.outage_left = Some(*seconds);
            Some(())
        }
        Fault::Cordon { node } | Fault::Uncordon { node } => {
            let n = node_index(m, node)?;
            s.api.nodes[n].unschedulable = matches!(f, Fault::Cordon { .. });
            Some(())
        }
        // The command starts; its steps are the drain client's (`crate::drain`).
        Fault::Drain { node, .. } => {
            let n = node_index(m, node)?;
            s.env.drains.push(DrainRun {
                fault: index,
                node: NodeId::new(n),
                pods: Vec::new(),
                failed: false,
                stage: DrainStage::Cordon,
            });
            Some(())
        }
        Fault::RolloutRestart { workload } => {
            // The template gets `kubectl.kubernetes.io/restartedAt`: its next revision.
            let w = workload_index(m, workload)?;
            if let podcheck_input::spec::Workload::StatefulSet { .. } = m.workload(w) {
                // The StatefulSet controller's next sync finds a new update revision
                // (`getStatefulSetRevisions`); the current one stays until the rolling update
                // completes (docs/sources.md#statefulset-rolling-update).
                let st = s.api.workloads[w as usize]
                    .statefulset
                    .get_or_insert_with(StatefulSetStatus::default);
                st.update = st
                    .update
                    .checked_add(1)
                    .filter(|&t| (t as usize) < REVISIONS)?;
                return Some(());
            }
            let d = s.api.workloads[w as usize].deployment.as_mut()?;
            d.template = d
                .template
                .checked_add(1)
                .filter(|&t| (t as usize) < REVISIONS)?;
            Some(())
        }
        Fault::Scale { workload, replicas } => {
            // The merge PATCH of `spec.replicas`; the Deployment controller scales its
            // ReplicaSet next (`crate::controllers::deployment`).
            let w = workload_index(m, workload)?;
            let d = s.api.workloads[w as usize].deployment.as_mut()?;
            d.replicas = *replicas;
            Some(())
        }
        // The PATCH of `spec.containers[*].image`: the pod object changes in place (same uid);
        // its kubelet sees the new spec with its next sync (`crate::kubelet`).
        Fault::SetPodImage { .. } => {
            let pod = s.pod_mut(target?)?;
            if pod.image_set.is_some() {
                return None;
            }
            pod.image_set = Some(index);
            Some(())
        }
        Fault::Crash { .. } => {
            let uid = target?;
            let (n, _) = s.rt_any(uid)?;
            let rt = s.rt_mut(n, uid)?;
            let c = rt.ctrs.first_mut()?;
            if !matches!(&c.run, Run::Running(p) if p.stop.is_none()) {
                return None;
            }
            crate::runtime::exit_now(c, 1, false);
            // A failed run of a Job's container, as a program's own non-zero exit counts
            // (`crate::time`): the history `JobStatus::failed_runs` keeps.
            let w = rt.workload;
            if matches!(m.workload(w), podcheck_input::spec::Workload::Job { .. }) {
                if let Some(j) = s.api.workloads[w as usize].job.as_mut() {
                    j.failed_runs = j.failed_runs.saturating_add(1);
                }
            }
            Some(())
        }
        Fault::Deadlock { .. } => {
            let uid = target?;
            let (n, _) = s.rt_any(uid)?;
            let rt = s.rt_mut(n, uid)?;
            for c in &mut rt.ctrs {
                if let Run::Running(p) = &mut c.run {
                    p.deadlocked = true;
                }
            }
            Some(())
        }
    }
}

/// The partition of fault `index` heals: the kubelet reaches the API server again.
pub fn heal(m: &Context, s: &mut State, index: u8) -> Option<()> {
    let Some(Fault::Partition { node, heals: true }) = m.scenario.faults.get(index as usize) else {
        return None;
    };
    let n = node_index(m, node)?;
    s.env.healed |= 1 << index;
    s.nodes[n].partitioned = false;
    s.nodes[n].lease_age = 0;
    Some(())
}
