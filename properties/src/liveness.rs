//! Liveness under weak fairness: `P ~> Q` ("P leads to Q") checked on an explicit state graph,
//! with lasso counterexamples.
//!
//! Stateright's `eventually` looks only at terminal states, misses every violation that lies on
//! a cycle (and some at DAG joins), and knows no fairness (docs/sources.md#stateright-031). This module
//! does what TLC and SPIN do instead:
//!
//! 1. [`StateGraph::explore`] explores any Stateright [`Model`] breadth-first into a petgraph
//!    [`DiGraph`]: each state interned once, each edge labelled with its action and the actor
//!    that takes it (a caller-supplied function; `None` is the unfair environment).
//! 2. [`leads_to`] looks for a reachable state where `P` holds and `Q` does not, from which a
//!    *weakly fair* run can avoid `Q` for ever, and reports it as a [`Lasso`]: the shortest
//!    stem from an initial state through the `P` state to the cycle, then a fair cycle (or a
//!    final state where the run ends).
//!
//! # Runs and fairness
//!
//! A run is a maximal path of the graph: it is infinite, or it ends in a state with no
//! successor at all (a deadlock; with [`Ends::Quiescence`] also in a state where no fair actor
//! is enabled, see [`Ends`]). An actor is *enabled* in a state when the state has an outgoing
//! edge labelled with it. A run is *weakly fair* when every fair actor that is enabled from some
//! point on, in every state, also acts infinitely often. The environment (`None`) is never
//! owed anything: it may act for ever or never.
//!
//! # Why the check on whole strongly connected components is exact
//!
//! Let `G¬Q` be the subgraph of the (expanded) states where `Q` is false. Call a strongly
//! connected component `S` of `G¬Q` *fair* when it has at least one edge inside it (more than
//! one state, or a self-loop) and every fair actor enabled in **every** state of `S` labels at
//! least one edge inside `S`. Then, for a state `s` of `G¬Q`:
//!
//! *There is a weakly fair infinite run from `s` that never meets `Q` if and only if `s` reaches,
//! inside `G¬Q`, a fair component.*
//!
//! - (if) From the component `S` build a closed walk that visits every state of `S` and takes
//!   one inside edge of each fair actor enabled throughout `S` (strong connectivity makes this
//!   possible), and repeat it for ever after the path from `s`. An actor enabled continuously
//!   from some point on is enabled in every state the walk visits infinitely often, that is, in
//!   every state of `S`; so it is one of those actors, and it acts once per round.
//! - (only if) Take a fair run that avoids `Q`, and let `Inf` be the states it visits infinitely
//!   often. The edges it takes infinitely often connect `Inf` strongly, so `Inf` lies inside a
//!   single component `S` of `G¬Q`, and `S` has an inside edge. If an actor is enabled in every
//!   state of `S`, it is enabled in every state of `Inf`, hence continuously from the point
//!   where the run stays in `Inf`; weak fairness makes it act infinitely often, along an edge
//!   between two states of `Inf` ⊆ `S`. So `S` is fair.
//!
//! The argument needs only the maximal components and no recursive decomposition, because
//! weak fairness asks something of an actor only where it is enabled in *all* the states
//! visited infinitely often: a larger set of states can only drop demands, and the demands
//! it keeps are met by edges that are still inside it. (Strong fairness, "enabled infinitely
//! often", lacks this monotonicity and would need the Emerson–Lei refinement.)
//!
//! The lasso reported is itself fair: its cycle is built inside the component, takes an inside
//! edge of every fair actor enabled throughout the component, and is then extended until every
//! fair actor enabled in all of *its own* states acts on it ([`StateGraph::is_fair_lasso`]).
//!
//! # Bounds
//!
//! [`StateGraph::explore`] honours [`Model::within_boundary`] like Stateright's BFS: a
//! successor outside the boundary is dropped, so its action counts as not enabled (a state
//! whose every successor lies outside is then a deadlock, as it is for Stateright's
//! `eventually`). `next_state` returning `None` also means "not enabled", as in Stateright's
//! checkers. With `max_states` the exploration may stop early; a state whose successors were
//! not all added is *unexpanded*. Unexpanded states are never part of a fair component nor a
//! final state, so a violation found in a partial graph is a real one (every edge of its lasso
//! is a model edge, and the enabled actors of its cycle's states are known exactly); when none
//! is found, the verdict is [`LeadsTo::Incomplete`].

