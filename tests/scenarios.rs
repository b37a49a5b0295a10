//! The scenario suite: every built-in scenario is checked exhaustively; every verdict must
//! equal the catalogue's expectation (each scenario names its source), and every
//! scenario's exact unique-state count is pinned, as Stateright's own examples and the
//! tlaplus/Examples manifest do. A change to the model that changes a count must update the
//! pin here, on purpose.
//!
//! Traces are checked too: each replays through the model, and each is a shortest path, as an
//! independent breadth-first search over the same model confirms.

use podcheck_input::catalogue;

use podcheck_model::{Action, Cluster};
use podcheck_properties::catalogue::Kind;
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};
use podcheck_properties::PropertyDef;
use stateright::Model;
use std::collections::{HashSet, VecDeque};

/// (scenario, unique states of the complete run).
const PINNED: &[(&str, usize)] = &[
    ("healthy", 57),
    // 606 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): the Job pod's Succeeded, and the cpu it frees, wait for the kill of its stopped pod.
    ("unschedulable", 592),
    ("image-pull-backoff", 42),
    ("crash-loop", 125),
    ("oom-killed", 99),
    // Up to interchangeable kube-proxies (238 with the node and pod symmetries alone).
    ("dependency-outage", 214),
    // 1430 before each kube-proxy kept whether it has routed to the Service (the history
    // variable `Proxy::served`): the deadlock can come before the first route or after it.
    // 1358 since a deadlocked program's probes time out: each readiness and liveness run
    // against it is in flight for timeoutSeconds (1 s) before it counts as a Failure.
    // Up to interchangeable kube-proxies (1358 with the node and pod symmetries alone).
    ("deadlock", 527),
    // 525721 while a refused request was a flag in the state (`env.refused`, which also
    // stopped further requests): the refusal is now judged on the request step itself, and a
    // request changes no state. 296241 before `Proxy::served`: the delete can come before
    // the proxies first route to web-1 or after.
    // Up to interchangeable pods of web (their uids and name suffixes renumbered by content,
    // model/src/symmetry.rs); 105708 unique states without the reduction. 90353 (339369)
    // before the scheduler spread the replicas (docs/sources.md#scheduler-default-scoring):
    // both were on node-1 and the replacement tied between the nodes; now one runs on each
    // and the replacement goes where its peer is not.
    ("termination-race", 43_714),
    // Up to interchangeable pods of web (their uids and name suffixes renumbered by content,
    // model/src/symmetry.rs) and interchangeable kube-proxies; 18336 unique states without
    // the reductions. 18169 (71913) before the scheduler spread the replicas.
    ("termination-race-prestop", 9164),
    // Up to interchangeable kube-proxies (406 with the node and pod symmetries alone).
    ("prestop-single-replica", 361),
    // Up to interchangeable pods of web (their uids and name suffixes renumbered by content,
    // model/src/symmetry.rs) and kube-proxies; 2157 unique states without the reductions.
    // 2156 before the scheduler spread the replicas (on two nodes the two pods are no
    // longer interchangeable), 2157 after it and before the kube-proxies were interchangeable.
    ("force-delete-prestop", 1700),
    // 411 before kube-proxy fell back to terminating endpoints (1.26): the proxies now keep
    // routing to the deleted pod, which ignores SIGTERM, until its replacement is Ready.
    ("sigterm-ignored", 501),
    // 60 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): the pod's terminal phase waits for the pod worker's kill.
    ("job-never", 69),
    ("job-on-failure", 44),
    ("liveness-on-dependency", 855),
    ("slow-start", 279),
    ("slow-start-startup-probe", 150),
    // Up to interchangeable pods of web (their uids and name suffixes renumbered by content,
    // model/src/symmetry.rs); 635 unique states without the reduction.
    ("deployment-partition", 582),
    // deployment-partition with a Service: the kube-proxies' lags and the EndpointSlice
    // updates interleave with the partition's steps.
    // Up to interchangeable pods of web (their uids and name suffixes renumbered by content,
    // model/src/symmetry.rs); 9223 unique states without the reduction.
    // Up to interchangeable kube-proxies (8086 with the node and pod symmetries alone).
    ("deployment-partition-traffic", 6582),
    // statefulset-partition-volume is statefulset-partition with the ReadWriteOnce claim
    // data-db-0, and the three below have it too (22, 43, 58 without): the attach/detach
    // controller's attach, Multi-Attach report and detach are steps of their own, interleaved
    // with the kubelet's, the StatefulSet controller's and the scheduler's.
    // statefulset-partition and -volume have the StatefulSet's governing Service, headless:
    // no kube-proxy routes it (1586 and 3651 while it was a ClusterIP Service, which
    // statefulset-partition-clusterip keeps: the proxies' syncs within their lag are branches).
    ("statefulset-partition", 488),
    // Up to interchangeable kube-proxies (1586 with the node and pod symmetries alone).
    ("statefulset-partition-clusterip", 1256),
    ("statefulset-partition-volume", 1130),
    ("statefulset-force-delete", 26),
    ("statefulset-node-deleted", 51),
    ("statefulset-out-of-service", 151),
    ("statefulset-force-delete-no-force-detach", 16),
    // The rollout restart at any moment of the settled cluster, then three pods replaced one
    // at a time (each through its delete, graceful stop, removal, re-creation, scheduling,
    // start and readiness probe), interleaved with the EndpointSlice and disruption
    // controllers' syncs and the probes' timers.
    ("statefulset-rolling-update", 5990),
    ("all-nodes-unreachable", 8),
    // Three partitions, each at any moment or never: the nodes go Unknown one by one or
    // together, and node-1 is tainted only while fewer than three nodes are not Ready.
    ("partial-disruption", 2697),
    // 7 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): Failed/Evicted is written once the evicted container has stopped.
    ("node-pressure-eviction", 8),
    ("stuck-sandbox", 21),
    ("stuck-cni", 21),
    ("stuck-volume-mount", 27),
    ("stuck-volume-mount-hang", 9),
    ("stuck-volume-attach", 25),
    // 26 and 24 before the `Pulled` "already present on machine" event: every retry of the
    // start records it (EnsureImageExists runs before the container config), and its count
    // saturates one retry after the `Failed` event's.
    ("create-config-error", 18),
    ("poststart-failure", 121),
    ("poststart-hang", 16),
    ("stuck-terminating-unmount", 147),
    ("stuck-terminating-netns", 89),
    ("admission-outofcpu", 13),
    ("static-pod-mirror-delete", 4157),
    ("create-container-error", 16),
    // 5348 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): the pod's terminal phase waits for the pod worker's kill.
    ("job-pod-deleted", 5409),
    // 3795 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): the pod's terminal phase waits for the pod worker's kill.
    ("job-pod-deleted-replace-failed", 4546),
    // 44 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): Failed and DisruptionTarget are written once the evicted container has stopped.
    ("job-evicted", 53),
    // 329 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): Failed and DisruptionTarget are written once the evicted container has stopped.
    ("job-evicted-ignored", 321),
    // 22 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): the pod's terminal phase waits for the pod worker's kill.
    ("job-fail-job-exit-code", 25),
    ("job-indexed", 899),
    // 651 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): each pod's terminal phase waits for the pod worker's kill.
    ("job-success-policy", 532),
    // 1827 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): each pod's terminal phase waits for the pod worker's kill.
    ("job-backoff-limit-per-index", 1293),
    ("job-active-deadline", 26),
    // The restart, then the pod's first sync (status and probe workers) in either order.
    ("kubelet-restart", 34),
    // The outage at any moment of the probe period, the restart before or after the pod is
    // reported not Ready, the status written before the workers exist.
    ("kubelet-restart-unready", 4255),
    ("deployment-node-power-off", 182),
    // The shutdown races the replacement's binding to node-1 before its not-ready taint;
    // rejected replacements pile up to the terminated-pod threshold of 1.
    // 24703 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): the pod stays Running until its container has stopped, so the replacement comes after.
    ("node-shutdown", 28163),
    // 4866 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): the pod stays Running through its preStop; no replacement, no PodGC before it has stopped.
    ("node-shutdown-prestop", 1245),
    // 49 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): each pod's Failed is written once its container has stopped.
    ("node-shutdown-critical", 70),
    // Both pods on node-1: the drain's second eviction waits (429, 5 s retries) until the
    // first one's replacement is Ready on node-2 and the disruption controller counts it; the
    // controller's syncs, the kubelets' steps and the retries interleave. 5297 before the
    // drain's observation that a pod is gone waited for the end of its instant
    // (model/src/drain.rs), as in the three below.
    ("drain-respects-budget", 2381),
    // The drain, the cordon-and-list step, then 429 and the 5 s wait, forever.
    ("drain-budget-never-met", 4),
    // The delete of web-1 and its replacement's start on node-2 interleave.
    ("drain-disable-eviction", 268),
    // Readiness probes on the database, its 30 s outage and the drain at any moment, with the
    // disruption controller's syncs in between (19248 at 1.26: before 1.27 the unready pod's
    // eviction is refused, and the deleted pods get no terminal phase; 29564 before the drain's
    // observation that a pod is gone waited for the end of its instant).
    ("drain-unhealthy-always-allow", 14_363),
    // The rollouts, from a settled start on one node: the rollout restart may come at any
    // moment of the settled cycle (probes ticking), then the Deployment controller, the
    // ReplicaSet controller, the kubelet, the EndpointSlice controller, the kube-proxy and
    // the clients interleave over the replacement of each of the three pods (two for
    // Recreate, where the old pods stop together and the new ones start together). Up to
    // interchangeable pods, the ReplicaSet's scale-down choosing among its tied pods (143405,
    // 183493 and 238279 before, every pod apart and the tie broken by the higher uid).
    ("rolling-update", 53_310),
    ("rolling-update-prestop", 134_877),
    ("recreate", 16_106),
    // Both Job pods on node-1 (node-2 is fuller): the drain evicts them one by one.
    // 79887 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): each pod's terminal phase waits for the pod worker's kill; 61786
    // before the drain's observation that a pod is gone waited for the end of its instant.
    ("job-drained", 12_398),
    // 75552 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): each pod's terminal phase waits for the pod worker's kill; 59373
    // before the drain's observation that a pod is gone waited for the end of its instant.
    ("job-drained-ignored", 11_451),
    // The pull that never happens, retried every 10 s until the event counts saturate.
    ("image-never-pull", 13),
    // The pull that fails although the image is on both nodes: image-pull-backoff's cycle.
    ("image-always-registry-down", 42),
    // Two settled replicas; the delete may come at any moment of the settled cycle, then the
    // preStop cut after 1 s, SIGTERM, the replacement and the proxies' lag interleave.
    // Up to interchangeable pods of web (their uids and name suffixes renumbered by content,
    // model/src/symmetry.rs); 2317 unique states without the reduction. 4808 (4809) before
    // the scheduler spread the replicas and the replacement tied between the nodes.
    ("delete-grace-period", 2312),
    // The deadlock at any moment of the liveness period, three timed-out runs, the kill and
    // the restart.
    ("probe-timeout", 144),
    ("probe-termination-grace", 137),
    // Three settled replicas on node-1; the scale at any moment of the settled cycle, then the
    // ReplicaSet's delete and the proxies' lag. The delete takes either of the two pods tied
    // on node-1 (361 when it took the higher uid).
    ("scale-down", 355),
    // One settled replica; the image change at any moment of the settled cycle (readiness
    // period 5 s), then the kill, pull and start of the container in the blocked pod worker,
    // the status write, the EndpointSlice and the proxy, and the new container's probes.
    ("set-pod-image", 28),
    // Sidecars, each from a settled start but the last: the Job's container exits, the pod
    // is killed with its sidecar and the Job completes (a few orders of the kubelet's status
    // update, the kill and the Job controller's sync).
    // 16 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): Succeeded waits until the sidecar has stopped.
    ("sidecar-job", 17),
    // The logging container as a regular one: the pod runs on, nothing else happens.
    ("job-regular-logger", 4),
    // The delete at any moment of the settled pod, the app's 5 s preStop, then the proxy's
    // and the log shipper's turns one after the other.
    ("sidecar-termination", 18),
    // The sidecar's crashes at 20 s after each start with the crash back-off, until the app
    // exits at 60 s and the pod is killed.
    // 21 before the kubelet held a terminal phase back until the containers stop
    // (mergePodStatus): the pod's terminal phase waits until the sidecar has stopped.
    ("sidecar-restart-never", 22),
    // From the empty cluster: the proxy's startup probe every 2 s through its 6 s boot, then
    // the app's start, the status updates in between.
    ("sidecar-startup-probe", 32),
    // An Indexed Job (3 completions, 2 at a time) whose pods' sidecar exits with the work at
    // 5 s: the two first pods in any order of the kubelet's and the Job controller's steps,
    // each Succeeded pod terminated without a start, the third index on either node. (4403
    // before the kubelet held the terminal phase back until the pod worker had stopped the
    // pod: each pod's Succeeded write now comes after its kill and teardown, in any order
    // with the other pod's steps.)
    ("sidecar-indexed-job", 3637),
];

