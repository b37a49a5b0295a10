//! Vacuity: what makes a verdict say less than it seems to.
//!
//! A check of a scenario in which nothing the scenario asks about can happen still gives
//! verdicts, and they are all "as expected": a safety property holds where its situation
//! never arises, a fault that is never enabled breaks nothing. Those runs are reported here,
//! each a [`Warning`] naming what never happened:
//!
//! * a fault of the scenario that no reachable state has seen happen (it was never enabled:
//!   for example a `deletePod` of a workload none of whose pods ever becomes Ready);
//!   `stepFails` is not one: it is a standing condition of the cluster, with no moment of
//!   its own;
//! * a `start: settled` whose canonical startup never settled (a workload that never had all
//!   its pods Ready, a proxy still behind): the exploration starts from a cluster that is not
//!   the one the scenario means;
//! * a witness (`sometimes`) that no reachable state has, unless the scenario expects exactly
//!   that (`verdict: violated`);
//! * a `leads_to` or `within` property whose `P` no reachable state has: it holds, but there
//!   is no run to judge;
//! * a safety property with a premise ([`crate::PropertyDef::premise`]) that the scenario
//!   lists, whose premise no reachable state has.
//!
//! A violated property is never vacuous, and never warned of as holding vacuously: its
//! counterexample is a run in which it was judged ([`vacuous`]). A premise must therefore hold
//! in every state where its property can be broken (`properties/tests/premises.rs` checks the
//! catalogue's on data); the rule keeps a verdict from contradicting itself where a premise of
//! one's own does not.
//!
//! Each is judged on the explored graph, so only a complete run reports them: an incomplete
//! one cannot say "never". Symmetry reduction keeps them exact: a fault names its node or
//! workload (which makes them distinguished), and a premise, like every property, does not
//! tell interchangeable nodes apart, so a state has it iff its representative has it.

use crate::result::PropertyResult;
use podcheck_input::spec::Fault;
use podcheck_model::{Cluster, Scenario, Unsettled, Verdict};
use serde::Serialize;

/// One thing a check never saw happen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Warning {
    /// Fault `index` of the scenario never happened in any reachable state.
    FaultNeverHappened { index: usize, fault: String },
    /// `start: settled` did not settle: what was still missing.
    StartNeverSettled { missing: Vec<String> },
    /// A `sometimes` property no reachable state has.
    WitnessNeverMet { property: &'static str },
    /// A `leads_to` or `within` property whose `P` no reachable state has.
    PremiseNeverHolds {
        property: &'static str,
        premise: &'static str,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::FaultNeverHappened { index, fault } => write!(
                f,
                "faults[{index}] ({fault}) never happened: no reachable state enables it, so \
                 no verdict says anything about it"
            ),
            Warning::StartNeverSettled { missing } => write!(
                f,
                "`start: settled` never settled ({}): the check starts from a cluster that is \
                 still starting up",
                missing.join("; ")
            ),
            Warning::WitnessNeverMet { property } => write!(
                f,
                "witness `{property}` never happens: no reachable state has it (if that is \
                 what you mean, expect it `violated`)"
            ),
            Warning::PremiseNeverHolds { property, premise } => write!(
                f,
                "`{property}` holds vacuously: no reachable state has its premise ({premise})"
            ),
        }
    }
}

/// Whether a property whose premise (or `P`) no reachable state has, if `never`, judged
/// nothing. A violated one judged something, whatever its premise says: its counterexample is
/// a run that breaks it, so it is not vacuous.
pub fn vacuous(verdict: Verdict, never: bool) -> bool {
    never && verdict != Verdict::Violated
}

/// A fault in the scenario's words: its key, and the workload or node it names.
pub fn describe_fault(fault: &Fault) -> String {
    let value = serde_json::to_value(fault).unwrap_or_default();
    let Some((key, body)) = value.as_object().and_then(|o| o.iter().next()) else {
        return value.as_str().unwrap_or("fault").to_string();
    };
    let named = ["workload", "node"]
        .iter()
        .find_map(|k| body.get(*k).and_then(|v| v.as_str()).map(|v| (*k, v)));
    match named {
        Some((k, v)) => format!("{key} of {k} {v}"),
        None => key.clone(),
    }
}

/// The warning for a start that did not settle, if it did not.
pub fn unsettled_start(scenario: &Scenario, missing: &[Unsettled]) -> Option<Warning> {
    if missing.is_empty() {
        return None;
    }
    let missing = missing
        .iter()
        .map(|u| match *u {
            Unsettled::NotReady {
                workload,
                ready,
                wanted,
            } => format!(
                "{} has {ready} of {wanted} pods Ready",
                scenario.workloads[workload as usize].name()
            ),
            Unsettled::ProxiesBehind => {
                "a kube-proxy has not applied the EndpointSlice".to_string()
            }
        })
        .collect();
    Some(Warning::StartNeverSettled { missing })
}

/// The warnings of a complete check: `happened(i)` tells whether fault `i` happened in some
/// reachable state, and each property result has its [`PropertyResult::vacuous`] mark.
pub fn warnings(
    scenario: &Scenario,
    m: &Cluster,
    properties: &[PropertyResult],
    happened: impl Fn(usize) -> bool,
) -> Vec<Warning> {
    let mut out = Vec::new();
    out.extend(unsettled_start(scenario, &m.unsettled_start()));
    for (index, fault) in scenario.faults.iter().enumerate() {
        // A failing step is a standing condition of the cluster, not an event: it has no
        // moment of its own to happen at.
        if matches!(fault, Fault::StepFails { .. }) {
            continue;
        }
        if !happened(index) {
            out.push(Warning::FaultNeverHappened {
                index,
                fault: describe_fault(fault),
            });
        }
    }
    for p in properties {
        let expected_violated = scenario
            .expected(p.def.name)
            .is_some_and(|e| e.verdict == Verdict::Violated);
        if p.def.kind.is_witness() && p.verdict == Verdict::Violated && !expected_violated {
            out.push(Warning::WitnessNeverMet {
                property: p.def.name,
            });
        }
        // Safety properties are checked in every scenario: a vacuous one is a warning where
        // the scenario asks about it, and a mark in the report elsewhere.
        let listed = scenario.expected(p.def.name).is_some();
        if vacuous(p.verdict, p.vacuous) && (listed || !p.def.kind.is_safety()) {
            let premise = match p.def.premise {
                Some(premise) if p.def.kind.is_safety() => premise.sentence,
                _ => "P",
            };
            out.push(Warning::PremiseNeverHolds {
                property: p.def.name,
                premise,
            });
        }
    }
    out
}
