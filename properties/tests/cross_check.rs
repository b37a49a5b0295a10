//! Stateright's own BFS checker as the independent cross-check of podcheck's exploration:
//! the same unique-state count and the same `always` and `sometimes` verdicts, for every
//! built-in scenario.

use podcheck_input::catalogue;
use podcheck_input::spec::Verdict;
use podcheck_properties::check::{self, CheckOptions};
use podcheck_properties::cross_check::{compare, stateright, StaterightRun};

#[test]
fn every_builtin_scenario_agrees_with_stateright() {
    let mut compared = 0;
    for s in catalogue::builtin() {
        let opts = CheckOptions {
            cross_check: true,
            ..CheckOptions::default()
        };
        // `check` fails if Stateright finds another count or another verdict.
        let r = check::check(&s, &opts).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.complete, "{}", s.name);
        compared += 1;
    }
    assert_eq!(compared, catalogue::builtin().len());
}

#[test]
fn the_cross_check_with_two_threads_agrees_too() {
    let s = catalogue::find("deadlock").unwrap();
    let defs = check::selected(&s).unwrap();
    // Stateright's BFS explores every state: ours without the reductions (deadlock's
    // kube-proxies are interchangeable, which the reduction counts once).
    let opts = CheckOptions {
        reduction: false,
        ..CheckOptions::default()
    };
    let ours = check::check(&s, &opts).unwrap();
    for threads in [1, 2] {
        let theirs = stateright(&s, &defs, threads);
        assert_eq!(
            theirs.unique_states, ours.unique_states,
            "{threads} threads"
        );
        compare(ours.unique_states, &ours.properties, &theirs).unwrap();
        // Stateright judges exactly the always and sometimes properties.
        let n = defs
            .iter()
            .filter(|d| d.kind.is_always() || d.kind.is_sometimes())
            .count();
        assert_eq!(theirs.verdicts.len(), n);
    }
}

#[test]
fn the_cross_check_reports_every_difference() {
    let s = catalogue::find("healthy").unwrap();
    let ours = check::check(&s, &CheckOptions::default()).unwrap();
    let p = ours
        .properties
        .iter()
        .find(|p| p.def.kind.is_always())
        .unwrap();
    let flipped = match p.verdict {
        Verdict::Holds => Verdict::Violated,
        _ => Verdict::Holds,
    };
    let theirs = StaterightRun {
        unique_states: ours.unique_states + 1,
        verdicts: vec![(p.def.name, flipped)],
    };
    let e = compare(ours.unique_states, &ours.properties, &theirs).unwrap_err();
    assert!(e.contains("unique states"), "{e}");
    assert!(e.contains(p.def.name), "{e}");
    let same = StaterightRun {
        unique_states: ours.unique_states,
        verdicts: vec![(p.def.name, p.verdict)],
    };
    assert!(compare(ours.unique_states, &ours.properties, &same).is_ok());
}

/// The Explorer is handed only the properties Stateright can judge: no `leads_to` (it is not
/// an `always` of its P) and no `step`.
#[test]
fn the_stateright_model_carries_only_always_and_sometimes() {
    use stateright::Model;
    let s = catalogue::find("healthy").unwrap();
    let defs = check::selected(&s).unwrap();
    assert!(
        defs.iter().any(|d| d.kind.is_leads_to()),
        "healthy lists a leads_to"
    );
    let m = check::model(&s, &defs, false);
    let names: Vec<&str> = m.properties().iter().map(|p| p.name).collect();
    for d in &defs {
        let handed = names.contains(&d.name);
        assert_eq!(
            handed,
            d.kind.is_always() || d.kind.is_sometimes(),
            "{}",
            d.name
        );
    }
}
