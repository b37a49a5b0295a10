//! Scenarios as data: the workloads (shaped like the Kubernetes objects they stand for, with
//! their field names), the cluster, the application's behaviour, the faults that may happen,
//! and the verdict each property is expected to get.
//!
//! The built-in catalogue is `model/scenarios/catalogue.yaml`; users' own files use the same
//! shape.

pub use crate::k8s::deployment::{percent, IntOrString};
use crate::k8s::{NodeSelectorTerm, Resources, RestartPolicy, Taint, Toleration};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One scenario of the catalogue.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// One sentence: what happens.
    pub description: String,
    /// Where the scenario and its verdicts come from: upstream code, docs or issues, and the
    /// `docs/sources.md` entry.
    pub source: String,
    #[serde(default)]
    pub cluster: ClusterSpec,
    pub workloads: Vec<Workload>,
    /// A Service selecting these workloads, with clients sending requests through it.
    #[serde(default)]
    pub service: Option<ServiceSpec>,
    #[serde(default)]
    pub faults: Vec<Fault>,
    /// PersistentVolumeClaims the pods' `persistentVolumeClaim` volumes name, each bound to a
    /// volume of its own. A claim a pod names that is not listed here is taken as bound, with
    /// no access modes known.
    #[serde(default)]
    pub persistent_volume_claims: Vec<ClaimSpec>,
    /// PodDisruptionBudgets (`policy/v1`), each over the pods of the workloads it `selects`
    /// (docs/sources.md#disruption-controller).
    #[serde(default)]
    pub pod_disruption_budgets: Vec<PdbSpec>,
    /// Expected verdicts that differ from the catalogue default, with their source.
    #[serde(default)]
    pub expect: Vec<Expectation>,
}

/// The nodes and the data plane.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterSpec {
    pub nodes: Vec<NodeSpec>,
    /// Upper bound on how long a kube-proxy lags behind the EndpointSlice (seconds). Not an
    /// upstream constant: kubernetes#43576 reports that `sleep 3` in preStop is "generally
    /// sufficient", so the default is 3.
    #[serde(default = "default_proxy_lag")]
    pub proxy_lag_seconds: u16,
    /// `--node-monitor-grace-period`. Unset: the release's default, 50 s from 1.32 and 40 s
    /// before (PR #126287; `docs/sources.md#node-lifecycle-unknown-after-the-grace-period`).
    #[serde(default)]
    pub node_monitor_grace_period_seconds: Option<u16>,
    /// The Kubernetes release the model follows, as `"1.33"` (a minor release: patch
    /// releases are not told apart). Unset: [`Release::NEWEST`]. Behaviour that changed
    /// between releases is chosen by it (`docs/sources.md#behaviour-by-release`).
    #[serde(default)]
    pub kubernetes_version: Option<String>,
    /// Where exploration starts (see [`Start`]).
    #[serde(default)]
    pub start: Start,
    /// kube-controller-manager `--disable-force-detach-on-timeout` (default false): the
    /// attach/detach controller never force-detaches a volume still mounted on an unhealthy
    /// node after `maxWaitForUnmountDuration` (PR #120344;
    /// docs/sources.md#attach-detach-detach-and-force-detach).
    #[serde(default)]
    pub disable_force_detach_on_timeout: bool,
    /// kube-controller-manager `--terminated-pod-gc-threshold` (default 12500): PodGC deletes
    /// the oldest terminated pods above it.
    #[serde(default = "default_terminated_pod_gc_threshold")]
    pub terminated_pod_gc_threshold: u16,
}

fn default_terminated_pod_gc_threshold() -> u16 {
    12500
}

/// A Kubernetes minor release (`1.<minor>`) the model can follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Release {
    pub minor: u8,
}

impl Release {
    /// The oldest release the model follows: 1.22, the first whose EndpointSlice controller
    /// publishes terminating endpoints with `serving` and `terminating` by default
    /// (KEP-1672, beta 1.22) and whose kubelet gives a force-deleted pod its
    /// `terminationGracePeriodSeconds` (`calculateEffectiveGracePeriod` since 1.22, PR #124063's
    /// release note). Before it the model would be wrong on both.
    pub const OLDEST: Release = Release { minor: 22 };
    /// The newest release the model follows, and the default: the code behind
    /// `docs/sources.md` was read between 1.32 and 1.35.
    pub const NEWEST: Release = Release { minor: 35 };

    /// Reads `1.33` or `v1.33`; a release outside [`Release::OLDEST`]..=[`Release::NEWEST`]
    /// is an error that says which ones the model follows.
    pub fn parse(text: &str) -> Result<Release, String> {
        let t = text.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let range = format!("{}, …, {}", Release::OLDEST, Release::NEWEST);
        let bad = || format!("`{text}` is not a Kubernetes minor release such as `1.33`");
        let (major, minor) = t.split_once('.').ok_or_else(bad)?;
        if major != "1" || minor.contains('.') {
            return Err(if major == "1" && minor.split('.').count() == 2 {
                format!(
                    "`{text}`: give a minor release such as `1.33` (patch releases are not told apart)"
                )
            } else {
                bad()
            });
        }
        let minor: u8 = minor.parse().map_err(|_| bad())?;
        let r = Release { minor };
        if r < Release::OLDEST || r > Release::NEWEST {
            return Err(format!(
                "Kubernetes {r} is not supported: the model follows {range}"
            ));
        }
        Ok(r)
    }

    /// This release is `1.<minor>` or newer.
    pub fn at_least(self, minor: u8) -> bool {
        self.minor >= minor
    }
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

impl Serialize for Release {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Release {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Release::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl std::str::FromStr for Release {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Release::parse(s)
    }
}

/// Where exploration starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Start {
    /// From the empty cluster: every startup interleaving is explored.
    #[default]
    Empty,
    /// From the cluster that one canonical startup (each step the first enabled action)
    /// reaches once every workload's pods run and are Ready and nothing is pending. Faults
    /// can then only happen after startup; it keeps larger sizes tractable.
    Settled,
}

fn default_proxy_lag() -> u16 {
    3
}

impl Default for ClusterSpec {
    /// Two nodes of 4 CPUs, each already partly used by other pods (scenario inputs, not
    /// Kubernetes defaults).
    fn default() -> Self {
        ClusterSpec {
            nodes: vec![
                NodeSpec::new("node-1", 4000, 1000),
                NodeSpec::new("node-2", 4000, 2000),
            ],
            proxy_lag_seconds: default_proxy_lag(),
            node_monitor_grace_period_seconds: None,
            kubernetes_version: None,
            start: Start::Empty,
            disable_force_detach_on_timeout: false,
            terminated_pod_gc_threshold: default_terminated_pod_gc_threshold(),
        }
    }
}

/// A node: allocatable resources, what other pods already request there, labels and taints.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
    pub allocatable: Resources,
    /// Requests of pods outside the scenario that already run on the node.
    #[serde(default)]
    pub used_by_other_pods: Resources,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    #[serde(default)]
    pub taints: Vec<Taint>,
    /// Images already present on the node.
    #[serde(default)]
    pub images: Vec<String>,
    /// The kubelet's `shutdownGracePeriod` (KubeletConfiguration), in seconds: how long it
    /// holds a systemd inhibitor lock to delay a shutdown and terminate its pods. 0 (the
    /// default): graceful node shutdown is off
    /// (`docs/sources.md#graceful-node-shutdown`).
    #[serde(default)]
    pub shutdown_grace_period_seconds: u16,
    /// The kubelet's `shutdownGracePeriodCriticalPods`, in seconds: the part of
    /// `shutdownGracePeriodSeconds` kept for pods of priority 2000000000 or more.
    #[serde(default)]
    pub shutdown_grace_period_critical_pods_seconds: u16,
}

impl NodeSpec {
    pub fn new(name: &str, cpu_milli: u64, used_cpu_milli: u64) -> Self {
        NodeSpec {
            name: name.to_string(),
            allocatable: Resources {
                cpu_milli,
                memory_mi: 8192,
            },
            used_by_other_pods: Resources {
                cpu_milli: used_cpu_milli,
                memory_mi: 0,
            },
            labels: BTreeMap::new(),
            taints: Vec::new(),
            images: Vec::new(),
            shutdown_grace_period_seconds: 0,
            shutdown_grace_period_critical_pods_seconds: 0,
        }
    }
}

/// A workload: a Deployment (modelled as its ReplicaSet) or a Job.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", deny_unknown_fields)]
pub enum Workload {
    Deployment {
        metadata: Metadata,
        spec: DeploymentSpec,
    },
    Job {
        metadata: Metadata,
        spec: JobSpec,
    },
    /// A StatefulSet: pods named `<name>-<ordinal>`, one object per identity.
    StatefulSet {
        metadata: Metadata,
        spec: StatefulSetSpec,
    },
    /// A bare pod, created by `kubectl apply` at the start; nothing replaces it.
    Pod {
        metadata: Metadata,
        spec: PodSpec,
    },
    /// A static pod: a manifest in the kubelet's manifest directory on `node`. The kubelet
    /// runs it without the API server and posts a read-only mirror pod named
    /// `<name>-<node>` (`tryReconcileMirrorPods`).
    StaticPod {
        metadata: Metadata,
        node: String,
        spec: PodSpec,
    },
}

