//! `podcheck fix -f`: each finding's fix, checked before it is shown, as a diff of the user's
//! own files; `--write` makes it. The six example applications: `fix --write` on a copy of
//! `unsafe/`, then `check` of that copy under the example's plan, with no finding left (the
//! StatefulSet's operator hazard has no manifest fix, and says so).

mod common;

use common::bin::{podcheck, podcheck_with_stdin};
use common::dir::TempDir;
use std::path::Path;

const APPS: [&str; 6] = [
    "api-prestop",
    "shell-worker",
    "web-liveness-db",
    "job-backoff",
    "pdb-drain",
    "statefulset-db",
];

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A copy of an example's `unsafe/` folder in a fresh temporary folder.
fn copy_unsafe(app: &str) -> (TempDir, String) {
    let dir = TempDir::new(&format!("fix-{app}"));
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/manifests")
        .join(app)
        .join("unsafe");
    for e in std::fs::read_dir(&from).expect("the example's folder") {
        let p = e.expect("an entry").path();
        let body = std::fs::read_to_string(&p).expect("a manifest");
        dir.write(
            &format!("{app}/{}", p.file_name().unwrap().to_string_lossy()),
            &body,
        );
    }
    let path = dir.join(app).to_string_lossy().into_owned();
    (dir, path)
}

#[test]
fn fix_write_on_each_example_leaves_no_finding_under_its_plan() {
    for app in APPS {
        let (_dir, path) = copy_unsafe(app);
        let before: Vec<String> = std::fs::read_dir(&path)
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        let out = podcheck(&["fix", "-f", &path, "--write", "--max-memory", "3G"]);
        let stdout = text(&out.stdout);
        let after: Vec<String> = std::fs::read_dir(&path)
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        if app == "statefulset-db" {
            // An operator hazard does not fail the run, as for `check -f`.
            assert_eq!(out.status.code(), Some(0), "{app}: {stdout}");
            assert!(
                stdout.contains("operator hazard, no manifest fix")
                    && stdout.contains("node.kubernetes.io/out-of-service")
                    && !stdout.contains("\nfix: "),
                "{app}: {stdout}"
            );
            assert_eq!(before, after, "{app}: nothing is written");
            continue;
        }
        assert_eq!(
            out.status.code(),
            Some(0),
            "{app}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains("\nfix: ") || stdout.starts_with("fix: "),
            "{app}: {stdout}"
        );
        assert!(stdout.contains("complete: the finding is gone, no finding is new"));
        assert_ne!(before, after, "{app}: the fix is written");
        let check = podcheck(&["check", "-f", &path, "--max-memory", "3G"]);
        let report = text(&check.stdout);
        assert_eq!(check.status.code(), Some(0), "{app}: {report}");
        assert!(!report.contains("\nfinding"), "{app}: {report}");
    }
}

