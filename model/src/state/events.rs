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

/// A pod's events, one entry per distinct event ordered by kind, with its count: what
/// `kubectl describe pod` lists, and what the renderers read ([`Events::iter`]).
///
/// # What counts in a state's identity
///
/// The model and the properties read of a pod's events only [`Events::read`]: whether one of
/// them is a failing kubelet step's warning, whether a postStart hook failed, and for which
/// claims a Multi-Attach error was reported. Everything else (which pulls, starts and kills
/// were recorded, their counts, a Multi-Attach error's list of users, the node of
/// `Scheduled`) is read by the renderers only. So two states that differ only in what is
/// left out of `read` are the same state to every component and every property: an action is
/// enabled in one when it is in the other, and takes them to states that differ in the same
/// way, because recording an event only adds to the list (the marks of a list with one
/// event more are the marks before joined with the event's own). That relation is a
/// bisimulation that keeps every actor, so verdicts, shortest trace lengths and times are the
/// same whether the states are told apart by the whole list or by `read` only; a trace shows
/// the events of the run it replays (each state of a trace is made again from the start).
/// With `whole` (`Context::events_as_read` off), the whole list counts, and a state's
/// identity is what it was before this merge.
#[derive(Clone, Default)]
pub struct Events {
    list: Vec<PodEvent>,
    /// What is read of `list`, kept as it changes.
    read: Read,
    whole: bool,
}

/// What the model and the properties read of a pod's events ([`Events`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Read {
    /// A warning of a failing kubelet step ([`EventKind::is_step_failure`]).
    pub step_failure: bool,
    /// `FailedPostStartHook`.
    pub post_start_failed: bool,
    /// The claims (bit `c` for claim `c`) of a Multi-Attach error.
    pub multi_attach: u32,
}

impl Read {
    fn of(kind: &EventKind) -> Read {
        Read {
            step_failure: kind.is_step_failure(),
            post_start_failed: matches!(kind, EventKind::FailedPostStartHook(_)),
            multi_attach: match kind {
                EventKind::MultiAttach { claim, .. } => {
                    1u32.checked_shl(u32::from(*claim)).unwrap_or(0)
                }
                _ => 0,
            },
        }
    }

    fn join(self, o: Read) -> Read {
        Read {
            step_failure: self.step_failure || o.step_failure,
            post_start_failed: self.post_start_failed || o.post_start_failed,
            multi_attach: self.multi_attach | o.multi_attach,
        }
    }
}

impl Events {
    /// No events; `whole`: the whole list counts in the state's identity ([`Events`]).
    pub fn new(whole: bool) -> Events {
        Events {
            list: Vec::new(),
            read: Read::default(),
            whole,
        }
    }

    /// What the model and the properties read of the events.
    pub fn read(&self) -> Read {
        self.read
    }

    /// The events, for the renderers (and the symmetry reduction, which renames what they
    /// name).
    pub fn iter(&self) -> std::slice::Iter<'_, PodEvent> {
        self.list.iter()
    }

    /// Changes each event with `f` (the symmetry reduction renames the node an event names).
    pub fn edit(&mut self, f: impl FnMut(&mut PodEvent)) {
        self.list.iter_mut().for_each(f);
        self.read = self
            .list
            .iter()
            .fold(Read::default(), |r, e| r.join(Read::of(&e.kind)));
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Records one more `kind`: a new entry with count 1, or one more of the entry's count
    /// (saturating at [`EVENT_COUNT_CAP`]).
    pub fn record(&mut self, kind: EventKind) {
        self.read = self.read.join(Read::of(&kind));
        match self.list.binary_search_by(|e| e.kind.cmp(&kind)) {
            Ok(i) => {
                let e = &mut self.list[i];
                e.count = (e.count + 1).min(EVENT_COUNT_CAP);
            }
            Err(i) => self.list.insert(i, PodEvent { kind, count: 1 }),
        }
    }

    /// Whether the whole list counts in the state's identity.
    pub fn whole(&self) -> bool {
        self.whole
    }

    pub fn set_whole(&mut self, whole: bool) {
        self.whole = whole;
    }
}

impl PartialEq for Events {
    fn eq(&self, o: &Events) -> bool {
        self.whole == o.whole
            && if self.whole {
                self.list == o.list
            } else {
                self.read() == o.read()
            }
    }
}
impl Eq for Events {}

impl std::hash::Hash for Events {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if self.whole {
            self.list.hash(h);
        } else {
            self.read().hash(h);
        }
    }
}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.list.fmt(f)
    }
}

impl EventKind {
    /// Whether the model or a property reads this kind at all ([`Events::read`]): a failing
    /// step's warning, a failed postStart hook or a Multi-Attach error.
    pub fn is_read(&self) -> bool {
        Read::of(self) != Read::default()
    }

    /// A warning of a failing kubelet step (each failing step has its diagnostic,
    /// docs/sources.md#kubelet-volumes-sandbox-and-containers).
    pub fn is_step_failure(&self) -> bool {
        matches!(
            self,
            EventKind::FailedCreatePodSandBox
                | EventKind::FailedAttachVolume
                | EventKind::MultiAttach { .. }
                | EventKind::FailedMount
                | EventKind::CreateFailed(_)
                | EventKind::FailedPostStartHook(_)
                | EventKind::FailedKillPod
                | EventKind::PullFailed(_)
                | EventKind::ImagePullBackOff(_)
                | EventKind::ErrImageNeverPull(_)
                | EventKind::BackOff(_)
                | EventKind::Rejected
        )
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
