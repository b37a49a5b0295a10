//! What real manifests hold beyond cpu and memory, and the workloads they describe that the
//! model once dropped: every resource name a container may request (ephemeral-storage,
//! `hugepages-<size>`, extended resources such as `nvidia.com/gpu`) read and validated as the
//! API server does, extended resources scheduled against the nodes' allocatable; a workload no
//! node can take said once, never a finding; a ReplicationController read like a ReplicaSet;
//! a DaemonSet listed as ignored with why.

use podcheck_input::manifest::{read, Reading};
use podcheck_input::spec::Workload;

mod common;

use common::bin::run as podcheck;
use common::dir::TempDir;

fn one(name: &str, text: &str) -> Result<Reading, String> {
    read(&[(name.to_string(), text.to_string())])
}

/// A Deployment `trainer` of one replica whose container has `resources` (YAML at the
/// indentation of `resources:`'s children).
fn trainer(resources: &str) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata: {{name: trainer}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: trainer}}}}
  template:
    metadata: {{labels: {{app: trainer}}}}
    spec:
      containers:
      - name: main
        image: trainer:1
        resources:
{resources}
"#
    )
}

/// The line (1-based) of the first line of `text` that contains `what`.
fn line_of(text: &str, what: &str) -> usize {
    text.lines()
        .position(|l| l.contains(what))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no {what} in {text}"))
}

const GPU_NODE: &str = r#"---
apiVersion: v1
kind: Node
metadata: {name: gpu-1}
status:
  allocatable: {cpu: "4", memory: 8Gi, nvidia.com/gpu: "2", ephemeral-storage: 100Gi, pods: "110"}
"#;

#[test]
fn every_resource_name_a_container_may_request_is_read() {
    let text = trainer(
        "          requests: {cpu: 100m, memory: 64Mi, ephemeral-storage: 2Gi, hugepages-2Mi: 4Mi}\n          limits: {hugepages-2Mi: 4Mi, nvidia.com/gpu: 1, example.com/foo: \"3\"}",
    );
    let r = one("app.yaml", &text).expect("read");
    let c = &r.scenario.workloads[0].template().containers[0];
    let req = &c.resources.requests;
    assert_eq!((req.cpu_milli, req.memory_mi), (100, 64));
    assert_eq!(req.scalar("ephemeral-storage"), 2 << 30);
    assert_eq!(req.scalar("hugepages-2Mi"), 4 << 20);
    // `SetDefaults_Pod`: a limit without a request is the request too.
    assert_eq!(req.scalar("nvidia.com/gpu"), 1);
    assert_eq!(req.scalar("example.com/foo"), 3);
    assert_eq!(c.resources.limits.scalar("nvidia.com/gpu"), 1);
    // Hugepages are scheduled and nothing more: said.
    assert!(
        r.assumed
            .iter()
            .any(|a| a
                .contains("hugepages-2Mi: scheduled against the nodes' status.allocatable only")),
        "{:?}",
        r.assumed
    );
    // ephemeral-storage on nodes that do not say how much they have: said.
    assert!(
        r.assumed
            .iter()
            .any(|a| a
                .starts_with("ephemeral-storage: requests of it are checked only against nodes")),
        "{:?}",
        r.assumed
    );
    // Nothing of it is a field the model does not read.
    assert!(
        !r.unused.iter().any(|u| u.contains("resources")),
        "{:?}",
        r.unused
    );
}

