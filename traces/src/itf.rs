//! The Informal Trace Format (Apalache ADR-015), so that traces load in Quint and Apalache
//! tooling: `#meta` (with `varTypes`, each variable's Apalache type), `vars`, `states` (each
//! with `#meta.index`), `loop` for a run that repeats forever; integers as
//! `{"#bigint": "N"}`, maps as `{"#map": [[k, v], …]}`, sets as `{"#set": […]}`.

use crate::{Kind, RawPath, Trace};
use podcheck_model::kubectl as render;
use podcheck_model::state::*;
use podcheck_model::Verdict;
use podcheck_model::{Action, Cluster};
use serde_json::{json, Map, Value};

fn big(n: u64) -> Value {
    json!({ "#bigint": n.to_string() })
}

fn set(items: Vec<Value>) -> Value {
    json!({ "#set": items })
}

fn map(pairs: Vec<(Value, Value)>) -> Value {
    json!({ "#map": pairs.into_iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>() })
}

/// The variables of every state, in this order.
///
/// - `time`: seconds since the start, never decreasing. In the repeating part of a lasso it
///   stays at the time the cycle is first entered (ITF's `loop` repeats the same values, so a
///   clock cannot run on in it); how long each step of the cycle takes is `elapsed`.
/// - `elapsed`: the seconds this step let pass (a clock step's, else 0).
/// - `action`: the step that led to this state, in words (`init` for the first state,
///   `stutter` for the repeated last state of a run that stops, see [`render_itf`]).
/// - `actor`: who took it, as [`crate::words::actor_name`] names it (empty for `init` and
///   `stutter`).
/// - `pods`, `endpoints`, `proxies`, `runtime`, `dependency`: the state.
pub const VARS: &[&str] = &[
    "time",
    "elapsed",
    "action",
    "actor",
    "pods",
    "endpoints",
    "proxies",
    "runtime",
    "dependency",
];

/// The Apalache type of each variable (ITF's `#meta.varTypes`, in Apalache's type syntax).
pub const VAR_TYPES: &[(&str, &str)] = &[
    ("time", "Int"),
    ("elapsed", "Int"),
    ("action", "Str"),
    ("actor", "Str"),
    (
        "pods",
        "Str -> { phase: Str, status: Str, ready: Bool, node: Str, deletionTimestamp: Bool, restarts: Int }",
    ),
    (
        "endpoints",
        "Set({ pod: Str, ready: Bool, serving: Bool, terminating: Bool })",
    ),
    ("proxies", "Str -> Set(Str)"),
    ("runtime", "Str -> Str"),
    ("dependency", "Str"),
];

/// The action of the stuttering state that ends a run that stops.
pub const STUTTER: &str = "stutter: no component that must act has anything to do";

struct Step<'a> {
    time: u64,
    elapsed: u64,
    action: &'a str,
    actor: &'a str,
}

fn state_value(m: &Cluster, s: &State, step: Step<'_>) -> Map<String, Value> {
    let pods = s
        .api
        .pods
        .iter()
        .map(|p| {
            let printed = render::print(m, p);
            let restarts: u32 = p.status.statuses.iter().map(|c| c.restart_count).sum();
            (
                json!(m.pod_name(p)),
                json!({
                    "phase": p.status.phase.as_str(),
                    "status": printed.status,
                    "ready": p.status.ready,
                    "node": p.node.map(|n| m.node_name(n).to_string()).unwrap_or_default(),
                    "deletionTimestamp": p.deletion.is_some(),
                    "restarts": big(restarts as u64),
                }),
            )
        })
        .collect();
    let endpoints = s
        .api
        .endpoints
        .iter()
        .map(|e| {
            json!({
                "pod": m.uid_name(s, e.uid),
                "ready": e.conditions.ready,
                "serving": e.conditions.serving,
                "terminating": e.conditions.terminating,
            })
        })
        .collect();
    let proxies = s
        .proxies
        .iter()
        .enumerate()
        .map(|(n, p)| {
            (
                json!(m.node_name(NodeId::new(n))),
                set(p.routes.iter().map(|r| json!(m.uid_name(s, r.0))).collect()),
            )
        })
        .collect();
    let mut runtime = Vec::new();
    for (n, node) in s.nodes.iter().enumerate() {
        for rt in &node.pods {
            for (c, cs) in m.containers(rt) {
                let v = match &c.run {
                    Run::None => "not created".to_string(),
                    Run::Running(p) if p.stop.is_some() => "stopping".into(),
                    Run::Running(_) => "running".into(),
                    Run::Exited(e) => format!("exited {}", e.code),
                };
                runtime.push((
                    json!(format!(
                        "{}/{}/{}",
                        m.node_name(NodeId::new(n)),
                        m.rt_name(rt),
                        cs.name
                    )),
                    json!(v),
                ));
            }
        }
    }
    let mut out = Map::new();
    out.insert("time".into(), big(step.time));
    out.insert("elapsed".into(), big(step.elapsed));
    out.insert("action".into(), json!(step.action));
    out.insert("actor".into(), json!(step.actor));
    out.insert("pods".into(), map(pods));
    out.insert("endpoints".into(), set(endpoints));
    out.insert("proxies".into(), map(proxies));
    out.insert("runtime".into(), map(runtime));
    out.insert(
        "dependency".into(),
        json!(if s.env.dependency_down { "down" } else { "up" }),
    );
    out
}

