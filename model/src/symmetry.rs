//! Interchangeable nodes, and a representative of each state up to swapping them.
//!
//! Two nodes of a scenario are *interchangeable* when their specs are the same but for the
//! name and nothing in the scenario names either of them (no fault, `nodeName`, static pod,
//! or anything else that spells the name). The nodes that `--nodes` adds are copies of the
//! last node, so they are interchangeable with it unless a fault names it.
//!
//! # Why the reduction is exact
//!
//! Let π permute interchangeable nodes, acting on a state by moving each node's runtime
//! record, Node object and kube-proxy to the new index and renaming every reference to a
//! node index (`pod.spec.nodeName`, an endpoint's node, a proxy route's node, the node of a
//! `Scheduled` event). Every component treats nodes alike by index: the scheduler offers
//! every best-scoring node as a choice of its own (a node's score reads its spec, which
//! interchangeable nodes share, and the pods bound to it, which π moves with it: the
//! spreading score counts them per node and per zone label, part of the spec; the hostname
//! label spells the name but only tells a node's own pods from the others'), kubelets,
//! proxies and the node controllers act per node, and nothing else tells interchangeable nodes apart, by
//! definition. So π is an automorphism of the transition system: `s → t` by an action `a`
//! exactly when `π(s) → π(t)` by `π(a)`. A property that does not tell interchangeable
//! nodes apart either (the catalogue's quantify over all nodes or name nodes by the
//! scenario's names, which makes those nodes distinguished) has the same value on `s` and
//! `π(s)`. Hence a state satisfying a predicate is reachable in `n` steps iff a
//! member of its orbit is reachable in `n` steps in the quotient, where each successor is
//! numbered by its orbit (the fingerprint of its representative, [`Symmetry::canonical`])
//! and the first member of an orbit found is kept as found (any member of the orbit will
//! do, see `podcheck_properties::explore::explore_with`): `always`, `sometimes` and step
//! verdicts, and shortest trace lengths, are the same with and without the reduction. The
//! representative need not be unique per orbit for this (a state whose nodes tie on the
//! sort key keeps their order): the reduction is then smaller, never wrong.
//!
//! Weak fairness is per actor, and the actors of interchangeable nodes (their kubelets and
//! kube-proxies) are permuted along a cycle of the quotient. So the quotient can show that a
//! `leads_to` holds, judging fairness per class of actors (see
//! `podcheck_properties::liveness::leads_to_holds_up_to`, which writes down why that is
//! sound), but not that it fails: then the whole graph is explored.
//!
//! # Interchangeable pods
//!
//! The pods of a Deployment differ from each other, to the model, only by their identity:
//! the uid the API server gives them and the random name suffix the ReplicaSet gives them
//! (the model takes the smallest free ones, `apiserver::create_pod`). A state in which pod
//! `web-1` runs and `web-2` is pending behaves as the state where `web-2` runs and `web-1`
//! is pending: [`canon_pods`] reduces both to one, by sorting the pods on a key of what they
//! hold ([`pod_key`]: the object, the runtime record and its node, the endpoint, the routes,
//! the budgets and drain runs that name them — all but the identity) and renumbering them
//! 1, 2, … in that order, the uid and the suffix everywhere the state holds one (objects,
//! runtime records, endpoints, routes, `disruptedPods`, drain runs, the step's journal), the
//! uids that only leftovers still name (an endpoint or a route of a pod whose object and
//! record are gone) after them; then the lists whose order nothing reads (the API's pods,
//! each node's records, the endpoints, the routes, `disruptedPods`, each drain run's pods)
//! are sorted.
//!
//! **Why it is exact.** Let `s ≈ t` when `t` is `s` with the uids renamed by a bijection
//! and each Deployment's suffixes by a bijection, and those lists reordered. `≈` is a
//! bisimulation that keeps every actor, provided nothing in the model or the properties
//! reads a uid or a suffix other than by equality with another one, or by taking a fresh
//! one, or reads the order of those lists. Then a step `s → s'` by an action naming pods
//! `u…` is matched by `t → t'` by the action naming their images, the fresh uid and suffix
//! a creation takes in `s'` map to the fresh ones it takes in `t'` (fresh on both sides:
//! the bijection extends), and `s' ≈ t'`. A property that reads pods by equality only has
//! the same value on `s` and `t`. [`interchangeable_pods`] allows the renumbering only in
//! scenarios where that proviso holds, and lists what breaks it: PodGC's oldest-first order
//! of terminated pods (the place in the API's list; reached only under a low
//! `terminatedPodGcThreshold`); the Multi-Attach event's first four users; a tie of more
//! than 10 pods in a ReplicaSet's scale-down (below); and any workload that is not such a
//! Deployment (a Job's or a StatefulSet's pods are told apart by index or ordinal, and
//! renumbering changes which uids are free for them). Everything else compares uids for
//! equality: the scheduler (whose
//! spreading score counts pods by workload and revision, never by uid), the
//! kubelets, the faults and the eviction manager offer every pod (every tied pod) as a
//! choice of its own, the EndpointSlice is sorted by uid only to be a set, the proxies copy
//! its order. A drain run lists the node's pods in the API's order (`GetPodsForDeletion`),
//! but reads its list as a set: it evicts every pod on its own (`evictPods` starts one
//! goroutine per pod, and the model offers each pod's eviction and each pod's "gone" as a
//! choice of its own), finds a pod by its uid, and ends when the list is empty. The
//! ReplicaSet's scale-down (under a `scale` or a `rolloutRestart`) ranks its active pods by
//! what they hold (`ActivePodsWithRanks` up to the steps that read timestamps), and which of
//! the pods tied at the cut go is a choice: each set of as many of them as must go is an
//! action of its own (`controllers::replicaset::picks`; upstream breaks that tie by Ready
//! and creation times in logarithmic buckets and then by the pods' random uids, none of which
//! the model keeps). The action names its set by the tied pods' order of uids, but the sets
//! offered are every set of that size, so the renamed state is offered the renamed set: the
//! steps match. (Up to 10 tied pods; a larger tie is broken by the higher uid, and a
//! Deployment whose scale-down could tie more is left apart.)
//!
//! With the node permutation, the representative is the pods' canonical form of the nodes'
//! representative; each step maps a state to a `≈`-related one (the node permutation is an
//! automorphism, the renumbering a bisimulation), so the quotient has, from each state, a
//! successor related to each real successor and no other: `always`, `sometimes` and step
//! verdicts and shortest trace lengths are the same. [`Symmetry::same_class`] tries the
//! node permutations and compares the pods' canonical forms, which are one per class of
//! renumberings (up to a collision of the 64-bit keys, which could only make a replay fail
//! loudly, never make it wrong).
//!
//! Fairness: the renumbering maps every actor to itself (actors are per node, per
//! controller, the scheduler, the clock, the network, a drain run; none is per pod), and a
//! `≈`-related state enables the same actors. So a cycle of the quotient is the image of a
//! real run that enables and takes the same actors, and `leads_to` under weak fairness is
//! judged on it as with the nodes alone (`leads_to_holds_up_to`, with the node classes).

