//! The trace data type, built by replaying a path through the model.

use crate::events::{events, Event};
use crate::facts::{diff, facts};
use crate::kubectl::{describe_warned_at, kubectl_get_pods, kubectl_get_pods_at, History};
use crate::words;
use podcheck_model::{Action, Cluster, State, Verdict};
use podcheck_properties::Run;
use serde::{Deserialize, Serialize};
use stateright::Path;

/// One step of a trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// 1-based.
    pub index: usize,
    /// Seconds since the start, after this step.
    pub time: u64,
    /// Who acts: `kubelet@node-1`, `scheduler`, `clock`, `kubectl`, `environment`, … Written
    /// only by [`words::actor_name`]; renderings that need to know who acts read the step's
    /// action, never this text.
    pub actor: String,
    /// What it does, in Kubernetes words.
    pub action: String,
    /// What changed in the API objects.
    pub api: Vec<String>,
    /// What changed in the runtime truth on the nodes.
    pub runtime: Vec<String>,
    /// What changed in the data plane and outside the cluster.
    pub data_plane: Vec<String>,
    /// The events a real cluster records for this step (`kubectl describe`, `kubectl get
    /// events`).
    pub events: Vec<Event>,
    /// `kubectl get pods` after the step, where its output changed.
    pub pods: Option<String>,
    /// A routine step: the clock moving on, or a probe run, that changed nothing the trace
    /// shows ([`Step::changes_nothing`]). The timeline folds runs of them into one line; the
    /// trace's JSON keeps every step, and says `"routine": true` of these.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub routine: bool,
}

impl Step {
    /// Whether the step changes nothing a trace shows: no API object, no runtime truth, no
    /// data plane, no event, no `kubectl get pods` change. Some steps that change the state
    /// still show nothing (a taint, a partition): only [`Step::routine`] ones are folded.
    pub fn changes_nothing(&self) -> bool {
        self.api.is_empty()
            && self.runtime.is_empty()
            && self.data_plane.is_empty()
            && self.events.is_empty()
            && self.pods.is_none()
    }
}

/// The kind of property a trace is about. It serializes as the catalogue writes it:
/// `always`, `sometimes`, `leads_to`, `step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Safety: no reachable state breaks it; a trace is a counterexample.
    Always,
    /// A witness: some reachable state has it.
    Sometimes,
    /// `P ~> Q` under weak fairness; a trace is a lasso, or a run that stops where no fair
    /// component has anything to do.
    LeadsTo,
    /// A property of one transition (state, action, next state).
    Step,
    /// `P ~> Q within T s`; a trace is a run along which the deadline passes without `Q`, a
    /// lasso that never reaches `Q`, or the slowest run to `Q`.
    Within,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Always => "always",
            Kind::Sometimes => "sometimes",
            Kind::LeadsTo => "leads_to",
            Kind::Step => "step",
            Kind::Within => "within",
        }
    }
}

impl From<&podcheck_properties::Kind> for Kind {
    /// The kind of a catalogue property, as a trace records it.
    fn from(k: &podcheck_properties::Kind) -> Kind {
        match k {
            podcheck_properties::Kind::Always(_) => Kind::Always,
            podcheck_properties::Kind::Sometimes(_) => Kind::Sometimes,
            podcheck_properties::Kind::LeadsTo { .. } => Kind::LeadsTo,
            podcheck_properties::Kind::Step { .. } => Kind::Step,
            podcheck_properties::Kind::Within { .. } => Kind::Within,
        }
    }
}

/// A counterexample or witness.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    pub scenario: String,
    /// The Kubernetes release the model followed, as `1.35`.
    #[serde(default)]
    pub kubernetes_version: String,
    pub property: String,
    pub kind: Kind,
    pub verdict: Verdict,
    /// `kubectl get pods` in the initial state.
    pub initial_pods: String,
    pub steps: Vec<Step>,
    /// For a lasso: the index of the first step of the cycle (the run repeats steps
    /// `loop_start..` forever).
    pub loop_start: Option<usize>,
    /// `kubectl describe pod` of every pod that has a Warning event in the last state: its
    /// phase, STATUS and Events table.
    #[serde(default)]
    pub describe: Vec<String>,
    /// For a timed property (`within`, or a `leads_to`'s slowest run): where the clock starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
}

/// Where a timed trace's clock starts, and its deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The state where `P` holds and the clock starts: 0 is the initial state, `i` the state
    /// after step `i`.
    pub from: usize,
    /// Its model time, in seconds since the start.
    pub from_time: u64,
    /// A `within` property's deadline, in seconds after `from`.
    pub deadline: Option<u64>,
    /// The trace is the slowest run (the one the worst case is measured on), not a
    /// counterexample.
    #[serde(default)]
    pub slowest: bool,
}

impl Trace {
    /// The trace with its clock started at state `from` (0: the initial state); `slowest`:
    /// it is the slowest run of a timed property.
    pub fn with_clock(mut self, from: usize, deadline: Option<u64>, slowest: bool) -> Trace {
        let from_time = if from == 0 {
            0
        } else {
            self.steps.get(from - 1).map_or(0, |s| s.time)
        };
        self.clock = Some(Clock {
            from,
            from_time,
            deadline,
            slowest,
        });
        self
    }
}

/// A path as the model's states and the actions between them.
#[derive(Clone, Debug)]
pub struct RawPath {
    pub states: Vec<State>,
    pub actions: Vec<Action>,
}

