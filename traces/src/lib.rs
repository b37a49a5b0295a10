//! Counterexamples and witnesses as data ([`Trace`]), replayed through the model before they
//! are shown, and their text rendering: a timeline a Kubernetes user can read.

use podcheck_model::render::kubectl_get_pods;
use podcheck_model::state::{Run, State};
use podcheck_model::{Action, Cluster};
use serde::Serialize;
use stateright::Path;

/// One step of a trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// 1-based.
    pub index: usize,
    /// Seconds since the start, after this step.
    pub time: u64,
    /// Who acts: `kubelet@node-1`, `scheduler`, `clock`, `kubectl`, …
    pub actor: String,
    /// What it does, in Kubernetes words.
    pub action: String,
    /// What changed, in both layers (API objects, runtime truth, data plane).
    pub changes: Vec<String>,
}

/// A counterexample or witness.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    pub scenario: String,
    pub property: String,
    pub kind: String,
    pub verdict: String,
    pub steps: Vec<Step>,
    /// `kubectl get pods` in the last state.
    pub final_pods: String,
}

/// Builds a trace from a Stateright path, replaying every action through the model: each
/// state must be what the action produces from the one before.
pub fn from_path(
    m: &Cluster,
    path: &Path<State, Action>,
    property: &str,
    kind: &str,
    verdict: &str,
) -> Result<Trace, String> {
    let pairs = path.clone().into_vec();
    let mut steps = Vec::new();
    let mut time = 0u64;
    let mut prev: Option<State> = None;
    let mut pending: Option<Action> = None;
    for (i, (state, action)) in pairs.iter().enumerate() {
        if i == 0 && state != &m.initial_state() {
            return Err("the trace does not start in the initial state".into());
        }
        if let (Some(p), Some(a)) = (&prev, &pending) {
            let replayed = m
                .apply(p, a)
                .ok_or_else(|| format!("step {i}: action {a:?} is not enabled on replay"))?;
            if &replayed != state {
                return Err(format!("step {i}: replaying {a:?} gives another state"));
            }
            if let Action::Tick(d) = a {
                time += *d as u64;
            }
            let words = m.describe(p, a);
            let (actor, action) = split_actor(&words, a);
            steps.push(Step {
                index: i,
                time,
                actor,
                action,
                changes: changes(m, p, state),
            });
        }
        prev = Some(state.clone());
        pending = action.clone();
    }
    let last = prev.ok_or("empty trace")?;
    Ok(Trace {
        scenario: m.scenario.name.clone(),
        property: property.to_string(),
        kind: kind.to_string(),
        verdict: verdict.to_string(),
        steps,
        final_pods: kubectl_get_pods(m, &last),
    })
}

fn split_actor(words: &str, a: &Action) -> (String, String) {
    if let Action::Tick(_) = a {
        return ("clock".into(), words.to_string());
    }
    match words.split_once(": ") {
        Some((actor, rest)) => (actor.to_string(), rest.to_string()),
        None => (String::new(), words.to_string()),
    }
}

fn runtime_lines(m: &Cluster, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for (n, node) in s.nodes.iter().enumerate() {
        for rt in &node.pods {
            let spec = m.workload(rt.workload).template();
            let pod = m.uid_name(s, rt.uid);
            for (c, cs) in rt
                .init
                .iter()
                .zip(&spec.init_containers)
                .chain(rt.ctrs.iter().zip(&spec.containers))
            {
                let st = match &c.run {
                    Run::None => continue,
                    Run::Running(p) if p.deadlocked => "running (deadlocked)".to_string(),
                    Run::Running(p) if p.boot_left > 0 => "running (booting)".to_string(),
                    Run::Running(p) if p.stop.is_some() => "running (stopping)".to_string(),
                    Run::Running(_) => "running".to_string(),
                    Run::Exited(e) => format!("exited {} ({})", e.code, e.reason()),
                };
                out.push(format!(
                    "runtime@{}: {}/{} {}",
                    m.node_name(n as u8),
                    pod,
                    cs.name,
                    st
                ));
            }
        }
    }
    out
}

fn endpoint_line(m: &Cluster, s: &State) -> String {
    let eps: Vec<String> = s
        .api
        .endpoints
        .iter()
        .map(|e| {
            format!(
                "{} ready={} serving={} terminating={}",
                m.uid_name(s, e.uid),
                e.conditions.ready,
                e.conditions.serving,
                e.conditions.terminating
            )
        })
        .collect();
    format!("EndpointSlice: [{}]", eps.join("; "))
}

fn proxy_lines(m: &Cluster, s: &State) -> Vec<String> {
    s.proxies
        .iter()
        .enumerate()
        .map(|(n, p)| {
            let routes: Vec<String> = p.routes.iter().map(|r| m.uid_name(s, r.0)).collect();
            format!(
                "kube-proxy@{} routes to [{}]",
                m.node_name(n as u8),
                routes.join(", ")
            )
        })
        .collect()
}

/// What changed between two states, as readable lines.
pub fn changes(m: &Cluster, before: &State, after: &State) -> Vec<String> {
    let mut out = Vec::new();
    let (pb, pa) = (kubectl_get_pods(m, before), kubectl_get_pods(m, after));
    if pb != pa {
        out.push(format!("kubectl get pods:\n{pa}"));
    }
    let (rb, ra) = (runtime_lines(m, before), runtime_lines(m, after));
    for line in &ra {
        if !rb.contains(line) {
            out.push(line.clone());
        }
    }
    if before.api.endpoints != after.api.endpoints {
        out.push(endpoint_line(m, after));
    }
    let (xb, xa) = (proxy_lines(m, before), proxy_lines(m, after));
    for (b, a) in xb.iter().zip(&xa) {
        if b != a {
            out.push(a.clone());
        }
    }
    if before.env.refused.is_none() {
        if let Some(uid) = after.env.refused {
            out.push(format!(
                "client: request refused: no container of {} is running",
                m.uid_name(after, uid)
            ));
        }
    }
    if before.env.dependency_down != after.env.dependency_down {
        out.push(format!(
            "dependency: {}",
            if after.env.dependency_down {
                "down"
            } else {
                "up"
            }
        ));
    }
    out
}

/// The timeline as text.
pub fn render_text(t: &Trace) -> String {
    let mut out = format!(
        "{} / {} ({}): {} in {} steps\n",
        t.scenario,
        t.property,
        t.kind,
        t.verdict,
        t.steps.len()
    );
    for s in &t.steps {
        out.push_str(&format!(
            "\n[{:>2}] t={}s  {}: {}\n",
            s.index, s.time, s.actor, s.action
        ));
        for c in &s.changes {
            for (i, line) in c.lines().enumerate() {
                out.push_str(if i == 0 { "     - " } else { "       " });
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}
