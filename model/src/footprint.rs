//! Footprints: which parts of the cluster state an action reads and which it writes.
//!
//! This is the ground a partial-order reduction stands on: two actions whose footprints do
//! not meet (neither writes a part the other reads or writes) commute, and neither enables
//! or disables the other. The search relies on it today for its diamonds (a successor named
//! from the other order of two independent steps instead of made; `properties::explore::
//! Commute`), judged on [`Summary`]s. A footprint must therefore be an over-approximation:
//!
//! - **reads**: everything the action's guard (whether it is enabled) and its effect depend
//!   on. Two states that agree on the read parts must agree on whether the action is
//!   enabled, and, where it is, on what it writes.
//! - **writes**: every part whose content the step can change, the after-step observers
//!   included (a slice write reaches every kube-proxy's pending update, a runtime change
//!   the node's `volumesInUse`).
//!
//! Both are checked on data, not only by reading the code: `model/tests/footprints.rs`
//! takes the first 1,500 states of every built-in scenario and groups them by (action,
//! content of the read parts) — enabledness and what the step changes, part by part with
//! the new contents, must agree within each group — compares every step's changed parts
//! with its declared writes, and computes both orders of every pair it judges independent.
//!
//! An action without a declared footprint reads and writes everything ([`Part::All`]): it
//! is dependent on every other action, which is always sound and never reduces anything.
//!
//! A footprint is the action's in the state at hand, and may depend on what it reads: a
//! workload controller reads what names uids only where its sync creates a pod, the node
//! lifecycle controller writes the pods bound to its node. A reduction that puts an action
//! off must therefore bound the footprints it may have in the states reached before it acts
//! (by actions that write what it reads), not only take the one it has now.
//!
//! The parts are the state's own, at the grain its steps read and change them: one API pod
//! object, apart from its events (only the renderings and one property read them) and from
//! its history variables; the list of the API's pods; the EndpointSlice, and apart from it
//! what the kube-proxies pick from it; one workload's status; one Node object as what the
//! kubelet posts, its NoExecute taints, and the rest; the attach/detach controller's world;
//! one budget's status; one node's runtime record of one pod (with the kubelet's static pod
//! copy); one node's own runtime fields, which pods it holds records of, and its images; one
//! kube-proxy's routes and its pending update; and, outside the cluster, the dependency,
//! each fault's "has happened" (and "healed"), the drain runs and the mirror pods' history.
//! Three wildcards stand for groups: [`Part::Pods`] (every pod object and the list),
//! [`Part::NodeObj`] (a Node object whole) and [`Part::Node`] (a node's runtime whole).
//!
//! Declared for every action but two: the clock (enabled only when no component step is,
//! it moves every timer) and the kubelet's steps about a static pod (its mirror is another
//! API object, found by a search of the API's pods) read and write everything.

use crate::cluster::Action;
use crate::context::Context;
use crate::state::*;
use crate::{controllers, faults, kubelet, proxy, scheduler};
use podcheck_input::spec::Fault;
use smallvec::{smallvec, SmallVec};

/// A part of the cluster state (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// The API's pod object with this uid (present or not), without its events and its
    /// history variables.
    Pod(u16),
    /// The events recorded about the pod with this uid.
    Events(u16),
    /// The history variables kept with the pod object with this uid ([`PodGhost`]: a
    /// container of it has started; how long it has been stuck). Of the model, only the
    /// kubelet's status computation reads them.
    Ghost(u16),
    /// Which pods the API holds (their uids, in the order of the API's list).
    PodList,
    /// Every API pod object with its events, and the list: what a controller that lists
    /// pods reads.
    Pods,
    /// The Service's EndpointSlice.
    Slice,
    /// The endpoints the kube-proxies pick from the slice (`proxy::pick`: the ready ones,
    /// or the serving and terminating ones when none is ready): all a proxy reads of it. It
    /// is not covered by [`Part::Slice`]: a step that changes the slice declares this part
    /// too only where the pick changes.
    SlicePick,
    /// A workload's status (by the scenario's index).
    Workload(u8),
    /// A Node object (by index), whole: [`Part::NodeReady`], [`Part::NodeTaints`] and
    /// [`Part::NodeSpec`].
    NodeObj(NodeId),
    /// What the kubelet posts in a Node object: its Ready condition is Unknown (the node
    /// lifecycle controller has not heard from it), or False (shutting down); and whether
    /// the controller has handled the condition's leaving True (its pods marked not Ready).
    NodeReady(NodeId),
    /// The NoExecute taints on a Node object (unreachable, not-ready, out-of-service) and
    /// their age.
    NodeTaints(NodeId),
    /// The rest of a Node object: deleted, PodGC's quarantine, `volumesInUse`,
    /// `spec.unschedulable`.
    NodeSpec(NodeId),
    /// The attach/detach controller's attachments and failing attaches.
    Volumes,
    /// A PodDisruptionBudget's status (by the scenario's index).
    Pdb(u8),
    /// Node `n`'s runtime record of pod `uid`, and its kubelet's static pod copy of it.
    Runtime(NodeId, u16),
    /// Node `n`'s own runtime fields (partition, lease age, kubelet and power, shutdown,
    /// eviction interval, memory use), its images apart.
    NodeRt(NodeId),
    /// Which pods node `n` holds runtime records of (and static pod copies).
    NodeRecords(NodeId),
    /// The images on node `n`.
    Images(NodeId),
    /// Node `n` whole: [`Part::NodeRt`], [`Part::NodeRecords`], [`Part::Images`] and every
    /// [`Part::Runtime`] of the node.
    Node(NodeId),
    /// Node `n`'s kube-proxy: the routes it has programmed (and whether it ever served).
    Proxy(NodeId),
    /// Node `n`'s kube-proxy's pending update: the watch sets it after any step that
    /// leaves its routes behind the slice (`proxy::observe_after`).
    Lag(NodeId),
    /// The dependency outside the cluster: whether it is down, and for how long.
    Dependency,
    /// Whether fault `i` of the scenario has happened, and (a partition) healed.
    Fault(u8),
    /// The `kubectl drain` runs.
    Drains,
    /// The history variable of mirror pods (a kubelet deleted one that had been deleted
    /// through the API).
    MirrorHistory,
    /// PodGC's terminated-pod collection is due (its victim, if any): every other
    /// component step waits for it.
    GcDue,
    /// Everything the API server stores: every API part above.
    Api,
    /// The whole state.
    All,
}

