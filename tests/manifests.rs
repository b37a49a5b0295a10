//! Users' own manifests (`podcheck check -f`): realistic manifests read field by field into
//! the scenario, every class of bad input with its located error in the user's words, the
//! unknown-field warning with the closest name, and a fuzzer that feeds the reader random and
//! mutated YAML (no input may panic).
//!
//! More fuzz cases: `PROPTEST_CASES=1000000 cargo test --profile tests --test manifests fuzz` (a
//! million inputs of each kind).

use podcheck_input::manifest::{read, shell_wrapper_without_exec, Reading};
use podcheck_input::spec::{
    self, Fault, IntOrPercent, IntOrString, OnSigterm, PodManagementPolicy, StrategyType, Workload,
};
use podcheck_model::k8s::{PullPolicy, RestartPolicy, TaintEffect, TolerationOperator};
use proptest::prelude::*;

mod common;

// `podcheck(ARGS)`: its exit code, stdout and stderr.
use common::bin::{self, run as podcheck};
use common::dir::TempDir;

fn one(name: &str, text: &str) -> Result<Reading, String> {
    read(&[(name.to_string(), text.to_string())])
}

const WEB: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  minReadySeconds: 4
  selector:
    matchLabels: {app: web}
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 1, maxUnavailable: "50%"}
  template:
    metadata:
      labels: {app: web, tier: front}
      annotations:
        podcheck.dev/boot-seconds: "12"
        podcheck.dev/probe-checks-dependency: liveness
    spec:
      terminationGracePeriodSeconds: 45
      nodeSelector: {disk: ssd}
      tolerations:
      - {key: dedicated, operator: Exists, effect: NoSchedule}
      initContainers:
      - name: proxy
        image: envoy:1.30
        restartPolicy: Always
      containers:
      - name: app
        image: registry.example/web:2.1
        imagePullPolicy: Always
        command: ["sh", "-c", "./migrate && ./serve"]
        ports: [{containerPort: 8080}]
        resources:
          requests: {cpu: 250m, memory: 128Mi}
          limits: {cpu: "1", memory: 1Gi}
        startupProbe:
          tcpSocket: {port: 8080}
          failureThreshold: 30
          periodSeconds: 2
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
          periodSeconds: 5
          timeoutSeconds: 2
          successThreshold: 2
        livenessProbe:
          exec: {command: [cat, /tmp/ok]}
          initialDelaySeconds: 3
          terminationGracePeriodSeconds: 10
        lifecycle:
          preStop:
            exec: {command: ["/bin/sh", "-c", "sleep 7"]}
          postStart:
            httpGet: {path: /warm, port: 8080}
      volumes:
      - {name: cache, emptyDir: {}}
      - name: conf
        configMap: {name: web-conf}
---
apiVersion: v1
kind: Service
metadata:
  name: web
  annotations: {podcheck.dev/proxy-lag-seconds: "2"}
spec:
  selector: {app: web}
  publishNotReadyAddresses: true
  ports: [{port: 80, targetPort: 8080}]
"#;

#[test]
fn deployment_and_service_field_by_field() {
    let r = one("web.yaml", WEB).unwrap();
    let s = &r.scenario;
    assert_eq!(s.cluster.start, spec::Start::Settled);
    assert_eq!(s.cluster.proxy_lag_seconds, 2);
    let Workload::Deployment { metadata, spec: d } = &s.workloads[0] else {
        panic!("a Deployment")
    };
    assert_eq!(metadata.name, "web");
    assert_eq!(d.replicas, 3);
    assert_eq!(d.min_ready_seconds, 4);
    assert_eq!(d.strategy.kind, StrategyType::RollingUpdate);
    let ru = d.strategy.rolling_update.clone().unwrap();
    assert_eq!(ru.max_surge, Some(IntOrString::Int(1)));
    assert_eq!(ru.max_unavailable, Some(IntOrString::String("50%".into())));
    let p = &d.template.spec;
    assert_eq!(p.termination_grace_period_seconds, 45);
    assert_eq!(p.node_selector.get("disk").map(String::as_str), Some("ssd"));
    assert_eq!(p.tolerations[0].operator, TolerationOperator::Exists);
    assert_eq!(p.tolerations[0].effect, Some(TaintEffect::NoSchedule));
    assert!(p.init_containers[0].is_sidecar());
    assert_eq!(p.volumes.len(), 2);
    assert!(p.volumes[0].empty_dir.is_some());
    assert_eq!(p.volumes[1].config_map.as_ref().unwrap().name, "web-conf");
    let c = &p.containers[0];
    assert_eq!(c.image, "registry.example/web:2.1");
    assert_eq!(c.image_pull_policy, Some(PullPolicy::Always));
    assert_eq!(c.resources.requests.cpu_milli, 250);
    assert_eq!(c.resources.requests.memory_mi, 128);
    assert_eq!(c.resources.limits.cpu_milli, 1000);
    assert_eq!(c.resources.limits.memory_mi, 1024);
    let sp = c.startup_probe.as_ref().unwrap();
    assert_eq!((sp.failure_threshold, sp.period_seconds), (30, 2));
    let rp = c.readiness_probe.as_ref().unwrap();
    assert_eq!(
        (rp.period_seconds, rp.timeout_seconds, rp.success_threshold),
        (5, 2, 2)
    );
    let lp = c.liveness_probe.as_ref().unwrap();
    assert_eq!(lp.initial_delay_seconds, 3);
    assert_eq!(lp.termination_grace_period_seconds, Some(10));
    // The annotation names the liveness probe only.
    assert!(lp.checks_dependency && !rp.checks_dependency && !sp.checks_dependency);
    let l = c.lifecycle.as_ref().unwrap();
    assert_eq!(l.pre_stop.as_ref().unwrap().sleep.seconds, 7);
    assert!(l.post_start.as_ref().unwrap().exec.is_some());
    assert_eq!(c.app.boot_seconds, 12);
    // `sh -c` with two commands and no `exec`: the shell is PID 1 and keeps SIGTERM.
    assert_eq!(c.app.on_sigterm, OnSigterm::Ignore);
    assert!(r.assumed.iter().any(|a| a.contains("sigterm: ignore")));
    let svc = s.service.as_ref().unwrap();
    assert_eq!(svc.selects, vec!["web".to_string()]);
    assert!(svc.publish_not_ready_addresses);
    // The reader adds no fault: the plans do, one scenario each; the delete-pod plan's is
    // `kubectl delete pod` of a Ready pod of web with its own grace period.
    assert!(s.faults.is_empty(), "{:?}", s.faults);
    // Its nodeSelector `disk: ssd` matches neither default node: the reader says so once and
    // the plans leave it out; on nodes labelled so, the delete-pod plan acts on it.
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("Deployment/web: no node can take its pods")
                && w.contains("disk=ssd")),
        "{:?}",
        r.warnings
    );
    let mut on_ssd = s.clone();
    for n in &mut on_ssd.cluster.nodes {
        n.labels.insert("disk".into(), "ssd".into());
    }
    let planned = podcheck_input::plan::plan_scenarios(
        &on_ssd,
        &[podcheck_input::plan::Plan::DeletePod],
        &podcheck_model::cluster::first_pod_nodes,
    );
    assert_eq!(planned.scenarios.len(), 1);
    assert_eq!(
        planned.scenarios[0].faults,
        vec![Fault::DeletePod {
            workload: "web".into(),
            grace_period_seconds: -1,
            force: false
        }]
    );
    // Fields the model does not read are listed, with where they were written.
    assert!(r
        .unused
        .iter()
        .any(|u| u.starts_with("web.yaml:33:9:") && u.ends_with("containers[].ports")));
    assert!(r
        .unused
        .iter()
        .any(|u| u.ends_with("Service/web: spec.ports")));
}

const DB: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db}
  spec:
    replicas: 2
    podManagementPolicy: Parallel
    serviceName: db
    selector: {matchLabels: {app: db}}
    template:
      metadata:
        labels: {app: db}
        annotations: {podcheck.dev/sigterm.pg: "exit:0"}
      spec:
        containers:
        - name: pg
          image: postgres:16
          command: ["bash", "-c", "exec postgres"]
          volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]
    volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: {name: db}
  spec:
    minAvailable: 1
    unhealthyPodEvictionPolicy: AlwaysAllow
    selector:
      matchExpressions:
      - {key: app, operator: In, values: [db]}
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: {name: shared}
  spec:
    accessModes: [ReadWriteMany]
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
    labels: {zone: a}
  spec:
    taints: [{key: gpu, value: "yes", effect: NoExecute}]
  status:
    allocatable: {cpu: "8", memory: 16Gi}
"#;

const JOB: &str = r#"apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  completions: 3
  parallelism: 2
  completionMode: Indexed
  backoffLimitPerIndex: 1
  maxFailedIndexes: 1
  activeDeadlineSeconds: 600
  podReplacementPolicy: Failed
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {containerName: main, operator: In, values: [42]}
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]
  successPolicy:
    rules: [{succeededIndexes: "0-1", succeededCount: 1}]
  template:
    metadata:
      annotations: {podcheck.dev/exit-after-seconds: "20", podcheck.dev/exit-code: "1"}
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox:1.36
        lifecycle:
          postStart: {sleep: {seconds: 1}}
"#;

#[test]
fn statefulset_pvc_pdb_node_in_a_list() {
    let r = one("db.yaml", DB).unwrap();
    let s = &r.scenario;
    let Workload::StatefulSet { spec: st, .. } = &s.workloads[0] else {
        panic!("a StatefulSet")
    };
    assert_eq!(st.replicas, 2);
    assert_eq!(st.pod_management_policy, PodManagementPolicy::Parallel);
    assert_eq!(st.volume_claim_templates[0].metadata.name, "data");
    assert_eq!(
        st.volume_claim_templates[0].spec.access_modes,
        vec!["ReadWriteOnce".to_string()]
    );
    let c = &st.template.spec.containers[0];
    assert_eq!(c.app.on_sigterm, OnSigterm::Exit(0));
    let b = &s.pod_disruption_budgets[0];
    assert_eq!(b.spec.selects, vec!["db".to_string()]);
    assert_eq!(b.spec.min_available, Some(IntOrPercent::Int(1)));
    assert_eq!(
        b.spec.unhealthy_pod_eviction_policy,
        Some(spec::UnhealthyPodEvictionPolicy::AlwaysAllow)
    );
    assert_eq!(s.persistent_volume_claims[0].metadata.name, "shared");
    assert_eq!(s.cluster.nodes.len(), 1);
    let n = &s.cluster.nodes[0];
    assert_eq!(
        (n.allocatable.cpu_milli, n.allocatable.memory_mi),
        (8000, 16384)
    );
    assert_eq!(n.taints[0].effect, TaintEffect::NoExecute);
    assert_eq!(n.labels.get("zone").map(String::as_str), Some("a"));
}

#[test]
fn job_fields() {
    let r = one("job.yaml", JOB).unwrap();
    let Workload::Job { spec: j, .. } = &r.scenario.workloads[0] else {
        panic!("a Job")
    };
    assert_eq!((j.completions, j.parallelism), (Some(3), Some(2)));
    assert!(j.indexed());
    assert_eq!(
        (j.backoff_limit_per_index, j.max_failed_indexes),
        (Some(1), Some(1))
    );
    assert_eq!(j.active_deadline_seconds, Some(600));
    assert_eq!(
        j.pod_replacement_policy,
        Some(spec::PodReplacementPolicy::Failed)
    );
    let rules = &j.pod_failure_policy.as_ref().unwrap().rules;
    assert_eq!(rules[0].on_exit_codes.as_ref().unwrap().values, vec![42]);
    assert_eq!(rules[1].on_pod_conditions[0].type_, "DisruptionTarget");
    let sp = &j.success_policy.as_ref().unwrap().rules[0];
    assert_eq!(sp.succeeded_indexes.as_deref(), Some("0-1"));
    assert_eq!(j.template.spec.restart_policy, RestartPolicy::Never);
    let c = &j.template.spec.containers[0];
    assert_eq!((c.app.exit_after_seconds, c.app.exit_code), (Some(20), 1));
    // No Deployment or StatefulSet: no default delete fault.
    assert!(r.scenario.faults.is_empty());
}

