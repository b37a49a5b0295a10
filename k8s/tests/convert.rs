//! Conformance of `podcheck_k8s::convert` (`convertToAPIContainerStatuses`,
//! pkg/kubelet/kubelet_pods.go) with the cases of the upstream test
//! `TestConvertToAPIContainerStatuses` in pkg/kubelet/kubelet_pods_test.go (at commit
//! 001a80e975bb880d0fe60b304d30950fe661f278), each test naming its upstream case. Upstream runs
//! the table with gates ContainerRestartRules, NodeDeclaredFeatures and
//! RestartAllContainersOnContainerExits on. The first cases reach no gated branch, so they run
//! with the gate off (and must give the same result); the cases of the section "gate
//! RestartAllContainersOnContainerExits on" run with the gate on, as upstream, and set
//! `podRestarting` where the upstream case does. Message strings are not compared:
//! `ContainerStatus` / `Terminated` have no message field; container IDs are cleared before
//! the comparison, as the upstream test does.
//!
//! After the upstream cases come checks derived from the source of
//! `convertToAPIContainerStatuses` and its helpers; they are not upstream rows, and each names
//! the rule it checks.

use podcheck_k8s::*;

const A: &str = "containerA";
const B: &str = "containerB";

fn specs(names: &[&str]) -> Vec<ContainerSpecView> {
    names.iter().map(|n| ContainerSpecView::new(n)).collect()
}

fn term(exit_code: i32, reason: &str) -> Terminated {
    Terminated {
        exit_code,
        reason: reason.to_string(),
        ..Terminated::default()
    }
}

fn waiting(reason: &str) -> ContainerState {
    ContainerState::Waiting {
        reason: reason.to_string(),
    }
}

/// A status with `ready = false`, `started = None` and the given state, last state and
/// restart count.
fn st(
    name: &str,
    state: ContainerState,
    last_state: Option<Terminated>,
    restart_count: u32,
) -> ContainerStatus {
    ContainerStatus {
        name: name.to_string(),
        state,
        last_state,
        ready: false,
        started: None,
        restart_count,
        container_id: String::new(),
    }
}

/// `runningState(name)` of the upstream test: Running, `Started` nil.
fn running(name: &str) -> ContainerStatus {
    st(name, ContainerState::Running, None, 0)
}

fn exited(exit_code: i32, reason: &str) -> RuntimeRecord {
    RuntimeRecord {
        reason: reason.to_string(),
        ..RuntimeRecord::new(RuntimeState::Exited { exit_code })
    }
}

/// Inputs for a regular-container list: pod RestartPolicy Always, no init containers, not
/// deleted, empty runtime, no previous statuses, empty reason cache.
fn input<'a>(specs: &'a [ContainerSpecView]) -> ConvertInput<'a> {
    ConvertInput {
        specs,
        previous: &[],
        runtime: &[],
        reason_cache: &[],
        is_init: false,
        has_init_containers: false,
        deletion_timestamp: false,
        restart_policy: RestartPolicy::Always,
        any_regular_container_created: false,
        restart_all_containers_on_container_exits: false,
        pod_restarting: false,
    }
}

// ---------------------------------------------------------------------------------------
// pkg/kubelet/kubelet_pods_test.go TestConvertToAPIContainerStatuses
// ---------------------------------------------------------------------------------------

const UPSTREAM: &str = "pkg/kubelet/kubelet_pods_test.go TestConvertToAPIContainerStatuses";

/// Upstream case "no current status, with previous statuses and deletion": DeletionTimestamp set,
/// no runtime records, previous A=R, B=R → both Waiting{ContainerCreating} with
/// LastTermination{ContainerStatusUnknown, 137}, RestartCount 0.
#[test]
fn no_current_status_with_previous_statuses_and_deletion() {
    let sp = specs(&[A, B]);
    let previous = vec![running(A), running(B)];
    let got = convert_to_api_container_statuses(&ConvertInput {
        previous: &previous,
        deletion_timestamp: true,
        ..input(&sp)
    });
    let unknown = Some(term(137, "ContainerStatusUnknown"));
    assert_eq!(
        got,
        vec![
            st(A, waiting("ContainerCreating"), unknown.clone(), 0),
            st(B, waiting("ContainerCreating"), unknown, 0),
        ],
        "{UPSTREAM} \"no current status, with previous statuses and deletion\""
    );
}