impl Part {
    /// Whether two parts share some content.
    pub fn overlaps(self, other: Part) -> bool {
        use Part::*;
        match (self, other) {
            (All, _) | (_, All) => true,
            (Api, Api | Pod(_) | Events(_) | Ghost(_) | PodList | Pods | Slice | SlicePick)
            | (Api, Workload(_))
            | (Api, NodeObj(_) | NodeReady(_) | NodeTaints(_) | NodeSpec(_) | Volumes | Pdb(_))
            | (Pod(_) | Events(_) | Ghost(_) | PodList | Pods | Slice | SlicePick, Api)
            | (Workload(_), Api)
            | (NodeObj(_) | NodeReady(_) | NodeTaints(_) | NodeSpec(_) | Volumes | Pdb(_), Api) => {
                true
            }
            (NodeObj(n), NodeObj(m) | NodeReady(m) | NodeTaints(m) | NodeSpec(m))
            | (NodeReady(m) | NodeTaints(m) | NodeSpec(m), NodeObj(n)) => n == m,
            (Pods, Pod(_) | Events(_) | Ghost(_) | PodList | Pods)
            | (Pod(_) | Events(_) | Ghost(_) | PodList, Pods) => true,
            (Node(n), Runtime(m, _) | NodeRt(m) | NodeRecords(m) | Images(m) | Node(m))
            | (Runtime(m, _) | NodeRt(m) | NodeRecords(m) | Images(m), Node(n)) => n == m,
            (a, b) => a == b,
        }
    }
}

impl Part {
    /// The part as a set of bits of a [`Summary`]: two parts that overlap share a bit (a
    /// wildcard has the bits of every part it covers; numbers are taken modulo the bits a
    /// kind of part has, so different parts may share one too).
    pub fn bits(self) -> u128 {
        use Part::*;
        // Where each kind of part starts, and how many bits it has.
        const POD: u32 = 0; // 16
        const EVENTS: u32 = 16; // 8
        const GHOST: u32 = 24; // 4
        const POD_LIST: u32 = 28;
        const SLICE: u32 = 29;
        const SLICE_PICK: u32 = 30;
        const WORKLOAD: u32 = 31; // 4
        const NODE_READY: u32 = 35; // 4
        const NODE_TAINTS: u32 = 39; // 4
        const NODE_SPEC: u32 = 43; // 4
        const VOLUMES: u32 = 47;
        const PDB: u32 = 48; // 2
        const API_END: u32 = 50;
        const RUNTIME: u32 = 50; // 4 nodes × 8 pods
        const NODE_RT: u32 = 82; // 4
        const NODE_RECORDS: u32 = 86; // 4
        const IMAGES: u32 = 90; // 4
        const PROXY: u32 = 94; // 4
        const LAG: u32 = 98; // 4
        const DEPENDENCY: u32 = 102;
        const FAULT: u32 = 103; // 8
        const DRAINS: u32 = 111;
        const MIRROR_HISTORY: u32 = 112;
        const GC_DUE: u32 = 113;
        let bit = |at: u32, n: usize, of: usize| 1u128 << (at + (n % of) as u32);
        let range = |from: u32, to: u32| ((1u128 << (to - from)) - 1) << from;
        let node_obj = |n: NodeId| {
            bit(NODE_READY, n.into(), 4)
                | bit(NODE_TAINTS, n.into(), 4)
                | bit(NODE_SPEC, n.into(), 4)
        };
        match self {
            Pod(uid) => bit(POD, uid.into(), 16),
            Events(uid) => bit(EVENTS, uid.into(), 8),
            Ghost(uid) => bit(GHOST, uid.into(), 4),
            PodList => bit(POD_LIST, 0, 1),
            Pods => range(POD, SLICE),
            Slice => bit(SLICE, 0, 1),
            SlicePick => bit(SLICE_PICK, 0, 1),
            Workload(w) => bit(WORKLOAD, w.into(), 4),
            NodeObj(n) => node_obj(n),
            NodeReady(n) => bit(NODE_READY, n.into(), 4),
            NodeTaints(n) => bit(NODE_TAINTS, n.into(), 4),
            NodeSpec(n) => bit(NODE_SPEC, n.into(), 4),
            Volumes => bit(VOLUMES, 0, 1),
            Pdb(i) => bit(PDB, i.into(), 2),
            Api => range(POD, API_END),
            Runtime(n, uid) => bit(RUNTIME, (n.index() % 4) * 8 + uid as usize % 8, 32),
            NodeRt(n) => bit(NODE_RT, n.into(), 4),
            NodeRecords(n) => bit(NODE_RECORDS, n.into(), 4),
            Images(n) => bit(IMAGES, n.into(), 4),
            Node(n) => {
                (0xffu128 << (RUNTIME + (n.index() as u32 % 4) * 8))
                    | bit(NODE_RT, n.into(), 4)
                    | bit(NODE_RECORDS, n.into(), 4)
                    | bit(IMAGES, n.into(), 4)
            }
            Proxy(n) => bit(PROXY, n.into(), 4),
            Lag(n) => bit(LAG, n.into(), 4),
            Dependency => bit(DEPENDENCY, 0, 1),
            Fault(i) => bit(FAULT, i.into(), 8),
            Drains => bit(DRAINS, 0, 1),
            MirrorHistory => bit(MIRROR_HISTORY, 0, 1),
            GcDue => bit(GC_DUE, 0, 1),
            All => u128::MAX,
        }
    }
}

