//! Transitional: the fault plans live in `podcheck_input::plan`; these wrappers keep today's
//! signatures, with the model's placement of the first pods ([`first_pod_nodes`]).
// Transitional re-export: removed when the branches are merged

use crate::cluster::first_pod_nodes;
use podcheck_input::spec::Scenario;
use std::collections::BTreeMap;

pub use podcheck_input::plan::{Placement, Plan, PlanSet, OUTAGE_SECONDS};

/// [`podcheck_input::plan::plan_scenarios`], placed by the model.
pub fn plan_scenarios(base: &Scenario, plans: &[Plan]) -> PlanSet {
    podcheck_input::plan::plan_scenarios(base, plans, &first_pod_nodes)
}

/// [`podcheck_input::plan::plan_scenarios_for`], placed by the model.
pub fn plan_scenarios_for(
    base: &Scenario,
    plans: &[Plan],
    chosen: &BTreeMap<String, Vec<Plan>>,
) -> PlanSet {
    podcheck_input::plan::plan_scenarios_for(base, plans, chosen, &first_pod_nodes)
}
