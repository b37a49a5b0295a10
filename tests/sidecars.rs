//! Sidecar containers along the canonical run (each step the first enabled component action,
//! else time passes): the termination order after the main containers and in reverse spec
//! order, the 2 s minimum a late sidecar still gets, and the property that judges the order
//! failing where a sidecar stops on its own (docs/sources.md#sidecar-containers); a pod whose
//! phase is terminal starts no container again, and an Indexed Job with a sidecar read from a
//! manifest gives no finding under the crash plan
//! (docs/sources.md#kubelet-terminal-pods-start-no-container).

mod common;

use podcheck_input::catalogue;
use podcheck_input::spec::{OnSigterm, Scenario};
use podcheck_model::state::{JobCondition, Run, State};
use podcheck_model::{faults, time, Action, Cluster, Verdict};
use podcheck_properties::{catalogue as props, check, CheckOptions};
use stateright::Model;

fn model(s: &Scenario) -> Cluster {
    s.validate().unwrap();
    check::model(s, &[], false)
}

/// The canonical run from `s` after the scenario's first fault, until nothing is due: each
/// state with the seconds passed since the fault.
fn run_after_fault(m: &Cluster) -> Vec<(u64, State)> {
    let init = m.initial_state();
    let mut all = Vec::new();
    m.actions(&init, &mut all);
    let delete = all
        .into_iter()
        .find(|a| matches!(a, Action::Fault(faults::Action::Fault { index: 0, .. })))
        .expect("the delete is enabled");
    let mut s = m.apply(&init, &delete).unwrap();
    let mut secs = 0u64;
    let mut out = vec![(0, s.clone())];
    for _ in 0..1_000 {
        let mut acts = Vec::new();
        m.urgent_actions(&s, &mut acts);
        let a = match acts.first() {
            Some(a) => *a,
            None => match time::next_deadline(m, &s) {
                Some(d) => {
                    secs += u64::from(d);
                    Action::Tick(d)
                }
                None => return out,
            },
        };
        s = m.apply(&s, &a).unwrap();
        out.push((secs, s.clone()));
    }
    panic!("the run does not settle");
}

/// When each container of the pod (init containers by name, then regular ones) last stopped
/// running, and with which exit code.
fn exits(m: &Cluster, run: &[(u64, State)]) -> Vec<(String, u64, i32)> {
    let spec = m.scenario.workloads[0].template();
    let names: Vec<String> = spec
        .init_containers
        .iter()
        .chain(&spec.containers)
        .map(|c| c.name.clone())
        .collect();
    let mut out = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let at = run.iter().find_map(|(t, s)| {
            let rt = s.nodes[0].pods.first()?;
            let c = rt.init.iter().chain(&rt.ctrs).nth(k)?;
            match c.run {
                Run::Exited(e) => Some((*t, e.code)),
                _ => None,
            }
        });
        let (t, code) = at.unwrap_or_else(|| panic!("{name} never stopped"));
        out.push((name.clone(), t, code));
    }
    out
}

#[test]
fn sidecars_stop_after_the_main_container_in_reverse_spec_order() {
    let s = catalogue::find("sidecar-termination").unwrap();
    let m = model(&s);
    let run = run_after_fault(&m);
    let e = exits(&m, &run);
    // The app runs its 5 s preStop, then exits on SIGTERM; the proxy (the later sidecar) is
    // sent SIGTERM at that instant, then the log shipper; all exit 0 on SIGTERM.
    assert_eq!(
        e,
        [
            ("log".to_string(), 5, 0),
            ("proxy".to_string(), 5, 0),
            ("app".to_string(), 5, 0)
        ]
    );
    // And in that order within the instant: the proxy stops in a state where the app has,
    // the log shipper in a later state than the proxy.
    let first = |name: usize| {
        run.iter()
            .position(|(_, s)| {
                let rt = &s.nodes[0].pods[0];
                !matches!(rt.init[name].run, Run::Running(_))
            })
            .unwrap()
    };
    let app_gone = run
        .iter()
        .position(|(_, s)| !matches!(s.nodes[0].pods[0].ctrs[0].run, Run::Running(_)))
        .unwrap();
    assert!(
        app_gone <= first(1) && first(1) < first(0),
        "{app_gone} {} {}",
        first(1),
        first(0)
    );
}

