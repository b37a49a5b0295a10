//! The per-scenario constants every component reads: the scenario itself and what is
//! derived from it once (the distinct images, the container spec views for the upstream
//! functions, the failing steps). It sits below the components, so that none of them needs
//! the cluster's composition to know what it is running.

use crate::k8s::{ContainerSpecView, Gates};
use crate::state::*;
use podcheck_input::spec::{
    AccessMode, Container, FailingStep, Fault, PodSpec, Release, Scenario, Workload,
};
use std::collections::BTreeMap;

/// What a scenario fixes for the whole exploration.
#[derive(Clone, Debug)]
pub struct Context {
    pub scenario: Scenario,
    /// Distinct images named by the scenario's containers (bit i of [`Node::images`]).
    pub images: Vec<String>,
    /// Per workload: init container and container spec views for the upstream functions.
    pub views: Vec<(Vec<ContainerSpecView>, Vec<ContainerSpecView>)>,
    pub gates: Gates,
    /// The Kubernetes release the model follows, and what it decides ([`ByRelease`]).
    pub release: Release,
    pub by_release: ByRelease,
    /// `--node-monitor-grace-period`: the scenario's, else the release's default.
    pub node_monitor_grace: Secs,
    /// The scenario has node faults: node health (leases, the node lifecycle controller,
    /// taints) is modelled.
    pub node_health: bool,
    /// Taint ages saturate here: one past the longest toleration that matters.
    pub taint_age_cap: Secs,
    /// Some Deployment or StatefulSet has `minReadySeconds`: pods keep [`Pod::available_in`].
    pub min_ready: bool,
    /// Per workload: the kubelet steps that fail for its pods (`stepFails` faults).
    pub failures: Vec<Vec<(FailingStep, StepFailure)>>,
    /// Every claim the pods can use ([`Scenario::claims`]); a claim's index is its bit in
    /// [`NodeObj::volumes_in_use`] and its number in [`Attachment::claim`].
    pub claims: Vec<Claim>,
    /// Per workload, per ordinal (a StatefulSet's; index 0 for every other workload): the
    /// claims its pods mount, with the pod's volume name.
    pub pod_claims: Vec<Vec<Vec<(u8, String)>>>,
    /// The status the kubelet computes for a pod, by the content of the pod object and its
    /// runtime record (see [`StatusMemo`]).
    pub status_memo: StatusMemo,
    /// Per workload: a Job's podFailurePolicy, as the upstream matcher reads it.
    pub job_policies: Vec<Option<crate::k8s::PodFailurePolicy>>,
    /// Per workload: a Job's successPolicy rules, as (indexes bit set, succeededCount).
    pub success_rules: Vec<Vec<(Option<u16>, Option<u8>)>>,
    /// Per workload: the PodDisruptionBudgets whose selector matches its pods, by index.
    pub budgets: Vec<Vec<u8>>,
    /// Per node, in node order: its labels as its kubelet registers it, the scenario's and
    /// the well-known ones it lacks (`kubernetes.io/hostname`, `kubernetes.io/os`,
    /// `kubernetes.io/arch` and their beta keys:
    /// [`crate::k8s::node_labels_with_kubelet_defaults`]). The
    /// scheduler and kubelet admission match a pod's node selector against these.
    pub node_labels: Vec<BTreeMap<String, String>>,
    /// Per node, in node order: its zone for the node lifecycle controller, numbered in
    /// order of first appearance (`GetZoneKey` of its labels; nodes without zone labels share
    /// one zone). `docs/sources.md#node-lifecycle-zone-disruption`.
    pub node_zone: Vec<u8>,
    /// Per node: it carries `node.kubernetes.io/exclude-disruption` and is left out of the
    /// zone states (`isNodeExcludedFromDisruptionChecks`).
    pub disruption_excluded: Vec<bool>,
    /// A drain run's observation that a pod is gone waits until no other component has
    /// anything to do at that instant, and comes one at a time (`drain::gone_deferrable`,
    /// where that is exact; set by the cluster). Off, each is offered as soon as it is due.
    pub deferred_gone: bool,
    /// A pod's events count in a state's identity only by what the model and the
    /// properties read of them ([`crate::events::Events`]); off, the whole list counts. Set
    /// before the start state is made ([`crate::Cluster::with_events_as_read`]).
    pub events_as_read: bool,
}

