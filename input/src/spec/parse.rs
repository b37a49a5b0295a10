//! Reading a file of scenarios: parse, validate, and point a validation error at the line of
//! the part it is about.

use super::Scenario;
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
    /// The line of the field a validation error is about, by the word it starts with
    /// (`service …`, `fault …`, `workload `web`: …`, `cluster.nodes …`), else the line of
    /// the scenario's name.
    fn line_of(&self, error: &str) -> usize {
        let mut words = error.split([' ', ':', '.']);
        let mut first = words.next().unwrap_or("");
        // `two workloads are named …`, `two stepFails faults …`: the second word says which.
        if first == "two" {
            first = words.next().unwrap_or("");
        }
        let field = match first {
            "service" => &self.service,
            "fault" | "faults" | "stepFails" | "at" => &self.faults,
            "workload" | "workloads" => &self.workloads,
            "cluster" | "node" | "nodes" => &self.cluster,
            "persistentVolumeClaims" | "claim" => &self.persistent_volume_claims,
            "podDisruptionBudgets" => &self.pod_disruption_budgets,
            "expect" | "property" => &self.expect,
            _ => &None,
        };
        field
            .as_ref()
            .map(|f| f.referenced.line())
            .filter(|&n| n > 0)
            .unwrap_or(self.name.referenced.line()) as usize
    }
}