#[test]
fn multi_document_files_together() {
    let r = read(&[
        ("web.yaml".into(), WEB.into()),
        ("job.yaml".into(), JOB.into()),
        (
            "-".into(),
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n".into(),
        ),
    ])
    .unwrap();
    assert_eq!(r.scenario.workloads.len(), 2);
    assert_eq!(
        r.ignored,
        vec!["-:1:1: ConfigMap/c (the model does not read ConfigMap objects)".to_string()]
    );
}

/// The error of `text` (or of WEB with `from` replaced by `to`).
fn error_of(text: &str) -> String {
    one("bad.yaml", text).expect_err("an error")
}

fn web_with(from: &str, to: &str) -> String {
    assert!(WEB.contains(from), "{from}");
    WEB.replacen(from, to, 1)
}

#[test]
fn each_bad_input_has_its_located_error() {
    // YAML syntax.
    let e = error_of("apiVersion: v1\nkind: Pod\nmetadata: {name: p\n");
    assert!(
        e.starts_with("bad.yaml:4:1: not valid YAML") || e.starts_with("bad.yaml:3:"),
        "{e}"
    );
    // A wrong type, at the value's line and column, in words.
    let e = error_of(&web_with("periodSeconds: 5", "periodSeconds: five"));
    assert_eq!(
        e,
        "bad.yaml:43:26: Deployment/web: spec.template.spec.containers[0].readinessProbe.periodSeconds: must be a whole number, not the string \"five\""
    );
    // Out of the model's range.
    let e = error_of(&web_with("replicas: 3", "replicas: 9"));
    assert_eq!(
        e,
        "bad.yaml:6:3: Deployment/web: spec.replicas: replicas must be 1 to 5 (the model holds up to 5 replicas), not 9"
    );
    let e = error_of(&web_with(
        "terminationGracePeriodSeconds: 45",
        "terminationGracePeriodSeconds: 99999",
    ));
    assert!(e.starts_with("bad.yaml:20:7: Deployment/web: spec.template.spec.terminationGracePeriodSeconds: terminationGracePeriodSeconds must be 0 to"), "{e}");
    // A quantity.
    let e = error_of(&web_with("cpu: 250m", "cpu: 250q"));
    assert!(e.starts_with("bad.yaml:35:22: Deployment/web: spec.template.spec.containers[0].resources.requests.cpu: `250q` is not a quantity"), "{e}");
    // An unsupported value.
    let e = error_of(&web_with("type: RollingUpdate", "type: Rolling"));
    assert!(
        e.contains("spec.strategy.type: Unsupported value: \"Rolling\""),
        "{e}"
    );
    // An unsupported API version.
    let e = error_of(&web_with("apps/v1", "extensions/v1beta1"));
    assert!(
        e.starts_with(
            "bad.yaml:1:1: Deployment/web: apiVersion: podcheck reads Deployment as apps/v1"
        ),
        "{e}"
    );
    // The scenario's own validation, pointed back at the field of the manifest: a timeout
    // past the model's limit on seconds (one longer than the period is taken).
    let e = error_of(&web_with("timeoutSeconds: 2", "timeoutSeconds: 40000"));
    assert!(e.starts_with("bad.yaml:44:11: Deployment/web: spec.template.spec.containers[0].readinessProbe.timeoutSeconds"), "{e}");
    assert!(e.contains("must be 0 to 32767"), "{e}");
    assert!(one(
        "bad.yaml",
        &web_with("timeoutSeconds: 2", "timeoutSeconds: 9")
    )
    .is_ok());
    // A selector that does not select its template.
    let e = error_of(&web_with(
        "matchLabels: {app: web}",
        "matchLabels: {app: api}",
    ));
    assert!(
        e.contains("spec.selector: Invalid value: `selector` does not match template `labels`"),
        "{e}"
    );
    // An annotation that does not parse: at its own line, named by its key.
    let e = error_of(&web_with("boot-seconds: \"12\"", "boot-seconds: \"soon\""));
    assert!(
        e.starts_with("bad.yaml:17:9: Deployment/web: spec.template.metadata.annotations[podcheck.dev/boot-seconds]: must be a whole number of seconds, not `soon`"),
        "{e}"
    );
    // A list where an object is expected; a scenario list given as manifests.
    let e = error_of("- name: x\n  workloads: []\n");
    assert!(e.contains("this is a podcheck scenario list"), "{e}");
    // Nothing to check.
    let e = error_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    assert!(
        e.contains("no Pod, Deployment, ReplicaSet, StatefulSet or Job to check"),
        "{e}"
    );
}

/// A Deployment `web` with `pod` (YAML at the pod spec's indentation) and `annotations`
/// (YAML at the template annotations' indentation).
fn web_pod(annotations: &str, pod: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata:
      labels: {{app: web}}
      annotations:
        podcheck.dev/boot-seconds: \"1\"
{annotations}
    spec:
{pod}
"
    )
}

const APP: &str = "      containers:\n      - name: app\n        image: nginx";

#[test]
fn annotations_are_checked_at_their_own_line() {
    for (note, msg) in [
        (
            "podcheck.dev/exit-code: \"256\"",
            "[podcheck.dev/exit-code]: an exit code must be 0 to 255",
        ),
        (
            "podcheck.dev/exit-code.app: \"-1\"",
            "[podcheck.dev/exit-code.app]: an exit code must be 0 to 255",
        ),
        (
            "podcheck.dev/sigterm: \"exit:300\"",
            "[podcheck.dev/sigterm]: an exit code must be 0 to 255",
        ),
        (
            "podcheck.dev/memory-usage-mi: \"99999999999999\"",
            "[podcheck.dev/memory-usage-mi]: must be at most",
        ),
        (
            "podcheck.dev/exit-after-seconds: \"99999\"",
            "[podcheck.dev/exit-after-seconds]: must be 0 to 32767 seconds",
        ),
    ] {
        let e = error_of(&web_pod(&format!("        {note}"), APP));
        assert!(
            e.starts_with("bad.yaml:12:9: Deployment/web: spec.template.metadata.annotations")
                && e.contains(msg),
            "{note}: {e}"
        );
    }
    let svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n    podcheck.dev/proxy-lag-seconds: \"100000\"\nspec:\n  selector: {app: web}\n";
    let e = error_of(&format!("{}---\n{svc}", web_pod("", APP)));
    assert!(
        e.contains("bad.yaml:23:5: Service/s: metadata.annotations[podcheck.dev/proxy-lag-seconds]: must be 0 to 32767 seconds"),
        "{e}"
    );
}

#[test]
fn a_toleration_of_more_than_an_hour_is_kept() {
    let r = one(
        "t.yaml",
        &web_pod(
            "",
            &format!("      tolerations:\n      - {{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 4000}}\n{APP}"),
        ),
    )
    .unwrap();
    let t = &r.scenario.workloads[0].template().tolerations;
    assert!(
        t.iter().any(|t| t.toleration_seconds == Some(4000)),
        "{t:?}"
    );
    let e = error_of(&web_pod(
        "",
        &format!("      tolerations:\n      - {{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 40000}}\n{APP}"),
    ));
    assert!(
        e.contains("tolerations[0].tolerationSeconds: tolerationSeconds must be at most 32767"),
        "{e}"
    );
}

#[test]
fn objects_of_two_namespaces_are_refused() {
    let web = web_pod("", APP).replace(
        "metadata: {name: web}",
        "metadata: {name: web, namespace: shop}",
    );
    let svc = |ns: &str| {
        format!("apiVersion: v1\nkind: Service\nmetadata: {{name: s{ns}}}\nspec:\n  selector: {{app: web}}\n")
    };
    let e = error_of(&format!("{web}---\n{}", svc(", namespace: other")));
    assert!(
        e.contains("Service/s: metadata.namespace: `other`, but Deployment/web (bad.yaml:3:")
            && e.contains("is in `shop`: podcheck checks one namespace at a time"),
        "{e}"
    );
    // The same namespace, or none written, is one namespace.
    assert!(one(
        "ok.yaml",
        &format!("{web}---\n{}", svc(", namespace: shop"))
    )
    .is_ok());
    assert!(one("ok.yaml", &format!("{web}---\n{}", svc(""))).is_ok());
}

#[test]
fn objects_the_model_does_not_read_may_be_in_another_namespace() {
    // An install manifest grants its service account access in other namespaces: a
    // RoleBinding (here in a List, as generated manifests write them) in `kube-system`
    // beside the application's objects in `shop`. The model reads neither, so the
    // application is one namespace.
    let web = web_pod("", APP).replace(
        "metadata: {name: web}",
        "metadata: {name: web, namespace: shop}",
    );
    let binding = "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBindingList\nitems:\n- apiVersion: rbac.authorization.k8s.io/v1\n  kind: RoleBinding\n  metadata: {name: reader, namespace: kube-system}\n  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}\n";
    let r = one("app.yaml", &format!("{binding}---\n{web}")).unwrap();
    assert_eq!(r.scenario.workloads.len(), 1);
    assert!(
        r.ignored.iter().any(|i| i.contains("RoleBinding/reader")),
        "{:?}",
        r.ignored
    );
    // A Service the model reads in another namespace is still refused.
    let svc = "apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: kube-system}\nspec:\n  selector: {app: web}\n";
    let e = error_of(&format!("{binding}---\n{web}---\n{svc}"));
    assert!(
        e.contains("Service/s: metadata.namespace: `kube-system`, but Deployment/web"),
        "{e}"
    );
}

#[test]
fn a_prestop_exec_sleep_is_read_as_the_kubelet_runs_it() {
    let hook = |cmd: &str, grace: u16| {
        web_pod(
            "",
            &format!("      terminationGracePeriodSeconds: {grace}\n{APP}\n        lifecycle:\n          preStop:\n            exec: {{command: {cmd}}}"),
        )
    };
    let pre_stop = |r: &Reading| {
        r.scenario.workloads[0].template().containers[0]
            .lifecycle
            .as_ref()
            .and_then(|l| l.pre_stop.as_ref())
            .map(|p| p.sleep.seconds)
    };
    // Suffixes as coreutils' sleep reads them.
    let r = one("h.yaml", &hook("[sleep, 5s]", 30)).unwrap();
    assert_eq!(pre_stop(&r), Some(5));
    // Longer than the grace period: the kubelet stops waiting for the hook at the grace
    // period, so it is cut there and said so (it was refused, as a `sleep` action is).
    for cmd in ["[sleep, \"100\"]", "[sleep, 2m]", "[sleep, infinity]"] {
        let r = one("h.yaml", &hook(cmd, 30)).unwrap();
        assert_eq!(pre_stop(&r), Some(30), "{cmd}");
        assert!(
            r.assumed
                .iter()
                .any(|a| a.contains("is cut at the grace period (30 s)")),
            "{cmd}: {:?}",
            r.assumed
        );
    }
    // A length podcheck cannot read in whole seconds is an error, unless the annotation says it.
    let e = error_of(&hook("[sleep, \"2.5\"]", 30));
    assert!(
        e.contains("preStop.exec.command: `sleep 2.5`: podcheck counts whole seconds"),
        "{e}"
    );
    let r = one(
        "h.yaml",
        &hook("[sleep, \"2.5\"]", 30).replace(
            "podcheck.dev/boot-seconds: \"1\"",
            "podcheck.dev/boot-seconds: \"1\"\n        podcheck.dev/pre-stop-seconds: \"3\"",
        ),
    )
    .unwrap();
    assert_eq!(pre_stop(&r), Some(3));
    // Two handlers at once.
    let e = error_of(&web_pod(
        "",
        &format!("{APP}\n        lifecycle:\n          preStop:\n            sleep: {{seconds: 5}}\n            exec: {{command: [sleep, \"5\"]}}"),
    ));
    assert!(
        e.contains("lifecycle.preStop: Forbidden: may not specify more than 1 handler type"),
        "{e}"
    );
}

