//! The verdict of one property in one scenario ([`PropertyResult`]), with what it shows: its
//! counterexample or witness, a `leads_to` property's lasso ([`LassoPath`]), a timed
//! property's times ([`Timing`]).
//!
//! It sits below the checking ([`crate::check`]), the cross-check with Stateright
//! ([`crate::cross_check`]) and the vacuity warnings ([`crate::vacuity`]), which all read it.

use crate::catalogue::PropertyDef;
use crate::explore::Run;
use crate::timing::Seconds;
use podcheck_input::spec::{Scenario, Verdict};
use podcheck_model::{Action, Cluster, State};

/// A `leads_to` counterexample: a run from the initial state to a state where P holds and on
/// to a fair cycle of states without Q (or to a final state without Q). Its states are
/// rebuilt with [`LassoPath::states`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LassoPath {
    /// The actions from the initial state: the stem, then one round of the cycle.
    pub actions: Vec<Action>,
    /// Index of the state (0 = the initial state) where the cycle starts (the last state
    /// repeats it); None when the run ends in a state where no fair component acts.
    pub loop_start: Option<usize>,
    /// Index of the state where P holds.
    pub p_index: usize,
}

impl LassoPath {
    /// The lasso as a run from the model's initial state.
    pub fn run(&self) -> Run<Action> {
        Run {
            init: 0,
            actions: self.actions.clone(),
        }
    }

    /// The lasso's states, replayed through the model.
    pub fn states(&self, m: &Cluster) -> Result<Vec<State>, String> {
        self.run().states(m)
    }
}

/// The verdict of one property in one scenario.
#[derive(Clone, Debug)]
pub struct PropertyResult {
    pub def: PropertyDef,
    pub verdict: Verdict,
    pub expected: Verdict,
    pub expected_source: String,
    /// The shortest counterexample (`always`, `step`) or witness (`sometimes`), as a run
    /// from the initial state: its states are rebuilt with [`Run::states`].
    pub trace: Option<Run<Action>>,
    /// The lasso of a violated `leads_to` (or of a `within` whose goal a fair run never
    /// reaches).
    pub lasso: Option<LassoPath>,
    /// How long from `P` to `Q`: for a `within` property, and for a `leads_to` with
    /// [`CheckOptions::worst_case`].
    pub timing: Option<Timing>,
    /// A complete run in which no reachable state has the property's premise (a safety
    /// property's [`PropertyDef::premise`], a `leads_to` or `within` property's `P`): the
    /// verdict judged nothing ([`crate::vacuity`]). Never for a violated property
    /// ([`crate::vacuity::vacuous`]).
    pub vacuous: bool,
}

/// What a report shows of a property ([`PropertyResult::shown`]).
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a> {
    pub actions: &'a [Action],
    /// A lasso's loop start (state index).
    pub loop_start: Option<usize>,
    /// A timed property's clock: the state where it starts, the deadline, and whether the
    /// run is the slowest run (not a counterexample).
    pub clock: Option<(usize, Option<Seconds>, bool)>,
}

/// The worst time from `P` to `Q`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorstTime {
    /// Every allowed run from every `P` state reaches `Q` within this many seconds, and one
    /// takes exactly this long.
    Seconds(Seconds),
    /// Some allowed run from a `P` state does not reach `Q` within any bound: a fair run
    /// never does, or a loop along which time passes can be gone round as often as one
    /// likes.
    Unbounded,
    /// No reachable state has `P`: nothing to measure (a warning, not reassurance).
    NoPremise,
    /// Not decided: the graph is partial or the pass was stopped.
    Incomplete,
}

impl WorstTime {
    /// How a report writes it: `42 s`, `unbounded`, `no P state`, `incomplete`.
    pub fn describe(self) -> String {
        match self {
            WorstTime::Seconds(s) => format!("{s} s"),
            WorstTime::Unbounded => "unbounded".into(),
            WorstTime::NoPremise => "no P state".into(),
            WorstTime::Incomplete => "incomplete".into(),
        }
    }
}

/// The times of a `P ~> Q` pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// A `within` property's deadline.
    pub deadline: Option<Seconds>,
    /// The worst case over every allowed run from every `P` state.
    pub worst: WorstTime,
    /// The least time in which some run from a state where `P` has just begun reaches `Q`.
    pub best: Option<Seconds>,
    /// The run that takes the worst case, from the initial state through its `P` state
    /// (`p_index`) to its first `Q` state.
    pub slowest: Option<Run<Action>>,
    /// Index of the state (0 = the initial state) of `slowest` where `P` holds and the
    /// clock starts.
    pub p_index: usize,
    /// The same for a `within` counterexample ([`PropertyResult::trace`]), which may start
    /// from another `P` state.
    pub trace_p_index: Option<usize>,
}

impl PropertyResult {
    /// A property not decided yet: `incomplete`, with the scenario's expectation.
    pub fn undecided(scenario: &Scenario, def: &PropertyDef) -> Self {
        let (expected, expected_source) = expectation(scenario, def);
        PropertyResult {
            def: *def,
            verdict: Verdict::Incomplete,
            expected,
            expected_source,
            trace: None,
            lasso: None,
            timing: None,
            vacuous: false,
        }
    }

    /// Number of actions in the trace (or the lasso: its stem and one round of its cycle).
    pub fn trace_steps(&self) -> Option<usize> {
        self.trace
            .as_ref()
            .map(|t| t.actions.len())
            .or_else(|| self.lasso.as_ref().map(|l| l.actions.len()))
    }

    /// The run a report shows for the property: its counterexample or witness (trace or
    /// lasso), else the slowest run of a timed property; with a lasso's loop start and, for
    /// a timed property, the state where its clock starts and its deadline.
    pub fn shown(&self) -> Option<Shown<'_>> {
        let timing = self.timing.as_ref();
        let clock = |from: usize| timing.map(|t| (from, t.deadline, false));
        match (&self.trace, &self.lasso, timing) {
            (Some(t), _, _) => Some(Shown {
                actions: &t.actions,
                loop_start: None,
                clock: timing.and_then(|tm| clock(tm.trace_p_index.unwrap_or(tm.p_index))),
            }),
            (None, Some(l), _) => Some(Shown {
                actions: &l.actions,
                loop_start: l.loop_start,
                clock: clock(l.p_index).filter(|_| self.def.kind.is_within()),
            }),
            (None, None, Some(tm)) => tm.slowest.as_ref().map(|r| Shown {
                actions: &r.actions,
                loop_start: None,
                clock: Some((tm.p_index, tm.deadline, true)),
            }),
            _ => None,
        }
    }

    /// The actions of the trace or lasso, and a lasso's loop start.
    pub fn actions(&self) -> Option<(&[Action], Option<usize>)> {
        match (&self.trace, &self.lasso) {
            (Some(t), _) => Some((&t.actions, None)),
            (None, Some(l)) => Some((&l.actions, l.loop_start)),
            _ => None,
        }
    }
}

/// The expected verdict of a property in a scenario, with its source: the scenario's
/// expectation, or `holds` with the property's own source.
pub fn expectation(scenario: &Scenario, def: &PropertyDef) -> (Verdict, String) {
    match scenario.expected(def.name) {
        Some(e) => (e.verdict, e.source.clone()),
        None => (Verdict::Holds, def.source.to_string()),
    }
}
