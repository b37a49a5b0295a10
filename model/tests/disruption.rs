//! PodDisruptionBudgets, the disruption controller's status, the Eviction API's answers and
//! cordon, each checked on a settled cluster against the rules of
//! `pkg/controller/disruption/disruption.go` (`getExpectedPodCount`, `countHealthyPods`,
//! `updatePdbStatus`), `pkg/registry/core/pod/storage/eviction.go` (`Create`,
//! `canIgnorePDB`, `checkAndDecrement`) and the scheduler's NodeUnschedulable filter
//! (docs/sources.md#disruption-controller, docs/sources.md#eviction-api,
//! docs/sources.md#kubectl-drain).

use podcheck_input::catalogue;
use podcheck_input::spec::{
    parse_scenarios, IntOrPercent, PdbSpec, PdbSpecFields, Scenario, UnhealthyPodEvictionPolicy,
};
use podcheck_model::apiserver::{evict_pod, EvictionResult};
use podcheck_model::controllers::disruption;
use podcheck_model::state::*;
use podcheck_model::{scheduler, Cluster};

/// The settled cluster of the catalogue's `drain-respects-budget` (two Ready pods of `web`
/// under one budget), changed by `f` first.
fn model(f: impl FnOnce(&mut Scenario)) -> Cluster {
    let mut s = catalogue::find("drain-respects-budget").expect("the scenario exists");
    f(&mut s);
    s.validate().expect("a valid scenario");
    Cluster::new(s, Vec::new())
}

fn budget(min: Option<IntOrPercent>, max: Option<IntOrPercent>) -> PdbSpec {
    PdbSpec {
        metadata: podcheck_input::spec::Metadata { name: "b".into() },
        spec: PdbSpecFields {
            selects: vec!["web".into()],
            min_available: min,
            max_unavailable: max,
            unhealthy_pod_eviction_policy: None,
        },
    }
}

fn uid_of(m: &Cluster, s: &State, name: &str) -> u16 {
    s.api
        .pods
        .iter()
        .find(|p| m.pod_name(p) == name)
        .unwrap_or_else(|| panic!("no pod {name}"))
        .uid
}

/// The settled status: 2 Ready pods, minAvailable 1.
#[test]
fn the_controller_writes_the_settled_status() {
    let m = model(|_| {});
    let st = &m.start.api.pdbs[0];
    assert!(st.observed);
    assert_eq!(
        (
            st.current_healthy,
            st.desired_healthy,
            st.expected_pods,
            st.disruptions_allowed
        ),
        (2, 1, 2, 1)
    );
    assert_eq!(disruption::desired_status(&m, &m.start, 0), *st);
}

/// `getExpectedPodCount` with percentages rounds up, and `maxUnavailable` counts against the
/// controllers' scale.
#[test]
fn expected_and_desired_follow_get_expected_pod_count() {
    let pct = |p: &str| Some(IntOrPercent::Text(p.into()));
    type Case = (Option<IntOrPercent>, Option<IntOrPercent>, u8, (u32, u32));
    let cases: [Case; 6] = [
        // minAvailable 50% of 3: ceil(1.5) = 2.
        (pct("50%"), None, 3, (3, 2)),
        // maxUnavailable 50% of 3: ceil(1.5) = 2 unavailable, so 1 desired.
        (None, pct("50%"), 3, (3, 1)),
        // maxUnavailable 0: every pod desired.
        (None, Some(IntOrPercent::Int(0)), 2, (2, 2)),
        // maxUnavailable above the scale: desiredHealthy is at least 0.
        (None, Some(IntOrPercent::Int(5)), 2, (2, 0)),
        // minAvailable as a number: expectedPods is the number of selected pods.
        (Some(IntOrPercent::Int(1)), None, 3, (3, 1)),
        (pct("100%"), None, 2, (2, 2)),
    ];
    for (min, max, replicas, want) in cases {
        let m = model(|s| {
            s.workloads[0].set_replicas(replicas);
            s.pod_disruption_budgets = vec![budget(min.clone(), max.clone())];
        });
        assert_eq!(
            disruption::expected_and_desired(&m, &m.start, 0),
            Some(want),
            "{min:?} {max:?} of {replicas}"
        );
    }
}

