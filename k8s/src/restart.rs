//! Kubelet restart decisions: ports of `ShouldContainerBeRestarted`
//! (pkg/kubelet/container/helpers.go) and of `computePodActions` /
//! `computeInitContainerActions` (pkg/kubelet/kuberuntime/kuberuntime_manager.go, commit
//! 000f26050b9be6fb3d79fae95e06b47fc96128cd, and kuberuntime_container.go).
//!
//! Sources: `docs/sources.md#kubelet-restart-decision`, `docs/sources.md#kubelet-pod-actions`,
//! `docs/sources.md#kubelet-probe-failure-kills-the-container`. Conformance rows: upstream
//! `TestComputePodActions`, `TestComputePodActionsWithInitContainers`, and the derived
//! `ShouldContainerBeRestarted` table.

use super::types::{ContainerSpecView, RestartPolicy};

/// `kubecontainer.ContainerState` of the newest runtime record of a container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuntimeState {
    Created,
    Running,
    Exited { exit_code: i32 },
    Unknown,
}

/// `ShouldContainerBeRestarted(container, pod, podStatus)`.
///
/// `runtime` is the state of the newest runtime record of the container (`None` = never
/// created, or all records garbage-collected).
pub fn should_container_be_restarted(
    deletion_timestamp: bool,
    runtime: Option<RuntimeState>,
    restart_policy: RestartPolicy,
) -> bool {
    // Once a pod has been marked deleted, it should not be restarted.
    if deletion_timestamp {
        return false;
    }
    let Some(state) = runtime else {
        return true;
    };
    match state {
        RuntimeState::Running => false,
        // Always restart container in the unknown, or in the created state.
        RuntimeState::Unknown | RuntimeState::Created => true,
        RuntimeState::Exited { exit_code } => match restart_policy {
            RestartPolicy::Never => false,
            RestartPolicy::OnFailure => exit_code != 0,
            RestartPolicy::Always => true,
        },
    }
}

/// The newest pod sandbox as `PodSandboxChanged` sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SandboxView {
    /// `SANDBOX_READY`.
    pub ready: bool,
    /// The sandbox has a pod IP (non-host-network pods).
    pub has_ip: bool,
    /// `Metadata.Attempt`.
    pub attempt: u32,
}

/// The newest runtime record of one container, plus the probe results the kubelet reads
/// for it in `computePodActions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeContainerView {
    pub state: RuntimeState,
    /// `livenessManager.Get(id) == Failure`.
    pub liveness_failed: bool,
    /// `startupManager.Get(id) == Failure`.
    pub startup_failed: bool,
    /// The container has a startup probe whose result is not Success (not run yet, Unknown,
    /// or Failure): `computeInitContainerActions` waits on such a sidecar before it starts the
    /// next init container (`startup != proberesults.Success`: break).
    pub startup_pending: bool,
    /// `containerChanged(container, status)`: the hash of the container's spec differs from
    /// the hash the runtime recorded when it created the container (`HashContainer`, a hash of
    /// the whole `v1.Container`, e.g. after a change of `image`). Only read for a running
    /// regular container.
    pub spec_changed: bool,
}

/// `podActions`, with container IDs replaced by spec indexes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PodActions {
    pub kill_pod: bool,
    pub create_sandbox: bool,
    /// `Attempt` for the new sandbox.
    pub attempt: u32,
    /// `InitContainersToStart`, in spec order.
    pub init_containers_to_start: Vec<usize>,
    /// `ContainersToStart`, in spec order.
    pub containers_to_start: Vec<usize>,
    /// Regular-container entries of `ContainersToKill` (ascending index).
    pub containers_to_kill: Vec<usize>,
    /// Init-container entries of `ContainersToKill` (ascending index).
    pub init_containers_to_kill: Vec<usize>,
}

/// `runtimeutil.PodSandboxChanged`: (changed, attempt). No sandbox → (true, 0); newest not
/// ready, or without an IP → (true, attempt + 1). Several ready sandboxes and a
/// network-namespace change are not modelled.
fn pod_sandbox_changed(sandbox: Option<SandboxView>) -> (bool, u32) {
    match sandbox {
        None => (true, 0),
        Some(s) if !s.ready || !s.has_ip => (true, s.attempt + 1),
        Some(s) => (false, s.attempt),
    }
}

/// `shouldRestartOnFailure(pod)`: `RestartPolicy != Never`.
fn should_restart_on_failure(rp: RestartPolicy) -> bool {
    rp != RestartPolicy::Never
}

