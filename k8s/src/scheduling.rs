//! Scheduler filters and scoring, kubelet admission, and NoExecute taint eviction.
//!
//! Ports of: `Toleration.ToleratesTaint` (staging/src/k8s.io/api/core/v1/toleration.go);
//! `v1helper.FindMatchingUntoleratedTaint`; NodeResourcesFit `computePodResourceRequest` and
//! `fitsRequest` (pkg/scheduler/framework/plugins/noderesources/fit.go); `leastResourceScorer`
//! / `leastRequestedScore` (least_allocated.go); `labels.SelectorFromSet(nodeSelector)` ANDed
//! with the required node affinity (component-helpers scheduling/corev1/nodeaffinity
//! `RequiredNodeAffinity.Match`);
//! `FitError.Error` (pkg/scheduler/framework/types.go); the kubelet's `predicateAdmitHandler.Admit`
//! reason mapping (pkg/kubelet/lifecycle/predicate.go); `getMinTolerationTime` and
//! `processPodOnNode` (pkg/controller/tainteviction/taint_eviction.go); the labels the kubelet
//! registers its node with (pkg/kubelet/kubelet_node_status.go `initialNode`).
//!
//! Sources: `docs/sources.md#scheduler-resource-fit-and-scoring`,
//! `docs/sources.md#scheduler-taints-and-tolerations`, `docs/sources.md#scheduler-nodeselector`,
//! `docs/sources.md#kubelet-admission`, `docs/sources.md#taint-eviction`,
//! `docs/sources.md#kubelet-well-known-node-labels`. Conformance rows: the
//! derived taint-eviction timing table.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Requests (or allocatable amounts) of cpu (millicores), memory (MiB) and every other
/// resource the API knows (the scheduler's `framework.Resource`: `MilliCPU`, `Memory`,
/// `EphemeralStorage` and `ScalarResources`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Resources {
    pub cpu_milli: u64,
    pub memory_mi: u64,
    /// Every other resource, by its API name, in the quantity's own unit as
    /// `Quantity.Value()` gives it (rounded up): `ephemeral-storage` and `hugepages-<size>` in
    /// bytes, an extended resource (`nvidia.com/gpu`) in whole units. A name absent is 0.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub scalar: BTreeMap<String, u64>,
}

impl Resources {
    /// The amount of the scalar resource `name` (0 where absent).
    pub fn scalar(&self, name: &str) -> u64 {
        self.scalar.get(name).copied().unwrap_or(0)
    }

    /// Adds `other` to these, resource by resource (saturating).
    pub fn add(&mut self, other: &Resources) {
        self.cpu_milli = self.cpu_milli.saturating_add(other.cpu_milli);
        self.memory_mi = self.memory_mi.saturating_add(other.memory_mi);
        for (k, v) in &other.scalar {
            let e = self.scalar.entry(k.clone()).or_insert(0);
            *e = e.saturating_add(*v);
        }
    }
}

/// The resource name of ephemeral local storage (`v1.ResourceEphemeralStorage`).
pub const EPHEMERAL_STORAGE: &str = "ephemeral-storage";

/// `v1helper.IsHugePageResourceName`: the `hugepages-` prefix.
pub fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// `v1helper.IsNativeResource`: a name without a domain, or in the `kubernetes.io/` domain.
pub fn is_native_resource(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `v1helper.IsExtendedResourceName`: not native, not `requests.`-prefixed (the quota
/// convention), and `requests.<name>` a qualified name. (The last part is checked where the
/// name is read, with the name's other rules.)
pub fn is_extended_resource(name: &str) -> bool {
    !is_native_resource(name) && !name.starts_with("requests.")
}

/// `v1.TaintEffect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaintEffect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute,
}

/// `v1.Taint` (without `timeAdded`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    pub key: String,
    #[serde(default)]
    pub value: String,
    pub effect: TaintEffect,
}

/// `v1.TolerationOperator`; `""` defaults to Equal. (Lt/Gt of gate
/// TaintTolerationComparisonOperators are not modelled.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TolerationOperator {
    #[default]
    Equal,
    Exists,
}

/// `v1.Toleration`. `effect: None` is the empty effect (matches all effects);
/// `toleration_seconds: None` tolerates forever.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Toleration {
    pub key: String,
    pub operator: TolerationOperator,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<TaintEffect>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

/// `Toleration.ToleratesTaint`: an empty effect matches all effects, else effects must
/// be equal; an empty key matches all keys; Equal compares values, Exists matches any value.
pub fn tolerates_taint(t: &Toleration, taint: &Taint) -> bool {
    if let Some(e) = t.effect {
        if e != taint.effect {
            return false;
        }
    }
    if !t.key.is_empty() && t.key != taint.key {
        return false;
    }
    match t.operator {
        TolerationOperator::Equal => t.value == taint.value,
        TolerationOperator::Exists => true,
    }
}

