//! The cone of influence of a plan scenario (`podcheck_input::cone`): which workloads it
//! keeps, and that leaving the others out changes no verdict.

use podcheck_input::cone::PodPlace;
use podcheck_input::manifest::read;
use podcheck_input::plan::{plan_scenarios_for, plan_scenarios_in_cones, Plan};
use podcheck_input::spec::Scenario;
use podcheck_model::cluster::{first_pod_nodes, pod_places};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A Deployment `name` of `replicas` pods labelled `app: <label>`, with a readiness probe, a
/// small CPU request and an optional claim.
fn deployment(name: &str, label: &str, replicas: u8, claim: Option<&str>) -> String {
    let volume = match claim {
        Some(c) => format!(
            "      volumes:\n      - name: data\n        persistentVolumeClaim: {{claimName: {c}}}\n"
        ),
        None => String::new(),
    };
    format!(
        r#"---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {label}, part: {name}}}}}
  template:
    metadata:
      labels: {{app: {label}, part: {name}}}
      annotations: {{podcheck.dev/boot-seconds: "1"}}
    spec:
      terminationGracePeriodSeconds: 2
      containers:
      - name: app
        image: {name}:1
        resources: {{requests: {{cpu: 100m, memory: 64Mi}}}}
        readinessProbe:
          httpGet: {{path: /, port: 80}}
          periodSeconds: 5
{volume}"#
    )
}

fn service(label: &str) -> String {
    format!(
        "---\napiVersion: v1\nkind: Service\nmetadata: {{name: {label}}}\nspec:\n  selector: {{app: {label}}}\n  ports: [{{port: 80}}]\n"
    )
}

fn pdb(name: &str, label: &str) -> String {
    format!(
        "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: {name}}}\nspec:\n  minAvailable: 1\n  selector: {{matchLabels: {{app: {label}}}}}\n"
    )
}

fn base(text: &str) -> Scenario {
    read(&[("app.yaml".into(), text.into())])
        .expect("the manifests are read")
        .scenario
}

/// The workloads of each scenario of `plan` over `text`, in the cone, by scenario name.
fn cones(text: &str, plan: Plan) -> BTreeMap<String, Vec<String>> {
    let set = plan_scenarios_in_cones(&base(text), &[plan], &BTreeMap::new(), &pod_places);
    assert_eq!(set.left_out.len(), set.scenarios.len());
    set.scenarios
        .iter()
        .map(|s| {
            s.validate().unwrap_or_else(|e| panic!("{}: {e}", s.name));
            let names = s.workloads.iter().map(|w| w.name().to_string()).collect();
            (s.name.clone(), names)
        })
        .collect()
}

/// Three Deployments that share nothing.
fn independent() -> String {
    [
        deployment("a", "a", 1, None),
        deployment("b", "b", 1, None),
        deployment("c", "c", 2, None),
    ]
    .concat()
}

#[test]
fn the_cone_of_a_plan_over_independent_workloads_is_its_target() {
    let text = independent();
    for plan in [Plan::DeletePod, Plan::Crash, Plan::Rollout] {
        let c = cones(&text, plan);
        assert_eq!(c.len(), 3, "{c:?}");
        for (name, kept) in &c {
            let target = name.rsplit(' ').next().unwrap();
            assert_eq!(kept, &[target.to_string()], "{name}");
        }
    }
    let set = plan_scenarios_in_cones(
        &base(&text),
        &[Plan::DeletePod],
        &BTreeMap::new(),
        &pod_places,
    );
    assert_eq!(set.left_out[0], ["b", "c"]);
    // The left-out pods' requests are held on the nodes the settled cluster put them on.
    let whole = base(&text);
    let held: u64 = set.scenarios[0]
        .cluster
        .nodes
        .iter()
        .map(|n| n.used_by_other_pods.cpu_milli)
        .sum();
    let before: u64 = whole
        .cluster
        .nodes
        .iter()
        .map(|n| n.used_by_other_pods.cpu_milli)
        .sum();
    assert_eq!(held, before + 3 * 100);
    assert!(set.scenarios[0]
        .description
        .ends_with("left out, independent of it: b, c"));
}

