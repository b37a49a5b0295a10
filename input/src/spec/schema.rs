//! The scenario schema: the types a scenario file is made of, and how they read and write
//! (serde). What serde cannot check is in [`super::validate`].

use super::{Release, MAX_SECONDS};

pub use podcheck_k8s::deployment::{percent, IntOrString};
use podcheck_k8s::{NodeSelectorTerm, Resources, RestartPolicy, Taint, Toleration};
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
    /// Never read from YAML: set by the cone of influence ([`crate::cone`]) only. Where the
    /// canonical startup (`start: settled`) binds these pods: (workload name, pod name
    /// suffix, node name), as the whole application's settled cluster placed them.
    #[serde(skip)]
    pub settle_placement: Vec<SettlePlacement>,
    /// Never read from YAML: set by the plans ([`crate::plan`]) only. For a node plan whose
    /// node holds pods of workloads that share nothing and cannot compete for a place
    /// ([`crate::cone::independent_groups`]): the workloads on that node this scenario checks
    /// (the target's group); the cone then leaves the node's other workloads out. None: every
    /// workload with a pod on the node.
    #[serde(skip)]
    pub node_focus: Option<Vec<String>>,
}

/// One pod's node in the settled start ([`Scenario::settle_placement`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SettlePlacement {
    pub workload: String,
    pub suffix: u8,
    pub node: String,
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
    /// the oldest terminated pods above it; 0 turns that off.
    #[serde(default = "default_terminated_pod_gc_threshold")]
    pub terminated_pod_gc_threshold: u16,
}

fn default_terminated_pod_gc_threshold() -> u16 {
    12500
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
    /// What the scheduler's scoring counts for those pods (its `NonZeroRequested`, where a
    /// container requesting no cpu or no memory counts 100m or 200Mi;
    /// `docs/sources.md#scheduler-default-scoring`). Absent: `usedByOtherPods`, pods that
    /// request what they use. The cone of influence sets it for the pods it leaves out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scored_as_used_by_other_pods: Option<Resources>,
    /// The node's labels. The model adds those a kubelet registers its node with where
    /// they are missing: `kubernetes.io/hostname` (the name), `kubernetes.io/os=linux`,
    /// `kubernetes.io/arch=amd64`, and the deprecated `beta.kubernetes.io/os` and
    /// `beta.kubernetes.io/arch` (`docs/sources.md#kubelet-well-known-node-labels`).
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
                ..Resources::default()
            },
            used_by_other_pods: Resources {
                cpu_milli: used_cpu_milli,
                memory_mi: 0,
                ..Resources::default()
            },
            scored_as_used_by_other_pods: None,
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
    /// `true`: a ReplicaSet or ReplicationController of the manifests, checked as a Deployment
    /// of one ReplicaSet; `kubectl rollout restart` does not act on one, so the rollout plan
    /// leaves it out (default false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_rollout: bool,
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
            no_rollout: false,
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
    /// `minReadySeconds` (default 0): with OrderedReady, each pod must have been Ready this
    /// long (Available) before the next ordinal is created (`stateful_set_control.go`
    /// `processReplica`, `isRunningAndAvailable`). Gate `StatefulSetMinReadySeconds`: beta,
    /// on by default, from 1.23; GA in 1.25.
    #[serde(default)]
    pub min_ready_seconds: u16,
    /// `updateStrategy` (default RollingUpdate, partition 0, maxUnavailable 1): how the
    /// controller replaces the pods of an older revision after the template changes
    /// (`docs/sources.md#statefulset-rolling-update`).
    #[serde(default, skip_serializing_if = "StatefulSetUpdateStrategy::is_default")]
    pub update_strategy: StatefulSetUpdateStrategy,
}

/// `spec.updateStrategy` of a StatefulSet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSetUpdateStrategy {
    #[serde(default, rename = "type")]
    pub kind: StatefulSetStrategyType,
    #[serde(default)]
    pub rolling_update: Option<RollingUpdateStatefulSet>,
}

/// `spec.updateStrategy.type` of a StatefulSet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StatefulSetStrategyType {
    /// The controller deletes the pods of an older revision, the largest ordinal first.
    #[default]
    RollingUpdate,
    /// The controller never deletes a pod for an update: a pod takes the new revision only
    /// when it is deleted by someone else and recreated.
    OnDelete,
}

/// `spec.updateStrategy.rollingUpdate` of a StatefulSet (`SetDefaults_StatefulSet`: partition
/// 0; maxUnavailable 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RollingUpdateStatefulSet {
    /// Ordinals below it keep the current revision (default 0).
    #[serde(default)]
    pub partition: u8,
    /// A number of pods or a percentage of `replicas` (rounded up, at least 1); honoured from
    /// 1.35 (gate `MaxUnavailableStatefulSet` beta, on by default; KEP-961).
    #[serde(default)]
    pub max_unavailable: Option<IntOrString>,
}

