//! `podcheck`: the command line. A thin shell over `podcheck-model`, `podcheck-properties`
//! and `podcheck-traces`.

mod bench;

use clap::{Parser, Subcommand, ValueEnum};
use podcheck_model::catalogue;
use podcheck_model::spec::{parse_scenarios, Scenario, Verdict};
use podcheck_properties::check::{self, CheckOptions, PropertyResult, ScenarioResult, WorstTime};
use podcheck_properties::progress::{self, Bound, Stop};
use serde::Serialize;
use std::process::ExitCode;

/// The search allocates and frees a few small blocks per transition; mimalloc does that in a
/// fraction of the system allocator's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "podcheck",
    version,
    about = "Model-check the Kubernetes pod lifecycle: which promises hold, with a shortest counterexample where one doesn't."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the scenarios, one line each.
    List {
        /// Read scenarios from this YAML file instead of the built-in catalogue.
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
    },
    /// Check scenarios (all built-in ones when none is named).
    Check {
        /// Scenario names.
        scenarios: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Threads that explore (and that run Stateright's checker with `--cross-check`).
        /// Verdicts, counts and traces are the same for any number.
        #[arg(long, default_value_t = 1, value_parser = whole::<u16, 1, 64>)]
        threads: u16,
        /// Scenarios checked at once, each on threads of its own (default: the machine's
        /// cores divided by --threads; one with --max-memory, whose bound is the whole
        /// process's). The report is the same for any number: each scenario's part comes
        /// out in order, when it and those before it are done.
        #[arg(long, value_name = "N", value_parser = whole::<u16, 1, 64>)]
        jobs: Option<u16>,
        /// Stop before more than this many distinct states have been found. A run that
        /// reaches the bound is reported incomplete, and the properties it could not decide
        /// are `incomplete`.
        #[arg(long, value_name = "N", value_parser = whole::<u64, 1, { u64::MAX }>)]
        max_states: Option<u64>,
        /// Stop before the process's resident memory passes SIZE (512M, 8G, 8GiB, 1.5G:
        /// powers of 1024; a fraction needs a unit). A run that reaches the bound is reported
        /// incomplete, as with --max-states.
        #[arg(long, value_name = "SIZE", value_parser = memory_size)]
        max_memory: Option<u64>,
        /// Also run Stateright's own checker (with `--threads` threads) and fail unless it
        /// finds the same number of unique states and the same `always` and `sometimes`
        /// verdicts.
        #[arg(long)]
        cross_check: bool,
        /// Print the shortest counterexample or witness of every discovered property. With
        /// --format json, each such property gets a `trace`: the trace's JSON, as `podcheck
        /// trace --format json` prints it (with -f: in --trace-format, a string or JSON).
        #[arg(long)]
        traces: bool,
        /// Explore every state, also those that differ from one already found only by which
        /// of two interchangeable nodes holds what (see "Symmetry" in README).
        #[arg(long)]
        no_reduction: bool,
        /// Make every successor, also one the search can name from a diamond of two
        /// independent steps it has made already (see "Diamonds" in README): the same states,
        /// edges, verdicts and traces, only slower; for comparison.
        #[arg(long)]
        no_diamonds: bool,
        /// Also give every `leads_to` property its worst-case and best-case time from P to Q
        /// (a `within` property always has them): the seconds, or `unbounded`.
        #[arg(long)]
        worst_case: bool,
        /// Read scenarios from this YAML file instead of the built-in catalogue.
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
        /// Make every vacuity warning an error (exit 1): a fault that never happened, a
        /// `start: settled` that never settled, a witness that never happens, a property
        /// whose premise no reachable state has.
        #[arg(long)]
        strict: bool,
        /// Check your own Kubernetes manifests: a file, a folder or `-` for stdin; repeatable.
        /// Applications: each folder (given, or under one given; hidden ones and links to
        /// folders under it are passed over, a link with a note) that directly holds `.yaml`,
        /// `.yml` or `.json` files is one application, its files together, named by its
        /// path; the files named directly and stdin together make one more. A folder or file
        /// given twice is read once; each file is read up to 16 MiB. Each application is
        /// checked on its own under every plan of --plan, from the settled cluster (see "Your
        /// own manifests" in README).
        #[arg(short = 'f', long = "filename", value_name = "PATH")]
        filename: Vec<String>,
        /// With -f: the fault plans to check, comma-separated (default: all): delete-pod,
        /// rollout, dependency-outage, crash, drain, partition, partition-force-delete,
        /// power-off. A plan named here that applies to nothing, an empty name and a plan
        /// named twice are errors.
        #[arg(long, value_name = "PLAN,...")]
        plan: Vec<String>,
        /// With -f: the format of each finding's trace (and, with --traces, of the others).
        #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
        trace_format: TraceFormat,
        /// With -f: list the fields the model does not read, each with its line (without
        /// --verbose, a note says how many; an error without -f).
        #[arg(long)]
        verbose: bool,
        #[command(flatten)]
        size: Size,
        #[command(flatten)]
        sim: swarm::SimArgs,
    },
    /// Merge the JSON reports of a swarm run's shards (`check SCENARIO --simulate --shard …
    /// --format json`): per property the verdict any shard decided, with the shortest trace,
    /// else `incomplete`.
    Merge {
        /// The shards' reports.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Also write the merged JSON report to this file.
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
        /// Print the trace of every decided property.
        #[arg(long)]
        traces: bool,
        /// The catalogue the shards read their scenario from (default: the built-in one).
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
    },
    /// Show the shortest counterexample (or witness) of a property in a scenario.
    Trace {
        /// Scenario name (with -f: a plan scenario's name, or none when there is one).
        #[arg(required_unless_present = "filename")]
        scenario: Option<String>,
        #[command(flatten)]
        manifests: FromManifests,

        /// Property name (default: the first violated property).
        #[arg(long)]
        property: Option<String>,
        /// Rendering.
        #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
        format: TraceFormat,
        /// Stop before the process's resident memory passes SIZE (as for check).
        #[arg(long, value_name = "SIZE", value_parser = memory_size)]
        max_memory: Option<u64>,
        /// For a `within` property (with --property): the slowest run, on which its worst
        /// case is measured, instead of its counterexample.
        #[arg(long, requires = "property")]
        slowest: bool,
        /// Read scenarios from this YAML file instead of the built-in catalogue.
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
        #[command(flatten)]
        size: Size,
    },
    /// Browse a scenario's states in Stateright's Explorer: readable states, a picture of the
    /// cluster, and the counterexample paths, step by step.
    Explore {
        /// Scenario name (with -f: a plan scenario's name, or none when there is one).
        #[arg(required_unless_present = "filename")]
        scenario: Option<String>,
        #[command(flatten)]
        manifests: FromManifests,

        /// Where to serve the Explorer (loopback unless you say otherwise).
        #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:3000")]
        addr: String,
        /// Read scenarios from this YAML file instead of the built-in catalogue.
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
        #[command(flatten)]
        size: Size,
    },
    /// Measure every scenario (or the named ones), each size in a process of its own:
    /// states, seconds per phase, states per second, bytes per state, peak memory.
    Bench(bench::BenchArgs),
}

