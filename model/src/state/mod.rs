//! The cluster state, in two layers: what the API server stores ([`Api`]) and what really runs
//! on each node and what the data plane really routes to ([`Node`], [`Proxy`]).
//!
//! Time is relative: the state holds no clock, only the seconds left on each pending timer, so
//! that a cluster that settles into a cycle (probes ticking, a crash loop at its 300 s cap)
//! revisits the same states and the state space stays finite. A trace recovers absolute time
//! by adding up the `Tick` actions along its path.
//!
//! # History variables
//!
//! A property that can be judged on one transition (state, action, next state) is a `step`
//! property of the catalogue, and the state keeps nothing for it. A few properties are about
//! a history that no single transition shows; the state keeps exactly these *history
//! variables* for them, and nothing in the model reads them to decide what happens:
//!
//! - [`PodGhost::ever_started`]: some container of the pod has been started
//!   (`pending_until_first_start`, `scheduled_leads_to_running`): a Running phase written
//!   long after the start is judged against it.
//! - [`PodGhost::stuck_for`]: how long the pod has been stuck (`stuck_pod_has_event`,
//!   `stuck_container_creating`, `stuck_terminating`): a duration across many steps.
//! - [`JobStatus::failed_runs`]: how many container runs of a Job's pods failed
//!   (`job_fails_only_after_backoff_limit_plus_one_failures`): the Job controller's verdict
//!   is judged against a count of earlier exits.
//! - [`Env::mirror_deleted`]: a kubelet deleted a mirror pod (`mirror_pod_recreated`): the
//!   witness is a later state where the mirror is back.
//! - [`Proxy::served`]: the kube-proxy has routed to some endpoint of the Service
//!   (`no_request_finds_no_endpoints`): a request it rejects for want of endpoints is judged
//!   only after the Service has been up through it, not during startup.

pub mod events;
mod shared;

pub use shared::Shared;

use crate::k8s::{ContainerStatus, EndpointConditions, Phase};

/// Seconds.
pub type Secs = u16;

/// Restart counts are exact up to this value and then saturate: a crash loop has no end, and
/// an unbounded counter would make the state space infinite. RESTARTS then reads "10+".
pub const RESTART_COUNT_CAP: u32 = 10;

/// The most pods tied at a ReplicaSet scale-down's cut among which the controller offers
/// each choice (`controllers::replicaset`, whose documentation says why); a larger tie is
/// broken by the higher uid. Read by the ReplicaSet controller and by the symmetry reduction.
pub const MAX_TIE: usize = 10;

/// The ages kept for back-off expiry only matter up to the largest expiry rule (600 s),
/// so they saturate just above it; this loses nothing.
pub const AGE_CAP: Secs = 601;

/// A node of the scenario, by its index in `scenario.cluster.nodes` (the same index as its
/// runtime record in [`State::nodes`], its Node object and its kube-proxy). Every field and
/// action that names a node has this type, so that a renaming of nodes
/// ([`crate::symmetry`]) and the footprints ([`crate::footprint`]) are found by the compiler
/// wherever a node is named. It is its `u8`, and hashes, orders and prints as it.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct NodeId(pub u8);

impl NodeId {
    /// The node at `index` of the scenario's node list.
    pub fn new(index: usize) -> NodeId {
        NodeId(index as u8)
    }

    /// Its index in the scenario's node list (and in [`State::nodes`]).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl From<NodeId> for usize {
    fn from(n: NodeId) -> usize {
        n.index()
    }
}

/// As the `u8` it is: a state's or an action's debug form is the same as with a plain index.
impl std::fmt::Debug for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

/// The whole cluster.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct State {
    pub api: Shared<Api>,
    /// Runtime truth and kubelet memory, one per node.
    pub nodes: Shared<Vec<Shared<Node>>>,
    /// kube-proxy, one per node.
    pub proxies: Shared<Vec<Proxy>>,
    pub env: Env,
    /// The events the last step recorded (not part of the state's identity).
    pub journal: events::Journal,
}

/// What the API server (etcd) stores.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Api {
    pub pods: Vec<Shared<Pod>>,
    /// The Service's EndpointSlice, ordered by pod uid.
    pub endpoints: Shared<Vec<Endpoint>>,
    /// One per workload of the scenario, same order.
    pub workloads: Shared<Vec<WorkloadStatus>>,
    /// The Node objects, one per node of the scenario, same order.
    pub nodes: Shared<Vec<NodeObj>>,
    /// The attach/detach controller's failing attaches: (claim, node) and retry timer.
    pub attach_retry: Shared<Vec<((u8, NodeId), Retry)>>,
    /// The attach/detach controller's actual state of the world: which claim's volume is
    /// attached to which node (a VolumeAttachment, for a CSI volume), ordered by (claim,
    /// node).
    pub attached: Shared<Vec<Attachment>>,
    /// The PodDisruptionBudgets' status, one per budget of the scenario, same order: what
    /// the disruption controller last wrote, and the Eviction API's decrements since.
    pub pdbs: Shared<Vec<PdbStatus>>,
}