impl Workload {
    pub fn name(&self) -> &str {
        match self {
            Workload::Deployment { metadata, .. }
            | Workload::Job { metadata, .. }
            | Workload::StatefulSet { metadata, .. }
            | Workload::Pod { metadata, .. }
            | Workload::StaticPod { metadata, .. } => &metadata.name,
        }
    }
    pub fn template(&self) -> &PodSpec {
        match self {
            Workload::Deployment { spec, .. } => &spec.template.spec,
            Workload::Job { spec, .. } => &spec.template.spec,
            Workload::StatefulSet { spec, .. } => &spec.template.spec,
            Workload::Pod { spec, .. } | Workload::StaticPod { spec, .. } => spec,
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Workload::Deployment { .. } => "Deployment",
            Workload::Job { .. } => "Job",
            Workload::StatefulSet { .. } => "StatefulSet",
            Workload::Pod { .. } => "Pod",
            Workload::StaticPod { .. } => "StaticPod",
        }
    }
    /// `replicas` of a Deployment or StatefulSet.
    pub fn replicas(&self) -> Option<u8> {
        match self {
            Workload::Deployment { spec, .. } => Some(spec.replicas),
            Workload::StatefulSet { spec, .. } => Some(spec.replicas),
            _ => None,
        }
    }
    /// Sets `replicas` of a Deployment or StatefulSet.
    pub fn set_replicas(&mut self, n: u8) {
        match self {
            Workload::Deployment { spec, .. } => spec.replicas = n,
            Workload::StatefulSet { spec, .. } => spec.replicas = n,
            _ => {}
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Metadata {
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeploymentSpec {
    #[serde(default = "one")]
    pub replicas: u8,
    pub template: PodTemplate,
    /// `strategy`: RollingUpdate (the default) or Recreate
    /// (`docs/sources.md#deployment-rolling-update`).
    #[serde(default)]
    pub strategy: DeploymentStrategy,
    /// `minReadySeconds` (default 0): a pod counts as available once it has been Ready this
    /// long (`pkg/api/v1/pod/util.go` `IsPodAvailable`).
    #[serde(default)]
    pub min_ready_seconds: u16,
    /// `progressDeadlineSeconds` (default 600, `SetDefaults_Deployment`).
    #[serde(default = "six_hundred")]
    pub progress_deadline_seconds: u16,
    /// `revisionHistoryLimit` (default 10, `SetDefaults_Deployment`): old ReplicaSets kept
    /// at 0 replicas for rollbacks.
    #[serde(default = "ten_u8")]
    pub revision_history_limit: u8,
}

impl DeploymentSpec {
    /// A Deployment with the API's defaults for everything but `replicas` and `template`.
    pub fn new(replicas: u8, template: PodTemplate) -> Self {
        DeploymentSpec {
            replicas,
            template,
            strategy: DeploymentStrategy::default(),
            min_ready_seconds: 0,
            progress_deadline_seconds: six_hundred(),
            revision_history_limit: ten_u8(),
        }
    }
}

fn six_hundred() -> u16 {
    600
}

fn ten_u8() -> u8 {
    10
}

/// `spec.strategy` of a Deployment.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeploymentStrategy {
    #[serde(default, rename = "type")]
    pub kind: StrategyType,
    #[serde(default)]
    pub rolling_update: Option<RollingUpdateDeployment>,
}

/// `spec.strategy.type`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StrategyType {
    /// Replace the pods a few at a time, within `maxSurge` and `maxUnavailable`.
    #[default]
    RollingUpdate,
    /// Scale the old ReplicaSets to 0, wait until none of their pods runs, then create the
    /// new ones.
    Recreate,
}

/// `spec.strategy.rollingUpdate`: each field an integer or a percentage of `replicas`;
/// unset fields default to `25%` (`SetDefaults_Deployment`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RollingUpdateDeployment {
    #[serde(default)]
    pub max_surge: Option<IntOrString>,
    #[serde(default)]
    pub max_unavailable: Option<IntOrString>,
}

impl DeploymentStrategy {
    /// `maxSurge` and `maxUnavailable` after defaulting (`SetDefaults_Deployment`: each unset
    /// one is `25%` under RollingUpdate); None under Recreate.
    pub fn rolling(&self) -> Option<(IntOrString, IntOrString)> {
        if self.kind != StrategyType::RollingUpdate {
            return None;
        }
        let quarter = || IntOrString::String("25%".into());
        let ru = self.rolling_update.clone().unwrap_or_default();
        Some((
            ru.max_surge.unwrap_or_else(quarter),
            ru.max_unavailable.unwrap_or_else(quarter),
        ))
    }
}

fn one() -> u8 {
    1
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSetSpec {
    #[serde(default = "one")]
    pub replicas: u8,
    #[serde(default)]
    pub pod_management_policy: PodManagementPolicy,
    pub template: PodTemplate,
    /// `volumeClaimTemplates`: each ordinal gets its own claim `<template>-<name>-<ordinal>`,
    /// mounted as a volume named after the template (`stateful_set_utils.go`
    /// `getPersistentVolumeClaims`, `updateStorage`).
    #[serde(default)]
    pub volume_claim_templates: Vec<ClaimSpec>,
}

/// `podManagementPolicy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PodManagementPolicy {
    /// One pod at a time, in ordinal order, each Running and Ready before the next.
    #[default]
    OrderedReady,
    /// All at once.
    Parallel,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobSpec {
    /// `completions`: nil means any one success completes the Job (with `parallelism` also
    /// nil both default to 1: `SetDefaults_Job`).
    #[serde(default)]
    pub completions: Option<u8>,
    /// `parallelism`: default 1.
    #[serde(default)]
    pub parallelism: Option<u8>,
    #[serde(default)]
    pub completion_mode: CompletionMode,
    /// `backoffLimit`: default 6, or no limit (MaxInt32) when `backoffLimitPerIndex` is set
    /// (`SetDefaults_Job`). Read it with [`JobSpec::backoff_limit`].
    #[serde(default, rename = "backoffLimit")]
    pub backoff_limit_field: Option<u8>,
    /// `backoffLimitPerIndex` (Indexed Jobs; gate `JobBackoffLimitPerIndex`, beta in 1.29).
    #[serde(default)]
    pub backoff_limit_per_index: Option<u8>,
    /// `maxFailedIndexes` (with `backoffLimitPerIndex`).
    #[serde(default)]
    pub max_failed_indexes: Option<u8>,
    /// `podFailurePolicy` (gate `JobPodFailurePolicy`, beta in 1.26).
    #[serde(default)]
    pub pod_failure_policy: Option<PodFailurePolicySpec>,
    /// `podReplacementPolicy` (gate `JobPodReplacementPolicy`, beta in 1.29): default
    /// `Failed` with a podFailurePolicy, else `TerminatingOrFailed`.
    #[serde(default)]
    pub pod_replacement_policy: Option<PodReplacementPolicy>,
    /// `activeDeadlineSeconds`, counted from the Job's `startTime`.
    #[serde(default)]
    pub active_deadline_seconds: Option<u16>,
    /// `successPolicy` (Indexed Jobs; gate `JobSuccessPolicy`, beta in 1.31).
    #[serde(default)]
    pub success_policy: Option<SuccessPolicySpec>,
    pub template: PodTemplate,
}

impl JobSpec {
    /// A Job of one pod at a time with every other field at its default.
    pub fn new(template: PodTemplate) -> Self {
        JobSpec {
            completions: None,
            parallelism: None,
            completion_mode: CompletionMode::NonIndexed,
            backoff_limit_field: None,
            backoff_limit_per_index: None,
            max_failed_indexes: None,
            pod_failure_policy: None,
            pod_replacement_policy: None,
            active_deadline_seconds: None,
            success_policy: None,
            template,
        }
    }

    /// The effective `backoffLimit` (`SetDefaults_Job`: 6, or MaxInt32 with
    /// `backoffLimitPerIndex`).
    pub fn backoff_limit(&self) -> u32 {
        match (self.backoff_limit_field, self.backoff_limit_per_index) {
            (Some(b), _) => b as u32,
            (None, Some(_)) => i32::MAX as u32,
            (None, None) => 6,
        }
    }

    /// The effective `parallelism` (default 1).
    pub fn parallelism(&self) -> u8 {
        self.parallelism.unwrap_or(1)
    }

    /// The effective `completions`: both unset → 1; `parallelism` set alone → nil.
    pub fn completions(&self) -> Option<u8> {
        match (self.completions, self.parallelism) {
            (None, None) => Some(1),
            (c, _) => c,
        }
    }

    pub fn indexed(&self) -> bool {
        self.completion_mode == CompletionMode::Indexed
    }
}

/// `completionMode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CompletionMode {
    #[default]
    NonIndexed,
    /// Each pod has a completion index `0..completions`; one success per index completes it.
    Indexed,
}

/// `podReplacementPolicy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PodReplacementPolicy {
    /// Replace a pod as soon as it is terminating or Failed.
    TerminatingOrFailed,
    /// Replace a pod only once it is fully terminal (phase Failed).
    Failed,
}

/// `podFailurePolicy`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodFailurePolicySpec {
    pub rules: Vec<PodFailurePolicyRuleSpec>,
}

/// A `podFailurePolicy` rule: an action and one requirement.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodFailurePolicyRuleSpec {
    pub action: PodFailurePolicyActionSpec,
    #[serde(default)]
    pub on_exit_codes: Option<OnExitCodesSpec>,
    #[serde(default)]
    pub on_pod_conditions: Vec<OnPodConditionsSpec>,
}

/// A rule's `action`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PodFailurePolicyActionSpec {
    FailJob,
    FailIndex,
    Ignore,
    Count,
}

/// `onExitCodes`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OnExitCodesSpec {
    #[serde(default)]
    pub container_name: Option<String>,
    pub operator: crate::k8s::ExitCodesOperator,
    pub values: Vec<i32>,
}

/// An `onPodConditions` pattern: `status` defaults to True.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OnPodConditionsSpec {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(default = "condition_true")]
    pub status: crate::k8s::ConditionStatus,
}

fn condition_true() -> crate::k8s::ConditionStatus {
    crate::k8s::ConditionStatus::True
}

/// `successPolicy`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SuccessPolicySpec {
    pub rules: Vec<SuccessPolicyRuleSpec>,
}

/// A `successPolicy` rule: `succeededIndexes` (e.g. "0,2-3") and/or `succeededCount`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SuccessPolicyRuleSpec {
    #[serde(default)]
    pub succeeded_indexes: Option<String>,
    #[serde(default)]
    pub succeeded_count: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodTemplate {
    pub spec: PodSpec,
}

/// `pod.spec`, the fields the model reads.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodSpec {
    #[serde(default)]
    pub restart_policy: RestartPolicy,
    /// Default 30 s.
    #[serde(default = "thirty")]
    pub termination_grace_period_seconds: u16,
    #[serde(default)]
    pub node_selector: BTreeMap<String, String>,
    /// `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`:
    /// ANDed with the nodeSelector by the scheduler and by kubelet admission
    /// (docs/sources.md#scheduler-nodeselector). Absent: no required node affinity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_node_affinity: Option<Vec<NodeSelectorTerm>>,
    #[serde(default)]
    pub tolerations: Vec<Toleration>,
    /// `priority` (from the PriorityClass), for node-pressure eviction ranking.
    #[serde(default)]
    pub priority: i32,
    #[serde(default)]
    pub init_containers: Vec<Container>,
    pub containers: Vec<Container>,
    /// Volumes the kubelet attaches and mounts before the sandbox is created.
    #[serde(default)]
    pub volumes: Vec<Volume>,
    /// `nodeName`: bound to this node at creation; the scheduler never sees the pod and only
    /// kubelet admission checks that it fits.
    #[serde(default)]
    pub node_name: Option<String>,
}

/// A pod volume: its name and one source.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Volume {
    pub name: String,
    #[serde(default)]
    pub empty_dir: Option<EmptyDir>,
    #[serde(default)]
    pub config_map: Option<ObjectRef>,
    #[serde(default)]
    pub secret: Option<SecretRef>,
    #[serde(default)]
    pub persistent_volume_claim: Option<ClaimRef>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EmptyDir {}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObjectRef {
    pub name: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecretRef {
    pub secret_name: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClaimRef {
    pub claim_name: String,
}

/// A PersistentVolumeClaim (or a StatefulSet's claim template): its name and access modes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClaimSpec {
    pub metadata: Metadata,
    pub spec: ClaimSpecFields,
}

/// `persistentVolumeClaim.spec`, the fields the model reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClaimSpecFields {
    /// `accessModes`, as written; [`AccessMode::parse`] reads each (the scenario's validation
    /// rejects an unknown one).
    pub access_modes: Vec<String>,
}

/// A volume access mode (`core/v1` `PersistentVolumeAccessMode`;
/// docs/sources.md#attach-detach-access-modes-and-multi-attach).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessMode {
    ReadWriteOnce,
    ReadOnlyMany,
    ReadWriteMany,
    ReadWriteOncePod,
}

impl AccessMode {
    pub const ALL: [AccessMode; 4] = [
        AccessMode::ReadWriteOnce,
        AccessMode::ReadOnlyMany,
        AccessMode::ReadWriteMany,
        AccessMode::ReadWriteOncePod,
    ];
    pub fn name(self) -> &'static str {
        match self {
            AccessMode::ReadWriteOnce => "ReadWriteOnce",
            AccessMode::ReadOnlyMany => "ReadOnlyMany",
            AccessMode::ReadWriteMany => "ReadWriteMany",
            AccessMode::ReadWriteOncePod => "ReadWriteOncePod",
        }
    }
    /// The mode spelled `s`, as the API spells it.
    pub fn parse(s: &str) -> Option<AccessMode> {
        AccessMode::ALL.into_iter().find(|m| m.name() == s)
    }
}

impl ClaimSpec {
    /// The access modes, or the error naming the field (`what`: where the claim is written).
    /// As the API server's `ValidatePersistentVolumeClaimSpec`: at least one mode, and
    /// ReadWriteOncePod with no other.
    pub fn access_modes(&self, what: &str) -> Result<Vec<AccessMode>, String> {
        let field = format!("{what} `{}`: spec.accessModes", self.metadata.name);
        if self.spec.access_modes.is_empty() {
            return Err(format!("{field}: at least 1 access mode is required"));
        }
        let mut modes = Vec::new();
        for m in &self.spec.access_modes {
            let Some(mode) = AccessMode::parse(m) else {
                return Err(format!(
                    "{field}: unknown access mode `{m}` (expected ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod)"
                ));
            };
            if !modes.contains(&mode) {
                modes.push(mode);
            }
        }
        if modes.contains(&AccessMode::ReadWriteOncePod) && modes.len() > 1 {
            return Err(format!(
                "{field}: may not use ReadWriteOncePod with other access modes"
            ));
        }
        Ok(modes)
    }
}

fn thirty() -> u16 {
    30
}

/// A container: the Kubernetes fields, plus `app`, how the program inside behaves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Container {
    pub name: String,
    pub image: String,
    #[serde(default)]
    pub resources: ResourceRequirements,
    #[serde(default)]
    pub startup_probe: Option<Probe>,
    #[serde(default)]
    pub readiness_probe: Option<Probe>,
    #[serde(default)]
    pub liveness_probe: Option<Probe>,
    #[serde(default)]
    pub lifecycle: Option<Lifecycle>,
    /// `imagePullPolicy`; unset, it defaults from the image's tag
    /// ([`Container::pull_policy`]).
    #[serde(default)]
    pub image_pull_policy: Option<crate::k8s::PullPolicy>,
    /// `restartPolicy` of the container: only `Always`, and only on an init container, which
    /// makes it a sidecar (a restartable init container, KEP-753; Kubernetes 1.29 or later).
    /// The API server refuses it on a regular container ([`validate_pod_spec`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<RestartPolicy>,
    #[serde(default)]
    pub app: App,
}

