//! Worst and best times of `P ~> Q` on small hand-built graphs with known answers
//! (`podcheck_properties::timing`).

use podcheck_properties::explore::{explore, ExploreOptions, Finding, Graph, Probe};
use podcheck_properties::liveness::Ends;
use podcheck_properties::progress::Progress;
use podcheck_properties::timing::{best_case, worst_case, Seconds, Worst};
use stateright::Model;

/// An edge: from, to, seconds, actor (`None`: the unfair environment).
type Edge = (u8, u8, Seconds, Option<u8>);

/// A model that is its table of edges; an action is an edge's index.
struct Table {
    edges: Vec<Edge>,
    p: Vec<u8>,
    q: Vec<u8>,
}

impl Model for Table {
    type State = u8;
    type Action = usize;

    fn init_states(&self) -> Vec<u8> {
        vec![0]
    }

    fn actions(&self, s: &u8, out: &mut Vec<usize>) {
        out.extend((0..self.edges.len()).filter(|i| self.edges[*i].0 == *s));
    }

    fn next_state(&self, _: &u8, a: usize) -> Option<u8> {
        Some(self.edges[a].1)
    }
}

struct Judged {
    graph: Graph<usize, u8>,
    p: Vec<bool>,
    q: Vec<bool>,
}

fn judge(t: &Table) -> Judged {
    let probes = [
        Probe::EveryState(Box::new(|s: &u8| t.p.contains(s)) as Box<dyn Fn(&u8) -> bool + Sync>),
        Probe::EveryState(Box::new(|s: &u8| t.q.contains(s))),
    ];
    let (graph, findings) = explore(
        t,
        |a: &usize| t.edges[*a].3,
        &probes,
        &ExploreOptions::default(),
    );
    let [Finding::Bits(p), Finding::Bits(q)] = &findings[..] else {
        panic!("two state probes give two bit sets")
    };
    let n = graph.state_count();
    Judged {
        p: (0..n).map(|i| p.get(i)).collect(),
        q: (0..n).map(|i| q.get(i)).collect(),
        graph,
    }
}

fn worst(t: &Table, deadline: Option<Seconds>) -> (Judged, Worst<usize>) {
    let j = judge(t);
    let w = worst_case(
        &j.graph,
        |v| j.p[v as usize],
        |v| j.q[v as usize],
        |a| t.edges[*j.graph.action(a)].2,
        deadline,
        Ends::Quiescence,
        &mut Progress::silent(),
    );
    (j, w)
}

fn best(t: &Table) -> Option<Seconds> {
    let j = judge(t);
    best_case(
        &j.graph,
        |v| j.p[v as usize],
        |v| j.q[v as usize],
        |a| t.edges[*j.graph.action(a)].2,
    )
}

/// The original state labels along a path of the graph.
fn labels(t: &Table, j: &Judged, edges: &[u32]) -> Vec<u8> {
    let mut out = vec![0];
    out.extend(
        edges
            .iter()
            .map(|e| t.edges[*j.graph.action(j.graph.edge_action(*e))].1),
    );
    out
}

const W: Option<u8> = Some(1);
const C: Option<u8> = Some(2);

#[test]
fn a_chain_takes_the_sum_of_its_ticks() {
    let t = Table {
        edges: vec![(0, 1, 5, C), (1, 2, 0, W), (2, 3, 3, C)],
        p: vec![0],
        q: vec![3],
    };
    let (j, w) = worst(&t, None);
    let Worst::Bounded {
        seconds,
        path,
        over,
    } = w
    else {
        panic!("bounded: {w:?}")
    };
    assert_eq!(seconds, 8);
    assert_eq!(labels(&t, &j, &path.edges), vec![0, 1, 2, 3]);
    assert_eq!(path.p_index, 0);
    assert_eq!(over, None);
    assert_eq!(best(&t), Some(8));
}

#[test]
fn the_slowest_branch_is_the_worst_and_the_fastest_the_best() {
    // Two fair actors race: one way takes 2 s, the other 7 s.
    let t = Table {
        edges: vec![(0, 1, 2, C), (1, 3, 0, W), (0, 2, 7, W), (2, 3, 0, C)],
        p: vec![0],
        q: vec![3],
    };
    let (j, w) = worst(&t, Some(5));
    let Worst::Bounded {
        seconds,
        path,
        over,
    } = w
    else {
        panic!("bounded: {w:?}")
    };
    assert_eq!(seconds, 7);
    assert_eq!(labels(&t, &j, &path.edges), vec![0, 2, 3]);
    // The deadline of 5 s is passed from the same P state.
    assert_eq!(over.map(|o| labels(&t, &j, &o.edges)), Some(vec![0, 2, 3]));
    assert_eq!(best(&t), Some(2));
}

