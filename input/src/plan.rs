//! Fault plans: what a user's manifests are checked against.
//!
//! A manifest says what the cluster should run; it does not say what happens to it. A plan is
//! one thing that happens to a running application in production — a pod deleted, a rollout,
//! a dependency outage, a crash, a drain, a node cut off (with and without an operator's force
//! delete), a node that dies — turned into one [`Scenario`] per plan and target workload, each
//! checked from the settled cluster.
//!
//! Every plan's scenario checks the whole safety catalogue; a plan that promises progress also
//! expects its liveness property to hold (a drain finishes, a rollout completes, a deleted pod
//! goes, pods are Ready again after the dependency recovers), so that a manifest that breaks
//! the promise is a finding.
//!
//! Node plans (drain, partitions, power-off) act on the node where the settled cluster placed
//! the workload's first pod. Only the model can tell which node that is, by settling the
//! cluster: the caller passes that reading in ([`Placement`]; the model's is
//! `podcheck_model::cluster::first_pod_nodes`), and this module builds nothing but scenarios.
//!
//! The model holds one Service per scenario. An application with several
//! ([`crate::manifest::Reading::services`], in canonical order: not headless first, then by
//! name) has every Service that selects a pod a plan acts on — the target's; for a node plan,
//! those of the workloads whose first pod is on the node; for the dependency outage, those of
//! the workloads whose probes check the dependency — checked under that plan: the first in a
//! scenario named `<application>: <plan> <workload>`, each other in one of its own named
//! `… via Service/<name>`. Where the plan acts on the pods of several workloads (a node plan
//! with several workloads' pods on the node, the dependency outage), that would be a scenario
//! for each of their Services, of the same costly fault: only the first is modelled there, and
//! the others are said not modelled ([`ServiceChoice::not_modelled`]). A Service that another one checked already stands for is not checked
//! again, and is named in that one's [`ServiceChoice`]: one that selects the same workloads
//! alike (the same `publishNotReadyAddresses`, the same kube-proxy lag), or a headless one
//! over the same workloads as a Service with kube-proxies — its EndpointSlice is the same, and
//! no kube-proxy routes it, so nothing can happen with it that does not with the other. A
//! scenario whose plan acts on no selected pod keeps the first Service of the application.
//!
//! [`plan_scenarios_in_cones`] makes the same scenarios, each reduced to its cone of
//! influence ([`crate::cone`]): the workloads that can change its verdicts, the others left
//! out with their settled pods' requests held on their nodes, where that is exact.

use crate::cone::{self, Places, PodPlace};
pub use crate::manifest::NamedService;
use crate::spec::placement::no_node_can_take;
use crate::spec::{Expectation, Fault, Scenario, Start, Verdict, Workload};
use std::collections::BTreeMap;

pub use crate::spec::{Plan, OUTAGE_SECONDS};

/// What a plan's reason for leaving a workload out says when no node can take the workload's
/// pods ([`crate::spec::placement`]): its pods never run, so the plan would check nothing
/// about it.
pub const NO_NODE: &str = "no node can take its pods";

/// Where the settled cluster of a scenario (`start: settled`, no fault) places each
/// workload's first pod: the name of its node, per workload in order, None where no pod of
/// the workload is placed.
pub type Placement<'a> = &'a dyn Fn(&Scenario) -> Vec<Option<String>>;

/// What a plan promises and what it acts on: how this module turns a plan into scenarios.
trait PlanPromise {
    fn promise(self) -> Option<(&'static str, &'static str)>;
    fn targets(self, w: &Workload) -> bool;
    fn acts_on_a_node(self) -> bool;
}