impl Container {
    /// The effective `imagePullPolicy`: as written, else `Always` for the tag `latest` (or
    /// none) and `IfNotPresent` otherwise (`SetDefaults_Container`;
    /// docs/sources.md#kubelet-image-pull-policy).
    pub fn pull_policy(&self) -> crate::k8s::PullPolicy {
        self.image_pull_policy
            .unwrap_or_else(|| crate::k8s::default_pull_policy(&self.image))
    }

    /// An init container with `restartPolicy: Always`: a sidecar.
    pub fn is_sidecar(&self) -> bool {
        self.restart_policy == Some(RestartPolicy::Always)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceRequirements {
    #[serde(default)]
    pub requests: Resources,
    #[serde(default)]
    pub limits: Resources,
}

/// A probe. Defaults from `setDefaults_Probe`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Probe {
    #[serde(default)]
    pub initial_delay_seconds: u16,
    #[serde(default = "ten")]
    pub period_seconds: u16,
    #[serde(default = "three")]
    pub failure_threshold: u8,
    #[serde(default = "one")]
    pub success_threshold: u8,
    /// `timeoutSeconds` (default 1; `SetDefaults_Probe` also turns 0 into 1): a probe that
    /// gets no answer fails this long after it began (docs/sources.md#kubelet-probe-timeout).
    #[serde(default = "one_u16")]
    pub timeout_seconds: u16,
    /// `terminationGracePeriodSeconds` of a liveness or startup probe: the grace of the kill
    /// that probe's failure causes, in place of the pod's (gate ProbeTerminationGracePeriod,
    /// on by default from 1.25; docs/sources.md#kubelet-probe-termination-grace-period).
    #[serde(default)]
    pub termination_grace_period_seconds: Option<u16>,
    /// Not a Kubernetes field: whether the endpoint this probe hits also checks the external
    /// dependency (for example a `/health` that runs `SELECT 1`).
    #[serde(default)]
    pub checks_dependency: bool,
}

impl Probe {
    /// The effective `timeoutSeconds` (0 reads as the default, 1).
    pub fn timeout(&self) -> u16 {
        self.timeout_seconds.max(1)
    }
}

fn one_u16() -> u16 {
    1
}

fn ten() -> u16 {
    10
}
fn three() -> u8 {
    3
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lifecycle {
    #[serde(default)]
    pub pre_stop: Option<PreStop>,
    #[serde(default)]
    pub post_start: Option<PostStart>,
}

/// `postStart`: an `exec` hook (it runs for `app.postStartSeconds`) or a `sleep`. The
/// kubelet runs it right after StartContainer and reports the container Running only once it
/// has completed (Container Lifecycle Hooks docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PostStart {
    #[serde(default)]
    pub exec: Option<ExecAction>,
    #[serde(default)]
    pub sleep: Option<SleepAction>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExecAction {
    pub command: Vec<String>,
}

/// `preStop` with a `sleep` (KEP-3960) or an `exec` of `sleep N`: both hold SIGTERM back.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreStop {
    pub sleep: SleepAction,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SleepAction {
    pub seconds: u16,
}

/// How the program in the container behaves. These are scenario inputs, not Kubernetes facts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct App {
    /// Seconds from start until it answers probes and requests.
    #[serde(default)]
    pub boot_seconds: u16,
    /// Exit on its own this many seconds after start (a crash, or a Job finishing).
    #[serde(default)]
    pub exit_after_seconds: Option<u16>,
    /// Exit code of that exit.
    #[serde(default)]
    pub exit_code: i32,
    /// Goes over `limits.memory` this many seconds after start: the kernel kills it (OOMKilled).
    #[serde(default)]
    pub exceeds_memory_limit_after_seconds: Option<u16>,
    /// What SIGTERM does.
    #[serde(default)]
    pub on_sigterm: OnSigterm,
    /// The image cannot be pulled (a typo in the tag, a registry without credentials).
    #[serde(default)]
    pub image_pull_fails: bool,
    /// Memory the program uses once up (MiB), for node-pressure eviction.
    #[serde(default)]
    pub memory_usage_mi: u64,
    /// Seconds the `exec` postStart hook's command runs.
    #[serde(default)]
    pub post_start_seconds: u16,
}

/// Reaction to SIGTERM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum OnSigterm {
    /// Handles it and exits at once with this code (0 = clean; 143 = 128 + 15).
    Exit(i32),
    /// Ignores it, as a shell running as PID 1 does (kubernetes#127188): only SIGKILL stops it.
    Ignore,
}

impl Default for OnSigterm {
    fn default() -> Self {
        OnSigterm::Exit(143)
    }
}

/// A Service over some workloads' pods, and clients that send requests through it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ServiceSpec {
    /// Names of the workloads whose pods the Service selects.
    pub selects: Vec<String>,
    #[serde(default)]
    pub publish_not_ready_addresses: bool,
    /// A headless Service (`spec.clusterIP: None`), as the Service that governs a
    /// StatefulSet is: the EndpointSlice controller keeps its slice (DNS answers from it),
    /// and kube-proxy does not handle it (`pkg/proxy/util/utils.go` `ShouldSkipService`),
    /// so no kube-proxy routes to its pods and no client request goes through one
    /// (docs/sources.md#kube-proxy-headless-services).
    #[serde(default)]
    pub headless: bool,
    /// Whether clients send requests (through each node's kube-proxy).
    #[serde(default = "yes")]
    pub clients: bool,
}

fn yes() -> bool {
    true
}

fn minus_one() -> i64 {
    -1
}

impl Fault {
    /// A `deletePod` fault's `gracePeriodSeconds` for the request (None: the pod's own), or
    /// the error kubectl gives for its flags (`crate::k8s::delete_grace_period`).
    pub fn delete_grace(&self) -> Result<Option<u16>, String> {
        let Fault::DeletePod {
            workload,
            grace_period_seconds,
            force,
        } = self
        else {
            return Ok(None);
        };
        let at = format!("faults: deletePod `{workload}`");
        let g = crate::k8s::delete_grace_period(*grace_period_seconds, *force).map_err(|e| {
            format!("{at}: gracePeriodSeconds {grace_period_seconds} with force: {e}")
        })?;
        match g {
            Some(g) if g > MAX_SECONDS as i64 => Err(format!(
                "{at}: gracePeriodSeconds: {g} s is longer than the model's limit of {MAX_SECONDS} s"
            )),
            g => Ok(g.map(|g| g as u16)),
        }
    }
}

/// Things the environment or an operator may do. Each happens at most once, at any moment
/// the model allows it; the checker explores every choice.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Fault {
    /// `kubectl delete pod` of a Ready pod of this workload, with kubectl's
    /// `--grace-period` (default −1: the pod's `terminationGracePeriodSeconds`) and `--force`
    /// as kubectl turns them into the request (docs/sources.md#kubectl-delete-grace-period).
    DeletePod {
        workload: String,
        #[serde(default = "minus_one")]
        grace_period_seconds: i64,
        #[serde(default)]
        force: bool,
    },
    /// `kubectl delete pod --grace-period=0 --force` of a bound pod of this workload: the
    /// object is removed at once, without the kubelet's confirmation. With
    /// `terminatingOnly`, only a pod already stuck `Terminating` (what an operator does).
    ForceDeletePod {
        workload: String,
        #[serde(default)]
        terminating_only: bool,
    },
    /// The node loses its connection to the API server: no lease renewals, no status, no
    /// watch; its containers keep running. With `heals`, the link may come back.
    Partition {
        node: String,
        #[serde(default)]
        heals: bool,
    },
    /// The API server becomes unreachable from every node at once (a control-plane network
    /// fault): every kubelet is cut off; containers keep running.
    ControlPlanePartition {},
    /// `kubectl delete node` of a node whose Ready condition is not True (PodGC then removes
    /// its pods after 40 s).
    DeleteNode { node: String },
    /// `kubectl taint node … node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` on a
    /// node whose Ready condition is not True.
    OutOfServiceTaint { node: String },
    /// The node runs low on memory: `memory.available` falls below the 100 Mi hard threshold
    /// whenever its pods use more than allocatable − 100 Mi.
    MemoryPressure { node: String },
    /// The external dependency goes down, and comes back after `seconds`.
    DependencyOutage { seconds: u16 },
    /// The kubelet of the node restarts (`systemctl restart kubelet`, an upgrade, a crash):
    /// its containers keep running, and the new kubelet starts its probe workers afresh
    /// (`prober/worker.go` `newWorker`).
    KubeletRestart { node: String },
    /// The node dies (power-off, kernel panic): its containers are gone at once, without
    /// preStop or a last status, and its kubelet and kube-proxy stop. To the control plane it
    /// looks like a partition: the lease stops being renewed.
    PowerOff { node: String },
    /// The node's machine is shut down (`systemctl poweroff`, a cloud stop that signals the
    /// OS): its kubelet, which holds a shutdown inhibitor lock, terminates the pods first —
    /// regular pods, then critical ones — and the machine powers off when they are done or
    /// its grace period is over (`nodeshutdown_manager_linux.go` `processShutdownEvent`).
    /// Needs the node's `shutdownGracePeriodSeconds`.
    NodeShutdown { node: String },
    /// The app of this workload's container deadlocks: it stays up but answers nothing.
    Deadlock { workload: String },
    /// The program in the first regular container of one of this workload's pods crashes:
    /// it exits at once with code 1, once. What follows is the kubelet's: the container is
    /// restarted or not by the pod's `restartPolicy`, with crash back-off
    /// (docs/sources.md#kubelet-restart-decision).
    Crash { workload: String },
    /// A step of the kubelet's per-pod state machine fails for this workload's pods, from
    /// the start (every step of the pod sync can fail). Not an event at a moment: a
    /// condition of the node's infrastructure or of the pod's references. `hangs`: the call
    /// never returns (only where a hang is known upstream: volume mount, postStart,
    /// volume unmount). `message`: the error the infrastructure returns, as events show it.
    StepFails {
        workload: String,
        step: FailingStep,
        #[serde(default)]
        hangs: bool,
        #[serde(default)]
        message: Option<String>,
        /// For container steps: which container (default: the first regular container, or
        /// for postStartHook the first with a postStart hook).
        #[serde(default)]
        container: Option<String>,
    },
    /// `kubectl cordon`: `spec.unschedulable: true` on the node, so the scheduler places no
    /// new pod there (docs/sources.md#kubectl-drain).
    Cordon { node: String },
    /// `kubectl uncordon`, of a node that is cordoned.
    Uncordon { node: String },
    /// `kubectl drain`: cordon the node, then evict every pod on it through the Eviction API
    /// (retrying every 5 s while a disruption budget refuses), and wait until they are gone.
    /// `disableEviction` (`--disable-eviction`): delete the pods instead, bypassing the
    /// budgets. `force` and `deleteEmptydirData` are the flags of the same names: without
    /// them, a pod that no controller owns or one with an emptyDir volume makes the drain
    /// refuse (docs/sources.md#kubectl-drain).
    Drain {
        node: String,
        #[serde(default)]
        disable_eviction: bool,
        #[serde(default)]
        force: bool,
        #[serde(default)]
        delete_emptydir_data: bool,
    },
    /// `kubectl rollout restart deployment/<workload>`: the pod template gets the annotation
    /// `kubectl.kubernetes.io/restartedAt`, so it changes once and the Deployment rolls out
    /// a new ReplicaSet (`docs/sources.md#deployment-rollout-restart`). It may come at any
    /// moment, once.
    RolloutRestart { workload: String },
    /// `kubectl scale deployment/<workload> --replicas=<replicas>`: a merge PATCH of the
    /// Deployment's `spec.replicas` through its `/scale` subresource, at any moment, once
    /// (docs/sources.md#kubectl-scale). The model scales Deployments without a rollout.
    Scale { workload: String, replicas: u8 },
    /// `kubectl set image pod/<pod> <container>=<image>` (or a PATCH of
    /// `spec.containers[*].image`) on one pod of the workload whose container runs, chosen by
    /// the checker, at any moment, once. A pod's container images are mutable in place
    /// (`ValidatePodUpdate`): the pod keeps its uid, and its kubelet kills the container and
    /// creates it anew with the new image (docs/sources.md#kubelet-container-spec-change).
    /// `container` names a regular container of the workload's template.
    SetPodImage {
        workload: String,
        container: String,
        image: String,
    },
}