use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::{EdgeRef, NodeFiltered};
use petgraph::Direction;
use stateright::Model;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::hash::{BuildHasher, Hash, RandomState};

/// The label of an edge: the action, and the fair actor that takes it (`None`: the unfair
/// environment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge<A, K> {
    pub action: A,
    pub actor: Option<K>,
}

/// What the exploration knows about one state.
#[derive(Clone, Debug)]
struct NodeInfo<K> {
    /// The edge by which breadth-first search first reached the state (None: an initial state).
    parent: Option<EdgeIndex>,
    /// Steps from the nearest initial state.
    depth: usize,
    /// Its outgoing edges are the edge indices `edges.0 .. edges.1`, in the model's action order.
    edges: (usize, usize),
    /// All its successors are in the graph.
    expanded: bool,
    /// The actors of its outgoing edges, sorted, without repeats (`None` first).
    enabled: Vec<Option<K>>,
}

/// Interning index: state hash → node(s).
#[derive(Clone, Debug)]
enum Bucket {
    One(NodeIndex),
    Many(Vec<NodeIndex>),
}

/// A model's reachable states as an explicit graph. `S` is the state type, `A` the action type,
/// `K` the fair-actor key.
///
/// Nodes are numbered in breadth-first order from the initial states, following the model's
/// order of initial states and actions, so the graph and its numbering are the same on every
/// run. The out-edges of each node are in the model's action order.
#[derive(Clone, Debug)]
pub struct StateGraph<S, A, K> {
    graph: DiGraph<S, Edge<A, K>>,
    info: Vec<NodeInfo<K>>,
    inits: Vec<NodeIndex>,
    complete: bool,
    index: HashMap<u64, Bucket>,
    hasher: RandomState,
}