#[test]
fn workloads_that_share_a_service_a_budget_or_a_claim_stay_in_the_cone() {
    // a and b behind one Service.
    let text = [
        deployment("a", "web", 1, None),
        deployment("b", "web", 1, None),
        deployment("c", "c", 1, None),
        service("web"),
    ]
    .concat();
    let c = cones(&text, Plan::DeletePod);
    assert_eq!(c["manifests: delete-pod a"], ["a", "b"]);
    assert_eq!(c["manifests: delete-pod c"], ["c"]);
    // a and b under one budget.
    let text = [
        deployment("a", "db", 1, None),
        deployment("b", "db", 1, None),
        deployment("c", "c", 1, None),
        pdb("db", "db"),
    ]
    .concat();
    let c = cones(&text, Plan::Crash);
    assert_eq!(c["manifests: crash b"], ["a", "b"]);
    assert_eq!(c["manifests: crash c"], ["c"]);
    // a and b name one claim; c has a claim of its own.
    let text = [
        deployment("a", "a", 1, Some("shared")),
        deployment("b", "b", 1, Some("shared")),
        deployment("c", "c", 1, Some("own")),
    ]
    .concat();
    let c = cones(&text, Plan::DeletePod);
    assert_eq!(c["manifests: delete-pod a"], ["a", "b"]);
    assert_eq!(c["manifests: delete-pod c"], ["c"]);
    // The closure: a with b by the Service, b with c by the budget.
    let text = [
        deployment("a", "web", 1, None),
        deployment("b", "web", 1, None),
        deployment("c", "c", 1, None),
        deployment("d", "d", 1, None),
        service("web"),
        "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: bc}\nspec:\n  maxUnavailable: 1\n  selector: {matchExpressions: [{key: part, operator: In, values: [b, c]}]}\n".to_string(),
    ]
    .concat();
    let c = cones(&text, Plan::DeletePod);
    assert_eq!(c["manifests: delete-pod a"], ["a", "b", "c"]);
    assert_eq!(c["manifests: delete-pod d"], ["d"]);
}

/// The workloads with a pod on the node of `target`'s first pod, in the settled cluster.
fn on_first_node(whole: &Scenario, target: &str) -> Vec<String> {
    let places = pod_places(whole);
    let i = whole
        .workloads
        .iter()
        .position(|w| w.name() == target)
        .unwrap();
    let node = first_pod_nodes(whole)[i].clone().unwrap();
    whole
        .workloads
        .iter()
        .zip(&places)
        .filter(|(_, ps)| ps.iter().any(|p| p.node.as_deref() == Some(&node)))
        .map(|(w, _)| w.name().to_string())
        .collect()
}

#[test]
fn a_node_plan_over_independent_workloads_keeps_its_targets_group() {
    let text = independent();
    let whole = base(&text);
    for plan in [
        Plan::Drain,
        Plan::Partition,
        Plan::PartitionForceDelete,
        Plan::PowerOff,
    ] {
        let c = cones(&text, plan);
        assert_eq!(c.len(), 3, "{c:?}");
        for (scenario, kept) in &c {
            let target = scenario.rsplit(' ').next().unwrap();
            assert!(on_first_node(&whole, target).len() > 1, "{scenario}");
            assert_eq!(kept, &[target.to_string()], "{scenario}");
        }
    }
}

#[test]
fn a_node_plan_keeps_every_workload_on_its_node_where_they_could_compete() {
    // The node's pods need more than the other node has left: which replacement gets the
    // room depends on the order, so the node's workloads stay together.
    let text = independent().replace("cpu: 100m", "cpu: 700m");
    let whole = base(&text);
    let c = cones(&text, Plan::Drain);
    let mut shared = 0;
    for (scenario, kept) in &c {
        let target = scenario.rsplit(' ').next().unwrap();
        let on_node = on_first_node(&whole, target);
        assert_eq!(kept, &on_node, "{scenario}");
        shared += usize::from(on_node.len() > 1);
    }
    assert!(shared > 0, "{c:?}");
    // A Service over two of them: those two stay together, the third apart.
    let text = [
        deployment("a", "ab", 1, None),
        deployment("b", "ab", 1, None),
        deployment("c", "c", 2, None),
        service("ab"),
    ]
    .concat();
    let whole = base(&text);
    assert_eq!(on_first_node(&whole, "a"), ["a", "b", "c"]);
    let c = cones(&text, Plan::PowerOff);
    assert_eq!(c["manifests: power-off c"], ["c"]);
    assert_eq!(c["manifests: power-off a"], ["a", "b"]);
}

