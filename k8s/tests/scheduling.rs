//! Conformance of `podcheck_k8s::scheduling`: taint eviction (pkg/controller/tainteviction),
//! taints and tolerations, resource fit and LeastAllocated scoring, nodeSelector, the
//! scheduler's FitError message and the kubelet's admission reasons. Rows derived from source
//! name the function they read; the LeastAllocated rows are cases of the upstream
//! `TestLeastAllocatedScoringStrategy`. Property tests close the file.

// Test tables are tuples by design; one row per line.
#![allow(clippy::type_complexity)]

use podcheck_k8s::*;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn taint(key: &str, effect: TaintEffect) -> Taint {
    Taint {
        key: key.to_string(),
        value: String::new(),
        effect,
    }
}

fn tol_exists(key: &str, effect: Option<TaintEffect>, secs: Option<i64>) -> Toleration {
    Toleration {
        key: key.to_string(),
        operator: TolerationOperator::Exists,
        value: String::new(),
        effect,
        toleration_seconds: secs,
    }
}

const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
const NOT_READY: &str = "node.kubernetes.io/not-ready";

/// Taint eviction timing, derived from `getMinTolerationTime` and `processPodOnNode` in
/// pkg/controller/tainteviction/taint_eviction.go (not an upstream test table).
#[test]
fn taint_eviction_timing() {
    use EvictionDecision::{At, Cancel, Never as NeverEvict, Now};
    use TaintEffect::NoExecute;
    let t0 = 1_000;
    let now = t0;
    let unreachable = [taint(UNREACHABLE, NoExecute)];

    // none → cancel.
    assert_eq!(
        taint_eviction_decision(
            &[],
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(300))],
            t0,
            now
        ),
        Cancel
    );
    // some untolerated → delete now.
    assert_eq!(taint_eviction_decision(&unreachable, &[], t0, now), Now);
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(NOT_READY, Some(NoExecute), Some(300))],
            t0,
            now
        ),
        Now
    );
    // all tolerated, a matching tolerationSeconds ≤ 0 → now.
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(0))],
            t0,
            now
        ),
        Now
    );
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(-5))],
            t0,
            now
        ),
        Now
    );
    // all tolerated, none with tolerationSeconds → never.
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), None)],
            t0,
            now
        ),
        NeverEvict
    );
    // {300} (the toleration the DefaultTolerationSeconds admission plugin adds) → taint-time + 300.
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(300))],
            t0,
            now
        ),
        At(t0 + 300)
    );
    // ... later re-evaluation keeps the original start (scheduledEviction.CreatedAt).
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(300))],
            t0,
            t0 + 100
        ),
        At(t0 + 300)
    );
    assert_eq!(
        taint_eviction_decision(
            &unreachable,
            &[tol_exists(UNREACHABLE, Some(NoExecute), Some(300))],
            t0,
            t0 + 300
        ),
        Now
    );
    // {300, 60} → +60 (minimum over the tolerations used). `GetMatchingTolerations` uses, per
    // taint, the first toleration that tolerates it, so this case needs two tolerated taints.
    let two = [
        taint(UNREACHABLE, NoExecute),
        taint("example.com/maintenance", NoExecute),
    ];
    let tols = [
        tol_exists(UNREACHABLE, Some(NoExecute), Some(300)),
        tol_exists("example.com/maintenance", Some(NoExecute), Some(60)),
    ];
    assert_eq!(taint_eviction_decision(&two, &tols, t0, now), At(t0 + 60));
    // Reading note: with ONE taint and two tolerations {300, 60} that both match it, only the
    // first (300) is used.
    let both = [
        tol_exists(UNREACHABLE, Some(NoExecute), Some(300)),
        tol_exists("", None, Some(60)),
    ];
    assert_eq!(
        taint_eviction_decision(&unreachable, &both, t0, now),
        At(t0 + 300)
    );
}

// ---------------------------------------------------------------------------------------
// Scheduling and kubelet admission: checks derived from the scheduler's and the kubelet's
// source, each naming the function it reads, and one upstream test table
// (`TestLeastAllocatedScoringStrategy`).
// ---------------------------------------------------------------------------------------

