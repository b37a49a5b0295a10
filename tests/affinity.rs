//! Required node affinity (`affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`),
//! as component-helpers' `RequiredNodeAffinity.Match` defines it: terms ORed, requirements of
//! a term ANDed, `NotIn`/`DoesNotExist` true where the label is absent, `Gt`/`Lt` on integer
//! values, `matchFields` on the node's name, an empty term selecting nothing; ANDed with the
//! nodeSelector. Then the same through a manifest: where the settled cluster places the pod,
//! the API server's refusals of malformed requirements, and warnings for the placement rules
//! the model's scheduler does not run.

use podcheck_input::manifest::read;
use podcheck_model::cluster::Cluster;
use podcheck_model::k8s::{
    required_node_affinity_matches, NodeSelectorOperator as Op, NodeSelectorRequirement,
    NodeSelectorTerm,
};
use std::collections::BTreeMap;

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn req(key: &str, operator: Op, values: &[&str]) -> NodeSelectorRequirement {
    NodeSelectorRequirement {
        key: key.into(),
        operator,
        values: values.iter().map(|v| v.to_string()).collect(),
    }
}

fn term(exprs: Vec<NodeSelectorRequirement>) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_expressions: exprs,
        match_fields: Vec::new(),
    }
}

fn matches(terms: &[NodeSelectorTerm], name: &str, l: &BTreeMap<String, String>) -> bool {
    required_node_affinity_matches(&BTreeMap::new(), Some(terms), name, l)
}

#[test]
fn operators_on_labels() {
    let node = labels(&[("zone", "a"), ("cores", "8")]);
    let bare = labels(&[]);
    let one = |r| matches(&[term(vec![r])], "n1", &node);
    assert!(one(req("zone", Op::In, &["a", "b"])));
    assert!(!one(req("zone", Op::In, &["b"])));
    assert!(one(req("zone", Op::NotIn, &["b"])));
    assert!(!one(req("zone", Op::NotIn, &["a"])));
    assert!(one(req("zone", Op::Exists, &[])));
    assert!(!one(req("zone", Op::DoesNotExist, &[])));
    assert!(one(req("cores", Op::Gt, &["4"])));
    assert!(!one(req("cores", Op::Gt, &["8"])));
    assert!(one(req("cores", Op::Lt, &["16"])));
    // A label whose value is not an integer never satisfies Gt or Lt.
    assert!(!one(req("zone", Op::Gt, &["0"])));
    // Where the label is absent: NotIn and DoesNotExist hold, the others do not.
    let on_bare = |r| matches(&[term(vec![r])], "n1", &bare);
    assert!(on_bare(req("zone", Op::NotIn, &["a"])));
    assert!(on_bare(req("zone", Op::DoesNotExist, &[])));
    assert!(!on_bare(req("zone", Op::In, &["a"])));
    assert!(!on_bare(req("zone", Op::Exists, &[])));
    assert!(!on_bare(req("cores", Op::Lt, &["16"])));
}

#[test]
fn terms_are_ored_requirements_anded_and_an_empty_term_selects_nothing() {
    let node = labels(&[("zone", "a"), ("disk", "ssd")]);
    let both = term(vec![
        req("zone", Op::In, &["a"]),
        req("disk", Op::In, &["hdd"]),
    ]);
    assert!(!matches(std::slice::from_ref(&both), "n1", &node));
    let other = term(vec![req("disk", Op::In, &["ssd"])]);
    assert!(matches(&[both.clone(), other], "n1", &node));
    assert!(!matches(&[NodeSelectorTerm::default()], "n1", &node));
    assert!(matches(
        &[
            NodeSelectorTerm::default(),
            term(vec![req("zone", Op::Exists, &[])])
        ],
        "n1",
        &node
    ));
    // No affinity at all: only the nodeSelector counts, and it is ANDed.
    let sel = labels(&[("disk", "ssd")]);
    assert!(required_node_affinity_matches(&sel, None, "n1", &node));
    assert!(!required_node_affinity_matches(
        &labels(&[("disk", "hdd")]),
        Some(&[term(vec![req("zone", Op::In, &["a"])])]),
        "n1",
        &node
    ));
}

#[test]
fn match_fields_select_by_node_name() {
    let node = labels(&[]);
    let by_name = |op| NodeSelectorTerm {
        match_expressions: Vec::new(),
        match_fields: vec![req("metadata.name", op, &["n1"])],
    };
    assert!(matches(&[by_name(Op::In)], "n1", &node));
    assert!(!matches(&[by_name(Op::In)], "n2", &node));
    assert!(matches(&[by_name(Op::NotIn)], "n2", &node));
}

#[test]
fn malformed_requirements_are_refused_as_the_api_server_does() {
    assert!(req("zone", Op::In, &[]).validate(false).is_err());
    assert!(req("zone", Op::Exists, &["a"]).validate(false).is_err());
    assert!(req("cores", Op::Gt, &["4", "5"]).validate(false).is_err());
    assert!(req("cores", Op::Lt, &["many"]).validate(false).is_err());
    assert!(req("cores", Op::Lt, &["16"]).validate(false).is_ok());
    assert!(req("metadata.uid", Op::In, &["x"]).validate(true).is_err());
    assert!(req("metadata.name", Op::Exists, &[])
        .validate(true)
        .is_err());
    assert!(req("metadata.name", Op::In, &["a", "b"])
        .validate(true)
        .is_err());
    assert!(req("metadata.name", Op::NotIn, &["a"])
        .validate(true)
        .is_ok());
}

