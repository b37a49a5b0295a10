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

#[cfg(test)]
mod tests {
    use super::{folds, render_text};
    use crate::{Clock, Kind, Step, Trace};
    use podcheck_model::Verdict;

    /// A step at `time`: a routine one (the clock or a probe run that changed nothing shown),
    /// or one that changed an API object.
    fn step(index: usize, time: u64, actor: &str, action: &str, routine: bool) -> Step {
        Step {
            index,
            time,
            actor: actor.into(),
            action: action.into(),
            api: if routine {
                Vec::new()
            } else {
                vec!["pod web-1 Ready: True → False".into()]
            },
            runtime: Vec::new(),
            data_plane: Vec::new(),
            events: Vec::new(),
            pods: None,
            routine,
        }
    }

    fn trace(steps: Vec<Step>) -> Trace {
        Trace {
            scenario: "s".into(),
            kubernetes_version: "1.35".into(),
            property: "p".into(),
            kind: Kind::Always,
            verdict: Verdict::Violated,
            initial_pods: String::new(),
            steps,
            loop_start: None,
            describe: Vec::new(),
            clock: None,
        }
    }

    /// Steps 1–3 routine, 4 not, 5–6 routine (two: not folded), 7–10 routine with the last
    /// step among them (never folded).
    fn steps() -> Vec<Step> {
        let probe = |i, t| step(i, t, "kubelet@node-1", "readiness probe web-1/app", true);
        let tick = |i, t| step(i, t, "clock", "time passes", true);
        vec![
            tick(1, 5),
            probe(2, 5),
            tick(3, 10),
            step(4, 10, "network", "node-1 is cut off", false),
            tick(5, 15),
            probe(6, 15),
            tick(7, 20),
            probe(8, 20),
            tick(9, 25),
            probe(10, 25),
        ]
    }

    #[test]
    fn runs_of_three_routine_steps_fold_and_the_last_step_is_shown() {
        let t = trace(steps());
        assert_eq!(folds(&t), [(0, 3), (4, 9)]);
        let text = render_text(&t);
        assert!(
            text.contains("\n[ 1–3] t=0s–10s  … 3 routine steps, nothing shown changes: time passes 10 s; kubelet: readiness probe ×1\n"),
            "{text}"
        );
        assert!(
            text.contains("\n[ 4] t=10s  network: node-1 is cut off\n"),
            "{text}"
        );
        assert!(
            text.contains("\n[ 5–9] t=10s–25s  … 5 routine steps, nothing shown changes: time passes 15 s; kubelet: readiness probe ×2\n"),
            "{text}"
        );
        assert!(
            text.contains("\n[10] t=25s  kubelet@node-1: readiness probe web-1/app\n"),
            "{text}"
        );
        // The JSON keeps every step.
        let json = serde_json::to_string(&t).unwrap();
        let back: Trace = serde_json::from_str(&json).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn a_lasso_start_and_a_clock_start_are_never_folded() {
        let mut t = trace(steps());
        t.loop_start = Some(2);
        // Step 2 starts the cycle: 1 alone, and 3 alone, fold nothing.
        assert_eq!(folds(&t), [(4, 9)]);
        let mut t = trace(steps());
        t.clock = Some(Clock {
            from: 7,
            from_time: 20,
            deadline: Some(30),
            slowest: false,
        });
        // The clock starts after step 7: 5–6 are two, 8–9 two: nothing folds there.
        assert_eq!(folds(&t), [(0, 3)]);
        // Fewer than three routine steps in a row never fold; none at all, nothing.
        let mut few = steps();
        few.truncate(6);
        few[2].routine = false;
        assert!(folds(&trace(few)).is_empty());
    }
}
