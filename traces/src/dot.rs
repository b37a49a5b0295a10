//! The state graph of a scenario in Graphviz DOT, with a trace highlighted.
//!
//! Each state is a box with a summary a person can read: each pod as `kubectl get pods` shows
//! it (name, READY, STATUS, node), each node that is not Ready, and each pod that still runs on
//! a node after its object is gone. Each edge is the action in Kubernetes words
//! ([`words::describe`]). The trace's states and steps are red, its initial state is bold and
//! its last state (the one that breaks the property, or the witness) is filled and doubled,
//! with the verdict in its label.
//!
//! A scenario of up to [`DOT_STATE_LIMIT`] states is drawn whole. A larger one is drawn as the
//! trace's states and their immediate successors: the neighbourhood of the trace. Which states
//! and steps are drawn is decided on the state graph the check explored
//! ([`podcheck_properties::drawing`]); this module only draws them.

use crate::{words, Kind, RawPath, Trace};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use podcheck_model::kubectl as render;
use podcheck_model::state::NodeId;
use podcheck_model::{Action, Cluster, State, Verdict};
pub use podcheck_properties::drawing::{Drawing, DOT_STATE_LIMIT};
use std::collections::HashMap;

/// A summary of a state, one fact a line.
fn label(m: &Cluster, s: &State) -> String {
    let mut lines: Vec<String> = s
        .api
        .pods
        .iter()
        .map(|p| {
            let pr = render::print(m, p);
            let node = p.node.map(|n| m.node_name(n).to_string());
            let deleting = if p.deletion.is_some() {
                " (deleted)"
            } else {
                ""
            };
            match node {
                Some(n) => format!(
                    "{} {} {} on {n}{deleting}",
                    m.pod_name(p),
                    pr.ready,
                    pr.status
                ),
                None => format!("{} {} {}{deleting}", m.pod_name(p), pr.ready, pr.status),
            }
        })
        .collect();
    if lines.is_empty() {
        lines.push("no pods".into());
    }
    for (n, obj) in s.api.nodes.iter().enumerate() {
        let name = m.node_name(NodeId::new(n));
        if obj.deleted {
            lines.push(format!("{name} deleted"));
        } else if obj.unknown {
            lines.push(format!("{name} Ready=Unknown"));
        } else if obj.not_ready {
            let c = podcheck_model::derived::node_ready_condition(obj);
            lines.push(format!("{name} Ready=False ({}: {})", c.reason, c.message));
        }
        if s.nodes[n].partitioned {
            lines.push(format!("{name} cut off from the API server"));
        }
        let keys: Vec<String> = podcheck_model::derived::taints(m, s, NodeId::new(n))
            .iter()
            .map(|t| format!("{}:{:?}", t.key, t.effect))
            .collect();
        if !keys.is_empty() {
            lines.push(format!("{name} taints: {}", keys.join(", ")));
        }
    }
    for (n, node) in s.nodes.iter().enumerate() {
        for rt in &node.pods {
            let gone = s.pod(rt.uid).is_none();
            let runs = rt
                .ctrs
                .iter()
                .chain(&rt.init)
                .any(|c| matches!(c.run, podcheck_model::state::Run::Running(_)));
            if gone && runs {
                lines.push(format!(
                    "{} still runs on {} (object gone)",
                    m.rt_name(rt),
                    m.node_name(NodeId::new(n))
                ));
            }
        }
    }
    lines.join("\n")
}

/// Text in a DOT double-quoted string.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What the last state stands for, in words.
fn verdict_words(t: &Trace) -> String {
    match (t.kind, t.verdict) {
        (Kind::Sometimes, Verdict::Holds) => format!("witness of {}", t.property),
        (Kind::LeadsTo, Verdict::Violated) => {
            format!("{} violated: the promised state never comes", t.property)
        }
        (_, Verdict::Violated) => format!("{} violated here", t.property),
        _ => format!("last state of the trace of {}", t.property),
    }
}

type Graph = DiGraph<String, (Action, String)>;

/// The drawing with the trace's states and steps in red (`t` is the trace built from `path`):
/// the whole state graph, or the trace's neighbourhood (with a note saying so). What is drawn
/// comes from the state graph the check explored ([`podcheck_properties::drawing::drawing`]);
/// this only draws it.
pub fn render_dot(m: &Cluster, d: &Drawing, path: &RawPath, t: &Trace) -> String {
    let mut g: Graph = DiGraph::new();
    let mut index: HashMap<State, NodeIndex> = HashMap::new();
    for s in &d.states {
        let i = g.add_node(label(m, s));
        index.insert(s.clone(), i);
    }
    for (u, a, v) in &d.edges {
        let words = (*a, words::describe(m, &d.states[*u], a, &d.states[*v]));
        g.add_edge(NodeIndex::new(*u), NodeIndex::new(*v), words);
    }
    let note = (!d.whole).then(|| {
        format!(
            "{} has more than {DOT_STATE_LIMIT} states: drawn are the trace's states and their immediate successors",
            m.scenario.name
        )
    });
    emit(m, &g, &index, path, t, note.as_deref())
}

/// Writes the graph: the trace's nodes and edges in red, its first state bold, its last
/// state filled and doubled with the verdict.
fn emit(
    m: &Cluster,
    g: &Graph,
    index: &HashMap<State, NodeIndex>,
    path: &RawPath,
    t: &Trace,
    note: Option<&str>,
) -> String {
    let path_nodes: Vec<NodeIndex> = path
        .states
        .iter()
        .filter_map(|s| index.get(s).copied())
        .collect();
    let on_path = |from: NodeIndex, to: NodeIndex, action: &Action| {
        path.states.windows(2).zip(&path.actions).any(|(w, a)| {
            a == action && index.get(&w[0]) == Some(&from) && index.get(&w[1]) == Some(&to)
        })
    };
    let first = path_nodes.first().copied();
    let last = path_nodes.last().copied();
    let title = format!(
        "{} / {} ({}, {}){}",
        t.scenario,
        t.property,
        t.kind.as_str(),
        t.verdict.as_str(),
        note.map(|n| format!("\n{n}")).unwrap_or_default()
    );
    let mut out = format!(
        "digraph {} {{\n    label={};\n    labelloc=t;\n    fontname=\"Helvetica\";\n    node [fontname=\"Helvetica\", fontsize=10, shape=box];\n    edge [fontname=\"Helvetica\", fontsize=9];\n",
        quote(&m.scenario.name),
        quote(&title)
    );
    for i in g.node_indices() {
        let mut text = g[i].clone();
        let attrs = if Some(i) == last && Some(i) != first {
            text = format!("{}\n{text}", verdict_words(t));
            "color=red, style=filled, fillcolor=mistyrose, peripheries=2"
        } else if Some(i) == first {
            "style=bold, color=red"
        } else if path_nodes.contains(&i) {
            "color=red"
        } else {
            "color=gray60"
        };
        out.push_str(&format!(
            "    {} [label={}, {attrs}];\n",
            i.index(),
            quote(&text)
        ));
    }
    for e in g.edge_references() {
        let (action, words) = e.weight();
        let attrs = if on_path(e.source(), e.target(), action) {
            "color=red, penwidth=2.5, fontcolor=red"
        } else {
            "color=gray60, fontcolor=gray40"
        };
        out.push_str(&format!(
            "    {} -> {} [label={}, {attrs}];\n",
            e.source().index(),
            e.target().index(),
            quote(words)
        ));
    }
    out.push_str("}\n");
    out
}
