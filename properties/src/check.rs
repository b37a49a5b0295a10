//! Judging properties with Stateright.
//!
//! One exhaustive breadth-first run judges every property of a scenario at once. Two traps of
//! Stateright 0.31 are handled here (docs/sources.md#stateright-031, and `bfs.rs` in the crate):
//!
//! - A BFS stops as soon as every property has a discovery, so its state count would depend
//!   on which properties a scenario has, and on the thread count. A sentinel property that is
//!   never discovered keeps the run going to the end: the count is the whole state space.
//! - While other properties are pending, a later match overwrites a property's first (shortest)
//!   discovery. So the main run only decides verdicts; each counterexample or witness is then
//!   found again by a single-threaded BFS of a model that carries that one property. That run
//!   returns at the first match, which BFS order makes a shortest path, and a fixed action order
//!   makes the same on every run and for every `--threads`.
//!
//! Bounds never pass silently: a run that stopped at `max_states` reports `incomplete` for
//! every property it could not decide.

use crate::catalogue::{self, Kind, PropertyDef};
use crate::liveness::{leads_to_with, Ends, LassoEnd, LeadsTo, StateGraph};
use podcheck_model::spec::{Scenario, Verdict};
use podcheck_model::{Action, Actor, Cluster, PropertyFn, State};
use stateright::{Checker, Expectation, Model, Path};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Name of the sentinel property (never discovered).
pub const SENTINEL: &str = "(explore the whole state space)";

/// How to run a check.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Checker threads for the main run (traces are always searched with one).
    pub threads: usize,
    /// Stop after this many generated states (then verdicts may be `incomplete`).
    pub max_states: Option<usize>,
    /// Print a progress line on stderr for runs longer than a second.
    pub progress: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            threads: 1,
            max_states: None,
            progress: false,
        }
    }
}

/// A `leads_to` counterexample: a run from the initial state to a state where P holds and on
/// to a fair cycle of states without Q (or to a final state without Q).
#[derive(Clone, Debug)]
pub struct LassoPath {
    pub states: Vec<State>,
    pub actions: Vec<Action>,
    /// Index in `states` where the cycle starts (the last state repeats it); None when the
    /// run ends in a state where no fair component acts.
    pub loop_start: Option<usize>,
    /// Index in `states` of the state where P holds.
    pub p_index: usize,
}

/// The verdict of one property in one scenario.
#[derive(Clone, Debug)]
pub struct PropertyResult {
    pub def: PropertyDef,
    pub verdict: Verdict,
    pub expected: Verdict,
    pub expected_source: String,
    /// The shortest counterexample (`always`) or witness (`sometimes`).
    pub trace: Option<Path<State, Action>>,
    /// The lasso of a violated `leads_to`.
    pub lasso: Option<LassoPath>,
}

impl PropertyResult {
    /// Number of actions in the trace (or the lasso: its stem and one round of its cycle).
    pub fn trace_steps(&self) -> Option<usize> {
        self.trace
            .as_ref()
            .map(|p| p.clone().into_actions().len())
            .or_else(|| self.lasso.as_ref().map(|l| l.actions.len()))
    }
}

/// The result of checking one scenario.
#[derive(Clone, Debug)]
pub struct ScenarioResult {
    pub scenario: Scenario,
    pub complete: bool,
    pub unique_states: usize,
    pub generated_states: usize,
    /// Wall-clock seconds in all (main run and trace searches).
    pub seconds: f64,
    /// Wall-clock seconds of the main, exhaustive run alone.
    pub check_seconds: f64,
    pub properties: Vec<PropertyResult>,
}

impl ScenarioResult {
    /// Every verdict equals its expectation.
    pub fn as_expected(&self) -> bool {
        self.properties.iter().all(|p| p.verdict == p.expected)
    }
}

/// The properties checked in a scenario: every safety property, and the witnesses and
/// leads-to properties it lists.
pub fn selected(scenario: &Scenario) -> Result<Vec<PropertyDef>, String> {
    for e in &scenario.expect {
        if catalogue::find(&e.property).is_none() {
            return Err(format!(
                "scenario `{}` expects a verdict for unknown property `{}`",
                scenario.name, e.property
            ));
        }
        if e.verdict == Verdict::Incomplete {
            return Err(format!(
                "scenario `{}`: property `{}` cannot be expected `incomplete`",
                scenario.name, e.property
            ));
        }
    }
    Ok(catalogue::all()
        .into_iter()
        .filter(|p| p.kind == Kind::Always || scenario.expected(p.name).is_some())
        .collect())
}

/// The expected verdict of a property in a scenario, with its source.
pub fn expectation(scenario: &Scenario, def: &PropertyDef) -> (Verdict, String) {
    match scenario.expected(def.name) {
        Some(e) => (e.verdict, e.source.clone()),
        None => (Verdict::Holds, def.source.to_string()),
    }
}

fn to_fn(def: &PropertyDef) -> PropertyFn {
    PropertyFn {
        name: def.name,
        expectation: match def.kind {
            Kind::Sometimes => Expectation::Sometimes,
            Kind::Always | Kind::LeadsTo => Expectation::Always,
        },
        condition: def.condition,
    }
}

fn sentinel(_: &Cluster, _: &State) -> bool {
    true
}

/// The model of a scenario carrying the given properties.
pub fn model(scenario: &Scenario, defs: &[PropertyDef], with_sentinel: bool) -> Cluster {
    let mut props: Vec<PropertyFn> = defs.iter().map(to_fn).collect();
    if with_sentinel {
        props.push(PropertyFn {
            name: SENTINEL,
            expectation: Expectation::Always,
            condition: sentinel,
        });
    }
    Cluster::new(scenario.clone(), props)
}