#[test]
fn a_sidecar_whose_turn_comes_late_still_gets_two_seconds() {
    // The app ignores SIGTERM and is killed when the 10 s grace ends; the proxy has waited the
    // whole grace for its turn, and StopContainer still gives it 2 s (killContainer:
    // `minimumGracePeriodInSeconds`), after which it too is killed (137).
    let mut s = catalogue::find("sidecar-termination").unwrap();
    let t = match &mut s.workloads[0] {
        podcheck_input::spec::Workload::Pod { spec, .. } => spec,
        _ => unreachable!(),
    };
    t.termination_grace_period_seconds = 10;
    t.init_containers.remove(0);
    t.containers[0].lifecycle = None;
    t.containers[0].app.on_sigterm = OnSigterm::Ignore;
    t.init_containers[0].app.on_sigterm = OnSigterm::Ignore;
    let m = model(&s);
    let e = exits(&m, &run_after_fault(&m));
    assert_eq!(
        e,
        [("proxy".to_string(), 12, 137), ("app".to_string(), 10, 137)]
    );
}

#[test]
fn a_sidecar_that_stops_on_its_own_during_termination_breaks_the_order() {
    // The log shipper crashes 3 s after each start: a delete while it runs lets it exit during
    // the app's 5 s preStop, and nothing restarts it in a terminating pod.
    let mut s = catalogue::find("sidecar-termination").unwrap();
    if let podcheck_input::spec::Workload::Pod { spec, .. } = &mut s.workloads[0] {
        spec.init_containers[0].app.exit_after_seconds = Some(3);
        spec.init_containers[0].app.exit_code = 1;
    }
    s.expect.clear();
    let def = props::find("sidecar_outlives_main_containers").unwrap();
    let r = check::check_with(&s, &[def], &CheckOptions::default()).unwrap();
    assert_eq!(r.properties[0].verdict, Verdict::Violated);
    // As the catalogue has it, the order holds.
    let s = catalogue::find("sidecar-termination").unwrap();
    let def = props::find("sidecar_outlives_main_containers").unwrap();
    let r = check::check_with(&s, &[def], &CheckOptions::default()).unwrap();
    assert_eq!(r.properties[0].verdict, Verdict::Holds);
}

#[test]
fn the_start_order_property_judges_a_start_before_the_startup_probe_passed() {
    use podcheck_model::kubelet;
    use podcheck_properties::Kind;
    let s = catalogue::find("sidecar-startup-probe").unwrap();
    let m = model(&s);
    let Kind::Step {
        condition: judge, ..
    } = props::find("containers_start_after_sidecars_started")
        .unwrap()
        .kind
    else {
        panic!("a step property");
    };
    // The canonical run from the empty cluster: find the state where the proxy runs and its
    // startup probe has not yet succeeded.
    let mut st = m.initial_state();
    let mut judged = 0;
    for _ in 0..200 {
        let Some(a) = common::run::next_step(&m, &st) else {
            break;
        };
        let next = m.apply(&st, &a).unwrap();
        // Every step the model takes is judged to hold.
        assert!(judge(&m, &st, &a, &next), "{a:?}");
        if let Some((node, rt)) = st.rt_any(st.api.pods[0].uid) {
            let proxy_booting = matches!(rt.init[0].run, Run::Running(_))
                && rt.ctrs[0].run == Run::None
                && !next
                    .rt(node, rt.uid)
                    .is_some_and(|r| r.ctrs[0].run != Run::None);
            if proxy_booting {
                // Starting the app here would be too early: judged violated.
                let early = Action::Kubelet(kubelet::Action::Sync {
                    node,
                    uid: rt.uid,
                    step: kubelet::Step::Start {
                        init: false,
                        ctr: 0,
                    },
                });
                let started = rt.init[0].probes[0]
                    .is_some_and(|w| w.result == podcheck_model::state::ProbeResult::Success);
                assert_eq!(judge(&m, &st, &early, &st), started);
                judged += 1;
            }
        }
        st = next;
    }
    assert!(judged > 0, "the run passes through the proxy's boot");
}