use crate::state::MAX_TIE;
use crate::state::*;
use podcheck_input::spec::{Fault, Scenario, Workload};

/// The lists a key hashes, on the stack while they are short. A `SmallVec` hashes as the
/// slice it holds, as a `Vec` does: the keys are the same as with `Vec`s.
type Keys<T> = smallvec::SmallVec<[T; 8]>;

/// The classes of interchangeable nodes of a scenario (each of two nodes or more), and the
/// Deployments whose pods are interchangeable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symmetry {
    classes: Vec<Vec<NodeId>>,
    pod_workloads: Vec<u8>,
    /// The classes of interchangeable kube-proxies ([`interchangeable_proxies`]).
    proxy_classes: Vec<Vec<NodeId>>,
    /// The faults that cut a node's kube-proxy off by name ([`cutting_faults`]).
    cutters: Vec<Cutter>,
}

impl Symmetry {
    /// The interchangeable nodes of `scenario`.
    pub fn of(scenario: &Scenario) -> Self {
        let nodes = &scenario.cluster.nodes;
        // Everything the scenario says, but the node list: a node whose name appears in it
        // is distinguished.
        let mut rest = scenario.clone();
        for n in &mut rest.cluster.nodes {
            n.name.clear();
        }
        let text = format!("{rest:?}");
        let named = |i: usize| text.contains(&format!("{:?}", nodes[i].name));
        let same_spec = |i: usize, j: usize| {
            let (mut a, mut b) = (nodes[i].clone(), nodes[j].clone());
            a.name.clear();
            b.name.clear();
            a == b
        };
        let mut classes: Vec<Vec<NodeId>> = Vec::new();
        for i in 0..nodes.len() {
            if named(i) {
                continue;
            }
            match classes.iter_mut().find(|c| same_spec(c[0].index(), i)) {
                Some(c) => c.push(NodeId::new(i)),
                None => classes.push(vec![NodeId::new(i)]),
            }
        }
        classes.retain(|c| c.len() > 1);
        Symmetry {
            classes,
            pod_workloads: interchangeable_pods(scenario),
            proxy_classes: interchangeable_proxies(scenario),
            cutters: cutting_faults(scenario),
        }
    }

    /// No node is interchangeable with another, no pod and no kube-proxy either.
    pub fn is_trivial(&self) -> bool {
        self.classes.is_empty() && self.pod_workloads.is_empty() && self.proxy_classes.is_empty()
    }

    /// The same symmetry without the interchangeable kube-proxies: a proxy moves only with
    /// its node (the reduction switched off, `CheckOptions::proxy_symmetry`).
    pub fn without_proxies(&self) -> Self {
        Symmetry {
            classes: self.classes.clone(),
            pod_workloads: self.pod_workloads.clone(),
            proxy_classes: Vec::new(),
            cutters: Vec::new(),
        }
    }

    /// The classes of interchangeable kube-proxies, each sorted (by their nodes).
    pub fn proxy_classes(&self) -> &[Vec<NodeId>] {
        &self.proxy_classes
    }

    /// The class of node `n`'s kube-proxy and how many proxies it has: its class of
    /// interchangeable proxies, else its node's class of interchangeable nodes, else itself.
    pub fn proxy_class(&self, n: NodeId) -> (NodeId, usize) {
        self.proxy_classes
            .iter()
            .chain(&self.classes)
            .find(|c| c.contains(&n))
            .map_or((n, 1), |c| (c[0], c.len()))
    }

    /// The Deployments (by workload index) whose pods are interchangeable.
    pub fn pod_workloads(&self) -> &[u8] {
        &self.pod_workloads
    }

    /// The same symmetry without the interchangeable pods (for tests and figures).
    pub fn nodes_only(&self) -> Self {
        Symmetry {
            classes: self.classes.clone(),
            pod_workloads: Vec::new(),
            proxy_classes: self.proxy_classes.clone(),
            cutters: self.cutters.clone(),
        }
    }

    /// The classes, each sorted.
    pub fn classes(&self) -> &[Vec<NodeId>] {
        &self.classes
    }

    /// The representative of `s`: within each class, nodes ordered by what they hold
    /// ([`Symmetry::canonical`]), then, within each Deployment of interchangeable pods, the
    /// pods' identities renumbered in the order of what they hold ([`canon_pods`]). The
    /// nodes' keys do not read the pods' identities, so renumbering leaves their order. (The
    /// search does not build it: it numbers a state by [`Symmetry::class_key`] of
    /// [`Symmetry::canonical`]. Tests and trace replay use it.)
    pub fn representative(&self, s: &State) -> State {
        let mut t = self.canonical(s.clone());
        if !self.pod_workloads.is_empty() {
            canon_pods(&mut t, &self.pod_workloads);
        }
        t
    }

    /// The representative of `s` up to swapping nodes, by which the search numbers it: `s`
    /// with its interchangeable nodes in the order of their keys (`s` itself when they are
    /// in that order, or when no node is interchangeable). The pods keep their identities.
    pub fn canonical(&self, s: State) -> State {
        let mut t = match self.moved_nodes(&s) {
            Some(t) => t,
            None => s,
        };
        self.sort_proxies(&mut t);
        t
    }

