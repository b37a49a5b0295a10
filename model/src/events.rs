//! Events: what `kubectl describe pod` lists under "Events". Each component records its
//! events on the pod they are about, where the real one calls `recorder.Eventf`; the pod
//! keeps one entry per distinct event with a count, as the API server's event correlator
//! aggregates repeats. The reasons and messages are the upstream ones (kubelet `events`
//! package, `kuberuntime_manager.go` SyncPod, `kuberuntime_container.go` startContainer,
//! `kubelet.go` SyncPod / SyncTerminatingPod / rejectPod, `operation_generator.go`, the
//! scheduler and the taint-eviction controller); the text of an infrastructure error comes
//! from the scenario's `stepFails` fault.
//!
//! Not modelled: events a kubelet records while it cannot reach the API server are dropped
//! (the real broadcaster retries a few times, then drops them too); events outlive their pod
//! for `--event-ttl` (1 h) in a real cluster, here they go with the pod object.

use crate::cluster::Cluster;
use crate::spec::FailingStep;
use crate::state::*;
use serde::{Deserialize, Serialize};

/// Counts are exact up to this value and then saturate ("5+"): a retry loop has no end.
pub const EVENT_COUNT_CAP: u8 = 5;

/// One distinct event on a pod, with how many times it was recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PodEvent {
    pub kind: EventKind,
    pub count: u8,
}

/// A container of the pod: init container or regular, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct C {
    pub init: bool,
    pub ctr: u8,
}

/// Which event. The text is rendered by [`text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    /// scheduler: `Scheduled`.
    Scheduled {
        node: u8,
    },
    /// scheduler: `FailedScheduling`.
    FailedScheduling,
    /// kubelet `rejectPod` (F 110): reason and message of the admission failure.
    Rejected,
    /// taint-eviction controller (F 102).
    TaintManagerEviction,
    /// kubelet eviction manager (F 112).
    Evicted,
    /// kuberuntime SyncPod: `FailedCreatePodSandBox`.
    FailedCreatePodSandBox,
    /// attach/detach controller: `FailedAttachVolume`.
    FailedAttachVolume,
    /// volume manager reconciler: `FailedMount` (MountVolume.SetUp failed).
    FailedMount,
    Pulling(C),
    Pulled(C),
    /// `Failed`: "Failed to pull image …".
    PullFailed(C),
    /// `Failed`: "Error: ErrImagePull".
    ErrImagePull(C),
    /// `BackOff`: "Back-off pulling image …".
    PullBackOff(C),
    /// `Failed`: "Error: ImagePullBackOff".
    ImagePullBackOff(C),
    /// `Failed`: "Error: …" from generateContainerConfig or CRI CreateContainer.
    CreateFailed(C),
    Created(C),
    Started(C),
    /// `BackOff`: "Back-off restarting failed container …".
    BackOff(C),
    /// `FailedPostStartHook`.
    FailedPostStartHook(C),
    /// `Killing`, with why.
    Killing(C, StopWhy),
    /// `Unhealthy`: a probe failed.
    Unhealthy(u8, ProbeKind),
    /// kubelet SyncTerminatingPod: `FailedKillPod`.
    FailedKillPod,
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

/// What a component recorded during one step: (pod uid, event). Not part of the state's
/// identity: two states that differ only here are the same state. Cleared at every step, so
/// a trace replayed from the start reads exactly what each of its steps recorded.
#[derive(Clone, Debug, Default)]
pub struct Journal(pub Vec<(u16, EventKind)>);

impl PartialEq for Journal {
    fn eq(&self, _: &Journal) -> bool {
        true
    }
}
impl Eq for Journal {}
impl std::hash::Hash for Journal {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Records `kind` on the pod `uid` (the API object, or the kubelet's static pod on `node`).
/// `reachable`: the recorder can reach the API server.
pub fn record(s: &mut State, node: Option<u8>, uid: u16, kind: EventKind, reachable: bool) {
    if !reachable {
        return;
    }
    let pod = match node {
        Some(n) => s.kpod_mut(n, uid),
        None => s.pod_mut(uid),
    };
    let Some(pod) = pod else { return };
    match pod.events.binary_search_by(|e| e.kind.cmp(&kind)) {
        Ok(i) => {
            let e = &mut pod.events[i];
            e.count = (e.count + 1).min(EVENT_COUNT_CAP);
        }
        Err(i) => pod.events.insert(i, PodEvent { kind, count: 1 }),
    }
    s.journal.0.push((uid, kind));
}

/// The kubelet of `node` records (it reaches the API server unless partitioned).
pub fn kubelet(s: &mut State, node: u8, uid: u16, kind: EventKind) {
    let reachable = !s.nodes[node as usize].partitioned;
    record(s, Some(node), uid, kind, reachable);
}

/// The pod's events include a warning of a failing kubelet step (seed 000: "each failure mode
/// has a diagnostic").
pub fn has_step_failure_event(pod: &Pod) -> bool {
    pod.events.iter().any(|e| {
        matches!(
            e.kind,
            EventKind::FailedCreatePodSandBox
                | EventKind::FailedAttachVolume
                | EventKind::FailedMount
                | EventKind::CreateFailed(_)
                | EventKind::FailedPostStartHook(_)
                | EventKind::FailedKillPod
                | EventKind::PullFailed(_)
                | EventKind::ImagePullBackOff(_)
                | EventKind::BackOff(_)
                | EventKind::Rejected
        )
    })
}

fn container<'a>(m: &'a Cluster, pod: &Pod, c: C) -> &'a crate::spec::Container {
    let t = m.workload(pod.workload).template();
    if c.init {
        &t.init_containers[c.ctr as usize]
    } else {
        &t.containers[c.ctr as usize]
    }
}

/// The error text the scenario gives for a failing step, or the default.
pub fn failure_message(m: &Cluster, workload: u8, step: FailingStep) -> String {
    if let Some(msg) = m
        .step_failure(workload, step)
        .and_then(|f| f.message.clone())
    {
        return msg;
    }
    let t = m.workload(workload).template();
    let vol = |pvc: bool| {
        t.volumes
            .iter()
            .find(|v| !pvc || v.persistent_volume_claim.is_some())
            .map(|v| v.name.clone())
            .unwrap_or_default()
    };
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
pub fn failing_volume(m: &Cluster, workload: u8, step: FailingStep) -> String {
    m.workload(workload)
        .template()
        .volumes
        .iter()
        .find(|v| step != FailingStep::AttachVolume || v.persistent_volume_claim.is_some())
        .map(|v| v.name.clone())
        .unwrap_or_default()
}

/// The type, reason and message of an event on `pod`.
pub fn text(m: &Cluster, pod: &Pod, kind: EventKind) -> Event {
    let name = m.pod_name(pod);
    let object = format!("pod/{name}");
    let w = pod.workload;
    let image = |c: C| container(m, pod, c).image.clone();
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
                StopWhy::Deletion | StopWhy::PodFinished | StopWhy::Evicted => {
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
pub fn describe(m: &Cluster, pod: &Pod) -> Vec<(Event, String)> {
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
pub fn warning_table(m: &Cluster, pod: &Pod) -> Vec<String> {
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
