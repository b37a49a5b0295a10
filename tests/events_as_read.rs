//! Telling states apart by what is read of the pods' events (`podcheck_model::events::Events`,
//! `CheckOptions::events_as_read`) changes no verdict, no vacuity, no trace length and no
//! time: every built-in scenario at its own size and at 3 nodes × 2 replicas, and every plan
//! scenario of the example manifests, checked with the whole event lists in the states'
//! identity and with only what is read of them. A trace still shows every event of its run.

use podcheck_input::catalogue;
use podcheck_input::manifest;
use podcheck_input::plan::{plan_scenarios_for, Plan};
use podcheck_input::spec::Scenario;
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};
use std::path::Path;

mod common;

/// Runs above this are skipped (they would take minutes in a test build).
const BOUND: usize = 400_000;

fn run(s: &Scenario, events_as_read: bool) -> ScenarioResult {
    let opts = CheckOptions {
        max_states: Some(BOUND),
        events_as_read,
        ..CheckOptions::default()
    };
    check::check(s, &opts).expect("the scenario checks")
}

/// The verdicts, vacuity, trace lengths and times of the two runs are the same, and so are
/// the lassos' lengths.
fn compare(name: &str, on: &ScenarioResult, off: &ScenarioResult) {
    common::judged::alike(name, on, off);
    for (a, b) in on.properties.iter().zip(&off.properties) {
        assert_eq!(
            a.lasso.as_ref().map(|l| l.actions.len()),
            b.lasso.as_ref().map(|l| l.actions.len()),
            "{name}: lasso of {}",
            a.def.name
        );
    }
}

/// Compares the two runs of `s` where the whole run is complete; returns whether it was,
/// and whether the merge made it smaller.
fn both(s: &Scenario, name: &str) -> Option<bool> {
    let off = run(s, false);
    if !off.complete {
        return None;
    }
    let on = run(s, true);
    assert!(on.complete, "{name}: the merged run is incomplete");
    compare(name, &on, &off);
    Some(on.unique_states < off.unique_states)
}

#[test]
fn events_as_read_keep_every_built_in_verdict_trace_length_and_time() {
    let mut reduced = Vec::new();
    let mut compared = 0;
    for base in catalogue::builtin() {
        for (nodes, replicas) in [(None, None), (Some(3), Some(2))] {
            let mut s = base.clone();
            if s.resize(nodes, replicas).is_err() {
                continue;
            }
            let name = format!("{} at {nodes:?} x {replicas:?}", s.name);
            if let Some(smaller) = both(&s, &name) {
                compared += 1;
                if smaller {
                    reduced.push(name);
                }
            }
        }
    }
    // Not vacuous: most of the catalogue compared, and many scenarios smaller (their pods
    // record events that nothing but the renderers reads: pulls, starts, kills).
    assert!(compared >= 100, "only {compared} scenario sizes compared");
    assert!(reduced.len() >= 20, "only {reduced:?} were reduced");
    eprintln!("{compared} compared; {} reduced", reduced.len());
}

#[test]
fn events_as_read_keep_every_example_verdict_trace_length_and_time() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/manifests");
    let mut folders: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flat_map(|e| std::fs::read_dir(e.unwrap().path()).into_iter().flatten())
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut compared = 0;
    let mut reduced = 0;
    for folder in &folders {
        let mut files: Vec<_> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        let sources: Vec<(String, String)> = files
            .iter()
            .map(|p| {
                let name = p.strip_prefix(&dir).unwrap().display().to_string();
                (name, std::fs::read_to_string(p).unwrap())
            })
            .collect();
        let r = manifest::read(&sources).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        let set = plan_scenarios_for(
            &r.scenario,
            &Plan::ALL,
            &Default::default(),
            &podcheck_model::cluster::first_pod_nodes,
        );
        for s in &set.scenarios {
            let name = format!("{}: {}", folder.display(), s.name);
            if let Some(smaller) = both(s, &name) {
                compared += 1;
                reduced += usize::from(smaller);
            }
        }
    }
    assert!(compared >= 40, "only {compared} plan scenarios compared");
    assert!(reduced >= 10, "only {reduced} were reduced");
    eprintln!("{compared} compared; {reduced} reduced");
}

/// A trace still shows the events its run recorded, where the states it passes were told
/// apart without most of them: the deadlocked program's traces list its container's start,
/// the failed liveness probes and the kill (which only the renderers read).
#[test]
fn a_merged_state_s_trace_shows_every_event_of_its_run() {
    let s = catalogue::find("deadlock").expect("a built-in scenario");
    let on = run(&s, true);
    let off = run(&s, false);
    assert!(on.complete && off.complete);
    assert!(on.unique_states < off.unique_states, "nothing merged");
    let texts: Vec<String> = common::trace::replayed(&on)
        .iter()
        .map(|(_, t)| podcheck_traces::text::render_text(t))
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Started") && t.contains("Unhealthy") && t.contains("Killing")),
        "no trace of deadlock shows its start, failed probes and kill:\n{}",
        texts.join("\n")
    );
}
