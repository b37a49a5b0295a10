//! Pod phase: a port of the kubelet's `getPhase` (pkg/kubelet/kubelet_pods.go, commit
//! 001a80e975bb880d0fe60b304d30950fe661f278) and of its `podHasInitialized` input.
//!
//! Sources: `docs/sources.md#kubelet-pod-phase`,
//! `docs/sources.md#kubelet-terminal-phase-of-a-deleted-pod`. Conformance rows: upstream
//! `TestPodPhaseWith…` in `kubelet_pods_test.go`.

use super::types::{
    ContainerRestartRule, ContainerRestartRuleAction, ContainerSpecView, ContainerState,
    ContainerStatus, Gates, Phase, RestartPolicy, Terminated,
};

/// `podutil.GetContainerStatus(info, name)` over the list `getPhase` receives.
///
/// `generateAPIPodStatus` passes `append(ContainerStatuses, InitContainerStatuses...)`, so a
/// name is looked up in the regular statuses first, then in the init statuses, and the first
/// match wins.
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

/// Reason `RestartingAllContainers` (kubelet_pods.go "Container state reason list"): the
/// kubelet's waiting reason and terminated reason for containers removed by a
/// `RestartAllContainers` action (KEP-5532).
pub const RESTARTING_ALL_CONTAINERS: &str = "RestartingAllContainers";

/// `podutil.findMatchingContainerRestartRule(container, exitCode)` (pkg/api/v1/pod/util.go):
/// the first rule, in order, whose `exitCodes` requirement holds; rules without `exitCodes`
/// are skipped.
fn find_matching_container_restart_rule(
    spec: &ContainerSpecView,
    exit_code: i32,
) -> Option<&ContainerRestartRule> {
    spec.restart_policy_rules.iter().find(|rule| {
        rule.exit_codes
            .as_ref()
            .is_some_and(|ec| ec.operator.matches(exit_code, &ec.values))
    })
}

/// `podutil.ContainerShouldRestart(container, pod.Spec, exitCode)` (pkg/api/v1/pod/util.go).
///
/// If the container-level `restartPolicy` is set: first the container's `restartPolicyRules`
/// are tried in order, and a matched `Restart` rule → true; a matched `RestartAllContainers`
/// rule → true with gate `RestartAllContainersOnContainerExits`; otherwise (no match, or
/// the gate is off) the container-level policy decides. If it is not set, the pod's
/// `restartPolicy` decides. Policies: Always → true, OnFailure → exit ≠ 0, Never → false.
///
/// Only read under gate `ContainerRestartRules` (the stopped-container branch of `getPhase`).
///
/// Reading note: the `RestartAllContainers` arm is not in the only copy of util.go with
/// restart rules that could be read (it predates KEP-5532: there a matched rule other than
/// `Restart` falls through to the container-level policy). The arm is required by upstream
/// `TestPodPhaseWithRestartAllContainers` at the commit above (its cases "regular container
/// triggers RestartAllContainers" and "init container triggered RestartAllContainers": a
/// container with restartPolicy Never whose exit 42 matches a `RestartAllContainers` rule,
/// with no `RestartingAllContainers` reason, must count as restartable), and a third-party
/// TypeScript port of util.go has it ("case RestartAllContainers: return true", commented
/// as the gate's default). That it is behind the gate is taken from that comment.
pub(crate) fn container_should_restart(
    spec: &ContainerSpecView,
    pod_restart_policy: RestartPolicy,
    exit_code: i32,
    gates: Gates,
) -> bool {
    if let Some(container_policy) = spec.restart_policy {
        if let Some(rule) = find_matching_container_restart_rule(spec, exit_code) {
            match rule.action {
                ContainerRestartRuleAction::Restart => return true,
                ContainerRestartRuleAction::RestartAllContainers
                    if gates.restart_all_containers_on_container_exits =>
                {
                    return true
                }
                // Fall back to the container-level restart policy.
                ContainerRestartRuleAction::RestartAllContainers => {}
            }
        }
        return policy_restarts(container_policy, exit_code);
    }
    policy_restarts(pod_restart_policy, exit_code)
}

