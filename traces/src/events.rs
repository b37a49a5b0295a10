//! The events of one step, as `kubectl get events` would list them. Pod events come from the
//! model, where each component records them on the pod (`podcheck_model::events`); the
//! controllers' and the node lifecycle controller's events, which are about other objects,
//! are derived here from the action and the states around it.

use podcheck_model::events::text;
pub use podcheck_model::events::Event;
use podcheck_model::state::*;
use podcheck_model::{Action, Cluster};

fn ev(t: &str, reason: &str, object: String, message: String) -> Event {
    Event::new(t, reason, object, message)
}

/// The pod object `uid` as of `s`: the API object or a kubelet's static pod.
fn pod_in(s: &State, uid: u16) -> Option<&Pod> {
    s.pod(uid).or_else(|| {
        s.nodes
            .iter()
            .find_map(|n| n.static_pods.iter().find(|p| p.uid == uid))
    })
}

/// Events emitted by `action` taking `before` to `after`.
pub fn events(m: &Cluster, before: &State, action: &Action, after: &State) -> Vec<Event> {
    let mut out = Vec::new();
    for (uid, kind) in &after.journal.0 {
        if let Some(p) = pod_in(after, *uid).or_else(|| pod_in(before, *uid)) {
            out.push(text(m, p, *kind));
        }
    }
    match *action {
        Action::ReplicaSetSync { workload } | Action::JobSync { workload } => {
            let kind = if matches!(action, Action::JobSync { .. }) {
                "job"
            } else {
                "replicaset"
            };
            let owner = format!("{kind}/{}", m.workload(workload).name());
            for p in &after.api.pods {
                if before.pod(p.uid).is_none() {
                    out.push(ev(
                        "Normal",
                        "SuccessfulCreate",
                        owner.clone(),
                        format!("Created pod: {}", m.pod_name(p)),
                    ));
                }
            }
            for p in &before.api.pods {
                let deleted_now = after
                    .pod(p.uid)
                    .is_none_or(|q| q.deletion.is_some() && p.deletion.is_none());
                if p.workload == workload && deleted_now {
                    out.push(ev(
                        "Normal",
                        "SuccessfulDelete",
                        owner.clone(),
                        format!("Deleted pod: {}", m.pod_name(p)),
                    ));
                }
            }
            let cond = |s: &State| {
                s.api.workloads[workload as usize]
                    .job
                    .as_ref()
                    .and_then(|j| j.condition)
            };
            if cond(before) != cond(after) {
                match cond(after) {
                    Some(JobCondition::BackoffLimitExceeded) => out.push(ev(
                        "Warning",
                        "BackoffLimitExceeded",
                        owner,
                        "Job has reached the specified backoff limit".into(),
                    )),
                    Some(JobCondition::Complete) => {
                        out.push(ev("Normal", "Completed", owner, "Job completed".into()))
                    }
                    None => {}
                }
            }
        }
        Action::NodeLifecycle {
            node,
            step: podcheck_model::nodes::NlcStep::MarkUnknown,
        } => out.push(ev(
            "Normal",
            "NodeNotReady",
            format!("node/{}", m.node_name(node)),
            format!("Node {} status is now: NodeNotReady", m.node_name(node)),
        )),
        _ => {}
    }
    out
}
