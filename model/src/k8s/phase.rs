//! Pod phase: a port of the kubelet's `getPhase` (pkg/kubelet/kubelet_pods.go, commit
//! 001a80e975bb880d0fe60b304d30950fe661f278) and of its `podHasInitialized` input.
//!
//! Facts: F 21–27. Conformance rows: VECTORS V1.1–V1.10.

use super::types::{
    ContainerSpecView, ContainerState, ContainerStatus, Gates, Phase, RestartPolicy,
};

/// `podutil.GetContainerStatus(info, name)` over the list `getPhase` receives.
///
/// `generateAPIPodStatus` passes `append(ContainerStatuses, InitContainerStatuses...)`, so a
/// name is looked up in the regular statuses first, then in the init statuses, and the first
/// match wins (F 21).
fn find_status<'a>(
    statuses: &'a [ContainerStatus],
    init_statuses: &'a [ContainerStatus],
    name: &str,
) -> Option<&'a ContainerStatus> {
    statuses
        .iter()
        .chain(init_statuses.iter())
        .find(|s| s.name == name)
}

/// `podutil.ContainerShouldRestart(container, pod.Spec, exitCode)` for containers without
/// `restartPolicyRules` (the view has no rules): the container-level `restartPolicy` wins if
/// set, else the pod's `restartPolicy` (Always → true, OnFailure → exit ≠ 0, Never → false).
///
/// Only read under gate `ContainerRestartRules` (F 25, F 26 step 4).
pub(crate) fn container_should_restart(
    spec: &ContainerSpecView,
    pod_restart_policy: RestartPolicy,
    exit_code: i32,
) -> bool {
    match spec.restart_policy.unwrap_or(pod_restart_policy) {
        RestartPolicy::Always => true,
        RestartPolicy::OnFailure => exit_code != 0,
        RestartPolicy::Never => false,
    }
}