/// `v1helper.FindMatchingUntoleratedTaint(taints, tolerations, inclusionFilter)`, with the
/// filter "effect is one of `effects`": the first such taint, in node order, that no
/// toleration tolerates. The scheduler's TaintToleration filter uses
/// `[NoSchedule, NoExecute]`; kubelet admission uses `[NoExecute]`.
pub fn first_untolerated_taint<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    effects: &[TaintEffect],
) -> Option<&'a Taint> {
    taints
        .iter()
        .filter(|t| effects.contains(&t.effect))
        .find(|t| !tolerations.iter().any(|tol| tolerates_taint(tol, t)))
}

/// `computePodResourceRequest` (the form without sidecars, pod-level resources or
/// overhead): the sum over regular containers, then per resource the max with each init
/// container's request.
pub fn pod_request(init: &[Resources], regular: &[Resources]) -> Resources {
    let mut r = Resources::default();
    for c in regular {
        r.add(c);
    }
    for c in init {
        r.cpu_milli = r.cpu_milli.max(c.cpu_milli);
        r.memory_mi = r.memory_mi.max(c.memory_mi);
        for (k, v) in &c.scalar {
            let e = r.scalar.entry(k.clone()).or_insert(0);
            *e = (*e).max(*v);
        }
    }
    r
}

/// `fitsRequest`: a request of nothing fits; otherwise, per resource in the order cpu,
/// memory, ephemeral-storage, then the scalar resources (extended resources and hugepages, by
/// name), `request > 0 && request > allocatable - requested` gives "Insufficient cpu",
/// "Insufficient memory", "Insufficient ephemeral-storage", "Insufficient <name>". A resource
/// the node does not list has 0 allocatable. `requested` is the node's `Requested` (sum of
/// the requests of the pods already on it). The pod-count check ("Too many pods") and
/// `ignoredResources` of the plugin's arguments are not modelled.
pub fn insufficient_resources(
    pod_req: Resources,
    allocatable: Resources,
    requested: Resources,
) -> Vec<String> {
    let mut out = Vec::new();
    if pod_req.cpu_milli == 0 && pod_req.memory_mi == 0 && pod_req.scalar.values().all(|v| *v == 0)
    {
        return out;
    }
    let free = |a: u64, r: u64| i128::from(a) - i128::from(r);
    if pod_req.cpu_milli > 0
        && i128::from(pod_req.cpu_milli) > free(allocatable.cpu_milli, requested.cpu_milli)
    {
        out.push("Insufficient cpu".to_string());
    }
    if pod_req.memory_mi > 0
        && i128::from(pod_req.memory_mi) > free(allocatable.memory_mi, requested.memory_mi)
    {
        out.push("Insufficient memory".to_string());
    }
    let storage = pod_req.scalar.get_key_value(EPHEMERAL_STORAGE);
    let others = pod_req
        .scalar
        .iter()
        .filter(|(k, _)| k.as_str() != EPHEMERAL_STORAGE);
    for (name, &q) in storage.into_iter().chain(others) {
        if q > 0 && i128::from(q) > free(allocatable.scalar(name), requested.scalar(name)) {
            out.push(format!("Insufficient {name}"));
        }
    }
    out
}

/// `framework.MaxNodeScore`.
pub const MAX_NODE_SCORE: i64 = 100;

/// `leastRequestedScore(requested, capacity)`: 0 if capacity is 0 or requested exceeds it,
/// else `(capacity - requested) * MaxNodeScore / capacity` (integer division).
fn least_requested_score(requested: u64, capacity: u64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    let s = (i128::from(capacity - requested) * i128::from(MAX_NODE_SCORE)) / i128::from(capacity);
    // 0 ≤ s ≤ MaxNodeScore, so it fits.
    i64::try_from(s).unwrap_or(MAX_NODE_SCORE)
}

/// NodeResourcesFit scoring strategy LeastAllocated with the default resources cpu and memory,
/// weight 1 each (`leastResourceScorer`): `(score(cpu) + score(memory)) / 2` where
/// `score(r) = leastRequestedScore(requested_r + pod_r, allocatable_r)`.
///
/// Upstream feeds scoring the node's `NonZeroRequested` and the pod's non-zero request, in
/// which a container with *no* cpu / memory request counts as 100m / 200Mi
/// (`GetNonzeroRequestForResource`). [`Resources`] cannot tell "unset" from "explicit 0", so
/// the caller passes the values to score with; this function adds no defaults.
/// MiB instead of bytes does not change the result: the ratio is scale-free.
pub fn least_allocated_score(
    pod_req: Resources,
    allocatable: Resources,
    requested: Resources,
) -> i64 {
    let cpu = least_requested_score(
        requested.cpu_milli.saturating_add(pod_req.cpu_milli),
        allocatable.cpu_milli,
    );
    let mem = least_requested_score(
        requested.memory_mi.saturating_add(pod_req.memory_mi),
        allocatable.memory_mi,
    );
    (cpu + mem) / 2
}