/// `podDisruptionBudget.status` (`policy/v1`), as the disruption controller writes it
/// (`pkg/controller/disruption/disruption.go` `updatePdbStatus`) and the Eviction API
/// decrements it (`pkg/registry/core/pod/storage/eviction.go` `checkAndDecrement`;
/// docs/sources.md#disruption-controller).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PdbStatus {
    /// `observedGeneration` equals the budget's generation: the controller has written the
    /// status once. Before, the Eviction API answers 429 ("still being processed").
    pub observed: bool,
    pub current_healthy: u8,
    pub desired_healthy: u8,
    pub expected_pods: u8,
    pub disruptions_allowed: u8,
    /// `disruptedPods`: the pods (by uid) the Eviction API has allowed and the controller has
    /// not yet seen deleted. Their timestamps, for the 2 min `DeletionTimeout`, are not kept:
    /// the model's eviction deletes the pod in the same step, so no entry can outlive it.
    pub disrupted_pods: Vec<u16>,
}

/// A volume attached to a node, as the attach/detach controller's actual state of the world
/// holds it (`pkg/controller/volume/attachdetach/cache/actual_state_of_world.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Attachment {
    /// The claim's index in the context's claim list.
    pub claim: u8,
    pub node: NodeId,
    /// Seconds since the reconciler first found no pod on the node that needs the volume
    /// (`SetDetachRequestTime`), saturating at [`DETACH_AGE_CAP`]; None while one does.
    pub detach_age: Option<Secs>,
}

/// `maxWaitForUnmountDuration` (6 min, hard-coded in `attach_detach_controller.go`): a volume
/// still mounted on an unhealthy node is force-detached once the detach request is older
/// (`elapsedTime > maxWaitForUnmountDuration`; whole seconds here, so at 361 s).
pub const MAX_WAIT_FOR_UNMOUNT: Secs = 360;

/// Detach-request ages matter up to "longer than `maxWaitForUnmountDuration`".
pub const DETACH_AGE_CAP: Secs = MAX_WAIT_FOR_UNMOUNT + 1;

/// A Node object: its Ready condition and the taints the control plane manages.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct NodeObj {
    /// The Ready condition is Unknown: the node lifecycle controller has not heard from the
    /// kubelet for longer than the grace period.
    pub unknown: bool,
    /// `node.kubernetes.io/unreachable` with effects NoSchedule and NoExecute.
    pub unreachable_taint: bool,
    /// Seconds since the NoExecute taints were added (saturating), for taint eviction.
    pub taint_age: Secs,
    /// `node.kubernetes.io/out-of-service:NoExecute`, added by an operator.
    pub out_of_service: bool,
    /// The Node object was deleted.
    pub deleted: bool,
    /// Seconds left of PodGC's quarantine before it removes the pods of a deleted node
    /// (40 s).
    pub gc_left: Option<Secs>,
    /// `status.volumesInUse`, as the kubelet last reported it: bit i, claim i's volume is
    /// mounted (or about to be) on the node. The attach/detach controller reads it as
    /// `MountedByNode`; a kubelet that cannot reach the API server leaves it as it was.
    pub volumes_in_use: u32,
    /// `spec.unschedulable` (`kubectl cordon`, or the first step of `kubectl drain`).
    pub unschedulable: bool,
    /// The kubelet posted Ready=False ("node is shutting down": its shutdown manager's
    /// `ShutdownStatus` is among the Ready condition's errors).
    pub not_ready: bool,
    /// `node.kubernetes.io/not-ready` with effects NoSchedule and NoExecute, added by the
    /// node lifecycle controller for a node whose Ready is False.
    pub not_ready_taint: bool,
    /// The node lifecycle controller has seen the Ready condition leave True (it marked the
    /// node Unknown, or saw the kubelet post False) and marked the node's pods not Ready
    /// (`MarkPodsNotReady`, on the transition only); cleared when the kubelet posts Ready
    /// again. Its not-ready taint may still wait in the tainting queue.
    pub seen_not_ready: bool,
}

/// A workload's controller-visible status.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct WorkloadStatus {
    pub job: Option<JobStatus>,
    /// A Deployment's template revision and ReplicaSets.
    pub deployment: Option<DeploymentStatus>,
    /// A StatefulSet's revisions, from its first template change on (None before: every pod
    /// is at revision 0, which is both the current and the update revision).
    pub statefulset: Option<StatefulSetStatus>,
}

