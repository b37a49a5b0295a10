//! The events a real cluster records for a step, with the reasons and messages of the
//! components that emit them (kubelet `events` package, scheduler, controllers). They are
//! derived from the action and the states around it. The model does not store events (yet),
//! so this is the one place that says which step emits which event.

use podcheck_model::kubelet::Step;
use podcheck_model::state::*;
use podcheck_model::{Action, Cluster};
use serde::{Deserialize, Serialize};

/// One event, as `kubectl get events` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// `Normal` or `Warning`.
    pub r#type: String,
    pub reason: String,
    /// `pod/web-1`, `replicaset/web`, `job/batch`.
    pub object: String,
    pub message: String,
}

fn ev(t: &str, reason: &str, object: String, message: String) -> Event {
    Event {
        r#type: t.into(),
        reason: reason.into(),
        object,
        message,
    }
}

fn container_name(m: &Cluster, s: &State, uid: u16, init: bool, i: usize) -> (String, String) {
    let w = s
        .pod(uid)
        .map(|p| p.workload)
        .or_else(|| s.rt_any(uid).map(|(_, rt)| rt.workload))
        .unwrap_or(0);
    let t = m.workload(w).template();
    let c = if init {
        &t.init_containers[i]
    } else {
        &t.containers[i]
    };
    (c.name.clone(), c.image.clone())
}

/// Events emitted by `action` taking `before` to `after`.
pub fn events(m: &Cluster, before: &State, action: &Action, after: &State) -> Vec<Event> {
    let pod = |uid: u16| format!("pod/{}", m.uid_name(before, uid));
    let mut out = Vec::new();
    match *action {
        Action::Schedule { uid, node: Some(n) } => out.push(ev(
            "Normal",
            "Scheduled",
            pod(uid),
            format!(
                "Successfully assigned default/{} to {}",
                m.uid_name(before, uid),
                m.node_name(n)
            ),
        )),
        Action::Schedule { uid, node: None } => {
            if let Some(msg) = after.pod(uid).and_then(|p| p.unschedulable.clone()) {
                out.push(ev("Warning", "FailedScheduling", pod(uid), msg));
            }
        }
        Action::ReplicaSetSync { workload } | Action::JobSync { workload } => {
            let kind = if matches!(action, Action::JobSync { .. }) {
                "job"
            } else {
                "replicaset"
            };
            let owner = format!("{kind}/{}", m.workload(workload).name());
            for p in &after.api.pods {
                if before.pod(p.uid).is_none() {
                    out.push(ev(
                        "Normal",
                        "SuccessfulCreate",
                        owner.clone(),
                        format!("Created pod: {}", m.pod_name(p)),
                    ));
                }
            }
            for p in &before.api.pods {
                let deleted_now = after
                    .pod(p.uid)
                    .is_none_or(|q| q.deletion.is_some() && p.deletion.is_none());
                if p.workload == workload && deleted_now {
                    out.push(ev(
                        "Normal",
                        "SuccessfulDelete",
                        owner.clone(),
                        format!("Deleted pod: {}", m.pod_name(p)),
                    ));
                }
            }
            let cond = |s: &State| {
                s.api.workloads[workload as usize]
                    .job
                    .as_ref()
                    .and_then(|j| j.condition)
            };
            if cond(before) != cond(after) {
                match cond(after) {
                    Some(JobCondition::BackoffLimitExceeded) => out.push(ev(
                        "Warning",
                        "BackoffLimitExceeded",
                        owner,
                        "Job has reached the specified backoff limit".into(),
                    )),
                    Some(JobCondition::Complete) => {
                        out.push(ev("Normal", "Completed", owner, "Job completed".into()))
                    }
                    None => {}
                }
            }
        }
        Action::Kubelet { node, uid, step } => {
            kubelet_events(m, before, after, node, uid, step, &mut out)
        }
        Action::Evict { uid, .. } => out.push(ev(
            "Warning",
            "Evicted",
            pod(uid),
            "The node was low on resource: memory.".into(),
        )),
        Action::TaintEviction { uid } => out.push(ev(
            "Normal",
            "TaintManagerEviction",
            pod(uid),
            format!(
                "Marking for deletion Pod default/{}",
                m.uid_name(before, uid)
            ),
        )),
        Action::NodeLifecycle {
            node,
            step: podcheck_model::nodes::NlcStep::MarkUnknown,
        } => out.push(ev(
            "Normal",
            "NodeNotReady",
            format!("node/{}", m.node_name(node)),
            format!("Node {} status is now: NodeNotReady", m.node_name(node)),
        )),
        Action::Probe {
            node,
            uid,
            ctr,
            kind,
        } => {
            let w = |s: &State| {
                s.rt(node, uid)
                    .and_then(|rt| rt.ctrs[ctr as usize].probes[kind as usize])
            };
            let (wb, wa) = (w(before), w(after));
            if let (Some(wb), Some(wa)) = (wb, wa) {
                let probed = wa.last != wb.last || wa.run != wb.run || wa.on_hold != wb.on_hold;
                let failed = probed && wa.last == ProbeResult::Failure;
                let (c, _) = container_name(m, before, uid, false, ctr as usize);
                if failed {
                    let k = match kind {
                        ProbeKind::Startup => "Startup",
                        ProbeKind::Readiness => "Readiness",
                        ProbeKind::Liveness => "Liveness",
                    };
                    out.push(ev(
                        "Warning",
                        "Unhealthy",
                        pod(uid),
                        format!("{k} probe failed"),
                    ));
                }
                if wa.on_hold && !wb.on_hold {
                    out.push(ev(
                        "Normal",
                        "Killing",
                        pod(uid),
                        format!(
                            "Container {c} failed {} probe, will be restarted",
                            kind.name()
                        ),
                    ));
                }
            }
        }
        _ => {}
    }
    out
}

