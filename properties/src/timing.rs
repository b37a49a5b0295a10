//! Promises with deadlines: `P ~> Q within T s`, and the worst and best time from `P` to `Q`,
//! computed on the explored state graph.
//!
//! The model's clock is explicit: every edge of the graph takes a whole number of seconds
//! (a `Tick` the seconds it carries, every other step none), so the time a run takes is the
//! sum over its edges. Nothing here adds a clock to the state: the answers are read off the
//! graph that [`crate::explore`] built once.
//!
//! # What is computed
//!
//! For a state `s` where `P` holds, let `W(s)` be the supremum, over the runs from `s` that
//! the fairness assumptions allow ([`crate::liveness`]: weak fairness of the fair actors,
//! runs that end only where [`Ends`] lets them), of the time that passes before the run
//! first meets a `Q` state (infinite for a run that never does; zero when `Q(s)`). The
//! *worst case* of `P ~> Q` is the largest `W(s)` over the reachable `P` states, with the
//! run that takes it; `P ~> Q within T` holds when it is at most `T`.
//!
//! # Why the computation is exact
//!
//! Let `G¬Q` be the subgraph of the `¬Q` states. Three things make `W(s)` infinite:
//!
//! 1. `s` reaches, inside `G¬Q`, a fair strongly connected component or a state where a run
//!    may end: then some fair run never meets `Q`. This is exactly `P ~> Q` failing, judged
//!    by [`crate::liveness`], whose lasso is the evidence.
//! 2. `s` reaches, inside `G¬Q`, a strongly connected component with an edge inside it that
//!    takes time. Going round that component `k` times and then on along any allowed run is
//!    an allowed run for every `k` (weak fairness only constrains what a run does for ever,
//!    and every finite path of a finite graph extends to a weakly fair run: weak fairness is
//!    machine-closed), and it is still without `Q` after `k` seconds at least. The evidence
//!    is that loop, repeated until the deadline has passed.
//! 3. Otherwise every component of `G¬Q` that `s` reaches has only zero-time edges inside it
//!    and is not fair, and none holds a state where a run may end. Every allowed run from `s`
//!    then leaves each component it enters (it cannot stay for ever: that would be a fair
//!    run inside a component that is not fair, or an end) and never comes back (components
//!    form a directed acyclic graph), so it meets `Q` after passing through finitely many
//!    components. Within a component time stands still, and every state of it reaches every
//!    other at no cost, so `W` is the same for all of a component's states:
//!
//!    `W(C) = max over edges u → t leaving C of  time(u → t) + (0 if Q(t) else W(C(t)))`,
//!
//!    computed once per component, successors first (Tarjan's algorithm numbers components
//!    in that order). The maximum is attained by a real path (into the exit edge inside `C`,
//!    then along the maximising exits), which extends to an allowed run (machine closure
//!    again), so it is the supremum, not only a bound.
//!
//! Urgency makes the time real: the model lets time pass only when no component has an
//! urgent step to take, so a run cannot stop the clock while a fair component could act
//! (that would be a fair run avoiding `Q`, case 1). On the quotient by interchangeable
//! nodes ([`podcheck_model::symmetry`]), every path of the quotient is, step by step and with
//! the same seconds, the image of a real path and back, and a loop of the quotient that takes
//! time is the image of a real path that, repeated as often as the symmetry group is large,
//! closes and takes time: the three cases and the numbers are the same as on the whole graph,
//! once [`crate::liveness::leads_to_holds_up_to`] has shown case 1 absent.
//!
//! The *best case* is the least time in which some run reaches `Q` from a state where `P`
//! has just begun (an initial `P` state, or one entered from a `¬P` state): a shortest-path
//! computation backwards from the `Q` states.

use crate::explore::{ActionId, EdgeId, Graph, StateId};
use crate::liveness::{leads_to_progress, sccs, Ends, Lasso, LeadsTo};
use crate::progress::Progress;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

/// Model time: whole seconds.
pub type Seconds = u64;

const NONE: u32 = u32::MAX;

/// A path of the graph from an initial state through a `P` state: `nodes[i + 1]` is the target
/// of `edges[i]` from `nodes[i]`, `nodes[0]` is an initial state and `nodes[p_index]` the `P`
/// state the time is measured from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedPath {
    pub nodes: Vec<StateId>,
    pub edges: Vec<EdgeId>,
    pub p_index: usize,
}

impl TimedPath {
    /// Seconds from the `P` state to the end of the path.
    pub fn seconds_after_p<A, K>(
        &self,
        graph: &Graph<A, K>,
        time: impl Fn(ActionId) -> Seconds,
    ) -> Seconds {
        self.edges[self.p_index..]
            .iter()
            .map(|e| time(graph.edge_action(*e)))
            .sum()
    }
}

