//! Trace snapshots and renderings.
//!
//! Every (scenario, property) whose expected verdict is `violated` (a counterexample) and
//! every `sometimes` witness is stored as an insta snapshot of its text timeline in
//! `traces/snapshots/`, one file each, named `<scenario>__<property>.snap`, plus the JSON of a
//! few. `cargo insta review` is how a change of behaviour is reviewed. All five renderings
//! are produced for every violated property: JSON and ITF are read back, Mermaid is checked
//! structurally, DOT is produced or refused with a message.

use podcheck_input::catalogue;
use podcheck_input::spec::Verdict;
use podcheck_model::Cluster;
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};
use podcheck_properties::Kind;
use podcheck_traces::{dot, itf, mermaid, render_text, RawPath, Trace};
use serde::Deserialize;

mod common;
use std::collections::{BTreeMap, BTreeSet};

fn results() -> Vec<ScenarioResult> {
    catalogue::builtin()
        .iter()
        .map(|s| check::check(s, &CheckOptions::default()).unwrap())
        .collect()
}

/// (scenario result, property index, model, path, trace) for every discovered property.
fn all_traces(
    rs: &[ScenarioResult],
) -> Vec<(String, String, Kind, Verdict, Cluster, RawPath, Trace)> {
    let mut out = Vec::new();
    for r in rs {
        let m = check::model(&r.scenario, &[], false);
        for p in &r.properties {
            // The counterexample or witness, or a timed property's slowest run.
            let Some(shown) = p.shown() else {
                continue;
            };
            let raw = RawPath::from_actions(&m, shown.actions)
                .unwrap_or_else(|e| panic!("{}/{}: {e}", r.scenario.name, p.def.name));
            let mut t = podcheck_traces::from_raw(
                &m,
                &raw,
                p.def.name,
                common::trace_kind(&p.def.kind),
                p.verdict,
                shown.loop_start,
            )
            .unwrap_or_else(|e| panic!("{}/{}: {e}", r.scenario.name, p.def.name));
            if let Some((from, deadline, slowest)) = shown.clock {
                t = t.with_clock(from, deadline, slowest);
            }
            out.push((
                r.scenario.name.clone(),
                p.def.name.to_string(),
                p.def.kind,
                p.expected,
                m.clone(),
                raw,
                t,
            ));
        }
    }
    out
}

#[test]
fn snapshots_of_every_expected_violation_and_witness() {
    let rs = results();
    let traces = all_traces(&rs);
    let mut covered = BTreeSet::new();
    for r in &rs {
        for p in &r.properties {
            // Every counterexample and witness, and the slowest run of every timed promise
            // that holds (the run its worst case is measured on).
            let slowest = p.timing.as_ref().is_some_and(|t| t.slowest.is_some());
            let wanted = (!p.def.kind.is_witness() && p.expected == Verdict::Violated)
                || (p.def.kind.is_witness() && p.expected == Verdict::Holds)
                || (p.def.kind.is_within() && slowest);
            if !wanted {
                continue;
            }
            let (.., t) = traces
                .iter()
                .find(|x| x.0 == r.scenario.name && x.1 == p.def.name)
                .unwrap_or_else(|| panic!("{}/{} has no trace", r.scenario.name, p.def.name));
            let name = format!("{}__{}", r.scenario.name, p.def.name);
            insta::with_settings!({
                snapshot_path => "../snapshots",
                prepend_module_to_snapshot => false,
                omit_expression => true,
                description => format!("{}: {}", p.def.name, p.def.sentence),
            }, {
                insta::assert_snapshot!(name.clone(), render_text(t));
            });
            covered.insert(format!("{name}.snap"));
        }
    }
    // No stale snapshot: every stored text snapshot belongs to a current (scenario, property).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let other_rendering = ["__json.snap", "__mermaid.snap", "__itf.snap", "__dot.snap"]
            .iter()
            .any(|suffix| file.ends_with(suffix));
        if file.ends_with(".snap") && !other_rendering {
            assert!(covered.contains(&file), "stale snapshot {file}: remove it");
        }
    }
}