/// An allowed eviction spends the budget in the stored status, records the pod in
/// `disruptedPods`, adds DisruptionTarget (from 1.26) and deletes the pod gracefully; the next
/// one is refused with 429 until the controller counts again.
#[test]
fn an_allowed_eviction_decrements_and_the_next_gets_429() {
    for (release, condition) in [("1.25", false), ("1.26", true), ("1.35", true)] {
        let m = model(|s| s.cluster.kubernetes_version = Some(release.into()));
        let mut s = m.start.clone();
        let (a, b) = (uid_of(&m, &s, "web-1"), uid_of(&m, &s, "web-2"));
        assert_eq!(evict_pod(&m, &mut s, a), EvictionResult::Evicted);
        let pod = s.pod(a).expect("deleted gracefully, still there");
        assert_eq!(pod.deletion, Some(30), "the pod's own grace period");
        assert_eq!(pod.disruption_target, condition, "{release}");
        assert_eq!(s.api.pdbs[0].disruptions_allowed, 0);
        assert_eq!(s.api.pdbs[0].disrupted_pods, vec![a]);
        assert_eq!(
            evict_pod(&m, &mut s, b),
            EvictionResult::TooManyRequests {
                budget: 0,
                processing: false
            }
        );
        assert!(s.pod(b).is_some_and(|p| p.deletion.is_none()));
        // The controller drops the entry of the pod being deleted and no longer counts it.
        let next = disruption::desired_status(&m, &s, 0);
        assert_eq!(next.disrupted_pods, Vec::<u16>::new());
        assert_eq!((next.current_healthy, next.disruptions_allowed), (1, 0));
    }
}

/// Before the controller has written the status once: 429 "still being processed".
#[test]
fn an_unobserved_budget_answers_429() {
    let m = model(|_| {});
    let mut s = m.start.clone();
    s.api.pdbs[0] = PdbStatus::default();
    let a = uid_of(&m, &s, "web-1");
    assert_eq!(
        evict_pod(&m, &mut s, a),
        EvictionResult::TooManyRequests {
            budget: 0,
            processing: true
        }
    );
}

/// No budget: evicted at once. Two budgets: 500. A pod already being deleted: deleted again
/// without any budget check (`canIgnorePDB`), even when the budget is spent.
#[test]
fn no_budget_two_budgets_and_terminating_pods() {
    let m = model(|s| s.pod_disruption_budgets.clear());
    let mut s = m.start.clone();
    let a = uid_of(&m, &s, "web-1");
    assert_eq!(evict_pod(&m, &mut s, a), EvictionResult::Evicted);

    let m = model(|s| {
        let mut second = s.pod_disruption_budgets[0].clone();
        second.metadata.name = "other".into();
        s.pod_disruption_budgets.push(second);
    });
    let mut s = m.start.clone();
    let a = uid_of(&m, &s, "web-1");
    assert_eq!(evict_pod(&m, &mut s, a), EvictionResult::MultipleBudgets);
    assert!(s.pod(a).is_some_and(|p| p.deletion.is_none()));

    let m = model(|_| {});
    let mut s = m.start.clone();
    let a = uid_of(&m, &s, "web-1");
    s.pod_mut(a).unwrap().deletion = Some(30);
    s.api.pdbs[0].disruptions_allowed = 0;
    assert_eq!(evict_pod(&m, &mut s, a), EvictionResult::Evicted);
    assert_eq!(
        s.api.pdbs[0].disrupted_pods,
        Vec::<u16>::new(),
        "no decrement"
    );
    assert_eq!(evict_pod(&m, &mut s, 999), EvictionResult::NotFound);
}

