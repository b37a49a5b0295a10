//! Liveness under weak fairness: `P ~> Q` ("P leads to Q") checked on an explicit state graph,
//! with lasso counterexamples.
//!
//! Stateright's `eventually` looks only at terminal states, misses every violation that lies on
//! a cycle (and some at DAG joins), and knows no fairness (docs/sources.md#stateright-031).
//! This module does what TLC and SPIN do instead:
//!
//! 1. [`crate::explore::explore`] explores any Stateright [`Model`] breadth-first into a
//!    compact [`Graph`]: each state once, each edge labelled with its action and the actor
//!    that takes it (a caller-supplied function; `None` is the unfair environment), `P` and
//!    `Q` evaluated as each state is discovered.
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
//! fair actor enabled in all of *its own* states acts on it ([`Graph::is_fair_lasso`]).
//!
//! # Bounds
//!
//! [`crate::explore::explore`] honours [`Model::within_boundary`] like Stateright's BFS: a
//! successor outside the boundary is dropped, so its action counts as not enabled (a state
//! whose every successor lies outside is then a deadlock, as it is for Stateright's
//! `eventually`). `next_state` returning `None` also means "not enabled", as in Stateright's
//! checkers. With `max_states` the exploration may stop early; a state whose successors were
//! not all added is *unexpanded*. Unexpanded states are never part of a fair component nor a
//! final state, so a violation found in a partial graph is a real one (every edge of its lasso
//! is a model edge, and the enabled actors of its cycle's states are known exactly); when none
//! is found, the verdict is [`LeadsTo::Incomplete`].
//!
//! The pass itself can be stopped too ([`leads_to_progress`]: Ctrl-C, the memory bound of
//! [`crate::progress`]); a stopped pass decides nothing and says [`LeadsTo::Incomplete`].

use crate::explore::{
    explore, ActionId, EdgeId, ExploreOptions, Finding, Graph, Probe, Run, StateId,
};
use crate::progress::Progress;
use stateright::Model;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::hash::Hash;

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
    pub nodes: Vec<StateId>,
    pub edges: Vec<EdgeId>,
    pub actions: Vec<A>,
    /// Index in `nodes` of the state where `P` holds (`p_index <= cycle_start`).
    pub p_index: usize,
    /// Index in `nodes` where the cycle starts.
    pub cycle_start: usize,
    pub end: LassoEnd,
}

impl<A: Clone + PartialEq + std::fmt::Debug> Lasso<A> {
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

    /// The lasso as a run (one round of the cycle, ending back at its entry).
    pub fn run<K>(&self, graph: &Graph<A, K>) -> Run<A> {
        Run {
            init: graph.init_index(self.nodes[0]).unwrap_or(0),
            actions: self.actions.clone(),
        }
    }