    /// Within each class of interchangeable kube-proxies, the proxies (their routes, pending
    /// update and history variable) in ascending order of what they hold ([`proxy_order`]),
    /// each group of nodes with the same future for a proxy apart ([`Symmetry::proxy_group`]);
    /// the nodes stay where they are. Leaves `s` as it is, shared parts and all, when they
    /// are in that order already.
    fn sort_proxies(&self, s: &mut State) {
        // Within a class of proxies that all hold the same, every group is in order.
        let same = |s: &State, n: &[NodeId]| {
            n.windows(2)
                .all(|w| s.proxies[w[0].index()] == s.proxies[w[1].index()])
        };
        if self.proxy_classes.iter().all(|c| same(s, c)) {
            return;
        }
        let renumbered = !self.pod_workloads.is_empty();
        for slots in self.proxy_groups(s) {
            // Where the pods are renumbered, an order hashes the routes' pods: proxies that
            // hold the same are in order without it.
            if renumbered && same(s, &slots) {
                continue;
            }
            // Each proxy's order once, then whether they are in it already.
            let mut held: Keys<(ProxyOrder<'_>, usize)> = slots
                .iter()
                .map(|n| (proxy_order(s, &s.proxies[n.index()], renumbered), n.index()))
                .collect();
            if held.windows(2).all(|w| w[0].0 <= w[1].0) {
                continue;
            }
            held.sort();
            let moved: Vec<Proxy> = held.iter().map(|&(_, i)| s.proxies[i].clone()).collect();
            drop(held);
            for (n, p) in slots.iter().zip(moved) {
                s.proxies[n.index()] = p;
            }
        }
    }

    /// The groups of interchangeable kube-proxies in `s` (each of two or more, each sorted):
    /// within a class, the proxies of the nodes with the same [`Symmetry::proxy_group`].
    fn proxy_groups(&self, s: &State) -> smallvec::SmallVec<[Keys<NodeId>; 2]> {
        let mut out = smallvec::SmallVec::new();
        for class in &self.proxy_classes {
            let mut keyed: Keys<((bool, bool, bool, u32), NodeId)> =
                class.iter().map(|&n| (self.proxy_group(s, n), n)).collect();
            keyed.sort_unstable();
            for run in keyed.chunk_by(|a, b| a.0 == b.0) {
                if run.len() > 1 {
                    out.push(run.iter().map(|k| k.1).collect());
                }
            }
        }
        out
    }

    /// What node `n`'s kube-proxy has ahead of it in `s`, which the proxies of one group
    /// share: its node cut off, powered off, shutting down, and the faults still to come that
    /// cut it off by name or heal its cut ([`cutting_faults`]) as a mask of their indices.
    fn proxy_group(&self, s: &State, n: NodeId) -> (bool, bool, bool, u32) {
        let node = &s.nodes[n.index()];
        let mut pending = 0u32;
        for c in self.cutters.iter().filter(|c| c.node == n) {
            let bit = 1u32 << c.fault;
            let fired = s.env.fired & bit != 0;
            let healed = s.env.healed & bit != 0;
            if !fired || (c.heals && !healed) {
                pending |= bit;
            }
        }
        (
            node.partitioned,
            node.powered_off,
            node.shutdown.is_some(),
            pending,
        )
    }

    /// Whether `b` is `a` with the kube-proxies of each group moved within it and the pods
    /// renumbered (where they are interchangeable); `b_canon` is `b` with its proxies in
    /// order and then its pods' canonical form. The proxies of `a` are put in order by what
    /// they hold but their pods' identities ([`proxy_order`]); those that tie on that are
    /// tried in every order (a renumbering cannot tell them apart, a move can).
    fn same_up_to_proxies(&self, a: &State, b_canon: &State) -> bool {
        let canon = |mut s: State| {
            if !self.pod_workloads.is_empty() {
                canon_pods(&mut s, &self.pod_workloads);
            }
            s
        };
        let mut x = a.clone();
        self.sort_proxies(&mut x);
        if self.pod_workloads.is_empty() || self.proxy_classes.is_empty() {
            return canon(x) == *b_canon;
        }
        // The runs of proxies that tie but for their pods' identities.
        let mut ties: Vec<Keys<NodeId>> = Vec::new();
        for slots in self.proxy_groups(&x) {
            let key = |n: &NodeId| {
                let (h, lag, served, _) = proxy_order(&x, &x.proxies[n.index()], true);
                (h, lag, served)
            };
            for run in slots.chunk_by(|a, b| key(a) == key(b)) {
                let all_same = run
                    .iter()
                    .all(|n| x.proxies[n.index()] == x.proxies[run[0].index()]);
                if run.len() > 1 && !all_same {
                    ties.push(run.iter().copied().collect());
                }
            }
        }
        let per_tie: Vec<Vec<Vec<NodeId>>> = ties.iter().map(|t| permutations(t)).collect();
        let mut choice = vec![0usize; per_tie.len()];
        loop {
            let mut y = x.clone();
            for ((tie, perms), k) in ties.iter().zip(&per_tie).zip(&choice) {
                for (slot, from) in tie.iter().zip(&perms[*k]) {
                    if slot != from {
                        y.proxies[slot.index()] = x.proxies[from.index()].clone();
                    }
                }
            }
            if canon(y) == *b_canon {
                return true;
            }
            if !next_combination(&mut choice, |i| per_tie[i].len()) {
                return false;
            }
        }
    }

    /// The number of the class of pod renumberings of a representative
    /// ([`Symmetry::canonical`]), where pods are interchangeable: a hash of the state in
    /// which the pods' identities are left out and each Deployment's pods are a sorted list
    /// of what they hold ([`pod_class_key`]). None where no pod is interchangeable: the
    /// representative's fingerprint is its class.
    pub fn class_key(&self) -> Option<impl Fn(&State) -> u64 + Sync + '_> {
        let workloads = &self.pod_workloads;
        (!workloads.is_empty()).then_some(move |s: &State| pod_class_key(s, workloads))
    }

    /// `s` with its interchangeable nodes in the order of their keys, or None when they
    /// are in that order already.
    fn moved_nodes(&self, s: &State) -> Option<State> {
        if self.classes.is_empty() {
            return None;
        }
        let n = s.nodes.len();
        // perm[old] = new.
        let mut perm: Keys<NodeId> = (0..n).map(NodeId::new).collect();
        let mut moved = false;
        for class in &self.classes {
            let mut keyed: Keys<(u64, NodeId)> = class
                .iter()
                .map(|&i| {
                    let key = node_key(
                        s,
                        i,
                        !self.pod_workloads.is_empty(),
                        !self.proxy_classes.is_empty(),
                    );
                    (key, i)
                })
                .collect();
            keyed.sort();
            for (slot, (_, old)) in class.iter().zip(&keyed) {
                perm[old.index()] = *slot;
                moved |= *old != *slot;
            }
        }
        moved.then(|| permute(s, &perm))
    }
}