#[test]
fn json_snapshots_of_a_few() {
    let rs = results();
    let traces = all_traces(&rs);
    for (scenario, property) in [
        ("termination-race", "no_request_to_stopped_container"),
        ("sigterm-ignored", "graceful_stop_within_grace"),
        (
            "job-on-failure",
            "job_fails_only_after_backoff_limit_plus_one_failures",
        ),
    ] {
        let (.., t) = traces
            .iter()
            .find(|x| x.0 == scenario && x.1 == property)
            .unwrap();
        insta::with_settings!({
            snapshot_path => "../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_json_snapshot!(format!("{scenario}__{property}__json"), t);
        });
    }
}

/// The Mermaid, ITF and DOT renderings of a few traces, stored so that a change to a
/// rendering is reviewed as a diff: a lasso, a leads-to run that stops, and a counterexample.
#[test]
fn mermaid_itf_dot_snapshots_of_a_few() {
    let rs: Vec<ScenarioResult> = ["statefulset-force-delete", "stuck-sandbox", "crash-loop"]
        .iter()
        .map(|n| check::check(&catalogue::find(n).unwrap(), &CheckOptions::default()).unwrap())
        .collect();
    let traces = all_traces(&rs);
    for (scenario, property) in [
        ("statefulset-force-delete", "deleted_leads_to_gone"),
        ("stuck-sandbox", "scheduled_leads_to_running"),
        ("crash-loop", "status_crash_loop_while_running"),
    ] {
        let (.., m, raw, t) = traces
            .iter()
            .find(|x| x.0 == scenario && x.1 == property)
            .unwrap_or_else(|| panic!("{scenario}/{property} has no trace"));
        insta::with_settings!({
            snapshot_path => "../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(
                format!("{scenario}__{property}__mermaid"),
                mermaid::render_mermaid(m, raw, t)
            );
            insta::assert_json_snapshot!(
                format!("{scenario}__{property}__itf"),
                itf::render_itf(m, raw, t)
            );
            insta::assert_snapshot!(
                format!("{scenario}__{property}__dot"),
                dot_of(m, raw, t).unwrap()
            );
        });
    }
}

/// The DOT of a trace as `podcheck check -f --trace-format dot` draws it: from the graph
/// explored for drawing (up to `DOT_STATE_LIMIT` states).
fn dot_of(m: &Cluster, raw: &RawPath, t: &Trace) -> Result<String, String> {
    use podcheck_properties::drawing;
    let graph = drawing::graph_to_draw(m);
    let d = drawing::drawing(m, &graph, &raw.states)?;
    Ok(dot::render_dot(m, &d, raw, t))
}

#[derive(Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
struct ItfPod {
    phase: String,
    status: String,
    ready: bool,
    node: String,
    #[serde(rename = "deletionTimestamp")]
    deletion_timestamp: bool,
    restarts: i64,
}

#[derive(Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
struct ItfEndpoint {
    pod: String,
    ready: bool,
    serving: bool,
    terminating: bool,
}

#[derive(Debug, Deserialize)]
struct ItfState {
    time: i64,
    elapsed: i64,
    action: String,
    actor: String,
    pods: BTreeMap<String, ItfPod>,
    endpoints: BTreeSet<ItfEndpoint>,
    proxies: BTreeMap<String, BTreeSet<String>>,
    runtime: BTreeMap<String, String>,
    dependency: String,
}