fn policy_restarts(policy: RestartPolicy, exit_code: i32) -> bool {
    match policy {
        RestartPolicy::Always => true,
        RestartPolicy::OnFailure => exit_code != 0,
        RestartPolicy::Never => false,
    }
}

/// The "restartable" value `getPhase` computes for a failed or stopped container:
/// `ContainerShouldRestart(...)`, or'ed with gate `RestartAllContainersOnContainerExits`
/// with "the terminated state it looked at has reason `RestartingAllContainers`" (the
/// container was removed by a `RestartAllContainers` action and will be re-run).
fn restartable(
    spec: &ContainerSpecView,
    pod_restart_policy: RestartPolicy,
    terminated: &Terminated,
    gates: Gates,
) -> bool {
    container_should_restart(spec, pod_restart_policy, terminated.exit_code, gates)
        || (gates.restart_all_containers_on_container_exits
            && terminated.reason == RESTARTING_ALL_CONTAINERS)
}

/// The kubelet's `getPhase`.
///
/// * `init_specs` / `specs`: `pod.Spec.InitContainers` / `pod.Spec.Containers`.
/// * `init_statuses` / `statuses`: the API container statuses; looked up by container name
///   (regular list first, then init list, as upstream concatenates them).
/// * `pod_is_terminal`: the caller's `podIsTerminal` (terminating / terminal sync paths).
/// * `pod_has_initialized`: `HasAnyActiveRegularContainerStarted` (see
///   [`has_any_regular_container_started`]).
/// * `is_static`: `kubetypes.IsStaticPod(pod)`; static pods never get a terminal phase from
///   `podIsTerminal` (TODO #116484 upstream).
/// * `gates.container_restart_rules`: gate `ContainerRestartRules` (container-level
///   `restartPolicy` and `restartPolicyRules` are honoured by `ContainerShouldRestart`).
/// * `gates.restart_all_containers_on_container_exits`: gate
///   `RestartAllContainersOnContainerExits`. Wherever upstream computes "restartable" for a
///   failed init container or a stopped regular container, it becomes
///   `ContainerShouldRestart(...) || terminated.Reason == RestartingAllContainers`, where
///   `terminated` is `State.Terminated` or, for a Waiting container,
///   `LastTerminationState.Terminated`. Sidecars are unaffected (their terminated states are
///   ignored). Conformance rows: upstream `TestPodPhaseWithRestartAllContainers`.
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
    let can_restart =
        |c: &ContainerSpecView, t: &Terminated| restartable(c, restart_policy, t, gates);
    let mut pending_restartable_init = 0u32;
    let mut pending_regular_init = 0u32;
    let mut failed_initialization = 0u32;
    let mut failed_initialization_not_restartable = 0u32;

    // Regular (non-restartable) init containers.
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
                    if rules && !can_restart(c, t) {
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
                        if !can_restart(c, last) {
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

    // Sidecars (restartable init containers).
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

    // Regular containers.
    for c in specs {
        let Some(cs) = find_status(statuses, init_statuses, &c.name) else {
            unknown += 1;
            continue;
        };
        match &cs.state {
            ContainerState::Running => running += 1,
            ContainerState::Terminated(t) => {
                stopped += 1;
                if rules && !can_restart(c, t) {
                    stopped_not_restartable += 1;
                }
                if t.exit_code == 0 {
                    succeeded += 1;
                }
            }
            ContainerState::Waiting { .. } => match &cs.last_state {
                Some(last) => {
                    // `succeeded` is NOT incremented here, even for a last exit of 0.
                    stopped += 1;
                    if rules && !can_restart(c, last) {
                        stopped_not_restartable += 1;
                    }
                }
                None => waiting += 1,
            },
            ContainerState::None => unknown += 1,
        }
    }

    // A failed init container that will not be restarted fails the pod.
    if rules {
        if failed_initialization_not_restartable > 0 {
            return Phase::Failed;
        }
    } else if failed_initialization > 0 && restart_policy == RestartPolicy::Never {
        return Phase::Failed;
    }

    // The decision order.
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
        // Since 1.27 (PR #115331): a terminal pod's containers will not be restarted whatever the policy.
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
/// regular container in the *current* sandbox); the API form is marked deprecated there
/// because it is wrong after a sandbox re-creation. `GeneratePodInitializedCondition` still
/// uses this API form.
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