/// `isInitContainerFailed` (the OOMKilled reason check is not modelled: the view carries no
/// reason; an OOM-killed container exits non-zero anyway).
fn is_init_container_failed(state: RuntimeState) -> bool {
    matches!(state, RuntimeState::Unknown)
        || matches!(state, RuntimeState::Exited { exit_code } if exit_code != 0)
}

/// `computeInitContainerActions` ("Init progress is checked next"): returns whether the
/// pod has been initialized; fills `InitContainersToStart`, `ContainersToKill` and `KillPod`.
///
/// Sidecars: a running sidecar whose startup probe has no result yet (`startup_pending`) is
/// waited for; the liveness "not run yet → wait" branch changes nothing here (it only skips
/// the kill). In-place resize is not modelled.
fn compute_init_container_actions(
    restart_policy: RestartPolicy,
    init_specs: &[ContainerSpecView],
    init_rt: &[Option<RuntimeContainerView>],
    rt: &[Option<RuntimeContainerView>],
    changes: &mut PodActions,
) -> bool {
    if init_specs.is_empty() {
        return true;
    }
    // A regular container Created or Running means all init containers ran at some point.
    // Exited ones do not count (they may belong to the previous sandbox).
    let mut pod_has_initialized = rt
        .iter()
        .flatten()
        .any(|r| matches!(r.state, RuntimeState::Created | RuntimeState::Running));
    let mut is_previously_initialized = pod_has_initialized;
    let restart_on_failure = should_restart_on_failure(restart_policy);
    let last = init_specs.len() - 1;

    for i in (0..init_specs.len()).rev() {
        let spec = &init_specs[i];
        let sidecar = spec.is_sidecar();
        let Some(status) = init_rt.get(i).copied().flatten() else {
            if is_previously_initialized && sidecar {
                changes.init_containers_to_start.push(i);
            }
            continue;
        };
        if is_previously_initialized && !sidecar {
            // After initialization, only restartable init containers are kept running.
            continue;
        }
        match status.state {
            RuntimeState::Created => changes.init_containers_to_start.push(i),
            RuntimeState::Running => {
                if sidecar {
                    if status.startup_failed {
                        changes.init_containers_to_kill.push(i);
                        changes.init_containers_to_start.push(i);
                    } else if status.startup_pending {
                        // The startup probe has not succeeded yet: wait for it.
                    } else {
                        if i == last {
                            pod_has_initialized = true;
                        } else if !is_previously_initialized {
                            // Initialized for the first time: start the next one.
                            changes.init_containers_to_start.push(i + 1);
                        }
                        if status.liveness_failed {
                            changes.init_containers_to_kill.push(i);
                            changes.init_containers_to_start.push(i);
                        }
                    }
                }
                // A regular init container: nothing to do but wait for it to finish.
            }
            RuntimeState::Exited { .. } => {
                if sidecar {
                    changes.init_containers_to_start.push(i);
                } else if is_init_container_failed(status.state) {
                    if !restart_on_failure {
                        changes.kill_pod = true;
                        changes.init_containers_to_start.clear();
                        return false;
                    }
                    changes.init_containers_to_start.push(i);
                } else if i == last {
                    pod_has_initialized = true;
                } else {
                    changes.init_containers_to_start.push(i + 1);
                }
            }
            RuntimeState::Unknown => {
                if sidecar {
                    changes.init_containers_to_kill.push(i);
                    changes.init_containers_to_start.push(i);
                } else {
                    if !restart_on_failure {
                        changes.kill_pod = true;
                        changes.init_containers_to_start.clear();
                        return false;
                    }
                    changes.init_containers_to_kill.push(i);
                    changes.init_containers_to_start.push(i);
                }
            }
        }
        // The one before this init container has been initialized.
        is_previously_initialized = true;
    }
    // No init container has been started: start the first one.
    if !is_previously_initialized {
        changes.init_containers_to_start.push(0);
    }
    // The loop ran backwards; start in spec order.
    changes.init_containers_to_start.reverse();
    pod_has_initialized
}