/// A footprint in two sets of bits ([`Part::bits`]): cheap to keep and to compare, and
/// never more independent than the footprint itself (parts that overlap share a bit), so
/// what it judges independent is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Summary {
    reads: u128,
    writes: u128,
}

impl Summary {
    /// Neither writes what the other reads or writes ([`Footprint::independent`], judged
    /// on the bits).
    pub fn independent(&self, other: &Summary) -> bool {
        self.writes & (other.reads | other.writes) == 0 && other.writes & self.reads == 0
    }
}

/// A list of parts: a footprint's reads or writes (most have a few, kept without a heap).
pub type Parts = SmallVec<[Part; 12]>;

/// What an action reads and writes (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Footprint {
    pub reads: Parts,
    pub writes: Parts,
}

impl Footprint {
    /// Reads and writes everything: dependent on every action.
    pub fn everything() -> Self {
        Footprint {
            reads: smallvec![Part::All],
            writes: smallvec![Part::All],
        }
    }

    /// Whether some part of `parts` overlaps some part of `of`.
    fn meets(parts: &[Part], of: &[Part]) -> bool {
        parts.iter().any(|p| of.iter().any(|q| p.overlaps(*q)))
    }

    /// Neither writes what the other reads or writes: the two commute, and neither enables
    /// or disables the other.
    pub fn independent(&self, other: &Footprint) -> bool {
        !Self::meets(&self.writes, &other.reads)
            && !Self::meets(&self.writes, &other.writes)
            && !Self::meets(&other.writes, &self.reads)
    }

    /// The footprint as bits ([`Summary`]).
    pub fn summary(&self) -> Summary {
        let bits = |parts: &[Part]| parts.iter().fold(0, |b, p| b | p.bits());
        Summary {
            reads: bits(&self.reads),
            writes: bits(&self.writes),
        }
    }

    /// Whether `part` is covered by a declared write.
    pub fn writes(&self, part: Part) -> bool {
        self.writes.iter().any(|w| w.overlaps(part))
    }
}

/// An action's kind: its variant names without the fields (`Kubelet.Sync.Start`), the grain
/// at which the footprint check and the measuring examples group actions.
pub fn action_kind(a: &Action) -> String {
    let text = format!("{a:?}");
    let mut out = String::new();
    for part in text.split(['(', ' ', '{']) {
        if part.starts_with(|c: char| c.is_ascii_uppercase()) {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(part.trim_end_matches([')', ',', '}']));
        }
    }
    out
}

/// The footprint of `a` in `s`. It may depend on `s`, but only through the parts it reads.
pub fn footprint(m: &Context, s: &State, a: &Action) -> Footprint {
    match *a {
        Action::Kubelet(k) => kubelet(m, s, k),
        Action::Scheduler(scheduler::Action::Schedule { uid, .. }) => {
            // The scheduler reads the API alone (its choices are kept by the API's content).
            let mut f = component(
                m,
                smallvec![Part::Api],
                smallvec![Part::Pod(uid), Part::Events(uid)],
            );
            volume_observers(m, &mut f);
            f
        }
        Action::Controller(c) => controller(m, s, c),
        Action::KubeProxy(proxy::Action::Sync { node }) => {
            // It applies the slice; it is enabled while its update is pending and its node
            // is not cut off.
            component(
                m,
                smallvec![Part::Lag(node), Part::SlicePick, Part::NodeRt(node)],
                smallvec![Part::Proxy(node), Part::Lag(node)],
            )
        }
        Action::Client(proxy::Request { via, .. }) => Footprint {
            // A request changes nothing; whether it can be sent depends on the proxy's
            // routes and on its machine being on.
            reads: smallvec![Part::Proxy(via), Part::NodeRt(via)],
            writes: Parts::new(),
        },
        Action::Fault(f) => fault(m, s, f),
        // Deferred, the observation that a pod is gone is enabled only when no component
        // step is (`crate::drain`), as the clock is.
        Action::Drain(crate::drain::Action::Gone { .. }) if m.deferred_gone => {
            Footprint::everything()
        }
        Action::Drain(_) => drain_step(m, s),
        // The clock is enabled when no component step is, and moves every timer.
        Action::Tick(_) => Footprint::everything(),
    }
}