/// A cache of a pure function of parts of the state, by their content hashes (64-bit, as the
/// states' own fingerprints are). The search asks the same questions of many states that
/// share the parts they are about; each distinct question is answered once.
pub struct Memo<K, V> {
    map: dashmap::DashMap<K, V, ahash::RandomState>,
    /// Entries inserted since the last clearing (the map's own count visits every shard).
    inserted: std::sync::atomic::AtomicUsize,
}

/// More entries than this, and a memo starts over (it is only a cache).
const MEMO_CAP: usize = 1 << 18;

impl<K: std::hash::Hash + Eq, V: Clone> Memo<K, V> {
    /// The value for `key`, computed with `compute` if new.
    pub fn get(&self, key: K, compute: impl FnOnce() -> V) -> V {
        self.read(key, compute, V::clone)
    }

    /// `read` of the value for `key` (computed with `compute` if new), without copying it.
    /// Two threads asking at once may both compute it; the value is the same.
    pub fn read<R>(&self, key: K, compute: impl FnOnce() -> V, read: impl FnOnce(&V) -> R) -> R {
        use std::sync::atomic::Ordering;
        if let Some(v) = self.map.get(&key) {
            return read(&v);
        }
        let v = compute();
        let out = read(&v);
        if self.inserted.fetch_add(1, Ordering::Relaxed) >= MEMO_CAP {
            self.map.clear();
            self.inserted.store(0, Ordering::Relaxed);
        }
        self.map.insert(key, v);
        out
    }
}

impl<K: std::hash::Hash + Eq, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            map: dashmap::DashMap::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4)),
            inserted: std::sync::atomic::AtomicUsize::new(0),
        }
    }
}

impl<K: std::hash::Hash + Eq, V> Clone for Memo<K, V> {
    /// A copy of the model starts with an empty memo.
    fn clone(&self) -> Self {
        Memo::default()
    }
}

impl<K, V> std::fmt::Debug for Memo<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

/// The kubelet's computed status of a pod is a function of the pod object and its runtime
/// record alone: kept by the two parts' content hashes, with whether the object's status
/// differs from it (whether a status update is due).
pub type StatusMemo = Memo<(u64, u64), MemoEntry>;

/// A kept status: the computed one, and whether the object's differs from it.
#[derive(Clone)]
pub struct MemoEntry {
    pub status: Shared<PodStatus>,
    pub differs: bool,
}

/// A PersistentVolumeClaim and its volume, as the attach/detach controller sees them.
#[derive(Clone, Debug)]
pub struct Claim {
    pub name: String,
    pub access_modes: Vec<AccessMode>,
    /// `IsMultiAttachAllowed` (`pkg/volume/util/util.go`): the volume may be attached to
    /// several nodes at once if one of its access modes is ReadWriteMany or ReadOnlyMany, or
    /// if none is known (left to the attacher); ReadWriteOnce or ReadWriteOncePod alone
    /// forbid it (docs/sources.md#attach-detach-access-modes-and-multi-attach).
    pub multi_attach: bool,
    /// The attach/detach controller attaches the volume before the kubelet mounts it. False
    /// for a volume whose plugin has no attacher (`hostPath`, `local`, `nfs`): the controller
    /// skips it (`ProcessPodVolumes`, `pkg/controller/volume/attachdetach/util/util.go`) and
    /// the kubelet's volume manager takes it as attached
    /// (`GenerateVerifyControllerAttachedVolumeFunc`, `operation_generator.go`).
    pub attachable: bool,
}