/// A PodDisruptionBudget of the scenario.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PdbSpec {
    pub metadata: Metadata,
    pub spec: PdbSpecFields,
}

/// `podDisruptionBudget.spec`, the fields the model reads. Exactly one of `minAvailable` and
/// `maxUnavailable` (the API server refuses both; the model asks for one).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PdbSpecFields {
    /// The workloads whose pods the budget's selector matches (as `service.selects`).
    pub selects: Vec<String>,
    /// `minAvailable`: a number of pods, or a percentage such as `"50%"`.
    #[serde(default)]
    pub min_available: Option<IntOrPercent>,
    /// `maxUnavailable`: a number of pods, or a percentage such as `"50%"`.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// `unhealthyPodEvictionPolicy`; unset behaves as `IfHealthyBudget`.
    #[serde(default)]
    pub unhealthy_pod_eviction_policy: Option<UnhealthyPodEvictionPolicy>,
}

/// `unhealthyPodEvictionPolicy` (KEP-3017).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnhealthyPodEvictionPolicy {
    /// A Running pod that is not Ready may be evicted only while the budget is met.
    IfHealthyBudget,
    /// A Running pod that is not Ready may always be evicted.
    AlwaysAllow,
}

/// An `IntOrString` as a budget reads it: a number, or a percentage (`"50%"`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum IntOrPercent {
    Int(i64),
    Text(String),
}

impl<'de> Deserialize<'de> for IntOrPercent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = IntOrPercent;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number of pods or a percentage such as \"50%\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<IntOrPercent, E> {
                Ok(IntOrPercent::Int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<IntOrPercent, E> {
                Ok(IntOrPercent::Int(v.min(i64::MAX as u64) as i64))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<IntOrPercent, E> {
                Ok(IntOrPercent::Text(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A budget's number, read: a count, or a percentage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amount {
    Count(u8),
    Percent(u8),
}

impl IntOrPercent {
    /// The amount, or the error naming the field (`field`: its path in the user's words).
    /// As the API server's `ValidatePodDisruptionBudgetSpec`: not negative, a percentage not
    /// above 100%. A count above 255 is beyond what the model holds.
    pub fn amount(&self, field: &str) -> Result<Amount, String> {
        match self {
            IntOrPercent::Int(n) if *n < 0 => {
                Err(format!("{field}: {n}: must be greater than or equal to 0"))
            }
            IntOrPercent::Int(n) if *n > u8::MAX as i64 => Err(format!(
                "{field}: {n}: the model holds at most {} pods",
                u8::MAX
            )),
            IntOrPercent::Int(n) => Ok(Amount::Count(*n as u8)),
            IntOrPercent::Text(t) => {
                let bad =
                    || format!("{field}: `{t}` is neither a number nor a percentage such as `50%`");
                let digits = t.strip_suffix('%').ok_or_else(bad)?;
                if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                let v: u32 = digits.parse().map_err(|_| bad())?;
                if v > 100 {
                    return Err(format!("{field}: `{t}`: must not be greater than 100%"));
                }
                Ok(Amount::Percent(v as u8))
            }
        }
    }
}

impl Amount {
    /// `intstr.GetScaledValueFromIntOrPercent(…, total, roundUp=true)`: a count as it is, a
    /// percentage of `total` rounded up.
    pub fn scaled(self, total: u32) -> u32 {
        match self {
            Amount::Count(n) => n as u32,
            Amount::Percent(p) => (p as u32 * total).div_ceil(100),
        }
    }
}

/// A kubelet step that can fail (docs/sources.md#kubelet-volumes-sandbox-and-containers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FailingStep {
    /// CRI RunPodSandbox.
    RunPodSandbox,
    /// CNI ADD, inside RunPodSandbox.
    CniAdd,
    /// The attach/detach controller's Attach of a PersistentVolumeClaim's volume.
    AttachVolume,
    /// The kubelet volume manager's MountVolume.SetUp.
    MountVolume,
    /// `generateContainerConfig` (a missing ConfigMap or Secret key, for example).
    CreateContainerConfig,
    /// CRI CreateContainer.
    CreateContainer,
    /// The postStart hook.
    PostStartHook,
    /// StopPodSandbox on deletion (CNI DEL, a busy network namespace).
    KillPodSandbox,
    /// The volume manager's unmount on deletion.
    UnmountVolume,
}

impl FailingStep {
    pub fn name(self) -> &'static str {
        match self {
            FailingStep::RunPodSandbox => "runPodSandbox",
            FailingStep::CniAdd => "cniAdd",
            FailingStep::AttachVolume => "attachVolume",
            FailingStep::MountVolume => "mountVolume",
            FailingStep::CreateContainerConfig => "createContainerConfig",
            FailingStep::CreateContainer => "createContainer",
            FailingStep::PostStartHook => "postStartHook",
            FailingStep::KillPodSandbox => "killPodSandbox",
            FailingStep::UnmountVolume => "unmountVolume",
        }
    }
    /// Whether a hang (a call that never returns) is modelled for this step.
    pub fn can_hang(self) -> bool {
        matches!(
            self,
            FailingStep::MountVolume | FailingStep::PostStartHook | FailingStep::UnmountVolume
        )
    }
}

/// A verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Checked exhaustively: no counterexample (for `always`), a witness (for `sometimes`).
    Holds,
    /// A counterexample (for `always`), or no witness in the whole state space (`sometimes`).
    Violated,
    /// The run stopped at a bound before it could decide.
    Incomplete,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Violated => "violated",
            Verdict::Incomplete => "incomplete",
        }
    }
}

/// An expected verdict for one property, with where it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Expectation {
    pub property: String,
    pub verdict: Verdict,
    pub source: String,
    /// The expectation holds from this release on (a verdict that a release changed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Release>,
    /// The expectation holds for releases before this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Release>,
}

impl Expectation {
    /// Whether the expectation is about release `r`.
    pub fn applies_to(&self, r: Release) -> bool {
        self.from.is_none_or(|f| r >= f) && self.before.is_none_or(|b| r < b)
    }
}

/// Reads a list of scenarios from YAML. `origin` names the file in error messages.
pub fn parse_scenarios(yaml: &str, origin: &str) -> Result<Vec<Scenario>, String> {
    let list: Vec<Scenario> = serde_saphyr::from_str(yaml).map_err(|e| format!("{origin}: {e}"))?;
    if list.is_empty() {
        return Err(format!("{origin}: no scenarios in the file"));
    }
    let mut names = std::collections::BTreeSet::new();
    for s in &list {
        if !names.insert(s.name.as_str()) {
            return Err(format!("{origin}: two scenarios are named `{}`", s.name));
        }
    }
    // Where each scenario's parts begin, for the line of a validation error (none if the
    // file does not read that way: the error then names the file alone).
    let lines: Vec<ScenarioLines> = serde_saphyr::from_str(yaml).unwrap_or_default();
    for (i, s) in list.iter().enumerate() {
        s.validate().map_err(|e| {
            let at = match lines.get(i).map(|l| l.line_of(&e)) {
                Some(n) if n > 0 => format!("{origin}:{n}"),
                _ => origin.to_string(),
            };
            format!("{at}: scenario `{}`: {e}", s.name)
        })?;
    }
    Ok(list)
}

/// Where a part of a scenario begins in its file, if it is there.
type At = Option<serde_saphyr::Spanned<serde::de::IgnoredAny>>;

/// The lines a scenario's name and top-level fields begin on ([`parse_scenarios`]).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ScenarioLines {
    name: serde_saphyr::Spanned<serde::de::IgnoredAny>,
    cluster: At,
    workloads: At,
    service: At,
    faults: At,
    persistent_volume_claims: At,
    pod_disruption_budgets: At,
    expect: At,
}

impl ScenarioLines {
    /// The line of the field a validation error is about, by the word it starts with
    /// (`service …`, `fault …`, `workload `web`: …`, `cluster.nodes …`), else the line of
    /// the scenario's name.
    fn line_of(&self, error: &str) -> usize {
        let mut words = error.split([' ', ':', '.']);
        let mut first = words.next().unwrap_or("");
        // `two workloads are named …`, `two stepFails faults …`: the second word says which.
        if first == "two" {
            first = words.next().unwrap_or("");
        }
        let field = match first {
            "service" => &self.service,
            "fault" | "faults" | "stepFails" | "at" => &self.faults,
            "workload" | "workloads" => &self.workloads,
            "cluster" | "node" | "nodes" => &self.cluster,
            "persistentVolumeClaims" | "claim" => &self.persistent_volume_claims,
            "podDisruptionBudgets" => &self.pod_disruption_budgets,
            "expect" | "property" => &self.expect,
            _ => &None,
        };
        field
            .as_ref()
            .map(|f| f.referenced.line())
            .filter(|&n| n > 0)
            .unwrap_or(self.name.referenced.line()) as usize
    }
}

/// `IsDNS1123Subdomain` (`k8s.io/apimachinery/pkg/util/validation`), as object and node
/// names must be: why `name` is not one, or None. The names also go into traces, DOT and
/// Mermaid pictures and the Explorer.
pub fn dns1123_subdomain(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("Required value: a name must not be empty".into());
    }
    if name.len() > 253 {
        return Some("must be no more than 253 characters".into());
    }
    if name
        .split('.')
        .any(|part| dns1123_label_chars(part).is_some())
    {
        return Some("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".into());
    }
    None
}

/// `IsDNS1123Label`, as container names must be: why `name` is not one, or None.
pub fn dns1123_label(name: &str) -> Option<String> {
    if name.len() > 63 {
        return Some("must be no more than 63 characters".into());
    }
    dns1123_label_chars(name)
}

fn dns1123_label_chars(name: &str) -> Option<String> {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let fine = !name.is_empty()
        && name.chars().all(|c| ok(c) || c == '-')
        && name.starts_with(ok)
        && name.ends_with(ok);
    (!fine).then(|| "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character".into())
}

/// The largest cpu (millicores) or memory (MiB) a scenario may give one container or node:
/// 2^40, far above any machine, so that the sums over a node's pods, in 64 bits, cannot
/// overflow.
pub const MAX_RESOURCE: u64 = 1 << 40;

fn resource_in_range(at: &str, r: &crate::k8s::Resources) -> Result<(), String> {
    for (field, v) in [("cpuMilli", r.cpu_milli), ("memoryMi", r.memory_mi)] {
        if v > MAX_RESOURCE {
            return Err(format!(
                "{at}.{field}: {v} is larger than the model takes ({MAX_RESOURCE}: the sums over a node's pods must fit 64 bits)"
            ));
        }
    }
    Ok(())
}

/// The longest duration a scenario may give, in seconds: the model's clock counts in 16 bits,
/// and the sum of two durations (a delay after a grace period, say) must still fit.
pub const MAX_SECONDS: u16 = u16::MAX / 2;

/// How many distinct images a scenario may name: each node's images are a 32-bit set.
pub const MAX_IMAGES: usize = 32;

/// How many faults a scenario may list: which ones have happened is a 32-bit set.
pub const MAX_FAULTS: usize = 32;

/// How many PersistentVolumeClaims a scenario may have (declared, referenced, and one per
/// StatefulSet ordinal and claim template): a node's volumes in use are a 32-bit set.
pub const MAX_CLAIMS: usize = 32;

/// How many PodDisruptionBudgets a scenario may have: they are counted in 8 bits.
pub const MAX_BUDGETS: usize = u8::MAX as usize;

/// How many workloads a scenario may have, and containers a pod template: both are counted
/// in 8 bits in the state and the actions.
pub const MAX_WORKLOADS: usize = u8::MAX as usize;
pub const MAX_CONTAINERS: usize = u8::MAX as usize;

