//! `podcheck bench -f`: each plan scenario of your manifests measured in a process of its own.
//! No assertion here is on a time.

mod common;

use common::bin::{describe, podcheck_with_stdin, run_expect, stderr, stdout};
use common::dir::TempDir;
use serde_json::Value;

/// Two single-replica Deployments: the crash plan makes one scenario of each.
const TWO_DEPLOYMENTS: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {podcheck.dev/boot-seconds: "1"}
    spec:
      terminationGracePeriodSeconds: 5
      containers:
      - name: app
        image: web:1
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template:
    metadata:
      labels: {app: api}
      annotations: {podcheck.dev/boot-seconds: "1"}
    spec:
      terminationGracePeriodSeconds: 5
      containers:
      - name: app
        image: api:1
"#;

/// The plan scenarios `check -f ARGS --format json` checks, by name.
fn checked_scenarios(args: &[&str]) -> Vec<String> {
    let mut full = vec!["check"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--format", "json"]);
    let o = run_expect(&full, 0);
    let v: Value = serde_json::from_slice(&o.stdout).expect("check -f prints JSON");
    v["scenarios"]
        .as_array()
        .expect("a list of scenarios")
        .iter()
        .map(|s| s["scenario"].as_str().expect("a name").to_string())
        .collect()
}

fn bench_json(args: &[&str]) -> Vec<Value> {
    let o = run_expect(args, 0);
    match serde_json::from_slice::<Value>(&o.stdout) {
        Ok(Value::Array(a)) => a,
        other => panic!("not a JSON array: {other:?}\n{}", describe(args, &o)),
    }
}

#[test]
fn bench_f_measures_every_plan_scenario_of_the_manifests() {
    let dir = TempDir::new("bench-f");
    let app = dir.write("app/deployments.yaml", TWO_DEPLOYMENTS);
    let folder = dir.join("app").display().to_string();
    let expected = checked_scenarios(&["-f", &folder, "--plan", "crash"]);
    assert_eq!(expected.len(), 2, "{expected:?}");

    // The table: a row per plan scenario, with states found, then a line per application.
    let args = [
        "bench",
        "-f",
        &folder,
        "--plan",
        "crash",
        "--max-memory",
        "3G",
    ];
    let o = run_expect(&args, 0);
    let out = stdout(&o);
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with(&format!("| {folder} | crash ")))
        .collect();
    assert_eq!(rows.len(), expected.len(), "{}", describe(&args, &o));
    for (row, name) in rows.iter().zip(&expected) {
        let cells: Vec<&str> = row.split(" | ").map(str::trim).collect();
        assert!(name.ends_with(cells[1]), "{row} is not {name}");
        let states: u64 = cells[2]
            .trim_end_matches(" ‡")
            .parse()
            .unwrap_or_else(|_| panic!("no count of states in {row}"));
        assert!(states > 0, "{row}");
        assert_eq!(cells[5], "complete", "{row}");
    }
    assert!(
        out.contains(&format!("| {folder} | 2 | 2 | ")),
        "no summary line of the application:\n{out}"
    );
    assert!(
        stderr(&o).contains("bench: plan scenario 2 of 2: "),
        "{}",
        describe(&args, &o)
    );

    // JSON: the same scenarios, each with its counts, its peak and its result.
    let runs = bench_json(&["bench", "-f", &app, "--plan", "crash", "--format", "json"]);
    assert_eq!(runs.len(), 2, "{runs:?}");
    for r in &runs {
        assert_eq!(r["plan"], "crash", "{r}");
        assert_eq!(r["result"], "complete", "{r}");
        assert_eq!(r["complete"], true, "{r}");
        assert!(r["unique_states"].as_u64().is_some_and(|n| n > 0), "{r}");
        assert!(r["peak_rss_kib"].as_u64().is_some_and(|n| n > 0), "{r}");
        assert!(r["findings"].as_u64().is_some(), "{r}");
    }

    // Stdin, given again to each scenario's process.
    let args = ["bench", "-f", "-", "--plan", "crash", "--format", "json"];
    let o = podcheck_with_stdin(&args, TWO_DEPLOYMENTS.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", describe(&args, &o));
    let runs: Vec<Value> = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(runs.len(), 2, "{}", describe(&args, &o));
    assert!(runs.iter().all(|r| r["result"] == "complete"), "{runs:?}");
}

#[test]
fn bench_f_reports_a_run_stopped_at_a_bound_as_incomplete() {
    let dir = TempDir::new("bench-f-bound");
    let app = dir.write("deployments.yaml", TWO_DEPLOYMENTS);
    let runs = bench_json(&[
        "bench",
        "-f",
        &app,
        "--plan",
        "crash",
        "--max-states",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(runs.len(), 2, "{runs:?}");
    for r in &runs {
        assert_eq!(r["result"], "bound", "{r}");
        assert_eq!(r["complete"], false, "{r}");
        assert_eq!(r["stopped"]["bound"], "max-states", "{r}");
    }
    let args = ["bench", "-f", &app, "--plan", "crash", "--max-states", "3"];
    let out = stdout(&run_expect(&args, 0));
    assert!(out.contains("| ≥ "), "{out}");
    assert!(out.contains("stopped at --max-states"), "{out}");
}

#[test]
fn bench_f_writes_the_applications_table_between_its_markers() {
    let dir = TempDir::new("bench-f-readme");
    let app = dir.write("deployments.yaml", TWO_DEPLOYMENTS);
    let page = dir.write(
        "perf.md",
        "# perf\n<!-- bench:begin -->\ncatalogue\n<!-- bench:end -->\n<!-- bench-apps:begin -->\nold\n<!-- bench-apps:end -->\nafter\n",
    );
    run_expect(
        &[
            "bench",
            "-f",
            &app,
            "--plan",
            "crash",
            "--write-readme",
            &page,
        ],
        0,
    );
    let text = std::fs::read_to_string(&page).expect("the page");
    assert!(
        text.starts_with("# perf\n<!-- bench:begin -->\ncatalogue\n<!-- bench:end -->\n<!-- bench-apps:begin -->\nMeasured with `podcheck bench -f "),
        "{text}"
    );
    assert!(!text.contains("old"), "{text}");
    assert!(text.contains("| application | plan scenario |"), "{text}");
    assert!(text.ends_with("<!-- bench-apps:end -->\nafter\n"), "{text}");

    // A page without the markers: an error before anything runs.
    let plain = dir.write("plain.md", "# nothing to write between\n");
    let args = ["bench", "-f", &app, "--write-readme", &plain];
    let o = run_expect(&args, 2);
    assert!(
        stderr(&o).contains("<!-- bench-apps:begin -->"),
        "{}",
        describe(&args, &o)
    );
}

#[test]
fn bench_f_refuses_bad_input_with_exit_2() {
    let dir = TempDir::new("bench-f-bad");
    let app = dir.write("deployments.yaml", TWO_DEPLOYMENTS);
    let missing = dir.join("no-such-folder").display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["bench", "-f", &missing], "no-such-folder"),
        (
            vec!["bench", "-f", &app, "--plan", "dependency-outage"],
            "--plan dependency-outage applies to nothing",
        ),
        (vec!["bench", "-f", &app, "--plan", "crsh"], "crash"),
        (vec!["bench", "-f", &app, "--budget", "0"], "--budget"),
        (vec!["bench", "-f", &app, "--budget", "soon"], "none"),
        (vec!["bench", "--budget", "10"], "--filename"),
        (vec!["bench", "healthy", "-f", &app], "--filename"),
        (vec!["bench", "healthy", "--format", "json"], "goes with -f"),
    ];
    for (args, needle) in cases {
        let o = run_expect(&args, 2);
        assert!(o.stdout.is_empty(), "{}", describe(&args, &o));
        assert!(stderr(&o).contains(needle), "{}", describe(&args, &o));
    }
}
