//! The Deployment controller's rollout along the canonical run (each step the first enabled
//! component action, else time passes): the ReplicaSets' sizes stay within the surge and end
//! at the new revision, `minReadySeconds` holds each step back, and a rollout that makes no
//! progress past `progressDeadlineSeconds` is marked `ProgressDeadlineExceeded`
//! (docs/sources.md#deployment-rolling-update, docs/sources.md#deployment-progress-deadline).

use podcheck_input::catalogue;
use podcheck_input::spec::Workload;
use podcheck_model::controllers;
use podcheck_model::state::{Progressing, State};
use podcheck_model::{faults, time, Action, Cluster};
use podcheck_properties::check;

fn model_with(name: &str, edit: impl FnOnce(&mut podcheck_input::spec::DeploymentSpec)) -> Cluster {
    let mut s = catalogue::find(name).unwrap();
    if let Workload::Deployment { spec, .. } = &mut s.workloads[0] {
        edit(spec);
    }
    s.validate().unwrap();
    check::model(&s, &[], false)
}

/// The state after the rollout restart, from the settled start.
fn rolled(m: &Cluster) -> State {
    m.apply(
        &m.initial_state(),
        &Action::Fault(faults::Action::Fault {
            index: 0,
            target: None,
        }),
    )
    .expect("the rollout restart is enabled")
}

/// The canonical run from `s` until the rollout is complete: its states and the seconds it
/// took.
fn run_to_completion(m: &Cluster, mut s: State) -> (Vec<State>, u64) {
    let mut states = vec![s.clone()];
    let mut secs = 0u64;
    for _ in 0..5_000 {
        let d = s.api.workloads[0].deployment.clone().unwrap();
        if d.progressing == Some(Progressing::NewReplicaSetAvailable) {
            return (states, secs);
        }
        let mut acts = Vec::new();
        m.urgent_actions(&s, &mut acts);
        let a = match acts.first() {
            Some(a) => *a,
            None => {
                let d = time::next_deadline(m, &s).expect("something is due");
                secs += u64::from(d);
                Action::Tick(d)
            }
        };
        s = m.apply(&s, &a).unwrap();
        states.push(s.clone());
    }
    panic!("the rollout did not complete");
}

#[test]
fn a_rolling_update_ends_at_the_new_revision_within_the_surge() {
    let m = model_with("rolling-update-prestop", |_| {});
    let (states, _) = run_to_completion(&m, rolled(&m));
    for s in &states {
        let rs = s.api.workloads[0].deployment.as_ref().unwrap().replica_sets;
        let sum: u32 = rs.iter().flatten().map(|&r| u32::from(r)).sum();
        assert!(
            sum <= 3 + 1,
            "spec.replicas over replicas + maxSurge: {rs:?}"
        );
    }
    let last = states.last().unwrap();
    let d = last.api.workloads[0].deployment.as_ref().unwrap();
    assert_eq!(d.replica_sets, [Some(0), Some(3)]);
    let active: Vec<u8> = last
        .api
        .pods
        .iter()
        .filter(|p| p.deletion.is_none())
        .map(|p| p.revision)
        .collect();
    assert_eq!(
        active,
        vec![1, 1, 1],
        "only the new revision's pods are active"
    );
}

#[test]
fn min_ready_seconds_holds_each_step_of_the_rollout_back() {
    let plain = model_with("rolling-update-prestop", |_| {});
    let slow = model_with("rolling-update-prestop", |d| d.min_ready_seconds = 10);
    let (_, fast_secs) = run_to_completion(&plain, rolled(&plain));
    let (states, slow_secs) = run_to_completion(&slow, rolled(&slow));
    // maxSurge 1, maxUnavailable 0: the three new pods become available one after another,
    // each at least 10 s (strictly: 11 whole seconds) after it is Ready.
    assert!(
        slow_secs >= fast_secs + 3 * 10,
        "minReadySeconds 10 took {slow_secs} s, without it {fast_secs} s"
    );
    // The old ReplicaSet never shrinks while the new pods are Ready but not yet available.
    for w in states.windows(2) {
        let old = |s: &State| s.api.workloads[0].deployment.as_ref().unwrap().replica_sets[0];
        if old(&w[1]) < old(&w[0]) {
            let available = w[0]
                .api
                .pods
                .iter()
                .filter(|p| p.revision == 1 && p.available_in == Some(0))
                .count();
            assert!(available >= 1, "scaled down with no new pod available");
        }
    }
}

#[test]
fn no_progress_past_the_deadline_is_progress_deadline_exceeded() {
    let m = model_with("rolling-update-prestop", |_| {});
    let s = rolled(&m);
    let sync = Action::Controller(controllers::Action::DeploymentSync { workload: 0 });
    let s = m.apply(&s, &sync).expect("the new ReplicaSet is created");
    let Some(Progressing::Updated { left, .. }) =
        s.api.workloads[0].deployment.as_ref().unwrap().progressing
    else {
        panic!("Progressing is not True after the new ReplicaSet is created");
    };
    // `lastUpdateTime + progressDeadlineSeconds` before now: one whole second past 600 s.
    assert_eq!(left, 601);
    // The deadline runs out with nothing having progressed.
    let mut stuck = s.clone();
    if let Some(Progressing::Updated { left, .. }) = &mut stuck.api.workloads[0]
        .deployment
        .as_mut()
        .unwrap()
        .progressing
    {
        *left = 0;
    }
    let out = m
        .apply(&stuck, &sync)
        .expect("the sync writes the condition");
    assert!(matches!(
        out.api.workloads[0]
            .deployment
            .as_ref()
            .unwrap()
            .progressing,
        Some(Progressing::ProgressDeadlineExceeded { .. })
    ));
    // The rollout goes on: the ReplicaSets keep their sizes, nothing rolls back.
    assert_eq!(
        out.api.workloads[0]
            .deployment
            .as_ref()
            .unwrap()
            .replica_sets,
        stuck.api.workloads[0]
            .deployment
            .as_ref()
            .unwrap()
            .replica_sets
    );
}