/// `schedutil.DefaultMilliCPURequest` (pkg/scheduler/util/pod_resources.go): the cpu, in
/// millicores, that scoring counts for a container requesting none.
pub const DEFAULT_MILLI_CPU_REQUEST: u64 = 100;

/// `schedutil.DefaultMemoryRequest`: 200 MiB (`200 * 1024 * 1024` bytes), the memory that
/// scoring counts for a container requesting none.
pub const DEFAULT_MEMORY_REQUEST_MI: u64 = 200;

/// A container's request as NodeResourcesFit's scoring and the node's `NonZeroRequested`
/// count it (`schedutil.GetNonzeroRequestForResource`, and `resourcehelper.PodRequests` with
/// `NonMissingContainerRequests`): a cpu or memory request that is absent counts as
/// [`DEFAULT_MILLI_CPU_REQUEST`] / [`DEFAULT_MEMORY_REQUEST_MI`]; every other resource as
/// it is.
///
/// Upstream fills only a request that is *absent*; an explicit `0` stays 0. [`Resources`]
/// cannot tell the two apart, so a 0 here counts as absent (an explicit zero request is the
/// rare case; the difference is listed in docs/sources.md).
pub fn non_zero_container_request(r: &Resources) -> Resources {
    let mut out = r.clone();
    if out.cpu_milli == 0 {
        out.cpu_milli = DEFAULT_MILLI_CPU_REQUEST;
    }
    if out.memory_mi == 0 {
        out.memory_mi = DEFAULT_MEMORY_REQUEST_MI;
    }
    out
}

/// A pod's non-zero request (`calculateResource` in pkg/scheduler/framework/types.go, which
/// adds it to `NodeInfo.NonZeroRequested`; the same for the pod being scored,
/// `resourceAllocationScorer.calculatePodResourceRequest` with `useRequested` false):
/// [`pod_request`] over the containers' [`non_zero_container_request`]s.
pub fn non_zero_pod_request(init: &[Resources], regular: &[Resources]) -> Resources {
    let nz = |cs: &[Resources]| -> Vec<Resources> {
        cs.iter().map(non_zero_container_request).collect()
    };
    pod_request(&nz(init), &nz(regular))
}

/// Which NodeResourcesBalancedAllocation the release runs (balanced_allocation.go).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BalancedAllocation {
    /// 1.22: `1 - |cpuFraction - memoryFraction|` over the node's `NonZeroRequested` plus the
    /// pod's non-zero request, each fraction capped at 1 (PR #102925).
    NonZeroDifference,
    /// 1.23 to 1.32: `1 - std` of the fractions over the plain requests
    /// (`useRequested: true`, PR #105845), each capped at 1; a pod without requests is scored.
    PlainDeviation,
    /// 1.33 on: as [`BalancedAllocation::PlainDeviation`], but `PreScore` skips a pod whose
    /// requests are all zero (`isBestEffortPod`, PR #130260, kubernetes#129138): the plugin
    /// then scores no node.
    SkipBestEffort,
}

impl BalancedAllocation {
    /// The form `1.<minor>` runs.
    pub fn of_minor(minor: u8) -> Self {
        if minor >= 33 {
            BalancedAllocation::SkipBestEffort
        } else if minor >= 23 {
            BalancedAllocation::PlainDeviation
        } else {
            BalancedAllocation::NonZeroDifference
        }
    }

    /// Whether the requests scoring reads are the non-zero ones (true in 1.22 only).
    pub fn reads_non_zero(self) -> bool {
        self == BalancedAllocation::NonZeroDifference
    }
}