fn kubelet_events(
    m: &Cluster,
    before: &State,
    after: &State,
    node: u8,
    uid: u16,
    step: Step,
    out: &mut Vec<Event>,
) {
    let pod = format!("pod/{}", m.uid_name(before, uid));
    match step {
        Step::Reject => {
            if let Some(p) = after.pod(uid) {
                out.push(ev(
                    "Warning",
                    &p.status.reason,
                    pod,
                    "Pod was rejected by kubelet admission".into(),
                ));
            }
        }
        Step::PullImage { init, ctr } => {
            let (_, image) = container_name(m, before, uid, init, ctr as usize);
            out.push(ev(
                "Normal",
                "Pulling",
                pod.clone(),
                format!("Pulling image \"{image}\""),
            ));
            let failed = after
                .rt(node, uid)
                .and_then(|rt| rt.ctr(init, ctr as usize).waiting)
                .is_some_and(|w| matches!(w, Waiting::ErrImagePull { .. }));
            if failed {
                out.push(ev(
                    "Warning",
                    "Failed",
                    pod.clone(),
                    format!("Failed to pull image \"{image}\""),
                ));
                out.push(ev("Warning", "Failed", pod, "Error: ErrImagePull".into()));
            } else {
                out.push(ev(
                    "Normal",
                    "Pulled",
                    pod,
                    format!("Successfully pulled image \"{image}\""),
                ));
            }
        }
        Step::ImagePullBackOff { init, ctr } => {
            let (_, image) = container_name(m, before, uid, init, ctr as usize);
            out.push(ev(
                "Normal",
                "BackOff",
                pod.clone(),
                format!("Back-off pulling image \"{image}\""),
            ));
            out.push(ev(
                "Warning",
                "Failed",
                pod,
                "Error: ImagePullBackOff".into(),
            ));
        }
        Step::CrashLoopBackOff { init, ctr } => {
            let (c, _) = container_name(m, before, uid, init, ctr as usize);
            out.push(ev(
                "Warning",
                "BackOff",
                pod,
                format!(
                    "Back-off restarting failed container {c} in pod {}",
                    m.uid_name(before, uid)
                ),
            ));
        }
        Step::Start { init, ctr } => {
            let (c, _) = container_name(m, before, uid, init, ctr as usize);
            out.push(ev(
                "Normal",
                "Created",
                pod.clone(),
                format!("Created container: {c}"),
            ));
            out.push(ev(
                "Normal",
                "Started",
                pod,
                format!("Started container {c}"),
            ));
        }
        Step::KillPod | Step::KillOrphan => {
            if let (Some(rb), Some(ra)) = (before.rt(node, uid), after.rt(node, uid)) {
                let w = rb.workload;
                let t = m.workload(w).template();
                let names = t.init_containers.iter().chain(&t.containers);
                for ((cb, ca), cs) in rb
                    .init
                    .iter()
                    .chain(&rb.ctrs)
                    .zip(ra.init.iter().chain(&ra.ctrs))
                    .zip(names)
                {
                    let stopping = |c: &Ctr| matches!(&c.run, Run::Running(p) if p.stop.is_some());
                    let was_running = matches!(cb.run, Run::Running(_));
                    if was_running && (stopping(ca) || matches!(ca.run, Run::Exited(_))) {
                        out.push(ev(
                            "Normal",
                            "Killing",
                            pod.clone(),
                            format!("Stopping container {}", cs.name),
                        ));
                    }
                }
            }
        }
        _ => {}
    }
}