/// The controllers read the API objects (not the pods' events, but for the Multi-Attach
/// event's), and, for the uid of a pod they create, what else refers to uids: each node's
/// records, each kube-proxy's routes, the drain runs; each node's own fields also hold the
/// Lease the node lifecycle controller reads. The EndpointSlice controller alone writes the
/// slice, and that write reaches every kube-proxy's pending update
/// (`proxy::observe_after`), which compares the proxy's routes and reads the nodes'
/// partitions.
fn controller(m: &Context, s: &State, c: controllers::Action) -> Footprint {
    let nodes = || (0..s.nodes.len()).map(NodeId::new);
    if c == controllers::Action::EndpointSliceSync {
        let mut reads = pod_objects(s);
        reads.push(Part::Slice);
        let mut writes = smallvec![Part::Slice];
        // The kube-proxies see the change only where it changes what they pick.
        let fallback = m.by_release.proxy_terminating_endpoints;
        let picked = |eps: &[Endpoint]| proxy::pick(eps, fallback).collect::<Vec<_>>();
        let pick_changes = controllers::endpointslice::desired_endpoints(m, s)
            .is_some_and(|d| picked(&d) != picked(&s.api.endpoints));
        if pick_changes {
            writes.push(Part::SlicePick);
            // The watch then compares each proxy's routes with the new pick, for the
            // proxies whose nodes are not cut off.
            for n in nodes() {
                reads.extend([Part::NodeRt(n), Part::Proxy(n), Part::Lag(n)]);
                writes.push(Part::Lag(n));
            }
        }
        return component(m, reads, writes);
    }
    match c {
        controllers::Action::NodeLifecycle { node, step } => {
            return node_lifecycle(m, s, node, step);
        }
        controllers::Action::TaintEviction { uid } | controllers::Action::PodGc { uid } => {
            // Its guard reads the pod and the Node objects (the taints and their age; the
            // out-of-service taint); PodGC's collection of terminated pods picks the oldest
            // of them all. The step marks the pod, records its event, and deletes it: the
            // object goes at once where the delete is forced or the pod is not running.
            let mut reads = match c {
                // The taints of the node the pod is bound to (which the pod object says).
                controllers::Action::TaintEviction { .. } => {
                    let mut r = smallvec![Part::Pod(uid), Part::PodList];
                    r.extend(s.pod(uid).and_then(|p| p.node).map(Part::NodeTaints));
                    r
                }
                _ => {
                    let mut r = pod_objects(s);
                    r.extend(nodes().map(Part::NodeObj));
                    r
                }
            };
            reads.push(Part::Events(uid));
            let writes = smallvec![
                Part::Pod(uid),
                Part::Events(uid),
                Part::Ghost(uid),
                Part::PodList,
            ];
            let mut f = component(m, reads, writes);
            volume_observers(m, &mut f);
            return f;
        }
        _ => {}
    }
    let mut reads = api_objects(m, s);
    if let controllers::Action::MultiAttach { .. } = c {
        // Its `FailedAttachVolume` event is recorded once per pod.
        reads.push(Part::Pods);
    }
    // A new pod's uid is the smallest one nothing refers to: no object, runtime record,
    // route or drain run (`apiserver::uid_in_use`). Whether the sync creates a pod is
    // decided by the API objects alone.
    let creates = || {
        let mut t = s.clone();
        controllers::apply(m, &mut t, c).is_some()
            && t.api.pods.iter().any(|p| s.pod(p.uid).is_none())
    };
    let uid_readers = matches!(
        c,
        controllers::Action::ReplicaSetSync { .. }
            | controllers::Action::JobSync { .. }
            | controllers::Action::StatefulSetSync { .. }
    );
    if uid_readers && creates() {
        reads.push(Part::Drains);
        for n in nodes() {
            reads.extend([Part::NodeRecords(n), Part::Proxy(n)]);
        }
    }
    let mut writes = smallvec![Part::Pods, Part::Volumes];
    writes.extend((0..m.scenario.workloads.len() as u8).map(Part::Workload));
    writes.extend(nodes().map(Part::NodeObj));
    writes.extend((0..s.api.pdbs.len() as u8).map(Part::Pdb));
    component(m, reads, writes)
}

/// One step of the node lifecycle controller about node `n`: its guard reads the node's
/// Node object (and its Lease, kept with the node's runtime fields), and whether every node
/// is not Ready (the zone states: all Node objects). Marking the node Unknown or not Ready
/// marks its pods not Ready, and where that makes every zone fully disrupted lifts every
/// node's NoExecute taints; a taint or untaint writes the node's taints.
fn node_lifecycle(
    m: &Context,
    s: &State,
    n: NodeId,
    step: controllers::node_lifecycle::Step,
) -> Footprint {
    use controllers::node_lifecycle::Step;
    let nodes = || (0..s.nodes.len()).map(NodeId::new);
    let mut reads: Parts = nodes().map(Part::NodeObj).collect();
    reads.push(Part::NodeRt(n));
    let mut writes = smallvec![Part::NodeObj(n)];
    if let Step::MarkUnknown | Step::MarkNotReady = step {
        // The pods bound to the node, found by reading every pod object.
        reads.extend(pod_objects(s));
        writes.extend(
            s.api
                .pods
                .iter()
                .filter(|p| p.node == Some(n))
                .map(|p| Part::Pod(p.uid)),
        );
    }
    if let Step::MarkUnknown | Step::MarkNotReady = step {
        // Entering master disruption mode lifts every node's NoExecute taints.
        writes.extend(nodes().map(Part::NodeObj));
    }
    let mut f = component(m, reads, writes);
    volume_observers(m, &mut f);
    f
}

/// Every API pod object and the list, without the events (which no controller reads).
fn pod_objects(s: &State) -> Parts {
    let mut out = smallvec![Part::PodList];
    out.extend(s.api.pods.iter().map(|p| Part::Pod(p.uid)));
    out
}