/// Every behaviour the model knows to differ between Kubernetes releases, decided once from
/// the release ([`ByRelease::of`]) so that the components read a value, not a version.
/// Each field names the release that changed it and its source
/// (`docs/sources.md#behaviour-by-release`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByRelease {
    /// 1.26 (gate `ProxyTerminatingEndpoints` beta, on by default; GA 1.28; KEP-1669): with
    /// no ready endpoint, kube-proxy routes to the endpoints that are serving and
    /// terminating (`pkg/proxy/topology.go` `CategorizeEndpoints`). Before: ready ones only.
    /// `docs/sources.md#kube-proxy-terminating-endpoints`.
    pub proxy_terminating_endpoints: bool,
    /// 1.27 (PR #115331): a pod the kubelet terminates for good gets Succeeded or Failed
    /// before its object is removed (`getPhase` with `podIsTerminal`, status manager
    /// `TerminatePod`), and `canBeDeleted` waits for that phase. Before: the phase is what
    /// the containers give (Running for `restartPolicy: Always`) and the object goes once
    /// the pod's resources are reclaimed.
    /// `docs/sources.md#kubelet-terminal-phase-of-a-deleted-pod`.
    pub terminal_phase_on_delete: bool,
    /// The grace period the kubelet kills a force-deleted pod (`deletionGracePeriodSeconds`
    /// 0) and a hard-evicted one with: `None` is the pod's `terminationGracePeriodSeconds`,
    /// as `calculateEffectiveGracePeriod` fell back to it in 1.22–1.30; 1 s from 1.31
    /// (PR #124063). `docs/sources.md#kubelet-force-deleted-pods-are-killed-with-1-s`.
    pub immediate_kill_grace: Option<Secs>,
    /// The default `--node-monitor-grace-period`: 40 s, 50 s from 1.32 (PR #126287).
    /// `docs/sources.md#node-lifecycle-unknown-after-the-grace-period`.
    pub node_monitor_grace_default: Secs,
    /// 1.26 (gate `NodeOutOfServiceVolumeDetach` beta, on by default; GA 1.28; KEP-2268):
    /// PodGC force-deletes the terminating pods of a not-Ready node with the
    /// `node.kubernetes.io/out-of-service` taint (`gc_controller.go` `gc` calls
    /// `gcTerminating` only with the gate on). Before, the taint is only a NoExecute taint.
    /// `docs/sources.md#podgc`.
    pub pod_gc_out_of_service: bool,
    /// 1.26 (gate `PodDisruptionConditions` beta, on by default; GA 1.31; KEP-3329): taint
    /// eviction, PodGC and the kubelet's eviction manager add the `DisruptionTarget`
    /// condition to the pods they delete, and so does the Eviction API (reason
    /// `EvictionByEvictionAPI`, `eviction.go` `addConditionAndDeletePod`).
    /// `docs/sources.md#taint-eviction`, `docs/sources.md#eviction-api`.
    pub pod_disruption_conditions: bool,
    /// 1.27 (gate `PDBUnhealthyPodEvictionPolicy` beta, on by default; alpha, off, in 1.26;
    /// GA 1.31; KEP-3017): the Eviction API honours a budget's
    /// `unhealthyPodEvictionPolicy: AlwaysAllow`. Before, the API server drops the field and
    /// every budget behaves as `IfHealthyBudget`.
    /// `docs/sources.md#eviction-api-unhealthy-pod-eviction-policy`.
    pub pdb_unhealthy_pod_eviction_policy: bool,
    /// 1.29 (gate `SidecarContainers` beta, on by default; GA 1.33; KEP-753): init
    /// containers with `restartPolicy: Always` are sidecars, and the kubelet orders a pod's
    /// termination (`killContainersWithSyncResult` builds a `terminationOrdering` only with
    /// the gate on). Before, the API server drops the field (`dropDisabledPodFields`, gate off
    /// at 1.28; an unknown field earlier), so the scenario validation refuses it there and
    /// the scenario is checked from 1.29. `docs/sources.md#sidecar-containers`.
    pub sidecar_containers: bool,
    /// 1.29 (gate `JobPodReplacementPolicy` beta, on by default; GA 1.34; KEP-3939): Jobs
    /// accept `podReplacementPolicy`, report `status.terminating`, and write a terminal
    /// condition in two steps: `FailureTarget` / `SuccessCriteriaMet` first, `Failed` /
    /// `Complete` only once no pod is terminating (`job_controller.go`
    /// `delayTerminalCondition`). Before: `Failed` and `Complete` at once.
    /// `docs/sources.md#job-conditions-and-counters`.
    pub job_pod_replacement_policy: bool,
    /// 1.26 (gate `JobPodFailurePolicy` beta; GA 1.31; KEP-3329): `podFailurePolicy`.
    pub job_pod_failure_policy: bool,
    /// 1.29 (gate `JobBackoffLimitPerIndex` beta; KEP-3850): `backoffLimitPerIndex`,
    /// `maxFailedIndexes` and the FailIndex action.
    pub job_backoff_limit_per_index: bool,
    /// 1.31 (gate `JobSuccessPolicy` beta; KEP-3998): `successPolicy`.
    pub job_success_policy: bool,
    /// 1.25 (gate `ProbeTerminationGracePeriod` beta, on by default from 1.25; GA 1.27;
    /// KEP-2238): a liveness or startup probe's `terminationGracePeriodSeconds` is the grace
    /// of the kill its failure causes (`kuberuntime_container.go`
    /// `setTerminationGracePeriod`). Before, the gate is off: the API server drops the field
    /// and the kill has the pod's grace.
    /// `docs/sources.md#kubelet-probe-termination-grace-period`.
    pub probe_termination_grace_period: bool,
    /// 1.23 and 1.24 (PR #105215, "kubelet: add probe termination to graceful shutdowns",
    /// until PR #110191 moved the start and stop of probes into the pod worker in 1.25): the
    /// node shutdown manager calls `probeManager.RemovePod` for each pod of a group before
    /// it kills it (`nodeshutdown_manager_linux.go` `processShutdownEvent`), so the pod is
    /// probed no more while it stops, and with no readiness worker `UpdatePodStatus` reads
    /// a running container ready (kubernetes#105780, kubernetes#116965). Before and after,
    /// readiness probes keep running until the containers have stopped.
    /// `docs/sources.md#graceful-node-shutdown-probe-workers`.
    pub shutdown_removes_probe_workers: bool,
    /// 1.35 (gate `MaxUnavailableStatefulSet` beta, on by default; alpha, off, from 1.24;
    /// KEP-961): a StatefulSet's rolling update honours
    /// `updateStrategy.rollingUpdate.maxUnavailable` (`stateful_set_control.go`
    /// `updateStatefulSetAfterInvariantEstablished`). Before, the API server drops the field
    /// and the controller replaces one pod at a time, waiting on each pod above the one it
    /// deletes. `docs/sources.md#statefulset-rolling-update`.
    pub max_unavailable_statefulset: bool,
    /// The scheduler's NodeResourcesBalancedAllocation: 1.22 over the non-zero requests, 1.23
    /// over the plain ones (PR #105845), 1.33 skipping pods that request nothing (PR
    /// #130260). `docs/sources.md#scheduler-default-scoring`.
    pub balanced_allocation: crate::k8s::BalancedAllocation,
    /// The default profile's score weights: TaintToleration 1 in 1.22 (v1beta2), 3 from
    /// 1.23 (v1beta3). `docs/sources.md#scheduler-default-scoring`.
    pub score_weights: crate::k8s::ScoreWeights,
}

