//! What a finding is about, and where in the manifests its fix goes.
//!
//! A plan scenario is named after the workload the plan acts on, but a finding may be about
//! another one (a rollout of `web` that leaves `api` without endpoints). The workload a
//! finding is about is the one whose pods the step that breaks the property changed; its
//! container is the one that step changed (the probe that ran, the container that stopped),
//! or else the container the property's fix concerns ([`fix`]). Where the last step changed
//! the pods of several workloads (or none, as a lasso's loop may), the plan's target is taken
//! when it is among them.

use podcheck_input::manifest::{tree::Loc, Placed, PlacedBudget};
use podcheck_input::spec::{Container, Scenario};
use podcheck_model::{kubelet, Action, State};
use podcheck_traces::RawPath;

/// The workload a finding is about and, where the fix concerns one, its container.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct About {
    pub workload: Option<String>,
    pub container: Option<String>,
}

/// Where the fix of a property goes, and what to change.
#[derive(Clone, Copy, Debug)]
pub struct Fix {
    /// Fields of the container, in order: the first the manifest has is the line of the fix
    /// (`lifecycle.preStop`, `livenessProbe`, `command`).
    pub container: &'static [&'static str],
    /// Fields of the pod template's `spec`, tried after the container's
    /// (`terminationGracePeriodSeconds`).
    pub pod: &'static [&'static str],
    /// Fields of the object, tried last (`spec.replicas`, `spec.backoffLimit`). Where the
    /// manifest has none of them, the fix goes at the container's line (a field to add to
    /// it), or without a container at the object's.
    pub object: &'static [&'static str],
    /// What to change, in a sentence.
    pub help: &'static str,
    /// The finding names a container: the fix is in one (or the step that broke the
    /// property changed one), not on the object alone.
    pub names_container: bool,
    /// The fix goes in the PodDisruptionBudget that selects the workload's pods, where one
    /// does ([`budget_fix_location`]); the object's fields are for a workload without one.
    pub in_budget: bool,
}

const PRESTOP: Fix = Fix {
    container: &["lifecycle.preStop"],
    pod: &[],
    object: &[],
    help: "Give the container a preStop hook (such as `sleep: {seconds: 5}`, longer than the kube-proxies' lag) so that it keeps serving until no proxy routes to it, and a terminationGracePeriodSeconds that covers the hook and the program's own shutdown.",
    names_container: true,
    in_budget: false,
};

const SIGTERM: Fix = Fix {
    container: &["command", "args"],
    pod: &["terminationGracePeriodSeconds"],
    object: &[],
    help: "Make the program exit on SIGTERM within the grace period: run it as PID 1 (the exec form of `command`, or `exec` in a shell script) or handle the signal in it, or raise terminationGracePeriodSeconds above its shutdown time.",
    names_container: true,
    in_budget: false,
};

const LIVENESS: Fix = Fix {
    container: &["livenessProbe", "startupProbe"],
    pod: &[],
    object: &[],
    help: "Let the liveness probe check the program itself, not a dependency it calls, and give a slow start a startupProbe (or a longer initialDelaySeconds, periodSeconds × failureThreshold) that covers it.",
    names_container: true,
    in_budget: false,
};

const READINESS: Fix = Fix {
    container: &["readinessProbe"],
    pod: &[],
    object: &[],
    help: "Give the container a readinessProbe that fails when the program cannot serve and passes again when it can, with a period short enough for the promise.",
    names_container: true,
    in_budget: false,
};

const ENDPOINTS: Fix = Fix {
    container: &["readinessProbe"],
    pod: &[],
    object: &["spec.replicas"],
    help: "Run more than one replica, and let each pod keep serving while it stops (a preStop hook) and become Ready only when it can serve (a readinessProbe), so that the Service always has a ready endpoint.",
    names_container: true,
    in_budget: false,
};

const BUDGET: Fix = Fix {
    container: &[],
    pod: &[],
    object: &["spec.replicas"],
    help: "Run more replicas than the PodDisruptionBudget must keep available, or loosen the budget (minAvailable, maxUnavailable, unhealthyPodEvictionPolicy), so that an eviction can go through.",
    names_container: false,
    in_budget: true,
};

