//! The disruption controller: each PodDisruptionBudget's status from the pods its selector
//! matches (`pkg/controller/disruption/disruption.go` `trySync`).
//!
//! Sources: `docs/sources.md#disruption-controller`.

use super::*;
use podcheck_input::spec::{Amount, PdbSpec};

/// The workloads budget `b` selects, as indices.
fn selected_workloads<'a>(m: &'a Context, b: &'a PdbSpec) -> impl Iterator<Item = u8> + 'a {
    m.scenario
        .workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| b.spec.selects.iter().any(|n| n == w.name()))
        .map(|(i, _)| i as u8)
}

/// Whether budget `b`'s selector matches the pod object (`getPodsForPdb`: every pod it
/// matches, terminating and finished ones too).
pub fn selects(m: &Context, b: usize, pod: &Pod) -> bool {
    m.budgets[pod.workload as usize].contains(&(b as u8))
}

/// `getExpectedScale`: the sum of the scales of the distinct controllers of the selected
/// pods. A pod no controller owns (a bare pod) is unmanaged and adds nothing; a pod whose
/// controller has no scale the finders know (a Job; a mirror pod, owned by its Node) is an
/// error ("found no controllers for pod").
fn expected_scale(m: &Context, s: &State, b: &PdbSpec) -> Option<u32> {
    let mut sum = 0u32;
    for w in selected_workloads(m, b) {
        if !s.api.pods.iter().any(|p| p.workload == w) {
            continue;
        }
        match m.workload(w) {
            Workload::Deployment { spec, .. } => {
                sum += crate::derived::desired_replicas(m, s, w).unwrap_or(spec.replicas) as u32
            }
            Workload::StatefulSet { spec, .. } => sum += spec.replicas as u32,
            Workload::Pod { .. } => {}
            Workload::Job { .. } | Workload::StaticPod { .. } => return None,
        }
    }
    Some(sum)
}

/// `getExpectedPodCount`: (expectedCount, desiredHealthy); None when the sync fails (a
/// controller with no scale).
///
/// - `maxUnavailable`: expectedCount is the controllers' scale; desiredHealthy is
///   expectedCount − maxUnavailable (a percentage of expectedCount rounded up), at least 0.
/// - `minAvailable` as a number: desiredHealthy is that number, expectedCount the number of
///   selected pods.
/// - `minAvailable` as a percentage: expectedCount is the controllers' scale, desiredHealthy
///   the percentage of it rounded up.
pub fn expected_and_desired(m: &Context, s: &State, b: usize) -> Option<(u32, u32)> {
    let spec = &m.scenario.pod_disruption_budgets[b];
    let amount = |v: &podcheck_input::spec::IntOrPercent| v.amount("").ok();
    if let Some(v) = &spec.spec.max_unavailable {
        let expected = expected_scale(m, s, spec)?;
        let max = amount(v)?.scaled(expected);
        return Some((expected, expected.saturating_sub(max)));
    }
    match spec.spec.min_available.as_ref().map(amount) {
        Some(Some(Amount::Count(n))) => {
            let pods = s.api.pods.iter().filter(|p| selects(m, b, p)).count() as u32;
            Some((pods, n as u32))
        }
        Some(Some(a @ Amount::Percent(_))) => {
            let expected = expected_scale(m, s, spec)?;
            Some((expected, a.scaled(expected)))
        }
        Some(None) => None,
        None => Some((0, 0)),
    }
}

/// `countHealthyPods`: selected pods with no deletionTimestamp, not in `disruptedPods`, and
/// Ready.
pub fn count_healthy(m: &Context, s: &State, b: usize, disrupted: &[u16]) -> u32 {
    s.api
        .pods
        .iter()
        .filter(|p| selects(m, b, p))
        .filter(|p| p.deletion.is_none() && !disrupted.contains(&p.uid) && p.status.ready)
        .count() as u32
}

/// The status the controller would write for budget `b` now (`trySync`):
/// `buildDisruptedPodMap` keeps the entries of selected pods not yet being deleted;
/// `updatePdbStatus` sets disruptionsAllowed = currentHealthy − desiredHealthy, or 0 if
/// that is not positive or expectedCount is 0. A failed sync (`failSafe`) writes
/// disruptionsAllowed 0 and leaves the rest as it was.
pub fn desired_status(m: &Context, s: &State, b: usize) -> PdbStatus {
    let stored = &s.api.pdbs[b];
    let Some((expected, desired)) = expected_and_desired(m, s, b) else {
        return PdbStatus {
            disruptions_allowed: 0,
            ..stored.clone()
        };
    };
    let disrupted: Vec<u16> = stored
        .disrupted_pods
        .iter()
        .copied()
        .filter(|uid| {
            s.pod(*uid)
                .is_some_and(|p| selects(m, b, p) && p.deletion.is_none())
        })
        .collect();
    let healthy = count_healthy(m, s, b, &disrupted);
    let allowed = if expected == 0 {
        0
    } else {
        healthy.saturating_sub(desired)
    };
    let cap = |v: u32| v.min(u8::MAX as u32) as u8;
    PdbStatus {
        observed: true,
        current_healthy: cap(healthy),
        desired_healthy: cap(desired),
        expected_pods: cap(expected),
        disruptions_allowed: cap(allowed),
        disrupted_pods: disrupted,
    }
}

/// The budgets whose status the controller would change.
pub fn actions<A: From<Action>>(m: &Context, s: &State, out: &mut Vec<A>) {
    for b in 0..m.scenario.pod_disruption_budgets.len() {
        if desired_status(m, s, b) != s.api.pdbs[b] {
            out.push(Action::DisruptionSync { pdb: b as u8 }.into());
        }
    }
}

/// The controller writes budget `b`'s status (`updatePdbStatus`, `UpdateStatus`).
pub fn sync(m: &Context, s: &mut State, b: u8) -> Option<()> {
    let b = b as usize;
    if b >= s.api.pdbs.len() {
        return None;
    }
    let new = desired_status(m, s, b);
    if new == s.api.pdbs[b] {
        return None;
    }
    s.api.pdbs[b] = new;
    Some(())
}
