//! End-to-end tests of the `podcheck` command line: they run the real binary and check its exit
//! codes, its stdout (table and JSON) and its error messages on stderr.

mod common;

use common::bin::{command, describe, run_expect, run_json, signalled_once, stderr, stdout, BIN};
use common::dir::TempDir;
use common::json::{property, scenario};
use common::yaml::CATALOGUE as CATALOGUE_YAML;
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Output;
use std::sync::OnceLock;

/// The scenario names the brief requires `list` to show.
const REQUIRED_NAMES: [&str; 15] = [
    "healthy",
    "unschedulable",
    "image-pull-backoff",
    "crash-loop",
    "oom-killed",
    "dependency-outage",
    "deadlock",
    "termination-race",
    "termination-race-prestop",
    "sigterm-ignored",
    "job-never",
    "job-on-failure",
    "liveness-on-dependency",
    "slow-start",
    "slow-start-startup-probe",
];

const VERDICTS: [&str; 3] = ["holds", "violated", "incomplete"];

/// A user catalogue: the shape of the built-in `crash-loop`, renamed `my-crash`.
const MY_CRASH_YAML: &str = r#"- name: my-crash
  description: The program exits 1 five seconds after every start, before it answers its readiness probe.
  source: copied from crash-loop
  workloads:
    - kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 1
        template:
          spec:
            containers:
              - name: app
                image: web:1.0
                resources: {requests: {cpuMilli: 500}}
                readinessProbe: {periodSeconds: 5, failureThreshold: 3}
                app: {bootSeconds: 10, exitAfterSeconds: 5, exitCode: 1}
  expect:
    - {property: status_crash_loop_while_running, verdict: holds, source: "test: CrashLoopBackOff while Running"}
    - {property: pod_becomes_ready, verdict: violated, source: "test: it crashes before it is ready"}
"#;

// ---------------------------------------------------------------------------------------------
// Helpers (running the binary, temporary folders: tests/common/)

/// The number of steps of `podcheck trace SCENARIO --property PROPERTY --format json`.
fn trace_json_steps(scenario: &str, property: &str) -> u64 {
    let o = run_expect(
        &[
            "trace",
            scenario,
            "--property",
            property,
            "--format",
            "json",
        ],
        0,
    );
    let t: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(t["property"], property);
    t["steps"].as_array().expect("steps").len() as u64
}

/// Bad input: exit 2, nothing on stdout, an `error:` on stderr naming every `needle`, no panic.
fn assert_bad_input(args: &[&str], needles: &[&str]) {
    let o = run_expect(args, 2);
    let err = stderr(&o);
    assert!(
        o.stdout.is_empty(),
        "bad input printed on stdout:\n{}",
        describe(args, &o)
    );
    assert!(
        err.contains("error"),
        "stderr has no error message:\n{}",
        describe(args, &o)
    );
    for n in needles {
        assert!(
            err.contains(n),
            "stderr does not name {n:?}:\n{}",
            describe(args, &o)
        );
    }
}

/// Writes `yaml` into `name` in `dir`: `check --catalogue` of it is bad input naming the file
/// and every `needle` (as [`assert_bad_input`]).
fn assert_bad_catalogue(dir: &TempDir, name: &str, yaml: &str, needles: &[&str]) {
    let file = dir.write(name, yaml);
    let mut all = needles.to_vec();
    all.push(&file);
    assert_bad_input(&["check", "--catalogue", &file], &all);
}

/// A copy of a JSON result without what may differ between two runs of the same check: every
/// timing (`seconds` and any other `…seconds` field), `peak_rss_kib`, and the given `keys`.
fn without_volatile(results: &[Value], keys: &[&str]) -> Vec<Value> {
    results
        .iter()
        .map(|r| {
            let mut r = r.clone();
            let obj = r.as_object_mut().expect("a scenario is an object");
            assert!(obj.contains_key("seconds"), "no `seconds` in {obj:?}");
            assert!(
                obj.contains_key("peak_rss_kib"),
                "no `peak_rss_kib` in {obj:?}"
            );
            obj.retain(|k, _| k != "peak_rss_kib" && !k.ends_with("seconds"));
            for k in keys {
                assert!(obj.remove(*k).is_some(), "scenario object has no `{k}`");
            }
            r
        })
        .collect()
}

/// `check termination-race termination-race-prestop --format json` (one thread), run once and
/// shared by the tests that need it: termination-race is the largest scenario.
fn termination_pair() -> &'static [Value] {
    static RESULTS: OnceLock<Vec<Value>> = OnceLock::new();
    RESULTS.get_or_init(|| run_json(&TERMINATION_PAIR_ARGS, 0))
}

const TERMINATION_PAIR_ARGS: [&str; 5] = [
    "check",
    "termination-race",
    "termination-race-prestop",
    "--format",
    "json",
];