const ROLLOUT: Fix = Fix {
    container: &["readinessProbe"],
    pod: &[],
    object: &["spec.strategy", "spec.updateStrategy", "spec.replicas"],
    help: "Check that the new pods can become Ready (probes, resources, node selector) and that the strategy's maxSurge and maxUnavailable (a StatefulSet's updateStrategy: its type, partition and maxUnavailable) let the rollout go on with the nodes the cluster has.",
    names_container: true,
    in_budget: false,
};

const REPLICAS: Fix = Fix {
    container: &[],
    pod: &[],
    object: &["spec.replicas"],
    help: "Check that every replica can be placed and become Ready again after the fault (resources, node selector, tolerations, probes).",
    names_container: false,
    in_budget: false,
};

const IDENTITY: Fix = Fix {
    container: &[],
    pod: &[],
    object: &[],
    help: "No field of the manifest prevents this: it follows from removing a pod on a node that is cut off but still running. Instead of a force delete, fence the node and add the `node.kubernetes.io/out-of-service` taint.",
    names_container: false,
    in_budget: false,
};

const JOB: Fix = Fix {
    container: &[],
    pod: &["restartPolicy"],
    object: &["spec.podFailurePolicy", "spec.backoffLimit", "spec.activeDeadlineSeconds"],
    help: "Check the Job's restartPolicy, backoffLimit, podFailurePolicy and activeDeadlineSeconds against how its program fails and how long it runs (with restartPolicy OnFailure, backoffLimit counts container restarts, one attempt fewer than with Never).",
    names_container: true,
    in_budget: false,
};

const OTHER: Fix = Fix {
    container: &[],
    pod: &[],
    object: &[],
    help: "The trace shows the run that breaks the property: change what in the workload's manifest lets it happen (docs/properties.md gives the property's source).",
    names_container: true,
    in_budget: false,
};

/// Where the fix of property `name` goes, and what to change: a small map from property to
/// the fields the fix concerns (docs/sarif.md lists it).
pub fn fix(name: &str) -> Fix {
    match name {
        "no_request_to_stopped_container"
        | "deleted_pod_unrouted_before_sigterm"
        | "endpoint_ready_implies_serving_not_terminating"
        | "rollout_serving_endpoints_within_unavailable" => PRESTOP,
        "graceful_stop_within_grace"
        | "deleted_pod_gone_within_grace"
        | "deleted_pod_gone_within_a_second_of_sigterm" => SIGTERM,
        "no_restart_while_healthy"
        | "deadlock_killed_within_failure_threshold_periods"
        | "probe_kill_within_probe_grace" => LIVENESS,
        "healthy_pod_stays_ready"
        | "ready_again_after_outage"
        | "recovered_dependency_leads_to_ready"
        | "recovered_dependency_ready_within_probe_period"
        | "ready_only_after_readiness_success"
        | "pod_becomes_ready"
        | "endpoint_becomes_ready" => READINESS,
        "no_request_finds_no_endpoints" => ENDPOINTS,
        "eviction_respects_budget"
        | "drain_completes"
        | "drain_breaks_budget"
        | "unready_pod_evicted_only_within_budget"
        | "no_eviction_in_full_disruption" => BUDGET,
        "rollout_completes"
        | "rollout_running_within_surge"
        | "recreate_revisions_never_overlap" => ROLLOUT,
        "replicas_converge" | "surplus_replicas_removed" | "cut_off_pod_replaced_within" => {
            REPLICAS
        }
        "statefulset_at_most_one"
        | "rwo_volume_attached_to_one_node"
        | "rwo_volume_mounted_on_one_node" => IDENTITY,
        n if n.starts_with("job_") => JOB,
        _ => OTHER,
    }
}

/// Whether container `c` is one the fix of property `name` concerns, for choosing among a
/// pod's containers when the violating step does not name one: the one without a preStop
/// hook, the one with the probe.
fn concerns(name: &str, c: &Container) -> bool {
    let f = fix(name);
    if f.container == PRESTOP.container {
        c.lifecycle.as_ref().is_none_or(|l| l.pre_stop.is_none())
    } else if f.container == LIVENESS.container {
        c.liveness_probe.is_some() || c.startup_probe.is_some()
    } else if f.container == READINESS.container {
        c.readiness_probe.is_some()
    } else {
        true
    }
}