/// The kubelet's `getPhase` (F 22–27).
///
/// * `init_specs` / `specs`: `pod.Spec.InitContainers` / `pod.Spec.Containers`.
/// * `init_statuses` / `statuses`: the API container statuses; looked up by container name
///   (regular list first, then init list, as upstream concatenates them).
/// * `pod_is_terminal`: the caller's `podIsTerminal` (terminating / terminal sync paths).
/// * `pod_has_initialized`: `HasAnyActiveRegularContainerStarted` (see
///   [`has_any_regular_container_started`]).
/// * `is_static`: `kubetypes.IsStaticPod(pod)`; static pods never get a terminal phase from
///   `podIsTerminal` (TODO #116484 upstream, F 27).
/// * `gates.container_restart_rules`: gate `ContainerRestartRules` (container-level
///   `restartPolicy` is honoured by `ContainerShouldRestart`, F 25, F 26).
///
/// Gate `RestartAllContainersOnContainerExits` is not modelled (no `restartPolicyRules` in
/// [`ContainerSpecView`] and no such field in [`Gates`]), so the `RestartingAllContainers`
/// reason check upstream is never applied.
#[allow(clippy::too_many_arguments)]
pub fn get_phase(
    restart_policy: RestartPolicy,
    init_specs: &[ContainerSpecView],
    specs: &[ContainerSpecView],
    init_statuses: &[ContainerStatus],
    statuses: &[ContainerStatus],
    pod_is_terminal: bool,
    pod_has_initialized: bool,
    is_static: bool,
    gates: Gates,
) -> Phase {
    let rules = gates.container_restart_rules;
    let mut pending_restartable_init = 0u32;
    let mut pending_regular_init = 0u32;
    let mut failed_initialization = 0u32;
    let mut failed_initialization_not_restartable = 0u32;

    // Regular (non-restartable) init containers, F 22.
    for c in init_specs.iter().filter(|c| !c.is_sidecar()) {
        let Some(cs) = find_status(statuses, init_statuses, &c.name) else {
            pending_regular_init += 1;
            continue;
        };
        match &cs.state {
            ContainerState::Running => pending_regular_init += 1,
            ContainerState::Terminated(t) => {
                if t.exit_code != 0 {
                    failed_initialization += 1;
                    if rules && !container_should_restart(c, restart_policy, t.exit_code) {
                        failed_initialization_not_restartable += 1;
                    }
                }
            }
            ContainerState::Waiting { .. } => match &cs.last_state {
                Some(last) => {
                    if last.exit_code != 0 {
                        failed_initialization += 1;
                        // Upstream computes this one without the gate check; it is read
                        // only under the gate.
                        if !container_should_restart(c, restart_policy, last.exit_code) {
                            failed_initialization_not_restartable += 1;
                        }
                    }
                }
                None => pending_regular_init += 1,
            },
            ContainerState::None => pending_regular_init += 1,
        }
    }

    let mut unknown = 0u32;
    let mut running = 0u32;
    let mut waiting = 0u32;
    let mut stopped = 0u32;
    let mut stopped_not_restartable = 0u32;
    let mut succeeded = 0u32;

    // Sidecars (restartable init containers), F 23.
    for c in init_specs.iter().filter(|c| c.is_sidecar()) {
        let Some(cs) = find_status(statuses, init_statuses, &c.name) else {
            unknown += 1;
            continue;
        };
        match &cs.state {
            ContainerState::Running => {
                if cs.started != Some(true) {
                    pending_restartable_init += 1;
                }
                running += 1;
            }
            // Terminated sidecars are not taken into account for the pod phase.
            ContainerState::Terminated(_) => {}
            ContainerState::Waiting { .. } => {
                if cs.last_state.is_none() {
                    pending_restartable_init += 1;
                    waiting += 1;
                }
            }
            ContainerState::None => {
                pending_restartable_init += 1;
                unknown += 1;
            }
        }
    }

    // Regular containers, F 24.
    for c in specs {
        let Some(cs) = find_status(statuses, init_statuses, &c.name) else {
            unknown += 1;
            continue;
        };
        match &cs.state {
            ContainerState::Running => running += 1,
            ContainerState::Terminated(t) => {
                stopped += 1;
                if rules && !container_should_restart(c, restart_policy, t.exit_code) {
                    stopped_not_restartable += 1;
                }
                if t.exit_code == 0 {
                    succeeded += 1;
                }
            }
            ContainerState::Waiting { .. } => match &cs.last_state {
                Some(last) => {
                    // `succeeded` is NOT incremented here, even for a last exit of 0 (F 24).
                    stopped += 1;
                    if rules && !container_should_restart(c, restart_policy, last.exit_code) {
                        stopped_not_restartable += 1;
                    }
                }
                None => waiting += 1,
            },
            ContainerState::None => unknown += 1,
        }
    }

    // F 25.
    if rules {
        if failed_initialization_not_restartable > 0 {
            return Phase::Failed;
        }
    } else if failed_initialization > 0 && restart_policy == RestartPolicy::Never {
        return Phase::Failed;
    }

    // F 26.
    if pending_regular_init > 0 || (pending_restartable_init > 0 && !pod_has_initialized) {
        return Phase::Pending;
    }
    if waiting > 0 {
        return Phase::Pending;
    }
    if running > 0 && unknown == 0 {
        return Phase::Running;
    }
    if running == 0 && stopped > 0 && unknown == 0 {
        // F 27: a terminal pod's containers will not be restarted whatever the policy.
        if pod_is_terminal && !is_static {
            return if stopped == succeeded {
                Phase::Succeeded
            } else {
                Phase::Failed
            };
        }
        if rules {
            if stopped != stopped_not_restartable {
                return Phase::Running;
            }
            return if stopped == succeeded {
                Phase::Succeeded
            } else {
                Phase::Failed
            };
        }
        if restart_policy == RestartPolicy::Always {
            return Phase::Running;
        }
        if stopped == succeeded {
            return Phase::Succeeded;
        }
        if restart_policy == RestartPolicy::Never {
            return Phase::Failed;
        }
        return Phase::Running;
    }
    Phase::Pending
}

/// `kubecontainer.HasAnyRegularContainerStarted(spec, statuses)` (pkg/kubelet/container/helpers.go):
/// true iff some status whose name is a regular container is Running or Terminated.
///
/// This is the API-status form. Upstream `generateAPIPodStatus` now feeds `getPhase` with
/// `HasAnyActiveRegularContainerStarted(spec, runtimePodStatus)` (any runtime record of a
/// regular container in the *current* sandbox, F 21); the API form is marked deprecated there
/// because it is wrong after a sandbox re-creation. `GeneratePodInitializedCondition` still
/// uses this API form (F 41).
pub fn has_any_regular_container_started(
    specs: &[ContainerSpecView],
    statuses: &[ContainerStatus],
) -> bool {
    statuses.iter().any(|s| {
        specs.iter().any(|c| c.name == s.name)
            && matches!(
                s.state,
                ContainerState::Running | ContainerState::Terminated(_)
            )
    })
}