/// The worst case of `P ~> Q`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Worst<A> {
    /// Every allowed run from every `P` state meets `Q`; the slowest takes `seconds`. The path
    /// runs from an initial state to the `P` state where the slowest run starts, and along it
    /// to its first `Q` state.
    Bounded {
        seconds: Seconds,
        path: TimedPath,
        /// With a deadline that the worst case passes: the slowest run from the `P` state
        /// with the shortest stem among those from which some run passes the deadline (a
        /// shorter counterexample than `path`, when there is one).
        over: Option<TimedPath>,
    },
    /// A fair run from a `P` state never meets `Q`: `P ~> Q` is violated (its lasso).
    Never(Lasso<A>),
    /// From a `P` state, a loop of `¬Q` states along which time passes can be gone round as
    /// often as one likes before `Q`: no bound. `stem` runs from an initial state through the
    /// `P` state to the loop's first state; `cycle` is a closed walk from there, taking
    /// `cycle_seconds > 0` per round.
    Loop {
        stem: TimedPath,
        cycle: Vec<EdgeId>,
        cycle_seconds: Seconds,
    },
    /// No reachable state has `P`: the promise is vacuous.
    NoPremise,
    /// The graph is partial (or the pass was stopped) and decided nothing.
    Incomplete,
}

impl<A> Worst<A> {
    /// The worst-case seconds, when bounded.
    pub fn seconds(&self) -> Option<Seconds> {
        match self {
            Worst::Bounded { seconds, .. } => Some(*seconds),
            _ => None,
        }
    }

    /// Whether no bound exists.
    pub fn is_unbounded(&self) -> bool {
        matches!(self, Worst::Never(_) | Worst::Loop { .. })
    }
}

/// The worst case of `P ~> Q` under weak fairness (see the module documentation): first
/// `P ~> Q` itself ([`leads_to_progress`]), then the loops that take time and the slowest
/// path on the graph's components. `time` gives each action's seconds; `deadline`, if any,
/// picks the counterexample of [`Worst::Bounded::over`].
pub fn worst_case<A, K>(
    graph: &Graph<A, K>,
    p: impl Fn(StateId) -> bool,
    q: impl Fn(StateId) -> bool,
    time: impl Fn(ActionId) -> Seconds,
    deadline: Option<Seconds>,
    ends: Ends,
    progress: &mut Progress,
) -> Worst<A>
where
    A: Clone,
    K: Ord + Copy,
{
    if graph.is_complete() && !(0..graph.state_count() as StateId).any(&p) {
        return Worst::NoPremise;
    }
    match leads_to_progress(graph, &p, &q, ends, progress) {
        LeadsTo::Violated(l) => Worst::Never(l),
        LeadsTo::Incomplete => Worst::Incomplete,
        LeadsTo::Holds => worst_case_when_leads_to_holds(graph, p, q, time, deadline, progress),
    }
}

