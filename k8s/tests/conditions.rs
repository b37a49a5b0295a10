//! Conformance of `podcheck_k8s::conditions` with the kubelet's condition generators
//! in pkg/kubelet/status/generate.go (`GenerateContainersReadyCondition`,
//! `GeneratePodReadyCondition`, `GeneratePodInitializedCondition`) and with
//! `UpdatePodStatus` in pkg/kubelet/prober/prober_manager.go. These are checks derived from
//! that source, not upstream test rows; each names the rule it checks.

// Test tables are tuples by design; one row per line.
#![allow(clippy::type_complexity)]

mod common;

use common::*;
use podcheck_k8s::*;
use Phase::{Failed, Pending, Running, Succeeded};

#[test]
fn generate_conditions_from_facts() {
    use ConditionStatus::{False, True};
    let init = [spec("X", None)];
    let specs = [spec("A", None), spec("B", None)];

    // All ready and running: ContainersReady True, Ready copies it, Initialized True (all
    // three generators).
    let i = vec![ready(status("X", "T0").unwrap())];
    let r = vec![
        ready(status("A", "R").unwrap()),
        ready(status("B", "R").unwrap()),
    ];
    assert_eq!(
        generate_conditions(&init, &specs, &i, &r, Running),
        vec![
            c("Initialized", True, ""),
            c("Ready", True, ""),
            c("ContainersReady", True, "")
        ]
    );

    // No statuses at all: UnknownContainerStatuses (ContainersReady and Initialized
    // generators on a nil status list).
    assert_eq!(
        generate_conditions(&init, &specs, &[], &[], Pending),
        vec![
            c("Initialized", False, "UnknownContainerStatuses"),
            c("Ready", False, "UnknownContainerStatuses"),
            c("ContainersReady", False, "UnknownContainerStatuses"),
        ]
    );

    // One container unready: ContainersNotReady, which `GeneratePodReadyCondition` copies.
    let r2 = vec![ready(status("A", "R").unwrap()), status("B", "R").unwrap()];
    assert_eq!(
        generate_conditions(&init, &specs, &i, &r2, Running),
        vec![
            c("Initialized", True, ""),
            c("Ready", False, "ContainersNotReady"),
            c("ContainersReady", False, "ContainersNotReady"),
        ]
    );

    // Succeeded with all statuses known: PodCompleted.
    let r3 = vec![status("A", "T0").unwrap(), status("B", "T0").unwrap()];
    assert_eq!(
        generate_conditions(&init, &specs, &i, &r3, Succeeded),
        vec![
            c("Initialized", True, "PodCompleted"),
            c("Ready", False, "PodCompleted"),
            c("ContainersReady", False, "PodCompleted"),
        ]
    );

    // Failed: PodFailed (`GenerateContainersReadyCondition`).
    let r4 = vec![status("A", "T0").unwrap(), status("B", "T-1").unwrap()];
    assert_eq!(
        generate_conditions(&init, &specs, &i, &r4, Failed)[2],
        c("ContainersReady", False, "PodFailed")
    );

    // Init container still running, regular containers not started: not initialized
    // (`GeneratePodInitializedCondition`).
    let i5 = vec![status("X", "R").unwrap()];
    let r5 = vec![status("A", "W").unwrap(), status("B", "W").unwrap()];
    assert_eq!(
        generate_conditions(&init, &specs, &i5, &r5, Pending)[0],
        c("Initialized", False, "ContainersNotInitialized")
    );

    // A sidecar restarting after a main container started: still initialized (any regular
    // container started → Initialized True).
    let sc = [sidecar("S")];
    let i6 = vec![status("S", "W+L-1").unwrap()];
    let r6 = vec![
        ready(status("A", "R").unwrap()),
        ready(status("B", "R").unwrap()),
    ];
    let got = generate_conditions(&sc, &specs, &i6, &r6, Running);
    assert_eq!(got[0], c("Initialized", True, ""));
    // The sidecar is counted by ContainersReady and is not ready.
    assert_eq!(got[2], c("ContainersReady", False, "ContainersNotReady"));
}

/// `UpdatePodStatus` (pkg/kubelet/prober/prober_manager.go): Started from the startup result or
/// the absence of a startup probe; Ready from the readiness result or the absence of a
/// readiness probe, and never before Started.
#[test]
#[rustfmt::skip]
fn container_started_and_ready_from_facts() {
    // (running, startup probe, startup ok, readiness probe, readiness ok) → (started, ready)
    let rows: &[((bool, bool, bool, bool, bool), (Option<bool>, bool))] = &[
        ((false, false, false, false, false), (Some(false), false)),
        ((true,  false, false, false, false), (Some(true),  true)),
        ((true,  true,  false, false, false), (Some(false), false)),
        ((true,  true,  true,  false, false), (Some(true),  true)),
        ((true,  false, false, true,  false), (Some(true),  false)),
        ((true,  false, false, true,  true),  (Some(true),  true)),
        ((true,  true,  false, true,  true),  (Some(false), false)),
        ((false, false, false, true,  true),  (Some(false), false)),
    ];
    for &((r, sp, so, rp, ro), exp) in rows {
        assert_eq!(container_started_and_ready(r, sp, so, rp, ro), exp, "{r} {sp} {so} {rp} {ro}");
    }
}