/// `status.currentRevision` and `status.updateRevision` of a StatefulSet, as revision numbers
/// below [`REVISIONS`] (the ControllerRevisions' names upstream). The update revision is the
/// template's; the current one is what a pod below the partition is recreated at, and it
/// becomes the update revision once every pod is updated and Ready
/// (`stateful_set_utils.go` `completeRollingUpdate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct StatefulSetStatus {
    pub current: u8,
    pub update: u8,
}

/// The revisions a Deployment's template can have: the scenario's, and the one a rollout
/// makes (`rolloutRestart`, which happens at most once).
pub const REVISIONS: usize = 2;

/// What the Deployment controller keeps in the API about one Deployment: which template
/// revision its spec has now, the `spec.replicas` of the ReplicaSet of each revision, and
/// the `Progressing` condition of the rollout.
///
/// Revision 0 is the ReplicaSet the Deployment had when the scenario starts (the controller's
/// first sync, creating it at `replicas`, is taken as done); each pod names its ReplicaSet by
/// [`Pod::revision`], as the `pod-template-hash` label does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DeploymentStatus {
    /// The Deployment's `spec.replicas`: the scenario's, until a `kubectl scale` changes it.
    pub replicas: u8,
    /// The revision of the Deployment's `spec.template`.
    pub template: u8,
    /// `spec.replicas` of each revision's ReplicaSet; None: no such ReplicaSet (not created
    /// yet, or removed by the history cleanup).
    pub replica_sets: [Option<u8>; REVISIONS],
    /// The `Progressing` condition since the template changed (None before).
    pub progressing: Option<Progressing>,
}

/// The `Progressing` condition of a Deployment (`progress.go` `syncRolloutStatus`), with the
/// status counts the controller last wrote, which the next sync compares with to tell
/// progress (`DeploymentProgressing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Progressing {
    /// True, reason `NewReplicaSetCreated` or `ReplicaSetUpdated`: `left` seconds until the
    /// deadline has passed (`lastUpdateTime + progressDeadlineSeconds` is before now).
    Updated { left: Secs, seen: Seen },
    /// False, reason `ProgressDeadlineExceeded`: the rollout goes on (nothing acts on it).
    ProgressDeadlineExceeded { seen: Seen },
    /// True, reason `NewReplicaSetAvailable`: the rollout is complete.
    NewReplicaSetAvailable,
}

/// A Deployment's status counts (`calculateStatus`, over active pods).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Seen {
    pub replicas: u8,
    pub updated: u8,
    pub ready: u8,
    pub available: u8,
}

/// `job.status`, as the Job controller writes it, and its bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct JobStatus {
    /// `status.active`: pods neither terminal nor deleted.
    pub active: u8,
    /// `status.ready`: active pods with Ready=True.
    pub ready: u8,
    /// `status.terminating`: deleted pods not yet terminal; published only from 1.29
    /// (gate `JobPodReplacementPolicy`), `None` before.
    pub terminating: Option<u8>,
    pub failed: u8,
    /// `status.succeeded` (for an Indexed Job, the succeeded indexes).
    pub succeeded: u8,
    /// `status.completedIndexes` and `status.failedIndexes` as bit sets (Indexed Jobs).
    pub completed_indexes: u16,
    pub failed_indexes: u16,
    /// `FailureTarget=True` or `SuccessCriteriaMet=True`: the verdict decided, before the
    /// terminal condition (from 1.29, `delayTerminalCondition`).
    pub target: Option<JobTarget>,
    /// The terminal condition, `Failed` or `Complete`, with its reason.
    pub condition: Option<JobCondition>,
    /// The message of a podFailurePolicy FailJob verdict.
    pub message: String,
    /// Seconds left of the pod-failure back-off before the next pod may be created.
    pub backoff_left: Secs,
    /// Pods failed since the last success (the back-off's exponent).
    pub consecutive_failures: u8,
    /// Seconds left until `activeDeadlineSeconds` passes, from the `startTime` the first sync
    /// sets.
    pub deadline_left: Option<Secs>,
    /// History variable: container runs of this Job's pods that ended in failure.
    pub failed_runs: u8,
    /// History variable: pods counted in `status.failed` that carried DisruptionTarget.
    pub failed_disrupted: u8,
}

/// Why a Job ends (the reason of its conditions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobReason {
    BackoffLimitExceeded,
    DeadlineExceeded,
    /// A podFailurePolicy FailJob rule matched.
    PodFailurePolicy,
    MaxFailedIndexesExceeded,
    FailedIndexes,
    CompletionsReached,
    SuccessPolicy,
}

/// The verdict the Job controller has decided (`FailureTarget`, `SuccessCriteriaMet`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobTarget {
    Failure(JobReason),
    Success(JobReason),
}

/// A Job's terminal condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobCondition {
    Complete(JobReason),
    Failed(JobReason),
}