impl RawPath {
    /// Splits a Stateright path.
    pub fn from_stateright(path: &Path<State, Action>) -> RawPath {
        let pairs = path.clone().into_vec();
        let mut states = Vec::new();
        let mut actions = Vec::new();
        for (s, a) in pairs {
            states.push(s);
            if let Some(a) = a {
                actions.push(a);
            }
        }
        RawPath { states, actions }
    }
}

impl RawPath {
    /// The path of a run: its actions from the model's initial state, and the states they
    /// lead to, replayed through the model (each action must be enabled).
    pub fn from_run(m: &Cluster, run: &Run<Action>) -> Result<RawPath, String> {
        let states = run.states(m)?;
        Ok(RawPath {
            states,
            actions: run.actions.clone(),
        })
    }

    /// The path that `actions` take from the model's initial state.
    pub fn from_actions(m: &Cluster, actions: &[Action]) -> Result<RawPath, String> {
        RawPath::from_run(
            m,
            &Run {
                init: 0,
                actions: actions.to_vec(),
            },
        )
    }
}

/// Replays a path through the model: it must start in the initial state, each action must be
/// enabled, and each state must be exactly what its action produces from the state before
/// ([`podcheck_properties::replay`]). A path that does not replay is a bug, reported as an
/// error.
pub fn replay(m: &Cluster, path: &RawPath) -> Result<(), String> {
    if path.states.is_empty() {
        return Err("the trace has no states".into());
    }
    if path.actions.len() + 1 != path.states.len() {
        return Err(format!(
            "the trace has {} states but {} actions",
            path.states.len(),
            path.actions.len()
        ));
    }
    podcheck_properties::replay(m, 0, &path.actions, |i, s| path.states[i] == *s)?;
    Ok(())
}

/// Builds a trace from a path (after replaying it). `loop_start` marks a lasso's cycle: the
/// last state must then equal the state at that index.
pub fn from_raw(
    m: &Cluster,
    path: &RawPath,
    property: &str,
    kind: Kind,
    verdict: Verdict,
    loop_start: Option<usize>,
) -> Result<Trace, String> {
    replay(m, path)?;
    if let Some(l) = loop_start {
        if l >= path.states.len() || path.states[l] != path.states[path.states.len() - 1] {
            return Err(format!("the lasso does not close at state {l}"));
        }
    }
    let mut steps = Vec::new();
    let mut time = 0u64;
    let mut history = History::default();
    for (i, a) in path.actions.iter().enumerate() {
        let (before, after) = (&path.states[i], &path.states[i + 1]);
        if let Action::Tick(d) = a {
            time += *d as u64;
        }
        history.note(before, after, time);
        let actor_name = words::actor_name(m, a);
        let action = words::what(m, before, a, after);
        // The events come from the step itself, replayed: a stored state may carry another
        // path's journal (it is not part of the state's identity).
        let replayed = m.apply(before, a).ok_or("a step does not replay")?;
        let (fb, fa) = (facts(m, before), facts(m, after));
        // The table is shown where the pods changed, not where only the clock moved on
        // (RESTARTS "(X ago)" grows with every tick).
        let (pb, pa) = (kubectl_get_pods(m, before), kubectl_get_pods(m, after));
        let shown = kubectl_get_pods_at(m, after, &history);
        let mut step = Step {
            index: i + 1,
            time,
            actor: actor_name,
            action,
            api: diff(&fb.api, &fa.api),
            runtime: diff(&fb.runtime, &fa.runtime),
            data_plane: {
                let mut lines = diff(&fb.data_plane, &fa.data_plane);
                if let Some(uid) = crate::facts::refused_request(before, a) {
                    lines.push(crate::facts::refused_words(m, before, uid));
                }
                if let Some(via) = crate::facts::rejected_request(before, a) {
                    lines.push(crate::facts::rejected_words(m, via));
                }
                lines
            },
            events: events(m, before, a, &replayed),
            pods: (pb != pa).then_some(shown),
            routine: false,
        };
        step.routine = matches!(
            a,
            Action::Tick(_) | Action::Kubelet(podcheck_model::kubelet::Action::Probe { .. })
        ) && step.changes_nothing();
        steps.push(step);
    }
    Ok(Trace {
        scenario: m.scenario.name.clone(),
        kubernetes_version: m.release.to_string(),
        property: property.to_string(),
        kind,
        verdict,
        initial_pods: kubectl_get_pods_at(m, &path.states[0], &History::default()),
        steps,
        loop_start: loop_start.map(|l| l + 1),
        describe: describe_warned_at(m, path.states.last().unwrap_or(&path.states[0]), &history),
        clock: None,
    })
}

/// Builds a trace from a Stateright path (after replaying it).
pub fn from_path(
    m: &Cluster,
    path: &Path<State, Action>,
    property: &str,
    kind: Kind,
    verdict: Verdict,
) -> Result<Trace, String> {
    from_raw(
        m,
        &RawPath::from_stateright(path),
        property,
        kind,
        verdict,
        None,
    )
}

/// Builds a trace from a run (replayed through the model).
pub fn from_run(
    m: &Cluster,
    run: &Run<Action>,
    property: &str,
    kind: Kind,
    verdict: Verdict,
    loop_start: Option<usize>,
) -> Result<Trace, String> {
    from_raw(
        m,
        &RawPath::from_run(m, run)?,
        property,
        kind,
        verdict,
        loop_start,
    )
}
