//! The plan scenario a measuring example takes with `-f MANIFESTS PLAN`.

use podcheck_input::plan::{plan_scenarios_in_cones, Plan};
use podcheck_input::spec::Scenario;

/// The first plan scenario of `plan`, reduced to its cone of influence as `podcheck check -f`
/// makes it, over the manifests of the files (or folder) `path`.
pub fn manifest_scenario(path: &str, plan: &str) -> Result<Scenario, String> {
    let apps = podcheck_input::files::applications(&[path.to_string()])?;
    let app = apps.apps.first().ok_or(format!("{path}: no manifests"))?;
    let reading = podcheck_input::manifest::read(&app.sources)?;
    let plan = Plan::parse(plan)?;
    let set = plan_scenarios_in_cones(
        &reading.scenario,
        &[plan],
        &reading.plans,
        &podcheck_model::cluster::pod_places,
    );
    set.scenarios.into_iter().next().ok_or(format!(
        "{path}: the plan {} applies to nothing",
        plan.name()
    ))
}
