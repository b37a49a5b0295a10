//! `podcheck bench`: the figures of the scaling table in docs/performance.md. Every scenario, at its own size and
//! at every `--size` asked for it, is checked in a process of its own (`podcheck check …
//! --format json`), under a time limit: a run that passes it gets a Ctrl-C, so that it
//! reports how far it got, and is killed if it does not end soon after. Such a run is reported
//! as `> N s`, never with a verdict.

use crate::cli::common::{load, pick, say, BadInput};
use podcheck_input::spec::Scenario;
use podcheck_properties::progress;
use std::io::Read;
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
}

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
        write_between_markers(file, None)?;
    }
    crate::cli::common::stop_on_ctrl_c();
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
            eprintln!("bench: interrupted (Ctrl-C): the table stops here, and no file is written");
            return Ok(ExitCode::from(3));
        }
    }
    if let Some(file) = &args.write_readme {
        let block = readme_block(&rows, args.timeout, args.threads, args.repeat);
        write_between_markers(file, Some(&block))?;
        eprintln!("bench: wrote the table into {file}");
    }
    Ok(ExitCode::SUCCESS)
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
        match measure(cmd, limit, name)? {
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

/// Runs one check under the time limit and reads its JSON object.
fn measure(cmd: &mut Command, limit: Duration, name: &str) -> Result<Outcome, BadInput> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| BadInput(format!("cannot run podcheck check: {e}")))?;
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
        if !timed_out && start.elapsed() >= limit {
            // Ctrl-C: the run stops where it is and reports; killed if it does not end soon.
            timed_out = true;
            eprintln!(
                "bench: {name} passed the time limit of {} s: stopping it",
                limit.as_secs()
            );
            interrupt(&child);
        }
        if timed_out && start.elapsed() >= limit + Duration::from_secs(15) {
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
        .and_then(|v| v.get(0).cloned());
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

fn readme_block(rows: &[Row], timeout: u64, threads: u16, repeat: u8) -> String {
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
    let mut out = String::new();
    let threads = if threads == 1 {
        "single-threaded".to_string()
    } else {
        format!("{threads} threads")
    };
    let repeats = if repeat > 1 {
        format!(" Each was run {repeat} times; a row is the middle run by its total time.")
    } else {
        String::new()
    };
    out.push_str(&format!(
        "Measured with `podcheck {}` on {}: {threads}, built with Cargo's `{}` profile, each \
         run in a process of its own with a time limit of {timeout} s.{repeats}\n\n",
        command.join(" "),
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

/// Replaces what lies between the marker lines of `file` with `block` (`None`: only checks
/// that the file has them).
fn write_between_markers(file: &str, block: Option<&str>) -> Result<(), BadInput> {
    let text = podcheck::read_text_file(std::path::Path::new(file))
        .map_err(|e| BadInput(format!("--write-readme {file}: {e}")))?;
    let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
        return Err(BadInput(format!(
            "--write-readme {file}: it has no `{BEGIN}` … `{END}` lines to write between"
        )));
    };
    if e < b {
        return Err(BadInput(format!(
            "--write-readme {file}: `{END}` comes before `{BEGIN}`"
        )));
    }
    // One pair only: the table would go between the first, and the others keep an old one.
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    for marker in [BEGIN, END] {
        let first = text.find(marker).unwrap_or(0);
        if let Some(again) = text[first + marker.len()..].find(marker) {
            return Err(BadInput(format!(
                "--write-readme {file}: line {} has a second `{marker}`: the file must have one `{BEGIN}` … `{END}` pair to write between",
                line_of(first + marker.len() + again)
            )));
        }
    }
    let Some(block) = block else {
        return Ok(());
    };
    let new = format!("{}{BEGIN}\n{block}{}", &text[..b], &text[e..]);
    std::fs::write(file, new)
        .map_err(|e| BadInput(format!("--write-readme {file}: cannot write it: {e}")))
}
