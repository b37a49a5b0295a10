//! `kubectl get pods` READY / STATUS / RESTARTS: a port of `printPod`
//! (pkg/printers/internalversion/printers.go) and of apimachinery's `duration.HumanDuration`
//! (staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go).
//!
//! Source: `docs/sources.md#kubectl-status-column`. Conformance rows: upstream `TestPrintPod`,
//! `TestPrintPodWithRestartableInitContainer` and `TestPrintPodConditions` (with its
//! row-condition column).

use super::types::{
    ConditionStatus, ContainerState, PodView, PrintedPod, TableRowCondition, Terminated,
};

/// `apiv1.PodReasonSchedulingGated`.
const SCHEDULING_GATED: &str = "SchedulingGated";
/// `node.NodeUnreachablePodReason` (pkg/util/node).
const NODE_LOST: &str = "NodeLost";

/// `duration.HumanDuration` for a non-negative whole number of seconds: "~2-3 significant
/// figures" (`Ns` below 2 min, `NmSs` below 10 min, `Nm` below 3 h, `NhMm` below 8 h, `Nh`
/// below 2 d, `NdHh` below 8 d, `Nd` below 2 y, `NyDd` below 8 y, then `Ny`).
/// The negative branches ("0s" for −1 s, "<invalid>" below) cannot arise from a `u64`.
pub fn human_duration(seconds: u64) -> String {
    let d = seconds;
    if d < 60 * 2 {
        return format!("{d}s");
    }
    let minutes = d / 60;
    if minutes < 10 {
        let s = d % 60;
        if s == 0 {
            return format!("{minutes}m");
        }
        return format!("{minutes}m{s}s");
    } else if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = d / 3600;
    if hours < 8 {
        let m = minutes % 60;
        if m == 0 {
            return format!("{hours}h");
        }
        format!("{hours}h{m}m")
    } else if hours < 48 {
        format!("{hours}h")
    } else if hours < 24 * 8 {
        let h = hours % 24;
        if h == 0 {
            return format!("{}d", hours / 24);
        }
        format!("{}d{}h", hours / 24, h)
    } else if hours < 24 * 365 * 2 {
        format!("{}d", hours / 24)
    } else if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        if dy == 0 {
            return format!("{}y", hours / 24 / 365);
        }
        format!("{}y{}d", hours / 24 / 365, dy)
    } else {
        format!("{}y", hours / 24 / 365)
    }
}

/// `metav1.RowCompleted`, the one defined `RowConditionType`.
pub const ROW_COMPLETED: &str = "Completed";

/// The table-row condition `printPod` attaches for the pod phase: `podSuccessConditions`
/// for Succeeded and `podFailedConditions` for Failed (printers.go var block), none for any
/// other phase. Both have type `RowCompleted` ("Completed") and status True; the reason is
/// the phase and the messages are "The pod has completed successfully." and "The pod
/// failed.". It depends only on `status.Phase`, not on `status.Reason` or deletion.
pub fn pod_row_condition(phase_str: &str) -> Option<TableRowCondition> {
    let message = match phase_str {
        "Succeeded" => "The pod has completed successfully.",
        "Failed" => "The pod failed.",
        _ => return None,
    };
    Some(TableRowCondition {
        type_: ROW_COMPLETED.to_string(),
        status: ConditionStatus::True,
        reason: phase_str.to_string(),
        message: message.to_string(),
    })
}

/// Track the newest `lastState.terminated.finishedAt` as "seconds ago": newer = smaller.
/// A `Terminated` without `finished_ago` has a zero `FinishedAt`, which is never `After` the
/// running maximum, so it changes nothing (`lastRestartDate.Before(&terminatedDate)`).
fn note_last_restart(last: &mut Option<u64>, lt: &Option<Terminated>) {
    if let Some(ago) = lt.as_ref().and_then(|t| t.finished_ago) {
        *last = Some(match *last {
            Some(prev) => prev.min(ago),
            None => ago,
        });
    }
}

fn has_condition_true(pod: &PodView, type_: &str) -> bool {
    pod.conditions
        .iter()
        .any(|c| c.type_ == type_ && c.status == ConditionStatus::True)
}