/// What node `i` holds, in a hash that does not depend on the index of any interchangeable
/// node: its runtime record, its Node object, its kube-proxy's pending update and the
/// routes' pods, and the pods bound to it. Where the pods are interchangeable
/// (`pods_renumbered`), it does not depend on their identities either: the runtime record
/// is read by [`node_content_key`], the pods by what they hold. Where the kube-proxies are
/// interchangeable apart from their nodes (`proxies_apart`), it leaves the node's own proxy
/// out: the proxies are put in order on their own ([`Symmetry::canonical`]).
fn node_key(s: &State, i: NodeId, pods_renumbered: bool, proxies_apart: bool) -> u64 {
    let hasher = ahash::RandomState::with_seeds(7, 11, 13, 17);
    // A pod, by what tells pods apart without naming its node: its uid (or, where the pods'
    // uids are renumbered afterwards, not the uid but what the pod holds), its status and
    // whether it is being deleted. (Two nodes that tie on the key keep their order: the
    // representative is then not the only one of its class, which costs reduction, never
    // exactness.)
    let who = |uid: u16| -> u64 {
        if !pods_renumbered {
            return uid as u64;
        }
        match s.pod(uid) {
            Some(p) => hasher.hash_one((p.workload, p.status.content_hash(), p.deletion)),
            None => 0,
        }
    };
    let pod_key = |p: &Pod| hasher.hash_one((who(p.uid), p.status.content_hash(), p.deletion));
    // Each list the node is in is taken as a multiset: the count and the wrapping sum of its
    // members' hashes, which no order changes (and no list is built or sorted).
    let bag = |keys: &mut dyn Iterator<Item = u64>| {
        keys.fold((0u32, 0u64), |(n, sum), k| (n + 1, sum.wrapping_add(k)))
    };
    let bound = bag(&mut s
        .api
        .pods
        .iter()
        .filter(|p| p.node == Some(i))
        .map(|p| pod_key(p)));
    // Who points at the node: the slice's endpoints, and every proxy's routes.
    let endpoints = bag(&mut s
        .api
        .endpoints
        .iter()
        .filter(|e| e.node == i)
        .map(|e| hasher.hash_one(who(e.uid))));
    let routed = bag(&mut s
        .proxies
        .iter()
        .flat_map(|p| p.routes.iter().filter(|r| r.1 == i))
        .map(|r| hasher.hash_one(who(r.0))));
    let own = &s.proxies[i.index()];
    let own_routes = bag(&mut own
        .routes
        .iter()
        .filter(|_| !proxies_apart)
        .map(|r| hasher.hash_one(who(r.0))));
    let (own_lag, own_served) = match proxies_apart {
        true => (None, false),
        false => (own.lag_left, own.served),
    };
    // The attach/detach controller's attachments and failing attaches to the node.
    let attached = bag(&mut s
        .api
        .attached
        .iter()
        .filter(|a| a.node == i)
        .map(|a| hasher.hash_one((a.claim, a.detach_age))));
    let retries = bag(&mut s
        .api
        .attach_retry
        .iter()
        .filter(|((_, n), _)| *n == i)
        .map(|((c, _), r)| hasher.hash_one((*c, *r))));
    hasher.hash_one((
        attached,
        retries,
        if pods_renumbered {
            node_content_key(&s.nodes[i.index()])
        } else {
            s.nodes[i.index()].content_hash()
        },
        &s.api.nodes[i.index()],
        own_lag,
        own_served,
        own_routes,
        bound,
        endpoints,
        routed,
    ))
}

/// `s` with node `i` moved to `perm[i]` and every node reference renamed (pods' nodes,
/// `Scheduled` events, endpoints, routes, the attach/detach controller's attachments and
/// retries, the node of a drain run).
fn permute(s: &State, perm: &[NodeId]) -> State {
    let map = |n: NodeId| perm[n.index()];
    let mut t = s.clone();
    let len = s.nodes.len();
    let mut nodes = s.nodes.to_vec();
    let mut objs = s.api.nodes.to_vec();
    let mut proxies = s.proxies.to_vec();
    for (old, new) in perm.iter().enumerate() {
        let new = new.index();
        nodes[new] = s.nodes[old].clone();
        objs[new] = s.api.nodes[old].clone();
        proxies[new] = s.proxies[old].clone();
    }
    for p in proxies.iter_mut() {
        for r in p.routes.iter_mut() {
            r.1 = map(r.1);
        }
    }
    t.nodes = nodes.into();
    t.proxies = proxies.into();
    t.api.nodes = objs.into();
    let remap_pod = |p: &mut Shared<Pod>| {
        let moved_node = p.node.is_some_and(|n| map(n) != n);
        let moved_event = p
            .events
            .iter()
            .any(|e| matches!(e.kind, events::EventKind::Scheduled { node } if map(node) != node));
        if moved_node {
            p.node = p.node.map(map);
        }
        if moved_event {
            p.events.edit(|e| {
                if let events::EventKind::Scheduled { node } = &mut e.kind {
                    *node = map(*node);
                }
            });
        }
    };
    for p in t.api.pods.iter_mut() {
        remap_pod(p);
    }
    for i in 0..len {
        if t.nodes[i]
            .static_pods
            .iter()
            .any(|p| p.node.is_some_and(|n| map(n) != n))
        {
            for p in t.nodes[i].static_pods.iter_mut() {
                remap_pod(p);
            }
        }
    }
    for (_, kind) in t.journal.0.iter_mut() {
        if let events::EventKind::Scheduled { node } = kind {
            *node = map(*node);
        }
    }
    if t.api.attached.iter().any(|a| map(a.node) != a.node) {
        for a in t.api.attached.iter_mut() {
            a.node = map(a.node);
        }
        t.api.attached.sort();
    }
    if t.api.attach_retry.iter().any(|((_, n), _)| map(*n) != *n) {
        for ((_, n), _) in t.api.attach_retry.iter_mut() {
            *n = map(*n);
        }
        t.api.attach_retry.sort_by_key(|(k, _)| *k);
    }
    for d in t.env.drains.iter_mut() {
        d.node = map(d.node);
    }
    if t.api.endpoints.iter().any(|e| map(e.node) != e.node) {
        for e in t.api.endpoints.iter_mut() {
            e.node = map(e.node);
        }
        t.api.endpoints.sort();
    }
    t
}

impl Symmetry {
    /// Whether `b` is `a` with interchangeable nodes swapped (or `a` itself): the two are one
    /// state of the quotient. Tries every permutation within the classes, so it is for
    /// replaying traces, not for the search.
    pub fn same_class(&self, a: &State, b: &State) -> bool {
        if a == b {
            return true;
        }
        let n = a.nodes.len();
        if n != b.nodes.len() {
            return false;
        }
        // Interchangeable pods: their canonical form is one per class of pod permutations
        // (up to a collision of the 64-bit content keys, which could only make this answer
        // "no" wrongly, and the replay then fails loudly).
        // Interchangeable kube-proxies: `b`'s in their order, `a`'s tried in every order
        // that can match ([`Symmetry::same_up_to_proxies`]).
        let mut b = b.clone();
        self.sort_proxies(&mut b);
        if !self.pod_workloads.is_empty() {
            canon_pods(&mut b, &self.pod_workloads);
        }
        let b = &b;
        if self.classes.is_empty() {
            return self.same_up_to_proxies(a, b);
        }
        // Every permutation of each class, combined over the classes.
        let per_class: Vec<Vec<Vec<NodeId>>> =
            self.classes.iter().map(|c| permutations(c)).collect();
        let mut choice = vec![0usize; per_class.len()];
        loop {
            let mut perm: Vec<NodeId> = (0..n).map(NodeId::new).collect();
            for ((class, perms), k) in self.classes.iter().zip(&per_class).zip(&choice) {
                for (old, new) in class.iter().zip(&perms[*k]) {
                    perm[old.index()] = *new;
                }
            }
            if self.same_up_to_proxies(&permute(a, &perm), b) {
                return true;
            }
            if !next_combination(&mut choice, |i| per_class[i].len()) {
                return false;
            }
        }
    }
}