/// Runs a Stateright BFS to its end (or its bound), with an optional progress line.
fn run_bfs(
    model: Cluster,
    threads: usize,
    max_states: Option<usize>,
    progress: Option<&str>,
) -> (impl Checker<Cluster>, bool) {
    let mut builder = model.checker().threads(threads.max(1));
    if let Some(n) = max_states {
        builder = builder.target_state_count(n);
    }
    let mut checker = builder.spawn_bfs();
    let handles = checker.handles();
    let start = Instant::now();
    let mut printed = false;
    let tty = std::io::stderr().is_terminal();
    let mut next_report = Duration::from_secs(1);
    let mut nap = Duration::from_micros(100);
    while progress.is_some() && !handles.iter().all(|h| h.is_finished()) {
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
        if let Some(name) = progress {
            if start.elapsed() >= next_report {
                let line = format!(
                    "{name}: {} states, depth {}, {:.0} s",
                    checker.unique_state_count(),
                    checker.max_depth(),
                    start.elapsed().as_secs_f64()
                );
                if tty {
                    eprint!("\r{line}   ");
                } else {
                    eprintln!("{line}");
                }
                printed = tty;
                next_report += Duration::from_secs(if tty { 1 } else { 10 });
            }
        }
    }
    for h in handles {
        if h.join().is_err() {
            eprintln!("a checker thread panicked");
        }
    }
    if printed {
        eprintln!();
    }
    let complete = max_states.is_none_or(|n| checker.state_count() < n);
    (checker, complete)
}

/// The shortest path to a state where `def` is discovered (violated for `always`, true for
/// `sometimes`), searched single-threaded. None if there is none (within `max_states`).
pub fn shortest_trace(
    scenario: &Scenario,
    def: &PropertyDef,
    max_states: Option<usize>,
) -> Option<Path<State, Action>> {
    let model = model(scenario, std::slice::from_ref(def), false);
    let (checker, _) = run_bfs(model, 1, max_states, None);
    checker.discovery(def.name)
}

/// Checks every selected property of a scenario.
pub fn check(scenario: &Scenario, opts: &CheckOptions) -> Result<ScenarioResult, String> {
    scenario.validate()?;
    let defs = selected(scenario)?;
    let start = Instant::now();
    let stateright_defs: Vec<PropertyDef> = defs
        .iter()
        .filter(|d| d.kind != Kind::LeadsTo)
        .copied()
        .collect();
    let m = model(scenario, &stateright_defs, true);
    let progress = opts.progress.then_some(scenario.name.as_str());
    let (checker, complete) = run_bfs(m, opts.threads, opts.max_states, progress);
    let check_seconds = start.elapsed().as_secs_f64();
    let mut properties = Vec::new();
    let plain = model(scenario, &[], false);
    let mut graph: Option<StateGraph<State, Action, Actor>> = None;
    for def in &defs {
        if def.kind == Kind::LeadsTo {
            let g = graph.get_or_insert_with(|| {
                StateGraph::explore(
                    &plain,
                    |a: &Action| {
                        let actor = a.actor();
                        actor.is_fair().then_some(actor)
                    },
                    opts.max_states,
                )
            });
            let p = def.condition;
            let q = def.until.ok_or_else(|| format!("{} has no Q", def.name))?;
            let (verdict, lasso) =
                match leads_to_with(g, |s| p(&plain, s), |s| q(&plain, s), Ends::Quiescence) {
                    LeadsTo::Holds => (Verdict::Holds, None),
                    LeadsTo::Incomplete => (Verdict::Incomplete, None),
                    LeadsTo::Violated(l) => {
                        l.replay(&plain, g)?;
                        let (states, actions) = l.to_path(g);
                        let loop_start = (l.end == LassoEnd::Cycle).then_some(l.cycle_start);
                        (
                            Verdict::Violated,
                            Some(LassoPath {
                                states,
                                actions,
                                loop_start,
                                p_index: l.p_index,
                            }),
                        )
                    }
                };
            let (expected, expected_source) = expectation(scenario, def);
            properties.push(PropertyResult {
                def: *def,
                verdict,
                expected,
                expected_source,
                trace: None,
                lasso,
            });
            continue;
        }
        let found = checker.discovery(def.name).is_some();
        let verdict = match (def.kind, found, complete) {
            (Kind::Always, true, _) => Verdict::Violated,
            (Kind::Always, false, true) => Verdict::Holds,
            (Kind::Sometimes, true, _) => Verdict::Holds,
            (Kind::Sometimes, false, true) => Verdict::Violated,
            (_, false, false) => Verdict::Incomplete,
            (Kind::LeadsTo, ..) => unreachable!("leads_to is judged on the state graph"),
        };
        let trace = if found {
            shortest_trace(scenario, def, opts.max_states)
        } else {
            None
        };
        let (expected, expected_source) = expectation(scenario, def);
        properties.push(PropertyResult {
            def: *def,
            verdict,
            expected,
            expected_source,
            trace,
            lasso: None,
        });
    }
    Ok(ScenarioResult {
        scenario: scenario.clone(),
        complete,
        unique_states: checker.unique_state_count(),
        generated_states: checker.state_count(),
        seconds: start.elapsed().as_secs_f64(),
        check_seconds,
        properties,
    })
}
