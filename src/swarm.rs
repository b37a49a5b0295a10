//! Swarm checking on the command line: `podcheck check SCENARIO --simulate --seed S --shard
//! i/N` runs one shard of random walks ([`podcheck_properties::simulate`]) and writes its
//! report; `podcheck merge FILE…` combines the shards' reports into one verdict per property.
//!
//! A report names each trace by the index of each of its actions among the actions the model
//! lists in the state it is taken from (how Stateright's Explorer encodes a path), with the
//! actions in words beside it for the reader. `merge` decodes every trace, replays it through
//! the model and checks that it breaks (or witnesses) its property before it uses it.

use crate::{load, pick, resize, say, BadInput, Format, Size};
use podcheck_model::spec::{Scenario, Verdict};
use podcheck_model::{Action, Cluster};
use podcheck_properties::check::{self, expectation};
use podcheck_properties::simulate::{self, confirm, found_verdict, SimOptions};
use podcheck_properties::{PropertyDef, Run};
use serde::{Deserialize, Serialize};
use stateright::Model;
use std::collections::BTreeMap;
use std::process::ExitCode;

/// The environment variable a Kubernetes Indexed Job sets in each of its pods: the pod's
/// completion index, 0 to `completions - 1`.
pub const INDEX_VAR: &str = "JOB_COMPLETION_INDEX";

/// Walks per shard unless `--walks` says otherwise.
pub const DEFAULT_WALKS: u64 = 1000;
/// Steps per walk at most unless `--depth` says otherwise.
pub const DEFAULT_DEPTH: u32 = 200;

const SHARD_REPORT: &str = "podcheck swarm shard";
const MERGED_REPORT: &str = "podcheck swarm merged";

/// Which shard to run: `i/N`, or `N` with the index from [`INDEX_VAR`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    Index { index: u64, count: u64 },
    FromEnv { count: u64 },
}

/// The most shards of one run: the most completions Kubernetes allows an Indexed Job.
pub const MAX_SHARDS: u64 = 100_000;

fn shard_count(t: &str) -> Result<u64, String> {
    let n = t
        .parse::<u64>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("`{t}` is not a shard count (1, 2, …)"))?;
    if n > MAX_SHARDS {
        return Err(format!(
            "{n} shards is more than {MAX_SHARDS}, the most completions of an Indexed Job"
        ));
    }
    Ok(n)
}

/// Parses `--shard i/N` or `--shard N`.
pub fn parse_shard(s: &str) -> Result<ShardArg, String> {
    match s.split_once('/') {
        Some((i, n)) => {
            let count = shard_count(n)?;
            let index = i
                .parse::<u64>()
                .map_err(|_| format!("`{i}` is not a shard index (0, 1, …)"))?;
            if index >= count {
                return Err(format!(
                    "shard index {index} is not below the shard count {count} (shards are numbered 0 to {})",
                    count - 1
                ));
            }
            Ok(ShardArg::Index { index, count })
        }
        None => Ok(ShardArg::FromEnv {
            count: shard_count(s)?,
        }),
    }
}

/// The shard's index and the shard count, the index read from [`INDEX_VAR`] for `--shard N`.
fn resolve_shard(shard: Option<ShardArg>) -> Result<(u64, u64), BadInput> {
    match shard {
        None => Ok((0, 1)),
        Some(ShardArg::Index { index, count }) => Ok((index, count)),
        Some(ShardArg::FromEnv { count }) => {
            let raw = std::env::var(INDEX_VAR).map_err(|_| {
                BadInput(format!(
                    "--shard {count} takes the shard index from {INDEX_VAR}, which a Kubernetes \
                     Indexed Job sets in each pod, and it is not set (or not UTF-8); run one \
                     shard by hand with --shard i/{count}"
                ))
            })?;
            let index: u64 = raw.trim().parse().map_err(|_| {
                BadInput(format!(
                    "{INDEX_VAR} is `{raw}`, not a shard index (0, 1, …) for --shard {count}"
                ))
            })?;
            if index >= count {
                return Err(BadInput(format!(
                    "{INDEX_VAR} is {index}, but --shard {count} has shards 0 to {}: the Job's \
                     completions must equal the shard count",
                    count - 1
                )));
            }
            Ok((index, count))
        }
    }
}