/// Checks the shape of one scenario object of the JSON output, and that a complete run has a
/// trace exactly where a property was discovered (violated `always`, holding `sometimes`).
fn assert_scenario_shape(s: &Value, threads: u64) {
    assert!(s["scenario"].is_string(), "scenario: {s}");
    assert!(s["complete"].is_boolean(), "complete: {s}");
    assert!(s["unique_states"].is_u64(), "unique_states: {s}");
    assert!(
        s["unique_states"].as_u64().unwrap() > 0,
        "unique_states: {s}"
    );
    assert!(s["seconds"].is_number(), "seconds: {s}");
    assert!(s["seconds"].as_f64().unwrap() >= 0.0, "seconds: {s}");
    assert_eq!(s["threads"].as_u64(), Some(threads), "threads: {s}");
    for phase in ["exploring", "graph", "traces"] {
        let secs = s[format!("{phase}_seconds")].as_f64();
        assert!(secs.is_some_and(|x| x >= 0.0), "{phase}_seconds: {s}");
    }
    assert!(
        s["generated_states"].as_u64() >= s["unique_states"].as_u64(),
        "generated_states: {s}"
    );
    assert!(
        s["graph_bytes"].as_u64().is_some_and(|b| b > 0),
        "graph_bytes: {s}"
    );
    // A run is complete exactly when no bound stopped it.
    assert_eq!(
        s["stopped"].is_null(),
        s["complete"] == true,
        "stopped: {s}"
    );
    let props = s["properties"].as_array().expect("properties is an array");
    assert!(!props.is_empty(), "no properties: {s}");
    let mut names = BTreeSet::new();
    for p in props {
        let name = p["name"].as_str().expect("name is a string");
        assert!(names.insert(name), "property {name} listed twice: {s}");
        let kind = p["kind"].as_str().expect("kind is a string");
        assert!(
            ["always", "sometimes", "leads_to", "step", "within"].contains(&kind),
            "kind: {p}"
        );
        let verdict = p["verdict"].as_str().expect("verdict is a string");
        assert!(VERDICTS.contains(&verdict), "verdict: {p}");
        let expected = p["expected"].as_str().expect("expected is a string");
        assert!(VERDICTS.contains(&expected), "expected: {p}");
        assert!(
            p["trace_steps"].is_null() || p["trace_steps"].is_u64(),
            "trace_steps: {p}"
        );
        if s["complete"] == true {
            assert_ne!(verdict, "incomplete", "a complete run left {p} undecided");
            let discovered = (kind != "sometimes") == (verdict == "violated");
            assert_eq!(
                p["trace_steps"].is_u64(),
                discovered,
                "a trace exactly where the property was discovered: {p}"
            );
        }
        if kind == "within" {
            let deadline = p["deadline_seconds"].as_u64().expect("a deadline: {p}");
            let worst = p["worst_case"].as_str().expect("a worst case: {p}");
            assert!(
                ["seconds", "unbounded", "no_premise", "incomplete"].contains(&worst),
                "worst_case: {p}"
            );
            assert_eq!(worst == "seconds", p["worst_case_seconds"].is_u64(), "{p}");
            // The verdict is the worst case against the deadline.
            if let Some(w) = p["worst_case_seconds"].as_u64() {
                let holds = w <= deadline;
                assert_eq!(verdict == "holds", holds, "{p}");
            }
            if worst == "unbounded" {
                assert_eq!(verdict, "violated", "{p}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// list

#[test]
fn list_prints_one_line_per_builtin_scenario() {
    let o = run_expect(&["list"], 0);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let listed: Vec<&str> = lines
        .iter()
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();

    // Exactly the catalogue's scenarios, in catalogue order, one line each.
    let in_catalogue: Vec<&str> = CATALOGUE_YAML
        .lines()
        .filter_map(|l| l.strip_prefix("- name: "))
        .map(str::trim)
        .collect();
    assert_eq!(listed, in_catalogue, "list output:\n{out}");

    for name in REQUIRED_NAMES {
        assert!(
            listed.contains(&name),
            "`list` does not show {name}:\n{out}"
        );
    }
    let unique: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(unique.len(), listed.len(), "duplicate names:\n{out}");
    for l in &lines {
        let mut words = l.split_whitespace();
        words.next();
        assert!(words.next().is_some(), "line without a description: {l:?}");
    }
    assert!(o.stderr.is_empty(), "stderr: {}", stderr(&o));
}

// ---------------------------------------------------------------------------------------------
// check: table

#[test]
fn check_healthy_prints_a_table_of_its_properties() {
    let o = run_expect(&["check", "healthy"], 0);
    let out = stdout(&o);

    // The same properties and verdicts as the JSON output, one line each, in the same order.
    let json = run_json(&["check", "healthy", "--format", "json"], 0);
    assert_eq!(json.len(), 1);
    let s = &json[0];
    let props = s["properties"].as_array().unwrap();

    // The report's heading: its bounds (the memory bound is half of this machine's memory).
    let bounds = out.lines().next().expect("empty table");
    assert!(
        bounds.starts_with("bounds: --max-memory ")
            && bounds.ends_with(" MiB (half of this machine's memory), --budget none"),
        "heading: {bounds:?}"
    );
    let header = out.lines().nth(1).expect("empty table");
    assert!(
        header.starts_with(&format!(
            "healthy  (Kubernetes {}, {} unique states up to interchangeable pods of web, ",
            s["kubernetes_version"].as_str().unwrap(),
            s["unique_states"].as_u64().unwrap()
        )),
        "header: {header:?}"
    );
    assert!(header.ends_with(", complete)"), "header: {header:?}");

    let rows: Vec<&str> = out.lines().skip(2).take(props.len()).collect();
    assert_eq!(rows.len(), props.len(), "table:\n{out}");
    for (row, p) in rows.iter().zip(props) {
        let words: Vec<&str> = row.split_whitespace().collect();
        let name = p["name"].as_str().unwrap();
        let verdict = p["verdict"].as_str().unwrap();
        assert_eq!(words[0], name, "row {row:?}");
        assert_eq!(words[1], p["kind"].as_str().unwrap(), "row {row:?}");
        assert_eq!(words[2], verdict, "row {row:?}");
        assert_eq!(words[3..5], ["expected", "holds"], "row {row:?}");
        assert_eq!(verdict, "holds", "healthy: {p}");
    }
    for name in [
        "terminal_phase_is_final",
        "no_request_to_stopped_container",
        "pod_becomes_ready",
        "endpoint_becomes_ready",
    ] {
        assert!(
            rows.iter()
                .any(|r| r.split_whitespace().next() == Some(name)),
            "table does not mention {name}:\n{out}"
        );
    }
    let n = props.len();
    let vacuous = out.lines().filter(|l| l.contains("vacuous: ")).count();
    assert!(
        vacuous > 0,
        "healthy has no Job, no drain, no rollout:\n{out}"
    );
    assert_eq!(
        out.lines().last(),
        Some(
            format!("1 scenarios, {n} verdicts: {n} as expected, 0 not; {vacuous} vacuous")
                .as_str()
        ),
        "table:\n{out}"
    );
}

// ---------------------------------------------------------------------------------------------
// check: JSON

#[test]
fn check_termination_race_json() {
    let results = termination_pair();
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0]["scenario"], "termination-race");
    assert_eq!(results[1]["scenario"], "termination-race-prestop");
    for s in results {
        assert_scenario_shape(s, 1);
        assert_eq!(s["complete"], true, "{s}");
        for p in s["properties"].as_array().unwrap() {
            assert_eq!(p["verdict"], p["expected"], "exit 0 yet {p}");
        }
    }

    let race = property(
        scenario(results, "termination-race"),
        "no_request_to_stopped_container",
    );
    assert_eq!(race["kind"], "step", "{race}");
    assert_eq!(race["verdict"], "violated", "{race}");
    assert_eq!(race["expected"], "violated", "{race}");
    let steps = race["trace_steps"].as_u64().expect("a counterexample");
    // The count is the length of the trace `podcheck trace` prints for the same property.
    assert_eq!(
        steps,
        trace_json_steps("termination-race", "no_request_to_stopped_container"),
        "{race}"
    );

    let prestop = property(
        scenario(results, "termination-race-prestop"),
        "no_request_to_stopped_container",
    );
    assert_eq!(prestop["kind"], "step", "{prestop}");
    assert_eq!(prestop["verdict"], "holds", "{prestop}");
    assert_eq!(prestop["expected"], "holds", "{prestop}");
    assert!(prestop["trace_steps"].is_null(), "{prestop}");
}

#[test]
fn same_check_twice_gives_the_same_json() {
    let args = [
        "check",
        "termination-race-prestop",
        "deadlock",
        "crash-loop",
        "unschedulable",
        "--format",
        "json",
    ];
    let a = run_json(&args, 0);
    let b = run_json(&args, 0);
    assert_eq!(a.len(), 4);
    for s in &a {
        assert_scenario_shape(s, 1);
    }
    assert_eq!(without_volatile(&a, &[]), without_volatile(&b, &[]));
}

#[test]
fn threads_do_not_change_counts_verdicts_or_traces() {
    // The largest scenarios, once.
    let one = termination_pair();
    let mut args = TERMINATION_PAIR_ARGS.to_vec();
    args.extend(["--threads", "2"]);
    let two = run_json(&args, 0);
    assert_eq!(two.len(), 2);
    for s in &two {
        assert_scenario_shape(s, 2);
    }
    assert_eq!(
        without_volatile(one, &["threads"]),
        without_volatile(&two, &["threads"]),
        "--threads 1 vs --threads 2"
    );

    // A small one, several times, since a difference could show only in some runs.
    let args = ["check", "deadlock", "--format", "json", "--threads"];
    let one = run_json(&[&args[..], &["1"]].concat(), 0);
    assert_scenario_shape(&one[0], 1);
    let one = without_volatile(&one, &["threads"]);
    for _ in 0..3 {
        let two = run_json(&[&args[..], &["2"]].concat(), 0);
        assert_scenario_shape(&two[0], 2);
        let two = without_volatile(&two, &["threads"]);
        assert_eq!(one[0]["unique_states"], two[0]["unique_states"]);
        assert_eq!(one[0]["properties"], two[0]["properties"]);
        assert_eq!(one, two, "deadlock: --threads 1 vs --threads 2");
    }
}

/// A table report with each check's wall-clock seconds (`, 0.12 s,` in a scenario's
/// heading) blanked: all that may differ between two runs of the same check.
fn without_seconds(table: &str) -> String {
    table
        .lines()
        .map(|line| {
            line.split(", ")
                .map(|part| match part.strip_suffix(" s") {
                    Some(n) if n.contains('.') && n.parse::<f64>().is_ok() => "_ s",
                    _ => part,
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn jobs_do_not_change_the_report() {
    // Scenarios of different lengths, so that a later one can end before an earlier one;
    // with traces, counterexamples and a witness among them.
    let names = [
        "termination-race-prestop",
        "deadlock",
        "crash-loop",
        "sigterm-ignored",
        "unschedulable",
        "healthy",
    ];
    let table = |jobs: &str| {
        let mut args = vec!["check"];
        args.extend(names);
        args.extend(["--traces", "--jobs", jobs]);
        let o = run_expect(&args, 0);
        (without_seconds(&stdout(&o)), stderr(&o))
    };
    let (one, one_err) = table("1");
    assert!(one.contains("counterexample in "), "{one}");
    assert!(one.contains("witness in "), "{one}");
    for jobs in ["2", "3"] {
        let (many, many_err) = table(jobs);
        assert_eq!(one, many, "--jobs 1 vs --jobs {jobs}");
        assert_eq!(one_err, many_err, "--jobs 1 vs --jobs {jobs}: stderr");
    }
    let json = |jobs: &str| {
        let mut args = vec!["check"];
        args.extend(names);
        args.extend(["--format", "json", "--jobs", jobs]);
        without_volatile(&run_json(&args, 0), &[])
    };
    assert_eq!(json("1"), json("3"), "--jobs 1 vs --jobs 3: JSON");
}

#[test]
fn jobs_do_not_change_a_manifest_report() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/manifests/");
    let report = |jobs: &str| {
        let args = ["check", "-f", dir, "--jobs", jobs];
        let o = run_expect(&args, 1);
        (without_seconds(&stdout(&o)), stderr(&o))
    };
    let (one, one_err) = report("1");
    assert!(one.contains("finding: "), "{one}");
    let (two, two_err) = report("2");
    assert_eq!(one, two, "-f: --jobs 1 vs --jobs 2");
    assert_eq!(one_err, two_err, "-f: --jobs 1 vs --jobs 2: stderr");
}

#[test]
fn zero_jobs_is_bad_input() {
    assert_bad_input(&["check", "healthy", "--jobs", "0"], &["--jobs"]);
    assert_bad_input(
        &["check", "healthy", "--simulate", "--jobs", "2"],
        &["--jobs"],
    );
}

// ---------------------------------------------------------------------------------------------
// check: --max-states

#[test]
fn max_states_bound_makes_the_check_incomplete() {
    let results = run_json(
        &["check", "healthy", "--max-states", "10", "--format", "json"],
        3,
    );
    assert_eq!(results.len(), 1);
    let s = &results[0];
    assert_scenario_shape(s, 1);
    assert_eq!(s["complete"], false, "{s}");
    let props = s["properties"].as_array().unwrap();
    let always: Vec<&Value> = props.iter().filter(|p| p["kind"] == "always").collect();
    assert!(!always.is_empty(), "{s}");
    for p in always {
        // Nothing is violated in healthy, so an unfinished run decides no safety property.
        assert_eq!(p["verdict"], "incomplete", "{p}");
        assert!(p["trace_steps"].is_null(), "{p}");
    }
    for p in props {
        assert_ne!(p["verdict"], "violated", "{p}");
    }
    assert_eq!(s["stopped"]["bound"], "max-states", "{s}");
    assert_eq!(s["stopped"]["phase"], "exploring", "{s}");
    assert_eq!(s["stopped"]["states"], 10, "{s}");

    // The table says so too, with the same exit code.
    let o = run_expect(&["check", "healthy", "--max-states", "10"], 3);
    let out = stdout(&o);
    // (After the report's heading, its bounds.)
    assert!(
        out.lines()
            .nth(1)
            .unwrap_or("")
            .contains("INCOMPLETE: stopped at --max-states"),
        "table:\n{out}"
    );
}

/// With `-f`, a plan scenario stopped at a bound gets a line of its own before the summary:
/// what its answer is worth, and how to decide the rest of it.
#[test]
fn a_plan_scenario_stopped_at_a_bound_says_how_to_decide_the_rest() {
    let o = run_expect(
        &[
            "check",
            "-f",
            "examples/manifests/api-prestop/unsafe",
            "--plan",
            "delete-pod",
            "--max-states",
            "50",
        ],
        1,
    );
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.starts_with("incomplete: "))
        .unwrap_or_else(|| panic!("no incomplete line:\n{out}"));
    assert_eq!(
        line,
        "incomplete: examples/manifests/api-prestop/unsafe: delete-pod checkout-api: stopped at --max-states: its findings stand, and a property it did not decide is not said to hold; to decide the rest, check it alone with more room (`--plan delete-pod` without `--max-states`), or walk it at random (`--simulate`)"
    );
    // A complete check has none.
    let o = run_expect(
        &[
            "check",
            "-f",
            "examples/manifests/api-prestop/unsafe",
            "--plan",
            "delete-pod",
        ],
        1,
    );
    assert!(!stdout(&o).contains("\nincomplete: "), "{}", stdout(&o));
}

// ---------------------------------------------------------------------------------------------
// check: progress, Ctrl-C, --max-memory

/// A scenario that takes minutes to check in full (more than 9 M states).
const BIG: [&str; 6] = [
    "check",
    "statefulset-partition-clusterip",
    "--nodes",
    "3",
    "--replicas",
    "3",
];

#[test]
fn a_short_check_prints_nothing_on_stderr() {
    let o = run_expect(&["check", "healthy"], 0);
    assert!(o.stderr.is_empty(), "stderr: {}", stderr(&o));
}

#[test]
fn ctrl_c_stops_the_check_and_prints_the_report_so_far() {
    use nix::sys::signal::Signal;
    // A second scenario, which the Ctrl-C leaves unchecked (one scenario at a time: with
    // two, it would be checked beside the first).
    let mut args = BIG.to_vec();
    args.extend(["healthy", "--jobs", "1"]);
    // Once the exploration's first progress line is printed.
    let (o, started) = signalled_once(
        &args,
        "statefulset-partition-clusterip: exploring: ",
        Signal::SIGINT,
    );
    assert_eq!(o.status.code(), Some(3), "{}", describe(&args, &o));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "the check went on after Ctrl-C: {}",
        describe(&args, &o)
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(!err.contains("panicked"), "{err}");
    // The progress line of the exploration: states, depth, rate, memory.
    let line = err
        .lines()
        .find(|l| l.starts_with("statefulset-partition-clusterip: exploring: "))
        .unwrap_or_else(|| panic!("no progress line:\n{err}"));
    for part in [" states, depth ", " states/s, ", " MiB, "] {
        assert!(line.contains(part), "progress line {line:?}");
    }
    assert!(
        err.contains(
            "statefulset-partition-clusterip: interrupted (Ctrl-C) in phase exploring at "
        ),
        "{err}"
    );
    let header = out.lines().nth(1).unwrap_or("");
    assert!(
        header.starts_with("statefulset-partition-clusterip  (")
            && header.contains("INCOMPLETE: interrupted (Ctrl-C) in phase exploring at "),
        "header: {header:?}\n{out}"
    );
    // The whole report: a row for every property, and the summary.
    let row = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{out}"))
            .to_string()
    };
    // Nothing breaks these in statefulset-partition-clusterip: stopped early, they are undecided.
    for name in ["pending_until_first_start", "statefulset_at_most_one"] {
        let r = row(name);
        assert!(r.contains(" always "), "{r}");
        assert!(r.contains(" incomplete "), "{r}");
    }
    assert!(
        row("deleted_leads_to_gone").contains(" incomplete "),
        "{out}"
    );
    let n_rows = out
        .lines()
        .skip(2)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            // `!` marks a verdict that differs from its expectation.
            let w = if w[0] == "!" { &w[1..] } else { &w[..] };
            assert_sound_when_stopped(w[1], w[2]);
        })
        .count();
    assert!(n_rows > 20, "{out}");
    assert!(
        out.contains(
            "\nhealthy  (Kubernetes 1.35, INCOMPLETE: not checked, interrupted (Ctrl-C) before it started)\n"
        ),
        "{out}"
    );
    assert!(
        out.lines()
            .last()
            .unwrap_or("")
            .starts_with("2 scenarios, "),
        "{out}"
    );
}

#[test]
fn max_memory_bound_makes_the_check_incomplete() {
    let mut args = BIG.to_vec();
    args.extend(["--max-memory", "40M", "--format", "json"]);
    let o = run_expect(&args, 3);
    let err = stderr(&o);
    assert!(
        err.contains(
            "statefulset-partition-clusterip: the memory bound was reached (--max-memory 40 MiB"
        ),
        "{}",
        describe(&args, &o)
    );
    assert!(err.contains(" in phase exploring at "), "{err}");
    let results: Vec<Value> = serde_json::from_slice(&o.stdout).expect("JSON");
    let s = &results[0];
    assert_scenario_shape(s, 1);
    assert_eq!(s["complete"], false, "{s}");
    assert_eq!(s["stopped"]["bound"], "max-memory", "{s}");
    assert_eq!(s["stopped"]["phase"], "exploring", "{s}");
    let states = s["stopped"]["states"].as_u64().expect("states");
    assert_eq!(s["unique_states"].as_u64(), Some(states), "{s}");
    assert!(states > 0 && states < 3_000_000, "{s}");
    assert!(
        err.contains(&format!(" in phase exploring at {states} states")),
        "{err}"
    );
    // Stopped before the bound: the peak stays below it.
    assert!(
        s["peak_rss_kib"].as_u64().is_some_and(|k| k < 40 * 1024),
        "{s}"
    );
    assert_eq!(
        property(s, "statefulset_at_most_one")["verdict"],
        "incomplete",
        "{s}"
    );
    for p in s["properties"].as_array().unwrap() {
        assert_sound_when_stopped(p["kind"].as_str().unwrap(), p["verdict"].as_str().unwrap());
    }
}

/// A run stopped by a bound never says `holds` for a property about every state or run, nor
/// `violated` for a witness.
fn assert_sound_when_stopped(kind: &str, verdict: &str) {
    match kind {
        "sometimes" => assert_ne!(verdict, "violated", "a stopped run: {kind} {verdict}"),
        _ => assert_ne!(verdict, "holds", "a stopped run: {kind} {verdict}"),
    }
}

#[test]
fn trace_stopped_by_the_memory_bound_exits_3() {
    let base = [
        "trace",
        "statefulset-partition-clusterip",
        "--nodes",
        "3",
        "--replicas",
        "2",
        "--max-memory",
        "40M",
    ];
    let mut args = base.to_vec();
    args.extend(["--property", "deleted_leads_to_gone"]);
    let o = run_expect(&args, 3);
    assert!(
        stdout(&o).contains("deleted_leads_to_gone: is incomplete: the run stopped at a bound"),
        "{}",
        describe(&args, &o)
    );
    assert!(
        stderr(&o).contains("INCOMPLETE: stopped at --max-memory in phase exploring at "),
        "{}",
        describe(&args, &o)
    );
    // Without --property the trace shown is a real one, but a complete run might pick
    // another: exit 3 as well.
    let o = run_expect(&base, 3);
    assert!(
        stdout(&o).contains("witness in "),
        "{}",
        describe(&base, &o)
    );
}

#[test]
fn malformed_max_memory_is_bad_input() {
    for bad in ["12X", "0", "8 GB B", "1..5G", "5 MiBs"] {
        assert_bad_input(
            &["check", "healthy", "--max-memory", bad],
            &["--max-memory", bad],
        );
    }
    assert_bad_input(
        &["trace", "healthy", "--max-memory", "lots"],
        &["--max-memory", "lots"],
    );
}

// ---------------------------------------------------------------------------------------------
// check: a user catalogue

#[test]
fn user_catalogue_is_listed_and_checked() {
    let dir = TempDir::new("valid");
    let file = dir.write("mine.yaml", MY_CRASH_YAML);

    let o = run_expect(&["list", "--catalogue", &file], 0);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "list:\n{out}");
    assert_eq!(lines[0].split_whitespace().next(), Some("my-crash"));

    for args in [
        vec!["check", "--catalogue", file.as_str(), "--format", "json"],
        vec![
            "check",
            "my-crash",
            "--catalogue",
            file.as_str(),
            "--format",
            "json",
        ],
    ] {
        let results = run_json(&args, 0);
        assert_eq!(results.len(), 1, "{results:?}");
        let s = &results[0];
        assert_eq!(s["scenario"], "my-crash");
        assert_scenario_shape(s, 1);
        assert_eq!(s["complete"], true);
        let crash = property(s, "status_crash_loop_while_running");
        assert_eq!(crash["verdict"], "holds", "{crash}");
        assert_eq!(crash["expected"], "holds", "{crash}");
        let ready = property(s, "pod_becomes_ready");
        assert_eq!(ready["verdict"], "violated", "{ready}");
        assert_eq!(ready["expected"], "violated", "{ready}");
    }

    // The user's catalogue replaces the built-in one.
    assert_bad_input(
        &["check", "crash-loop", "--catalogue", &file],
        &["`crash-loop`", &file],
    );
}

#[test]
fn user_catalogue_with_a_wrong_expectation_exits_1() {
    let dir = TempDir::new("mismatch");
    let yaml = MY_CRASH_YAML.replace(
        "{property: pod_becomes_ready, verdict: violated,",
        "{property: pod_becomes_ready, verdict: holds,",
    );
    assert_ne!(yaml, MY_CRASH_YAML);
    let file = dir.write("wrong.yaml", &yaml);
    let results = run_json(&["check", "--catalogue", &file, "--format", "json"], 1);
    let ready = property(scenario(&results, "my-crash"), "pod_becomes_ready");
    assert_eq!(ready["verdict"], "violated", "{ready}");
    assert_eq!(ready["expected"], "holds", "{ready}");
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2, a message, no panic

#[test]
fn unknown_scenario_is_bad_input() {
    assert_bad_input(&["check", "no-such-scenario"], &["no-such-scenario"]);
    assert_bad_input(
        &["check", "healthy", "no-such-scenario", "--format", "json"],
        &["no-such-scenario"],
    );
}

#[test]
fn unknown_flag_is_bad_input() {
    assert_bad_input(&["check", "healthy", "--bogus"], &["--bogus"]);
    assert_bad_input(&["list", "--bogus"], &["--bogus"]);
}

/// `--cross-check` runs Stateright's own checker too (with `--threads` threads): the same
/// JSON as without it, where the two agree.
#[test]
fn cross_check_agrees_and_changes_nothing() {
    for scenario in ["deadlock", "statefulset-partition"] {
        // --cross-check explores every state, so it is compared with a run that does too.
        let plain = run_json(
            &["check", scenario, "--format", "json", "--no-reduction"],
            0,
        );
        let crossed = run_json(
            &[
                "check",
                scenario,
                "--format",
                "json",
                "--cross-check",
                "--threads",
                "2",
            ],
            0,
        );
        assert_scenario_shape(&crossed[0], 2);
        assert_eq!(
            without_volatile(&plain, &["threads"]),
            without_volatile(&crossed, &["threads"]),
            "{scenario}"
        );
    }
}

#[test]
fn zero_threads_is_bad_input() {
    assert_bad_input(&["check", "healthy", "--threads", "0"], &["--threads"]);
}

#[test]
fn unknown_format_is_bad_input() {
    assert_bad_input(&["check", "healthy", "--format", "yaml"], &["yaml"]);
}

#[test]
fn missing_catalogue_file_is_bad_input() {
    let path = "/nonexistent.yaml";
    assert_bad_input(&["check", "--catalogue", path], &[path]);
    assert_bad_input(&["check", "healthy", "--catalogue", path], &[path]);
    assert_bad_input(&["list", "--catalogue", path], &[path]);
}

#[test]
fn catalogue_that_is_not_yaml_is_bad_input() {
    let dir = TempDir::new("not-yaml");
    let file = dir.write("broken.yaml", "- name: [unclosed\n  : : :\n");
    assert_bad_input(&["check", "--catalogue", &file], &[&file]);
    assert_bad_input(&["list", "--catalogue", &file], &[&file]);
}

#[test]
fn catalogue_with_an_unknown_field_is_bad_input() {
    let dir = TempDir::new("unknown-field");
    let yaml = MY_CRASH_YAML.replace(
        "  source: copied from crash-loop\n",
        "  source: copied from crash-loop\n  colour: blue\n",
    );
    assert_ne!(yaml, MY_CRASH_YAML);
    let file = dir.write("extra.yaml", &yaml);
    assert_bad_input(&["check", "--catalogue", &file], &[&file, "colour"]);
    assert_bad_input(&["list", "--catalogue", &file], &[&file, "colour"]);
}

#[test]
fn a_sidecar_the_release_or_the_api_server_refuses_is_bad_input() {
    // A built-in sidecar scenario at a release before the gate is on: the flag names it.
    assert_bad_input(
        &["check", "sidecar-job", "--kubernetes-version", "1.28"],
        &[
            "initContainers[0].restartPolicy",
            "needs Kubernetes 1.29",
            "follows 1.28",
        ],
    );
    // restartPolicy on a regular container, as the API server words it.
    let dir = TempDir::new("sidecar-field");
    let yaml = MY_CRASH_YAML.replace(
        "                image: web:1.0\n",
        "                image: web:1.0\n                restartPolicy: Always\n",
    );
    assert_ne!(yaml, MY_CRASH_YAML);
    let file = dir.write("regular.yaml", &yaml);
    assert_bad_input(
        &["check", "--catalogue", &file],
        &[
            "containers[0].restartPolicy",
            "Forbidden: may not be set for non-init containers",
        ],
    );
}

#[test]
fn catalogue_expecting_an_unknown_property_fails_at_check() {
    let dir = TempDir::new("unknown-property");
    let yaml = MY_CRASH_YAML.replace(
        "property: pod_becomes_ready",
        "property: pod_becomes_famous",
    );
    assert_ne!(yaml, MY_CRASH_YAML);
    let file = dir.write("famous.yaml", &yaml);
    assert_bad_input(
        &["check", "--catalogue", &file],
        &["pod_becomes_famous", "my-crash", &file],
    );
    assert_bad_input(
        &[
            "check",
            "my-crash",
            "--catalogue",
            &file,
            "--format",
            "json",
        ],
        &["pod_becomes_famous", "my-crash"],
    );
}

#[test]
fn impossible_step_failures_are_bad_input() {
    let dir = TempDir::new("step-fails");
    let with = |fault: &str| {
        MY_CRASH_YAML.replace(
            "  expect:\n",
            &format!("  faults:\n    - {fault}\n  expect:\n"),
        )
    };
    for (name, fault, needles) in [
        (
            "no-volume.yaml",
            "stepFails: {workload: web, step: mountVolume}",
            vec!["mountVolume", "has no volume"],
        ),
        (
            "no-hook.yaml",
            "stepFails: {workload: web, step: postStartHook}",
            vec!["postStartHook", "no container with a postStart hook"],
        ),
        (
            "sandbox-hang.yaml",
            "stepFails: {workload: web, step: runPodSandbox, hangs: true}",
            vec!["runPodSandbox", "hangs"],
        ),
        (
            "no-container.yaml",
            "stepFails: {workload: web, step: createContainer, container: sidecar}",
            vec!["sidecar"],
        ),
        (
            "no-such-step.yaml",
            "stepFails: {workload: web, step: pullImageTwice}",
            vec!["pullImageTwice"],
        ),
        (
            "unknown-workload.yaml",
            "stepFails: {workload: api, step: cniAdd}",
            vec!["api"],
        ),
    ] {
        assert_bad_catalogue(&dir, name, &with(fault), &needles);
    }
    // A valid one checks: the sandbox never comes up, so the crash loop never starts.
    let file = dir.write(
        "sandbox.yaml",
        &with("stepFails: {workload: web, step: runPodSandbox}").replace(
            "    - {property: status_crash_loop_while_running, verdict: holds, source: \"test: CrashLoopBackOff while Running\"}\n",
            "    - {property: stuck_container_creating, verdict: holds, source: \"test: stuck\"}\n",
        ),
    );
    let results = run_json(&["check", "--catalogue", &file, "--format", "json"], 0);
    assert!(format!("{results:?}").contains("stuck_container_creating"));
}

#[test]
fn empty_catalogue_is_bad_input() {
    let dir = TempDir::new("empty");
    let file = dir.write("empty.yaml", "[]\n");
    assert_bad_input(&["check", "--catalogue", &file], &[&file, "no scenarios"]);
}

#[test]
fn duplicate_scenario_names_are_bad_input() {
    let dir = TempDir::new("duplicate");
    let file = dir.write("twice.yaml", &format!("{MY_CRASH_YAML}{MY_CRASH_YAML}"));
    assert_bad_input(&["list", "--catalogue", &file], &[&file, "my-crash"]);
}

/// `podcheck check … | head` must not panic when the reader goes away.
#[test]
fn a_closed_stdout_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = command(&["check", "deadlock", "crash-loop", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("podcheck starts");
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut err)
        .expect("stderr is readable");
    let status = child.wait().expect("podcheck ends");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(status.code(), Some(0), "{err}");
}

// ---------------------------------------------------------------------------------------------
// trace

#[test]
fn trace_tells_the_termination_race() {
    let o = run_expect(&["trace", "termination-race"], 0);
    let out = stdout(&o);
    assert!(
        out.starts_with("no_request_to_stopped_container: "),
        "{out}"
    );
    let mut at = 0;
    for needle in [
        "kubectl: delete pod web-1",
        "kill (preStop, SIGTERM) containers of web-1",
        "exited 0 (Completed)",
        "client: request via kube-proxy@",
        "refused",
    ] {
        let found = out[at..]
            .find(needle)
            .unwrap_or_else(|| panic!("`{needle}` missing or out of order:\n{out}"));
        at += found + needle.len();
    }
}

#[test]
fn trace_formats_json_itf_mermaid() {
    let json = run_expect(&["trace", "sigterm-ignored", "--format", "json"], 0);
    let t: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(t["property"], "graceful_stop_within_grace");
    assert_eq!(t["verdict"], "violated");
    // As many steps as `podcheck check` reports for the property's trace.
    let checked = run_json(&["check", "sigterm-ignored", "--format", "json"], 0);
    let p = property(
        scenario(&checked, "sigterm-ignored"),
        "graceful_stop_within_grace",
    );
    assert_eq!(
        Some(t["steps"].as_array().unwrap().len() as u64),
        p["trace_steps"].as_u64(),
        "{p}"
    );

    let itf = run_expect(&["trace", "sigterm-ignored", "--format", "itf"], 0);
    let v: Value = serde_json::from_slice(&itf.stdout).expect("ITF is JSON");
    assert_eq!(v["#meta"]["format"], "ITF");
    assert_eq!(
        v["states"].as_array().unwrap().len(),
        t["steps"].as_array().unwrap().len() + 1
    );

    let mm = run_expect(&["trace", "sigterm-ignored", "--format", "mermaid"], 0);
    assert!(stdout(&mm).starts_with("sequenceDiagram\n"));
}

#[test]
fn trace_dot_renders_small_graphs_and_the_neighbourhood_of_large_ones() {
    let o = run_expect(
        &[
            "trace",
            "crash-loop",
            "--property",
            "status_crash_loop_while_running",
            "--format",
            "dot",
        ],
        0,
    );
    let out = stdout(&o);
    assert!(out.starts_with("digraph \"crash-loop\""), "{out}");
    assert!(out.contains("color=red"));
    assert!(
        out.contains("witness of status_crash_loop_while_running"),
        "{out}"
    );
    // Above the limit: the trace's states and their immediate successors, said so.
    let o = run_expect(&["trace", "termination-race", "--format", "dot"], 0);
    let out = stdout(&o);
    assert!(out.starts_with("digraph \"termination-race\""), "{out}");
    assert!(out.contains("drawn are the trace's states and their immediate successors"));
    assert!(out.contains("no_request_to_stopped_container violated here"));
}

#[test]
fn bench_reads_a_catalogue_file() {
    let dir = TempDir::new("bench-catalogue");
    let file = dir.write("one.yaml", CATALOGUE_YAML);
    let o = run_expect(&["bench", "healthy", "--catalogue", &file], 0);
    let out = stdout(&o);
    assert!(out.contains("| healthy | "), "{out}");
    assert_bad_input(
        &["bench", "healthy", "--catalogue", "/no/such/file.yaml"],
        &["cannot read /no/such/file.yaml"],
    );
}

#[test]
fn bench_repeats_each_run_and_reports_the_middle_one() {
    let o = run_expect(&["bench", "healthy", "--repeat", "3"], 0);
    let out = stdout(&o);
    // One row, of the middle run.
    assert_eq!(out.matches("| healthy | 2 × 1 |").count(), 1, "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bench: healthy at 2 × 1: 3 runs of ")
            && err.contains("the middle one is reported"),
        "{err}"
    );
    for bad in ["0", "10", "x"] {
        assert_bad_input(&["bench", "healthy", "--repeat", bad], &["--repeat"]);
    }
}

const BENCH_HEADER: &str = "| scenario | nodes × replicas | unique states | generated states | exploring (s) | graph (s) | traces (s) | states/s | bytes/state | peak memory (MiB) |";

#[test]
fn bench_measures_sizes_and_writes_the_readme_table() {
    let dir = TempDir::new("bench");
    let readme = dir.write(
        "README.md",
        "# title\n\nbefore\n<!-- bench:begin -->\nold table\n<!-- bench:end -->\nafter\n",
    );
    let args = [
        "bench",
        "healthy",
        "--size",
        "1x1",
        "--timeout",
        "60",
        "--write-readme",
        &readme,
    ];
    let o = run_expect(&args, 0);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&BENCH_HEADER), "{out}");
    // Its own size (2 nodes, 1 replica), then 1 x 1.
    let rows: Vec<Vec<&str>> = lines[2..]
        .iter()
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert_eq!(rows[0][..2], ["healthy", "2 × 1"], "{out}");
    assert_eq!(rows[1][..2], ["healthy", "1 × 1"], "{out}");
    for r in &rows {
        assert_eq!(r.len(), 10, "{r:?}");
        // A count up to interchangeable nodes or pods is marked ‡.
        let unique: u64 = r[2].trim_end_matches(" ‡").parse().expect("unique states");
        let generated: u64 = r[3]
            .trim_end_matches(" ‡")
            .parse()
            .expect("generated states");
        assert!(unique > 0 && generated >= unique, "{r:?}");
        for cell in &r[4..] {
            assert!(cell.parse::<f64>().is_ok(), "{r:?}");
        }
    }
    // The same count as `check` at the same size.
    let checked = run_json(
        &[
            "check",
            "healthy",
            "--nodes",
            "1",
            "--replicas",
            "1",
            "--format",
            "json",
        ],
        0,
    );
    assert_eq!(
        rows[1][2].trim_end_matches(" ‡"),
        checked[0]["unique_states"].to_string(),
        "{out}"
    );

    let text = std::fs::read_to_string(&readme).unwrap();
    assert!(
        text.starts_with("# title\n\nbefore\n<!-- bench:begin -->\n"),
        "{text}"
    );
    assert!(text.ends_with("<!-- bench:end -->\nafter\n"), "{text}");
    assert!(!text.contains("old table"), "{text}");
    assert!(text.contains(BENCH_HEADER), "{text}");
    for l in &lines[2..] {
        assert!(text.contains(l), "{l} not in\n{text}");
    }
    assert!(text.contains(" cores, "), "the machine: {text}");
    assert!(text.contains("time limit of 60 s"), "{text}");
    assert!(
        text.contains("| healthy | 2 × 1 | "),
        "the largest size checked: {text}"
    );

    // A file without the markers is refused before anything runs.
    let plain = dir.write("plain.md", "no markers here\n");
    assert_bad_input(
        &["bench", "healthy", "--write-readme", &plain],
        &["--write-readme", "<!-- bench:begin -->"],
    );
    assert_eq!(
        std::fs::read_to_string(&plain).unwrap(),
        "no markers here\n"
    );
    for bad in ["3", "0x1", "6x2", "x", "nosuch=2x2", "healthy=2x2,9x9"] {
        assert_bad_input(
            &["bench", "healthy", "--size", bad],
            &[bad.split('=').next().unwrap()],
        );
    }
    assert_bad_input(&["bench", "healthy", "--timeout", "0"], &["--timeout"]);
}

