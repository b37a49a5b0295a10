//! Fault plans over users' manifests (`podcheck_input::plan`): which scenarios each plan
//! makes, on which workload and node, with which promise; and a check of each plan's scenario
//! that its fault really happens (no vacuity warning) and what it finds.

use podcheck_input::manifest::read;
use podcheck_input::plan::{plan_scenarios, plan_scenarios_for, Plan, OUTAGE_SECONDS};
use podcheck_input::spec::{Fault, Scenario, Verdict};
use podcheck_model::cluster::first_pod_nodes;
use podcheck_properties::check::{self, CheckOptions};
use podcheck_properties::findings::kubernetes_behaviour_in;
use std::sync::LazyLock;

mod common;

/// Two replicas of `web` behind a Service; the readiness probe checks the dependency.
static APP: LazyLock<String> =
    LazyLock::new(|| common::yaml::web_behind_a_service("readiness", 5, None));

fn base(text: &str) -> Scenario {
    read(&[("app.yaml".into(), text.into())])
        .expect("the manifests are read")
        .scenario
}

#[test]
fn names_parse_back_and_unknown_names_are_refused_with_the_list() {
    for p in Plan::ALL {
        assert_eq!(Plan::parse(p.name()), Ok(p));
    }
    let e = Plan::parse("reboot").unwrap_err();
    assert!(
        e.starts_with("unknown plan `reboot`; the plans are: delete-pod, rollout,"),
        "{e}"
    );
}

#[test]
fn every_plan_makes_its_scenarios_with_its_fault_and_promise() {
    let b = base(&APP);
    let set = plan_scenarios(&b, &Plan::ALL, &first_pod_nodes);
    let names: Vec<&str> = set.scenarios.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "manifests: delete-pod web",
            "manifests: rollout web",
            "manifests: dependency-outage",
            "manifests: crash web",
            "manifests: drain web",
            "manifests: partition web",
            "manifests: partition-force-delete web",
            "manifests: power-off web",
        ]
    );
    assert!(set.not_applicable.is_empty(), "{:?}", set.not_applicable);
    for s in &set.scenarios {
        s.validate().unwrap_or_else(|e| panic!("{}: {e}", s.name));
        check::selected(s).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    }
    let promised: Vec<Vec<&str>> = set
        .scenarios
        .iter()
        .map(|s| s.expect.iter().map(|e| e.property.as_str()).collect())
        .collect();
    assert_eq!(
        promised,
        [
            vec!["deleted_leads_to_gone"],
            vec!["rollout_completes"],
            vec!["recovered_dependency_leads_to_ready"],
            vec![],
            vec!["drain_completes"],
            vec![],
            vec![],
            vec![],
        ]
    );
    assert_eq!(
        set.scenarios[2].faults,
        [Fault::DependencyOutage {
            seconds: OUTAGE_SECONDS
        }]
    );
    // The node plans act on the node of web's first pod in the settled cluster.
    let node = |s: &Scenario| match &s.faults[0] {
        Fault::Drain { node, .. } | Fault::Partition { node, .. } | Fault::PowerOff { node } => {
            node.clone()
        }
        f => panic!("{f:?}"),
    };
    let first = node(&set.scenarios[4]);
    for s in &set.scenarios[4..] {
        assert_eq!(node(s), first, "{}", s.name);
    }
    assert_eq!(
        set.scenarios[6].faults[1],
        Fault::ForceDeletePod {
            workload: "web".into(),
            terminating_only: true
        }
    );
}

#[test]
fn a_plan_with_nothing_to_act_on_says_why() {
    let no_dependency = APP.replace(
        "podcheck.dev/probe-checks-dependency: readiness",
        "podcheck.dev/probe-checks-dependency: none",
    );
    let set = plan_scenarios(
        &base(&no_dependency),
        &[Plan::DependencyOutage, Plan::DeletePod, Plan::DeletePod],
        &first_pod_nodes,
    );
    assert_eq!(set.scenarios.len(), 1, "a plan named twice is made once");
    assert_eq!(set.not_applicable.len(), 1);
    assert!(
        set.not_applicable[0].starts_with("dependency-outage: no probe checks the dependency"),
        "{:?}",
        set.not_applicable
    );
    let pod = r#"apiVersion: v1
kind: Pod
metadata: {name: batch}
spec:
  containers: [{name: app, image: batch:1}]
"#;
    let set = plan_scenarios(&base(pod), &[Plan::Rollout], &first_pod_nodes);
    assert!(set.scenarios.is_empty());
    assert_eq!(
        set.not_applicable,
        ["rollout: no Deployment or StatefulSet to roll out"]
    );
}