impl JobStatus {
    /// The reason the Job fails, decided or written.
    pub fn failure(&self) -> Option<JobReason> {
        match (self.condition, self.target) {
            (Some(JobCondition::Failed(r)), _) | (None, Some(JobTarget::Failure(r))) => Some(r),
            _ => None,
        }
    }

    /// Whether the controller has decided the Job's end (a target or a terminal condition).
    pub fn decided(&self) -> bool {
        self.condition.is_some() || self.target.is_some()
    }
}

/// A pod object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pod {
    pub uid: u16,
    pub workload: u8,
    /// Name suffix: the pod is `<workload>-<suffix>`.
    pub suffix: u8,
    /// The template revision the pod was created from: for a Deployment's pod, its
    /// ReplicaSet (the `pod-template-hash` label); for a StatefulSet's, the revision it was
    /// created at (the `controller-revision-hash` label, [`StatefulSetStatus`]); 0 for every
    /// other workload.
    pub revision: u8,
    /// A Deployment's or StatefulSet's pod with `minReadySeconds` only (otherwise None):
    /// None while the pod is not Ready; once it is,
    /// seconds left until it counts as available (`IsPodAvailable`: Ready for
    /// `minReadySeconds`), 0 from then on.
    pub available_in: Option<Secs>,
    pub node: Option<NodeId>,
    /// `deletionTimestamp` set, with `deletionGracePeriodSeconds`.
    pub deletion: Option<Secs>,
    /// `PodScheduled=False`, reason Unschedulable, with the scheduler's message.
    pub unschedulable: Option<String>,
    /// Shared: many pods' objects (and a static pod's mirror) carry the status the kubelet
    /// computed once.
    pub status: Shared<PodStatus>,
    /// Counted by the Job controller (its `uncountedTerminatedPods` bookkeeping).
    pub job_counted: bool,
    /// An Indexed Job pod's completion index (`batch.kubernetes.io/job-completion-index`).
    pub job_index: Option<u8>,
    /// `batch.kubernetes.io/job-index-failure-count`: failures of this index before this pod.
    pub index_failures: u8,
    /// Condition DisruptionTarget=True (taint eviction, PodGC, kubelet eviction;
    /// KEP-3329).
    pub disruption_target: bool,
    /// A mirror pod: the API's read-only copy of the static pod with this (kubelet-side) uid.
    pub mirror_of: Option<u16>,
    /// The `setPodImage` fault (its index in the scenario) that changed
    /// `spec.containers[*].image` of this pod in place; None: the template's images. A pod
    /// takes at most one such change.
    pub image_set: Option<u8>,
    /// The events recorded about this pod, as `kubectl describe pod` lists them: one entry per
    /// distinct event, ordered by kind, with its count. Only what the model reads of them
    /// counts in the state's identity ([`events::Events`]).
    pub events: Shared<events::Events>,
    pub ghost: PodGhost,
}

/// `pod.status`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PodStatus {
    pub phase: Phase,
    /// `status.reason` (e.g. `OutOfcpu`); empty = none.
    pub reason: String,
    /// `status.message` (e.g. `Pod was rejected: …`); empty = none.
    pub message: String,
    pub pod_ip: bool,
    pub initialized: bool,
    pub containers_ready: bool,
    pub ready: bool,
    pub init_statuses: Vec<ContainerStatus>,
    pub statuses: Vec<ContainerStatus>,
}

/// History variables the properties need (see the module documentation), kept next to the
/// object they are about.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PodGhost {
    /// History variable: some container of this pod has been started.
    pub ever_started: bool,
    /// History variable: seconds (saturating at [`STUCK_CAP`]) the pod has been stuck: shown
    /// `ContainerCreating`, or deleted with nothing left running, on a kubelet that reaches
    /// the API server.
    pub stuck_for: Secs,
}

/// Stuck times matter up to "longer than a minute".
pub const STUCK_CAP: Secs = 61;

/// One endpoint of the EndpointSlice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Endpoint {
    pub uid: u16,
    pub node: NodeId,
    pub conditions: EndpointConditions,
}

/// A node: the pods its kubelet runs (runtime truth) and the images on its disk.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Node {
    pub pods: Vec<Shared<PodRt>>,
    /// Bit i: image i of the scenario is on the node.
    pub images: u32,
    /// Cut off from the API server: no lease, no status, no watch. Containers keep running.
    pub partitioned: bool,
    /// Seconds since the kubelet last renewed its Lease (only grows while partitioned; a
    /// connected kubelet renews every 10 s, which never comes near the grace period).
    pub lease_age: Secs,
    /// The programs on the node use their `memoryUsageMi` (the memory-pressure fault).
    pub memory_hog: bool,
    /// The kubelet process has exited and not yet started again (the kubelet-restart
    /// fault); the containers keep running.
    pub kubelet_down: bool,
    /// The machine is off (the power-off fault): no kubelet, no kube-proxy, no containers.
    pub powered_off: bool,
    /// A graceful node shutdown is under way (the node-shutdown fault).
    pub shutdown: Option<Shutdown>,
    /// Seconds until the eviction manager may evict again (one pod per 10 s interval,
    /// `pkg/kubelet/eviction`).
    pub eviction_wait: Secs,
    /// The kubelet's own copies of its static pods (file source plus status manager): the
    /// pod objects it works from, which exist without the API server.
    pub static_pods: Vec<Shared<Pod>>,
}

