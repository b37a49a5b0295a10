//! Footprints: which parts of the cluster state an action reads and which it writes.
//!
//! This is the ground a partial-order reduction stands on: two actions whose footprints do
//! not meet (neither writes a part the other reads or writes) commute, and neither enables
//! or disables the other. A footprint must therefore be an over-approximation:
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
//! The parts are the state's own, at the grain its steps change them: one API pod object
//! (its events apart: only the renderings and one property read them), the list of the
//! API's pods, the EndpointSlice, one workload's status, one Node object, the attach/detach
//! controller's world, one budget's status, one node's runtime record of one pod (with the
//! kubelet's static pod copy), one node's own runtime fields, one kube-proxy, and the world
//! outside the cluster. Two wildcards stand for groups: [`Part::Pods`] (every pod object
//! and the list) and [`Part::Node`] (a node's fields and all its runtime records).

use crate::cluster::Action;
use crate::context::Context;
use crate::state::*;
use crate::{controllers, kubelet, proxy, scheduler};

/// A part of the cluster state (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// The API's pod object with this uid (present or not), without its events.
    Pod(u16),
    /// The events recorded about the pod with this uid.
    Events(u16),
    /// Which pods the API holds (their uids, in the order of the API's list).
    PodList,
    /// Every API pod object with its events, and the list: what a controller that lists
    /// pods reads.
    Pods,
    /// The Service's EndpointSlice.
    Slice,
    /// A workload's status (by the scenario's index).
    Workload(u8),
    /// A Node object (by index).
    NodeObj(u8),
    /// The attach/detach controller's attachments and failing attaches.
    Volumes,
    /// A PodDisruptionBudget's status (by the scenario's index).
    Pdb(u8),
    /// Node `n`'s runtime record of pod `uid`, and its kubelet's static pod copy of it.
    Runtime(u8, u16),
    /// Node `n`'s own runtime fields (images, partition, lease age, kubelet and power,
    /// shutdown, eviction interval) and which pods it holds records of.
    NodeRt(u8),
    /// Node `n` whole: [`Part::NodeRt`] and every [`Part::Runtime`] of the node.
    Node(u8),
    /// Node `n`'s kube-proxy: the routes it has programmed (and whether it ever served).
    Proxy(u8),
    /// Node `n`'s kube-proxy's pending update: the watch sets it after any step that
    /// leaves its routes behind the slice (`proxy::observe_after`).
    Lag(u8),
    /// The world outside the cluster: the dependency, which faults happened and healed,
    /// the drain runs.
    Env,
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
            (Api, Api | Pod(_) | Events(_) | PodList | Pods | Slice | Workload(_))
            | (Api, NodeObj(_) | Volumes | Pdb(_))
            | (Pod(_) | Events(_) | PodList | Pods | Slice | Workload(_), Api)
            | (NodeObj(_) | Volumes | Pdb(_), Api) => true,
            (Pods, Pod(_) | Events(_) | PodList | Pods) | (Pod(_) | Events(_) | PodList, Pods) => {
                true
            }
            (Node(n), Runtime(m, _) | NodeRt(m) | Node(m))
            | (Runtime(m, _) | NodeRt(m), Node(n)) => n == m,
            (a, b) => a == b,
        }
    }
}

/// What an action reads and writes (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Footprint {
    pub reads: Vec<Part>,
    pub writes: Vec<Part>,
}