/// `printPod`: READY, STATUS and RESTARTS cells.
///
/// Follows upstream step by step: base reason (phase or `status.reason`, then SchedulingGated); the init-status loop that stops at the first unfinished init container; the
/// regular-status loop from last to first when not initializing or Initialized=True;
/// "Completed" with a ready running container → Running/NotReady; deletion → Unknown
/// (NodeLost) or Terminating for non-terminal phases; RESTARTS "N (X ago)".
/// The row condition is set from the phase alone ([`pod_row_condition`]), as upstream sets
/// `row.Conditions` right after the base reason.
pub fn print_pod(pod: &PodView) -> PrintedPod {
    let mut restarts: u64 = 0;
    let mut restartable_init_restarts: u64 = 0;
    let mut total = pod.containers.len();
    let mut ready_containers = 0usize;
    let mut last_restart: Option<u64> = None;
    let mut last_restartable_init_restart: Option<u64> = None;

    let mut reason = if pod.reason.is_empty() {
        pod.phase_str.clone()
    } else {
        pod.reason.clone()
    };
    if pod
        .conditions
        .iter()
        .any(|c| c.type_ == "PodScheduled" && c.reason == SCHEDULING_GATED)
    {
        reason = SCHEDULING_GATED.to_string();
    }

    total += pod
        .init_containers
        .iter()
        .filter(|c| c.is_sidecar())
        .count();
    // `initContainers[container.Name]`: a status with no spec gives a nil container, which
    // `IsRestartableInitContainer` treats as not restartable.
    let is_sidecar = |name: &str| {
        pod.init_containers
            .iter()
            .find(|c| c.name == name)
            .is_some_and(|c| c.is_sidecar())
    };

    let mut initializing = false;
    for (i, c) in pod.init_statuses.iter().enumerate() {
        restarts += u64::from(c.restart_count);
        note_last_restart(&mut last_restart, &c.last_state);
        let sidecar = is_sidecar(&c.name);
        if sidecar {
            restartable_init_restarts += u64::from(c.restart_count);
            note_last_restart(&mut last_restartable_init_restart, &c.last_state);
        }
        match &c.state {
            ContainerState::Terminated(t) if t.exit_code == 0 => continue,
            _ if sidecar && c.started == Some(true) => {
                if c.ready {
                    ready_containers += 1;
                }
                continue;
            }
            ContainerState::Terminated(t) => {
                reason = if t.reason.is_empty() {
                    if t.signal != 0 {
                        format!("Init:Signal:{}", t.signal)
                    } else {
                        format!("Init:ExitCode:{}", t.exit_code)
                    }
                } else {
                    format!("Init:{}", t.reason)
                };
                initializing = true;
            }
            ContainerState::Waiting { reason: r } if !r.is_empty() && r != "PodInitializing" => {
                reason = format!("Init:{r}");
                initializing = true;
            }
            _ => {
                reason = format!("Init:{}/{}", i, pod.init_containers.len());
                initializing = true;
            }
        }
        break;
    }

    if !initializing || has_condition_true(pod, "Initialized") {
        restarts = restartable_init_restarts;
        last_restart = last_restartable_init_restart;
        let mut has_running = false;
        for c in pod.statuses.iter().rev() {
            restarts += u64::from(c.restart_count);
            note_last_restart(&mut last_restart, &c.last_state);
            match &c.state {
                ContainerState::Waiting { reason: r } if !r.is_empty() => reason = r.clone(),
                ContainerState::Terminated(t) if !t.reason.is_empty() => {
                    reason = t.reason.clone();
                }
                ContainerState::Terminated(t) => {
                    reason = if t.signal != 0 {
                        format!("Signal:{}", t.signal)
                    } else {
                        format!("ExitCode:{}", t.exit_code)
                    };
                }
                ContainerState::Running if c.ready => {
                    has_running = true;
                    ready_containers += 1;
                }
                _ => {}
            }
        }
        if reason == "Completed" && has_running {
            reason = if has_condition_true(pod, "Ready") {
                "Running".to_string()
            } else {
                "NotReady".to_string()
            };
        }
    }

    let phase_terminal = pod.phase_str == "Succeeded" || pod.phase_str == "Failed";
    if pod.deletion_timestamp && pod.reason == NODE_LOST {
        reason = "Unknown".to_string();
    } else if pod.deletion_timestamp && !phase_terminal {
        reason = "Terminating".to_string();
    }

    let restarts_str = match last_restart {
        Some(ago) if restarts != 0 => format!("{restarts} ({} ago)", human_duration(ago)),
        _ => restarts.to_string(),
    };

    PrintedPod {
        ready: format!("{ready_containers}/{total}"),
        status: reason,
        restarts: restarts_str,
        row_condition: pod_row_condition(&pod.phase_str),
    }
}