    /// Replays the lasso through the model and returns its states: every step must be enabled
    /// and lead to the recorded state, the cycle must close, and a deadlocked end must have no
    /// successor in the model. (A quiescent end is judged by [`Graph::is_fair_lasso`], which
    /// knows the actors.)
    pub fn replay<M, K>(&self, model: &M, graph: &Graph<A, K>) -> Result<Vec<M::State>, String>
    where
        M: Model<Action = A>,
        M::State: Hash + PartialEq,
    {
        let ids: Vec<ActionId> = self.edges.iter().map(|e| graph.edge_action(*e)).collect();
        if ids.len() != self.actions.len()
            || ids
                .iter()
                .zip(&self.actions)
                .any(|(i, a)| graph.action(*i) != a)
        {
            return Err("the lasso's actions are not its edges' actions".into());
        }
        let states = graph.replay(model, &self.nodes, &ids)?;
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
        Ok(states)
    }
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

impl<A, K: Ord + Copy> Graph<A, K> {
    /// The smallest fair actor enabled in every state of `nodes` but labelling none of
    /// `edges`: a witness that a closed walk over these states and edges is not weakly fair.
    fn unfair_actor(&self, nodes: &[StateId], edges: &[EdgeId]) -> Option<K> {
        let mut always: Vec<K> = self.fair_enabled(*nodes.first()?);
        for n in &nodes[1..] {
            let here = self.enabled(*n);
            always.retain(|k| here.binary_search(&Some(*k)).is_ok());
        }
        let taken: BTreeSet<K> = edges.iter().filter_map(|e| self.edge_actor(*e)).collect();
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
            || !self.is_init(lasso.nodes[0])
        {
            return false;
        }
        let joined = lasso.edges.iter().enumerate().all(|(i, e)| {
            (*e as usize) < self.edge_count() && {
                let (src, dst, _) = self.edge(*e);
                (src, dst) == (lasso.nodes[i], lasso.nodes[i + 1])
            }
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
                    && self.fair_enabled(last).is_empty()
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

/// `P ~> Q` under weak fairness of the graph's fair actors, runs ending only at deadlocks
/// ([`Ends::Deadlock`]). See [`leads_to_with`].
pub fn leads_to<A, K>(
    graph: &Graph<A, K>,
    p: impl Fn(StateId) -> bool,
    q: impl Fn(StateId) -> bool,
) -> LeadsTo<A>
where
    A: Clone,
    K: Ord + Copy,
{
    leads_to_with(graph, p, q, Ends::Deadlock)
}

/// No component, no distance, no edge.
const NONE: u32 = u32::MAX;

/// Strongly connected components of the subgraph induced by `keep` (iterative Tarjan): the
/// component number of each kept state (`NONE` for the others) and the components' states.
/// `None` when `progress` stops it.
#[allow(clippy::type_complexity)]
pub(crate) fn sccs<A, K>(
    graph: &Graph<A, K>,
    keep: &[bool],
    progress: &mut Progress,
) -> Option<(Vec<u32>, Vec<Vec<StateId>>)> {
    let n = keep.len();
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<StateId> = Vec::new();
    let mut comp = vec![NONE; n];
    let mut comps: Vec<Vec<StateId>> = Vec::new();
    let mut counter = 0u32;
    // (state, position in its out-edge list)
    let mut call: Vec<(StateId, usize)> = Vec::new();
    progress.step("components");
    for root in 0..n {
        if !keep[root] || index[root] != UNSEEN {
            continue;
        }
        if progress.tick(counter as usize, None).is_some() {
            return None;
        }
        call.push((root as StateId, 0));
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as StateId);
        on_stack[root] = true;
        while let Some(&(v, pos)) = call.last() {
            let vi = v as usize;
            match graph.nth_successor(v, pos) {
                Some(w) => {
                    if let Some(top) = call.last_mut() {
                        top.1 += 1;
                    }
                    let wi = w as usize;
                    if !keep[wi] {
                        continue;
                    }
                    if index[wi] == UNSEEN {
                        if progress.tick(counter as usize, None).is_some() {
                            return None;
                        }
                        index[wi] = counter;
                        low[wi] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[wi] = true;
                        call.push((w, 0));
                    } else if on_stack[wi] {
                        low[vi] = low[vi].min(index[wi]);
                    }
                }
                None => {
                    call.pop();
                    if let Some(&(u, _)) = call.last() {
                        low[u as usize] = low[u as usize].min(low[vi]);
                    }
                    if low[vi] == index[vi] {
                        let id = comps.len() as u32;
                        let mut c = Vec::new();
                        loop {
                            let w = stack.pop().expect("Tarjan's stack holds the component");
                            on_stack[w as usize] = false;
                            comp[w as usize] = id;
                            c.push(w);
                            if w == v {
                                break;
                            }
                        }
                        c.sort_unstable();
                        comps.push(c);
                    }
                }
            }
        }
    }
    Some((comp, comps))
}

/// About how many bytes the pass of [`leads_to_progress`] allocates, at most, on a graph of
/// `states` states and `edges` edges (its work arrays: components, the way back, distances):
/// [`SCRATCH_PER_STATE`] and [`SCRATCH_PER_EDGE`].
pub fn scratch_bytes(states: usize, edges: usize) -> u64 {
    SCRATCH_PER_STATE * states as u64 + SCRATCH_PER_EDGE * edges as u64
}

/// Bytes per state of a `leads_to` pass, at most: Tarjan's arrays and stacks (about 40), a
/// component per state where the graph has no cycle (a vector each, about 56, and its
/// fairness demands, 24), the backward search's arrays (about 20), rounded up for the
/// allocator.
pub const SCRATCH_PER_STATE: u64 = 160;

/// Bytes per edge of a `leads_to` pass, at most: the incoming edges, by target (4), and room
/// for a pass that lists its predecessors with their actions.
pub const SCRATCH_PER_EDGE: u64 = 8;

/// `P ~> Q` under weak fairness: violated iff some reachable state `s` with `P(s) ∧ ¬Q(s)`
/// reaches, through `¬Q` states, a fair strongly connected component of `¬Q` states (see the
/// module documentation) or a `¬Q` state where a run may end (`ends`). The lasso returned is
/// the shortest such stem, then a fair cycle. `p` and `q` are read by state number (evaluate
/// them during the exploration: [`Probe::EveryState`]).
pub fn leads_to_with<A, K>(
    graph: &Graph<A, K>,
    p: impl Fn(StateId) -> bool,
    q: impl Fn(StateId) -> bool,
    ends: Ends,
) -> LeadsTo<A>
where
    A: Clone,
    K: Ord + Copy,
{
    leads_to_progress(graph, p, q, ends, &mut Progress::silent())
}

/// [`leads_to_with`], with a progress line and stops ([`Progress`], in its current phase):
/// before its work arrays are allocated when they would pass the memory bound, and at the
/// next state on Ctrl-C. A stopped pass is [`LeadsTo::Incomplete`]: it decided nothing.
pub fn leads_to_progress<A, K>(
    graph: &Graph<A, K>,
    p: impl Fn(StateId) -> bool,
    q: impl Fn(StateId) -> bool,
    ends: Ends,
    progress: &mut Progress,
) -> LeadsTo<A>
where
    A: Clone,
    K: Ord + Copy,
{
    let n = graph.state_count();
    if progress.would_pass_memory(scratch_bytes(n, graph.edge_count()), 0) {
        return LeadsTo::Incomplete;
    }
    let not_q: Vec<bool> = (0..n as StateId).map(|v| !q(v)).collect();
    let candidate: Vec<bool> = (0..n)
        .map(|i| not_q[i] && graph.is_expanded(i as StateId))
        .collect();

    // Where a fair run may stay or stop for ever without Q.
    let mut bad: Vec<Option<LassoEnd>> = vec![None; n];
    let Some((comp, components)) = sccs(graph, &candidate, progress) else {
        return LeadsTo::Incomplete;
    };
    let mut required: HashMap<u32, Vec<K>> = HashMap::new();
    let fair = fair_components(graph, &comp, &components, |k| (k, 1));
    for (id, (scc, demands)) in components.iter().zip(fair).enumerate() {
        if let Some(always) = demands {
            for v in scc {
                bad[*v as usize] = Some(LassoEnd::Cycle);
            }
            required.insert(id as u32, always);
        }
    }
    for (i, b) in bad.iter_mut().enumerate() {
        if candidate[i] {
            if let Some(end) = final_end(graph, i as StateId, ends) {
                *b = Some(end);
            }
        }
    }

    // Backward breadth-first search from the bad states through ¬Q states. Each state's
    // incoming edges are visited latest edge first.
    let mut in_start = vec![0u32; n + 1];
    for e in 0..graph.edge_count() {
        in_start[graph.target(e as EdgeId) as usize + 1] += 1;
    }
    for i in 0..n {
        in_start[i + 1] += in_start[i];
    }
    let mut fill = in_start.clone();
    // Incoming edges by target, as edge numbers (4 bytes each; the source is looked up).
    let mut incoming: Vec<EdgeId> = vec![0; graph.edge_count()];
    for e in 0..graph.edge_count() as EdgeId {
        let t = graph.target(e) as usize;
        incoming[fill[t] as usize] = e;
        fill[t] += 1;
    }
    drop(fill);
    let mut dist = vec![NONE; n];
    let mut next: Vec<EdgeId> = vec![NONE; n];
    let mut queue = VecDeque::new();
    for (i, b) in bad.iter().enumerate() {
        if b.is_some() {
            dist[i] = 0;
            queue.push_back(i as StateId);
        }
    }
    let mut done = 0usize;
    progress.step("way back");
    while let Some(v) = queue.pop_front() {
        done += 1;
        if progress.tick(done, None).is_some() {
            return LeadsTo::Incomplete;
        }
        let range = in_start[v as usize] as usize..in_start[v as usize + 1] as usize;
        for &e in incoming[range].iter().rev() {
            let (u, _, _) = graph.edge(e);
            let ui = u as usize;
            if not_q[ui] && dist[ui] == NONE {
                dist[ui] = dist[v as usize] + 1;
                next[ui] = e;
                queue.push_back(u);
            }
        }
    }
    drop(incoming);
    drop(in_start);

    // The P state with the shortest stem (ties: the smaller state number).
    let depths = graph.depths();
    let start = (0..n as StateId)
        .filter(|v| dist[*v as usize] != NONE && p(*v))
        .min_by_key(|v| (depths[*v as usize] as u64 + dist[*v as usize] as u64, *v));
    let Some(s) = start else {
        return if graph.is_complete() {
            LeadsTo::Holds
        } else {
            LeadsTo::Incomplete
        };
    };

    let (mut nodes, stem_actions) = graph.path_to(s);
    let mut edges: Vec<EdgeId> = nodes
        .windows(2)
        .zip(&stem_actions)
        .map(|(w, a)| {
            graph
                .find_edge(w[0], w[1], *a)
                .expect("a breadth-first parent edge is an edge")
        })
        .collect();
    let p_index = nodes.len() - 1;
    let mut cur = s;
    while next[cur as usize] != NONE {
        let e = next[cur as usize];
        cur = graph.target(e);
        edges.push(e);
        nodes.push(cur);
    }
    let cycle_start = nodes.len() - 1;
    let end = bad[cur as usize].unwrap_or(LassoEnd::Deadlock);
    if end == LassoEnd::Cycle {
        let id = comp[cur as usize];
        let need = required.get(&id).map(Vec::as_slice).unwrap_or(&[]);
        for e in fair_cycle(graph, &comp, &components[id as usize], id, need, cur) {
            edges.push(e);
            nodes.push(graph.target(e));
        }
    }
    let actions = edges
        .iter()
        .map(|e| graph.action(graph.edge_action(*e)).clone())
        .collect();
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
    /// Arrive at this state.
    Reach(StateId),
    /// Take an inside edge of this actor.
    Take(K),
    /// Take any inside edge.
    TakeAny,
    /// Arrive at a state where this actor is not enabled.
    Disabled(K),
}

/// A closed walk from `entry` inside the fair component `id` that is itself weakly fair:
/// every fair actor enabled in all of its states takes one of its edges.
fn fair_cycle<A, K: Ord + Copy>(
    graph: &Graph<A, K>,
    comp: &[u32],
    members: &[StateId],
    id: u32,
    required: &[K],
    entry: StateId,
) -> Vec<EdgeId> {
    let mut walk = Vec::new();
    let mut cur = entry;
    let go = |walk: &mut Vec<EdgeId>, cur: &mut StateId, goal: Goal<K>| {
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
        nodes.extend(walk.iter().map(|e| graph.target(*e)));
        nodes.pop();
        let Some(b) = graph.unfair_actor(&nodes, &walk) else {
            return walk;
        };
        let has_inside_edge = members.iter().any(|v| {
            graph
                .out_edges(*v)
                .any(|(_, t, a)| comp[t as usize] == id && graph.actor(a) == Some(b))
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

/// The shortest path inside component `id` from `from` to the goal: its edges and end state.
/// Strong connectivity of the component, and the callers' choice of goals, guarantee one.
fn path_within<A, K: Ord + Copy>(
    graph: &Graph<A, K>,
    comp: &[u32],
    id: u32,
    from: StateId,
    goal: Goal<K>,
) -> (Vec<EdgeId>, StateId) {
    let mut parent: HashMap<StateId, (StateId, EdgeId)> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    let unwind = |parent: &HashMap<StateId, (StateId, EdgeId)>, mut v: StateId| {
        let mut path = Vec::new();
        while v != from {
            let (src, e) = parent[&v];
            path.push(e);
            v = src;
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
        for (e, t, a) in graph.out_edges(u) {
            if comp[t as usize] != id {
                continue;
            }
            let take = match goal {
                Goal::Take(k) => graph.actor(a) == Some(k),
                Goal::TakeAny => true,
                Goal::Reach(_) | Goal::Disabled(_) => false,
            };
            if take {
                let mut path = unwind(&parent, u);
                path.push(e);
                return (path, t);
            }
            if t != from && !parent.contains_key(&t) {
                parent.insert(t, (u, e));
                queue.push_back(t);
            }
        }
    }
    unreachable!("a strongly connected component holds a path to every goal set for it")
}

/// Explores `model` and judges `P ~> Q` on its graph in one call: `p` and `q` are evaluated
/// as each state is discovered. Returns the graph (for replaying the lasso) and the verdict.
pub fn check_leads_to<M, K>(
    model: &M,
    actor: impl Fn(&M::Action) -> Option<K>,
    p: impl Fn(&M::State) -> bool + Sync,
    q: impl Fn(&M::State) -> bool + Sync,
    ends: Ends,
    max_states: Option<usize>,
) -> (Graph<M::Action, K>, LeadsTo<M::Action>)
where
    M: Model + Sync,
    M::State: Hash + Send + Sync,
    M::Action: Hash + Eq + Clone + Send + Sync,
    K: Ord + Copy + Send + Sync,
{
    let probes = [
        Probe::EveryState(Box::new(p) as Box<dyn Fn(&M::State) -> bool + Sync>),
        Probe::EveryState(Box::new(q)),
    ];
    let opts = ExploreOptions {
        max_states,
        ..ExploreOptions::default()
    };
    let (graph, findings) = explore(model, actor, &probes, &opts);
    let [Finding::Bits(pb), Finding::Bits(qb)] = &findings[..] else {
        unreachable!("two state probes give two bit sets")
    };
    let verdict = leads_to_with(&graph, |v| pb.get(v as usize), |v| qb.get(v as usize), ends);
    (graph, verdict)
}

/// `P ~> Q` on the quotient of a graph by a symmetry that permutes actors within classes
/// (`class(k)` is the class of actor `k` and the number of actors in it): `Some(true)` when
/// it holds, `None` when the quotient alone cannot tell (then judge the whole graph).
///
/// A cycle of the quotient stands for a real cycle that goes round it several times, each
/// time with the actors permuted within their classes. So the quotient judges fairness per
/// class: a strongly connected component of `¬Q` is *class-fair* when every class whose
/// actors are **all** enabled in every one of its states labels an edge inside it. If a real
/// weakly fair run avoids `Q` from a `P` state, then the states it visits for ever lie, up to
/// the symmetry, in one component of the quotient, and that component is class-fair: an
/// actor of a class enabled throughout it is enabled throughout the run's tail (a
/// permutation within the class maps it to an actor the quotient state has), so weak
/// fairness makes it act, along an edge of the quotient whose actor is in the class. Hence no
/// class-fair component (nor deadlock or quiescence) reachable within `¬Q` from a `P` state
/// means the property holds. The converse fails (a class-fair component need not be a fair
/// run), which is why a violation here is `None`, not a verdict.
pub fn leads_to_holds_up_to<A, K>(
    graph: &Graph<A, K>,
    p: impl Fn(StateId) -> bool,
    q: impl Fn(StateId) -> bool,
    ends: Ends,
    class: impl Fn(K) -> (K, usize),
    progress: &mut Progress,
) -> Option<bool>
where
    K: Ord + Copy,
{
    if !graph.is_complete() {
        return None;
    }
    let n = graph.state_count();
    // No state where P holds and Q does not: every P state is a Q state already (the search
    // below could only stop at such a state).
    if !(0..n as StateId).any(|v| p(v) && !q(v)) {
        return Some(true);
    }
    if progress.would_pass_memory(scratch_bytes(n, graph.edge_count()), 0) {
        return None;
    }
    let candidate: Vec<bool> = (0..n as StateId)
        .map(|v| !q(v) && graph.is_expanded(v))
        .collect();
    let (comp, components) = sccs(graph, &candidate, progress)?;
    let mut bad = vec![false; n];
    let fair = fair_components(graph, &comp, &components, class);
    for (scc, demands) in components.iter().zip(fair) {
        if demands.is_some() {
            for v in scc {
                bad[*v as usize] = true;
            }
        }
    }
    for (v, b) in bad.iter_mut().enumerate() {
        if candidate[v] && final_end(graph, v as StateId, ends).is_some() {
            *b = true;
        }
    }
    // Backward through ¬Q states from the bad ones: does a P state reach one?
    let preds = graph.in_edges(|u, t| candidate[u as usize] && candidate[t as usize]);
    let mut queue: VecDeque<StateId> = (0..n as StateId).filter(|v| bad[*v as usize]).collect();
    let mut reached = bad;
    while let Some(v) = queue.pop_front() {
        if p(v) {
            return None;
        }
        for (u, _) in preds.of(v) {
            if !reached[*u as usize] {
                reached[*u as usize] = true;
                queue.push_back(*u);
            }
        }
    }
    Some(true)
}

/// The fairness demands of each strongly connected component of a `¬Q` subgraph: for a
/// component with an edge inside it that is fair, the classes (`class(k)`: an actor's class
/// and how many actors it has) all of whose actors are enabled in every one of its states,
/// each of which labels an edge inside it; `None` for the others. With every actor a class
/// of its own (`|k| (k, 1)`) this is weak fairness per actor.
fn fair_components<A, K: Ord + Copy>(
    graph: &Graph<A, K>,
    comp: &[u32],
    components: &[Vec<StateId>],
    class: impl Fn(K) -> (K, usize),
) -> Vec<Option<Vec<K>>> {
    // The classes all of whose actors are enabled in a state, sorted.
    let all_enabled = |v: StateId| -> Vec<K> {
        let mut counts: Vec<(K, usize, usize)> = Vec::new();
        for k in graph.fair_enabled(v) {
            let (c, size) = class(k);
            match counts.iter_mut().find(|(x, _, _)| *x == c) {
                Some(e) => e.2 += 1,
                None => counts.push((c, size, 1)),
            }
        }
        let mut out: Vec<K> = counts
            .into_iter()
            .filter(|(_, size, seen)| seen >= size)
            .map(|(c, _, _)| c)
            .collect();
        out.sort();
        out
    };
    components
        .iter()
        .enumerate()
        .map(|(id, scc)| {
            let id = id as u32;
            let inside = |t: StateId| comp[t as usize] == id;
            let has_edge = scc
                .iter()
                .any(|v| graph.out_edges(*v).any(|(_, t, _)| inside(t)));
            if !has_edge {
                return None;
            }
            let mut always = all_enabled(scc[0]);
            for v in &scc[1..] {
                let here = all_enabled(*v);
                always.retain(|c| here.binary_search(c).is_ok());
            }
            let taken: BTreeSet<K> = scc
                .iter()
                .flat_map(|v| graph.out_edges(*v))
                .filter(|(_, t, _)| inside(*t))
                .filter_map(|(_, _, a)| graph.actor(a))
                .map(|k| class(k).0)
                .collect();
            always.iter().all(|c| taken.contains(c)).then_some(always)
        })
        .collect()
}

/// How a run may end in an expanded `¬Q` state: a deadlock, or (with
/// [`Ends::Quiescence`]) a state where no fair actor is enabled.
fn final_end<A, K: Ord + Copy>(graph: &Graph<A, K>, v: StateId, ends: Ends) -> Option<LassoEnd> {
    if graph.is_terminal(v) {
        Some(LassoEnd::Deadlock)
    } else if ends == Ends::Quiescence && graph.fair_enabled(v).is_empty() {
        Some(LassoEnd::Quiescent)
    } else {
        None
    }
}
