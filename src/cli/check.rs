//! `podcheck check`: the scenarios of the catalogue checked, as a table or JSON; its report's
//! parts (the table of a scenario, a scenario's JSON) are also those of `check -f`.

use crate::cli::args::{Budget, CheckArgs, CheckFormat, FailOn, Format};
use crate::cli::common::{load, pick, replicas_apply, resize, stop_on_ctrl_c, BadInput};
use crate::cli::{manifests, simulate};
use podcheck::TraceFormat;
use podcheck_input::spec::{Scenario, Verdict};
use podcheck_properties::check::{self, CheckOptions, PropertyResult, ScenarioResult, WorstTime};
use podcheck_properties::progress::{self, Bound};
use podcheck_properties::simulate::SimOptions;
use serde::Serialize;
use std::process::ExitCode;

/// `podcheck check`: the scenarios of the catalogue, or with `-f` your manifests
/// ([`manifests::run`]), or with `--simulate` one shard of a swarm ([`simulate::run`]).
pub fn run(a: CheckArgs) -> Result<ExitCode, BadInput> {
    let CheckArgs {
        scenarios,
        format,
        threads,
        jobs,
        max_states,
        max_memory,
        budget,
        cross_check,
        traces,
        no_reduction,
        no_diamonds,
        worst_case,
        catalogue: file,
        strict,
        filename,
        plan,
        trace_format,
        verbose,
        fail_on,
        fixes,
        size,
        sim,
    } = a;
    let bounds = Bounds::new(max_memory, budget, !filename.is_empty());
    let opts = CheckOptions {
        threads: threads as usize,
        max_states: max_states.map(|n| n as usize),
        progress: true,
        cross_check,
        keep_graph: false,
        reduction: !no_reduction,
        max_memory: bounds.max_memory,
        budget: bounds.budget,
        position: None,
        worst_case,
        diamonds: !no_diamonds,
        deferred_gone: true,
        proxy_symmetry: true,
        scaled_pod_symmetry: true,
        events_as_read: true,
        self_loops: !no_diamonds,
    };
    sim.reject_out_over_input(file.as_deref(), &filename)?;
    // SARIF locates findings in the manifests: with -f only. Its scenarios report nothing on
    // stdout as they are checked, as for JSON; the log comes at the end.
    let (format, sarif) = match format {
        CheckFormat::Table => (Format::Table, false),
        CheckFormat::Json => (Format::Json, false),
        CheckFormat::Sarif if filename.is_empty() => {
            return Err(BadInput(
                "--format sarif goes with -f: a SARIF log points at the lines of your manifests (a scenario of the catalogue has none; use --format json)".into(),
            ))
        }
        CheckFormat::Sarif => (Format::Json, true),
    };
    if fixes && !sarif {
        return Err(BadInput(
            "--fixes goes with -f and --format sarif (the fixes as each result's `fixes`); for the fixes as diffs of your files, run podcheck fix -f".into(),
        ));
    }
    let jobs_given = jobs.is_some();
    // Under a memory bound given, which is the whole process's, one scenario at a time
    // unless told otherwise: two at once could stop each other. (The default bound, half the
    // machine, is a guard against running it out, and keeps the default jobs.)
    let jobs = match (jobs, max_memory) {
        (Some(n), _) => usize::from(n),
        (None, Some(_)) => 1,
        (None, None) => default_jobs(threads),
    };
    if !filename.is_empty() {
        if file.is_some() || !scenarios.is_empty() {
            return Err(BadInput(
                "-f checks your manifests under the fault plans: give it without --catalogue and without scenario names".into(),
            ));
        }
        // With -f, --simulate walks each plan scenario that stopped at a bound, in this
        // process: no shards.
        if let Some(flag) = [
            ("--shard", sim.shard.is_some()),
            ("--out", sim.out.is_some()),
        ]
        .into_iter()
        .find_map(|(f, given)| given.then_some(f))
        {
            return Err(BadInput(format!(
                "{flag} is a flag of a swarm run of one scenario (--simulate without -f); with -f, --simulate walks every plan scenario that stopped at a bound, in this process (see docs/manifests.md)"
            )));
        }
        if let Some(flag) = sim.first_given().filter(|_| !sim.simulate) {
            return Err(BadInput(format!(
                "{flag} is a flag of random-walk checking (--simulate), which with -f walks every plan scenario that stopped at a bound: add --simulate"
            )));
        }
        let walks = sim.simulate.then(|| SimOptions {
            seed: sim.seed.unwrap_or(0),
            shard: 0,
            walks: sim.walks.unwrap_or(simulate::DEFAULT_WALKS),
            depth: sim.depth.unwrap_or(simulate::DEFAULT_DEPTH) as usize,
        });
        return manifests::run(manifests::ManifestArgs {
            paths: filename,
            plans: plan,
            format,
            sarif,
            fixes,
            trace_format,
            traces,
            strict,
            verbose,
            fail_on_hazard: fail_on.contains(&FailOn::OperatorHazard),
            size,
            opts,
            jobs,
            bounds,
            walks,
        });
    }
    if !plan.is_empty() || trace_format != TraceFormat::Text {
        return Err(BadInput(
            "--plan and --trace-format go with -f (a scenario of the catalogue has its own faults; podcheck trace --format renders its traces)".into(),
        ));
    }
    if !fail_on.is_empty() {
        return Err(BadInput(
            "--fail-on goes with -f: an operator hazard is a finding about your manifests under an operator's action (a scenario of the catalogue states its own expectations)".into(),
        ));
    }
    if verbose {
        return Err(BadInput(
            "--verbose goes with -f: it lists the fields of your manifests that the model does not read (a scenario of the catalogue has none)".into(),
        ));
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
                    || budget.is_some()
                    || cross_check
                    || no_reduction
                    || no_diamonds
                    || worst_case
                {
                    return Err(BadInput(
                        "--simulate takes none of --threads, --jobs, --max-states, --max-memory, --budget, --cross-check, --no-reduction, --no-diamonds, --worst-case (they are flags of the exhaustive search)".into(),
                    ));
                }
                return simulate::run(picked, format, traces, &sim, size);
            }
            sim.reject_without_simulate()?;
            run_check(picked, format, traces, strict, opts, jobs, bounds)
        })
}