/// `trace -f` and `explore -f`: one plan scenario of your manifests instead of a scenario.
#[derive(clap::Args)]
struct FromManifests {
    /// Your own manifests instead of a scenario (as `check -f`): SCENARIO then names one of
    /// their plan scenarios (`"deploy: delete-pod web"`), and may be left out when there is
    /// only one.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    filename: Vec<String>,
    /// With -f: the fault plans whose scenarios to choose from (default: all).
    #[arg(long, value_name = "PLAN,...", requires = "filename")]
    plan: Vec<String>,
}

/// `--max-memory SIZE`, in bytes. A fraction needs a unit (`1.5G`): a fraction of a byte is
/// no size.
fn memory_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let number = t.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c.is_whitespace());
    let unit = &t[number.len()..];
    if number.contains('.') && matches!(unit.trim().to_ascii_lowercase().as_str(), "" | "b") {
        return Err(format!(
            "`{text}` is a fraction of a byte: give a fraction with a unit (1.5G, 0.5M) or a whole number of bytes"
        ));
    }
    progress::parse_size(text)
}

/// A whole number from `MIN` to `MAX` (a flag's value), with what is wrong in words: not a
/// number, too small, too large.
pub(crate) fn whole<T: TryFrom<u64>, const MIN: u64, const MAX: u64>(
    text: &str,
) -> Result<T, String> {
    let range = if MAX == u64::MAX {
        format!("a whole number, at least {MIN}")
    } else {
        format!("a whole number from {MIN} to {MAX}")
    };
    let t = text.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("it must be {range}, not `{text}`"));
    }
    // Only digits: a number that does not parse is too large for any u64.
    match t.parse::<u64>() {
        Ok(n) if n < MIN => Err(format!("it must be {range}, not {n}")),
        Ok(n) if n <= MAX => T::try_from(n).map_err(|_| format!("it must be {range}, not {n}")),
        _ => Err(format!("it must be {range}; {t} is too large")),
    }
}

/// The closest of `known` to `name`, as ` (did you mean `x`?)`, or nothing when none is close.
pub(crate) fn did_you_mean(name: &str, known: &[&str]) -> String {
    podcheck_model::manifest::tree::closest(name, known)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

/// The report of a scenario not started before Ctrl-C: every property `incomplete`.
fn not_started(s: &Scenario) -> Result<ScenarioResult, BadInput> {
    let stop = Stop {
        bound: Bound::Interrupt,
        phase: progress::Phase::Exploring,
        states: 0,
    };
    check::not_checked(s, stop).map_err(BadInput)
}

/// Ctrl-C: the first stops the running phase at its next state, and the report of what is
/// decided so far is printed; the second quits at once.
fn stop_on_ctrl_c() {
    let handler = || {
        if progress::interrupt() > 1 {
            std::process::exit(130);
        }
    };
    if let Err(e) = ctrlc::set_handler(handler) {
        eprintln!("warning: Ctrl-C will quit without a report: {e}");
    }
}

/// Scenario sizes, applied to every scenario checked.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
struct Size {
    /// Number of nodes (1–5); extra nodes copy the last node of the scenario.
    #[arg(long, value_parser = whole::<u8, 1, 5>)]
    nodes: Option<u8>,
    /// `replicas` of every Deployment and StatefulSet (1–5).
    #[arg(long, value_parser = whole::<u8, 1, 5>)]
    replicas: Option<u8>,
    /// The Kubernetes release to follow, as 1.33 (1.22 to 1.35), for every scenario; it
    /// replaces the scenario's `cluster.kubernetesVersion` (default: the newest, 1.35).
    #[arg(long, value_name = "V", value_parser = kubernetes_version)]
    kubernetes_version: Option<podcheck_model::spec::Release>,
}

/// `--replicas N` sizes the Deployments and StatefulSets of the scenarios checked: an error
/// when none of them has one (the flag would change nothing), a warning naming those without
/// one when some have.
pub(crate) fn replicas_apply<'a>(
    scenarios: impl IntoIterator<Item = &'a Scenario>,
    size: Size,
) -> Result<(), BadInput> {
    let Some(n) = size.replicas else {
        return Ok(());
    };
    let (with, without): (Vec<&Scenario>, Vec<&Scenario>) = scenarios
        .into_iter()
        .partition(|s| s.workloads.iter().any(|w| w.replicas().is_some()));
    let names: Vec<&str> = without.iter().map(|s| s.name.as_str()).collect();
    if with.is_empty() {
        let which = match names.as_slice() {
            [one] => format!("{one} has none"),
            _ => format!("none of {} has one", names.join(", ")),
        };
        return Err(BadInput(format!(
            "--replicas {n} sizes Deployments and StatefulSets, and {which}: leave --replicas out"
        )));
    }
    if !names.is_empty() {
        eprintln!(
            "warning: --replicas {n} changes nothing in {}: no Deployment or StatefulSet",
            names.join(", ")
        );
    }
    Ok(())
}

/// `--kubernetes-version V`.
fn kubernetes_version(text: &str) -> Result<podcheck_model::spec::Release, String> {
    podcheck_model::spec::Release::parse(text)
}

