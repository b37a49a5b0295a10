//! Findings that rest on what the manifests do not say: `podcheck check -f` on a temporary
//! manifest. A probe checks the external dependency only where
//! `podcheck.dev/probe-checks-dependency` says so; `bash -c` with one simple command execs
//! its program (bash's `should_suppress_fork`), while `sh -c` leaves it to the image and the
//! finding says what it assumes (`assuming podcheck.dev/sigterm: ignore`), in text and JSON,
//! and the summary line counts such findings apart.

mod common;

use common::bin::run as podcheck;
use common::dir::TempDir;
use serde_json::Value;

/// A Deployment `db` of one replica with an exec liveness probe (`mysqladmin ping`, a check of
/// the program itself), under the dependency-outage and delete-pod plans; `notes`: more
/// annotations on its pod template.
fn db(notes: &str) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: db
  annotations: {{podcheck.dev/plans: "dependency-outage,delete-pod"}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: db}}}}
  template:
    metadata:
      labels: {{app: db}}
      annotations:
        podcheck.dev/boot-seconds: "1"
        podcheck.dev/sigterm: exit{notes}
    spec:
      terminationGracePeriodSeconds: 5
      containers:
      - name: mysql
        image: mysql:8.4
        livenessProbe:
          exec: {{command: ["mysqladmin", "ping"]}}
          periodSeconds: 5
"#
    )
}

#[test]
fn an_exec_liveness_probe_checks_the_dependency_only_when_the_annotation_says_so() {
    let dir = TempDir::new("assume-probe");
    let plain = dir.write("plain.yaml", &db(""));
    let (code, out, err) = podcheck(&["check", "-f", &plain]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(!out.contains("no_restart_while_healthy: "), "{out}");
    assert!(
        err.contains("dependency-outage: no probe checks the dependency"),
        "{err}"
    );
    assert!(out.contains("delete-pod db"), "{out}");

    let said = dir.write(
        "said.yaml",
        &db("\n        podcheck.dev/probe-checks-dependency: liveness"),
    );
    let (code, out, err) = podcheck(&["check", "-f", &said]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "finding: {said}: dependency-outage: no_restart_while_healthy: "
        )),
        "{out}"
    );
}

/// A Deployment `worker` of one replica whose container runs `command`, under the delete-pod
/// plan, with a 5 s grace period.
fn worker(command: &str) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker
  annotations: {{podcheck.dev/plans: delete-pod}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: worker}}}}
  template:
    metadata:
      labels: {{app: worker}}
      annotations: {{podcheck.dev/boot-seconds: "1"}}
    spec:
      terminationGracePeriodSeconds: 5
      containers:
      - name: app
        image: worker:1
        command: {command}
"#
    )
}

#[test]
fn bash_c_with_one_simple_command_stops_on_sigterm() {
    let dir = TempDir::new("assume-bash");
    let bash = dir.write(
        "bash.yaml",
        &worker(r#"["bash", "-c", "python worker.py"]"#),
    );
    let (code, out, err) = podcheck(&["check", "-f", &bash]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(!out.contains("graceful_stop_within_grace: "), "{out}");
    assert!(err.contains("podcheck.dev/sigterm: exit:143"), "{err}");
}

#[test]
fn a_finding_on_an_assumed_default_says_which_in_text_and_json() {
    let dir = TempDir::new("assume-sh");
    let sh = dir.write("sh.yaml", &worker(r#"["sh", "-c", "python worker.py"]"#));
    let (code, out, err) = podcheck(&["check", "-f", &sh]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    let finding = format!("finding: {sh}: delete-pod worker: graceful_stop_within_grace: ");
    let at = out.find(&finding).unwrap_or_else(|| panic!("{out}"));
    // Under the finding's line: what it is about, then what it assumes.
    let next: Vec<&str> = out[at..].lines().skip(1).take(2).collect();
    assert_eq!(
        next,
        [
            "  about: worker, container app",
            "  assuming podcheck.dev/sigterm: ignore (Deployment/worker container app)"
        ],
        "{out}"
    );
    assert!(
        err.contains("podcheck.dev/sigterm: ignore (a shell wrapper without `exec`: `sh` is dash, busybox ash or bash"),
        "{err}"
    );
    let summary = out.lines().last().unwrap_or_default();
    assert!(
        summary.contains("1 finding in 1 scenario (1 resting on assumed defaults);"),
        "{summary}"
    );

    let (code, out, err) = podcheck(&["check", "-f", &sh, "--format", "json"]);
    assert_eq!(code, Some(1), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["findings"], 1, "{out}");
    assert_eq!(v["findings_assuming"], 1, "{out}");
    let f = &v["scenarios"][0]["findings"][0];
    assert_eq!(f["property"], "graceful_stop_within_grace");
    assert_eq!(
        f["assuming"],
        serde_json::json!([{
            "object": "Deployment/worker",
            "container": "app",
            "annotation": "podcheck.dev/sigterm: ignore"
        }])
    );

    // Said in the manifest, it is no assumption: the finding stands on the manifest alone.
    let said = dir.write(
        "said.yaml",
        &worker(r#"["sh", "-c", "python worker.py"]"#).replace(
            r#"{podcheck.dev/boot-seconds: "1"}"#,
            r#"{podcheck.dev/boot-seconds: "1", podcheck.dev/sigterm: ignore}"#,
        ),
    );
    let (code, out, _) = podcheck(&["check", "-f", &said]);
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains("  assuming "), "{out}");
    assert!(!out.contains("resting on assumed defaults"), "{out}");
}

/// A finding rests on the defaults of its own scenario's Service, not on every Service of the
/// application: with two single-replica services, each behind its Service, the delete-pod
/// finding of `api` assumes the proxy lag of `Service/api`, and says nothing of
/// `Service/web`, which its scenario does not hold (six Services of TeaStore were listed
/// under each of its findings).
#[test]
fn a_finding_assumes_the_defaults_of_its_own_service_only() {
    let app = |name: &str| {
        format!(
            r#"apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      containers:
      - name: app
        image: {name}:1
---
apiVersion: v1
kind: Service
metadata: {{name: {name}}}
spec:
  selector: {{app: {name}}}
  ports: [{{port: 80}}]
---
"#
        )
    };
    let dir = TempDir::new("assume-service");
    let file = dir.write("two.yaml", &format!("{}{}", app("api"), app("web")));
    let (code, out, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod"]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    for (me, other) in [("api", "web"), ("web", "api")] {
        let finding =
            format!("finding: {file}: delete-pod {me}: no_request_to_stopped_container: ");
        let at = out.find(&finding).unwrap_or_else(|| panic!("{out}"));
        let under: Vec<&str> = out[at..]
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .collect();
        assert_eq!(
            under,
            [
                format!("  about: {me}, container app"),
                format!("  assuming podcheck.dev/boot-seconds: 5, podcheck.dev/sigterm: exit:143 (Deployment/{me} container app)"),
                format!("  assuming podcheck.dev/proxy-lag-seconds: 3 (Service/{me})"),
            ],
            "{out}"
        );
        assert!(
            !under
                .iter()
                .any(|l| l.contains(&format!("Service/{other}"))),
            "{out}"
        );
    }
}
