//! The cone of influence of a plan scenario: the workloads that can change its verdicts.
//!
//! A plan scenario ([`crate::plan`]) acts on one workload (or, for the dependency outage, on
//! the workloads whose probes check the dependency). The other workloads of the application
//! cost states — each pod's probe timers interleave with everything else — but most of them
//! cannot change what the scenario's properties decide. This module keeps the ones that can
//! (the *cone*), leaves the others out of the scenario, and holds what they occupy in the
//! settled cluster as the nodes' `usedByOtherPods` (and their images as the nodes' images),
//! where the settled cluster placed them.
//!
//! # What is kept
//!
//! The cone starts from:
//!
//! - every workload a fault names (the deleted, crashed, rolled-out, force-deleted pod's);
//! - for a fault on a node (drain, partition, power-off, …): every workload with a pod on
//!   that node — a drain evicts every pod there (`kubectl drain` lists the node's pods), a
//!   partition makes the node controller taint the node and evict every pod that does not
//!   tolerate it, a power-off stops every container there — or, where the plan split the
//!   node's workloads into groups that share nothing and cannot compete for a place
//!   ([`independent_groups`]), the plan target's group ([`Scenario::node_focus`]); and the
//!   workloads of the Service, whose clients reach its pods through every node's
//!   kube-proxy, the faulted node's too; a fault on the whole control plane keeps
//!   everything;
//! - for the dependency outage: every workload with a probe that checks the dependency;
//! - every workload that is not *quiet*: a Job or a static pod, a workload whose program
//!   exits or outgrows its memory limit by itself or whose image cannot be pulled, and one
//!   whose pods are not all placed and Ready in the settled cluster (a Pending pod takes
//!   capacity as soon as some frees up, so it competes with the plan's pods).
//!
//! and takes the closure under sharing: the workloads of the Service when one of them is
//! in, those of a PodDisruptionBudget when one of them is in (the budget counts them all),
//! those naming the same PersistentVolumeClaim (one volume, attached to one node).
//!
//! # Why leaving the rest out is exact
//!
//! A workload left out is quiet and shares nothing with the cone: its pods are Running and
//! Ready in the settled start, no fault acts on them or on their nodes, and their programs
//! do nothing by themselves. In the whole scenario they therefore stay as they are in every
//! run: the only steps they take are their probes' periodic runs, which pass and change no
//! object (the pod stays Ready, its endpoints stay). What the cone's pods read of them:
//!
//! - Services, budgets, claims: none shared, by the closure; a Service over left-out
//!   workloads only is left out with them (its endpoints never change, and the cone's faults
//!   do not touch the nodes' proxies unless a node fault keeps it);
//! - node capacity: the scheduler's fit, its LeastAllocated and BalancedAllocation scores
//!   and the kubelet's admission count the requests of the pods bound to a node; the
//!   left-out pods never leave theirs, so holding their requests (`k8s::pod_request`, as the
//!   model counts a pod) in the node's `usedByOtherPods`, and what scoring counts for them
//!   (`k8s::non_zero_pod_request`: 100m / 200Mi for a container requesting none) in its
//!   `scoredAsUsedByOtherPods`, gives every placement decision the same numbers in every
//!   state. The model has no preemption and no inter-pod (anti-)affinity, which would read
//!   them otherwise;
//! - spreading: PodTopologySpread's default constraints count, per node and per zone, the
//!   pods its default selector matches — for a Deployment's pod those of its own ReplicaSet,
//!   for a StatefulSet's pod those of its StatefulSet, for a bare pod or a Job's pod those of
//!   the workloads the Service selects (`podcheck_model::scheduler::spread_peer`). All of
//!   them are in the cone with the pod: its own workload, and the Service's workloads by the
//!   closure. A left-out pod is never counted for a cone pod, so leaving it out changes no
//!   spreading score;
//! - images: a left-out pod pulled its images onto its node; they are listed as present;
//! - the settled start itself: the cone's own canonical startup is replayed without the
//!   left-out pods, whose requests are held from the start. In the whole cluster a cone pod
//!   may have been scheduled before some left-out pods were, seeing less on each node, so
//!   its own score could send it elsewhere. The startup therefore binds each cone pod to
//!   the node the whole settled cluster bound it to ([`Scenario::settle_placement`]; the
//!   scheduler's filter must still accept the node, and only the startup reads it: every
//!   scheduling after the start scores as usual, against the same held requests the whole
//!   cluster has by then, and the same spreading counts, which read cone pods only). The reduction is only made when the cone's pods then stand
//!   exactly as in the whole settled cluster, pod by pod, Ready as there; otherwise the
//!   scenario keeps every workload. What can still differ is where in their periodic cycle
//!   the probe timers stand when the start is reached (the whole cluster settles when its
//!   slowest pod is Ready); the faults may come at any moment from the start, so the runs
//!   from either start are the same runs, shifted.
//!
//! The properties of a plan scenario (`properties/src/catalogue.rs`) are about pods,
//! Services, budgets, volumes and the plan's promise: over left-out pods each one reads the
//! same constant objects in every state of the whole scenario, as it does of the settled
//! start, which both scenarios begin from — so a violation cannot appear or vanish by
//! leaving them out, and a run of the cone's scenario is a run of the whole one with the
//! left-out pods' probe steps taken out (and the reverse). The promises concern the cone
//! only: `drain_completes` waits for the node's pods, which are all in the cone;
//! `deleted_leads_to_gone`, `rollout_completes` the target's; `recovered_dependency_leads_to_ready`
//! the pods made not Ready by the outage, whose workloads are in it.
//!
//! A workload that no node can take ([`crate::spec::placement`]: not even a node with none of
//! the scenario's pods on it) is left out too, unless it shares a budget or a claim with the
//! cone: its pods stay Pending in every run of the whole scenario, since no fault adds a node,
//! capacity or a label, so they hold no capacity, have no endpoint and do nothing the cone's
//! pods read. The verdicts about its own Pending pods are not kept: the reader has said once
//! that nothing about it is checked, and no plan acts on it.
//!
//! # Where it would not be exact, and what is done
//!
//! A node plan on a node that also holds pods of other workloads evicts or stops those too,
//! and their replacements take capacity elsewhere. They are kept (the cone of a node plan is
//! every workload on the node, and what shares with them), unless the plan split the node's
//! workloads into groups ([`independent_groups`] says when that is exact: nothing shared, and
//! every replacement has one place to go with room for all). Then each group is checked in
//! a scenario of its own, and the whole plan's verdict on a property is theirs combined:
//! violated where some group's is, a witness found where some group's run finds it. So no
//! plan scenario is an abstraction: every reduction made is exact, and the reports with and
//! without the cone have the same verdicts (for a split node plan, over its groups' scenarios
//! together). The scenario says which workloads it left out ([`Coned::left_out`]), and
//! `--no-cone` checks every scenario with the whole application.

