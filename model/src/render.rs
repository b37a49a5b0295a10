//! Readable views of a state: the `kubectl get pods` table, computed with printPod.

use crate::cluster::Cluster;
use crate::k8s::{self, Condition, ConditionStatus, PodView, PrintedPod};
use crate::state::*;

/// What printPod reads of a pod object.
pub fn pod_view(m: &Cluster, pod: &Pod) -> PodView {
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
pub fn print(m: &Cluster, pod: &Pod) -> PrintedPod {
    let mut p = k8s::print_pod(&pod_view(m, pod));
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

/// `kubectl get pods -o wide`, trimmed to NAME READY STATUS RESTARTS NODE.
pub fn kubectl_get_pods(m: &Cluster, s: &State) -> String {
    let mut rows = vec![[
        "NAME".to_string(),
        "READY".into(),
        "STATUS".into(),
        "RESTARTS".into(),
        "NODE".into(),
    ]];
    for pod in &s.api.pods {
        let p = print(m, pod);
        rows.push([
            m.pod_name(pod),
            p.ready,
            p.status,
            p.restarts,
            pod.node
                .map(|n| m.node_name(n).to_string())
                .unwrap_or_else(|| "<none>".into()),
        ]);
    }
    if rows.len() == 1 {
        return "No resources found.".into();
    }
    let widths: Vec<usize> = (0..5)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .map(|(i, c)| format!("{:w$}", c, w = widths[i] + 3))
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
