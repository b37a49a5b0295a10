//! The node lifecycle controller's zone states, the kubelet's Ready=False condition and
//! PodGC's out-of-service collection, run step by step on catalogue scenarios against
//! `pkg/controller/nodelifecycle/node_lifecycle_controller.go` (`ComputeZoneState`,
//! `handleDisruption`, `ReducedQPSFunc`), `pkg/kubelet/nodestatus/setters.go`
//! (`ReadyCondition`) and `pkg/controller/podgc/gc_controller.go` (`gcTerminating`,
//! `gcOrphaned`, `markFailedAndDeletePod`): docs/sources.md#node-lifecycle-zone-disruption,
//! docs/sources.md#kubelet-node-lease-and-status, docs/sources.md#podgc.

use podcheck_input::catalogue;
use podcheck_model::controllers::{self, node_lifecycle::Step, podgc};
use podcheck_model::state::*;
use podcheck_model::{derived, faults, kubectl, kubelet, Action, Cluster};

fn model(name: &str) -> Cluster {
    let s = catalogue::find(name).expect("the scenario exists");
    s.validate().expect("a valid scenario");
    Cluster::new(s, Vec::new())
}

fn fault(index: u8) -> Action {
    Action::Fault(faults::Action::Fault {
        index,
        target: None,
    })
}

fn node_step(a: &Action) -> Option<(NodeId, Step)> {
    match a {
        Action::Controller(controllers::Action::NodeLifecycle { node, step }) => {
            Some((*node, *step))
        }
        _ => None,
    }
}

/// Runs from `s` for `seconds` of model time: the node lifecycle controller marks every node
/// it is due to mark Unknown before anything else (one monitor pass marks them all, and its
/// `handleDisruption` runs at the pass's end), then the first enabled step, the clock when
/// none is. Returns the state and every step taken.
fn run(m: &Cluster, mut s: State, seconds: u32) -> (State, Vec<Action>) {
    let mut now = 0u32;
    let mut taken = Vec::new();
    for _ in 0..10_000 {
        let mut acts = Vec::new();
        m.urgent_actions(&s, &mut acts);
        let mark = acts
            .iter()
            .find(|a| matches!(node_step(a), Some((_, Step::MarkUnknown))));
        let a = match mark.or(acts.first()) {
            Some(a) => *a,
            None => match podcheck_model::time::next_deadline(&m.ctx, &s) {
                Some(d) if now + d as u32 <= seconds => Action::Tick(d),
                _ => break,
            },
        };
        if let Action::Tick(d) = a {
            now += d as u32;
        }
        s = m.apply(&s, &a).expect("an enabled action applies");
        taken.push(a);
    }
    (s, taken)
}

fn web_pod(s: &State) -> &Pod {
    s.api.pods.first().expect("web's pod")
}

/// 3 of 5 nodes cut off at once: once all three are Unknown the zone is partially
/// disrupted; with 5 nodes (50 or fewer) its tainting rate is 0, so none of them is tainted
/// and web's pod, not Ready, is never deleted.
#[test]
fn three_of_five_cut_off_at_once_get_no_taint() {
    let m = model("partial-disruption");
    let mut s = m.start.clone();
    for i in 0..3 {
        s = m.apply(&s, &fault(i)).expect("the partition is enabled");
    }
    let (s, taken) = run(&m, s, 400);
    let marked = taken
        .iter()
        .filter(|a| matches!(node_step(a), Some((_, Step::MarkUnknown))))
        .count();
    assert_eq!(marked, 3);
    assert!(!taken
        .iter()
        .any(|a| matches!(node_step(a), Some((_, Step::Taint)))));
    let d = derived::Disruption::of(&m.ctx, &s);
    assert_eq!(
        d.zones,
        vec![Some((podcheck_model::k8s::ZoneState::PartialDisruption, 5))]
    );
    assert!(!d.all_fully_disrupted);
    for n in 0..3 {
        assert!(s.api.nodes[n].unknown && !s.api.nodes[n].unreachable_taint);
        assert!(d.tainting_stopped(&m.ctx, NodeId::new(n)));
    }
    let p = web_pod(&s);
    assert!(p.deletion.is_none() && !p.status.ready);
}

/// 2 of 5 cut off: not more than 2 not Ready, so the zone stays normal; both nodes are
/// tainted and web's pod is deleted when its 300 s toleration ends.
#[test]
fn two_of_five_cut_off_are_tainted() {
    let m = model("partial-disruption");
    let mut s = m.start.clone();
    for i in 0..2 {
        s = m.apply(&s, &fault(i)).expect("the partition is enabled");
    }
    let (s, _) = run(&m, s, 400);
    assert!(s.api.nodes[0].unreachable_taint && s.api.nodes[1].unreachable_taint);
    assert!(web_pod(&s).deletion.is_some());
}

