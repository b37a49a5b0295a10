//! `podcheck bench`: the figures of the scaling table in docs/performance.md. Every scenario, at its own size and
//! at every `--size` asked for it, is checked in a process of its own (`podcheck check …
//! --format json`), under a time limit: a run that passes it gets a Ctrl-C, so that it
//! reports how far it got, and is killed if it does not end soon after. Such a run is reported
//! as `> N s`, never with a verdict.
//!
//! `podcheck bench -f PATH` measures your own manifests instead, as `check -f` reads them:
//! each plan scenario of each application in a process of its own (`podcheck bench
//! --measure-one SCENARIO -f PATH …`, which checks that one scenario and prints its JSON), so
//! that its peak memory is its own, under a time budget (`--budget`, 60 s by default) enforced
//! the same way. The table of applications in docs/performance.md is written so.

use crate::cli::args::{Budget, Format};
use crate::cli::common::{load, pick, say, stop_on_ctrl_c, whole, BadInput};
use crate::cli::manifests::parse_plans;
use podcheck::{Plan, Planned, TraceFormat};
use podcheck_input::spec::Scenario;
use podcheck_properties::check::{self, CheckOptions};
use podcheck_properties::progress;
use std::io::{Read, Write};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// `podcheck bench`'s arguments.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Scenario names (default: every scenario of the catalogue).
    scenarios: Vec<String>,
    /// Threads that explore, as for `check`.
    #[arg(long, default_value_t = 1, value_parser = crate::cli::common::whole::<u16, 1, 64>)]
    threads: u16,
    /// Also measure at these sizes (nodes x replicas, each 1–5): `3x2` for every scenario
    /// measured, or `SCENARIO=2x2,3x2` for one scenario (one of those named, when scenarios
    /// are named). Repeatable. Each scenario is measured at its own size first; a size at
    /// least as large as one that passed the time limit is skipped.
    #[arg(long = "size", value_name = "[SCENARIO=]NxR[,NxR…]", value_parser = parse_size_spec)]
    sizes: Vec<SizeSpec>,
    /// Seconds each run may take. A run that takes longer is stopped and reported as
    /// `> SECS s`.
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = crate::cli::common::whole::<u64, 1, 86_400>)]
    timeout: u64,
    /// Write the table, the machine it was measured on and the largest size of each
    /// scenario checked within the time limit into FILE, between the lines
    /// `<!-- bench:begin -->` and `<!-- bench:end -->`.
    #[arg(long, value_name = "FILE")]
    write_readme: Option<String>,
    /// Read scenarios from this YAML file instead of the built-in catalogue.
    #[arg(long, value_name = "FILE")]
    catalogue: Option<String>,
    /// Run each scenario and size N times (each in a process of its own) and report the
    /// middle run by its total time (exploring, graph and traces): a machine's timings
    /// drift from run to run. A run that passes the time limit ends the repeats.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::cli::common::whole::<u8, 1, 9>)]
    repeat: u8,
    /// Measure your own Kubernetes manifests instead of the catalogue: a file, a folder or `-`
    /// for stdin; repeatable, read into applications as `check -f` reads them. Each plan
    /// scenario of each application is checked in a process of its own, under --budget:
    /// its states, seconds, peak memory, whether it was complete, and its findings. With
    /// --write-readme, the table goes between the lines `<!-- bench-apps:begin -->` and
    /// `<!-- bench-apps:end -->` of FILE.
    #[arg(
        short = 'f',
        long = "filename",
        value_name = "PATH",
        conflicts_with_all = ["scenarios", "sizes", "catalogue", "repeat", "timeout"]
    )]
    filename: Vec<String>,
    /// With -f: the fault plans to measure, comma-separated (default: all), as for `check -f`.
    /// A plan named here that applies to nothing is an error.
    #[arg(long, value_name = "PLAN,...", requires = "filename")]
    plan: Vec<String>,
    /// With -f: check every plan scenario with the whole application, as `check --no-cone`.
    #[arg(long, requires = "filename")]
    no_cone: bool,
    /// With -f: the seconds each plan scenario may take (default 60), or `none` for no
    /// limit. A scenario that reaches it gets a Ctrl-C, reports what it found by then
    /// (`incomplete`), and the bench goes on with the next.
    #[arg(long, value_name = "SECONDS|none", requires = "filename", value_parser = crate::cli::args::budget)]
    budget: Option<Budget>,
    /// Stop each run before more than this many distinct states have been found (as for
    /// `check`): it is reported incomplete, with the states found.
    #[arg(long, value_name = "N", value_parser = whole::<u64, 1, { u64::MAX }>)]
    max_states: Option<u64>,
    /// Stop each run before its resident memory passes SIZE (as for `check`: 512M, 3G):
    /// it is reported incomplete, with the states found.
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::args::memory_size)]
    max_memory: Option<u64>,
    /// Output format. `json` (with -f): one object per plan scenario, its check's JSON
    /// report with `wall_seconds` and `result`.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// With -f: check only this plan scenario, here, and print its JSON (what each of the
    /// bench's own processes runs).
    #[arg(long, value_name = "SCENARIO", hide = true, requires = "filename")]
    measure_one: Option<String>,
}

