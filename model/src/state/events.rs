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

use super::{ProbeKind, StopWhy};

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
        node: super::NodeId,
    },
    /// scheduler: `FailedScheduling`.
    FailedScheduling,
    /// kubelet `rejectPod`: reason and message of the admission failure.
    Rejected,
    /// taint-eviction controller.
    TaintManagerEviction,
    /// kubelet eviction manager.
    Evicted,
    /// kuberuntime SyncPod: `FailedCreatePodSandBox`.
    FailedCreatePodSandBox,
    /// attach/detach controller: `FailedAttachVolume`, the attach failed.
    FailedAttachVolume,
    /// attach/detach controller `reportMultiAttachError`: `FailedAttachVolume`
    /// "Multi-Attach error for volume …", for `claim`'s volume. `used_by`: the pods (workload,
    /// name suffix) that use the volume on the node it is attached to, the first four, and how
    /// many `more`; none when their objects are gone.
    MultiAttach {
        claim: u8,
        used_by: [Option<(u8, u8)>; 4],
        more: u8,
    },
    /// volume manager reconciler: `FailedMount` (MountVolume.SetUp failed).
    FailedMount,
    Pulling(C),
    Pulled(C),
    /// `Pulled`: "Container image … already present on machine" (`imagePullPolicy`
    /// IfNotPresent or Never with the image on the node).
    AlreadyPresent(C),
    /// `ErrImageNeverPull`: "Container image … is not present with pull policy of Never".
    ErrImageNeverPull(C),
    /// `Failed`: "Error: ErrImageNeverPull".
    NeverPullFailed(C),
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
    Unhealthy(C, ProbeKind),
    /// kubelet SyncTerminatingPod: `FailedKillPod`.
    FailedKillPod,
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
