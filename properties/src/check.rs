//! Judging properties: one exploration of a scenario's state graph ([`crate::explore`])
//! decides every property at once.
//!
//! - `always` and `sometimes` conditions are evaluated on each state as it is discovered;
//!   the first state (in breadth-first order) that breaks an `always` or has a `sometimes`
//!   ends in a shortest trace, the same on every run.
//! - `step` conditions are evaluated on every transition; the first one that breaks it gives
//!   a shortest trace whose last step is that transition.
//! - `leads_to` is judged on the graph's strongly connected components under weak fairness
//!   ([`crate::liveness`]), with `P` and `Q` evaluated as states are discovered.
//!
//! Every trace and lasso is replayed through the model before it is reported: each action
//! must be enabled and lead to the recorded state. Bounds never pass silently: a run that
//! stopped at `max_states`, at the memory bound or at Ctrl-C ([`crate::progress`]) reports
//! `incomplete` for every property it could not decide.
//!
//! A check runs in three phases, each with its progress line and its stops: `exploring`
//! (the search, which judges `always`, `sometimes` and `step`), `graph` (every `leads_to`)
//! and `traces` (every trace and lasso replayed). A phase that stops leaves the phases after
//! it to run on what it did, as `max_states` does: an exploration stopped early still gets its
//! `leads_to` pass on the explored part (where a lasso found is a real one), a `leads_to` pass
//! stopped early is `incomplete`, and a trace not replayed when its phase stopped is
//! `incomplete`.
//!
//! Stateright's own checker is not in this path. It is the independent cross-check
//! ([`crate::cross_check`], `CheckOptions::cross_check`): same unique-state count, same
//! `always` and `sometimes` verdicts.

// Named here too, where the checking's users name them.
pub use crate::cross_check::model;
pub use crate::result::{expectation, PropertyResult, WorstTime};

use crate::catalogue::{self, Kind, PropertyDef, Steps};
use crate::explore::{
    explore_with, fingerprint, realize, Commute, ExploreOptions, Finding, Graph, Probe, Reduction,
    Run,
};
use crate::explore::{ActionId, StateId};
use crate::liveness::{leads_to_holds_up_to, leads_to_progress, Ends, LassoEnd, LeadsTo};
use crate::progress::{Phase, Progress, Stop};
use crate::result::{LassoPath, Timing};
use crate::timing::{
    best_case, worst_case, worst_case_when_leads_to_holds, Seconds, TimedPath, Worst,
};
use crate::vacuity::{self, Warning};
use podcheck_input::spec::{Scenario, Verdict};
use podcheck_model::footprint::Summary;
use podcheck_model::{Action, Actor, Cluster, State};
use std::sync::Arc;
use std::time::Instant;

/// The explored graph of a scenario.
pub type ClusterGraph = Graph<Action, Actor>;

/// A condition on one transition: state, action, next state.
type StepJudge<'a> = &'a dyn Fn(&State, &Action, &State) -> bool;

/// How to run a check.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Threads of the exploration (and of the Stateright cross-check, with `cross_check`).
    /// Verdicts, counts and traces never depend on this.
    pub threads: usize,
    /// Stop before the graph holds more than this many distinct states (then verdicts may
    /// be `incomplete`).
    pub max_states: Option<usize>,
    /// Print a progress line on stderr for runs longer than a second.
    pub progress: bool,
    /// Also run Stateright's BFS checker and fail unless it finds the same number of unique
    /// states and the same `always`/`sometimes` verdicts (complete runs only).
    pub cross_check: bool,
    /// Keep the explored graph in the result ([`ScenarioResult::graph`]), e.g. for DOT.
    pub keep_graph: bool,
    /// Explore one state per class of states that differ only by which of the scenario's
    /// interchangeable nodes holds what ([`podcheck_model::symmetry`]), where that is exact:
    /// not with `cross_check` (which compares state counts with Stateright's unreduced run)
    /// nor `keep_graph` (whose graph is drawn state by state). A `leads_to` property that
    /// the quotient cannot show to hold ([`crate::liveness::leads_to_holds_up_to`]) has the
    /// whole check run again without the reduction.
    pub reduction: bool,
    /// Stop each phase before the process's resident memory would pass this many bytes
    /// (then verdicts may be `incomplete`).
    pub max_memory: Option<u64>,
    /// Stop the exploration and the `leads_to` passes once the check of the scenario has run
    /// this long ([`crate::progress::Bound::Budget`]; then verdicts may be `incomplete`).
    pub budget: Option<std::time::Duration>,
    /// This scenario's place in a list of checks, `(k, n)` from 1: its progress lines say
    /// `scenario k of n`.
    pub position: Option<(usize, usize)>,
    /// Also compute the worst and best time of every `leads_to` property (a `within`
    /// property always has them).
    pub worst_case: bool,
    /// Take a successor that closes a diamond of independent actions from the graph instead
    /// of making it ([`crate::explore::Commute`], by the actions' footprints,
    /// [`podcheck_model::footprint`]). The graph, the counts, the verdicts and the traces are
    /// the same either way; off, every successor is made.
    pub diamonds: bool,
    /// Let a drain run's observations that pods are gone wait until nothing else is
    /// enabled at their instant, where that is exact ([`podcheck_model::drain`]): fewer
    /// states, the same verdicts, trace lengths and times. A `leads_to` or `within` that
    /// does not hold so is judged again without it. Off, each is offered as soon as due.
    pub deferred_gone: bool,
    /// With `reduction`, also take the kube-proxies of the nodes that no fault cuts off as
    /// interchangeable apart from their nodes ([`podcheck_model::symmetry::interchangeable_proxies`]):
    /// the verdicts and trace lengths are the same either way; off, a proxy moves only with
    /// its node.
    pub proxy_symmetry: bool,
    /// With `reduction`, also take as interchangeable the pods of a Deployment that a `scale`
    /// or `rolloutRestart` scales down, whose ReplicaSet chooses which of its tied pods go
    /// ([`podcheck_model::symmetry::scaled_pods`]): the verdicts and trace lengths are the same
    /// either way; off, those pods are told apart by their uids.
    pub scaled_pod_symmetry: bool,
    /// Tell states apart by what the model and the properties read of the pods' events,
    /// not by the whole lists the renderers show ([`podcheck_model::events::Events`]): the
    /// verdicts, trace lengths and times are the same either way, and a trace still shows
    /// every event of its run; off, the whole lists count.
    pub events_as_read: bool,
    /// Take the steps that lead back to the state they leave (a client's request,
    /// [`podcheck_model::Cluster::leaves_state_as_is`]) as edges to that state without
    /// making the successor ([`crate::explore::Stays`]). The graph, the counts, the verdicts
    /// and the traces are the same either way; off, every successor is made.
    pub self_loops: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            threads: 1,
            max_states: None,
            progress: false,
            cross_check: false,
            keep_graph: false,
            reduction: true,
            max_memory: None,
            budget: None,
            position: None,
            worst_case: false,
            diamonds: true,
            deferred_gone: true,
            proxy_symmetry: true,
            scaled_pod_symmetry: true,
            events_as_read: true,
            self_loops: true,
        }
    }
}

