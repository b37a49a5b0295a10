//! Container status conversion: a port of the kubelet's `convertToAPIContainerStatuses`
//! (pkg/kubelet/kubelet_pods.go, commit 001a80e975bb880d0fe60b304d30950fe661f278), which turns
//! the runtime's container records plus the previous API statuses into the API
//! `containerStatuses` / `initContainerStatuses` / `ephemeralContainerStatuses` lists.
//!
//! Source: `docs/sources.md#kubelet-container-statuses`. Conformance rows: upstream
//! `TestConvertToAPIContainerStatuses`.
//!
//! The port follows the upstream function step by step:
//! 1. every container starts from the default waiting state; a previous `Terminated` status is
//!    reused whole, otherwise RestartCount and LastTerminationState are carried over;
//! 2. a container that was Running before and has no runtime record left gets a
//!    `ContainerStatusUnknown` last termination;
//! 3. the two newest runtime records per name fill State and LastTerminationState;
//! 4. containers the kubelet will restart get `Waiting{reason}` from the reason cache, and init
//!    containers that exited 0 are left alone;
//! 5. the list is ordered: init containers in spec order (`SortStatusesOfInitContainers`),
//!    others by name (`SortedContainerStatuses`).
//!
//! Gate `RestartAllContainersOnContainerExits` (alpha in 1.35, default false in
//! pkg/features/kube_features.go; KEP-5532) is an input,
//! [`ConvertInput::restart_all_containers_on_container_exits`], off by default, together with
//! the `podRestarting` argument ([`ConvertInput::pod_restarting`], which the kubelet sets while
//! the pod's `AllContainersRestarting` condition is true). With the gate on, the port takes the
//! upstream gated branches:
//! * in `convertContainerStatus`, the old RestartCount is kept when it is higher than the
//!   runtime's; when the container ID changed and the old state was Terminated, the old
//!   terminated state becomes LastTerminationState (RestartAllContainers removes the old
//!   containers, so the runtime no longer has them), else the old LastTerminationState is
//!   carried; a Running record whose old status was Terminated with a RestartCount at least the
//!   runtime's gets the old count + 1;
//! * an Unknown record whose old status was Running gets reason `RestartingAllContainers`
//!   instead of `ContainerStatusUnknown` while the pod is restarting;
//! * a container with no runtime record while the pod is restarting, whose old state was not
//!   Waiting, becomes `Waiting{RestartingAllContainers}` with last termination
//!   `{RestartingAllContainers, 137}` and the old RestartCount + 1.
//!
//! The container ID is [`RuntimeRecord::id`] and [`ContainerStatus::container_id`]. What the
//! model's kubelet does not reach: it runs with the gate off and never sets `podRestarting`
//! (it does not model the `RestartAllContainers` action of a container restart rule end to
//! end: no `AllContainersRestarting` condition, no in-place removal of every container), and
//! it leaves both IDs empty. The gated branches are checked by the conformance tests only.
//!
//! Not modelled, and why:
//! * Gate `ChangeContainerStatusOnKubeletRestart` (deprecated, default false at this commit):
//!   the default is hard-wired, so `Started` is copied from the old status for Running
//!   records.
//! * Messages, Image/ImageID/ContainerID, VolumeMounts, Resources, User and StopSignal:
//!   [`ContainerStatus`] and [`Terminated`] have no fields for them. The message strings are
//!   kept below as constants for reference.
//! * `ShouldContainerBeRestarted` is [`should_container_be_restarted`] (restart.rs), which reads
//!   the pod-level restart policy only.

use super::phase::RESTARTING_ALL_CONTAINERS;
use super::restart::{should_container_be_restarted, RuntimeState};
use super::types::{ContainerSpecView, ContainerState, ContainerStatus, RestartPolicy, Terminated};

/// `ContainerCreating`: the default waiting reason when the pod has no init containers.
pub const CONTAINER_CREATING: &str = "ContainerCreating";
/// `PodInitializing`: the default waiting reason when the pod has init containers.
pub const POD_INITIALIZING: &str = "PodInitializing";
/// `kubecontainer.ContainerReasonStatusUnknown`.
pub const CONTAINER_STATUS_UNKNOWN: &str = "ContainerStatusUnknown";
/// Reason given to an init container whose record is gone after initialization.
pub const REASON_COMPLETED: &str = "Completed";
/// Message of the Unknown-after-Running termination. Not stored: no message field.
pub const MESSAGE_NOT_LOCATED_TERMINATED: &str =
    "The container could not be located when the pod was terminated";