use crate::spec::placement::no_node_can_take;
use crate::spec::{Fault, Scenario, SettlePlacement, Workload};
use std::collections::BTreeSet;

/// One pod of the settled cluster: where it is bound, and whether it is Ready.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodPlace {
    /// The pod's name suffix (a StatefulSet's ordinal).
    pub suffix: u8,
    /// The node's name; None while the pod is not bound.
    pub node: Option<String>,
    pub ready: bool,
    /// The pod has run to completion: its phase is Succeeded or Failed (a Job's pod whose
    /// containers exited).
    pub done: bool,
}

/// Every pod object of the settled cluster of a scenario (`start: settled`), per workload
/// in order, each workload's pods in the order of their names (ordinal or creation, then
/// uid). The model's is `podcheck_model::cluster::pod_places`.
pub type Places<'a> = &'a dyn Fn(&Scenario) -> Vec<Vec<PodPlace>>;

/// A plan scenario reduced to its cone.
#[derive(Clone, Debug)]
pub struct Coned {
    pub scenario: Scenario,
    /// The workloads left out, by name, in the application's order.
    pub left_out: Vec<String>,
}

/// The workloads (by index) in the cone of influence of `s`'s faults, given the settled
/// cluster's pods (`places`, as [`Places`] gives them for `s` without its faults).
pub fn cone(s: &Scenario, places: &[Vec<PodPlace>]) -> BTreeSet<usize> {
    let n = s.workloads.len();
    let index = |name: &str| s.workloads.iter().position(|w| w.name() == name);
    let mut keep: BTreeSet<usize> = (0..n).filter(|&i| !quiet(s, i, places)).collect();
    // A workload no node can take has no endpoint in any run: it shares nothing through the
    // Service.
    let service: Vec<usize> = s
        .service
        .iter()
        .flat_map(|v| v.selects.iter().filter_map(|w| index(w)))
        .filter(|&i| no_node_can_take(s, &s.workloads[i]).is_none())
        .collect();
    let on_node = |node: &str| -> Vec<usize> {
        (0..n)
            .filter(|&i| {
                places
                    .get(i)
                    .is_some_and(|ps| ps.iter().any(|p| p.node.as_deref() == Some(node)))
                    || matches!(&s.workloads[i], Workload::StaticPod { node: m, .. } if m == node)
            })
            .collect()
    };
    for f in &s.faults {
        match f {
            Fault::DeletePod { workload, .. }
            | Fault::ForceDeletePod { workload, .. }
            | Fault::Deadlock { workload }
            | Fault::Crash { workload }
            | Fault::StepFails { workload, .. }
            | Fault::RolloutRestart { workload }
            | Fault::Scale { workload, .. }
            | Fault::SetPodImage { workload, .. } => keep.extend(index(workload)),
            Fault::ControlPlanePartition {} => keep.extend(0..n),
            Fault::DependencyOutage { .. } => {
                keep.extend((0..n).filter(|&i| checks_dependency(&s.workloads[i])))
            }
            // A fault of one node (`Fault::node`): the workloads with a pod there, or the
            // plan's group of them where the plan split the node's workloads
            // ([`independent_groups`]).
            _ => {
                if let Some(node) = f.node() {
                    match &s.node_focus {
                        Some(focus) => keep.extend(focus.iter().filter_map(|w| index(w))),
                        None => keep.extend(on_node(node)),
                    }
                    keep.extend(service.iter().copied());
                }
            }
        }
    }
    // The closure under sharing a Service, a budget, a claim.
    let mut groups: Vec<Vec<usize>> = vec![service];
    groups.extend(shared(s));
    loop {
        let before = keep.len();
        for g in &groups {
            if g.iter().any(|i| keep.contains(i)) {
                keep.extend(g.iter().copied());
            }
        }
        if keep.len() == before {
            return keep;
        }
    }
}