impl PlanPromise for Plan {
    /// The liveness property the plan promises, with where the promise comes from.
    fn promise(self) -> Option<(&'static str, &'static str)> {
        match self {
            Plan::DeletePod => Some((
                "deleted_leads_to_gone",
                "a deleted pod is gone once its containers have stopped (docs/sources.md#api-server-graceful-delete)",
            )),
            Plan::Rollout => Some((
                "rollout_completes",
                "a rollout restart ends with every replica on the new ReplicaSet, or for a StatefulSet every pod from the partition up at the new revision and Ready (docs/sources.md#deployment-rollout-restart, docs/sources.md#statefulset-rolling-update)",
            )),
            Plan::DependencyOutage => Some((
                "recovered_dependency_leads_to_ready",
                "once the dependency is back, probes pass again and the pods are Ready (docs/sources.md#kubelet-probe-worker)",
            )),
            Plan::Drain => Some((
                "drain_completes",
                "kubectl drain finishes: every pod is evicted and gone (docs/sources.md#kubectl-drain)",
            )),
            Plan::Crash | Plan::Partition | Plan::PartitionForceDelete | Plan::PowerOff => None,
        }
    }

    /// Whether the plan acts on a workload of this kind.
    fn targets(self, w: &Workload) -> bool {
        match self {
            Plan::Rollout => match w {
                Workload::Deployment { spec, .. } => !spec.no_rollout,
                Workload::StatefulSet { spec, .. } => statefulset_rolls(spec).is_ok(),
                _ => false,
            },
            Plan::DependencyOutage => false,
            Plan::Crash => !matches!(w, Workload::StaticPod { .. }),
            Plan::DeletePod
            | Plan::Drain
            | Plan::Partition
            | Plan::PartitionForceDelete
            | Plan::PowerOff => matches!(
                w,
                Workload::Deployment { .. } | Workload::StatefulSet { .. } | Workload::Pod { .. }
            ),
        }
    }

    fn acts_on_a_node(self) -> bool {
        matches!(
            self,
            Plan::Drain | Plan::Partition | Plan::PartitionForceDelete | Plan::PowerOff
        )
    }
}

/// Which of an application's Services a plan scenario models.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceChoice {
    /// The Service modelled (`Service/<name>`); None where the scenario keeps its base's
    /// Service as it is (no list of Services was given).
    pub modelled: Option<String>,
    /// The other Services that select a pod the plan acts on and that the modelled one stands
    /// for (the same workloads, alike; or headless over the same workloads), in canonical
    /// order: checked with it, not in a scenario of their own.
    pub alike: Vec<String>,
    /// For a plan that acts on the pods of several workloads (a node's, the dependency's):
    /// the other Services that select them and behave otherwise, not modelled in this
    /// plan's scenario, in canonical order.
    pub not_modelled: Vec<String>,
}

/// The separator of a plan scenario's name from the Service it checks, where it is not the
/// first Service of its plan and target: `<application>: <plan> <workload> via Service/<name>`.
pub const VIA: &str = " via ";

/// Whether a scenario with Service `r` checks all that one with `c` would: both select the
/// same workloads with the same `publishNotReadyAddresses` (so their EndpointSlices are the
/// same), and `c` is headless (no kube-proxy routes it, so it adds no route and no request) or
/// routed alike (neither headless, the same lag and clients).
fn stands_for(r: &NamedService, c: &NamedService) -> bool {
    let mut rs = r.spec.selects.clone();
    let mut cs = c.spec.selects.clone();
    rs.sort();
    cs.sort();
    rs == cs
        && r.spec.publish_not_ready_addresses == c.spec.publish_not_ready_addresses
        && (c.spec.headless
            || (!r.spec.headless
                && r.proxy_lag_seconds == c.proxy_lag_seconds
                && r.spec.clients == c.spec.clients))
}

/// The scenarios of some plans, and the plans that had nothing to act on, each with why.
#[derive(Clone, Debug, Default)]
pub struct PlanSet {
    pub scenarios: Vec<Scenario>,
    /// `plan: why`, for each plan of the set that gave no scenario.
    pub not_applicable: Vec<String>,
    /// For each scenario, in order: the workloads left out of it, outside its cone of
    /// influence ([`plan_scenarios_in_cones`]); empty where it has the whole application.
    pub left_out: Vec<Vec<String>>,
    /// For each scenario, in order: the Service it models and those it does not
    /// ([`plan_scenarios_served`]); default where no list of Services was given.
    pub services: Vec<ServiceChoice>,
}