/// The kubelet's node shutdown manager at work (`processShutdownEvent`): it terminates the
/// pods group by group, lowest priority first, each group for at most its grace period, and
/// then lets the machine power off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shutdown {
    /// The group being shut down: 0, the regular pods (priority below 2000000000); 1, the
    /// critical pods.
    pub group: u8,
    /// The group's pods are being killed (false: the group is about to start).
    pub killing: bool,
    /// Seconds left of the group's grace period.
    pub left: Secs,
}

/// A pod as the kubelet and the container runtime hold it on a node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PodRt {
    pub uid: u16,
    /// The workload whose template the pod runs (the runtime keeps it after the object is gone).
    pub workload: u8,
    /// The pod's name suffix (a StatefulSet ordinal), kept with the runtime record.
    pub suffix: u8,
    /// An Indexed Job pod's completion index, kept with the runtime record.
    pub job_index: Option<u8>,
    /// The pod's template revision ([`Pod::revision`]), kept with the runtime record.
    pub revision: u8,
    /// Evicted by the kubelet's eviction manager (status reason `Evicted`).
    pub evicted: bool,
    /// Killed by the kubelet's node shutdown manager (status reason `Terminated`).
    pub shutdown: bool,
    /// The pod has no probe workers: a restarted kubelet has not yet created them (its first
    /// SyncPod generates the status before `probeManager.AddPod`, `kubelet.go` `SyncPod`), or
    /// the node shutdown manager removed them (1.23–1.24, PR #105215). With no result and no
    /// worker `UpdatePodStatus` reports a running container started and ready.
    pub probes_pending: bool,
    /// The pod's volumes are attached and mounted (`WaitForAttachAndMount` in kubelet
    /// SyncPod, before the runtime's SyncPod creates the sandbox).
    pub volumes: bool,
    /// Sandbox created and networked (RunPodSandbox, CNI ADD): the pod has its IP.
    pub sandbox: bool,
    pub init: Vec<Ctr>,
    pub ctrs: Vec<Ctr>,
    /// The pod worker is terminating the pod (deletion seen, or the pod is finished).
    pub terminating: bool,
    /// SyncTerminatingPod done: containers and sandbox stopped (killPod succeeded); the
    /// terminal status can be written and admission stops counting the pod.
    pub killed: bool,
    /// SyncTerminatedPod done: volumes unmounted; the pod worker is finished with the pod.
    pub cleaned: bool,
    /// The pod worker's requeue after a failed sync (`backOffPeriod` 10 s, pod_workers.go
    /// `completeWork`; the 0.5 jitter is not modelled).
    pub retry_left: Option<Secs>,
    /// The failing volume operation's next attempt and its exponential back-off
    /// (`exponentialbackoff`: 0.5 s doubling to 2m2s, whole seconds here).
    pub volume_retry: Option<Retry>,
    /// The pod is a static pod (its object is in [`Node::static_pods`]).
    pub static_pod: bool,
}

/// A retry timer with an exponential back-off: next attempt in `left`, current delay
/// `backoff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Retry {
    pub left: Secs,
    pub backoff: Secs,
}

/// One container slot: the current instance, what the previous one left, back-off entries,
/// the kubelet's reason cache and the probe workers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Ctr {
    pub run: Run,
    pub restart_count: u32,
    /// Termination of the instance before the current one (`lastState`).
    pub last: Option<Exit>,
    /// Crash back-off entry: current delay and seconds since its last update.
    pub crash_bo: Option<Bo>,
    /// Image-pull back-off entry.
    pub pull_bo: Option<Bo>,
    /// The image manager has pulled the image for the container's next start (an
    /// `imagePullPolicy` that pulls): that start uses it instead of pulling again.
    pub pulled: bool,
    /// The kubelet's reason cache: why the container is waiting, and for how long.
    pub waiting: Option<Waiting>,
    /// Probe workers: startup, readiness, liveness (None where the spec has no such probe).
    pub probes: [Option<Worker>; 3],
    /// The current instance was created from the pod's changed spec ([`Pod::image_set`]):
    /// the hash the runtime recorded for it (`HashContainer`) is the new spec's.
    pub patched: bool,
    /// The kubelet killed the current instance because the container's spec changed: it is
    /// started again as soon as it has stopped, whatever the restart policy and without
    /// crash back-off (`computePodActions`, SyncPod; docs/sources.md#kubelet-container-spec-change).
    pub respawn: bool,
}

