//! The status manager's merge (`status_manager.go` `mergePodStatus` with
//! `couldHaveRunningContainers`): a pod the kubelet kills reaches Succeeded or Failed in the
//! API, with its reason and `DisruptionTarget`, only once its containers have stopped
//! (docs/sources.md#kubelet-terminal-phase-only-after-the-containers-stop). Run step by step
//! on catalogue scenarios where the kubelet itself kills: node-pressure eviction and graceful
//! node shutdown.

use podcheck_input::catalogue;
use podcheck_model::k8s::Phase;
use podcheck_model::state::*;
use podcheck_model::{faults, kubelet, Action, Cluster};

fn model(name: &str, release: Option<&str>) -> Cluster {
    let mut s = catalogue::find(name).expect("the scenario exists");
    s.cluster.kubernetes_version = release.map(String::from);
    s.validate().expect("a valid scenario");
    Cluster::new(s, Vec::new())
}

/// Whether a pod object is Succeeded or Failed while a container of it runs on its node.
fn terminal_while_running(s: &State) -> Option<u16> {
    s.api.pods.iter().find_map(|p| {
        let n = p.node.filter(|_| p.status.phase.is_terminal())?;
        s.rt(n, p.mirror_of.unwrap_or(p.uid))
            .is_some_and(|rt| rt.any_running())
            .then_some(p.uid)
    })
}

/// The fault, then the first enabled component step each time (a status write first, with
/// `writes_first`), the clock only when none is; every state is checked. Returns the states
/// of the run.
fn run(m: &Cluster, limit: usize, writes_first: bool) -> Vec<State> {
    let fault = Action::Fault(faults::Action::Fault {
        index: 0,
        target: None,
    });
    let mut s = m.apply(&m.start, &fault).expect("the fault is enabled");
    let mut states = vec![s.clone()];
    for _ in 0..limit {
        assert_eq!(terminal_while_running(&s), None, "{}", m.scenario.name);
        let mut acts = Vec::new();
        m.urgent_actions(&s, &mut acts);
        let write = acts.iter().find(|a| {
            writes_first && matches!(a, Action::Kubelet(kubelet::Action::StatusUpdate { .. }))
        });
        let a = match write.or(acts.first()) {
            Some(a) => *a,
            None => match podcheck_model::time::next_deadline(&m.ctx, &s) {
                Some(d) => Action::Tick(d),
                None => break,
            },
        };
        s = m.apply(&s, &a).expect("an enabled action applies");
        states.push(s.clone());
    }
    states
}

/// The evicted Burstable pod: Running with no reason while its container stops (a hard
/// eviction's grace), then Failed with reason Evicted, and DisruptionTarget from 1.26 in the
/// same write.
#[test]
fn an_evicted_pod_is_failed_only_once_its_container_stopped() {
    for (release, disruption) in [(None, true), (Some("1.25"), false)] {
        let m = model("node-pressure-eviction", release);
        let states = run(&m, 300, false);
        let burstable = m
            .start
            .api
            .pods
            .iter()
            .find(|p| m.pod_name(p) == "burstable")
            .unwrap()
            .uid;
        let evicted_at = states
            .iter()
            .position(|s| {
                s.nodes[0]
                    .pods
                    .iter()
                    .any(|r| r.uid == burstable && r.evicted)
            })
            .expect("the Burstable pod is evicted");
        let failed_at = states
            .iter()
            .position(|s| {
                s.pod(burstable)
                    .is_some_and(|p| p.status.phase == Phase::Failed)
            })
            .expect("the evicted pod ends Failed");
        assert!(evicted_at < failed_at);
        for s in &states[evicted_at..failed_at] {
            let p = s.pod(burstable).unwrap();
            assert_eq!(p.status.phase, Phase::Running, "{release:?}");
            assert_ne!(p.status.reason, "Evicted", "{release:?}");
            assert!(!p.disruption_target, "{release:?}");
        }
        let s = &states[failed_at];
        assert!(!s.rt(NodeId(0), burstable).unwrap().any_running());
        let p = s.pod(burstable).unwrap();
        assert_eq!(p.status.reason, "Evicted");
        assert_eq!(p.disruption_target, disruption, "{release:?}");
    }
}

/// With a preStop hook the shut-down pod stays Running through it, and no replacement exists
/// until the pod is Failed, once its container has stopped (on the run where the status
/// manager writes as soon as it can; where the machine powers off first, the pod stays Running
/// on a dead node, as upstream's asynchronous status sync allows).
#[test]
fn a_shut_down_pod_is_running_through_its_prestop_and_replaced_after() {
    let m = model("node-shutdown-prestop", None);
    let web = m.start.api.pods[0].uid;
    for writes_first in [true, false] {
        let states = run(&m, 500, writes_first);
        let stopped_at = states
            .iter()
            .position(|s| {
                s.nodes
                    .iter()
                    .flat_map(|n| &n.pods)
                    .all(|r| r.uid != web || !r.any_running())
            })
            .expect("the shut-down pod stops");
        for s in &states[..stopped_at] {
            assert_eq!(s.api.pods.len(), 1, "a replacement while the pod runs");
            assert_eq!(s.pod(web).unwrap().status.phase, Phase::Running);
        }
        let failed_at = states
            .iter()
            .position(|s| s.pod(web).is_some_and(|p| p.status.phase == Phase::Failed));
        if writes_first {
            let failed_at = failed_at.expect("the shut-down pod ends Failed");
            assert!(stopped_at < failed_at);
            assert!(states[..failed_at].iter().all(|s| s.api.pods.len() == 1));
            assert!(states[failed_at].pod(web).unwrap().disruption_target);
        }
    }
}