fn resize(mut list: Vec<Scenario>, size: Size, origin: &str) -> Result<Vec<Scenario>, BadInput> {
    if let Some(v) = size.kubernetes_version {
        for s in &mut list {
            s.cluster.kubernetes_version = Some(v.to_string());
        }
    }
    if size.nodes.is_none() && size.replicas.is_none() {
        return Ok(list);
    }
    for s in &mut list {
        s.resize(size.nodes, size.replicas)
            .map_err(|e| BadInput(format!("scenario `{}` (in {origin}): {e}", s.name)))?;
    }
    Ok(list)
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TraceFormat {
    /// A timeline: time, actor, action, what changed, events, `kubectl get pods`.
    Text,
    /// The trace as data.
    Json,
    /// The Informal Trace Format (Apalache ADR-015), for Quint and Apalache tooling.
    Itf,
    /// A Mermaid sequence diagram.
    Mermaid,
    /// The state graph of a small scenario in Graphviz DOT, the trace in red.
    Dot,
}

impl From<TraceFormat> for podcheck::TraceFormat {
    fn from(f: TraceFormat) -> podcheck::TraceFormat {
        match f {
            TraceFormat::Text => podcheck::TraceFormat::Text,
            TraceFormat::Json => podcheck::TraceFormat::Json,
            TraceFormat::Itf => podcheck::TraceFormat::Itf,
            TraceFormat::Mermaid => podcheck::TraceFormat::Mermaid,
            TraceFormat::Dot => podcheck::TraceFormat::Dot,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Table,
    Json,
}

/// Bad input: exit 2 with a message.
struct BadInput(String);

fn load(catalogue_file: &Option<String>) -> Result<Vec<Scenario>, BadInput> {
    let (list, origin) = match catalogue_file {
        None => (catalogue::builtin(), "model/scenarios/catalogue.yaml"),
        Some(path) => {
            let text = podcheck::read_text_file(std::path::Path::new(path))?;
            let list = parse_scenarios(&text, path).map_err(|e| {
                if podcheck_model::manifest::looks_like_manifests(&text) {
                    BadInput(format!(
                        "{path}: this is a Kubernetes manifest, not a podcheck scenario list: check it with podcheck check -f {path}"
                    ))
                } else {
                    BadInput(e)
                }
            })?;
            (list, path.as_str())
        }
    };
    // Expectations name properties of the catalogue: check them here, where the file is known.
    for s in &list {
        check::selected(s).map_err(|e| BadInput(format!("{origin}: {e}")))?;
    }
    Ok(list)
}

/// Prints a line to stdout; a closed pipe (`podcheck … | head`) ends the program quietly.
fn say(text: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out
        .write_fmt(text)
        .and_then(|_| out.write_all(b"\n"))
        .is_err()
    {
        std::process::exit(0);
    }
}

macro_rules! say {
    ($($arg:tt)*) => { say(format_args!($($arg)*)) };
}

mod manifests;
mod swarm;

fn pick(all: Vec<Scenario>, names: &[String], origin: &str) -> Result<Vec<Scenario>, BadInput> {
    if names.is_empty() {
        return Ok(all);
    }
    let mut out: Vec<Scenario> = Vec::new();
    for n in names {
        if out.iter().any(|s| &s.name == n) {
            return Err(BadInput(format!(
                "scenario `{n}` is named twice: name each scenario once"
            )));
        }
        match all.iter().find(|s| &s.name == n) {
            Some(s) => out.push(s.clone()),
            None => {
                let known: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
                let hint = did_you_mean(n, &known);
                return Err(BadInput(format!(
                    "unknown scenario `{n}` in {origin}{hint}; the scenarios are: {}",
                    known.join(", ")
                )));
            }
        }
    }
    Ok(out)
}

#[derive(Serialize)]
struct JsonProperty<'a> {
    name: &'a str,
    kind: &'a str,
    verdict: &'a str,
    expected: &'a str,
    expected_source: &'a str,
    trace_steps: Option<usize>,
    /// A `within` property's deadline, in seconds after P.
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline_seconds: Option<u64>,
    /// The worst time from P to Q (`within`, and `leads_to` with `--worst-case`): seconds,
    /// or null with `worst_case` saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    worst_case_seconds: Option<u64>,
    /// `seconds`, `unbounded`, `no_premise` (no state has P) or `incomplete`.
    #[serde(skip_serializing_if = "Option::is_none")]
    worst_case: Option<&'static str>,
    /// The least time from a state where P has just begun to Q, where some run reaches Q.
    #[serde(skip_serializing_if = "Option::is_none")]
    best_case_seconds: Option<u64>,
    /// Steps of the slowest run (from the initial state to its first Q state).
    #[serde(skip_serializing_if = "Option::is_none")]
    slowest_run_steps: Option<usize>,
    /// The run was complete and no reachable state has the property's premise.
    vacuous: bool,
    /// With `--traces`: the property's counterexample or witness (the trace's JSON, or with
    /// `-f` the trace in `--trace-format`).
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<serde_json::Value>,
}

#[derive(Serialize)]
struct JsonStop {
    /// `max-states`, `max-memory`, `interrupt` or `capacity`.
    bound: &'static str,
    /// The phase it stopped (`exploring`, `graph`, `traces`), or none: never started.
    phase: Option<&'static str>,
    /// The states the phase had done (exploring: distinct states found).
    states: usize,
}

#[derive(Serialize)]
struct JsonScenario<'a> {
    scenario: &'a str,
    complete: bool,
    unique_states: usize,
    generated_states: usize,
    edges: usize,
    graph_bytes: usize,
    seconds: f64,
    check_seconds: f64,
    exploring_seconds: f64,
    graph_seconds: f64,
    traces_seconds: f64,
    stopped: Option<JsonStop>,
    peak_rss_kib: Option<u64>,
    threads: u16,
    /// The Kubernetes release the model followed.
    kubernetes_version: String,
    nodes: usize,
    replicas: std::collections::BTreeMap<&'a str, u8>,
    /// Classes of interchangeable nodes the exploration reduced by (its states are one per
    /// class of states that differ only by which of them holds what); empty if none.
    symmetry: &'a [Vec<String>],
    properties: Vec<JsonProperty<'a>>,
    /// What the check never saw happen (complete runs only): see "Vacuity" in README.
    warnings: Vec<JsonWarning<'a>>,
}

#[derive(Serialize)]
struct JsonWarning<'a> {
    #[serde(flatten)]
    warning: &'a podcheck_properties::vacuity::Warning,
    message: String,
}