/// NodeResourcesBalancedAllocation's score of one node over the default resources cpu and
/// memory (`balancedResourceScorer`): `pod_req` and `requested` are the plain requests, or
/// the non-zero ones for [`BalancedAllocation::NonZeroDifference`]
/// ([`BalancedAllocation::reads_non_zero`]). None: the plugin skips the pod
/// ([`BalancedAllocation::SkipBestEffort`] and a pod requesting no cpu and no memory), so
/// it adds nothing to any node.
///
/// The deviation form: each resource with allocatable > 0 gives
/// `fraction = (requested + pod) / allocatable` capped at 1; with two fractions
/// `std = |f1 - f2| / 2`, with one `std = 0`; the score is `int64((1 - std) * MaxNodeScore)`
/// (a truncation, as Go's conversion). MiB instead of bytes: the fractions are ratios.
pub fn balanced_allocation_score(
    form: BalancedAllocation,
    pod_req: &Resources,
    allocatable: &Resources,
    requested: &Resources,
) -> Option<i64> {
    if form == BalancedAllocation::SkipBestEffort
        && pod_req.cpu_milli == 0
        && pod_req.memory_mi == 0
    {
        return None;
    }
    let fraction = |req: u64, pod: u64, alloc: u64| -> Option<f64> {
        if alloc == 0 {
            // `fractionOfCapacity` of 1.22 gives 1 for a capacity of 0; the deviation form
            // leaves the resource out.
            return (form == BalancedAllocation::NonZeroDifference).then_some(1.0);
        }
        // u64 → f64 as Go's float64(int64): exact below 2^53.
        #[allow(clippy::cast_precision_loss)]
        let f = req.saturating_add(pod) as f64 / alloc as f64;
        Some(f.min(1.0))
    };
    let fractions: Vec<f64> = [
        fraction(
            requested.cpu_milli,
            pod_req.cpu_milli,
            allocatable.cpu_milli,
        ),
        fraction(
            requested.memory_mi,
            pod_req.memory_mi,
            allocatable.memory_mi,
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    let deviation = match (form, fractions.as_slice()) {
        (BalancedAllocation::NonZeroDifference, [a, b]) => (a - b).abs(),
        (_, [a, b]) => ((a - b) / 2.0).abs(),
        _ => 0.0,
    };
    // `int64(x)` truncates toward zero; 0 ≤ (1 - deviation) * 100 ≤ 100.
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    let score = ((1.0 - deviation) * MAX_NODE_SCORE as f64).trunc() as i64;
    Some(score)
}

/// TaintToleration's score of one node (`countIntolerableTaintsPreferNoSchedule`): the
/// node's PreferNoSchedule taints that none of the pod's tolerations with an empty or
/// PreferNoSchedule effect tolerates (`getAllTolerationPreferNoSchedule`). Normalized by
/// [`default_normalize_score`] reversed: fewer such taints score higher.
pub fn intolerable_prefer_no_schedule_taints(taints: &[Taint], tolerations: &[Toleration]) -> i64 {
    let usable: Vec<&Toleration> = tolerations
        .iter()
        .filter(|t| matches!(t.effect, None | Some(TaintEffect::PreferNoSchedule)))
        .collect();
    let n = taints
        .iter()
        .filter(|t| t.effect == TaintEffect::PreferNoSchedule)
        .filter(|t| !usable.iter().any(|tol| tolerates_taint(tol, t)))
        .count();
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// `helper.DefaultNormalizeScore(maxPriority, reverse, scores)`
/// (pkg/scheduler/framework/plugins/helper/normalize_score.go): with the highest score 0,
/// every score becomes `max_priority` when reversed and stays otherwise; else each becomes
/// `max_priority * score / highest` (int64 division), then `max_priority - that` when
/// reversed.
pub fn default_normalize_score(max_priority: i64, reverse: bool, scores: &mut [i64]) {
    let highest = scores.iter().copied().fold(0, i64::max);
    if highest == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = max_priority);
        }
        return;
    }
    for s in scores.iter_mut() {
        let v = max_priority * *s / highest;
        *s = if reverse { max_priority - v } else { v };
    }
}

/// The label of PodTopologySpread's per-node domain (`v1.LabelHostname`).
pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";

/// The label of PodTopologySpread's zone domain (`v1.LabelTopologyZone`).
pub const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";

/// PodTopologySpread's system default constraints (`systemDefaultConstraints` in
/// pkg/scheduler/framework/plugins/podtopologyspread/plugin.go, used when the plugin's
/// `defaultingType` is `System`, the default): topology key and `maxSkew`, both
/// `ScheduleAnyway`, so they only score.
pub const SYSTEM_DEFAULT_SPREAD: [(&str, i64); 2] = [(LABEL_HOSTNAME, 3), (LABEL_TOPOLOGY_ZONE, 5)];

/// `topologyNormalizingWeight(size)` (podtopologyspread/scoring.go): `ln(size + 2)`, so that
/// a topology of many domains weighs more than one of few.
pub fn topology_normalizing_weight(size: usize) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    (size as f64 + 2.0).ln()
}

/// `scoreForCount(cnt, maxSkew, tpWeight)` (scoring.go): `cnt * tpWeight + (maxSkew - 1)`.
pub fn score_for_count(count: u64, max_skew: i64, weight: f64) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let c = count as f64;
    #[allow(clippy::cast_precision_loss)]
    let skew = (max_skew - 1) as f64;
    c * weight + skew
}