/// The scenarios of `plans` over `base` (a scenario with the manifests' workloads and no
/// fault of its own: the faults it has are replaced): one per plan and workload it targets,
/// named `<base>: <plan> <workload>`, each from the settled cluster, whose pods `placement`
/// places.
pub fn plan_scenarios(base: &Scenario, plans: &[Plan], placement: Placement) -> PlanSet {
    plan_scenarios_for(base, plans, &BTreeMap::new(), placement)
}

/// [`plan_scenarios`], where a workload named in `chosen` (its `podcheck.dev/plans`
/// annotation, [`crate::manifest::Reading::plans`]) is checked only under the plans listed
/// for it. The dependency outage acts on the whole cluster: it is made unless every
/// workload leaves it out.
pub fn plan_scenarios_for(
    base: &Scenario,
    plans: &[Plan],
    chosen: &BTreeMap<String, Vec<Plan>>,
    placement: Placement,
) -> PlanSet {
    plan_scenarios_served(base, &[], plans, chosen, placement)
}

/// [`plan_scenarios_for`], each scenario with the Service of `services` (the application's,
/// in canonical order, as [`crate::manifest::Reading::services`] gives them; `base` holds the
/// first) that concerns the pods its plan acts on, as the module says. With no `services`,
/// each scenario keeps `base`'s Service.
pub fn plan_scenarios_served(
    base: &Scenario,
    services: &[NamedService],
    plans: &[Plan],
    chosen: &BTreeMap<String, Vec<Plan>>,
    placement: Placement,
) -> PlanSet {
    plan_scenarios_split(base, services, plans, chosen, placement, None)
}

