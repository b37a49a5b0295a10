//! The swarm's reports and the rules that merge them. `podcheck check SCENARIO --simulate
//! --seed S --shard i/N` runs one shard of random walks ([`podcheck_properties::simulate`])
//! and writes its report ([`ShardReport`], made by [`shard`]); `podcheck merge FILE…`
//! combines the shards' reports into one verdict per property ([`merge`]).
//!
//! A report names each trace by the index of each of its actions among the actions the model
//! lists in the state it is taken from (how Stateright's Explorer encodes a path), with the
//! actions in words beside it for the reader. [`merge`] decodes every trace, replays it
//! through the model and checks that it breaks (or witnesses) its property before it uses it.

use crate::{resized, Error, Size};
use podcheck_input::spec::{Release, Scenario, Verdict};
use podcheck_model::{Action, Cluster};
use podcheck_properties::check::{self, expectation};
use podcheck_properties::simulate::{self, confirm, found_verdict, SimOptions};
use podcheck_properties::{PropertyDef, Run};
use serde::{Deserialize, Serialize};
use stateright::Model;
use std::collections::BTreeMap;

/// The greatest `--depth`.
pub const MAX_DEPTH: u32 = 1_000_000;

/// What a shard's report says it is (its `report` field).
pub const SHARD_REPORT: &str = "podcheck swarm shard";
/// What a merged report says it is (its `report` field).
pub const MERGED_REPORT: &str = "podcheck swarm merged";

/// The most shards of one run: the most completions Kubernetes allows an Indexed Job.
pub const MAX_SHARDS: u64 = 100_000;

/// A Kubernetes release in a report, read by a visitor of its string: an unsupported one is
/// an error at the string's own place in the text, so that [`read_shard_report`] names its field.
/// (`Release`'s own `Deserialize` judges the string after reading it, and the error then
/// points at the end of the object around it.)
struct ReleaseField(Release);

impl<'de> Deserialize<'de> for ReleaseField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = ReleaseField;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a Kubernetes minor release such as \"1.33\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ReleaseField, E> {
                Release::parse(v).map(ReleaseField).map_err(E::custom)
            }
        }
        d.deserialize_str(Visitor)
    }
}

fn release<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Release, D::Error> {
    ReleaseField::deserialize(d).map(|r| r.0)
}

fn optional_release<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Release>, D::Error> {
    Option::<ReleaseField>::deserialize(d).map(|r| r.map(|r| r.0))
}

/// The `--nodes` and `--replicas` flags a report was made with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeFlags {
    pub nodes: Option<u8>,
    pub replicas: Option<u8>,
    /// `--kubernetes-version`, if given.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "optional_release"
    )]
    pub kubernetes_version: Option<Release>,
}

/// A shard's place in its swarm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardId {
    pub index: u64,
    pub count: u64,
}

/// A trace in a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceReport {
    /// The shard and the walk (numbered from 0 in its shard) that found it.
    pub shard: u64,
    pub walk: u64,
    /// The initial state's index among the model's initial states.
    pub init: usize,
    pub steps: usize,
    /// For a `leads_to` counterexample: the state (0 = the initial state) where P holds,
    /// with Q false from there to the trace's last state, where the run stops.
    pub p_index: Option<usize>,
    /// Per step, the action's index among the actions the model lists in the state it is
    /// taken from: what `merge` replays.
    pub path: Vec<usize>,
    /// Per step, `actor: action` in words (for the reader; `merge` checks they agree).
    pub actions: Vec<String>,
}

/// One property's verdict in a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PropertyReport {
    pub name: String,
    pub kind: String,
    pub verdict: Verdict,
    pub expected: Verdict,
    pub expected_source: String,
    pub trace: Option<TraceReport>,
}

/// The report of one shard: `podcheck check --simulate --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardReport {
    pub report: String,
    pub podcheck: String,
    pub scenario: String,
    pub size: SizeFlags,
    /// The Kubernetes release the model followed.
    #[serde(deserialize_with = "release")]
    pub kubernetes_version: Release,
    pub nodes: usize,
    pub replicas: BTreeMap<String, u8>,
    pub seed: u64,
    pub shard: ShardId,
    pub walks: u64,
    pub depth: u32,
    pub states_visited: u64,
    pub distinct_states: u64,
    pub walks_to_terminal: u64,
    pub properties: Vec<PropertyReport>,
}

/// The shards a merged report holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergedShards {
    pub count: u64,
    pub merged: Vec<u64>,
    pub missing: Vec<u64>,
}

