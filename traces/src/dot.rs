//! The explored state graph of a small scenario in Graphviz DOT, with a trace highlighted.

use crate::RawPath;
use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};
use podcheck_model::kubectl as render;
use podcheck_model::{Cluster, State};
use stateright::Model;
use std::collections::{HashMap, VecDeque};

/// The largest state graph rendered (above it, DOT is unreadable and large).
pub const DOT_STATE_LIMIT: usize = 2_000;

fn label(m: &Cluster, s: &State) -> String {
    let pods: Vec<String> = s
        .api
        .pods
        .iter()
        .map(|p| {
            let pr = render::print(m, p);
            format!("{} {} {}", m.pod_name(p), pr.ready, pr.status)
        })
        .collect();
    if pods.is_empty() {
        "no pods".into()
    } else {
        pods.join("\n")
    }
}

/// The state graph with the path's states and edges in red. Refuses graphs over
/// [`DOT_STATE_LIMIT`] states.
pub fn render_dot(m: &Cluster, path: &RawPath) -> Result<String, String> {
    let init = m.initial_state();
    let mut g: DiGraph<String, String> = DiGraph::new();
    let mut index: HashMap<State, NodeIndex> = HashMap::new();
    let mut queue = VecDeque::new();
    let i0 = g.add_node(label(m, &init));
    index.insert(init.clone(), i0);
    queue.push_back(init);
    let mut actions = Vec::new();
    let mut on_path = Vec::new();
    while let Some(s) = queue.pop_front() {
        let from = index[&s];
        m.actions(&s, &mut actions);
        for a in actions.drain(..) {
            let Some(n) = m.next_state(&s, a) else {
                continue;
            };
            let to = match index.get(&n) {
                Some(&i) => i,
                None => {
                    if index.len() >= DOT_STATE_LIMIT {
                        return Err(format!(
                            "scenario `{}` has more than {DOT_STATE_LIMIT} states: its state graph is too large for DOT; use --format text, json or itf",
                            m.scenario.name
                        ));
                    }
                    let i = g.add_node(label(m, &n));
                    index.insert(n.clone(), i);
                    queue.push_back(n);
                    i
                }
            };
            let e = g.add_edge(from, to, crate::words::short(m, &a));
            let hit = path
                .states
                .windows(2)
                .zip(&path.actions)
                .any(|(w, pa)| w[0] == s && *pa == a && index.get(&w[1]) == Some(&to));
            if hit {
                on_path.push(e);
            }
        }
    }
    let path_nodes: Vec<NodeIndex> = path
        .states
        .iter()
        .filter_map(|s| index.get(s).copied())
        .collect();
    let edge_attr = |_: &DiGraph<String, String>, e: petgraph::graph::EdgeReference<'_, String>| {
        use petgraph::visit::EdgeRef;
        if on_path.contains(&e.id()) {
            "color=red, penwidth=2.5, fontcolor=red".to_string()
        } else {
            "color=gray60, fontcolor=gray40".to_string()
        }
    };
    let node_attr = |_: &DiGraph<String, String>, (i, _): (NodeIndex, &String)| {
        if path_nodes.first() == Some(&i) {
            "shape=box, style=bold, color=red".to_string()
        } else if path_nodes.contains(&i) {
            "shape=box, color=red".to_string()
        } else {
            "shape=box, color=gray60".to_string()
        }
    };
    let dot = Dot::with_attr_getters(&g, &[Config::GraphContentOnly], &edge_attr, &node_attr);
    Ok(format!(
        "digraph \"{}\" {{\n    fontname=\"Helvetica\";\n    node [fontname=\"Helvetica\", fontsize=10];\n    edge [fontname=\"Helvetica\", fontsize=9];\n{dot}}}\n",
        m.scenario.name
    ))
}