#[test]
fn a_workload_not_settled_or_not_quiet_stays_in_every_cone() {
    // A Job is never quiet: it runs, completes, its pods go.
    let job = "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: report}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: run, image: report:1}\n";
    let text = [independent(), job.to_string()].concat();
    let c = cones(&text, Plan::DeletePod);
    assert_eq!(c["manifests: delete-pod a"], ["a", "report"]);
    // A pod that cannot be placed in the settled cluster, though an empty node could take it,
    // waits for capacity that a plan's pods free or take.
    let big = deployment("big", "big", 1, None).replace("cpu: 100m", "cpu: 2950m");
    let text = [independent(), big].concat();
    let c = cones(&text, Plan::DeletePod);
    assert_eq!(c["manifests: delete-pod a"], ["a", "big"]);
    // One that no node can take, even empty, stays Pending in every run: left out.
    let huge = deployment("huge", "huge", 1, None).replace("cpu: 100m", "cpu: \"64\"");
    let text = [independent(), huge].concat();
    let c = cones(&text, Plan::DeletePod);
    assert_eq!(c["manifests: delete-pod a"], ["a"]);
}

/// (scenario, property, verdict).
type Verdicts = BTreeSet<(String, String, String)>;

/// Each property's verdict in each scenario, by scenario and property; and each scenario's
/// states.
fn verdicts(text: &str, plans: &[Plan], no_cone: bool) -> (Verdicts, Vec<(String, usize)>) {
    let mut findings = BTreeSet::new();
    let mut states = Vec::new();
    let report = podcheck::Check::text("app.yaml", text)
        .plans(plans.iter().copied())
        .size(podcheck::Size {
            no_cone,
            ..podcheck::Size::default()
        })
        // A bound, so that a scenario grown too big fails the test (incomplete) instead of
        // taking the machine's memory (a memory bound would count the other tests' too).
        .options(podcheck_properties::check::CheckOptions {
            max_states: Some(1_000_000),
            ..Default::default()
        })
        .run_with(&mut Recorder(&mut findings, &mut states))
        .expect("the check runs");
    assert!(report.incomplete().is_empty(), "{:?}", report.incomplete());
    (findings, states)
}

struct Recorder<'a>(&'a mut Verdicts, &'a mut Vec<(String, usize)>);

impl podcheck::Observer for Recorder<'_> {
    fn checked(&mut self, c: &podcheck::Checked) -> Result<(), podcheck::Error> {
        let r = &c.result;
        for p in &r.properties {
            self.0.insert((
                r.scenario.name.clone(),
                p.def.name.to_string(),
                format!("{:?}", p.verdict),
            ));
        }
        self.1.push((r.scenario.name.clone(), r.unique_states));
        Ok(())
    }
}

#[test]
fn independent_deployments_have_the_same_verdicts_with_and_without_the_cone() {
    // Four Deployments: a and b behind a Service, c and d alone.
    let text = [
        deployment("a", "web", 1, None),
        deployment("b", "web", 1, None),
        deployment("c", "c", 1, None),
        deployment("d", "d", 1, None),
        service("web"),
    ]
    .concat();
    let plans = [Plan::DeletePod, Plan::Crash];
    let (with, small) = verdicts(&text, &plans, false);
    let (without, whole) = verdicts(&text, &plans, true);
    assert_eq!(with, without);
    let pinned: Vec<(String, usize, usize)> = small
        .iter()
        .zip(&whole)
        .map(|((n, s), (m, w))| {
            assert_eq!(n, m);
            (n.clone(), *s, *w)
        })
        .collect();
    let pinned: Vec<(&str, usize, usize)> = pinned
        .iter()
        .map(|(n, s, w)| (n.as_str(), *s, *w))
        .collect();
    // The states each scenario explores, with the cone and without: c and d alone drop
    // most (their cone is themselves), a and b keep each other (one Service). (a's and b's
    // were 3881 and 11813, 1108 and 3532 before the kube-proxies were interchangeable.)
    assert_eq!(
        pinned,
        [
            ("app.yaml: delete-pod a", 3007, 9157),
            ("app.yaml: delete-pod b", 3007, 9157),
            ("app.yaml: delete-pod c", 135, 1207),
            ("app.yaml: delete-pod d", 135, 1207),
            ("app.yaml: crash a", 1080, 3456),
            ("app.yaml: crash b", 1080, 3456),
            ("app.yaml: crash c", 254, 3246),
            ("app.yaml: crash d", 254, 3246),
        ]
    );
}