/// Message of the vanished-container last termination (two spaces, as upstream).
/// Not stored: no message field.
pub const MESSAGE_NOT_LOCATED_DELETED: &str =
    "The container could not be located when the pod was deleted.  The container used to be Running";
/// Message of the assumed-completed init container. Not stored: no message field.
pub const MESSAGE_INIT_TREATED_AS_EXITED: &str = "Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally";

/// Message of the `RestartingAllContainers` waiting state and last termination. Not stored:
/// no message field.
pub const MESSAGE_REMOVED_RESTART_ALL: &str =
    "The container is removed because RestartAllContainers in place";

/// Exit code the kubelet writes when it could not locate a container that used to run.
const EXIT_CODE_NOT_LOCATED: i32 = 137;

/// One runtime container record (`kubecontainer.Status`), as far as the conversion reads it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeRecord {
    /// `State`; for `Exited`, the `ExitCode` too.
    pub state: RuntimeState,
    /// `Reason` (for Exited records: e.g. `Completed`, `Error`, `OOMKilled`); copied as given.
    pub reason: String,
    /// `RestartCount` (the runtime's restart-count label, best effort: `GetPodStatus`).
    pub restart_count: u32,
    /// `FinishedAt`, as seconds before "now", for Exited records; copied into
    /// [`Terminated::finished_ago`].
    pub finished_ago: Option<u64>,
    /// `ID.String()` (`type://id`), copied into [`ContainerStatus::container_id`]. Read only
    /// with gate `RestartAllContainersOnContainerExits`, to tell a new container from the one
    /// the old status describes.
    pub id: String,
}

impl RuntimeRecord {
    /// A record with the given state, no reason, restart count 0 and no finish time.
    pub fn new(state: RuntimeState) -> Self {
        RuntimeRecord {
            state,
            reason: String::new(),
            restart_count: 0,
            finished_ago: None,
            id: String::new(),
        }
    }
}

/// The inputs of `convertToAPIContainerStatuses(pod, podStatus, previousStatus, containers,
/// …, hasInitContainers, isInitContainer, podRestarting)`.
#[derive(Clone, Copy, Debug)]
pub struct ConvertInput<'a> {
    /// `containers`: the spec list being converted (`pod.Spec.Containers`,
    /// `pod.Spec.InitContainers` or the ephemeral containers).
    pub specs: &'a [ContainerSpecView],
    /// `previousStatus`: the old API statuses of the same list.
    pub previous: &'a [ContainerStatus],
    /// `podStatus.ContainerStatuses` grouped by container name, each group newest first (the
    /// order `GetPodStatus` returns and the sort by creation time restores). Records of names
    /// not in `specs` are ignored, except by [`has_any_regular_container_created`].
    pub runtime: &'a [(String, Vec<RuntimeRecord>)],
    /// `kl.reasonCache`: container name → last start-failure reason (`reason.Err.Error()`,
    /// e.g. `CrashLoopBackOff`, `ErrImagePull`, `ImagePullBackOff`).
    pub reason_cache: &'a [(String, String)],
    /// `isInitContainer`.
    pub is_init: bool,
    /// `hasInitContainers` (`len(pod.Spec.InitContainers) > 0`).
    pub has_init_containers: bool,
    /// `pod.DeletionTimestamp != nil`.
    pub deletion_timestamp: bool,
    /// `pod.Spec.RestartPolicy`, for `ShouldContainerBeRestarted`.
    pub restart_policy: RestartPolicy,
    /// `kuberuntime.HasAnyRegularContainerCreated(pod, podStatus)`; only read when `is_init`.
    /// See [`has_any_regular_container_created`].
    pub any_regular_container_created: bool,
    /// Gate `RestartAllContainersOnContainerExits` (KEP-5532). Off by default.
    pub restart_all_containers_on_container_exits: bool,
    /// `podRestarting`: the pod is being restarted in place by a `RestartAllContainers` rule.
    /// Only read with the gate on.
    pub pod_restarting: bool,
}

/// `kuberuntime.HasAnyRegularContainerCreated` (pkg/kubelet/kuberuntime/kuberuntime_manager.go):
/// true if the newest runtime record of any regular container is Created, Running or Exited.
pub fn has_any_regular_container_created(
    regular_specs: &[ContainerSpecView],
    runtime: &[(String, Vec<RuntimeRecord>)],
) -> bool {
    regular_specs.iter().any(|c| {
        matches!(
            newest_record(runtime, &c.name).map(|r| r.state),
            Some(RuntimeState::Created | RuntimeState::Running | RuntimeState::Exited { .. })
        )
    })
}