/// A pod's part that changed in the last step: (workload, container as (init, index)).
type Changed = (u8, Option<(bool, usize)>);

/// What the last step of `raw` changed: the pods (by their workload) whose object or
/// runtime record differs before and after, with the containers whose runtime state did,
/// and the container a probe ran on.
fn changed(raw: &RawPath) -> Vec<Changed> {
    let n = raw.states.len();
    if n < 2 {
        return Vec::new();
    }
    let (before, after) = (&raw.states[n - 2], &raw.states[n - 1]);
    let mut out: Vec<Changed> = Vec::new();
    let mut push = |c: Changed| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    // The pod the step itself names: a probe's container, a request's pod, a kubelet's or a
    // controller's pod.
    let (uid, ctr) = match raw.actions.last() {
        Some(&Action::Kubelet(kubelet::Action::Probe { uid, init, ctr, .. })) => {
            (Some(uid), Some((init, usize::from(ctr))))
        }
        Some(&Action::Kubelet(
            kubelet::Action::Sync { uid, .. }
            | kubelet::Action::StatusUpdate { uid, .. }
            | kubelet::Action::RemoveObject { uid, .. }
            | kubelet::Action::Evict { uid, .. },
        )) => (Some(uid), None),
        Some(Action::Client(r)) => (r.uid, None),
        Some(Action::Controller(c)) => (c.pod(), None),
        _ => (None, None),
    };
    if let Some(w) = uid.and_then(|u| workload_of(before, u).or_else(|| workload_of(after, u))) {
        push((w, ctr));
    }
    for p in after.api.pods.iter() {
        match before.api.pods.iter().find(|q| q.uid == p.uid) {
            Some(q) if **q == **p => {}
            _ => push((p.workload, None)),
        }
    }
    for q in before.api.pods.iter() {
        if !after.api.pods.iter().any(|p| p.uid == q.uid) {
            push((q.workload, None));
        }
    }
    for (nb, na) in before.nodes.iter().zip(after.nodes.iter()) {
        for p in na.pods.iter() {
            let Some(q) = nb.pods.iter().find(|q| q.uid == p.uid) else {
                push((p.workload, None));
                continue;
            };
            if **q == **p {
                continue;
            }
            let mut any = false;
            for (init, (a, b)) in [(true, (&p.init, &q.init)), (false, (&p.ctrs, &q.ctrs))] {
                for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
                    if x != y {
                        push((p.workload, Some((init, i))));
                        any = true;
                    }
                }
            }
            if !any {
                push((p.workload, None));
            }
        }
    }
    out
}

fn workload_of(s: &State, uid: u16) -> Option<u8> {
    s.api
        .pods
        .iter()
        .find(|p| p.uid == uid)
        .map(|p| p.workload)
        .or_else(|| {
            s.nodes
                .iter()
                .flat_map(|n| n.pods.iter())
                .find(|p| p.uid == uid)
                .map(|p| p.workload)
        })
}