/// [`plan_scenarios_served`]; with `full` (every pod's place in the settled cluster), a node
/// plan whose node holds workloads that [`cone::independent_groups`] splits checks only its
/// target's group ([`Scenario::node_focus`]), with that group's Services. A group of the
/// node with no workload whose first pod is there goes with the first target's.
fn plan_scenarios_split(
    base: &Scenario,
    services: &[NamedService],
    plans: &[Plan],
    chosen: &BTreeMap<String, Vec<Plan>>,
    placement: Placement,
    full: Option<&[Vec<PodPlace>]>,
) -> PlanSet {
    let wants = |w: &str, p: Plan| chosen.get(w).is_none_or(|ps| ps.contains(&p));
    let mut settled_base = base.clone();
    settled_base.faults.clear();
    settled_base.expect.clear();
    settled_base.cluster.start = Start::Settled;
    let mut set = PlanSet::default();
    // The node of each workload's first pod in the settled cluster.
    let placement: Vec<Option<String>> = if plans.iter().any(|p| p.acts_on_a_node()) {
        placement(&settled_base)
    } else {
        vec![None; base.workloads.len()]
    };
    let mut seen = Vec::new();
    for &plan in plans {
        if seen.contains(&plan) {
            continue;
        }
        seen.push(plan);
        let mut made = 0;
        let mut why = None;
        // Whether a workload's own line already says why the plan does not act on it.
        let mut said = false;
        if plan == Plan::DependencyOutage {
            if !base.workloads.iter().any(|w| wants(w.name(), plan)) {
                why = Some("every workload's podcheck.dev/plans annotation leaves it out".into());
            } else if base
                .workloads
                .iter()
                .all(|w| no_node_can_take(base, w).is_some())
            {
                why = Some(format!("{NO_NODE}, of any workload"));
            } else if checks_dependency(base) {
                let s = one(
                    &settled_base,
                    plan,
                    None,
                    vec![Fault::DependencyOutage {
                        seconds: OUTAGE_SECONDS,
                    }],
                );
                let targets: Vec<&str> = base
                    .workloads
                    .iter()
                    .filter(|w| crate::cone::checks_dependency(w))
                    .map(|w| w.name())
                    .collect();
                for (s, choice) in serve(s, services, &targets) {
                    set.services.push(choice);
                    set.scenarios.push(s);
                }
                made += 1;
            } else {
                why = Some("no probe checks the dependency, so its outage changes nothing the model sees (say which do with the annotation podcheck.dev/probe-checks-dependency)".to_string());
            }
        }
        for (i, w) in base.workloads.iter().enumerate() {
            if let (Plan::Rollout, Workload::Deployment { spec, metadata }) = (plan, w) {
                if spec.no_rollout {
                    why = Some(format!("{} is a ReplicaSet or ReplicationController, checked as a Deployment: kubectl rollout restart does not act on one", metadata.name));
                }
            }
            if let (Plan::Rollout, Workload::StatefulSet { spec, metadata }) = (plan, w) {
                if let Err(no) = statefulset_rolls(spec) {
                    said = true;
                    set.not_applicable
                        .push(format!("rollout {}: {no}", metadata.name));
                }
            }
            if !plan.targets(w) {
                continue;
            }
            let name = w.name().to_string();
            if !wants(&name, plan) {
                why = Some(format!(
                    "{name}'s podcheck.dev/plans annotation leaves it out"
                ));
                continue;
            }
            if let Some(no) = no_node_can_take(base, w) {
                why = Some(format!("{name}: {NO_NODE} ({no})"));
                continue;
            }
            // A Job whose pods have all run to completion by the time the other workloads
            // are Ready has no container left for the crash to stop: the scenario would check
            // nothing about it. Said per workload, since the plan may apply to others.
            if let (Plan::Crash, Workload::Job { .. }, Some(full)) = (plan, w, full) {
                if full
                    .get(i)
                    .is_some_and(|pods| !pods.is_empty() && pods.iter().all(|p| p.done))
                {
                    said = true;
                    set.not_applicable.push(format!(
                        "crash {name}: the Job's pods have all run to completion in the settled cluster, where the plans start (its containers exit before the other workloads are Ready), so no container is left to crash"
                    ));
                    continue;
                }
            }
            // The workloads whose pods the plan acts on, for their Services.
            let mut targets = vec![w.name()];
            let mut focused: Option<Vec<String>> = None;
            let faults = match plan {
                Plan::DeletePod => vec![Fault::DeletePod {
                    workload: name.clone(),
                    grace_period_seconds: -1,
                    force: false,
                }],
                Plan::Rollout => vec![Fault::RolloutRestart {
                    workload: name.clone(),
                }],
                Plan::Crash => vec![Fault::Crash {
                    workload: name.clone(),
                }],
                Plan::DependencyOutage => continue,
                Plan::Drain | Plan::Partition | Plan::PartitionForceDelete | Plan::PowerOff => {
                    let Some(node) = placement[i].clone() else {
                        why = Some(format!("{name} has no pod placed in the settled cluster"));
                        continue;
                    };
                    targets = base
                        .workloads
                        .iter()
                        .zip(&placement)
                        .filter(|(_, p)| p.as_deref() == Some(node.as_str()))
                        .map(|(w, _)| w.name())
                        .collect();
                    if let Some(group) = full.and_then(|full| {
                        focus(base, services, full, &placement, &node, i, |w| {
                            plan.targets(w)
                                && wants(w.name(), plan)
                                && no_node_can_take(base, w).is_none()
                        })
                    }) {
                        targets = group.iter().map(|&k| base.workloads[k].name()).collect();
                        focused = Some(targets.iter().map(|t| t.to_string()).collect());
                    }
                    match plan {
                        Plan::Drain => vec![Fault::Drain {
                            node,
                            disable_eviction: false,
                            force: false,
                            delete_emptydir_data: true,
                        }],
                        Plan::Partition => vec![Fault::Partition { node, heals: false }],
                        Plan::PartitionForceDelete => vec![
                            Fault::Partition { node, heals: false },
                            Fault::ForceDeletePod {
                                workload: name.clone(),
                                terminating_only: true,
                            },
                        ],
                        _ => vec![Fault::PowerOff { node }],
                    }
                }
            };
            let mut s = one(&settled_base, plan, Some(&name), faults);
            let alone = focused.is_some();
            s.node_focus = focused;
            for (mut s, mut choice) in serve(s, services, &targets) {
                // A group of a split node plan that no Service selects has none: another
                // group's Service would bring that group back into the cone.
                if alone
                    && s.service
                        .as_ref()
                        .is_some_and(|v| !v.selects.iter().any(|w| targets.contains(&w.as_str())))
                {
                    s.service = None;
                    choice.modelled = None;
                }
                set.services.push(choice);
                set.scenarios.push(s);
            }
            made += 1;
        }
        if made == 0 && !(said && why.is_none()) {
            let why = why.unwrap_or_else(|| match plan {
                Plan::Rollout => "no Deployment or StatefulSet to roll out".into(),
                _ => "no workload it acts on".into(),
            });
            set.not_applicable.push(format!("{}: {why}", plan.name()));
        }
    }
    set.left_out = vec![Vec::new(); set.scenarios.len()];
    set
}

