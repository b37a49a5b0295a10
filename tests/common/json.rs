//! Looking things up in the JSON that `podcheck` prints.

use serde_json::Value;

/// The scenario object named `name` in a `check --format json` result.
pub fn scenario<'a>(results: &'a [Value], name: &str) -> &'a Value {
    results
        .iter()
        .find(|r| r["scenario"] == name)
        .unwrap_or_else(|| panic!("no scenario {name} in {results:?}"))
}

/// The property object named `name` in `v["properties"]`: of a scenario object of a
/// `check --format json` result, or of a swarm report.
pub fn property<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["properties"]
        .as_array()
        .expect("properties is an array")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no property {name} in {v}"))
}