/// Every API object but the pods' events.
fn api_objects(m: &Context, s: &State) -> Parts {
    let mut out = pod_objects(s);
    out.extend([Part::Slice, Part::Volumes]);
    out.extend((0..m.scenario.workloads.len() as u8).map(Part::Workload));
    out.extend((0..s.api.nodes.len()).map(NodeId::new).map(Part::NodeObj));
    out.extend((0..s.api.pdbs.len() as u8).map(Part::Pdb));
    out
}

/// Whether PodGC's collection of terminated pods can ever be due in the scenario: the
/// threshold is above 0 (0 turns it off) and below the number of pods the API could hold (at most 255 per workload, their
/// name suffixes being a byte). Where it cannot, [`Part::GcDue`] never changes and no one
/// need read it.
fn gc_reachable(m: &Context) -> bool {
    let threshold = m.scenario.cluster.terminated_pod_gc_threshold as usize;
    threshold > 0 && threshold < 255 * m.scenario.workloads.len().max(1)
}

/// A component's step (an urgent action): it waits while PodGC's collection is due, and
/// where it writes a pod object it can make that collection due.
fn component(m: &Context, mut reads: Parts, mut writes: Parts) -> Footprint {
    if gc_reachable(m) {
        reads.push(Part::GcDue);
        if writes
            .iter()
            .any(|w| matches!(w, Part::Pod(_) | Part::Pods | Part::Api))
        {
            writes.push(Part::GcDue);
        }
    }
    Footprint { reads, writes }
}

/// The attach/detach controller's observer (`attachdetach::observe`) runs after every step
/// of a scenario with volumes: what the step changes in the pods can change the detach
/// requests, which it reads from every pod.
fn volume_observers(m: &Context, f: &mut Footprint) {
    if !m.claims.is_empty() {
        f.reads.extend([Part::Pods, Part::Volumes]);
        f.writes.push(Part::Volumes);
    }
}

/// A kubelet's step about one pod reads and writes that pod's object, its events and its
/// runtime record on the node, with the node's own fields and its Node object.
fn kubelet(m: &Context, s: &State, a: kubelet::Action) -> Footprint {
    use crate::kubelet::{Action as K, Step};
    let n = a.node();
    let Some(uid) = a.pod() else {
        return kubelet_node(m, a);
    };
    let node = &s.nodes[n.index()];
    // A static pod: its mirror is another API object, found by a search of the API's pods;
    // the mirror-pod steps write the world's history. Not declared yet.
    if node.static_pods.iter().any(|p| p.uid == uid)
        || node.pods.iter().any(|r| r.uid == uid && r.static_pod)
    {
        return Footprint::everything();
    }
    let mut reads = smallvec![
        Part::NodeRt(n),
        Part::Runtime(n, uid),
        Part::Pod(uid),
        Part::Events(uid),
        Part::Ghost(uid),
    ];
    match a {
        // A probe that checks the dependency fails while it is down.
        K::Probe { .. } => reads.push(Part::Dependency),
        // The pod worker pulls an image unless the node has it.
        K::Sync { .. } => reads.push(Part::Images(n)),
        _ => {}
    }
    let mut writes = match a {
        // A probe runs against the container and keeps its result in the kubelet.
        K::Probe { .. } => smallvec![Part::Runtime(n, uid), Part::Events(uid)],
        K::StatusUpdate { .. } => smallvec![Part::Pod(uid), Part::Events(uid)],
        // The pod worker is done with the pod once its object is gone.
        K::RemoveObject { .. } => smallvec![
            Part::Pod(uid),
            Part::Events(uid),
            Part::Ghost(uid),
            Part::PodList,
            Part::Runtime(n, uid),
            Part::NodeRecords(n),
        ],
        // A start marks the pod as having started a container (a history variable).
        K::Sync {
            step: Step::Start { .. },
            ..
        } => smallvec![Part::Runtime(n, uid), Part::Ghost(uid), Part::Events(uid)],
        // A rejection writes the pod's phase; an eviction its status.
        K::Sync {
            step: Step::Reject, ..
        }
        | K::Evict { .. } => smallvec![Part::Runtime(n, uid), Part::Pod(uid), Part::Events(uid)],
        // The other steps of the pod worker change what runs, and the events.
        _ => smallvec![Part::Runtime(n, uid), Part::Events(uid)],
    };
    match a {
        K::Sync {
            step: Step::Admit | Step::Reject,
            ..
        } => {
            // Admission weighs the pod against every other pod on the node and the node's
            // taints, and adds (or not) the pod's record to the node.
            reads.extend([Part::Node(n), Part::Pods, Part::NodeObj(n)]);
            writes.push(Part::NodeRecords(n));
        }
        // A pull puts the image on the node.
        K::Sync {
            step: Step::PullImage { .. },
            ..
        } => writes.push(Part::Images(n)),
        // The end of a pod worker takes its record off; the eviction manager waits its
        // interval after an eviction.
        K::Sync {
            step: Step::Forget | Step::KillOrphan,
            ..
        }
        | K::Evict { .. } => {
            // (The list of records it leaves is the others' too.)
            reads.push(Part::NodeRecords(n));
            writes.extend([Part::NodeRt(n), Part::NodeRecords(n)]);
        }
        K::RemoveObject { .. } => reads.push(Part::NodeRecords(n)),
        _ => {}
    }
    if let K::Evict { .. } = a {
        // The eviction manager's interval reads the Node object.
        reads.push(Part::NodeObj(n));
    }
    if !m.claims.is_empty() {
        // The node's `volumesInUse` (`report_volumes_in_use`) is what every record of the
        // node mounts, and the volumes the kubelet mounts are those attached to it.
        reads.extend([Part::Node(n), Part::NodeObj(n)]);
        writes.push(Part::NodeObj(n));
    }
    let mut f = component(m, reads, writes);
    volume_observers(m, &mut f);
    f
}