impl<S, A, K> StateGraph<S, A, K>
where
    S: Hash + Eq + Clone,
    A: Clone,
    K: Ord + Copy,
{
    /// Explores `model` breadth-first from its initial states.
    ///
    /// `actor` names the fair actor taking an action, or `None` for the unfair environment.
    /// `max_states` bounds the number of distinct states (nodes) — unlike Stateright's
    /// `target_state_count`, which counts generated states, duplicates included. Without a bound
    /// the exploration is complete, and [`StateGraph::state_count`] equals Stateright's
    /// `unique_state_count` for the same model (barring a collision of Stateright's 64-bit
    /// fingerprints).
    pub fn explore<M, F>(model: &M, actor: F, max_states: Option<usize>) -> Self
    where
        M: Model<State = S, Action = A>,
        F: Fn(&A) -> Option<K>,
    {
        let limit = max_states.unwrap_or(usize::MAX);
        let mut g = StateGraph {
            graph: DiGraph::new(),
            info: Vec::new(),
            inits: Vec::new(),
            complete: true,
            index: HashMap::new(),
            hasher: RandomState::new(),
        };
        let mut queue = VecDeque::new();
        for s in model.init_states() {
            if !model.within_boundary(&s) {
                continue;
            }
            let hash = g.hasher.hash_one(&s);
            if g.lookup(hash, &s).is_some() {
                continue;
            }
            if g.graph.node_count() >= limit {
                g.complete = false;
                return g;
            }
            let n = g.add_node(hash, s, 0);
            g.inits.push(n);
            queue.push_back(n);
        }

        let mut actions = Vec::new();
        let mut successors = Vec::new();
        'bfs: while let Some(u) = queue.pop_front() {
            {
                let state = &g.graph[u];
                model.actions(state, &mut actions);
                for a in actions.drain(..) {
                    let Some(next) = model.next_state(state, a.clone()) else {
                        continue;
                    };
                    if model.within_boundary(&next) {
                        successors.push((a, next));
                    }
                }
            }
            let depth = g.info[u.index()].depth + 1;
            let first = g.graph.edge_count();
            g.info[u.index()].edges = (first, first);
            for (a, next) in successors.drain(..) {
                let hash = g.hasher.hash_one(&next);
                let (v, new) = match g.lookup(hash, &next) {
                    Some(v) => (v, false),
                    None if g.graph.node_count() >= limit => {
                        g.complete = false;
                        break 'bfs;
                    }
                    None => (g.add_node(hash, next, depth), true),
                };
                let key = actor(&a);
                let e = g.graph.add_edge(
                    u,
                    v,
                    Edge {
                        action: a,
                        actor: key,
                    },
                );
                g.info[u.index()].edges.1 = e.index() + 1;
                if new {
                    g.info[v.index()].parent = Some(e);
                    queue.push_back(v);
                }
            }
            let mut enabled: Vec<Option<K>> = g.out_edges(u).map(|(_, _, e)| e.actor).collect();
            enabled.sort();
            enabled.dedup();
            let info = &mut g.info[u.index()];
            info.enabled = enabled;
            info.expanded = true;
        }
        // A truncated state keeps the edges it got: each is a real model edge, and the first
        // edge into each of its new successors is that successor's BFS parent.
        g
    }

    fn lookup(&self, hash: u64, s: &S) -> Option<NodeIndex> {
        match self.index.get(&hash)? {
            Bucket::One(n) => (self.graph[*n] == *s).then_some(*n),
            Bucket::Many(ns) => ns.iter().copied().find(|n| self.graph[*n] == *s),
        }
    }

    fn add_node(&mut self, hash: u64, s: S, depth: usize) -> NodeIndex {
        let n = self.graph.add_node(s);
        self.info.push(NodeInfo {
            parent: None,
            depth,
            edges: (0, 0),
            expanded: false,
            enabled: Vec::new(),
        });
        match self.index.get_mut(&hash) {
            None => {
                self.index.insert(hash, Bucket::One(n));
            }
            Some(Bucket::One(m)) => {
                let m = *m;
                self.index.insert(hash, Bucket::Many(vec![m, n]));
            }
            Some(Bucket::Many(ns)) => ns.push(n),
        }
        n
    }

    /// The node of a state, if it was reached.
    pub fn node(&self, state: &S) -> Option<NodeIndex> {
        self.lookup(self.hasher.hash_one(state), state)
    }
}

