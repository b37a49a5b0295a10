//! Graceful node shutdown, run step by step on the catalogue's `node-shutdown-critical` and
//! `node-shutdown` against the rules of `pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go`
//! (`migrateConfig`, `groupByPriority`, `processShutdownEvent`, `Admit`) and the kubelet's
//! configuration validation (docs/sources.md#graceful-node-shutdown).

use podcheck_input::catalogue;
use podcheck_input::spec::Fault;
use podcheck_model::state::*;
use podcheck_model::{faults, kubelet, Action, Cluster};

fn model(name: &str, release: Option<&str>) -> Cluster {
    let mut s = catalogue::find(name).expect("the scenario exists");
    s.cluster.kubernetes_version = release.map(String::from);
    s.validate().expect("a valid scenario");
    Cluster::new(s, Vec::new())
}

fn uid_of(m: &Cluster, s: &State, name: &str) -> u16 {
    s.api
        .pods
        .iter()
        .find(|p| m.pod_name(p) == name)
        .unwrap_or_else(|| panic!("no pod {name}"))
        .uid
}

/// What happened, and when, on one run where the first enabled component step is always
/// taken and the clock moves only when none is.
#[derive(Default)]
struct Timeline {
    /// (second, pod uid) of each pod the shutdown manager began to kill.
    killed: Vec<(u32, u16)>,
    /// The second the machine powered off.
    power_off: Option<u32>,
    /// The second each container of the pod stopped running, by uid.
    stopped: Vec<(u32, u16)>,
}

fn run(m: &Cluster, limit: usize) -> (State, Timeline) {
    let shutdown = Action::Fault(faults::Action::Fault {
        index: 0,
        target: None,
    });
    let mut s = m
        .apply(&m.start, &shutdown)
        .expect("the shutdown is enabled");
    let mut now = 0u32;
    let mut t = Timeline::default();
    for _ in 0..limit {
        let mut acts = Vec::new();
        m.urgent_actions(&s, &mut acts);
        let a = match acts.first() {
            Some(a) => *a,
            None => match podcheck_model::time::next_deadline(&m.ctx, &s) {
                Some(d) => Action::Tick(d),
                None => break,
            },
        };
        let next = m.apply(&s, &a).expect("an enabled action applies");
        if let Action::Tick(d) = a {
            now += d as u32;
        }
        if let Action::Kubelet(kubelet::Action::Shutdown { node }) = a {
            for rt in &next.nodes[node.index()].pods {
                let before = s.rt(node, rt.uid).is_some_and(|r| r.shutdown);
                if rt.shutdown && !before {
                    t.killed.push((now, rt.uid));
                }
            }
            if next.nodes[node.index()].powered_off && t.power_off.is_none() {
                t.power_off = Some(now);
            }
        }
        for node in s.nodes.iter() {
            for rt in &node.pods {
                let was = rt.any_running();
                let is = next
                    .nodes
                    .iter()
                    .flat_map(|n| &n.pods)
                    .find(|r| r.uid == rt.uid)
                    .is_some_and(|r| r.any_running());
                if was && !is {
                    t.stopped.push((now, rt.uid));
                }
            }
        }
        s = next;
    }
    (s, t)
}

/// 30 s in all, 10 s for critical pods: web (regular, ignores SIGTERM, grace 30 s) is killed
/// at once with min(20, 30) = 20 s and SIGKILLed at 20 s; the agent (priority 2000001000)
/// only then, with 10 s; it exits on SIGTERM, and the machine powers off.
#[test]
fn regular_pods_first_then_critical_then_power_off() {
    let m = model("node-shutdown-critical", None);
    let web = uid_of(&m, &m.start, "web");
    let agent = uid_of(&m, &m.start, "agent");
    let (_, t) = run(&m, 500);
    assert_eq!(t.killed, vec![(0, web), (20, agent)]);
    assert_eq!(t.stopped, vec![(20, web), (20, agent)]);
    assert_eq!(t.power_off, Some(20));
}

