//! The events of one step, as `kubectl get events` would list them, and the text of every
//! event a pod records (its type, reason and message, as `kubectl describe pod` shows them). Pod events come from the
//! model, where each component records them on the pod (`podcheck_model::events`); the
//! controllers' and the node lifecycle controller's events, which are about other objects,
//! are derived here from the action and the states around it.

use podcheck_input::spec::FailingStep;
use podcheck_model::controllers::{self, node_lifecycle};
use podcheck_model::events::*;
use podcheck_model::state::*;
use podcheck_model::{Action, Context};
use serde::{Deserialize, Serialize};

fn ev(t: &str, reason: &str, object: String, message: String) -> Event {
    Event::new(t, reason, object, message)
}

/// The pod object `uid` as of `s`: the API object or a kubelet's static pod.
fn pod_in(s: &State, uid: u16) -> Option<&Pod> {
    s.pod(uid).or_else(|| {
        s.nodes
            .iter()
            .find_map(|n| n.static_pods.iter().find(|p| p.uid == uid).map(|p| &**p))
    })
}

/// Events emitted by `action` taking `before` to `after`.
pub fn events(m: &Context, before: &State, action: &Action, after: &State) -> Vec<Event> {
    let mut out = Vec::new();
    for (uid, kind) in &after.journal.0 {
        if let Some(p) = pod_in(after, *uid).or_else(|| pod_in(before, *uid)) {
            out.push(text(m, p, *kind));
        }
    }
    match *action {
        Action::Controller(controllers::Action::DeploymentSync { workload }) => {
            let owner = format!("deployment/{}", m.workload(workload).name());
            let d = |s: &State| s.api.workloads[workload as usize].deployment.clone();
            let (Some(was), Some(now)) = (d(before), d(after)) else {
                return out;
            };
            // scaleReplicaSet: "Scaled {up|down} replica set %s to %d from %d".
            for r in 0..REVISIONS {
                let rs = crate::words::replica_set(m, workload, r as u8);
                match (was.replica_sets[r], now.replica_sets[r]) {
                    (None, Some(n)) => out.push(ev(
                        "Normal",
                        "ScalingReplicaSet",
                        owner.clone(),
                        format!("Scaled up replica set {rs} to {n} from 0"),
                    )),
                    (Some(a), Some(b)) if a != b => out.push(ev(
                        "Normal",
                        "ScalingReplicaSet",
                        owner.clone(),
                        format!(
                            "Scaled {} replica set {rs} to {b} from {a}",
                            if b > a { "up" } else { "down" }
                        ),
                    )),
                    _ => {}
                }
            }
        }
        Action::Controller(
            controllers::Action::ReplicaSetSync { workload, .. }
            | controllers::Action::JobSync { workload },
        ) => {
            let kind = if matches!(
                action,
                Action::Controller(controllers::Action::JobSync { .. })
            ) {
                "job"
            } else {
                "replicaset"
            };
            let owner = match *action {
                Action::Controller(controllers::Action::ReplicaSetSync { revision, .. })
                    if after.api.workloads[workload as usize]
                        .deployment
                        .as_ref()
                        .is_some_and(|d| d.template > 0) =>
                {
                    format!(
                        "{kind}/{}",
                        crate::words::replica_set(m, workload, revision)
                    )
                }
                _ => format!("{kind}/{}", m.workload(workload).name()),
            };
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
                let job = after.api.workloads[workload as usize].job.as_ref();
                match (cond(after), job) {
                    (Some(JobCondition::Failed(r)), Some(j)) => out.push(ev(
                        "Warning",
                        crate::words::job_reason(r),
                        owner,
                        crate::words::job_message(j, r),
                    )),
                    (Some(JobCondition::Complete(_)), _) => {
                        out.push(ev("Normal", "Completed", owner, "Job completed".into()))
                    }
                    _ => {}
                }
            }
        }
        Action::Controller(controllers::Action::NodeLifecycle {
            node,
            step: node_lifecycle::Step::MarkUnknown,
        }) => out.push(ev(
            "Normal",
            "NodeNotReady",
            format!("node/{}", m.node_name(node)),
            format!("Node {} status is now: NodeNotReady", m.node_name(node)),
        )),
        _ => {}
    }
    out
}