/// A back-off entry with relative time: `age` = seconds since `lastUpdate` (saturating).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bo {
    pub backoff: Secs,
    pub age: Secs,
}

/// Why a container waits, as the kubelet's reason cache records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Waiting {
    /// `CrashLoopBackOff`: restart when `left` runs out.
    CrashLoopBackOff { left: Secs },
    /// `ErrImagePull`: the pod worker syncs again after `backOffPeriod` (10 s).
    ErrImagePull { left: Secs },
    /// `ImagePullBackOff`: pull again when `left` runs out.
    ImagePullBackOff { left: Secs },
    /// `ErrImageNeverPull`: the image is not on the node and `imagePullPolicy` is Never; the
    /// pod worker syncs again after `backOffPeriod` (10 s).
    ErrImageNeverPull { left: Secs },
    /// `CreateContainerConfigError`: the pod worker syncs again after `backOffPeriod`.
    CreateContainerConfigError { left: Secs },
    /// `CreateContainerError`: the pod worker syncs again after `backOffPeriod`.
    CreateContainerError { left: Secs },
    /// `PostStartHookError`: the hook failed and the container was killed; the next sync
    /// restarts it under crash back-off.
    PostStartHookError,
}

impl Waiting {
    pub fn reason(self) -> &'static str {
        match self {
            Waiting::CrashLoopBackOff { .. } => "CrashLoopBackOff",
            Waiting::ErrImagePull { .. } => "ErrImagePull",
            Waiting::ImagePullBackOff { .. } => "ImagePullBackOff",
            Waiting::ErrImageNeverPull { .. } => "ErrImageNeverPull",
            Waiting::CreateContainerConfigError { .. } => "CreateContainerConfigError",
            Waiting::CreateContainerError { .. } => "CreateContainerError",
            Waiting::PostStartHookError => "PostStartHookError",
        }
    }
    pub fn left(self) -> Secs {
        match self {
            Waiting::CrashLoopBackOff { left }
            | Waiting::ErrImagePull { left }
            | Waiting::ImagePullBackOff { left }
            | Waiting::ErrImageNeverPull { left }
            | Waiting::CreateContainerConfigError { left }
            | Waiting::CreateContainerError { left } => left,
            Waiting::PostStartHookError => 0,
        }
    }
    pub fn left_mut(&mut self) -> Option<&mut Secs> {
        match self {
            Waiting::CrashLoopBackOff { left }
            | Waiting::ErrImagePull { left }
            | Waiting::ImagePullBackOff { left }
            | Waiting::ErrImageNeverPull { left }
            | Waiting::CreateContainerConfigError { left }
            | Waiting::CreateContainerError { left } => Some(left),
            Waiting::PostStartHookError => None,
        }
    }
}

/// The current container instance in the runtime.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Run {
    /// Never created.
    #[default]
    None,
    Running(Proc),
    Exited(Exit),
}

/// How a container instance ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Exit {
    pub code: i32,
    pub oom: bool,
}

impl Exit {
    /// The reason the runtime reports: `OOMKilled`, `Completed` for 0, `Error` otherwise.
    pub fn reason(self) -> &'static str {
        if self.oom {
            "OOMKilled"
        } else if self.code == 0 {
            "Completed"
        } else {
            "Error"
        }
    }
}

/// A running process and its kubelet-side bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Proc {
    /// Seconds until the program answers (0 = up).
    pub boot_left: Secs,
    /// Seconds until it exits on its own.
    pub exit_left: Option<Secs>,
    /// Seconds until it goes over its memory limit.
    pub oom_left: Option<Secs>,
    pub deadlocked: bool,
    /// Being stopped by the kubelet.
    pub stop: Option<Stop>,
    /// The postStart hook is running: seconds until it returns (None: it hangs), and whether
    /// it then fails.
    pub post_start: Option<Hook>,
}

/// A postStart hook in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hook {
    pub left: Option<Secs>,
    pub fails: bool,
}

impl Proc {
    /// Booting or serving, not deadlocked.
    pub fn healthy(&self) -> bool {
        !self.deadlocked
    }
    pub fn answers(&self) -> bool {
        self.boot_left == 0 && !self.deadlocked
    }
}