impl<S, A, K> StateGraph<S, A, K>
where
    K: Ord + Copy,
{
    /// The underlying petgraph graph: node weights are the states, edge weights the labels.
    pub fn graph(&self) -> &DiGraph<S, Edge<A, K>> {
        &self.graph
    }

    /// Number of distinct states.
    pub fn state_count(&self) -> usize {
        self.graph.node_count()
    }

    /// Number of edges (one per enabled action of each expanded state).
    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// Whether every reachable state (within the boundary) was explored.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The initial states' nodes, in the model's order, without repeats.
    pub fn init_nodes(&self) -> &[NodeIndex] {
        &self.inits
    }

    /// The state of a node.
    pub fn state(&self, n: NodeIndex) -> &S {
        &self.graph[n]
    }

    /// Whether all successors of the node are in the graph (always, for a complete graph).
    pub fn is_expanded(&self, n: NodeIndex) -> bool {
        self.info[n.index()].expanded
    }

    /// Length of the shortest path from an initial state.
    pub fn depth(&self, n: NodeIndex) -> usize {
        self.info[n.index()].depth
    }

    /// The breadth-first parent: the node and action by which the node was first reached.
    pub fn parent(&self, n: NodeIndex) -> Option<(NodeIndex, &A)> {
        let e = self.info[n.index()].parent?;
        let (src, _) = self.graph.edge_endpoints(e)?;
        Some((src, &self.graph[e].action))
    }

    /// The node's outgoing edges as (edge, target, label), in the model's action order.
    pub fn out_edges(
        &self,
        n: NodeIndex,
    ) -> impl Iterator<Item = (EdgeIndex, NodeIndex, &Edge<A, K>)> + '_ {
        let (from, to) = self.info[n.index()].edges;
        (from..to).map(move |i| {
            let e = EdgeIndex::new(i);
            let target = self.graph.raw_edges()[i].target();
            (e, target, &self.graph[e])
        })
    }

    /// The actors enabled in the node (of its outgoing edges): sorted, no repeats, `None`
    /// (the environment) first. Empty for an unexpanded node.
    pub fn enabled(&self, n: NodeIndex) -> &[Option<K>] {
        &self.info[n.index()].enabled
    }

    /// The fair actors enabled in the node, sorted.
    pub fn fair_enabled(&self, n: NodeIndex) -> impl Iterator<Item = K> + '_ {
        self.enabled(n).iter().filter_map(|k| *k)
    }

    /// An expanded node without any successor.
    pub fn is_terminal(&self, n: NodeIndex) -> bool {
        self.is_expanded(n) && self.graph.edges(n).next().is_none()
    }

    /// The shortest path from an initial state to the node: its nodes (first an initial state,
    /// last `n`) and the edges between them.
    pub fn path_to(&self, n: NodeIndex) -> (Vec<NodeIndex>, Vec<EdgeIndex>) {
        let mut nodes = vec![n];
        let mut edges = Vec::new();
        let mut cur = n;
        while let Some(e) = self.info[cur.index()].parent {
            edges.push(e);
            cur = self.graph.raw_edges()[e.index()].source();
            nodes.push(cur);
        }
        nodes.reverse();
        edges.reverse();
        (nodes, edges)
    }

    /// The smallest fair actor enabled in every node of `nodes` but labelling none of `edges`:
    /// a witness that a closed walk over these nodes and edges is not weakly fair.
    fn unfair_actor(&self, nodes: &[NodeIndex], edges: &[EdgeIndex]) -> Option<K> {
        let mut always: Vec<K> = self.fair_enabled(*nodes.first()?).collect();
        for n in &nodes[1..] {
            let here = self.enabled(*n);
            always.retain(|k| here.binary_search(&Some(*k)).is_ok());
        }
        let taken: BTreeSet<K> = edges.iter().filter_map(|e| self.graph[*e].actor).collect();
        always.into_iter().find(|k| !taken.contains(k))
    }

    /// Whether the lasso is a path of this graph from an initial state, and a weakly fair run:
    /// its cycle takes an edge of every fair actor enabled in all of the cycle's states, or it
    /// ends in a deadlock (no successor) or in quiescence (no fair actor enabled), per
    /// [`Lasso::end`].
    pub fn is_fair_lasso(&self, lasso: &Lasso<A>) -> bool {
        let n = lasso.nodes.len();
        if n == 0
            || lasso.edges.len() + 1 != n
            || lasso.actions.len() + 1 != n
            || lasso.cycle_start >= n
            || lasso.p_index > lasso.cycle_start
            || !self.inits.contains(&lasso.nodes[0])
        {
            return false;
        }
        let joined = lasso.edges.iter().enumerate().all(|(i, e)| {
            self.graph.edge_endpoints(*e) == Some((lasso.nodes[i], lasso.nodes[i + 1]))
        });
        if !joined {
            return false;
        }
        let last = lasso.nodes[n - 1];
        match lasso.end {
            LassoEnd::Deadlock => lasso.cycle_start == n - 1 && self.is_terminal(last),
            LassoEnd::Quiescent => {
                lasso.cycle_start == n - 1
                    && self.is_expanded(last)
                    && self.fair_enabled(last).next().is_none()
            }
            LassoEnd::Cycle => {
                let c = lasso.cycle_start;
                let cycle_nodes = &lasso.nodes[c..n - 1];
                c < n - 1
                    && lasso.nodes[c] == last
                    && cycle_nodes.iter().all(|v| self.is_expanded(*v))
                    && self.unfair_actor(cycle_nodes, &lasso.edges[c..]).is_none()
            }
        }
    }
}