/// Upstream case "no current status, keeping previous restartCount": not deleted, no runtime
/// records, previous A=T-1 rc5, B=T-1 rc5 → unchanged.
#[test]
fn no_current_status_keeping_previous_restart_count() {
    let sp = specs(&[A, B]);
    let previous = vec![
        st(A, ContainerState::Terminated(term(-1, "")), None, 5),
        st(B, ContainerState::Terminated(term(-1, "")), None, 5),
    ];
    let got = convert_to_api_container_statuses(&ConvertInput {
        previous: &previous,
        ..input(&sp)
    });
    assert_eq!(
        got, previous,
        "{UPSTREAM} \"no current status, keeping previous restartCount\""
    );
}

/// Upstream case "Unable to get init container status from container runtime and pod has been
/// initialized, treat it as exited normally": spec init-1 + containerA, no previous
/// statuses, runtime has containerA Running; the init list is converted (isInit=true,
/// hasInit=true) → init-1 = Terminated{Completed, 0}.
#[test]
fn init_container_status_missing_after_initialization_is_completed() {
    let init = specs(&["init-1"]);
    let regular = specs(&[A]);
    let runtime = vec![(
        A.to_string(),
        vec![RuntimeRecord::new(RuntimeState::Running)],
    )];
    let created = has_any_regular_container_created(&regular, &runtime);
    assert!(created);
    let got = convert_to_api_container_statuses(&ConvertInput {
        runtime: &runtime,
        is_init: true,
        has_init_containers: true,
        any_regular_container_created: created,
        ..input(&init)
    });
    assert_eq!(
        got,
        vec![st(
            "init-1",
            ContainerState::Terminated(term(0, "Completed")),
            None,
            0
        )],
        "{UPSTREAM} \"Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally\""
    );
}

// ---------------------------------------------------------------------------------------
// TestConvertToAPIContainerStatuses, the cases that reach the branches of gate
// RestartAllContainersOnContainerExits (run with the gate on, as upstream)
// ---------------------------------------------------------------------------------------

/// A runtime record whose `kubecontainer.ContainerID` has an empty type and the given ID:
/// `ID.String()` is `"://" + id`, so a record with no ID still differs from an old status with
/// an empty `containerID`.
fn rec(state: RuntimeState, id: &str, exit_reason: &str) -> RuntimeRecord {
    RuntimeRecord {
        reason: exit_reason.to_string(),
        id: format!("://{id}"),
        ..RuntimeRecord::new(state)
    }
}

/// The regular-container inputs with the gate on and `podRestarting` as given.
fn gated<'a>(specs: &'a [ContainerSpecView], pod_restarting: bool) -> ConvertInput<'a> {
    ConvertInput {
        restart_all_containers_on_container_exits: true,
        pod_restarting,
        ..input(specs)
    }
}

/// The conversion with container IDs cleared (the upstream test clears `ContainerID`).
fn convert_cleared(input: &ConvertInput) -> Vec<ContainerStatus> {
    convert_to_api_container_statuses(input)
        .into_iter()
        .map(|s| ContainerStatus {
            container_id: String::new(),
            ..s
        })
        .collect()
}

/// `waitingStateWithRestartingAllContainers(name)` with the given restart count.
fn waiting_rac(name: &str, restart_count: u32) -> ContainerStatus {
    st(
        name,
        waiting("RestartingAllContainers"),
        Some(term(137, "RestartingAllContainers")),
        restart_count,
    )
}

fn failed(name: &str, exit_code: i32, restart_count: u32) -> ContainerStatus {
    st(
        name,
        ContainerState::Terminated(term(exit_code, "")),
        None,
        restart_count,
    )
}