#[test]
fn the_examples_plan_scenarios_are_the_same_with_the_cone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/manifests");
    let mut apps = 0;
    for app in std::fs::read_dir(&root).unwrap() {
        let app = app.unwrap().path();
        if !app.is_dir() {
            continue;
        }
        for variant in ["unsafe", "fixed"] {
            let dir = app.join(variant);
            let mut sources = Vec::new();
            for f in std::fs::read_dir(&dir).unwrap() {
                let f = f.unwrap().path();
                sources.push((
                    f.display().to_string(),
                    std::fs::read_to_string(&f).unwrap(),
                ));
            }
            let r = read(&sources).unwrap();
            let whole = plan_scenarios_for(&r.scenario, &Plan::ALL, &r.plans, &first_pod_nodes);
            let coned = plan_scenarios_in_cones(&r.scenario, &Plan::ALL, &r.plans, &pod_places);
            assert_eq!(whole.scenarios, coned.scenarios, "{}", dir.display());
            assert_eq!(whole.not_applicable, coned.not_applicable);
            assert!(coned.left_out.iter().all(Vec::is_empty));
            apps += 1;
        }
    }
    assert_eq!(apps, 12);
}

#[test]
fn first_placed_is_the_models_first_pod_node() {
    for text in [independent(), [independent(), service("a")].concat()] {
        let s = base(&text);
        assert_eq!(
            podcheck_input::plan::first_placed(&pod_places(&s)),
            first_pod_nodes(&s)
        );
    }
    let none: Vec<Vec<PodPlace>> = vec![vec![PodPlace {
        suffix: 0,
        node: None,
        ready: false,
        done: false,
    }]];
    assert_eq!(podcheck_input::plan::first_placed(&none), [None]);
}

#[test]
fn a_node_plan_of_two_workloads_on_one_node_is_checked_once() {
    struct Quiet;
    impl podcheck::Observer for Quiet {}
    // a and b behind one Service, on one node: one group, one scenario.
    let text = [
        deployment("a", "ab", 1, None),
        deployment("b", "ab", 1, None),
        deployment("c", "c", 2, None),
        service("ab"),
    ]
    .concat();
    let whole = base(&text);
    assert_eq!(on_first_node(&whole, "b"), ["a", "b", "c"]);
    let prepared = podcheck::Check::text("manifests", &text)
        .plan(Plan::PowerOff)
        .prepare(&mut Quiet)
        .unwrap();
    let names: Vec<&str> = prepared
        .planned
        .iter()
        .map(|p| p.scenario.name.as_str())
        .collect();
    assert_eq!(names, ["manifests: power-off a", "manifests: power-off c"]);
    let same: Vec<&str> = prepared
        .not_applicable
        .iter()
        .filter(|n| n.why.contains(podcheck::SAME_SCENARIO))
        .map(|n| n.why.as_str())
        .collect();
    assert_eq!(same.len(), 1, "{same:?}");
    assert!(same[0].contains("power-off b"), "{same:?}");
    // Each is the same scenario as one checked, but for its name.
    let set = plan_scenarios_in_cones(&whole, &[Plan::PowerOff], &BTreeMap::new(), &pod_places);
    for s in &set.scenarios {
        let kept = prepared
            .planned
            .iter()
            .find(|p| {
                p.scenario.workloads == s.workloads
                    && p.scenario.faults == s.faults
                    && p.scenario.cluster == s.cluster
            })
            .unwrap_or_else(|| panic!("{}: not checked, and no scenario like it", s.name));
        assert!(
            kept.scenario.name == s.name || same.iter().any(|w| w.contains(&s.name)),
            "{}",
            s.name
        );
    }
}

