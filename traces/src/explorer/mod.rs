//! The model as Stateright's Explorer shows it (`podcheck explore`).
//!
//! [`ExplorerModel`] wraps the model: each of its actions carries its words, written with the
//! state it is taken in and the state it leads to (Stateright's `format_action` gets no state,
//! and a pod's name needs one), and its states are shown as text and as a picture ([`view`]). Only state properties
//! are handed to Stateright — `always` and `sometimes` — because that is all its checker
//! judges; properties of other kinds are shown with the verdicts `podcheck check` gives them.
//!
//! Stateright's own page cannot say which scenario it shows, nor list a leads-to or a step
//! property, and it shows the initial state as raw data. So the picture of the initial state
//! starts with a panel of the scenario: its name and description, and every property it
//! checks with its kind, its expected verdict and the verdict `podcheck check` gives (filled
//! in through [`ExplorerModel::report`] once the check has run).

pub mod view;

use crate::{words, Kind};
use podcheck_model::{Action, Cluster, PropertyFn, State, Verdict};
use stateright::{Model, Property};
use std::sync::{Arc, OnceLock};

/// An action with its words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Named {
    pub action: Action,
    pub words: String,
}

/// A property the scenario checks, as the scenario panel lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    pub kind: Kind,
    /// The verdict real Kubernetes gives.
    pub expected: Verdict,
}

/// What `podcheck check` found, for the scenario panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub unique_states: usize,
    pub complete: bool,
    /// (property, verdict, steps of its trace) for every listed property.
    pub verdicts: Vec<(String, Verdict, Option<usize>)>,
}

/// The model with the Explorer's view of it.
#[derive(Clone, Debug)]
pub struct ExplorerModel {
    pub cluster: Cluster,
    /// Every property the scenario checks, of every kind (the scenario panel lists them).
    pub listed: Vec<Listed>,
    /// The check's verdicts, once known.
    pub report: Arc<OnceLock<Report>>,
}

impl ExplorerModel {
    /// Wraps a model; its properties are what the Explorer lists (they must all be state
    /// properties: `always` or `sometimes`).
    pub fn new(cluster: Cluster) -> Self {
        ExplorerModel {
            cluster,
            listed: Vec::new(),
            report: Arc::new(OnceLock::new()),
        }
    }

    /// The same, with every property the scenario checks for the scenario panel.
    pub fn with_listed(mut self, listed: Vec<Listed>) -> Self {
        self.listed = listed;
        self
    }

    /// Where the check's verdicts go once known (shared with every clone of the model).
    pub fn report(&self) -> Arc<OnceLock<Report>> {
        Arc::clone(&self.report)
    }

    /// The properties the Explorer lists.
    pub fn property_fns(&self) -> &[PropertyFn] {
        &self.cluster.properties
    }
}

impl Model for ExplorerModel {
    type State = State;
    type Action = Named;

    fn init_states(&self) -> Vec<State> {
        self.cluster.init_states()
    }

    fn actions(&self, state: &State, actions: &mut Vec<Named>) {
        let mut inner = Vec::new();
        self.cluster.actions(state, &mut inner);
        // Each action is worded with the state it leads to: an action the model lists is
        // enabled, so it has one.
        actions.extend(inner.into_iter().filter_map(|action| {
            let after = self.cluster.apply(state, &action)?;
            Some(Named {
                words: words::describe(&self.cluster, state, &action, &after),
                action,
            })
        }));
    }

    fn next_state(&self, state: &State, action: Named) -> Option<State> {
        self.cluster.apply(state, &action.action)
    }

    fn format_action(&self, action: &Named) -> String {
        action.words.clone()
    }

    fn format_step(&self, last_state: &State, action: Named) -> Option<String> {
        view::step_text(&self.cluster, last_state, &action.action)
    }

    fn as_svg(&self, path: stateright::Path<State, Named>) -> Option<String> {
        let steps: Vec<(State, Option<Action>)> = path
            .into_vec()
            .into_iter()
            .map(|(s, a)| (s, a.map(|a| a.action)))
            .collect();
        let picture = view::path_svg(&self.cluster, &steps)?;
        if steps.len() == 1 {
            let panel = view::scenario_svg(&self.cluster, &self.listed, self.report.get());
            Some(format!("{panel}{picture}"))
        } else {
            Some(picture)
        }
    }

    fn properties(&self) -> Vec<Property<Self>> {
        self.property_fns()
            .iter()
            .enumerate()
            .map(|(i, p)| Property {
                expectation: p.expectation.clone(),
                name: p.name,
                condition: CONDITIONS[i],
            })
            .collect()
    }
}

/// Stateright's properties are plain `fn`s of the model: one per position in the list, each
/// reading the wrapped model's property at that position.
fn nth<const I: usize>(m: &ExplorerModel, s: &State) -> bool {
    (m.cluster.properties[I].condition)(&m.cluster, s)
}

macro_rules! conditions {
    ($($i:literal)*) => {
        /// How many properties the Explorer can list.
        pub const MAX_PROPERTIES: usize = [$($i),*].len();
        const CONDITIONS: [fn(&ExplorerModel, &State) -> bool; MAX_PROPERTIES] = [$(nth::<$i>),*];
    };
}
conditions!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