/// (scenario, --nodes, --replicas, unique states): the same scenarios at a larger size.
/// Scenario, nodes, replicas, unique states, and unique states up to interchangeable nodes
/// (the default; the same where the scenario has a `leads_to` property, which is explored
/// whole).
const PINNED_SIZED: &[(&str, u8, u8, usize, usize)] = &[
    // 67 and 218/125 before the ReadWriteOnce claims: the new db-0 now waits for the force
    // detach (time moves only when nothing else is enabled, so what happens at the force
    // delete's instant no longer interleaves with its start), and the attach/detach steps add
    // their own interleavings.
    ("statefulset-force-delete", 3, 2, 63, 63),
    // The engine's benchmark size. With its governing Service headless, no kube-proxy syncs
    // interleave with the partition (3,018,885 and 1,575,560 in statefulset-partition-clusterip).
    ("statefulset-partition", 3, 2, 97_043, 56_073),
    ("statefulset-node-deleted", 3, 2, 356, 194),
    ("all-nodes-unreachable", 3, 2, 22, 22),
];

fn run(name: &str, threads: usize) -> ScenarioResult {
    let s = catalogue::find(name).unwrap_or_else(|| panic!("no scenario {name}"));
    check::check(
        &s,
        &CheckOptions {
            threads,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

#[test]
fn every_scenario_is_pinned_and_every_pin_is_a_scenario() {
    let names: Vec<String> = catalogue::builtin().into_iter().map(|s| s.name).collect();
    let pinned: Vec<String> = PINNED.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(names, pinned);
}

#[test]
fn verdicts_match_expectations_and_counts_are_pinned() {
    let mut failures = Vec::new();
    for &(name, states) in PINNED {
        let r = run(name, 1);
        assert!(r.complete, "{name} must be checked completely");
        if r.unique_states != states {
            failures.push(format!(
                "{name}: {} unique states, pinned {states}",
                r.unique_states
            ));
        }
        // The catalogue is honest: every fault happens, every settled start settles, every
        // witness it expects is met, no property it lists is vacuous (tests/vacuity.rs).
        for w in &r.warnings {
            failures.push(format!("{name}: {w}"));
        }
        for p in &r.properties {
            if p.verdict != p.expected {
                failures.push(format!(
                    "{name}/{}: {} but expected {} ({})",
                    p.def.name,
                    p.verdict.as_str(),
                    p.expected.as_str(),
                    p.expected_source
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The headline contrast: the termination race has a counterexample that the preStop
/// variant does not.
#[test]
fn termination_race_violates_and_prestop_holds() {
    let race = run("termination-race", 1);
    let prestop = run("termination-race-prestop", 1);
    let verdict = |r: &ScenarioResult| {
        r.properties
            .iter()
            .find(|p| p.def.name == "no_request_to_stopped_container")
            .map(|p| (p.verdict, p.trace.is_some()))
            .unwrap()
    };
    assert_eq!(verdict(&race), (podcheck_model::Verdict::Violated, true));
    assert_eq!(verdict(&prestop), (podcheck_model::Verdict::Holds, false));
}

/// Length of the shortest run on which the property is discovered (a state that breaks an
/// `always` or has a `sometimes`; a last step that breaks a `step`), found by a plain
/// breadth-first search over full states, without the graph module or Stateright.
fn independent_shortest(m: &Cluster, def: &PropertyDef) -> Option<usize> {
    let init = m.init_states().remove(0);
    let mut seen = HashSet::new();
    seen.insert(init.clone());
    let mut queue = VecDeque::from([(init, 0usize)]);
    let mut actions: Vec<Action> = Vec::new();
    while let Some((s, depth)) = queue.pop_front() {
        match def.kind {
            Kind::Always(c) if !c(m, &s) => return Some(depth),
            Kind::Sometimes(c) if c(m, &s) => return Some(depth),
            Kind::LeadsTo { .. } => {
                unreachable!("leads_to traces are lassos, checked in liveness tests")
            }
            _ => {}
        }
        m.actions(&s, &mut actions);
        for a in actions.drain(..) {
            let next = m.next_state(&s, a).expect("every listed action applies");
            if let Kind::Step { condition: c, .. } = def.kind {
                if !c(m, &s, &a, &next) {
                    return Some(depth + 1);
                }
            }
            if seen.insert(next.clone()) {
                queue.push_back((next, depth + 1));
            }
        }
    }
    None
}

#[test]
fn traces_replay_and_are_shortest() {
    for &(name, _) in PINNED {
        let r = run(name, 1);
        let m = check::model(&r.scenario, &[], false);
        for p in &r.properties {
            // A `within` counterexample is the slowest run cut at its deadline, not a
            // shortest one (tests/timing.rs checks it).
            let Some(run) = p.trace.as_ref().filter(|_| !p.def.kind.is_within()) else {
                continue;
            };
            let trace = podcheck_traces::from_run(
                &m,
                run,
                p.def.name,
                podcheck_traces::Kind::Always,
                podcheck_model::Verdict::Violated,
                None,
            )
            .unwrap_or_else(|e| panic!("{name}/{}: {e}", p.def.name));
            let shortest = independent_shortest(&m, &p.def)
                .unwrap_or_else(|| panic!("{name}/{}: no discovery found", p.def.name));
            assert_eq!(
                trace.steps.len(),
                shortest,
                "{name}/{}: trace is not shortest",
                p.def.name
            );
        }
    }
}

#[test]
fn threads_change_no_count_verdict_or_trace() {
    for name in ["termination-race", "deadlock", "unschedulable"] {
        let one = run(name, 1);
        let two = run(name, 2);
        assert_eq!(one.unique_states, two.unique_states, "{name}");
        for (a, b) in one.properties.iter().zip(&two.properties) {
            assert_eq!(a.verdict, b.verdict, "{name}/{}", a.def.name);
            let actions = |p: &podcheck_properties::PropertyResult| p.trace.clone();
            assert_eq!(actions(a), actions(b), "{name}/{}", a.def.name);
        }
    }
}

#[test]
fn repeated_runs_give_identical_traces() {
    let a = run("termination-race", 1);
    let b = run("termination-race", 1);
    for (x, y) in a.properties.iter().zip(&b.properties) {
        assert_eq!(x.trace, y.trace);
        assert_eq!(x.lasso, y.lasso);
    }
}

/// A run cut short by `max_states` never says "holds".
#[test]
fn a_bounded_run_is_incomplete_not_holds() {
    let s = catalogue::find("termination-race").unwrap();
    let r = check::check(
        &s,
        &CheckOptions {
            max_states: Some(50),
            ..CheckOptions::default()
        },
    )
    .unwrap();
    assert!(!r.complete);
    for p in &r.properties {
        let claims_all_states = match p.def.kind {
            Kind::Always(_) | Kind::Step { .. } | Kind::LeadsTo { .. } | Kind::Within { .. } => {
                p.verdict == podcheck_model::Verdict::Holds
            }
            Kind::Sometimes(_) => p.verdict == podcheck_model::Verdict::Violated,
        };
        assert!(!claims_all_states, "{}: {:?}", p.def.name, p.verdict);
    }
}

/// Stateright 0.31 overwrites a first discovery while other properties are pending
/// (docs/sources.md#stateright-031). This pins that the trap is real on this model, which is
/// why traces come from podcheck's own exploration (the first discovery in breadth-first
/// order) and not from Stateright.
#[test]
fn stateright_main_run_discoveries_can_be_longer_than_shortest() {
    use stateright::Checker;
    let mut longer = Vec::new();
    for &(name, _) in PINNED {
        let s = catalogue::find(name).unwrap();
        let defs = check::selected(&s).unwrap();
        let m = check::model(&s, &defs, true);
        let c = m.checker().spawn_bfs().join();
        let r = run(name, 1);
        // Only always and sometimes properties have a Stateright form.
        for p in r
            .properties
            .iter()
            .filter(|p| p.def.kind.is_always() || p.def.kind.is_sometimes())
        {
            if let (Some(main), Some(short)) = (c.discovery(p.def.name), p.trace_steps()) {
                let main_len = main.into_actions().len();
                assert!(main_len >= short, "{name}/{}", p.def.name);
                if main_len > short {
                    longer.push(format!("{name}/{}: {main_len} > {short}", p.def.name));
                }
            }
        }
    }
    println!("{}", longer.join("\n"));
    assert!(!longer.is_empty());
}

#[test]
fn larger_sizes_keep_their_verdicts_and_counts() {
    for &(name, nodes, replicas, states, reduced) in PINNED_SIZED {
        let mut s = catalogue::find(name).unwrap();
        s.resize(Some(nodes), Some(replicas)).unwrap();
        let whole = CheckOptions {
            reduction: false,
            ..CheckOptions::default()
        };
        let full = check::check(&s, &whole).unwrap();
        assert_eq!(
            full.unique_states, states,
            "{name} at {nodes} nodes, {replicas} replicas"
        );
        let r = check::check(&s, &CheckOptions::default()).unwrap();
        assert!(r.complete, "{name}");
        assert_eq!(
            r.unique_states, reduced,
            "{name} at {nodes} nodes, {replicas} replicas, up to interchangeable nodes"
        );
        for (p, q) in r.properties.iter().zip(&full.properties) {
            assert_eq!(p.verdict, q.verdict, "{name}/{}", p.def.name);
            assert_eq!(p.trace_steps(), q.trace_steps(), "{name}/{}", p.def.name);
        }
        for p in &r.properties {
            assert_eq!(p.verdict, p.expected, "{name}/{}", p.def.name);
        }
    }
}

/// The StatefulSet partition story, as the issue asks: the shortest counterexample names, in order, the
/// partition, Ready=Unknown, the taint, the graceful eviction, the force delete, and the new
/// db-0 started on the other node while the old one still runs.
#[test]
fn statefulset_force_delete_tells_the_partition_story() {
    let s = catalogue::find("statefulset-force-delete").unwrap();
    let r = check::check(&s, &CheckOptions::default()).unwrap();
    let p = r
        .properties
        .iter()
        .find(|p| p.def.name == "statefulset_at_most_one")
        .unwrap();
    let m = check::model(&s, &[], false);
    let t = podcheck_traces::from_run(
        &m,
        p.trace.as_ref().unwrap(),
        "",
        podcheck_traces::Kind::Always,
        podcheck_model::Verdict::Violated,
        None,
    )
    .unwrap();
    let text = podcheck_traces::render_text(&t);
    let story = [
        "node-1 is cut off from the API server",
        "node-1 Ready=Unknown",
        "taint node-1 node.kubernetes.io/unreachable",
        "taint-eviction-controller: delete pod db-0",
        "delete pod db-0 --grace-period=0 --force",
        "statefulset-controller: sync StatefulSet db",
        "bind db-0 to node-2",
        "kubelet@node-2: start container db db-0",
    ];
    let mut at = 0;
    for needle in story {
        let found = text[at..]
            .find(needle)
            .unwrap_or_else(|| panic!("`{needle}` missing or out of order:\n{text}"));
        at += found + needle.len();
    }
    // The old db-0 still runs on node-1 in the last state.
    let states = p.trace.as_ref().unwrap().states(&m).unwrap();
    let last = states.last().unwrap();
    assert!(last.nodes[0].pods.iter().any(|rt| rt.any_running()));
    assert!(last.nodes[1].pods.iter().any(|rt| rt.any_running()));
}

/// `deleted_leads_to_gone` is violated under a partition that never heals, and holds when the
/// scenario says it heals (eventually: the network is weakly fair); the lasso replays.
#[test]
fn deleted_leads_to_gone_depends_on_the_partition_healing() {
    use podcheck_input::spec::Fault;
    let verdict = |heals: bool| {
        let mut s = catalogue::find("deployment-partition").unwrap();
        for f in &mut s.faults {
            if let Fault::Partition { heals: h, .. } = f {
                *h = heals;
            }
        }
        s.expect.retain(|e| e.property != "deleted_leads_to_gone");
        s.expect.push(podcheck_input::spec::Expectation {
            from: None,
            before: None,
            property: "deleted_leads_to_gone".into(),
            verdict: podcheck_model::Verdict::Holds,
            source: "test".into(),
        });
        let r = check::check(&s, &CheckOptions::default()).unwrap();
        let p = r
            .properties
            .iter()
            .find(|p| p.def.name == "deleted_leads_to_gone")
            .unwrap()
            .clone();
        if let Some(l) = &p.lasso {
            let m = check::model(&s, &[], false);
            podcheck_traces::from_run(
                &m,
                &l.run(),
                "",
                podcheck_traces::Kind::LeadsTo,
                podcheck_model::Verdict::Violated,
                l.loop_start,
            )
            .unwrap();
        }
        (p.verdict, p.lasso.is_some())
    };
    assert_eq!(verdict(true), (podcheck_model::Verdict::Holds, false));
    assert_eq!(verdict(false), (podcheck_model::Verdict::Violated, true));
}

/// Witnesses that mean what they say: in the demos of a dependency outage and of a deadlock,
/// each witness's trace passes the point its sentence claims. The pod is Ready (the scenarios
/// start settled), then the fault begins, and only after it is the witness met: a pod that
/// was merely still booting proves nothing about the fault.
#[test]
fn witnesses_are_met_after_the_fault_and_after_being_ready() {
    for name in ["dependency-outage", "deadlock"] {
        let r = run(name, 1);
        let m = check::model(&r.scenario, &[], false);
        let mut seen = 0;
        for p in r.properties.iter().filter(|p| p.def.kind.is_witness()) {
            let run = p
                .trace
                .as_ref()
                .unwrap_or_else(|| panic!("{name}/{}", p.def.name));
            let states = run.states(&m).unwrap();
            let fault = run
                .actions
                .iter()
                .position(|a| matches!(a, podcheck_model::Action::Fault(_)))
                .unwrap_or_else(|| panic!("{name}/{}: no fault in the witness", p.def.name));
            let before = &states[fault];
            assert!(
                before.api.pods.iter().any(|p| p.status.ready),
                "{name}/{}: no pod is Ready when the fault begins",
                p.def.name
            );
            // The witness holds only after the fault: in no state before it.
            let Kind::Sometimes(c) = p.def.kind else {
                unreachable!()
            };
            assert!(
                states[..=fault].iter().all(|s| !c(&m, s)),
                "{name}/{}: met before the fault",
                p.def.name
            );
            seen += 1;
        }
        assert!(seen >= 2, "{name}: {seen} witnesses");
    }
}

/// The done-when of the voluntary-disruption item: `kubectl drain` against a budget that can
/// never be met is a lasso of `drain_completes`, whose cycle is the drain's eviction answered
/// with 429 and its 5 s wait (`EvictErrorRetryDelay`), with the budget's stored status never
/// allowing a disruption.
#[test]
fn a_budget_never_met_keeps_the_drain_retrying_forever() {
    use podcheck_model::{apiserver, drain};
    let r = run("drain-budget-never-met", 1);
    let p = r
        .properties
        .iter()
        .find(|p| p.def.name == "drain_completes")
        .unwrap();
    assert_eq!(p.verdict, podcheck_model::Verdict::Violated);
    let shown = p.shown().expect("a counterexample");
    let start = shown.loop_start.expect("a lasso");
    let cycle = &shown.actions[start..];
    assert_eq!(cycle.len(), 2, "{cycle:?}");
    assert!(matches!(
        cycle[0],
        Action::Drain(drain::Action::Evict { .. })
    ));
    assert_eq!(cycle[1], Action::Tick(drain::EVICT_ERROR_RETRY_DELAY));
    // Replayed: the eviction in the cycle is refused, and the budget allows nothing.
    let m = check::model(&r.scenario, &[], false);
    let mut s = m.init_states().remove(0);
    for a in &shown.actions[..start] {
        s = m.next_state(&s, *a).unwrap();
    }
    let Action::Drain(drain::Action::Evict { uid, .. }) = cycle[0] else {
        unreachable!()
    };
    let mut t = s.clone();
    assert!(matches!(
        apiserver::evict_pod(&m, &mut t, uid),
        apiserver::EvictionResult::TooManyRequests {
            processing: false,
            ..
        }
    ));
    assert_eq!(s.api.pdbs[0].disruptions_allowed, 0);
}

/// `healthy` with its Service headless: the Ready pod is still listed ready in the slice, and
/// "routed to by every kube-proxy" asks nothing of proxies that do not handle the Service, so
/// both promises hold, judged (not vacuous), and no proxy ever routes. Were the routes still
/// asked for, the pod would never be routed and both would be violated.
#[test]
fn a_headless_service_keeps_its_endpoint_promises_without_routes() {
    let mut s = catalogue::find("healthy").unwrap();
    let svc = s.service.as_mut().unwrap();
    svc.headless = true;
    svc.clients = false;
    s.validate().unwrap();
    let r = check::check(&s, &CheckOptions::default()).unwrap();
    assert!(r.complete);
    for name in [
        "ready_leads_to_endpoint",
        "ready_pod_routed_within_proxy_lag",
        "endpoint_becomes_ready",
    ] {
        let p = r.properties.iter().find(|p| p.def.name == name).unwrap();
        assert_eq!(p.verdict, p.expected, "{name}");
        assert!(!p.vacuous, "{name} vacuous");
    }
    assert!(r.as_expected());
}