/// The flags of a swarm run, on `podcheck check`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SimArgs {
    /// Random-walk (swarm) checking of one scenario instead of the exhaustive search: it
    /// reports what its walks find (`violated` for `always` and `step`, `holds` for
    /// `sometimes`) and `incomplete` for everything else, never `holds` for a safety property.
    #[arg(long)]
    pub simulate: bool,
    /// The swarm's seed (with --simulate): the same for every shard of one run.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Which shard to run (with --simulate): `i/N` for shard i of N, or `N` to take i from
    /// JOB_COMPLETION_INDEX, as in a pod of a Kubernetes Indexed Job. Default 0/1.
    #[arg(long, value_name = "i/N|N", value_parser = parse_shard)]
    pub shard: Option<ShardArg>,
    /// Walks in this shard (with --simulate; default 1000).
    #[arg(long, value_name = "W", value_parser = clap::value_parser!(u64).range(1..))]
    pub walks: Option<u64>,
    /// Steps per walk at most (with --simulate; default 200).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub depth: Option<u32>,
    /// Also write the shard's JSON report to this file (with --simulate).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

impl SimArgs {
    /// Without --simulate, none of its flags may be given.
    pub fn reject_without_simulate(&self) -> Result<(), BadInput> {
        let given = [
            ("--seed", self.seed.is_some()),
            ("--shard", self.shard.is_some()),
            ("--walks", self.walks.is_some()),
            ("--depth", self.depth.is_some()),
            ("--out", self.out.is_some()),
        ];
        match given.iter().find(|(_, g)| *g) {
            Some((flag, _)) => Err(BadInput(format!(
                "{flag} is a flag of random-walk checking: add --simulate"
            ))),
            None => Ok(()),
        }
    }
}

/// The `--nodes` and `--replicas` flags a report was made with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeFlags {
    pub nodes: Option<u8>,
    pub replicas: Option<u8>,
    /// `--kubernetes-version`, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes_version: Option<podcheck_model::spec::Release>,
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
    pub kubernetes_version: podcheck_model::spec::Release,
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
    pub kubernetes_version: podcheck_model::spec::Release,
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
    for (s, a) in states.iter().zip(&run.actions) {
        listed.clear();
        m.actions(s, &mut listed);
        let i = listed
            .iter()
            .position(|l| l == a)
            .ok_or_else(|| format!("`{a:?}` is not among the actions of its state"))?;
        path.push(i);
        words.push(step_words(m, s, a));
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

fn step_words(m: &Cluster, s: &podcheck_model::State, a: &Action) -> String {
    format!(
        "{}: {}",
        podcheck_traces::words::actor_name(m, a),
        podcheck_traces::words::what(m, s, a)
    )
}

/// A report's trace as a run, each action looked up by its index in the state it is taken
/// from, and its words checked against the report's.
fn decode(m: &Cluster, t: &TraceReport) -> Result<Run<Action>, String> {
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
        let words = step_words(m, &state, &a);
        if &words != said {
            return Err(format!(
                "step {}: the report says `{said}`, but the model's action {i} there is `{words}` (a report of another model or scenario?)",
                k + 1
            ));
        }
        state = m
            .next_state(&state, a)
            .ok_or_else(|| format!("step {}: `{words}` is not enabled", k + 1))?;
        actions.push(a);
    }
    Ok(Run {
        init: t.init,
        actions,
    })
}

fn write_out(path: &str, json: &str) -> Result<(), BadInput> {
    std::fs::write(path, format!("{json}\n"))
        .map_err(|e| BadInput(format!("cannot write {path}: {e}")))
}

