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
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    // Four replicas, two on each node, no preStop: the drain's check runs for well over the
    // two seconds the test gives it.
    let dir = TempDir::new("fix-sigterm");
    let app = dir.write(
        "app.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 4\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        readinessProbe:\n          httpGet: {path: /, port: 80}\n          periodSeconds: 5\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n",
    );
    let child = common::bin::command(&["fix", "-f", &app, "--plan", "drain", "--budget", "none"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("podcheck starts");
    std::thread::sleep(std::time::Duration::from_millis(2000));
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).expect("the signal is sent");
    let o = child.wait_with_output().expect("podcheck ends");
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
        out.contains("not tried: interrupted (Ctrl-C) before its candidates were checked"),
        "{out}"
    );
}
