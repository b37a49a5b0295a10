//! Sidecar containers along the canonical run (each step the first enabled component action,
//! else time passes): the termination order after the main containers and in reverse spec
//! order, the 2 s minimum a late sidecar still gets, and the property that judges the order
//! failing where a sidecar stops on its own (docs/sources.md#sidecar-containers).

use podcheck_input::catalogue;
use podcheck_input::spec::{OnSigterm, Scenario};
use podcheck_model::state::{Run, State};
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
        let mut acts = Vec::new();
        m.urgent_actions(&st, &mut acts);
        let a = match acts.first() {
            Some(a) => *a,
            None => match time::next_deadline(&m, &st) {
                Some(d) => Action::Tick(d),
                None => break,
            },
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
