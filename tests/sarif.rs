//! `podcheck check -f … --format sarif`: a SARIF 2.1.0 log, checked against the SARIF 2.1.0
//! JSON schema (tests/fixtures/sarif-schema-2.1.0.json) by a JSON-schema library, each result
//! at the manifest line its fix changes.

mod common;

use common::bin;
use common::dir::TempDir;
use serde_json::Value;

/// The SARIF 2.1.0 schema, as a validator that also checks the `format`s it names (`uri`).
fn validator() -> jsonschema::Validator {
    let text = include_str!("fixtures/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(text).expect("the schema is JSON");
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

/// The errors of `log` against the schema, one line each: empty for a valid log.
fn schema_errors(log: &Value) -> Vec<String> {
    validator()
        .iter_errors(log)
        .map(|e| format!("{}: {e}", e.instance_path))
        .collect()
}

/// Runs `podcheck ARGS` in `dir`: exit code, stdout parsed as JSON, stderr.
fn sarif_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, Value, String) {
    let out = bin::command(args)
        .current_dir(dir)
        .output()
        .expect("podcheck runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let log = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}\n{stderr}"));
    (out.status.code(), log, stderr)
}

/// A Deployment of two replicas behind a Service, its container without a preStop hook; its
/// line 16 is the container's (`- name: web`), where the hook goes.
const WEB: &str = "\
apiVersion: apps/v1
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
      annotations:
        podcheck.dev/boot-seconds: \"2\"
        podcheck.dev/sigterm: \"exit:0\"
    spec:
      containers:
      - name: web
        image: web:1
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
  ports: [{port: 80}]
";

/// The line (from 1) of `text` that holds `needle`.
fn line_of(text: &str, needle: &str) -> i64 {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i as i64 + 1)
        .unwrap_or_else(|| panic!("no line holds {needle:?}"))
}