impl Scenario {
    /// The limits of the state's small integers and bit sets, checked where a scenario enters
    /// so that none of them can wrap.
    fn validate_limits(&self) -> Result<(), String> {
        if self.workloads.len() > MAX_WORKLOADS {
            return Err(format!(
                "workloads: {} workloads, the model holds at most {MAX_WORKLOADS}",
                self.workloads.len()
            ));
        }
        if self.faults.len() > MAX_FAULTS {
            return Err(format!(
                "faults: {} faults, the model holds at most {MAX_FAULTS}",
                self.faults.len()
            ));
        }
        let mut images = std::collections::BTreeSet::new();
        let seconds = |field: String, v: u16| {
            if v > MAX_SECONDS {
                Err(format!(
                    "{field}: {v} s is longer than the model's limit of {MAX_SECONDS} s"
                ))
            } else {
                Ok(())
            }
        };
        seconds(
            "cluster.proxyLagSeconds".into(),
            self.cluster.proxy_lag_seconds,
        )?;
        if let Some(g) = self.cluster.node_monitor_grace_period_seconds {
            seconds("cluster.nodeMonitorGracePeriodSeconds".into(), g)?;
        }
        for n in &self.cluster.nodes {
            for (part, res) in [
                ("allocatable", &n.allocatable),
                ("usedByOtherPods", &n.used_by_other_pods),
            ] {
                resource_in_range(&format!("node `{}`: {part}", n.name), res)?;
            }
            let total = n.shutdown_grace_period_seconds;
            let critical = n.shutdown_grace_period_critical_pods_seconds;
            seconds(
                format!("node `{}`: shutdownGracePeriodSeconds", n.name),
                total,
            )?;
            // `ValidateKubeletConfiguration` (pkg/kubelet/apis/config/validation).
            if critical > total {
                return Err(format!(
                    "node `{}`: invalid configuration: shutdownGracePeriodCriticalPods {critical}s must be <= shutdownGracePeriod {total}s",
                    n.name
                ));
            }
        }
        for w in &self.workloads {
            let t = w.template();
            let name = w.name();
            if let Workload::Deployment { spec, .. } = w {
                seconds(
                    format!("workload `{name}`: spec.minReadySeconds"),
                    spec.min_ready_seconds,
                )?;
                seconds(
                    format!("workload `{name}`: spec.progressDeadlineSeconds"),
                    spec.progress_deadline_seconds,
                )?;
            }
            for (field, n) in [
                ("initContainers", t.init_containers.len()),
                ("containers", t.containers.len()),
            ] {
                if n > MAX_CONTAINERS {
                    return Err(format!(
                        "workload `{name}`: {n} {field}, the model holds at most {MAX_CONTAINERS}"
                    ));
                }
            }
            seconds(
                format!("workload `{name}`: terminationGracePeriodSeconds"),
                t.termination_grace_period_seconds,
            )?;
            for c in t.init_containers.iter().chain(&t.containers) {
                images.insert(c.image.as_str());
                let at = |f: &str| format!("workload `{name}` container `{}`: {f}", c.name);
                let r = &c.resources;
                for (part, res) in [("requests", &r.requests), ("limits", &r.limits)] {
                    resource_in_range(&at(&format!("resources.{part}")), res)?;
                }
                // `ValidateResourceRequirements` (`pkg/apis/core/validation/validation.go`):
                // a request above its limit is refused (0 here: no limit).
                for (res, what, unit, req, lim) in [
                    (
                        "cpuMilli",
                        "cpu",
                        "millicores",
                        r.requests.cpu_milli,
                        r.limits.cpu_milli,
                    ),
                    (
                        "memoryMi",
                        "memory",
                        "MiB",
                        r.requests.memory_mi,
                        r.limits.memory_mi,
                    ),
                ] {
                    if lim > 0 && req > lim {
                        return Err(at(&format!(
                            "resources.requests.{res}: Invalid value: {req} {unit}: must be less than or equal to {what} limit of {lim} {unit}"
                        )));
                    }
                }
                seconds(at("app.bootSeconds"), c.app.boot_seconds)?;
                seconds(at("app.postStartSeconds"), c.app.post_start_seconds)?;
                for (kind, p) in [
                    ("startupProbe", &c.startup_probe),
                    ("readinessProbe", &c.readiness_probe),
                    ("livenessProbe", &c.liveness_probe),
                ] {
                    if let Some(p) = p {
                        seconds(
                            at(&format!("{kind}.initialDelaySeconds")),
                            p.initial_delay_seconds,
                        )?;
                        seconds(at(&format!("{kind}.periodSeconds")), p.period_seconds)?;
                        if let Some(g) = p.termination_grace_period_seconds {
                            seconds(at(&format!("{kind}.terminationGracePeriodSeconds")), g)?;
                        }
                        if p.period_seconds == 0 {
                            return Err(at(&format!(
                                "{kind}.periodSeconds: Invalid value: 0: must be greater than or equal to 1"
                            )));
                        }
                        // The prober's worker runs one probe at a time; a timeout longer than
                        // the period would delay the next tick, which the model does not hold.
                        if p.timeout() > p.period_seconds {
                            return Err(at(&format!(
                                "{kind}.timeoutSeconds: {} s is longer than periodSeconds ({} s); the model holds timeoutSeconds ≤ periodSeconds",
                                p.timeout(),
                                p.period_seconds
                            )));
                        }
                    }
                }
                if let Some(l) = &c.lifecycle {
                    if let Some(ps) = &l.pre_stop {
                        seconds(at("lifecycle.preStop.sleep.seconds"), ps.sleep.seconds)?;
                    }
                    if let Some(s) = l.post_start.as_ref().and_then(|p| p.sleep.as_ref()) {
                        seconds(at("lifecycle.postStart.sleep.seconds"), s.seconds)?;
                    }
                }
            }
        }
        let claims = self.claims().len();
        if claims > MAX_CLAIMS {
            return Err(format!(
                "persistentVolumeClaims: the scenario's pods use {claims} claims (volumeClaimTemplates count once per ordinal); the model holds at most {MAX_CLAIMS}"
            ));
        }
        for f in &self.faults {
            if let Fault::SetPodImage { image, .. } = f {
                images.insert(image.as_str());
            }
        }
        if images.len() > MAX_IMAGES {
            return Err(format!(
                "the scenario's containers name {} distinct images; the model holds at most {MAX_IMAGES}",
                images.len()
            ));
        }
        for f in &self.faults {
            if let Fault::DependencyOutage { seconds: s } = f {
                seconds("faults: dependencyOutage.seconds".into(), *s)?;
            }
            f.delete_grace()?;
        }
        Ok(())
    }

    /// The release the scenario follows: `cluster.kubernetesVersion`, else
    /// [`Release::NEWEST`].
    pub fn release(&self) -> Result<Release, String> {
        match &self.cluster.kubernetes_version {
            None => Ok(Release::NEWEST),
            Some(v) => Release::parse(v).map_err(|e| format!("cluster.kubernetesVersion: {e}")),
        }
    }