/// The budget when `--budget` is not given.
const DEFAULT_BUDGET: u64 = 60;

/// Sizes for every scenario (`scenario: None`) or for one.
#[derive(Clone, Debug)]
struct SizeSpec {
    scenario: Option<String>,
    sizes: Vec<(u8, u8)>,
}

fn parse_size_spec(text: &str) -> Result<SizeSpec, String> {
    let (scenario, list) = match text.split_once('=') {
        Some((s, l)) if !s.is_empty() => (Some(s.to_string()), l),
        Some(_) => return Err(format!("`{text}`: no scenario before `=`")),
        None => (None, text),
    };
    let sizes = list
        .split(',')
        .map(|one| {
            let bad = || format!("`{one}` is not NODESxREPLICAS with each 1 to 5, such as 3x2");
            let (n, r) = one.split_once(['x', 'X', '×']).ok_or_else(bad)?;
            let n: u8 = n.trim().parse().map_err(|_| bad())?;
            let r: u8 = r.trim().parse().map_err(|_| bad())?;
            if !(1..=5).contains(&n) || !(1..=5).contains(&r) {
                return Err(bad());
            }
            Ok((n, r))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(SizeSpec { scenario, sizes })
}

/// One run to measure: a scenario at a size (`None`: its own).
struct Job {
    scenario: Scenario,
    size: Option<(u8, u8)>,
}

/// What a run gave.
enum Outcome {
    /// It finished (its JSON object).
    Done(serde_json::Value),
    /// It passed the time limit; its JSON object if it reported after the Ctrl-C.
    TimedOut(Option<serde_json::Value>),
    /// It was stopped by a Ctrl-C given to `podcheck bench`.
    Interrupted(Option<serde_json::Value>),
}

struct Row {
    name: String,
    /// Nodes, and the replicas of its Deployments and StatefulSets (none: it has none).
    nodes: usize,
    replicas: Vec<u64>,
    outcome: Outcome,
}

impl Row {
    fn size(&self) -> String {
        size_label(self.nodes, &self.replicas)
    }

    fn finished(&self) -> Option<&serde_json::Value> {
        match &self.outcome {
            Outcome::Done(v) if v["complete"] == true => Some(v),
            _ => None,
        }
    }
}

/// A size as the table shows it: nodes × the distinct replicas (`–`: no Deployment or
/// StatefulSet).
fn size_label(nodes: usize, replicas: &[u64]) -> String {
    let mut r = replicas.to_vec();
    r.sort_unstable();
    r.dedup();
    let reps: Vec<String> = r.iter().map(|n| n.to_string()).collect();
    if reps.is_empty() {
        format!("{nodes} × –")
    } else {
        format!("{nodes} × {}", reps.join("/"))
    }
}

pub const BEGIN: &str = "<!-- bench:begin -->";
pub const END: &str = "<!-- bench:end -->";

const HEADER: &str = "| scenario | nodes × replicas | unique states | generated states | exploring (s) | graph (s) | traces (s) | states/s | bytes/state | peak memory (MiB) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|";

pub fn run(args: BenchArgs) -> Result<ExitCode, BadInput> {
    if let Some(name) = &args.measure_one {
        return measure_one(&args, name);
    }
    if !args.filename.is_empty() {
        return run_manifests(&args);
    }
    if args.format == Format::Json {
        return Err(BadInput(
            "--format json goes with -f (the catalogue's figures are a table; `podcheck check SCENARIO --format json` gives one scenario's)".into(),
        ));
    }
    let origin = args
        .catalogue
        .clone()
        .unwrap_or_else(|| "the built-in catalogue".into());
    let all = load(&args.catalogue)?;
    let scenarios = pick(all.clone(), &args.scenarios, &origin)?;
    // `--size SCENARIO=…` names a scenario measured: one of those named, if any are.
    for spec in &args.sizes {
        if let Some(name) = &spec.scenario {
            pick(all.clone(), std::slice::from_ref(name), &origin)
                .map_err(|BadInput(e)| BadInput(format!("--size {name}=…: {e}")))?;
            if !scenarios.iter().any(|s| &s.name == name) {
                return Err(BadInput(format!(
                    "--size {name}=…: scenario `{name}` is not among those named ({}): name it too, or leave the scenarios out to measure every one",
                    args.scenarios.join(", ")
                )));
            }
        }
    }
    // Every run, in order; each size checked here, before anything runs.
    let mut jobs: Vec<Job> = Vec::new();
    for s in &scenarios {
        jobs.push(Job {
            scenario: s.clone(),
            size: None,
        });
        let mut seen = Vec::new();
        for spec in &args.sizes {
            if spec.scenario.as_ref().is_some_and(|n| n != &s.name) {
                continue;
            }
            for &(n, r) in &spec.sizes {
                if seen.contains(&(n, r)) {
                    continue;
                }
                seen.push((n, r));
                let mut sized = s.clone();
                sized
                    .resize(Some(n), Some(r))
                    .map_err(|e| BadInput(format!("--size {n}x{r}: scenario `{}`: {e}", s.name)))?;
                jobs.push(Job {
                    scenario: sized,
                    size: Some((n, r)),
                });
            }
        }
    }

    if let Some(file) = &args.write_readme {
        // Before the runs, which take long: the file must have its markers.
        write_between_markers(file, BEGIN, END, None)?;
    }
    stop_on_ctrl_c();
    let exe = std::env::current_exe().map_err(|e| BadInput(e.to_string()))?;
    let limit = Duration::from_secs(args.timeout);
    say(format_args!("{HEADER}"));
    let mut rows: Vec<Row> = Vec::new();
    // Per scenario, the sizes that passed the time limit: larger ones are skipped.
    let mut too_big: Vec<(String, usize, u64)> = Vec::new();
    for job in &jobs {
        let name = &job.scenario.name;
        let nodes = job.scenario.cluster.nodes.len();
        let replicas: Vec<u64> = job
            .scenario
            .workloads
            .iter()
            .filter_map(|w| w.replicas().map(u64::from))
            .collect();
        let biggest = replicas.iter().copied().max().unwrap_or(0);
        if too_big
            .iter()
            .any(|(n, tn, tr)| n == name && *tn <= nodes && *tr <= biggest)
        {
            eprintln!(
                "bench: {name} at {nodes} × {biggest}: skipped, a smaller size passed the time limit"
            );
            continue;
        }
        let mut cmd = Command::new(&exe);
        cmd.args(["check", name, "--format", "json", "--threads"])
            .arg(args.threads.to_string());
        if let Some(f) = &args.catalogue {
            cmd.args(["--catalogue", f]);
        }
        bounds(&mut cmd, &args);
        if let Some((n, r)) = job.size {
            cmd.args(["--nodes", &n.to_string()]);
            // Without a Deployment or StatefulSet, replicas size nothing (and `check`
            // refuses a --replicas that changes nothing).
            if !replicas.is_empty() {
                cmd.args(["--replicas", &r.to_string()]);
            }
        }
        let label = format!("{name} at {}", size_label(nodes, &replicas));
        let outcome = measure_repeated(&mut cmd, limit, name, &label, args.repeat)?;
        let row = Row {
            name: name.clone(),
            nodes,
            replicas,
            outcome,
        };
        if matches!(row.outcome, Outcome::TimedOut(_)) {
            too_big.push((name.clone(), nodes, biggest));
        }
        say(format_args!("{}", format_row(&row, args.timeout)));
        let interrupted =
            matches!(row.outcome, Outcome::Interrupted(_)) || progress::interrupts() > 0;
        rows.push(row);
        if interrupted {
            eprintln!(
                "bench: interrupted ({}): the table stops here, and no file is written",
                progress::interrupted_by()
            );
            return Ok(ExitCode::from(3));
        }
    }
    if let Some(file) = &args.write_readme {
        let block = readme_block(&rows, args.timeout, args.threads, args.repeat);
        write_between_markers(file, BEGIN, END, Some(&block))?;
        eprintln!("bench: wrote the table into {file}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `--max-states` and `--max-memory` for a run's process.
fn bounds(cmd: &mut Command, args: &BenchArgs) {
    if let Some(n) = args.max_states {
        cmd.arg(format!("--max-states={n}"));
    }
    if let Some(b) = args.max_memory {
        cmd.arg(format!("--max-memory={b}"));
    }
}

/// Runs one check `repeat` times ([`measure`]) and gives the middle of the finished runs by
/// their total time, or the first run that did not finish (it ends the repeats). `label`
/// names the scenario and size in the line that lists the runs' times.
fn measure_repeated(
    cmd: &mut Command,
    limit: Duration,
    name: &str,
    label: &str,
    repeat: u8,
) -> Result<Outcome, BadInput> {
    let total = |v: &serde_json::Value| -> f64 {
        ["exploring", "graph", "traces"]
            .iter()
            .filter_map(|p| num(v, &format!("{p}_seconds")))
            .sum()
    };
    let mut done: Vec<(f64, serde_json::Value)> = Vec::new();
    for _ in 0..repeat {
        match measure(cmd, Some(limit), name, None)? {
            Outcome::Done(v) => done.push((total(&v), v)),
            stopped => return Ok(stopped),
        }
    }
    done.sort_by(|a, b| a.0.total_cmp(&b.0));
    if repeat > 1 {
        let times: Vec<String> = done.iter().map(|(t, _)| format!("{t:.3}")).collect();
        eprintln!(
            "bench: {label}: {} runs of {} s in all; the middle one is reported",
            done.len(),
            times.join(", ")
        );
    }
    let middle = done.len() / 2;
    Ok(Outcome::Done(done.swap_remove(middle).1))
}

/// Runs one check under the time limit (none: no limit) and reads its JSON object (the
/// first of an array, or the object); `input` is given on its stdin.
fn measure(
    cmd: &mut Command,
    limit: Option<Duration>,
    name: &str,
    input: Option<&str>,
) -> Result<Outcome, BadInput> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::inherit()
        })
        .spawn()
        .map_err(|e| BadInput(format!("cannot run podcheck check: {e}")))?;
    if let (Some(text), Some(mut stdin)) = (input, child.stdin.take()) {
        let text = text.to_string();
        // A thread: a large input would otherwise fill the pipe before the child reads it.
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    let mut out = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| BadInput(format!("the check of {name}: {e}")))?
        {
            break status;
        }
        if !timed_out && limit.is_some_and(|l| start.elapsed() >= l + GRACE) {
            // The run did not stop at its own budget: Ctrl-C, so that it stops where it is
            // and reports; killed if it does not end soon.
            timed_out = true;
            eprintln!(
                "bench: {name} passed the time limit of {} s: stopping it",
                limit.map_or(0, |l| l.as_secs())
            );
            interrupt(&child);
        }
        if timed_out && limit.is_some_and(|l| start.elapsed() >= l + 2 * GRACE) {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            return Ok(Outcome::TimedOut(None));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = reader.join().unwrap_or_default();
    let parsed = serde_json::from_slice::<serde_json::Value>(&stdout)
        .ok()
        .and_then(|v| match v {
            serde_json::Value::Array(mut a) if !a.is_empty() => Some(a.swap_remove(0)),
            serde_json::Value::Object(_) => Some(v),
            _ => None,
        });
    let interrupted = progress::interrupts() > 0;
    match status.code() {
        Some(0 | 1) if !timed_out => parsed
            .map(Outcome::Done)
            .ok_or_else(|| BadInput(format!("bad output from the check of {name}"))),
        Some(0 | 1 | 3) if timed_out => Ok(Outcome::TimedOut(parsed)),
        Some(3) if interrupted => Ok(Outcome::Interrupted(parsed)),
        _ if interrupted => Ok(Outcome::Interrupted(None)),
        _ if timed_out => Ok(Outcome::TimedOut(None)),
        code => Err(BadInput(format!(
            "the check of {name} failed (exit code {code:?}): see its message above"
        ))),
    }
}

/// How long a run stopped at its time limit may take to report before it is killed.
const GRACE: Duration = Duration::from_secs(15);

/// Sends SIGINT (Ctrl-C) to a child.
fn interrupt(child: &Child) {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = kill(Pid::from_raw(pid), Signal::SIGINT);
    }
}

fn num(v: &serde_json::Value, key: &str) -> Option<f64> {
    v[key].as_f64()
}

fn format_row(row: &Row, timeout: u64) -> String {
    let dash = "—".to_string();
    let (v, stopped_phase) = match &row.outcome {
        Outcome::Done(v) => (Some(v), None),
        Outcome::TimedOut(v) | Outcome::Interrupted(v) => (
            v.as_ref(),
            Some(
                v.as_ref()
                    .and_then(|v| v["stopped"]["phase"].as_str())
                    .unwrap_or("exploring")
                    .to_string(),
            ),
        ),
    };
    let over = match &row.outcome {
        Outcome::Interrupted(_) => "interrupted".to_string(),
        _ => format!("> {timeout} s"),
    };
    let Some(v) = v else {
        return format!(
            "| {} | {} | — | — | {over} | — | — | — | — | — |",
            row.name,
            row.size()
        );
    };
    // Counts of a run stopped while exploring are lower bounds.
    let partial = stopped_phase.as_deref() == Some("exploring") || v["complete"] == false;
    let count = |key: &str| match v[key].as_u64() {
        Some(n) if partial => format!("≥ {n}"),
        Some(n) => n.to_string(),
        None => dash.clone(),
    };
    // Counted up to interchangeable nodes.
    let reduced = v["symmetry"].as_array().is_some_and(|c| !c.is_empty());
    let mark = if reduced { " ‡" } else { "" };
    let secs = |phase: &str| {
        let key = format!("{phase}_seconds");
        match &stopped_phase {
            Some(p) if p == phase => over.clone(),
            Some(p) if phase_order(phase) > phase_order(p) => dash.clone(),
            _ => num(v, &key).map_or(dash.clone(), |s| format!("{s:.3}")),
        }
    };
    let states = v["unique_states"].as_u64().unwrap_or(0);
    let rate = num(v, "exploring_seconds")
        .filter(|s| *s > 0.0)
        .map_or(dash.clone(), |s| format!("{:.0}", states as f64 / s));
    let per_state = v["graph_bytes"]
        .as_u64()
        .filter(|_| states > 0)
        .map_or(dash.clone(), |b| format!("{:.1}", b as f64 / states as f64));
    let mib = v["peak_rss_kib"]
        .as_u64()
        .map_or(dash.clone(), |k| format!("{:.1}", k as f64 / 1024.0));
    let unique = format!("{}{mark}", count("unique_states"));
    let generated = format!("{}{mark}", count("generated_states"));
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        row.name,
        row.size(),
        unique,
        generated,
        secs("exploring"),
        secs("graph"),
        secs("traces"),
        rate,
        per_state,
        mib
    )
}

fn phase_order(p: &str) -> u8 {
    match p {
        "exploring" => 0,
        "graph" => 1,
        _ => 2,
    }
}

/// The machine: CPU model, cores, memory.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, m)| m.trim().to_string())
    });
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|k| k.parse::<u64>().ok())
    });
    format!(
        "{}, {} cores, {} memory",
        cpu.unwrap_or_else(|| "an unknown CPU".into()),
        cores,
        mem.map_or("unknown".to_string(), |k| format!(
            "{:.1} GiB",
            k as f64 / (1024.0 * 1024.0)
        ))
    )
}