/// All runtime records of `name`, newest first.
fn records<'a>(
    runtime: &'a [(String, Vec<RuntimeRecord>)],
    name: &'a str,
) -> impl Iterator<Item = &'a RuntimeRecord> + 'a {
    runtime
        .iter()
        .filter(move |(n, _)| n == name)
        .flat_map(|(_, recs)| recs.iter())
}

/// `podStatus.FindContainerStatusByName(name)`: the newest record of `name`.
fn newest_record<'a>(
    runtime: &'a [(String, Vec<RuntimeRecord>)],
    name: &'a str,
) -> Option<&'a RuntimeRecord> {
    records(runtime, name).next()
}

/// `oldStatuses[name]`: the map is filled in list order, so the last entry of a name wins.
fn old_status<'a>(previous: &'a [ContainerStatus], name: &str) -> Option<&'a ContainerStatus> {
    previous.iter().rev().find(|s| s.name == name)
}

fn waiting(reason: &str) -> ContainerState {
    ContainerState::Waiting {
        reason: reason.to_string(),
    }
}

fn terminated(exit_code: i32, reason: &str) -> Terminated {
    Terminated {
        exit_code,
        reason: reason.to_string(),
        signal: 0,
        finished_ago: None,
    }
}

/// The `convertContainerStatus` closure. `gate` is `RestartAllContainersOnContainerExits`.
fn convert_container_status(
    name: &str,
    cs: &RuntimeRecord,
    old: Option<&ContainerStatus>,
    gate: bool,
    pod_restarting: bool,
) -> ContainerStatus {
    let mut status = ContainerStatus {
        name: name.to_string(),
        restart_count: cs.restart_count,
        container_id: cs.id.clone(),
        ..ContainerStatus::default()
    };
    if let (Some(o), true) = (old, gate) {
        if o.restart_count > status.restart_count {
            status.restart_count = o.restart_count;
        }
        // A normal restart keeps the old container in the runtime, so its termination is
        // read from there; RestartAllContainers removes the old containers, so the old
        // terminated state is carried over when the container ID changed.
        match &o.state {
            ContainerState::Terminated(t) if o.container_id != status.container_id => {
                status.last_state = Some(t.clone());
            }
            _ => {
                if let Some(t) = &o.last_state {
                    status.last_state = Some(t.clone());
                }
            }
        }
    }
    match cs.state {
        RuntimeState::Running => {
            status.state = ContainerState::Running;
            if gate {
                if let Some(o) = old {
                    if matches!(o.state, ContainerState::Terminated(_))
                        && o.restart_count >= cs.restart_count
                    {
                        status.restart_count = o.restart_count + 1;
                    }
                }
            }
        }
        // Containers that are created but not running are "waiting to be running".
        RuntimeState::Created => status.state = waiting(""),
        RuntimeState::Exited { exit_code } => {
            status.state = ContainerState::Terminated(Terminated {
                exit_code,
                reason: cs.reason.clone(),
                signal: 0,
                finished_ago: cs.finished_ago,
            });
        }
        // Unknown, and the previous status was Running: the container ran and is gone, so it
        // is reported as terminated rather than waiting, and the restart count is bumped by
        // hand because the CRI did not report it.
        RuntimeState::Unknown => match old {
            Some(o) if o.state == ContainerState::Running => {
                let reason = if gate && pod_restarting {
                    RESTARTING_ALL_CONTAINERS
                } else {
                    CONTAINER_STATUS_UNKNOWN
                };
                status.state =
                    ContainerState::Terminated(terminated(EXIT_CODE_NOT_LOCATED, reason));
                status.restart_count = o.restart_count + 1;
            }
            // Any other unknown state collapses to waiting.
            _ => status.state = waiting(""),
        },
    }
    // Gate ChangeContainerStatusOnKubeletRestart off (its default at this commit): a running
    // container keeps the old `started`.
    if cs.state == RuntimeState::Running {
        if let Some(started) = old.and_then(|o| o.started) {
            status.started = Some(started);
        }
    }
    status
}