    /// Checks what serde cannot: references between fields, and sizes the model can hold.
    pub fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() {
            return Err("name: Required value: a scenario needs a name".into());
        }
        self.release()?;
        self.validate_expectations()?;
        if self.cluster.nodes.is_empty() || self.cluster.nodes.len() > 5 {
            return Err("cluster.nodes must list 1 to 5 nodes".into());
        }
        if self.workloads.is_empty() {
            return Err("workloads must not be empty".into());
        }
        let mut node_names = std::collections::BTreeSet::new();
        for n in &self.cluster.nodes {
            if let Some(why) = dns1123_subdomain(&n.name) {
                return Err(format!("cluster.nodes: node name `{}`: {why}", n.name));
            }
            if !node_names.insert(n.name.as_str()) {
                return Err(format!("cluster.nodes: two nodes are named `{}`", n.name));
            }
        }
        for w in &self.workloads {
            if let Some(why) = dns1123_subdomain(w.name()) {
                return Err(format!("workload `{}`: metadata.name: {why}", w.name()));
            }
            let t = w.template();
            for c in t.init_containers.iter().chain(&t.containers) {
                if let Some(why) = dns1123_label(&c.name) {
                    return Err(format!(
                        "workload `{}`: container name `{}`: {why}",
                        w.name(),
                        c.name
                    ));
                }
                if c.image.trim().is_empty() {
                    return Err(format!(
                        "workload `{}` container `{}`: image: Required value",
                        w.name(),
                        c.name
                    ));
                }
            }
        }
        self.validate_limits()?;
        let mut names = std::collections::BTreeSet::new();
        for w in &self.workloads {
            if !names.insert(w.name()) {
                return Err(format!("two workloads are named `{}`", w.name()));
            }
            let t = w.template();
            if t.containers.is_empty() {
                return Err(format!("workload `{}` has no containers", w.name()));
            }
            if let Some(r) = w.replicas() {
                if r == 0 || r > 5 {
                    return Err(format!("workload `{}`: replicas must be 1 to 5", w.name()));
                }
            }
            let controller_owned = matches!(
                w,
                Workload::Deployment { .. } | Workload::StatefulSet { .. }
            );
            if controller_owned && t.restart_policy != RestartPolicy::Always {
                return Err(format!(
                    "workload `{}`: a {}'s pods must use restartPolicy Always",
                    w.name(),
                    w.kind()
                ));
            }
            validate_pod_spec(w, t)?;
            validate_sidecars(w, t, self.release()?)?;
            if let Workload::Job { spec, .. } = w {
                validate_job_spec(w.name(), spec, self.release()?)?;
            }
            if let Workload::Deployment { spec, .. } = w {
                validate_deployment_spec(w.name(), spec)?;
            }
            for c in t.init_containers.iter().chain(&t.containers) {
                for (kind, p) in [
                    ("startupProbe", &c.startup_probe),
                    ("readinessProbe", &c.readiness_probe),
                    ("livenessProbe", &c.liveness_probe),
                ] {
                    if let Some(p) = p {
                        if p.period_seconds == 0
                            || p.failure_threshold == 0
                            || p.success_threshold == 0
                        {
                            return Err(format!(
                                "workload `{}` container `{}`: {kind} needs periodSeconds, failureThreshold and successThreshold ≥ 1",
                                w.name(),
                                c.name
                            ));
                        }
                    }
                }
            }
        }
        let mut claim_names = std::collections::BTreeSet::new();
        for c in &self.persistent_volume_claims {
            if !claim_names.insert(c.metadata.name.as_str()) {
                return Err(format!(
                    "persistentVolumeClaims: two claims are named `{}`",
                    c.metadata.name
                ));
            }
            c.access_modes("persistentVolumeClaims")?;
        }
        for w in &self.workloads {
            if let Workload::StatefulSet { spec, .. } = w {
                let mut seen = std::collections::BTreeSet::new();
                let what = format!("workload `{}`: volumeClaimTemplates", w.name());
                for c in &spec.volume_claim_templates {
                    if !seen.insert(c.metadata.name.as_str()) {
                        return Err(format!(
                            "{what}: two templates are named `{}`",
                            c.metadata.name
                        ));
                    }
                    if spec
                        .template
                        .spec
                        .volumes
                        .iter()
                        .any(|v| v.name == c.metadata.name)
                    {
                        return Err(format!(
                            "{what}: `{}` is also the name of a volume of the pod template",
                            c.metadata.name
                        ));
                    }
                    c.access_modes(&what)?;
                }
            }
        }
        let known = |n: &str| self.workloads.iter().any(|w| w.name() == n);
        let known_node = |n: &str| self.cluster.nodes.iter().any(|x| x.name == n);
        for w in &self.workloads {
            if let Workload::StaticPod { node, .. } = w {
                if !known_node(node) {
                    return Err(format!(
                        "static pod `{}` names unknown node `{node}`",
                        w.name()
                    ));
                }
            }
            if let Some(node) = &w.template().node_name {
                if !known_node(node) {
                    return Err(format!(
                        "workload `{}`: nodeName names unknown node `{node}`",
                        w.name()
                    ));
                }
            }
        }
        let mut step_faults = std::collections::BTreeSet::new();
        for f in &self.faults {
            let Fault::StepFails {
                workload,
                step,
                hangs,
                container,
                ..
            } = f
            else {
                continue;
            };
            let Some(w) = self.workloads.iter().find(|w| w.name() == workload) else {
                return Err(format!("fault names unknown workload `{workload}`"));
            };
            if !step_faults.insert((workload.as_str(), *step)) {
                return Err(format!(
                    "two stepFails faults for workload `{workload}` and step {}",
                    step.name()
                ));
            }
            if *hangs && !step.can_hang() {
                return Err(format!(
                    "stepFails {}: `hangs` is modelled only for mountVolume, postStartHook and unmountVolume",
                    step.name()
                ));
            }
            let t = w.template();
            let templates = match w {
                Workload::StatefulSet { spec, .. } => !spec.volume_claim_templates.is_empty(),
                _ => false,
            };
            let needs = match step {
                FailingStep::MountVolume | FailingStep::UnmountVolume
                    if t.volumes.is_empty() && !templates =>
                {
                    Some("volume")
                }
                FailingStep::AttachVolume
                    if !templates
                        && !t
                            .volumes
                            .iter()
                            .any(|v| v.persistent_volume_claim.is_some()) =>
                {
                    Some("persistentVolumeClaim volume")
                }
                _ => None,
            };
            if let Some(what) = needs {
                return Err(format!(
                    "stepFails {}: workload `{workload}` has no {what}",
                    step.name()
                ));
            }
            if let Some(c) = container {
                if !t.containers.iter().any(|x| &x.name == c) {
                    return Err(format!(
                        "stepFails {}: workload `{workload}` has no container `{c}`",
                        step.name()
                    ));
                }
            }
            if *step == FailingStep::PostStartHook
                && !t.containers.iter().any(|c| {
                    c.lifecycle.as_ref().is_some_and(|l| l.post_start.is_some())
                        && container.as_ref().is_none_or(|n| n == &c.name)
                })
            {
                return Err(format!(
                    "stepFails postStartHook: workload `{workload}` has no container with a postStart hook"
                ));
            }
        }
        if let Some(svc) = &self.service {
            for n in &svc.selects {
                if !known(n) {
                    return Err(format!("service selects unknown workload `{n}`"));
                }
            }
            if svc.headless && svc.clients {
                return Err("service: a headless Service is not handled by kube-proxy, and the model's clients send their requests through kube-proxy: set `clients: false` (clients of a headless Service reach the pods by DNS, which the model does not hold)".into());
            }
        }
        for f in &self.faults {
            match f {
                Fault::DeletePod { workload, .. }
                | Fault::ForceDeletePod { workload, .. }
                | Fault::Deadlock { workload }
                | Fault::Crash { workload }
                | Fault::RolloutRestart { workload }
                    if !known(workload) =>
                {
                    return Err(format!("fault names unknown workload `{workload}`"));
                }
                Fault::RolloutRestart { workload }
                    if !self.workloads.iter().any(|w| {
                        w.name() == workload && matches!(w, Workload::Deployment { .. })
                    }) =>
                {
                    return Err(format!(
                        "rolloutRestart: workload `{workload}` is not a Deployment (the model rolls out Deployments only)"
                    ));
                }
                Fault::Scale { workload, .. } if !known(workload) => {
                    return Err(format!("fault names unknown workload `{workload}`"));
                }
                Fault::SetPodImage { workload, .. } if !known(workload) => {
                    return Err(format!("fault names unknown workload `{workload}`"));
                }
                Fault::SetPodImage {
                    workload,
                    container,
                    image,
                } => {
                    let Some(w) = self.workloads.iter().find(|w| w.name() == workload) else {
                        return Err(format!("fault names unknown workload `{workload}`"));
                    };
                    let Some(c) = w
                        .template()
                        .containers
                        .iter()
                        .find(|c| &c.name == container)
                    else {
                        return Err(format!(
                            "setPodImage `{workload}`: container `{container}` is not a regular container of its pod template (the model changes regular containers only)"
                        ));
                    };
                    if image.is_empty() {
                        return Err(format!(
                            "setPodImage `{workload}`: image: Required value (spec.containers[*].image)"
                        ));
                    }
                    if &c.image == image {
                        return Err(format!(
                            "setPodImage `{workload}`: container `{container}` already runs `{image}`: the spec would not change"
                        ));
                    }
                }
                Fault::Scale { workload, .. }
                    if !self.workloads.iter().any(|w| {
                        w.name() == workload && matches!(w, Workload::Deployment { .. })
                    }) =>
                {
                    return Err(format!(
                        "scale: workload `{workload}` is not a Deployment (the model scales Deployments only)"
                    ));
                }
                Fault::Scale { workload, replicas } if *replicas > 5 => {
                    return Err(format!(
                        "scale `{workload}`: replicas {replicas}: the model holds 0 to 5"
                    ));
                }
                Fault::Scale { workload, .. }
                    if self.faults.iter().any(
                        |g| matches!(g, Fault::RolloutRestart { workload: r } if r == workload),
                    ) =>
                {
                    return Err(format!(
                        "scale `{workload}`: the Deployment also has a rolloutRestart; the model does not scale a Deployment during a rollout (proportional scaling is not modelled)"
                    ));
                }
                Fault::Scale { workload, .. }
                    if self
                        .faults
                        .iter()
                        .filter(|g| matches!(g, Fault::Scale { workload: r, .. } if r == workload))
                        .count()
                        > 1 =>
                {
                    return Err(format!(
                        "scale `{workload}`: one scale per Deployment (the model does not scale during a scale-down's rollout of pods)"
                    ));
                }
                Fault::Partition { node, .. }
                | Fault::DeleteNode { node }
                | Fault::OutOfServiceTaint { node }
                | Fault::MemoryPressure { node }
                | Fault::KubeletRestart { node }
                | Fault::PowerOff { node }
                | Fault::NodeShutdown { node }
                    if !self.cluster.nodes.iter().any(|n| &n.name == node) =>
                {
                    return Err(format!("fault names unknown node `{node}`"));
                }
                // `NewManager`: with no shutdown grace period the kubelet takes no inhibitor
                // lock, and a shutdown is immediate for its pods.
                Fault::NodeShutdown { node }
                    if self
                        .cluster
                        .nodes
                        .iter()
                        .any(|n| &n.name == node && n.shutdown_grace_period_seconds == 0) =>
                {
                    return Err(format!(
                        "nodeShutdown: node `{node}` has no shutdownGracePeriodSeconds, so its kubelet would not delay the shutdown (graceful node shutdown is off); set it, or use powerOff for a node that dies at once"
                    ));
                }
                _ => {}
            }
        }
        for c in self
            .workloads
            .iter()
            .flat_map(|w| w.template().containers.iter())
        {
            if let Some(ps) = c.lifecycle.as_ref().and_then(|l| l.post_start.as_ref()) {
                if ps.exec.is_some() == ps.sleep.is_some() {
                    return Err(format!(
                        "container `{}`: postStart needs exactly one of exec and sleep",
                        c.name
                    ));
                }
            }
        }
        self.validate_budgets_and_drains()
    }

    /// Budgets: names, selected workloads, one of minAvailable and maxUnavailable (as
    /// `ValidatePodDisruptionBudgetSpec`); drains, cordons and uncordons: known nodes.
    fn validate_budgets_and_drains(&self) -> Result<(), String> {
        let known = |n: &str| self.workloads.iter().any(|w| w.name() == n);
        let mut names = std::collections::BTreeSet::new();
        if self.pod_disruption_budgets.len() > MAX_BUDGETS {
            return Err(format!(
                "podDisruptionBudgets: {} budgets, the model holds at most {MAX_BUDGETS}",
                self.pod_disruption_budgets.len()
            ));
        }
        for b in &self.pod_disruption_budgets {
            let what = format!("podDisruptionBudgets `{}`", b.metadata.name);
            if !names.insert(b.metadata.name.as_str()) {
                return Err(format!(
                    "podDisruptionBudgets: two budgets are named `{}`",
                    b.metadata.name
                ));
            }
            if b.spec.selects.is_empty() {
                return Err(format!("{what}: spec.selects must name a workload"));
            }
            for n in &b.spec.selects {
                if !known(n) {
                    return Err(format!("{what}: spec.selects names unknown workload `{n}`"));
                }
            }
            match (&b.spec.min_available, &b.spec.max_unavailable) {
                (Some(_), Some(_)) => {
                    return Err(format!(
                        "{what}: spec: minAvailable and maxUnavailable cannot be both set"
                    ))
                }
                (None, None) => {
                    return Err(format!(
                        "{what}: spec: give one of minAvailable and maxUnavailable"
                    ))
                }
                (Some(v), None) => {
                    v.amount(&format!("{what}: spec.minAvailable"))?;
                }
                (None, Some(v)) => {
                    v.amount(&format!("{what}: spec.maxUnavailable"))?;
                }
            }
        }
        for f in &self.faults {
            if let Fault::Cordon { node } | Fault::Uncordon { node } | Fault::Drain { node, .. } = f
            {
                if !self.cluster.nodes.iter().any(|n| &n.name == node) {
                    return Err(format!("fault names unknown node `{node}`"));
                }
            }
        }
        Ok(())
    }

    /// Resizes the scenario: `nodes` nodes (extra ones copy the last node's spec and are
    /// named `node-N`, the first N no node has), and `replicas` for every Deployment and
    /// StatefulSet.
    pub fn resize(&mut self, nodes: Option<u8>, replicas: Option<u8>) -> Result<(), String> {
        let mut removed = Vec::new();
        if let Some(n) = nodes {
            if !(1..=5).contains(&n) {
                return Err(format!("--nodes {n}: must be 1 to 5"));
            }
            let n = n as usize;
            let template = self.cluster.nodes.last().cloned().ok_or("no nodes")?;
            removed = self
                .cluster
                .nodes
                .iter()
                .skip(n)
                .map(|node| format!("`{}`", node.name))
                .collect();
            self.cluster.nodes.truncate(n);
            let mut k = self.cluster.nodes.len();
            while self.cluster.nodes.len() < n {
                k += 1;
                let name = format!("node-{k}");
                if self.cluster.nodes.iter().any(|node| node.name == name) {
                    continue;
                }
                let mut node = template.clone();
                node.name = name;
                self.cluster.nodes.push(node);
            }
        }
        if let Some(r) = replicas {
            if !(1..=5).contains(&r) {
                return Err(format!("--replicas {r}: must be 1 to 5"));
            }
            for w in &mut self.workloads {
                w.set_replicas(r);
            }
        }
        self.validate().map_err(|e| {
            if removed.is_empty() {
                e
            } else {
                format!(
                    "{e} (--nodes {} leaves out {})",
                    self.cluster.nodes.len(),
                    removed.join(", ")
                )
            }
        })
    }

    /// Every claim the scenario's pods can use, in a fixed order: the declared
    /// `persistentVolumeClaims`, then each StatefulSet's claims (template by template,
    /// ordinal by ordinal, named `<template>-<statefulset>-<ordinal>`), then the claims pods
    /// name that are not declared (no access modes known). Each with its access modes (an
    /// invalid one, which validation rejects, is left out).
    pub fn claims(&self) -> Vec<(String, Vec<AccessMode>)> {
        let modes = |c: &ClaimSpec| c.access_modes("").unwrap_or_default();
        let mut out: Vec<(String, Vec<AccessMode>)> = self
            .persistent_volume_claims
            .iter()
            .map(|c| (c.metadata.name.clone(), modes(c)))
            .collect();
        for w in &self.workloads {
            if let Workload::StatefulSet { spec, metadata } = w {
                for c in &spec.volume_claim_templates {
                    for ordinal in 0..spec.replicas {
                        let name = format!("{}-{}-{ordinal}", c.metadata.name, metadata.name);
                        if !out.iter().any(|(n, _)| *n == name) {
                            out.push((name, modes(c)));
                        }
                    }
                }
            }
        }
        for w in &self.workloads {
            for v in &w.template().volumes {
                if let Some(r) = &v.persistent_volume_claim {
                    if !out.iter().any(|(n, _)| *n == r.claim_name) {
                        out.push((r.claim_name.clone(), Vec::new()));
                    }
                }
            }
        }
        out
    }

    /// The claims a pod of workload `w` with name suffix (ordinal) `suffix` mounts: (the pod's
    /// volume name, the claim's name).
    pub fn pod_claims(&self, w: usize, suffix: u8) -> Vec<(String, String)> {
        let wl = &self.workloads[w];
        let mut out: Vec<(String, String)> = wl
            .template()
            .volumes
            .iter()
            .filter_map(|v| {
                v.persistent_volume_claim
                    .as_ref()
                    .map(|r| (v.name.clone(), r.claim_name.clone()))
            })
            .collect();
        if let Workload::StatefulSet { spec, metadata } = wl {
            for c in &spec.volume_claim_templates {
                out.push((
                    c.metadata.name.clone(),
                    format!("{}-{}-{suffix}", c.metadata.name, metadata.name),
                ));
            }
        }
        out
    }

    /// The expected verdict of `property` at the scenario's release, if the scenario states
    /// one.
    pub fn expected(&self, property: &str) -> Option<&Expectation> {
        let r = self.release().unwrap_or(Release::NEWEST);
        self.expect
            .iter()
            .find(|e| e.property == property && e.applies_to(r))
    }

    /// Expectations bounded by release: for a property, at most one applies to each
    /// release, and one applies to every release if any is bounded.
    fn validate_expectations(&self) -> Result<(), String> {
        for e in &self.expect {
            if let (Some(f), Some(b)) = (e.from, e.before) {
                if f >= b {
                    return Err(format!(
                        "expect `{}`: from {f} before {b} is no release at all",
                        e.property
                    ));
                }
            }
        }
        for e in &self.expect {
            let same: Vec<&Expectation> = self
                .expect
                .iter()
                .filter(|x| x.property == e.property)
                .collect();
            let bounded = same.iter().any(|x| x.from.is_some() || x.before.is_some());
            for minor in Release::OLDEST.minor..=Release::NEWEST.minor {
                let r = Release { minor };
                let n = same.iter().filter(|x| x.applies_to(r)).count();
                if n > 1 {
                    return Err(format!(
                        "expect `{}`: {n} expectations apply to Kubernetes {r}",
                        e.property
                    ));
                }
                if bounded && n == 0 {
                    return Err(format!(
                        "expect `{}`: no expectation applies to Kubernetes {r} (give `from` and `before` that cover every release)",
                        e.property
                    ));
                }
            }
        }
        Ok(())
    }
}