/// Upstream case "currently running with lower restartCount; should keeping previous
/// restartCount": runtime A, B Running rc 0 (IDs "containerA", "containerB"), previous A, B
/// `failedState` rc 5 → Running, LastTermination the old {-1}, RestartCount 6.
#[test]
fn gated_running_with_lower_restart_count_keeps_previous() {
    let sp = specs(&[A, B]);
    let runtime = vec![
        (A.to_string(), vec![rec(RuntimeState::Running, A, "")]),
        (B.to_string(), vec![rec(RuntimeState::Running, B, "")]),
    ];
    let previous = vec![failed(A, -1, 5), failed(B, -1, 5)];
    let got = convert_cleared(&ConvertInput {
        runtime: &runtime,
        previous: &previous,
        ..gated(&sp, false)
    });
    assert_eq!(
        got,
        vec![
            st(A, ContainerState::Running, Some(term(-1, "")), 6),
            st(B, ContainerState::Running, Some(term(-1, "")), 6),
        ],
        "{UPSTREAM} \"currently running with lower restartCount; should keeping previous restartCount\""
    );
}

/// The same inputs with the gate off: the runtime's RestartCount and no carried termination
/// (the runtime has no older record). Not an upstream row: the gate-off side of the case above.
#[test]
fn gate_off_running_with_lower_restart_count_takes_runtime_count() {
    let sp = specs(&[A]);
    let runtime = vec![(A.to_string(), vec![rec(RuntimeState::Running, A, "")])];
    let previous = vec![failed(A, -1, 5)];
    let got = convert_cleared(&ConvertInput {
        runtime: &runtime,
        previous: &previous,
        ..input(&sp)
    });
    assert_eq!(got, vec![st(A, ContainerState::Running, None, 0)]);
}

/// Upstream case "containerB dies and triggers RestartAllContainers in place": runtime A
/// Running, B Exited 42; previous A, B Running; podRestarting → A Running, B Terminated 42.
#[test]
fn gated_container_b_dies_and_triggers_restart_all() {
    let sp = specs(&[A, B]);
    let runtime = vec![
        (A.to_string(), vec![rec(RuntimeState::Running, "", "")]),
        (
            B.to_string(),
            vec![rec(RuntimeState::Exited { exit_code: 42 }, "", "")],
        ),
    ];
    let previous = vec![running(A), running(B)];
    let got = convert_cleared(&ConvertInput {
        runtime: &runtime,
        previous: &previous,
        ..gated(&sp, true)
    });
    assert_eq!(
        got,
        vec![running(A), failed(B, 42, 0)],
        "{UPSTREAM} \"containerB dies and triggers RestartAllContainers in place\""
    );
}

/// Upstream case "…, containerA killed": runtime A Exited 137 only; previous A Running, B
/// Terminated 42; podRestarting → A Terminated 137, B Waiting{RestartingAllContainers} with
/// LastTermination {RestartingAllContainers, 137}, RestartCount 1.
#[test]
fn gated_restart_all_container_a_killed() {
    let sp = specs(&[A, B]);
    let runtime = vec![(
        A.to_string(),
        vec![rec(RuntimeState::Exited { exit_code: 137 }, "", "")],
    )];
    let previous = vec![running(A), failed(B, 42, 0)];
    let got = convert_cleared(&ConvertInput {
        runtime: &runtime,
        previous: &previous,
        ..gated(&sp, true)
    });
    assert_eq!(
        got,
        vec![failed(A, 137, 0), waiting_rac(B, 1)],
        "{UPSTREAM} \"containerB dies and triggers RestartAllContainers in place, containerA killed\""
    );
}

/// Upstream cases "…, containerA killed then removed" (previous A Terminated 137) and
/// "…, containerA killed and removed together" (previous A Running): no runtime records,
/// podRestarting → both Waiting{RestartingAllContainers}, RestartCount 1.
#[test]
fn gated_restart_all_containers_removed() {
    let sp = specs(&[A, B]);
    for (previous_a, case) in [
        (failed(A, 137, 0), "containerA killed then removed"),
        (running(A), "containerA killed and removed together"),
    ] {
        let previous = vec![previous_a, failed(B, 42, 0)];
        let got = convert_cleared(&ConvertInput {
            previous: &previous,
            ..gated(&sp, true)
        });
        assert_eq!(
            got,
            vec![waiting_rac(A, 1), waiting_rac(B, 1)],
            "{UPSTREAM} \"containerB dies and triggers RestartAllContainers in place, {case}\""
        );
    }
}

