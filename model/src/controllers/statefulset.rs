//! The StatefulSet controller.
//!
//! Sources: `docs/sources.md#statefulset-one-pod-per-identity`.

use super::*;

/// StatefulSet controller (`processReplica`): one object per identity
/// `<name>-<ordinal>`. A missing ordinal is created; a finished pod (Succeeded or Failed) is
/// deleted, to be recreated once its object is gone; while an object with that name exists
/// — Terminating on a partitioned node included — nothing else is created for it.
/// OrderedReady works one ordinal at a time and waits for each to be Running and Ready, and
/// with `minReadySeconds` Available too (Ready that long: `isRunningAndAvailable`, from 1.23);
/// Parallel creates every missing ordinal at once.
pub fn sync(m: &Context, s: &mut State, w: u8) -> Option<()> {
    let Workload::StatefulSet { spec, .. } = m.workload(w) else {
        return None;
    };
    let monotonic =
        spec.pod_management_policy == podcheck_input::spec::PodManagementPolicy::OrderedReady;
    for ordinal in 0..spec.replicas {
        let existing = s
            .api
            .pods
            .iter()
            .find(|p| p.workload == w && p.suffix == ordinal)
            .map(|p| {
                let available =
                    p.status.ready && (spec.min_ready_seconds == 0 || p.available_in == Some(0));
                (p.uid, p.status.phase, p.deletion.is_some(), available)
            });
        match existing {
            None => {
                apiserver::create_pod_named(m, s, w, ordinal);
                if monotonic {
                    return Some(());
                }
            }
            Some((uid, phase, deleting, _)) if phase.is_terminal() => {
                if !deleting {
                    apiserver::delete_pod(m, s, uid, None);
                }
                if monotonic {
                    return Some(());
                }
            }
            Some((_, _, true, _)) => {
                // "StatefulSet is waiting for Pod to Terminate".
                if monotonic {
                    return Some(());
                }
            }
            Some((_, phase, false, available)) => {
                if monotonic && !(phase == Phase::Running && available) {
                    return Some(());
                }
            }
        }
    }
    Some(())
}
