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
//! explores every built-in scenario and groups its states by (action, content of the read
//! parts) — enabledness and the written parts' contents must agree within each group — and
//! compares every step's changed parts with its declared writes.
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

use std::hash::BuildHasher;

use crate::cluster::Action;
use crate::context::Context;
use crate::state::*;

/// A part of the cluster state (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// The API's pod object with this uid (present or not), without its events.
    Pod(u16),
    /// The events recorded about the pod with this uid.
    Events(u16),
    /// Which pods the API holds (their uids, in the order of the API's list).
    PodList,
    /// Every API pod object, and the list: what a controller that lists pods reads.
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
    /// Node `n`'s kube-proxy.
    Proxy(u8),
    /// The world outside the cluster: the dependency, which faults happened and healed,
    /// the drain runs.
    Env,
    /// PodGC's terminated-pod collection is due (its victim, if any): every other
    /// component step waits for it.
    GcDue,
    /// The whole state.
    All,
}

impl Part {
    /// Whether two parts share some content.
    pub fn overlaps(self, other: Part) -> bool {
        use Part::*;
        match (self, other) {
            (All, _) | (_, All) => true,
            (Pods, Pod(_) | PodList | Pods) | (Pod(_) | PodList, Pods) => true,
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

/// The footprint of `a` in `s`. It may depend on `s`, but only through the parts it reads.
pub fn footprint(_m: &Context, _s: &State, a: &Action) -> Footprint {
    match a {
        // The clock is enabled when no component step is, and moves every timer.
        Action::Tick(_) => Footprint::everything(),
        _ => Footprint::everything(),
    }
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
        out.push((Part::Proxy(n as u8), h.hash_one(p)));
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
        .filter(|q| !matches!(q, Part::All | Part::Pods | Part::Node(_)))
        .filter(|q| !values.iter().any(|(p, _)| p == *q))
        .copied()
        .collect();
    absent.sort();
    h.hash_one((acc, absent))
}