/// The result of checking one scenario.
#[derive(Clone, Debug)]
pub struct ScenarioResult {
    pub scenario: Scenario,
    pub complete: bool,
    pub unique_states: usize,
    /// States generated: the initial state and every successor, repeats included.
    pub generated_states: usize,
    /// Edges of the state graph.
    pub edges: usize,
    /// Bytes of the state graph's own tables.
    pub graph_bytes: usize,
    /// Wall-clock seconds in all (exploration, liveness, replays, cross-check).
    pub seconds: f64,
    /// Wall-clock seconds of the exploration alone.
    pub check_seconds: f64,
    /// Wall-clock seconds of each phase.
    pub phase_seconds: PhaseSeconds,
    /// The first bound that stopped a phase, if one did (then `complete` is false).
    pub stopped: Option<Stop>,
    pub properties: Vec<PropertyResult>,
    /// The explored graph, with [`CheckOptions::keep_graph`].
    pub graph: Option<Arc<ClusterGraph>>,
    /// The classes of interchangeable nodes (by name) the exploration reduced by: its states
    /// are one per class of states that differ only by which of these nodes holds what; then
    /// one entry `pods of <Deployment>` per Deployment whose pods are interchangeable
    /// (states that differ only by which of its pods holds what are one). Empty when it
    /// explored every state.
    pub symmetry: Vec<Vec<String>>,
    /// What the check never saw happen, in a complete run ([`crate::vacuity`]).
    pub warnings: Vec<Warning>,
    /// A complete run before this one whose reductions could not decide some properties, so
    /// that this run judged them again without one of those reductions, and stopped at a
    /// bound: the properties this run left `incomplete` have that run's verdicts.
    pub earlier: Option<EarlierRun>,
}

/// A complete run whose reductions left some properties undecided ([`ScenarioResult::earlier`]).
#[derive(Clone, Debug)]
pub struct EarlierRun {
    /// Its distinct states (up to its [`EarlierRun::symmetry`]).
    pub unique_states: usize,
    /// Its classes of interchangeable things, as [`ScenarioResult::symmetry`].
    pub symmetry: Vec<Vec<String>>,
    /// The reductions the run that stopped went without, in words ("interchangeable
    /// kube-proxies").
    pub without: String,
    /// The properties it left undecided, which the run after it judged again.
    pub undecided: Vec<&'static str>,
}

/// Wall-clock seconds of each phase of a check.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseSeconds {
    /// The breadth-first search, which judges `always`, `sometimes` and `step`.
    pub exploring: f64,
    /// The `leads_to` pass over the graph.
    pub graph: f64,
    /// Replaying every trace and lasso through the model.
    pub traces: f64,
}

impl ScenarioResult {
    /// Every verdict equals its expectation.
    pub fn as_expected(&self) -> bool {
        self.properties.iter().all(|p| p.verdict == p.expected)
    }
}

/// The properties checked in a scenario: every safety property (`always`, `step`), and the
/// witnesses and leads-to properties it lists.
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
        .filter(|p| p.kind.is_safety() || scenario.expected(p.name).is_some())
        .collect())
}