const NODES: &str = r#"apiVersion: v1
kind: Node
metadata: {name: n1, labels: {zone: a}}
status: {allocatable: {cpu: "4", memory: 8Gi}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {zone: b}}
status: {allocatable: {cpu: "2", memory: 8Gi}}
---
"#;

fn pod(affinity: &str) -> String {
    format!(
        r#"{NODES}apiVersion: v1
kind: Pod
metadata: {{name: app}}
spec:
  affinity:
{affinity}
  containers: [{{name: app, image: app:1, resources: {{requests: {{cpu: 100m}}}}}}]
"#
    )
}

const ZONE_B: &str = r#"    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions: [{key: zone, operator: In, values: [b]}]"#;

/// Without affinity the pod goes to the node with more room (n1); with `zone In [b]`, to n2.
#[test]
fn the_settled_cluster_places_the_pod_where_its_affinity_allows() {
    let placed = |text: &str| {
        let r = read(&[("app.yaml".into(), text.to_string())]).expect("read");
        // A pod no node can take is the one warning that says so.
        assert!(
            r.warnings
                .iter()
                .all(|w| w.contains("Pod/app: no node can take its pods")),
            "{:?}",
            r.warnings
        );
        let m = Cluster::new(r.scenario.clone(), Vec::new());
        let p = &m.start.api.pods[0];
        p.node
            .map(|n| r.scenario.cluster.nodes[n.index()].name.clone())
    };
    let without = format!(
        "{NODES}apiVersion: v1\nkind: Pod\nmetadata: {{name: app}}\nspec:\n  containers: [{{name: app, image: app:1, resources: {{requests: {{cpu: 100m}}}}}}]\n"
    );
    assert_eq!(placed(&without).as_deref(), Some("n1"));
    assert_eq!(placed(&pod(ZONE_B)).as_deref(), Some("n2"));
    let nowhere = ZONE_B.replace("values: [b]", "values: [c]");
    assert_eq!(
        placed(&pod(&nowhere)),
        None,
        "no node matches: unschedulable"
    );
}

#[test]
fn a_bad_requirement_in_a_manifest_is_refused_where_it_stands() {
    let bad_op = ZONE_B.replace("operator: In", "operator: Within");
    let e = read(&[("app.yaml".into(), pod(&bad_op))]).unwrap_err();
    assert!(e.starts_with("app.yaml:"), "{e}");
    assert!(
        e.contains("Pod/app: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: \"Within\""),
        "{e}"
    );
    let no_values = ZONE_B.replace("operator: In, values: [b]", "operator: In");
    let e = read(&[("app.yaml".into(), pod(&no_values))]).unwrap_err();
    assert!(
        e.contains("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]: values: Required value"),
        "{e}"
    );
}

#[test]
fn an_anti_affinity_that_selects_no_pod_says_so() {
    // The Kubernetes docs' ZooKeeper StatefulSet keeps its pods apart by `app: zk`, but
    // labels them `app.kubernetes.io/name: zk`: the rule selects no pod, keeps nothing
    // apart, and the warning says that, not that the placement may differ.
    let sts = |term_labels: &str| {
        format!(
            r#"apiVersion: apps/v1
kind: StatefulSet
metadata: {{name: zk}}
spec:
  replicas: 3
  serviceName: zk
  selector: {{matchLabels: {{app.kubernetes.io/name: zk}}}}
  template:
    metadata: {{labels: {{app.kubernetes.io/name: zk}}}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchExpressions: [{{key: {term_labels}, operator: In, values: [zk]}}]
            topologyKey: kubernetes.io/hostname
      containers: [{{name: zk, image: zk:1}}]
---
apiVersion: v1
kind: Service
metadata: {{name: zk}}
spec:
  clusterIP: None
  selector: {{app.kubernetes.io/name: zk}}
"#
        )
    };
    let r = read(&[("zk.yaml".into(), sts("app"))]).expect("read");
    let w: Vec<&String> = r
        .warnings
        .iter()
        .filter(|w| w.contains("podAntiAffinity"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", r.warnings);
    assert!(
        w[0].contains("StatefulSet/zk: spec.template.spec.affinity.podAntiAffinity: the model's scheduler does not run pod anti-affinity, but its terms select no pod of the manifests, so it keeps none of them apart")
            && w[0].contains("its labelSelector must match the labels of their template")
            && !w[0].contains("may differ"),
        "{}",
        w[0]
    );
    // Matching the template's labels, it keeps them apart, which the model does not run.
    let r = read(&[("zk.yaml".into(), sts("app.kubernetes.io/name"))]).expect("read");
    let w: Vec<&String> = r
        .warnings
        .iter()
        .filter(|w| w.contains("podAntiAffinity"))
        .collect();
    assert!(
        w.len() == 1 && w[0].contains("may differ") && !w[0].contains("select no pod"),
        "{:?}",
        r.warnings
    );
}

#[test]
fn placement_rules_the_model_does_not_run_are_warned_about() {
    let anti = r#"    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: web}}
        topologyKey: kubernetes.io/hostname"#;
    let r = read(&[("app.yaml".into(), pod(anti))]).expect("read");
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.warnings[0].contains("Pod/app: spec.affinity.podAntiAffinity: the model's scheduler does not run pod anti-affinity"),
        "{:?}",
        r.warnings
    );
}
