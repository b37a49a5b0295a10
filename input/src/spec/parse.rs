//! Reading a file of scenarios: parse, validate, and point a validation error at the line of
//! the part it is about.

use super::{Invalid, Part, Scenario};
use serde::Deserialize;

/// Reads a list of scenarios from YAML. `origin` names the file in error messages.
pub fn parse_scenarios(yaml: &str, origin: &str) -> Result<Vec<Scenario>, String> {
    let list: Vec<Scenario> = serde_saphyr::from_str(yaml).map_err(|e| format!("{origin}: {e}"))?;
    if list.is_empty() {
        return Err(format!("{origin}: no scenarios in the file"));
    }
    let mut names = std::collections::BTreeSet::new();
    for s in &list {
        if !names.insert(s.name.as_str()) {
            return Err(format!("{origin}: two scenarios are named `{}`", s.name));
        }
    }
    // Where each scenario's parts begin, for the line of a validation error (none if the
    // file does not read that way: the error then names the file alone).
    let lines: Vec<ScenarioLines> = serde_saphyr::from_str(yaml).unwrap_or_default();
    for (i, s) in list.iter().enumerate() {
        s.validate().map_err(|e| {
            let at = match lines.get(i).map(|l| l.line_of(&e)) {
                Some(n) if n > 0 => format!("{origin}:{n}"),
                _ => origin.to_string(),
            };
            format!("{at}: scenario `{}`: {e}", s.name)
        })?;
    }
    Ok(list)
}

/// Where a part of a scenario begins in its file, if it is there.
type At = Option<serde_saphyr::Spanned<serde::de::IgnoredAny>>;

/// The lines a scenario's name and top-level fields begin on ([`parse_scenarios`]).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ScenarioLines {
    name: serde_saphyr::Spanned<serde::de::IgnoredAny>,
    cluster: At,
    workloads: At,
    service: At,
    faults: At,
    persistent_volume_claims: At,
    pod_disruption_budgets: At,
    expect: At,
}

impl ScenarioLines {
    /// The line of the part of the scenario a validation error is about, else the line of
    /// the scenario's name.
    fn line_of(&self, error: &Invalid) -> usize {
        let field = match error.object.part() {
            Some(Part::Service) => &self.service,
            Some(Part::Faults) => &self.faults,
            Some(Part::Workloads) => &self.workloads,
            Some(Part::Cluster) => &self.cluster,
            Some(Part::PersistentVolumeClaims) => &self.persistent_volume_claims,
            Some(Part::PodDisruptionBudgets) => &self.pod_disruption_budgets,
            Some(Part::Expect) => &self.expect,
            None => &None,
        };
        field
            .as_ref()
            .map(|f| f.referenced.line())
            .filter(|&n| n > 0)
            .unwrap_or(self.name.referenced.line()) as usize
    }
}