/// The workload and container the violation of property `name` in the run `raw` (its last
/// step breaks it) is about, in `scenario`; `target` is the workload the plan acts on.
pub fn about(
    scenario: &Scenario,
    target: Option<&str>,
    raw: Option<&RawPath>,
    name: &str,
) -> About {
    let changed = raw.map(changed).unwrap_or_default();
    let index = |n: &str| scenario.workloads.iter().position(|w| w.name() == n);
    let target = target.and_then(index);
    let mut workloads: Vec<usize> = Vec::new();
    for (w, _) in &changed {
        if !workloads.contains(&usize::from(*w)) {
            workloads.push(usize::from(*w));
        }
    }
    let w = match (workloads.as_slice(), target) {
        ([one], _) => Some(*one),
        (_, Some(t)) if workloads.is_empty() || workloads.contains(&t) => Some(t),
        ([], None) if scenario.workloads.len() == 1 => Some(0),
        ([], None) => None,
        (many, _) => many.iter().min().copied(),
    };
    let Some(w) = w.filter(|&w| w < scenario.workloads.len()) else {
        return About::default();
    };
    let workload = &scenario.workloads[w];
    let pod = workload.template();
    let container_named = |(init, i): (bool, usize)| {
        let list = if init {
            &pod.init_containers
        } else {
            &pod.containers
        };
        list.get(i).map(|c| c.name.clone())
    };
    let mut stepped: Vec<String> = Vec::new();
    for (cw, c) in &changed {
        if usize::from(*cw) == w {
            if let Some(name) = c.and_then(container_named) {
                if !stepped.contains(&name) {
                    stepped.push(name);
                }
            }
        }
    }
    let f = fix(name);
    let concerned = |c: &&Container| concerns(name, c);
    // A fix on the object (replicas, a budget) or none at all names no container; one whose
    // fields are the container's names the container the step changed, else the one the
    // fix concerns, else the only one.
    let container = if !f.names_container {
        None
    } else {
        match stepped.as_slice() {
            [one] => Some(one.clone()),
            many => many
                .iter()
                .find(|n| {
                    pod.containers
                        .iter()
                        .filter(concerned)
                        .any(|c| &c.name == *n)
                })
                .cloned()
                .or_else(|| {
                    let mut fitting = pod.containers.iter().filter(concerned);
                    let first = fitting.next();
                    let specific = !f.container.is_empty() || !f.pod.is_empty();
                    first
                        .filter(|_| specific || fitting.next().is_none())
                        .map(|c| c.name.clone())
                })
                .or_else(|| match pod.containers.as_slice() {
                    [only] => Some(only.name.clone()),
                    _ => None,
                }),
        }
    };
    About {
        workload: Some(workload.name().to_string()),
        container,
    }
}

/// Where the fix of property `name` about `workload` goes when it goes in a
/// PodDisruptionBudget ([`Fix::in_budget`]): the first budget that selects the workload's
/// pods, at its `minAvailable` or `maxUnavailable` (the field a drain's evictions are
/// judged by, `disruption.go` `updatePdbStatus`), else at the budget itself. None for other
/// properties, and for a workload that no budget selects.
pub fn budget_fix_location<'a>(
    budgets: &'a [PlacedBudget],
    workload: &str,
    name: &str,
) -> Option<(&'a Placed, Loc)> {
    if !fix(name).in_budget {
        return None;
    }
    let b = budgets
        .iter()
        .find(|b| b.selects.iter().any(|w| w == workload))?;
    let p = &b.placed;
    let loc = ["spec.minAvailable", "spec.maxUnavailable"]
        .iter()
        .find(|f| p.has(f))
        .map_or(p.tree.loc, |f| p.locate(f));
    Some((p, loc))
}

/// Where the fix of property `name` goes in a workload's manifest: the line and column of
/// the first field of [`fix`] the manifest has, else of the container (where the field is
/// to be added), else of the object.
pub fn fix_location(placed: &Placed, container: Option<&str>, name: &str) -> Loc {
    let f = fix(name);
    let pod = if placed.has("spec.template") {
        "spec.template.spec"
    } else {
        "spec"
    };
    let container_path = container.and_then(|c| {
        ["containers", "initContainers"].iter().find_map(|list| {
            let items = placed.tree.get("spec").and_then(|s| {
                if pod == "spec" {
                    s.get(list)
                } else {
                    s.get("template")?.get("spec")?.get(list)
                }
            })?;
            let podcheck_input::manifest::tree::Node::Seq(items) = &items.node else {
                return None;
            };
            let i = items
                .iter()
                .position(|t| t.get("name").and_then(|n| n.str()) == Some(c))?;
            Some(format!("{pod}.{list}[{i}]"))
        })
    });
    let mut tried: Vec<String> = Vec::new();
    if let Some(cp) = &container_path {
        tried.extend(f.container.iter().map(|p| format!("{cp}.{p}")));
    }
    tried.extend(f.pod.iter().map(|p| format!("{pod}.{p}")));
    tried.extend(f.object.iter().map(|p| p.to_string()));
    if let Some(p) = tried.iter().find(|p| placed.has(p)) {
        return placed.locate(p);
    }
    match &container_path {
        Some(cp) => placed.locate(cp),
        None => placed.tree.loc,
    }
}