/// The kubelet's steps about its node as a whole: the node status it posts, its start after
/// a restart, and the node shutdown manager's steps.
fn kubelet_node(m: &Context, a: kubelet::Action) -> Footprint {
    use crate::kubelet::Action as K;
    let n = a.node();
    let (reads, writes) = match a {
        // It posts Ready (and whether the node is shutting down) once the API server can
        // be reached.
        K::NodeStatus { .. } => (
            smallvec![Part::NodeRt(n), Part::NodeReady(n)],
            smallvec![Part::NodeReady(n)],
        ),
        // The pods' probe workers are made again with their next sync.
        K::Start { .. } => (smallvec![Part::Node(n)], smallvec![Part::Node(n)]),
        // The next group of pods is killed (their objects get DisruptionTarget, their
        // events the kill), or the machine powers off.
        _ => (
            smallvec![Part::Node(n), Part::NodeObj(n), Part::Pods],
            smallvec![Part::Node(n), Part::Pods],
        ),
    };
    let mut f = component(m, reads, writes);
    if !m.claims.is_empty() {
        // The node's `volumesInUse` is what its records mount.
        f.writes.push(Part::NodeObj(n));
    }
    volume_observers(m, &mut f);
    f
}

/// The parts of the kube-proxies' pending updates a step can set by changing whether node
/// `n` is cut off (`proxy::observe_after` reads the partitions): its proxy's, which it
/// compares with the proxy's routes and the slice.
fn partition_observer(n: NodeId, f: &mut Footprint) {
    f.reads
        .extend([Part::SlicePick, Part::Proxy(n), Part::Lag(n)]);
    f.writes.push(Part::Lag(n));
}

/// A fault or operator action: it reads whether it has happened and writes that it has,
/// with what its guard reads and what it changes. None where the scenario does not name
/// the fault, its node or its workload, or the action names no pod where the fault picks
/// one.
fn fault_parts(m: &Context, s: &State, a: faults::Action) -> Option<Footprint> {
    let node = |name: &str| {
        m.scenario
            .cluster
            .nodes
            .iter()
            .position(|x| x.name == name)
            .map(NodeId::new)
    };
    let workload = |name: &str| {
        m.scenario
            .workloads
            .iter()
            .position(|w| w.name() == name)
            .map(|w| w as u8)
    };
    let nodes = || (0..s.nodes.len()).map(NodeId::new);
    let (index, target) = match a {
        faults::Action::Fault { index, target } => (index, target),
        faults::Action::Heal { index } => {
            let Some(Fault::Partition { node: name, .. }) = m.scenario.faults.get(index as usize)
            else {
                return None;
            };
            let n = node(name)?;
            let mut f = Footprint {
                reads: smallvec![Part::Fault(index), Part::NodeObj(n), Part::NodeRt(n)],
                writes: smallvec![Part::Fault(index), Part::NodeRt(n)],
            };
            partition_observer(n, &mut f);
            volume_observers_after_partition(m, n, &mut f);
            return Some(f);
        }
    };
    let spec = m.scenario.faults.get(index as usize)?;
    let mut reads = smallvec![Part::Fault(index)];
    let mut writes = smallvec![Part::Fault(index)];
    // A fault that writes pod objects can make PodGC's collection due; one that writes a
    // node's records changes what the node mounts.
    let mut pods_written = false;
    let mut node_written: Option<NodeId> = None;
    match spec {
        Fault::StepFails { .. } => {}
        Fault::RolloutRestart { workload: w } | Fault::Scale { workload: w, .. } => {
            let w = workload(w)?;
            reads.push(Part::Workload(w));
            writes.push(Part::Workload(w));
        }
        Fault::SetPodImage { .. } | Fault::DeletePod { .. } | Fault::ForceDeletePod { .. } => {
            let uid = target?;
            // A delete of a pod that is not running removes the object, its events with it.
            reads.extend([Part::Pod(uid), Part::PodList]);
            writes.extend([
                Part::Pod(uid),
                Part::Events(uid),
                Part::Ghost(uid),
                Part::PodList,
            ]);
            pods_written = true;
        }
        Fault::Partition { node: name, .. } => {
            let n = node(name)?;
            reads.extend([Part::NodeObj(n), Part::NodeRt(n)]);
            writes.push(Part::NodeRt(n));
            let mut f = Footprint { reads, writes };
            partition_observer(n, &mut f);
            volume_observers_after_partition(m, n, &mut f);
            return Some(f);
        }
        Fault::ControlPlanePartition {} => {
            let mut f = Footprint { reads, writes };
            for n in nodes() {
                f.reads.push(Part::NodeRt(n));
                f.writes.push(Part::NodeRt(n));
                partition_observer(n, &mut f);
                volume_observers_after_partition(m, n, &mut f);
            }
            return Some(f);
        }
        Fault::DeleteNode { node: name }
        | Fault::OutOfServiceTaint { node: name }
        | Fault::Cordon { node: name }
        | Fault::Uncordon { node: name } => {
            let n = node(name)?;
            reads.push(Part::NodeObj(n));
            writes.push(Part::NodeObj(n));
        }
        Fault::Drain { node: name, .. } => {
            let n = node(name)?;
            reads.extend([Part::NodeObj(n), Part::Drains]);
            writes.push(Part::Drains);
        }
        Fault::MemoryPressure { node: name }
        | Fault::KubeletRestart { node: name }
        | Fault::NodeShutdown { node: name }
        | Fault::PowerOff { node: name } => {
            let n = node(name)?;
            reads.extend([Part::NodeObj(n), Part::Node(n)]);
            writes.push(Part::Node(n));
            node_written = Some(n);
            if let Fault::PowerOff { .. } = spec {
                // The machine is cut off with it.
                let mut f = Footprint { reads, writes };
                partition_observer(n, &mut f);
                volume_observers_after_partition(m, n, &mut f);
                return Some(f);
            }
        }
        Fault::DependencyOutage { .. } => {
            // While some pod is Ready.
            reads.push(Part::Pods);
            writes.push(Part::Dependency);
        }
        Fault::Crash { .. } | Fault::Deadlock { .. } => {
            // The pod's record, on whichever node holds it.
            let uid = target?;
            for n in nodes() {
                reads.extend([Part::NodeRecords(n), Part::Runtime(n, uid)]);
                writes.push(Part::Runtime(n, uid));
            }
            if !m.claims.is_empty() {
                for n in nodes() {
                    reads.push(Part::Node(n));
                    writes.push(Part::NodeObj(n));
                }
            }
        }
    }
    if pods_written && gc_reachable(m) {
        writes.push(Part::GcDue);
    }
    let mut f = Footprint { reads, writes };
    if let Some(n) = node_written {
        if !m.claims.is_empty() {
            f.writes.push(Part::NodeObj(n));
        }
    }
    volume_observers(m, &mut f);
    Some(f)
}