/// The process's peak resident memory (VmHWM), in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn json_scenario(r: &ScenarioResult, threads: u16, checked: bool) -> JsonScenario<'_> {
    JsonScenario {
        scenario: &r.scenario.name,
        complete: r.complete,
        unique_states: r.unique_states,
        generated_states: r.generated_states,
        edges: r.edges,
        graph_bytes: r.graph_bytes,
        seconds: r.seconds,
        check_seconds: r.check_seconds,
        exploring_seconds: r.phase_seconds.exploring,
        graph_seconds: r.phase_seconds.graph,
        traces_seconds: r.phase_seconds.traces,
        stopped: r.stopped.map(|s| JsonStop {
            bound: s.bound.as_str(),
            phase: checked.then(|| s.phase.as_str()),
            states: s.states,
        }),
        peak_rss_kib: peak_rss_kib(),
        threads,
        kubernetes_version: release_of(&r.scenario),
        nodes: r.scenario.cluster.nodes.len(),
        replicas: r
            .scenario
            .workloads
            .iter()
            .filter_map(|w| w.replicas().map(|n| (w.name(), n)))
            .collect(),
        symmetry: &r.symmetry,
        properties: r
            .properties
            .iter()
            .map(|p| JsonProperty {
                name: p.def.name,
                kind: p.def.kind.as_str(),
                verdict: p.verdict.as_str(),
                expected: p.expected.as_str(),
                expected_source: &p.expected_source,
                trace_steps: p.trace_steps(),
                deadline_seconds: p.timing.as_ref().and_then(|t| t.deadline),
                worst_case_seconds: p.timing.as_ref().and_then(|t| match t.worst {
                    WorstTime::Seconds(s) => Some(s),
                    _ => None,
                }),
                worst_case: p.timing.as_ref().map(|t| match t.worst {
                    WorstTime::Seconds(_) => "seconds",
                    WorstTime::Unbounded => "unbounded",
                    WorstTime::NoPremise => "no_premise",
                    WorstTime::Incomplete => "incomplete",
                }),
                best_case_seconds: p.timing.as_ref().and_then(|t| t.best),
                slowest_run_steps: p
                    .timing
                    .as_ref()
                    .and_then(|t| t.slowest.as_ref())
                    .map(|r| r.actions.len()),
                vacuous: p.vacuous,
                trace: None,
            })
            .collect(),
        warnings: r
            .warnings
            .iter()
            .map(|w| JsonWarning {
                warning: w,
                message: w.to_string(),
            })
            .collect(),
    }
}

/// A scenario's JSON with its properties' traces (`--traces`; none without).
pub(crate) fn with_traces(
    mut s: JsonScenario<'_>,
    traces: Vec<Option<serde_json::Value>>,
) -> JsonScenario<'_> {
    for (p, t) in s.properties.iter_mut().zip(traces) {
        p.trace = t;
    }
    s
}

/// The release a (validated) scenario follows, as `1.35`.
fn release_of(s: &Scenario) -> String {
    s.release()
        .map(|r| r.to_string())
        .unwrap_or_else(|e| format!("invalid: {e}"))
}

/// How a run ended, for the table's heading.
fn run_end(r: &ScenarioResult) -> String {
    let Some(s) = r.stopped.filter(|_| !r.complete) else {
        return if r.complete { "complete" } else { "INCOMPLETE" }.to_string();
    };
    let place = format!("in phase {} at {} states", s.phase.as_str(), s.states);
    let end = match s.bound {
        Bound::MaxStates => "INCOMPLETE: stopped at --max-states".to_string(),
        Bound::MaxMemory => format!("INCOMPLETE: stopped at --max-memory {place}"),
        Bound::Interrupt => format!("INCOMPLETE: interrupted (Ctrl-C) {place}"),
        Bound::Capacity => format!("INCOMPLETE: the graph's edge table is full {place}"),
    };
    // A later phase stopped: the search itself went through every state, so what it decided
    // stands, and only what the phase had left is `incomplete`.
    if s.phase == podcheck_properties::progress::Phase::Exploring {
        end
    } else {
        format!(
            "{end}; the exploration was complete: its holds and violated stand, the rest is incomplete"
        )
    }
}

/// Not a timed result (whose own note says there was no P).
fn t_none(p: &PropertyResult) -> bool {
    p.timing
        .as_ref()
        .is_none_or(|t| t.worst != WorstTime::NoPremise)
}

/// The vacuity warnings of a scenario, on stderr: `error:` under `--strict`.
fn print_warnings(r: &ScenarioResult, strict: bool) {
    let label = if strict { "error" } else { "warning" };
    for w in &r.warnings {
        eprintln!("{label}: {}: {w}", r.scenario.name);
    }
}

fn print_table(r: &ScenarioResult, checked: bool) {
    if checked {
        let reduced = if r.symmetry.is_empty() {
            String::new()
        } else {
            let classes: Vec<String> = r.symmetry.iter().map(|c| c.join(" = ")).collect();
            format!(" up to interchangeable {}", classes.join(", "))
        };
        say!(
            "{}  (Kubernetes {}, {} unique states{reduced}, {:.2} s, {})",
            r.scenario.name,
            release_of(&r.scenario),
            r.unique_states,
            r.seconds,
            run_end(r)
        );
    } else {
        say!(
            "{}  (Kubernetes {}, INCOMPLETE: not checked, interrupted (Ctrl-C) before it started)",
            r.scenario.name,
            release_of(&r.scenario)
        );
    }
    let w = r
        .properties
        .iter()
        .map(|p| p.def.name.len())
        .max()
        .unwrap_or(0);
    for p in &r.properties {
        let mark = if p.verdict == p.expected { " " } else { "!" };
        let mut steps = p
            .trace_steps()
            .map(|n| format!("trace {n} steps"))
            .unwrap_or_default();
        if let Some(t) = &p.timing {
            let deadline = t
                .deadline
                .map(|d| format!(" (deadline {d} s)"))
                .unwrap_or_default();
            let best = t.best.map(|b| format!(", best {b} s")).unwrap_or_default();
            let sep = if steps.is_empty() { "" } else { "; " };
            steps = format!("{steps}{sep}worst {}{best}{deadline}", t.worst.describe());
            if t.worst == WorstTime::NoPremise {
                steps.push_str(": WARNING no reachable state has P, nothing was measured");
            }
        }
        if p.vacuous && t_none(p) {
            let premise = p.def.premise.map_or("P", |q| q.sentence);
            let sep = if steps.is_empty() { "" } else { "; " };
            steps = format!("{steps}{sep}vacuous: no reachable state has {premise}");
        }
        say!(
            " {mark} {:w$}  {:9}  {:10}  expected {:10}  {}",
            p.def.name,
            p.def.kind.as_str(),
            p.verdict.as_str(),
            p.expected.as_str(),
            steps,
        );
    }
    say!("");
}