impl ByRelease {
    /// What `release` does.
    pub fn of(release: Release) -> Self {
        let since = |minor| release.at_least(minor);
        ByRelease {
            proxy_terminating_endpoints: since(26),
            terminal_phase_on_delete: since(27),
            immediate_kill_grace: since(31).then_some(1),
            node_monitor_grace_default: if since(32) { 50 } else { 40 },
            pod_gc_out_of_service: since(26),
            pod_disruption_conditions: since(26),
            pdb_unhealthy_pod_eviction_policy: since(27),
            sidecar_containers: since(29),
            job_pod_replacement_policy: since(29),
            job_pod_failure_policy: since(26),
            job_backoff_limit_per_index: since(29),
            job_success_policy: since(31),
            probe_termination_grace_period: since(25),
            shutdown_removes_probe_workers: since(23) && !since(25),
            max_unavailable_statefulset: since(35),
            balanced_allocation: crate::k8s::BalancedAllocation::of_minor(release.minor),
            score_weights: crate::k8s::ScoreWeights::of_minor(release.minor),
        }
    }

    /// The grace period of a kill whose requested grace is 0 (a force delete, a hard
    /// eviction), for a pod whose spec gives `spec_grace`.
    pub fn immediate_kill(&self, spec_grace: Secs) -> Secs {
        self.immediate_kill_grace.unwrap_or(spec_grace).max(1)
    }
}

/// A failing step of a workload's pods, resolved.
#[derive(Clone, Debug)]
pub struct StepFailure {
    pub hangs: bool,
    pub message: Option<String>,
    /// For container steps: the container (init, index).
    pub container: Option<(bool, usize)>,
}