/// How a finite run may end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ends {
    /// Only in a state with no successor at all. A state whose only enabled actions are the
    /// environment's is not an end: the run goes on with them (and if they loop back, that
    /// loop is a fair component, since no fair actor is enabled along it).
    #[default]
    Deadlock,
    /// Also in any state where no fair actor is enabled: the environment may stop acting for
    /// good (TLA+'s stuttering: `[][Next]_v ∧ WF(fair actors)`). Then a state where only a
    /// fault, an operator action or a client request could lead to `Q` violates `P ~> Q`.
    Quiescence,
}

/// How a lasso's run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LassoEnd {
    /// It repeats its cycle for ever.
    Cycle,
    /// It stops in a state with no successor.
    Deadlock,
    /// It stops in a state where no fair actor is enabled ([`Ends::Quiescence`] only).
    Quiescent,
}

/// A counterexample to `P ~> Q`: a path from an initial state through a state where `P` holds
/// (and `Q` does not) into a fair cycle, or to a final state, along which `Q` never holds from
/// the `P` state on.
///
/// `nodes[i + 1]` is the target of `edges[i]` (whose action is `actions[i]`) from `nodes[i]`;
/// `nodes[0]` is an initial state. The stem is `nodes[..=cycle_start]`, shortest over all the
/// `P` states and cycle entries. For [`LassoEnd::Cycle`], `nodes[cycle_start..]` is a closed
/// walk (its last node equals `nodes[cycle_start]`) repeated for ever; otherwise the cycle is
/// empty and `cycle_start` is the last index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso<A> {
    pub nodes: Vec<NodeIndex>,
    pub edges: Vec<EdgeIndex>,
    pub actions: Vec<A>,
    /// Index in `nodes` of the state where `P` holds (`p_index <= cycle_start`).
    pub p_index: usize,
    /// Index in `nodes` where the cycle starts.
    pub cycle_start: usize,
    pub end: LassoEnd,
}

impl<A> Lasso<A> {
    /// Number of actions: the stem's and one round of the cycle's.
    pub fn steps(&self) -> usize {
        self.actions.len()
    }

    /// The stem's actions, from an initial state to the cycle entry.
    pub fn stem_actions(&self) -> &[A] {
        &self.actions[..self.cycle_start]
    }

    /// The cycle's actions (empty when the run ends in a final state).
    pub fn cycle_actions(&self) -> &[A] {
        &self.actions[self.cycle_start..]
    }

    /// The states and actions of the lasso (one round of the cycle, ending back at its entry),
    /// cloned out of the graph, for replay and rendering.
    pub fn to_path<S: Clone, K>(&self, graph: &StateGraph<S, A, K>) -> (Vec<S>, Vec<A>)
    where
        A: Clone,
    {
        let states = self.nodes.iter().map(|n| graph.graph[*n].clone()).collect();
        (states, self.actions.clone())
    }

    /// Replays the lasso through the model (see [`replay`]), and checks that the cycle closes,
    /// or that a deadlocked end has no successor in the model. (A quiescent end is judged by
    /// [`StateGraph::is_fair_lasso`], which knows the actors.)
    pub fn replay<M, K>(&self, model: &M, graph: &StateGraph<M::State, A, K>) -> Result<(), String>
    where
        M: Model<Action = A>,
        M::State: Clone + PartialEq,
        A: Clone + PartialEq,
    {
        let (states, actions) = self.to_path(graph);
        replay(model, &states, &actions)?;
        let last = states.last().ok_or("empty lasso")?;
        match self.end {
            LassoEnd::Cycle => {
                if self.cycle_start + 1 >= states.len() || states[self.cycle_start] != *last {
                    return Err(format!(
                        "the cycle from step {} does not close",
                        self.cycle_start
                    ));
                }
            }
            LassoEnd::Deadlock => {
                let mut enabled = Vec::new();
                model.actions(last, &mut enabled);
                let live = enabled.into_iter().any(|a| {
                    model
                        .next_state(last, a)
                        .is_some_and(|s| model.within_boundary(&s))
                });
                if live {
                    return Err("the final state has a successor".into());
                }
            }
            LassoEnd::Quiescent => {}
        }
        Ok(())
    }
}

