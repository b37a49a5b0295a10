//! Kubelet-owned pod conditions: ports of `GeneratePodInitializedCondition`,
//! `GeneratePodReadyCondition` and `GenerateContainersReadyCondition`
//! (pkg/kubelet/status/generate.go), and of the probe manager's `UpdatePodStatus`
//! Started/Ready rule (pkg/kubelet/prober/prober_manager.go).
//!
//! Sources: `docs/sources.md#kubelet-pod-conditions`, `docs/sources.md#kubelet-probe-results`.
//! Readiness gates are not modelled (the pod has none), so Ready is ContainersReady with type "Ready"
//! (`GeneratePodReadyCondition`).

use super::phase::has_any_regular_container_started;
use super::types::{Condition, ConditionStatus, ContainerSpecView, ContainerStatus, Phase};

/// Condition type strings (`v1.PodInitialized`, `v1.PodReady`, `v1.ContainersReady`).
pub const CONDITION_INITIALIZED: &str = "Initialized";
pub const CONDITION_READY: &str = "Ready";
pub const CONDITION_CONTAINERS_READY: &str = "ContainersReady";

/// Reason constants of generate.go.
pub const REASON_UNKNOWN_CONTAINER_STATUSES: &str = "UnknownContainerStatuses";
pub const REASON_POD_COMPLETED: &str = "PodCompleted";
pub const REASON_POD_FAILED: &str = "PodFailed";
pub const REASON_CONTAINERS_NOT_READY: &str = "ContainersNotReady";
pub const REASON_CONTAINERS_NOT_INITIALIZED: &str = "ContainersNotInitialized";

fn cond(type_: &str, status: ConditionStatus, reason: &str) -> Condition {
    Condition {
        type_: type_.to_string(),
        status,
        reason: reason.to_string(),
    }
}

/// `podutil.GetContainerStatus` over `allContainerStatuses := append(InitContainerStatuses,
/// ContainerStatuses...)` as built in `generateAPIPodStatus`: init statuses first.
fn find<'a>(
    init_statuses: &'a [ContainerStatus],
    statuses: &'a [ContainerStatus],
    name: &str,
) -> Option<&'a ContainerStatus> {
    init_statuses
        .iter()
        .chain(statuses.iter())
        .find(|s| s.name == name)
}

/// `GenerateContainersReadyCondition` (`pkg/kubelet/status/generate.go`).
fn containers_ready(
    init_specs: &[ContainerSpecView],
    specs: &[ContainerSpecView],
    init_statuses: &[ContainerStatus],
    statuses: &[ContainerStatus],
    phase: Phase,
) -> Condition {
    // `containerStatuses == nil`: the concatenation of two empty lists is nil in Go.
    if init_statuses.is_empty() && statuses.is_empty() {
        return cond(
            CONDITION_CONTAINERS_READY,
            ConditionStatus::False,
            REASON_UNKNOWN_CONTAINER_STATUSES,
        );
    }
    let mut unknown = 0usize;
    let mut unready = 0usize;
    for c in init_specs
        .iter()
        .filter(|c| c.is_sidecar())
        .chain(specs.iter())
    {
        match find(init_statuses, statuses, &c.name) {
            Some(s) => {
                if !s.ready {
                    unready += 1;
                }
            }
            None => unknown += 1,
        }
    }
    if phase == Phase::Succeeded && unknown == 0 {
        return cond(
            CONDITION_CONTAINERS_READY,
            ConditionStatus::False,
            REASON_POD_COMPLETED,
        );
    }
    if phase == Phase::Failed {
        return cond(
            CONDITION_CONTAINERS_READY,
            ConditionStatus::False,
            REASON_POD_FAILED,
        );
    }
    if unknown > 0 || unready > 0 {
        return cond(
            CONDITION_CONTAINERS_READY,
            ConditionStatus::False,
            REASON_CONTAINERS_NOT_READY,
        );
    }
    cond(CONDITION_CONTAINERS_READY, ConditionStatus::True, "")
}