/// How [`Symmetry::canonical`] orders interchangeable kube-proxies: by what each holds, its
/// routes first as a hash that reads their pods only by what the pods hold where pods are
/// renumbered (`renumbered`: their identities are not yet canonical), then as they are.
type ProxyOrder<'a> = (u64, Option<Secs>, bool, &'a [(u16, NodeId)]);

fn proxy_order<'a>(s: &State, p: &'a Proxy, renumbered: bool) -> ProxyOrder<'a> {
    let hasher = ahash::RandomState::with_seeds(7, 11, 13, 17);
    let routes = if renumbered {
        // A multiset: the count and the wrapping sum of the routes' hashes.
        let (n, sum) = p
            .routes
            .iter()
            .fold((0u64, 0u64), |(n, sum), &(uid, node)| {
                let who = s.pod(uid).map_or(0, |q| {
                    hasher.hash_one((q.workload, q.status.content_hash(), q.deletion))
                });
                (n + 1, sum.wrapping_add(hasher.hash_one((who, node))))
            });
        hasher.hash_one((n, sum))
    } else {
        0
    };
    (routes, p.lag_left, p.served, &p.routes[..])
}

/// A fault that cuts node `node`'s kube-proxy off by name: the scenario's fault `fault`,
/// a partition (`heals`: one that may heal), a power-off or a node shutdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cutter {
    node: NodeId,
    fault: u8,
    heals: bool,
}

/// The faults of `scenario` that cut a node's kube-proxy off by name ([`Cutter`]).
fn cutting_faults(scenario: &Scenario) -> Vec<Cutter> {
    let index = |name: &str| {
        scenario
            .cluster
            .nodes
            .iter()
            .position(|n| n.name == name)
            .map(NodeId::new)
    };
    scenario
        .faults
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let (node, heals) = match f {
                Fault::Partition { node, heals } => (node, *heals),
                Fault::PowerOff { node } | Fault::NodeShutdown { node } => (node, false),
                _ => return None,
            };
            Some(Cutter {
                node: index(node)?,
                fault: i as u8,
                heals,
            })
        })
        .collect()
}

/// The kube-proxies of `scenario` that are interchangeable apart from their nodes: where its
/// Service is one the proxies route (not headless), those of every node, in one class (none
/// with fewer than two nodes). In a state, the proxies of a class are moved only within a
/// group of nodes that have the same future for a proxy ([`Symmetry::proxy_group`]): their
/// nodes cut off or not, powered off or not, shutting down or not, and the same faults still
/// to come that cut them off by name (a partition, a power-off, a node shutdown) or heal such
/// a cut. A node whose partition has healed is then in the group of the nodes no fault names.
///
/// **Why it is exact.** A kube-proxy reads its node only through the node's `partitioned`
/// flag (a proxy cut off sees no update, its lag does not run) and `powered_off` (no client
/// reaches it); a client request names the proxy it goes through (`via`), and is judged on
/// that proxy's routes and on the runtime of the route's node, not on `via`'s node. Nothing
/// else of the model reads which node a proxy is on: the API server's fresh uids read every
/// proxy's routes alike, the EndpointSlice reaches every proxy alike. Those flags change
/// only by the faults that name the node (and a shutdown's end, which powers it off), and by
/// a control-plane partition, which cuts every node off at once, for good. So let σ permute
/// the proxies (routes, pending update, history variable) within a group of a state `s`,
/// leaving the nodes, the pods and every route's node where they are: the nodes of the group
/// agree on the flags now and have the same faults ahead, so `s → t` by an action `a`
/// exactly when `σ(s) → σ(t)` by `σ(a)`, which is `a` with a proxy's sync or a request's
/// `via` moved by σ, and `t`'s groups are `s`'s or finer (a fault that fires splits its node
/// off; a heal joins its node to the others only in `t`). The catalogue's properties read
/// the proxies only as "some proxy" or "every proxy", each with its own node's flags, or the
/// proxy a request names: the same on `s` and `σ(s)`, and on a step and its image. So `≈`
/// (equal up to such moves, node permutations and pod renumberings) is a bisimulation that
/// keeps the properties, and the argument of the node symmetry for verdicts and shortest
/// traces holds as it is. The representative ([`Symmetry::canonical`]) orders the nodes by
/// what they hold without their own proxies, then the proxies of each group by what they
/// hold ([`proxy_order`]): a member of the state's class, one per class up to ties, which
/// cost reduction and never exactness. Fairness: σ maps a kube-proxy to one of the class,
/// which [`Symmetry::proxy_class`] makes one class of actors (a class bigger than the moves
/// needs makes the quotient's test of a `leads_to` weaker, never wrong).
pub fn interchangeable_proxies(scenario: &Scenario) -> Vec<Vec<NodeId>> {
    if scenario.service.as_ref().is_none_or(|svc| svc.headless) {
        return Vec::new();
    }
    let class: Vec<NodeId> = (0..scenario.cluster.nodes.len()).map(NodeId::new).collect();
    if class.len() > 1 {
        vec![class]
    } else {
        Vec::new()
    }
}

