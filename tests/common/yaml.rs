//! The YAML that more than one test file reads: the built-in catalogue, a scenario whose pod
//! fits no node, one that force-deletes a pod whose program ignores SIGTERM, and a Deployment
//! behind a Service.

/// The built-in catalogue's file.
pub const CATALOGUE_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/input/scenarios/catalogue.yaml"
);

/// The built-in catalogue, as shipped.
pub const CATALOGUE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/input/scenarios/catalogue.yaml"
));

/// A scenario list of one scenario, `name`, where nothing it asks about can happen: its
/// Deployment's pod requests more cpu than the only node has, so it never schedules and is
/// never Ready, and a `deletePod` (which deletes a Ready pod) is never enabled. `start` is the
/// cluster's `start` (none: the default); `expect` the scenario's `expect:` list, or nothing.
pub fn pod_fitting_no_node(name: &str, start: Option<&str>, expect: &str) -> String {
    let start = start.map_or(String::new(), |s| format!("    start: {s}\n"));
    format!(
        r#"
- name: {name}
  description: A pod that fits no node, and a delete of a Ready pod.
  source: "test"
  cluster:
    nodes:
      - {{name: node-1, allocatable: {{cpuMilli: 1000, memoryMi: 4096}}}}
{start}  workloads:
    - kind: Deployment
      metadata: {{name: web}}
      spec:
        replicas: 1
        template:
          spec:
            containers:
              - name: app
                image: web:1.0
                resources: {{requests: {{cpuMilli: 2000}}}}
                app: {{bootSeconds: 1}}
  faults:
    - deletePod: {{workload: web}}
{expect}"#
    )
}

/// A scenario list of one scenario, `name`: `kubectl delete pod --grace-period=0 --force` of
/// the running pod of a Deployment whose program ignores SIGTERM, as a shell as PID 1 does. The
/// object is gone at once, without a deletionTimestamp; the kubelet then stops the containers
/// as a pod being deleted, and SIGKILL comes when the grace runs out, so
/// `graceful_stop_within_grace` is violated (with the two other properties a force delete
/// breaks), as the scenario expects.
pub fn force_delete_ignoring_sigterm(name: &str) -> String {
    format!(
        r#"
- name: {name}
  description: A shell as PID 1 ignores SIGTERM, and its pod is force-deleted.
  source: "test"
  workloads:
    - kind: Deployment
      metadata: {{name: web}}
      spec:
        replicas: 1
        template:
          spec:
            containers:
              - name: app
                image: web:1.0
                resources: {{requests: {{cpuMilli: 500}}}}
                app: {{onSigterm: ignore}}
  faults:
    - forceDeletePod: {{workload: web}}
  expect:
    - {{property: graceful_stop_within_grace, verdict: violated, source: "test: SIGKILL when the grace runs out"}}
    - {{property: deployment_at_most_replicas_running, verdict: violated, source: "test: the replacement starts while the old container runs"}}
    - {{property: force_delete_cleans_runtime, verdict: violated, source: "test: the object goes before the containers stop"}}
"#
    )
}

/// Manifests of a Deployment `web` of two replicas behind a Service `web`, whose kube-proxies
/// are 1 s behind: a pod boots in 1 s and is Ready by an HTTP readiness probe every 5 s.
/// `probe_checks_dependency`: the pod's `podcheck.dev/probe-checks-dependency` (`none`,
/// `readiness`, `liveness`); `grace`: its `terminationGracePeriodSeconds`; `pre_stop_sleep`: a
/// preStop hook that sleeps that many seconds, if any.
pub fn web_behind_a_service(
    probe_checks_dependency: &str,
    grace: u32,
    pre_stop_sleep: Option<u32>,
) -> String {
    let lifecycle = pre_stop_sleep.map_or(String::new(), |s| {
        format!("        lifecycle:\n          preStop:\n            sleep: {{seconds: {s}}}\n")
    });
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: 2
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata:
      labels: {{app: web}}
      annotations:
        podcheck.dev/boot-seconds: "1"
        podcheck.dev/probe-checks-dependency: {probe_checks_dependency}
    spec:
      terminationGracePeriodSeconds: {grace}
      containers:
      - name: app
        image: web:1
        readinessProbe:
          httpGet: {{path: /ready, port: 8080}}
          periodSeconds: 5
{lifecycle}---
apiVersion: v1
kind: Service
metadata:
  name: web
  annotations: {{podcheck.dev/proxy-lag-seconds: "1"}}
spec:
  selector: {{app: web}}
  ports: [{{port: 80, targetPort: 8080}}]
"#
    )
}