#[test]
fn every_trace_renders_in_all_five_formats() {
    let rs = results();
    for (scenario, property, _, _, m, raw, t) in all_traces(&rs) {
        let at = format!("{scenario}/{property}");
        // text
        let text = render_text(&t);
        assert!(
            text.starts_with(&format!("{scenario} / {property}")),
            "{at}"
        );
        // json: reads back to the same trace
        let json = serde_json::to_string_pretty(&t).unwrap();
        let back: Trace = serde_json::from_str(&json).unwrap();
        assert_eq!(back, t, "{at}");
        // itf: read back with the `itf` crate, one state per state of the path (and one more,
        // repeating itself, for a leads-to run that stops), every variable typed.
        let loop_start = t.loop_start.map(|l| l - 1);
        let doc = itf::render_itf(&m, &raw, &t);
        let parsed = ::itf::trace_from_str::<ItfState>(&doc.to_string())
            .unwrap_or_else(|e| panic!("{at}: ITF does not read back: {e}"));
        let stops = loop_start.is_none() && t.kind == podcheck_traces::Kind::LeadsTo;
        assert_eq!(
            parsed.states.len(),
            raw.states.len() + usize::from(stops),
            "{at}"
        );
        assert_eq!(parsed.vars, itf::VARS, "{at}");
        assert_eq!(
            parsed.meta.var_types.keys().collect::<BTreeSet<_>>(),
            itf::VARS
                .iter()
                .map(|v| v.to_string())
                .collect::<BTreeSet<_>>()
                .iter()
                .collect(),
            "{at}: a type for every variable"
        );
        let expected_loop = match loop_start {
            Some(l) => Some(l as u64 + 1),
            None if stops => Some(raw.states.len() as u64),
            None => None,
        };
        assert_eq!(parsed.loop_index, expected_loop, "{at}");
        // Time never goes backwards, and the elapsed seconds add up to the trace's time; in
        // the repeating part of a lasso, time stays where the cycle is entered.
        for w in parsed.states.windows(2) {
            assert!(w[0].value.time <= w[1].value.time, "{at}: time goes back");
        }
        let total: i64 = parsed.states.iter().map(|s| s.value.elapsed).sum();
        assert_eq!(
            total as u64,
            t.steps.last().map_or(0, |s| s.time),
            "{at}: elapsed"
        );
        if let Some(l) = loop_start {
            let entered = parsed.states[l].value.time;
            for s in &parsed.states[l..] {
                assert_eq!(s.value.time, entered, "{at}: time in the cycle");
            }
            // The last state is the cycle's first state again: the same values, reached by
            // the step that closes the cycle.
            let (first, last) = (
                &parsed.states[l].value,
                &parsed.states.last().unwrap().value,
            );
            assert_eq!(first.pods, last.pods, "{at}");
            assert_eq!(first.endpoints, last.endpoints, "{at}");
            assert_eq!(first.runtime, last.runtime, "{at}");
        } else {
            let last = &parsed.states.last().unwrap().value;
            assert_eq!(
                last.time as u64,
                t.steps.last().map_or(0, |s| s.time),
                "{at}"
            );
        }
        if stops {
            let n = parsed.states.len();
            let (before, stutter) = (&parsed.states[n - 2].value, &parsed.states[n - 1].value);
            assert_eq!(stutter.action, itf::STUTTER, "{at}");
            assert_eq!(stutter.elapsed, 0, "{at}");
            assert_eq!(before.pods, stutter.pods, "{at}");
            assert_eq!(before.runtime, stutter.runtime, "{at}");
        }
        assert_eq!(parsed.states[0].value.action, "init");
        // Every ITF state after the first is reached by a step of the trace: its action is
        // that step's `actor: action`, or the action alone for the clock, and its actor is the
        // step's actor (ITF, JSON and text share one wording: a client is `client`, an
        // operator `kubectl`); the closing step of a lasso is kept.
        for (i, step) in t.steps.iter().enumerate() {
            let v = &parsed.states[i + 1].value;
            assert!(
                v.action == step.action || v.action == format!("{}: {}", step.actor, step.action),
                "{at}: ITF action {:?}, step {:?} {:?}",
                v.action,
                step.actor,
                step.action
            );
            assert_eq!(v.actor, step.actor, "{at}");
            assert_eq!(
                v.actor,
                podcheck_traces::words::actor_name(&m, &raw.actions[i]),
                "{at}"
            );
        }
        let last = &parsed.states.last().unwrap().value;
        let shown_steps = t.steps.len();
        assert!(["up", "down"].contains(&last.dependency.as_str()), "{at}");
        // The last ITF state's pods are the last `kubectl get pods` table the trace shows
        // (NAME, STATUS and NODE per row; STATUS is the same printPod result in both).
        let table = t.steps[..shown_steps]
            .iter()
            .rev()
            .find_map(|s| s.pods.as_deref())
            .unwrap_or(&t.initial_pods);
        let itf_pods: Vec<(String, String, String)> = last
            .pods
            .iter()
            .map(|(name, p)| {
                let node = if p.node.is_empty() { "<none>" } else { &p.node };
                (name.clone(), p.status.clone(), node.to_string())
            })
            .collect();
        assert_eq!(itf_pods, get_pods_rows(table), "{at}: ITF pods vs\n{table}");
        // Every ITF proxy is a node's kube-proxy, every runtime entry is on a node, and every
        // endpoint names a pod the trace has shown.
        let node_names: BTreeSet<String> = m
            .scenario
            .cluster
            .nodes
            .iter()
            .map(|n| n.name.clone())
            .collect();
        assert_eq!(
            last.proxies.keys().cloned().collect::<BTreeSet<_>>(),
            node_names,
            "{at}"
        );
        for key in last.runtime.keys() {
            let node = key.split('/').next().unwrap_or("");
            assert!(node_names.contains(node), "{at}: runtime entry {key}");
            assert_eq!(key.split('/').count(), 3, "{at}: runtime entry {key}");
        }
        let shown_pods: BTreeSet<String> = std::iter::once(t.initial_pods.as_str())
            .chain(t.steps.iter().filter_map(|s| s.pods.as_deref()))
            .flat_map(|table| get_pods_rows(table).into_iter().map(|r| r.0))
            .collect();
        for e in &last.endpoints {
            assert!(
                shown_pods.contains(&e.pod),
                "{at}: endpoint of unknown pod {e:?}"
            );
        }
        // mermaid: strict structure; one message per step, numbered as the trace numbers it,
        // in order
        let mm = mermaid::render_mermaid(&m, &raw, &t);
        common::check_mermaid(&mm).unwrap_or_else(|e| panic!("{at}: {e}\n{mm}"));
        let numbers: Vec<usize> = mm
            .lines()
            .filter(|l| !l.trim_start().starts_with("Note") && l.contains(": ["))
            .map(|l| {
                let n = &l[l.find(": [").unwrap() + 3..];
                n[..n.find(']').unwrap()].parse().unwrap()
            })
            .collect();
        assert_eq!(
            numbers,
            (1..=t.steps.len()).collect::<Vec<_>>(),
            "{at}: Mermaid's numbering\n{mm}"
        );
        // dot: a graph with the trace in red (the whole graph, or the trace's neighbourhood)
        let d = dot_of(&m, &raw, &t).unwrap_or_else(|e| panic!("{at}: {e}"));
        assert!(d.starts_with(&format!("digraph \"{scenario}\"")), "{at}");
        check_dot(&at, &d, &raw, &property);
    }
}