#[test]
fn what_the_model_does_not_hold_is_said() {
    // An annotation nothing reads: a hook length where the hook is a `sleep`.
    let r = one(
        "w.yaml",
        &web_pod(
            "        podcheck.dev/pre-stop-seconds: \"20\"",
            &format!(
                "{APP}\n        lifecycle:\n          preStop:\n            sleep: {{seconds: 5}}"
            ),
        ),
    )
    .unwrap();
    assert!(
        r.warnings.iter().any(|w| w.starts_with("w.yaml:12:9: Deployment/web: spec.template.metadata.annotations[podcheck.dev/pre-stop-seconds]: not read")),
        "{:?}",
        r.warnings
    );
    // Fields that change what a cluster does, which the model does not read: warnings, not
    // only --verbose notes.
    let r = one(
        "w.yaml",
        &web_pod(
            "",
            &format!("      readinessGates: [{{conditionType: example.com/ready}}]\n{APP}\n        lifecycle:\n          stopSignal: SIGINT"),
        )
        .replace("  replicas: 1", "  replicas: 1\n  paused: true"),
    )
    .unwrap();
    for field in [
        "spec.paused: not modelled",
        "spec.template.spec.readinessGates: not modelled",
        "spec.template.spec.containers[].lifecycle.stopSignal: not modelled",
    ] {
        assert!(
            r.warnings.iter().any(|w| w.contains(field)),
            "{field}: {:?}",
            r.warnings
        );
    }
    // `paused: false` is the default: nothing to say.
    let r = one(
        "w.yaml",
        &web_pod("", APP).replace("  replicas: 1", "  replicas: 1\n  paused: false"),
    )
    .unwrap();
    assert!(
        !r.warnings.iter().any(|w| w.contains("paused")),
        "{:?}",
        r.warnings
    );
}

/// A StatefulSet `db` of `replicas` with `extra` lines in its spec, and its headless Service.
fn db_statefulset(replicas: u8, extra: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: StatefulSet
metadata: {{name: db}}
spec:
  replicas: {replicas}
  serviceName: db
  selector: {{matchLabels: {{app: db}}}}
{extra}
  template:
    metadata: {{labels: {{app: db}}}}
    spec:
      containers: [{{name: db, image: postgres}}]
---
apiVersion: v1
kind: Service
metadata: {{name: db}}
spec:
  clusterIP: None
  selector: {{app: db}}
"
    )
}

/// A StatefulSet's `updateStrategy` is read (type, partition, maxUnavailable as a count or a
/// percentage), neither warned of nor listed as not read; what the API server's validation
/// refuses is an error at its line.
#[test]
fn statefulset_update_strategy_is_read() {
    use podcheck_input::spec::StatefulSetStrategyType;
    let sts = |extra: &str| db_statefulset(3, extra);
    let strategy = |extra: &str| {
        let r = one("s.yaml", &sts(extra)).unwrap();
        assert!(r.warnings.is_empty(), "{extra}: {:?}", r.warnings);
        assert!(
            !r.unused.iter().any(|u| u.contains("updateStrategy")),
            "{extra}: {:?}",
            r.unused
        );
        let w = &r.scenario.workloads[0];
        let Workload::StatefulSet { spec, .. } = w else {
            panic!("{w:?}")
        };
        spec.update_strategy.clone()
    };
    let s = strategy("  updateStrategy: {type: RollingUpdate}");
    assert_eq!((s.partition(), s.max_unavailable(3)), (0, 1));
    let s = strategy(
        "  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate: {partition: 1, maxUnavailable: 2}",
    );
    assert_eq!((s.partition(), s.max_unavailable(3)), (1, 2));
    // A percentage of replicas, rounded up (getStatefulSetMaxUnavailable).
    let s = strategy("  updateStrategy: {rollingUpdate: {maxUnavailable: \"34%\"}}");
    assert_eq!(
        s.rolling_update.as_ref().unwrap().max_unavailable,
        Some(IntOrString::String("34%".into()))
    );
    assert_eq!(s.max_unavailable(3), 2);
    let s = strategy("  updateStrategy: {type: OnDelete}");
    assert_eq!(s.kind, StatefulSetStrategyType::OnDelete);
    // A partition past what the model counts behaves as any partition >= replicas.
    let s = strategy("  updateStrategy: {rollingUpdate: {partition: 1000}}");
    assert_eq!(s.partition(), 255);
    for (extra, want) in [
        (
            "  updateStrategy: {rollingUpdate: {partition: -1}}",
            "s.yaml:8:",
        ),
        (
            "  updateStrategy: {rollingUpdate: {maxUnavailable: 0}}",
            "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: must not be 0",
        ),
        (
            "  updateStrategy: {rollingUpdate: {maxUnavailable: \"101%\"}}",
            "must not be greater than 100%",
        ),
        (
            "  updateStrategy: {rollingUpdate: {maxUnavailable: \"half\"}}",
            "a valid percent string",
        ),
        (
            "  updateStrategy: {type: OnDelete, rollingUpdate: {partition: 1}}",
            "spec.updateStrategy.rollingUpdate: Invalid value: only allowed for updateStrategy 'RollingUpdate'",
        ),
        ("  updateStrategy: {type: Blue}", "spec.updateStrategy.type"),
    ] {
        let e = one("s.yaml", &sts(extra)).unwrap_err();
        assert!(e.starts_with("s.yaml:8:"), "{extra}: {e}");
        assert!(e.contains(want), "{extra}: {e}");
    }
}

#[test]
fn a_default_written_out_is_no_warning() {
    // The Kubernetes docs' ZooKeeper StatefulSet writes `updateStrategy: {type:
    // RollingUpdate}`, and Selenium's hub Service `sessionAffinity: None`: the defaults the
    // API server would give them, which is what the model does. No warning; a value that is
    // not the default still is one.
    let sts = |extra: &str| db_statefulset(1, extra);
    let quiet = [
        "  ordinals: {start: 0}",
        "  persistentVolumeClaimRetentionPolicy: {whenDeleted: Retain, whenScaled: Retain}",
    ];
    for extra in quiet {
        let r = one("s.yaml", &sts(extra)).unwrap();
        assert!(
            !r.warnings.iter().any(|w| w.contains("not modelled")),
            "{extra}: {:?}",
            r.warnings
        );
        // Still listed among the fields the model does not read.
        assert!(!r.unused.is_empty(), "{extra}");
    }
    let loud = [
        ("  ordinals: {start: 1}", "spec.ordinals"),
        (
            "  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}",
            "spec.persistentVolumeClaimRetentionPolicy",
        ),
    ];
    // A StatefulSet's minReadySeconds is read (OrderedReady waits for each pod to be
    // Available): neither warned of nor listed as not read.
    let r = one("s.yaml", &sts("  minReadySeconds: 10")).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert!(
        !r.unused.iter().any(|u| u.contains("minReadySeconds")),
        "{:?}",
        r.unused
    );
    for (extra, field) in loud {
        let r = one("s.yaml", &sts(extra)).unwrap();
        assert!(
            r.warnings
                .iter()
                .any(|w| w.contains(&format!("StatefulSet/db: {field}: not modelled"))),
            "{extra}: {:?}",
            r.warnings
        );
    }
    let svc = |extra: &str| {
        format!(
            "{}---\napiVersion: v1\nkind: Service\nmetadata: {{name: front}}\nspec:\n  selector: {{app: web}}\n{extra}\n",
            web_pod("", APP)
        )
    };
    for extra in [
        "  sessionAffinity: None",
        "  type: NodePort\n  externalTrafficPolicy: Cluster\n  internalTrafficPolicy: Cluster",
    ] {
        let r = one("w.yaml", &svc(extra)).unwrap();
        assert!(
            !r.warnings.iter().any(|w| w.contains("not modelled")),
            "{extra}: {:?}",
            r.warnings
        );
    }
    for (extra, field) in [
        ("  sessionAffinity: ClientIP", "spec.sessionAffinity"),
        (
            "  type: NodePort\n  externalTrafficPolicy: Local",
            "spec.externalTrafficPolicy",
        ),
    ] {
        let r = one("w.yaml", &svc(extra)).unwrap();
        assert!(
            r.warnings
                .iter()
                .any(|w| w.contains(&format!("Service/front: {field}: not modelled"))),
            "{extra}: {:?}",
            r.warnings
        );
    }
}

#[test]
fn what_the_api_server_refuses_is_refused() {
    let e = error_of(&web_pod(
        "",
        &format!(
            "{APP}\n        resources: {{requests: {{memory: 128Mi}}, limits: {{memory: 64Mi}}}}"
        ),
    ));
    assert!(
        e.contains("Deployment/web: spec.template.spec.containers[0].resources.requests.memory: Invalid value: 128 MiB: must be less than or equal to memory limit of 64 MiB"),
        "{e}"
    );
    let e = error_of(&web_pod("", APP).replace("{name: web}", "{name: Checkout_API}"));
    assert!(
        e.contains("metadata.name: a lowercase RFC 1123 subdomain"),
        "{e}"
    );
}

#[test]
fn yaml_limits_and_wrong_types_are_said_in_words() {
    let e = error_of("apiVersion: v1\nkind: Pod\nkind: Pod\nmetadata: {name: p}\n");
    assert!(
        e.contains("the key `kind` is given twice in one mapping"),
        "{e}"
    );
    let deep = format!("x: {}{}\n", "[".repeat(70), "]".repeat(70));
    let e = error_of(&deep);
    assert!(
        e.contains("nested more deeply than podcheck reads (64 at most)"),
        "{e}"
    );
    let e = error_of("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: 123}\n");
    assert!(
        e.starts_with("bad.yaml:3:12: Deployment/: metadata.name: must be a string"),
        "{e}"
    );
    let e = error_of("apiVersion: apps/v1\nkind: Deployment\nmetadata: web\n");
    assert!(e.contains("metadata: must be a mapping"), "{e}");
    let e = error_of("apiVersion: 1\nkind: Deployment\nmetadata: {name: a}\n");
    assert!(
        e.contains("apiVersion: must be a string: podcheck reads Deployment as apps/v1"),
        "{e}"
    );
    // A misspelt kind: named, with the closest one; alone, the error lists it.
    let e = error_of("apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: web}\n");
    assert!(
        e.contains("no Pod, Deployment, ReplicaSet, StatefulSet or Job to check (ignored: bad.yaml:1:1: Deploymnet/web (the model does not read Deploymnet objects; did you mean `Deployment`?))"),
        "{e}"
    );
    // A kind of another API group is not a misspelling of a kind the model reads (those
    // are all of the core group, apps, batch or policy): no "did you mean".
    for (api, kind) in [
        ("apiregistration.k8s.io/v1", "APIService"),
        ("monitoring.coreos.com/v1", "ServiceMonitor"),
        ("monitoring.coreos.com/v1", "PodMonitor"),
    ] {
        let e = error_of(&format!(
            "apiVersion: {api}\nkind: {kind}\nmetadata: {{name: x}}\n"
        ));
        assert!(
            e.contains(&format!(
                "{kind}/x (the model does not read {kind} objects)"
            )),
            "{e}"
        );
        assert!(!e.contains("did you mean"), "{e}");
    }
    let e = error_of("apiVersion: v1\nkind: Servise\nmetadata: {name: web}\n");
    assert!(e.contains("did you mean `Service`?"), "{e}");
    let r = one(
        "k.yaml",
        &format!(
            "{}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\n",
            web_pod("", APP)
        ),
    )
    .unwrap();
    assert!(
        r.ignored.iter().all(|i| !i.contains("did you mean")),
        "{:?}",
        r.ignored
    );
}

