//! `podcheck trace`: the shortest counterexample (or witness) of a property, rendered.

use crate::cli::check::{run_end, Bounds};
use crate::cli::common::{did_you_mean, stop_on_ctrl_c, BadInput};
use podcheck::TraceFormat;
use podcheck_input::spec::{Scenario, Verdict};
use podcheck_properties::check::{self, CheckOptions, PropertyResult, ScenarioResult};
use std::process::ExitCode;

/// One scenario, with a progress line on stderr (and its state graph, with `keep_graph`).
fn check_one(
    scenario: &Scenario,
    keep_graph: bool,
    bounds: Bounds,
) -> Result<ScenarioResult, BadInput> {
    eprintln!("{}", bounds.heading());
    let opts = CheckOptions {
        progress: true,
        keep_graph,
        max_memory: bounds.max_memory,
        budget: bounds.budget,
        ..CheckOptions::default()
    };
    check::check(scenario, &opts).map_err(BadInput)
}

pub fn run(
    scenario: Scenario,
    property: Option<String>,
    format: TraceFormat,
    bounds: Bounds,
    slowest: bool,
    origin: &str,
) -> Result<ExitCode, BadInput> {
    let selected = check::selected(&scenario).map_err(BadInput)?;
    if let Some(p) = &property {
        if !selected.iter().any(|d| d.name == p) {
            let names: Vec<&str> = selected.iter().map(|d| d.name).collect();
            let hint = did_you_mean(p, &names);
            return Err(BadInput(format!(
                "scenario `{}` (in {origin}) does not check property `{p}`{hint}; it checks: {}",
                scenario.name,
                names.join(", ")
            )));
        }
    }
    stop_on_ctrl_c();
    let r = check_one(&scenario, format == TraceFormat::Dot, bounds)?;
    // A run stopped by a bound: exit 3 unless it found the trace of the property asked for
    // (without `--property`, a complete run might have chosen another).
    let unfinished = if r.complete {
        ExitCode::SUCCESS
    } else {
        eprintln!("{}: {}", scenario.name, run_end(&r));
        ExitCode::from(3)
    };
    let chosen = match &property {
        Some(p) => r.properties.iter().find(|x| x.def.name == p),
        // A counterexample if there is one, else the first witness.
        None => r
            .properties
            .iter()
            .find(|x| !x.def.kind.is_witness() && x.verdict == Verdict::Violated)
            .or_else(|| {
                r.properties
                    .iter()
                    .find(|x| x.def.kind.is_witness() && x.verdict == Verdict::Holds)
            }),
    };
    let Some(p) = chosen else {
        say!(
            "no property of `{}` is violated and it has no witness ({} unique states, {}).",
            scenario.name,
            r.unique_states,
            if r.complete { "complete" } else { "incomplete" }
        );
        return Ok(unfinished);
    };
    let model = check::model(&scenario, &[], false);
    // With --slowest: the slowest run alone (no counterexample, no lasso).
    let slow;
    let p = if slowest {
        let Some(t) = p.timing.as_ref() else {
            return Err(BadInput(format!(
                "--slowest: property `{}` is a {} property, which has no slowest run (only `within` properties have one)",
                p.def.name,
                p.def.kind.as_str()
            )));
        };
        slow = PropertyResult {
            trace: None,
            lasso: None,
            timing: Some(t.clone()),
            ..p.clone()
        };
        if t.slowest.is_none() {
            say!(
                "{} / {}: no slowest run: the worst case is {}.",
                scenario.name,
                p.def.name,
                t.worst.describe()
            );
            // The trace asked for is not shown: a stopped run exits 3.
            return Ok(unfinished);
        }
        &slow
    } else {
        p
    };
    let Some(path) = podcheck::shown_trace(&model, p) else {
        use podcheck_properties::Kind;
        let what = match (p.def.kind, p.verdict) {
            (Kind::Always(_), Verdict::Holds) => {
                "holds: no reachable state breaks it, so there is no counterexample"
            }
            (Kind::Step { .. }, Verdict::Holds) => {
                "holds: no transition of a reachable state breaks it, so there is no counterexample"
            }
            (Kind::Sometimes(_), Verdict::Violated) => {
                "is violated: no reachable state has it, so there is no witness"
            }
            (Kind::LeadsTo { .. }, Verdict::Holds) => {
                "holds: every fair run from a state where P holds reaches Q"
            }
            (Kind::Within { .. }, Verdict::Holds) => {
                "holds vacuously: no reachable state has P, so there is no run to show"
            }
            _ => "is incomplete: the run stopped at a bound",
        };
        // A verdict a stopped run still has was decided by a phase that finished (an
        // `always`, `step` or `sometimes` by the whole exploration, before the `leads_to`
        // pass stopped): say so, and exit 3 all the same, since no trace is shown.
        let what = if r.complete || p.verdict == Verdict::Incomplete {
            what.to_string()
        } else if p.def.kind.premise_and_goal().is_some() {
            format!("{what}; decided by the graph pass, which finished before the run stopped")
        } else {
            format!("{what}; decided by the exploration, which was complete before the run stopped")
        };
        say!(
            "{} / {}: {} ({} unique states).
{}: {}",
            scenario.name,
            p.def.name,
            what,
            r.unique_states,
            p.def.name,
            p.def.sentence
        );
        return Ok(unfinished);
    };
    let (raw, trace) =
        path.map_err(|e| BadInput(format!("internal error: the trace does not replay: {e}")))?;
    if format == TraceFormat::Text {
        say!(
            "{}: {}
(Kubernetes {})
",
            p.def.name,
            p.def.sentence,
            model.release
        );
    }
    say!(
        "{}",
        podcheck::render(&model, r.graph.as_deref(), &raw, &trace, format).map_err(BadInput)?
    );
    Ok(if property.is_some() {
        ExitCode::SUCCESS
    } else {
        unfinished
    })
}