#[derive(Serialize)]
pub struct JsonProperty<'a> {
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
    /// The run was complete, no reachable state has the property's premise, and the property
    /// is not violated.
    vacuous: bool,
    /// With `--traces`: the property's counterexample or witness (the trace's JSON, or with
    /// `-f` the trace in `--trace-format`).
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<serde_json::Value>,
}

/// The time budget of a plan scenario of `-f` when `--budget` is not given.
pub const DEFAULT_BUDGET_SECONDS: u64 = 60;

/// The bounds a check runs under: said in the heading of its report.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// The memory bound: `--max-memory`, or by default half of the machine's memory (`None`
    /// where that cannot be read).
    pub max_memory: Option<u64>,
    /// `--max-memory` was given.
    pub memory_given: bool,
    /// The time budget per scenario (`None`: no limit).
    pub budget: Option<std::time::Duration>,
}

impl Bounds {
    /// The bounds of a run given `--max-memory` and `--budget` (or not): without
    /// `--max-memory`, half of the machine's memory; without `--budget`, 60 s per plan
    /// scenario of -f (`from_manifests`) and none for the catalogue's (whose checks in CI
    /// must not be cut short).
    pub fn new(max_memory: Option<u64>, budget: Option<Budget>, from_manifests: bool) -> Bounds {
        Bounds {
            max_memory: max_memory.or_else(progress::default_max_memory),
            memory_given: max_memory.is_some(),
            budget: budget
                .unwrap_or(if from_manifests {
                    Budget::Seconds(DEFAULT_BUDGET_SECONDS)
                } else {
                    Budget::Unlimited
                })
                .duration(),
        }
    }

    /// The heading line of a table report: `bounds: --max-memory 12076 MiB (half of this
    /// machine's memory), --budget 60 s per scenario`.
    pub fn heading(&self) -> String {
        let memory = match (self.max_memory, self.memory_given) {
            (Some(b), true) => format!("--max-memory {}", progress::size_words(b)),
            (Some(b), false) => format!(
                "--max-memory {} (half of this machine's memory)",
                progress::size_words(b)
            ),
            (None, _) => "no memory bound (this machine's memory cannot be read)".to_string(),
        };
        let budget = match self.budget {
            Some(d) => format!("--budget {} s per scenario", d.as_secs()),
            None => "--budget none".to_string(),
        };
        format!("bounds: {memory}, {budget}")
    }

    pub fn json(&self) -> JsonBounds {
        JsonBounds {
            max_memory_bytes: self.max_memory,
            max_memory_default: !self.memory_given,
            budget_seconds: self.budget.map(|d| d.as_secs()),
        }
    }
}