/// Checks that a path is a run of the model: `states[0]` is an initial state, and each
/// `actions[i]` is among `model.actions(&states[i])` and leads to `states[i + 1]` (within the
/// boundary). The error names the first step that fails.
pub fn replay<M>(model: &M, states: &[M::State], actions: &[M::Action]) -> Result<(), String>
where
    M: Model,
    M::State: PartialEq,
    M::Action: Clone + PartialEq,
{
    let first = states.first().ok_or("no states")?;
    if states.len() != actions.len() + 1 {
        return Err(format!(
            "{} states for {} actions",
            states.len(),
            actions.len()
        ));
    }
    if !model.init_states().contains(first) || !model.within_boundary(first) {
        return Err("the first state is not an initial state".into());
    }
    let mut enabled = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        enabled.clear();
        model.actions(&states[i], &mut enabled);
        if !enabled.contains(a) {
            return Err(format!("step {i}: the action is not enabled"));
        }
        match model.next_state(&states[i], a.clone()) {
            Some(next) if next == states[i + 1] && model.within_boundary(&next) => {}
            _ => {
                return Err(format!(
                    "step {i}: the action does not lead to the next state"
                ))
            }
        }
    }
    Ok(())
}

/// The verdict of `P ~> Q`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeadsTo<A> {
    /// Every weakly fair run reaches `Q` from every state where `P` holds.
    Holds,
    /// A fair run from a `P` state never reaches `Q`.
    Violated(Lasso<A>),
    /// The graph is partial and no violation was found in it.
    Incomplete,
}

/// `P ~> Q` under weak fairness of the graph's fair actors, runs ending only at deadlocks
/// ([`Ends::Deadlock`]). See [`leads_to_with`].
pub fn leads_to<S, A, K>(
    graph: &StateGraph<S, A, K>,
    p: impl Fn(&S) -> bool,
    q: impl Fn(&S) -> bool,
) -> LeadsTo<A>
where
    A: Clone,
    K: Ord + Copy,
{
    leads_to_with(graph, p, q, Ends::Deadlock)
}