/// Whether `kubectl rollout restart` of this StatefulSet makes its controller replace any
/// pod, and if not, why (docs/sources.md#statefulset-rolling-update).
fn statefulset_rolls(spec: &crate::spec::StatefulSetSpec) -> Result<(), String> {
    use crate::spec::StatefulSetStrategyType;
    if spec.update_strategy.kind == StatefulSetStrategyType::OnDelete {
        return Err("updateStrategy OnDelete: the StatefulSet controller never deletes a pod for an update (a pod takes the new template only when someone else deletes it), so a rollout restart replaces nothing".into());
    }
    let partition = spec.update_strategy.partition();
    if partition >= spec.replicas {
        return Err(format!(
            "rollingUpdate.partition {partition} is not below replicas {}: the rolling update only replaces ordinals from the partition up, so a rollout restart replaces nothing",
            spec.replicas
        ));
    }
    Ok(())
}

/// The scenarios of `s` for each Service of `services` (in canonical order) that selects one
/// of `targets` and that no earlier one stands for ([`stands_for`]), each with what it
/// models: the first named as `s`, the others `… via Service/<name>`. With several `targets`
/// (a node plan, the dependency outage), only the first, and the others said not modelled.
/// Where none selects them, `s` alone keeps its base's Service (the first of `services`).
fn serve(
    s: Scenario,
    services: &[NamedService],
    targets: &[&str],
) -> Vec<(Scenario, ServiceChoice)> {
    // A plan that acts on several workloads' pods: its first Service only (each of them has
    // a scenario of its own under the plans that act on it alone).
    let every = targets.len() == 1;
    let Some(first) = services.first() else {
        return vec![(s, ServiceChoice::default())];
    };
    let concern: Vec<&NamedService> = services
        .iter()
        .filter(|v| v.spec.selects.iter().any(|w| targets.contains(&w.as_str())))
        .collect();
    if concern.is_empty() {
        return vec![(
            s,
            ServiceChoice {
                modelled: Some(first.name.clone()),
                ..ServiceChoice::default()
            },
        )];
    }
    let mut chosen: Vec<(&NamedService, Vec<String>)> = Vec::new();
    for c in concern {
        match chosen.iter_mut().find(|(r, _)| stands_for(r, c)) {
            Some((_, stood)) => stood.push(c.name.clone()),
            None => chosen.push((c, Vec::new())),
        }
    }
    let not_modelled: Vec<String> = if every {
        Vec::new()
    } else {
        chosen
            .iter()
            .skip(1)
            .flat_map(|(r, stood)| std::iter::once(r.name.clone()).chain(stood.iter().cloned()))
            .collect()
    };
    if !every {
        chosen.truncate(1);
    }
    chosen
        .into_iter()
        .enumerate()
        .map(|(k, (svc, stood))| {
            let mut one = s.clone();
            if k > 0 {
                one.name = format!("{}{VIA}{}", s.name, svc.name);
                one.description = format!("{}, with {}", s.description, svc.name);
            }
            one.service = Some(svc.spec.clone());
            one.cluster.proxy_lag_seconds = svc.proxy_lag_seconds;
            (
                one,
                ServiceChoice {
                    modelled: Some(svc.name.clone()),
                    alike: stood,
                    not_modelled: not_modelled.clone(),
                },
            )
        })
        .collect()
}

/// [`plan_scenarios_for`], each scenario reduced to its cone of influence where that leaves
/// some workload out and is exact ([`crate::cone::reduce`]); `places` settles a scenario and
/// tells where each pod is (the model's is `podcheck_model::cluster::pod_places`). Node
/// plans act on the node of the first placed pod, as `placement` would say.
pub fn plan_scenarios_in_cones(
    base: &Scenario,
    plans: &[Plan],
    chosen: &BTreeMap<String, Vec<Plan>>,
    places: Places,
) -> PlanSet {
    plan_scenarios_in_cones_served(base, &[], plans, chosen, places)
}