#[test]
fn sarif_of_a_missing_prestop_is_valid_and_points_at_the_container() {
    let dir = TempDir::new("sarif");
    dir.write("app/web.yaml", WEB);
    let (code, log, stderr) = sarif_in(
        &dir,
        &[
            "check",
            "-f",
            "app",
            "--plan",
            "delete-pod",
            "--format",
            "sarif",
        ],
    );
    assert_eq!(code, Some(1), "a finding: exit 1\n{log:#}\n{stderr}");
    let errors = schema_errors(&log);
    assert!(errors.is_empty(), "{}\n{log:#}", errors.join("\n"));
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    // One rule per property of the catalogue, with its sentence.
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let catalogue = podcheck::properties::catalogue::all();
    assert_eq!(rules.len(), catalogue.len());
    for (r, p) in rules.iter().zip(&catalogue) {
        assert_eq!(r["id"], p.name);
        assert_eq!(r["shortDescription"]["text"], p.sentence);
        assert_eq!(r["properties"]["source"], p.source);
        assert!(r["help"]["text"].as_str().is_some_and(|h| !h.is_empty()));
    }
    let results = run["results"].as_array().expect("results");
    let r = results
        .iter()
        .find(|r| r["ruleId"] == "no_request_to_stopped_container")
        .unwrap_or_else(|| panic!("no result for the missing preStop: {log:#}"));
    assert_eq!(r["level"], "error");
    let i = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
    assert_eq!(rules[i]["id"], "no_request_to_stopped_container");
    let loc = &r["locations"][0];
    let artifact = &loc["physicalLocation"]["artifactLocation"];
    assert_eq!(artifact["uri"], "app/web.yaml", "{r:#}");
    assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        loc["physicalLocation"]["region"]["startLine"],
        line_of(WEB, "- name: web"),
        "the fix (a preStop hook) goes in the container: {r:#}"
    );
    assert_eq!(
        loc["logicalLocations"][0]["fullyQualifiedName"],
        "Deployment/web/web"
    );
    assert_eq!(r["properties"]["workload"], "web");
    assert_eq!(r["properties"]["container"], "web");
    assert_eq!(r["properties"]["plan"], "delete-pod");
    // The message holds the plan scenario and the trace the text report prints.
    let text = r["message"]["text"].as_str().expect("message");
    assert!(text.contains("app: delete-pod web"), "{text}");
    assert!(text.contains("counterexample"), "{text}");
    assert!(text.contains("kubectl: delete pod web-"), "{text}");
    // Without --fixes, the log says the fixes were not searched.
    let notes = run["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .expect("notifications");
    assert!(
        notes.iter().any(|n| n["level"] == "note"
            && n["message"]["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("fixes: not searched; give --fixes"))),
        "{notes:#?}"
    );
    assert!(results.iter().all(|r| r.get("fixes").is_none()));
    // %SRCROOT% is the working directory.
    let root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .expect("%SRCROOT%");
    assert!(
        root.starts_with("file:///") && root.ends_with('/'),
        "{root}"
    );
}

#[test]
fn the_schema_check_rejects_a_log_that_is_not_sarif() {
    // The check this file rests on can fail: a log without its version, a result whose level
    // SARIF does not have.
    let dir = TempDir::new("sarif-bad");
    dir.write("web.yaml", WEB);
    let (_, log, _) = sarif_in(
        &dir,
        &[
            "check",
            "-f",
            "web.yaml",
            "--plan",
            "delete-pod",
            "--format",
            "sarif",
        ],
    );
    assert!(schema_errors(&log).is_empty());
    let mut no_version = log.clone();
    no_version.as_object_mut().unwrap().remove("version");
    assert!(!schema_errors(&no_version).is_empty());
    let mut bad_level = log.clone();
    bad_level["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!schema_errors(&bad_level).is_empty());
    let mut bad_uri = log;
    bad_uri["runs"][0]["tool"]["driver"]["informationUri"] = "not a uri".into();
    assert!(!schema_errors(&bad_uri).is_empty());
}

#[test]
fn sarif_of_the_examples_is_valid_each_result_at_the_line_of_its_fix() {
    let root = env!("CARGO_MANIFEST_DIR");
    let (code, log, stderr) = sarif_in(
        std::path::Path::new(root),
        &["check", "-f", "examples/manifests", "--format", "sarif"],
    );
    assert_eq!(code, Some(1), "{stderr}");
    let errors = schema_errors(&log);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    // What the line of each result's fix holds, by property (docs/sarif.md).
    let fix_line = |rule: &str| -> &[&str] {
        match rule {
            // The container without a preStop hook, or its hook.
            "no_request_to_stopped_container" => &["- name: ", "preStop:"],
            "graceful_stop_within_grace" => &["command:"],
            "no_restart_while_healthy" => &["livenessProbe:"],
            "job_fails_only_after_backoff_limit_plus_one_failures" => &["restartPolicy:"],
            // The budget's minAvailable (the PodDisruptionBudget that selects the pods).
            "drain_completes" => &["minAvailable:", "maxUnavailable:"],
            // No field prevents it: the object's first line.
            "statefulset_at_most_one" | "rwo_volume_mounted_on_one_node" => &["apiVersion:"],
            other => panic!("a result of {other}: say where its fix goes"),
        }
    };
    for r in results {
        let rule = r["ruleId"].as_str().expect("ruleId");
        let ph = &r["locations"][0]["physicalLocation"];
        assert_eq!(ph["artifactLocation"]["uriBaseId"], "%SRCROOT%", "{r:#}");
        let uri = ph["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(
            uri.starts_with("examples/manifests/") && uri.contains("/unsafe/"),
            "{uri}"
        );
        let text = std::fs::read_to_string(format!("{root}/{uri}")).expect("the file is there");
        let n = ph["region"]["startLine"].as_u64().expect("startLine") as usize;
        let line = text.lines().nth(n - 1).expect("the line is in the file");
        assert!(
            fix_line(rule).iter().any(|f| line.contains(f)),
            "{rule} at {uri}:{n}: `{line}`"
        );
    }
}

/// `text` with SARIF `replacements` made (regions by line and column, columns from 1 in
/// UTF-16 code units; the texts here are ASCII), each against `text` itself: made from the
/// last to the first, so that none moves another's region. Panics where two overlap.
fn replaced(text: &str, mut reps: Vec<(i64, i64, i64, i64, String)>) -> String {
    let offset = |line: i64, column: i64| -> usize {
        let mut at = 0;
        for (i, l) in text.split_inclusive('\n').enumerate() {
            if i as i64 + 1 == line {
                return at + column as usize - 1;
            }
            at += l.len();
        }
        assert_eq!(column, 1, "past the end: line {line} column {column}");
        at
    };
    reps.sort();
    reps.dedup();
    let mut out = text.to_string();
    let mut end = usize::MAX;
    for (sl, sc, el, ec, new) in reps.into_iter().rev() {
        let (from, to) = (offset(sl, sc), offset(el, ec));
        assert!(from <= to && to <= end, "replacements overlap at line {sl}");
        out.replace_range(from..to, &new);
        end = from;
    }
    out
}

/// Two Deployments in one file, each behind its Service without a preStop hook: two fixes of
/// one file, the second found on the file as the first left it.
const TWO_WEBS: &str = "\
# two front ends
apiVersion: apps/v1
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
      annotations:
        podcheck.dev/boot-seconds: \"2\"
        podcheck.dev/sigterm: \"exit:0\"
    spec:
      containers:
      - name: web
        image: web:1 # pinned
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
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
      annotations:
        podcheck.dev/boot-seconds: \"2\"
        podcheck.dev/sigterm: \"exit:0\"
    spec:
      containers:
      - name: api
        image: api:1
        readinessProbe:
          httpGet: {path: /, port: 80}
          periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector: {app: api}
  ports: [{port: 80}]
";

#[test]
fn sarif_with_fixes_gives_each_finding_its_verified_fix_against_the_file_as_read() {
    let dir = TempDir::new("sarif-fixes");
    dir.write("app/webs.yaml", TWO_WEBS);
    let (code, log, stderr) = sarif_in(
        &dir,
        &[
            "check",
            "-f",
            "app",
            "--plan",
            "delete-pod",
            "--format",
            "sarif",
            "--fixes",
        ],
    );
    assert_eq!(code, Some(1), "the findings: exit 1\n{log:#}\n{stderr}");
    let errors = schema_errors(&log);
    assert!(errors.is_empty(), "{}\n{log:#}", errors.join("\n"));
    let results = log["runs"][0]["results"].as_array().expect("results");
    let mut reps = Vec::new();
    let mut workloads = Vec::new();
    for r in results {
        let fixes = r["fixes"]
            .as_array()
            .unwrap_or_else(|| panic!("a finding with a manifest fix has `fixes`: {r:#}"));
        assert_eq!(fixes.len(), 1, "{r:#}");
        let description = fixes[0]["description"]["text"].as_str().expect("text");
        assert!(
            description.starts_with("preStop sleep") && description.contains("Verified:"),
            "{description}"
        );
        workloads.push(r["properties"]["workload"].as_str().expect("workload"));
        for ch in fixes[0]["artifactChanges"].as_array().expect("changes") {
            assert_eq!(ch["artifactLocation"]["uri"], "app/webs.yaml");
            assert_eq!(ch["artifactLocation"]["uriBaseId"], "%SRCROOT%");
            for rep in ch["replacements"].as_array().expect("replacements") {
                let g = |k: &str| rep["deletedRegion"][k].as_i64().expect(k);
                let new = rep["insertedContent"]["text"].as_str().expect("text");
                reps.push((
                    g("startLine"),
                    g("startColumn"),
                    g("endLine"),
                    g("endColumn"),
                    new.to_string(),
                ));
            }
        }
    }
    workloads.sort();
    workloads.dedup();
    assert_eq!(workloads, ["api", "web"], "{log:#}");
    // Every region is the file's as read: made together, the replacements give the file
    // `podcheck fix --write` writes.
    let out = podcheck_in(
        &dir,
        &["fix", "-f", "app", "--plan", "delete-pod", "--write"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let written = std::fs::read_to_string(dir.join("app/webs.yaml")).expect("written");
    assert_ne!(written, TWO_WEBS);
    assert_eq!(replaced(TWO_WEBS, reps), written);
}

#[test]
fn a_fix_of_stdin_is_not_in_the_log_and_its_result_says_why() {
    let out = common::bin::podcheck_with_stdin(
        &[
            "check",
            "-f",
            "-",
            "--plan",
            "delete-pod",
            "--format",
            "sarif",
            "--fixes",
        ],
        WEB.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let errors = schema_errors(&log);
    assert!(errors.is_empty(), "{}\n{log:#}", errors.join("\n"));
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for r in results {
        assert!(r.get("fixes").is_none(), "{r:#}");
        let why = r["properties"]["noVerifiedFix"].as_str().expect("why");
        assert!(
            why.contains("stdin") && why.contains("preStop sleep"),
            "{why}"
        );
    }
}

/// Runs `podcheck ARGS` in `dir`.
fn podcheck_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    bin::command(args)
        .current_dir(dir)
        .output()
        .expect("podcheck runs")
}

#[test]
fn fixes_without_sarif_is_bad_input() {
    let dir = TempDir::new("sarif-fixes-flag");
    dir.write("app/web.yaml", WEB);
    let out = podcheck_in(&dir, &["check", "-f", "app", "--fixes"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--fixes goes with -f and --format sarif"),
        "{stderr}"
    );
}

#[test]
fn sarif_without_manifests_is_bad_input() {
    let (code, out, err) = bin::run(&["check", "--format", "sarif"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("--format sarif goes with -f"), "{err}");
    assert!(out.is_empty(), "{out}");
}

/// The backticked items of a table cell.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// The fields of a property's fix as docs/sarif.md writes them.
fn fix_fields(name: &str) -> Vec<String> {
    let f = podcheck::about::fix(name);
    let mut out: Vec<String> = Vec::new();
    if f.in_budget {
        out.extend([
            "budget.spec.minAvailable".into(),
            "budget.spec.maxUnavailable".into(),
        ]);
    }
    out.extend(f.container.iter().map(|p| format!("container.{p}")));
    out.extend(f.pod.iter().map(|p| format!("pod.{p}")));
    out.extend(f.object.iter().map(|p| p.to_string()));
    out
}

/// Where docs/sarif.md's table of fixes differs from `podcheck::about::fix`, one line each.
fn fix_table_errors(page: &str) -> Vec<String> {
    let section = page
        .split("## Where the fix goes")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or("");
    let other = podcheck::about::fix("").help;
    let mut errors = Vec::new();
    let mut named = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        if cells.len() < 2 {
            continue;
        }
        let names = if cells[0].contains("every `job_") {
            vec!["job_completes".to_string()]
        } else {
            ticked(cells[0])
        };
        for n in names {
            let fields = ticked(cells[1]);
            if fix_fields(&n) != fields {
                errors.push(format!(
                    "{n}: the page says {fields:?}, the code {:?}",
                    fix_fields(&n)
                ));
            }
            named.push(n);
        }
    }
    for p in podcheck::properties::catalogue::all() {
        let f = podcheck::about::fix(p.name);
        if f.help != other && !p.name.starts_with("job_") && !named.iter().any(|n| n == p.name) {
            errors.push(format!("{}: its fix is not in the table", p.name));
        }
    }
    errors
}

#[test]
fn the_docs_table_of_fixes_is_the_code_s() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/sarif.md"))
        .expect("docs/sarif.md");
    let errors = fix_table_errors(&page);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // The check fails on a stale page.
    let stale = page.replace(
        "`container.livenessProbe`, `container.startupProbe`",
        "`container.livenessProbe`",
    );
    assert_ne!(stale, page);
    assert!(!fix_table_errors(&stale).is_empty());
    let dropped = page.replace("`drain_completes`, ", "");
    assert!(!fix_table_errors(&dropped).is_empty());
}

/// Two Deployments behind one Service, on one node: `gateway` keeps serving through a preStop
/// hook, `orders` has none.
const SHOP: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: gateway
spec:
  replicas: 1
  selector:
    matchLabels: {app: gateway}
  template:
    metadata:
      labels: {app: gateway, tier: shop}
      annotations:
        podcheck.dev/boot-seconds: \"2\"
        podcheck.dev/sigterm: \"exit:0\"
    spec:
      containers:
      - name: gateway
        image: gateway:1
        lifecycle:
          preStop:
            sleep: {seconds: 10}
        readinessProbe:
          httpGet: {path: /, port: 80}
          periodSeconds: 5
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: orders
spec:
  replicas: 1
  selector:
    matchLabels: {app: orders}
  template:
    metadata:
      labels: {app: orders, tier: shop}
      annotations:
        podcheck.dev/boot-seconds: \"2\"
        podcheck.dev/sigterm: \"exit:0\"
    spec:
      containers:
      - name: orders
        image: orders:1
        readinessProbe:
          httpGet: {path: /, port: 80}
          periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata:
  name: shop
spec:
  selector: {tier: shop}
  ports: [{port: 80}]
";

#[test]
fn a_finding_names_the_workload_it_is_about_not_the_plan_s_target() {
    // The drain of the node both pods run on is one scenario, named after `gateway`; its
    // finding is about `orders`, whose container has no preStop hook, and points at it.
    let dir = TempDir::new("sarif-shop");
    dir.write("shop.yaml", SHOP);
    let (code, log, stderr) = sarif_in(
        &dir,
        &[
            "check",
            "-f",
            "shop.yaml",
            "--plan",
            "drain",
            "--format",
            "sarif",
        ],
    );
    assert_eq!(code, Some(1), "{log:#}\n{stderr}");
    assert!(schema_errors(&log).is_empty());
    let results = log["runs"][0]["results"].as_array().expect("results");
    let r = results
        .iter()
        .find(|r| r["ruleId"] == "no_request_to_stopped_container")
        .unwrap_or_else(|| panic!("{log:#}"));
    assert_eq!(
        r["properties"]["scenario"], "shop.yaml: drain gateway",
        "{r:#}"
    );
    assert_eq!(r["properties"]["workload"], "orders", "{r:#}");
    assert_eq!(r["properties"]["container"], "orders", "{r:#}");
    let ph = &r["locations"][0]["physicalLocation"];
    assert_eq!(ph["artifactLocation"]["uri"], "shop.yaml");
    assert_eq!(ph["region"]["startLine"], line_of(SHOP, "- name: orders"));
    let text = r["message"]["text"].as_str().expect("message");
    assert!(
        text.starts_with("Deployment/orders, container orders: "),
        "{text}"
    );
}