/// One node as PodTopologySpread's scoring sees it, for the system default constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpreadNode<'a> {
    /// The node passed the filters (it is one of the `filteredNodes` scored).
    pub feasible: bool,
    /// The node matches the pod's nodeSelector and required node affinity
    /// (`requiredNodeAffinity.Match`, or `matchNodeInclusionPolicies` with the default
    /// `nodeAffinityPolicy: Honor`, `nodeTaintsPolicy: Ignore`): only such nodes' pods are
    /// counted into a zone.
    pub affinity_matches: bool,
    /// Its `topology.kubernetes.io/zone` label, if it has one.
    pub zone: Option<&'a str>,
    /// Pods on the node that the default selector matches and that are not terminating
    /// (`countPodsMatchSelector`).
    pub matching_pods: u64,
}

/// PodTopologySpread's normalized scores of the feasible nodes of `nodes` (in order) for a
/// pod without `topologySpreadConstraints` of its own, whose default selector
/// (`helper.DefaultSelector`) is not empty — for an empty one the plugin skips the pod and
/// scores no node (`buildDefaultConstraints` returns none). Every node has the hostname
/// label (the kubelet sets it), so with system defaults (`requireAllTopologies` false) no node
/// is ignored.
///
/// `initPreScoreState`: the zone constraint's size is the number of distinct zone values
/// (the empty value for a node without the label) among the feasible nodes, the hostname
/// constraint's the number of feasible nodes; `PreScore` sums each zone's matching pods over
/// every node that matches the pod's node affinity and whose zone is one of the feasible
/// nodes'. `Score`: per constraint whose key the node has, `scoreForCount` of the node's
/// count (hostname) or its zone's count; the sum rounded (`math.Round`, half away from
/// zero). `NormalizeScore`: with `maxScore` 0 every node gets MaxNodeScore, else
/// `MaxNodeScore * (maxScore + minScore - score) / maxScore` (int64 division).
pub fn default_spread_scores(nodes: &[SpreadNode]) -> Vec<i64> {
    let feasible: Vec<&SpreadNode> = nodes.iter().filter(|n| n.feasible).collect();
    fn zone_of<'a>(n: &SpreadNode<'a>) -> &'a str {
        n.zone.unwrap_or("")
    }
    let mut zones: BTreeMap<&str, u64> = BTreeMap::new();
    for n in &feasible {
        zones.entry(zone_of(n)).or_insert(0);
    }
    for n in nodes.iter().filter(|n| n.affinity_matches) {
        if let Some(c) = zones.get_mut(zone_of(n)) {
            *c += n.matching_pods;
        }
    }
    let (host_skew, zone_skew) = (SYSTEM_DEFAULT_SPREAD[0].1, SYSTEM_DEFAULT_SPREAD[1].1);
    let host_weight = topology_normalizing_weight(feasible.len());
    let zone_weight = topology_normalizing_weight(zones.len());
    let raw: Vec<i64> = feasible
        .iter()
        .map(|n| {
            let mut score = score_for_count(n.matching_pods, host_skew, host_weight);
            if let Some(z) = n.zone {
                score += score_for_count(zones[z], zone_skew, zone_weight);
            }
            // `int64(math.Round(score))`: Rust's `round` is half away from zero, as Go's.
            #[allow(clippy::cast_possible_truncation)]
            let r = score.round() as i64;
            r
        })
        .collect();
    let min = raw.iter().copied().min().unwrap_or(0);
    let max = raw.iter().copied().max().unwrap_or(0);
    raw.iter()
        .map(|&s| {
            if max == 0 {
                MAX_NODE_SCORE
            } else {
                MAX_NODE_SCORE * (max + min - s) / max
            }
        })
        .collect()
}

/// The default profile's score plugins and their weights (`getDefaultPlugins` in
/// pkg/scheduler/apis/config/v1/default_plugins.go, v1beta3 from 1.23; v1beta2 in 1.22),
/// for the plugins the model scores. NodeAffinity (2; 1 in 1.22) scores preferred terms,
/// InterPodAffinity (2; 1 in 1.22) preferred pod (anti-)affinity, ImageLocality (1) image
/// sizes: the model reads none of them (see docs/sources.md), so they add the same to every
/// node and are left out of the sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScoreWeights {
    pub node_resources_fit: i64,
    pub balanced_allocation: i64,
    pub pod_topology_spread: i64,
    pub taint_toleration: i64,
}

impl ScoreWeights {
    /// The weights of `1.<minor>`: TaintToleration went from 1 to 3 with v1beta3 (1.23).
    pub fn of_minor(minor: u8) -> Self {
        ScoreWeights {
            node_resources_fit: 1,
            balanced_allocation: 1,
            pod_topology_spread: 2,
            taint_toleration: if minor >= 23 { 3 } else { 1 },
        }
    }
}

