//! The attach/detach controller.
//!
//! Sources: `docs/sources.md#kubelet-volumes-sandbox-and-containers`.

use super::*;

/// The attach/detach controller's attach fails (`GenerateAttachVolumeFunc`): it records
/// `FailedAttachVolume` on the pod and retries after the exponential back-off (0.5 s
/// doubling, at most 2m2s; whole seconds here).
pub fn attach_volume(s: &mut State, uid: u16) -> Option<()> {
    s.pod(uid)?;
    let pos = s.api.attach_retry.iter().position(|(u, _)| *u == uid);
    let backoff = pos.map_or(1, |i| (s.api.attach_retry[i].1.backoff * 2).min(244));
    let r = Retry {
        left: backoff.div_ceil(2),
        backoff,
    };
    match pos {
        Some(i) => s.api.attach_retry[i].1 = r,
        None => s.api.attach_retry.push((uid, r)),
    }
    crate::apiserver::record_event(
        s,
        None,
        uid,
        crate::events::EventKind::FailedAttachVolume,
        true,
    );
    Some(())
}