#[test]
fn the_termination_race_tells_the_story_in_order() {
    let s = catalogue::find("termination-race").unwrap();
    let r = check::check(&s, &CheckOptions::default()).unwrap();
    let p = r
        .properties
        .iter()
        .find(|p| p.def.name == "no_request_to_stopped_container")
        .unwrap();
    let m = check::model(&s, &[], false);
    let t = podcheck_traces::from_run(
        &m,
        p.trace.as_ref().unwrap(),
        p.def.name,
        podcheck_traces::Kind::Step,
        Verdict::Violated,
        None,
    )
    .unwrap();
    let text = render_text(&t);
    let order = [
        "kubectl: delete pod web-1",
        "pod web-1 deletionTimestamp: set",
        "kill (preStop, SIGTERM) containers of web-1",
        "web-1/app: running → exited 0 (Completed)",
        "request via kube-proxy@",
        "a request to web-1 was refused",
    ];
    let mut at = 0;
    for needle in order {
        let found = text[at..]
            .find(needle)
            .unwrap_or_else(|| panic!("`{needle}` missing or out of order:\n{text}"));
        at += found + needle.len();
    }
}

#[test]
fn a_trace_that_does_not_replay_is_an_error() {
    let s = catalogue::find("healthy").unwrap();
    let r = check::check(&s, &CheckOptions::default()).unwrap();
    let m = check::model(&s, &[], false);
    let run = r.properties.iter().find_map(|p| p.trace.clone()).unwrap();
    let mut raw = RawPath::from_run(&m, &run).unwrap();
    assert!(podcheck_traces::replay(&m, &raw).is_ok());
    raw.actions.swap(0, 1);
    assert!(podcheck_traces::from_raw(
        &m,
        &raw,
        "x",
        podcheck_traces::Kind::Always,
        Verdict::Violated,
        None
    )
    .is_err());
    let mut raw = RawPath::from_run(&m, &run).unwrap();
    raw.states.pop();
    assert!(podcheck_traces::replay(&m, &raw).is_err());
    // A run whose actions are swapped does not replay either.
    let mut swapped = run.clone();
    swapped.actions.swap(0, 1);
    assert!(RawPath::from_run(&m, &swapped).is_err());
}

