//! The StatefulSet controller's rolling update after `kubectl rollout restart`
//! (docs/sources.md#statefulset-rolling-update): along the canonical run (each step the first
//! enabled component action, else time passes) the pods are replaced from the largest ordinal
//! down, one at a time, each recreated at the update revision; a partition keeps the ordinals
//! below it; OnDelete replaces nothing; and over every run, `maxUnavailable` lets two pods be
//! down at once from 1.35 only.

use podcheck_input::catalogue;
use podcheck_input::spec::Verdict;
use podcheck_input::spec::{
    IntOrString, RollingUpdateStatefulSet, Scenario, StatefulSetSpec, StatefulSetStrategyType,
    Workload,
};
use podcheck_model::k8s::Phase;
use podcheck_model::state::State;
use podcheck_model::{controllers, faults, time, Action, Cluster};
use podcheck_properties::catalogue::{Kind, PropertyDef};
use podcheck_properties::{check, check_with, CheckOptions};

fn scenario_with(edit: impl FnOnce(&mut StatefulSetSpec)) -> Scenario {
    let mut s = catalogue::find("statefulset-rolling-update").unwrap();
    if let Workload::StatefulSet { spec, .. } = &mut s.workloads[0] {
        edit(spec);
    }
    s.validate().unwrap();
    s
}

fn spec_of(m: &Cluster) -> StatefulSetSpec {
    match &m.scenario.workloads[0] {
        Workload::StatefulSet { spec, .. } => spec.clone(),
        w => panic!("{w:?}"),
    }
}

/// The canonical run from the rollout restart on, `steps` steps long: its states.
fn canonical_run(m: &Cluster, steps: usize) -> Vec<State> {
    let mut s = m
        .apply(
            &m.initial_state(),
            &Action::Fault(faults::Action::Fault {
                index: 0,
                target: None,
            }),
        )
        .expect("the rollout restart is enabled");
    let mut states = vec![s.clone()];
    for _ in 0..steps {
        let mut acts = Vec::new();
        m.urgent_actions(&s, &mut acts);
        let a = match acts.first() {
            Some(a) => *a,
            None => Action::Tick(time::next_deadline(m, &s).expect("something is due")),
        };
        s = m.apply(&s, &a).unwrap();
        states.push(s.clone());
    }
    states
}

/// The ordinals whose pod the step deleted (a deletion timestamp set, or the object gone
/// while it was not being deleted).
fn deleted(before: &State, after: &State) -> Vec<u8> {
    before
        .api
        .pods
        .iter()
        .filter(|p| p.deletion.is_none())
        .filter(|p| after.pod(p.uid).is_none_or(|q| q.deletion.is_some()))
        .map(|p| p.suffix)
        .collect()
}

/// The ordinals of the set that are not Running, Ready and alive (missing, terminating, not
/// Ready).
fn down(s: &State, replicas: u8) -> usize {
    (0..replicas)
        .filter(|&o| {
            !s.api.pods.iter().any(|p| {
                p.suffix == o
                    && p.deletion.is_none()
                    && p.status.phase == Phase::Running
                    && p.status.ready
            })
        })
        .count()
}

#[test]
fn a_rolling_update_replaces_the_largest_ordinal_first_one_at_a_time() {
    let m = check::model(&scenario_with(|_| {}), &[], false);
    let spec = spec_of(&m);
    let states = canonical_run(&m, 3_000);
    let mut order = Vec::new();
    for pair in states.windows(2) {
        order.extend(deleted(&pair[0], &pair[1]));
        assert!(down(&pair[1], 3) <= 1, "two ordinals down at once");
    }
    assert_eq!(order, [2, 1, 0], "deleted for update, in this order");
    let last = states.last().unwrap();
    assert!(controllers::statefulset::rollout_complete(&spec, last, 0));
    let st = last.api.workloads[0].statefulset.unwrap();
    assert_eq!((st.current, st.update), (1, 1), "completeRollingUpdate");
    assert!(last.api.pods.iter().all(|p| p.revision == 1));
}

#[test]
fn a_partition_keeps_the_ordinals_below_it_at_the_current_revision() {
    let m = check::model(
        &scenario_with(|s| {
            s.update_strategy.rolling_update = Some(RollingUpdateStatefulSet {
                partition: 1,
                max_unavailable: None,
            })
        }),
        &[],
        false,
    );
    let spec = spec_of(&m);
    let states = canonical_run(&m, 3_000);
    let order: Vec<u8> = states
        .windows(2)
        .flat_map(|p| deleted(&p[0], &p[1]))
        .collect();
    assert_eq!(order, [2, 1]);
    let last = states.last().unwrap();
    assert!(controllers::statefulset::rollout_complete(&spec, last, 0));
    let revision = |o: u8| {
        last.api
            .pods
            .iter()
            .find(|p| p.suffix == o)
            .unwrap()
            .revision
    };
    assert_eq!([revision(0), revision(1), revision(2)], [0, 1, 1]);
    let st = last.api.workloads[0].statefulset.unwrap();
    assert_eq!((st.current, st.update), (0, 1), "the rollout is partial");
}

#[test]
fn on_delete_replaces_nothing() {
    let m = check::model(
        &scenario_with(|s| s.update_strategy.kind = StatefulSetStrategyType::OnDelete),
        &[],
        false,
    );
    let spec = spec_of(&m);
    let states = canonical_run(&m, 500);
    for pair in states.windows(2) {
        assert_eq!(deleted(&pair[0], &pair[1]), Vec::<u8>::new());
    }
    let last = states.last().unwrap();
    assert!(last.api.pods.iter().all(|p| p.revision == 0));
    assert!(!controllers::statefulset::rollout_complete(&spec, last, 0));
}

fn two_down(_: &Cluster, s: &State) -> bool {
    down(s, 3) >= 2 && s.api.workloads[0].statefulset.is_some()
}

fn at_most_one_down(m: &Cluster, s: &State) -> bool {
    !two_down(m, s)
}

/// Over every run: with `maxUnavailable: 2`, two ordinals are down at once during the
/// rollout from 1.35 (gate `MaxUnavailableStatefulSet` on by default), never at 1.34, where
/// the field is dropped and the pods are replaced one at a time.
#[test]
fn max_unavailable_is_honoured_from_1_35() {
    let with = |version: &str| {
        let mut s = scenario_with(|s| {
            s.update_strategy.rolling_update = Some(RollingUpdateStatefulSet {
                partition: 0,
                max_unavailable: Some(IntOrString::Int(2)),
            })
        });
        s.cluster.kubernetes_version = Some(version.into());
        s
    };
    let sometimes = PropertyDef {
        name: "two_down",
        kind: Kind::Sometimes(two_down),
        sentence: "Two ordinals are down at once after the rollout restart.",
        source: "this test",
        layer: "api",
        premise: None,
    };
    let always = PropertyDef {
        name: "at_most_one_down",
        kind: Kind::Always(at_most_one_down),
        sentence: "At most one ordinal is down after the rollout restart.",
        source: "this test",
        layer: "api",
        premise: None,
    };
    let opts = CheckOptions::default();
    let r = check_with(&with("1.35"), &[sometimes], &opts).unwrap();
    assert!(r.complete);
    assert_eq!(r.properties[0].verdict, Verdict::Holds, "witness found");
    let r = check_with(&with("1.34"), &[always], &opts).unwrap();
    assert!(r.complete);
    assert_eq!(r.properties[0].verdict, Verdict::Holds);
    assert!(!r.properties[0].vacuous);
}