/// The kubelet's `convertToAPIContainerStatuses` (see the module notes for the gate).
///
/// Returns one status per entry of `input.specs`: in spec order if `input.is_init`, else
/// sorted by name. `ready` is never set here (upstream does not set it in this function),
/// except that a reused previous `Terminated` status keeps all its fields.
pub fn convert_to_api_container_statuses(input: &ConvertInput) -> Vec<ContainerStatus> {
    let specs = input.specs;
    let default_reason = if input.has_init_containers {
        POD_INITIALIZING
    } else {
        CONTAINER_CREATING
    };

    // Step 1: default waiting state; a previous Terminated status is reused
    // as-is, otherwise RestartCount and LastTerminationState carry over.
    let mut statuses: Vec<ContainerStatus> = specs
        .iter()
        .map(|c| match old_status(input.previous, &c.name) {
            Some(old) if matches!(old.state, ContainerState::Terminated(_)) => old.clone(),
            old => ContainerStatus {
                name: c.name.clone(),
                state: waiting(default_reason),
                last_state: old.and_then(|o| o.last_state.clone()),
                restart_count: old.map_or(0, |o| o.restart_count),
                ..ContainerStatus::default()
            },
        })
        .collect();

    // Step 2: a container with no runtime record that was Running before.
    for (c, status) in specs.iter().zip(statuses.iter_mut()) {
        if newest_record(input.runtime, &c.name).is_some() {
            continue;
        }
        let Some(old) = old_status(input.previous, &c.name) else {
            continue;
        };
        // Removed by a RestartAllContainers restart in place, and not Waiting before: it is
        // Waiting now, with a RestartingAllContainers last termination so that the restart is
        // not mistaken for a crash.
        if input.restart_all_containers_on_container_exits
            && input.pod_restarting
            && !matches!(old.state, ContainerState::Waiting { .. })
        {
            status.state = waiting(RESTARTING_ALL_CONTAINERS);
            status.last_state = Some(terminated(EXIT_CODE_NOT_LOCATED, RESTARTING_ALL_CONTAINERS));
            status.restart_count = old.restart_count + 1;
            continue;
        }
        // A Terminated old status already has the right last termination; a non-Running one
        // makes Waiting appropriate.
        if old.state != ContainerState::Running {
            continue;
        }
        // Only override the default waiting status, and only without a last termination.
        let is_default_waiting =
            matches!(&status.state, ContainerState::Waiting { reason } if reason == default_reason);
        if !is_default_waiting || status.last_state.is_some() {
            continue;
        }
        status.last_state = Some(terminated(EXIT_CODE_NOT_LOCATED, CONTAINER_STATUS_UNKNOWN));
        // If the pod was not deleted, then it has been restarted.
        if !input.deletion_timestamp {
            status.restart_count += 1;
        }
    }

    // Step 3: the newest record fills State, the second LastTerminationState.
    for (c, status) in specs.iter().zip(statuses.iter_mut()) {
        let old = old_status(input.previous, &c.name);
        for (seen, cs) in records(input.runtime, &c.name).take(2).enumerate() {
            let converted = convert_container_status(
                &c.name,
                cs,
                old,
                input.restart_all_containers_on_container_exits,
                input.pod_restarting,
            );
            if seen == 0 {
                *status = converted;
            } else {
                // `LastTerminationState = status.State`: only its Terminated part is kept.
                status.last_state = match converted.state {
                    ContainerState::Terminated(t) => Some(t),
                    _ => None,
                };
            }
        }
    }

    // Step 4: containers that failed to start are Waiting.
    for (c, status) in specs.iter().zip(statuses.iter_mut()) {
        let newest = newest_record(input.runtime, &c.name);
        if input.is_init {
            // An init container that exited 0 is not restarted.
            if matches!(
                newest.map(|r| r.state),
                Some(RuntimeState::Exited { exit_code: 0 })
            ) {
                continue;
            }
            // Its record is gone but a regular container exists: the pod has been
            // initialized, so a non-restartable init container is treated as exited normally.
            if newest.is_none()
                && input.any_regular_container_created
                && !c.is_sidecar()
                && matches!(status.state, ContainerState::Waiting { .. })
            {
                status.state = ContainerState::Terminated(terminated(0, REASON_COMPLETED));
                continue;
            }
        }
        // If a container should be restarted in the next SyncPod, it is Waiting.
        if !should_container_be_restarted(
            input.deletion_timestamp,
            newest.map(|r| r.state),
            input.restart_policy,
        ) {
            continue;
        }
        // Without a reason-cache entry the original state (Waiting or Terminated) is kept.
        let Some((_, reason)) = input.reason_cache.iter().find(|(n, _)| *n == c.name) else {
            continue;
        };
        if let ContainerState::Terminated(t) = &status.state {
            status.last_state = Some(t.clone());
        }
        status.state = waiting(reason);
    }

    // Step 5: deterministic order.
    if !input.is_init {
        statuses.sort_by(|a, b| a.name.cmp(&b.name));
    }
    statuses
}
