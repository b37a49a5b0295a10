//! The model's timers against the upstream schedules: the crash back-off the kubelet in the
//! model applies is the CrashLoopBackOff schedule of `doBackOff` (10 s doubling to 300 s), and
//! the image pulls it attempts follow client-go's `IsInBackOffSinceUpdate` (the rule of
//! backoff_test.go TestIsInBackOffSinceUpdate), because the kubelet calls the same back-off
//! functions the conformance tests in k8s/tests/backoff.rs check.

mod common;

use podcheck_input::catalogue;
use podcheck_model::k8s::crash_loop_delays;
use podcheck_model::kubelet::{self, Step};
use podcheck_model::state::{Waiting, RESTART_COUNT_CAP};
use podcheck_model::{Action, Cluster, State};
use podcheck_properties::check;
use stateright::Model;
use std::collections::{HashSet, VecDeque};

fn model(name: &str) -> Cluster {
    check::model(&catalogue::find(name).unwrap(), &[], false)
}

/// Every transition of the whole state space.
fn transitions(m: &Cluster) -> Vec<(State, Action, State)> {
    let init = m.init_states().remove(0);
    let mut seen = HashSet::from([init.clone()]);
    let mut queue = VecDeque::from([init]);
    let mut out = Vec::new();
    let mut actions = Vec::new();
    while let Some(s) = queue.pop_front() {
        m.actions(&s, &mut actions);
        for a in actions.drain(..) {
            let n = m.next_state(&s, a).unwrap();
            if seen.insert(n.clone()) {
                queue.push_back(n.clone());
            }
            out.push((s.clone(), a, n));
        }
    }
    out
}

#[test]
fn crash_loop_back_off_follows_v6() {
    let m = model("crash-loop");
    let v6 = crash_loop_delays(12);
    let mut seen_waits = Vec::new();
    for (before, a, after) in transitions(&m) {
        let Action::Kubelet(kubelet::Action::Sync {
            node,
            uid,
            step: Step::CrashLoopBackOff { init, ctr },
        }) = a
        else {
            continue;
        };
        let c_before = before.rt(node, uid).unwrap().ctr(init, ctr as usize);
        let c_after = after.rt(node, uid).unwrap().ctr(init, ctr as usize);
        let Some(Waiting::CrashLoopBackOff { left }) = c_after.waiting else {
            panic!("CrashLoopBackOff step without the waiting reason");
        };
        // This exit is number restartCount + 1; the CrashLoopBackOff schedule gives the wait
        // before its restart.
        let exit_no = c_before.restart_count as usize + 1;
        if c_before.restart_count < RESTART_COUNT_CAP {
            assert_eq!(left as u64, v6[exit_no - 1], "exit #{exit_no}");
        } else {
            assert_eq!(left, 300);
        }
        seen_waits.push(left);
    }
    seen_waits.sort();
    seen_waits.dedup();
    assert_eq!(seen_waits, vec![10, 20, 40, 80, 160, 300]);
}

/// Follows the first enabled action from the initial state, with the time of each step.
fn walk(m: &Cluster, steps: usize) -> Vec<(u64, State, Action)> {
    let mut s = m.init_states().remove(0);
    let mut t = 0;
    let mut out = Vec::new();
    let mut actions = Vec::new();
    for _ in 0..steps {
        m.actions(&s, &mut actions);
        let Some(a) = actions.first().cloned() else {
            break;
        };
        actions.clear();
        if let Action::Tick(d) = a {
            t += d as u64;
        }
        let n = m.next_state(&s, a).unwrap();
        out.push((t, s, a));
        s = n;
    }
    out
}

#[test]
fn image_pulls_follow_the_back_off() {
    let m = model("image-pull-backoff");
    let pulls: Vec<u64> = walk(&m, 400)
        .into_iter()
        .filter(|(_, _, a)| {
            matches!(
                a,
                Action::Kubelet(kubelet::Action::Sync {
                    step: Step::PullImage { .. },
                    ..
                })
            )
        })
        .map(|(t, _, _)| t)
        .take(8)
        .collect();
    // A pull fails, Next doubles the entry (10, 20, 40 … 300); the next pull comes when
    // `now - lastUpdate >= backoff` (`IsInBackOffSinceUpdate`, pkg/kubelet/images/image_manager.go).
    assert_eq!(pulls, vec![0, 10, 30, 70, 150, 310, 610, 910]);
}

