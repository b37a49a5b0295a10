//! The built-in scenario catalogue (`input/scenarios/catalogue.yaml`).

use crate::spec::{parse_scenarios, Scenario};

/// The catalogue's text, as shipped.
pub const CATALOGUE_YAML: &str = include_str!("../scenarios/catalogue.yaml");

/// Where the catalogue is in the repository, as messages name it.
pub const CATALOGUE_PATH: &str = "input/scenarios/catalogue.yaml";

/// Every built-in scenario, in catalogue order.
pub fn builtin() -> Vec<Scenario> {
    parse_scenarios(CATALOGUE_YAML, CATALOGUE_PATH)
        .expect("the built-in catalogue is valid (tested)")
}

/// A built-in scenario by name.
pub fn find(name: &str) -> Option<Scenario> {
    builtin().into_iter().find(|s| s.name == name)
}