/// The actor of an action, for fairness: `None` for the unfair environment.
pub fn fair_actor(a: &Action) -> Option<Actor> {
    let actor = a.actor();
    actor.is_fair().then_some(actor)
}

/// Checks every selected property of a scenario ([`selected`]).
pub fn check(scenario: &Scenario, opts: &CheckOptions) -> Result<ScenarioResult, String> {
    scenario.validate()?;
    let defs = selected(scenario)?;
    check_with(scenario, &defs, opts)
}

/// Checks the given properties, and only those, on a scenario: the catalogue's or your own.
/// A property the scenario has no expectation for is expected to hold.
///
/// ```
/// use podcheck_input::catalogue;
/// use podcheck_model::{Cluster, State, Verdict};
/// use podcheck_properties::{check_with, CheckOptions, Kind, PropertyDef};
///
/// /// No pod ever has more than one container restart (a user's own property).
/// fn at_most_one_restart(_: &Cluster, s: &State) -> bool {
///     s.api
///         .pods
///         .iter()
///         .all(|p| p.status.statuses.iter().all(|c| c.restart_count <= 1))
/// }
///
/// let mine = PropertyDef {
///     name: "at_most_one_restart",
///     kind: Kind::Always(at_most_one_restart),
///     sentence: "No container restarts more than once.",
///     source: "my team's runbook",
///     layer: "api",
///     premise: None,
/// };
/// let healthy = catalogue::find("healthy").unwrap();
/// let r = check_with(&healthy, &[mine], &CheckOptions::default()).unwrap();
/// assert!(r.complete);
/// assert_eq!(r.properties.len(), 1);
/// assert_eq!(r.properties[0].verdict, Verdict::Holds);
///
/// // And one that the crash loop breaks, with its shortest counterexample.
/// let crash = catalogue::find("crash-loop").unwrap();
/// let r = check_with(&crash, &[mine], &CheckOptions::default()).unwrap();
/// assert_eq!(r.properties[0].verdict, Verdict::Violated);
/// assert!(r.properties[0].trace_steps().unwrap() > 0);
/// ```
pub fn check_with(
    scenario: &Scenario,
    defs: &[PropertyDef],
    opts: &CheckOptions,
) -> Result<ScenarioResult, String> {
    scenario.validate()?;
    for (i, d) in defs.iter().enumerate() {
        if defs[..i].iter().any(|e| e.name == d.name) {
            return Err(format!("property `{}` is given twice", d.name));
        }
    }
    let start = Instant::now();
    let (mut first, again) = check_once(scenario, defs, opts, start)?;
    let Some((again, without)) = again else {
        return Ok(first);
    };
    // The run again gets what is left of the scenario's budget. The first run's graph is
    // gone by now: only its result is kept.
    first.graph = None;
    let budget = opts.budget.map(|b| b.saturating_sub(start.elapsed()));
    let mut second = check_with(scenario, defs, &CheckOptions { budget, ..again })?;
    second.seconds = start.elapsed().as_secs_f64();
    if second.complete {
        return Ok(second);
    }
    // The second run stopped at a bound. The first was complete, and what it decided is
    // exact: the reductions it ran with keep every `always`, `sometimes` and `step` verdict
    // (and every `leads_to` or `within` it showed to hold), which is why only the properties
    // it could not decide were judged again. So each property the second run left
    // `incomplete` keeps the first run's verdict, trace and vacuity; the scenario stays
    // incomplete, for the properties neither run decided.
    let undecided: Vec<&'static str> = first
        .properties
        .iter()
        .filter(|p| p.verdict == Verdict::Incomplete)
        .map(|p| p.def.name)
        .collect();
    for (mine, theirs) in second.properties.iter_mut().zip(first.properties) {
        if mine.verdict == Verdict::Incomplete && theirs.verdict != Verdict::Incomplete {
            *mine = theirs;
        }
    }
    if second.warnings.is_empty() {
        second.warnings = first.warnings;
    }
    // Where the second run itself judged again without a further reduction, the run that
    // stopped went without both.
    let without = match &second.earlier {
        Some(e) => format!("{without}, then without {}", e.without),
        None => without.to_string(),
    };
    second.earlier = Some(EarlierRun {
        unique_states: first.unique_states,
        symmetry: first.symmetry,
        without,
        undecided,
    });
    Ok(second)
}

