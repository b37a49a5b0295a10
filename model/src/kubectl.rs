//! What `kubectl get pods` computes for a pod: its view for the upstream printPod port, and the
//! printed row (READY, STATUS, RESTARTS) the properties and renderings read. And what
//! `kubectl get nodes` (STATUS) and `kubectl describe node` (the Ready condition's reason and
//! message) show of a node.

use crate::context::Context;
use crate::k8s::{self, Condition, ConditionStatus, PodView, PrintedPod};
use crate::state::*;

/// What printPod reads of a pod object.
pub fn pod_view(m: &Context, pod: &Pod) -> PodView {
    let (init_views, views) = &m.views[pod.workload as usize];
    let cond = |t: &str, b: bool| Condition {
        type_: t.to_string(),
        status: if b {
            ConditionStatus::True
        } else {
            ConditionStatus::False
        },
        reason: String::new(),
    };
    let mut conditions = vec![
        cond("Initialized", pod.status.initialized),
        cond("Ready", pod.status.ready),
        cond("ContainersReady", pod.status.containers_ready),
    ];
    if let Some(_msg) = &pod.unschedulable {
        conditions.push(Condition {
            type_: "PodScheduled".into(),
            status: ConditionStatus::False,
            reason: "Unschedulable".into(),
        });
    }
    PodView {
        phase_str: pod.status.phase.as_str().to_string(),
        reason: pod.status.reason.clone(),
        deletion_timestamp: pod.deletion.is_some(),
        conditions,
        init_containers: init_views.clone(),
        containers: views.clone(),
        init_statuses: pod.status.init_statuses.clone(),
        statuses: pod.status.statuses.clone(),
    }
}

/// kubectl's READY, STATUS and RESTARTS for a pod.
pub fn print(m: &Context, pod: &Pod) -> PrintedPod {
    print_at(m, pod, &|_, _| None)
}

/// [`print`], where `finished_ago(init, i)` tells how many seconds ago the last terminated
/// instance of container `i` (an init container if `init`) finished, when that is known: the
/// state keeps no clock, a run does. RESTARTS then reads "N (X ago)".
pub fn print_at(
    m: &Context,
    pod: &Pod,
    finished_ago: &dyn Fn(bool, usize) -> Option<u64>,
) -> PrintedPod {
    let mut view = pod_view(m, pod);
    for (init, statuses) in [(true, &mut view.init_statuses), (false, &mut view.statuses)] {
        for (i, st) in statuses.iter_mut().enumerate() {
            if let Some(lt) = st.last_state.as_mut() {
                lt.finished_ago = finished_ago(init, i);
            }
        }
    }
    let mut p = k8s::print_pod(&view);
    let capped = pod
        .status
        .init_statuses
        .iter()
        .chain(&pod.status.statuses)
        .any(|c| c.restart_count >= RESTART_COUNT_CAP);
    if capped {
        p.restarts = format!("{}+", p.restarts);
    }
    p
}

/// What kubectl shows of a Node object: `kubectl get nodes` STATUS (`printNode`) and the Ready
/// row of `kubectl describe node`'s conditions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PrintedNode {
    /// `Ready`, `NotReady` (False or Unknown), with `,SchedulingDisabled` when cordoned.
    pub status: String,
    pub ready: k8s::NodeReadyCondition,
}

/// kubectl's view of node `n`'s Node object.
pub fn print_node(s: &State, n: NodeId) -> PrintedNode {
    let obj = &s.api.nodes[n.index()];
    let ready = k8s::node_ready_condition(obj.unknown, obj.not_ready);
    PrintedNode {
        status: k8s::print_node_status(&ready, obj.unschedulable),
        ready,
    }
}