/// A node tainted while the zone was normal keeps its taint when the zone becomes partially
/// disrupted (`handleDisruption` lifts taints only in master disruption mode), and its pod
/// is evicted; the nodes cut off later wait untainted.
#[test]
fn partial_disruption_keeps_a_taint_already_there() {
    let m = model("partial-disruption");
    let s = m.apply(&m.start, &fault(0)).unwrap();
    let (mut s, _) = run(&m, s, 60);
    assert!(s.api.nodes[0].unknown && s.api.nodes[0].unreachable_taint);
    for i in 1..3 {
        s = m.apply(&s, &fault(i)).unwrap();
    }
    let (s, _) = run(&m, s, 400);
    assert!(s.api.nodes[1].unknown && s.api.nodes[2].unknown);
    assert!(s.api.nodes[0].unreachable_taint);
    assert!(!s.api.nodes[1].unreachable_taint && !s.api.nodes[2].unreachable_taint);
    assert!(web_pod(&s).deletion.is_some());
}

fn shut_down_and_post(m: &Cluster) -> State {
    let s = m.apply(&m.start, &fault(0)).unwrap();
    m.apply(
        &s,
        &Action::Kubelet(kubelet::Action::NodeStatus { node: NodeId(0) }),
    )
    .unwrap()
}

/// A node shutting down posts Ready=False with reason KubeletNotReady and the shutdown
/// manager's message; kubectl shows it NotReady. The other node stays Ready.
#[test]
fn ready_false_has_upstream_reason_and_message() {
    let m = model("node-shutdown");
    let s = shut_down_and_post(&m);
    let node1 = kubectl::print_node(&s, NodeId(0));
    assert_eq!(node1.status, "NotReady");
    assert_eq!(
        node1.ready.status,
        podcheck_model::k8s::ConditionStatus::False
    );
    assert_eq!(node1.ready.reason, "KubeletNotReady");
    assert_eq!(node1.ready.message, "node is shutting down");
    let node2 = kubectl::print_node(&s, NodeId(1));
    assert_eq!(
        (node2.status.as_str(), node2.ready.reason),
        ("Ready", "KubeletReady")
    );
    // One of two nodes not Ready: normal; the controller marks the pods and taints node-1.
    assert!(!derived::full_disruption(&m.ctx, &s));
    let mut acts = Vec::new();
    m.urgent_actions(&s, &mut acts);
    let mark = acts
        .iter()
        .find(|a| node_step(a) == Some((NodeId(0), Step::MarkNotReady)))
        .expect("MarkNotReady is enabled");
    let s = m.apply(&s, mark).unwrap();
    assert!(s.api.nodes[0].not_ready_taint && s.api.nodes[0].seen_not_ready);
}

/// Full disruption counts every not-Ready node, Ready=False as well as Unknown: the only node
/// shutting down puts the cluster in master disruption mode, and the controller adds no
/// not-ready taint.
#[test]
fn full_disruption_counts_ready_false() {
    let m = model("node-shutdown-critical");
    let s = shut_down_and_post(&m);
    assert!(s.api.nodes[0].not_ready && !s.api.nodes[0].unknown);
    assert!(derived::full_disruption(&m.ctx, &s));
    let mut acts = Vec::new();
    m.urgent_actions(&s, &mut acts);
    let mark = acts
        .iter()
        .find(|a| node_step(a) == Some((NodeId(0), Step::MarkNotReady)))
        .expect("MarkNotReady is enabled");
    let s = m.apply(&s, mark).unwrap();
    assert!(!s.api.nodes[0].not_ready_taint);
    let mut acts = Vec::new();
    m.urgent_actions(&s, &mut acts);
    assert!(!acts.iter().any(|a| matches!(
        node_step(a),
        Some((_, Step::TaintNotReady | Step::MarkNotReady))
    )));
}

/// job-evicted-ignored's settled Job pod, deleted by a user (graceful: no DisruptionTarget),
/// on node-1, which is not Ready as `not_ready` says and carries the out-of-service taint.
fn terminating_on_out_of_service(unknown: bool) -> (Cluster, State, u16) {
    let m = model("job-evicted-ignored");
    let mut s = m.start.clone();
    let uid = web_pod(&s).uid;
    s.pod_mut(uid).unwrap().deletion = Some(30);
    let obj = &mut s.api.nodes[0];
    obj.out_of_service = true;
    if unknown {
        obj.unknown = true;
    } else {
        obj.not_ready = true;
    }
    obj.seen_not_ready = true;
    (m, s, uid)
}

