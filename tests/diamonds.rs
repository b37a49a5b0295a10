//! Diamonds (`podcheck_properties::explore::Commute`) and steps that lead back to their
//! state (`podcheck_properties::explore::Stays`: a client's request) change nothing but the
//! work: a successor named by a diamond of two independent steps, or taken as the state
//! being expanded, instead of being made, is the same edge to the same state. Every
//! built-in scenario, and every scenario the fault plans make of the example manifests,
//! checked with and without them gives the same graph, state by state and edge by edge,
//! the same verdicts and the same traces (random scenarios: `tests/random_scenarios.rs`).

use podcheck_input::catalogue;
use podcheck_model::Scenario;
use podcheck_properties::check::{self, CheckOptions, ClusterGraph, ScenarioResult};

/// Runs above this are left out (a debug build would take minutes).
const BOUND: usize = 300_000;

/// With `shortcuts`, diamonds and self-loops taken without making the successor; without,
/// every successor made.
fn run(s: &Scenario, keep_graph: bool, shortcuts: bool) -> ScenarioResult {
    let opts = CheckOptions {
        max_states: Some(BOUND),
        keep_graph,
        diamonds: shortcuts,
        self_loops: shortcuts,
        ..CheckOptions::default()
    };
    check::check(s, &opts).expect("the scenario checks")
}

/// The two graphs are the same: numbering, fingerprints, parents, edges and their actions.
fn same_graph(name: &str, on: &ClusterGraph, off: &ClusterGraph) {
    assert_eq!(on.state_count(), off.state_count(), "{name}: states");
    assert_eq!(on.edge_count(), off.edge_count(), "{name}: edges");
    assert_eq!(on.generated_count(), off.generated_count(), "{name}");
    for n in 0..on.state_count() as u32 {
        assert_eq!(on.fingerprint(n), off.fingerprint(n), "{name}: state {n}");
        assert_eq!(on.parent(n), off.parent(n), "{name}: parent of {n}");
        let edges = |g: &ClusterGraph| -> Vec<_> {
            g.out_edges(n).map(|(_, t, a)| (t, *g.action(a))).collect()
        };
        assert_eq!(edges(on), edges(off), "{name}: edges of {n}");
    }
}

/// The same verdicts, counts and traces.
fn same_findings(name: &str, on: &ScenarioResult, off: &ScenarioResult) {
    assert_eq!(on.complete, off.complete, "{name}");
    assert_eq!(on.unique_states, off.unique_states, "{name}");
    assert_eq!(on.generated_states, off.generated_states, "{name}");
    assert_eq!(on.edges, off.edges, "{name}");
    assert_eq!(on.symmetry, off.symmetry, "{name}");
    for (a, b) in on.properties.iter().zip(&off.properties) {
        assert_eq!(a.verdict, b.verdict, "{name}: {}", a.def.name);
        assert_eq!(a.actions(), b.actions(), "{name}: trace of {}", a.def.name);
    }
}

#[test]
fn every_built_in_scenario_has_the_same_graph_with_and_without_diamonds() {
    let (mut compared, mut closed, mut loops) = (0, 0, 0);
    for s in catalogue::builtin() {
        let on = run(&s, true, true);
        if !on.complete {
            continue;
        }
        let off = run(&s, true, false);
        let (g_on, g_off) = (on.graph.as_ref().unwrap(), off.graph.as_ref().unwrap());
        same_graph(&s.name, g_on, g_off);
        same_findings(&s.name, &on, &off);
        assert_eq!(g_off.diamond_count(), 0, "{}", s.name);
        assert_eq!(g_off.loop_count(), 0, "{}", s.name);
        compared += 1;
        closed += g_on.diamond_count();
        loops += g_on.loop_count();
    }
    // Not vacuous: most of the catalogue fits the bound, and diamonds close there; the
    // scenarios with clients have requests.
    assert!(compared >= 60, "only {compared} scenarios compared");
    assert!(
        closed > 100_000,
        "only {closed} successors named by diamonds"
    );
    assert!(loops > 10_000, "only {loops} requests taken as self-loops");
    eprintln!("{compared} compared, {closed} successors named by diamonds, {loops} self-loops");
}

#[test]
fn the_quotients_by_symmetry_are_the_same_with_and_without_diamonds() {
    // With interchangeable nodes and pods, the state the graph keeps of a class may be
    // another one than the successor found: a diamond must not be closed through it.
    let mut compared = 0;
    for (name, nodes, replicas) in [
        ("termination-race", 3, 2),
        ("deployment-partition", 3, 2),
        ("statefulset-partition-clusterip", 3, 1),
        ("crash-loop", 3, 2),
        ("scale-down", 3, 3),
        ("node-shutdown", 3, 1),
    ] {
        let mut s = catalogue::find(name).unwrap();
        s.resize(Some(nodes), Some(replicas)).unwrap();
        let on = run(&s, false, true);
        if !on.complete {
            continue;
        }
        if on.symmetry.is_empty() {
            continue;
        }
        let off = run(&s, false, false);
        same_findings(name, &on, &off);
        compared += 1;
    }
    assert!(compared >= 4, "only {compared} reduced and compared");
}

#[test]
fn every_example_manifest_under_every_plan_has_the_same_graph_with_and_without_diamonds() {
    // Users' manifests become scenarios the catalogue does not have (their probes, grace
    // periods, budgets and faults): each example application, both variants, under every
    // fault plan that applies to it, without its annotations' choice of plans.
    use podcheck_input::manifest;
    use podcheck_input::plan::plan_scenarios;
    use podcheck_input::spec::Plan;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/manifests");
    let (mut compared, mut closed, mut loops) = (0, 0, 0);
    let mut folders: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .flat_map(|p| [p.join("unsafe"), p.join("fixed")])
        .collect();
    folders.sort();
    for folder in folders {
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        let sources: Vec<(String, String)> = files
            .iter()
            .map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap()))
            .collect();
        let base = manifest::read(&sources)
            .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
            .scenario;
        for s in
            plan_scenarios(&base, &Plan::ALL, &podcheck_model::cluster::first_pod_nodes).scenarios
        {
            let on = run(&s, true, true);
            if !on.complete {
                continue;
            }
            let off = run(&s, true, false);
            same_graph(
                &s.name,
                on.graph.as_ref().unwrap(),
                off.graph.as_ref().unwrap(),
            );
            same_findings(&s.name, &on, &off);
            compared += 1;
            closed += on.graph.as_ref().unwrap().diamond_count();
            loops += on.graph.as_ref().unwrap().loop_count();
        }
    }
    assert!(compared >= 30, "only {compared} compared");
    assert!(
        closed > 10_000,
        "only {closed} successors named by diamonds"
    );
    assert!(loops > 10_000, "only {loops} requests taken as self-loops");
    eprintln!("{compared} plan scenarios compared, {closed} successors named by diamonds, {loops} self-loops");
}
