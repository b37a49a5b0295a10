//! Conformance of `podcheck_k8s::restart` (`computePodActions`,
//! pkg/kubelet/kuberuntime/kuberuntime_manager.go, and `ShouldContainerBeRestarted`,
//! pkg/kubelet/container/helpers.go) with the cases of the upstream tests in
//! pkg/kubelet/kuberuntime/kuberuntime_manager_test.go, each row naming its upstream case; then
//! checks derived from that source, then property tests.

mod common;

use common::*;
use podcheck_k8s::*;
use proptest::prelude::*;
use RestartPolicy::{Always, Never, OnFailure};

const fn krmt(test: &'static str) -> Upstream {
    Upstream {
        file: "pkg/kubelet/kuberuntime/kuberuntime_manager_test.go",
        test,
    }
}
const KRMT: Upstream = krmt("TestComputePodActions");
const KRMT_INIT: Upstream = krmt("TestComputePodActionsWithInitContainers");

fn rtv(state: RuntimeState) -> Option<RuntimeContainerView> {
    Some(RuntimeContainerView {
        state,
        liveness_failed: false,
        startup_failed: false,
        startup_pending: false,
        spec_changed: false,
    })
}

const RUNNING: RuntimeState = RuntimeState::Running;
const fn exited(exit_code: i32) -> RuntimeState {
    RuntimeState::Exited { exit_code }
}

fn sandbox(ready: bool, has_ip: bool, attempt: u32) -> Option<SandboxView> {
    Some(SandboxView {
        ready,
        has_ip,
        attempt,
    })
}

fn actions(kill_pod: bool, create_sandbox: bool, attempt: u32) -> PodActions {
    PodActions {
        kill_pod,
        create_sandbox,
        attempt,
        ..PodActions::default()
    }
}

/// kuberuntime_manager_test.go TestComputePodActions: containers foo1..3 running; sandbox ready
/// with an IP, attempt 0; each case names its upstream description.
#[test]
fn test_compute_pod_actions() {
    let base_rt = || vec![rtv(RUNNING), rtv(RUNNING), rtv(RUNNING)];
    let ok = sandbox(true, true, 0);
    let run_case = |case: &str,
                    rp: RestartPolicy,
                    sb: Option<SandboxView>,
                    rt: Vec<Option<RuntimeContainerView>>,
                    exp: PodActions| {
        let got = compute_pod_actions(rp, &[], 3, sb, &[], &rt, false);
        assert_eq!(got, exp, "{}", KRMT.case(case));
    };

    run_case(
        "everything is good; do nothing",
        Always,
        ok,
        base_rt(),
        actions(false, false, 0),
    );

    let mut rt = base_rt();
    rt[0] = rtv(exited(0));
    rt[1] = rtv(exited(111));
    run_case(
        "restart exited containers if RestartPolicy == Always",
        Always,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![0, 1],
            ..actions(false, false, 0)
        },
    );

    let mut rt = base_rt();
    rt[0] = rtv(exited(0));
    rt[1] = rtv(RuntimeState::Created);
    run_case(
        "restart created but not started containers if RestartPolicy == OnFailure",
        OnFailure,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![1],
            ..actions(false, false, 0)
        },
    );

    run_case(
        "Kill pod and recreate everything if the pod sandbox is dead, and RestartPolicy == Always",
        Always,
        sandbox(false, true, 0),
        base_rt(),
        PodActions {
            containers_to_start: vec![0, 1, 2],
            ..actions(true, true, 1)
        },
    );

    // RestartPolicy left unset upstream: the API default is Always (`SetDefaults_PodSpec`).
    run_case(
        "Kill pod and recreate all containers if the PodSandbox does not have an IP",
        Always,
        sandbox(true, false, 0),
        base_rt(),
        PodActions {
            containers_to_start: vec![0, 1, 2],
            ..actions(true, true, 1)
        },
    );

    let mut rt = base_rt();
    rt[1] = Some(RuntimeContainerView {
        state: RUNNING,
        liveness_failed: true,
        startup_failed: false,
        startup_pending: false,
        spec_changed: false,
    });
    run_case(
        "Kill and recreate the container if the liveness check has failed",
        Always,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![1],
            containers_to_kill: vec![1],
            ..actions(false, false, 0)
        },
    );

    // Upstream changes the runtime record's hash of foo2 (`status.ContainerStatuses[1].Hash`).
    let mut rt = base_rt();
    rt[1] = Some(RuntimeContainerView {
        spec_changed: true,
        ..rtv(RUNNING).unwrap()
    });
    run_case(
        "Kill and recreate the container if the container's spec changed",
        Always,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![1],
            containers_to_kill: vec![1],
            ..actions(false, false, 0)
        },
    );

    run_case(
        "Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and all containers exited",
        Never,
        sandbox(false, true, 1),
        vec![rtv(exited(0)), rtv(exited(0)), rtv(exited(0))],
        actions(true, false, 2),
    );

    run_case(
        "Verify we create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and no containers have ever been created",
        Never,
        sandbox(false, true, 2),
        vec![None, None, None],
        PodActions {
            containers_to_start: vec![0, 1, 2],
            ..actions(true, true, 3)
        },
    );

    let mut rt = base_rt();
    rt[1] = rtv(RuntimeState::Created);
    run_case(
        "Restart the container if the container is in created state",
        Never,
        ok,
        rt,
        PodActions {
            containers_to_start: vec![1],
            ..actions(false, false, 0)
        },
    );
}