#[test]
fn bench_reports_a_run_past_its_time_limit_as_such() {
    // statefulset-partition-clusterip at its own size (2 nodes × 1 replica, some 1,600 states) ends in
    // milliseconds even on a loaded machine, so the bench goes on to 3 × 3, which takes far
    // longer than a second to explore (millions of states): that run stops at the limit, so
    // the test costs about a second. (A scenario whose own size could pass the limit would
    // have its larger size skipped, and no row to read.)
    let o = run_expect(
        &[
            "bench",
            "statefulset-partition-clusterip",
            "--size",
            "statefulset-partition-clusterip=3x3",
            "--timeout",
            "1",
        ],
        0,
    );
    let out = stdout(&o);
    let row = out
        .lines()
        .find(|l| l.starts_with("| statefulset-partition-clusterip | 3 × 3 | "))
        .unwrap_or_else(|| panic!("no row:\n{out}"));
    let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
    assert_eq!(cells.len(), 10, "{row}");
    // Stopped while exploring: its counts are lower bounds, its exploration passed the limit.
    assert!(cells[2].starts_with("≥ "), "{row}");
    assert_eq!(cells[4], "> 1 s", "{row}");
    assert_eq!(cells[5..7], ["—", "—"], "{row}");
}

#[test]
fn trace_of_a_property_that_holds_says_so() {
    let o = run_expect(
        &[
            "trace",
            "termination-race-prestop",
            "--property",
            "no_request_to_stopped_container",
        ],
        0,
    );
    assert!(stdout(&o).contains("holds"), "{}", stdout(&o));
    // Nothing violated: the first witness instead.
    let o = run_expect(&["trace", "healthy"], 0);
    assert!(
        stdout(&o).contains("healthy / pod_becomes_ready"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("witness"), "{}", stdout(&o));
}

#[test]
fn trace_of_a_stuck_pod_shows_the_event_kubectl_describe_shows() {
    let o = run_expect(&["trace", "stuck-volume-mount"], 0);
    let out = stdout(&o);
    assert!(out.contains("stuck_container_creating"), "{out}");
    assert!(
        out.contains(
            "Warning FailedMount       pod/db-1  MountVolume.SetUp failed for volume \"data\""
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "kubectl describe pod db-1  (Status: Pending; kubectl get pods: ContainerCreating)"
        ),
        "{out}"
    );
    assert!(
        out.contains("Warning  FailedMount             x5+"),
        "{out}"
    );
}

#[test]
fn trace_prints_a_witness() {
    let o = run_expect(
        &["trace", "oom-killed", "--property", "status_oom_killed"],
        0,
    );
    let out = stdout(&o);
    assert!(out.contains("witness"), "{out}");
    assert!(out.contains("exited 137 (OOMKilled)"), "{out}");
}

#[test]
fn trace_bad_input() {
    assert_bad_input(
        &["trace", "healthy", "--property", "no_such_property"],
        &["no_such_property", "healthy"],
    );
    assert_bad_input(&["trace", "no-such-scenario"], &["no-such-scenario"]);
    assert_bad_input(&["trace", "healthy", "--format", "svg"], &["svg"]);
}

#[test]
fn bad_access_modes_are_bad_input() {
    let dir = TempDir::new("access-modes");
    let with = |claims: &str| {
        MY_CRASH_YAML.replace(
            "  expect:\n",
            &format!("  persistentVolumeClaims:\n{claims}  expect:\n"),
        )
    };
    for (name, claims, needles) in [
        (
            "unknown-mode.yaml",
            "    - {metadata: {name: data}, spec: {accessModes: [ReadWriteSometimes]}}\n",
            vec![
                "persistentVolumeClaims `data`",
                "spec.accessModes",
                "ReadWriteSometimes",
            ],
        ),
        (
            "no-mode.yaml",
            "    - {metadata: {name: data}, spec: {accessModes: []}}\n",
            vec!["spec.accessModes", "at least 1 access mode is required"],
        ),
        (
            "rwop-and-more.yaml",
            "    - {metadata: {name: data}, spec: {accessModes: [ReadWriteOncePod, ReadWriteOnce]}}\n",
            vec!["may not use ReadWriteOncePod with other access modes"],
        ),
        (
            "twice.yaml",
            "    - {metadata: {name: data}, spec: {accessModes: [ReadWriteOnce]}}\n    - {metadata: {name: data}, spec: {accessModes: [ReadWriteMany]}}\n",
            vec!["two claims are named `data`"],
        ),
    ] {
        assert_bad_catalogue(&dir, name, &with(claims), &needles);
    }
    // A StatefulSet's claim template is checked the same way.
    let sts = MY_CRASH_YAML
        .replace("kind: Deployment", "kind: StatefulSet")
        .replace(
            "                app: {bootSeconds: 10, exitAfterSeconds: 5, exitCode: 1}\n",
            "                app: {bootSeconds: 10, exitAfterSeconds: 5, exitCode: 1}\n        volumeClaimTemplates:\n          - {metadata: {name: data}, spec: {accessModes: [ReadWriteOnly]}}\n",
        );
    let file = dir.write("template.yaml", &sts);
    assert_bad_input(
        &["check", "--catalogue", &file],
        &[
            "workload `web`: volumeClaimTemplates `data`",
            "ReadWriteOnly",
        ],
    );
    // A valid claim checks.
    let file = dir.write(
        "valid.yaml",
        &with(
            "    - {metadata: {name: data}, spec: {accessModes: [ReadWriteOnce, ReadOnlyMany]}}\n",
        ),
    );
    run_json(&["check", "--catalogue", &file, "--format", "json"], 0);
}

/// Two replicas of a Deployment share a ReadWriteOnce claim and land on two nodes: the second
/// gets the Multi-Attach error naming the pod that uses the volume on the first node
/// (`reportMultiAttachError`), and never runs.
#[test]
fn a_shared_read_write_once_claim_names_the_pod_that_holds_it() {
    let dir = TempDir::new("shared-rwo");
    let yaml = r#"- name: shared-rwo
  description: Two replicas share one ReadWriteOnce claim on two equal nodes.
  source: test
  cluster:
    nodes:
      - {name: node-1, allocatable: {cpuMilli: 4000, memoryMi: 8192}}
      - {name: node-2, allocatable: {cpuMilli: 4000, memoryMi: 8192}}
  persistentVolumeClaims:
    - {metadata: {name: shared}, spec: {accessModes: [ReadWriteOnce]}}
  workloads:
    - kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 2
        template:
          spec:
            containers:
              - name: app
                image: web:1.0
                resources: {requests: {cpuMilli: 500}}
            volumes:
              - name: data
                persistentVolumeClaim: {claimName: shared}
  expect:
    - {property: multi_attach_error_reported, verdict: holds, source: "test: the replicas land on two nodes"}
"#;
    let file = dir.write("shared.yaml", yaml);
    let o = run_expect(
        &[
            "trace",
            "shared-rwo",
            "--catalogue",
            &file,
            "--property",
            "multi_attach_error_reported",
        ],
        0,
    );
    let out = stdout(&o);
    assert!(
        out.contains(
            "Multi-Attach error for volume \"data\" Volume is already used by pod(s) web-"
        ),
        "{out}"
    );
}

// ---------------------------------------------------------------------------------------------
// The Kubernetes release

#[test]
fn kubernetes_version_is_reported_and_picks_the_release() {
    // Default: the newest release the model follows, in the table and in JSON.
    let o = run_expect(&["check", "prestop-single-replica"], 0);
    assert!(
        stdout(&o).contains("prestop-single-replica  (Kubernetes 1.35, "),
        "{}",
        stdout(&o)
    );
    let newest = run_json(&["check", "prestop-single-replica", "--format", "json"], 0);
    let s = scenario(&newest, "prestop-single-replica");
    assert_eq!(s["kubernetes_version"], "1.35");
    assert_eq!(
        property(s, "no_request_to_stopped_container")["verdict"],
        "violated"
    );
    // 1.25: before kube-proxy's terminating-endpoint fallback; the catalogue's expectation for
    // that release is met (exit 0), and the verdict is the other one.
    let old = run_json(
        &[
            "check",
            "prestop-single-replica",
            "--kubernetes-version",
            "1.25",
            "--format",
            "json",
        ],
        0,
    );
    let s = scenario(&old, "prestop-single-replica");
    assert_eq!(s["kubernetes_version"], "1.25");
    assert_eq!(
        property(s, "no_request_to_stopped_container")["verdict"],
        "holds"
    );
    assert_eq!(
        property(s, "deleted_pod_ends_succeeded")["verdict"],
        "violated"
    );
    let o = run_expect(
        &[
            "check",
            "prestop-single-replica",
            "--kubernetes-version",
            "v1.25",
        ],
        0,
    );
    assert!(stdout(&o).contains("(Kubernetes 1.25, "), "{}", stdout(&o));
    // Traces name the release too.
    let args = [
        "trace",
        "prestop-single-replica",
        "--property",
        "no_request_finds_no_endpoints",
        "--kubernetes-version",
        "1.25",
    ];
    let o = run_expect(&args, 0);
    assert!(stdout(&o).contains("(Kubernetes 1.25)"), "{}", stdout(&o));
    let o = run_expect(&[&args[..], &["--format", "json"]].concat(), 0);
    let t: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(t["kubernetes_version"], "1.25");
}

#[test]
fn bad_kubernetes_version_is_bad_input() {
    for bad in ["1.99", "1.21", "2.0", "1.33.1", "latest", ""] {
        assert_bad_input(
            &["check", "healthy", "--kubernetes-version", bad],
            &["--kubernetes-version"],
        );
    }
    assert_bad_input(
        &["check", "healthy", "--kubernetes-version", "1.36"],
        &["1.22", "1.35"],
    );
    assert_bad_input(
        &["trace", "healthy", "--kubernetes-version", "1.4"],
        &["--kubernetes-version"],
    );
}

#[test]
fn kubernetes_version_in_a_catalogue() {
    let dir = TempDir::new("kubernetes-version");
    let at = |v: &str| {
        MY_CRASH_YAML.replace(
            "  workloads:\n",
            &format!("  cluster:\n    kubernetesVersion: {v}\n    nodes: [{{name: node-1, allocatable: {{cpuMilli: 4000, memoryMi: 8192}}}}]\n  workloads:\n"),
        )
    };
    let file = dir.write("v130.yaml", &at("\"1.30\""));
    let r = run_json(&["check", "--catalogue", &file, "--format", "json"], 0);
    assert_eq!(scenario(&r, "my-crash")["kubernetes_version"], "1.30");
    // The flag replaces the scenario's release.
    let r = run_json(
        &[
            "check",
            "--catalogue",
            &file,
            "--kubernetes-version",
            "1.27",
            "--format",
            "json",
        ],
        0,
    );
    assert_eq!(scenario(&r, "my-crash")["kubernetes_version"], "1.27");
    let file = dir.write("v199.yaml", &at("\"1.99\""));
    assert_bad_input(
        &["check", "--catalogue", &file],
        &["cluster.kubernetesVersion", "1.99", "my-crash"],
    );
    assert_bad_input(
        &["list", "--catalogue", &file],
        &["cluster.kubernetesVersion"],
    );
}

#[test]
fn bad_deployment_strategies_are_bad_input() {
    let dir = TempDir::new("strategies");
    let with = |strategy: &str| {
        MY_CRASH_YAML.replace(
            "        replicas: 1\n",
            &format!("        replicas: 1\n        strategy: {strategy}\n"),
        )
    };
    for (name, strategy, needles) in [
        (
            "both-zero.yaml",
            "{type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}",
            vec![
                "spec.strategy.rollingUpdate.maxUnavailable",
                "Invalid value: 0: may not be 0 when `maxSurge` is 0",
            ],
        ),
        (
            "zero-percent.yaml",
            "{rollingUpdate: {maxSurge: \"0%\", maxUnavailable: 0}}",
            vec!["may not be 0 when `maxSurge` is 0"],
        ),
        (
            "bad-percent.yaml",
            "{rollingUpdate: {maxSurge: 20Percent}}",
            vec![
                "spec.strategy.rollingUpdate.maxSurge",
                "Invalid value: \"20Percent\": a valid percent string must be a numeric string followed by an ending '%'",
            ],
        ),
        (
            "negative.yaml",
            "{rollingUpdate: {maxUnavailable: -1}}",
            vec![
                "spec.strategy.rollingUpdate.maxUnavailable",
                "must be greater than or equal to 0",
            ],
        ),
        (
            "over-100.yaml",
            "{rollingUpdate: {maxUnavailable: \"110%\"}}",
            vec!["must not be greater than 100%"],
        ),
        (
            "recreate-rolling.yaml",
            "{type: Recreate, rollingUpdate: {maxSurge: 1}}",
            vec![
                "spec.strategy.rollingUpdate",
                "may not be specified when strategy `type` is 'Recreate'",
            ],
        ),
        (
            "unknown-type.yaml",
            "{type: BlueGreen}",
            vec!["BlueGreen"],
        ),
    ] {
        assert_bad_catalogue(&dir, name, &with(strategy), &needles);
    }
    let deadline = MY_CRASH_YAML.replace(
        "        replicas: 1\n",
        "        replicas: 1\n        minReadySeconds: 30\n        progressDeadlineSeconds: 30\n",
    );
    let file = dir.write("deadline.yaml", &deadline);
    assert_bad_input(
        &["check", "--catalogue", &file],
        &[
            "spec.progressDeadlineSeconds",
            "must be greater than minReadySeconds",
        ],
    );
    // A StatefulSet rolls out too; its updateStrategy is validated as the API server does.
    let sts = |strategy: &str| {
        MY_CRASH_YAML
            .replace("kind: Deployment", "kind: StatefulSet")
            .replace(
                "        replicas: 1\n",
                &format!("        replicas: 1\n        updateStrategy: {strategy}\n"),
            )
            .replace(
                "  expect:\n",
                "  faults:\n    - rolloutRestart: {workload: web}\n  expect:\n",
            )
    };
    for (strategy, want) in [
        (
            "{type: OnDelete, rollingUpdate: {partition: 1}}",
            "only allowed for updateStrategy 'RollingUpdate'",
        ),
        ("{rollingUpdate: {maxUnavailable: 0}}", "must not be 0"),
        (
            "{rollingUpdate: {maxUnavailable: \"200%\"}}",
            "must not be greater than 100%",
        ),
    ] {
        let file = dir.write("rollout-sts.yaml", &sts(strategy));
        assert_bad_input(
            &["check", "--catalogue", &file],
            &["spec.updateStrategy.rollingUpdate", want],
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Vacuity

#[test]
fn a_fault_that_never_happens_is_a_warning_and_strict_makes_it_an_error() {
    let dir = TempDir::new("vacuity");
    // Nothing it asks about can happen: the pod fits no node, so the delete of a Ready pod is
    // never enabled.
    let nothing_happens = common::yaml::pod_fitting_no_node("nothing-happens", None, "");
    let file = dir.write("nothing.yaml", &nothing_happens);
    let args = ["check", "--catalogue", file.as_str()];
    let o = run_expect(&args, 0);
    let err = stderr(&o);
    assert!(
        err.contains(
            "warning: nothing-happens: faults[0] (deletePod of workload web) never happened"
        ),
        "{}",
        describe(&args, &o)
    );
    let out = stdout(&o);
    assert!(
        out.contains("vacuous: no reachable state has a pod being deleted"),
        "{out}"
    );
    assert!(out.contains("; 1 warning"), "{out}");

    let strict = ["check", "--catalogue", file.as_str(), "--strict"];
    let o = run_expect(&strict, 1);
    assert!(
        stderr(&o).contains("error: nothing-happens: faults[0]"),
        "{}",
        describe(&strict, &o)
    );

    let json = ["check", "--catalogue", file.as_str(), "--format", "json"];
    let results = run_json(&json, 0);
    let w = &scenario(&results, "nothing-happens")["warnings"][0];
    assert_eq!(w["kind"], "fault_never_happened");
    assert_eq!(w["index"], 0);
    assert!(w["message"].as_str().unwrap().contains("never happened"));
    assert_eq!(
        property(
            scenario(&results, "nothing-happens"),
            "no_start_after_deletion"
        )["vacuous"],
        true
    );
}

/// A force delete of a pod whose program ignores SIGTERM: the object is gone at once, the
/// kubelet kills the containers as a pod being deleted and SIGKILLs them when the grace runs
/// out. `graceful_stop_within_grace` is violated with a trace, and neither the report, nor
/// its JSON, nor a warning on stderr calls it vacuous: with `--strict`, the run has no warning
/// at all.
#[test]
fn a_violated_property_is_never_called_vacuous() {
    let dir = TempDir::new("violated-not-vacuous");
    let name = "force-delete-sigterm-ignored";
    let file = dir.write(
        "force.yaml",
        &common::yaml::force_delete_ignoring_sigterm(name),
    );
    let args = ["check", "--catalogue", file.as_str(), name, "--strict"];
    let o = run_expect(&args, 0);
    let err = stderr(&o);
    assert!(!err.contains("vacuous"), "{}", describe(&args, &o));
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.contains("graceful_stop_within_grace"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("violated    expected violated"), "{line}");
    assert!(line.contains("trace "), "{line}");
    assert!(!line.contains("vacuous"), "{line}");
    assert!(out.contains("as expected, 0 not;"), "{out}");

    let json = [
        "check",
        "--catalogue",
        file.as_str(),
        name,
        "--format",
        "json",
    ];
    let results = run_json(&json, 0);
    let p = property(scenario(&results, name), "graceful_stop_within_grace");
    assert_eq!(p["verdict"], "violated");
    assert_eq!(p["vacuous"], false);
    assert_eq!(scenario(&results, name)["warnings"], serde_json::json!([]));
}

// ---------------------------------------------------------------------------------------------
// Bad input found by fuzzing the command line

/// Runs podcheck with `feed` written to its stdin over and over (until it stops reading), and
/// kills it if it has not ended within two minutes: an endless input must end the run, not
/// grow it for ever.
fn run_bounded(args: &[&str], feed: Option<&'static [u8]>) -> Output {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let mut child = command(args)
        .stdin(if feed.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    if let (Some(bytes), Some(mut stdin)) = (feed, child.stdin.take()) {
        std::thread::spawn(move || while stdin.write_all(bytes).is_ok() {});
    }
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("podcheck {} did not end within 120 s", args.join(" "));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

#[test]
fn endless_or_huge_input_is_bad_input() {
    let dir = TempDir::new("huge");
    // A file over the limit, read with -f and as a catalogue.
    let big = dir.write("big.yaml", &"a: b\n".repeat((16 << 20) / 5 + 1));
    for args in [
        vec!["check", "-f", big.as_str(), "--plan", "delete-pod"],
        vec!["check", "--catalogue", big.as_str()],
        vec!["check", "-f", "/dev/zero", "--plan", "delete-pod"],
    ] {
        let o = run_bounded(&args, None);
        let name = args[2];
        assert_eq!(o.status.code(), Some(2), "{}", describe(&args, &o));
        assert!(
            stderr(&o).contains(&format!("error: {name}: larger than 16 MiB")),
            "{}",
            describe(&args, &o)
        );
    }
    // stdin that never ends.
    let args = ["check", "-f", "-", "--plan", "delete-pod"];
    let o = run_bounded(&args, Some(b"a: b\n"));
    assert_eq!(o.status.code(), Some(2), "{}", describe(&args, &o));
    assert!(
        stderr(&o).contains("error: stdin (-f -): larger than 16 MiB"),
        "{}",
        describe(&args, &o)
    );
}

#[test]
fn a_scenario_named_twice_is_bad_input() {
    assert_bad_input(
        &["check", "healthy", "healthy"],
        &["scenario `healthy` is named twice"],
    );
    assert_bad_input(
        &["bench", "healthy", "healthy"],
        &["scenario `healthy` is named twice"],
    );
    // A size for a scenario not named is not a scenario added.
    assert_bad_input(
        &["bench", "healthy", "--size", "termination-race=2x2"],
        &[
            "--size termination-race=",
            "not among those named (healthy)",
        ],
    );
}

#[test]
fn a_misspelt_name_gets_the_closest_one_first() {
    for (given, closest) in [
        ("helthy", "healthy"),
        ("terminaton-race", "termination-race"),
        ("Healthy", "healthy"),
    ] {
        assert_bad_input(
            &["check", given],
            &[&format!(
                "unknown scenario `{given}` in the built-in catalogue (did you mean `{closest}`?); the scenarios are: healthy,"
            )],
        );
    }
    assert_bad_input(
        &[
            "trace",
            "termination-race",
            "--property",
            "no_request_to_stoped_container",
        ],
        &["property `no_request_to_stoped_container` (did you mean `no_request_to_stopped_container`?); it checks: "],
    );
    // Nothing close: the list alone.
    assert_bad_input(
        &["check", "zzzzzzzzzz"],
        &["unknown scenario `zzzzzzzzzz` in the built-in catalogue; the scenarios are: "],
    );
}

#[test]
fn verbose_goes_with_manifests() {
    assert_bad_input(
        &["check", "healthy", "--verbose"],
        &["--verbose goes with -f"],
    );
}

#[test]
fn json_with_traces_carries_each_trace() {
    let plain = run_json(&["check", "healthy", "--format", "json"], 0);
    let traced = run_json(&["check", "healthy", "--format", "json", "--traces"], 0);
    let props = |v: &[Value]| v[0]["properties"].as_array().unwrap().clone();
    let mut shown = 0;
    for (p, t) in props(&plain).iter().zip(props(&traced)) {
        assert!(p.get("trace").is_none(), "no trace without --traces: {p}");
        let name = p["name"].as_str().unwrap();
        if let Some(steps) = p["trace_steps"].as_u64() {
            // The trace's JSON, as `podcheck trace --format json` prints it.
            shown += 1;
            assert_eq!(t["trace"]["property"], name, "{t}");
            let n = t["trace"]["steps"].as_array().expect("steps").len() as u64;
            assert_eq!(n, steps, "{t}");
            assert_eq!(n, trace_json_steps("healthy", name), "{t}");
        }
    }
    assert!(shown > 0, "healthy has witnesses");
}

#[test]
fn replicas_that_size_nothing_are_said() {
    // No scenario checked has a Deployment or StatefulSet: an error.
    assert_bad_input(
        &["check", "job-never", "--replicas", "3"],
        &["--replicas 3", "job-never has none"],
    );
    assert_bad_input(
        &["trace", "job-never", "--replicas", "3"],
        &["--replicas 3", "job-never has none"],
    );
    // Some have: a warning naming those that have none.
    let args = [
        "check",
        "job-never",
        "healthy",
        "--replicas",
        "1",
        "--format",
        "json",
    ];
    let o = run_expect(&args, 0);
    assert!(
        stderr(&o).contains(
            "warning: --replicas 1 changes nothing in job-never: no Deployment or StatefulSet"
        ),
        "{}",
        describe(&args, &o)
    );
}

#[test]
fn trace_without_the_trace_asked_for_exits_3_when_stopped() {
    // The graph pass stops at once under a 1-byte bound; the exploration of healthy is done
    // by then, so a `step` property's `holds` is decided, and said to be so.
    let args = [
        "trace",
        "healthy",
        "--property",
        "terminal_phase_is_final",
        "--max-memory",
        "1",
    ];
    let o = run_expect(&args, 3);
    assert!(
        stdout(&o).contains("holds: no transition of a reachable state breaks it")
            && stdout(&o).contains("decided by the exploration, which was complete"),
        "{}",
        describe(&args, &o)
    );
    assert!(
        stderr(&o).contains("INCOMPLETE: stopped at --max-memory"),
        "{}",
        describe(&args, &o)
    );
    let args = [
        "trace",
        "healthy",
        "--property",
        "ready_pod_routed_within_proxy_lag",
        "--slowest",
        "--max-memory",
        "1",
    ];
    let o = run_expect(&args, 3);
    assert!(
        stdout(&o).contains("no slowest run: the worst case is incomplete"),
        "{}",
        describe(&args, &o)
    );
    assert!(!stdout(&o).contains("holds"), "{}", describe(&args, &o));
}

#[test]
fn numbers_out_of_range_are_said_in_words() {
    for (flag, value, says) in [
        (
            "--max-states",
            "0",
            "must be a whole number, at least 1, not 0",
        ),
        (
            "--max-states",
            "12x",
            "must be a whole number, at least 1, not `12x`",
        ),
        (
            "--max-states",
            "99999999999999999999999",
            "99999999999999999999999 is too large",
        ),
        (
            "--threads",
            "65",
            "must be a whole number from 1 to 64; 65 is too large",
        ),
        ("--jobs", "0", "must be a whole number from 1 to 64, not 0"),
        (
            "--nodes",
            "6",
            "must be a whole number from 1 to 5; 6 is too large",
        ),
        (
            "--replicas",
            "0",
            "must be a whole number from 1 to 5, not 0",
        ),
    ] {
        let o = run_expect(&["check", "healthy", flag, value], 2);
        let err = stderr(&o);
        assert!(
            err.contains(flag) && err.contains(says),
            "{flag} {value}: {err}"
        );
        assert!(
            !err.contains(" is not in ") && !err.contains("invalid digit"),
            "{flag} {value}: {err}"
        );
    }
    for (flag, value, says) in [
        ("--walks", "0", "must be a whole number, at least 1, not 0"),
        (
            "--depth",
            "1000001",
            "from 1 to 1000000; 1000001 is too large",
        ),
        ("--depth", "x", "from 1 to 1000000, not `x`"),
    ] {
        let o = run_expect(&["check", "healthy", "--simulate", flag, value], 2);
        let err = stderr(&o);
        assert!(
            err.contains(flag) && err.contains(says),
            "{flag} {value}: {err}"
        );
    }
    for (flag, value, says) in [
        ("--repeat", "10", "from 1 to 9; 10 is too large"),
        ("--timeout", "0", "from 1 to 86400, not 0"),
        ("--threads", "0", "from 1 to 64, not 0"),
    ] {
        let o = run_expect(&["bench", "healthy", flag, value], 2);
        let err = stderr(&o);
        assert!(
            err.contains(flag) && err.contains(says),
            "{flag} {value}: {err}"
        );
    }
    // A fraction of a byte is no memory bound.
    for value in ["1.5", "0.4", "2.5B"] {
        let o = run_expect(&["check", "healthy", "--max-memory", value], 2);
        assert!(
            stderr(&o).contains(&format!("`{value}` is a fraction of a byte")),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn write_readme_with_two_marker_pairs_is_bad_input() {
    let dir = TempDir::new("two-pairs");
    let text = "a\n<!-- bench:begin -->\nold\n<!-- bench:end -->\nb\n<!-- bench:begin -->\nold\n<!-- bench:end -->\n";
    let readme = dir.write("README.md", text);
    assert_bad_input(
        &["bench", "healthy", "--write-readme", &readme],
        &["line 6 has a second `<!-- bench:begin -->`"],
    );
    assert_eq!(std::fs::read_to_string(&readme).unwrap(), text);
}

#[test]
fn the_memory_bound_is_echoed_exactly() {
    // A bound below a MiB is said in KiB or bytes, not rounded to `0 MiB`.
    for (value, said) in [
        ("1", "--max-memory 1 byte"),
        ("1K", "--max-memory 1 KiB"),
        ("1.5K", "--max-memory 1536 bytes"),
        ("1025K", "--max-memory 1025 KiB"),
    ] {
        let mut args = BIG.to_vec();
        args.extend(["--max-memory", value]);
        let o = run_expect(&args, 3);
        let err = stderr(&o);
        assert!(
            err.contains(&format!("the memory bound was reached ({said}")),
            "{}",
            describe(&args, &o)
        );
    }
}

/// Without --max-memory a check has a memory bound, half of the machine's memory, and says
/// it in its JSON as it says a bound given.
#[test]
fn the_memory_bound_is_said_given_or_not() {
    let bounds = |extra: &[&str]| {
        let mut args = vec!["check", "healthy", "--format", "json"];
        args.extend(extra);
        run_json(&args, 0)[0]["bounds"].clone()
    };
    let default = bounds(&[]);
    assert_eq!(default["max_memory_default"], true, "{default}");
    let bytes = default["max_memory_bytes"].as_u64().expect("a bound");
    assert!(bytes > 0 && bytes % (1 << 20) == 0, "{default}");
    assert!(default["budget_seconds"].is_null(), "{default}");
    let given = bounds(&["--max-memory", "3G", "--budget", "100"]);
    assert_eq!(given["max_memory_default"], false, "{given}");
    assert_eq!(given["max_memory_bytes"], 3u64 << 30, "{given}");
    assert_eq!(given["budget_seconds"], 100, "{given}");
    let o = run_expect(&["check", "healthy", "--max-memory", "3G"], 0);
    assert_eq!(
        stdout(&o).lines().next(),
        Some("bounds: --max-memory 3072 MiB, --budget none"),
        "{}",
        stdout(&o)
    );
}

/// A Deployment of two replicas behind a Service, without preStop: its drain plan takes
/// millions of states, its delete-pod plan a few thousand.
const TWO_REPLICAS: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
        readinessProbe:
          httpGet: {path: /, port: 80}
          periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
";

/// Four replicas behind a Service: two on each default node, so that a drain evicts two side
/// by side and its check runs for well over the few seconds these tests give it (its whole
/// state space is millions of states; two replicas, one per node, take milliseconds).
fn four_replicas() -> String {
    TWO_REPLICAS.replace("replicas: 2", "replicas: 4")
}

/// A plan scenario that reaches its time budget stops, is reported incomplete at `budget`
/// with what its exploration decided, and the check goes on with the next one.
#[test]
fn a_scenario_past_its_budget_stops_and_the_check_goes_on() {
    let dir = TempDir::new("budget");
    let app = dir.write("app.yaml", &four_replicas());
    // Drain named first: the cheaper crash is checked (and reported) first all the same. The
    // crash plan is some 14 thousand states (hundredths of a second) and the drain millions
    // (tens of seconds), so the 1 s budget is far from both on a machine however busy.
    let args = [
        "check",
        "-f",
        &app,
        "--plan",
        "drain,crash",
        "--budget",
        "1",
        "--format",
        "json",
    ];
    // Findings (what the drain found before its budget): exit 1.
    let o = run_expect(&args, 1);
    let report: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(report["bounds"]["budget_seconds"], 1, "{report}");
    let scenarios = report["scenarios"].as_array().unwrap();
    let plans: Vec<&str> = scenarios
        .iter()
        .map(|s| s["plan"].as_str().unwrap())
        .collect();
    assert_eq!(plans, ["crash", "drain"], "{report}");
    assert_eq!(scenarios[0]["complete"], true, "{report}");
    let drain = &scenarios[1];
    assert_eq!(drain["complete"], false, "{drain}");
    assert_eq!(drain["stopped"]["bound"], "budget", "{drain}");
    assert_eq!(drain["stopped"]["phase"], "exploring", "{drain}");
    // What the search decided stands: a violated `step` property stays violated.
    let props = drain["properties"].as_array().unwrap();
    assert!(
        props.iter().any(|p| p["verdict"] == "incomplete"),
        "{drain}"
    );
    for p in props {
        assert_sound_when_stopped(p["kind"].as_str().unwrap(), p["verdict"].as_str().unwrap());
    }
    let err = stderr(&o);
    assert_eq!(
        err.matches("the time budget was reached (--budget 1 s): stopped in phase exploring")
            .count(),
        1,
        "{err}"
    );
    // The table says it in the scenario's heading. What the search found stands: the drain's
    // own finding (exit 1).
    let o = run_expect(
        &["check", "-f", &app, "--plan", "drain", "--budget", "1"],
        1,
    );
    let out = stdout(&o);
    let heading = out.lines().next().unwrap_or("");
    assert!(
        heading.starts_with("bounds: --max-memory ")
            && heading.ends_with(", --budget 1 s per scenario"),
        "{out}"
    );
    assert!(
        out.contains("INCOMPLETE: stopped at --budget in phase exploring at "),
        "{out}"
    );
    assert!(out.trim_end().ends_with("; 1 incomplete"), "{out}");
    assert!(out.contains("\nfinding: "), "{out}");
}

/// `trace -f` and `explore -f` search under the bounds `check -f` has: half the machine's
/// memory and 60 s by default, `--max-memory` and `--budget` to change them.
#[test]
fn trace_from_manifests_stops_at_its_budget() {
    let dir = TempDir::new("trace-budget");
    let app = dir.write("app.yaml", &four_replicas());
    let o = run_expect(
        &["trace", "-f", &app, "--plan", "drain", "--budget", "1"],
        3,
    );
    let err = stderr(&o);
    assert!(
        err.contains("bounds: --max-memory ") && err.contains(", --budget 1 s per scenario"),
        "{err}"
    );
    assert!(
        err.contains("the time budget was reached (--budget 1 s): stopped in phase exploring"),
        "{err}"
    );
    // The default, said the same way.
    let o = run_expect(&["trace", "-f", &app, "--plan", "delete-pod"], 0);
    let err = stderr(&o);
    assert!(
        err.contains("(half of this machine's memory), --budget 60 s per scenario"),
        "{err}"
    );
    for bad in ["0", "soon"] {
        assert_bad_input(&["trace", "-f", &app, "--budget", bad], &["--budget"]);
        assert_bad_input(&["explore", "-f", &app, "--budget", bad], &["--budget"]);
    }
}

/// SIGTERM (a CI job's timeout) and SIGHUP do what Ctrl-C does: the report so far is printed,
/// the scenario under way incomplete and the rest not started, and the run exits as an
/// interrupted one does.
#[test]
fn sigterm_and_sighup_print_the_report_so_far() {
    use nix::sys::signal::Signal;
    let dir = TempDir::new("sigterm");
    // Two applications: the first's drain is under way when the signal comes, the second's
    // plans are not started.
    let a = dir.write("a/app.yaml", &four_replicas());
    let b = dir.write("b/app.yaml", &four_replicas());
    let (a, b) = (
        a.trim_end_matches("/app.yaml").to_string(),
        b.trim_end_matches("/app.yaml").to_string(),
    );
    for signal in [Signal::SIGTERM, Signal::SIGHUP] {
        let args = [
            "check",
            "-f",
            &a,
            "-f",
            &b,
            "--plan",
            "delete-pod,drain",
            "--budget",
            "none",
            "--jobs",
            "1",
        ];
        // The signal comes once the first application's drain (millions of states, tens of
        // seconds) reports its progress, so its delete-pod is done (the progress line says
        // "scenario 2 of 4"): no guess of how long either takes.
        let (o, _) = signalled_once(&args, &format!("{a}: drain web: exploring: "), signal);
        let what = format!("{signal}: {}", describe(&args, &o));
        // delete-pod has a finding: exit 1, as after Ctrl-C.
        assert_eq!(o.status.code(), Some(1), "{what}");
        let out = stdout(&o);
        let heading = |plan: &str, app: &str| {
            out.lines()
                .find(|l| l.starts_with(&format!("{app}: {plan} web  (")))
                .unwrap_or_else(|| panic!("no {plan} of {app}: {what}"))
                .to_string()
        };
        assert!(heading("delete-pod", &a).ends_with(", complete)"), "{what}");
        // The report names the signal.
        let by = signal.as_str();
        assert!(
            heading("drain", &a).contains(&format!(
                "INCOMPLETE: interrupted ({by}) in phase exploring at "
            )),
            "{what}"
        );
        for plan in ["delete-pod", "drain"] {
            assert!(
                heading(plan, &b).contains(&format!(
                    "INCOMPLETE: not checked, interrupted ({by}) before it started"
                )),
                "{what}"
            );
        }
        assert!(
            out.trim_end()
                .lines()
                .last()
                .is_some_and(|l| l.starts_with("2 applications, 4 plan scenarios: ")
                    && l.ends_with("; 3 incomplete")),
            "{what}"
        );
        assert!(!stderr(&o).contains("panicked"), "{what}");
    }
}

/// With -f, --simulate walks each plan scenario that stopped at a bound: what the walks find
/// is a real finding with its trace, and what they do not find stays incomplete (an `always`
/// never holds by walks).
#[test]
fn simulate_with_manifests_walks_the_scenarios_stopped_at_a_bound() {
    let dir = TempDir::new("walks");
    let app = dir.write("app.yaml", TWO_REPLICAS);
    let args = [
        "check",
        "-f",
        &app,
        "--plan",
        "delete-pod,drain",
        "--max-states",
        "5",
        "--simulate",
        "--walks",
        "300",
        "--depth",
        "60",
        "--format",
        "json",
    ];
    let o = run_expect(&args, 1);
    let report: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let scenarios = report["scenarios"].as_array().unwrap();
    for s in scenarios {
        assert_eq!(s["complete"], false, "{s}");
        let walked = &s["walked"];
        assert_eq!(walked["walks"], 300, "{s}");
        assert_eq!(walked["depth"], 60, "{s}");
        assert_eq!(walked["seed"], 0, "{s}");
        let decided: Vec<&str> = walked["decided"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap())
            .collect();
        for p in s["properties"].as_array().unwrap() {
            let (name, kind, verdict) = (
                p["name"].as_str().unwrap(),
                p["kind"].as_str().unwrap(),
                p["verdict"].as_str().unwrap(),
            );
            assert_sound_when_stopped(kind, verdict);
            if decided.contains(&name) {
                assert!(p["trace_steps"].as_u64().is_some_and(|n| n > 0), "{p}");
            }
        }
    }
    let drain = &scenarios[1];
    assert_eq!(drain["plan"], "drain", "{drain}");
    // Five states hold no request to a stopped container; the walks find one.
    assert!(
        drain["walked"]["decided"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d == "no_request_to_stopped_container"),
        "{drain}"
    );
    assert!(
        drain["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["property"] == "no_request_to_stopped_container"),
        "{drain}"
    );
    // A scenario that completes is not walked.
    let args = [
        "check",
        "-f",
        &app,
        "--plan",
        "delete-pod",
        "--simulate",
        "--format",
        "json",
    ];
    let report: Value = serde_json::from_str(&stdout(&run_expect(&args, 1))).expect("JSON");
    assert!(report["scenarios"][0].get("walked").is_none(), "{report}");
    // The table says it.
    let args = [
        "check",
        "-f",
        &app,
        "--plan",
        "drain",
        "--max-states",
        "5",
        "--simulate",
        "--walks",
        "300",
        "--depth",
        "60",
    ];
    let out = stdout(&run_expect(&args, 1));
    assert!(
        out.contains("\n  walked: 300 walks, depth 60 (seed 0), "),
        "{out}"
    );
    // A swarm's shards are no flags of -f.
    assert_bad_input(
        &["check", "-f", &app, "--simulate", "--shard", "0/2"],
        &["--shard", "-f"],
    );
}

#[test]
fn a_bad_budget_is_bad_input() {
    for bad in ["0", "x", "1.5", "", "99999999999999999999"] {
        assert_bad_input(&["check", "healthy", "--budget", bad], &["--budget"]);
    }
    // `none` is no limit, and so is the catalogue's default.
    run_expect(&["check", "healthy", "--budget", "none"], 0);
    run_expect(&["check", "healthy", "--budget", "600"], 0);
}

/// A run whose search went through every state and then stopped in a later phase says so:
/// the verdicts the search decided stand, what the phase left is `incomplete`, exit 3.
#[test]
fn a_stop_after_the_exploration_says_which_verdicts_stand() {
    let args = ["check", "healthy", "--max-memory", "1"];
    let o = run_expect(&args, 3);
    let out = stdout(&o);
    assert!(
        out.contains("INCOMPLETE: stopped at --max-memory in phase graph")
            && out.contains("the exploration was complete: its holds and violated stand, the rest is incomplete"),
        "{}",
        describe(&args, &o)
    );
    assert!(
        out.lines()
            .any(|l| l.contains("ready_leads_to_endpoint") && l.contains("incomplete")),
        "{}",
        describe(&args, &o)
    );
}

/// `--no-cone` is a flag of manifests: without -f it is bad input, not silently ignored.
#[test]
fn no_cone_needs_manifests() {
    for cmd in ["check", "trace", "explore"] {
        assert_bad_input(&[cmd, "healthy", "--no-cone"], &["--filename"]);
    }
}

/// A field the manifests give that the release of `--kubernetes-version` does not have (its
/// API server drops it) is bad input at the field's file and line, before any report.
#[test]
fn a_field_the_release_drops_is_bad_input_at_its_line() {
    let dir = TempDir::new("release-drops");
    let sts = dir.write(
        "db.yaml",
        "apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  minReadySeconds: 10
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres}]
",
    );
    assert_bad_input(
        &["check", "-f", &sts, "--kubernetes-version", "1.22"],
        &[
            &format!("{sts}:6:3: StatefulSet/db: spec.minReadySeconds:"),
            "needs Kubernetes 1.23",
            "follows 1.22",
        ],
    );
    // `podcheck fix` reads the manifests the same way and says the same.
    assert_bad_input(
        &["fix", "-f", &sts, "--kubernetes-version", "1.22"],
        &[&format!("{sts}:6:3: StatefulSet/db: spec.minReadySeconds:")],
    );
    // From 1.23 the StatefulSet controller reads it: no note of a field not read.
    let o = run_expect(
        &[
            "check",
            "-f",
            &sts,
            "--kubernetes-version",
            "1.23",
            "--plan",
            "crash",
        ],
        0,
    );
    assert!(!stderr(&o).contains("not read"), "{}", stderr(&o));
    let side = dir.write(
        "web.yaml",
        "apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      initContainers:
      - name: log
        image: log
        restartPolicy: Always
      containers: [{name: web, image: web}]
",
    );
    assert_bad_input(
        &["check", "-f", &side, "--kubernetes-version", "1.28"],
        &[
            &format!(
                "{side}:12:9: Deployment/web: spec.template.spec.initContainers[0].restartPolicy:"
            ),
            "needs Kubernetes 1.29",
        ],
    );
}