#[test]
fn sigterm_ignored_is_killed_after_the_full_grace_period() {
    let m = model("sigterm-ignored");
    // Find the shortest path to the SIGKILL and read the time between delete and kill.
    let r = check::check(
        &catalogue::find("sigterm-ignored").unwrap(),
        &check::CheckOptions::default(),
    )
    .unwrap();
    let p = r
        .properties
        .iter()
        .find(|p| p.def.name == "graceful_stop_within_grace")
        .unwrap();
    let trace = podcheck_traces::from_run(
        &m,
        p.trace.as_ref().unwrap(),
        p.def.name,
        podcheck_traces::Kind::Always,
        podcheck_model::Verdict::Violated,
        None,
    )
    .unwrap();
    let delete = trace
        .steps
        .iter()
        .find(|s| s.action.starts_with("delete pod"))
        .unwrap();
    let kill = trace.steps.last().unwrap();
    assert_eq!(
        kill.time - delete.time,
        30,
        "terminationGracePeriodSeconds default"
    );
    assert!(kill.runtime.iter().any(|c| c.contains("exited 137")));
}

/// Each failing kubelet step has its STATUS, its event and its phase
/// (docs/sources.md#kubelet-volumes-sandbox-and-containers). For every failure
/// scenario some reachable state shows the pod with exactly that triple, the event being a
/// Warning with the upstream reason.
#[test]
fn each_failing_step_shows_its_status_event_and_phase() {
    use podcheck_model::kubectl::print;
    use podcheck_traces::events::text;
    let table = [
        (
            "stuck-sandbox",
            "ContainerCreating",
            "FailedCreatePodSandBox",
            "Pending",
        ),
        (
            "stuck-cni",
            "ContainerCreating",
            "FailedCreatePodSandBox",
            "Pending",
        ),
        (
            "stuck-volume-mount",
            "ContainerCreating",
            "FailedMount",
            "Pending",
        ),
        (
            "stuck-volume-attach",
            "ContainerCreating",
            "FailedAttachVolume",
            "Pending",
        ),
        (
            "create-config-error",
            "CreateContainerConfigError",
            "Failed",
            "Pending",
        ),
        (
            "create-container-error",
            "CreateContainerError",
            "Failed",
            "Pending",
        ),
        (
            "poststart-failure",
            "PostStartHookError",
            "FailedPostStartHook",
            "Running",
        ),
        (
            "stuck-terminating-netns",
            "Terminating",
            "FailedKillPod",
            "Running",
        ),
        ("admission-outofcpu", "OutOfcpu", "OutOfcpu", "Failed"),
    ];
    for (name, status, reason, phase) in table {
        let m = model(name);
        let found = transitions(&m).iter().any(|(_, _, s)| {
            s.api.pods.iter().any(|p| {
                print(&m, p).status == status
                    && p.status.phase.as_str() == phase
                    && p.events.iter().any(|e| {
                        let ev = text(&m, p, e.kind);
                        ev.r#type == "Warning" && ev.reason == reason
                    })
            })
        });
        assert!(
            found,
            "{name}: no state shows {status} / {reason} / {phase}"
        );
    }
}