/// What was judged again without a reduction, and why: the options of that run and what
/// they leave out, in words.
type Again = Option<(CheckOptions, &'static str)>;

/// One run of a check: its result, and the options of the run that must judge again what
/// this one's reductions could not show (a `leads_to` on the quotient, a `leads_to` or
/// `within` with a drain's observations deferred). The result of a run that asks for
/// another has those properties `incomplete`.
fn check_once(
    scenario: &Scenario,
    defs: &[PropertyDef],
    opts: &CheckOptions,
    start: Instant,
) -> Result<(ScenarioResult, Again), String> {
    let mut m = Cluster::new(scenario.clone(), Vec::new()).with_events_as_read(opts.events_as_read);
    m.ctx.deferred_gone &= opts.deferred_gone;
    if !opts.scaled_pod_symmetry && podcheck_model::symmetry::scaled_pods(&m.scenario) {
        m.symmetry = m.symmetry.nodes_only();
    }
    if !opts.proxy_symmetry {
        m.symmetry = m.symmetry.without_proxies();
    }
    let m = m;
    // The probes of each property, by index into `probes`.
    let mut probes: Vec<Probe<'_, State, Action>> = Vec::new();
    let mut slots: Vec<(usize, usize)> = Vec::new();
    for d in defs {
        let first = probes.len();
        let m = &m;
        match d.kind {
            Kind::Always(c) => probes.push(Probe::FirstState(Box::new(move |s| !c(m, s)))),
            Kind::Sometimes(c) => probes.push(Probe::FirstState(Box::new(move |s| c(m, s)))),
            Kind::LeadsTo { p, q } | Kind::Within { p, q, .. } => {
                probes.push(Probe::EveryState(Box::new(move |s| p(m, s))));
                probes.push(Probe::EveryState(Box::new(move |s| q(m, s))));
            }
            Kind::Step { condition: c, on } => {
                let judge = Box::new(move |s: &State, a: &Action, n: &State| !c(m, s, a, n));
                probes.push(match on {
                    Steps::Only(on) => Probe::FirstStepOf(Box::new(on), judge),
                    Steps::Every => Probe::FirstStep(judge),
                })
            }
        }
        slots.push((first, probes.len()));
    }
    // Vacuity: each safety property's premise, and each fault's having happened. Properties
    // with the same premise (the same function, said in the same words) share one probe.
    let mut premises: Vec<(usize, &'static str, usize)> = Vec::new();
    let premise_probe: Vec<Option<usize>> = defs
        .iter()
        .map(|d| {
            let premise = d.premise.filter(|_| d.kind.is_safety())?;
            let key = (premise.condition as usize, premise.sentence);
            if let Some(&(_, _, i)) = premises.iter().find(|p| (p.0, p.1) == key) {
                return Some(i);
            }
            let m = &m;
            probes.push(Probe::FirstState(Box::new(move |s| {
                (premise.condition)(m, s)
            })));
            premises.push((key.0, key.1, probes.len() - 1));
            Some(probes.len() - 1)
        })
        .collect();
    let fault_probes = probes.len();
    for i in 0..scenario.faults.len() {
        probes.push(Probe::FirstState(Box::new(move |s: &State| {
            s.env.fired & (1 << i) != 0
        })));
    }
    let explore_opts = ExploreOptions {
        max_states: opts.max_states,
        progress: None,
        threads: opts.threads,
    };
    let reduce =
        opts.reduction && !opts.cross_check && !opts.keep_graph && !m.symmetry.is_trivial();
    // A state's class: its representative's fingerprint, or, where pods are interchangeable,
    // the representative's class of pod renumberings. The search keeps the state as found.
    let class_key = m.symmetry.class_key();
    let class = |s: &State| {
        let r = m.symmetry.canonical(s.clone());
        match &class_key {
            Some(k) => k(&r),
            None => fingerprint(&r),
        }
    };
    let reduction = Reduction { class: &class };
    let mut progress = Progress::new(
        opts.progress.then(|| scenario.name.clone()),
        opts.max_memory,
    );
    progress.set_budget(opts.budget);
    progress.set_position(opts.position);
    if defs.iter().any(|d| d.kind.premise_and_goal().is_some()) {
        // Room for the `leads_to` passes on what is explored.
        progress.reserve_later(
            crate::liveness::SCRATCH_PER_STATE,
            crate::liveness::SCRATCH_PER_EDGE,
        );
    }
    let footprint =
        |s: &State, a: &Action| podcheck_model::footprint::footprint(&m.ctx, s, a).summary();
    let independent = |x: &Summary, y: &Summary| x.independent(y);
    let commute = Commute {
        footprint: &footprint,
        independent: &independent,
    };
    let (graph, findings) = explore_with(
        &m,
        fair_actor,
        &probes,
        &explore_opts,
        &mut progress,
        reduce.then_some(reduction),
        opts.diamonds.then_some(commute),
        opts.self_loops.then_some(&Cluster::leaves_state_as_is),
    );
    drop(probes);
    let same_class = |a: &State, b: &State| m.symmetry.same_class(a, b);
    // The run to a state of the graph (and on by one more action, for a step property),
    // replayed through the model: the path itself, or its real run in the quotient.
    let trace = |v: crate::explore::StateId,
                 last: Option<(crate::explore::ActionId, StepJudge<'_>)>,
                 name: &str|
     -> Result<(Run<Action>, Vec<State>), String> {
        let (nodes, mut actions) = graph.path_to(v);
        if reduce {
            if let Some((a, _)) = last {
                actions.push(a);
            }
            return realize(
                &m,
                &graph,
                reduction,
                &same_class,
                &nodes,
                &actions,
                last.map(|(_, l)| l),
            )
            .map_err(|e| format!("{name}: the trace does not replay: {e}"));
        }
        let states = graph
            .replay(&m, &nodes, &actions)
            .map_err(|e| format!("{name}: the trace does not replay: {e}"))?;
        let mut run = graph.run_to(v);
        let mut states = states;
        if let Some((a, _)) = last {
            let action = *graph.action(a);
            let before = states.last().expect("a run has a state");
            // The last step, checked by hand: enabled.
            let mut enabled = Vec::new();
            stateright::Model::actions(&m, before, &mut enabled);
            let next = enabled
                .contains(&action)
                .then(|| m.apply(before, &action))
                .flatten()
                .ok_or_else(|| format!("{name}: the last step does not replay"))?;
            run.actions.push(action);
            states.push(next);
        }
        Ok((run, states))
    };
    let check_seconds = start.elapsed().as_secs_f64();
    // `always`, `sometimes` and `step` are decided by the exploration alone.
    let undecided = if graph.is_complete() {
        None
    } else {
        Some(Verdict::Incomplete)
    };

    // A path of the graph (from an initial state) made a run, replayed through the model:
    // itself, or its real run in the quotient.
    let run_of = |nodes: &[StateId], edges: &[crate::explore::EdgeId], name: &str| {
        let actions: Vec<ActionId> = edges.iter().map(|e| graph.edge_action(*e)).collect();
        if reduce {
            return realize(&m, &graph, reduction, &same_class, nodes, &actions, None)
                .map_err(|e| format!("{name}: the run does not replay: {e}"));
        }
        let states = graph
            .replay(&m, nodes, &actions)
            .map_err(|e| format!("{name}: the run does not replay: {e}"))?;
        let run = Run {
            init: graph.init_index(nodes[0]).unwrap_or(0),
            actions: actions.iter().map(|a| *graph.action(*a)).collect(),
        };
        Ok::<_, String>((run, states))
    };
    // Seconds of each action: a tick's, none for every other step.
    let secs = |a: ActionId| -> Seconds { seconds_of(graph.action(a)) };

    // The graph phase: every `leads_to` and `within`, on the graph as far as it was explored.
    let graph_start = Instant::now();
    progress.phase(Phase::Graph, None, None);
    let mut again: Again = None;
    let mut live: Vec<Option<LeadsTo<Action>>> = vec![None; defs.len()];
    let mut timed: Vec<Option<(Worst<Action>, Option<Seconds>)>> = vec![None; defs.len()];
    for (i, (d, (first, _))) in defs.iter().zip(&slots).enumerate() {
        let (Some(_), Finding::Bits(pb), Some(Finding::Bits(qb))) = (
            d.kind.premise_and_goal(),
            &findings[*first],
            findings.get(*first + 1),
        ) else {
            continue;
        };
        let pf = |v: StateId| pb.get(v as usize);
        let qf = |v: StateId| qb.get(v as usize);
        let wants_time = d.kind.is_within() || opts.worst_case;
        if progress.stopped().is_some() {
            live[i] = Some(LeadsTo::Incomplete);
            timed[i] = wants_time.then_some((Worst::Incomplete, None));
            continue;
        }
        // Each pass over the graph counts its states (progress.step names the pass).
        progress.part(Some(d.name), Some(graph.state_count()));
        if reduce {
            // On the quotient, only "holds" is a verdict: anything else is judged on the
            // whole graph (below). Once it holds, the times are exact on the quotient too
            // (crate::timing).
            match leads_to_holds_up_to(
                &graph,
                pf,
                qf,
                Ends::Quiescence,
                |k| m.symmetry_class(k),
                &mut progress,
            ) {
                Some(true) => {
                    live[i] = Some(LeadsTo::Holds);
                    if wants_time {
                        let w = worst_case_when_leads_to_holds(
                            &graph,
                            pf,
                            qf,
                            secs,
                            deadline_of(d, &m),
                            &mut progress,
                        );
                        timed[i] = Some((w, best_case(&graph, pf, qf, secs)));
                    }
                }
                // A partial quotient (a bound, Ctrl-C) decides nothing more: its cycles are
                // not real runs.
                _ if !graph.is_complete() || progress.stopped().is_some() => {
                    live[i] = Some(LeadsTo::Incomplete);
                    timed[i] = wants_time.then_some((Worst::Incomplete, None));
                }
                _ => {
                    // Judged again, by a run without a reduction (`check_with`).
                    // Interchangeable kube-proxies first go: their class of actors is the
                    // proxies of every node, which the quotient's fairness test can only
                    // count on where all of them are enabled at once; without them it may
                    // still show the property to hold, before the whole graph is explored.
                    live[i] = Some(LeadsTo::Incomplete);
                    timed[i] = wants_time.then_some((Worst::Incomplete, None));
                    if again.is_none() {
                        again = Some(
                            if opts.proxy_symmetry && !m.symmetry.proxy_classes().is_empty() {
                                let o = CheckOptions {
                                    proxy_symmetry: false,
                                    ..opts.clone()
                                };
                                (o, "interchangeable kube-proxies")
                            } else {
                                let o = CheckOptions {
                                    reduction: false,
                                    ..opts.clone()
                                };
                                (o, "interchangeable nodes and pods")
                            },
                        );
                    }
                }
            }
        } else if wants_time {
            let w = worst_case(
                &graph,
                pf,
                qf,
                secs,
                deadline_of(d, &m),
                Ends::Quiescence,
                &mut progress,
            );
            live[i] = Some(match &w {
                Worst::Never(l) => LeadsTo::Violated(l.clone()),
                Worst::Incomplete => LeadsTo::Incomplete,
                Worst::Bounded { .. } | Worst::Loop { .. } | Worst::NoPremise => LeadsTo::Holds,
            });
            let best = graph
                .is_complete()
                .then(|| best_case(&graph, pf, qf, secs))
                .flatten();
            timed[i] = Some((w, best));
        } else {
            live[i] = Some(leads_to_progress(
                &graph,
                pf,
                qf,
                Ends::Quiescence,
                &mut progress,
            ));
        }
    }
    // Deferred, a drain's "gone" observations show a `leads_to` or `within` to hold, never
    // that it fails (podcheck_model::drain): anything else is judged without the deferral.
    let decided = graph.is_complete() && progress.stopped().is_none();
    let not_shown = live.iter().zip(&timed).any(|(l, t)| {
        matches!(l, Some(LeadsTo::Violated(_)))
            || matches!(
                t,
                Some((
                    Worst::Never(_) | Worst::Loop { .. } | Worst::Bounded { over: Some(_), .. },
                    _
                ))
            )
    });
    if m.ctx.deferred_gone && decided && not_shown && again.is_none() {
        for (l, t) in live.iter_mut().zip(&mut timed) {
            let shown = !matches!(l, Some(LeadsTo::Violated(_)))
                && !matches!(
                    t,
                    Some((
                        Worst::Never(_) | Worst::Loop { .. } | Worst::Bounded { over: Some(_), .. },
                        _
                    ))
                );
            if !shown {
                *l = Some(LeadsTo::Incomplete);
                if t.is_some() {
                    *t = Some((Worst::Incomplete, None));
                }
            }
        }
        let whole = CheckOptions {
            deferred_gone: false,
            ..opts.clone()
        };
        again = Some((whole, "a drain's observations deferred"));
    }
    let graph_seconds = graph_start.elapsed().as_secs_f64();

    // The traces phase: every trace and lasso replayed through the model.
    let traces_start = Instant::now();
    progress.phase(Phase::Traces, None, None);
    let mut replayed = 0usize;
    let mut properties = Vec::new();
    for (i, (d, (first, _))) in defs.iter().zip(&slots).enumerate() {
        let mut result = PropertyResult::undecided(scenario, d);
        // A finding whose trace is not replayed when the phase stops is not reported.
        let found = match (d.kind, &findings[*first]) {
            (Kind::Always(_) | Kind::Sometimes(_), Finding::State(f)) => f.is_some(),
            (Kind::Step { .. }, Finding::Step(f)) => f.is_some(),
            _ => matches!(live[i], Some(LeadsTo::Violated(_))) || timed[i].is_some(),
        };
        if found && progress.tick(replayed, None).is_some() {
            properties.push(result);
            continue;
        }
        match (d.kind, &findings[*first]) {
            (Kind::Always(c), Finding::State(found)) => {
                result.verdict = match found {
                    Some(v) => {
                        let (run, states) = trace(*v, None, d.name)?;
                        replayed += states.len();
                        if c(&m, states.last().expect("a run has a state")) {
                            return Err(format!(
                                "{}: the counterexample does not break it on replay",
                                d.name
                            ));
                        }
                        result.trace = Some(run);
                        Verdict::Violated
                    }
                    None => undecided.unwrap_or(Verdict::Holds),
                }
            }
            (Kind::Sometimes(c), Finding::State(found)) => {
                result.verdict = match found {
                    Some(v) => {
                        let (run, states) = trace(*v, None, d.name)?;
                        replayed += states.len();
                        if !c(&m, states.last().expect("a run has a state")) {
                            return Err(format!(
                                "{}: the witness does not have it on replay",
                                d.name
                            ));
                        }
                        result.trace = Some(run);
                        Verdict::Holds
                    }
                    None => undecided.unwrap_or(Verdict::Violated),
                }
            }
            (Kind::Step { condition: c, .. }, Finding::Step(found)) => {
                result.verdict = match found {
                    Some((u, a)) => {
                        let breaks = |s: &State, a: &Action, n: &State| !c(&m, s, a, n);
                        let (run, states) = trace(*u, Some((*a, &breaks)), d.name)?;
                        let [.., before, next] = &states[..] else {
                            return Err(format!("{}: the trace has no last step", d.name));
                        };
                        replayed += states.len();
                        let action = run.actions.last().expect("a step trace has a step");
                        if c(&m, before, action, next) {
                            return Err(format!(
                                "{}: the last step does not break it on replay",
                                d.name
                            ));
                        }
                        result.trace = Some(run);
                        Verdict::Violated
                    }
                    None => undecided.unwrap_or(Verdict::Holds),
                }
            }
            (Kind::LeadsTo { .. } | Kind::Within { .. }, Finding::Bits(_)) => {
                result.verdict = match live[i].take() {
                    Some(LeadsTo::Holds) => Verdict::Holds,
                    Some(LeadsTo::Incomplete) | None => Verdict::Incomplete,
                    Some(LeadsTo::Violated(l)) => {
                        let states = l
                            .replay(&m, &graph)
                            .map_err(|e| format!("{}: the lasso does not replay: {e}", d.name))?;
                        replayed += states.len();
                        if !graph.is_fair_lasso(&l) {
                            return Err(format!("{}: the lasso is not a fair run", d.name));
                        }
                        result.lasso = Some(LassoPath {
                            loop_start: (l.end == LassoEnd::Cycle).then_some(l.cycle_start),
                            p_index: l.p_index,
                            actions: l.actions,
                        });
                        Verdict::Violated
                    }
                };
                if let Some((worst, best)) = timed[i].take() {
                    let (timing, counterexample) =
                        judge_time(&m, d, worst, best, &run_of, &graph, secs)?;
                    if let Some(t) = &timing.slowest {
                        replayed += t.actions.len();
                    }
                    if d.kind.is_within() {
                        result.verdict = match timing.worst {
                            _ if result.lasso.is_some() => Verdict::Violated,
                            WorstTime::Seconds(w) if timing.deadline.is_some_and(|t| w <= t) => {
                                Verdict::Holds
                            }
                            WorstTime::NoPremise => Verdict::Holds,
                            WorstTime::Incomplete => Verdict::Incomplete,
                            WorstTime::Seconds(_) | WorstTime::Unbounded => Verdict::Violated,
                        };
                        result.trace = counterexample;
                    }
                    result.timing = Some(timing);
                }
            }
            _ => unreachable!("each kind has its probes"),
        }
        properties.push(result);
    }
    let traces_seconds = traces_start.elapsed().as_secs_f64();
    progress.end_line();
    let stopped = progress.stops().first().copied();
    let complete = graph.is_complete() && stopped.is_none();
    if opts.cross_check && complete {
        let theirs = crate::cross_check::stateright_with(
            scenario,
            defs,
            opts.threads,
            opts.deferred_gone,
            opts.events_as_read,
        );
        crate::cross_check::compare(graph.state_count(), &properties, &theirs)
            .map_err(|e| format!("{}: cross-check with Stateright failed: {e}", scenario.name))?;
    }
    let mut warnings = Vec::new();
    if complete {
        for (i, p) in properties.iter_mut().enumerate() {
            let never = match (premise_probe[i], &findings[slots[i].0]) {
                (Some(k), _) => matches!(findings[k], Finding::State(None)),
                (None, Finding::Bits(pb)) if p.def.kind.premise_and_goal().is_some() => {
                    pb.is_empty_set()
                }
                _ => false,
            };
            p.vacuous = vacuity::vacuous(p.verdict, never);
        }
        warnings = vacuity::warnings(scenario, &m, &properties, |i| {
            matches!(findings[fault_probes + i], Finding::State(Some(_)))
        });
    }
    let result = ScenarioResult {
        scenario: scenario.clone(),
        complete,
        unique_states: graph.state_count(),
        generated_states: graph.generated_count(),
        edges: graph.edge_count(),
        graph_bytes: graph.heap_bytes(),
        seconds: start.elapsed().as_secs_f64(),
        check_seconds,
        phase_seconds: PhaseSeconds {
            exploring: check_seconds,
            graph: graph_seconds,
            traces: traces_seconds,
        },
        stopped,
        properties,
        graph: opts.keep_graph.then(|| Arc::new(graph)),
        warnings,
        symmetry: if reduce {
            m.symmetry
                .classes()
                .iter()
                .map(|c| {
                    c.iter()
                        .map(|n| scenario.cluster.nodes[n.index()].name.clone())
                        .collect()
                })
                .chain(m.symmetry.pod_workloads().iter().map(|w| {
                    vec![format!(
                        "pods of {}",
                        scenario.workloads[*w as usize].name()
                    )]
                }))
                .chain(m.symmetry.proxy_classes().iter().map(|c| {
                    let nodes: Vec<&str> = c
                        .iter()
                        .map(|n| scenario.cluster.nodes[n.index()].name.as_str())
                        .collect();
                    vec![format!("kube-proxies of {}", nodes.join(", "))]
                }))
                .collect()
        } else {
            Vec::new()
        },
        earlier: None,
    };
    Ok((result, again))
}

/// A `within` property's deadline.
fn deadline_of(d: &PropertyDef, m: &Cluster) -> Option<Seconds> {
    match d.kind {
        Kind::Within { seconds, .. } => Some(seconds(m)),
        _ => None,
    }
}

/// The seconds an action takes: a tick's, none for every other step.
pub fn seconds_of(a: &Action) -> Seconds {
    match a {
        Action::Tick(d) => *d as Seconds,
        _ => 0,
    }
}

/// Seconds from state `from` of a run to its end.
fn elapsed_after(run: &Run<Action>, from: usize) -> Seconds {
    run.actions[from.min(run.actions.len())..]
        .iter()
        .map(seconds_of)
        .sum()
}

/// The times of a `leads_to` or `within` property from its worst case on the graph: the
/// slowest run (replayed, and checked to be what it claims) and, for a `within` whose
/// deadline passes, the counterexample: the slowest run cut where the deadline has passed,
/// or the time-taking loop gone round until it has.
#[allow(clippy::type_complexity)]
fn judge_time(
    m: &Cluster,
    d: &PropertyDef,
    worst: Worst<Action>,
    best: Option<Seconds>,
    run_of: &dyn Fn(
        &[StateId],
        &[crate::explore::EdgeId],
        &str,
    ) -> Result<(Run<Action>, Vec<State>), String>,
    graph: &ClusterGraph,
    secs: impl Fn(ActionId) -> Seconds,
) -> Result<(Timing, Option<Run<Action>>), String> {
    let (p, q) = d
        .kind
        .premise_and_goal()
        .expect("a timed property has P and Q");
    let deadline = deadline_of(d, m);
    let mut timing = Timing {
        deadline,
        worst: WorstTime::Incomplete,
        best,
        slowest: None,
        p_index: 0,
        trace_p_index: None,
    };
    fn bad<T>(name: &str, what: String) -> Result<T, String> {
        Err(format!("{name}: {what} on replay"))
    }
    // Checks a replayed run from its P state: P there, no Q after it before the last state.
    let no_q_until_last = |states: &[State], pi: usize| -> Result<(), String> {
        if !p(m, &states[pi]) {
            return bad(d.name, format!("P does not hold in state {pi}"));
        }
        if let Some(j) = (pi..states.len() - 1).find(|j| q(m, &states[*j])) {
            return bad(
                d.name,
                format!("Q holds in state {j}, before the run's end"),
            );
        }
        Ok(())
    };
    let mut counterexample = None;
    match worst {
        Worst::Bounded {
            seconds,
            path,
            over,
        } => {
            timing.worst = WorstTime::Seconds(seconds);
            timing.p_index = path.p_index;
            let (run, states) = run_of(&path.nodes, &path.edges, d.name)?;
            no_q_until_last(&states, path.p_index)?;
            let last = states.last().expect("a run has a state");
            if !q(m, last) || elapsed_after(&run, path.p_index) != seconds {
                return bad(
                    d.name,
                    format!("the slowest run does not reach Q after {seconds} s"),
                );
            }
            if let Some(t) = deadline.filter(|t| seconds > *t) {
                // The slowest run from the shallowest P state that can pass the deadline,
                // cut where it has passed.
                let path = over.as_ref().unwrap_or(&path);
                let mut total = 0;
                let mut cut = path.edges.len();
                for (k, e) in path.edges.iter().enumerate().skip(path.p_index) {
                    total += secs(graph.edge_action(*e));
                    if total > t {
                        cut = k + 1;
                        break;
                    }
                }
                let (c, states) = run_of(&path.nodes[..=cut], &path.edges[..cut], d.name)?;
                no_q_until_last(&states, path.p_index)?;
                if elapsed_after(&c, path.p_index) <= t {
                    return bad(d.name, format!("the counterexample does not pass {t} s"));
                }
                timing.trace_p_index = Some(path.p_index);
                counterexample = Some(c);
            }
            timing.slowest = Some(run);
        }
        Worst::Loop {
            stem,
            cycle,
            cycle_seconds,
        } => {
            timing.worst = WorstTime::Unbounded;
            timing.p_index = stem.p_index;
            if let Some(t) = deadline {
                let TimedPath {
                    mut nodes,
                    mut edges,
                    p_index,
                } = stem.clone();
                let mut total = stem.seconds_after_p(graph, &secs);
                while total <= t {
                    for e in &cycle {
                        edges.push(*e);
                        nodes.push(graph.target(*e));
                    }
                    total += cycle_seconds;
                }
                let (run, states) = run_of(&nodes, &edges, d.name)?;
                no_q_until_last(&states, p_index)?;
                if q(m, states.last().expect("a run has a state"))
                    || elapsed_after(&run, p_index) <= t
                {
                    return bad(d.name, format!("the loop does not keep Q away for {t} s"));
                }
                timing.trace_p_index = Some(p_index);
                counterexample = Some(run);
            }
        }
        Worst::Never(l) => {
            timing.worst = WorstTime::Unbounded;
            timing.p_index = l.p_index;
        }
        Worst::NoPremise => timing.worst = WorstTime::NoPremise,
        Worst::Incomplete => {}
    }
    Ok((timing, counterexample))
}

/// The result of a scenario that was not checked because an earlier one was stopped (Ctrl-C):
/// no state explored, every property `incomplete`.
pub fn not_checked(scenario: &Scenario, stop: Stop) -> Result<ScenarioResult, String> {
    let defs = selected(scenario)?;
    Ok(ScenarioResult {
        scenario: scenario.clone(),
        complete: false,
        unique_states: 0,
        generated_states: 0,
        edges: 0,
        graph_bytes: 0,
        seconds: 0.0,
        check_seconds: 0.0,
        phase_seconds: PhaseSeconds::default(),
        stopped: Some(Stop { states: 0, ..stop }),
        properties: defs
            .iter()
            .map(|d| PropertyResult::undecided(scenario, d))
            .collect(),
        graph: None,
        symmetry: Vec::new(),
        warnings: Vec::new(),
        earlier: None,
    })
}
