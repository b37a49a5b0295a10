//! The API server: the object store and its delete semantics.

use crate::cluster::Cluster;
use crate::k8s::Phase;
use crate::state::*;

/// Creates a pod object for a workload (the controllers' `Create`), named with the next
/// sequence number.
pub fn create_pod(s: &mut State, workload: u8) -> u16 {
    let w = &mut s.api.workloads[workload as usize];
    w.created += 1;
    let suffix = w.created;
    create_pod_named(s, workload, suffix)
}

/// Creates a pod object named `<workload>-<suffix>` (a StatefulSet ordinal).
pub fn create_pod_named(s: &mut State, workload: u8, suffix: u8) -> u16 {
    let uid = s.api.next_uid;
    s.api.next_uid += 1;
    s.api.pods.push(Pod {
        uid,
        workload,
        suffix,
        node: None,
        deletion: None,
        unschedulable: None,
        status: PodStatus {
            phase: Phase::Pending,
            ..PodStatus::default()
        },
        job_counted: false,
        disruption_target: false,
        ghost: PodGhost::default(),
    });
    uid
}

/// A delete request (`CheckGracefulDelete`, F 63): the grace period is the request's, else the
/// pod's `terminationGracePeriodSeconds`; 0 for an unscheduled or terminal pod, which is then
/// removed at once. Otherwise only `deletionTimestamp` is set, and the kubelet finishes the
/// delete (F 70). A second delete can only shorten the grace (F 64).
pub fn delete_pod(m: &Cluster, s: &mut State, uid: u16, grace: Option<Secs>) -> Option<()> {
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