/// Each resource the API server refuses, refused with its message, at the line of the
/// resource, named by its field path.
#[test]
fn resources_the_api_server_refuses_are_refused_where_they_stand() {
    let path = "spec.template.spec.containers[0].resources";
    let cases: &[(&str, &str, &str)] = &[
        (
            "          requests: {gpu: 1}",
            "gpu: 1",
            "requests.gpu: Invalid value: \"gpu\": must be a standard resource for containers",
        ),
        (
            "          limits: {nvidia.com/gpu: 500m}",
            "nvidia.com/gpu",
            "limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer",
        ),
        (
            "          requests: {nvidia.com/gpu: 1}\n          limits: {nvidia.com/gpu: 2}",
            "requests: {nvidia.com/gpu: 1}",
            "requests[nvidia.com/gpu]: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2",
        ),
        (
            "          requests: {nvidia.com/gpu: 1}",
            "nvidia.com/gpu",
            "requests[nvidia.com/gpu]: Required value: Limit must be set for non overcommitable resources",
        ),
        (
            "          requests: {memory: 1Gi}\n          limits: {hugepages-2Mi: 3Mi}",
            "hugepages-2Mi",
            "limits.hugepages-2Mi: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi",
        ),
        (
            "          limits: {hugepages-2Mi: 2Mi}",
            "resources:",
            "resources: Forbidden: HugePages require cpu or memory",
        ),
        (
            "          requests: {ephemeral-storage: 2Gi}\n          limits: {ephemeral-storage: 1Gi}",
            "requests: {ephemeral-storage",
            "requests.ephemeral-storage: Invalid value: \"2Gi\": must be less than or equal to ephemeral-storage limit of 1Gi",
        ),
        (
            "          limits: {example.com/-gpu: 1}",
            "example.com/-gpu",
            "limits[example.com/-gpu]: Invalid value: \"example.com/-gpu\": must consist of alphanumeric characters",
        ),
        (
            "          limits: {requests.example.com/gpu: 1}",
            "requests.example.com/gpu",
            "doesn't follow extended resource name standard",
        ),
        (
            "          limits: {example.com/gpu: -1}",
            "example.com/gpu",
            "must be greater than or equal to 0",
        ),
    ];
    for (resources, at, msg) in cases {
        let text = trainer(resources);
        let e = one("bad.yaml", &text).expect_err(resources);
        let line = line_of(&text, at);
        assert!(
            e.starts_with(&format!("bad.yaml:{line}:")),
            "{resources}: {e}"
        );
        assert!(
            e.contains(&format!("Deployment/trainer: {path}")) && e.contains(msg),
            "{resources}: {e}"
        );
    }
    // The command line: exit 2, the error located.
    let dir = TempDir::new("bad-resource");
    let text = trainer("          limits: {nvidia.com/gpu: 500m}");
    let file = dir.write("bad.yaml", &text);
    let (code, out, err) = podcheck(&["check", "-f", &file]);
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(err.contains("must be an integer"), "{err}");
    assert!(out.is_empty(), "{out}");
}

/// `ephemeral-storage: 2Gi` was once refused as too many millicores: it is read and checked.
#[test]
fn ephemeral_storage_is_accepted() {
    let dir = TempDir::new("ephemeral");
    let file = dir.write(
        "app.yaml",
        &trainer("          requests: {cpu: 100m, ephemeral-storage: 2Gi}"),
    );
    let (code, out, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        out.contains(&format!("{file}: delete-pod trainer  (")),
        "{out}"
    );
    assert!(!err.contains("no node can take"), "{err}");
}

/// A GPU the default nodes do not have: one warning that names the workload, the resource and
/// how to give nodes some; no plan scenario, no finding; a line says nothing was checked, and
/// `--strict` makes that exit 1.
#[test]
fn an_extended_resource_no_node_has_is_one_warning_and_no_finding() {
    let dir = TempDir::new("gpu");
    let text = trainer("          limits: {nvidia.com/gpu: 1}");
    let file = dir.write("app.yaml", &text);
    let r = one(&file, &text).expect("read");
    let about: Vec<&String> = r
        .warnings
        .iter()
        .filter(|w| w.contains("no node can take"))
        .collect();
    assert_eq!(about.len(), 1, "{:?}", r.warnings);
    assert!(
        about[0].contains("Deployment/trainer: no node can take its pods (0/2 nodes are available: 2 Insufficient nvidia.com/gpu.)")
            && about[0].contains("give Node objects"),
        "{}",
        about[0]
    );
    for plans in [&[][..], &["--plan", "delete-pod"][..]] {
        let args = [&["check", "-f", file.as_str()][..], plans].concat();
        let (code, out, err) = podcheck(&args);
        assert_eq!(code, Some(0), "{args:?}\n{out}\n{err}");
        assert!(!out.contains("finding: "), "{out}");
        assert!(out.contains("0 plan scenarios"), "{out}");
        assert_eq!(err.matches("no node can take its pods").count(), 1, "{err}");
        assert!(!err.contains("not applicable"), "{err}");
        assert!(
            err.contains("warning: nothing was checked about any workload"),
            "{err}"
        );
        let strict = [&args[..], &["--strict"]].concat();
        let (code, _, err) = podcheck(&strict);
        assert_eq!(code, Some(1), "{strict:?}\n{err}");
        assert!(
            err.contains("error: nothing was checked about any workload"),
            "{err}"
        );
    }
}