#[test]
fn init_containers_run_to_completion_by_default() {
    let r = one(
        "i.yaml",
        &web_pod(
            "",
            "      initContainers:\n      - name: migrate\n        image: busybox\n      - name: proxy\n        image: envoy\n        restartPolicy: Always\n      containers:\n      - name: app\n        image: nginx",
        ),
    )
    .unwrap();
    let t = r.scenario.workloads[0].template();
    assert_eq!(t.init_containers[0].app.exit_after_seconds, Some(10));
    assert_eq!(
        t.init_containers[1].app.exit_after_seconds, None,
        "a sidecar runs on"
    );
    assert!(
        r.assumed
            .iter()
            .any(|a| a.contains("container migrate: podcheck.dev/exit-after-seconds: 10")),
        "{:?}",
        r.assumed
    );
}

#[test]
fn ports_services_and_references_are_checked() {
    let e = error_of(&web_pod(
        "",
        &format!("{APP}\n        ports: [{{containerPort: 70000}}]"),
    ));
    assert!(
        e.contains("containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"),
        "{e}"
    );
    let r = one(
        "p.yaml",
        &web_pod(
            "",
            &format!("{APP}\n        readinessProbe: {{httpGet: {{port: nosuch}}}}"),
        ),
    )
    .unwrap();
    assert!(
        r.warnings
            .iter()
            .any(|w| w
                .contains("readinessProbe.httpGet.port: the container has no port named `nosuch`")),
        "{:?}",
        r.warnings
    );
    let svc = |spec: &str| {
        format!("{}---\napiVersion: v1\nkind: Service\nmetadata: {{name: s}}\nspec:\n  selector: {{app: web}}\n{spec}", web_pod("", APP))
    };
    let e = error_of(&svc("  type: Balancer\n"));
    assert!(
        e.contains("spec.type: Unsupported value: \"Balancer\""),
        "{e}"
    );
    let e = error_of(&svc("  ports: [{port: 700000}]\n"));
    assert!(
        e.contains("spec.ports[0].port: Invalid value: 700000"),
        "{e}"
    );
    // A StatefulSet's serviceName and a claim the manifests do not hold.
    let sts = "apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 1
  serviceName: nope
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: missing}}]
";
    let r = one("s.yaml", sts).unwrap();
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("spec.serviceName: no Service `nope` in the manifests")),
        "{:?}",
        r.warnings
    );
    assert!(
        r.assumed.iter().any(|a| a.contains("volume `data` claims `missing`, which no PersistentVolumeClaim of the manifests defines")),
        "{:?}",
        r.assumed
    );
}

#[test]
fn volumes_and_their_mounts_are_checked_as_the_api_server_does() {
    let pod = |volumes: &str, mounts: &str| {
        web_pod(
            "",
            &format!("      volumes:\n{volumes}\n{APP}\n        volumeMounts:\n{mounts}"),
        )
    };
    let e = error_of(&pod(
        "      - {name: a, emptyDir: {}}\n      - {name: a, emptyDir: {}}",
        "        - {name: a, mountPath: /a}",
    ));
    assert!(
        e.contains("spec.template.spec.volumes[1].name: Duplicate value: \"a\""),
        "{e}"
    );
    let e = error_of(&pod(
        "      - {name: a, emptyDir: {}, configMap: {name: c}}",
        "        - {name: a, mountPath: /a}",
    ));
    assert!(
        e.contains("volumes[0]: Forbidden: may not specify more than 1 volume type"),
        "{e}"
    );
    let e = error_of(&pod(
        "      - {name: a, emptyDir: {}}",
        "        - {name: b, mountPath: /b}",
    ));
    assert!(
        e.contains("containers[0].volumeMounts[0].name: Not found: \"b\""),
        "{e}"
    );
    // A StatefulSet's pods mount its claim templates by name.
    let sts = "apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - name: db
        image: postgres
        volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 20Gi}}
";
    assert!(one("s.yaml", sts).is_ok());
    let e = error_of(&sts.replace("20Gi", "20GG"));
    assert!(
        e.contains("spec.volumeClaimTemplates[0].spec.resources.requests.storage: `20GG` is not a quantity"),
        "{e}"
    );
}

#[test]
fn a_claim_template_replaces_the_template_volume_of_its_name() {
    // CockroachDB's StatefulSet, as kubernetes/examples had it: a pod template volume
    // `datadir` (a claim named `datadir`) beside a claim template `datadir`. The API server
    // accepts it and the controller gives each pod its own claim under that name, in place of
    // the template's volume: read so, with a warning at the volume that is never mounted.
    let sts = "apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - name: db
        image: cockroachdb/cockroach
        volumeMounts: [{name: datadir, mountPath: /cockroach/data}]
      volumes:
      - name: datadir
        persistentVolumeClaim: {claimName: datadir}
  volumeClaimTemplates:
  - metadata: {name: datadir}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
";
    let r = one("s.yaml", sts).unwrap_or_else(|e| panic!("{e}"));
    let Workload::StatefulSet { spec, .. } = &r.scenario.workloads[0] else {
        panic!("{:?}", r.scenario.workloads[0]);
    };
    assert!(
        spec.template.spec.volumes.is_empty(),
        "{:?}",
        spec.template.spec.volumes
    );
    assert_eq!(spec.volume_claim_templates[0].metadata.name, "datadir");
    assert!(
        r.warnings.iter().any(|w| w.starts_with("s.yaml:16:9: StatefulSet/db: spec.template.spec.volumes[0]: `datadir` is also the name of a volume claim template, which replaces this volume")),
        "{:?}",
        r.warnings
    );
    // The claim `datadir` that only the replaced volume named is not taken as missing.
    assert!(
        !r.assumed.iter().any(|a| a.contains("claims `datadir`")),
        "{:?}",
        r.assumed
    );
}

#[test]
fn a_volume_that_names_no_type_is_an_emptydir() {
    // The API server defaults a volume with no source to an emptyDir before validating it
    // (`SetDefaults_Volume`), so `- name: data` alone is a valid volume: one written without
    // a type, and one whose only type is null.
    for volume in ["{name: data}", "{name: data, hostPath: null}"] {
        let text = web_pod(
            "",
            &format!("      volumes:\n      - {volume}\n{APP}\n        volumeMounts:\n        - {{name: data, mountPath: /data}}"),
        );
        let r = one("web.yaml", &text).unwrap_or_else(|e| panic!("{volume}: {e}"));
        let v = &r.scenario.workloads[0].template().volumes[0];
        assert!(v.name == "data" && v.empty_dir.is_some(), "{volume}: {v:?}");
        assert!(
            r.assumed
                .iter()
                .any(|a| a.contains("volumes[0] (`data`): no volume type given: an emptyDir")),
            "{:?}",
            r.assumed
        );
    }
}

#[test]
fn a_number_outside_its_type_is_said_so() {
    for v in ["2147483648", "-3000000000", "99999999999999999999"] {
        let e = error_of(&web_with("replicas: 3", &format!("replicas: {v}")));
        assert!(
            e.contains("spec.replicas: must be a whole number from -2147483648 to 2147483647, not the number")
                && e.contains("which is outside it"),
            "{v}: {e}"
        );
    }
}

#[test]
fn repeats_name_the_line_of_the_first() {
    let e = error_of(&format!(
        "{}---\n{}",
        web_pod("", APP),
        web_pod("", APP).replace("kind: Deployment", "kind: StatefulSet")
    ));
    assert!(
        e.contains("`web` is also Deployment/web (bad.yaml:1:1)"),
        "{e}"
    );
    let svc = |n: &str| {
        format!("apiVersion: v1\nkind: Service\nmetadata: {{name: {n}}}\nspec:\n  selector: {{app: web}}\n")
    };
    let r = one(
        "two.yaml",
        &format!("{}---\n{}---\n{}", web_pod("", APP), svc("a"), svc("b")),
    )
    .unwrap();
    // Both Services are kept, in the order of their names; the scenario holds the first.
    let names: Vec<&str> = r.services.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["Service/a", "Service/b"], "{:?}", r.ignored);
    assert!(r.ignored.is_empty(), "{:?}", r.ignored);
    assert_eq!(r.scenario.service.as_ref(), Some(&r.services[0].spec));
}

#[test]
fn labels_are_label_keys_and_values() {
    for (from, to, msg) in [
        (
            "labels: {app: web}",
            "labels: {app: \"bad value!\"}",
            "[app]: Invalid value: \"bad value!\": must consist of alphanumeric characters",
        ),
        (
            "labels: {app: web}",
            "labels: {\"bad key\": web}",
            "[bad key]: Invalid value: \"bad key\": must consist of alphanumeric characters",
        ),
    ] {
        let e = error_of(&web_pod("", APP).replacen(from, to, 1));
        assert!(
            e.contains("spec.template.metadata.labels") && e.contains(msg),
            "{to}: {e}"
        );
    }
    let long = "x".repeat(64);
    let e = error_of(&web_pod("", APP).replace(
        "labels: {app: web}",
        &format!("labels: {{app: web, tier: {long}}}"),
    ));
    assert!(e.contains("must be no more than 63 characters"), "{e}");
    // Prefixed keys, dots and dashes, an empty value: all valid.
    let ok = web_pod("", APP).replace(
        "labels: {app: web}",
        "labels: {app: web, app.kubernetes.io/part-of: shop.v1, empty: \"\"}",
    );
    assert!(one("ok.yaml", &ok).is_ok());
}

#[test]
fn unknown_field_warns_with_the_closest_name() {
    let r = one("w.yaml", &web_with("readinessProbe:", "readinesProbe:")).unwrap();
    assert!(
        r.warnings.contains(&"w.yaml:41:9: Deployment/web: spec.template.spec.containers[0].readinesProbe: unknown field, ignored; did you mean `readinessProbe`?".to_string()),
        "{:?}",
        r.warnings
    );
    // Dropped as the API server drops it: the container has no readiness probe.
    let Workload::Deployment { spec: d, .. } = &r.scenario.workloads[0] else {
        panic!()
    };
    assert!(d.template.spec.containers[0].readiness_probe.is_none());
}

#[test]
fn a_handler_lost_to_an_unknown_field_is_said_in_the_error() {
    // The Kubernetes docs' gRPC liveness example once wrote `gRPC:`. The field is unknown and
    // dropped, the probe is left with no handler, and reading stops at that error, so the
    // warning that named the misspelt key is never printed: the error names it.
    let probe = format!(
        "{APP}\n        livenessProbe:\n          gRPC: {{port: 2379}}\n          initialDelaySeconds: 10"
    );
    let e = error_of(&web_pod("", &probe));
    assert!(
        e.contains("spec.template.spec.containers[0].livenessProbe: Required value: must specify exactly one handler type (exec, httpGet, tcpSocket or grpc); spec.template.spec.containers[0].livenessProbe.gRPC: an unknown field; did you mean `grpc`?"),
        "{e}"
    );
    // The same for a hook.
    let hook = format!(
        "{APP}\n        lifecycle:\n          postStart:\n            exe: {{command: [warm]}}"
    );
    let e = error_of(&web_pod("", &hook));
    assert!(
        e.contains("lifecycle.postStart: Required value: must specify exactly one handler type (exec, httpGet, sleep or tcpSocket); spec.template.spec.containers[0].lifecycle.postStart.exe: an unknown field; did you mean `exec`?"),
        "{e}"
    );
    // A probe without a handler and no unknown field: the error alone.
    let e = error_of(&web_pod(
        "",
        &format!("{APP}\n        livenessProbe:\n          initialDelaySeconds: 10"),
    ));
    assert!(
        e.ends_with("livenessProbe: Required value: must specify exactly one handler type (exec, httpGet, tcpSocket or grpc)"),
        "{e}"
    );
}