/// The crash plan's fault happens, and the kubelet restarts the container (restartPolicy
/// Always): the check has no vacuity warning and the restart witness is met; and requests
/// reach the crashed container until it is out of the endpoints.
#[test]
fn the_crash_happens_and_the_container_is_restarted() {
    let set = plan_scenarios(&base(&APP), &[Plan::Crash], &first_pod_nodes);
    let mut s = set.scenarios[0].clone();
    s.expect.push(podcheck_input::spec::Expectation {
        property: "container_restarted".into(),
        verdict: Verdict::Holds,
        source: "the kubelet restarts a crashed container under restartPolicy Always".into(),
        from: None,
        before: None,
    });
    let r = check::check(&s, &CheckOptions::default()).expect("checked");
    assert!(r.complete);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let restarted = r
        .properties
        .iter()
        .find(|p| p.def.name == "container_restarted")
        .expect("checked");
    assert_eq!(restarted.verdict, Verdict::Holds);
    // Until the kubelet has seen the exit and the proxies have dropped the pod, requests
    // through the Service still reach the crashed container: the one finding.
    let violated: Vec<&str> = r
        .properties
        .iter()
        .filter(|p| p.verdict == Verdict::Violated)
        .map(|p| p.def.name)
        .collect();
    assert_eq!(violated, ["no_request_to_stopped_container"]);
    assert_eq!(r.unique_states, 2127);
}

/// Every plan's fault happens in its scenario, with its findings pinned: this Deployment has
/// no preStop hook, so a deleted, rolled or drained pod still gets requests after its program stopped
/// (after a crash or a power-off that is Kubernetes' own behaviour, not a finding); its readiness probe checks the dependency, so an outage leaves
/// the Service without endpoints (while the dependency is down requests fail either way: not
/// a finding). Its two replicas run on the two nodes, as kube-scheduler's default scoring
/// spreads them, so a node cut off or powered off leaves the Service the other pod: no
/// finding there (when the model stacked both on one node, both were).
#[test]
fn every_plan_scenario_is_checked_without_a_vacuity_warning() {
    let plans: Vec<Plan> = Plan::ALL.to_vec();
    let set = plan_scenarios(&base(&APP), &plans, &first_pod_nodes);
    let mut got = Vec::new();
    for s in &set.scenarios {
        let r = check::check(s, &CheckOptions::default()).expect("checked");
        assert!(r.complete, "{}", s.name);
        assert!(r.warnings.is_empty(), "{}: {:?}", s.name, r.warnings);
        let violated: Vec<&str> = r
            .properties
            .iter()
            .filter(|p| {
                p.verdict == Verdict::Violated && kubernetes_behaviour_in(p.def.name, s).is_none()
            })
            .map(|p| p.def.name)
            .collect();
        got.push(format!(
            "{}: {} states; violated: {violated:?}",
            s.name, r.unique_states
        ));
    }
    // rollout web: 74545 before the ReplicaSet's scale-down chose among its tied pods and the
    // pods of a Deployment rolled out were interchangeable.
    assert_eq!(
        got,
        [
            r#"manifests: delete-pod web: 5976 states; violated: ["no_request_to_stopped_container"]"#,
            r#"manifests: rollout web: 69390 states; violated: ["no_request_to_stopped_container", "rollout_serving_endpoints_within_unavailable"]"#,
            r#"manifests: dependency-outage: 338 states; violated: []"#,
            r#"manifests: crash web: 2127 states; violated: []"#,
            r#"manifests: drain web: 3008 states; violated: ["no_request_to_stopped_container"]"#,
            r#"manifests: partition web: 698 states; violated: []"#,
            r#"manifests: partition-force-delete web: 898 states; violated: []"#,
            r#"manifests: power-off web: 408 states; violated: []"#,
        ]
    );
}

/// `podcheck.dev/plans` on a workload's own metadata picks its plans; a bad name is refused
/// where it stands, with the list.
#[test]
fn a_workload_picks_its_plans_with_an_annotation() {
    let picked = APP.replacen(
        "metadata: {name: web}",
        "metadata:\n  name: web\n  annotations: {podcheck.dev/plans: \"drain, delete-pod\"}",
        1,
    );
    let r = read(&[("app.yaml".into(), picked)]).expect("read");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.plans["web"], [Plan::Drain, Plan::DeletePod]);
    let set = plan_scenarios_for(&r.scenario, &Plan::ALL, &r.plans, &first_pod_nodes);
    let names: Vec<&str> = set.scenarios.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["manifests: delete-pod web", "manifests: drain web"]);
    assert_eq!(set.not_applicable.len(), 6, "{:?}", set.not_applicable);
    assert!(set.not_applicable.contains(
        &"dependency-outage: every workload's podcheck.dev/plans annotation leaves it out"
            .to_string()
    ));
    assert!(set
        .not_applicable
        .contains(&"crash: web's podcheck.dev/plans annotation leaves it out".to_string()));

    let none = APP.replacen(
        "metadata: {name: web}",
        "metadata:\n  name: web\n  annotations: {podcheck.dev/plans: none}",
        1,
    );
    let r = read(&[("app.yaml".into(), none)]).expect("read");
    assert!(
        plan_scenarios_for(&r.scenario, &Plan::ALL, &r.plans, &first_pod_nodes)
            .scenarios
            .is_empty()
    );

    let bad = APP.replacen(
        "metadata: {name: web}",
        "metadata:\n  name: web\n  annotations: {podcheck.dev/plans: \"delete-pod,reboot\"}",
        1,
    );
    let e = read(&[("app.yaml".into(), bad)]).unwrap_err();
    assert!(
        e.starts_with("app.yaml:5:"),
        "located at the annotation: {e}"
    );
    assert!(
        e.contains("Deployment/web: metadata.annotations[podcheck.dev/plans]: unknown plan `reboot`; the plans are: delete-pod,"),
        "{e}"
    );
}