impl StatefulSetUpdateStrategy {
    pub fn is_default(&self) -> bool {
        *self == StatefulSetUpdateStrategy::default()
    }

    /// The partition: ordinals below it are not updated (0 unless RollingUpdate sets one).
    pub fn partition(&self) -> u8 {
        self.rolling_update.as_ref().map_or(0, |r| r.partition)
    }

    /// `getStatefulSetMaxUnavailable`: `maxUnavailable` scaled against `replicas`, rounded up,
    /// and at least 1; 1 when unset.
    pub fn max_unavailable(&self, replicas: u8) -> u8 {
        let Some(v) = self
            .rolling_update
            .as_ref()
            .and_then(|r| r.max_unavailable.as_ref())
        else {
            return 1;
        };
        let n = podcheck_k8s::deployment::scaled_value(v, i64::from(replicas), true).unwrap_or(1);
        n.clamp(1, i64::from(u8::MAX)) as u8
    }
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
    pub operator: podcheck_k8s::ExitCodesOperator,
    pub values: Vec<i32>,
}

/// An `onPodConditions` pattern: `status` defaults to True.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OnPodConditionsSpec {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(default = "condition_true")]
    pub status: podcheck_k8s::ConditionStatus,
}

fn condition_true() -> podcheck_k8s::ConditionStatus {
    podcheck_k8s::ConditionStatus::True
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
    /// Whether the attach/detach controller attaches the claim's volume to a node before the
    /// kubelet mounts it (default true). False for a volume whose plugin has no attacher,
    /// such as `hostPath`, `local` and `nfs` PersistentVolumes: the controller skips it
    /// (`ProcessPodVolumes` in `pkg/controller/volume/attachdetach/util/util.go`: "it does
    /// not implement attacher interface") and the kubelet takes it as attached
    /// (`GenerateVerifyControllerAttachedVolumeFunc`), so it has no Multi-Attach error and
    /// every node mounts it at once. `podcheck check -f` sets it from the PersistentVolume a
    /// claim binds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attachable: Option<bool>,
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
        self.modes().map_err(|detail| {
            format!(
                "{what} `{}`: spec.accessModes: {detail}",
                self.metadata.name
            )
        })
    }

    /// [`ClaimSpec::access_modes`], the error without the field it is about.
    pub fn modes(&self) -> Result<Vec<AccessMode>, String> {
        if self.spec.access_modes.is_empty() {
            return Err("at least 1 access mode is required".into());
        }
        let mut modes = Vec::new();
        for m in &self.spec.access_modes {
            let Some(mode) = AccessMode::parse(m) else {
                return Err(format!(
                    "unknown access mode `{m}` (expected ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod)"
                ));
            };
            if !modes.contains(&mode) {
                modes.push(mode);
            }
        }
        if modes.contains(&AccessMode::ReadWriteOncePod) && modes.len() > 1 {
            return Err("may not use ReadWriteOncePod with other access modes".into());
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
    pub image_pull_policy: Option<podcheck_k8s::PullPolicy>,
    /// `restartPolicy` of the container: only `Always`, and only on an init container, which
    /// makes it a sidecar (a restartable init container, KEP-753; Kubernetes 1.29 or later).
    /// The API server refuses it on a regular container ([`super::validate_pod_spec`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<RestartPolicy>,
    #[serde(default)]
    pub app: App,
}

impl Container {
    /// The effective `imagePullPolicy`: as written, else `Always` for the tag `latest` (or
    /// none) and `IfNotPresent` otherwise (`SetDefaults_Container`;
    /// docs/sources.md#kubelet-image-pull-policy).
    pub fn pull_policy(&self) -> podcheck_k8s::PullPolicy {
        self.image_pull_policy
            .unwrap_or_else(|| podcheck_k8s::default_pull_policy(&self.image))
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
    /// Handles it and exits with `code` after `seconds` of its own shutdown (draining its
    /// connections, flushing a queue), unless SIGKILL comes first.
    ExitAfter { code: i32, seconds: u16 },
}

impl OnSigterm {
    /// Seconds from SIGTERM until the program exits (0: at once), `None` if it ignores it.
    pub fn stop_seconds(self) -> Option<u16> {
        match self {
            OnSigterm::Exit(_) => Some(0),
            OnSigterm::ExitAfter { seconds, .. } => Some(seconds),
            OnSigterm::Ignore => None,
        }
    }
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
    /// The node a fault acts on, for the faults that act on one node.
    pub fn node(&self) -> Option<&str> {
        match self {
            Fault::Partition { node, .. }
            | Fault::DeleteNode { node }
            | Fault::OutOfServiceTaint { node }
            | Fault::MemoryPressure { node }
            | Fault::KubeletRestart { node }
            | Fault::PowerOff { node }
            | Fault::NodeShutdown { node }
            | Fault::Cordon { node }
            | Fault::Uncordon { node }
            | Fault::Drain { node, .. } => Some(node),
            _ => None,
        }
    }

    /// A `deletePod` fault's `gracePeriodSeconds` for the request (None: the pod's own), or
    /// the error kubectl gives for its flags (`podcheck_k8s::delete_grace_period`).
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
        let g = podcheck_k8s::delete_grace_period(*grace_period_seconds, *force).map_err(|e| {
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
        self.read().map_err(|detail| format!("{field}: {detail}"))
    }

    /// [`IntOrPercent::amount`], the error without the field it is about.
    pub fn read(&self) -> Result<Amount, String> {
        match self {
            IntOrPercent::Int(n) if *n < 0 => {
                Err(format!("{n}: must be greater than or equal to 0"))
            }
            IntOrPercent::Int(n) if *n > u8::MAX as i64 => {
                Err(format!("{n}: the model holds at most {} pods", u8::MAX))
            }
            IntOrPercent::Int(n) => Ok(Amount::Count(*n as u8)),
            IntOrPercent::Text(t) => {
                let bad = || format!("`{t}` is neither a number nor a percentage such as `50%`");
                let digits = t.strip_suffix('%').ok_or_else(bad)?;
                if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                let v: u32 = digits.parse().map_err(|_| bad())?;
                if v > 100 {
                    return Err(format!("`{t}`: must not be greater than 100%"));
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

impl Scenario {
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
                e.to_string()
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
    /// invalid one, which validation rejects, is left out) and whether its volume is
    /// attachable ([`ClaimSpecFields::attachable`]).
    pub fn claims(&self) -> Vec<(String, Vec<AccessMode>, bool)> {
        let modes = |c: &ClaimSpec| c.access_modes("").unwrap_or_default();
        let attachable = |c: &ClaimSpec| c.spec.attachable.unwrap_or(true);
        let mut out: Vec<(String, Vec<AccessMode>, bool)> = self
            .persistent_volume_claims
            .iter()
            .map(|c| (c.metadata.name.clone(), modes(c), attachable(c)))
            .collect();
        for w in &self.workloads {
            if let Workload::StatefulSet { spec, metadata } = w {
                for c in &spec.volume_claim_templates {
                    for ordinal in 0..spec.replicas {
                        let name = format!("{}-{}-{ordinal}", c.metadata.name, metadata.name);
                        if !out.iter().any(|(n, _, _)| *n == name) {
                            out.push((name, modes(c), attachable(c)));
                        }
                    }
                }
            }
        }
        for w in &self.workloads {
            for v in &w.template().volumes {
                if let Some(r) = &v.persistent_volume_claim {
                    if !out.iter().any(|(n, _, _)| *n == r.claim_name) {
                        out.push((r.claim_name.clone(), Vec::new(), true));
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

    /// For a plan whose fault is an operator's action that no manifest can make safe, what to
    /// do instead; `None` for the others. A finding that only such a plan gives is an operator
    /// hazard: reported apart, and it fails a run only when asked (`--fail-on
    /// operator-hazard`).
    ///
    /// A force delete removes the pod object without waiting for its kubelet
    /// (`pkg/registry/core/pod/strategy.go` `CheckGracefulDelete`), so on a node that is cut off
    /// but still running, the controllers create the replacement beside the pod that still
    /// runs. The docs' "Force Delete StatefulSet Pods" says to force delete only once the node
    /// is known down; "Node shutdowns" (non-graceful node shutdown, KEP-2268, GA in 1.28) gives
    /// the way that lets Kubernetes do the rest: fence the node, then taint it
    /// `node.kubernetes.io/out-of-service`, and PodGC force-deletes its terminating pods and
    /// the attach-detach controller detaches their volumes without its 6 min wait.
    pub fn operator_hazard(self) -> Option<&'static str> {
        match self {
            Plan::PartitionForceDelete => Some(
                "force delete a pod only once its node is known to be down. Fence the node first (power it off, or cut it from its storage and network), then taint it `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`: its pods are deleted and their volumes detached at once, and the replacements start elsewhere (docs: Node shutdowns, non-graceful node shutdown; Force Delete StatefulSet Pods)",
            ),
            _ => None,
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