/// Upstream case "…, containerA rerun": runtime A Running (ID "containerA-new"); previous A
/// Waiting{RestartingAllContainers} rc 1, B Terminated 42; podRestarting → A Running with the
/// old RestartingAllContainers last termination carried over and RestartCount 1, B
/// Waiting{RestartingAllContainers} rc 1.
#[test]
fn gated_restart_all_container_a_rerun() {
    let sp = specs(&[A, B]);
    let runtime = vec![(
        A.to_string(),
        vec![rec(RuntimeState::Running, "containerA-new", "")],
    )];
    let previous = vec![waiting_rac(A, 1), failed(B, 42, 0)];
    let got = convert_cleared(&ConvertInput {
        runtime: &runtime,
        previous: &previous,
        ..gated(&sp, true)
    });
    assert_eq!(
        got,
        vec![
            st(
                A,
                ContainerState::Running,
                Some(term(137, "RestartingAllContainers")),
                1
            ),
            waiting_rac(B, 1),
        ],
        "{UPSTREAM} \"containerB dies and triggers RestartAllContainers in place, containerA rerun\""
    );
}

/// Upstream cases "…, containerA succeeded" (A Exited 0) and "…, containerA failed" (A
/// Exited 1): previous A Running rc 1, B Terminated 42; podRestarting → A Terminated with its
/// exit code and the old RestartCount 1 kept over the runtime's 0, B
/// Waiting{RestartingAllContainers} rc 1.
#[test]
fn gated_restart_all_container_a_exits() {
    let sp = specs(&[A, B]);
    for (exit_code, case) in [(0, "containerA succeeded"), (1, "containerA failed")] {
        let runtime = vec![(
            A.to_string(),
            vec![rec(RuntimeState::Exited { exit_code }, "", "")],
        )];
        let previous = vec![st(A, ContainerState::Running, None, 1), failed(B, 42, 0)];
        let got = convert_cleared(&ConvertInput {
            runtime: &runtime,
            previous: &previous,
            ..gated(&sp, true)
        });
        assert_eq!(
            got,
            vec![failed(A, exit_code, 1), waiting_rac(B, 1)],
            "{UPSTREAM} \"containerB dies and triggers RestartAllContainers in place, {case}\""
        );
    }
}

/// The same old status as the record (same container ID, old state Terminated): the old
/// terminated state is the current one, so it is not copied into LastTerminationState; the
/// old LastTerminationState is carried instead. Not an upstream row: the `ContainerID` test of
/// `convertContainerStatus`.
#[test]
fn gated_same_container_id_does_not_copy_its_own_termination() {
    let sp = specs(&[A]);
    let runtime = vec![(
        A.to_string(),
        vec![rec(RuntimeState::Exited { exit_code: 1 }, "a1", "Error")],
    )];
    let previous = vec![ContainerStatus {
        container_id: "://a1".to_string(),
        ..st(
            A,
            ContainerState::Terminated(term(1, "Error")),
            Some(term(2, "Error")),
            3,
        )
    }];
    let got = convert_cleared(&ConvertInput {
        runtime: &runtime,
        previous: &previous,
        restart_policy: RestartPolicy::Never,
        ..gated(&sp, false)
    });
    assert_eq!(
        got,
        vec![st(
            A,
            ContainerState::Terminated(term(1, "Error")),
            Some(term(2, "Error")),
            3
        )]
    );
}

/// An Unknown record whose old status was Running: reason RestartingAllContainers while the
/// pod restarts with the gate on, ContainerStatusUnknown otherwise. Not an upstream row.
#[test]
fn gated_unknown_after_running_while_restarting() {
    let sp = specs(&[A]);
    let runtime = vec![(A.to_string(), vec![rec(RuntimeState::Unknown, "a", "")])];
    let previous = vec![st(A, ContainerState::Running, None, 2)];
    let base = ConvertInput {
        runtime: &runtime,
        previous: &previous,
        restart_policy: RestartPolicy::Never,
        ..input(&sp)
    };
    let reason_of = |input: &ConvertInput| match &convert_cleared(input)[0].state {
        ContainerState::Terminated(t) => (t.reason.clone(), t.exit_code),
        other => panic!("expected Terminated, got {other:?}"),
    };
    for (gate, restarting, want) in [
        (true, true, "RestartingAllContainers"),
        (true, false, "ContainerStatusUnknown"),
        (false, true, "ContainerStatusUnknown"),
    ] {
        let input = ConvertInput {
            restart_all_containers_on_container_exits: gate,
            pod_restarting: restarting,
            ..base
        };
        assert_eq!(
            reason_of(&input),
            (want.to_string(), 137),
            "gate {gate}, podRestarting {restarting}"
        );
        assert_eq!(convert_cleared(&input)[0].restart_count, 3);
    }
}