/// The shape of the Kubernetes docs' StatefulSet example: three replicas, the headless
/// Service that governs them, a claim per ordinal from `volumeClaimTemplates`, a readiness
/// probe.
fn statefulset(strategy: &str) -> String {
    format!(
        r#"apiVersion: v1
kind: Service
metadata: {{name: db}}
spec:
  clusterIP: None
  selector: {{app: db}}
  ports: [{{port: 5432}}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {{name: db}}
spec:
  replicas: 3
  serviceName: db
  selector: {{matchLabels: {{app: db}}}}
{strategy}
  template:
    metadata: {{labels: {{app: db}}}}
    spec:
      containers:
        - name: db
          image: postgres:16
          ports: [{{containerPort: 5432}}]
          readinessProbe:
            tcpSocket: {{port: 5432}}
            periodSeconds: 5
          resources: {{requests: {{cpu: 250m, memory: 256Mi}}}}
          volumeMounts: [{{name: data, mountPath: /var/lib/postgresql/data}}]
  volumeClaimTemplates:
    - metadata: {{name: data}}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {{requests: {{storage: 1Gi}}}}
"#
    )
}

/// `kubectl rollout restart statefulset/db`: the plan's scenario completes, the rollout
/// completes (its promise), no identity ever runs twice, and no finding is made: the
/// Service is headless, so no kube-proxy routes a request to a stopping pod.
#[test]
fn a_statefulset_rollout_completes() {
    let set = plan_scenarios(&base(&statefulset("")), &[Plan::Rollout], &first_pod_nodes);
    assert!(set.not_applicable.is_empty(), "{:?}", set.not_applicable);
    let names: Vec<&str> = set.scenarios.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["manifests: rollout db"]);
    let s = &set.scenarios[0];
    assert_eq!(
        s.faults,
        [Fault::RolloutRestart {
            workload: "db".into()
        }]
    );
    let r = check::check(s, &CheckOptions::default()).expect("checked");
    assert!(r.complete);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let verdict = |name: &str| {
        let p = r.properties.iter().find(|p| p.def.name == name).unwrap();
        (p.verdict, p.expected, p.vacuous)
    };
    assert_eq!(
        verdict("rollout_completes"),
        (Verdict::Holds, Verdict::Holds, false)
    );
    assert_eq!(
        verdict("statefulset_at_most_one"),
        (Verdict::Holds, Verdict::Holds, false)
    );
    let violated: Vec<&str> = r
        .properties
        .iter()
        .filter(|p| p.verdict == Verdict::Violated)
        .map(|p| p.def.name)
        .collect();
    assert_eq!(violated, Vec::<&str>::new());
    assert_eq!(r.unique_states, 3024);
}

/// OnDelete, and a partition at or past `replicas`: the rollout plan says why it does not
/// apply, and makes no scenario.
#[test]
fn a_statefulset_rollout_that_replaces_nothing_is_not_applicable() {
    for (strategy, why) in [
        (
            "  updateStrategy: {type: OnDelete}",
            "rollout db: updateStrategy OnDelete: the StatefulSet controller never deletes a pod for an update",
        ),
        (
            "  updateStrategy: {rollingUpdate: {partition: 3}}",
            "rollout db: rollingUpdate.partition 3 is not below replicas 3",
        ),
    ] {
        let set = plan_scenarios(
            &base(&statefulset(strategy)),
            &[Plan::Rollout],
            &first_pod_nodes,
        );
        assert!(set.scenarios.is_empty(), "{strategy}");
        assert_eq!(set.not_applicable.len(), 1, "{:?}", set.not_applicable);
        assert!(
            set.not_applicable[0].starts_with(why),
            "{:?}",
            set.not_applicable
        );
    }
}