/// A kill in progress: preStop, then SIGTERM, then SIGKILL when grace runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stop {
    /// Seconds of preStop left (SIGTERM not yet sent).
    pub prestop_left: Option<Secs>,
    /// Grace left after SIGTERM; at 0 the runtime sends SIGKILL. While `awaits_turn`: the
    /// grace left to wait in.
    pub kill_left: Secs,
    pub why: StopWhy,
    /// A sidecar in a pod kill with a termination ordering: after its preStop it waits, SIGTERM
    /// not yet sent, until every regular container and the next sidecar have stopped, or
    /// until `kill_left` runs out (`kuberuntime_termination_order.go` `waitForTurn`).
    pub awaits_turn: bool,
    /// SIGTERM has been sent to a program that takes a while to stop: the code it exits with
    /// when its `exit_left` runs out ([`podcheck_input::spec::OnSigterm::ExitAfter`]).
    pub sigterm_exit: Option<i32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StopWhy {
    Deletion,
    /// The pod worker terminates a pod that will not restart (e.g. an init container failed
    /// under restartPolicy Never).
    PodFinished,
    /// The kubelet's eviction manager.
    Evicted,
    /// The kubelet's node shutdown manager.
    NodeShutdown,
    LivenessProbe,
    StartupProbe,
    /// The postStart hook failed (`killContainer(…, "FailedPostStartHook", …)`).
    PostStartHook,
    /// The container's spec changed (its hash differs): `computePodActions` kills it and
    /// starts it again ("Container X definition changed, will be restarted").
    SpecChanged,
}

/// A probe worker (`worker` in `pkg/kubelet/prober/worker.go`): the results-manager value and
/// the threshold counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Worker {
    /// The stored result the rest of the kubelet reads.
    pub result: ProbeResult,
    /// The last probe outcome and how many in a row.
    pub last: ProbeResult,
    pub run: u8,
    pub on_hold: bool,
    /// Seconds until the next probe; None while the container does not run.
    pub next_in: Option<Secs>,
    /// A probe is in flight against an endpoint that does not answer: seconds until its
    /// `timeoutSeconds` run out and it counts as a Failure (`prober.go` `runProbe`).
    pub answer_in: Option<Secs>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProbeResult {
    Unknown,
    Success,
    Failure,
}

/// Which probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProbeKind {
    Startup = 0,
    Readiness = 1,
    Liveness = 2,
}

impl ProbeKind {
    pub const ALL: [ProbeKind; 3] = [
        ProbeKind::Startup,
        ProbeKind::Readiness,
        ProbeKind::Liveness,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ProbeKind::Startup => "startup",
            ProbeKind::Readiness => "readiness",
            ProbeKind::Liveness => "liveness",
        }
    }
}

/// A kube-proxy's routes, (pod uid, node) each: held in place up to four (a state's clone
/// copies them without an allocation); hashed as the slice they hold.
pub type Routes = smallvec::SmallVec<[(u16, NodeId); 4]>;

/// kube-proxy on one node: the endpoints it routes to, as of its last sync.
#[derive(Debug, PartialEq, Eq, Hash, Default)]
pub struct Proxy {
    /// (pod uid, node) of each endpoint it has programmed: the ready ones, or (from 1.26)
    /// the serving and terminating ones when none is ready.
    pub routes: Routes,
    /// A newer EndpointSlice exists; it must be applied within this many seconds.
    pub lag_left: Option<Secs>,
    /// History variable: this proxy has routed to some endpoint.
    pub served: bool,
}

/// By hand: the routes are plain data, copied at once (the derived clone copies them one by
/// one, and a state's step clones every proxy when it changes one).
impl Clone for Proxy {
    fn clone(&self) -> Self {
        Proxy {
            routes: Routes::from_slice(&self.routes),
            lag_left: self.lag_left,
            served: self.served,
        }
    }
}

/// The world outside the cluster.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Env {
    pub dependency_down: bool,
    /// Seconds until the dependency is back.
    pub outage_left: Option<Secs>,
    /// Bit i: fault i of the scenario has happened.
    pub fired: u32,
    /// Bit i: the partition of fault i has healed.
    pub healed: u32,
    /// History variable: a kubelet deleted a mirror pod that had been deleted through the
    /// API.
    pub mirror_deleted: bool,
    /// The `kubectl drain` runs the scenario's drain faults started, in the order they
    /// started.
    pub drains: Vec<DrainRun>,
}

/// One `kubectl drain` run: the client's own memory (`staging/src/k8s.io/kubectl/pkg/drain`
/// `drain.go`; docs/sources.md#kubectl-drain).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DrainRun {
    /// The drain fault of the scenario.
    pub fault: u8,
    pub node: NodeId,
    /// The pods it still evicts (or deletes) or waits for, by uid.
    pub pods: Vec<DrainPod>,
    /// Some pod's eviction failed with an error other than 429 or NotFound, or the pod list
    /// was refused: the run ends with "error: unable to drain node".
    pub failed: bool,
    pub stage: DrainStage,
}