/// The command line of this run, without its `--write-readme FILE`.
fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut command = Vec::new();
    let mut skip = false;
    for a in &args {
        if skip {
            skip = false;
            continue;
        }
        if a == "--write-readme" {
            skip = true;
            continue;
        }
        if a.starts_with("--write-readme=") {
            continue;
        }
        command.push(a.as_str());
    }
    command.join(" ")
}

/// `single-threaded`, or `N threads`.
fn threads_words(threads: u16) -> String {
    if threads == 1 {
        "single-threaded".to_string()
    } else {
        format!("{threads} threads")
    }
}

fn readme_block(rows: &[Row], timeout: u64, threads: u16, repeat: u8) -> String {
    let command = command_line();
    let mut out = String::new();
    let threads = threads_words(threads);
    let repeats = if repeat > 1 {
        format!(" Each was run {repeat} times; a row is the middle run by its total time.")
    } else {
        String::new()
    };
    out.push_str(&format!(
        "Measured with `podcheck {}` on {}: {threads}, built with Cargo's `{}` profile, each \
         run in a process of its own with a time limit of {timeout} s.{repeats}\n\n",
        command,
        machine(),
        env!("PODCHECK_PROFILE"),
    ));
    out.push_str(HEADER);
    out.push('\n');
    for r in rows {
        out.push_str(&format_row(r, timeout));
        out.push('\n');
    }
    out.push_str(&format!(
        "\n`> {timeout} s` marks the phase a run was in when it passed the time limit: it got a \
         Ctrl-C, and its counts (`≥`) are those found by then. `‡` marks counts up to \
         interchangeable nodes or Deployment pods (one state per class of states that differ \
         only by which of them holds what; see \"Symmetry\").\n"
    ));
    // Per scenario measured at more than one size, the largest size that finished.
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.name.as_str()) {
            names.push(&r.name);
        }
    }
    let mut lines = Vec::new();
    for name in names {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.name == name).collect();
        if mine.len() < 2 && mine.iter().all(|r| r.finished().is_some()) {
            continue;
        }
        let best = mine
            .iter()
            .filter(|r| r.finished().is_some())
            .max_by_key(|r| (r.nodes, r.replicas.iter().copied().max().unwrap_or(0)));
        lines.push(match best {
            Some(r) => format!(
                "| {name} | {} | {} |",
                r.size(),
                r.finished()
                    .and_then(|v| v["unique_states"].as_u64())
                    .unwrap_or(0)
            ),
            None => format!("| {name} | none within {timeout} s | — |"),
        });
    }
    if !lines.is_empty() {
        out.push_str(&format!(
            "\nThe largest size of each scenario measured at several sizes that was checked \
             exhaustively within {timeout} s:\n\n| scenario | nodes × replicas | unique states |\n|---|---|---:|\n"
        ));
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

/// Replaces what lies between the marker lines `begin` and `end` of `file` with `block`
/// (`None`: only checks that the file has them).
fn write_between_markers(
    file: &str,
    begin: &str,
    end: &str,
    block: Option<&str>,
) -> Result<(), BadInput> {
    let text = podcheck::read_text_file(std::path::Path::new(file))
        .map_err(|e| BadInput(format!("--write-readme {file}: {e}")))?;
    let (Some(b), Some(e)) = (text.find(begin), text.find(end)) else {
        return Err(BadInput(format!(
            "--write-readme {file}: it has no `{begin}` … `{end}` lines to write between"
        )));
    };
    if e < b {
        return Err(BadInput(format!(
            "--write-readme {file}: `{end}` comes before `{begin}`"
        )));
    }
    // One pair only: the table would go between the first, and the others keep an old one.
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    for marker in [begin, end] {
        let first = text.find(marker).unwrap_or(0);
        if let Some(again) = text[first + marker.len()..].find(marker) {
            return Err(BadInput(format!(
                "--write-readme {file}: line {} has a second `{marker}`: the file must have one `{begin}` … `{end}` pair to write between",
                line_of(first + marker.len() + again)
            )));
        }
    }
    let Some(block) = block else {
        return Ok(());
    };
    let new = format!("{}{begin}\n{block}{}", &text[..b], &text[e..]);
    std::fs::write(file, new)
        .map_err(|e| BadInput(format!("--write-readme {file}: cannot write it: {e}")))
}

// ---------------------------------------------------------------------------------------------
// `podcheck bench -f PATH`: your own manifests, plan scenario by plan scenario.

pub const APPS_BEGIN: &str = "<!-- bench-apps:begin -->";
pub const APPS_END: &str = "<!-- bench-apps:end -->";

const APPS_HEADER: &str = "| application | plan scenario | states | seconds | peak memory (MiB) | result | findings |\n|---|---|---:|---:|---:|---|---:|";

const APPS_SUMMARY_HEADER: &str = "| application | plan scenarios | complete | seconds in all | largest peak memory (MiB) | findings |\n|---|---:|---:|---:|---:|---:|";

/// The plan scenarios of some manifests, as `check -f` makes them.
struct Manifests {
    planned: Vec<Planned>,
    not_applicable: Vec<podcheck::NotApplicable>,
    /// On the paths read (a path given twice, a link not followed).
    notes: Vec<String>,
    /// Stdin's text, when `-` is among the paths: each run's process is given it again.
    stdin: Option<String>,
}

/// Reads the applications of `paths` (as `check -f` does: [`podcheck::applications`]) and
/// makes their scenarios under `plans`.
fn read_manifests(paths: &[String], plans: &[Plan], whole: bool) -> Result<Manifests, BadInput> {
    let apps = podcheck::applications(paths)?;
    let stdin = apps
        .apps
        .iter()
        .flat_map(|a| &a.sources)
        .find(|(name, _)| name == "-")
        .map(|(_, text)| text.clone());
    let mut planned = Vec::new();
    let mut not_applicable = Vec::new();
    for app in &apps.apps {
        let reading = podcheck::read_application(app)?;
        let (p, na) = podcheck::planned(
            &app.name,
            &reading.scenario,
            &reading.services,
            plans,
            &reading.plans,
            whole,
        );
        planned.extend(p);
        not_applicable.extend(na);
    }
    Ok(Manifests {
        planned,
        not_applicable,
        notes: apps.notes,
        stdin,
    })
}

/// `bench --measure-one SCENARIO -f PATH …`: checks that plan scenario of the manifests in
/// this process and prints its JSON report (as `check -f --format json` gives a scenario),
/// with its counts of findings and Kubernetes behaviours. Exit 0 whenever it reports, also
/// when a bound or a Ctrl-C stopped it (its `complete` and `stopped` say so).
fn measure_one(args: &BenchArgs, name: &str) -> Result<ExitCode, BadInput> {
    stop_on_ctrl_c();
    let plans = parse_plans(&args.plan)?;
    let m = read_manifests(&args.filename, &plans, args.no_cone)?;
    let Some(p) = m.planned.iter().find(|p| p.scenario.name == name) else {
        let names: Vec<&str> = m.planned.iter().map(|p| p.scenario.name.as_str()).collect();
        return Err(BadInput(format!(
            "the manifests have no plan scenario `{name}`; they have: {}",
            names.join("; ")
        )));
    };
    let opts = CheckOptions {
        threads: usize::from(args.threads),
        max_states: args
            .max_states
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        max_memory: args.max_memory,
        progress: true,
        budget: args
            .budget
            .unwrap_or(Budget::Seconds(DEFAULT_BUDGET))
            .duration(),
        ..CheckOptions::default()
    };
    // The run stops itself at its budget and says so (`stopped.bound`); the bench's own
    // process ([`run_manifests`]) stops it with a Ctrl-C only if it has not reported
    // [`GRACE`] after, and kills it another [`GRACE`] later.
    let started = progress::interrupts() == 0;
    let r = if started {
        let defs = podcheck::properties_of(&p.scenario, &[])?;
        check::check_with(&p.scenario, &defs, &opts).map_err(BadInput)?
    } else {
        podcheck::not_started(&p.scenario)?
    };
    let (findings, behaviours) = podcheck::findings(p, &r, TraceFormat::Text)?;
    let mut v = serde_json::to_value(crate::cli::check::json_scenario(&r, args.threads, started))
        .map_err(|e| BadInput(e.to_string()))?;
    if let Some(o) = v.as_object_mut() {
        o.insert("application".into(), p.application.clone().into());
        o.insert("plan".into(), p.plan.name().into());
        o.insert("findings".into(), findings.len().into());
        o.insert("kubernetes_behaviours".into(), behaviours.len().into());
    }
    say!("{v}");
    Ok(ExitCode::SUCCESS)
}

/// One plan scenario measured.
struct AppRow {
    application: String,
    /// The plan scenario's name without its application's (`drain web`).
    scenario: String,
    plan: Plan,
    outcome: Outcome,
    /// Seconds from starting its process to its end, as the bench saw them.
    wall: f64,
}

impl AppRow {
    fn report(&self) -> Option<&serde_json::Value> {
        match &self.outcome {
            Outcome::Done(v) => Some(v),
            Outcome::TimedOut(v) | Outcome::Interrupted(v) => v.as_ref(),
        }
    }

    fn complete(&self) -> bool {
        self.report().is_some_and(|v| v["complete"] == true)
    }

    /// The check's own seconds where it reported them, else the bench's.
    fn seconds(&self) -> f64 {
        self.report()
            .and_then(|v| num(v, "seconds"))
            .unwrap_or(self.wall)
    }

    fn peak_mib(&self) -> Option<f64> {
        self.report()
            .and_then(|v| v["peak_rss_kib"].as_u64())
            .map(|k| k as f64 / 1024.0)
    }

    fn findings(&self) -> Option<u64> {
        self.report().and_then(|v| v["findings"].as_u64())
    }

    /// `complete`, `bound` (a --max-states or --max-memory: `stopped.bound` says which),
    /// `budget`, `killed` (no report after the budget), `interrupted`: the JSON's `result`.
    fn result(&self) -> &'static str {
        match &self.outcome {
            _ if self.complete() => "complete",
            Outcome::Done(v) => match v["stopped"]["bound"].as_str() {
                Some("interrupt") => "interrupted",
                Some("budget") => "budget",
                _ => "bound",
            },
            Outcome::TimedOut(Some(_)) => "budget",
            Outcome::TimedOut(None) => "killed",
            Outcome::Interrupted(_) => "interrupted",
        }
    }

    /// The result in words, for the table.
    fn result_words(&self, budget: Budget, max_memory: Option<u64>) -> String {
        let budget_words = match budget {
            Budget::Seconds(s) => format!("the budget ({s} s)"),
            Budget::Unlimited => "the budget".to_string(),
        };
        let phase = self
            .report()
            .and_then(|v| v["stopped"]["phase"].as_str())
            .filter(|p| *p != "exploring")
            .map(|p| format!(", in its {p} phase"))
            .unwrap_or_default();
        let after = format!("after {:.0} s", self.seconds());
        match self.result() {
            "complete" => "complete".to_string(),
            "budget" => format!("stopped at {budget_words}{phase}"),
            "killed" => format!(
                "killed {} s after {budget_words}: no report",
                2 * GRACE.as_secs()
            ),
            "interrupted" => "interrupted (Ctrl-C)".to_string(),
            _ => {
                let v = self.report();
                let bound = v.and_then(|v| v["stopped"]["bound"].as_str()).unwrap_or("");
                match bound {
                    "max-memory" => format!(
                        "stopped at --max-memory {} {after}{phase}",
                        max_memory.map_or(String::new(), progress::size_words)
                    ),
                    "max-states" => format!("stopped at --max-states {after}{phase}"),
                    b => format!("stopped ({b}) {after}{phase}"),
                }
            }
        }
    }
}