#[test]
fn shell_wrappers() {
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(shell_wrapper_without_exec(
        &v(&["/bin/sh", "-c", "./a; ./b"]),
        &[]
    ));
    // bash execs a string that is one simple command itself (should_suppress_fork); `sh` is
    // whichever shell the image installs, so the shell is taken to stay.
    assert!(!shell_wrapper_without_exec(
        &v(&["bash"]),
        &v(&["-c", "python app.py"])
    ));
    assert!(shell_wrapper_without_exec(
        &v(&["sh"]),
        &v(&["-c", "python app.py"])
    ));
    assert!(!shell_wrapper_without_exec(
        &v(&["sh", "-c", "exec python app.py"]),
        &[]
    ));
    assert!(!shell_wrapper_without_exec(&v(&["python", "app.py"]), &[]));
    assert!(!shell_wrapper_without_exec(&[], &[]));
}

#[test]
fn cli_checks_manifests_and_refuses_the_wrong_file() {
    let dir = TempDir::new("manifests");
    // With a node its nodeSelector (`disk: ssd`) matches.
    let web = dir.write(
        "web.yaml",
        &format!("{WEB}---\napiVersion: v1\nkind: Node\nmetadata: {{name: ssd-1, labels: {{disk: ssd}}}}\nstatus: {{allocatable: {{cpu: \"8\", memory: 16Gi}}}}\n"),
    );
    let out = bin::podcheck(&["check", "-f", &web, "--verbose", "--plan", "delete-pod"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let app = &web;
    assert!(
        stdout.contains(&format!("{app}: delete-pod web  (Kubernetes")),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 application, 1 plan scenario:"),
        "{stdout}"
    );
    assert!(stderr.contains("assumed"), "{stderr}");
    assert!(stderr.contains("fields accepted but not read"), "{stderr}");
    assert_ne!(out.status.code(), Some(2), "{stderr}");
    // No node can take the StatefulSet's pods (the only node's NoExecute taint keeps them
    // off it): said once, and that nothing was checked, not passed off as a clean bill.
    let db = dir.write("db.yaml", DB);
    let out = bin::podcheck(&["check", "-f", &db, "--plan", "delete-pod"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no node can take its pods")
            && err.contains("nothing was checked about any workload"),
        "{err}"
    );
    // A manifest given as a scenario list.
    let out = bin::podcheck(&["check", "--catalogue", &web]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("this is a Kubernetes manifest"));
    // A scenario list given as manifests.
    let out = bin::podcheck(&["check", "-f", common::yaml::CATALOGUE_FILE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("this is a podcheck scenario list"));
    // Bad input on stdin: exit 2, located.
    let out = bin::podcheck_with_stdin(
        &["check", "-f", "-"],
        web_with("replicas: 3", "replicas: 0").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("error: -:6:3: Deployment/web: spec.replicas: replicas must be 1 to 5"));
}

/// YAML-ish text: fragments of the realistic manifests, shuffled, cut and retyped.
fn mutated() -> impl Strategy<Value = String> {
    let lines: Vec<String> = [WEB, DB, JOB]
        .iter()
        .flat_map(|t| t.lines().map(str::to_string))
        .collect();
    let base = prop_oneof![
        Just(WEB.to_string()),
        Just(DB.to_string()),
        Just(JOB.to_string())
    ];
    let edits = prop::collection::vec(
        (0usize..400, 0usize..lines.len(), 0u8..6, any::<u8>()),
        0..8,
    );
    (base, edits).prop_map(move |(text, edits)| {
        let mut ls: Vec<String> = text.lines().map(str::to_string).collect();
        for (at, from, op, byte) in edits {
            if ls.is_empty() {
                break;
            }
            let i = at % ls.len();
            match op {
                0 => ls[i] = lines[from].clone(),
                1 => {
                    ls.remove(i);
                }
                2 => ls.insert(i, lines[from].clone()),
                3 => {
                    let cut = ls[i].len() / 2;
                    let cut = (0..=cut)
                        .rev()
                        .find(|c| ls[i].is_char_boundary(*c))
                        .unwrap_or(0);
                    ls[i].truncate(cut);
                }
                4 => {
                    // A value retyped: a number, a string, a list, a huge number.
                    let v = [
                        "7",
                        "\"x\"",
                        "[]",
                        "{}",
                        "-1",
                        "99999999999999999999",
                        "1.5",
                        "null",
                    ];
                    if let Some((k, _)) = ls[i].split_once(": ") {
                        ls[i] = format!("{k}: {}", v[byte as usize % v.len()]);
                    }
                }
                _ => ls[i].insert(0, (b' ' + byte % 95) as char),
            }
        }
        ls.join("\n")
    })
}

proptest! {
    // 2000 inputs of each kind by default, from a fixed seed; `PROPTEST_CASES` and
    // `PROPTEST_RNG_SEED` set others (tests/common/seed.rs).
    #![proptest_config(common::seed::config(2000, file!()))]

    /// No input panics: each is read, or refused with a message.
    #[test]
    fn fuzz_mutated_manifests_never_panic(text in mutated()) {
        let r = one("fuzz.yaml", &text);
        if let Err(e) = r {
            prop_assert!(e.starts_with("fuzz.yaml"), "{}", e);
        }
    }

    #[test]
    fn fuzz_random_text_never_panics(text in "[a-zA-Z0-9:{}\\[\\],\\- \n\"'#&*!|>%@`]{0,200}") {
        let _ = one("fuzz.yaml", &text);
    }
}

/// Two replicas behind a Service, a readiness probe that does not check the dependency, and
/// a preStop sleep longer than the kube-proxies' lag: a pod delete loses no request.
fn fixed() -> String {
    common::yaml::web_behind_a_service("none", 10, Some(5))
}

/// The same without the preStop sleep.
fn unsafe_web() -> String {
    common::yaml::web_behind_a_service("none", 10, None)
}

/// A folder `shop/` with `shop/unsafe/web.yaml` and `shop/fixed/web.yaml`, and a loose file
/// beside it.
fn shop(tag: &str) -> TempDir {
    let dir = TempDir::new(&format!("apps-{tag}"));
    dir.write("shop/unsafe/web.yaml", &unsafe_web());
    dir.write("shop/fixed/web.yaml", &fixed());
    dir.write("loose.yaml", &fixed());
    dir
}

/// Each folder that directly holds manifests is one application, checked on its own; the
/// files named directly make one more. The unsafe one has a finding, printed with its trace
/// (exit 1); the Kubernetes behaviour is a note with why, not a finding.
#[test]
fn cli_checks_each_application_under_each_plan() {
    let dir = shop("each");
    let folder = dir.join("shop");
    let loose = dir.join("loose.yaml");
    let (code, out, err) = podcheck(&[
        "check",
        "-f",
        folder.to_str().unwrap(),
        "-f",
        loose.to_str().unwrap(),
        "--plan",
        "delete-pod,crash",
    ]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    let f = folder.display().to_string();
    let l = loose.display().to_string();
    let headings: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("  (Kubernetes"))
        .map(|l| l.split("  (").next().unwrap())
        .collect();
    assert_eq!(
        headings,
        [
            format!("{f}/fixed: delete-pod web"),
            format!("{f}/fixed: crash web"),
            format!("{f}/unsafe: delete-pod web"),
            format!("{f}/unsafe: crash web"),
            format!("{l}: delete-pod web"),
            format!("{l}: crash web"),
        ]
    );
    // The unsafe delete: a finding with its shortest counterexample, timeline text.
    let finding = format!("finding: {f}/unsafe: delete-pod web: no_request_to_stopped_container: ");
    let at = out.find(&finding).unwrap_or_else(|| panic!("{out}"));
    let after = &out[at..];
    assert!(
        after.contains("no_request_to_stopped_container (step, violated): counterexample in"),
        "{after}"
    );
    assert!(after.contains("kubectl: delete pod web-"), "{after}");
    // The fixed delete has no finding, only the behaviour note.
    assert!(
        !out.contains(&format!("finding: {f}/fixed: delete-pod")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "kubernetes behaviour: {f}/fixed: delete-pod web: deployment_at_most_replicas_running: a ReplicaSet does not count terminating pods"
        )),
        "{out}"
    );
    let summary = out.lines().last().unwrap();
    // The crashes' requests to a stopped container are behaviour, not findings: one finding,
    // the unsafe delete's.
    assert!(
        summary.starts_with(
            "3 applications, 6 plan scenarios: 1 finding in 1 scenario (1 resting on assumed defaults); 6 Kubernetes behaviours; "
        ),
        "{summary}"
    );
    // --traces: also the counterexample of the Kubernetes behaviour.
    let (_, out, _) = podcheck(&[
        "check",
        "-f",
        folder.join("fixed").to_str().unwrap(),
        "--plan",
        "delete-pod",
        "--traces",
    ]);
    assert!(
        out.contains("delete-pod web / deployment_at_most_replicas_running (always, violated): counterexample in"),
        "{out}"
    );
    // The fixed application alone, under the delete: clean, exit 0.
    let (code, out, err) = podcheck(&[
        "check",
        "-f",
        folder.join("fixed").to_str().unwrap(),
        "--plan",
        "delete-pod",
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        out.lines().last().unwrap().starts_with(
            "1 application, 1 plan scenario: 0 findings in 0 scenarios; 1 Kubernetes behaviour;"
        ),
        "{out}"
    );
    // Stopped at a bound with no finding so far: incomplete, exit 3.
    let (code, out, err) = podcheck(&[
        "check",
        "-f",
        folder.join("fixed").to_str().unwrap(),
        "--plan",
        "delete-pod",
        "--max-states",
        "10",
    ]);
    assert_eq!(code, Some(3), "{out}\n{err}");
    assert!(
        out.lines().last().unwrap().ends_with("; 1 incomplete"),
        "{out}"
    );
}

#[test]
fn cli_plan_errors_exit_2() {
    let dir = shop("plans");
    let fixed = dir.join("shop/fixed");
    let fixed = fixed.to_str().unwrap();
    // An unknown plan: the list of plans.
    let (code, _, err) = podcheck(&["check", "-f", fixed, "--plan", "delete-pod,reboot"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("unknown plan `reboot`; the plans are: delete-pod, rollout, dependency-outage, crash, drain, partition, partition-force-delete, power-off"),
        "{err}"
    );
    // A plan named that applies to nothing: an error naming why.
    let (code, _, err) = podcheck(&["check", "-f", fixed, "--plan", "dependency-outage"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--plan dependency-outage applies to nothing in the manifests")
            && err.contains("no probe checks the dependency"),
        "{err}"
    );
    // An empty plan name, alone or after a comma, and a plan named twice: errors, never
    // "every plan" or a plan checked twice.
    for (plan, says) in [
        ("", "an empty plan name"),
        ("delete-pod,", "an empty plan name"),
        ("delete-pod,delete-pod", "--plan names `delete-pod` twice"),
    ] {
        let (code, out, err) = podcheck(&["check", "-f", fixed, "--plan", plan]);
        assert_eq!(code, Some(2), "--plan {plan:?}: {err}");
        assert!(
            out.is_empty() && err.contains(says),
            "--plan {plan:?}: {err}"
        );
    }
    let (code, _, err) = podcheck(&[
        "check",
        "-f",
        fixed,
        "--plan",
        "delete-pod",
        "--plan",
        "delete-pod",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--plan names `delete-pod` twice"), "{err}");
    // A misspelt plan: the closest first.
    let (code, _, err) = podcheck(&["trace", "-f", fixed, "--plan", "delet-pod"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "unknown plan `delet-pod` (did you mean `delete-pod`?); the plans are: delete-pod,"
        ),
        "{err}"
    );
    // --plan without -f.
    let (code, _, err) = podcheck(&["check", "healthy", "--plan", "drain"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--plan and --trace-format go with -f"),
        "{err}"
    );
}

/// `--format json` carries findings and Kubernetes behaviour apart, the finding's trace in
/// `--trace-format` (a JSON trace as JSON, a Mermaid diagram as text).
#[test]
fn cli_json_report_of_findings_and_behaviour() {
    let dir = shop("json");
    let folder = dir.join("shop");
    let folder = folder.to_str().unwrap();
    let (code, out, err) = podcheck(&[
        "check",
        "-f",
        folder,
        "--plan",
        "delete-pod",
        "--format",
        "json",
        "--trace-format",
        "json",
    ]);
    assert_eq!(code, Some(1), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        v["applications"],
        serde_json::json!([format!("{folder}/fixed"), format!("{folder}/unsafe")])
    );
    let scenarios = v["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), 2);
    let fixed = &scenarios[0];
    assert_eq!(fixed["plan"], "delete-pod");
    assert_eq!(fixed["application"], format!("{folder}/fixed"));
    assert_eq!(fixed["scenario"], format!("{folder}/fixed: delete-pod web"));
    assert_eq!(fixed["findings"], serde_json::json!([]));
    assert_eq!(
        fixed["kubernetes_behaviour"][0]["property"],
        "deployment_at_most_replicas_running"
    );
    assert!(fixed["kubernetes_behaviour"][0]["why"]
        .as_str()
        .unwrap()
        .contains("IsPodActive"));
    let unsafe_ = &scenarios[1];
    let names: Vec<&str> = unsafe_["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["property"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"no_request_to_stopped_container"),
        "{names:?}"
    );
    let f = &unsafe_["findings"][0];
    assert!(f["trace_steps"].as_u64().unwrap() > 0);
    assert!(
        f["trace"].is_object(),
        "a JSON trace is JSON: {}",
        f["trace"]
    );
    assert!(v["findings"].as_u64().unwrap() >= 1);
    assert_eq!(v["kubernetes_behaviours"], 2);
    assert_eq!(v["not_applicable"], serde_json::json!([]));
    // Mermaid: the diagram's text.
    let (_, out, _) = podcheck(&[
        "check",
        "-f",
        folder,
        "--plan",
        "delete-pod",
        "--format",
        "json",
        "--trace-format",
        "mermaid",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let t = v["scenarios"][1]["findings"][0]["trace"].as_str().unwrap();
    assert!(t.starts_with("sequenceDiagram"), "{t}");
    // ITF and DOT too: every trace format is reachable for a finding.
    let (_, out, _) = podcheck(&[
        "check",
        "-f",
        folder,
        "--plan",
        "delete-pod",
        "--format",
        "json",
        "--trace-format",
        "itf",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let t = &v["scenarios"][1]["findings"][0]["trace"];
    assert!(t["#meta"].is_object() && t["states"].is_array(), "{t}");
    let (_, out, _) = podcheck(&[
        "check",
        "-f",
        &format!("{folder}/unsafe"),
        "--plan",
        "delete-pod",
        "--trace-format",
        "dot",
    ]);
    assert!(out.contains("digraph"), "{out}");
}

/// Every plan by default; a plan with nothing to act on is said on stderr, not an error.
#[test]
fn cli_default_plans_say_which_do_not_apply() {
    let dir = TempDir::new("job");
    let job = dir.write("job.yaml", JOB);
    let (code, out, err) = podcheck(&["check", "-f", &job]);
    assert_ne!(code, Some(2), "{err}");
    assert!(err.contains("not applicable: "), "{err}");
    assert!(
        err.contains(": rollout: no Deployment or StatefulSet to roll out"),
        "{err}"
    );
    assert!(
        out.lines().last().unwrap().starts_with("1 application, "),
        "{out}"
    );
}

/// `trace -f` and `explore -f` work on one plan scenario of the manifests: the only one, or
/// the one named; otherwise an error that lists them (exit 2).
#[test]
fn trace_and_explore_take_manifests() {
    let unsafe_api = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/manifests/api-prestop/unsafe"
    );
    let (code, out, err) = podcheck(&[
        "trace",
        "-f",
        unsafe_api,
        "--property",
        "no_request_to_stopped_container",
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        out.contains("delete-pod checkout-api / no_request_to_stopped_container (step, violated): counterexample in 3 steps"),
        "{out}"
    );
    assert!(out.contains("kubectl: delete pod checkout-api-1"), "{out}");
    let name = format!("{unsafe_api}: delete-pod checkout-api");
    let (code, out, _) = podcheck(&["trace", "-f", unsafe_api, &name, "--format", "json"]);
    assert_eq!(code, Some(0));
    assert!(
        serde_json::from_str::<serde_json::Value>(&out).is_ok(),
        "{out}"
    );
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/manifests");
    for cmd in ["trace", "explore"] {
        let (code, _, err) = podcheck(&[cmd, "-f", examples]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("error: the manifests have 12 plan scenarios: name one (quoted), or narrow them with --plan: "),
            "{err}"
        );
        let (code, _, err) = podcheck(&[cmd, "-f", unsafe_api, "nope"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("error: the manifests have no plan scenario `nope`; they have: "),
            "{err}"
        );
        let (code, _, err) = podcheck(&[cmd, "-f", unsafe_api, "--plan", "reboot"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("unknown plan `reboot`"), "{err}");
        let (code, _, _) = podcheck(&[cmd, "web", "--plan", "drain"]);
        assert_eq!(code, Some(2), "--plan without -f");
    }
}

/// A hidden folder under the one given (`.github`, whose workflows are YAML but not
/// Kubernetes objects) is passed over; named itself, it is read.
#[test]
fn hidden_folders_under_the_one_given_are_passed_over() {
    let dir = shop("hidden");
    dir.write("shop/.github/workflows/ci.yaml", "on: push\njobs: {}\n");
    let shop = dir.join("shop").display().to_string();
    let apps = podcheck::applications(std::slice::from_ref(&shop))
        .expect("read")
        .apps;
    let names: Vec<&str> = apps.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, [format!("{shop}/fixed"), format!("{shop}/unsafe")]);
    let hidden = format!("{shop}/.github/workflows");
    let apps = podcheck::applications(std::slice::from_ref(&hidden))
        .expect("read")
        .apps;
    assert_eq!(apps.len(), 1);
    assert!(podcheck::read_application(&apps[0]).is_err());
}

/// A `podcheck.dev/` annotation the reader does not know, one in a place it is not read, and
/// one for a container the pod lacks: each a warning at its line, never dropped silently.
#[test]
fn misplaced_and_unknown_annotations_are_warned_about() {
    let text = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: {podcheck.dev/boot-seconds: "3", podcheck.dev/plans: delete-pod}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations:
        podcheck.dev/plans: drain
        podcheck.dev/bootseconds: "3"
        podcheck.dev/sigterm.sidecar: ignore
        podcheck.dev/sigterm.app: ignore
    spec:
      containers: [{name: app, image: web:1}]
"#;
    let r = one("web.yaml", text).expect("read");
    assert_eq!(
        r.warnings,
        [
            "web.yaml:5:17: Deployment/web: metadata.annotations[podcheck.dev/boot-seconds]: ignored here: podcheck reads `podcheck.dev/boot-seconds` on the pod template (or a Pod)",
            "web.yaml:13:9: Deployment/web: spec.template.metadata.annotations[podcheck.dev/plans]: ignored here: podcheck reads `podcheck.dev/plans` on a workload's own metadata (or a Pod's)",
            "web.yaml:14:9: Deployment/web: spec.template.metadata.annotations[podcheck.dev/bootseconds]: not an annotation podcheck reads, ignored; did you mean `podcheck.dev/boot-seconds`?",
            "web.yaml:15:9: Deployment/web: spec.template.metadata.annotations[podcheck.dev/sigterm.sidecar]: the pod has no container `sidecar`: ignored",
        ]
    );
    // The ones in their place are read.
    assert_eq!(r.plans["web"], [spec::Plan::DeletePod]);
    let Workload::Deployment { spec: d, .. } = &r.scenario.workloads[0] else {
        panic!()
    };
    assert_eq!(
        d.template.spec.containers[0].app.on_sigterm,
        OnSigterm::Ignore
    );
}

/// `spec.clusterIP: None` makes the Service headless: no kube-proxy routes it (so, by
/// default, no client request goes through one, and the reading says so); a `clients`
/// annotation of true on it is refused where it stands; an address is a ClusterIP Service.
#[test]
fn a_headless_service_is_read_from_cluster_ip_none() {
    let svc = "  publishNotReadyAddresses: true\n";
    let r = one(
        "web.yaml",
        &web_with(svc, &format!("{svc}  clusterIP: None\n")),
    )
    .unwrap();
    let s = r.scenario.service.as_ref().unwrap();
    assert!(s.headless && !s.clients, "{s:?}");
    assert!(
        r.assumed
            .iter()
            .any(|a| a.contains("clusterIP: None (headless)")),
        "{:?}",
        r.assumed
    );
    for said in [&r.ignored, &r.unused] {
        assert!(!said.iter().any(|w| w.contains("clusterIP")), "{said:?}");
    }
    // kube-proxy does not handle it: its proxy lag is never read, so the annotation is said
    // to be ignored at its line, and without it no default is assumed.
    assert_eq!(
        r.warnings
            .iter()
            .filter(|w| w.contains("clusterIP"))
            .collect::<Vec<_>>(),
        [&"web.yaml:64:17: Service/web: metadata.annotations[podcheck.dev/proxy-lag-seconds]: ignored on a headless Service (spec.clusterIP: None): kube-proxy does not handle it, so no kube-proxy lags behind its EndpointSlice".to_string()],
    );
    let bare = web_with(svc, &format!("{svc}  clusterIP: None\n")).replace(
        "  annotations: {podcheck.dev/proxy-lag-seconds: \"2\"}\n",
        "",
    );
    let r = one("web.yaml", &bare).unwrap();
    assert!(
        r.warnings.iter().all(|w| !w.contains("proxy-lag")),
        "{:?}",
        r.warnings
    );
    assert!(
        r.defaults
            .iter()
            .all(|d| !d.annotation.contains("proxy-lag")),
        "{:?}",
        r.defaults
    );
    assert!(
        r.assumed.iter().all(|a| !a.contains("proxy-lag")),
        "{:?}",
        r.assumed
    );

    let r = one(
        "web.yaml",
        &web_with(svc, &format!("{svc}  clusterIP: 10.96.0.10\n")),
    )
    .unwrap();
    let s = r.scenario.service.as_ref().unwrap();
    assert!(!s.headless && s.clients, "{s:?}");

    let text = web_with(svc, &format!("{svc}  clusterIP: None\n")).replace(
        "podcheck.dev/proxy-lag-seconds: \"2\"",
        "podcheck.dev/proxy-lag-seconds: \"2\", podcheck.dev/clients: \"true\"",
    );
    let e = error_of(&text);
    assert!(
        e.contains(":64:54: Service/web: metadata.annotations[podcheck.dev/clients]: true on a headless Service (spec.clusterIP: None)"),
        "{e}"
    );
}

/// The folder walk reads each folder once: a link to a folder under the one given is not
/// followed (a link back up would lead it round and round), a folder given twice or under
/// another one given is read once, and a file given twice too; each with a note. A manifest
/// name that is a link to nothing is an error naming it.
#[test]
fn folders_are_read_once_and_links_to_folders_are_not_followed() {
    let dir = shop("walk");
    let shop_dir = dir.join("shop");
    let s = shop_dir.display().to_string();
    std::os::unix::fs::symlink("..", shop_dir.join("unsafe/up")).unwrap();
    let names = |r: &podcheck::Applications| -> Vec<String> {
        r.apps.iter().map(|a| a.name.clone()).collect()
    };
    let read = podcheck::applications(std::slice::from_ref(&s)).expect("read");
    assert_eq!(names(&read), [format!("{s}/fixed"), format!("{s}/unsafe")]);
    assert_eq!(
        read.notes,
        [format!(
            "{s}/unsafe/up: a symbolic link to a folder, not followed (name it with -f to read it)"
        )]
    );
    // Given again, with a slash, and a folder under it: read once, a note for each repeat.
    let unsafe_dir = format!("{s}/unsafe");
    let read =
        podcheck::applications(&[s.clone(), format!("{s}/"), unsafe_dir.clone()]).expect("read");
    assert_eq!(names(&read), [format!("{s}/fixed"), format!("{s}/unsafe")]);
    let repeats: Vec<&String> = read
        .notes
        .iter()
        .filter(|n| n.contains("already read under -f"))
        .collect();
    assert_eq!(repeats.len(), 2, "{:?}", read.notes);
    assert!(
        repeats[1].starts_with(&format!("{unsafe_dir}: already read under -f {s}")),
        "{repeats:?}"
    );
    // The folder under it first: the walk of the other passes it over.
    let read = podcheck::applications(&[unsafe_dir.clone(), s.clone()]).expect("read");
    assert_eq!(names(&read), [format!("{s}/unsafe"), format!("{s}/fixed")]);
    // A file given twice: read once.
    let loose = dir.join("loose.yaml").display().to_string();
    let read = podcheck::applications(&[loose.clone(), loose.clone()]).expect("read");
    assert_eq!(read.apps.len(), 1);
    assert_eq!(read.apps[0].sources.len(), 1);
    assert_eq!(
        read.notes,
        [format!("{loose}: given twice with -f: it is read once")]
    );
    // A file named with -f that a folder given with -f holds: read in the folder only.
    let inside = format!("{unsafe_dir}/web.yaml");
    let read = podcheck::applications(&[unsafe_dir.clone(), inside.clone()]).expect("read");
    assert_eq!(names(&read), [format!("{s}/unsafe")]);
    assert!(
        read.notes.iter().any(|n| n.starts_with(&format!(
            "{inside}: already read with the folder given as -f {unsafe_dir}"
        ))),
        "{:?}",
        read.notes
    );
    // On the command line: the note on stderr, and the application checked once.
    let (code, out, err) = podcheck(&["check", "-f", &unsafe_dir, "--plan", "delete-pod"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("note: ")
            && err.contains("unsafe/up: a symbolic link to a folder, not followed"),
        "{err}"
    );
    assert!(out.contains("1 application, 1 plan scenario"), "{out}");
    // A manifest name that is a link to nothing: an error, not passed over.
    std::os::unix::fs::symlink("nowhere.yaml", shop_dir.join("fixed/gone.yaml")).unwrap();
    let e = podcheck::applications(std::slice::from_ref(&s)).unwrap_err();
    assert!(
        e.0.contains("fixed/gone.yaml: a symbolic link to nowhere.yaml, which cannot be read"),
        "{e}"
    );
    let (code, out, err) = podcheck(&["check", "-f", &s, "--plan", "delete-pod"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty() && err.contains("gone.yaml"), "{err}");
}

/// `--replicas` sizes Deployments and StatefulSets: given for manifests that have none, it
/// would change nothing, and it is an error that says so.
#[test]
fn replicas_for_manifests_without_a_replicated_workload_is_an_error() {
    let dir = TempDir::new("replicas");
    let job = dir.write("job.yaml", JOB);
    let (code, out, err) = podcheck(&["check", "-f", &job, "--plan", "crash", "--replicas", "2"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!(
            "error: --replicas 2 sizes Deployments and StatefulSets, and {job} has none"
        )),
        "{err}"
    );
}

/// The fields the model does not read are never dropped silently: without `--verbose` a note
/// says how many and how to list them; with it they are listed, and the note is not repeated.
#[test]
fn fields_the_model_does_not_read_are_counted_without_verbose() {
    const SMALL: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {team: shop}
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
        ports: [{containerPort: 8080}]
        workingDir: /srv
"#;
    let dir = TempDir::new("unused");
    let file = dir.write("web.yaml", SMALL);
    let n = one(&file, SMALL).expect("read").unused.len();
    assert!(n > 1, "the manifest has fields the model does not read");
    let note = format!("note: {file}: {n} fields given are not read by the model");
    // check -f: the count, and how to list them.
    let (code, _, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod"]);
    assert_ne!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("{note} (--verbose lists them with their lines)\n")),
        "{err}"
    );
    // With --verbose: the list, each with its line, and no count.
    let (code, _, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod", "--verbose"]);
    assert_ne!(code, Some(2), "{err}");
    assert!(!err.contains(&note), "{err}");
    assert!(
        err.contains("note: fields accepted but not read by the model:"),
        "{err}"
    );
    assert!(err.contains(&format!("{file}:")), "{err}");
    // trace -f has no --verbose: the note says which command lists them.
    let (code, _, err) = podcheck(&["trace", "-f", &file, "--plan", "delete-pod"]);
    assert_ne!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{note} (podcheck check -f PATH --verbose lists them with their lines)\n"
        )),
        "{err}"
    );
}

/// A Deployment `web` of two replicas whose pods carry `node_selector` (a YAML flow map).
fn web_with_node_selector(node_selector: &str) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: 2
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      nodeSelector: {node_selector}
      containers:
      - name: app
        image: web:1
"#
    )
}

/// The nodes the pods of the settled start of `scenario` are placed on, by name, sorted (a
/// pod that fits no node is left out).
fn placed_on(scenario: &spec::Scenario) -> Vec<String> {
    let m = podcheck_model::cluster::Cluster::new(scenario.clone(), Vec::new());
    let mut on: Vec<String> = m
        .start
        .api
        .pods
        .iter()
        .filter_map(|p| p.node)
        .map(|n| scenario.cluster.nodes[n.index()].name.clone())
        .collect();
    on.sort();
    on
}

/// `nodeSelector: {kubernetes.io/os: linux}`, in most Helm charts, on the default nodes: they
/// carry the labels every kubelet sets (`kubelet_node_status.go` `initialNode`), so the pods
/// schedule, every plan checks them, and there is no finding (exit 0). Nodes without those
/// labels would leave the pods Pending: a rollout that never completes (a finding, exit 1),
/// and a delete-pod that checks nothing.
#[test]
fn a_kubernetes_io_os_linux_selector_schedules_on_the_default_nodes() {
    let dir = TempDir::new("os-linux");
    let text = web_with_node_selector("{kubernetes.io/os: linux, kubernetes.io/arch: amd64}");
    let file = dir.write("web.yaml", &text);
    let r = one(&file, &text).expect("read");
    assert!(
        r.assumed.iter().any(|a| a.contains("no Node given")
            && a.contains(
                "kubernetes.io/os=linux, kubernetes.io/arch=amd64, kubernetes.io/hostname=<name>, and the deprecated beta.kubernetes.io/os=linux, beta.kubernetes.io/arch=amd64"
            )),
        "{:?}",
        r.assumed
    );
    assert_eq!(placed_on(&r.scenario).len(), 2);
    // Every plan (rollout among them), then delete-pod alone.
    for plans in [&[][..], &["--plan", "delete-pod"][..]] {
        let args = [&["check", "-f", file.as_str()][..], plans].concat();
        let (code, out, err) = podcheck(&args);
        assert_eq!(code, Some(0), "{args:?}\n{out}\n{err}");
        assert!(
            out.lines()
                .last()
                .is_some_and(|l| l.contains(": 0 findings in 0 scenarios;")),
            "{args:?}\n{out}"
        );
        assert!(!out.contains("finding: "), "{args:?}\n{out}");
        // Checked, not passed over: the pods are placed and the cluster settles.
        assert!(
            !err.contains("only the start state was explored") && !err.contains("never settled"),
            "{args:?}\n{err}"
        );
        assert!(!err.contains("warning: "), "{args:?}\n{err}");
    }
    let (_, out, _) = podcheck(&["check", "-f", &file]);
    assert!(out.contains(&format!("{file}: rollout web  (")), "{out}");
}

/// The deprecated `beta.kubernetes.io/os` and `beta.kubernetes.io/arch`, which older
/// manifests still select on (a `nodeSelector: {beta.kubernetes.io/os: linux}` on every
/// Deployment of an application is common), are set by every kubelet too (`initialNode`:
/// `kubeletapis.LabelOS`, `kubeletapis.LabelArch`): the pods schedule on the default nodes
/// and the plans check them. A Node object that says `kubernetes.io/os: windows` is a
/// Windows node under the beta key as well.
#[test]
fn a_beta_kubernetes_io_os_selector_schedules_on_the_default_nodes() {
    let dir = TempDir::new("beta-os-linux");
    let text = web_with_node_selector("{beta.kubernetes.io/os: linux}");
    let file = dir.write("web.yaml", &text);
    let r = one(&file, &text).expect("read");
    assert_eq!(placed_on(&r.scenario).len(), 2);
    let (code, out, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(!err.contains("no node can take"), "{err}");
    assert!(!err.contains("nothing was checked"), "{err}");
    assert!(out.contains(&format!("{file}: delete-pod web  (")), "{out}");
    // Under the beta key, a Windows node is Windows and not Linux.
    for (selector, on) in [
        ("{beta.kubernetes.io/os: windows}", ["win-1", "win-1"]),
        ("{beta.kubernetes.io/os: linux}", ["lin-1", "lin-1"]),
    ] {
        let text = format!("{}{WIN_AND_LINUX_NODES}", web_with_node_selector(selector));
        let r = one("app.yaml", &text).expect("read");
        assert_eq!(placed_on(&r.scenario), on, "{selector}");
    }
}

/// Two Node objects: a Windows node (its kubelet sets `kubernetes.io/os=windows`; labelled
/// `pool: win` too) and a Linux node with no labels of its own.
const WIN_AND_LINUX_NODES: &str = r#"---
apiVersion: v1
kind: Node
metadata:
  name: win-1
  labels: {kubernetes.io/os: windows, pool: win}
status:
  allocatable: {cpu: "4", memory: 8Gi}
---
apiVersion: v1
kind: Node
metadata:
  name: lin-1
status:
  allocatable: {cpu: "4", memory: 8Gi}
"#;

/// `kubernetes.io/hostname` is the node's name: a nodeSelector on it pins the pods to that
/// node, the one the scheduler would not pick first (node-1 has the more cpu free).
#[test]
fn a_kubernetes_io_hostname_selector_pins_the_pods_to_that_default_node() {
    let pick = one("web.yaml", &web_with_node_selector("{}")).expect("read");
    assert_eq!(
        podcheck_model::cluster::first_pod_nodes(&pick.scenario),
        [Some("node-1".to_string())]
    );
    for name in ["node-1", "node-2"] {
        let text = web_with_node_selector(&format!("{{kubernetes.io/hostname: {name}}}"));
        let r = one("web.yaml", &text).expect("read");
        assert_eq!(placed_on(&r.scenario), [name, name], "{name}");
        assert_eq!(
            podcheck_model::cluster::first_pod_nodes(&r.scenario),
            [Some(name.to_string())]
        );
    }
    // No default node has another name.
    let r = one(
        "web.yaml",
        &web_with_node_selector("{kubernetes.io/hostname: node-3}"),
    )
    .expect("read");
    assert!(placed_on(&r.scenario).is_empty());
}

/// A Node object keeps its own labels as read (a Windows node's kubelet sets
/// `kubernetes.io/os=windows`), and gets the kubelet's well-known ones it lacks: its name as
/// `kubernetes.io/hostname`, `kubernetes.io/arch=amd64`.
#[test]
fn a_node_object_keeps_its_own_os_label_and_gets_the_ones_it_lacks() {
    let read_with = |selector: &str| {
        let text = format!("{}{WIN_AND_LINUX_NODES}", web_with_node_selector(selector));
        one("app.yaml", &text).expect("read")
    };
    let r = read_with("{}");
    let win = &r.scenario.cluster.nodes[0];
    assert_eq!(win.name, "win-1");
    assert_eq!(
        win.labels.get("kubernetes.io/os").map(String::as_str),
        Some("windows")
    );
    assert_eq!(win.labels.get("pool").map(String::as_str), Some("win"));
    assert!(!r.assumed.iter().any(|a| a.contains("no Node given")));
    for (selector, on) in [
        ("{kubernetes.io/os: windows}", ["win-1", "win-1"]),
        ("{kubernetes.io/os: linux}", ["lin-1", "lin-1"]),
        (
            "{kubernetes.io/hostname: win-1, kubernetes.io/arch: amd64}",
            ["win-1", "win-1"],
        ),
        (
            "{kubernetes.io/hostname: lin-1, kubernetes.io/os: linux}",
            ["lin-1", "lin-1"],
        ),
    ] {
        assert_eq!(placed_on(&read_with(selector).scenario), on, "{selector}");
    }
    // The Windows node is not Linux, and neither node is the other.
    for selector in [
        "{kubernetes.io/hostname: win-1, kubernetes.io/os: linux}",
        "{kubernetes.io/hostname: lin-1, pool: win}",
    ] {
        assert!(
            placed_on(&read_with(selector).scenario).is_empty(),
            "{selector}"
        );
    }
}

/// A Deployment of `replicas` (none: the field not written) and a HorizontalPodAutoscaler of
/// it between `min` and `max`.
fn web_with_autoscaler(replicas: Option<u8>, target: &str, min: Option<u8>, max: u8) -> String {
    let replicas = replicas.map_or(String::new(), |n| format!("  replicas: {n}\n"));
    let min = min.map_or(String::new(), |n| format!("  minReplicas: {n}\n"));
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
{replicas}  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers:
      - name: app
        image: web:1
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {{name: web-hpa}}
spec:
  scaleTargetRef: {{apiVersion: apps/v1, kind: Deployment, name: {target}}}
{min}  maxReplicas: {max}
"#
    )
}

/// A HorizontalPodAutoscaler is not run by the model, but the replicas it keeps its target
/// at are what the cluster runs (`reconcileAutoscaler`: a count below minReplicas is raised
/// to it, one above maxReplicas lowered): where the manifest's `replicas` (written or not)
/// is outside them, a warning at the autoscaler's line says how many pods the cluster runs
/// and what to write. Inside them, or for a workload of another name, nothing is said.
#[test]
fn an_autoscaler_whose_bounds_exclude_the_replicas_checked_is_a_warning() {
    let warned = |text: &str| -> Vec<String> {
        one("app.yaml", text)
            .expect("read")
            .warnings
            .into_iter()
            .filter(|w| w.contains("HorizontalPodAutoscaler/"))
            .collect()
    };
    // podinfo's shape: no replicas (1), the autoscaler's minimum 2.
    assert_eq!(
        warned(&web_with_autoscaler(None, "web", Some(2), 4)),
        ["app.yaml:13:1: HorizontalPodAutoscaler/web-hpa: keeps Deployment/web at 2 to 4 replicas, so a real cluster runs 2 of its pods; the model does not run the autoscaler and checks spec.replicas 1, the default of a field not written; write `replicas: 2` to check what the cluster runs"]
    );
    // Above the maximum.
    assert_eq!(
        warned(&web_with_autoscaler(Some(5), "web", Some(2), 3)),
        ["app.yaml:14:1: HorizontalPodAutoscaler/web-hpa: keeps Deployment/web at 2 to 3 replicas, so a real cluster runs 3 of its pods; the model does not run the autoscaler and checks its spec.replicas: 5; write `replicas: 3` to check what the cluster runs"]
    );
    // A minimum the model cannot hold.
    assert!(warned(&web_with_autoscaler(Some(2), "web", Some(8), 10))[0]
        .ends_with("runs 8 of its pods; the model does not run the autoscaler and checks its spec.replicas: 2; the model holds up to 5 replicas, so `replicas: 5` comes nearest"));
    // Within the bounds (minReplicas defaults to 1), or about another workload: no word.
    for text in [
        web_with_autoscaler(Some(3), "web", Some(2), 4),
        web_with_autoscaler(None, "web", None, 4),
        web_with_autoscaler(None, "api", Some(2), 4),
    ] {
        assert!(warned(&text).is_empty(), "{text}");
    }
    // Still listed among the objects ignored.
    let r = one("app.yaml", &web_with_autoscaler(None, "web", Some(2), 4)).expect("read");
    assert!(
        r.ignored
            .iter()
            .any(|i| i.contains("HorizontalPodAutoscaler/web-hpa")),
        "{:?}",
        r.ignored
    );
}

/// A kustomization beside the objects is kustomize's input, not an API object: listed as
/// not applied, by its kind alone (it has no name), with how to check what `kubectl apply
/// -k` applies. Objects written for kustomize often lack what it adds (metrics-server's
/// Deployment has no selector: `commonLabels` writes it); the error about one then points
/// at the kustomization too, still naming the file, line and field, exit 2.
#[test]
fn a_kustomization_is_said_to_be_not_applied() {
    const KUSTOMIZATION: &str = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ncommonLabels: {app: web}\nresources: [web.yaml]\n";
    let dir = TempDir::new("kustomize");
    let k = dir.write("app/kustomization.yaml", KUSTOMIZATION);
    dir.write("app/web.yaml", &web_with_node_selector("{}"));
    let app = dir.join("app").to_str().expect("utf-8").to_string();
    let (code, _, err) = podcheck(&["check", "-f", &app, "--plan", "delete-pod"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("ignored: {k}:1:1: Kustomization (a kustomization is not applied: its labels, namespace, prefixes, images and patches are not in the objects read here; to check what `kubectl apply -k` applies, give podcheck the rendered objects: `kubectl kustomize DIR | podcheck check -f -`)")),
        "{err}"
    );
    const NO_SELECTOR: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers:
      - name: app
        image: web:1
"#;
    let web = dir.write("app/web.yaml", NO_SELECTOR);
    let (code, out, err) = podcheck(&["check", "-f", &app]);
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(
        err.contains(&format!(
            "error: {web}:4:1: Deployment/web: spec.selector: "
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("({k}:1:1 is a kustomization, which podcheck does not apply: to check what `kubectl apply -k` applies, give it the rendered objects, `kubectl kustomize DIR | podcheck check -f -`)")),
        "{err}"
    );
    // Without a kustomization, the same error says nothing of one.
    let alone = one("web.yaml", NO_SELECTOR).expect_err("no selector");
    assert!(!alone.contains("kustomiz"), "{alone}");
}

/// A CronJob is ignored with why (no schedule in the model) and what to do to check one run.
#[test]
fn a_cronjob_is_ignored_with_why() {
    let text = format!(
        "{}---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: backup}}\nspec:\n  schedule: \"@daily\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers: [{{name: b, image: b:1}}]\n",
        web_with_node_selector("{}")
    );
    let r = one("app.yaml", &text).expect("read");
    assert!(
        r.ignored.iter().any(|i| i.ends_with("CronJob/backup (the model does not read CronJob objects: it has no schedule to start their Jobs on; to check one run, write its jobTemplate as a Job)")),
        "{:?}",
        r.ignored
    );
}

/// Two replicas sharing one ReadWriteOnce claim of storage class `manual`, and the
/// PersistentVolume `pv` written as `volume` (its source and whatever else its spec says).
fn shared_claim_app(claim_spec: &str, volume: &str) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {{app: web}}
  template:
    metadata:
      labels: {{app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
      volumes:
        - name: data
          persistentVolumeClaim: {{claimName: data}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources: {{requests: {{storage: 1Gi}}}}
{claim_spec}
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv
spec:
  capacity: {{storage: 1Gi}}
  accessModes: [ReadWriteOnce]
{volume}
"#
    )
}

const MANUAL: &str = "  storageClassName: manual";
const HOST_PATH: &str = "  storageClassName: manual\n  hostPath: {path: /mnt/data}";

/// A claim whose every PersistentVolume it can bind has no attacher (`hostPath`, `local`,
/// `nfs`) is read as such; any other binding leaves it attachable, as a provisioned volume is.
#[test]
fn a_claim_bound_to_a_volume_without_an_attacher_is_read_so() {
    let attachable = |claim: &str, volume: &str| {
        let r = one("app.yaml", &shared_claim_app(claim, volume)).unwrap();
        assert_eq!(r.scenario.persistent_volume_claims.len(), 1);
        r.scenario.persistent_volume_claims[0].spec.attachable
    };
    assert_eq!(attachable(MANUAL, HOST_PATH), Some(false));
    let local = "  storageClassName: manual\n  local: {path: /mnt/disks/ssd1}";
    assert_eq!(attachable(MANUAL, local), Some(false));
    // A local volume's node affinity is not modelled, and said so at its line.
    let pinned = format!(
        "{local}\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n        - matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [node-1]}}]"
    );
    let r = one("app.yaml", &shared_claim_app(MANUAL, &pinned)).unwrap();
    assert!(
        r.warnings.iter().any(|w| w
            .contains("PersistentVolume/pv: spec.nodeAffinity: not modelled")
            && w.contains("VolumeBinding")),
        "{:?}",
        r.warnings
    );
    let nfs = "  storageClassName: manual\n  nfs: {server: nfs.example.com, path: /exports}";
    assert_eq!(attachable(MANUAL, nfs), Some(false));
    // A CSI volume is attached (unless its CSIDriver says otherwise, which is not read).
    let csi = "  storageClassName: manual\n  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}";
    assert_eq!(attachable(MANUAL, csi), None);
    // Another class, or none (the cluster's default class provisions it): not this volume.
    assert_eq!(attachable("  storageClassName: fast", HOST_PATH), None);
    assert_eq!(attachable("", HOST_PATH), None);
    // Reserved for another claim by claimRef; or for this one, whatever its class.
    let reserved = |name: &str| format!("{HOST_PATH}\n  claimRef: {{name: {name}}}");
    assert_eq!(attachable(MANUAL, &reserved("other")), None);
    assert_eq!(attachable("", &reserved("data")), Some(false));
    // Named by volumeName, whatever the class.
    assert_eq!(
        attachable("  volumeName: pv", "  hostPath: {path: /mnt/data}"),
        Some(false)
    );
    assert_eq!(attachable("  volumeName: other", HOST_PATH), None);
    // A claim asking for an access mode the volume lacks cannot bind it.
    let many = shared_claim_app(MANUAL, HOST_PATH).replacen(
        "accessModes: [ReadWriteOnce]\n  resources",
        "accessModes: [ReadWriteMany]\n  resources",
        1,
    );
    let r = one("app.yaml", &many).unwrap();
    assert_eq!(r.scenario.persistent_volume_claims[0].spec.attachable, None);
    // A volume's access modes are checked as the API server checks them, at their line.
    let misspelt = shared_claim_app(MANUAL, HOST_PATH).replacen(
        "  accessModes: [ReadWriteOnce]\n  storageClassName",
        "  accessModes: [ReadWriteOnse]\n  storageClassName",
        1,
    );
    let e = one("app.yaml", &misspelt).unwrap_err();
    assert!(
        e.contains("PersistentVolume/pv")
            && e.contains("spec.accessModes")
            && e.contains("ReadWriteOnse"),
        "{e}"
    );
}

/// The two replicas of a shared ReadWriteOnce claim land on two nodes. Attached, the
/// second waits on a Multi-Attach error; a hostPath volume has no attach step, so both run
/// (each node mounts its own directory), and no property about attachments is said to fail.
#[test]
fn a_volume_without_an_attacher_is_mounted_on_every_node_at_once() {
    use podcheck_model::k8s::Phase;
    let ready = |volume: &str| {
        let r = one("app.yaml", &shared_claim_app(MANUAL, volume)).unwrap();
        let m = podcheck_model::Cluster::new(r.scenario.clone(), Vec::new());
        let s = m.initial_state();
        let nodes: std::collections::BTreeSet<_> =
            s.api.pods.iter().filter_map(|p| p.node).collect();
        assert_eq!(nodes.len(), 2, "the replicas are spread over two nodes");
        s.api
            .pods
            .iter()
            .filter(|p| p.status.phase == Phase::Running && p.status.ready)
            .count()
    };
    assert_eq!(ready(HOST_PATH), 2);
    let csi = "  storageClassName: manual\n  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}";
    assert_eq!(ready(csi), 1);
}