/// `ToleratesTaint` (staging/src/k8s.io/api/core/v1/toleration.go).
#[test]
fn tolerates_taint_rules() {
    use TaintEffect::{NoExecute, NoSchedule};
    let t = Taint {
        key: "k".into(),
        value: "v".into(),
        effect: NoSchedule,
    };
    let eq = |key: &str, value: &str, effect| Toleration {
        key: key.into(),
        operator: TolerationOperator::Equal,
        value: value.into(),
        effect,
        toleration_seconds: None,
    };
    assert!(tolerates_taint(&eq("k", "v", Some(NoSchedule)), &t));
    assert!(
        tolerates_taint(&eq("k", "v", None), &t),
        "empty effect matches all"
    );
    assert!(
        !tolerates_taint(&eq("k", "v", Some(NoExecute)), &t),
        "effects differ"
    );
    assert!(!tolerates_taint(&eq("k", "w", None), &t), "values differ");
    assert!(!tolerates_taint(&eq("j", "v", None), &t), "keys differ");
    assert!(
        tolerates_taint(&tol_exists("k", None, None), &t),
        "Exists: any value"
    );
    assert!(
        tolerates_taint(&tol_exists("", None, None), &t),
        "empty key + Exists: everything"
    );
    assert!(!tolerates_taint(&tol_exists("", Some(NoExecute), None), &t));
}

/// The first untolerated taint among the filtered effects: the TaintToleration filter
/// (pkg/scheduler/framework/plugins/tainttoleration, NoSchedule and NoExecute) and the
/// kubelet's admission (pkg/kubelet/lifecycle/predicate.go, NoExecute only).
#[test]
fn first_untolerated_taint_filters_effects() {
    use TaintEffect::{NoExecute, NoSchedule, PreferNoSchedule};
    let taints = [
        taint("a", PreferNoSchedule),
        taint("b", NoSchedule),
        taint("c", NoExecute),
    ];
    let sched = [NoSchedule, NoExecute];
    assert_eq!(
        first_untolerated_taint(&taints, &[], &sched).map(|t| t.key.as_str()),
        Some("b")
    );
    let tol_b = [tol_exists("b", None, None)];
    assert_eq!(
        first_untolerated_taint(&taints, &tol_b, &sched).map(|t| t.key.as_str()),
        Some("c")
    );
    // Kubelet admission checks only NoExecute.
    assert_eq!(
        first_untolerated_taint(&taints, &[], &[NoExecute]).map(|t| t.key.as_str()),
        Some("c")
    );
    let all = [tol_exists("", None, None)];
    assert_eq!(first_untolerated_taint(&taints, &all, &sched), None);
}

/// The pod request and `fitsRequest` (pkg/scheduler/framework/plugins/noderesources/fit.go).
#[test]
fn resource_fit_rules() {
    let r = |cpu_milli, memory_mi| Resources {
        cpu_milli,
        memory_mi,
        ..Default::default()
    };
    assert_eq!(
        pod_request(&[r(2000, 64)], &[r(500, 128), r(500, 128)]),
        r(2000, 256)
    );
    assert_eq!(pod_request(&[], &[]), r(0, 0));
    let alloc = r(2000, 4096);
    assert_eq!(
        insufficient_resources(r(1000, 100), alloc.clone(), r(1000, 0)),
        Vec::<&str>::new()
    );
    assert_eq!(
        insufficient_resources(r(1001, 100), alloc.clone(), r(1000, 0)),
        vec!["Insufficient cpu"]
    );
    assert_eq!(
        insufficient_resources(r(3000, 5000), alloc.clone(), r(0, 0)),
        vec!["Insufficient cpu", "Insufficient memory"]
    );
    assert_eq!(
        insufficient_resources(r(0, 0), alloc.clone(), r(9999, 9999)),
        Vec::<&str>::new(),
        "zero request fits"
    );
    // Overcommitted node (requested > allocatable): any positive request is short.
    assert_eq!(
        insufficient_resources(r(1, 0), alloc.clone(), r(3000, 0)),
        vec!["Insufficient cpu"]
    );
}