/// A fault or operator action ([`fault_parts`]); one the scenario does not spell out (no
/// such fault, node or pod) reads and writes everything.
fn fault(m: &Context, s: &State, a: faults::Action) -> Footprint {
    fault_parts(m, s, a).unwrap_or_else(Footprint::everything)
}

/// A node cut off (or back) changes which kubelets report the volumes in use
/// (`report_volumes_in_use` skips a cut-off node): the node's report follows what its
/// records mount.
fn volume_observers_after_partition(m: &Context, n: NodeId, f: &mut Footprint) {
    if !m.claims.is_empty() {
        f.reads.extend([Part::Node(n), Part::NodeObj(n)]);
        f.writes.push(Part::NodeObj(n));
    }
    volume_observers(m, f);
}

/// A step of a `kubectl drain` run: it reads and writes its run, and, through the API, the
/// node's Node object, the pods (listed on the node, evicted or deleted, gone) and the
/// budgets the Eviction API checks.
fn drain_step(m: &Context, s: &State) -> Footprint {
    let mut reads = smallvec![Part::Drains];
    reads.extend(api_objects(m, s));
    let mut writes = smallvec![Part::Drains, Part::Pods];
    writes.extend((0..s.api.nodes.len()).map(NodeId::new).map(Part::NodeObj));
    writes.extend((0..s.api.pdbs.len() as u8).map(Part::Pdb));
    // Its steps are the client's, which `actions` offers with the components' (they wait
    // for PodGC's collection too).
    let mut f = component(m, reads, writes);
    volume_observers(m, &mut f);
    f
}

