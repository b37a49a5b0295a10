//! `docs/linters.md` stays true: each row of its tables headed `| linters |` names a manifest
//! of `tests/fixtures/linters/`, a plan and what `podcheck check -f` reports under it (each
//! finding's property and the workload it is about, or `none`). This test reads those rows
//! from the page, runs the built binary on each (`check -f FILE --plan PLAN --format json`) and
//! compares the findings of the JSON report with the row, so that the page and the checks
//! cannot drift apart. Every manifest of the folder is named by a row, and the parsing and the
//! comparison are each run on a row made to be wrong, so that they are seen to fail.

mod common;

use common::bin::{describe, podcheck};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> PathBuf {
    root().join("tests/fixtures/linters")
}

fn page() -> String {
    let path = root().join("docs/linters.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One finding as the page and the report name it: the property and the workload it is about.
type Finding = (String, String);

/// One row of the page's tables: its line, the manifest (a file of `tests/fixtures/linters/`),
/// the plan, and the findings the page says podcheck reports.
#[derive(Debug, PartialEq)]
struct Row {
    line: usize,
    manifest: String,
    plan: String,
    findings: BTreeSet<Finding>,
}

/// The backticked spans of a table cell.
fn spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// The rows of every table of `page` headed `| linters | manifest | plan | podcheck reports |`
/// (outside fenced code blocks), or what is wrong with one.
fn rows(page: &str) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    let mut fenced = false;
    let mut in_table = false;
    for (i, line) in page.lines().enumerate() {
        let line_no = i + 1;
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let Some(row) = line.strip_prefix('|').filter(|_| !fenced) else {
            in_table = false;
            continue;
        };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        if !in_table {
            in_table =
                cells[..cells.len().min(4)] == ["linters", "manifest", "plan", "podcheck reports"];
            continue;
        }
        if cells[0].starts_with("---") {
            continue;
        }
        if cells.len() < 4 {
            return Err(format!("line {line_no}: fewer than four cells"));
        }
        let manifest = match spans(cells[1]).as_slice() {
            [m] if m.ends_with(".yaml") && !m.contains('/') => m.clone(),
            other => {
                return Err(format!(
                    "line {line_no}: the manifest cell must name one file of tests/fixtures/linters/ in backticks, not {other:?}"
                ))
            }
        };
        if !cells[1].contains(&format!("(../tests/fixtures/linters/{manifest})")) {
            return Err(format!(
                "line {line_no}: the manifest cell must link to ../tests/fixtures/linters/{manifest}"
            ));
        }
        let plan = match spans(cells[2]).as_slice() {
            [p] => p.clone(),
            other => {
                return Err(format!(
                    "line {line_no}: the plan cell must name one plan in backticks, not {other:?}"
                ))
            }
        };
        let reported = spans(cells[3]);
        let findings: BTreeSet<Finding> = reported
            .chunks(2)
            .map(|c| (c[0].clone(), c.get(1).cloned().unwrap_or_default()))
            .collect();
        let none = cells[3].split(['(', '—', ':']).next().unwrap_or("").trim() == "none";
        if none != reported.is_empty() || reported.len() % 2 == 1 {
            return Err(format!(
                "line {line_no}: the findings cell must begin with `none`, or name each finding as `property` on `workload`: {}",
                cells[3]
            ));
        }
        out.push(Row {
            line: line_no,
            manifest,
            plan,
            findings,
        });
    }
    Ok(out)
}

/// Every finding of a `check -f --format json` report, wherever it is in the report: each
/// object with a `property` and a `workload` (the findings of each scenario, and of any merged
/// list), but not what Kubernetes does whatever the manifests say.
fn findings(report: &Value) -> BTreeSet<Finding> {
    fn walk(v: &Value, out: &mut BTreeSet<Finding>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(o) => {
                if let (Some(Value::String(p)), Some(Value::String(w))) =
                    (o.get("property"), o.get("workload"))
                {
                    out.insert((p.clone(), w.clone()));
                }
                for (k, x) in o {
                    if !k.starts_with("kubernetes_behaviour") && k != "properties" {
                        walk(x, out);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(report, &mut out);
    out
}

/// What is wrong with a report against its row: no scenario of the row's plan checked, one
/// that stopped at a bound, or findings other than the row's.
fn mismatch(row: &Row, report: &Value) -> Option<String> {
    let scenarios = report["scenarios"].as_array().cloned().unwrap_or_default();
    let of_plan = scenarios
        .iter()
        .filter(|s| s["plan"] == row.plan.as_str())
        .count();
    if of_plan == 0 {
        return Some(format!("no scenario of plan {} was checked", row.plan));
    }
    if let Some(s) = scenarios.iter().find(|s| s["complete"] != true) {
        return Some(format!("{} is not complete", s["scenario"]));
    }
    let got = findings(report);
    (got != row.findings).then(|| {
        format!(
            "the page says {:?}, podcheck reports {:?}",
            row.findings, got
        )
    })
}

fn run(row: &Row) -> Value {
    let file = fixtures().join(&row.manifest);
    let file = file.to_str().expect("a UTF-8 path");
    let args = ["check", "-f", file, "--plan", &row.plan, "--format", "json"];
    let o = podcheck(&args);
    assert!(
        matches!(o.status.code(), Some(0 | 1))
            && !String::from_utf8_lossy(&o.stderr).contains("panicked"),
        "{}",
        describe(&args, &o)
    );
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON: {e}\n{}", describe(&args, &o)))
}

#[test]
fn every_row_of_the_page_is_what_podcheck_reports() {
    let rows = rows(&page()).unwrap_or_else(|e| panic!("docs/linters.md: {e}"));
    assert!(rows.len() >= 20, "only {} rows found", rows.len());
    assert!(
        rows.iter().any(|r| r.findings.is_empty()) && rows.iter().any(|r| !r.findings.is_empty()),
        "the page should have rows with findings and rows without"
    );
    let mut wrong = Vec::new();
    for row in &rows {
        if let Some(m) = mismatch(row, &run(row)) {
            wrong.push(format!(
                "docs/linters.md:{}: {} under {}: {m}",
                row.line, row.manifest, row.plan
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_manifest_of_the_folder_is_on_the_page() {
    let named: BTreeSet<String> = rows(&page())
        .expect("the page parses")
        .into_iter()
        .map(|r| r.manifest)
        .collect();
    let files: BTreeSet<String> = std::fs::read_dir(fixtures())
        .expect("tests/fixtures/linters/")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        named, files,
        "the rows name exactly the manifests of tests/fixtures/linters/"
    );
}

/// The model's scheduler does not run pod anti-affinity: the page says so, with a warning,
/// and the warning is there.
#[test]
fn anti_affinity_is_a_warning() {
    let file = fixtures().join("anti-affinity.yaml");
    let file = file.to_str().expect("a UTF-8 path");
    let args = [
        "check",
        "-f",
        file,
        "--plan",
        "power-off",
        "--format",
        "json",
    ];
    let o = podcheck(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("podAntiAffinity") && err.contains("does not run pod anti-affinity"),
        "{}",
        describe(&args, &o)
    );
}

#[test]
fn the_page_check_fails_on_a_wrong_row() {
    let header = "| linters | manifest | plan | podcheck reports |\n|---|---|---|---|\n";
    let good = format!(
        "{header}| kube-linter `x` | [`web.yaml`](../tests/fixtures/linters/web.yaml) | `drain` | \
         `no_request_finds_no_endpoints` on `web`, `drain_completes` on `web` |\n\
         | Polaris `y` | [`pdb.yaml`](../tests/fixtures/linters/pdb.yaml) | `drain` | none: why |\n\n\
         | other | table |\n|---|---|\n| `a` | `b` |\n"
    );
    let parsed = rows(&good).expect("parses");
    assert_eq!(parsed.len(), 2, "{parsed:?}");
    assert_eq!(parsed[0].manifest, "web.yaml");
    assert_eq!(parsed[0].plan, "drain");
    assert_eq!(parsed[0].line, 3);
    assert_eq!(
        parsed[0].findings,
        BTreeSet::from([
            ("drain_completes".to_string(), "web".to_string()),
            (
                "no_request_finds_no_endpoints".to_string(),
                "web".to_string()
            ),
        ])
    );
    assert!(parsed[1].findings.is_empty());
    for (bad, says) in [
        ("| a | `web.yaml` | `drain` | none |", "must link"),
        (
            "| a | [`web.yaml`](../tests/fixtures/linters/web.yaml) | drain | none |",
            "one plan",
        ),
        (
            "| a | [`web.yaml`](../tests/fixtures/linters/web.yaml) | `drain` | `p` |",
            "`property` on `workload`",
        ),
        (
            "| a | [`web.yaml`](../tests/fixtures/linters/web.yaml) | `drain` | nothing |",
            "begin with `none`",
        ),
    ] {
        let e = rows(&format!("{header}{bad}\n")).expect_err(bad);
        assert!(e.contains(says), "{bad}: {e}");
    }

    // A report with a finding the row does not name, and one of another plan.
    let report: Value = serde_json::json!({
        "scenarios": [{
            "plan": "drain", "complete": true,
            "findings": [{"property": "drain_completes", "workload": "web"}],
            "kubernetes_behaviour": [{"property": "deployment_at_most_replicas_running", "workload": "web"}]
        }]
    });
    assert_eq!(
        findings(&report),
        BTreeSet::from([("drain_completes".to_string(), "web".to_string())])
    );
    assert!(mismatch(&parsed[0], &report).is_some_and(|m| m.contains("the page says")));
    assert!(mismatch(&parsed[1], &report).is_some_and(|m| m.contains("the page says")));
    let other_plan =
        serde_json::json!({"scenarios": [{"plan": "rollout", "complete": true, "findings": []}]});
    assert!(
        mismatch(&parsed[1], &other_plan).is_some_and(|m| m.contains("no scenario of plan drain"))
    );
    let incomplete =
        serde_json::json!({"scenarios": [{"plan": "drain", "complete": false, "findings": []}]});
    assert!(mismatch(&parsed[1], &incomplete).is_some_and(|m| m.contains("not complete")));
    let right =
        serde_json::json!({"scenarios": [{"plan": "drain", "complete": true, "findings": []}]});
    assert_eq!(mismatch(&parsed[1], &right), None);
}