impl Context {
    /// Derives the constants of a scenario. The scenario must be valid
    /// ([`Scenario::validate`]): every limit of the state is checked there.
    pub fn new(scenario: Scenario) -> Self {
        let release = scenario
            .release()
            .expect("a validated scenario names a supported release");
        let by_release = ByRelease::of(release);
        let node_monitor_grace = scenario
            .cluster
            .node_monitor_grace_period_seconds
            .unwrap_or(by_release.node_monitor_grace_default);
        let mut images: Vec<String> = Vec::new();
        let mut views = Vec::new();
        for w in &scenario.workloads {
            let t = w.template();
            for c in t.init_containers.iter().chain(&t.containers) {
                if !images.contains(&c.image) {
                    images.push(c.image.clone());
                }
            }
            for f in &scenario.faults {
                if let podcheck_input::spec::Fault::SetPodImage {
                    workload, image, ..
                } = f
                {
                    if workload == w.name() && !images.contains(image) {
                        images.push(image.clone());
                    }
                }
            }
            // The container-level restartPolicy makes an init container a sidecar for the
            // upstream functions (validated: Always, on init containers only).
            let view = |c: &Container| ContainerSpecView {
                restart_policy: c.restart_policy,
                ..ContainerSpecView::new(&c.name)
            };
            views.push((
                t.init_containers.iter().map(view).collect(),
                t.containers.iter().map(view).collect(),
            ));
        }
        let node_health = scenario.faults.iter().any(|f| {
            matches!(
                f,
                Fault::Partition { .. }
                    | Fault::ControlPlanePartition {}
                    | Fault::DeleteNode { .. }
                    | Fault::OutOfServiceTaint { .. }
                    | Fault::MemoryPressure { .. }
                    | Fault::PowerOff { .. }
                    | Fault::NodeShutdown { .. }
            )
        });
        let taint_age_cap = scenario
            .workloads
            .iter()
            .flat_map(|w| crate::k8s::with_default_tolerations(&w.template().tolerations))
            .filter_map(|t| t.toleration_seconds)
            .max()
            .unwrap_or(0)
            // Validated at most `MAX_SECONDS` where the scenario enters.
            .clamp(0, podcheck_input::spec::MAX_SECONDS as i64) as Secs
            + 1;
        let failures = scenario
            .workloads
            .iter()
            .map(|w| {
                let t = w.template();
                scenario
                    .faults
                    .iter()
                    .filter_map(|f| match f {
                        Fault::StepFails {
                            workload,
                            step,
                            hangs,
                            message,
                            container,
                        } if workload == w.name() => {
                            let by_name =
                                |n: &String| t.containers.iter().position(|c| &c.name == n);
                            let ctr = match step {
                                FailingStep::CreateContainerConfig
                                | FailingStep::CreateContainer => {
                                    Some(container.as_ref().and_then(by_name).unwrap_or(0))
                                }
                                FailingStep::PostStartHook => {
                                    container.as_ref().and_then(by_name).or_else(|| {
                                        t.containers.iter().position(|c| {
                                            c.lifecycle
                                                .as_ref()
                                                .is_some_and(|l| l.post_start.is_some())
                                        })
                                    })
                                }
                                _ => None,
                            };
                            Some((
                                *step,
                                StepFailure {
                                    hangs: *hangs,
                                    message: message.clone(),
                                    container: ctr.map(|i| (false, i)),
                                },
                            ))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let job_policies = scenario
            .workloads
            .iter()
            .map(|w| match w {
                Workload::Job { spec, .. } => spec.pod_failure_policy.as_ref().map(job_policy),
                _ => None,
            })
            .collect();
        let success_rules = scenario
            .workloads
            .iter()
            .map(|w| match w {
                Workload::Job { spec, .. } => spec
                    .success_policy
                    .iter()
                    .flat_map(|p| &p.rules)
                    .map(|r| {
                        let completions = spec.completions().unwrap_or(0);
                        let set = r.succeeded_indexes.as_ref().map(|i| {
                            crate::k8s::parse_indexes(i, completions)
                                .expect("a validated scenario has valid succeededIndexes")
                        });
                        (set, r.succeeded_count)
                    })
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        let claims: Vec<Claim> = scenario
            .claims()
            .into_iter()
            .map(|(name, access_modes, attachable)| Claim {
                attachable,
                multi_attach: access_modes.is_empty()
                    || access_modes
                        .iter()
                        .any(|m| matches!(m, AccessMode::ReadWriteMany | AccessMode::ReadOnlyMany)),
                name,
                access_modes,
            })
            .collect();
        let pod_claims = scenario
            .workloads
            .iter()
            .enumerate()
            .map(|(w, wl)| {
                let ordinals = match wl {
                    Workload::StatefulSet { spec, .. } => spec.replicas.max(1),
                    _ => 1,
                };
                (0..ordinals)
                    .map(|o| {
                        scenario
                            .pod_claims(w, o)
                            .into_iter()
                            .filter_map(|(volume, claim)| {
                                let i = claims.iter().position(|c| c.name == claim)?;
                                Some((i as u8, volume))
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let budgets = scenario
            .workloads
            .iter()
            .map(|w| {
                scenario
                    .pod_disruption_budgets
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.spec.selects.iter().any(|n| n == w.name()))
                    .map(|(i, _)| i as u8)
                    .collect()
            })
            .collect();
        let min_ready = scenario.workloads.iter().any(|w| min_ready_seconds(w) > 0);
        let node_labels = scenario
            .cluster
            .nodes
            .iter()
            .map(|n| crate::k8s::node_labels_with_kubelet_defaults(&n.name, &n.labels))
            .collect();
        let mut zone_keys: Vec<String> = Vec::new();
        let node_zone = scenario
            .cluster
            .nodes
            .iter()
            .map(|n| {
                let key = crate::k8s::zone_key(&n.labels);
                let i = zone_keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                    zone_keys.push(key);
                    zone_keys.len() - 1
                });
                i as u8
            })
            .collect();
        let disruption_excluded = scenario
            .cluster
            .nodes
            .iter()
            .map(|n| {
                n.labels
                    .contains_key(crate::k8s::LABEL_NODE_DISRUPTION_EXCLUSION)
            })
            .collect();
        Context {
            budgets,
            node_labels,
            node_zone,
            disruption_excluded,
            deferred_gone: false,
            events_as_read: true,
            min_ready,
            claims,
            pod_claims,
            failures,
            status_memo: StatusMemo::default(),
            job_policies,
            success_rules,
            scenario,
            images,
            views,
            gates: Gates::default(),
            release,
            by_release,
            node_monitor_grace,
            node_health,
            taint_age_cap,
        }
    }

    pub fn workload(&self, w: u8) -> &Workload {
        &self.scenario.workloads[w as usize]
    }

    /// The pod template of workload `w`.
    pub fn template(&self, w: u8) -> &PodSpec {
        self.workload(w).template()
    }

    /// Container `i` of workload `w`'s template (`init`: of its init containers).
    pub fn container(&self, w: u8, init: bool, i: usize) -> &Container {
        let t = self.template(w);
        if init {
            &t.init_containers[i]
        } else {
            &t.containers[i]
        }
    }

    /// The claims a pod of workload `w` with name suffix `suffix` mounts, with the pod's
    /// volume name for each.
    pub fn claims_of(&self, w: u8, suffix: u8) -> &[(u8, String)] {
        let per = &self.pod_claims[w as usize];
        if per.len() == 1 {
            &per[0]
        } else {
            per.get(suffix as usize).map_or(&[], |v| v.as_slice())
        }
    }

    /// The pod's volumes include claims (PersistentVolumeClaims, or claims from a
    /// StatefulSet's templates).
    pub fn has_claims(&self, w: u8, suffix: u8) -> bool {
        !self.claims_of(w, suffix).is_empty()
    }

    pub fn pod_name(&self, pod: &Pod) -> String {
        self.indexed_name(pod.workload, pod.suffix, pod.job_index)
    }

    /// The failure of `step` for workload `w`'s pods, if the scenario has one.
    pub fn step_failure(&self, w: u8, step: FailingStep) -> Option<&StepFailure> {
        self.failures
            .get(w as usize)?
            .iter()
            .find(|(s, _)| *s == step)
            .map(|(_, f)| f)
    }

    /// The container a failing container step applies to.
    pub fn failing_container(&self, w: u8, step: FailingStep) -> Option<(bool, usize)> {
        self.step_failure(w, step)?.container
    }

    /// `<workload>-<suffix>`, the bare pod's own name, or a static pod's `<name>-<node>`.
    pub fn name_of(&self, workload: u8, suffix: u8) -> String {
        match self.workload(workload) {
            Workload::Pod { metadata, .. } => metadata.name.clone(),
            Workload::StaticPod { metadata, node, .. } => format!("{}-{node}", metadata.name),
            w => format!("{}-{}", w.name(), suffix),
        }
    }

    /// An Indexed Job's pod is named `<job>-<index>-<suffix>` (its generateName carries the
    /// index: `job_controller.go` `manageJob`); every other pod as [`Context::name_of`].
    pub fn indexed_name(&self, workload: u8, suffix: u8, index: Option<u8>) -> String {
        match index {
            Some(i) => format!("{}-{i}-{suffix}", self.workload(workload).name()),
            None => self.name_of(workload, suffix),
        }
    }

    pub fn node_name(&self, n: NodeId) -> &str {
        &self.scenario.cluster.nodes[n.index()].name
    }

    /// The bit of `image` in [`Node::images`]. Every image of the scenario has one: the
    /// scenario's validation bounds their number by the width of that set.
    pub fn image_index(&self, image: &str) -> usize {
        self.images
            .iter()
            .position(|i| i == image)
            .expect("every image of the scenario is indexed")
    }

    /// The image of container `cs` of `pod` as its spec now reads: the image a `setPodImage`
    /// fault set in place ([`Pod::image_set`]) for that regular container, else the
    /// template's. `docs/sources.md#kubelet-container-spec-change`.
    pub fn container_image<'a>(&'a self, pod: &Pod, init: bool, cs: &'a Container) -> &'a str {
        match pod
            .image_set
            .and_then(|f| self.scenario.faults.get(f as usize))
        {
            Some(podcheck_input::spec::Fault::SetPodImage {
                container, image, ..
            }) if !init && *container == cs.name => image,
            _ => &cs.image,
        }
    }

    /// Whether `pod`'s spec of regular container `cs` was changed in place by a `setPodImage`.
    pub fn image_changed(&self, pod: &Pod, cs: &Container) -> bool {
        self.container_image(pod, false, cs) != cs.image
    }

    /// A runtime pod's containers with their specs: init containers first, in spec order.
    pub fn containers<'a>(
        &'a self,
        rt: &'a PodRt,
    ) -> impl Iterator<Item = (&'a Ctr, &'a Container)> {
        let spec = self.template(rt.workload);
        rt.init
            .iter()
            .zip(&spec.init_containers)
            .chain(rt.ctrs.iter().zip(&spec.containers))
    }

    /// The name of the pod a runtime record belongs to (kept after its object is gone).
    pub fn rt_name(&self, rt: &PodRt) -> String {
        self.indexed_name(rt.workload, rt.suffix, rt.job_index)
    }

    /// The pod's name, or `uid N` for one that no longer exists.
    pub fn uid_name(&self, state: &State, uid: u16) -> String {
        state
            .pod(uid)
            .map(|p| self.pod_name(p))
            .or_else(|| state.rt_any(uid).map(|(_, rt)| self.rt_name(rt)))
            .unwrap_or_else(|| format!("pod uid {uid}"))
    }
}

/// A scenario's podFailurePolicy as the upstream matcher reads it.
fn job_policy(p: &podcheck_input::spec::PodFailurePolicySpec) -> crate::k8s::PodFailurePolicy {
    use crate::k8s::{
        PodFailurePolicyAction as A, PodFailurePolicyOnExitCodes,
        PodFailurePolicyOnPodConditionsPattern, PodFailurePolicyRequirement, PodFailurePolicyRule,
    };
    use podcheck_input::spec::PodFailurePolicyActionSpec as S;
    crate::k8s::PodFailurePolicy {
        rules: p
            .rules
            .iter()
            .map(|r| PodFailurePolicyRule {
                action: match r.action {
                    S::FailJob => A::FailJob,
                    S::FailIndex => A::FailIndex,
                    S::Ignore => A::Ignore,
                    S::Count => A::Count,
                },
                requirement: match &r.on_exit_codes {
                    Some(e) => {
                        PodFailurePolicyRequirement::OnExitCodes(PodFailurePolicyOnExitCodes {
                            container_name: e.container_name.clone(),
                            operator: e.operator,
                            values: e.values.clone(),
                        })
                    }
                    None => PodFailurePolicyRequirement::OnPodConditions(
                        r.on_pod_conditions
                            .iter()
                            .map(|c| PodFailurePolicyOnPodConditionsPattern {
                                type_: c.type_.clone(),
                                status: c.status,
                            })
                            .collect(),
                    ),
                },
            })
            .collect(),
    }
}

/// A workload's `minReadySeconds`: a Deployment's or a StatefulSet's (0 for the others, which
/// have none).
pub fn min_ready_seconds(w: &Workload) -> u16 {
    match w {
        Workload::Deployment { spec, .. } => spec.min_ready_seconds,
        Workload::StatefulSet { spec, .. } => spec.min_ready_seconds,
        _ => 0,
    }
}