/// `fitsRequest` for the resources beyond cpu and memory: ephemeral-storage, then the scalar
/// resources (extended resources, hugepages) by name; a resource the node does not list has
/// none allocatable; init containers are maxed per resource.
#[test]
fn resource_fit_scalar_resources() {
    let r = |cpu_milli, scalar: &[(&str, u64)]| Resources {
        cpu_milli,
        memory_mi: 0,
        scalar: scalar.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    };
    assert_eq!(
        pod_request(
            &[r(0, &[("example.com/gpu", 3)])],
            &[
                r(0, &[("example.com/gpu", 1)]),
                r(0, &[("example.com/gpu", 1), ("ephemeral-storage", 5)])
            ]
        ),
        r(0, &[("example.com/gpu", 3), ("ephemeral-storage", 5)])
    );
    let gpu = r(0, &[("example.com/gpu", 1)]);
    assert_eq!(
        insufficient_resources(gpu.clone(), r(4000, &[]), r(0, &[])),
        vec!["Insufficient example.com/gpu"],
        "a node without the resource has none"
    );
    assert_eq!(
        insufficient_resources(
            gpu.clone(),
            r(4000, &[("example.com/gpu", 2)]),
            r(0, &[("example.com/gpu", 1)])
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        insufficient_resources(
            gpu,
            r(4000, &[("example.com/gpu", 2)]),
            r(0, &[("example.com/gpu", 2)])
        ),
        vec!["Insufficient example.com/gpu"]
    );
    assert_eq!(
        insufficient_resources(
            r(
                5000,
                &[("hugepages-2Mi", 2 << 20), ("ephemeral-storage", 1)]
            ),
            r(4000, &[]),
            r(0, &[])
        ),
        vec![
            "Insufficient cpu",
            "Insufficient ephemeral-storage",
            "Insufficient hugepages-2Mi"
        ],
        "cpu, memory, ephemeral-storage, then the scalar resources"
    );
    assert_eq!(
        insufficient_resources(r(0, &[("example.com/gpu", 0)]), r(0, &[]), r(0, &[])),
        Vec::<&str>::new(),
        "a zero request fits"
    );
    assert!(is_extended_resource("nvidia.com/gpu"));
    assert!(!is_extended_resource("kubernetes.io/foo"));
    assert!(!is_extended_resource("hugepages-2Mi"));
    assert!(!is_extended_resource("requests.example.com/foo"));
    assert!(is_hugepages("hugepages-1Gi"));
}

/// pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go
/// TestLeastAllocatedScoringStrategy, rows with default resources (cpu, memory weight 1).
/// Quantities are taken as given; the score is scale-free. Pods with no containers add no
/// request (the non-zero defaults are per container).
#[test]
#[rustfmt::skip]
fn test_least_allocated_scoring_strategy() {
    let r = |cpu_milli, memory_mi| Resources { cpu_milli, memory_mi, ..Default::default() };
    // (upstream name / node, pod request, node allocatable, node requested, score)
    let rows: &[(&str, Resources, Resources, Resources, i64)] = &[
        ("nothing scheduled, nothing requested", r(0, 0), r(4000, 10000), r(0, 0), 100),
        ("nothing scheduled, resources requested, differently sized nodes / node1", r(3000, 5000), r(4000, 10000), r(0, 0), 37),
        ("nothing scheduled, resources requested, differently sized nodes / node2", r(3000, 5000), r(6000, 10000), r(0, 0), 50),
        ("no resources requested, pods scheduled", r(0, 0), r(4000, 10000), r(0, 0), 100),
        ("no resources requested, pods scheduled with resources / node1", r(0, 0), r(10000, 20000), r(6000, 0), 70),
        ("no resources requested, pods scheduled with resources / node2", r(0, 0), r(10000, 20000), r(6000, 5000), 57),
        ("resources requested, pods scheduled with resources / node1", r(3000, 5000), r(10000, 20000), r(3000, 0), 57),
        ("resources requested, pods scheduled with resources / node2", r(3000, 5000), r(10000, 20000), r(3000, 5000), 45),
        ("resources requested, pods scheduled with resources, differently sized nodes / node1", r(3000, 5000), r(10000, 20000), r(3000, 0), 57),
        ("resources requested, pods scheduled with resources, differently sized nodes / node2", r(3000, 5000), r(10000, 50000), r(3000, 5000), 60),
        ("requested resources exceed node capacity / node1", r(3000, 0), r(4000, 10000), r(3000, 0), 50),
        ("requested resources exceed node capacity / node2", r(3000, 0), r(4000, 10000), r(3000, 5000), 25),
        ("zero node resources, pods scheduled with resources / node1", r(0, 0), r(0, 0), r(3000, 0), 0),
        ("zero node resources, pods scheduled with resources / node2", r(0, 0), r(0, 0), r(3000, 5000), 0),
    ];
    for (name, pod_req, alloc, req, score) in rows {
        let score = *score;
        assert_eq!(
            least_allocated_score(pod_req.clone(), alloc.clone(), req.clone()),
            score,
            "pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go TestLeastAllocatedScoringStrategy {name:?}"
        );
    }
}

/// nodeSelector: every key=value must match (`labels.SelectorFromSet`, as
/// staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity uses it).
#[test]
fn node_selector_rules() {
    let m = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let labels = m(&[("disk", "ssd"), ("zone", "a")]);
    assert!(node_selector_matches(&m(&[]), &labels));
    assert!(node_selector_matches(&m(&[("disk", "ssd")]), &labels));
    assert!(node_selector_matches(
        &m(&[("disk", "ssd"), ("zone", "a")]),
        &labels
    ));
    assert!(!node_selector_matches(&m(&[("disk", "hdd")]), &labels));
    assert!(!node_selector_matches(&m(&[("gpu", "true")]), &labels));
}

/// The labels a kubelet registers its node with (`kubelet_node_status.go` `initialNode`):
/// hostname, os and arch, each where the node does not give its own.
#[test]
fn kubelet_default_node_labels() {
    let m = |xs: &[(&str, &str)]| -> BTreeMap<String, String> {
        xs.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    assert_eq!(
        node_labels_with_kubelet_defaults("node-1", &m(&[])),
        m(&[
            ("beta.kubernetes.io/arch", "amd64"),
            ("beta.kubernetes.io/os", "linux"),
            ("kubernetes.io/arch", "amd64"),
            ("kubernetes.io/hostname", "node-1"),
            ("kubernetes.io/os", "linux"),
        ])
    );
    // The node's own values stay; its other labels too.
    assert_eq!(
        node_labels_with_kubelet_defaults(
            "win-1",
            &m(&[("kubernetes.io/os", "windows"), ("pool", "win")])
        ),
        m(&[
            ("beta.kubernetes.io/arch", "amd64"),
            ("beta.kubernetes.io/os", "windows"),
            ("kubernetes.io/arch", "amd64"),
            ("kubernetes.io/hostname", "win-1"),
            ("kubernetes.io/os", "windows"),
            ("pool", "win"),
        ])
    );
    assert_eq!(
        node_labels_with_kubelet_defaults(
            "n1",
            &m(&[
                ("kubernetes.io/hostname", "ip-10-0-0-1"),
                ("kubernetes.io/arch", "arm64")
            ])
        ),
        m(&[
            ("beta.kubernetes.io/arch", "arm64"),
            ("beta.kubernetes.io/os", "linux"),
            ("kubernetes.io/arch", "arm64"),
            ("kubernetes.io/hostname", "ip-10-0-0-1"),
            ("kubernetes.io/os", "linux"),
        ])
    );
    // A node that gives only the beta key: its kubelet set the stable one from the same
    // `runtime.GOARCH`.
    assert_eq!(
        node_labels_with_kubelet_defaults("n2", &m(&[("beta.kubernetes.io/arch", "arm64")])),
        m(&[
            ("beta.kubernetes.io/arch", "arm64"),
            ("beta.kubernetes.io/os", "linux"),
            ("kubernetes.io/arch", "arm64"),
            ("kubernetes.io/hostname", "n2"),
            ("kubernetes.io/os", "linux"),
        ])
    );
    // The Helm charts' selector matches a default node, and so does the deprecated beta one
    // of older manifests.
    for key in ["kubernetes.io/os", "beta.kubernetes.io/os"] {
        assert!(node_selector_matches(
            &m(&[(key, "linux")]),
            &node_labels_with_kubelet_defaults("node-2", &m(&[]))
        ));
    }
}

/// `FitError.Error()` format (pkg/scheduler/framework/types.go).
#[test]
fn unschedulable_message_format() {
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        unschedulable_message(2, &[v(&["Insufficient cpu"]), v(&["Insufficient cpu"])]),
        "0/2 nodes are available: 2 Insufficient cpu."
    );
    // Counted per reason across nodes, sorted as strings ("1 …" before "3 …").
    let msg = unschedulable_message(
        5,
        &[
            v(&["Insufficient memory"]),
            v(&["Insufficient memory"]),
            v(&["Insufficient memory"]),
            v(&["node(s) had untolerated taint {dedicated: gpu}"]),
            v(&["node(s) were unschedulable"]),
        ],
    );
    assert_eq!(
        msg,
        "0/5 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 3 Insufficient memory."
    );
    // One node with two reasons.
    assert_eq!(
        unschedulable_message(1, &[v(&["Insufficient cpu", "Insufficient memory"])]),
        "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory."
    );
    // `sort.Strings` compares bytes: "10 …" sorts before "2 …".
    let mut many: Vec<Vec<String>> = (0..10).map(|_| v(&["Insufficient cpu"])).collect();
    many.push(v(&["Insufficient memory"]));
    many.push(v(&["Insufficient memory"]));
    assert_eq!(
        unschedulable_message(12, &many),
        "0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory."
    );
    assert_eq!(unschedulable_message(0, &[]), "0/0 nodes are available:");
}

/// `Admit` failure reasons (pkg/kubelet/lifecycle/predicate.go).
#[test]
fn admission_failure_reasons() {
    assert_eq!(
        admission_failure_reason(&["Insufficient cpu"]).as_deref(),
        Some("OutOfcpu")
    );
    assert_eq!(
        admission_failure_reason(&["Insufficient memory", "Insufficient cpu"]).as_deref(),
        Some("OutOfmemory")
    );
    assert_eq!(
        admission_failure_reason(&["Insufficient ephemeral-storage"]).as_deref(),
        Some("OutOfephemeral-storage")
    );
    assert_eq!(
        admission_failure_reason(&["Too many pods"]).as_deref(),
        Some("OutOfpods")
    );
    assert_eq!(
        admission_failure_reason(&["Insufficient example.com/gpu"]).as_deref(),
        Some("OutOfexample.com/gpu")
    );
    assert_eq!(admission_failure_reason(&[]), None);
}

/// Kubernetes API field names (camelCase).
#[test]
fn scheduling_types_serialize_as_the_api() {
    let t = Toleration {
        key: UNREACHABLE.into(),
        operator: TolerationOperator::Exists,
        value: String::new(),
        effect: Some(TaintEffect::NoExecute),
        toleration_seconds: Some(300),
    };
    let y = serde_saphyr::to_string(&t).expect("serialize");
    assert!(y.contains("tolerationSeconds: 300"), "{y}");
    assert!(y.contains("operator: Exists"), "{y}");
    assert!(y.contains("effect: NoExecute"), "{y}");
    let back: Toleration = serde_saphyr::from_str(&y).expect("deserialize");
    assert_eq!(back, t);
    let partial: Toleration =
        serde_saphyr::from_str("key: a\noperator: Exists\n").expect("defaults");
    assert_eq!(partial, tol_exists("a", None, None));
    let r = serde_saphyr::to_string(&Resources {
        cpu_milli: 500,
        memory_mi: 64,
        ..Default::default()
    })
    .expect("serialize");
    assert!(
        r.contains("cpuMilli: 500") && r.contains("memoryMi: 64"),
        "{r}"
    );
}

proptest! {
    /// LeastAllocated scores stay on the 0–MaxNodeScore scale.
    #[test]
    fn least_allocated_score_in_range(
        p in (0u64..100_000, 0u64..100_000),
        a in (0u64..100_000, 0u64..100_000),
        r in (0u64..100_000, 0u64..100_000),
    ) {
        let s = least_allocated_score(
            Resources { cpu_milli: p.0, memory_mi: p.1, ..Default::default() },
            Resources { cpu_milli: a.0, memory_mi: a.1, ..Default::default() },
            Resources { cpu_milli: r.0, memory_mi: r.1, ..Default::default() },
        );
        prop_assert!((0..=MAX_NODE_SCORE).contains(&s));
    }

}

// ---- Default scoring: NonZeroRequested, BalancedAllocation, TaintToleration,
// PodTopologySpread's system defaults, the weighted sum. Rows derived from the upstream
// functions each test names; the BalancedAllocation row "resources requested, differently
// sized nodes" is a case of upstream `TestNodeResourcesBalancedAllocation`.

fn cpu_mem(cpu_milli: u64, memory_mi: u64) -> Resources {
    Resources {
        cpu_milli,
        memory_mi,
        ..Resources::default()
    }
}

#[test]
fn non_zero_request_fills_absent_cpu_and_memory() {
    // `GetNonzeroRequestForResource`: 100m and 200 MiB for a container requesting none.
    assert_eq!(
        non_zero_container_request(&cpu_mem(0, 0)),
        cpu_mem(100, 200)
    );
    assert_eq!(
        non_zero_container_request(&cpu_mem(250, 0)),
        cpu_mem(250, 200)
    );
    assert_eq!(
        non_zero_container_request(&cpu_mem(0, 64)),
        cpu_mem(100, 64)
    );
    // Two containers without requests: 200m, 400 MiB; an init container's larger request
    // is the max, as in `computePodResourceRequest`.
    assert_eq!(
        non_zero_pod_request(&[], &[cpu_mem(0, 0), cpu_mem(0, 0)]),
        cpu_mem(200, 400)
    );
    assert_eq!(
        non_zero_pod_request(&[cpu_mem(500, 0)], &[cpu_mem(0, 0)]),
        cpu_mem(500, 200)
    );
}

#[test]
fn balanced_allocation_rows() {
    use BalancedAllocation::*;
    let pod = cpu_mem(3000, 5000);
    // Upstream row: node1 4000m / 10000 → fractions 0.75, 0.5, std 0.125 → int64(87.5) = 87;
    // node2 6000m / 10000 → 0.5, 0.5 → 100.
    let n1 = cpu_mem(4000, 10000);
    let n2 = cpu_mem(6000, 10000);
    let none = Resources::default();
    assert_eq!(
        balanced_allocation_score(PlainDeviation, &pod, &n1, &none),
        Some(87)
    );
    assert_eq!(
        balanced_allocation_score(PlainDeviation, &pod, &n2, &none),
        Some(100)
    );
    // 1.22's difference form: 1 - |0.75 - 0.5| = 0.75 → 75.
    assert_eq!(
        balanced_allocation_score(NonZeroDifference, &pod, &n1, &none),
        Some(75)
    );
    // Fractions are capped at 1: requested beyond allocatable.
    assert_eq!(
        balanced_allocation_score(PlainDeviation, &cpu_mem(8000, 5000), &n1, &none),
        Some(75)
    );
    // A resource with no allocatable is left out: one fraction, std 0.
    assert_eq!(
        balanced_allocation_score(PlainDeviation, &pod, &cpu_mem(4000, 0), &none),
        Some(100)
    );
    // A best-effort pod: scored until 1.32 (fractions of the node alone), skipped from 1.33.
    let be = Resources::default();
    assert_eq!(
        balanced_allocation_score(PlainDeviation, &be, &n1, &cpu_mem(2000, 0)),
        Some(75)
    );
    assert_eq!(
        balanced_allocation_score(SkipBestEffort, &be, &n1, &none),
        None
    );
    assert_eq!(
        balanced_allocation_score(SkipBestEffort, &pod, &n1, &none),
        Some(87)
    );
    assert_eq!(BalancedAllocation::of_minor(22), NonZeroDifference);
    assert_eq!(BalancedAllocation::of_minor(23), PlainDeviation);
    assert_eq!(BalancedAllocation::of_minor(32), PlainDeviation);
    assert_eq!(BalancedAllocation::of_minor(33), SkipBestEffort);
}

#[test]
fn taint_toleration_score_counts_prefer_no_schedule_and_normalizes_reversed() {
    let prefer = |k: &str| taint(k, TaintEffect::PreferNoSchedule);
    let nodes = [
        vec![],
        vec![prefer("a")],
        vec![
            prefer("a"),
            prefer("b"),
            taint("c", TaintEffect::NoSchedule),
        ],
    ];
    let mut scores: Vec<i64> = nodes
        .iter()
        .map(|t| intolerable_prefer_no_schedule_taints(t, &[]))
        .collect();
    assert_eq!(scores, vec![0, 1, 2]);
    // `DefaultNormalizeScore(MaxNodeScore, true, …)`: 100 - 100 * count / maxCount.
    default_normalize_score(MAX_NODE_SCORE, true, &mut scores);
    assert_eq!(scores, vec![100, 50, 0]);
    // A toleration with effect NoSchedule does not count for PreferNoSchedule taints; one with
    // the empty effect does.
    assert_eq!(
        intolerable_prefer_no_schedule_taints(
            &nodes[1],
            &[tol_exists("a", Some(TaintEffect::NoSchedule), None)]
        ),
        1
    );
    assert_eq!(
        intolerable_prefer_no_schedule_taints(&nodes[1], &[tol_exists("a", None, None)]),
        0
    );
    // No intolerable taint anywhere: every node gets 100 reversed, 0 otherwise.
    let mut zeros = vec![0, 0];
    default_normalize_score(MAX_NODE_SCORE, true, &mut zeros);
    assert_eq!(zeros, vec![100, 100]);
    let mut plain = vec![0, 0];
    default_normalize_score(MAX_NODE_SCORE, false, &mut plain);
    assert_eq!(plain, vec![0, 0]);
    let mut three = vec![1, 3, 2];
    default_normalize_score(MAX_NODE_SCORE, false, &mut three);
    assert_eq!(three, vec![33, 100, 66]);
}

fn spread_node(zone: Option<&str>, pods: u64) -> SpreadNode<'_> {
    SpreadNode {
        feasible: true,
        affinity_matches: true,
        zone,
        matching_pods: pods,
    }
}