#[test]
fn the_best_case_follows_zero_time_steps_past_a_slower_timed_one() {
    // From 0: 3 s by way of 1, 5 s straight to 4, or 1 s to 2 and then zero-time steps (with
    // a zero-time loop 2 <-> 3) to 4, which is 1 s from Q: the best is 2 s.
    let t = Table {
        edges: vec![
            (0, 1, 0, W),
            (1, 5, 3, C),
            (0, 4, 5, C),
            (0, 2, 1, C),
            (2, 3, 0, W),
            (3, 2, 0, W),
            (3, 4, 0, W),
            (4, 5, 1, C),
        ],
        p: vec![0],
        q: vec![5],
    };
    assert_eq!(best(&t), Some(2));
    // With P at 3 only (entered from 2): 1 s.
    let t = Table { p: vec![3], ..t };
    assert_eq!(best(&t), Some(1));
}

#[test]
fn a_zero_time_loop_of_the_environment_costs_nothing() {
    // The environment may flip 0 <-> 1 as often as it likes, without time passing; the fair
    // worker leaves for Q in 4 s from either.
    let t = Table {
        edges: vec![(0, 1, 0, None), (1, 0, 0, None), (0, 2, 4, W), (1, 2, 4, W)],
        p: vec![0],
        q: vec![2],
    };
    let (_, w) = worst(&t, None);
    assert_eq!(w.seconds(), Some(4));
}

#[test]
fn a_loop_that_takes_time_has_no_bound_even_when_every_fair_run_reaches_q() {
    // The environment can keep time passing in state 1 (1 s a round) while the worker, who
    // is enabled throughout, would end it: no fair run avoids Q, but no bound holds either.
    let t = Table {
        edges: vec![(0, 1, 0, W), (1, 1, 1, None), (1, 2, 0, W)],
        p: vec![0],
        q: vec![2],
    };
    let (j, w) = worst(&t, Some(10));
    let Worst::Loop {
        stem,
        cycle,
        cycle_seconds,
    } = w
    else {
        panic!("a loop: {w:?}")
    };
    assert_eq!(labels(&t, &j, &stem.edges), vec![0, 1]);
    assert_eq!(cycle.len(), 1);
    assert_eq!(cycle_seconds, 1);
}

#[test]
fn a_fair_run_that_never_reaches_q_is_the_leads_to_lasso() {
    // The clock ticks for ever in state 1 and nothing else is enabled there.
    let t = Table {
        edges: vec![(0, 1, 0, W), (1, 1, 10, C), (0, 2, 0, W)],
        p: vec![0],
        q: vec![2],
    };
    let (_, w) = worst(&t, None);
    assert!(matches!(w, Worst::Never(_)), "{w:?}");
    assert!(w.is_unbounded());
}

#[test]
fn a_run_that_may_stop_without_q_has_no_bound() {
    // In state 1 only the environment can act: the run may stop there (quiescence).
    let t = Table {
        edges: vec![(0, 1, 3, C), (1, 2, 0, None)],
        p: vec![0],
        q: vec![2],
    };
    let (_, w) = worst(&t, None);
    assert!(matches!(w, Worst::Never(_)), "{w:?}");
}

#[test]
fn no_p_state_is_no_premise() {
    let t = Table {
        edges: vec![(0, 1, 3, C)],
        p: vec![7],
        q: vec![1],
    };
    let (_, w) = worst(&t, None);
    assert_eq!(w, Worst::NoPremise);
    assert_eq!(best(&t), None);
}

#[test]
fn the_worst_case_is_measured_from_the_worst_p_state_and_the_counterexample_from_the_shallowest() {
    // P holds in 1 and in 3. From 1, Q comes after 2 s or, via 3, after 9 + 0 s; from 3 after
    // 9 s. With a deadline of 5 s, 1 is the shallowest P state that can pass it.
    let t = Table {
        edges: vec![(0, 1, 0, W), (1, 4, 2, C), (1, 3, 0, W), (3, 4, 9, C)],
        p: vec![1, 3],
        q: vec![4],
    };
    let (j, w) = worst(&t, Some(5));
    let Worst::Bounded {
        seconds,
        path,
        over,
    } = w
    else {
        panic!("bounded: {w:?}")
    };
    assert_eq!(seconds, 9);
    // The worst P state is 1 (9 s, as 3), the shallower one.
    assert_eq!(labels(&t, &j, &path.edges[..path.p_index]), vec![0, 1]);
    assert_eq!(labels(&t, &j, &path.edges), vec![0, 1, 3, 4]);
    let over = over.expect("the deadline is passed");
    assert_eq!(over.p_index, 1);
    // Best case: P begins in 1 (entered from 0); from there Q after 2 s.
    assert_eq!(best(&t), Some(2));
}

#[test]
fn p_with_q_already_is_zero() {
    let t = Table {
        edges: vec![(0, 1, 5, C)],
        p: vec![0],
        q: vec![0, 1],
    };
    let (_, w) = worst(&t, None);
    assert_eq!(w.seconds(), Some(0));
    assert_eq!(best(&t), Some(0));
}