/// The text of a DOT double-quoted string, its escapes read back (`\"`, `\\`, `\n`) as
/// Graphviz shows them in a label.
fn dot_unescape(id: &graphviz_rust::dot_structures::Id) -> String {
    let quoted = match id {
        graphviz_rust::dot_structures::Id::Escaped(s) => s,
        other => panic!("not a quoted string: {other:?}"),
    };
    let inner = &quoted[1..quoted.len() - 1];
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            other => panic!("an escape DOT does not read as text: \\{other:?} in {quoted}"),
        }
    }
    out
}

/// Names with the syntax of DOT and Mermaid in them (quotes, `;`, `#`, `<x>`, `-->`, `%%{`,
/// a backslash at the end, …) are written as text: the DOT parses, each label reads back to
/// the names; the Mermaid passes the strict check, has none of those characters outside its
/// entity codes, and its entity codes read back to the names.
#[test]
fn names_with_dot_and_mermaid_syntax_are_written_as_text() {
    let (scenario, node, workload, container) = common::ODD_NAMES;
    let (m, raw, t) = common::odd_names_trace();
    let pod = format!("{workload}-1");

    let mm = mermaid::render_mermaid(&m, &raw, &t);
    common::check_mermaid(&mm).unwrap_or_else(|e| panic!("{e}\n{mm}"));
    assert!(!mm.contains(scenario), "`{scenario}` written raw:\n{mm}");
    let read: Vec<String> = mm
        .lines()
        .skip(1)
        .map(|l| {
            let l = l.trim();
            match l.strip_prefix("participant ") {
                Some(p) => common::mermaid_unescape(p.split_once(" as ").map_or(p, |x| x.1)),
                None => common::mermaid_unescape(l.split_once(": ").map_or(l, |x| x.1)),
            }
        })
        .collect();
    for expected in [
        format!("kubelet@{node}"),
        format!("{scenario} / pod_becomes_ready (sometimes, holds), t=0s: initial state"),
        format!("[1] t=0s create pods for Deployment {workload}"),
        format!("[2] t=0s bind {pod} to {node}"),
        format!("[6] t=0s start container {container} {pod}"),
    ] {
        assert!(
            read.contains(&expected),
            "no line reads `{expected}`:\n{}\n{mm}",
            read.join("\n")
        );
    }

    let d = dot_of(&m, &raw, &t).unwrap();
    let g = graphviz_rust::parse(&d).unwrap_or_else(|e| panic!("DOT does not parse: {e}\n{d}"));
    let graphviz_rust::dot_structures::Graph::DiGraph { id, stmts, .. } = g else {
        panic!("not a digraph:\n{d}");
    };
    assert_eq!(dot_unescape(&id), scenario);
    let mut labels = Vec::new();
    for st in &stmts {
        use graphviz_rust::dot_structures::Stmt;
        let attrs = match st {
            Stmt::Node(n) => &n.attributes,
            Stmt::Edge(e) => &e.attributes,
            Stmt::Attribute(a) => std::slice::from_ref(a),
            _ => continue,
        };
        for a in attrs {
            if id_text(&a.0) == "label" {
                labels.push(dot_unescape(&a.1));
            }
        }
    }
    for expected in [
        format!("{scenario} / pod_becomes_ready (sometimes, holds)"),
        format!("{pod} 0/1 Pending on {node}"),
        format!("scheduler: bind {pod} to {node}"),
        format!("kubelet@{node}: start container {container} {pod}"),
    ] {
        assert!(
            labels.iter().any(|l| l.lines().any(|l| l == expected)),
            "no label reads `{expected}`:\n{d}"
        );
    }
}