/// With a Node object that has two GPUs, the pod is placed there, and the plans check it.
#[test]
fn an_extended_resource_is_scheduled_against_a_node_that_has_it() {
    let text = format!(
        "{}{GPU_NODE}",
        trainer(
            "          requests: {ephemeral-storage: 2Gi}\n          limits: {nvidia.com/gpu: 1}"
        )
    );
    let r = one("app.yaml", &text).expect("read");
    assert!(
        !r.warnings.iter().any(|w| w.contains("no node can take")),
        "{:?}",
        r.warnings
    );
    let node = &r.scenario.cluster.nodes[0];
    assert_eq!(node.allocatable.scalar("nvidia.com/gpu"), 2);
    assert_eq!(node.allocatable.scalar("ephemeral-storage"), 100 << 30);
    // `pods` is read and said not to be modelled.
    assert!(
        r.unused
            .iter()
            .any(|u| u.contains("status.allocatable.pods: not modelled")),
        "{:?}",
        r.unused
    );
    assert_eq!(
        podcheck_model::cluster::first_pod_nodes(&r.scenario),
        [Some("gpu-1".to_string())]
    );
    // Three replicas of one GPU each on a node of two: two placed, the third Pending with
    // the scheduler's message.
    let three = text.replace("replicas: 1", "replicas: 3");
    let r = one("app.yaml", &three).expect("read");
    let m = podcheck_model::cluster::Cluster::new(r.scenario.clone(), Vec::new());
    let placed = m.start.api.pods.iter().filter(|p| p.node.is_some()).count();
    assert_eq!(placed, 2);
    let pending: Vec<_> = m
        .start
        .api
        .pods
        .iter()
        .filter_map(|p| p.unschedulable.clone())
        .collect();
    assert_eq!(
        pending,
        ["0/1 nodes are available: 1 Insufficient nvidia.com/gpu."]
    );
    // The command line: a plan scenario for it.
    let dir = TempDir::new("gpu-node");
    let file = dir.write("app.yaml", &text);
    let (code, out, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        out.contains(&format!("{file}: delete-pod trainer  (")),
        "{out}"
    );
    assert!(!err.contains("nothing was checked"), "{err}");
}