#[test]
fn a_cone_binds_its_pods_where_the_whole_cluster_did() {
    // a is placed first, on node-1 (the emptier); b's large request follows it there, so c
    // goes to node-2. Held from the start, b's request would send a to node-2: the cone's
    // startup binds a where the whole cluster did, and leaves b and c out.
    let text = [
        deployment("a", "a", 1, None),
        deployment("b", "b", 1, None).replace("cpu: 100m", "cpu: 1500m"),
        deployment("c", "c", 1, None),
    ]
    .concat();
    let whole = base(&text);
    let nodes = |places: &[Vec<PodPlace>]| -> Vec<Option<String>> {
        places.iter().map(|ps| ps[0].node.clone()).collect()
    };
    let some = |n: &str| Some(n.to_string());
    assert_eq!(
        nodes(&pod_places(&whole)),
        [some("node-1"), some("node-1"), some("node-2")]
    );
    let set = plan_scenarios_in_cones(&whole, &[Plan::DeletePod], &BTreeMap::new(), &pod_places);
    assert_eq!(set.left_out[0], ["b", "c"]);
    let coned = &set.scenarios[0];
    assert_eq!(nodes(&pod_places(coned)), [some("node-1")]);
    // Without the placement, its own startup would bind a to node-2.
    let unbound = Scenario {
        settle_placement: Vec::new(),
        ..coned.clone()
    };
    assert_eq!(nodes(&pod_places(&unbound)), [some("node-2")]);
    // And the verdicts are those of the whole application.
    let plans = [Plan::DeletePod, Plan::Crash];
    let (with, _) = verdicts(&text, &plans, false);
    let (without, _) = verdicts(&text, &plans, true);
    assert_eq!(with, without);
}

/// Each property's verdict over the whole node plan, from the verdicts of its groups'
/// scenarios: a witness (`sometimes`) is found where some group's run finds it; any other
/// property holds where it holds in every group.
fn combined(verdicts: &[&str], witness: bool) -> &'static str {
    let any = |v: &str| verdicts.contains(&v);
    match (witness, any("Holds"), any("Violated")) {
        (true, true, _) => "Holds",
        (true, false, _) => "Violated",
        (false, _, true) => "Violated",
        (false, _, false) => "Holds",
    }
}

#[test]
fn a_node_plan_split_into_groups_has_the_whole_plans_verdicts() {
    // Two single-replica Deployments without probes (so that the whole node's scenario
    // stays small: with three, its drain passes a million states), one behind a Service.
    let probe = "        readinessProbe:\n          httpGet: {path: /, port: 80}\n          periodSeconds: 5\n";
    let text = [
        deployment("a", "a", 1, None),
        deployment("c", "c", 1, None),
        service("c"),
    ]
    .concat()
    .replace(probe, "");
    assert!(!text.contains("readinessProbe"));
    let whole = base(&text);
    let first = first_pod_nodes(&whole);
    let witness: BTreeSet<&str> = podcheck_properties::catalogue::all()
        .iter()
        .filter(|p| p.kind.is_witness())
        .map(|p| p.name)
        .collect();
    let plans = [Plan::Drain, Plan::PowerOff, Plan::PartitionForceDelete];
    let (split, _) = verdicts(&text, &plans, false);
    let (all, _) = verdicts(&text, &plans, true);
    let mut compared = 0;
    // Properties on which the groups' verdicts differ: the combination is put to the test.
    let mut differ = 0;
    for plan in plans {
        for node in first.iter().flatten().collect::<BTreeSet<_>>() {
            let here: Vec<String> = whole
                .workloads
                .iter()
                .zip(&first)
                .filter(|(_, n)| n.as_ref() == Some(node))
                .map(|(w, _)| format!("app.yaml: {} {}", plan.name(), w.name()))
                .collect();
            // The whole plan's scenario of the node is checked under its first name.
            let whole_name = here
                .iter()
                .find(|n| all.iter().any(|(s, _, _)| s == *n))
                .unwrap_or_else(|| panic!("{plan:?} on {node}: no whole scenario"));
            let groups: Vec<&String> = here
                .iter()
                .filter(|n| split.iter().any(|(s, _, _)| s == *n))
                .collect();
            assert!(!groups.is_empty());
            for (_, property, verdict) in all.iter().filter(|(s, _, _)| s == whole_name) {
                let of_groups: Vec<&str> = split
                    .iter()
                    .filter(|(s, p, _)| groups.contains(&s) && p == property)
                    .map(|(_, _, v)| v.as_str())
                    .collect();
                assert_eq!(
                    combined(&of_groups, witness.contains(property.as_str())),
                    verdict,
                    "{whole_name}: {property}: groups {groups:?} say {of_groups:?}"
                );
                compared += 1;
                differ +=
                    usize::from(of_groups.contains(&"Holds") && of_groups.contains(&"Violated"));
            }
        }
    }
    assert!(compared > 0);
    assert!(differ > 0);
}