/// A pod that is not Ready: under `IfHealthyBudget` (or unset) it is deleted without spending
/// the budget while the stored status has currentHealthy ≥ desiredHealthy > 0, and judged as
/// a healthy pod otherwise; under `AlwaysAllow` it is always deleted, from 1.27 (before, the
/// API server drops the field).
#[test]
fn unready_pods_follow_the_unhealthy_pod_eviction_policy() {
    let unready = |m: &Cluster, current: u8, desired: u8| {
        let mut s = m.start.clone();
        let a = uid_of(m, &s, "web-1");
        s.pod_mut(a).unwrap().status.ready = false;
        let st = &mut s.api.pdbs[0];
        st.current_healthy = current;
        st.desired_healthy = desired;
        st.disruptions_allowed = current.saturating_sub(desired);
        let r = evict_pod(m, &mut s, a);
        (r, s.api.pdbs[0].disrupted_pods.is_empty())
    };
    let spent = EvictionResult::TooManyRequests {
        budget: 0,
        processing: false,
    };
    for policy in [None, Some(UnhealthyPodEvictionPolicy::IfHealthyBudget)] {
        let m = model(|s| {
            s.pod_disruption_budgets[0]
                .spec
                .unhealthy_pod_eviction_policy = policy
        });
        assert_eq!(unready(&m, 2, 1), (EvictionResult::Evicted, true));
        assert_eq!(unready(&m, 1, 1), (EvictionResult::Evicted, true));
        assert_eq!(unready(&m, 1, 2), (spent, true), "{policy:?}");
        // desiredHealthy 0: judged by checkAndDecrement, which spends the budget.
        assert_eq!(unready(&m, 1, 0), (EvictionResult::Evicted, false));
    }
    for (release, evicted) in [("1.26", false), ("1.27", true), ("1.35", true)] {
        let m = model(|s| {
            s.cluster.kubernetes_version = Some(release.into());
            s.pod_disruption_budgets[0]
                .spec
                .unhealthy_pod_eviction_policy = Some(UnhealthyPodEvictionPolicy::AlwaysAllow);
        });
        let want = if evicted {
            (EvictionResult::Evicted, true)
        } else {
            (spent, true)
        };
        assert_eq!(unready(&m, 1, 2), want, "{release}");
    }
}

/// A cordoned node is refused by NodeUnschedulable, first, to a pod that does not tolerate
/// `node.kubernetes.io/unschedulable:NoSchedule`.
#[test]
fn a_cordoned_node_is_unschedulable() {
    let m = model(|_| {});
    let mut s = m.start.clone();
    s.api.nodes[0].unschedulable = true;
    let pod = s.api.pods[0].clone();
    let reasons = scheduler::filter(&m, &s, &pod);
    assert_eq!(reasons[0], vec!["node(s) were unschedulable".to_string()]);
    assert!(reasons[1].is_empty());
}