impl Footprint {
    /// Reads and writes everything: dependent on every action.
    pub fn everything() -> Self {
        Footprint {
            reads: vec![Part::All],
            writes: vec![Part::All],
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
            let mut f = component(m, vec![Part::Api], vec![Part::Pod(uid), Part::Events(uid)]);
            volume_observers(m, &mut f);
            f
        }
        Action::Controller(c) => controller(m, s, c),
        Action::KubeProxy(proxy::Action::Sync { node }) => {
            // It applies the slice; it is enabled while its update is pending and its node
            // is not cut off.
            component(
                m,
                vec![Part::Lag(node), Part::Slice, Part::NodeRt(node)],
                vec![Part::Proxy(node), Part::Lag(node)],
            )
        }
        Action::Client(proxy::Request { via, .. }) => Footprint {
            // A request changes nothing; whether it can be sent depends on the proxy's
            // routes and on its machine being on.
            reads: vec![Part::Proxy(via), Part::NodeRt(via)],
            writes: Vec::new(),
        },
        // The clock is enabled when no component step is, and moves every timer; faults
        // and drain runs are not declared yet.
        Action::Tick(_) | Action::Fault(_) | Action::Drain(_) => Footprint::everything(),
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
    let nodes = s.nodes.len() as u8;
    if c == controllers::Action::EndpointSliceSync {
        let mut reads = pod_objects(s);
        reads.push(Part::Slice);
        let mut writes = vec![Part::Slice];
        for n in 0..nodes {
            reads.extend([
                Part::NodeObj(n),
                Part::NodeRt(n),
                Part::Proxy(n),
                Part::Lag(n),
            ]);
            writes.push(Part::Lag(n));
        }
        return component(m, reads, writes);
    }
    // A new pod's uid is the smallest one nothing refers to: no object, runtime record,
    // route or drain run (`apiserver::uid_in_use`).
    let mut reads = api_objects(m, s);
    reads.push(Part::Env);
    if let controllers::Action::MultiAttach { .. } = c {
        // Its `FailedAttachVolume` event is recorded once per pod.
        reads.push(Part::Pods);
    }
    for n in 0..nodes {
        reads.extend([Part::NodeRt(n), Part::Proxy(n)]);
    }
    let mut writes = vec![Part::Pods, Part::Volumes];
    writes.extend((0..m.scenario.workloads.len() as u8).map(Part::Workload));
    writes.extend((0..nodes).map(Part::NodeObj));
    writes.extend((0..s.api.pdbs.len() as u8).map(Part::Pdb));
    component(m, reads, writes)
}

/// Every API pod object and the list, without the events (which no controller reads).
fn pod_objects(s: &State) -> Vec<Part> {
    let mut out = vec![Part::PodList];
    out.extend(s.api.pods.iter().map(|p| Part::Pod(p.uid)));
    out
}

/// Every API object but the pods' events.
fn api_objects(m: &Context, s: &State) -> Vec<Part> {
    let mut out = pod_objects(s);
    out.extend([Part::Slice, Part::Volumes]);
    out.extend((0..m.scenario.workloads.len() as u8).map(Part::Workload));
    out.extend((0..s.api.nodes.len() as u8).map(Part::NodeObj));
    out.extend((0..s.api.pdbs.len() as u8).map(Part::Pdb));
    out
}

/// Whether PodGC's collection of terminated pods can ever be due in the scenario: the
/// threshold is below the number of pods the API could hold (at most 255 per workload, their
/// name suffixes being a byte). Where it cannot, [`Part::GcDue`] never changes and no one
/// need read it.
fn gc_reachable(m: &Context) -> bool {
    (m.scenario.cluster.terminated_pod_gc_threshold as usize)
        < 255 * m.scenario.workloads.len().max(1)
}

/// A component's step (an urgent action): it waits while PodGC's collection is due, and
/// where it writes a pod object it can make that collection due.
fn component(m: &Context, mut reads: Vec<Part>, mut writes: Vec<Part>) -> Footprint {
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
        return Footprint::everything();
    };
    let node = &s.nodes[n as usize];
    // A static pod: its mirror is another API object, found by a search of the API's pods;
    // the mirror-pod steps write the world's history. Not declared yet.
    if node.static_pods.iter().any(|p| p.uid == uid)
        || node.pods.iter().any(|r| r.uid == uid && r.static_pod)
    {
        return Footprint::everything();
    }
    let mut reads = vec![
        Part::NodeRt(n),
        Part::NodeObj(n),
        Part::Runtime(n, uid),
        Part::Pod(uid),
        Part::Events(uid),
        Part::Env,
    ];
    let mut writes = match a {
        // A probe runs against the container and keeps its result in the kubelet.
        K::Probe { .. } => vec![Part::Runtime(n, uid), Part::Events(uid)],
        K::StatusUpdate { .. } => vec![Part::Pod(uid), Part::Events(uid)],
        // The pod worker is done with the pod once its object is gone.
        K::RemoveObject { .. } => vec![
            Part::Pod(uid),
            Part::Events(uid),
            Part::PodList,
            Part::Runtime(n, uid),
            Part::NodeRt(n),
        ],
        _ => vec![Part::Runtime(n, uid), Part::Pod(uid), Part::Events(uid)],
    };
    match a {
        K::Sync {
            step: Step::Admit | Step::Reject,
            ..
        } => {
            // Admission weighs the pod against every other pod on the node, and adds (or
            // not) the pod's record to the node.
            reads.extend([Part::Node(n), Part::Pods]);
            writes.push(Part::NodeRt(n));
        }
        // A pull puts the image on the node; the end of a pod worker takes its record off;
        // the eviction manager waits its interval after an eviction.
        K::Sync {
            step: Step::PullImage { .. } | Step::Forget | Step::KillOrphan,
            ..
        }
        | K::Evict { .. } => writes.push(Part::NodeRt(n)),
        _ => {}
    }
    if !m.claims.is_empty() {
        // The node's `volumesInUse` (`report_volumes_in_use`) is what every record of the
        // node mounts.
        reads.push(Part::Node(n));
        writes.push(Part::NodeObj(n));
    }
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
        out.push((Part::Pod(p.uid), h.hash_one(&object)));
        out.push((Part::Events(p.uid), h.hash_one(&p.events)));
    }
    out.push((
        Part::PodList,
        h.hash_one(s.api.pods.iter().map(|p| p.uid).collect::<Vec<_>>()),
    ));
    out.push((Part::Slice, h.hash_one(&s.api.endpoints)));
    for (w, st) in s.api.workloads.iter().enumerate() {
        out.push((Part::Workload(w as u8), h.hash_one(st)));
    }
    for (n, obj) in s.api.nodes.iter().enumerate() {
        out.push((Part::NodeObj(n as u8), h.hash_one(obj)));
    }
    out.push((
        Part::Volumes,
        h.hash_one((&s.api.attached, &s.api.attach_retry)),
    ));
    for (i, pdb) in s.api.pdbs.iter().enumerate() {
        out.push((Part::Pdb(i as u8), h.hash_one(pdb)));
    }
    for (n, node) in s.nodes.iter().enumerate() {
        let n = n as u8;
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
            ..(**node).clone()
        };
        let records: Vec<u16> = node.pods.iter().map(|r| r.uid).collect();
        let copies: Vec<u16> = node.static_pods.iter().map(|p| p.uid).collect();
        out.push((Part::NodeRt(n), h.hash_one((own, records, copies))));
    }
    for (n, p) in s.proxies.iter().enumerate() {
        out.push((Part::Proxy(n as u8), h.hash_one((&p.routes, p.served))));
        out.push((Part::Lag(n as u8), h.hash_one(p.lag_left)));
    }
    out.push((Part::Env, h.hash_one(&s.env)));
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
        .filter(|q| !matches!(q, Part::All | Part::Api | Part::Pods | Part::Node(_)))
        .filter(|q| !values.iter().any(|(p, _)| p == *q))
        .copied()
        .collect();
    absent.sort();
    h.hash_one((acc, absent))
}