/// kuberuntime_manager_test.go TestComputePodActionsWithInitContainers: init1..3 exited 0; no
/// runtime records for the regular containers.
#[test]
fn test_compute_pod_actions_with_init_containers() {
    let init_specs = vec![
        spec("init1", None),
        spec("init2", None),
        spec("init3", None),
    ];
    let base_init = || vec![rtv(exited(0)), rtv(exited(0)), rtv(exited(0))];
    let no_rt: Vec<Option<RuntimeContainerView>> = vec![None, None, None];
    let ok = sandbox(true, true, 0);
    let run_case = |case: &str,
                    rp: RestartPolicy,
                    sb: Option<SandboxView>,
                    init_rt: Vec<Option<RuntimeContainerView>>,
                    exp: PodActions| {
        let got = compute_pod_actions(rp, &init_specs, 3, sb, &init_rt, &no_rt, false);
        assert_eq!(got, exp, "{}", KRMT_INIT.case(case));
    };

    run_case(
        "initialization completed; start all containers",
        Always,
        ok,
        base_init(),
        PodActions {
            containers_to_start: vec![0, 1, 2],
            ..actions(false, false, 0)
        },
    );

    let mut i = base_init();
    i[2] = rtv(RUNNING);
    run_case(
        "initialization in progress; do nothing",
        Always,
        ok,
        i,
        actions(false, false, 0),
    );

    let mut i = base_init();
    i[2] = rtv(exited(137));
    run_case(
        "initialization failed; restart the last init container if RestartPolicy == Always",
        Always,
        ok,
        i.clone(),
        PodActions {
            init_containers_to_start: vec![2],
            ..actions(false, false, 0)
        },
    );
    run_case(
        "initialization failed; kill pod if RestartPolicy == Never",
        Never,
        ok,
        i,
        actions(true, false, 0),
    );

    let mut i = base_init();
    i[2] = rtv(RuntimeState::Unknown);
    run_case(
        "init container state unknown; kill and recreate the last init container if RestartPolicy == OnFailure",
        OnFailure,
        ok,
        i,
        PodActions {
            init_containers_to_start: vec![2],
            init_containers_to_kill: vec![2],
            ..actions(false, false, 0)
        },
    );

    run_case(
        "Pod sandbox not ready, init container failed, but RestartPolicy == Never; kill pod only",
        Never,
        sandbox(false, true, 0),
        base_init(),
        actions(true, false, 1),
    );

    let mut i = base_init();
    i[2] = rtv(exited(137));
    run_case(
        "Pod sandbox not ready, init container failed, and RestartPolicy == OnFailure; create a new pod sandbox",
        OnFailure,
        sandbox(false, true, 0),
        i,
        PodActions {
            init_containers_to_start: vec![0],
            ..actions(true, true, 1)
        },
    );

    let mut i = base_init();
    i[2] = rtv(RuntimeState::Created);
    run_case(
        "an init container is in the created state due to an unknown error when starting container; restart it",
        Always,
        ok,
        i,
        PodActions {
            init_containers_to_start: vec![2],
            ..actions(false, false, 0)
        },
    );
}

/// `computePodActions` (pkg/kubelet/kuberuntime/kuberuntime_manager.go, derived, not an upstream
/// case): a pod being deleted never restarts its containers; with nothing kept, the pod is
/// killed.
#[test]
fn compute_pod_actions_with_deletion_timestamp() {
    let rt = vec![rtv(exited(1)), rtv(RUNNING)];
    let got = compute_pod_actions(Always, &[], 2, sandbox(true, true, 0), &[], &rt, true);
    assert_eq!(got, actions(false, false, 0));
    let rt = vec![rtv(exited(1)), rtv(exited(0))];
    let got = compute_pod_actions(Always, &[], 2, sandbox(true, true, 0), &[], &rt, true);
    assert_eq!(got, actions(true, false, 0));
}

/// `ShouldContainerBeRestarted` (pkg/kubelet/container/helpers.go): a truth table derived from
/// that source, not an upstream test table.
#[test]
fn should_container_be_restarted_truth_table() {
    use RuntimeState::{Created, Exited, Unknown};
    let all_rp = [Always, OnFailure, Never];
    let all_states = [
        None,
        Some(Created),
        Some(RUNNING),
        Some(Exited { exit_code: 0 }),
        Some(Exited { exit_code: 3 }),
        Some(Unknown),
    ];
    for rp in all_rp {
        for s in all_states {
            assert!(
                !should_container_be_restarted(true, s, rp),
                "deletion set: {s:?} {rp:?}"
            );
        }
        assert!(
            should_container_be_restarted(false, None, rp),
            "no runtime status"
        );
        assert!(
            !should_container_be_restarted(false, Some(RUNNING), rp),
            "running"
        );
        assert!(
            should_container_be_restarted(false, Some(Unknown), rp),
            "unknown"
        );
        assert!(
            should_container_be_restarted(false, Some(Created), rp),
            "created"
        );
    }
    for code in [0, 1, 137] {
        assert!(!should_container_be_restarted(
            false,
            Some(Exited { exit_code: code }),
            Never
        ));
        assert!(should_container_be_restarted(
            false,
            Some(Exited { exit_code: code }),
            Always
        ));
    }
    assert!(!should_container_be_restarted(
        false,
        Some(Exited { exit_code: 0 }),
        OnFailure
    ));
    assert!(should_container_be_restarted(
        false,
        Some(Exited { exit_code: 1 }),
        OnFailure
    ));
}