#[test]
fn a_file_with_comments_keeps_them_and_the_diff_touches_only_the_changed_lines() {
    let dir = TempDir::new("fix-comments");
    let original = include_str!("fixtures/fix/budget-zero.yaml");
    let path = dir.write("budget.yaml", original);
    let out = podcheck(&["fix", "-f", &path, "--plan", "drain", "--max-memory", "3G"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let changed: Vec<&str> = stdout
        .lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .collect();
    assert_eq!(
        changed,
        [
            "-  maxUnavailable: 0 # no pod may go",
            "+  maxUnavailable: 1 # no pod may go"
        ],
        "{stdout}"
    );
    // Without --write, nothing is written.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    let out = podcheck(&[
        "fix",
        "-f",
        &path,
        "--plan",
        "drain",
        "--write",
        "--max-memory",
        "3G",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        written,
        original.replace("maxUnavailable: 0", "maxUnavailable: 1")
    );
    for l in original.lines().filter(|l| l.contains('#')) {
        assert!(
            written.contains(l) || l.contains("maxUnavailable"),
            "{l} kept"
        );
    }
}

#[test]
fn a_single_replica_gets_a_second_one_and_a_budget() {
    let dir = TempDir::new("fix-single");
    let path = dir.write("web.yaml", include_str!("fixtures/fix/single-replica.yaml"));
    let out = podcheck(&[
        "fix",
        "-f",
        &path,
        "--plan",
        "delete-pod",
        "--format",
        "json",
        "--max-memory",
        "3G",
    ]);
    let stdout = text(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let fixes = v["fixes"].as_array().expect("fixes");
    let f = fixes
        .iter()
        .find(|f| {
            f["finding"]
                .as_str()
                .unwrap()
                .starts_with("no_request_finds_no_endpoints")
        })
        .unwrap_or_else(|| panic!("{stdout}"));
    let diff = f["diffs"][0]["diff"].as_str().unwrap();
    assert!(diff.contains("-  replicas: 1\n+  replicas: 2\n"), "{diff}");
    assert!(
        diff.contains("+kind: PodDisruptionBudget\n") && diff.contains("+  minAvailable: 1\n"),
        "{diff}"
    );
    assert_eq!(f["recheck"]["complete"], true);
    assert_eq!(f["recheck"]["added"].as_array().unwrap().len(), 0);
}

#[test]
fn stdin_is_diffed_as_stdin_and_never_written() {
    let yaml = include_str!("fixtures/fix/budget-zero.yaml");
    let out = podcheck_with_stdin(&["fix", "-f", "-", "--write"], yaml.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--write"),
        "{}",
        text(&out.stderr)
    );
    let out = podcheck_with_stdin(
        &["fix", "-f", "-", "--plan", "drain", "--max-memory", "3G"],
        yaml.as_bytes(),
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("--- a/<stdin>\n+++ b/<stdin>\n"),
        "{stdout}"
    );
}

#[test]
fn a_prestop_sleep_is_added_below_the_container_with_every_comment_kept() {
    let dir = TempDir::new("fix-prestop");
    let original = include_str!("fixtures/fix/prestop-comments.yaml");
    let path = dir.write("api.yaml", original);
    let out = podcheck(&[
        "fix",
        "-f",
        &path,
        "--plan",
        "delete-pod",
        "--write",
        "--max-memory",
        "3G",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // The lag is the Service's 2 s: the shortest sleep that holds is 3 s, margin 1 s.
    assert!(
        stdout.contains("preStop sleep 3 s (kube-proxy lag 2 s, margin 1 s)"),
        "{stdout}"
    );
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        written,
        original.replace(
            "            periodSeconds: 5\n",
            "            periodSeconds: 5\n          lifecycle:\n            preStop:\n              sleep: {seconds: 3}\n"
        )
    );
    // Only lines added: none of the file's own lines is removed or changed.
    assert!(
        !stdout
            .lines()
            .any(|l| l.starts_with('-') && !l.starts_with("---")),
        "{stdout}"
    );
}

/// A SIGTERM (a CI job's timeout) stops `fix` as a Ctrl-C does: no candidate is tried after
/// it, each finding left is said not tried, and the run exits 3 with its report.
#[test]
fn a_sigterm_stops_fix_with_its_report() {
    use nix::sys::signal::Signal;
    // Four replicas, two on each node, no preStop: the drain's check runs for well over the
    // two seconds the test gives it.
    let dir = TempDir::new("fix-sigterm");
    let app = dir.write(
        "app.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 4\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        readinessProbe:\n          httpGet: {path: /, port: 80}\n          periodSeconds: 5\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n",
    );
    // Once the drain's exploration prints its first progress line (a second in): its
    // finding, five steps deep, has been found by then.
    let (o, _) = common::bin::signalled_once(
        &["fix", "-f", &app, "--plan", "drain", "--budget", "none"],
        &format!("{app}: drain web: exploring: "),
        Signal::SIGTERM,
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{out}\n{}", text(&o.stderr));
    assert!(
        out.contains("(a check stopped at a bound: what it did not decide is not fixed)"),
        "{out}"
    );
    assert!(!out.contains("\n--- a/"), "no diff is shown: {out}");
    // The finding its exploration had found by then (a request to a stopped container) is
    // left untried.
    assert!(
        out.contains("not tried: interrupted (SIGTERM) before its candidates were checked"),
        "{out}"
    );
}

/// `fix --write --format json` on a copy of `fixture` under `plan`, then `check -f` of the
/// written copy under the same plan: no finding. Returns the fixes (JSON) and the text
/// written.
fn fix_then_check(fixture: &str, plan: &str) -> (Vec<serde_json::Value>, String) {
    let dir = TempDir::new("fix-class");
    let body = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/fix")
            .join(fixture),
    )
    .expect("the fixture");
    let path = dir.write(fixture, &body);
    let out = podcheck(&[
        "fix",
        "-f",
        &path,
        "--plan",
        plan,
        "--write",
        "--format",
        "json",
        "--max-memory",
        "3G",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{fixture}: {stdout}{}",
        text(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(v["unfixed"].as_array().unwrap().len(), 0, "{stdout}");
    let fixes = v["fixes"].as_array().expect("fixes").clone();
    for f in &fixes {
        assert_eq!(f["recheck"]["complete"], true, "{stdout}");
        assert_eq!(f["recheck"]["added"].as_array().unwrap().len(), 0);
    }
    let written = std::fs::read_to_string(&path).unwrap();
    assert_ne!(written, body, "{fixture}: the fix is written");
    let check = podcheck(&["check", "-f", &path, "--plan", plan, "--max-memory", "3G"]);
    let report = text(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{fixture}: {report}");
    assert!(!report.contains("\nfinding"), "{fixture}: {report}");
    (fixes, written)
}

/// The lines a diff adds and removes, without its file headers.
fn changed_lines(diff: &str) -> Vec<&str> {
    diff.lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .collect()
}

/// A liveness probe that asks the database restarts every healthy replica during the outage:
/// the first candidate, a probe of the process itself, is what podcheck shows (the failure
/// threshold comes after it, for a probe that must ask the dependency).
#[test]
fn a_liveness_probe_of_the_dependency_is_made_a_probe_of_the_process() {
    let (fixes, _) = fix_then_check("liveness-dependency.yaml", "dependency-outage");
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    let f = &fixes[0];
    assert_eq!(
        f["finding"],
        "no_restart_while_healthy about shop container shop"
    );
    assert!(
        f["what"]
            .as_str()
            .unwrap()
            .starts_with("the liveness probe checks the process only"),
        "{f}"
    );
    assert_eq!(
        changed_lines(f["diffs"][0]["diff"].as_str().unwrap()),
        [
            "-        podcheck.dev/probe-checks-dependency: \"readiness,liveness\"",
            "+        podcheck.dev/probe-checks-dependency: readiness",
        ]
    );
    assert_eq!(f["tried"].as_array().unwrap().len(), 0);
}

/// A budget whose minAvailable equals the replicas blocks a drain for ever: the first
/// candidate, maxUnavailable: 1 in its place, costs no replica.
#[test]
fn a_budget_asking_for_every_replica_gets_max_unavailable_one() {
    let (fixes, written) = fix_then_check("budget-min-available.yaml", "drain");
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    assert_eq!(fixes[0]["finding"], "drain_completes about api");
    assert_eq!(
        changed_lines(fixes[0]["diffs"][0]["diff"].as_str().unwrap()),
        ["-  minAvailable: 2", "+  maxUnavailable: 1"]
    );
    assert!(written.contains("  replicas: 2\n"), "no replica added");
    // The budget of maxUnavailable: 0 (its diff is pinned above): the written copy passes.
    let (fixes, _) = fix_then_check("budget-zero.yaml", "drain");
    assert_eq!(fixes.len(), 1, "{fixes:?}");
}

/// A Job under restartPolicy OnFailure fails one attempt earlier than under Never: the first
/// candidate, restartPolicy: Never, is shown.
#[test]
fn a_job_under_on_failure_gets_restart_policy_never() {
    let (fixes, _) = fix_then_check("job-on-failure.yaml", "crash");
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    assert_eq!(
        fixes[0]["finding"],
        "job_fails_only_after_backoff_limit_plus_one_failures about report container report"
    );
    assert_eq!(fixes[0]["what"], "restartPolicy: Never (was OnFailure)");
    assert_eq!(
        changed_lines(fixes[0]["diffs"][0]["diff"].as_str().unwrap()),
        [
            "-      restartPolicy: OnFailure",
            "+      restartPolicy: Never"
        ]
    );
}

/// A Job's pod evicted by a drain counts as a failure without a podFailurePolicy: with
/// backoffLimit 0 the eviction fails the Job. The rule that ignores DisruptionTarget is tried
/// first (a longer backoffLimit would only hide one disruption more) and removes both findings.
#[test]
fn a_job_failed_by_a_disruption_gets_a_pod_failure_policy() {
    let (fixes, written) = fix_then_check("job-disruption.yaml", "drain");
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    let f = &fixes[0];
    assert_eq!(
        f["finding"],
        "job_fails_only_after_backoff_limit_plus_one_failures about backup container backup"
    );
    assert_eq!(
        f["also_removes"],
        serde_json::json!([
            "job_disrupted_pods_not_counted_as_failures about backup container backup"
        ])
    );
    assert_eq!(
        changed_lines(f["diffs"][0]["diff"].as_str().unwrap()),
        [
            "+  podFailurePolicy:",
            "+    rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]",
        ]
    );
    assert!(written.contains("  backoffLimit: 0\n"), "{written}");
}

/// A rollout with pods Ready before their program answers: the EndpointSlice lists fewer
/// serving pods than replicas − maxUnavailable. The model's Deployment counts a pod available
/// only minReadySeconds after it is Ready (`deployment_util.go` `IsPodAvailable`), and the
/// shortest value tried, lag + 1 s, holds.
#[test]
fn a_rollout_short_of_serving_endpoints_gets_min_ready_seconds() {
    let (fixes, _) = fix_then_check("rollout-no-readiness.yaml", "rollout");
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    let f = &fixes[0];
    assert_eq!(
        f["finding"],
        "rollout_serving_endpoints_within_unavailable about web container app"
    );
    assert_eq!(f["what"], "spec.minReadySeconds: 4 (lag 3 s, margin 1 s)");
    assert_eq!(
        changed_lines(f["diffs"][0]["diff"].as_str().unwrap()),
        ["+  minReadySeconds: 4"]
    );
}

/// One replica without a preStop hook: each preStop sleep alone leaves the request to the
/// stopped container (one pod, no other to take the requests), and a second replica alone
/// leaves it too; the first preStop sleep together with the second replica and a budget
/// removes both findings, shown as one fix.
#[test]
fn a_single_replica_without_prestop_gets_one_combined_fix() {
    let (fixes, written) = fix_then_check("single-no-prestop.yaml", "delete-pod");
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    let f = &fixes[0];
    assert_eq!(
        f["finding"],
        "no_request_to_stopped_container about ads container server"
    );
    assert_eq!(
        f["what"],
        "preStop sleep 4 s (kube-proxy lag 3 s, margin 1 s), together with replicas: 2 and a PodDisruptionBudget with minAvailable: 1"
    );
    assert_eq!(
        f["also_removes"],
        serde_json::json!(["no_request_finds_no_endpoints about ads container server"])
    );
    // Each preStop sleep alone was tried first.
    let tried = f["tried"].as_array().unwrap();
    assert_eq!(tried.len(), 4, "{tried:?}");
    assert!(tried
        .iter()
        .all(|t| t.as_str().unwrap().ends_with("the finding is still there")));
    assert!(
        written.contains("          preStop:\n            sleep: {seconds: 4}\n  replicas: 2\n")
            && written.contains("kind: PodDisruptionBudget\n"),
        "{written}"
    );
}

/// A fixture of tests/fixtures/fix/ as an application of its own, named by its file.
fn fixture_app(name: &str) -> podcheck::Application {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fix")
        .join(name);
    podcheck::Application {
        name: name.into(),
        sources: vec![(
            name.into(),
            std::fs::read_to_string(&path).expect("the fixture"),
        )],
    }
}

/// Each plan scenario's result is kept by its exact content: a candidate that changes `api`
/// leaves `web`'s plan scenario as it was, and the re-check takes its result; the fix's
/// re-check gives what a fresh check of the fixed files gives.
#[test]
fn a_recheck_takes_the_unchanged_plan_scenarios_from_the_earlier_checks() {
    use podcheck::fix::{check_sources, fix_application, FixOptions, Fixes};
    use podcheck::properties::check::CheckOptions;
    let app = fixture_app("two-services.yaml");
    let opts = FixOptions {
        plans: vec![podcheck::Plan::DeletePod],
        options: CheckOptions {
            max_states: Some(200_000),
            ..CheckOptions::default()
        },
        ..FixOptions::default()
    };
    let mut out = Fixes {
        complete: true,
        ..Fixes::default()
    };
    fix_application(&app, &opts, &mut out).expect("fixes");
    assert_eq!(out.fixes.len(), 1, "{:?}", out.unfixed);
    // Two plan scenarios checked first; the fix's re-check checked `delete-pod api` again
    // and took `delete-pod web` as it was.
    assert_eq!((out.checked.checked, out.checked.reused), (3, 1));
    let fixed = podcheck::Application {
        name: app.name.clone(),
        sources: out.files[0].1.clone(),
    };
    let (after, complete, scenarios, states) = check_sources(&fixed, &opts).expect("a check");
    let r = &out.fixes[0].recheck;
    assert!(complete && r.complete);
    assert_eq!((scenarios, states), (r.scenarios, r.states));
    assert_eq!(after.len(), r.remaining.len());
}

/// A program slower to stop than its grace period (`podcheck.dev/stop-seconds: 40`, the
/// default 30 s grace): SIGKILL cuts its shutdown short. The grace is raised to the shutdown
/// plus a margin, the smallest the re-check passes among those tried.
#[test]
fn a_program_slower_to_stop_than_its_grace_gets_a_longer_grace() {
    let (fixes, _) = fix_then_check("slow-stop.yaml", "delete-pod");
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    let f = &fixes[0];
    assert_eq!(
        f["finding"],
        "graceful_stop_within_grace about worker container worker"
    );
    assert_eq!(
        f["what"],
        "terminationGracePeriodSeconds: 41 (was 30; the program's 40 s shutdown, margin 1 s)"
    );
    assert_eq!(
        changed_lines(f["diffs"][0]["diff"].as_str().unwrap()),
        ["+      terminationGracePeriodSeconds: 41"]
    );
}

/// The fixture's application checked under `plan` through the library: complete, with one
/// finding, whose candidates are returned with the application and the options.
fn one_finding(
    fixture: &str,
    plan: podcheck::Plan,
) -> (
    podcheck::Application,
    podcheck::fix::FixOptions,
    Vec<podcheck::fix::Candidate>,
) {
    use podcheck::fix::{candidates, check_sources, FixOptions};
    let app = fixture_app(fixture);
    let opts = FixOptions {
        plans: vec![plan],
        ..FixOptions::default()
    };
    let (causes, complete, _, _) = check_sources(&app, &opts).expect("a check");
    assert!(complete);
    assert_eq!(causes.len(), 1);
    let reading = podcheck::read_application(&app).expect("the manifests");
    let cands = candidates(&causes[0], &app, &reading);
    (app, opts, cands)
}

/// The re-check of `changed` under `opts` is complete and finds nothing.
fn recheck_is_clean(changed: &podcheck::Application, opts: &podcheck::fix::FixOptions) {
    let (after, complete, _, _) = podcheck::fix::check_sources(changed, opts).expect("a re-check");
    assert!(complete);
    assert!(
        after.is_empty(),
        "{:?}",
        after.iter().map(|c| &c.shown.property).collect::<Vec<_>>()
    );
}

/// The second repair of a liveness probe that asks the dependency, for a probe that must keep
/// asking it: a failureThreshold whose failures in a row span longer than the plan's 60 s
/// outage. Every 10 s, failures at the outage's first and last instants both count, so 7
/// (60 s from the first to the last) is not enough and 8 (70 s) is the smallest that holds:
/// the first threshold candidate is 8, and the re-check passes it.
#[test]
fn a_liveness_failure_threshold_that_outlasts_the_outage_passes_its_recheck() {
    use podcheck::fix::{apply, check_sources};
    let (app, opts, cands) =
        one_finding("liveness-dependency.yaml", podcheck::Plan::DependencyOutage);
    let threshold = cands
        .iter()
        .find(|c| c.what.starts_with("livenessProbe.failureThreshold"))
        .expect("a threshold candidate");
    assert!(
        threshold
            .what
            .starts_with("livenessProbe.failureThreshold: 8 "),
        "{}",
        threshold.what
    );
    let changed = apply(&app, threshold).expect("the edit");
    assert!(changed.sources[0]
        .1
        .contains("          failureThreshold: 8\n"));
    recheck_is_clean(&changed, &opts);
    // One less does not hold: the probe kills the container at the outage's last instant.
    let mut seven = threshold.clone();
    seven.changes = vec![(
        0,
        podcheck::fix::FileChange::Edit(podcheck::input::manifest::edit::Edit {
            doc: 0,
            path: "spec.template.spec.containers[0].livenessProbe.failureThreshold".into(),
            change: podcheck::input::manifest::edit::Change::Set(
                podcheck::input::manifest::edit::Value::int(7),
            ),
        }),
    )];
    let (after, _, _, _) = check_sources(&apply(&app, &seven).unwrap(), &opts).unwrap();
    assert_eq!(after.len(), 1);
}

/// The second repair of a Job under OnFailure: one more retry (`backoffLimit + 1`, the attempt
/// that OnFailure takes away: the Job controller fails it once the restarts reach the limit).
/// Under the crash plan's one crash its re-check passes; `podcheck fix` shows the first
/// candidate, `restartPolicy: Never`, which also passes.
#[test]
fn a_job_under_on_failure_with_one_more_retry_passes_its_recheck() {
    use podcheck::fix::apply;
    let (app, opts, cands) = one_finding("job-on-failure.yaml", podcheck::Plan::Crash);
    let whats: Vec<&str> = cands.iter().map(|c| c.what.as_str()).collect();
    assert_eq!(
        whats,
        [
            "restartPolicy: Never (was OnFailure)",
            "backoffLimit: 2 (was 1)"
        ]
    );
    let more = &cands[1];
    let changed = apply(&app, more).expect("the edit");
    assert!(changed.sources[0].1.contains("  backoffLimit: 2\n"));
    recheck_is_clean(&changed, &opts);
}