/// One feasible node's normalized score from each plugin the model scores; `None` for a
/// plugin that skipped the pod (it adds nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PluginScores {
    pub node_resources_fit: i64,
    pub balanced_allocation: Option<i64>,
    pub pod_topology_spread: Option<i64>,
    pub taint_toleration: i64,
}

/// The node's total (`RunScorePlugins`: each plugin's normalized score times its weight,
/// summed per node, then `selectHost` takes a node of the highest total).
pub fn weighted_score(w: ScoreWeights, s: PluginScores) -> i64 {
    w.node_resources_fit * s.node_resources_fit
        + w.balanced_allocation * s.balanced_allocation.unwrap_or(0)
        + w.pod_topology_spread * s.pod_topology_spread.unwrap_or(0)
        + w.taint_toleration * s.taint_toleration
}

/// The well-known labels a kubelet gives the Node it registers (`pkg/kubelet/kubelet_node_status.go`
/// `initialNode`): `kubernetes.io/hostname` (its hostname, here the node's name),
/// `kubernetes.io/os` and `kubernetes.io/arch` (`runtime.GOOS` and `runtime.GOARCH` of the
/// kubelet's binary, here `linux` and `amd64`), and the same two under their deprecated beta
/// keys, `beta.kubernetes.io/os` and `beta.kubernetes.io/arch` (`kubeletapis.LabelOS` and
/// `kubeletapis.LabelArch`, still set for older manifests' node selectors).
pub fn kubelet_default_labels(node_name: &str) -> [(&'static str, String); 5] {
    [
        ("kubernetes.io/hostname", node_name.to_string()),
        ("kubernetes.io/os", "linux".to_string()),
        ("kubernetes.io/arch", "amd64".to_string()),
        ("beta.kubernetes.io/os", "linux".to_string()),
        ("beta.kubernetes.io/arch", "amd64".to_string()),
    ]
}

/// A node's labels as its kubelet leaves them: `labels`, and each of
/// [`kubelet_default_labels`] where `labels` lacks its key. A value the node gives is the one
/// its kubelet set (a kubelet built for Windows sets `kubernetes.io/os=windows`; its
/// `--node-labels` override the defaults in `initialNode`), and stays; a key it lacks the
/// kubelet adds, to a Node that already exists as well (`updateDefaultLabels`). The os and
/// arch of both keys come from the same `runtime.GOOS` and `runtime.GOARCH`, so a beta key the
/// node lacks takes the value of the node's own stable key where it gives one (a Windows node
/// is `beta.kubernetes.io/os=windows` too), and the other way round.
pub fn node_labels_with_kubelet_defaults(
    node_name: &str,
    labels: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut all = labels.clone();
    for (stable, beta) in [
        ("kubernetes.io/os", "beta.kubernetes.io/os"),
        ("kubernetes.io/arch", "beta.kubernetes.io/arch"),
    ] {
        let given = labels.get(stable).or_else(|| labels.get(beta)).cloned();
        if let Some(v) = given {
            all.entry(stable.to_string()).or_insert_with(|| v.clone());
            all.entry(beta.to_string()).or_insert(v);
        }
    }
    for (k, v) in kubelet_default_labels(node_name) {
        all.entry(k.to_string()).or_insert(v);
    }
    all
}

/// `labels.SelectorFromSet(pod.Spec.NodeSelector).Matches(node.Labels)`: every
/// key=value of the selector must be present; an empty selector matches every node.
pub fn node_selector_matches(
    selector: &BTreeMap<String, String>,
    labels: &BTreeMap<String, String>,
) -> bool {
    selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// `NodeSelectorOperator` of a node selector requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NodeSelectorOperator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Gt,
    Lt,
}

/// `NodeSelectorRequirement`: a key, an operator and values. The API server's validation
/// (`ValidateNodeSelectorRequirement`) is checked where the scenario is read
/// ([`NodeSelectorRequirement::validate`]), so matching never meets a malformed one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeSelectorRequirement {
    pub key: String,
    pub operator: NodeSelectorOperator,
    #[serde(default)]
    pub values: Vec<String>,
}

/// `NodeSelectorTerm`: its requirements are ANDed; a term with neither is skipped (it
/// selects no node).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeSelectorTerm {
    /// Requirements on the node's labels.
    #[serde(default)]
    pub match_expressions: Vec<NodeSelectorRequirement>,
    /// Requirements on the node's fields: only `metadata.name`, with `In` or `NotIn`.
    #[serde(default)]
    pub match_fields: Vec<NodeSelectorRequirement>,
}