/// `P ~> Q` under weak fairness: violated iff some reachable state `s` with `P(s) ∧ ¬Q(s)`
/// reaches, through `¬Q` states, a fair strongly connected component of `¬Q` states (see the
/// module documentation) or a `¬Q` state where a run may end (`ends`). The lasso returned is
/// the shortest such stem, then a fair cycle. `p` is evaluated only where `Q` is false and a
/// bad end is reachable.
pub fn leads_to_with<S, A, K>(
    graph: &StateGraph<S, A, K>,
    p: impl Fn(&S) -> bool,
    q: impl Fn(&S) -> bool,
    ends: Ends,
) -> LeadsTo<A>
where
    A: Clone,
    K: Ord + Copy,
{
    let g = &graph.graph;
    let n = g.node_count();
    let not_q: Vec<bool> = g.node_indices().map(|v| !q(&g[v])).collect();
    let candidate: Vec<bool> = (0..n).map(|i| not_q[i] && graph.info[i].expanded).collect();

    // Where a fair run may stay or stop for ever without Q.
    let mut bad: Vec<Option<LassoEnd>> = vec![None; n];
    let mut comp = vec![usize::MAX; n];
    let filtered = NodeFiltered::from_fn(g, |v: NodeIndex| candidate[v.index()]);
    let sccs = kosaraju_scc(&filtered);
    for (id, scc) in sccs.iter().enumerate() {
        for v in scc {
            comp[v.index()] = id;
        }
    }
    let mut required: HashMap<usize, Vec<K>> = HashMap::new();
    for (id, scc) in sccs.iter().enumerate() {
        let inside =
            |e: &petgraph::graph::EdgeReference<'_, Edge<A, K>>| comp[e.target().index()] == id;
        let has_edge = scc.iter().any(|v| g.edges(*v).any(|e| inside(&e)));
        if !has_edge {
            continue;
        }
        let mut always: Vec<K> = graph.fair_enabled(scc[0]).collect();
        for v in &scc[1..] {
            let here = graph.enabled(*v);
            always.retain(|k| here.binary_search(&Some(*k)).is_ok());
        }
        let taken: BTreeSet<K> = scc
            .iter()
            .flat_map(|v| g.edges(*v))
            .filter(|e| inside(e))
            .filter_map(|e| e.weight().actor)
            .collect();
        if always.iter().all(|k| taken.contains(k)) {
            for v in scc {
                bad[v.index()] = Some(LassoEnd::Cycle);
            }
            required.insert(id, always);
        }
    }
    for v in g.node_indices() {
        let i = v.index();
        if !candidate[i] {
            continue;
        }
        if graph.is_terminal(v) {
            bad[i] = Some(LassoEnd::Deadlock);
        } else if ends == Ends::Quiescence && graph.fair_enabled(v).next().is_none() {
            bad[i] = Some(LassoEnd::Quiescent);
        }
    }

    // Backward breadth-first search from the bad states through ¬Q states.
    let mut dist = vec![usize::MAX; n];
    let mut next: Vec<Option<EdgeIndex>> = vec![None; n];
    let mut queue = VecDeque::new();
    for (i, b) in bad.iter().enumerate() {
        if b.is_some() {
            dist[i] = 0;
            queue.push_back(NodeIndex::new(i));
        }
    }
    while let Some(v) = queue.pop_front() {
        for e in g.edges_directed(v, Direction::Incoming) {
            let u = e.source().index();
            if not_q[u] && dist[u] == usize::MAX {
                dist[u] = dist[v.index()] + 1;
                next[u] = Some(e.id());
                queue.push_back(e.source());
            }
        }
    }

    // The P state with the shortest stem (ties: the smaller node number).
    let start = g
        .node_indices()
        .filter(|v| dist[v.index()] != usize::MAX && p(&g[*v]))
        .min_by_key(|v| (graph.depth(*v) + dist[v.index()], v.index()));
    let Some(s) = start else {
        return if graph.complete {
            LeadsTo::Holds
        } else {
            LeadsTo::Incomplete
        };
    };

    let (mut nodes, mut edges) = graph.path_to(s);
    let p_index = nodes.len() - 1;
    let mut cur = s;
    while let Some(e) = next[cur.index()] {
        cur = g.raw_edges()[e.index()].target();
        edges.push(e);
        nodes.push(cur);
    }
    let cycle_start = nodes.len() - 1;
    let end = bad[cur.index()].unwrap_or(LassoEnd::Deadlock);
    if end == LassoEnd::Cycle {
        let id = comp[cur.index()];
        let need = required.get(&id).map(Vec::as_slice).unwrap_or(&[]);
        for e in fair_cycle(graph, &comp, id, need, cur) {
            edges.push(e);
            nodes.push(g.raw_edges()[e.index()].target());
        }
    }
    let actions = edges.iter().map(|e| g[*e].action.clone()).collect();
    LeadsTo::Violated(Lasso {
        nodes,
        edges,
        actions,
        p_index,
        cycle_start,
        end,
    })
}

/// What a breadth-first search inside a component looks for.
#[derive(Clone, Copy)]
enum Goal<K> {
    /// Arrive at this node.
    Reach(NodeIndex),
    /// Take an inside edge of this actor.
    Take(K),
    /// Take any inside edge.
    TakeAny,
    /// Arrive at a node where this actor is not enabled.
    Disabled(K),
}