/// The ITF document of a trace's path (`path` is the path `t` was built from).
///
/// Every state of the path is an ITF state, each with the action that led to it. ITF's `loop`
/// (an index) means the states from it to the last repeat forever:
///
/// - A lasso (the path's last state repeats the model state where the cycle starts, state
///   `l`) keeps every state, the one the closing step reaches included, with `loop` = `l + 1`:
///   the run is the prefix up to state `l`, then the states after it over and over (the last
///   state is state `l` again, so the first step of the cycle follows it).
/// - A `leads_to` counterexample that stops (no fair component has anything left to do) ends
///   with one extra state: the last state again, with the action [`STUTTER`] and no actor,
///   and `loop` points at it: the last state repeats itself.
/// - Any other trace has no `loop`.
///
/// `time` never decreases; see [`VARS`].
pub fn render_itf(m: &Cluster, path: &RawPath, t: &Trace) -> Value {
    let loop_start = t.loop_start.map(|l| l - 1);
    let mut states = Vec::new();
    let mut time = 0u64;
    let mut frozen = None;
    for (i, s) in path.states.iter().enumerate() {
        let (action, actor, elapsed) = if i == 0 {
            ("init".to_string(), "".to_string(), 0)
        } else {
            let a = &path.actions[i - 1];
            let elapsed = match a {
                Action::Tick(d) => *d as u64,
                _ => 0,
            };
            time += elapsed;
            (
                crate::words::describe(m, &path.states[i - 1], a, s),
                crate::words::actor_name(m, a),
                elapsed,
            )
        };
        if loop_start == Some(i) {
            frozen = Some(time);
        }
        let step = Step {
            time: frozen.unwrap_or(time),
            elapsed,
            action: &action,
            actor: &actor,
        };
        let mut v = state_value(m, s, step);
        v.insert("#meta".into(), json!({ "index": i }));
        states.push(Value::Object(v));
    }
    let stops = loop_start.is_none() && t.kind == Kind::LeadsTo && t.verdict == Verdict::Violated;
    let loop_index = match loop_start {
        Some(l) => Some(l + 1),
        None if stops => {
            let last = path.states.len() - 1;
            let step = Step {
                time,
                elapsed: 0,
                action: STUTTER,
                actor: "",
            };
            let mut v = state_value(m, &path.states[last], step);
            v.insert("#meta".into(), json!({ "index": last + 1 }));
            states.push(Value::Object(v));
            Some(last + 1)
        }
        None => None,
    };
    let var_types: Map<String, Value> = VAR_TYPES
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let mut doc = json!({
        "#meta": {
            "format": "ITF",
            "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
            "source": format!("podcheck scenario {}", m.scenario.name),
            "description": format!(
                "podcheck trace of {} ({}, {}) in {}",
                t.property,
                t.kind.as_str(),
                t.verdict.as_str(),
                m.scenario.name
            ),
            "varTypes": var_types,
        },
        "vars": VARS,
        "states": states,
    });
    if let Some(l) = loop_index {
        doc["loop"] = json!(l);
    }
    doc
}