use podcheck::shown_trace;

/// Per property of `r`, its trace (counterexample, witness, lasso) in `format` as JSON: a
/// string, or the trace's own JSON for `json` and `itf`; `None` where it has no run to show.
pub(crate) fn json_traces(
    r: &ScenarioResult,
    format: podcheck::TraceFormat,
) -> Result<Vec<Option<serde_json::Value>>, BadInput> {
    r.properties
        .iter()
        .map(|p| {
            Ok(
                podcheck::render_trace(r, p, format)?.map(|text| match format {
                    podcheck::TraceFormat::Json | podcheck::TraceFormat::Itf => {
                        serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
                    }
                    _ => serde_json::Value::String(text),
                }),
            )
        })
        .collect()
}

/// The text of every trace of `r` a table report shows, each an error line where it does
/// not replay.
fn trace_texts(r: &ScenarioResult) -> Vec<Result<String, String>> {
    let model = check::model(&r.scenario, &[], false);
    r.properties
        .iter()
        .filter_map(|p| match shown_trace(&model, p)? {
            Ok((_, t)) => Some(Ok(podcheck_traces::render_text(&t))),
            Err(e) => Some(Err(format!(
                "error: trace of {} does not replay: {e}",
                p.def.name
            ))),
        })
        .collect()
}

/// Scenarios checked at once when `--jobs` is not given: one per core, each core to one
/// scenario's `threads`.
fn default_jobs(threads: u16) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / usize::from(threads.max(1))).max(1)
}

/// [`podcheck::in_order`], with each check's progress in whole lines when checks run side by
/// side: their lines would overwrite each other on a terminal.
pub(crate) fn in_order<T: Send>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    emit: impl FnMut(T) -> Result<(), BadInput>,
) -> Result<(), BadInput> {
    if jobs.min(n) > 1 {
        progress::whole_lines();
    }
    podcheck::in_order(n, jobs, work, emit).map_err(|e| {
        e.unwrap_or_else(|spawn| BadInput(format!("cannot start a thread for --jobs: {spawn}")))
    })
}

/// One scenario checked: its result, whether it was (not: Ctrl-C came before it started),
/// and the text of its traces when the report shows them.
struct Checked {
    r: ScenarioResult,
    checked: bool,
    traces: Vec<Result<String, String>>,
    /// With `--format json --traces`: each property's trace, as JSON.
    json: Vec<Option<serde_json::Value>>,
}