/// `isInitContainerInitialized`: a sidecar must have `Started == true`, a regular init
/// container must be `Ready`.
fn is_init_container_initialized(spec: &ContainerSpecView, s: &ContainerStatus) -> bool {
    if spec.is_sidecar() {
        s.started == Some(true)
    } else {
        s.ready
    }
}

/// `GeneratePodInitializedCondition`, without the `RestartAllContainersOnContainerExits`
/// carry-over of an old Initialized=True condition (gate not modelled).
fn initialized(
    init_specs: &[ContainerSpecView],
    specs: &[ContainerSpecView],
    init_statuses: &[ContainerStatus],
    statuses: &[ContainerStatus],
    phase: Phase,
) -> Condition {
    if init_statuses.is_empty() && statuses.is_empty() && !init_specs.is_empty() {
        return cond(
            CONDITION_INITIALIZED,
            ConditionStatus::False,
            REASON_UNKNOWN_CONTAINER_STATUSES,
        );
    }
    let mut unknown = 0usize;
    let mut incomplete = 0usize;
    for c in init_specs {
        match find(init_statuses, statuses, &c.name) {
            None => unknown += 1,
            Some(s) => {
                if !is_init_container_initialized(c, s) {
                    incomplete += 1;
                }
            }
        }
    }
    if phase == Phase::Succeeded && unknown == 0 {
        return cond(
            CONDITION_INITIALIZED,
            ConditionStatus::True,
            REASON_POD_COMPLETED,
        );
    }
    // `HasAnyRegularContainerStarted(&pod.Spec, allContainerStatuses)`.
    let all: Vec<ContainerStatus> = init_statuses.iter().chain(statuses).cloned().collect();
    if has_any_regular_container_started(specs, &all) {
        return cond(CONDITION_INITIALIZED, ConditionStatus::True, "");
    }
    if unknown > 0 || incomplete > 0 {
        return cond(
            CONDITION_INITIALIZED,
            ConditionStatus::False,
            REASON_CONTAINERS_NOT_INITIALIZED,
        );
    }
    cond(CONDITION_INITIALIZED, ConditionStatus::True, "")
}

/// The kubelet-owned conditions in the order `generateAPIPodStatus` appends them:
/// `[Initialized, Ready, ContainersReady]`. PodReadyToStartContainers (gate) and PodScheduled
/// (always True) are not returned.
///
/// `phase` is the phase already computed by [`super::get_phase`] (after the terminal-phase
/// merge, `docs/sources.md#kubelet-status-merge`). With no readiness gates, Ready copies
/// ContainersReady's status and reason (`GeneratePodReadyCondition`).
pub fn generate_conditions(
    init_specs: &[ContainerSpecView],
    specs: &[ContainerSpecView],
    init_statuses: &[ContainerStatus],
    statuses: &[ContainerStatus],
    phase: Phase,
) -> Vec<Condition> {
    let init = initialized(init_specs, specs, init_statuses, statuses, phase);
    let cr = containers_ready(init_specs, specs, init_statuses, statuses, phase);
    let ready = cond(CONDITION_READY, cr.status, &cr.reason);
    vec![init, ready, cr]
}

/// Started/Ready of one container as set by the probe manager's `UpdatePodStatus`
/// (`pkg/kubelet/prober/prober_manager.go`).
///
/// * Started: `false` if not running; else if a startup probe exists, `true` only once its
///   result is Success (a probe with no result yet has a worker, so `!exists` is false too);
///   else `true`. Upstream always writes the pointer, so the result is always `Some`.
/// * Ready: left `false` when not started; else `true` iff running and the readiness result
///   is Success, or there is no readiness probe ("no readinessProbe -> always ready").
///
/// The kubelet-restart grace-period adjustment in `UpdatePodStatus` is not modelled.
pub fn container_started_and_ready(
    running: bool,
    has_startup_probe: bool,
    startup_success: bool,
    has_readiness_probe: bool,
    readiness_success: bool,
) -> (Option<bool>, bool) {
    let started = running && (!has_startup_probe || startup_success);
    if !started {
        return (Some(false), false);
    }
    let ready = running && (!has_readiness_probe || readiness_success);
    (Some(true), ready)
}
