//! Kubernetes API shapes that the upstream logic in this module reads and writes.
//!
//! These are trimmed copies of the `core/v1` types: only the fields that the pod-lifecycle
//! functions look at. The model stores pod status in exactly these types, so the functions
//! tested against the upstream unit-test rows are the ones the model runs.

use serde::{Deserialize, Serialize};
use std::fmt;

/// `pod.spec.restartPolicy` (and, for sidecars, `container.restartPolicy`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum RestartPolicy {
    /// `Always` — the default (`setDefaults_PodSpec`).
    #[default]
    Always,
    OnFailure,
    Never,
}

/// `pod.status.phase`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Phase {
    #[default]
    Pending,
    Running,
    Succeeded,
    Failed,
    Unknown,
}

impl Phase {
    /// Succeeded or Failed.
    pub fn is_terminal(self) -> bool {
        matches!(self, Phase::Succeeded | Phase::Failed)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Pending => "Pending",
            Phase::Running => "Running",
            Phase::Succeeded => "Succeeded",
            Phase::Failed => "Failed",
            Phase::Unknown => "Unknown",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `containerStatus.state.terminated` (also used for `lastState.terminated`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Terminated {
    pub exit_code: i32,
    /// Empty string = no reason (printPod then shows `ExitCode:N` / `Signal:N`).
    pub reason: String,
    pub signal: i32,
    /// Seconds between `finishedAt` and "now", when known (for RESTARTS "N (X ago)").
    pub finished_ago: Option<u64>,
}

/// `containerStatus.state`: exactly one of waiting, running, terminated — or none of them
/// (the "no state" rows of the upstream tables).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ContainerState {
    /// All three fields nil.
    #[default]
    None,
    /// `waiting{reason}`; empty reason = `Waiting{}`.
    Waiting {
        reason: String,
    },
    /// `running{startedAt}`.
    Running,
    Terminated(Terminated),
}

/// `pod.status.containerStatuses[i]` / `initContainerStatuses[i]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ContainerStatus {
    pub name: String,
    pub state: ContainerState,
    /// `lastState.terminated`, if any.
    pub last_state: Option<Terminated>,
    pub ready: bool,
    /// `started`: `None` = nil.
    pub started: Option<bool>,
    pub restart_count: u32,
    /// `containerID` (`ContainerID.String()` of the runtime record, `type://id`). Only the
    /// gated branches of `convertToAPIContainerStatuses` read it (see `super::convert`); the
    /// model's kubelet leaves it empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub container_id: String,
}

/// The operator of an exit-code requirement. Both `ContainerRestartRuleOnExitCodesOperator`
/// (core/v1) and `PodFailurePolicyOnExitCodesOperator` (batch/v1) spell their two values
/// `In` and `NotIn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ExitCodesOperator {
    /// Satisfied if the exit code is in the set of values.
    In,
    /// Satisfied if the exit code is not in the set of values.
    NotIn,
}

impl ExitCodesOperator {
    /// Whether `exit_code` satisfies `operator values`.
    pub fn matches(self, exit_code: i32, values: &[i32]) -> bool {
        let in_values = values.contains(&exit_code);
        match self {
            ExitCodesOperator::In => in_values,
            ExitCodesOperator::NotIn => !in_values,
        }
    }
}

/// `ContainerRestartRuleAction` (core/v1): `Restart` (gate `ContainerRestartRules`) or
/// `RestartAllContainers` (gate `RestartAllContainersOnContainerExits`, KEP-5532).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ContainerRestartRuleAction {
    Restart,
    RestartAllContainers,
}

/// `ContainerRestartRuleOnExitCodes` (core/v1).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ContainerRestartRuleOnExitCodes {
    pub operator: ExitCodesOperator,
    pub values: Vec<i32>,
}

/// One entry of `container.restartPolicyRules` (core/v1 `ContainerRestartRule`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ContainerRestartRule {
    pub action: ContainerRestartRuleAction,
    /// `exitCodes`; a rule without it never matches (`findMatchingContainerRestartRule`
    /// skips rules whose `ExitCodes` is nil).
    pub exit_codes: Option<ContainerRestartRuleOnExitCodes>,
}

/// The part of a container spec the lifecycle functions need.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ContainerSpecView {
    pub name: String,
    /// Container-level `restartPolicy`. On an init container, `Some(Always)` makes it a sidecar
    /// (restartable init container). On a regular container it is only read with the
    /// `ContainerRestartRules` gate.
    pub restart_policy: Option<RestartPolicy>,
    /// Container-level `restartPolicyRules`, tried in order. Upstream reads them only when
    /// `restart_policy` is set (`podutil.ContainerShouldRestart`), and only [`get_phase`]
    /// reads them here, under gate `ContainerRestartRules`. Empty by default,
    /// which is what [`ContainerSpecView::new`] gives.
    ///
    /// [`get_phase`]: super::phase::get_phase
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restart_policy_rules: Vec<ContainerRestartRule>,
}

impl ContainerSpecView {
    pub fn new(name: &str) -> Self {
        ContainerSpecView {
            name: name.to_string(),
            restart_policy: None,
            restart_policy_rules: Vec::new(),
        }
    }
    pub fn is_sidecar(&self) -> bool {
        self.restart_policy == Some(RestartPolicy::Always)
    }
}

/// Feature gates that change the functions here. Default: all off, as in a default cluster.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Gates {
    /// `ContainerRestartRules` (container-level restartPolicy on regular containers).
    pub container_restart_rules: bool,
    /// `RestartAllContainersOnContainerExits` (KEP-5532): a matched `RestartAllContainers`
    /// rule makes `ContainerShouldRestart` true, and a terminated state with reason
    /// `RestartingAllContainers` counts as restartable in `getPhase`. Upstream declares it
    /// dependent on `ContainerRestartRules`; in `getPhase` it is only read inside that gate's
    /// branches. Off by default.
    #[serde(default, skip_serializing_if = "is_false")]
    pub restart_all_containers_on_container_exits: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A pod condition status.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum ConditionStatus {
    True,
    #[default]
    False,
    Unknown,
}

/// A pod condition (type, status, reason).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Condition {
    pub type_: String,
    pub status: ConditionStatus,
    pub reason: String,
}

/// What `printPod` (kubectl's STATUS column) reads of a pod.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PodView {
    pub phase_str: String,
    /// `status.reason` (e.g. `Evicted`, `OutOfcpu`); empty = none.
    pub reason: String,
    pub deletion_timestamp: bool,
    pub conditions: Vec<Condition>,
    pub init_containers: Vec<ContainerSpecView>,
    pub containers: Vec<ContainerSpecView>,
    pub init_statuses: Vec<ContainerStatus>,
    pub statuses: Vec<ContainerStatus>,
}

/// `metav1.TableRowCondition`: a condition of a whole table row (not a cell).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableRowCondition {
    /// `metav1.RowConditionType`; the only defined value is `RowCompleted` = "Completed".
    pub type_: String,
    pub status: ConditionStatus,
    pub reason: String,
    pub message: String,
}

/// One row of `kubectl get pods`, minus NAME and AGE.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PrintedPod {
    /// "ready/total".
    pub ready: String,
    pub status: String,
    /// "N" or "N (X ago)".
    pub restarts: String,
    /// `row.Conditions`: `podSuccessConditions` for phase Succeeded, `podFailedConditions`
    /// for phase Failed, none otherwise. Upstream's slice has at most this one element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_condition: Option<TableRowCondition>,
}