/// A nodeSelector no node's labels match is the same one warning, naming the selector.
#[test]
fn a_selector_no_node_matches_is_one_warning_naming_it() {
    let text = trainer("          requests: {cpu: 100m}").replace(
        "      containers:",
        "      nodeSelector: {disktype: ssd}\n      containers:",
    );
    let r = one("app.yaml", &text).expect("read");
    let w: Vec<&String> = r
        .warnings
        .iter()
        .filter(|w| w.contains("no node can take"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", r.warnings);
    assert!(
        w[0].contains("node(s) didn't match Pod's node affinity/selector")
            && w[0].contains("disktype=ssd"),
        "{}",
        w[0]
    );
}

const RC: &str = r#"apiVersion: v1
kind: ReplicationController
metadata: {name: web}
spec:
  replicas: 2
  selector: {app: web}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1
        readinessProbe:
          httpGet: {path: /, port: 80}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: logs}
spec:
  selector: {matchLabels: {app: logs}}
  template:
    metadata: {labels: {app: logs}}
    spec:
      containers: [{name: c, image: fluentd:1}]
"#;

/// A ReplicationController is read as a Deployment of one ReplicaSet (without the rollout
/// plan), so its Service has endpoints; a DaemonSet is listed as ignored, with why.
#[test]
fn a_replication_controller_is_read_and_a_daemonset_is_listed_as_ignored() {
    let r = one("app.yaml", RC).expect("read");
    let Workload::Deployment { metadata, spec } = &r.scenario.workloads[0] else {
        panic!("{:?}", r.scenario.workloads)
    };
    assert_eq!((metadata.name.as_str(), spec.replicas), ("web", 2));
    assert!(spec.no_rollout);
    assert_eq!(
        r.scenario.service.as_ref().map(|s| s.selects.clone()),
        Some(vec!["web".to_string()])
    );
    assert!(
        r.ignored.iter().any(
            |i| i.contains("DaemonSet/logs") && i.contains("kubectl drain --ignore-daemonsets")
        ),
        "{:?}",
        r.ignored
    );
    // A selector that does not select the template is refused.
    let e = one(
        "bad.yaml",
        &RC.replacen("selector: {app: web}", "selector: {app: api}", 1),
    )
    .expect_err("refused");
    assert!(
        e.contains("ReplicationController/web: spec.template.metadata.labels: Invalid value: `selector` does not match template `labels`"),
        "{e}"
    );
    // The command line: the Service's endpoints are there (a property about them is not
    // vacuous), and the rollout plan does not apply.
    let dir = TempDir::new("rc");
    let file = dir.write("app.yaml", RC);
    let (code, out, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod", "--verbose"]);
    assert_ne!(code, Some(2), "{out}\n{err}");
    let row = out
        .lines()
        .find(|l| l.contains(" no_ip_no_endpoint "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(!row.contains("vacuous"), "{row}");
    assert!(
        err.contains("ignored: ") && err.contains("DaemonSet/logs"),
        "{err}"
    );
    let (_, _, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod,rollout"]);
    assert!(
        err.contains("web is a ReplicaSet or ReplicationController, checked as a Deployment: kubectl rollout restart does not act on one"),
        "{err}"
    );
}

/// The scheduler's and the kubelet's resource checks: an extended resource the node does not
/// list is "Insufficient" to the scheduler, and dropped by the kubelet's admission
/// (`removeMissingExtendedResources`); ephemeral-storage is checked only where the node lists
/// it.
#[test]
fn request_against_a_node() {
    use podcheck_input::spec::placement::request_against;
    use podcheck_model::k8s::Resources;
    let r = |pairs: &[(&str, u64)]| Resources {
        scalar: pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..Resources::default()
    };
    let pod = r(&[
        ("example.com/gpu", 1),
        ("ephemeral-storage", 5),
        ("hugepages-2Mi", 2 << 20),
    ]);
    assert_eq!(
        request_against(&pod, &r(&[]), false),
        r(&[("example.com/gpu", 1), ("hugepages-2Mi", 2 << 20)])
    );
    assert_eq!(
        request_against(&pod, &r(&[]), true),
        r(&[("hugepages-2Mi", 2 << 20)])
    );
    assert_eq!(
        request_against(
            &pod,
            &r(&[("ephemeral-storage", 1), ("example.com/gpu", 0)]),
            true
        ),
        pod
    );
}

/// A workload no node can take beside one that runs: the plans act on the one that runs, with
/// the other left out of their cone (its pods stay Pending in every run), so no plan scenario
/// warns that the start never settled.
#[test]
fn a_workload_no_node_can_take_does_not_haunt_the_others_scenarios() {
    let api = trainer("          requests: {cpu: 100m}").replace("trainer", "api");
    let gpu = trainer("          limits: {nvidia.com/gpu: 1}");
    let dir = TempDir::new("two");
    let file = dir.write("app.yaml", &format!("{api}---\n{gpu}"));
    let (code, out, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod,drain"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains(&format!("{file}: delete-pod api  (")), "{out}");
    assert!(out.contains(&format!("{file}: drain api  (")), "{out}");
    assert!(!out.contains("trainer  ("), "{out}");
    assert_eq!(err.matches("warning: ").count(), 1, "{err}");
    assert!(
        err.contains("Deployment/trainer: no node can take its pods"),
        "{err}"
    );
    assert!(!err.contains("never settled"), "{err}");
    assert!(!err.contains("nothing was checked"), "{err}");
    // With the whole application in each scenario, the Pending pods are there, and said.
    let (_, _, err) = podcheck(&["check", "-f", &file, "--plan", "delete-pod", "--no-cone"]);
    assert!(
        err.contains("never settled (trainer has 0 of 1 pods Ready)"),
        "{err}"
    );
}
