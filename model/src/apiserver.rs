//! The API server: the object store, its create and delete semantics, and the events the
//! components record through it. It sits below the components: each of them writes through
//! it as a client of the real one does.
//!
//! Sources: `docs/sources.md#api-server-graceful-delete`,
//! `docs/sources.md#api-server-force-delete`.

use crate::context::Context;
use crate::events::EventKind;
use crate::k8s::Phase;
use crate::state::*;

/// Creates a pod object for a workload (the controllers' `Create`). Real ReplicaSets and
/// Jobs name pods with a random suffix and the API server gives each a random UID; the model
/// takes the smallest suffix and uid that nothing alive uses, so that a cluster which keeps
/// creating and removing pods (a rejected pod's replacement, a crash-looping Job) comes back
/// to the same states instead of counting forever.
pub fn create_pod(m: &Context, s: &mut State, workload: u8) -> u16 {
    create_pod_of_revision(m, s, workload, 0)
}

/// [`create_pod`] for the ReplicaSet of template revision `revision` of a Deployment.
pub fn create_pod_of_revision(m: &Context, s: &mut State, workload: u8, revision: u8) -> u16 {
    let used = |n: u8| {
        s.api
            .pods
            .iter()
            .any(|p| p.workload == workload && p.suffix == n)
            || s.nodes
                .iter()
                .flat_map(|node| &node.pods)
                .any(|r| r.workload == workload && r.suffix == n)
    };
    let suffix = (1..=u8::MAX).find(|&n| !used(n)).unwrap_or(u8::MAX);
    let uid = create_pod_named(m, s, workload, suffix);
    if revision != 0 {
        if let Some(p) = s.pod_mut(uid) {
            p.revision = revision;
        }
    }
    uid
}

/// Whether any object, runtime record, route or observer still refers to `uid`.
fn uid_in_use(s: &State, uid: u16) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.uid == uid || p.mirror_of == Some(uid))
        || s.api.endpoints.iter().any(|e| e.uid == uid)
        || s.nodes.iter().any(|n| {
            n.pods.iter().any(|r| r.uid == uid) || n.static_pods.iter().any(|p| p.uid == uid)
        })
        || s.proxies
            .iter()
            .any(|p| p.routes.iter().any(|r| r.0 == uid))
        // A budget's `disruptedPods` names it. Upstream keys the map by pod name, and a
        // ReplicaSet's pods have random names, so a new pod never inherits an entry.
        || s.api.pdbs.iter().any(|b| b.disrupted_pods.contains(&uid))
        // A drain run waits for this uid to be gone (`waitForDelete` compares UIDs).
        || s.env
            .drains
            .iter()
            .any(|d| d.pods.iter().any(|p| p.uid == uid))
}

/// Creates a pod object named `<workload>-<suffix>` (a StatefulSet ordinal).
pub fn create_pod_named(m: &Context, s: &mut State, workload: u8, suffix: u8) -> u16 {
    // `nodeName` in the template: bound at creation, never seen by the scheduler.
    let node = m
        .workload(workload)
        .template()
        .node_name
        .as_ref()
        .and_then(|n| m.scenario.cluster.nodes.iter().position(|x| &x.name == n))
        .map(NodeId::new);
    let uid = (1..=u16::MAX)
        .find(|&u| !uid_in_use(s, u))
        .unwrap_or(u16::MAX);
    s.api.pods.push(
        Pod {
            uid,
            workload,
            suffix,
            revision: 0,
            available_in: None,
            node,
            deletion: None,
            unschedulable: None,
            status: PodStatus {
                phase: Phase::Pending,
                ..PodStatus::default()
            }
            .into(),
            job_counted: false,
            job_index: None,
            index_failures: 0,
            disruption_target: false,
            mirror_of: None,
            image_set: None,
            events: crate::events::Events::new(!m.events_as_read).into(),
            ghost: PodGhost::default(),
        }
        .into(),
    );
    uid
}

/// A delete request (`CheckGracefulDelete`): the grace period is the request's, else the
/// pod's `terminationGracePeriodSeconds`; 0 for an unscheduled or terminal pod, which is then
/// removed at once. Otherwise only `deletionTimestamp` is set, and the kubelet finishes the
/// delete. A second delete can only shorten the grace.
pub fn delete_pod(m: &Context, s: &mut State, uid: u16, grace: Option<Secs>) -> Option<()> {
    let pod = s.pod(uid)?;
    let spec = m.workload(pod.workload).template();
    let mut period = grace.unwrap_or(spec.termination_grace_period_seconds);
    if pod.node.is_none() || pod.status.phase.is_terminal() {
        period = 0;
    }
    if period == 0 {
        s.api.pods.retain(|p| p.uid != uid);
        return Some(());
    }
    let pod = s.pod_mut(uid)?;
    pod.deletion = Some(match pod.deletion {
        Some(g) => g.min(period),
        None => period,
    });
    Some(())
}