#[test]
fn renderings_are_the_same_every_time() {
    let a: Vec<String> = all_traces(&results())
        .iter()
        .map(|x| render_text(&x.6))
        .collect();
    let b: Vec<String> = all_traces(&results())
        .iter()
        .map(|x| render_text(&x.6))
        .collect();
    assert_eq!(a, b);
}

/// (NAME, STATUS, NODE) of each row of a `kubectl get pods` table. RESTARTS may hold spaces
/// ("3 (10s ago)"), so STATUS is the third cell and NODE the last.
fn get_pods_rows(table: &str) -> Vec<(String, String, String)> {
    if table.trim() == "No resources found." {
        return Vec::new();
    }
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    assert_eq!(
        header,
        ["NAME", "READY", "STATUS", "RESTARTS", "NODE"],
        "{table}"
    );
    let mut rows: Vec<(String, String, String)> = lines
        .map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            assert!(cells.len() >= 5, "a short row: {l}");
            (
                cells[0].to_string(),
                cells[2].to_string(),
                cells[cells.len() - 1].to_string(),
            )
        })
        .collect();
    rows.sort();
    rows
}

/// The text of a DOT id, unquoted.
fn id_text(id: &graphviz_rust::dot_structures::Id) -> String {
    use graphviz_rust::dot_structures::Id;
    match id {
        Id::Html(s) | Id::Escaped(s) | Id::Plain(s) | Id::Anonymous(s) => {
            s.trim_matches('"').to_string()
        }
    }
}

fn attr(attrs: &[graphviz_rust::dot_structures::Attribute], key: &str) -> Option<String> {
    attrs
        .iter()
        .find(|a| id_text(&a.0) == key)
        .map(|a| id_text(&a.1))
}

