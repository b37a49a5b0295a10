//! What DOT draws ([`drawing`]) is the same from the check's own graph
//! (`CheckOptions::keep_graph`, as `podcheck trace --format dot` keeps it) and from the graph
//! explored for drawing ([`drawing::graph_to_draw`], up to `DOT_STATE_LIMIT` states): the
//! whole graph of a small scenario, and the trace's neighbourhood in a larger one, whose
//! actions come from the check's graph where it has the state.

use podcheck_input::catalogue;
use podcheck_properties::check::{self, CheckOptions};
use podcheck_properties::drawing::{self, DOT_STATE_LIMIT};
use podcheck_properties::replay;

fn same_drawing(scenario: &str, whole: bool) {
    let s = catalogue::find(scenario).unwrap();
    let opts = CheckOptions {
        keep_graph: true,
        ..CheckOptions::default()
    };
    let r = check::check(&s, &opts).unwrap();
    assert_eq!(r.unique_states <= DOT_STATE_LIMIT, whole, "{scenario}");
    let graph = r.graph.as_deref().expect("the graph is kept");
    let m = check::model(&s, &[], false);
    let explored = drawing::graph_to_draw(&m);
    let mut drawn = 0;
    for p in &r.properties {
        let Some(shown) = p.shown() else { continue };
        let states = replay(&m, 0, shown.actions, |_, _| true).unwrap();
        let from_check = drawing::drawing(&m, graph, &states).unwrap();
        let from_explored = drawing::drawing(&m, &explored, &states).unwrap();
        let at = format!("{scenario}/{}", p.def.name);
        assert_eq!(from_check.whole, whole, "{at}");
        assert_eq!(from_explored.whole, whole, "{at}");
        assert_eq!(from_check.states, from_explored.states, "{at}");
        assert_eq!(from_check.edges, from_explored.edges, "{at}");
        // Every state of the trace is drawn, and every step of it.
        for (w, a) in states.windows(2).zip(shown.actions) {
            let at_of = |s| from_check.states.iter().position(|x| x == s).unwrap();
            let step = (at_of(&w[0]), *a, at_of(&w[1]));
            assert!(from_check.edges.contains(&step), "{at}: {a:?}");
        }
        drawn += 1;
    }
    assert!(drawn > 0, "{scenario}: no trace to draw");
}

#[test]
fn a_small_scenario_is_drawn_whole_from_either_graph() {
    same_drawing("crash-loop", true);
}

#[test]
fn a_large_scenario_is_drawn_as_the_neighbourhood_from_either_graph() {
    same_drawing("drain-respects-budget", false);
}
