//! The plan scenario a measuring example takes with `-f MANIFESTS PLAN`.

use podcheck_input::plan::{plan_scenarios_in_cones_served, Plan};
use podcheck_input::spec::Scenario;

/// The first plan scenario of `plan` (`PLAN`, or `PLAN:WORKLOAD` for the one about that
/// workload), reduced to its cone of influence and with the Service that concerns its pods,
/// as `podcheck check -f` makes it, over the manifests of the files (or folder) `path`.
pub fn manifest_scenario(path: &str, plan: &str) -> Result<Scenario, String> {
    let apps = podcheck_input::files::applications(&[path.to_string()])?;
    let app = apps.apps.first().ok_or(format!("{path}: no manifests"))?;
    let reading = podcheck_input::manifest::read(&app.sources)?;
    let (plan, target) = match plan.split_once(':') {
        Some((p, t)) => (p, Some(t)),
        None => (plan, None),
    };
    let plan = Plan::parse(plan)?;
    let set = plan_scenarios_in_cones_served(
        &reading.scenario,
        &reading.services,
        &[plan],
        &reading.plans,
        &podcheck_model::cluster::pod_places,
    );
    // `PLAN` alone: its first scenario; `PLAN:WORKLOAD`: the one about that workload.
    let first = set
        .scenarios
        .iter()
        .position(|s| target.is_none_or(|t| s.name.ends_with(&format!(" {t}"))));
    first.map(|i| set.scenarios[i].clone()).ok_or(match target {
        Some(t) => format!("{path}: the plan {} has no scenario about {t}", plan.name()),
        None => format!("{path}: the plan {} applies to nothing", plan.name()),
    })
}