fn format_app_row(row: &AppRow, budget: Budget, max_memory: Option<u64>) -> String {
    let dash = "—".to_string();
    let partial = if row.complete() { "" } else { "≥ " };
    let v = row.report();
    let reduced = v.is_some_and(|v| v["symmetry"].as_array().is_some_and(|c| !c.is_empty()));
    let states = v
        .and_then(|v| v["unique_states"].as_u64())
        .map_or(dash.clone(), |n| {
            format!("{partial}{n}{}", if reduced { " ‡" } else { "" })
        });
    let findings = row
        .findings()
        .map_or(dash.clone(), |n| format!("{partial}{n}"));
    format!(
        "| {} | {} | {} | {:.2} | {} | {} | {} |",
        row.application,
        row.scenario,
        states,
        row.seconds(),
        row.peak_mib().map_or(dash, |m| format!("{m:.1}")),
        row.result_words(budget, max_memory),
        findings
    )
}

/// One line per application: its plan scenarios, how many were complete, their seconds in
/// all, the largest peak, the findings.
fn apps_summary(rows: &[AppRow]) -> Vec<String> {
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.application.as_str()) {
            names.push(&r.application);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let mine: Vec<&AppRow> = rows.iter().filter(|r| r.application == name).collect();
            let complete = mine.iter().filter(|r| r.complete()).count();
            let seconds: f64 = mine.iter().map(|r| r.seconds()).sum();
            let peak = mine
                .iter()
                .filter_map(|r| r.peak_mib())
                .fold(0.0_f64, f64::max);
            let findings: u64 = mine.iter().filter_map(|r| r.findings()).sum();
            let partial = if complete < mine.len() { "≥ " } else { "" };
            format!(
                "| {name} | {} | {complete} | {seconds:.2} | {peak:.1} | {partial}{findings} |",
                mine.len()
            )
        })
        .collect()
}

