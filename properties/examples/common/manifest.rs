//! The plan scenario a measuring example takes with `-f MANIFESTS PLAN`.

use podcheck_input::plan::{plan_scenarios, Plan};
use podcheck_input::spec::Scenario;

/// The first plan scenario of `plan` over the manifests of the files (or folder) `path`.
pub fn manifest_scenario(path: &str, plan: &str) -> Result<Scenario, String> {
    let apps = podcheck_input::files::applications(&[path.to_string()])?;
    let app = apps.apps.first().ok_or(format!("{path}: no manifests"))?;
    let reading = podcheck_input::manifest::read(&app.sources)?;
    let plan = Plan::parse(plan)?;
    let set = plan_scenarios(
        &reading.scenario,
        &[plan],
        &podcheck_model::cluster::first_pod_nodes,
    );
    set.scenarios.into_iter().next().ok_or(format!(
        "{path}: the plan {} applies to nothing",
        plan.name()
    ))
}