fn container<'a>(m: &'a Context, pod: &Pod, c: C) -> &'a podcheck_input::spec::Container {
    let t = m.workload(pod.workload).template();
    if c.init {
        &t.init_containers[c.ctr as usize]
    } else {
        &t.containers[c.ctr as usize]
    }
}

/// The error text the scenario gives for a failing step, or the default.
pub fn failure_message(m: &Context, workload: u8, step: FailingStep) -> String {
    if let Some(msg) = m
        .step_failure(workload, step)
        .and_then(|f| f.message.clone())
    {
        return msg;
    }
    let t = m.workload(workload).template();
    let vol = |pvc: bool| failing_volume_of(m, workload, pvc);
    match step {
        FailingStep::RunPodSandbox => {
            "rpc error: code = Unknown desc = failed to create sandbox".into()
        }
        FailingStep::CniAdd => "failed to setup network for sandbox: plugin failed (add)".into(),
        FailingStep::AttachVolume => format!("volume {} could not be attached", vol(true)),
        FailingStep::MountVolume => format!("mount of volume {} failed", vol(false)),
        FailingStep::CreateContainerConfig => match t
            .volumes
            .iter()
            .find_map(|v| v.config_map.as_ref().map(|c| c.name.clone()))
        {
            Some(cm) => format!("configmap \"{cm}\" not found"),
            None => "a referenced ConfigMap or Secret is missing".into(),
        },
        FailingStep::CreateContainer => "container create failed".into(),
        FailingStep::PostStartHook => "exit status 1".into(),
        FailingStep::KillPodSandbox => "failed to destroy network for sandbox".into(),
        FailingStep::UnmountVolume => format!("unmount of volume {} failed", vol(false)),
    }
}

/// The volume a failing volume step names: the first (PersistentVolumeClaim, for attach).
pub fn failing_volume(m: &Context, workload: u8, step: FailingStep) -> String {
    failing_volume_of(m, workload, step == FailingStep::AttachVolume)
}

/// The first volume of the workload's pods (`pvc`: the first with a claim); a StatefulSet's
/// claim templates come after the template's own volumes.
fn failing_volume_of(m: &Context, workload: u8, pvc: bool) -> String {
    m.workload(workload)
        .template()
        .volumes
        .iter()
        .find(|v| !pvc || v.persistent_volume_claim.is_some())
        .map(|v| v.name.clone())
        .or_else(|| m.claims_of(workload, 0).first().map(|(_, v)| v.clone()))
        .unwrap_or_default()
}