/// The worst case of `P ~> Q` on a complete graph where `P ~> Q` is known to hold (case 1
/// of the module documentation is absent): cases 2 and 3.
pub fn worst_case_when_leads_to_holds<A, K>(
    graph: &Graph<A, K>,
    p: impl Fn(StateId) -> bool,
    q: impl Fn(StateId) -> bool,
    time: impl Fn(ActionId) -> Seconds,
    deadline: Option<Seconds>,
    progress: &mut Progress,
) -> Worst<A>
where
    K: Ord + Copy,
{
    let n = graph.state_count();
    if !graph.is_complete() {
        return Worst::Incomplete;
    }
    let p_states: Vec<StateId> = (0..n as StateId).filter(|v| p(*v)).collect();
    if p_states.is_empty() {
        return Worst::NoPremise;
    }
    let not_q: Vec<bool> = (0..n as StateId).map(|v| !q(v)).collect();
    let Some((comp, components)) = sccs(graph, &not_q, progress) else {
        return Worst::Incomplete;
    };
    // Components with an inside edge that takes time.
    let timed: Vec<bool> = components
        .iter()
        .enumerate()
        .map(|(id, members)| {
            members.iter().any(|v| {
                graph
                    .out_edges(*v)
                    .any(|(_, t, a)| comp[t as usize] == id as u32 && time(a) > 0)
            })
        })
        .collect();
    let depths = graph.depths();

    // Case 2: a P state that reaches a timed loop through ¬Q states.
    if timed.iter().any(|t| *t) {
        // Backward breadth-first search from the timed components' states.
        let preds = graph.in_edges(|u, t| not_q[u as usize] && not_q[t as usize]);
        let mut dist = vec![NONE; n];
        let mut next: Vec<EdgeId> = vec![NONE; n];
        let mut queue = VecDeque::new();
        for v in 0..n {
            if not_q[v] && timed[comp[v] as usize] {
                dist[v] = 0;
                queue.push_back(v as StateId);
            }
        }
        while let Some(v) = queue.pop_front() {
            for &(u, e) in preds.of(v) {
                if dist[u as usize] == NONE {
                    dist[u as usize] = dist[v as usize] + 1;
                    next[u as usize] = e;
                    queue.push_back(u);
                }
            }
        }
        let start = p_states
            .iter()
            .copied()
            .filter(|v| dist[*v as usize] != NONE)
            .min_by_key(|v| (depths[*v as usize] as u64 + dist[*v as usize] as u64, *v));
        if let Some(s) = start {
            let mut path = stem_to(graph, s);
            let mut cur = s;
            while next[cur as usize] != NONE {
                let e = next[cur as usize];
                cur = graph.target(e);
                path.edges.push(e);
                path.nodes.push(cur);
            }
            let id = comp[cur as usize];
            // A closed walk from `cur` through the component's first edge that takes time.
            let (mut cycle, at) = walk_within(graph, &comp, id, cur, |a| time(a) > 0);
            let (back, _) = walk_to(graph, &comp, id, at, cur);
            cycle.extend(back);
            let cycle_seconds = cycle.iter().map(|e| time(graph.edge_action(*e))).sum();
            return Worst::Loop {
                stem: path,
                cycle,
                cycle_seconds,
            };
        }
    }

    // Case 3: the slowest way out of each component, successors first.
    let mut worst = vec![0 as Seconds; components.len()];
    let mut exit: Vec<EdgeId> = vec![NONE; components.len()];
    progress.step("slowest way out");
    for (id, members) in components.iter().enumerate() {
        if progress.tick(id, None).is_some() {
            return Worst::Incomplete;
        }
        let mut best: Option<(Seconds, EdgeId)> = None;
        for v in members {
            for (e, t, a) in graph.out_edges(*v) {
                let c = comp[t as usize];
                if c == id as u32 {
                    continue;
                }
                let after = if not_q[t as usize] {
                    worst[c as usize]
                } else {
                    0
                };
                let w = time(a) + after;
                if best.is_none_or(|(b, _)| w > b) {
                    best = Some((w, e));
                }
            }
        }
        // Every component here has a way out: one without would be fair, or an end, which
        // `P ~> Q` holding rules out for the components a P state reaches; the others are
        // never followed.
        if let Some((w, e)) = best {
            worst[id] = w;
            exit[id] = e;
        }
    }
    let w_of = |v: StateId| {
        if not_q[v as usize] {
            worst[comp[v as usize] as usize]
        } else {
            0
        }
    };
    let (seconds, s) = p_states
        .iter()
        .map(|v| (w_of(*v), *v))
        .min_by_key(|(w, v)| (Reverse(*w), depths[*v as usize], *v))
        .expect("there is a P state");
    // The slowest run from a state, along the maximising exits.
    let slowest_from = |s: StateId| {
        let mut path = stem_to(graph, s);
        let mut cur = s;
        while not_q[cur as usize] {
            let id = comp[cur as usize];
            let e = exit[id as usize];
            if e == NONE {
                break;
            }
            let (u, _, _) = graph.edge(e);
            let (inside, _) = walk_to(graph, &comp, id, cur, u);
            for f in inside {
                path.edges.push(f);
                path.nodes.push(graph.target(f));
            }
            cur = graph.target(e);
            path.edges.push(e);
            path.nodes.push(cur);
        }
        path
    };
    let over = deadline.filter(|t| seconds > *t).and_then(|t| {
        p_states
            .iter()
            .copied()
            .filter(|v| w_of(*v) > t)
            .min_by_key(|v| (depths[*v as usize], *v))
            .map(slowest_from)
    });
    Worst::Bounded {
        seconds,
        path: slowest_from(s),
        over,
    }
}