/// Every ordering of `items`.
fn permutations<T: Copy>(items: &[T]) -> Vec<Vec<T>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// The Deployments of `scenario` whose pods are interchangeable: all its workloads, if every
/// one is a Deployment whose pods the model never tells apart by their uid or by their
/// place in the API's pod list (and none otherwise: renumbering changes which uids are free
/// for the others). What tells them apart:
///
/// - a `scale` or `rolloutRestart` of a Deployment of more than 10 replicas (or scaled to
///   more): the ReplicaSet's scale-down offers every choice among the pods tied at the cut
///   of `ActivePodsWithRanks` (`controllers::replicaset::picks`) in a tie of up to
///   [`MAX_TIE`] pods, and breaks a larger one by the higher uid. Up to 10 replicas no tie is
///   larger (a ReplicaSet has at most its Deployment's largest `replicas` active), and which
///   tied pods go is a choice among all of them, read by equality: the sets offered are
///   closed under renumbering;
/// - a claim in its template: the attach/detach controller's Multi-Attach event names the
///   first four users in the API's order;
/// - a `terminatedPodGcThreshold` that the scenario could reach: PodGC then removes the
///   oldest terminated pod first, by its place in the API's list (creation order).
pub fn interchangeable_pods(scenario: &Scenario) -> Vec<u8> {
    // At most 255 pods per workload (suffixes are a byte).
    let threshold = scenario.cluster.terminated_pod_gc_threshold as usize;
    let gc_reachable = threshold > 0 && threshold < 255 * scenario.workloads.len().max(1);
    if gc_reachable {
        return Vec::new();
    }
    let eligible: Vec<u8> = scenario
        .workloads
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            matches!(w, Workload::Deployment { .. })
                && scenario.pod_claims(*i, 0).is_empty()
                && !(w.replicas().unwrap_or(0) as usize > MAX_TIE
                    && scales_down(scenario, w.name()))
                && !scenario.faults.iter().any(|f| match f {
                    Fault::Scale { workload, replicas } => {
                        workload == w.name() && *replicas as usize > MAX_TIE
                    }
                    _ => false,
                })
        })
        .map(|(i, _)| i as u8)
        .collect();
    // Renumbering pods changes which uids are free: exact only where nothing tells any pod
    // apart by the value of its uid, so every workload must qualify.
    if eligible.len() == scenario.workloads.len() {
        eligible
    } else {
        Vec::new()
    }
}

/// Whether a `scale` or `rolloutRestart` of the workload named `workload` has its
/// ReplicaSets scale down, where the ReplicaSet controller chooses among tied pods
/// (`controllers::replicaset::picks`).
pub fn scales_down(scenario: &Scenario, workload: &str) -> bool {
    scenario.faults.iter().any(|f| match f {
        Fault::Scale { workload: w, .. } | Fault::RolloutRestart { workload: w } => w == workload,
        _ => false,
    })
}

/// Whether some Deployment of `scenario` whose pods are interchangeable
/// ([`interchangeable_pods`]) scales down under a `scale` or `rolloutRestart`
/// ([`scales_down`]): the pods a `CheckOptions::scaled_pod_symmetry` switched off leaves apart.
pub fn scaled_pods(scenario: &Scenario) -> bool {
    interchangeable_pods(scenario)
        .iter()
        .any(|&w| scales_down(scenario, scenario.workloads[w as usize].name()))
}

/// What the pod `uid` of a class holds, in a hash that does not depend on the identity
/// (uid, name suffix) of any pod of the class: its object but its uid and suffix, its
/// runtime record (and the node it is on) but its uid and suffix, its endpoint, the proxies
/// that route to it, the budgets that count it disrupted and the drain runs that wait for
/// it.
fn pod_key(s: &State, uid: u16) -> u64 {
    let hasher = ahash::RandomState::with_seeds(19, 23, 29, 31);
    // The object's and the runtime record's parts are kept with them (`symmetry_key`): a
    // step changes one pod, the others' keys are read, not computed.
    let object = s
        .api
        .pods
        .iter()
        .find(|p| p.uid == uid)
        .map(|p| p.symmetry_key(|p| object_key(&hasher, p)));
    let runtime: Keys<(NodeId, u64)> = s
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(n, node)| {
            node.pods
                .iter()
                .filter(|r| r.uid == uid)
                .map(move |r| (NodeId::new(n), rt_key(r)))
        })
        .collect();
    let endpoint: Keys<_> = s
        .api
        .endpoints
        .iter()
        .filter(|e| e.uid == uid)
        .map(|e| (e.node, e.conditions))
        .collect();
    let routed: Keys<(usize, NodeId)> = s
        .proxies
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            p.routes
                .iter()
                .filter(|r| r.0 == uid)
                .map(move |r| (i, r.1))
        })
        .collect();
    let disrupted: Keys<bool> = s
        .api
        .pdbs
        .iter()
        .map(|b| b.disrupted_pods.contains(&uid))
        .collect();
    // The workload a drain run names the pod under is not its identity: it is in the key.
    let drained: Keys<(u8, DrainStep, u8)> = s
        .env
        .drains
        .iter()
        .flat_map(|d| {
            d.pods
                .iter()
                .filter(|p| p.uid == uid)
                .map(move |p| (d.fault, p.step, p.workload))
        })
        .collect();
    hasher.hash_one((object, runtime, endpoint, routed, disrupted, drained))
}

/// [`pod_key`]'s part of a pod object: all of it but its uid and suffix.
fn object_key(hasher: &ahash::RandomState, p: &Pod) -> u64 {
    let Pod {
        uid: _,
        workload,
        suffix: _,
        revision,
        available_in,
        node,
        deletion,
        unschedulable,
        status,
        job_counted,
        job_index,
        index_failures,
        disruption_target,
        mirror_of,
        events,
        ghost,
        image_set,
    } = p;
    hasher.hash_one((
        image_set,
        (
            workload,
            revision,
            available_in,
            node,
            deletion,
            unschedulable,
        ),
        status.content_hash(),
        job_counted,
        job_index,
        index_failures,
        disruption_target,
        mirror_of,
        &**events,
        ghost,
    ))
}

/// A runtime record's key ([`runtime_key`]), kept with it.
fn rt_key(r: &Shared<PodRt>) -> u64 {
    r.symmetry_key(|r| runtime_key(&ahash::RandomState::with_seeds(19, 23, 29, 31), r))
}

/// What a node's runtime holds, without the pods' identities (kept with it): all of the
/// node but its runtime records, and those as the sorted list of their keys
/// ([`runtime_key`]).
fn node_content_key(node: &Shared<Node>) -> u64 {
    node.symmetry_key(|n| {
        let Node {
            pods,
            images,
            partitioned,
            lease_age,
            memory_hog,
            kubelet_down,
            powered_off,
            shutdown,
            eviction_wait,
            static_pods,
        } = n;
        let mut records: Keys<u64> = pods.iter().map(rt_key).collect();
        records.sort_unstable();
        ahash::RandomState::with_seeds(37, 41, 43, 47).hash_one((
            records,
            (images, partitioned, lease_age, memory_hog),
            (kubelet_down, powered_off, shutdown, eviction_wait),
            static_pods,
        ))
    })
}

