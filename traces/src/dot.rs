//! The explored state graph of a small scenario in Graphviz DOT, with a trace highlighted.

use crate::RawPath;
use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};
use podcheck_model::kubectl as render;
use podcheck_model::{Cluster, State};
use podcheck_properties::check::{fair_actor, ClusterGraph};
use podcheck_properties::explore::{explore, EdgeId, ExploreOptions, StateId};
use std::collections::HashSet;

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

/// The state graph with the path's states and edges in red. Explores the scenario (at most
/// [`DOT_STATE_LIMIT`] states) and refuses a larger graph; with a graph at hand, use
/// [`render_dot_graph`].
pub fn render_dot(m: &Cluster, path: &RawPath) -> Result<String, String> {
    let opts = ExploreOptions {
        max_states: Some(DOT_STATE_LIMIT),
        progress: None,
    };
    let (graph, _) = explore(m, fair_actor, &[], &opts);
    render_dot_graph(m, &graph, path)
}

/// The explored state graph with the path's states and edges in red. Refuses graphs over
/// [`DOT_STATE_LIMIT`] states (and incomplete ones).
pub fn render_dot_graph(
    m: &Cluster,
    graph: &ClusterGraph,
    path: &RawPath,
) -> Result<String, String> {
    if !graph.is_complete() || graph.state_count() > DOT_STATE_LIMIT {
        return Err(format!(
            "scenario `{}` has more than {DOT_STATE_LIMIT} states: its state graph is too large for DOT; use --format text, json or itf",
            m.scenario.name
        ));
    }
    let states = graph.rebuild_states(m)?;
    let mut g: DiGraph<String, String> = DiGraph::new();
    for s in &states {
        g.add_node(label(m, s));
    }
    let ids: Vec<Option<StateId>> = path.states.iter().map(|s| graph.node(s)).collect();
    let mut on_path_edges: HashSet<EdgeId> = HashSet::new();
    for (i, a) in path.actions.iter().enumerate() {
        if let (Some(u), Some(v), Some(aid)) = (ids[i], ids[i + 1], graph.action_id(a)) {
            if let Some(e) = graph.find_edge(u, v, aid) {
                on_path_edges.insert(e);
            }
        }
    }
    let mut on_path = Vec::new();
    for u in 0..graph.state_count() as StateId {
        for (e, v, aid) in graph.out_edges(u) {
            let pe = g.add_edge(
                NodeIndex::new(u as usize),
                NodeIndex::new(v as usize),
                crate::words::short(m, graph.action(aid)),
            );
            if on_path_edges.contains(&e) {
                on_path.push(pe);
            }
        }
    }
    let path_nodes: Vec<NodeIndex> = ids
        .iter()
        .flatten()
        .map(|v| NodeIndex::new(*v as usize))
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
