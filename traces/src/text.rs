//! The text timeline: per step the time, the actor, the action, only the facts that changed
//! (API objects, runtime truth, data plane), the events, and the `kubectl get pods` table
//! where it changed — what `kubectl get pods -w` and `kubectl describe` would have shown.

use crate::{Kind, Trace};
use podcheck_model::Verdict;

fn indent(out: &mut String, label: &str, lines: &[String]) {
    for (i, l) in lines.iter().enumerate() {
        let head = if i == 0 { label } else { "" };
        out.push_str(&format!("      {head:<8} {l}\n"));
    }
}

/// Renders a trace as a timeline.
pub fn render_text(t: &Trace) -> String {
    let what = match (t.kind, t.verdict) {
        (Kind::Always | Kind::Step, Verdict::Violated) => "counterexample",
        (Kind::Sometimes, Verdict::Holds) => "witness",
        (Kind::LeadsTo, Verdict::Violated) => "counterexample (lasso)",
        _ => "trace",
    };
    let mut out = format!(
        "{} / {} ({}, {}): {what} in {} steps\n",
        t.scenario,
        t.property,
        t.kind.as_str(),
        t.verdict.as_str(),
        t.steps.len()
    );
    out.push_str("\n[ 0] t=0s  initial state\n");
    for l in t.initial_pods.lines() {
        out.push_str(&format!("        {l}\n"));
    }
    for s in &t.steps {
        if t.loop_start == Some(s.index) {
            out.push_str(
                "\n──── the cycle starts here: from this step on the run repeats forever ────\n",
            );
        }
        out.push_str(&format!(
            "\n[{:>2}] t={}s  {}: {}\n",
            s.index, s.time, s.actor, s.action
        ));
        indent(&mut out, "api", &s.api);
        indent(&mut out, "runtime", &s.runtime);
        indent(&mut out, "network", &s.data_plane);
        let events: Vec<String> = s
            .events
            .iter()
            .map(|e| {
                format!(
                    "{:<7} {:<17} {}  {}",
                    e.r#type, e.reason, e.object, e.message
                )
            })
            .collect();
        indent(&mut out, "event", &events);
        if let Some(p) = &s.pods {
            out.push_str("      kubectl get pods\n");
            for l in p.lines() {
                out.push_str(&format!("        {l}\n"));
            }
        }
    }
    if !t.describe.is_empty() {
        out.push_str("\n──── at the end ────\n");
        for l in &t.describe {
            out.push_str(&format!("  {l}\n"));
        }
    }
    if let Some(l) = t.loop_start {
        out.push_str(&format!(
            "\n──── back to step {l}: the cycle repeats forever ────\n"
        ));
    } else if t.kind == Kind::LeadsTo {
        out.push_str(
            "\n──── the run stays here: no component that must act has anything to do, and the\n     promised state never comes ────\n",
        );
    }
    out
}
