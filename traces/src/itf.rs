//! The Informal Trace Format (Apalache ADR-015), so that traces load in Quint and Apalache
//! tooling: `#meta`, `vars`, `states` (each with `#meta.index`), `loop` for a lasso; integers
//! as `{"#bigint": "N"}`, maps as `{"#map": [[k, v], …]}`, sets as `{"#set": […]}`.

use crate::RawPath;
use podcheck_model::kubectl as render;
use podcheck_model::state::*;
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
pub const VARS: &[&str] = &[
    "time",
    "action",
    "actor",
    "pods",
    "endpoints",
    "proxies",
    "runtime",
    "dependency",
];

fn state_value(m: &Cluster, s: &State, time: u64, action: &str, actor: &str) -> Map<String, Value> {
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
                json!(m.node_name(n as u8)),
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
                        m.node_name(n as u8),
                        m.rt_name(rt),
                        cs.name
                    )),
                    json!(v),
                ));
            }
        }
    }
    let mut out = Map::new();
    out.insert("time".into(), big(time));
    out.insert("action".into(), json!(action));
    out.insert("actor".into(), json!(actor));
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

/// The ITF document of a path. For a lasso (`loop_start` = index of the state where the cycle
/// starts, whose state the path's last state repeats), the repeated last state is dropped and
/// `loop` points at the cycle's first state, as ITF expects.
pub fn render_itf(m: &Cluster, path: &RawPath, property: &str, loop_start: Option<usize>) -> Value {
    let mut states = Vec::new();
    let mut time = 0u64;
    let n = match loop_start {
        Some(_) => path.states.len() - 1,
        None => path.states.len(),
    };
    for i in 0..n {
        let (action, actor) = if i == 0 {
            ("init".to_string(), "".to_string())
        } else {
            let a = &path.actions[i - 1];
            if let Action::Tick(d) = a {
                time += *d as u64;
            }
            (
                crate::words::describe(m, &path.states[i - 1], a),
                crate::words::actor_name(m, a),
            )
        };
        let mut v = state_value(m, &path.states[i], time, &action, &actor);
        v.insert("#meta".into(), json!({ "index": i }));
        states.push(Value::Object(v));
    }
    let mut doc = json!({
        "#meta": {
            "format": "ITF",
            "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
            "source": format!("podcheck scenario {}", m.scenario.name),
            "description": format!("podcheck trace of {} in {}", property, m.scenario.name),
        },
        "vars": VARS,
        "states": states,
    });
    if let Some(l) = loop_start {
        doc["loop"] = json!(l);
    }
    doc
}