/// With the gate off, `podRestarting` changes nothing: a removed container gets the
/// ContainerStatusUnknown termination of the gate-off path. Not an upstream row.
#[test]
fn gate_off_ignores_pod_restarting() {
    let sp = specs(&[A]);
    let previous = vec![running(A)];
    let got = convert_cleared(&ConvertInput {
        previous: &previous,
        pod_restarting: true,
        ..input(&sp)
    });
    assert_eq!(
        got,
        vec![st(
            A,
            waiting("ContainerCreating"),
            Some(term(137, "ContainerStatusUnknown")),
            1
        )]
    );
}

// ---------------------------------------------------------------------------------------
// Checks derived from the source of `convertToAPIContainerStatuses` (pkg/kubelet/kubelet_pods.go)
// and its helpers in pkg/kubelet/container/helpers.go.
// ---------------------------------------------------------------------------------------

/// The default waiting reason is ContainerCreating, or PodInitializing when the pod has
/// init containers; for regular, init and ephemeral lists alike.
#[test]
fn default_waiting_reason() {
    let sp = specs(&[A]);
    let plain = convert_to_api_container_statuses(&input(&sp));
    assert_eq!(plain, vec![st(A, waiting("ContainerCreating"), None, 0)]);
    let with_init = convert_to_api_container_statuses(&ConvertInput {
        has_init_containers: true,
        ..input(&sp)
    });
    assert_eq!(with_init, vec![st(A, waiting("PodInitializing"), None, 0)]);
    // The init list itself, before any regular container exists.
    let init_list = convert_to_api_container_statuses(&ConvertInput {
        is_init: true,
        has_init_containers: true,
        ..input(&sp)
    });
    assert_eq!(init_list, vec![st(A, waiting("PodInitializing"), None, 0)]);
}

/// The runtime-state mapping: Running → Running; Created → Waiting{}; Exited → Terminated{ExitCode, Reason}.
#[test]
fn runtime_state_mapping() {
    let sp = specs(&[A]);
    let run = |rec: RuntimeRecord, rp: RestartPolicy| {
        let runtime = vec![(A.to_string(), vec![rec])];
        convert_to_api_container_statuses(&ConvertInput {
            runtime: &runtime,
            restart_policy: rp,
            ..input(&sp)
        })
    };
    let rec = RuntimeRecord {
        restart_count: 2,
        ..RuntimeRecord::new(RuntimeState::Running)
    };
    assert_eq!(
        run(rec, RestartPolicy::Always),
        vec![st(A, ContainerState::Running, None, 2)]
    );
    assert_eq!(
        run(
            RuntimeRecord::new(RuntimeState::Created),
            RestartPolicy::Always
        ),
        vec![st(A, waiting(""), None, 0)]
    );
    let rec = RuntimeRecord {
        finished_ago: Some(30),
        ..exited(1, "Error")
    };
    let t = Terminated {
        finished_ago: Some(30),
        ..term(1, "Error")
    };
    assert_eq!(
        run(rec, RestartPolicy::Never),
        vec![st(A, ContainerState::Terminated(t), None, 0)]
    );
}

/// Unknown when the previous status was Running → Terminated{ContainerStatusUnknown,
/// 137} with RestartCount = old + 1; Unknown otherwise → Waiting{}.
#[test]
fn unknown_state() {
    let sp = specs(&[A]);
    let runtime = vec![(
        A.to_string(),
        vec![RuntimeRecord::new(RuntimeState::Unknown)],
    )];
    let previous = vec![st(A, ContainerState::Running, None, 3)];
    let got = convert_to_api_container_statuses(&ConvertInput {
        runtime: &runtime,
        previous: &previous,
        ..input(&sp)
    });
    assert_eq!(
        got,
        vec![st(
            A,
            ContainerState::Terminated(term(137, "ContainerStatusUnknown")),
            None,
            4
        )]
    );
    let got = convert_to_api_container_statuses(&ConvertInput {
        runtime: &runtime,
        ..input(&sp)
    });
    assert_eq!(got, vec![st(A, waiting(""), None, 0)]);
}