/// The bounds in JSON: `max_memory_bytes` (null: none), whether it is the default (half of
/// the machine's memory), and `budget_seconds` per scenario (null: no limit).
#[derive(Serialize)]
pub struct JsonBounds {
    max_memory_bytes: Option<u64>,
    max_memory_default: bool,
    budget_seconds: Option<u64>,
}

#[derive(Serialize)]
pub struct JsonStop {
    /// `max-states`, `max-memory`, `interrupt`, `budget` or `capacity`.
    bound: &'static str,
    /// The phase it stopped (`exploring`, `graph`, `traces`), or none: never started.
    phase: Option<&'static str>,
    /// The states the phase had done (exploring: distinct states found).
    states: usize,
}

#[derive(Serialize)]
pub struct JsonScenario<'a> {
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
    /// The bounds the check ran under (a scenario of the catalogue; with -f, the report's).
    #[serde(skip_serializing_if = "Option::is_none")]
    bounds: Option<JsonBounds>,
    /// What the check never saw happen (complete runs only): see "Vacuity" in docs/checking.md.
    warnings: Vec<JsonWarning<'a>>,
    /// A complete run whose reductions left some properties undecided, judged again by this
    /// run, which stopped: the properties it left `incomplete` have that run's verdicts.
    #[serde(skip_serializing_if = "Option::is_none")]
    earlier: Option<JsonEarlier<'a>>,
}

#[derive(Serialize)]
pub struct JsonEarlier<'a> {
    unique_states: usize,
    symmetry: &'a [Vec<String>],
    /// The reductions the run that stopped went without, in words.
    without: &'a str,
    /// The properties it left undecided.
    undecided: &'a [&'static str],
}

#[derive(Serialize)]
pub struct JsonWarning<'a> {
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

pub fn json_scenario(r: &ScenarioResult, threads: u16, checked: bool) -> JsonScenario<'_> {
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
        bounds: None,
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
        earlier: r.earlier.as_ref().map(|e| JsonEarlier {
            unique_states: e.unique_states,
            symmetry: &e.symmetry,
            without: &e.without,
            undecided: &e.undecided,
        }),
    }
}

/// A scenario's JSON with its properties' traces (`--traces`; none without).
pub fn with_traces(
    mut s: JsonScenario<'_>,
    traces: Vec<Option<serde_json::Value>>,
) -> JsonScenario<'_> {
    for (p, t) in s.properties.iter_mut().zip(traces) {
        p.trace = t;
    }
    s
}

/// The release a (validated) scenario follows, as `1.35`.
pub fn release_of(s: &Scenario) -> String {
    s.release()
        .map(|r| r.to_string())
        .unwrap_or_else(|e| format!("invalid: {e}"))
}

/// How a run ended, for the table's heading.
pub fn run_end(r: &ScenarioResult) -> String {
    let Some(s) = r.stopped.filter(|_| !r.complete) else {
        return if r.complete { "complete" } else { "INCOMPLETE" }.to_string();
    };
    let place = format!("in phase {} at {} states", s.phase.as_str(), s.states);
    let end = match s.bound {
        Bound::MaxStates => "INCOMPLETE: stopped at --max-states".to_string(),
        Bound::MaxMemory => format!("INCOMPLETE: stopped at --max-memory {place}"),
        Bound::Interrupt => format!(
            "INCOMPLETE: interrupted ({}) {place}",
            progress::interrupted_by()
        ),
        Bound::Budget => format!("INCOMPLETE: stopped at --budget {place}"),
        Bound::Capacity => format!("INCOMPLETE: the graph's edge table is full {place}"),
    };
    // A later phase stopped: the search itself went through every state, so what it decided
    // stands, and only what the phase had left is `incomplete`.
    let end = if s.phase == podcheck_properties::progress::Phase::Exploring {
        end
    } else {
        format!(
            "{end}; the exploration was complete: its holds and violated stand, the rest is incomplete"
        )
    };
    match &r.earlier {
        Some(e) => format!("{}; {end}", earlier_run(e)),
        None => end,
    }
}

/// What a complete run before a stopped one decided ([`podcheck_properties::EarlierRun`]).
pub fn earlier_run(e: &podcheck_properties::EarlierRun) -> String {
    let reduced = up_to(&e.symmetry);
    format!(
        "a complete run of {} unique states{reduced} decided every property but {}; {} judged again without {}",
        e.unique_states,
        e.undecided.join(", "),
        if e.undecided.len() == 1 { "it was" } else { "they were" },
        e.without
    )
}