/// The DOT parses as a directed graph (with a real DOT parser); its red nodes are exactly the
/// trace's distinct states and its red edges exactly the trace's distinct transitions; every
/// red edge joins red nodes; the initial state (bold) reaches every red node along red
/// edges, the last (violating or witnessing) state included, which alone is doubled and
/// names the property. Labels are words, not Rust's debug strings.
fn check_dot(at: &str, d: &str, raw: &RawPath, property: &str) {
    use graphviz_rust::dot_structures::{EdgeTy, Graph, Stmt, Vertex};
    let g =
        graphviz_rust::parse(d).unwrap_or_else(|e| panic!("{at}: DOT does not parse: {e}\n{d}"));
    let Graph::DiGraph { stmts, .. } = g else {
        panic!("{at}: not a digraph");
    };
    let mut nodes: BTreeMap<String, (bool, bool)> = BTreeMap::new(); // id → (red, bold)
    let mut marked: Vec<(String, String)> = Vec::new(); // (id, label) of doubled nodes
    let mut edges: Vec<(String, String, bool)> = Vec::new();
    for st in &stmts {
        match st {
            Stmt::Node(n) => {
                let red = attr(&n.attributes, "color").as_deref() == Some("red");
                let bold = attr(&n.attributes, "style").as_deref() == Some("bold");
                let label = attr(&n.attributes, "label").unwrap_or_default();
                assert!(
                    !label.contains("Some(") && !label.contains("\\\""),
                    "{at}: a debug string as a label: {label}"
                );
                if attr(&n.attributes, "peripheries").as_deref() == Some("2") {
                    assert!(red, "{at}: the marked state is on the trace");
                    marked.push((id_text(&n.id.0), label));
                }
                assert!(
                    nodes.insert(id_text(&n.id.0), (red, bold)).is_none(),
                    "{at}: node declared twice"
                );
            }
            Stmt::Edge(e) => {
                let EdgeTy::Pair(Vertex::N(a), Vertex::N(b)) = &e.ty else {
                    panic!("{at}: an edge that is not a pair of nodes");
                };
                let red = attr(&e.attributes, "color").as_deref() == Some("red");
                assert!(
                    attr(&e.attributes, "label").is_some(),
                    "{at}: an edge without a label"
                );
                edges.push((id_text(&a.0), id_text(&b.0), red));
            }
            _ => {}
        }
    }
    assert!(nodes.len() <= dot::DOT_STATE_LIMIT, "{at}");
    for (a, b, _) in &edges {
        assert!(
            nodes.contains_key(a) && nodes.contains_key(b),
            "{at}: edge {a} -> {b} to an undeclared node"
        );
    }
    let mut distinct_states = Vec::new();
    for s in &raw.states {
        if !distinct_states.contains(&s) {
            distinct_states.push(s);
        }
    }
    let mut distinct_steps = Vec::new();
    for (w, a) in raw.states.windows(2).zip(&raw.actions) {
        if !distinct_steps.contains(&(&w[0], a, &w[1])) {
            distinct_steps.push((&w[0], a, &w[1]));
        }
    }
    let red_nodes: BTreeSet<&String> = nodes.iter().filter(|(_, v)| v.0).map(|(k, _)| k).collect();
    let bold: Vec<&String> = nodes.iter().filter(|(_, v)| v.1).map(|(k, _)| k).collect();
    assert_eq!(
        red_nodes.len(),
        distinct_states.len(),
        "{at}: red nodes vs the trace's states"
    );
    let red_edges: Vec<&(String, String, bool)> = edges.iter().filter(|e| e.2).collect();
    assert_eq!(
        red_edges.len(),
        distinct_steps.len(),
        "{at}: red edges vs the trace's steps"
    );
    assert_eq!(bold.len(), 1, "{at}: one initial state");
    assert!(
        red_nodes.contains(bold[0]),
        "{at}: the initial state is on the trace"
    );
    let mut reached: BTreeSet<&String> = BTreeSet::from([bold[0]]);
    loop {
        let before = reached.len();
        for (a, b, _) in &red_edges {
            assert!(
                red_nodes.contains(a) && red_nodes.contains(b),
                "{at}: a red edge off the trace"
            );
            if reached.contains(a) {
                reached.insert(b);
            }
        }
        if reached.len() == before {
            break;
        }
    }
    assert_eq!(
        reached, red_nodes,
        "{at}: the red edges do not join the trace's states"
    );
    assert_eq!(marked.len(), 1, "{at}: one marked last state");
    assert!(
        marked[0].1.contains(property),
        "{at}: the last state names {property}: {}",
        marked[0].1
    );
}
