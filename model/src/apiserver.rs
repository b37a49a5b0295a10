//! The API server: the object store, its create and delete semantics, and the events the
//! components record through it. It sits below the components: each of them writes through
//! it as a client of the real one does.
//!
//! Sources: `docs/sources.md#api-server-graceful-delete`,
//! `docs/sources.md#api-server-force-delete`.

use crate::context::Context;
use crate::events::{EventKind, PodEvent, EVENT_COUNT_CAP};
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
        .map(|i| i as u8);
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
            disruption_target: false,
            mirror_of: None,
            events: Vec::new().into(),
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
pub fn record_event(s: &mut State, node: Option<u8>, uid: u16, kind: EventKind, reachable: bool) {
    if !reachable {
        return;
    }
    let pod = match node {
        Some(n) => s.kpod_mut(n, uid),
        None => s.pod_mut(uid),
    };
    let Some(pod) = pod else { return };
    match pod.events.binary_search_by(|e| e.kind.cmp(&kind)) {
        Ok(i) => {
            let e = &mut pod.events[i];
            e.count = (e.count + 1).min(EVENT_COUNT_CAP);
        }
        Err(i) => pod.events.insert(i, PodEvent { kind, count: 1 }),
    }
    s.journal.0.push((uid, kind));
}

/// The kubelet of `node` records (it reaches the API server unless partitioned).
pub fn kubelet_event(s: &mut State, node: u8, uid: u16, kind: EventKind) {
    let reachable = !s.nodes[node as usize].partitioned;
    record_event(s, Some(node), uid, kind, reachable);
}