/// ` up to interchangeable …` for a run's classes of interchangeable things; empty for none.
fn up_to(symmetry: &[Vec<String>]) -> String {
    if symmetry.is_empty() {
        return String::new();
    }
    let classes: Vec<String> = symmetry.iter().map(|c| c.join(" = ")).collect();
    format!(" up to interchangeable {}", classes.join(", "))
}

/// Not a timed result (whose own note says there was no P).
fn t_none(p: &PropertyResult) -> bool {
    p.timing
        .as_ref()
        .is_none_or(|t| t.worst != WorstTime::NoPremise)
}

/// The vacuity warnings of a scenario, on stderr: `error:` under `--strict`.
pub fn print_warnings(r: &ScenarioResult, strict: bool) {
    let label = if strict { "error" } else { "warning" };
    for w in &r.warnings {
        eprintln!("{label}: {}: {w}", r.scenario.name);
    }
}

/// The line that heads a scenario's table, and stands for it in `check -f`'s report: its
/// name, release, states, time and how the run ended.
pub fn scenario_line(r: &ScenarioResult, checked: bool) -> String {
    if checked {
        let reduced = up_to(&r.symmetry);
        format!(
            "{}  (Kubernetes {}, {} unique states{reduced}, {:.2} s, {})",
            r.scenario.name,
            release_of(&r.scenario),
            r.unique_states,
            r.seconds,
            run_end(r)
        )
    } else {
        format!(
            "{}  (Kubernetes {}, INCOMPLETE: not checked, interrupted ({}) before it started)",
            r.scenario.name,
            release_of(&r.scenario),
            progress::interrupted_by()
        )
    }
}

pub fn print_table(r: &ScenarioResult, checked: bool) {
    say!("{}", scenario_line(r, checked));
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

/// Per property of `r`, its trace (counterexample, witness, lasso) in `format` as JSON: a
/// string, or the trace's own JSON for `json` and `itf`; `None` where it has no run to show.
pub fn json_traces(
    r: &ScenarioResult,
    format: TraceFormat,
) -> Result<Vec<Option<serde_json::Value>>, BadInput> {
    r.properties
        .iter()
        .map(|p| {
            Ok(podcheck::render_trace(r, p, format)
                .map_err(BadInput)?
                .map(|text| match format {
                    TraceFormat::Json | TraceFormat::Itf => {
                        serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
                    }
                    _ => serde_json::Value::String(text),
                }))
        })
        .collect()
}

/// The text of every trace of `r` a table report shows, each an error line where it does
/// not replay.
fn trace_texts(r: &ScenarioResult) -> Vec<Result<String, String>> {
    let model = check::model(&r.scenario, &[], false);
    r.properties
        .iter()
        .filter_map(|p| match podcheck::shown_trace(&model, p)? {
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
    bounds: Bounds,
) -> Result<ExitCode, BadInput> {
    let threads = opts.threads as u16;
    stop_on_ctrl_c();
    // The heading comes with the first scenario's part: bad input prints nothing on stdout.
    let mut heading = (format == Format::Table).then(|| bounds.heading());
    let mut results = Vec::new();
    // After Ctrl-C the scenarios not started are reported, every property `incomplete`.
    let mut checked = Vec::new();
    let mut json_of = Vec::new();
    let work = |i: usize| -> Result<Checked, BadInput> {
        let s = &scenarios[i];
        let interrupted = progress::interrupts() > 0;
        let r = if interrupted {
            podcheck::not_started(s)?
        } else {
            let opts = CheckOptions {
                position: Some((i + 1, scenarios.len())),
                ..opts.clone()
            };
            check::check(s, &opts).map_err(BadInput)?
        };
        let json = if format == Format::Json && traces {
            json_traces(&r, TraceFormat::Json)?
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
    if jobs.min(scenarios.len()) > 1 {
        // Two checks' progress lines would overwrite each other on a terminal.
        progress::whole_lines();
    }
    podcheck::in_order(scenarios.len(), jobs, work, |done| {
        let Checked {
            r,
            checked: was_checked,
            traces,
            json,
        } = done?;
        if let Some(h) = heading.take() {
            say!("{h}");
        }
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
    })
    .map_err(|e| {
        e.unwrap_or_else(|spawn| BadInput(format!("cannot start a thread for --jobs: {spawn}")))
    })?;
    if format == Format::Json {
        let out: Vec<JsonScenario> = results
            .iter()
            .zip(&checked)
            .zip(json_of)
            .map(|((r, c), json)| {
                let mut s = with_traces(json_scenario(r, threads, *c), json);
                s.bounds = Some(bounds.json());
                s
            })
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