/// PodGC's `gcTerminating` collects the terminating pods of a node that is not Ready,
/// Unknown or False alike, with the out-of-service taint.
#[test]
fn out_of_service_collection_on_every_not_ready_node() {
    for unknown in [true, false] {
        let (m, s, uid) = terminating_on_out_of_service(unknown);
        let mut acts = Vec::new();
        m.urgent_actions(&s, &mut acts);
        assert!(
            acts.contains(&Action::Controller(controllers::Action::PodGc { uid })),
            "unknown: {unknown}"
        );
        let mut ready = s.clone();
        let obj = &mut ready.api.nodes[0];
        obj.unknown = false;
        obj.not_ready = false;
        let mut acts = Vec::new();
        m.urgent_actions(&ready, &mut acts);
        assert!(!acts.contains(&Action::Controller(controllers::Action::PodGc { uid })));
    }
}

/// The out-of-service collection marks the pod Failed without DisruptionTarget
/// (`markFailedAndDeletePod`), so a Job's podFailurePolicy rule that ignores DisruptionTarget
/// does not match and the pod counts as a failure; an orphan (its Node object deleted) gets
/// DisruptionTarget (`gcOrphaned`) and is ignored. The Job controller reads the pod as
/// PodGC's patch leaves it, before the delete (its tracking finalizer keeps the object).
#[test]
fn out_of_service_collection_adds_no_disruption_target() {
    let failed_after_patch = |orphan: bool| {
        let (m, mut s, uid) = terminating_on_out_of_service(true);
        if orphan {
            s.api.nodes[0].deleted = true;
        }
        podgc::mark_failed(&m.ctx, &mut s, uid).unwrap();
        let p = s.pod(uid).unwrap();
        assert_eq!(p.status.phase, podcheck_model::k8s::Phase::Failed);
        assert_eq!(p.disruption_target, orphan);
        controllers::job::sync(&m.ctx, &mut s, 0);
        s.api.workloads[0].job.as_ref().unwrap().failed
    };
    assert_eq!(failed_after_patch(false), 1);
    assert_eq!(failed_after_patch(true), 0);
    // Before 1.26 PodGC sends no patch at all (gate PodDisruptionConditions).
    let mut sc = catalogue::find("job-evicted-ignored").unwrap();
    sc.cluster.kubernetes_version = Some("1.25".into());
    let ctx = podcheck_model::Context::new(sc);
    let (_, mut s, uid) = terminating_on_out_of_service(true);
    podgc::mark_failed(&ctx, &mut s, uid).unwrap();
    let p = s.pod(uid).unwrap();
    assert!(!p.status.phase.is_terminal() && !p.disruption_target);
}

/// partial-disruption with zone labels (`topology.kubernetes.io/zone`) or the exclusion label
/// on some nodes, `label(i)` giving node i's.
fn labelled(label: impl Fn(usize) -> Option<(&'static str, &'static str)>) -> Cluster {
    let mut s = catalogue::find("partial-disruption").unwrap();
    for (i, n) in s.cluster.nodes.iter_mut().enumerate() {
        if let Some((k, v)) = label(i) {
            n.labels.insert(k.into(), v.into());
        }
    }
    s.validate().expect("a valid scenario");
    Cluster::new(s, Vec::new())
}

fn cut_three(m: &Cluster) -> State {
    let mut s = m.start.clone();
    for i in 0..3 {
        s = m.apply(&s, &fault(i)).unwrap();
    }
    run(m, s, 400).0
}

/// Zones by label: node-1..3 in zone a, node-4 and node-5 in zone b. The three cut off make
/// zone a fully disrupted while zone b is normal: not master disruption mode, so zone a keeps
/// the normal tainting rate (`HealthyQPSFunc`), its nodes are tainted and web's pod evicted.
#[test]
fn a_fully_disrupted_zone_beside_a_normal_one_is_tainted() {
    let m = labelled(|i| Some(("topology.kubernetes.io/zone", if i < 3 { "a" } else { "b" })));
    let s = cut_three(&m);
    let d = derived::Disruption::of(&m.ctx, &s);
    use podcheck_model::k8s::ZoneState;
    assert_eq!(
        d.zones,
        vec![
            Some((ZoneState::FullDisruption, 3)),
            Some((ZoneState::Normal, 2))
        ]
    );
    assert!(!d.all_fully_disrupted);
    assert!((0..3).all(|n| s.api.nodes[n].unreachable_taint));
    assert!(web_pod(&s).deletion.is_some());
}

/// node-4 and node-5 excluded from disruption checks: only the three cut off are counted,
/// none of them Ready, so every zone is fully disrupted: master disruption mode, no taint.
#[test]
fn excluded_nodes_are_not_counted() {
    let m = labelled(|i| (i >= 3).then_some(("node.kubernetes.io/exclude-disruption", "")));
    let s = cut_three(&m);
    assert!(derived::full_disruption(&m.ctx, &s));
    assert!((0..3).all(|n| !s.api.nodes[n].unreachable_taint));
    assert!(web_pod(&s).deletion.is_none());
}