/// An Indexed Job of three completions, two at a time, `restartPolicy: Never`, with a log
/// sidecar per pod, as a user writes it; `EXTRA` goes under the pod template's metadata.
fn indexed_job_with_a_sidecar(extra: &str) -> String {
    format!(
        "apiVersion: batch/v1
kind: Job
metadata:
  name: indexed
spec:
  completionMode: Indexed
  completions: 3
  parallelism: 2
  backoffLimit: 0
  template:
    metadata:
      labels: {{app: indexed}}
{extra}    spec:
      restartPolicy: Never
      initContainers:
      - name: log
        image: busybox:1.36
        restartPolicy: Always
        command: [\"tail\", \"-F\", \"/var/log/app.log\"]
      containers:
      - name: work
        image: busybox:1.36
        command: [\"sh\", \"-c\", \"echo work; sleep 5; exit 0\"]
"
    )
}

/// `podcheck check -f` of the manifest under the crash plan: exit 0, no finding, the
/// scenario complete. Returns stderr (the defaults taken).
fn no_finding_under_crash(yaml: &str) -> String {
    let dir = common::dir::TempDir::new("sidecar-indexed-job");
    let file = dir.write("job.yaml", yaml);
    let args = ["check", "-f", file.as_str(), "--plan", "crash"];
    let o = common::bin::podcheck(&args);
    let (out, err) = (common::bin::stdout(&o), common::bin::stderr(&o));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        common::bin::describe(&args, &o)
    );
    assert!(!out.contains("finding:"), "{out}");
    assert!(
        out.contains("crash indexed") && out.contains("complete"),
        "{out}"
    );
    err
}

/// The done-when: the crash plan crashes a pod's work (exit 1, a failed pod and, at
/// `backoffLimit: 0`, a failed Job); nothing else goes wrong. The sidecar, without an
/// annotation, runs until the kubelet stops it (it is not taken to exit after 10 s as a Job's
/// container is), so the pod is Succeeded on its work alone and no more than two pods run.
#[test]
fn an_indexed_job_with_a_sidecar_read_from_a_manifest_has_no_finding_under_crash() {
    let err = no_finding_under_crash(&indexed_job_with_a_sidecar(""));
    assert!(
        err.contains("container work: podcheck.dev/exit-after-seconds: 10"),
        "{err}"
    );
    assert!(
        !err.contains("container log: podcheck.dev/exit-after-seconds"),
        "a sidecar's program runs until it is stopped: {err}"
    );
}

/// The same Job whose sidecar is said to exit 0 when the work does: the pod is Succeeded with
/// every container exited, and the kubelet starts no container of it again (SyncPod returns
/// `isTerminal` before computePodActions, which would redo the init sequence and start the
/// sidecar), so no third pod runs beside the two.
#[test]
fn an_indexed_job_whose_sidecar_exits_with_the_work_has_no_finding_under_crash() {
    let err = no_finding_under_crash(&indexed_job_with_a_sidecar(
        "      annotations:\n        podcheck.dev/exit-after-seconds.log: \"10\"\n",
    ));
    assert!(
        !err.contains("container log: podcheck.dev/exit-after-seconds"),
        "{err}"
    );
}

/// The catalogue's `sidecar-indexed-job` (the sidecar exits with the work, at 5 s): in no
/// reachable step does a container start in a pod whose phase is terminal in the API, and in
/// every reachable state at most two pods run (its parallelism); along the canonical run the
/// Job completes with one pod per index.
#[test]
fn a_succeeded_pod_starts_no_container_again() {
    let s = catalogue::find("sidecar-indexed-job").unwrap();
    let m = model(&s);
    let running = |r: &podcheck_model::state::PodRt| {
        r.init
            .iter()
            .chain(&r.ctrs)
            .filter(|c| matches!(c.run, Run::Running(_)))
            .count()
    };
    // Every reachable step, breadth first.
    let init = m.initial_state();
    let mut seen = std::collections::HashSet::from([init.clone()]);
    let mut queue = std::collections::VecDeque::from([init]);
    let mut terminal_pods_seen = 0;
    while let Some(st) = queue.pop_front() {
        let mut acts = Vec::new();
        m.actions(&st, &mut acts);
        for a in acts {
            let Some(next) = m.next_state(&st, a) else {
                continue;
            };
            for p in st.api.pods.iter().filter(|p| p.status.phase.is_terminal()) {
                terminal_pods_seen += 1;
                let Some((node, rt)) = st.rt_any(p.uid) else {
                    continue;
                };
                let after = next.rt(node, rt.uid).map_or(0, running);
                assert!(
                    after <= running(rt),
                    "a container starts in {}: {a:?}",
                    p.uid
                );
            }
            let pods_running = next
                .nodes
                .iter()
                .flat_map(|n| &n.pods)
                .filter(|rt| running(rt) > 0)
                .count();
            assert!(pods_running <= 2, "{pods_running} pods run after {a:?}");
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    assert!(terminal_pods_seen > 0, "pods reach a terminal phase");
    // The canonical run: the Job completes, three pods, one per index.
    let mut st = m.initial_state();
    let mut pods = std::collections::BTreeSet::new();
    for _ in 0..1_000 {
        let Some(a) = common::run::next_step(&m, &st) else {
            break;
        };
        st = m.apply(&st, &a).unwrap();
        pods.extend(st.api.pods.iter().map(|p| (p.uid, p.job_index)));
    }
    let job = st.api.workloads[0].job.as_ref().unwrap();
    assert!(
        matches!(job.condition, Some(JobCondition::Complete(_))),
        "{job:?}"
    );
    let indexes: Vec<_> = pods.iter().map(|(_, i)| *i).collect();
    assert_eq!(indexes, [Some(0), Some(1), Some(2)], "{pods:?}");
}