fn error(budget: &str) -> String {
    let yaml = format!(
        "- name: v
  description: validation
  source: this test
  workloads:
    - kind: Deployment
      metadata: {{name: web}}
      spec:
        replicas: 2
        template:
          spec:
            containers:
              - {{name: app, image: \"web:1\"}}
  podDisruptionBudgets:
    - metadata: {{name: b}}
      spec: {budget}
"
    );
    parse_scenarios(&yaml, "v.yaml").expect_err("refused")
}

#[test]
fn bad_budgets_are_refused_naming_the_field() {
    for (spec, want) in [
        (
            "{selects: [web], minAvailable: 1, maxUnavailable: 1}",
            "podDisruptionBudgets `b`: spec: minAvailable and maxUnavailable cannot be both set",
        ),
        (
            "{selects: [web]}",
            "podDisruptionBudgets `b`: spec: give one of minAvailable and maxUnavailable",
        ),
        (
            "{selects: [web], minAvailable: \"150%\"}",
            "podDisruptionBudgets `b`: spec.minAvailable: `150%`: must not be greater than 100%",
        ),
        (
            "{selects: [web], maxUnavailable: \"half\"}",
            "podDisruptionBudgets `b`: spec.maxUnavailable: `half` is neither a number nor a percentage",
        ),
        (
            "{selects: [web], minAvailable: -1}",
            "podDisruptionBudgets `b`: spec.minAvailable: -1: must be greater than or equal to 0",
        ),
        (
            "{selects: [db], minAvailable: 1}",
            "podDisruptionBudgets `b`: spec.selects names unknown workload `db`",
        ),
    ] {
        let e = error(spec);
        assert!(e.contains(want), "{spec}: {e}");
    }
}

#[test]
fn a_drain_of_an_unknown_node_is_refused() {
    let mut s = catalogue::find("drain-respects-budget").unwrap();
    s.faults = vec![podcheck_input::spec::Fault::Drain {
        node: "node-9".into(),
        disable_eviction: false,
        force: false,
        delete_emptydir_data: false,
    }];
    let e = s.validate().unwrap_err().to_string();
    assert!(e.contains("fault names unknown node `node-9`"), "{e}");
}

/// A value that is neither a number nor a string is refused by the parser, with the kind of
/// value it wants.
#[test]
fn a_budget_amount_of_the_wrong_type_is_refused() {
    let e = error("{selects: [web], minAvailable: [1]}");
    assert!(e.contains("a number of pods or a percentage"), "{e}");
}

/// Runs the component steps (each the first enabled one) and the clock until nothing is left
/// to do, or `limit` steps.
fn run_until_quiet(m: &Cluster, mut s: State, limit: usize) -> State {
    for _ in 0..limit {
        let mut acts = Vec::new();
        m.urgent_actions(&s, &mut acts);
        let a = match acts.first() {
            Some(a) => *a,
            None => match podcheck_model::time::next_deadline(&m.ctx, &s) {
                Some(d) => podcheck_model::Action::Tick(d),
                None => break,
            },
        };
        s = m.apply(&s, &a).expect("an enabled action applies");
    }
    s
}

/// `cordon` and `uncordon` of node-1: uncordon is enabled only on a cordoned node.
#[test]
fn cordon_then_uncordon() {
    use podcheck_input::spec::Fault;
    use podcheck_model::{faults, Action};
    let m = model(|s| {
        s.faults = vec![
            Fault::Cordon {
                node: "node-1".into(),
            },
            Fault::Uncordon {
                node: "node-1".into(),
            },
        ]
    });
    let enabled = |s: &State| {
        let mut out: Vec<Action> = Vec::new();
        faults::actions(&m.ctx, s, &mut out);
        out
    };
    let s = m.start.clone();
    let cordon = Action::Fault(faults::Action::Fault {
        index: 0,
        target: None,
    });
    assert_eq!(enabled(&s), vec![cordon]);
    let s = m.apply(&s, &cordon).unwrap();
    assert!(s.api.nodes[0].unschedulable);
    let uncordon = Action::Fault(faults::Action::Fault {
        index: 1,
        target: None,
    });
    assert_eq!(enabled(&s), vec![uncordon]);
    let s = m.apply(&s, &uncordon).unwrap();
    assert!(!s.api.nodes[0].unschedulable);
}

/// A pod no controller owns on the drained node: without `--force` the drain refuses and
/// evicts nothing (`unreplicatedFilter`); with it, the pod is evicted too and the node
/// drained.
#[test]
fn a_bare_pod_needs_force() {
    use podcheck_input::spec::{Fault, Metadata, Workload};
    for force in [false, true] {
        let m = model(|s| {
            let spec = s.workloads[0].template().clone();
            s.workloads.push(Workload::Pod {
                metadata: Metadata {
                    name: "bare".into(),
                },
                spec,
            });
            s.faults = vec![Fault::Drain {
                node: "node-1".into(),
                disable_eviction: false,
                force,
                delete_emptydir_data: false,
            }];
        });
        let on_node_1 = |s: &State| {
            s.api
                .pods
                .iter()
                .filter(|p| p.node == Some(NodeId(0)))
                .count()
        };
        assert_eq!(on_node_1(&m.start), 3, "web-1, web-2 and bare on node-1");
        let start = podcheck_model::Action::Fault(podcheck_model::faults::Action::Fault {
            index: 0,
            target: None,
        });
        let s = m.apply(&m.start, &start).unwrap();
        let s = run_until_quiet(&m, s, 2000);
        let d = &s.env.drains[0];
        assert_eq!(d.stage, DrainStage::Ended);
        assert_eq!((d.failed, d.drained()), (!force, force), "force {force}");
        assert!(s.api.nodes[0].unschedulable, "cordoned either way");
        assert_eq!(on_node_1(&s), if force { 0 } else { 3 });
    }
}