/// [`pod_key`]'s part of a runtime record: all of it but its uid and suffix (the node it is
/// on is added by the caller).
fn runtime_key(hasher: &ahash::RandomState, r: &PodRt) -> u64 {
    let PodRt {
        uid: _,
        workload,
        suffix: _,
        job_index,
        revision,
        evicted,
        shutdown,
        probes_pending,
        volumes,
        sandbox,
        init,
        ctrs,
        terminating,
        killed,
        cleaned,
        retry_left,
        volume_retry,
        static_pod,
    } = r;
    hasher.hash_one((
        (workload, job_index, revision, evicted, shutdown),
        probes_pending,
        volumes,
        sandbox,
        init,
        ctrs,
        terminating,
        killed,
        cleaned,
        retry_left,
        volume_retry,
        static_pod,
    ))
}

/// Every uid the state holds: (uid, suffix, workload) of each pod object and each runtime
/// record (once per uid), then (uid, 0, None) of each leftover, a uid that only endpoints,
/// routes, budgets or drain runs still name, in uid order.
fn members(s: &State) -> Keys<(u16, u8, Option<u8>)> {
    let mut members: Keys<(u16, u8, Option<u8>)> = Keys::new();
    for p in s.api.pods.iter() {
        members.push((p.uid, p.suffix, Some(p.workload)));
    }
    for node in s.nodes.iter() {
        for r in &node.pods {
            if !members.iter().any(|m| m.0 == r.uid) {
                members.push((r.uid, r.suffix, Some(r.workload)));
            }
        }
    }
    let mut named: Keys<u16> = s.api.endpoints.iter().map(|e| e.uid).collect();
    for p in s.proxies.iter() {
        named.extend(p.routes.iter().map(|r| r.0));
    }
    for b in s.api.pdbs.iter() {
        named.extend(b.disrupted_pods.iter().copied());
    }
    for d in &s.env.drains {
        named.extend(d.pods.iter().map(|p| p.uid));
    }
    named.sort_unstable();
    named.dedup();
    for u in named {
        if !members.iter().any(|m| m.0 == u) {
            members.push((u, 0, None));
        }
    }
    members
}

/// The number of the class of `s` under renumbering the pods of `workloads` (see the
/// module documentation): a hash of everything the state holds but the pods' identities,
/// with each class of pods (each Deployment's, then the leftovers) as the sorted list of
/// the pods' keys, a pod's key being a hash of all the state holds of it but its uid and
/// suffix: its object ([`object_key`]), its runtime records with their nodes
/// ([`runtime_key`]), its endpoints, the routes to it, the budgets that count it disrupted
/// and the drain runs that name it (what [`pod_key`] reads). Two states have the same number
/// exactly when one is the other with the pods renumbered and the lists whose order nothing
/// reads reordered, up to a collision of 64-bit hashes as for fingerprints: matching the
/// sorted lists key by key gives the renumbering, and the rest is equal. It is the class of
/// [`canon_pods`]'s form, hashed without building it.
pub fn pod_class_key(s: &State, workloads: &[u8]) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = ahash::RandomState::with_seeds(53, 59, 61, 67).build_hasher();
    // The API but its pods, its endpoints and the budgets' disrupted pods (each pod's own
    // part of those is in its key).
    let Api {
        pods: _,
        endpoints,
        workloads: statuses,
        nodes,
        attach_retry,
        attached,
        pdbs,
    } = &*s.api;
    endpoints.len().hash(&mut h);
    (statuses, nodes, attach_retry, attached).hash(&mut h);
    for b in pdbs.iter() {
        let PdbStatus {
            observed,
            current_healthy,
            desired_healthy,
            expected_pods,
            disruptions_allowed,
            disrupted_pods,
        } = b;
        (observed, current_healthy, desired_healthy, expected_pods).hash(&mut h);
        (disruptions_allowed, disrupted_pods.len()).hash(&mut h);
    }
    // The nodes but their runtime records' identities; the proxies but their routes.
    s.nodes.len().hash(&mut h);
    for n in s.nodes.iter() {
        h.write_u64(node_content_key(n));
    }
    for p in s.proxies.iter() {
        let Proxy {
            routes,
            lag_left,
            served,
        } = p;
        (routes.len(), lag_left, served).hash(&mut h);
    }
    // The outside world but the drain runs' pods (each pod's part of a run is in its key:
    // which run waits for it, at which step). A run reads its list by uid, never by its
    // order, so the list is a set.
    let Env {
        dependency_down,
        outage_left,
        fired,
        healed,
        mirror_deleted,
        drains,
    } = &s.env;
    (dependency_down, outage_left, fired, healed, mirror_deleted).hash(&mut h);
    drains.len().hash(&mut h);
    for d in drains {
        let DrainRun {
            fault,
            node,
            pods,
            failed,
            stage,
        } = d;
        (fault, node, pods.len(), failed, stage).hash(&mut h);
    }
    // Each uid's key, in one pass over each list: a hash of what the state holds of it, item
    // by item, each item tagged with its kind (so the sequence reads one way only).
    let seeds = ahash::RandomState::with_seeds(19, 23, 29, 31);
    // Held in place: a state names a few dozen pod items (objects, runtime records,
    // endpoints, routes), past the usual eight.
    let mut acc: smallvec::SmallVec<[(u16, Option<u8>, ahash::AHasher); 16]> =
        smallvec::SmallVec::new();
    let mut of = |uid: u16, class: Option<u8>| -> usize {
        match acc.iter().position(|a| a.0 == uid) {
            Some(i) => i,
            None => {
                acc.push((uid, class, seeds.build_hasher()));
                acc.len() - 1
            }
        }
    };
    let mut slots: smallvec::SmallVec<[(usize, u8, u64); 64]> = smallvec::SmallVec::new();
    for p in s.api.pods.iter() {
        let i = of(p.uid, Some(p.workload));
        slots.push((i, 0, p.symmetry_key(|p| object_key(&seeds, p))));
    }
    for (n, node) in s.nodes.iter().enumerate() {
        for r in &node.pods {
            let i = of(r.uid, Some(r.workload));
            // Tags 16 and up: a runtime record on node `tag - 16`.
            slots.push((i, 16 + n as u8, rt_key(r)));
        }
    }
    for e in s.api.endpoints.iter() {
        let i = of(e.uid, None);
        slots.push((i, 2, seeds.hash_one((e.node, e.conditions))));
    }
    for (x, p) in s.proxies.iter().enumerate() {
        for r in &p.routes {
            let i = of(r.0, None);
            slots.push((i, 3, ((x as u64) << 8) | r.1.index() as u64));
        }
    }
    for (b, pdb) in s.api.pdbs.iter().enumerate() {
        for u in &pdb.disrupted_pods {
            let i = of(*u, None);
            slots.push((i, 4, b as u64));
        }
    }
    for d in &s.env.drains {
        for p in &d.pods {
            let i = of(p.uid, None);
            slots.push((i, 5, seeds.hash_one((d.fault, p.step, p.workload))));
        }
    }
    for (i, tag, v) in slots {
        let a = &mut acc[i].2;
        a.write_u8(tag);
        a.write_u64(v);
    }
    let classes = workloads
        .iter()
        .map(|w| Some(*w))
        .chain(std::iter::once(None));
    for class in classes {
        let mut keys: Keys<u64> = acc
            .iter()
            .filter(|a| a.1 == class)
            .map(|a| a.2.finish())
            .collect();
        keys.sort_unstable();
        keys.hash(&mut h);
    }
    h.finish()
}