/// `computePodActions`.
///
/// * `init_specs`: `pod.Spec.InitContainers` (sidecars are init containers with
///   `restart_policy == Some(Always)`).
/// * `n_containers`: `len(pod.Spec.Containers)`.
/// * `sandbox`: the newest sandbox, `None` = no sandbox at all.
/// * `init_rt[i]` / `rt[i]`: newest runtime record of init / regular container `i`
///   (`None` = never created).
/// * `deletion_timestamp`: passed to `ShouldContainerBeRestarted`.
///
/// Uses the `computeInitContainerActions` path (the one taken whenever the pod has a sidecar
/// or gate `LegacySidecarContainers` is off). A running regular container whose spec hash
/// changed ([`RuntimeContainerView::spec_changed`]) is killed and started again whatever the
/// restart policy ("Container X definition changed, will be restarted"); this check comes
/// before the liveness and startup ones. Ephemeral containers, spec changes of init
/// containers and in-place resize (whose resources-only hash is then compared instead) are
/// not modelled.
pub fn compute_pod_actions(
    restart_policy: RestartPolicy,
    init_specs: &[ContainerSpecView],
    n_containers: usize,
    sandbox: Option<SandboxView>,
    init_rt: &[Option<RuntimeContainerView>],
    rt: &[Option<RuntimeContainerView>],
    deletion_timestamp: bool,
) -> PodActions {
    let (create_pod_sandbox, attempt) = pod_sandbox_changed(sandbox);
    let mut changes = PodActions {
        kill_pod: create_pod_sandbox,
        create_sandbox: create_pod_sandbox,
        attempt,
        ..PodActions::default()
    };
    let regular = |i: usize| rt.get(i).copied().flatten();

    // The sandbox path: the sandbox must be (re-)created; everything is killed and recreated.
    if create_pod_sandbox {
        let any_runtime_record = init_rt.iter().chain(rt.iter()).any(Option::is_some);
        if !should_restart_on_failure(restart_policy) && attempt != 0 && any_runtime_record {
            // Do not create a sandbox for a pod whose containers are done; just kill it.
            changes.create_sandbox = false;
            return changes;
        }
        // Containers to start, excluding the ones that succeeded if RestartPolicy is OnFailure
        // (`containerSucceeded`: Exited with code 0).
        let containers_to_start: Vec<usize> = (0..n_containers)
            .filter(|&i| {
                !(restart_policy == RestartPolicy::OnFailure
                    && matches!(
                        regular(i).map(|r| r.state),
                        Some(RuntimeState::Exited { exit_code: 0 })
                    ))
            })
            .collect();
        if containers_to_start.is_empty() {
            // `hasAnyRegularContainerCreated`: Created, Running or Exited.
            let has_initialized = (0..n_containers).any(|i| {
                matches!(
                    regular(i).map(|r| r.state),
                    Some(
                        RuntimeState::Created | RuntimeState::Running | RuntimeState::Exited { .. }
                    )
                )
            });
            if has_initialized {
                changes.create_sandbox = false;
                return changes;
            }
        }
        if !init_specs.is_empty() {
            changes.init_containers_to_start = vec![0];
            return changes;
        }
        changes.containers_to_start = containers_to_start;
        return changes;
    }

    // The normal path: init progress.
    let has_initialized =
        compute_init_container_actions(restart_policy, init_specs, init_rt, rt, &mut changes);
    if changes.kill_pod || !has_initialized {
        changes.init_containers_to_kill.sort_unstable();
        return changes;
    }

    let mut keep_count = 0usize;
    for idx in 0..n_containers {
        let status = regular(idx);
        match status {
            Some(s) if s.state == RuntimeState::Running => {
                // Running: kill on a spec change and restart regardless of the restart
                // policy, because the container spec changed.
                if s.spec_changed {
                    changes.containers_to_start.push(idx);
                    changes.containers_to_kill.push(idx);
                // Kill on liveness or startup failure; restart unless Never.
                } else if s.liveness_failed || s.startup_failed {
                    if should_restart_on_failure(restart_policy) {
                        changes.containers_to_start.push(idx);
                    }
                    changes.containers_to_kill.push(idx);
                } else {
                    keep_count += 1;
                }
            }
            _ => {
                if should_container_be_restarted(
                    deletion_timestamp,
                    status.map(|s| s.state),
                    restart_policy,
                ) {
                    changes.containers_to_start.push(idx);
                    if status.map(|s| s.state) == Some(RuntimeState::Unknown) {
                        // Unknown: kill first to avoid two running instances.
                        changes.containers_to_kill.push(idx);
                    }
                }
            }
        }
    }

    if keep_count == 0 && changes.containers_to_start.is_empty() {
        changes.kill_pod = true;
        // Do not let sidecars keep the pod alive.
        changes.init_containers_to_start.clear();
    }
    changes.init_containers_to_kill.sort_unstable();
    changes
}