fn run_check(
    scenarios: Vec<Scenario>,
    format: Format,
    traces: bool,
    strict: bool,
    opts: CheckOptions,
    jobs: usize,
) -> Result<ExitCode, BadInput> {
    let threads = opts.threads as u16;
    stop_on_ctrl_c();
    let mut results = Vec::new();
    // After Ctrl-C the scenarios not started are reported, every property `incomplete`.
    let mut checked = Vec::new();
    let mut json_of = Vec::new();
    let work = |i: usize| -> Result<Checked, BadInput> {
        let s = &scenarios[i];
        let interrupted = progress::interrupts() > 0;
        let r = if interrupted {
            not_started(s)?
        } else {
            check::check(s, &opts).map_err(BadInput)?
        };
        let json = if format == Format::Json && traces {
            json_traces(&r, podcheck::TraceFormat::Json)?
        } else {
            Vec::new()
        };
        let traces = if format == Format::Table && traces {
            trace_texts(&r)
        } else {
            Vec::new()
        };
        Ok(Checked {
            r,
            checked: !interrupted,
            traces,
            json,
        })
    };
    in_order(scenarios.len(), jobs, work, |done| {
        let Checked {
            r,
            checked: was_checked,
            traces,
            json,
        } = done?;
        if format == Format::Table {
            print_table(&r, was_checked);
            for t in traces {
                match t {
                    Ok(text) => say!("{text}"),
                    Err(line) => eprintln!("{line}"),
                }
            }
        }
        print_warnings(&r, strict);
        results.push(r);
        checked.push(was_checked);
        json_of.push(json);
        Ok(())
    })?;
    if format == Format::Json {
        let out: Vec<JsonScenario> = results
            .iter()
            .zip(&checked)
            .zip(json_of)
            .map(|((r, c), json)| with_traces(json_scenario(r, threads, *c), json))
            .collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| BadInput(e.to_string()))?
        );
    }
    let mismatch = results.iter().any(|r| {
        r.properties
            .iter()
            .any(|p| p.verdict != Verdict::Incomplete && p.verdict != p.expected)
    });
    let incomplete = results.iter().any(|r| !r.complete);
    let n_props: usize = results.iter().map(|r| r.properties.len()).sum();
    let n_bad: usize = results
        .iter()
        .map(|r| {
            r.properties
                .iter()
                .filter(|p| p.verdict != p.expected)
                .count()
        })
        .sum();
    let n_vacuous: usize = results
        .iter()
        .map(|r| r.properties.iter().filter(|p| p.vacuous).count())
        .sum();
    let n_warnings: usize = results.iter().map(|r| r.warnings.len()).sum();
    if format == Format::Table {
        let warned = match n_warnings {
            0 => String::new(),
            1 => "; 1 warning".to_string(),
            n => format!("; {n} warnings"),
        };
        say!(
            "{} scenarios, {} verdicts: {} as expected, {} not; {} vacuous{warned}",
            results.len(),
            n_props,
            n_props - n_bad,
            n_bad,
            n_vacuous
        );
    }
    Ok(if mismatch || (strict && n_warnings > 0) {
        ExitCode::from(1)
    } else if incomplete {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// One scenario, with a progress line on stderr (and its state graph, with `keep_graph`).
fn check_one(
    scenario: &Scenario,
    keep_graph: bool,
    max_memory: Option<u64>,
) -> Result<ScenarioResult, BadInput> {
    let opts = CheckOptions {
        progress: true,
        keep_graph,
        max_memory,
        ..CheckOptions::default()
    };
    check::check(scenario, &opts).map_err(BadInput)
}

fn run_trace(
    scenario: Scenario,
    property: Option<String>,
    format: TraceFormat,
    max_memory: Option<u64>,
    slowest: bool,
    origin: &str,
) -> Result<ExitCode, BadInput> {
    let selected = check::selected(&scenario).map_err(BadInput)?;
    if let Some(p) = &property {
        if !selected.iter().any(|d| d.name == p) {
            let names: Vec<&str> = selected.iter().map(|d| d.name).collect();
            let hint = did_you_mean(p, &names);
            return Err(BadInput(format!(
                "scenario `{}` (in {origin}) does not check property `{p}`{hint}; it checks: {}",
                scenario.name,
                names.join(", ")
            )));
        }
    }
    stop_on_ctrl_c();
    let r = check_one(&scenario, format == TraceFormat::Dot, max_memory)?;
    // A run stopped by a bound: exit 3 unless it found the trace of the property asked for
    // (without `--property`, a complete run might have chosen another).
    let unfinished = if r.complete {
        ExitCode::SUCCESS
    } else {
        eprintln!("{}: {}", scenario.name, run_end(&r));
        ExitCode::from(3)
    };
    let chosen = match &property {
        Some(p) => r.properties.iter().find(|x| x.def.name == p),
        // A counterexample if there is one, else the first witness.
        None => r
            .properties
            .iter()
            .find(|x| !x.def.kind.is_witness() && x.verdict == Verdict::Violated)
            .or_else(|| {
                r.properties
                    .iter()
                    .find(|x| x.def.kind.is_witness() && x.verdict == Verdict::Holds)
            }),
    };
    let Some(p) = chosen else {
        say!(
            "no property of `{}` is violated and it has no witness ({} unique states, {}).",
            scenario.name,
            r.unique_states,
            if r.complete { "complete" } else { "incomplete" }
        );
        return Ok(unfinished);
    };
    let model = check::model(&scenario, &[], false);
    // With --slowest: the slowest run alone (no counterexample, no lasso).
    let slow;
    let p = if slowest {
        let Some(t) = p.timing.as_ref() else {
            return Err(BadInput(format!(
                "--slowest: property `{}` is a {} property, which has no slowest run (only `within` properties have one)",
                p.def.name,
                p.def.kind.as_str()
            )));
        };
        slow = PropertyResult {
            trace: None,
            lasso: None,
            timing: Some(t.clone()),
            ..p.clone()
        };
        if t.slowest.is_none() {
            say!(
                "{} / {}: no slowest run: the worst case is {}.",
                scenario.name,
                p.def.name,
                t.worst.describe()
            );
            // The trace asked for is not shown: a stopped run exits 3.
            return Ok(unfinished);
        }
        &slow
    } else {
        p
    };
    let Some(path) = shown_trace(&model, p) else {
        use podcheck_properties::Kind;
        let what = match (p.def.kind, p.verdict) {
            (Kind::Always(_), Verdict::Holds) => {
                "holds: no reachable state breaks it, so there is no counterexample"
            }
            (Kind::Step { .. }, Verdict::Holds) => {
                "holds: no transition of a reachable state breaks it, so there is no counterexample"
            }
            (Kind::Sometimes(_), Verdict::Violated) => {
                "is violated: no reachable state has it, so there is no witness"
            }
            (Kind::LeadsTo { .. }, Verdict::Holds) => {
                "holds: every fair run from a state where P holds reaches Q"
            }
            (Kind::Within { .. }, Verdict::Holds) => {
                "holds vacuously: no reachable state has P, so there is no run to show"
            }
            _ => "is incomplete: the run stopped at a bound",
        };
        // A verdict a stopped run still has was decided by a phase that finished (an
        // `always`, `step` or `sometimes` by the whole exploration, before the `leads_to`
        // pass stopped): say so, and exit 3 all the same, since no trace is shown.
        let what = if r.complete || p.verdict == Verdict::Incomplete {
            what.to_string()
        } else if p.def.kind.premise_and_goal().is_some() {
            format!("{what}; decided by the graph pass, which finished before the run stopped")
        } else {
            format!("{what}; decided by the exploration, which was complete before the run stopped")
        };
        say!(
            "{} / {}: {} ({} unique states).
{}: {}",
            scenario.name,
            p.def.name,
            what,
            r.unique_states,
            p.def.name,
            p.def.sentence
        );
        return Ok(unfinished);
    };
    let (raw, trace) =
        path.map_err(|e| BadInput(format!("internal error: the trace does not replay: {e}")))?;
    if format == TraceFormat::Text {
        say!(
            "{}: {}
(Kubernetes {})
",
            p.def.name,
            p.def.sentence,
            model.release
        );
    }
    say!(
        "{}",
        podcheck::render(&model, r.graph.as_deref(), &raw, &trace, format.into())?
    );
    Ok(if property.is_some() {
        ExitCode::SUCCESS
    } else {
        unfinished
    })
}

/// The one socket address `addr` names, bound once to check that it can be bound now
/// (Stateright's `serve` would panic on a busy port) and to learn the port really bound (for
/// port 0, the one the system picked; Stateright does not say which port it bound). The
/// Explorer is then served on that address.
fn explore_addr(addr: &str) -> Result<std::net::SocketAddr, BadInput> {
    use std::net::ToSocketAddrs;
    let sock = addr
        .to_socket_addrs()
        .map_err(|e| BadInput(format!("--addr {addr}: not a HOST:PORT address ({e})")))?
        .next()
        .ok_or_else(|| BadInput(format!("--addr {addr}: names no address")))?;
    let listener = std::net::TcpListener::bind(sock).map_err(|e| {
        let hint = match e.kind() {
            std::io::ErrorKind::AddrInUse => {
                " Another program uses the port: choose another one with --addr 127.0.0.1:PORT."
            }
            std::io::ErrorKind::AddrNotAvailable => " This machine has no such address.",
            std::io::ErrorKind::PermissionDenied => " Ports below 1024 need privileges.",
            _ => "",
        };
        BadInput(format!("cannot listen on {sock}: {e}.{hint}"))
    })?;
    listener
        .local_addr()
        .map_err(|e| BadInput(format!("cannot listen on {sock}: {e}")))
}

/// `podcheck explore`: check the scenario for its counterexample paths, print their Explorer
/// URLs, then serve the Explorer until the process is stopped.
fn run_explore(scenario: Scenario, addr: &str) -> Result<ExitCode, BadInput> {
    use stateright::Model;
    let selected = check::selected(&scenario).map_err(BadInput)?;
    scenario.validate().map_err(BadInput)?;
    let sock = explore_addr(addr)?;
    if !sock.ip().is_loopback() {
        eprintln!(
            "warning: {sock} is not a loopback address: anyone who can reach it can browse \
             the Explorer."
        );
    }
    if std::path::Path::new("ui").is_dir() {
        eprintln!(
            "warning: the Explorer serves the files of ./ui instead of its own page when they \
             exist; run podcheck explore from another folder if the page looks wrong."
        );
    }
    let url = format!("http://{sock}/");
    // The served model carries the scenario's properties, so the Explorer lists them and
    // each state's text says which hold there. Paths encode as action indices, and the
    // actions of a state do not depend on the properties a model carries.
    // Only state properties reach Stateright (`check::model` drops the others too): a
    // leads-to is not one, and Stateright would judge it as `always`; a step property reads
    // transitions.
    let state_props: Vec<_> = selected
        .iter()
        .filter(|d| d.kind.is_always() || d.kind.is_sometimes())
        .copied()
        .collect();
    let model = check::model(&scenario, &state_props, false);
    // Serve at once; `serve` never returns. The counterexample URLs follow once found.
    let listed = selected
        .iter()
        .map(|d| podcheck_traces::explorer::Listed {
            name: d.name.to_string(),
            kind: podcheck_traces::Kind::from(&d.kind),
            expected: check::expectation(&scenario, d).0,
        })
        .collect();
    let served = podcheck_traces::explorer::ExplorerModel::new(model.clone()).with_listed(listed);
    let report = served.report();
    let server = std::thread::spawn(move || {
        let _ = served.checker().serve(sock);
    });
    let start = std::time::Instant::now();
    while std::net::TcpStream::connect(sock).is_err()
        && start.elapsed() < std::time::Duration::from_secs(5)
    {
        if server.is_finished() {
            return Err(BadInput(format!("cannot serve the Explorer on {sock}")));
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    say!(
        "Explorer for {}: {url}#/steps/0 (the initial state, with the scenario and its properties; Ctrl-C to stop)",
        scenario.name
    );
    eprintln!("checking {} for counterexample paths…", scenario.name);
    // Unreduced, as the Explorer's own checker explores: the counts agree.
    let opts = CheckOptions {
        progress: true,
        reduction: false,
        ..CheckOptions::default()
    };
    let r = check::check(&scenario, &opts).map_err(BadInput)?;
    say!(
        "{}: {} unique states ({})",
        scenario.name,
        r.unique_states,
        if r.complete { "complete" } else { "incomplete" }
    );
    let _ = report.set(podcheck_traces::explorer::Report {
        unique_states: r.unique_states,
        complete: r.complete,
        verdicts: r
            .properties
            .iter()
            .map(|p| (p.def.name.to_string(), p.verdict, p.trace_steps()))
            .collect(),
    });
    let mut any = false;
    for (witness, verdict, title) in [
        (false, Verdict::Violated, "counterexample"),
        (true, Verdict::Holds, "witness"),
    ] {
        for p in &r.properties {
            if p.def.kind.is_witness() != witness || p.verdict != verdict {
                continue;
            }
            if let Some(run) = &p.trace {
                let init = model.init_states().remove(run.init);
                let Some(path) = stateright::Path::from_actions(&model, init, &run.actions) else {
                    return Err(BadInput(format!(
                        "internal error: the trace of {} does not replay",
                        p.def.name
                    )));
                };
                any = true;
                say!(
                    "{title} of {} ({} steps): {url}#/steps/{}",
                    p.def.name,
                    p.trace_steps().unwrap_or(0),
                    path.encode(&model)
                );
            }
        }
    }
    // A leads-to counterexample: its path as action indices, found among the actions
    // enabled in each state (how Stateright encodes a path).
    for p in &r.properties {
        let Some(l) = &p.lasso else { continue };
        let states = l.states(&model).map_err(BadInput)?;
        let mut indices = vec![0usize];
        for (s, a) in states.iter().zip(&l.actions) {
            let mut enabled = Vec::new();
            model.actions(s, &mut enabled);
            match enabled.iter().position(|e| e == a) {
                Some(i) => indices.push(i),
                None => break,
            }
        }
        if indices.len() != l.actions.len() + 1 {
            continue;
        }
        any = true;
        let path: Vec<String> = indices.iter().map(|i| i.to_string()).collect();
        let shape = match l.loop_start {
            Some(c) => format!("a lasso: the cycle starts at step {}", c + 1),
            None => "a run that stops: no fair component has anything left to do".to_string(),
        };
        say!(
            "counterexample of {} ({} steps, {shape}): {url}#/steps/{}",
            p.def.name,
            l.actions.len(),
            path.join("/")
        );
    }
    if !any {
        say!("no property is violated and no witness was asked for: start at {url}");
    }
    server
        .join()
        .map_err(|_| BadInput(format!("the Explorer on {sock} stopped")))?;
    Ok(ExitCode::SUCCESS)
}

/// The command line, parsed: a bad flag or value is an error in words, exit 2.
fn parse_cli() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    // `--walks` and `--depth` are defined with the rest of the swarm's flags; their numbers
    // are read here as every other count is, with the same ranges and messages in words.
    let mut cmd = Cli::command().mut_subcommand("check", |c| {
        c.mut_arg("walks", |a| a.value_parser(whole::<u64, 1, { u64::MAX }>))
            .mut_arg("depth", |a| a.value_parser(whole::<u32, 1, 1_000_000>))
    });
    let matches = cmd.clone().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut cmd).exit())
}

fn main() -> ExitCode {
    let cli = parse_cli();
    let result = match cli.command {
        Command::List { catalogue } => load(&catalogue).map(|all| {
            let w = all.iter().map(|s| s.name.len()).max().unwrap_or(0);
            for s in &all {
                say!("{:w$}  {}", s.name, s.description);
            }
            ExitCode::SUCCESS
        }),
        Command::Check {
            scenarios,
            format,
            threads,
            jobs,
            max_states,
            max_memory,
            traces,
            cross_check,
            no_reduction,
            no_diamonds,
            worst_case,
            catalogue: file,
            strict,
            filename,
            plan,
            trace_format,
            verbose,
            size,
            sim,
        } => {
            let opts = CheckOptions {
                threads: threads as usize,
                max_states: max_states.map(|n| n as usize),
                progress: true,
                cross_check,
                keep_graph: false,
                reduction: !no_reduction,
                max_memory,
                worst_case,
                diamonds: !no_diamonds,
            };
            if let Err(e) = sim.reject_out_over_input(file.as_deref(), &filename) {
                return report(Err(e));
            }
            let jobs_given = jobs.is_some();
            // Under a memory bound, which is the whole process's, one scenario at a time
            // unless told otherwise: two at once could stop each other.
            let jobs = match (jobs, max_memory) {
                (Some(n), _) => usize::from(n),
                (None, Some(_)) => 1,
                (None, None) => default_jobs(threads),
            };
            if !filename.is_empty() {
                if file.is_some() || !scenarios.is_empty() {
                    return report(Err(BadInput(
                        "-f checks your manifests under the fault plans: give it without --catalogue and without scenario names".into(),
                    )));
                }
                if sim.simulate {
                    return report(Err(BadInput(
                        "-f is not yet checked with --simulate".into(),
                    )));
                }
                if let Some(flag) = sim.first_given() {
                    return report(Err(BadInput(format!(
                        "{flag} is a flag of random-walk checking (--simulate), which -f is not yet checked with"
                    ))));
                }
                return report(manifests::run(manifests::ManifestArgs {
                    paths: filename,
                    plans: plan,
                    format,
                    trace_format: trace_format.into(),
                    traces,
                    strict,
                    verbose,
                    size,
                    opts,
                    jobs,
                }));
            }
            if !plan.is_empty() || trace_format != TraceFormat::Text {
                return report(Err(BadInput(
                    "--plan and --trace-format go with -f (a scenario of the catalogue has its own faults; podcheck trace --format renders its traces)".into(),
                )));
            }
            if verbose {
                return report(Err(BadInput(
                    "--verbose goes with -f: it lists the fields of your manifests that the model does not read (a scenario of the catalogue has none)".into(),
                )));
            }
            let origin = file
                .clone()
                .unwrap_or_else(|| "the built-in catalogue".into());
            load(&file)
                .and_then(|all| pick(all, &scenarios, &origin))
                .and_then(|picked| resize(picked, size, &origin))
                .and_then(|picked| {
                    replicas_apply(&picked, size)?;
                    if sim.simulate {
                        if threads != 1
                            || jobs_given
                            || max_states.is_some()
                            || max_memory.is_some()
                            || cross_check
                            || no_reduction
                            || no_diamonds
                            || worst_case
                        {
                            return Err(BadInput(
                                "--simulate takes none of --threads, --jobs, --max-states, --max-memory, --cross-check, --no-reduction, --no-diamonds, --worst-case (they are flags of the exhaustive search)".into(),
                            ));
                        }
                        return swarm::run_simulate(picked, format, traces, &sim, size);
                    }
                    sim.reject_without_simulate()?;
                    run_check(picked, format, traces, strict, opts, jobs)
                })
        }
        Command::Merge {
            files,
            format,
            out,
            traces,
            catalogue: file,
        } => swarm::run_merge(files, format, out, traces, file),
        Command::Trace {
            scenario,
            property,
            format,
            max_memory,
            slowest,
            catalogue: file,
            size,
            manifests: FromManifests { filename, plan },
        } => {
            let origin = file
                .clone()
                .unwrap_or_else(|| "the built-in catalogue".into());
            one_scenario(&file, scenario, &filename, &plan, size, &origin).and_then(|mut picked| {
                run_trace(
                    picked.remove(0),
                    property,
                    format,
                    max_memory,
                    slowest,
                    &origin,
                )
            })
        }
        Command::Bench(args) => bench::run(args),
        Command::Explore {
            scenario,
            addr,
            catalogue: file,
            size,
            manifests: FromManifests { filename, plan },
        } => {
            let origin = file
                .clone()
                .unwrap_or_else(|| "the built-in catalogue".into());
            one_scenario(&file, scenario, &filename, &plan, size, &origin)
                .and_then(|mut picked| run_explore(picked.remove(0), &addr))
        }
    };
    report(result)
}

/// The one scenario `trace` and `explore` work on: a scenario of the catalogue by name, or,
/// with `-f`, one plan scenario of the manifests (by name, or the only one).
fn one_scenario(
    file: &Option<String>,
    scenario: Option<String>,
    filename: &[String],
    plan: &[String],
    size: Size,
    origin: &str,
) -> Result<Vec<Scenario>, BadInput> {
    if filename.is_empty() {
        let name = scenario.ok_or_else(|| BadInput("name a scenario".into()))?;
        let picked = load(file)
            .and_then(|all| pick(all, std::slice::from_ref(&name), origin))
            .and_then(|picked| resize(picked, size, origin))?;
        replicas_apply(&picked, size)?;
        return Ok(picked);
    }
    if file.is_some() {
        return Err(BadInput(
            "-f reads your manifests: give it without --catalogue".into(),
        ));
    }
    let all = manifests::plan_scenarios(filename, plan, size)?;
    let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
    match scenario {
        Some(name) => match all.iter().position(|s| s.name == name) {
            Some(i) => Ok(vec![all[i].clone()]),
            None => Err(BadInput(format!(
                "the manifests have no plan scenario `{name}`{}; they have: {}",
                did_you_mean(&name, &names),
                names.join("; ")
            ))),
        },
        None if all.len() == 1 => Ok(all),
        None => Err(BadInput(format!(
            "the manifests have {} plan scenarios: name one (quoted), or narrow them with --plan: {}",
            all.len(),
            names.join("; ")
        ))),
    }
}

/// The exit code of a run, with bad input on stderr and exit 2.
fn report(result: Result<ExitCode, BadInput>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(BadInput(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
