//! What `eviction_respects_budget` can and cannot promise. The Eviction API judges an eviction
//! on the budget's *stored* status (`eviction.go` `checkAndDecrement`), which the disruption
//! controller last wrote (`disruption.go` `updatePdbStatus`): while that status is current,
//! an allowed eviction never takes a budget below desiredHealthy; when a pod has turned unready
//! since, an allowed eviction can (docs/sources.md#eviction-api).

use podcheck_input::catalogue;
use podcheck_model::state::*;
use podcheck_model::{drain, Action, Cluster};
use podcheck_properties::catalogue::{find, Kind};
use stateright::Model;

/// The settled `drain-respects-budget` (web-1 and web-2 Ready on node-1, minAvailable 1,
/// stored disruptionsAllowed 1), with a drain run about to evict web-1, and web-2 turned
/// unready after the controller's last sync.
fn stale() -> (Cluster, State, Action) {
    let m = Cluster::new(
        catalogue::find("drain-respects-budget").unwrap(),
        Vec::new(),
    );
    let mut s = m.initial_state();
    let uid = |s: &State, name: &str| {
        s.api
            .pods
            .iter()
            .find(|p| m.pod_name(p) == name)
            .unwrap()
            .uid
    };
    let (a, b) = (uid(&s, "web-1"), uid(&s, "web-2"));
    assert_eq!(s.api.pdbs[0].disruptions_allowed, 1);
    s.pod_mut(b).unwrap().status.ready = false;
    let p = s.pod(a).unwrap();
    s.env.drains.push(DrainRun {
        fault: 0,
        node: NodeId(0),
        pods: vec![DrainPod {
            uid: a,
            workload: p.workload,
            suffix: p.suffix,
            step: DrainStep::Request { wait: 0 },
        }],
        failed: false,
        stage: DrainStage::Evicting,
    });
    let evict = Action::Drain(drain::Action::Evict { fault: 0, uid: a });
    (m, s, evict)
}

fn judge(m: &Cluster, s: &State, a: Action) -> bool {
    let Kind::Step { condition: f, .. } = find("eviction_respects_budget").unwrap().kind else {
        panic!("a step property")
    };
    let n = m.next_state(s, a).expect("the eviction is sent");
    f(m, s, &a, &n)
}

#[test]
fn a_stale_status_lets_an_eviction_break_the_budget() {
    let (m, s, evict) = stale();
    // The stored status still allows one disruption: the eviction is allowed, and leaves no
    // healthy pod of the two.
    assert!(!judge(&m, &s, evict));
}

#[test]
fn a_current_status_refuses_the_same_eviction() {
    let (m, mut s, evict) = stale();
    // The controller syncs first: currentHealthy 1, disruptionsAllowed 0.
    let sync = Action::Controller(podcheck_model::controllers::Action::DisruptionSync { pdb: 0 });
    s = m
        .next_state(&s, sync)
        .expect("the controller has a newer count");
    assert_eq!(s.api.pdbs[0].disruptions_allowed, 0);
    assert!(judge(&m, &s, evict));
    let n = m.next_state(&s, evict).unwrap();
    assert!(n.api.pods.iter().all(|p| p.deletion.is_none()), "429");
}