/// Where a drain run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrainStage {
    /// The command has started: it cordons the node and lists its pods next.
    Cordon,
    /// It evicts (or deletes) the listed pods and waits for them to be gone.
    Evicting,
    /// Every pod is handled (`node/X drained`), or the run failed.
    Ended,
}

/// One pod of a drain run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrainPod {
    pub uid: u16,
    /// The pod's workload and name suffix, as the run listed it (its name once it is gone).
    pub workload: u8,
    pub suffix: u8,
    pub step: DrainStep,
}

/// Where a drain run is with one pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrainStep {
    /// The eviction (or delete) is to be sent in `wait` seconds: 0 at first, 5 after a 429
    /// (`EvictErrorRetryDelay`).
    Request { wait: Secs },
    /// Accepted: the run waits until the pod is gone (`waitForDelete`).
    Deleting,
}

impl DrainRun {
    /// The run has ended with every pod gone: `node/X drained`.
    pub fn drained(&self) -> bool {
        self.stage == DrainStage::Ended && !self.failed
    }
}

/// QoS class (Guaranteed > Burstable > BestEffort), as the eviction docs order them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum QosClass {
    BestEffort,
    Burstable,
    Guaranteed,
}

impl State {
    pub fn pod(&self, uid: u16) -> Option<&Pod> {
        self.api.pods.iter().find(|p| p.uid == uid).map(|p| &**p)
    }
    /// The pod object, to change (copied first if another state shares it).
    pub fn pod_mut(&mut self, uid: u16) -> Option<&mut Pod> {
        self.api
            .pods
            .iter_mut()
            .find(|p| p.uid == uid)
            .map(|p| &mut **p)
    }
    pub fn rt(&self, node: NodeId, uid: u16) -> Option<&PodRt> {
        self.nodes[node.index()]
            .pods
            .iter()
            .find(|p| p.uid == uid)
            .map(|p| &**p)
    }
    /// The pod object the kubelet of `node` works from: its static pod copy, or the API
    /// object.
    pub fn kpod(&self, node: NodeId, uid: u16) -> Option<&Pod> {
        self.nodes[node.index()]
            .static_pods
            .iter()
            .find(|p| p.uid == uid)
            .map(|p| &**p)
            .or_else(|| self.pod(uid))
    }
    /// [`State::kpod`] and [`State::rt`] as the shared parts they are, for their content
    /// hashes.
    pub fn shared_pair(&self, node: NodeId, uid: u16) -> Option<(&Shared<Pod>, &Shared<PodRt>)> {
        let n = &self.nodes[node.index()];
        let rt = n.pods.iter().find(|p| p.uid == uid)?;
        let pod = n
            .static_pods
            .iter()
            .find(|p| p.uid == uid)
            .or_else(|| self.api.pods.iter().find(|p| p.uid == uid))?;
        Some((pod, rt))
    }
    pub fn kpod_mut(&mut self, node: NodeId, uid: u16) -> Option<&mut Pod> {
        let n = node.index();
        if self.nodes[n].static_pods.iter().any(|p| p.uid == uid) {
            return self.nodes[n]
                .static_pods
                .iter_mut()
                .find(|p| p.uid == uid)
                .map(|p| &mut **p);
        }
        self.pod_mut(uid)
    }
    /// The mirror pod of static pod `uid`, if the API has one.
    pub fn mirror(&self, uid: u16) -> Option<&Pod> {
        self.api
            .pods
            .iter()
            .find(|p| p.mirror_of == Some(uid))
            .map(|p| &**p)
    }
    /// The runtime record, to change (the node and the record are copied first if another
    /// state shares them).
    pub fn rt_mut(&mut self, node: NodeId, uid: u16) -> Option<&mut PodRt> {
        let n = node.index();
        if !self.nodes[n].pods.iter().any(|p| p.uid == uid) {
            return None;
        }
        self.nodes[n]
            .pods
            .iter_mut()
            .find(|p| p.uid == uid)
            .map(|p| &mut **p)
    }
    /// Where the pod's runtime record lives, if any.
    pub fn rt_any(&self, uid: u16) -> Option<(NodeId, &PodRt)> {
        self.nodes.iter().enumerate().find_map(|(n, node)| {
            node.pods
                .iter()
                .find(|p| p.uid == uid)
                .map(|p| (NodeId::new(n), &**p))
        })
    }
}

impl PodRt {
    pub fn ctr(&self, init: bool, i: usize) -> &Ctr {
        if init {
            &self.init[i]
        } else {
            &self.ctrs[i]
        }
    }
    pub fn ctr_mut(&mut self, init: bool, i: usize) -> &mut Ctr {
        if init {
            &mut self.init[i]
        } else {
            &mut self.ctrs[i]
        }
    }
    pub fn any_running(&self) -> bool {
        self.init
            .iter()
            .chain(&self.ctrs)
            .any(|c| matches!(c.run, Run::Running(_)))
    }
}
