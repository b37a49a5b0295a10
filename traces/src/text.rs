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

/// The fewest steps in a row that change nothing shown for them to be folded into one line.
const FOLD_AT_LEAST: usize = 3;

/// The runs of steps (as `from..to`, indices into `t.steps`) folded into one line: at least
/// [`FOLD_AT_LEAST`] routine steps in a row ([`crate::Step::routine`]): the clock moving on, and
/// probe runs, that change nothing the timeline shows. A fold never holds the last step
/// (where the property breaks), the first step of a lasso's cycle, or the step after which a
/// timed property's clock starts: those are always shown.
fn folds(t: &Trace) -> Vec<(usize, usize)> {
    let keep = |i: usize| {
        let index = t.steps[i].index;
        i + 1 == t.steps.len()
            || t.loop_start == Some(index)
            || t.clock.is_some_and(|c| c.from == index)
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.steps.len() {
        let from = i;
        while i < t.steps.len() && t.steps[i].routine && !keep(i) {
            i += 1;
        }
        if i - from >= FOLD_AT_LEAST {
            out.push((from, i));
        }
        if i == from {
            i += 1;
        }
    }
    out
}

/// The line that stands for the steps `from..to` of a fold: their indices and times, how long
/// the clock moved on, and the probe runs (each kind once, with how many times).
fn fold_line(t: &Trace, from: usize, to: usize) -> String {
    let steps = &t.steps[from..to];
    let before = if from == 0 { 0 } else { t.steps[from - 1].time };
    let (first, last) = (&steps[0], &steps[steps.len() - 1]);
    let mut kinds: Vec<(String, usize)> = Vec::new();
    let mut previous = before;
    for s in steps {
        // Only the clock moves time on.
        if s.time != previous {
            previous = s.time;
            continue;
        }
        let words: Vec<&str> = s.action.split(' ').filter(|w| !w.contains('/')).collect();
        let kind = format!(
            "{}: {}",
            s.actor.split('@').next().unwrap_or(&s.actor),
            words.join(" ")
        );
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    let mut what = Vec::new();
    if last.time > before {
        what.push(format!("time passes {} s", last.time - before));
    }
    what.extend(kinds.into_iter().map(|(k, n)| format!("{k} ×{n}")));
    let times = if before == last.time {
        format!("t={before}s")
    } else {
        format!("t={before}s–{}s", last.time)
    };
    format!(
        "\n[{:>2}–{}] {times}  … {} routine steps, nothing shown changes: {}\n",
        first.index,
        last.index,
        steps.len(),
        what.join("; ")
    )
}

/// Renders a trace as a timeline. Runs of steps that change nothing shown are folded into one
/// line each ([`folds`]); the trace's JSON keeps every step.
pub fn render_text(t: &Trace) -> String {
    let what = match (t.kind, t.verdict) {
        _ if t.clock.is_some_and(|c| c.slowest) => "the slowest run",
        (Kind::Always | Kind::Step, Verdict::Violated) => "counterexample",
        (Kind::Sometimes, Verdict::Holds) => "witness",
        (Kind::LeadsTo | Kind::Within, Verdict::Violated) if t.loop_start.is_some() => {
            "counterexample (lasso)"
        }
        (Kind::LeadsTo, Verdict::Violated) => "counterexample (lasso)",
        (Kind::Within, Verdict::Violated) => "counterexample",
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
    if let Some(c) = t.clock {
        let at = if c.from == 0 {
            "the initial state".to_string()
        } else {
            format!("step {}", c.from)
        };
        let deadline = c
            .deadline
            .map(|d| format!("; the deadline is {d} s later"))
            .unwrap_or_default();
        out.push_str(&format!(
            "the clock starts at {at} (t={}s), where the premise holds{deadline}\n",
            c.from_time
        ));
    }
    out.push_str("\n[ 0] t=0s  initial state\n");
    for l in t.initial_pods.lines() {
        out.push_str(&format!("        {l}\n"));
    }
    let folds = folds(t);
    let mut i = 0;
    while i < t.steps.len() {
        if let Some(&(from, to)) = folds.iter().find(|(from, _)| *from == i) {
            out.push_str(&fold_line(t, from, to));
            i = to;
            continue;
        }
        let s = &t.steps[i];
        i += 1;
        if t.loop_start == Some(s.index) {
            out.push_str(
                "\n──── the cycle starts here: from this step on the run repeats forever ────\n",
            );
        }
        let since = t
            .clock
            .filter(|c| s.index > c.from)
            .map(|c| format!(" (+{}s)", s.time - c.from_time))
            .unwrap_or_default();
        out.push_str(&format!(
            "\n[{:>2}] t={}s{since}  {}: {}\n",
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
    } else if let (Some(c), Some(last)) = (t.clock, t.steps.last()) {
        let elapsed = last.time - c.from_time;
        match (c.deadline, t.verdict) {
            _ if c.slowest => out.push_str(&format!(
                "\n──── the promised state, {elapsed} s after the clock started ────\n"
            )),
            (Some(d), Verdict::Violated) if elapsed > d => out.push_str(&format!(
                "\n──── {elapsed} s after the clock started: the deadline of {d} s has passed ────\n"
            )),
            (_, Verdict::Violated) => out.push_str(
                "\n──── the run stays here: no component that must act has anything to do, and the\n     promised state never comes ────\n",
            ),
            _ => out.push_str(&format!(
                "\n──── the promised state, {elapsed} s after the clock started ────\n"
            )),
        }
    } else if t.kind == Kind::LeadsTo || t.kind == Kind::Within {
        out.push_str(
            "\n──── the run stays here: no component that must act has anything to do, and the\n     promised state never comes ────\n",
        );
    }
    out
}