/// A closed walk from `entry` inside the fair component `id` that is itself weakly fair:
/// every fair actor enabled in all of its states takes one of its edges.
fn fair_cycle<S, A, K: Ord + Copy>(
    graph: &StateGraph<S, A, K>,
    comp: &[usize],
    id: usize,
    required: &[K],
    entry: NodeIndex,
) -> Vec<EdgeIndex> {
    let mut walk = Vec::new();
    let mut cur = entry;
    let go = |walk: &mut Vec<EdgeIndex>, cur: &mut NodeIndex, goal: Goal<K>| {
        let (segment, end) = path_within(graph, comp, id, *cur, goal);
        walk.extend(segment);
        *cur = end;
    };
    if required.is_empty() {
        go(&mut walk, &mut cur, Goal::TakeAny);
    }
    for k in required {
        go(&mut walk, &mut cur, Goal::Take(*k));
    }
    go(&mut walk, &mut cur, Goal::Reach(entry));
    // Repair: an actor enabled in every state the walk visits but never taken along it (it is
    // not required of the component, so it has no inside edge, or some state disables it).
    // Each repair settles one actor for good: the walk only grows.
    loop {
        let mut nodes = vec![entry];
        nodes.extend(
            walk.iter()
                .map(|e| graph.graph.raw_edges()[e.index()].target()),
        );
        nodes.pop();
        let Some(b) = graph.unfair_actor(&nodes, &walk) else {
            return walk;
        };
        let has_inside_edge = nodes_of(comp, id).any(|v| {
            graph
                .out_edges(v)
                .any(|(_, t, e)| comp[t.index()] == id && e.actor == Some(b))
        });
        let goal = if has_inside_edge {
            Goal::Take(b)
        } else {
            Goal::Disabled(b)
        };
        go(&mut walk, &mut cur, goal);
        go(&mut walk, &mut cur, Goal::Reach(entry));
    }
}

fn nodes_of(comp: &[usize], id: usize) -> impl Iterator<Item = NodeIndex> + '_ {
    comp.iter()
        .enumerate()
        .filter(move |(_, c)| **c == id)
        .map(|(i, _)| NodeIndex::new(i))
}

/// The shortest path inside component `id` from `from` to the goal: its edges and end node.
/// Strong connectivity of the component, and the callers' choice of goals, guarantee one.
fn path_within<S, A, K: Ord + Copy>(
    graph: &StateGraph<S, A, K>,
    comp: &[usize],
    id: usize,
    from: NodeIndex,
    goal: Goal<K>,
) -> (Vec<EdgeIndex>, NodeIndex) {
    let mut parent: HashMap<NodeIndex, EdgeIndex> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    let unwind = |parent: &HashMap<NodeIndex, EdgeIndex>, mut v: NodeIndex| {
        let mut path = Vec::new();
        while v != from {
            let e = parent[&v];
            path.push(e);
            v = graph.graph.raw_edges()[e.index()].source();
        }
        path.reverse();
        path
    };
    while let Some(u) = queue.pop_front() {
        let arrived = match goal {
            Goal::Reach(t) => u == t,
            Goal::Disabled(k) => graph.enabled(u).binary_search(&Some(k)).is_err(),
            Goal::Take(_) | Goal::TakeAny => false,
        };
        if arrived {
            return (unwind(&parent, u), u);
        }
        for (e, t, label) in graph.out_edges(u) {
            if comp[t.index()] != id {
                continue;
            }
            let take = match goal {
                Goal::Take(k) => label.actor == Some(k),
                Goal::TakeAny => true,
                Goal::Reach(_) | Goal::Disabled(_) => false,
            };
            if take {
                let mut path = unwind(&parent, u);
                path.push(e);
                return (path, t);
            }
            if t != from && !parent.contains_key(&t) {
                parent.insert(t, e);
                queue.push_back(t);
            }
        }
    }
    unreachable!("a strongly connected component holds a path to every goal set for it")
}