/// The best case of `P ~> Q`: the least time in which some run from a state where `P` has
/// just begun (an initial `P` state, or one entered from a `¬P` state) meets `Q`; `None`
/// when no such state reaches `Q`.
pub fn best_case<A, K>(
    graph: &Graph<A, K>,
    p: impl Fn(StateId) -> bool,
    q: impl Fn(StateId) -> bool,
    time: impl Fn(ActionId) -> Seconds,
) -> Option<Seconds> {
    let n = graph.state_count();
    let mut entry = vec![false; n];
    for u in 0..n as StateId {
        let pu = p(u);
        if pu && graph.is_init(u) {
            entry[u as usize] = true;
        }
        for (_, t, _) in graph.out_edges(u) {
            if !pu && p(t) {
                entry[t as usize] = true;
            }
        }
    }
    // No state where P begins: no run to time. One where Q holds too: no time at all.
    if !entry.contains(&true) {
        return None;
    }
    if (0..n as StateId).any(|v| entry[v as usize] && q(v)) {
        return Some(0);
    }
    let preds = graph.in_edges(|_, _| true);
    // Dijkstra backwards from the Q states, which settles states in the order of their
    // distance: the first state where P begins that it settles is the best case. Most edges
    // take no time: the states they reach from a state being settled at distance `d` are at
    // `d` too, the least distance still open, so they are settled at once from a stack
    // instead of going through the heap.
    let mut dist: Vec<Option<Seconds>> = vec![None; n];
    let mut settled = vec![false; n];
    let mut heap = BinaryHeap::new();
    for v in 0..n as StateId {
        if q(v) {
            dist[v as usize] = Some(0);
            heap.push(Reverse((0, v)));
        }
    }
    let mut same: Vec<StateId> = Vec::new();
    while let Some(Reverse((d, v))) = heap.pop() {
        if settled[v as usize] || dist[v as usize].is_some_and(|x| x < d) {
            continue;
        }
        same.push(v);
        while let Some(x) = same.pop() {
            if std::mem::replace(&mut settled[x as usize], true) {
                continue;
            }
            if entry[x as usize] {
                return Some(d);
            }
            for &(u, e) in preds.of(x) {
                let w = time(graph.edge_action(e));
                let nd = d + w;
                if dist[u as usize].is_none_or(|y| nd < y) {
                    dist[u as usize] = Some(nd);
                    if w == 0 {
                        same.push(u);
                    } else {
                        heap.push(Reverse((nd, u)));
                    }
                }
            }
        }
    }
    None
}

/// The breadth-first path from an initial state to `s`, with `s` as its `P` state.
fn stem_to<A, K>(graph: &Graph<A, K>, s: StateId) -> TimedPath {
    let (nodes, actions) = graph.path_to(s);
    let edges = nodes
        .windows(2)
        .zip(&actions)
        .map(|(w, a)| {
            graph
                .find_edge(w[0], w[1], *a)
                .expect("a breadth-first parent edge is an edge")
        })
        .collect();
    TimedPath {
        p_index: nodes.len() - 1,
        nodes,
        edges,
    }
}

/// The shortest walk inside component `id` from `from` that ends by taking an inside edge
/// whose action `take` accepts: its edges and end state.
fn walk_within<A, K>(
    graph: &Graph<A, K>,
    comp: &[u32],
    id: u32,
    from: StateId,
    take: impl Fn(ActionId) -> bool,
) -> (Vec<EdgeId>, StateId) {
    let mut parent: HashMap<StateId, EdgeId> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(u) = queue.pop_front() {
        for (e, t, a) in graph.out_edges(u) {
            if comp[t as usize] != id {
                continue;
            }
            if take(a) {
                let mut path = unwind(graph, &parent, from, u);
                path.push(e);
                return (path, t);
            }
            if t != from && !parent.contains_key(&t) {
                parent.insert(t, e);
                queue.push_back(t);
            }
        }
    }
    unreachable!("a timed component has an inside edge that takes time, reachable inside it")
}

/// The shortest walk inside component `id` from `from` to `to`.
fn walk_to<A, K>(
    graph: &Graph<A, K>,
    comp: &[u32],
    id: u32,
    from: StateId,
    to: StateId,
) -> (Vec<EdgeId>, StateId) {
    if from == to {
        return (Vec::new(), to);
    }
    let mut parent: HashMap<StateId, EdgeId> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(u) = queue.pop_front() {
        for (e, t, _) in graph.out_edges(u) {
            if comp[t as usize] != id || t == from || parent.contains_key(&t) {
                continue;
            }
            parent.insert(t, e);
            if t == to {
                return (unwind(graph, &parent, from, t), t);
            }
            queue.push_back(t);
        }
    }
    unreachable!("a strongly connected component holds a path between any two of its states")
}

fn unwind<A, K>(
    graph: &Graph<A, K>,
    parent: &HashMap<StateId, EdgeId>,
    from: StateId,
    mut v: StateId,
) -> Vec<EdgeId> {
    let mut path = Vec::new();
    while v != from {
        let e = parent[&v];
        path.push(e);
        v = graph.edge(e).0;
    }
    path.reverse();
    path
}