#[test]
fn default_spread_scores_rows() {
    // `topologyNormalizingWeight(2)` = ln 4; `scoreForCount`: cnt·w + (maxSkew - 1).
    assert!((topology_normalizing_weight(2) - 4f64.ln()).abs() < 1e-12);
    assert!((score_for_count(2, 3, 1.5) - 5.0).abs() < 1e-12);
    // Two nodes without zones, one matching pod on the first: raw round(ln 4 + 2) = 3 and
    // 2; normalized 100·(3+2-3)/3 = 66 and 100·(3+2-2)/3 = 100.
    assert_eq!(
        default_spread_scores(&[spread_node(None, 1), spread_node(None, 0)]),
        vec![66, 100]
    );
    // No matching pod anywhere: every raw score is round(2) = 2, all normalize to 100.
    assert_eq!(
        default_spread_scores(&[spread_node(None, 0), spread_node(None, 0)]),
        vec![100, 100]
    );
    // Three nodes, counts 2, 1, 0: w = ln 5 ≈ 1.609; raw round(5.22) = 5, round(3.61) = 4, 2;
    // normalized 100·(7-5)/5 = 40, 100·3/5 = 60, 100.
    assert_eq!(
        default_spread_scores(&[
            spread_node(None, 2),
            spread_node(None, 1),
            spread_node(None, 0)
        ]),
        vec![40, 60, 100]
    );
    // Zones: nodes a1, a2 in zone a, b1 in zone b; one pod on a1. Hostname w = ln 5, zone
    // w = ln 4. a1: round(1.609 + 2 + 1.386 + 4) = 9; a2: round(2 + 5.386) = 7; b1:
    // round(2 + 4) = 6. Normalized: 100·(9+6-9)/9 = 66, 100·8/9 = 88, 100.
    assert_eq!(
        default_spread_scores(&[
            spread_node(Some("a"), 1),
            spread_node(Some("a"), 0),
            spread_node(Some("b"), 0)
        ]),
        vec![66, 88, 100]
    );
    // A node that is not feasible (cordoned) is not scored, but its pods count in its zone
    // when it matches the pod's node affinity: zone a has 1 pod through it.
    let cordoned = SpreadNode {
        feasible: false,
        ..spread_node(Some("a"), 1)
    };
    assert_eq!(
        default_spread_scores(&[
            cordoned.clone(),
            spread_node(Some("a"), 0),
            spread_node(Some("b"), 0)
        ]),
        // Hostname w = ln 4, zone w = ln 4: a2 round(2 + 1.386 + 4) = 7, b1 round(2 + 4) = 6;
        // normalized 100·6/7 = 85, 100·7/7 = 100.
        vec![85, 100]
    );
    let elsewhere = SpreadNode {
        affinity_matches: false,
        ..cordoned
    };
    assert_eq!(
        default_spread_scores(&[
            elsewhere,
            spread_node(Some("a"), 0),
            spread_node(Some("b"), 0)
        ]),
        vec![100, 100]
    );
}

#[test]
fn weights_of_the_default_profile() {
    let w = ScoreWeights::of_minor(35);
    assert_eq!(
        (
            w.node_resources_fit,
            w.balanced_allocation,
            w.pod_topology_spread,
            w.taint_toleration
        ),
        (1, 1, 2, 3)
    );
    assert_eq!(ScoreWeights::of_minor(22).taint_toleration, 1);
    let s = PluginScores {
        node_resources_fit: 72,
        balanced_allocation: Some(86),
        pod_topology_spread: Some(66),
        taint_toleration: 100,
    };
    assert_eq!(weighted_score(w, s), 72 + 86 + 2 * 66 + 3 * 100);
    let skipped = PluginScores {
        balanced_allocation: None,
        pod_topology_spread: None,
        ..s
    };
    assert_eq!(weighted_score(w, skipped), 72 + 300);
}
