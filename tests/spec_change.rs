//! A container image changed in place (`setPodImage`, `kubectl set image pod/…`): what the
//! kubelet does with it, beyond the `set-pod-image` scenario of the catalogue
//! (`docs/sources.md#kubelet-container-spec-change`). Upstream: `computePodActions` kills a
//! running container whose spec hash changed and starts it again "regardless of the restart
//! policy because the container spec changed" (pkg/kubelet/kuberuntime/kuberuntime_manager.go);
//! `killContainer` runs the preStop hook within the pod's grace
//! (pkg/kubelet/kuberuntime/kuberuntime_container.go).

use podcheck_input::spec::{parse_scenarios, Scenario};
use podcheck_model::kubelet::{self, Step};
use podcheck_model::state::Run;
use podcheck_model::{Action, Verdict};
use podcheck_properties::{catalogue, check, check_with, CheckOptions};
use stateright::Model;
use std::collections::{HashSet, VecDeque};

/// One settled bare pod `web` with the given restart policy and container fields, whose image
/// is set to `web:1.1`.
fn scenario(restart_policy: &str, container: &str) -> Scenario {
    let yaml = format!(
        "- name: t
  description: a bare pod whose image is set in place
  source: this test
  cluster:
    nodes:
      - {{name: node-1, allocatable: {{cpuMilli: 4000, memoryMi: 8192}}}}
    start: settled
  workloads:
    - kind: Pod
      metadata: {{name: web}}
      spec:
        restartPolicy: {restart_policy}
        containers:
          - {{name: app, image: \"web:1.0\", app: {{onSigterm: {{exit: 0}}}}{container}}}
  faults:
    - setPodImage: {{workload: web, container: app, image: \"web:1.1\"}}
"
    );
    parse_scenarios(&yaml, "t.yaml").unwrap().remove(0)
}

/// The verdict of one catalogue property on the scenario.
fn verdict(s: &Scenario, property: &str) -> Verdict {
    let def = catalogue::find(property).unwrap_or_else(|| panic!("no property {property}"));
    let r = check_with(s, &[def], &CheckOptions::default()).unwrap();
    assert!(r.complete);
    r.properties[0].verdict
}

/// Under every restart policy the changed container is restarted in the same pod, and always
/// eventually (a container exiting on its own under Never is not restarted; a spec change
/// is).
#[test]
fn a_spec_change_restarts_the_container_under_every_policy() {
    for rp in ["Always", "OnFailure", "Never"] {
        let s = scenario(rp, "");
        assert_eq!(
            verdict(&s, "container_restarted_by_spec_change"),
            Verdict::Holds,
            "{rp}"
        );
        assert_eq!(
            verdict(&s, "spec_change_restart_completes"),
            Verdict::Holds,
            "{rp}"
        );
    }
}

/// The new image is pulled by its policy: under imagePullPolicy Never, with web:1.1 on no
/// node, the container is not started again and waits with ErrImageNeverPull.
#[test]
fn the_new_image_is_pulled_by_its_policy() {
    let s = scenario("Always", ", imagePullPolicy: Never");
    assert_eq!(verdict(&s, "status_err_image_never_pull"), Verdict::Holds);
    assert_eq!(
        verdict(&s, "container_restarted_by_spec_change"),
        Verdict::Violated
    );
}

/// The kill runs the preStop hook within the pod's grace: right after the kill step, the old
/// container still runs its 5 s preStop, and no new instance runs until it has stopped.
#[test]
fn the_kill_runs_the_prestop_hook() {
    let s = scenario("Always", ", lifecycle: {preStop: {sleep: {seconds: 5}}}");
    let m = check::model(&s, &[], false);
    let init = m.init_states().remove(0);
    let mut seen = HashSet::from([init.clone()]);
    let mut queue = VecDeque::from([init]);
    let mut actions = Vec::new();
    let mut kills = 0;
    while let Some(st) = queue.pop_front() {
        m.actions(&st, &mut actions);
        for a in actions.drain(..) {
            let n = m.next_state(&st, a).unwrap();
            if let Action::Kubelet(kubelet::Action::Sync {
                node,
                uid,
                step: Step::RestartChanged { ctr },
            }) = a
            {
                kills += 1;
                let c = &n.rt(node, uid).unwrap().ctrs[ctr as usize];
                let Run::Running(p) = &c.run else {
                    panic!("the container stopped before its preStop hook ran");
                };
                let stop = p.stop.expect("the kill has begun");
                assert_eq!(stop.prestop_left, Some(5));
                assert!(c.respawn && !c.patched);
            }
            if seen.insert(n.clone()) {
                queue.push_back(n);
            }
        }
    }
    assert!(kills > 0, "the kill step is reachable");
}

/// The API server's checks of the fault, in the user's words.
#[test]
fn the_fault_is_validated() {
    let bad = |fault: &str| {
        let yaml = format!(
            "- name: t
  description: d
  source: s
  workloads:
    - kind: Pod
      metadata: {{name: web}}
      spec:
        containers:
          - {{name: app, image: \"web:1.0\"}}
  faults:
    - {fault}
"
        );
        parse_scenarios(&yaml, "t.yaml").expect_err("refused")
    };
    let e = bad("setPodImage: {workload: web, container: db, image: \"web:1.1\"}");
    assert!(
        e.contains("container `db` is not a regular container"),
        "{e}"
    );
    let e = bad("setPodImage: {workload: web, container: app, image: \"web:1.0\"}");
    assert!(e.contains("already runs `web:1.0`"), "{e}");
    let e = bad("setPodImage: {workload: api, container: app, image: \"web:1.1\"}");
    assert!(e.contains("unknown workload `api`"), "{e}");
}