#[test]
fn a_cone_holds_what_scoring_counts_for_left_out_pods_without_requests() {
    // b requests nothing: the scheduler's scoring still counts 100m and 200Mi for its
    // container (NonZeroRequested), its fit nothing. Left out of a's cone, it is held both
    // ways on its node, so every later score of the cone sees the numbers the whole cluster
    // has.
    let text = [
        deployment("a", "a", 1, None),
        deployment("b", "b", 1, None).replace(
            "        resources: {requests: {cpu: 100m, memory: 64Mi}}\n",
            "",
        ),
    ]
    .concat();
    let whole = base(&text);
    let places = pod_places(&whole);
    let b_node = places[1][0].node.clone().expect("b is placed");
    let set = plan_scenarios_in_cones(&whole, &[Plan::DeletePod], &BTreeMap::new(), &pod_places);
    let i = set
        .left_out
        .iter()
        .position(|l| l == &["b".to_string()])
        .expect("b is left out of a's cone");
    let coned = &set.scenarios[i];
    let node = |s: &Scenario| {
        s.cluster
            .nodes
            .iter()
            .find(|n| n.name == b_node)
            .cloned()
            .expect("b's node")
    };
    let (before, after) = (node(&whole), node(coned));
    // Its plain request is nothing: usedByOtherPods is unchanged.
    assert_eq!(after.used_by_other_pods, before.used_by_other_pods);
    let mut scored = before.used_by_other_pods.clone();
    scored.cpu_milli += 100;
    scored.memory_mi += 200;
    assert_eq!(after.scored_as_used_by_other_pods, Some(scored));
    // And the verdicts are those of the whole application.
    let plans = [Plan::DeletePod, Plan::Crash];
    let (with, _) = verdicts(&text, &plans, false);
    let (without, _) = verdicts(&text, &plans, true);
    assert_eq!(with, without);
}

/// A Job whose only container exits after `seconds` s.
fn job(name: &str, seconds: u16) -> String {
    format!(
        r#"---
apiVersion: batch/v1
kind: Job
metadata: {{name: {name}}}
spec:
  template:
    metadata:
      annotations: {{podcheck.dev/exit-after-seconds: "{seconds}", podcheck.dev/boot-seconds: "1"}}
    spec:
      restartPolicy: OnFailure
      containers:
      - name: run
        image: {name}:1
"#
    )
}

#[test]
fn the_crash_of_a_job_done_before_the_cluster_settled_is_not_applicable() {
    // ingress-nginx's install manifest: a controller Deployment that is Ready after 10 s and
    // two certificate Jobs that are done in a few. The plans start from the settled cluster,
    // where those Jobs' pods have completed: the crash has no container to stop, and says so
    // instead of checking a scenario where nothing happens. A Job still running then is
    // crashed as before.
    let slow = deployment("web", "web", 1, None).replace(
        "periodSeconds: 5",
        "periodSeconds: 5\n          initialDelaySeconds: 15",
    );
    let text = [slow, job("short", 2), job("long", 600)].concat();
    let set = plan_scenarios_in_cones(&base(&text), &[Plan::Crash], &BTreeMap::new(), &pod_places);
    let names: Vec<&str> = set.scenarios.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["manifests: crash long", "manifests: crash web"],
        "{names:?}"
    );
    assert_eq!(
        set.not_applicable,
        ["crash short: the Job's pods have all run to completion in the settled cluster, where the plans start (its containers exit before the other workloads are Ready), so no container is left to crash"]
    );
    // Alone, the short Job is still running when its cluster settles: it is crashed.
    let set = plan_scenarios_in_cones(
        &base(&job("short", 2)),
        &[Plan::Crash],
        &BTreeMap::new(),
        &pod_places,
    );
    assert_eq!(set.scenarios.len(), 1);
    assert!(set.not_applicable.is_empty(), "{:?}", set.not_applicable);
}