impl NodeSelectorRequirement {
    /// `ValidateNodeSelectorRequirement` (and `validateNodeFieldSelectorRequirement` for
    /// `fields`): `In`/`NotIn` need values, `Exists`/`DoesNotExist` none, `Gt`/`Lt` one
    /// integer; a field requirement is on `metadata.name`, with `In` or `NotIn` and one value.
    pub fn validate(&self, fields: bool) -> Result<(), String> {
        use NodeSelectorOperator::*;
        if fields {
            if self.key != "metadata.name" {
                return Err(format!(
                    "key: Invalid value: \"{}\": a node field selector can only use metadata.name",
                    self.key
                ));
            }
            if !matches!(self.operator, In | NotIn) {
                return Err(format!(
                    "operator: Unsupported value: \"{:?}\": supported values: \"In\", \"NotIn\"",
                    self.operator
                ));
            }
            if self.values.len() != 1 {
                return Err("values: Required value: must have exactly one value".into());
            }
            return Ok(());
        }
        if self.key.is_empty() {
            return Err("key: Required value".into());
        }
        match self.operator {
            In | NotIn if self.values.is_empty() => Err(
                "values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
                    .into(),
            ),
            Exists | DoesNotExist if !self.values.is_empty() => Err(
                "values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
                    .into(),
            ),
            Gt | Lt if self.values.len() != 1 => Err(
                "values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"
                    .into(),
            ),
            Gt | Lt if self.values[0].parse::<i64>().is_err() => Err(format!(
                "values[0]: Invalid value: \"{}\": must be an integer when `operator` is 'Lt' or 'Gt'",
                self.values[0]
            )),
            _ => Ok(()),
        }
    }

    /// The label requirement against a node's labels (`labels.Requirement.Matches`): `NotIn`
    /// and `DoesNotExist` hold where the label is absent; `Gt`/`Lt` compare the label's
    /// value as an integer, and a value that is not one does not match.
    fn matches_labels(&self, labels: &BTreeMap<String, String>) -> bool {
        use NodeSelectorOperator::*;
        let has = labels.get(&self.key);
        match self.operator {
            In => has.is_some_and(|v| self.values.contains(v)),
            NotIn => has.is_none_or(|v| !self.values.contains(v)),
            Exists => has.is_some(),
            DoesNotExist => has.is_none(),
            Gt | Lt => {
                let (Some(v), Some(bound)) = (
                    has.and_then(|v| v.parse::<i64>().ok()),
                    self.values.first().and_then(|b| b.parse::<i64>().ok()),
                ) else {
                    return false;
                };
                if self.operator == Gt {
                    v > bound
                } else {
                    v < bound
                }
            }
        }
    }
}

impl NodeSelectorTerm {
    fn is_empty(&self) -> bool {
        self.match_expressions.is_empty() && self.match_fields.is_empty()
    }

    /// `nodeSelectorTerm.match`: every label requirement and every field requirement.
    fn matches(&self, name: &str, labels: &BTreeMap<String, String>) -> bool {
        self.match_expressions
            .iter()
            .all(|r| r.matches_labels(labels))
            && self.match_fields.iter().all(|r| {
                let v = &r.values[0];
                match r.operator {
                    NodeSelectorOperator::In => name == v,
                    _ => name != v,
                }
            })
    }
}

/// `RequiredNodeAffinity.Match` (component-helpers `nodeaffinity.go`
/// `GetRequiredNodeAffinity`): the pod's nodeSelector, ANDed with its required node
/// affinity, whose terms are ORed; an empty term selects no node, so terms that are all
/// empty select none.
pub fn required_node_affinity_matches(
    selector: &BTreeMap<String, String>,
    terms: Option<&[NodeSelectorTerm]>,
    node_name: &str,
    labels: &BTreeMap<String, String>,
) -> bool {
    if !node_selector_matches(selector, labels) {
        return false;
    }
    match terms {
        None => true,
        Some(terms) => terms
            .iter()
            .filter(|t| !t.is_empty())
            .any(|t| t.matches(node_name, labels)),
    }
}

/// `FitError.Error()` without PreFilter and PostFilter messages:
/// `"0/<total> nodes are available: <n1> <reason1>, <n2> <reason2>."`.
///
/// `reasons[i]` are the filter reasons of one node that has a status; each reason is counted
/// once per occurrence, and the strings `"<count> <reason>"` are sorted with `sort.Strings`
/// (byte order of the whole string, count included). With no reason at all the message ends
/// after the colon, as in the newest upstream. Nodes absent from the status map are not
/// modelled.
///
/// Real `FailedScheduling` events of the default profile usually carry a further
/// `" preemption: 0/N nodes are available: …"` part: that is `Diagnosis.PostFilterMsg`, written
/// by DefaultPreemption; its text depends on the preemption outcome, so it is not part of
/// this function.
pub fn unschedulable_message(total_nodes: usize, reasons: &[Vec<String>]) -> String {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for node in reasons {
        for r in node {
            *counts.entry(r.as_str()).or_insert(0) += 1;
        }
    }
    let mut parts: Vec<String> = counts.iter().map(|(r, n)| format!("{n} {r}")).collect();
    parts.sort();
    let mut msg = format!("0/{total_nodes} nodes are available:");
    if !parts.is_empty() {
        msg.push(' ');
        msg.push_str(&parts.join(", "));
        msg.push('.');
    }
    msg
}

