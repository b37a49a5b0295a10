//! The one exploration: breadth-first numbering, first findings (shortest, the same on every
//! run), step probes, bounds, and replay that rejects what the model does not do.

use podcheck_input::catalogue;

use podcheck_model::{Action, Cluster, State, Verdict};
use podcheck_properties::explore::{explore, replay, ExploreOptions, Finding, Probe};
use podcheck_properties::{check_with, CheckOptions, Kind, PropertyDef, Steps};
use stateright::Model;

/// A grid walk: from (0, 0), step right or up, up to (n, n). Shortest paths are unique in
/// length, not in shape: the first one found follows the action order (right first).
struct Grid {
    n: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Go {
    Right,
    Up,
    /// Jump two to the right (only on the bottom row).
    Jump,
}

impl Model for Grid {
    type State = (u8, u8);
    type Action = Go;
    fn init_states(&self) -> Vec<(u8, u8)> {
        vec![(0, 0)]
    }
    fn actions(&self, s: &(u8, u8), out: &mut Vec<Go>) {
        if s.0 < self.n {
            out.push(Go::Right);
        }
        if s.1 < self.n {
            out.push(Go::Up);
        }
        if s.1 == 0 && s.0 + 2 <= self.n {
            out.push(Go::Jump);
        }
    }
    fn next_state(&self, s: &(u8, u8), a: Go) -> Option<(u8, u8)> {
        Some(match a {
            Go::Right => (s.0 + 1, s.1),
            Go::Up => (s.0, s.1 + 1),
            Go::Jump => (s.0 + 2, s.1),
        })
    }
}

fn no_actor(_: &Go) -> Option<u8> {
    None
}

#[test]
fn first_findings_are_shortest_and_deterministic() {
    let m = Grid { n: 4 };
    let probes = || {
        vec![
            Probe::FirstState(
                Box::new(|s: &(u8, u8)| *s == (2, 2)) as Box<dyn Fn(&_) -> bool + Sync>
            ),
            Probe::FirstState(Box::new(|s: &(u8, u8)| s.0 == 9)),
            Probe::EveryState(Box::new(|s: &(u8, u8)| s.0 == s.1)),
            // A step that jumps: the first is from (0, 0).
            Probe::FirstStep(Box::new(|_: &(u8, u8), a: &Go, _: &(u8, u8)| {
                *a == Go::Jump
            })),
            // A step that ends on the diagonal above (1, 1).
            Probe::FirstStep(Box::new(|_: &(u8, u8), _: &Go, n: &(u8, u8)| {
                n.0 == n.1 && n.0 > 1
            })),
        ]
    };
    let (g, f) = explore(&m, no_actor, &probes(), &ExploreOptions::default());
    assert!(g.is_complete());
    assert_eq!(g.state_count(), 25);
    let Finding::State(Some(v)) = f[0] else {
        panic!("{:?}", f[0])
    };
    // The jump makes it 3 steps; among the shortest runs, the first in breadth-first order.
    assert_eq!(g.depth(v), 3);
    assert_eq!(g.run_to(v).actions, [Go::Jump, Go::Up, Go::Up]);
    // (2, 2) is reached from (2, 1); (1, 2) would do too but comes later.
    assert_eq!(
        g.parent(v).map(|(p, a)| (p, *a)),
        Some((g.node(&(2, 1)).unwrap(), Go::Up))
    );
    assert_eq!(f[1], Finding::State(None));
    let Finding::Bits(diag) = &f[2] else { panic!() };
    assert_eq!(diag.len(), 25);
    let rebuilt = g.rebuild_states(&m).unwrap();
    for (i, s) in rebuilt.iter().enumerate() {
        assert_eq!(diag.get(i), s.0 == s.1, "{s:?}");
    }
    assert_eq!(
        f[3],
        Finding::Step(Some((0, g.action_id(&Go::Jump).unwrap())))
    );
    let Finding::Step(Some((u, a))) = f[4] else {
        panic!("{:?}", f[4])
    };
    // The least depth at which a step can end on (2, 2) is 3 (Jump, Up, Up); its source is
    // at depth 2.
    assert_eq!(g.depth(u), 2);
    let mut run = g.run_to(u);
    run.actions.push(*g.action(a));
    assert_eq!(run.states(&m).unwrap().last(), Some(&(2, 2)));

    // The same on every run.
    let (g2, f2) = explore(&m, no_actor, &probes(), &ExploreOptions::default());
    assert_eq!(f, f2);
    for v in 0..g.state_count() as u32 {
        assert_eq!(g.fingerprint(v), g2.fingerprint(v));
        assert!(g.out_edges(v).eq(g2.out_edges(v)));
    }
}

#[test]
fn a_bound_makes_the_graph_incomplete_and_keeps_real_findings() {
    let m = Grid { n: 4 };
    for bound in [0, 1, 5, 24] {
        let opts = ExploreOptions {
            max_states: Some(bound),
            ..ExploreOptions::default()
        };
        let (g, _) = explore(&m, no_actor, &[], &opts);
        assert!(!g.is_complete(), "{bound}");
        assert!(g.state_count() <= bound);
        // The edges it has are model edges, and every state it has is reached.
        let states = g.rebuild_states(&m).unwrap();
        assert_eq!(states.len(), g.state_count());
        for u in 0..g.state_count() as u32 {
            for (_, t, a) in g.out_edges(u) {
                let next = m.next_state(&states[u as usize], *g.action(a)).unwrap();
                assert_eq!(next, states[t as usize]);
            }
        }
    }
    let opts = ExploreOptions {
        max_states: Some(25),
        ..ExploreOptions::default()
    };
    assert!(explore(&m, no_actor, &[], &opts).0.is_complete());
}

#[test]
fn replay_rejects_what_the_model_does_not_do() {
    let m = Grid { n: 2 };
    let ok = replay(&m, 0, &[Go::Right, Go::Up], |_, _| true).unwrap();
    assert_eq!(ok, [(0, 0), (1, 0), (1, 1)]);
    // Not enabled: a jump off the bottom row.
    let e = replay(&m, 0, &[Go::Up, Go::Jump], |_, _| true).unwrap_err();
    assert!(e.contains("step 2") && e.contains("not enabled"), "{e}");
    // Off the grid.
    assert!(replay(&m, 0, &[Go::Right, Go::Right, Go::Right], |_, _| true).is_err());
    // Not the recorded state.
    let recorded = [(0, 0), (0, 1)];
    let e = replay(&m, 0, &[Go::Right], |i, s| recorded[i] == *s).unwrap_err();
    assert!(e.contains("recorded"), "{e}");
    // No such initial state.
    assert!(replay(&m, 1, &[], |_, _| true).is_err());
    // A graph path replays against its fingerprints; another path's states do not.
    let (g, _) = explore(&m, no_actor, &[], &ExploreOptions::default());
    let last = g.node(&(2, 2)).unwrap();
    let (nodes, actions) = g.path_to(last);
    assert_eq!(
        g.replay(&m, &nodes, &actions).unwrap().last(),
        Some(&(2, 2))
    );
    let mut wrong = nodes.clone();
    wrong[1] = g.node(&(0, 1)).unwrap();
    assert!(g.replay(&m, &wrong, &actions).is_err());
}

// ---------------------------------------------------------------------------------------------
// Step properties on the cluster model.

/// The clock advances only when no component has anything to do (component actions are
/// urgent).
fn tick_only_when_idle(m: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    let mut urgent = Vec::new();
    m.urgent_actions(s, &mut urgent);
    !matches!(a, Action::Tick(_)) || urgent.is_empty()
}

/// No kubelet step starts a container (false in any scenario where a pod runs).
fn no_container_start(_: &Cluster, s: &State, _: &Action, n: &State) -> bool {
    let running = |s: &State| {
        s.nodes
            .iter()
            .flat_map(|n| &n.pods)
            .filter(|p| p.any_running())
            .count()
    };
    running(n) <= running(s)
}

#[test]
fn step_properties_are_judged_on_every_transition() {
    let healthy = catalogue::find("healthy").unwrap();
    let defs = [
        PropertyDef {
            name: "tick_only_when_idle",
            kind: Kind::Step {
                condition: tick_only_when_idle,
                on: Steps::Every,
            },
            sentence: "Time passes only when no component has work.",
            source: "test",
            layer: "model",
            premise: None,
        },
        PropertyDef {
            name: "no_container_start",
            kind: Kind::Step {
                condition: no_container_start,
                on: Steps::Every,
            },
            sentence: "No step starts a container.",
            source: "test",
            layer: "runtime",
            premise: None,
        },
    ];
    let r = check_with(&healthy, &defs, &CheckOptions::default()).unwrap();
    assert!(r.complete);
    assert_eq!(r.properties[0].verdict, Verdict::Holds);
    assert!(r.properties[0].trace.is_none());
    let p = &r.properties[1];
    assert_eq!(p.verdict, Verdict::Violated);
    assert_eq!(p.def.kind.as_str(), "step");
    // The trace ends with the step that breaks it, and replays.
    let m = podcheck_properties::check::model(&healthy, &[], false);
    let run = p.trace.as_ref().unwrap();
    let states = run.states(&m).unwrap();
    let n = states.len();
    assert!(!no_container_start(
        &m,
        &states[n - 2],
        run.actions.last().unwrap(),
        &states[n - 1]
    ));
    // No earlier step of it breaks it (it is a shortest one).
    for i in 0..n - 2 {
        assert!(no_container_start(
            &m,
            &states[i],
            &run.actions[i],
            &states[i + 1]
        ));
    }
    // A bounded run that finds no violation says incomplete, never holds.
    let bounded = CheckOptions {
        max_states: Some(5),
        ..CheckOptions::default()
    };
    let r = check_with(&healthy, &defs[..1], &bounded).unwrap();
    assert!(!r.complete);
    assert_eq!(r.properties[0].verdict, Verdict::Incomplete);
}

#[test]
fn check_with_refuses_two_properties_of_one_name() {
    let healthy = catalogue::find("healthy").unwrap();
    let d = PropertyDef {
        name: "twice",
        kind: Kind::Step {
            condition: tick_only_when_idle,
            on: Steps::Every,
        },
        sentence: "",
        source: "test",
        layer: "model",
        premise: None,
    };
    assert!(check_with(&healthy, &[d, d], &CheckOptions::default()).is_err());
}

/// `pod_terminating_on_unreachable_node` reads "kubectl shows Terminating" from the pod's
/// fields (deletionTimestamp set, phase not terminal); in every reachable state of the
/// partition scenarios, that is exactly what printPod prints.
#[test]
fn terminating_from_fields_is_what_kubectl_prints() {
    for name in [
        "deployment-partition",
        "statefulset-partition",
        "sigterm-ignored",
    ] {
        let s = catalogue::find(name).unwrap();
        let m = podcheck_properties::check::model(&s, &[], false);
        let (g, _) = explore(
            &m,
            podcheck_properties::check::fair_actor,
            &[],
            &ExploreOptions::default(),
        );
        let mut terminating = 0;
        for state in g.rebuild_states(&m).unwrap() {
            for p in &state.api.pods {
                let printed = podcheck_model::kubectl::print(&m, p).status == "Terminating";
                let fields = p.deletion.is_some() && !p.status.phase.is_terminal();
                assert_eq!(printed, fields, "{name}: {p:?}");
                terminating += usize::from(printed);
            }
        }
        assert!(terminating > 0, "{name} has a Terminating pod");
    }
}

#[test]
fn a_trace_neighbourhood_is_its_states_and_the_edges_among_them() {
    let m = Grid { n: 3 };
    let (g, _) = explore(&m, no_actor, &[], &ExploreOptions::default());
    let end = g.node(&(1, 1)).unwrap();
    let (path, _) = g.path_to(end);
    let (states, edges) = g.neighbourhood(&path, 0);
    assert_eq!(states, {
        let mut p = path.clone();
        p.sort();
        p
    });
    for e in &edges {
        let (u, v, _) = g.edge(*e);
        assert!(states.contains(&u) && states.contains(&v));
    }
    assert_eq!(edges.len(), path.len() - 1);
    // One step out: every neighbour, forward or backward.
    let (near, _) = g.neighbourhood(&[end], 1);
    let mut want = vec![end, g.node(&(2, 1)).unwrap(), g.node(&(1, 2)).unwrap()];
    want.extend([g.node(&(0, 1)).unwrap(), g.node(&(1, 0)).unwrap()]);
    want.sort();
    assert_eq!(near, want);
    // Unbounded: the whole graph.
    let (all, all_edges) = g.neighbourhood(&path, usize::MAX);
    assert_eq!(all.len(), g.state_count());
    assert_eq!(all_edges.len(), g.edge_count());
}

/// The step judges read the transition they are given: `terminal_phase_is_final` accepts
/// every real step of `job-never` from a state with a Failed pod, and rejects the same step
/// with the pod's phase turned back to Running in the next state.
#[test]
fn a_step_judge_rejects_a_step_that_leaves_a_terminal_phase() {
    use podcheck_model::k8s::Phase;
    let s = catalogue::find("job-never").unwrap();
    let m = podcheck_properties::check::model(&s, &[], false);
    let Kind::Step {
        condition: judge, ..
    } = podcheck_properties::catalogue::find("terminal_phase_is_final")
        .unwrap()
        .kind
    else {
        panic!("terminal_phase_is_final is a step property")
    };
    let (g, _) = explore(
        &m,
        podcheck_properties::check::fair_actor,
        &[],
        &ExploreOptions::default(),
    );
    let mut judged = 0;
    for state in g.rebuild_states(&m).unwrap() {
        let Some(failed) = state
            .api
            .pods
            .iter()
            .find(|p| p.status.phase == Phase::Failed)
            .map(|p| p.uid)
        else {
            continue;
        };
        for (a, next) in m.next_steps(&state) {
            assert!(judge(&m, &state, &a, &next), "{a:?}");
            if let Some(mut forged) = next.pod(failed).is_some().then(|| next.clone()) {
                forged.pod_mut(failed).unwrap().status.phase = Phase::Running;
                assert!(!judge(&m, &state, &a, &forged), "{a:?}");
                judged += 1;
            }
        }
    }
    assert!(judged > 0);
}

/// Everything a graph says, in number order: fingerprints, parents, edges, enabled actors.
fn graph_dump<A: Clone + std::fmt::Debug, K: Copy + Ord + std::fmt::Debug>(
    g: &podcheck_properties::explore::Graph<A, K>,
) -> Vec<String> {
    (0..g.state_count() as u32)
        .map(|n| {
            let edges: Vec<(u32, String)> = g
                .out_edges(n)
                .map(|(_, t, a)| (t, format!("{:?}", g.action(a))))
                .collect();
            format!(
                "{n} {:x} {:?} {} {:?} {:?}",
                g.fingerprint(n),
                g.parent(n).map(|(p, a)| (p, format!("{a:?}"))),
                g.is_expanded(n),
                edges,
                g.enabled(n)
            )
        })
        .collect()
}

#[test]
fn any_number_of_threads_gives_the_same_graph_and_findings() {
    // Scenarios with state, step and every-state probes, and bounds that stop the search in
    // the middle of a chunk and in the middle of a state's successors.
    for (name, bound) in [
        ("termination-race", None),
        ("termination-race", Some(777)),
        ("termination-race", Some(20_000)),
        ("crash-loop", None),
        ("statefulset-partition", None),
        ("job-never", Some(50)),
    ] {
        let scenario = catalogue::find(name).unwrap();
        let m = Cluster::new(scenario, Vec::new());
        let probes = || {
            vec![
                Probe::FirstState(Box::new(|s: &State| {
                    s.api.pods.iter().any(|p| p.deletion.is_some())
                }) as Box<dyn Fn(&State) -> bool + Sync>),
                Probe::EveryState(Box::new(|s: &State| s.api.endpoints.len() > 1)),
                Probe::FirstStep(Box::new(|_: &State, a: &Action, _: &State| {
                    matches!(a, Action::Tick(_))
                })),
                Probe::FirstState(Box::new(|_: &State| false)),
            ]
        };
        let run = |threads| {
            let opts = ExploreOptions {
                max_states: bound,
                threads,
                ..ExploreOptions::default()
            };
            let (g, f) = explore(&m, podcheck_properties::check::fair_actor, &probes(), &opts);
            (graph_dump(&g), g.is_complete(), g.generated_count(), f)
        };
        let one = run(1);
        assert!(one.0.len() > 10, "{name}: too small to show anything");
        for threads in [2, 3] {
            let other = run(threads);
            assert_eq!(
                one.1, other.1,
                "{name} {bound:?}: completeness, {threads} threads"
            );
            assert_eq!(
                one.2, other.2,
                "{name} {bound:?}: generated, {threads} threads"
            );
            assert_eq!(
                one.3, other.3,
                "{name} {bound:?}: findings, {threads} threads"
            );
            assert!(
                one.0 == other.0,
                "{name} {bound:?}: graph differs at {threads} threads"
            );
        }
    }
}

#[test]
fn check_with_threads_gives_the_same_verdicts_and_traces() {
    for name in [
        "termination-race",
        "deployment-partition",
        "job-never",
        "deadlock",
    ] {
        let scenario = catalogue::find(name).unwrap();
        let run = |threads| {
            let opts = CheckOptions {
                threads,
                ..CheckOptions::default()
            };
            let r = podcheck_properties::check(&scenario, &opts).unwrap();
            let props: Vec<String> = r
                .properties
                .iter()
                .map(|p| format!("{} {:?} {:?}", p.def.name, p.verdict, p.actions()))
                .collect();
            (r.unique_states, props)
        };
        assert_eq!(run(1), run(2), "{name}");
    }
}