/// What the API server's validation of a Deployment (`pkg/apis/apps/validation/validation.go`
/// `ValidateDeploymentSpec`, `ValidateDeploymentStrategy`, `ValidateRollingUpdateDeployment`)
/// refuses among the fields the model reads, with its message and field path:
///
/// - `rollingUpdate` under `type: Recreate` (Forbidden);
/// - `maxSurge` or `maxUnavailable` that is a negative integer, or a string that is not a
///   percentage (`ValidatePositiveIntOrPercent`, `IsValidPercent`);
/// - both zero after defaulting (`may not be 0 when `maxSurge` is 0`: a percentage counts
///   by its number, so `0%` is zero too);
/// - `maxUnavailable` over 100% (`IsNotMoreThan100Percent`);
/// - `progressDeadlineSeconds` not greater than `minReadySeconds`.
///
/// `docs/sources.md#deployment-rolling-update`.
pub fn validate_deployment_spec(name: &str, spec: &DeploymentSpec) -> Result<(), String> {
    let at = |path: &str, what: String| format!("workload `{name}`: {path}: {what}");
    let strategy = &spec.strategy;
    if strategy.kind == StrategyType::Recreate && strategy.rolling_update.is_some() {
        return Err(at(
            "spec.strategy.rollingUpdate",
            "Forbidden: may not be specified when strategy `type` is 'Recreate'".into(),
        ));
    }
    if let Some((surge, unavailable)) = strategy.rolling() {
        let base = "spec.strategy.rollingUpdate";
        let mut values = [0i64; 2];
        for (i, (field, v)) in [("maxUnavailable", &unavailable), ("maxSurge", &surge)]
            .into_iter()
            .enumerate()
        {
            let path = format!("{base}.{field}");
            values[i] = match v {
                IntOrString::Int(n) if *n < 0 => {
                    return Err(at(
                        &path,
                        format!("Invalid value: {n}: must be greater than or equal to 0"),
                    ));
                }
                IntOrString::Int(n) => *n,
                IntOrString::String(text) => match percent(text) {
                    Some(p) => p,
                    None => {
                        return Err(at(
                            &path,
                            format!(
                                "Invalid value: {v}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
                            ),
                        ));
                    }
                },
            };
        }
        if values == [0, 0] {
            return Err(at(
                &format!("{base}.maxUnavailable"),
                format!("Invalid value: {unavailable}: may not be 0 when `maxSurge` is 0"),
            ));
        }
        if matches!(&unavailable, IntOrString::String(_)) && values[0] > 100 {
            return Err(at(
                &format!("{base}.maxUnavailable"),
                format!("Invalid value: {unavailable}: must not be greater than 100%"),
            ));
        }
    }
    if spec.progress_deadline_seconds <= spec.min_ready_seconds {
        return Err(at(
            "spec.progressDeadlineSeconds",
            format!(
                "Invalid value: {}: must be greater than minReadySeconds",
                spec.progress_deadline_seconds
            ),
        ));
    }
    Ok(())
}

/// Where a workload's pod spec is, in the API's field paths.
fn pod_spec_path(w: &Workload) -> &'static str {
    match w {
        Workload::Pod { .. } | Workload::StaticPod { .. } => "spec",
        _ => "spec.template.spec",
    }
}