/// Records `kind` on the pod `uid` (the API object, or the kubelet's static pod on `node`).
/// `reachable`: the recorder can reach the API server.
pub fn record_event(
    s: &mut State,
    node: Option<NodeId>,
    uid: u16,
    kind: EventKind,
    reachable: bool,
) {
    if !reachable {
        return;
    }
    let pod = match node {
        Some(n) => s.kpod_mut(n, uid),
        None => s.pod_mut(uid),
    };
    let Some(pod) = pod else { return };
    pod.events.record(kind);
    s.journal.0.push((uid, kind));
}

/// The kubelet of `node` records (it reaches the API server unless partitioned).
pub fn kubelet_event(s: &mut State, node: NodeId, uid: u16, kind: EventKind) {
    let reachable = !s.nodes[node.index()].partitioned;
    record_event(s, Some(node), uid, kind, reachable);
}

/// What the Eviction API (`POST pods/<name>/eviction`) answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvictionResult {
    /// Success: the pod was deleted (gracefully, with its own grace period).
    Evicted,
    /// 429 TooManyRequests, "Cannot evict pod as it would violate the pod's disruption
    /// budget.", about budget `budget`: its status allows no disruption, or
    /// (`processing`) the controller has not yet observed it.
    TooManyRequests { budget: u8, processing: bool },
    /// 404 NotFound: no such pod.
    NotFound,
    /// 500: "This pod has more than one PodDisruptionBudget, which the eviction subresource
    /// does not support."
    MultipleBudgets,
}

/// The Eviction API (`pkg/registry/core/pod/storage/eviction.go` `Create`;
/// docs/sources.md#eviction-api), judged on the budget's *stored* status, which the
/// disruption controller may not have brought up to date:
///
/// 1. A pod that is Succeeded, Failed or Pending, or already has a deletionTimestamp, is
///    deleted without looking at any budget (`canIgnorePDB`): an already terminating pod
///    costs no budget again.
/// 2. More than one budget matches: 500. None: the pod is deleted.
/// 3. A pod that is not Ready is deleted without decrementing when the budget's policy is
///    `AlwaysAllow` (honoured from 1.27), or when status currentHealthy ≥ desiredHealthy and
///    desiredHealthy > 0 (`IfHealthyBudget`, the default); otherwise it goes on as a
///    healthy pod.
/// 4. `checkAndDecrement`: 429 while observedGeneration < generation; 429 when
///    disruptionsAllowed is 0; else disruptionsAllowed − 1, the pod into `disruptedPods`,
///    and the status written before the pod is deleted.
///
/// Every delete adds `DisruptionTarget=True` (reason `EvictionByEvictionAPI`, from 1.26) and
/// is graceful (`addConditionAndDeletePod`). The handler's writes are one step here; the
/// resourceVersion preconditions that turn a concurrent change into 429 have nothing to
/// catch in a step that no other write interleaves with.
pub fn evict_pod(m: &Context, s: &mut State, uid: u16) -> EvictionResult {
    let Some(pod) = s.pod(uid) else {
        return EvictionResult::NotFound;
    };
    let phase = pod.status.phase;
    let ignore_pdb = matches!(phase, Phase::Succeeded | Phase::Failed | Phase::Pending)
        || pod.deletion.is_some();
    let ready = pod.status.ready;
    let budgets = &m.budgets[pod.workload as usize];
    if !ignore_pdb {
        if budgets.len() > 1 {
            return EvictionResult::MultipleBudgets;
        }
        if let Some(&b) = budgets.first() {
            let spec = &m.scenario.pod_disruption_budgets[b as usize].spec;
            let status = &s.api.pdbs[b as usize];
            let always_allow = m.by_release.pdb_unhealthy_pod_eviction_policy
                && spec.unhealthy_pod_eviction_policy
                    == Some(podcheck_input::spec::UnhealthyPodEvictionPolicy::AlwaysAllow);
            let unhealthy_free = !ready
                && (always_allow
                    || (status.current_healthy >= status.desired_healthy
                        && status.desired_healthy > 0));
            if !unhealthy_free {
                if !status.observed {
                    return EvictionResult::TooManyRequests {
                        budget: b,
                        processing: true,
                    };
                }
                if status.disruptions_allowed == 0 {
                    return EvictionResult::TooManyRequests {
                        budget: b,
                        processing: false,
                    };
                }
                let status = &mut s.api.pdbs[b as usize];
                status.disruptions_allowed -= 1;
                if !status.disrupted_pods.contains(&uid) {
                    status.disrupted_pods.push(uid);
                }
            }
        }
    }
    if m.by_release.pod_disruption_conditions {
        if let Some(p) = s.pod_mut(uid) {
            p.disruption_target = true;
        }
    }
    match delete_pod(m, s, uid, None) {
        Some(()) => EvictionResult::Evicted,
        None => EvictionResult::NotFound,
    }
}
