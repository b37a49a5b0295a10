//! The part of a scenario's state graph that a picture of a trace draws (DOT,
//! `podcheck_traces::dot`), as data: the renderer only draws it.
//!
//! A graph of up to [`DOT_STATE_LIMIT`] states is drawn whole; a larger one (or one cut short
//! by a bound) as the trace's states and their immediate successors, its neighbourhood. The
//! graph is the one the check built where it kept it ([`crate::CheckOptions::keep_graph`]),
//! else the scenario explored up to the limit ([`graph_to_draw`]).

use crate::check::{fair_actor, ClusterGraph};
use crate::explore::{explore, ExploreOptions, StateId};
use podcheck_model::{Action, Cluster, State};
use stateright::Model;
use std::collections::HashMap;

/// The largest state graph drawn whole (above it, DOT is unreadable and large): a larger one
/// is drawn as the trace and its immediate successors.
pub const DOT_STATE_LIMIT: usize = 2_000;

/// What a picture draws: states, and the steps between them, each in the order drawn.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// The states. The whole graph's are in its numbering; a neighbourhood's start with the
    /// trace's distinct states in trace order, then their successors as they are met.
    pub states: Vec<State>,
    /// The steps: (from, action, to), indices into `states`; per state in the model's action
    /// order.
    pub edges: Vec<(usize, Action, usize)>,
    /// Whether this is the whole graph (else the trace's neighbourhood).
    pub whole: bool,
}

/// The graph to draw where the check did not keep its own (it keeps it only with
/// [`crate::CheckOptions::keep_graph`], which also turns off the symmetry reduction: a reduced
/// graph is not drawn state by state): the scenario explored up to [`DOT_STATE_LIMIT`] states.
pub fn graph_to_draw(m: &Cluster) -> ClusterGraph {
    let opts = ExploreOptions {
        max_states: Some(DOT_STATE_LIMIT),
        ..ExploreOptions::default()
    };
    explore(m, fair_actor, &[], &opts).0
}

/// What to draw of `graph` around the trace whose states are `path` (from the initial state):
/// the whole graph where it is complete and within [`DOT_STATE_LIMIT`] states, else the
/// trace's neighbourhood. `graph` is unreduced: the check's, kept with
/// [`crate::CheckOptions::keep_graph`], or [`graph_to_draw`]'s.
pub fn drawing(m: &Cluster, graph: &ClusterGraph, path: &[State]) -> Result<Drawing, String> {
    if !graph.is_complete() || graph.state_count() > DOT_STATE_LIMIT {
        return Ok(neighbourhood(m, graph, path));
    }
    let states = graph.rebuild_states(m)?;
    let mut edges = Vec::with_capacity(graph.edge_count());
    for u in 0..graph.state_count() as StateId {
        for (_, v, aid) in graph.out_edges(u) {
            edges.push((u as usize, *graph.action(aid), v as usize));
        }
    }
    Ok(Drawing {
        states,
        edges,
        whole: true,
    })
}

/// The trace's states and their immediate successors: the actions out of a state the graph
/// has expanded are its out-edges there; out of another (beyond a bound), the model's enabled
/// actions. Each successor is made from its state.
fn neighbourhood(m: &Cluster, graph: &ClusterGraph, path: &[State]) -> Drawing {
    let mut states: Vec<State> = Vec::new();
    let mut index: HashMap<State, usize> = HashMap::new();
    let mut add = |s: State, states: &mut Vec<State>| -> usize {
        *index.entry(s.clone()).or_insert_with(|| {
            states.push(s);
            states.len() - 1
        })
    };
    for s in path {
        add(s.clone(), &mut states);
    }
    let mut edges = Vec::new();
    let mut done: Vec<&State> = Vec::new();
    let mut actions = Vec::new();
    for s in path {
        if done.contains(&s) {
            continue;
        }
        done.push(s);
        let from = add(s.clone(), &mut states);
        match graph.node(s).filter(|&u| graph.is_expanded(u)) {
            Some(u) => actions.extend(graph.out_edges(u).map(|(_, _, a)| *graph.action(a))),
            None => m.actions(s, &mut actions),
        }
        for a in actions.drain(..) {
            if let Some(n) = m.next_state(s, a) {
                let to = add(n, &mut states);
                edges.push((from, a, to));
            }
        }
    }
    Drawing {
        states,
        edges,
        whole: false,
    }
}