/// The type, reason and message of an event on `pod`.
pub fn text(m: &Context, pod: &Pod, kind: EventKind) -> Event {
    let name = m.pod_name(pod);
    let object = format!("pod/{name}");
    let w = pod.workload;
    // The image the pod's spec names now (a `setPodImage` changes it in place). The event
    // list keeps one entry per kind, so a pull of the old image reads with the new one.
    let image = |c: C| {
        m.container_image(pod, c.init, container(m, pod, c))
            .to_string()
    };
    let cname = |c: C| container(m, pod, c).name.clone();
    let (t, reason, message): (&str, String, String) = match kind {
        EventKind::Scheduled { node } => (
            "Normal",
            "Scheduled".into(),
            format!(
                "Successfully assigned default/{name} to {}",
                m.node_name(node)
            ),
        ),
        EventKind::FailedScheduling => (
            "Warning",
            "FailedScheduling".into(),
            pod.unschedulable.clone().unwrap_or_default(),
        ),
        EventKind::Rejected => (
            "Warning",
            pod.status.reason.clone(),
            pod.status
                .message
                .strip_prefix("Pod was rejected: ")
                .unwrap_or(&pod.status.message)
                .to_string(),
        ),
        EventKind::TaintManagerEviction => (
            "Normal",
            "TaintManagerEviction".into(),
            format!("Marking for deletion Pod default/{name}"),
        ),
        EventKind::Evicted => (
            "Warning",
            "Evicted".into(),
            "The node was low on resource: memory.".into(),
        ),
        EventKind::FailedCreatePodSandBox => {
            let cni = m.step_failure(w, FailingStep::CniAdd).is_some();
            let step = if cni {
                FailingStep::CniAdd
            } else {
                FailingStep::RunPodSandbox
            };
            (
                "Warning",
                "FailedCreatePodSandBox".into(),
                format!(
                    "Failed to create pod sandbox: {}",
                    failure_message(m, w, step)
                ),
            )
        }
        EventKind::FailedAttachVolume => (
            "Warning",
            "FailedAttachVolume".into(),
            format!(
                "AttachVolume.Attach failed for volume \"{}\" : {}",
                failing_volume(m, w, FailingStep::AttachVolume),
                failure_message(m, w, FailingStep::AttachVolume)
            ),
        ),
        EventKind::MultiAttach {
            claim,
            used_by,
            more,
        } => {
            // `reportMultiAttachError` and `VolumeToAttach.GenerateMsg`: "<prefix> for volume
            // %q <suffix>". The real message names the volume spec (the PersistentVolume's
            // name); the model has no PersistentVolume objects and names the pod's volume.
            let volume = m
                .claims_of(pod.workload, pod.suffix)
                .iter()
                .find(|(c, _)| *c == claim)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| m.claims[claim as usize].name.clone());
            let names: Vec<String> = used_by
                .iter()
                .flatten()
                .map(|&(w, sfx)| m.name_of(w, sfx))
                .collect();
            let suffix = if names.is_empty() {
                "Volume is already exclusively attached to one node and can't be attached to another".to_string()
            } else if more == 0 {
                format!("Volume is already used by pod(s) {}", names.join(", "))
            } else {
                // The model keeps the first four names (all pods are in one namespace).
                format!(
                    "Volume is already used by pod(s) {} (and {more} more)",
                    names.join(", ")
                )
            };
            (
                "Warning",
                "FailedAttachVolume".into(),
                format!("Multi-Attach error for volume \"{volume}\" {suffix}"),
            )
        }
        EventKind::FailedMount => (
            "Warning",
            "FailedMount".into(),
            format!(
                "MountVolume.SetUp failed for volume \"{}\" : {}",
                failing_volume(m, w, FailingStep::MountVolume),
                failure_message(m, w, FailingStep::MountVolume)
            ),
        ),
        EventKind::Pulling(c) => (
            "Normal",
            "Pulling".into(),
            format!("Pulling image \"{}\"", image(c)),
        ),
        EventKind::Pulled(c) => (
            "Normal",
            "Pulled".into(),
            format!("Successfully pulled image \"{}\"", image(c)),
        ),
        EventKind::AlreadyPresent(c) => (
            "Normal",
            "Pulled".into(),
            format!("Container image \"{}\" already present on machine", image(c)),
        ),
        EventKind::ErrImageNeverPull(c) => (
            "Warning",
            "ErrImageNeverPull".into(),
            format!(
                "Container image \"{}\" is not present with pull policy of Never",
                image(c)
            ),
        ),
        EventKind::NeverPullFailed(_) => (
            "Warning",
            "Failed".into(),
            "Error: ErrImageNeverPull".into(),
        ),
        EventKind::PullFailed(c) => (
            "Warning",
            "Failed".into(),
            format!("Failed to pull image \"{}\"", image(c)),
        ),
        EventKind::ErrImagePull(_) => ("Warning", "Failed".into(), "Error: ErrImagePull".into()),
        EventKind::PullBackOff(c) => (
            "Normal",
            "BackOff".into(),
            format!("Back-off pulling image \"{}\"", image(c)),
        ),
        EventKind::ImagePullBackOff(_) => {
            ("Warning", "Failed".into(), "Error: ImagePullBackOff".into())
        }
        EventKind::CreateFailed(_) => {
            let step = if m.step_failure(w, FailingStep::CreateContainerConfig).is_some() {
                FailingStep::CreateContainerConfig
            } else {
                FailingStep::CreateContainer
            };
            (
                "Warning",
                "Failed".into(),
                format!("Error: {}", failure_message(m, w, step)),
            )
        }
        EventKind::Created(c) => (
            "Normal",
            "Created".into(),
            format!("Created container: {}", cname(c)),
        ),
        EventKind::Started(c) => (
            "Normal",
            "Started".into(),
            format!("Started container {}", cname(c)),
        ),
        EventKind::BackOff(c) => (
            "Warning",
            "BackOff".into(),
            format!("Back-off restarting failed container {} in pod {name}", cname(c)),
        ),
        EventKind::FailedPostStartHook(_) => (
            "Warning",
            "FailedPostStartHook".into(),
            "PostStartHook failed".into(),
        ),
        EventKind::Killing(c, why) => (
            "Normal",
            "Killing".into(),
            match why {
                StopWhy::LivenessProbe => format!(
                    "Container {} failed liveness probe, will be restarted",
                    cname(c)
                ),
                StopWhy::StartupProbe => format!(
                    "Container {} failed startup probe, will be restarted",
                    cname(c)
                ),
                StopWhy::PostStartHook => "FailedPostStartHook".into(),
                StopWhy::SpecChanged => format!(
                    "Container {} definition changed, will be restarted",
                    cname(c)
                ),
                StopWhy::Deletion
                | StopWhy::PodFinished
                | StopWhy::Evicted
                | StopWhy::NodeShutdown => {
                    format!("Stopping container {}", cname(c))
                }
            },
        ),
        EventKind::Unhealthy(_, kind) => (
            "Warning",
            "Unhealthy".into(),
            format!(
                "{} probe failed",
                match kind {
                    ProbeKind::Startup => "Startup",
                    ProbeKind::Readiness => "Readiness",
                    ProbeKind::Liveness => "Liveness",
                }
            ),
        ),
        EventKind::FailedKillPod => (
            "Warning",
            "FailedKillPod".into(),
            format!(
                "error killing pod: failed to \"KillPodSandbox\" for \"{}\" with KillPodSandboxError: \"{}\"",
                pod.uid,
                failure_message(m, w, FailingStep::KillPodSandbox)
            ),
        ),
    };
    Event::new(t, &reason, object, message)
}