/// The kubelet admission reason for the first failure reason (`Admit` in
/// pkg/kubelet/lifecycle/predicate.go): an `InsufficientResourceError` for resource `<name>`
/// gives `"OutOf<name>"` (`OutOfcpu`, `OutOfmemory`, `OutOfephemeral-storage`, `OutOfpods`).
/// Accepts the scheduler-style reasons `"Insufficient <name>"` and `"Too many pods"` (the
/// pods resource). Returns `None` for an empty list or a first reason that is not a resource
/// shortage.
pub fn admission_failure_reason(insufficient: &[&str]) -> Option<String> {
    let first = insufficient.first()?;
    if *first == "Too many pods" {
        return Some("OutOfpods".to_string());
    }
    first
        .strip_prefix("Insufficient ")
        .map(|name| format!("OutOf{name}"))
}

/// What the taint-eviction controller does with one pod on a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvictionDecision {
    /// Cancel any scheduled deletion (no NoExecute taint left).
    Cancel,
    /// Delete now.
    Now,
    /// Tolerated forever: cancel any scheduled deletion and do not schedule one.
    Never,
    /// Delete at this absolute time (seconds).
    At(i64),
}

/// `getMinTolerationTime(usedTolerations)`: `None` = infinite; any `tolerationSeconds <= 0`
/// (or no matching toleration at all) gives 0.
fn min_toleration_time(used: &[&Toleration]) -> Option<i64> {
    if used.is_empty() {
        return Some(0);
    }
    let mut min: Option<i64> = None;
    for t in used {
        if let Some(s) = t.toleration_seconds {
            if s <= 0 {
                return Some(0);
            }
            min = Some(min.map_or(s, |m| m.min(s)));
        }
    }
    min
}

/// `processPodOnNode` for the node's NoExecute taints.
///
/// * no taints → [`EvictionDecision::Cancel`] (`handleNodeUpdate` short-circuit);
/// * a taint no toleration tolerates → [`EvictionDecision::Now`];
/// * `getMinTolerationTime` of the tolerations used for the taints (`GetMatchingTolerations`
///   takes, per taint, the first toleration that tolerates it): infinite → [`EvictionDecision::Never`]; else deletion at
///   `taint_time + min`. `taint_time` is when the eviction work was first scheduled
///   (`scheduledEviction.CreatedAt`, i.e. when the controller saw the taint); if that moment
///   is not after `now` the timed worker fires at once → [`EvictionDecision::Now`].
///
/// `no_execute_taints` should hold only NoExecute taints (`getNoExecuteTaints`); any other
/// effect is ignored here.
pub fn taint_eviction_decision(
    no_execute_taints: &[Taint],
    tolerations: &[Toleration],
    taint_time: i64,
    now: i64,
) -> EvictionDecision {
    let taints: Vec<&Taint> = no_execute_taints
        .iter()
        .filter(|t| t.effect == TaintEffect::NoExecute)
        .collect();
    if taints.is_empty() {
        return EvictionDecision::Cancel;
    }
    // `GetMatchingTolerations`: every taint must be tolerated; for each taint only the
    // *first* toleration (in pod order) that tolerates it is used (the loop `break`s).
    let mut used: Vec<&Toleration> = Vec::new();
    for taint in &taints {
        match tolerations.iter().find(|tol| tolerates_taint(tol, taint)) {
            Some(tol) => used.push(tol),
            None => return EvictionDecision::Now,
        }
    }
    match min_toleration_time(&used) {
        None => EvictionDecision::Never,
        Some(0) => EvictionDecision::Now,
        Some(s) => {
            let fire = taint_time.saturating_add(s);
            if fire <= now {
                EvictionDecision::Now
            } else {
                EvictionDecision::At(fire)
            }
        }
    }
}

/// A pod's tolerations after the DefaultTolerationSeconds admission plugin: not-ready and
/// unreachable NoExecute for 300 s unless the pod tolerates them already.
pub fn with_default_tolerations(tolerations: &[Toleration]) -> Vec<Toleration> {
    let mut t = tolerations.to_vec();
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        let covered = t.iter().any(|x| {
            (x.key == key || x.key.is_empty())
                && matches!(x.effect, None | Some(TaintEffect::NoExecute))
        });
        if !covered {
            t.push(Toleration {
                key: key.into(),
                operator: TolerationOperator::Exists,
                value: String::new(),
                effect: Some(TaintEffect::NoExecute),
                toleration_seconds: Some(300),
            });
        }
    }
    t
}
