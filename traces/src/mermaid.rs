//! A Mermaid `sequenceDiagram` of a trace: participants kubectl, the API server, the
//! scheduler, the controllers, each kubelet, each kube-proxy, the client and the environment.

use crate::Trace;

/// A participant: (id, label).
fn participants(nodes: &[String]) -> Vec<(String, String)> {
    let mut p = vec![
        ("kubectl".to_string(), "kubectl".to_string()),
        ("api".into(), "API server".into()),
        ("scheduler".into(), "scheduler".into()),
        ("rs".into(), "replicaset-controller".into()),
        ("job".into(), "job-controller".into()),
        ("eps".into(), "endpointslice-controller".into()),
    ];
    for (i, n) in nodes.iter().enumerate() {
        p.push((format!("kubelet{i}"), format!("kubelet@{n}")));
    }
    for (i, n) in nodes.iter().enumerate() {
        p.push((format!("proxy{i}"), format!("kube-proxy@{n}")));
    }
    p.push(("client".into(), "client".into()));
    p.push(("env".into(), "environment".into()));
    p
}

/// Text Mermaid accepts in a message: no `;` (a statement separator), no `#` (entity codes),
/// no line breaks.
fn clean(s: &str) -> String {
    s.replace(';', ",")
        .replace('#', "no. ")
        .replace(['\n', '\r'], " ")
}

/// Renders a trace; `nodes` are the node names of the scenario, in order.
pub fn render_mermaid(t: &Trace, nodes: &[String]) -> String {
    let ps = participants(nodes);
    let id_of = |label: &str| -> Option<String> {
        ps.iter()
            .find(|(_, l)| l == label)
            .map(|(id, _)| id.clone())
    };
    let mut out = String::from("sequenceDiagram\n");
    for (id, label) in &ps {
        if id == label {
            out.push_str(&format!("    participant {id}\n"));
        } else {
            out.push_str(&format!("    participant {id} as {label}\n"));
        }
    }
    let first = &ps[0].0;
    let last = &ps[ps.len() - 1].0;
    for s in &t.steps {
        if t.loop_start == Some(s.index) {
            out.push_str(&format!(
                "    Note over {first},{last}: the cycle starts here and repeats forever\n"
            ));
        }
        let text = clean(&format!("[{}] {}", s.index, s.action));
        if s.actor == "clock" {
            out.push_str(&format!(
                "    Note over {first},{last}: {} (t={}s)\n",
                clean(&s.action),
                s.time
            ));
            continue;
        }
        let from = id_of(&s.actor).unwrap_or_else(|| "env".into());
        let line = if from == "kubectl"
            || from == "scheduler"
            || ["rs", "job", "eps"].contains(&from.as_str())
        {
            format!("    {from}->>api: {text}\n")
        } else if from.starts_with("proxy") {
            format!("    api-->>{from}: {text}\n")
        } else if s.actor == "client" {
            let via = s
                .action
                .split("kube-proxy@")
                .nth(1)
                .and_then(|rest| rest.split(' ').next())
                .and_then(|node| id_of(&format!("kube-proxy@{node}")))
                .unwrap_or_else(|| "env".into());
            let mut l = format!("    client->>{via}: {text}\n");
            if s.data_plane.iter().any(|d| d.contains("refused")) {
                l.push_str(&format!("    {via}-->>client: connection refused\n"));
            }
            l
        } else if from.starts_with("kubelet") {
            let writes_api = s.action.starts_with("status update")
                || s.action.starts_with("delete finished pod object")
                || s.action.starts_with("reject");
            if writes_api {
                format!("    {from}->>api: {text}\n")
            } else {
                format!("    {from}->>{from}: {text}\n")
            }
        } else {
            format!("    Note over env: {text}\n")
        };
        out.push_str(&line);
    }
    out
}