/// The workloads with a pod on `node` in the settled cluster (`places`), split into groups
/// that a node plan can check one at a time, where that is exact; None where it is not.
///
/// A node plan (drain, partition, partition with a force delete, power-off) acts on every pod
/// of its node. Where those pods belong to workloads that share nothing — no Service of
/// `services` (the application's, or the scenario's own where none is given), no
/// PodDisruptionBudget, no PersistentVolumeClaim, directly or through another workload — each
/// workload's pods go through the fault on their own: the drain evicts and waits for each pod
/// by itself (`kubectl drain` evicts the node's pods one request each, and waits for each by
/// name), the node lifecycle controller taints the node once and each pod is evicted on its
/// own toleration, a power-off stops each container, and every controller that reacts (the
/// ReplicaSet, StatefulSet, EndpointSlice and disruption controllers) reads its own
/// workload's pods only. What could still couple them is where their replacements go, which
/// is the one thing the scheduler reads across workloads (the requests on each node). The
/// split is made only where that cannot couple them:
///
/// - every workload of the application is quiet ([`quiet`]): nothing is Pending and nothing
///   acts by itself, so the only pods scheduled after the start are the node's pods'
///   replacements;
/// - no pod on the node is bound by `nodeName` (its replacement would skip the scheduler and
///   come back to the node);
/// - every pod on the node has at most one place to go: at most one other node passes the
///   scheduler's filters for it alone (node affinity and selector, taints,
///   [`crate::spec::placement::refusals`]), the same node for all of them. The faulted node
///   itself is out of the question from the moment any replacement exists: a drain cordons
///   it before it evicts, and a node cut off or powered off has the `unreachable` NoSchedule
///   taint before its pods are evicted;
/// - that node has room for all the node's pods at once, on top of what it holds in the
///   settled cluster: so every replacement fits whatever the others did, and its scheduling
///   decision (bind there, or Pending where no node passes) is the same in every
///   interleaving of the groups, with the others or without them. Then no score is ever
///   compared.
///
/// Under these conditions a run of the whole node plan is, for each group, a run of the
/// group's own scenario with the other groups' steps taken out (those steps change no
/// object the group's pods, Services, budgets or claims read), and the reverse: a group's
/// run can be completed by letting the other groups take their steps as time passes. So a
/// property about a group's objects has the same verdict in the whole scenario and in the
/// group's; a promise over the whole node (`drain_completes`: every pod of the node evicted
/// and gone) holds in the whole scenario exactly when it holds in every group's, and a
/// counterexample in a group's scenario is one of the whole plan (its trace shows only the
/// group's pods). The groups are in the order of their first workload.
pub fn independent_groups(
    s: &Scenario,
    services: &[Vec<String>],
    places: &[Vec<PodPlace>],
    node: &str,
) -> Option<Vec<Vec<usize>>> {
    let n = s.workloads.len();
    if (0..n).any(|i| !quiet(s, i, places)) {
        return None;
    }
    let on_node: Vec<usize> = (0..n)
        .filter(|&i| {
            places
                .get(i)
                .is_some_and(|ps| ps.iter().any(|p| p.node.as_deref() == Some(node)))
        })
        .collect();
    if on_node.len() < 2 {
        return None;
    }
    // Where the node's pods can go, and what they need there all at once.
    let mut elsewhere: BTreeSet<&str> = BTreeSet::new();
    let mut needed = podcheck_k8s::Resources::default();
    for &i in &on_node {
        let spec = s.workloads[i].template();
        if spec.node_name.is_some() {
            return None;
        }
        let count = places[i]
            .iter()
            .filter(|p| p.node.as_deref() == Some(node))
            .count();
        let request = crate::spec::placement::pod_request(spec);
        for _ in 0..count {
            needed.add(&request);
        }
        for other in s.cluster.nodes.iter().filter(|m| m.name != node) {
            let mut empty = other.clone();
            empty.used_by_other_pods = podcheck_k8s::Resources::default();
            if crate::spec::placement::refusals(spec, &empty, false).is_empty() {
                elsewhere.insert(other.name.as_str());
            }
        }
    }
    if elsewhere.len() > 1 {
        return None;
    }
    if let Some(&to) = elsewhere.iter().next() {
        let dest = s.cluster.nodes.iter().find(|m| m.name == to)?;
        let mut held = dest.used_by_other_pods.clone();
        for (i, ps) in places.iter().enumerate() {
            let request = crate::spec::placement::pod_request(s.workloads.get(i)?.template());
            for _ in ps.iter().filter(|p| p.node.as_deref() == Some(to)) {
                held.add(&request);
            }
        }
        let req = crate::spec::placement::request_against(&needed, &dest.allocatable, false);
        if !podcheck_k8s::insufficient_resources(req, dest.allocatable.clone(), held).is_empty() {
            return None;
        }
    }
    // What the workloads share: a Service, a budget, a claim.
    let index = |name: &str| s.workloads.iter().position(|w| w.name() == name);
    let mut links: Vec<Vec<usize>> = services
        .iter()
        .map(|v| v.iter().filter_map(|w| index(w)).collect())
        .collect();
    links.extend(
        s.service
            .iter()
            .map(|v| v.selects.iter().filter_map(|w| index(w)).collect()),
    );
    links.extend(shared(s));
    // Connected components over every workload (two workloads of the node may be linked
    // through one elsewhere), kept where they meet the node.
    let mut component: Vec<usize> = (0..n).collect();
    fn root(c: &mut [usize], mut i: usize) -> usize {
        while c[i] != i {
            c[i] = c[c[i]];
            i = c[i];
        }
        i
    }
    for l in &links {
        for w in l.windows(2) {
            let (a, b) = (root(&mut component, w[0]), root(&mut component, w[1]));
            component[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    for &i in &on_node {
        let r = root(&mut component, i);
        match roots.iter().position(|&x| x == r) {
            Some(k) => groups[k].push(i),
            None => {
                roots.push(r);
                groups.push(vec![i]);
            }
        }
    }
    (groups.len() > 1).then_some(groups)
}

/// The workloads (by index) that each PodDisruptionBudget counts together, and those that
/// name each PersistentVolumeClaim: one group per budget and per claim.
fn shared(s: &Scenario) -> Vec<Vec<usize>> {
    let n = s.workloads.len();
    let index = |name: &str| s.workloads.iter().position(|w| w.name() == name);
    let mut groups: Vec<Vec<usize>> = s
        .pod_disruption_budgets
        .iter()
        .map(|b| b.spec.selects.iter().filter_map(|w| index(w)).collect())
        .collect();
    let claims_of = |i: usize| -> BTreeSet<&str> {
        s.workloads[i]
            .template()
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
            .map(|c| c.claim_name.as_str())
            .collect()
    };
    let claims: BTreeSet<&str> = (0..n).flat_map(claims_of).collect();
    for c in claims {
        groups.push((0..n).filter(|&i| claims_of(i).contains(c)).collect());
    }
    groups
}

/// Whether workload `i` does nothing by itself once settled: a Deployment, StatefulSet or
/// bare pod whose pods are all bound and Ready in the settled cluster, as many as it wants,
/// and whose programs neither exit nor outgrow their memory by themselves, with images that
/// can be pulled; or one whose pods no node can take
/// ([`crate::spec::placement::no_node_can_take`]), which stay Pending.
fn quiet(s: &Scenario, i: usize, places: &[Vec<PodPlace>]) -> bool {
    let w = &s.workloads[i];
    let wanted = match w {
        Workload::Deployment { spec, .. } => spec.replicas as usize,
        Workload::StatefulSet { spec, .. } => spec.replicas as usize,
        Workload::Pod { .. } => 1,
        Workload::Job { .. } | Workload::StaticPod { .. } => return false,
    };
    // Its pods stay Pending in every run: no node can take one even with nothing else of the
    // scenario on it, and no fault adds a node, capacity or a label.
    if no_node_can_take(s, w).is_some() {
        return true;
    }
    let t = w.template();
    let calm = t
        .containers
        .iter()
        .chain(t.init_containers.iter().filter(|c| c.is_sidecar()))
        .all(|c| {
            c.app.exit_after_seconds.is_none()
                && c.app.exceeds_memory_limit_after_seconds.is_none()
                && !c.app.image_pull_fails
        });
    let settled = places
        .get(i)
        .is_some_and(|ps| ps.len() == wanted && ps.iter().all(|p| p.node.is_some() && p.ready));
    calm && settled
}

/// Whether some probe of the workload's containers checks the external dependency.
pub fn checks_dependency(w: &Workload) -> bool {
    let t = w.template();
    t.containers.iter().chain(&t.init_containers).any(|c| {
        [&c.startup_probe, &c.readiness_probe, &c.liveness_probe]
            .into_iter()
            .flatten()
            .any(|p| p.checks_dependency)
    })
}

/// `s` (a plan scenario from the settled cluster) reduced to the cone of its faults, where
/// that leaves some workload out and is exact: `full` is the settled cluster's pods of `s`,
/// and `places` settles the reduced scenario to compare. None: nothing to leave out, or the
/// cone's pods would not settle as in the whole cluster.
pub fn reduce(s: &Scenario, full: &[Vec<PodPlace>], places: Places) -> Option<Coned> {
    let keep = cone(s, full);
    if keep.len() == s.workloads.len() {
        return None;
    }
    let mut r = s.clone();
    let mut left_out = Vec::new();
    for (i, w) in s.workloads.iter().enumerate() {
        if keep.contains(&i) {
            continue;
        }
        left_out.push(w.name().to_string());
        let t = w.template();
        let request = crate::spec::placement::pod_request(t);
        let scored = crate::spec::placement::non_zero_pod_request(t);
        for p in &full[i] {
            // A pod of a workload no node can take holds nothing anywhere.
            let Some(node) = p.node.as_deref() else {
                continue;
            };
            let spec = r.cluster.nodes.iter_mut().find(|n| n.name == node)?;
            // Scoring counts the held pods as the whole cluster does: with their non-zero
            // requests (100m / 200Mi for a container that requests none).
            let mut as_scored = spec
                .scored_as_used_by_other_pods
                .clone()
                .unwrap_or_else(|| spec.used_by_other_pods.clone());
            as_scored.add(&scored);
            spec.used_by_other_pods.add(&request);
            spec.scored_as_used_by_other_pods =
                (as_scored != spec.used_by_other_pods).then_some(as_scored);
            for c in t.init_containers.iter().chain(&t.containers) {
                if !spec.images.contains(&c.image) {
                    spec.images.push(c.image.clone());
                }
            }
        }
    }
    let kept = |name: &String| !left_out.contains(name);
    r.workloads.retain(|w| kept(&w.name().to_string()));
    if let Some(v) = &mut r.service {
        v.selects.retain(kept);
        if v.selects.is_empty() {
            r.service = None;
        }
    }
    r.pod_disruption_budgets
        .retain(|b| b.spec.selects.iter().all(kept));
    let used: BTreeSet<String> = r
        .workloads
        .iter()
        .flat_map(|w| w.template().volumes.iter())
        .filter_map(|v| v.persistent_volume_claim.as_ref())
        .map(|c| c.claim_name.clone())
        .collect();
    let named_by_left_out = |claim: &str| {
        s.workloads.iter().any(|w| {
            !kept(&w.name().to_string())
                && w.template()
                    .volumes
                    .iter()
                    .filter_map(|v| v.persistent_volume_claim.as_ref())
                    .any(|c| c.claim_name == claim)
        })
    };
    r.persistent_volume_claims
        .retain(|c| used.contains(&c.metadata.name) || !named_by_left_out(&c.metadata.name));
    r.validate().ok()?;
    // The cone's canonical startup binds each of its pods where the whole cluster's did.
    r.settle_placement = keep
        .iter()
        .flat_map(|&i| {
            let name = s.workloads[i].name();
            full[i].iter().filter_map(move |p| {
                Some(SettlePlacement {
                    workload: name.to_string(),
                    suffix: p.suffix,
                    node: p.node.clone()?,
                })
            })
        })
        .collect();
    // The cone's pods must settle as they do in the whole cluster.
    let mut settled = r.clone();
    settled.faults.clear();
    settled.expect.clear();
    let mine = places(&settled);
    let theirs: Vec<&Vec<PodPlace>> = keep.iter().map(|&i| &full[i]).collect();
    if mine.len() != theirs.len() || mine.iter().zip(&theirs).any(|(a, b)| a != *b) {
        return None;
    }
    r.description = format!(
        "{}; left out, independent of it: {}",
        r.description,
        left_out.join(", ")
    );
    Some(Coned {
        scenario: r,
        left_out,
    })
}
