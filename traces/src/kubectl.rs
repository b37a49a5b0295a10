//! What `kubectl get pods` and `kubectl describe pod` print.

use crate::events::warning_table;
use podcheck_model::kubectl::print;
use podcheck_model::state::*;
use podcheck_model::Context;

/// `kubectl get pods -o wide`, trimmed to NAME READY STATUS RESTARTS NODE.
pub fn kubectl_get_pods(m: &Context, s: &State) -> String {
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

/// `kubectl describe pod`, trimmed to status and events, for the pods with warnings.
pub fn describe_warned(m: &Context, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for p in &s.api.pods {
        let table = warning_table(m, p);
        if table.is_empty() {
            continue;
        }
        let printed = print(m, p);
        out.push(format!(
            "kubectl describe pod {}  (Status: {}; kubectl get pods: {})",
            m.pod_name(p),
            p.status.phase.as_str(),
            printed.status
        ));
        out.extend(table);
    }
    out
}
