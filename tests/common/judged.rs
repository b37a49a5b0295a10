//! Two runs of one scenario, with a reduction on and off, judge alike: the same properties
//! with the same verdicts, vacuity, trace lengths and times, and no more states reduced.

use podcheck_properties::check::ScenarioResult;
use podcheck_properties::PropertyResult;

/// Asserts that `on` (the reduced run) and `off` judge alike; `name` says which run failed.
pub fn alike(name: &str, on: &ScenarioResult, off: &ScenarioResult) {
    assert_eq!(on.properties.len(), off.properties.len(), "{name}");
    for (a, b) in on.properties.iter().zip(&off.properties) {
        let p = a.def.name;
        assert_eq!(a.def.name, b.def.name, "{name}");
        assert_eq!(a.verdict, b.verdict, "{name}: {p}");
        assert_eq!(a.vacuous, b.vacuous, "{name}: {p}");
        assert_eq!(
            a.trace_steps(),
            b.trace_steps(),
            "{name}: trace length of {p}"
        );
        let times = |r: &PropertyResult| r.timing.as_ref().map(|t| (t.deadline, t.worst, t.best));
        assert_eq!(times(a), times(b), "{name}: times of {p}");
    }
    assert!(on.unique_states <= off.unique_states, "{name}");
}