/// The report of `podcheck merge --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergedReport {
    pub report: String,
    pub podcheck: String,
    pub scenario: String,
    pub size: SizeFlags,
    /// The Kubernetes release the model followed.
    #[serde(deserialize_with = "release")]
    pub kubernetes_version: Release,
    pub nodes: usize,
    pub replicas: BTreeMap<String, u8>,
    pub seed: u64,
    pub shards: MergedShards,
    /// Walks of all merged shards.
    pub walks: u64,
    pub depth: u32,
    /// States visited by all merged shards (a state visited twice counts twice).
    pub states_visited: u64,
    pub properties: Vec<PropertyReport>,
}

fn replicas_of(s: &Scenario) -> BTreeMap<String, u8> {
    s.workloads
        .iter()
        .filter_map(|w| w.replicas().map(|n| (w.name().to_string(), n)))
        .collect()
}

/// A run as a report's trace: the index of each action among those the model lists.
fn encode(
    m: &Cluster,
    shard: u64,
    walk: u64,
    run: &Run<Action>,
    p_index: Option<usize>,
) -> Result<TraceReport, String> {
    let states = run.states(m)?;
    let mut path = Vec::new();
    let mut words = Vec::new();
    let mut listed = Vec::new();
    for ((s, a), after) in states.iter().zip(&run.actions).zip(&states[1..]) {
        listed.clear();
        m.actions(s, &mut listed);
        let i = listed
            .iter()
            .position(|l| l == a)
            .ok_or_else(|| format!("`{a:?}` is not among the actions of its state"))?;
        path.push(i);
        words.push(step_words(m, s, a, after));
    }
    Ok(TraceReport {
        shard,
        walk,
        init: run.init,
        steps: run.actions.len(),
        p_index,
        path,
        actions: words,
    })
}

fn step_words(
    m: &Cluster,
    s: &podcheck_model::State,
    a: &Action,
    after: &podcheck_model::State,
) -> String {
    format!(
        "{}: {}",
        podcheck_traces::words::actor_name(m, a),
        podcheck_traces::words::what(m, s, a, after)
    )
}

/// A report's trace as a run, each action looked up by its index in the state it is taken
/// from, and its words checked against the report's.
pub fn decode(m: &Cluster, t: &TraceReport) -> Result<Run<Action>, String> {
    if t.path.len() != t.steps || t.actions.len() != t.steps {
        return Err(format!(
            "the trace has {} steps, but {} path entries and {} actions",
            t.steps,
            t.path.len(),
            t.actions.len()
        ));
    }
    let mut state = m
        .init_states()
        .into_iter()
        .nth(t.init)
        .ok_or_else(|| format!("the model has no initial state {}", t.init))?;
    let mut actions = Vec::new();
    let mut listed = Vec::new();
    for (k, (&i, said)) in t.path.iter().zip(&t.actions).enumerate() {
        listed.clear();
        m.actions(&state, &mut listed);
        let a = *listed.get(i).ok_or_else(|| {
            format!(
                "step {}: the state lists {} actions, not {}",
                k + 1,
                listed.len(),
                i + 1
            )
        })?;
        let next = m.next_state(&state, a).ok_or_else(|| {
            format!(
                "step {}: `{}` is not enabled",
                k + 1,
                step_words(m, &state, &a, &state)
            )
        })?;
        let words = step_words(m, &state, &a, &next);
        if &words != said {
            return Err(format!(
                "step {}: the report says `{said}`, but the model's action {i} there is `{words}` (a report of another model or scenario?)",
                k + 1
            ));
        }
        state = next;
        actions.push(a);
    }
    Ok(Run {
        init: t.init,
        actions,
    })
}

/// A report's Kubernetes release, with the flag that chose it.
fn release_words(r: &ShardReport) -> String {
    match r.size.kubernetes_version {
        Some(v) => format!("{} (--kubernetes-version {v})", r.kubernetes_version),
        None => format!("{} (without --kubernetes-version)", r.kubernetes_version),
    }
}

/// A report's size, with the flags that chose it.
fn size_words(r: &ShardReport) -> String {
    let flag = |name: &str, v: Option<u8>| match v {
        Some(n) => format!("{name} {n}"),
        None => format!("without {name}"),
    };
    format!(
        "{} nodes, replicas {:?} ({}, {})",
        r.nodes,
        r.replicas,
        flag("--nodes", r.size.nodes),
        flag("--replicas", r.size.replicas)
    )
}