/// The canonical form of the pods' identities: the pods of each Deployment (by object or by
/// runtime record) sorted by [`pod_key`] take the uids 1, 2, … in that order (Deployment after
/// Deployment), then the leftovers (uids only endpoints, routes, budgets or drain runs still
/// name) the next ones, each Deployment's pods the name suffixes 1, 2, … in the same order;
/// renamed everywhere the state holds a uid or a suffix. Then the lists whose order nothing
/// reads are sorted: the API's pods and each node's runtime records by uid, the endpoints,
/// routes and disrupted pods. Only for a scenario whose every workload is a Deployment of
/// interchangeable pods (see the module documentation).
pub fn canon_pods(s: &mut State, workloads: &[u8]) {
    let members = members(s);
    // old uid -> (new uid, new suffix)
    let mut map: Keys<(u16, u16, u8)> = Keys::with_capacity(members.len());
    let mut next_uid = 1u16;
    let classes = workloads
        .iter()
        .map(|w| Some(*w))
        .chain(std::iter::once(None));
    for class in classes {
        let mut keyed: Keys<(u64, u16, u8)> = members
            .iter()
            .filter(|m| m.2 == class)
            .map(|m| (pod_key(s, m.0), m.0, m.1))
            .collect();
        keyed.sort_unstable();
        for (i, k) in keyed.iter().enumerate() {
            let suffix = if class.is_some() { i as u8 + 1 } else { 0 };
            map.push((k.1, next_uid, suffix));
            next_uid += 1;
        }
    }
    let get = |u: u16| map.iter().find(|m| m.0 == u).map(|m| (m.1, m.2));
    let new_uid = |u: u16| get(u).map_or(u, |m| m.0);
    if map.iter().any(|m| m.0 != m.1)
        || members
            .iter()
            .any(|m| m.2.is_some() && get(m.0).is_some_and(|n| n.1 != m.1))
        || s.env
            .drains
            .iter()
            .flat_map(|d| &d.pods)
            .any(|p| get(p.uid).is_some_and(|n| n.1 != p.suffix))
    {
        let pods_move = s
            .api
            .pods
            .iter()
            .any(|p| get(p.uid) != Some((p.uid, p.suffix)));
        if pods_move {
            for p in s.api.pods.iter_mut() {
                if let Some((u, x)) = get(p.uid) {
                    if (p.uid, p.suffix) != (u, x) {
                        // The key (`object_key`) reads neither.
                        let p = p.rename();
                        p.uid = u;
                        p.suffix = x;
                    }
                }
            }
        }
        for i in 0..s.nodes.len() {
            if !s.nodes[i]
                .pods
                .iter()
                .any(|r| get(r.uid) != Some((r.uid, r.suffix)))
            {
                continue;
            }
            for r in s.nodes[i].pods.iter_mut() {
                if let Some((u, x)) = get(r.uid) {
                    if (r.uid, r.suffix) != (u, x) {
                        // The key (`runtime_key`) reads neither.
                        let r = r.rename();
                        r.uid = u;
                        r.suffix = x;
                    }
                }
            }
        }
        if s.api.endpoints.iter().any(|e| new_uid(e.uid) != e.uid) {
            for e in s.api.endpoints.iter_mut() {
                e.uid = new_uid(e.uid);
            }
        }
        for i in 0..s.proxies.len() {
            if s.proxies[i].routes.iter().any(|r| new_uid(r.0) != r.0) {
                for r in s.proxies[i].routes.iter_mut() {
                    r.0 = new_uid(r.0);
                }
            }
        }
        for b in 0..s.api.pdbs.len() {
            if s.api.pdbs[b]
                .disrupted_pods
                .iter()
                .any(|u| new_uid(*u) != *u)
            {
                for u in s.api.pdbs[b].disrupted_pods.iter_mut() {
                    *u = new_uid(*u);
                }
            }
        }
        for d in s.env.drains.iter_mut() {
            for p in d.pods.iter_mut() {
                if let Some((u, x)) = get(p.uid) {
                    // A leftover (the pod object is gone) gets suffix 0, as in the map: the
                    // run's copy of the name is only shown, never read.
                    p.suffix = x;
                    p.uid = u;
                }
            }
        }
        for (u, _) in s.journal.0.iter_mut() {
            *u = new_uid(*u);
        }
    }
    if s.api.pods.windows(2).any(|x| x[0].uid > x[1].uid) {
        s.api.pods.sort_by_key(|p| p.uid);
    }
    for n in 0..s.nodes.len() {
        if s.nodes[n].pods.windows(2).any(|x| x[0].uid > x[1].uid) {
            s.nodes[n].pods.sort_by_key(|r| r.uid);
        }
    }
    if s.api.endpoints.windows(2).any(|x| x[0] > x[1]) {
        s.api.endpoints.sort();
    }
    for i in 0..s.proxies.len() {
        if s.proxies[i].routes.windows(2).any(|x| x[0] > x[1]) {
            s.proxies[i].routes.sort();
        }
    }
    for b in 0..s.api.pdbs.len() {
        if s.api.pdbs[b].disrupted_pods.windows(2).any(|x| x[0] > x[1]) {
            s.api.pdbs[b].disrupted_pods.sort();
        }
    }
    for d in 0..s.env.drains.len() {
        if s.env.drains[d].pods.windows(2).any(|x| x[0].uid > x[1].uid) {
            s.env.drains[d].pods.sort_by_key(|p| p.uid);
        }
    }
}

/// Steps `choice` (one index per position, position `i` below `len(i)`) to the next
/// combination, the first position fastest; false once every combination has been taken.
fn next_combination(choice: &mut [usize], len: impl Fn(usize) -> usize) -> bool {
    for (i, c) in choice.iter_mut().enumerate() {
        *c += 1;
        if *c < len(i) {
            return true;
        }
        *c = 0;
    }
    false
}