/// [`plan_scenarios_in_cones`], each scenario with its Service of `services`, as
/// [`plan_scenarios_served`] gives it, before it is reduced to its cone (which keeps the
/// workloads that Service selects together).
pub fn plan_scenarios_in_cones_served(
    base: &Scenario,
    services: &[NamedService],
    plans: &[Plan],
    chosen: &BTreeMap<String, Vec<Plan>>,
    places: Places,
) -> PlanSet {
    let mut settled_base = base.clone();
    settled_base.faults.clear();
    settled_base.expect.clear();
    settled_base.cluster.start = Start::Settled;
    let full = places(&settled_base);
    let first = |_: &Scenario| first_placed(&full);
    let mut set = plan_scenarios_split(base, services, plans, chosen, &first, Some(&full));
    for (s, out) in set.scenarios.iter_mut().zip(&mut set.left_out) {
        if let Some(c) = cone::reduce(s, &full, places) {
            *s = c.scenario;
            *out = c.left_out;
        }
    }
    set
}

/// The workloads a node plan on `node` for target `i` checks, where the node's workloads
/// split into independent groups ([`cone::independent_groups`]): the target's group, and
/// with the first eligible target of the node (by `eligible`, among the workloads whose
/// first pod is there) every group that has no such workload, so that each pod of the node
/// is checked under the plan. None: no split, every workload of the node.
fn focus(
    base: &Scenario,
    services: &[NamedService],
    full: &[Vec<PodPlace>],
    placement: &[Option<String>],
    node: &str,
    i: usize,
    eligible: impl Fn(&Workload) -> bool,
) -> Option<Vec<usize>> {
    let selects: Vec<Vec<String>> = services.iter().map(|v| v.spec.selects.clone()).collect();
    let groups = cone::independent_groups(base, &selects, full, node)?;
    let first_here = |k: usize| placement.get(k).and_then(|p| p.as_deref()) == Some(node);
    let lead = (0..base.workloads.len()).find(|&k| first_here(k) && eligible(&base.workloads[k]));
    let mut mine: Vec<usize> = Vec::new();
    for g in &groups {
        let has_target = g
            .iter()
            .any(|&k| first_here(k) && eligible(&base.workloads[k]));
        if g.contains(&i) || (!has_target && lead.is_some_and(|l| l == i)) {
            mine.extend(g.iter().copied());
        }
    }
    mine.sort_unstable();
    Some(mine)
}

/// The node of each workload's first placed pod, from every pod's place.
pub fn first_placed(places: &[Vec<PodPlace>]) -> Vec<Option<String>> {
    places
        .iter()
        .map(|ps| ps.iter().find_map(|p| p.node.clone()))
        .collect()
}

/// Whether some container's probe checks the external dependency.
fn checks_dependency(s: &Scenario) -> bool {
    s.workloads.iter().any(|w| {
        let t = w.template();
        t.containers.iter().chain(&t.init_containers).any(|c| {
            [&c.startup_probe, &c.readiness_probe, &c.liveness_probe]
                .into_iter()
                .flatten()
                .any(|p| p.checks_dependency)
        })
    })
}

fn one(base: &Scenario, plan: Plan, target: Option<&str>, faults: Vec<Fault>) -> Scenario {
    let mut s = base.clone();
    s.name = match target {
        Some(t) => format!("{}: {} {t}", base.name, plan.name()),
        None => format!("{}: {}", base.name, plan.name()),
    };
    s.description = match target {
        Some(t) => format!(
            "{}, from the settled cluster: {} of {t}",
            base.name,
            plan.describe()
        ),
        None => format!(
            "{}, from the settled cluster: {}",
            base.name,
            plan.describe()
        ),
    };
    s.faults = faults;
    if let Some((property, source)) = plan.promise() {
        s.expect.push(Expectation {
            property: property.into(),
            verdict: Verdict::Holds,
            source: source.into(),
            from: None,
            before: None,
        });
    }
    s
}