fn app_json(row: &AppRow) -> serde_json::Value {
    let mut v = row
        .report()
        .cloned()
        .unwrap_or_else(|| serde_json::json!({ "complete": false }));
    if let Some(o) = v.as_object_mut() {
        o.insert("application".into(), row.application.clone().into());
        o.insert("plan".into(), row.plan.name().into());
        o.entry("scenario")
            .or_insert_with(|| format!("{}: {}", row.application, row.scenario).into());
        o.insert("wall_seconds".into(), row.wall.into());
        o.insert("result".into(), row.result().into());
    }
    v
}

/// `podcheck bench -f PATH …`.
fn run_manifests(args: &BenchArgs) -> Result<ExitCode, BadInput> {
    let plans = parse_plans(&args.plan)?;
    let m = read_manifests(&args.filename, &plans, args.no_cone)?;
    for n in &m.notes {
        eprintln!("note: {n}");
    }
    for n in &m.not_applicable {
        eprintln!("not applicable: {}: {}", n.application, n.why);
    }
    if !args.plan.is_empty() {
        crate::cli::manifests::every_plan_applies(&plans, &m.planned, &m.not_applicable)?;
    }
    if m.planned.is_empty() {
        return Err(BadInput(
            "the manifests have no plan scenario: no plan acts on their workloads".into(),
        ));
    }
    if let Some(file) = &args.write_readme {
        // Before the runs, which take long: the file must have its markers.
        write_between_markers(file, APPS_BEGIN, APPS_END, None)?;
    }
    stop_on_ctrl_c();
    let exe = std::env::current_exe().map_err(|e| BadInput(e.to_string()))?;
    let budget = args.budget.unwrap_or(Budget::Seconds(DEFAULT_BUDGET));
    let limit = match budget {
        Budget::Seconds(s) => Some(Duration::from_secs(s)),
        Budget::Unlimited => None,
    };
    let table = args.format == Format::Table;
    if table {
        say!("{APPS_HEADER}");
    }
    let n = m.planned.len();
    let mut rows: Vec<AppRow> = Vec::new();
    let mut interrupted = false;
    for (k, p) in m.planned.iter().enumerate() {
        let name = &p.scenario.name;
        eprintln!("bench: plan scenario {} of {n}: {name}", k + 1);
        let mut cmd = Command::new(&exe);
        cmd.arg("bench")
            .arg(format!("--measure-one={name}"))
            .arg(format!("--plan={}", p.plan.name()))
            .arg(format!("--threads={}", args.threads));
        if args.no_cone {
            cmd.arg("--no-cone");
        }
        for f in &args.filename {
            cmd.arg(format!("--filename={f}"));
        }
        bounds(&mut cmd, args);
        // The run stops itself at the budget ([`measure_one`]).
        cmd.arg(match budget {
            Budget::Seconds(s) => format!("--budget={s}"),
            Budget::Unlimited => "--budget=none".to_string(),
        });
        let start = Instant::now();
        let outcome = measure(&mut cmd, limit, name, m.stdin.as_deref())?;
        let prefix = format!("{}: ", p.application);
        let row = AppRow {
            application: p.application.clone(),
            scenario: name.strip_prefix(&prefix).unwrap_or(name).to_string(),
            plan: p.plan,
            outcome,
            wall: start.elapsed().as_secs_f64(),
        };
        if table {
            say!("{}", format_app_row(&row, budget, args.max_memory));
        }
        interrupted = matches!(row.outcome, Outcome::Interrupted(_))
            || row.result() == "interrupted"
            || progress::interrupts() > 0;
        rows.push(row);
        if interrupted {
            eprintln!(
                "bench: interrupted ({}): the table stops here, and no file is written",
                progress::interrupted_by()
            );
            break;
        }
    }
    if table {
        say!("");
        say!("{APPS_SUMMARY_HEADER}");
        for line in apps_summary(&rows) {
            say!("{line}");
        }
    } else {
        let all: Vec<serde_json::Value> = rows.iter().map(app_json).collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&all).map_err(|e| BadInput(e.to_string()))?
        );
    }
    if interrupted {
        return Ok(ExitCode::from(3));
    }
    if let Some(file) = &args.write_readme {
        let block = apps_block(&rows, budget, args);
        write_between_markers(file, APPS_BEGIN, APPS_END, Some(&block))?;
        eprintln!("bench: wrote the table into {file}");
    }
    Ok(ExitCode::SUCCESS)
}