/// One shard run: its report, and the model and properties to replay its traces with.
pub struct Shard {
    pub report: ShardReport,
    pub model: Cluster,
    pub defs: Vec<PropertyDef>,
}

/// Runs shard `opts.shard` of `count` of a swarm over `scenario` (sized as `size` says) and
/// makes its report.
pub fn shard(
    scenario: &Scenario,
    size: SizeFlags,
    opts: &SimOptions,
    count: u64,
) -> Result<Shard, Error> {
    let index = opts.shard;
    let r = simulate::simulate(scenario, opts).map_err(Error)?;
    let m = check::model(scenario, &[], false);
    let mut properties = Vec::new();
    for p in &r.properties {
        let trace = match &p.found {
            Some(f) => Some(encode(&m, index, f.walk, &f.run, f.p_index).map_err(|e| {
                Error(format!(
                    "internal error: the trace of {} does not replay: {e}",
                    p.def.name
                ))
            })?),
            None => None,
        };
        properties.push(PropertyReport {
            name: p.def.name.to_string(),
            kind: p.def.kind.as_str().to_string(),
            verdict: p.verdict,
            expected: p.expected,
            expected_source: p.expected_source.clone(),
            trace,
        });
    }
    let report = ShardReport {
        report: SHARD_REPORT.into(),
        podcheck: env!("CARGO_PKG_VERSION").into(),
        scenario: scenario.name.clone(),
        size,
        kubernetes_version: m.release,
        nodes: scenario.cluster.nodes.len(),
        replicas: replicas_of(scenario),
        seed: opts.seed,
        shard: ShardId { index, count },
        walks: opts.walks,
        depth: opts.depth as u32,
        states_visited: r.states_visited,
        distinct_states: r.distinct_states,
        walks_to_terminal: r.walks_to_terminal,
        properties,
    };
    Ok(Shard {
        report,
        model: m,
        defs: r.properties.iter().map(|p| p.def).collect(),
    })
}

/// One shard's report, the text of file `path` (named in every error): JSON of a shard's
/// report whose parts add up.
pub fn read_shard_report(path: &str, text: &str) -> Result<ShardReport, Error> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error(format!("{path}: not JSON ({e})")))?;
    match value.get("report").and_then(|r| r.as_str()) {
        Some(SHARD_REPORT) => {}
        Some(MERGED_REPORT) => {
            return Err(Error(format!(
                "{path} is a merged report; podcheck merge takes the shards' own reports \
                 (podcheck check … --simulate --format json)"
            )))
        }
        _ => {
            return Err(Error(format!(
                "{path}: not a podcheck shard report (podcheck check … --simulate --format json)"
            )))
        }
    }
    let report: ShardReport = serde_json::from_str(text).map_err(|e| {
        let at = json_path_at(text, e.line(), e.column());
        let field = if at.is_empty() {
            String::new()
        } else {
            format!("field `{at}`: ")
        };
        Error(format!("{path}: not a valid shard report: {field}{e}"))
    })?;
    check_report(path, &report)?;
    Ok(report)
}