/// `!ChangeContainerStatusOnKubeletRestart`, its default at this commit): a Running
/// record keeps the old `started`.
#[test]
fn running_keeps_old_started() {
    let sp = specs(&[A]);
    let runtime = vec![(
        A.to_string(),
        vec![RuntimeRecord::new(RuntimeState::Running)],
    )];
    let previous = vec![ContainerStatus {
        started: Some(true),
        ready: true,
        ..running(A)
    }];
    let got = convert_to_api_container_statuses(&ConvertInput {
        runtime: &runtime,
        previous: &previous,
        ..input(&sp)
    });
    assert_eq!(
        got,
        vec![ContainerStatus {
            started: Some(true),
            ..running(A)
        }]
    );
}

/// A container vanished from the runtime, without a deletion timestamp: it gets the ContainerStatusUnknown
/// last termination and RestartCount + 1. With a last termination already set, nothing
/// changes.
#[test]
fn vanished_container_without_deletion() {
    let sp = specs(&[A]);
    let previous = vec![st(A, ContainerState::Running, None, 2)];
    let got = convert_to_api_container_statuses(&ConvertInput {
        previous: &previous,
        ..input(&sp)
    });
    assert_eq!(
        got,
        vec![st(
            A,
            waiting("ContainerCreating"),
            Some(term(137, "ContainerStatusUnknown")),
            3
        )]
    );
    let previous = vec![st(A, ContainerState::Running, Some(term(1, "Error")), 2)];
    let got = convert_to_api_container_statuses(&ConvertInput {
        previous: &previous,
        ..input(&sp)
    });
    assert_eq!(
        got,
        vec![st(
            A,
            waiting("ContainerCreating"),
            Some(term(1, "Error")),
            2
        )]
    );
}

/// The two newest runtime records per name: the newest fills State, the second LastTerminationState; older ones are
/// ignored.
#[test]
fn two_newest_records() {
    let sp = specs(&[A]);
    let runtime = vec![(
        A.to_string(),
        vec![
            RuntimeRecord {
                restart_count: 2,
                ..RuntimeRecord::new(RuntimeState::Running)
            },
            exited(2, "Error"),
            exited(3, "OOMKilled"),
        ],
    )];
    let got = convert_to_api_container_statuses(&ConvertInput {
        runtime: &runtime,
        ..input(&sp)
    });
    assert_eq!(
        got,
        vec![st(A, ContainerState::Running, Some(term(2, "Error")), 2)]
    );
}

/// The reason cache: with ShouldContainerBeRestarted and a reason-cache entry the state becomes
/// Waiting{reason} and Terminated moves to LastTerminationState; without an entry, or when
/// the container will not be restarted, the Terminated state stays.
#[test]
fn reason_cache() {
    let sp = specs(&[A]);
    let runtime = vec![(A.to_string(), vec![exited(1, "Error")])];
    let cache = vec![(A.to_string(), "CrashLoopBackOff".to_string())];
    let with = |rp: RestartPolicy, deleted: bool, cache: &[(String, String)]| {
        convert_to_api_container_statuses(&ConvertInput {
            runtime: &runtime,
            reason_cache: cache,
            restart_policy: rp,
            deletion_timestamp: deleted,
            ..input(&sp)
        })
    };
    let crashloop = vec![st(
        A,
        waiting("CrashLoopBackOff"),
        Some(term(1, "Error")),
        0,
    )];
    let kept = vec![st(A, ContainerState::Terminated(term(1, "Error")), None, 0)];
    assert_eq!(with(RestartPolicy::Always, false, &cache), crashloop);
    assert_eq!(with(RestartPolicy::OnFailure, false, &cache), crashloop);
    assert_eq!(with(RestartPolicy::Always, false, &[]), kept);
    // ShouldContainerBeRestarted false: Never, or a pod being deleted.
    assert_eq!(with(RestartPolicy::Never, false, &cache), kept);
    assert_eq!(with(RestartPolicy::Always, true, &cache), kept);
}