/// Exit 1 for a decided verdict against the expectation, else 3 for an incomplete one, else 0
/// (as `podcheck check`).
fn exit_code(props: &[PropertyReport]) -> ExitCode {
    if props
        .iter()
        .any(|p| p.verdict != Verdict::Incomplete && p.verdict != p.expected)
    {
        ExitCode::from(1)
    } else if props.iter().any(|p| p.verdict == Verdict::Incomplete) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

fn print_properties(props: &[PropertyReport]) {
    let w = props.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in props {
        let decided = p.verdict != Verdict::Incomplete;
        let mark = if decided && p.verdict != p.expected {
            "!"
        } else {
            " "
        };
        let found = p
            .trace
            .as_ref()
            .map(|t| {
                format!(
                    "trace {} steps (shard {}, walk {})",
                    t.steps, t.shard, t.walk
                )
            })
            .unwrap_or_default();
        say!(
            " {mark} {:w$}  {:9}  {:10}  expected {:10}  {}",
            p.name,
            p.kind,
            p.verdict.as_str(),
            p.expected.as_str(),
            found
        );
    }
    let decided = props
        .iter()
        .filter(|p| p.verdict != Verdict::Incomplete)
        .count();
    let bad = props
        .iter()
        .filter(|p| p.verdict != Verdict::Incomplete && p.verdict != p.expected)
        .count();
    say!(
        "\n{} verdicts: {} decided ({} as expected, {} not), {} incomplete (a simulation decides only what its walks find)",
        props.len(),
        decided,
        decided - bad,
        bad,
        props.len() - decided
    );
}

/// Prints each found trace as a text timeline.
fn print_traces(
    m: &Cluster,
    defs: &[PropertyDef],
    props: &[PropertyReport],
) -> Result<(), BadInput> {
    for (d, p) in defs.iter().zip(props) {
        let Some(t) = &p.trace else { continue };
        let run = decode(m, t).map_err(BadInput)?;
        let trace = podcheck_traces::from_run(
            m,
            &run,
            d.name,
            podcheck_traces::Kind::from(&d.kind),
            p.verdict,
            None,
        )
        .map_err(|e| {
            BadInput(format!(
                "internal error: the trace of {} does not replay: {e}",
                d.name
            ))
        })?;
        say!("{}: {}\n", d.name, d.sentence);
        say!("{}", podcheck_traces::render_text(&trace));
    }
    Ok(())
}

/// `podcheck check SCENARIO --simulate …`: one shard.
pub fn run_simulate(
    picked: Vec<Scenario>,
    format: Format,
    traces: bool,
    args: &SimArgs,
    size: Size,
) -> Result<ExitCode, BadInput> {
    let [scenario] = <[Scenario; 1]>::try_from(picked).map_err(|_| {
        BadInput(
            "--simulate runs one scenario: name it (podcheck check SCENARIO --simulate --seed S …)"
                .into(),
        )
    })?;
    let seed = args.seed.ok_or_else(|| {
        BadInput(
            "--simulate needs --seed S (any number; the same seed, shard, walks and depth give the same report)"
                .into(),
        )
    })?;
    let (index, count) = resolve_shard(args.shard)?;
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    let opts = SimOptions {
        seed,
        shard: index,
        walks: args.walks.unwrap_or(DEFAULT_WALKS),
        depth: depth as usize,
    };
    let start = std::time::Instant::now();
    let r = simulate::simulate(&scenario, &opts).map_err(BadInput)?;
    let m = check::model(&scenario, &[], false);
    let mut properties = Vec::new();
    for p in &r.properties {
        let trace = match &p.found {
            Some(f) => Some(encode(&m, index, f.walk, &f.run, f.p_index).map_err(|e| {
                BadInput(format!(
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
        size: SizeFlags {
            nodes: size.nodes,
            replicas: size.replicas,
            kubernetes_version: size.kubernetes_version,
        },
        kubernetes_version: m.release,
        nodes: scenario.cluster.nodes.len(),
        replicas: replicas_of(&scenario),
        seed,
        shard: ShardId { index, count },
        walks: opts.walks,
        depth,
        states_visited: r.states_visited,
        distinct_states: r.distinct_states,
        walks_to_terminal: r.walks_to_terminal,
        properties,
    };
    let json = serde_json::to_string_pretty(&report).map_err(|e| BadInput(e.to_string()))?;
    if let Some(path) = &args.out {
        write_out(path, &json)?;
    }
    match format {
        Format::Json => say!("{json}"),
        Format::Table => {
            say!(
                "{}  (Kubernetes {}, simulation: seed {seed}, shard {index}/{count}, {} walks of up to {depth} steps, {} states visited, {} distinct, {} walks ended in a terminal state)",
                scenario.name,
                report.kubernetes_version,
                opts.walks,
                r.states_visited,
                r.distinct_states,
                r.walks_to_terminal
            );
            print_properties(&report.properties);
            if traces {
                let defs: Vec<PropertyDef> = r.properties.iter().map(|p| p.def).collect();
                print_traces(&m, &defs, &report.properties)?;
            }
        }
    }
    eprintln!(
        "{}: shard {index}/{count} simulated in {:.2} s",
        scenario.name,
        start.elapsed().as_secs_f64()
    );
    Ok(exit_code(&report.properties))
}

/// Reads one shard report, naming the file in every error.
fn read_report(path: &str) -> Result<ShardReport, BadInput> {
    let text =
        std::fs::read_to_string(path).map_err(|e| BadInput(format!("cannot read {path}: {e}")))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| BadInput(format!("{path}: not JSON ({e})")))?;
    match value.get("report").and_then(|r| r.as_str()) {
        Some(SHARD_REPORT) => {}
        Some(MERGED_REPORT) => {
            return Err(BadInput(format!(
                "{path} is a merged report; podcheck merge takes the shards' own reports \
                 (podcheck check … --simulate --format json)"
            )))
        }
        _ => {
            return Err(BadInput(format!(
                "{path}: not a podcheck shard report (podcheck check … --simulate --format json)"
            )))
        }
    }
    serde_json::from_value(value)
        .map_err(|e| BadInput(format!("{path}: not a valid shard report: {e}")))
}

/// `podcheck merge FILE…`.
pub fn run_merge(
    files: Vec<String>,
    format: Format,
    out: Option<String>,
    traces: bool,
    catalogue_file: Option<String>,
) -> Result<ExitCode, BadInput> {
    let mut reports = Vec::new();
    for f in &files {
        reports.push((f.as_str(), read_report(f)?));
    }
    let (first_file, first) = &reports[0];
    // One swarm: the same scenario, size, seed, depth and shard count in every report.
    for (f, r) in &reports[1..] {
        let differs = |what: &str, theirs: String, ours: String| {
            BadInput(format!(
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
        if (r.size, r.nodes, &r.replicas) != (first.size, first.nodes, &first.replicas) {
            return Err(differs(
                "size",
                format!("{} nodes, replicas {:?}", r.nodes, r.replicas),
                format!("{} nodes, replicas {:?}", first.nodes, first.replicas),
            ));
        }
        if r.kubernetes_version != first.kubernetes_version {
            return Err(differs(
                "Kubernetes release",
                r.kubernetes_version.to_string(),
                first.kubernetes_version.to_string(),
            ));
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
        return Err(BadInput(format!(
            "{first_file}: {count} shards is more than {MAX_SHARDS}, the most podcheck runs"
        )));
    }
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    for (f, r) in &reports {
        if r.shard.index >= count {
            return Err(BadInput(format!(
                "{f}: shard index {} is not below its shard count {count}",
                r.shard.index
            )));
        }
        if let Some(other) = seen.insert(r.shard.index, f) {
            return Err(BadInput(format!(
                "shard {}/{count} is given twice: {other} and {f}",
                r.shard.index
            )));
        }
    }
    let missing: Vec<u64> = (0..count).filter(|i| !seen.contains_key(i)).collect();
    // The scenario, rebuilt as the shards ran it, to replay every trace.
    let origin = catalogue_file
        .clone()
        .unwrap_or_else(|| "the built-in catalogue".into());
    let size = Size {
        nodes: first.size.nodes,
        replicas: first.size.replicas,
        kubernetes_version: first.size.kubernetes_version,
    };
    let scenario = pick(
        load(&catalogue_file)?,
        std::slice::from_ref(&first.scenario),
        &origin,
    )
    .and_then(|picked| resize(picked, size, &origin))?
    .remove(0);
    if (scenario.cluster.nodes.len(), replicas_of(&scenario))
        != (first.nodes, first.replicas.clone())
    {
        return Err(BadInput(format!(
            "{first_file}: scenario `{}` in {origin} has {} nodes and replicas {:?}, but the shards ran {} nodes and replicas {:?}: merge with the catalogue the shards used (--catalogue)",
            scenario.name,
            scenario.cluster.nodes.len(),
            replicas_of(&scenario),
            first.nodes,
            first.replicas
        )));
    }
    let defs = check::selected(&scenario).map_err(BadInput)?;
    let m = check::model(&scenario, &[], false);

    let mut best: Vec<Option<TraceReport>> = vec![None; defs.len()];
    for (f, r) in &reports {
        let names: Vec<(&str, &str)> = r
            .properties
            .iter()
            .map(|p| (p.name.as_str(), p.kind.as_str()))
            .collect();
        let ours: Vec<(&str, &str)> = defs.iter().map(|d| (d.name, d.kind.as_str())).collect();
        if names != ours {
            return Err(BadInput(format!(
                "{f}: its properties are not those podcheck checks in `{}` ({origin})",
                scenario.name
            )));
        }
        for ((d, p), b) in defs.iter().zip(&r.properties).zip(best.iter_mut()) {
            let bad = |why: String| BadInput(format!("{f}: property {}: {why}", d.name));
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
                    confirm(&m, d, &run, t.p_index).map_err(|e| BadInput(format!("{f}: {e}")))?;
                    let key = |t: &TraceReport| (t.steps, t.shard, t.walk);
                    if b.as_ref().is_none_or(|x| key(t) < key(x)) {
                        *b = Some(t.clone());
                    }
                }
            }
        }
    }
    // Every report is valid: only now a warning.
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|i| i.to_string()).collect();
        eprintln!(
            "warning: {} of {count} shards are missing ({}): merging the {} given; what they found stands, but the missing shards' walks were not run",
            missing.len(),
            list.join(", "),
            reports.len()
        );
    }

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
        walks: reports.iter().map(|(_, r)| r.walks).sum(),
        depth: first.depth,
        states_visited: reports.iter().map(|(_, r)| r.states_visited).sum(),
        properties,
    };
    let json = serde_json::to_string_pretty(&merged).map_err(|e| BadInput(e.to_string()))?;
    if let Some(path) = &out {
        write_out(path, &json)?;
    }
    match format {
        Format::Json => say!("{json}"),
        Format::Table => {
            say!(
                "{}  (Kubernetes {}, swarm: seed {}, {} of {count} shards{}, {} walks of up to {} steps, {} states visited)",
                merged.scenario,
                merged.kubernetes_version,
                merged.seed,
                merged.shards.merged.len(),
                if missing.is_empty() { "" } else { ", SOME MISSING" },
                merged.walks,
                merged.depth,
                merged.states_visited
            );
            print_properties(&merged.properties);
            if traces {
                print_traces(&m, &defs, &merged.properties)?;
            }
        }
    }
    Ok(exit_code(&merged.properties))
}