/// What the API server's validation (`pkg/apis/core/validation/validation.go`) refuses among
/// the pod spec fields the model reads, with its message and field path, as `kubectl apply`
/// prints them (`<path>: Invalid value: <value>: <detail>`):
///
/// - a container name given twice in the pod (`validateContainers`, `validateInitContainers`:
///   `Duplicate value`);
/// - a `sleep` lifecycle handler longer than `terminationGracePeriodSeconds`
///   (`validateSleepAction`; zero seconds is allowed since PodLifecycleSleepActionAllowZero,
///   KEP-4818, beta in 1.33);
/// - a liveness or startup probe with `successThreshold` other than 1
///   (`validateLivenessProbe`, `validateStartupProbe`: "must be 1");
/// - a readiness probe with `terminationGracePeriodSeconds` (`validateReadinessProbe`: "must
///   not be set for readinessProbes"), and a probe's `terminationGracePeriodSeconds` of 0
///   (`validateProbe`: "must be greater than 0").
/// - a container `restartPolicy` on a regular container (`validateContainers`: "may not be
///   set for non-init containers"), or other than `Always` on an init container
///   (`validateInitContainers`: `Unsupported value`); docs/sources.md#sidecar-containers.
pub fn validate_pod_spec(w: &Workload, t: &PodSpec) -> Result<(), String> {
    let at = |path: String, what: String| format!("workload `{}`: {path}: {what}", w.name());
    let base = pod_spec_path(w);
    let grace = t.termination_grace_period_seconds;
    if let Some(terms) = &t.required_node_affinity {
        let here = format!("{base}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
        if terms.is_empty() {
            return Err(at(
                here,
                "Required value: must have at least one node selector term".into(),
            ));
        }
        for (i, term) in terms.iter().enumerate() {
            for (list, reqs, fields) in [
                ("matchExpressions", &term.match_expressions, false),
                ("matchFields", &term.match_fields, true),
            ] {
                for (j, r) in reqs.iter().enumerate() {
                    r.validate(fields)
                        .map_err(|e| at(format!("{here}[{i}].{list}[{j}]"), e))?;
                }
            }
        }
    }
    for (i, tol) in t.tolerations.iter().enumerate() {
        let Some(secs) = tol.toleration_seconds else {
            continue;
        };
        let here = format!("{base}.tolerations[{i}]");
        // `ValidateTolerations` (`pkg/apis/core/validation/validation.go`): tolerationSeconds
        // only goes with the NoExecute effect.
        if tol.effect != Some(crate::k8s::TaintEffect::NoExecute) {
            return Err(at(
                format!("{here}.effect"),
                "Invalid value: effect must be 'NoExecute' when `tolerationSeconds` is set".into(),
            ));
        }
        // Zero and negative values evict at once (`getMinTolerationTime`); a larger one must
        // fit the clock, or the taint's age would stop short of it and the pod would be
        // tolerated for ever.
        if secs > MAX_SECONDS as i64 {
            return Err(at(
                format!("{here}.tolerationSeconds"),
                format!(
                    "tolerationSeconds must be at most {MAX_SECONDS} (the model's clock holds durations up to that many seconds), not {secs}"
                ),
            ));
        }
    }
    let mut names = std::collections::BTreeSet::new();
    for (list, ctrs) in [
        ("initContainers", &t.init_containers),
        ("containers", &t.containers),
    ] {
        for (i, c) in ctrs.iter().enumerate() {
            let here = format!("{base}.{list}[{i}]");
            if !names.insert(c.name.as_str()) {
                return Err(at(
                    format!("{here}.name"),
                    format!("Duplicate value: \"{}\"", c.name),
                ));
            }
            // A process's exit status is 8 bits (`exit(256)` is a status of 0, a success): a
            // code outside 0–255 is one no container can report.
            let codes = [
                ("app.exitCode", Some(c.app.exit_code)),
                (
                    "app.onSigterm.exit",
                    match c.app.on_sigterm {
                        OnSigterm::Exit(code) => Some(code),
                        OnSigterm::Ignore => None,
                    },
                ),
            ];
            for (field, code) in codes {
                if let Some(code) = code.filter(|c| !(0..=255).contains(c)) {
                    return Err(at(
                        format!("{here}.{field}"),
                        format!("an exit code must be 0 to 255 (a process's exit status is 8 bits), not {code}"),
                    ));
                }
            }
            let sleeps = c.lifecycle.as_ref().map(|l| {
                [
                    ("preStop", l.pre_stop.as_ref().map(|p| p.sleep.seconds)),
                    (
                        "postStart",
                        l.post_start
                            .as_ref()
                            .and_then(|p| p.sleep.as_ref())
                            .map(|s| s.seconds),
                    ),
                ]
            });
            for (hook, secs) in sleeps.into_iter().flatten() {
                if let Some(secs) = secs.filter(|s| *s > grace) {
                    return Err(at(
                        format!("{here}.lifecycle.{hook}.sleep.seconds"),
                        format!(
                            "Invalid value: {secs}: must be non-negative and less than terminationGracePeriodSeconds ({grace})"
                        ),
                    ));
                }
            }
            if let Some(g) = c
                .readiness_probe
                .as_ref()
                .and_then(|p| p.termination_grace_period_seconds)
            {
                return Err(at(
                    format!("{here}.readinessProbe.terminationGracePeriodSeconds"),
                    format!("Invalid value: {g}: must not be set for readinessProbes"),
                ));
            }
            if list == "initContainers" && !c.is_sidecar() {
                // validateInitContainers: "These fields are disallowed for init containers."
                for (field, set) in [
                    ("lifecycle", c.lifecycle.is_some()),
                    ("livenessProbe", c.liveness_probe.is_some()),
                    ("readinessProbe", c.readiness_probe.is_some()),
                    ("startupProbe", c.startup_probe.is_some()),
                ] {
                    if set {
                        return Err(at(
                            format!("{here}.{field}"),
                            "Forbidden: may not be set for init containers without restartPolicy=Always".into(),
                        ));
                    }
                }
            }
            match (list, c.restart_policy) {
                (_, None) | ("initContainers", Some(RestartPolicy::Always)) => {}
                ("initContainers", Some(other)) => {
                    return Err(at(
                        format!("{here}.restartPolicy"),
                        format!(
                            "Unsupported value: \"{}\": supported values: \"Always\"",
                            restart_policy_name(other)
                        ),
                    ));
                }
                (_, Some(_)) => {
                    return Err(at(
                        format!("{here}.restartPolicy"),
                        "Forbidden: may not be set for non-init containers".into(),
                    ));
                }
            }
            for (kind, p) in [
                ("livenessProbe", &c.liveness_probe),
                ("startupProbe", &c.startup_probe),
            ] {
                if let Some(0) = p.as_ref().and_then(|p| p.termination_grace_period_seconds) {
                    return Err(at(
                        format!("{here}.{kind}.terminationGracePeriodSeconds"),
                        "Invalid value: 0: must be greater than 0".into(),
                    ));
                }
                if let Some(p) = p.as_ref().filter(|p| p.success_threshold != 1) {
                    return Err(at(
                        format!("{here}.{kind}.successThreshold"),
                        format!("Invalid value: {}: must be 1", p.success_threshold),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Sidecar containers (init containers with `restartPolicy: Always`): the release must have
/// gate `SidecarContainers` on (beta, on by default, from 1.29; KEP-753). At 1.28 the gate is
/// off and the API server drops the field (`pkg/api/pod/util.go` `dropDisabledPodFields`),
/// and before 1.28 the field does not exist; either way the container would run as a regular
/// init container, which is not what the scenario asks for, so it is refused with the
/// release it needs. A postStart hook on a sidecar is not modelled.
/// `docs/sources.md#sidecar-containers`.
pub fn validate_sidecars(w: &Workload, t: &PodSpec, release: Release) -> Result<(), String> {
    let base = pod_spec_path(w);
    for (i, c) in t.init_containers.iter().enumerate() {
        if !c.is_sidecar() {
            continue;
        }
        let here = format!("workload `{}`: {base}.initContainers[{i}]", w.name());
        if !release.at_least(29) {
            return Err(format!(
                "{here}.restartPolicy: a sidecar container needs Kubernetes 1.29 or later (feature gate SidecarContainers); the scenario follows {release}, whose API server drops the field"
            ));
        }
        if c.lifecycle.as_ref().is_some_and(|l| l.post_start.is_some()) {
            return Err(format!(
                "{here}.lifecycle.postStart: a postStart hook on a sidecar container is not modelled"
            ));
        }
    }
    Ok(())
}

/// The spelling of a restart policy in a manifest.
fn restart_policy_name(p: RestartPolicy) -> &'static str {
    match p {
        RestartPolicy::Always => "Always",
        RestartPolicy::OnFailure => "OnFailure",
        RestartPolicy::Never => "Never",
    }
}

/// Jobs the model holds: at most this many pods at once and this many completion indexes.
pub const MAX_JOB_PARALLELISM: u8 = 5;
pub const MAX_JOB_COMPLETIONS: u8 = 16;

/// What the API server's Job validation (`pkg/apis/batch/validation/validation.go`
/// `validateJobSpec`, `validatePodFailurePolicy`, `validateSuccessPolicy`) refuses among the
/// fields the model reads, with its message and field path; the fields whose feature gate is
/// off in the chosen release; and the sizes the model holds.
pub fn validate_job_spec(name: &str, j: &JobSpec, release: Release) -> Result<(), String> {
    let at = |path: &str, what: String| format!("workload `{name}`: spec.{path}: {what}");
    // The releases where the gates turned on by default, as `ByRelease::of` has them.
    let since = |minor| release.at_least(minor);
    let gate = |field: &str, on: bool, gate: &str, since: &str| {
        if on {
            Ok(())
        } else {
            Err(at(
                field,
                format!(
                    "needs Kubernetes {since} or later (feature gate {gate}); the scenario follows {release}, whose API server drops the field"
                ),
            ))
        }
    };
    if j.pod_failure_policy.is_some() {
        gate("podFailurePolicy", since(26), "JobPodFailurePolicy", "1.26")?;
    }
    if j.pod_replacement_policy.is_some() {
        gate(
            "podReplacementPolicy",
            since(29),
            "JobPodReplacementPolicy",
            "1.29",
        )?;
    }
    if j.backoff_limit_per_index.is_some() || j.max_failed_indexes.is_some() {
        gate(
            "backoffLimitPerIndex",
            since(29),
            "JobBackoffLimitPerIndex",
            "1.29",
        )?;
    }
    if j.success_policy.is_some() {
        gate("successPolicy", since(31), "JobSuccessPolicy", "1.31")?;
    }
    if let Some(p) = j.parallelism {
        if p == 0 || p > MAX_JOB_PARALLELISM {
            return Err(at(
                "parallelism",
                format!("{p}: the model holds 1 to {MAX_JOB_PARALLELISM}"),
            ));
        }
    }
    if let Some(c) = j.completions {
        if c == 0 || c > MAX_JOB_COMPLETIONS {
            return Err(at(
                "completions",
                format!("{c}: the model holds 1 to {MAX_JOB_COMPLETIONS}"),
            ));
        }
    }
    let restart = j.template.spec.restart_policy;
    if restart == RestartPolicy::Always {
        return Err(at(
            "template.spec.restartPolicy",
            "Required value: valid values: \"OnFailure\", \"Never\"".into(),
        ));
    }
    if let Some(m) = j.max_failed_indexes {
        if j.backoff_limit_per_index.is_none() {
            return Err(at(
                "backoffLimitPerIndex",
                "Required value: when maxFailedIndexes is specified".into(),
            ));
        }
        if j.completions.is_some_and(|c| m > c) {
            return Err(at(
                "maxFailedIndexes",
                format!("Invalid value: {m}: must be less than or equal to completions"),
            ));
        }
    }
    if j.indexed() {
        if j.completions.is_none() {
            return Err(at(
                "completions",
                "Required value: when completion mode is Indexed".into(),
            ));
        }
    } else {
        if let Some(b) = j.backoff_limit_per_index {
            return Err(at(
                "backoffLimitPerIndex",
                format!("Invalid value: {b}: requires indexed completion mode"),
            ));
        }
        if let Some(m) = j.max_failed_indexes {
            return Err(at(
                "maxFailedIndexes",
                format!("Invalid value: {m}: requires indexed completion mode"),
            ));
        }
        if j.success_policy.is_some() {
            return Err(at(
                "successPolicy",
                "Invalid value: requires indexed completion mode".into(),
            ));
        }
    }
    if let Some(p) = &j.pod_failure_policy {
        if p.rules.len() > 20 {
            return Err(at(
                "podFailurePolicy.rules",
                format!("Too many: {}: must have at most 20 items", p.rules.len()),
            ));
        }
        let names: Vec<&str> = j
            .template
            .spec
            .containers
            .iter()
            .chain(&j.template.spec.init_containers)
            .map(|c| c.name.as_str())
            .collect();
        for (i, r) in p.rules.iter().enumerate() {
            let rule = format!("podFailurePolicy.rules[{i}]");
            if r.action == PodFailurePolicyActionSpec::FailIndex
                && j.backoff_limit_per_index.is_none()
            {
                return Err(at(
                    &format!("{rule}.action"),
                    "Invalid value: \"FailIndex\": requires the backoffLimitPerIndex to be set"
                        .into(),
                ));
            }
            match (&r.on_exit_codes, r.on_pod_conditions.is_empty()) {
                (Some(_), false) => {
                    return Err(at(
                        &rule,
                        "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported".into(),
                    ))
                }
                (None, true) => {
                    return Err(at(
                        &rule,
                        "Invalid value: specifying one of OnExitCodes and OnPodConditions is required".into(),
                    ))
                }
                _ => {}
            }
            if r.on_pod_conditions.len() > 20 {
                return Err(at(
                    &format!("{rule}.onPodConditions"),
                    format!(
                        "Too many: {}: must have at most 20 items",
                        r.on_pod_conditions.len()
                    ),
                ));
            }
            if let Some(e) = &r.on_exit_codes {
                let here = format!("{rule}.onExitCodes");
                if let Some(c) = &e.container_name {
                    if !names.contains(&c.as_str()) {
                        return Err(at(
                            &format!("{here}.containerName"),
                            format!("Invalid value: \"{c}\": must be one of the container or initContainer names in the pod template"),
                        ));
                    }
                }
                if e.values.is_empty() {
                    return Err(at(
                        &format!("{here}.values"),
                        "Invalid value: []: at least one value is required".into(),
                    ));
                }
                if e.values.len() > 255 {
                    return Err(at(
                        &format!("{here}.values"),
                        format!("Too many: {}: must have at most 255 items", e.values.len()),
                    ));
                }
                for (k, v) in e.values.iter().enumerate() {
                    if e.operator == crate::k8s::ExitCodesOperator::In && *v == 0 {
                        return Err(at(
                            &format!("{here}.values[{k}]"),
                            "Invalid value: 0: must not be 0 for the In operator".into(),
                        ));
                    }
                    if e.values[..k].contains(v) {
                        return Err(at(
                            &format!("{here}.values[{k}]"),
                            format!("Duplicate value: {v}"),
                        ));
                    }
                }
                if e.values.windows(2).any(|w| w[0] > w[1]) {
                    return Err(at(
                        &format!("{here}.values"),
                        format!("Invalid value: {:?}: must be ordered", e.values),
                    ));
                }
            }
        }
        if restart != RestartPolicy::Never {
            return Err(at(
                "template.spec.restartPolicy",
                "Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified".into(),
            ));
        }
        if j.pod_replacement_policy == Some(PodReplacementPolicy::TerminatingOrFailed) {
            return Err(at(
                "podReplacementPolicy",
                "Unsupported value: \"TerminatingOrFailed\": supported values: \"Failed\"".into(),
            ));
        }
    }
    if let Some(p) = &j.success_policy {
        let completions = j.completions.unwrap_or(0);
        if p.rules.is_empty() {
            return Err(at(
                "successPolicy.rules",
                "Required value: at least one rules must be specified when the successPolicy is specified".into(),
            ));
        }
        if p.rules.len() > 20 {
            return Err(at(
                "successPolicy.rules",
                format!("Too many: {}: must have at most 20 items", p.rules.len()),
            ));
        }
        for (i, r) in p.rules.iter().enumerate() {
            let rule = format!("successPolicy.rules[{i}]");
            if r.succeeded_count.is_none() && r.succeeded_indexes.is_none() {
                return Err(at(
                    &rule,
                    "Required value: at least one of succeededCount or succeededIndexes must be specified".into(),
                ));
            }
            let mut total = completions as u32;
            if let Some(idx) = &r.succeeded_indexes {
                let set = crate::k8s::parse_indexes(idx, completions).map_err(|e| {
                    at(
                        &format!("{rule}.succeededIndexes"),
                        format!("Invalid value: \"{idx}\": error parsing succeededIndexes: {e}"),
                    )
                })?;
                total = set.count_ones();
            }
            if let Some(c) = r.succeeded_count {
                if c > completions {
                    return Err(at(
                        &format!("{rule}.succeededCount"),
                        format!("Invalid value: {c}: must be less than or equal to {completions} (the number of specified completions)"),
                    ));
                }
                if r.succeeded_indexes.is_some() && c as u32 > total {
                    return Err(at(
                        &format!("{rule}.succeededCount"),
                        format!("Invalid value: {c}: must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A fault plan (`crate::plan`): one thing that happens to a running application, named in
/// `podcheck.dev/plans` annotations and on the command line.
/// [`Plan::ALL`] is the default set, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Plan {
    /// `kubectl delete pod` of a Ready pod of the workload, with the pod's grace period.
    DeletePod,
    /// `kubectl rollout restart deployment/<name>`: a new ReplicaSet replaces every pod.
    Rollout,
    /// The external dependency (a database, an API the program calls) is down for
    /// [`OUTAGE_SECONDS`], then comes back.
    DependencyOutage,
    /// The program in the workload's first container crashes once (exit code 1).
    Crash,
    /// `kubectl drain --ignore-daemonsets --delete-emptydir-data` of the node of the
    /// workload's first pod, as a cluster upgrade runs it.
    Drain,
    /// The node of the workload's first pod is cut off from the API server for good; its
    /// containers keep running.
    Partition,
    /// The same partition, then an operator's `kubectl delete pod --grace-period=0 --force`
    /// of the pod stuck Terminating there.
    PartitionForceDelete,
    /// The node of the workload's first pod dies (power-off): its containers are gone at once.
    PowerOff,
}

/// How long the dependency outage of [`Plan::DependencyOutage`] lasts: long enough for the
/// default probe settings (`periodSeconds: 10`, `failureThreshold: 3`: 30 s of failures) to
/// act on it twice over, so that a probe that checks the dependency has its effect.
pub const OUTAGE_SECONDS: u16 = 60;

impl Plan {
    /// Every plan, the default set.
    pub const ALL: [Plan; 8] = [
        Plan::DeletePod,
        Plan::Rollout,
        Plan::DependencyOutage,
        Plan::Crash,
        Plan::Drain,
        Plan::Partition,
        Plan::PartitionForceDelete,
        Plan::PowerOff,
    ];

    /// The plan's name on the command line (`--plan delete-pod,drain`).
    pub fn name(self) -> &'static str {
        match self {
            Plan::DeletePod => "delete-pod",
            Plan::Rollout => "rollout",
            Plan::DependencyOutage => "dependency-outage",
            Plan::Crash => "crash",
            Plan::Drain => "drain",
            Plan::Partition => "partition",
            Plan::PartitionForceDelete => "partition-force-delete",
            Plan::PowerOff => "power-off",
        }
    }

    /// What the plan does, in one sentence.
    pub fn describe(self) -> &'static str {
        match self {
            Plan::DeletePod => "`kubectl delete pod` of a Ready pod, with its grace period",
            Plan::Rollout => "`kubectl rollout restart` of the Deployment",
            Plan::DependencyOutage => {
                "the external dependency is down for 60 s, then comes back"
            }
            Plan::Crash => "the program in the first container of one pod crashes (exit code 1)",
            Plan::Drain => {
                "`kubectl drain --ignore-daemonsets --delete-emptydir-data` of the node of the first pod"
            }
            Plan::Partition => "the node of the first pod is cut off from the API server for good",
            Plan::PartitionForceDelete => {
                "the node of the first pod is cut off, and the pod stuck Terminating there is force-deleted"
            }
            Plan::PowerOff => "the node of the first pod powers off",
        }
    }

    /// The plan named `s`, or an error listing the names.
    pub fn parse(s: &str) -> Result<Plan, String> {
        Plan::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Plan::ALL.iter().map(|p| p.name()).collect();
                format!("unknown plan `{s}`; the plans are: {}", names.join(", "))
            })
    }
}
