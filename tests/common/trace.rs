//! A property's counterexample or witness as a rendered trace: its run replayed through the
//! model, step by step, as `podcheck check --traces` replays it.

use podcheck_properties::check::{self, ScenarioResult};
use podcheck_properties::{Kind, PropertyResult};

/// Each trace and lasso of the run replayed through the model (a panic names the step that
/// does not replay): the property and its trace.
pub fn replayed(r: &ScenarioResult) -> Vec<(&PropertyResult, podcheck_traces::Trace)> {
    let m = check::model(&r.scenario, &[], false);
    let mut out = Vec::new();
    for p in &r.properties {
        let (run, loop_start) = match (&p.trace, &p.lasso) {
            (Some(t), _) => (t.clone(), None),
            (None, Some(l)) => (l.run(), l.loop_start),
            _ => continue,
        };
        let kind = match p.def.kind {
            Kind::Always(_) => podcheck_traces::Kind::Always,
            Kind::Sometimes(_) => podcheck_traces::Kind::Sometimes,
            Kind::Step { .. } => podcheck_traces::Kind::Step,
            Kind::LeadsTo { .. } => podcheck_traces::Kind::LeadsTo,
            Kind::Within { .. } => podcheck_traces::Kind::Within,
        };
        let t = podcheck_traces::from_run(&m, &run, p.def.name, kind, p.verdict, loop_start)
            .unwrap_or_else(|e| panic!("{}/{}: {e}", r.scenario.name, p.def.name));
        out.push((p, t));
    }
    out
}