proptest! {
    /// `ShouldContainerBeRestarted`: a pod being deleted never restarts a container.
    #[test]
    fn deleted_pods_never_restart(code in -5i32..5, rp in rp_strategy(), which in 0usize..5) {
        let s = [None, Some(RuntimeState::Created), Some(RuntimeState::Running), Some(RuntimeState::Exited { exit_code: code }), Some(RuntimeState::Unknown)][which];
        prop_assert!(!should_container_be_restarted(true, s, rp));
    }

}

/// A running sidecar holds the next init container back while its startup probe has not
/// succeeded, and is initialized once it has (`computeInitContainerActions`: `startup !=
/// proberesults.Success` → break); the regular containers then start. Not an upstream row:
/// derived from the branch, docs/sources.md#sidecar-containers.
#[test]
fn a_sidecar_startup_probe_gates_the_next_container() {
    let init_specs = vec![spec("proxy", Some(Always)), spec("init2", None)];
    let no_rt: Vec<Option<RuntimeContainerView>> = vec![None];
    let ok = sandbox(true, true, 0);
    let pending = Some(RuntimeContainerView {
        startup_pending: true,
        spec_changed: false,
        ..rtv(RUNNING).unwrap()
    });
    for rp in [Always, OnFailure, Never] {
        let got = compute_pod_actions(rp, &init_specs, 1, ok, &[pending, None], &no_rt, false);
        assert_eq!(got, actions(false, false, 0), "{rp:?}: wait for the probe");
        let got = compute_pod_actions(rp, &init_specs, 1, ok, &[rtv(RUNNING), None], &no_rt, false);
        assert_eq!(
            got,
            PodActions {
                init_containers_to_start: vec![1],
                ..actions(false, false, 0)
            },
            "{rp:?}: the sidecar has started"
        );
        // An exited sidecar is started again under every restart policy.
        let got = compute_pod_actions(
            rp,
            &init_specs,
            1,
            ok,
            &[rtv(exited(1)), rtv(RUNNING)],
            &no_rt,
            false,
        );
        assert_eq!(
            got,
            PodActions {
                init_containers_to_start: vec![0],
                ..actions(false, false, 0)
            },
            "{rp:?}: restart the sidecar"
        );
    }
}

/// A spec change restarts the container whatever the restart policy ("Restart regardless of
/// the restart policy because the container spec changed", `computePodActions`), whereas a
/// liveness failure under Never only kills it; and the spec check comes first. Not an upstream
/// row: derived from the source.
#[test]
fn a_spec_change_restarts_under_every_policy() {
    let ok = sandbox(true, true, 0);
    let changed = Some(RuntimeContainerView {
        spec_changed: true,
        ..rtv(RUNNING).unwrap()
    });
    let liveness = Some(RuntimeContainerView {
        liveness_failed: true,
        ..rtv(RUNNING).unwrap()
    });
    let both = Some(RuntimeContainerView {
        spec_changed: true,
        liveness_failed: true,
        ..rtv(RUNNING).unwrap()
    });
    let kill_and_start = PodActions {
        containers_to_start: vec![0],
        containers_to_kill: vec![0],
        ..actions(false, false, 0)
    };
    for rp in [Always, OnFailure, Never] {
        let got = compute_pod_actions(rp, &[], 2, ok, &[], &[changed, rtv(RUNNING)], false);
        assert_eq!(got, kill_and_start, "spec change under {rp:?}");
        let got = compute_pod_actions(rp, &[], 2, ok, &[], &[both, rtv(RUNNING)], false);
        assert_eq!(got, kill_and_start, "spec change and liveness under {rp:?}");
    }
    let got = compute_pod_actions(Never, &[], 2, ok, &[], &[liveness, rtv(RUNNING)], false);
    assert_eq!(
        got,
        PodActions {
            containers_to_kill: vec![0],
            ..actions(false, false, 0)
        }
    );
    // A changed spec of a container that does not run is not looked at: it is simply
    // started (or not) by its restart policy.
    let exited_changed = Some(RuntimeContainerView {
        spec_changed: true,
        ..rtv(exited(0)).unwrap()
    });
    let got = compute_pod_actions(
        Never,
        &[],
        2,
        ok,
        &[],
        &[exited_changed, rtv(RUNNING)],
        false,
    );
    assert_eq!(got, actions(false, false, 0));
}