/// The field a position of a JSON text is in, as a path (`properties[2].trace.walk`): the
/// text is read up to that position (a 1-based line and the bytes read on it, as serde_json's
/// errors give them), keeping the objects' keys and the arrays' indices it is inside. Empty at
/// the top level.
fn json_path_at(text: &str, line: usize, column: usize) -> String {
    enum Frame {
        Object {
            key: Option<String>,
            expect_key: bool,
        },
        Array {
            index: usize,
        },
    }
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    let end = (line_start + column).min(text.len());
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Frame::Object { key, expect_key }) = stack.last_mut() {
                    if *expect_key {
                        let raw = text.get(start..=i.min(bytes.len() - 1)).unwrap_or("");
                        *key = Some(
                            serde_json::from_str::<String>(raw)
                                .unwrap_or_else(|_| raw.trim_matches('"').to_string()),
                        );
                        *expect_key = false;
                    }
                }
            }
            b'{' => stack.push(Frame::Object {
                key: None,
                expect_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { key, expect_key }) => {
                    *key = None;
                    *expect_key = true;
                }
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for f in &stack {
        match f {
            Frame::Object { key: Some(k), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Object { key: None, .. } => {}
            Frame::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// What a shard's report says of itself must add up: its `--nodes` and `--replicas` are its
/// node count and replicas; a shard runs at least one walk of at least one step; each walk
/// visits its initial state and at most one state a step; the distinct states are among the
/// visited ones; a trace comes from one of the shard's walks and is no longer than its depth.
/// A report that contradicts itself was edited, or is not a shard's report: bad input,
/// naming the file and the field. (Its seed cannot be checked short of running the shard
/// again; its traces are replayed by [`merge`].)
fn check_report(path: &str, r: &ShardReport) -> Result<(), Error> {
    let bad = |field: &str, why: String| Error(format!("{path}: {field} {why}"));
    if let Some(n) = r.size.nodes.filter(|&n| usize::from(n) != r.nodes) {
        return Err(bad(
            "size.nodes",
            format!(
                "is {n}, but nodes is {} (--nodes {n} runs {n} nodes)",
                r.nodes
            ),
        ));
    }
    if let Some(n) = r.size.replicas {
        if let Some((w, k)) = r.replicas.iter().find(|(_, &k)| k != n) {
            return Err(bad(
                "size.replicas",
                format!(
                    "is {n}, but replicas gives {w} {k} (--replicas {n} gives every Deployment and StatefulSet {n})"
                ),
            ));
        }
    }
    if r.walks == 0 {
        return Err(bad(
            "walks",
            "is 0, but a shard runs at least one walk".into(),
        ));
    }
    if !(1..=MAX_DEPTH).contains(&r.depth) {
        return Err(bad(
            "depth",
            format!(
                "is {}, but a walk's depth is 1 to {MAX_DEPTH} (--depth)",
                r.depth
            ),
        ));
    }
    if r.walks_to_terminal > r.walks {
        return Err(bad(
            "walks_to_terminal",
            format!(
                "is {}, more than the shard's walks ({})",
                r.walks_to_terminal, r.walks
            ),
        ));
    }
    let most = u128::from(r.walks) * (u128::from(r.depth) + 1);
    if r.states_visited < r.walks || u128::from(r.states_visited) > most {
        return Err(bad(
            "states_visited",
            format!(
                "is {}, but {} walks of up to {} steps visit {} to {most} states (each its initial state and one state a step)",
                r.states_visited, r.walks, r.depth, r.walks
            ),
        ));
    }
    if r.distinct_states == 0 || r.distinct_states > r.states_visited {
        return Err(bad(
            "distinct_states",
            format!(
                "is {}, but the distinct states are 1 to the states visited ({})",
                r.distinct_states, r.states_visited
            ),
        ));
    }
    for (i, p) in r.properties.iter().enumerate() {
        let Some(t) = &p.trace else { continue };
        let field = |f: &str| format!("properties[{i}].trace.{f} (of {})", p.name);
        if t.walk >= r.walks {
            return Err(bad(
                &field("walk"),
                format!(
                    "is {}, but the shard ran {} walks, numbered 0 to {}",
                    t.walk,
                    r.walks,
                    r.walks - 1
                ),
            ));
        }
        if t.steps > r.depth as usize {
            return Err(bad(
                &field("steps"),
                format!("is {}, more than the shard's depth ({})", t.steps, r.depth),
            ));
        }
    }
    Ok(())
}

/// The shards' reports merged: the merged report, the shards missing from it, and the model
/// and properties to replay its traces with.
pub struct Merged {
    pub report: MergedReport,
    pub missing: Vec<u64>,
    pub model: Cluster,
    pub defs: Vec<PropertyDef>,
}

/// Merges the shards' `reports` (each with its file's name, for messages): per property the
/// verdict any shard decided, with the shortest trace (replayed and confirmed first), else
/// `incomplete`. The reports must be of one swarm (the same podcheck, scenario, release, size,
/// depth, seed and shard count), each shard once. The scenario is looked up in `catalogue`
/// (read only once the reports agree; `catalogue_file` names it, none for the built-in one).
pub fn merge(
    reports: &[(&str, ShardReport)],
    catalogue: impl FnOnce() -> Result<Vec<Scenario>, Error>,
    catalogue_file: Option<&str>,
) -> Result<Merged, Error> {
    let Some((first_file, first)) = reports.first() else {
        return Err(Error("no report to merge".into()));
    };
    // One swarm: the same scenario, size, seed, depth and shard count in every report.
    for (f, r) in &reports[1..] {
        let differs = |what: &str, theirs: String, ours: String| {
            Error(format!(
                "{f} is not a shard of the same run as {first_file}: its {what} is {theirs}, not {ours}"
            ))
        };
        if r.podcheck != first.podcheck {
            return Err(differs(
                "podcheck version",
                r.podcheck.clone(),
                first.podcheck.clone(),
            ));
        }
        if r.scenario != first.scenario {
            return Err(differs(
                "scenario",
                format!("`{}`", r.scenario),
                format!("`{}`", first.scenario),
            ));
        }
        if (r.size.kubernetes_version, r.kubernetes_version)
            != (first.size.kubernetes_version, first.kubernetes_version)
        {
            return Err(differs(
                "Kubernetes release",
                release_words(r),
                release_words(first),
            ));
        }
        if (r.size.nodes, r.size.replicas, r.nodes, &r.replicas)
            != (
                first.size.nodes,
                first.size.replicas,
                first.nodes,
                &first.replicas,
            )
        {
            return Err(differs("size", size_words(r), size_words(first)));
        }
        if r.depth != first.depth {
            return Err(differs(
                "depth",
                r.depth.to_string(),
                first.depth.to_string(),
            ));
        }
        if r.seed != first.seed {
            return Err(differs("seed", r.seed.to_string(), first.seed.to_string()));
        }
        if r.shard.count != first.shard.count {
            return Err(differs(
                "shard count",
                r.shard.count.to_string(),
                first.shard.count.to_string(),
            ));
        }
    }
    let count = first.shard.count;
    if count > MAX_SHARDS {
        return Err(Error(format!(
            "{first_file}: {count} shards is more than {MAX_SHARDS}, the most podcheck runs"
        )));
    }
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    for (f, r) in reports {
        if r.shard.index >= count {
            return Err(Error(format!(
                "{f}: shard index {} is not below its shard count {count}",
                r.shard.index
            )));
        }
        if let Some(other) = seen.insert(r.shard.index, f) {
            return Err(Error(format!(
                "shard {}/{count} is given twice: {other} and {f}",
                r.shard.index
            )));
        }
    }
    let missing: Vec<u64> = (0..count).filter(|i| !seen.contains_key(i)).collect();
    // The scenario, rebuilt as the shards ran it, to replay every trace.
    let origin = catalogue_file.unwrap_or("the built-in catalogue");
    let size = Size {
        nodes: first.size.nodes,
        replicas: first.size.replicas,
        kubernetes_version: first.size.kubernetes_version,
        no_cone: false,
    };
    let all = catalogue()?;
    let Some(found) = all.iter().find(|s| s.name == first.scenario) else {
        let known: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        return Err(Error(match catalogue_file {
            None => format!(
                "{first_file}: unknown scenario `{}` (in the built-in catalogue): if the shards ran it from a catalogue file (podcheck check --catalogue FILE …), merge with that file: podcheck merge --catalogue FILE …",
                first.scenario
            ),
            Some(c) => format!(
                "{first_file}: unknown scenario `{}` (in {c}): merge with the catalogue the shards ran it from (--catalogue FILE); {c} has: {}",
                first.scenario,
                known.join(", ")
            ),
        }));
    };
    // A size the scenario cannot take: the field of the report that gives it.
    let fails = |nodes, replicas| found.clone().resize(nodes, replicas).is_err();
    let size_field = match (first.size.nodes, first.size.replicas) {
        (Some(n), _) if fails(Some(n), None) => format!("size.nodes is {n}"),
        (_, Some(r)) if fails(None, Some(r)) => format!("size.replicas is {r}"),
        _ => "size".to_string(),
    };
    let scenario = resized(found.clone(), size, origin)
        .map_err(|Error(e)| Error(format!("{first_file}: {size_field}: {e}")))?;
    if (scenario.cluster.nodes.len(), replicas_of(&scenario))
        != (first.nodes, first.replicas.clone())
    {
        return Err(Error(format!(
            "{first_file}: scenario `{}` in {origin} has {} nodes and replicas {:?}, but the shards ran {} nodes and replicas {:?}: merge with the catalogue the shards used (--catalogue)",
            scenario.name,
            scenario.cluster.nodes.len(),
            replicas_of(&scenario),
            first.nodes,
            first.replicas
        )));
    }
    let defs = check::selected(&scenario).map_err(Error)?;
    let m = check::model(&scenario, &[], false);
    if m.release != first.kubernetes_version {
        return Err(Error(format!(
            "{first_file}: kubernetes_version is {}, but scenario `{}` in {origin} {} follows Kubernetes {}",
            first.kubernetes_version,
            scenario.name,
            match first.size.kubernetes_version {
                Some(v) => format!("with --kubernetes-version {v}"),
                None => "without --kubernetes-version".to_string(),
            },
            m.release
        )));
    }

    let mut best: Vec<Option<TraceReport>> = vec![None; defs.len()];
    for (f, r) in reports {
        let names: Vec<(&str, &str)> = r
            .properties
            .iter()
            .map(|p| (p.name.as_str(), p.kind.as_str()))
            .collect();
        let ours: Vec<(&str, &str)> = defs.iter().map(|d| (d.name, d.kind.as_str())).collect();
        if names != ours {
            return Err(Error(format!(
                "{f}: its properties are not those podcheck checks in `{}` ({origin})",
                scenario.name
            )));
        }
        for (i, ((d, p), b)) in defs
            .iter()
            .zip(&r.properties)
            .zip(best.iter_mut())
            .enumerate()
        {
            let bad = |why: String| Error(format!("{f}: property {}: {why}", d.name));
            let (expected, expected_source) = expectation(&scenario, d);
            if p.expected != expected {
                return Err(Error(format!(
                    "{f}: properties[{i}].expected is {} for {}, but scenario `{}` in {origin} expects {}: merge with the catalogue the shards used (--catalogue), and unedited reports",
                    p.expected.as_str(),
                    d.name,
                    scenario.name,
                    expected.as_str()
                )));
            }
            if p.expected_source != expected_source {
                return Err(Error(format!(
                    "{f}: properties[{i}].expected_source of {} is `{}`, but scenario `{}` in {origin} gives `{expected_source}`: merge with the catalogue the shards used (--catalogue), and unedited reports",
                    d.name,
                    p.expected_source,
                    scenario.name
                )));
            }
            match (&p.trace, p.verdict) {
                (None, Verdict::Incomplete) => {}
                (None, v) => {
                    return Err(bad(format!(
                        "verdict {} without a trace (a simulation decides only with one)",
                        v.as_str()
                    )))
                }
                (Some(t), v) => {
                    if v != found_verdict(d.kind) {
                        return Err(bad(format!(
                            "verdict {} is not what a trace of a {} property gives",
                            v.as_str(),
                            d.kind.as_str()
                        )));
                    }
                    if t.shard != r.shard.index {
                        return Err(bad(format!(
                            "the trace names shard {}, but the report is of shard {}",
                            t.shard, r.shard.index
                        )));
                    }
                    let run = decode(&m, t)
                        .map_err(|e| bad(format!("the trace does not replay: {e}")))?;
                    confirm(&m, d, &run, t.p_index).map_err(|e| Error(format!("{f}: {e}")))?;
                    let key = |t: &TraceReport| (t.steps, t.shard, t.walk);
                    if b.as_ref().is_none_or(|x| key(t) < key(x)) {
                        *b = Some(t.clone());
                    }
                }
            }
        }
    }
    let total = |what: &str, of: fn(&ShardReport) -> u64| {
        reports
            .iter()
            .try_fold(0u64, |sum, (_, r)| sum.checked_add(of(r)))
            .ok_or_else(|| {
                Error(format!(
                    "the shards' {what} add up to more than {}: reports of no real run",
                    u64::MAX
                ))
            })
    };
    let walks = total("walks", |r| r.walks)?;
    let states_visited = total("states visited", |r| r.states_visited)?;

    let properties: Vec<PropertyReport> = defs
        .iter()
        .zip(best)
        .map(|(d, trace)| {
            let (expected, expected_source) = expectation(&scenario, d);
            PropertyReport {
                name: d.name.to_string(),
                kind: d.kind.as_str().to_string(),
                verdict: match &trace {
                    Some(_) => found_verdict(d.kind),
                    None => Verdict::Incomplete,
                },
                expected,
                expected_source,
                trace,
            }
        })
        .collect();
    let merged = MergedReport {
        report: MERGED_REPORT.into(),
        podcheck: first.podcheck.clone(),
        scenario: scenario.name.clone(),
        size: first.size,
        kubernetes_version: first.kubernetes_version,
        nodes: first.nodes,
        replicas: first.replicas.clone(),
        seed: first.seed,
        shards: MergedShards {
            count,
            merged: seen.keys().copied().collect(),
            missing: missing.clone(),
        },
        walks,
        depth: first.depth,
        states_visited,
        properties,
    };
    Ok(Merged {
        report: merged,
        missing,
        model: m,
        defs,
    })
}