/// The content of each part of `s` that is not a wildcard, as a hash: for checking
/// footprints on data, and for telling which parts a step changed.
pub fn part_values(m: &Context, s: &State) -> Vec<(Part, u64)> {
    let h = ahash::RandomState::with_seeds(1, 2, 3, 4);
    let mut out = Vec::new();
    for p in &s.api.pods {
        let mut object: Pod = (**p).clone();
        object.events = Default::default();
        object.ghost = Default::default();
        out.push((Part::Pod(p.uid), h.hash_one(&object)));
        out.push((Part::Events(p.uid), h.hash_one(&p.events)));
        out.push((Part::Ghost(p.uid), h.hash_one(&p.ghost)));
    }
    out.push((
        Part::PodList,
        h.hash_one(s.api.pods.iter().map(|p| p.uid).collect::<Vec<_>>()),
    ));
    out.push((Part::Slice, h.hash_one(&s.api.endpoints)));
    out.push((
        Part::SlicePick,
        h.hash_one(
            proxy::pick(&s.api.endpoints, m.by_release.proxy_terminating_endpoints)
                .collect::<Vec<_>>(),
        ),
    ));
    for (w, st) in s.api.workloads.iter().enumerate() {
        out.push((Part::Workload(w as u8), h.hash_one(st)));
    }
    for (n, obj) in s.api.nodes.iter().enumerate() {
        let n = NodeId::new(n);
        out.push((
            Part::NodeReady(n),
            h.hash_one((obj.unknown, obj.not_ready, obj.seen_not_ready)),
        ));
        out.push((
            Part::NodeTaints(n),
            h.hash_one((
                obj.unreachable_taint,
                obj.not_ready_taint,
                obj.out_of_service,
                obj.taint_age,
            )),
        ));
        let rest = NodeObj {
            unknown: false,
            not_ready: false,
            seen_not_ready: false,
            unreachable_taint: false,
            not_ready_taint: false,
            out_of_service: false,
            taint_age: 0,
            ..obj.clone()
        };
        out.push((Part::NodeSpec(n), h.hash_one(rest)));
    }
    out.push((
        Part::Volumes,
        h.hash_one((&s.api.attached, &s.api.attach_retry)),
    ));
    for (i, pdb) in s.api.pdbs.iter().enumerate() {
        out.push((Part::Pdb(i as u8), h.hash_one(pdb)));
    }
    for (n, node) in s.nodes.iter().enumerate() {
        let n = NodeId::new(n);
        let mut uids: Vec<u16> = node.pods.iter().map(|r| r.uid).collect();
        for sp in &node.static_pods {
            if !uids.contains(&sp.uid) {
                uids.push(sp.uid);
            }
        }
        for &uid in &uids {
            let record = node.pods.iter().find(|r| r.uid == uid);
            let copy = node.static_pods.iter().find(|p| p.uid == uid);
            out.push((Part::Runtime(n, uid), h.hash_one((record, copy))));
        }
        let own = Node {
            pods: Vec::new(),
            static_pods: Vec::new(),
            images: 0,
            ..(**node).clone()
        };
        out.push((Part::Images(n), h.hash_one(node.images)));
        let records: Vec<u16> = node.pods.iter().map(|r| r.uid).collect();
        let copies: Vec<u16> = node.static_pods.iter().map(|p| p.uid).collect();
        out.push((Part::NodeRt(n), h.hash_one(own)));
        out.push((Part::NodeRecords(n), h.hash_one((records, copies))));
    }
    for (n, p) in s.proxies.iter().enumerate() {
        out.push((
            Part::Proxy(NodeId::new(n)),
            h.hash_one((&p.routes, p.served)),
        ));
        out.push((Part::Lag(NodeId::new(n)), h.hash_one(p.lag_left)));
    }
    out.push((
        Part::Dependency,
        h.hash_one((s.env.dependency_down, s.env.outage_left)),
    ));
    for i in 0..m.scenario.faults.len() {
        let bit = |bits: u32| bits & (1 << i) != 0;
        out.push((
            Part::Fault(i as u8),
            h.hash_one((bit(s.env.fired), bit(s.env.healed))),
        ));
    }
    out.push((Part::Drains, h.hash_one(&s.env.drains)));
    out.push((Part::MirrorHistory, h.hash_one(s.env.mirror_deleted)));
    out.push((
        Part::GcDue,
        h.hash_one(crate::controllers::terminated_gc_victim(m, s)),
    ));
    out
}

/// The content of `parts` in a state whose [`part_values`] are `values`: the parts that
/// are not there (a pod the state does not hold) count as absent, a wildcard as every part
/// it covers.
pub fn content(values: &[(Part, u64)], parts: &[Part]) -> u64 {
    let h = ahash::RandomState::with_seeds(5, 6, 7, 8);
    let mut acc: Vec<(Part, u64)> = values
        .iter()
        .filter(|(p, _)| parts.iter().any(|q| q.overlaps(*p)))
        .copied()
        .collect();
    acc.sort();
    // A named part that the state does not hold is part of the content as "absent".
    let mut absent: Vec<Part> = parts
        .iter()
        .filter(|q| {
            !matches!(
                q,
                Part::All | Part::Api | Part::Pods | Part::Node(_) | Part::NodeObj(_)
            )
        })
        .filter(|q| !values.iter().any(|(p, _)| p == *q))
        .copied()
        .collect();
    absent.sort();
    h.hash_one((acc, absent))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parts of every kind, with numbers past the bits each kind has.
    fn parts() -> Vec<Part> {
        use Part::*;
        let mut out = vec![
            PodList,
            Pods,
            Slice,
            SlicePick,
            Volumes,
            Dependency,
            Drains,
            MirrorHistory,
            GcDue,
            Api,
            All,
        ];
        for uid in 0..40u16 {
            out.extend([Pod(uid), Events(uid), Ghost(uid)]);
        }
        for i in 0..9u8 {
            let n = NodeId(i);
            out.extend([
                Workload(i),
                NodeObj(n),
                NodeReady(n),
                NodeTaints(n),
                NodeSpec(n),
                Pdb(i),
                NodeRt(n),
                NodeRecords(n),
                Images(n),
                Node(n),
                Proxy(n),
                Lag(n),
                Fault(i),
            ]);
            for uid in 0..20u16 {
                out.push(Runtime(n, uid));
            }
        }
        out
    }

    #[test]
    fn parts_that_overlap_share_a_bit() {
        let all = parts();
        for p in &all {
            assert_ne!(p.bits(), 0, "{p:?} has no bit");
            for q in &all {
                assert_eq!(p.overlaps(*q), q.overlaps(*p), "{p:?} and {q:?}");
                if p.overlaps(*q) {
                    assert_ne!(p.bits() & q.bits(), 0, "{p:?} and {q:?} overlap");
                }
            }
        }
    }

    #[test]
    fn a_summary_is_never_more_independent_than_its_footprint() {
        // Footprints of one and two parts of every kind.
        let all = parts();
        let small: Vec<Part> = all.iter().copied().step_by(7).collect();
        let mut prints = Vec::new();
        for r in &small {
            for w in &small {
                prints.push(Footprint {
                    reads: smallvec::smallvec![*r],
                    writes: smallvec::smallvec![*w],
                });
            }
        }
        let mut judged = 0;
        for a in &prints {
            for b in &prints {
                if a.summary().independent(&b.summary()) {
                    judged += 1;
                    assert!(a.independent(b), "{a:?} and {b:?}");
                }
            }
        }
        assert!(judged > 0);
    }
}