/// `kubectl describe pod`'s Events table: TYPE, REASON, COUNT and MESSAGE.
pub fn describe(m: &Context, pod: &Pod) -> Vec<(Event, String)> {
    pod.events
        .iter()
        .map(|e| {
            let count = if e.count >= EVENT_COUNT_CAP {
                format!("x{}+", e.count)
            } else {
                format!("x{}", e.count)
            };
            (text(m, pod, e.kind), count)
        })
        .collect()
}

/// The Events table of `kubectl describe pod` for a pod with a Warning event (header and
/// rows), or nothing.
pub fn warning_table(m: &Context, pod: &Pod) -> Vec<String> {
    let rows = describe(m, pod);
    if !rows.iter().any(|(e, _)| e.r#type == "Warning") {
        return Vec::new();
    }
    let mut out = vec!["  Type     Reason                  Count  Message".to_string()];
    for (e, count) in rows {
        out.push(format!(
            "  {:<8} {:<23} {:<6} {}",
            e.r#type, e.reason, count, e.message
        ));
    }
    out
}

/// One event as `kubectl get events` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// `Normal` or `Warning`.
    pub r#type: String,
    pub reason: String,
    /// `pod/web-1`, `replicaset/web`, `job/batch`, `node/node-1`.
    pub object: String,
    pub message: String,
}
impl Event {
    pub fn new(t: &str, reason: &str, object: String, message: String) -> Event {
        Event {
            r#type: t.into(),
            reason: reason.into(),
            object,
            message,
        }
    }
}