/// What `bench -f … --write-readme FILE` writes between the markers: the command, the
/// machine, the summary per application and the row of each plan scenario.
fn apps_block(rows: &[AppRow], budget: Budget, args: &BenchArgs) -> String {
    let budget_words = match budget {
        Budget::Seconds(s) => format!("a budget of {s} s"),
        Budget::Unlimited => "no time budget".to_string(),
    };
    let mut bounds = Vec::new();
    if let Some(b) = args.max_memory {
        bounds.push(format!("--max-memory {}", progress::size_words(b)));
    }
    if let Some(n) = args.max_states {
        bounds.push(format!("--max-states {n}"));
    }
    let bounds = if bounds.is_empty() {
        String::new()
    } else {
        format!(" and {}", bounds.join(", "))
    };
    let mut out = format!(
        "Measured with `podcheck {}` on {}: {}, built with Cargo's `{}` profile, each plan \
         scenario in a process of its own with {budget_words}{bounds}.\n\n",
        command_line(),
        machine(),
        threads_words(args.threads),
        env!("PODCHECK_PROFILE"),
    );
    out.push_str(APPS_SUMMARY_HEADER);
    out.push('\n');
    for line in apps_summary(rows) {
        out.push_str(&line);
        out.push('\n');
    }
    // The rows of every plan scenario, folded: an application has dozens.
    out.push_str("\n<details><summary>Each plan scenario</summary>\n\n");
    out.push_str(APPS_HEADER);
    out.push('\n');
    for r in rows {
        out.push_str(&format_app_row(r, budget, args.max_memory));
        out.push('\n');
    }
    out.push_str("\n</details>\n");
    out.push_str(
        "\n`≥` marks the counts of a run that stopped before it was complete: the distinct \
         states and the findings it had found by then (a finding of an incomplete run is a real \
         one; others may be missing). `‡` marks counts up to interchangeable nodes or pods (see \
         \"Symmetry\"). Seconds are the check's own (exploring, graph and traces); peak memory is \
         the process's VmHWM.\n",
    );
    out
}