/// The hangs, and a failing unmount, record nothing: no reachable state of these scenarios has
/// a Warning event (kubelet.go SyncPod skips the event on a timeout; SyncTerminatedPod only
/// returns the WaitForUnmount error).
#[test]
fn hangs_record_no_event() {
    use podcheck_traces::events::text;
    for name in [
        "stuck-volume-mount-hang",
        "poststart-hang",
        "stuck-terminating-unmount",
    ] {
        let m = model(name);
        for (_, _, s) in transitions(&m) {
            for p in &s.api.pods {
                for e in p.events.iter() {
                    let ev = text(&m, p, e.kind);
                    assert_ne!(ev.r#type, "Warning", "{name}: {ev:?}");
                }
            }
        }
    }
}

/// Follows the first enabled action from the start and returns the times (seconds) of the
/// first `n` steps `is_attempt` picks, and the state reached.
fn attempt_times(m: &Cluster, is_attempt: fn(&Action) -> bool, n: usize) -> (Vec<u32>, State) {
    let mut s = m.init_states().remove(0);
    let mut now = 0u32;
    let mut attempts = Vec::new();
    for _ in 0..1000 {
        let mut acts = Vec::new();
        m.actions(&s, &mut acts);
        let Some(a) = acts.into_iter().next() else {
            break;
        };
        if let Action::Tick(d) = a {
            now += d as u32;
        }
        if is_attempt(&a) {
            attempts.push(now);
        }
        s = m.next_state(&s, a).unwrap();
        if attempts.len() == n {
            break;
        }
    }
    (attempts, s)
}

/// A failed sandbox is retried after backOffPeriod (10 s): consecutive RunPodSandbox attempts
/// of the stuck pod are exactly 10 s apart, and the event count saturates at the cap.
#[test]
fn sandbox_retries_every_ten_seconds() {
    let m = model("stuck-sandbox");
    let (attempts, s) = attempt_times(
        &m,
        |a| {
            matches!(
                a,
                Action::Kubelet(kubelet::Action::Sync {
                    step: Step::CreateSandbox,
                    ..
                })
            )
        },
        8,
    );
    let gaps: Vec<u32> = attempts.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(gaps, vec![10; 7], "attempts at {attempts:?}");
    let count = s.api.pods[0].events.iter().map(|e| e.count).max();
    assert_eq!(count, Some(podcheck_model::events::EVENT_COUNT_CAP));
}

/// The volume manager's retries double from 0.5 s (rounded up to whole seconds) towards 2m2s.
#[test]
fn mount_retries_back_off_exponentially() {
    let m = model("stuck-volume-mount");
    let (attempts, _) = attempt_times(
        &m,
        |a| {
            matches!(
                a,
                Action::Kubelet(kubelet::Action::Sync {
                    step: Step::MountVolumes,
                    ..
                })
            )
        },
        12,
    );
    let gaps: Vec<u32> = attempts.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(gaps, vec![1, 1, 2, 4, 8, 16, 32, 64, 122, 122, 122]);
}

/// `IsMultiAttachAllowed`: only ReadWriteMany or ReadOnlyMany (or no mode known) let a volume
/// be attached to a second node.
#[test]
fn multi_attach_follows_the_access_modes() {
    use podcheck_input::spec::AccessMode::*;
    let mut s = catalogue::find("statefulset-force-delete").unwrap();
    for (modes, allowed) in [
        (vec!["ReadWriteOnce"], false),
        (vec!["ReadWriteOncePod"], false),
        (vec!["ReadWriteMany"], true),
        (vec!["ReadOnlyMany"], true),
        (vec!["ReadWriteOnce", "ReadOnlyMany"], true),
    ] {
        let podcheck_input::spec::Workload::StatefulSet { spec, .. } = &mut s.workloads[0] else {
            panic!("db is a StatefulSet");
        };
        spec.volume_claim_templates[0].spec.access_modes =
            modes.iter().map(|m| m.to_string()).collect();
        s.validate().unwrap();
        let m = check::model(&s, &[], false);
        assert_eq!(m.claims.len(), 1);
        assert_eq!(m.claims[0].name, "data-db-0");
        assert_eq!(m.claims[0].multi_attach, allowed, "{modes:?}");
        assert!(m.claims[0].access_modes.iter().all(|a| [
            ReadWriteOnce,
            ReadWriteOncePod,
            ReadWriteMany,
            ReadOnlyMany
        ]
        .contains(a)));
    }
}

/// In statefulset-force-delete the new db-0 reaches node-2 only through the Multi-Attach
/// report and a force detach after more than `maxWaitForUnmountDuration`; with ReadWriteMany it
/// attaches at once, so no Multi-Attach error is ever reported.
#[test]
fn the_force_detach_waits_six_minutes_and_read_write_many_does_not() {
    use podcheck_model::controllers;
    let m = model("statefulset-force-delete");
    let mut detaches = 0;
    for (before, a, after) in transitions(&m) {
        if let Action::Controller(controllers::Action::DetachVolume { claim, node }) = a {
            detaches += 1;
            let att = before
                .api
                .attached
                .iter()
                .find(|x| x.claim == claim && x.node == node)
                .expect("the volume is attached");
            // Still mounted on the cut-off node-1, so only the timeout lets it go.
            assert!(att.detach_age.unwrap() > podcheck_model::state::MAX_WAIT_FOR_UNMOUNT);
            assert!(before.api.nodes[node.index()].volumes_in_use & (1 << claim) != 0);
            assert!(!after
                .api
                .attached
                .iter()
                .any(|x| x.claim == claim && x.node == node));
        }
        // Never attached to two nodes at once.
        assert!(after.api.attached.len() <= 1);
    }
    assert!(detaches > 0, "the force detach happens");

    let mut s = catalogue::find("statefulset-force-delete").unwrap();
    let podcheck_input::spec::Workload::StatefulSet { spec, .. } = &mut s.workloads[0] else {
        panic!("db is a StatefulSet");
    };
    spec.volume_claim_templates[0].spec.access_modes = vec!["ReadWriteMany".into()];
    let rwx = check::model(&s, &[], false);
    let mut two_nodes = None;
    for (_, a, after) in transitions(&rwx) {
        assert!(!matches!(
            a,
            Action::Controller(controllers::Action::MultiAttach { .. })
        ));
        if after.api.attached.len() == 2 {
            two_nodes = Some(after);
        }
    }
    let two_nodes = two_nodes.expect("ReadWriteMany attaches to node-2 while node-1 holds it");
    // The same state judged with the ReadWriteOnce claim: both properties see the breach.
    let judge = |name: &str, m: &Cluster| {
        let def = podcheck_properties::catalogue::all()
            .into_iter()
            .find(|d| d.name == name)
            .expect("in the catalogue");
        let podcheck_properties::catalogue::Kind::Always(f) = def.kind else {
            panic!("{name} is an always property");
        };
        f(m, &two_nodes)
    };
    assert!(judge("rwo_volume_attached_to_one_node", &rwx));
    assert!(judge("rwo_volume_mounted_on_one_node", &rwx));
    assert!(!judge("rwo_volume_attached_to_one_node", &m));
}

/// The eviction manager's status function (`eviction_manager.go` `evictPod`) writes phase
/// Failed with reason Evicted from the moment of the eviction: no reachable state has a pod
/// whose reason is Evicted in another phase (it used to pass through Running + Evicted).
#[test]
fn an_evicted_pod_is_failed_from_the_moment_of_its_eviction() {
    use podcheck_properties::{check_with, CheckOptions, Kind, PropertyDef};
    fn evicted_means_failed(_: &podcheck_model::Cluster, s: &podcheck_model::State) -> bool {
        s.api.pods.iter().all(|p| {
            p.status.reason != "Evicted" || p.status.phase == podcheck_model::k8s::Phase::Failed
        })
    }
    fn some_evicted(_: &podcheck_model::Cluster, s: &podcheck_model::State) -> bool {
        s.api.pods.iter().any(|p| p.status.reason == "Evicted")
    }
    let defs = [
        PropertyDef {
            name: "evicted_means_failed",
            kind: Kind::Always(evicted_means_failed),
            sentence: "A pod with reason Evicted is Failed.",
            source: "eviction_manager.go evictPod",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "some_evicted",
            kind: Kind::Sometimes(some_evicted),
            sentence: "Some pod is evicted.",
            source: "this test: the premise happens",
            layer: "api",
            premise: None,
        },
    ];
    let s = podcheck_input::catalogue::find("node-pressure-eviction").unwrap();
    let r = check_with(&s, &defs, &CheckOptions::default()).unwrap();
    assert!(r.complete);
    assert_eq!(r.properties[0].verdict, podcheck_model::Verdict::Holds);
    assert_eq!(r.properties[1].verdict, podcheck_model::Verdict::Holds);
}

/// A headless Service (`clusterIP: None`) is not handled by kube-proxy (`ShouldSkipService`):
/// its slice is kept, but no proxy ever routes to its pods or has an update to apply. The
/// same StatefulSet behind a ClusterIP Service is routed.
#[test]
fn a_headless_service_is_kept_in_its_slice_and_never_routed() {
    let headless = model("statefulset-partition");
    assert!(headless.scenario.service.as_ref().unwrap().headless);
    let mut in_slice = false;
    for (before, a, after) in transitions(&headless) {
        assert!(
            !matches!(a, Action::KubeProxy(_)),
            "a kube-proxy step for a headless Service: {a:?}"
        );
        for s in [&before, &after] {
            assert!(
                s.proxies
                    .iter()
                    .all(|p| p.routes.is_empty() && p.lag_left.is_none()),
                "a kube-proxy with routes or an update for a headless Service"
            );
        }
        in_slice |= after.api.endpoints.iter().any(|e| e.conditions.ready);
    }
    assert!(
        in_slice,
        "the headless Service's slice never lists a ready pod"
    );

    let clusterip = model("statefulset-partition-clusterip");
    assert!(!clusterip.scenario.service.as_ref().unwrap().headless);
    assert!(
        transitions(&clusterip)
            .iter()
            .any(|(_, a, after)| matches!(a, Action::KubeProxy(_))
                && after.proxies.iter().any(|p| !p.routes.is_empty())),
        "no kube-proxy ever routes the ClusterIP Service"
    );

    // The model's clients send through kube-proxy: a headless Service cannot have them.
    let mut s = catalogue::find("statefulset-partition").unwrap();
    s.service.as_mut().unwrap().clients = true;
    let e = s.validate().unwrap_err().to_string();
    assert!(
        e.contains("headless Service is not handled by kube-proxy") && e.contains("clients: false"),
        "{e}"
    );
}

/// A StatefulSet's `minReadySeconds` (OrderedReady): the next ordinal is created only once the
/// one before it has been Ready that long (`stateful_set_control.go` `processReplica`,
/// `isRunningAndAvailable`), in every run from the empty cluster; without it, as soon as the
/// one before is Running and Ready.
#[test]
fn statefulset_min_ready_seconds_holds_the_next_ordinal_back() {
    use podcheck_input::spec::{Start, Workload};
    let with = |min_ready: u16| {
        let mut s = catalogue::find("statefulset-partition").unwrap();
        s.cluster.start = Start::Empty;
        s.faults.clear();
        s.expect.clear();
        let Workload::StatefulSet { spec, .. } = &mut s.workloads[0] else {
            panic!("a StatefulSet")
        };
        spec.replicas = 2;
        spec.min_ready_seconds = min_ready;
        s.validate().unwrap();
        check::model(&s, &[], false)
    };
    // For each creation of db-1: db-0's (Ready, seconds left until available) before it.
    let creations = |m: &Cluster| -> HashSet<(bool, Option<u16>)> {
        transitions(m)
            .into_iter()
            .filter(|(s, _, n)| {
                let has = |x: &State| x.api.pods.iter().any(|p| p.suffix == 1);
                !has(s) && has(n)
            })
            .map(|(s, _, _)| {
                let p = s.api.pods.iter().find(|p| p.suffix == 0).unwrap();
                (p.status.ready, p.available_in)
            })
            .collect()
    };
    assert_eq!(creations(&with(0)), HashSet::from([(true, None)]));
    assert_eq!(creations(&with(5)), HashSet::from([(true, Some(0))]));
    // Ready for minReadySeconds strictly (`IsPodAvailable`: lastTransitionTime +
    // minReadySeconds before now): along the canonical run (each step the first urgent
    // action, else time to the next deadline), db-1 is created 6 whole seconds after db-0
    // turned Ready, and at once without minReadySeconds.
    let gap = |m: &Cluster| -> u64 {
        let mut s = m.init_states().remove(0);
        let (mut now, mut ready_at) = (0u64, None);
        for _ in 0..1_000 {
            if s.api.pods.iter().any(|p| p.suffix == 1) {
                return now - ready_at.expect("db-0 was Ready first");
            }
            if ready_at.is_none() && s.api.pods.iter().any(|p| p.suffix == 0 && p.status.ready) {
                ready_at = Some(now);
            }
            let a = common::run::next_step(m, &s).expect("something is due");
            if let Action::Tick(d) = a {
                now += u64::from(d);
            }
            s = m.apply(&s, &a).unwrap();
        }
        panic!("db-1 was never created");
    };
    assert_eq!(gap(&with(0)), 0);
    assert_eq!(gap(&with(5)), 6);
}