/// The status function (phase Failed, reason Terminated, the shutdown message and, from
/// 1.26, DisruptionTarget) reaches the API only once the pod's containers have stopped: while
/// web (which ignores SIGTERM) still runs, a status write leaves it Running with no reason and
/// no DisruptionTarget (`status_manager.go` `mergePodStatus` with
/// `couldHaveRunningContainers`); at no step of the run is it Failed while a container of it
/// runs; after its SIGKILL at 20 s it is Failed, Terminated, and disrupted from 1.26.
#[test]
fn the_killed_pod_is_written_failed_only_once_its_containers_stopped() {
    use podcheck_model::k8s::Phase;
    for (release, disruption) in [(None, true), (Some("1.25"), false), (Some("1.22"), false)] {
        let m = model("node-shutdown-critical", release);
        let web = uid_of(&m, &m.start, "web");
        let shutdown = Action::Fault(faults::Action::Fault {
            index: 0,
            target: None,
        });
        let mut s = m.apply(&m.start, &shutdown).unwrap();
        // The regular group, then a status write of web while its container still runs.
        s = m
            .apply(
                &s,
                &Action::Kubelet(kubelet::Action::Shutdown { node: NodeId(0) }),
            )
            .expect("the regular group starts");
        assert!(s.rt(NodeId(0), web).unwrap().shutdown);
        s = m
            .apply(
                &s,
                &Action::Kubelet(kubelet::Action::StatusUpdate {
                    node: NodeId(0),
                    uid: web,
                }),
            )
            .expect("web's status can be written");
        let p = s.pod(web).unwrap();
        assert!(s.rt(NodeId(0), web).unwrap().any_running());
        assert_eq!(p.status.phase, Phase::Running, "{release:?}");
        assert_eq!(p.status.reason, "", "{release:?}");
        assert_eq!(p.status.message, "", "{release:?}");
        assert!(!p.disruption_target, "{release:?}");
        // Run on: the first enabled component step, else the clock. Never Failed while web
        // runs; Failed once its container has stopped and the status manager wrote it.
        let mut now = 0u32;
        let mut stopped_at = None;
        for _ in 0..500 {
            let running = s.rt(NodeId(0), web).is_some_and(|rt| rt.any_running());
            let p = s.pod(web).expect("web's object stays");
            if running {
                assert!(!p.status.phase.is_terminal(), "{release:?}: t={now}");
                assert!(!p.disruption_target, "{release:?}: t={now}");
            } else if stopped_at.is_none() {
                stopped_at = Some(now);
            }
            if p.status.phase.is_terminal() {
                break;
            }
            let mut acts = Vec::new();
            m.urgent_actions(&s, &mut acts);
            let a = match acts.first() {
                Some(a) => *a,
                None => match podcheck_model::time::next_deadline(&m.ctx, &s) {
                    Some(d) => Action::Tick(d),
                    None => break,
                },
            };
            if let Action::Tick(d) = a {
                now += d as u32;
            }
            s = m.apply(&s, &a).expect("an enabled action applies");
        }
        assert_eq!(stopped_at, Some(20), "{release:?}: SIGKILL after the 20 s");
        let p = s.pod(web).unwrap();
        assert_eq!(p.status.phase, Phase::Failed, "{release:?}");
        assert_eq!(p.status.reason, "Terminated");
        assert_eq!(
            p.status.message,
            "Pod was terminated in response to imminent node shutdown."
        );
        assert_eq!(p.disruption_target, disruption, "{release:?}");
    }
}

/// The kubelet reports Ready=False at once (the rejection of pods bound to the node meanwhile
/// is the `pod_rejected_node_shutdown` witness of the `node-shutdown` scenario).
#[test]
fn the_node_goes_not_ready_at_once() {
    let m = model("node-shutdown", None);
    let shutdown = Action::Fault(faults::Action::Fault {
        index: 0,
        target: None,
    });
    let s = m.apply(&m.start, &shutdown).unwrap();
    let mut acts = Vec::new();
    m.urgent_actions(&s, &mut acts);
    assert!(acts.contains(&Action::Kubelet(kubelet::Action::NodeStatus {
        node: NodeId(0)
    })));
    let s = m
        .apply(
            &s,
            &Action::Kubelet(kubelet::Action::NodeStatus { node: NodeId(0) }),
        )
        .unwrap();
    assert!(s.api.nodes[0].not_ready && !s.api.nodes[0].unknown);
    assert!(!s.api.nodes[1].not_ready);
}

/// The kubelet's configuration validation, and a shutdown of a node without a grace period.
#[test]
fn bad_configurations_are_refused() {
    let mut s = catalogue::find("node-shutdown").unwrap();
    s.cluster.nodes[0].shutdown_grace_period_critical_pods_seconds = 40;
    let e = s.validate().unwrap_err().to_string();
    assert!(
        e.contains("shutdownGracePeriodCriticalPods 40s must be <= shutdownGracePeriod 30s"),
        "{e}"
    );
    let mut s = catalogue::find("node-shutdown").unwrap();
    s.faults = vec![Fault::NodeShutdown {
        node: "node-2".into(),
    }];
    let e = s.validate().unwrap_err().to_string();
    assert!(
        e.contains("node `node-2` has no shutdownGracePeriodSeconds"),
        "{e}"
    );
}