/// The reason cache: a container that never started (no runtime record) with an image-pull failure in
/// the reason cache is Waiting{ErrImagePull}.
#[test]
fn reason_cache_without_runtime_record() {
    let sp = specs(&[A]);
    let cache = vec![(A.to_string(), "ErrImagePull".to_string())];
    let got = convert_to_api_container_statuses(&ConvertInput {
        reason_cache: &cache,
        ..input(&sp)
    });
    assert_eq!(got, vec![st(A, waiting("ErrImagePull"), None, 0)]);
}

/// An init container that exited 0 is never reset to Waiting, even with a reason-cache
/// entry.
#[test]
fn init_exited_zero_not_reset() {
    let init = specs(&["init-1"]);
    let runtime = vec![("init-1".to_string(), vec![exited(0, "Completed")])];
    let cache = vec![("init-1".to_string(), "CrashLoopBackOff".to_string())];
    let got = convert_to_api_container_statuses(&ConvertInput {
        runtime: &runtime,
        reason_cache: &cache,
        is_init: true,
        has_init_containers: true,
        ..input(&init)
    });
    assert_eq!(
        got,
        vec![st(
            "init-1",
            ContainerState::Terminated(term(0, "Completed")),
            None,
            0
        )]
    );
}

/// The Completed inference for a vanished init container needs a non-sidecar init container and a created regular
/// container; otherwise the default waiting state stays.
#[test]
fn completed_inference_needs_regular_container_and_non_sidecar() {
    let sidecar = vec![ContainerSpecView {
        restart_policy: Some(RestartPolicy::Always),
        ..ContainerSpecView::new("sidecar-1")
    }];
    let got = convert_to_api_container_statuses(&ConvertInput {
        is_init: true,
        has_init_containers: true,
        any_regular_container_created: true,
        ..input(&sidecar)
    });
    assert_eq!(
        got,
        vec![st("sidecar-1", waiting("PodInitializing"), None, 0)]
    );

    let init = specs(&["init-1"]);
    let got = convert_to_api_container_statuses(&ConvertInput {
        is_init: true,
        has_init_containers: true,
        any_regular_container_created: false,
        ..input(&init)
    });
    assert_eq!(got, vec![st("init-1", waiting("PodInitializing"), None, 0)]);
}

/// `HasAnyRegularContainerCreated` (pkg/kubelet/container/helpers.go): the newest record counts; Created, Running and
/// Exited do, Unknown does not.
#[test]
fn has_any_regular_container_created_cases() {
    let regular = specs(&[A]);
    let one = |s: RuntimeState| vec![(A.to_string(), vec![RuntimeRecord::new(s)])];
    assert!(!has_any_regular_container_created(&regular, &[]));
    assert!(has_any_regular_container_created(
        &regular,
        &one(RuntimeState::Created)
    ));
    assert!(has_any_regular_container_created(
        &regular,
        &one(RuntimeState::Exited { exit_code: 1 })
    ));
    assert!(!has_any_regular_container_created(
        &regular,
        &one(RuntimeState::Unknown)
    ));
    // Records of other names (e.g. init containers) do not count.
    let init_only = vec![(
        "init-1".to_string(),
        vec![RuntimeRecord::new(RuntimeState::Running)],
    )];
    assert!(!has_any_regular_container_created(&regular, &init_only));
}

/// `SortedContainerStatuses`, `SortStatusesOfInitContainers` (pkg/kubelet/kubelet_pods.go): regular lists are
/// sorted by name, init lists follow the spec order.
#[test]
fn output_order() {
    let sp = specs(&[B, A]);
    let got: Vec<String> = convert_to_api_container_statuses(&input(&sp))
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(got, vec![A, B]);
    let got: Vec<String> = convert_to_api_container_statuses(&ConvertInput {
        is_init: true,
        has_init_containers: true,
        ..input(&sp)
    })
    .into_iter()
    .map(|s| s.name)
    .collect();
    assert_eq!(got, vec![B, A]);
}
