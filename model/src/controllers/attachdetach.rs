//! The attach/detach controller: its reconciler attaches the volumes the desired state of the
//! world asks for, reports a Multi-Attach error for a volume that may be attached to one node
//! only and is attached to another, and detaches the volumes no pod on a node needs any more
//! — at once when the node has unmounted them, by force after `maxWaitForUnmountDuration` on
//! an unhealthy node (unless `--disable-force-detach-on-timeout`), and at once on a node with
//! the out-of-service taint.
//!
//! The desired state of the world is derived from the pod objects ([`dsw_pods`]); the actual
//! state of the world is [`Api::attached`]. The detach request time is kept by [`observe`],
//! which runs after every step, as the reconciler's 100 ms loop would.
//!
//! Sources: `docs/sources.md#attach-detach-desired-state`,
//! `docs/sources.md#attach-detach-access-modes-and-multi-attach`,
//! `docs/sources.md#attach-detach-detach-and-force-detach`,
//! `docs/sources.md#kubelet-volumes-sandbox-and-containers`.

use super::*;

/// The volume of `claim` is attached to some node other than `node`.
fn attached_elsewhere(s: &State, claim: u8, node: NodeId) -> bool {
    s.api
        .attached
        .iter()
        .any(|a| a.claim == claim && a.node != node)
}

/// The reconciler's steps enabled now (detaches first, as `reconcile` orders them).
pub fn actions<A: From<Action>>(m: &Context, s: &State, out: &mut Vec<A>) {
    for a in s.api.attached.iter() {
        if detach_why(m, s, a).is_some() {
            out.push(
                Action::DetachVolume {
                    claim: a.claim,
                    node: a.node,
                }
                .into(),
            );
        }
    }
    // `attachDesiredVolumes`: every (volume, node) of the desired state of the world.
    for (c, claim) in m.claims.iter().enumerate() {
        let c = c as u8;
        for n in (0..s.api.nodes.len()).map(NodeId::new) {
            if attached_to(s, c, n) || !volume_desired(m, s, c, n) {
                continue;
            }
            if !claim.multi_attach && attached_elsewhere(s, c, n) {
                // Reported once per entry of the desired state (`MultiAttachErrorReported`):
                // its pods carry the event while the entry lives.
                let reported =
                    dsw_pods(m, s, c, n).any(|p| p.events.read().multi_attach & (1 << c) != 0);
                if !reported {
                    out.push(Action::MultiAttach { claim: c, node: n }.into());
                }
                continue;
            }
            let waiting = s
                .api
                .attach_retry
                .iter()
                .any(|(k, r)| *k == (c, n) && r.left > 0);
            if !waiting {
                out.push(Action::AttachVolume { claim: c, node: n }.into());
            }
        }
    }
}

/// `AttachVolume`: the operation attaches the volume to the node, or fails
/// (`GenerateAttachVolumeFunc`): then every pod scheduled there that needs it gets
/// `FailedAttachVolume`, and the operation is retried after the exponential back-off (0.5 s
/// doubling, at most 2m2s; whole seconds here).
pub fn attach_volume(m: &Context, s: &mut State, claim: u8, node: NodeId) -> Option<()> {
    let pods: Vec<(u16, u8)> = dsw_pods(m, s, claim, node)
        .map(|p| (p.uid, p.workload))
        .collect();
    if pods.is_empty() || attached_to(s, claim, node) {
        return None;
    }
    let fails = pods
        .iter()
        .any(|(_, w)| m.step_failure(*w, FailingStep::AttachVolume).is_some());
    let key = (claim, node);
    let pos = s.api.attach_retry.iter().position(|(k, _)| *k == key);
    if !fails {
        if let Some(i) = pos {
            s.api.attach_retry.remove(i);
        }
        let a = Attachment {
            claim,
            node,
            detach_age: None,
        };
        let at = s.api.attached.binary_search(&a).unwrap_or_else(|i| i);
        s.api.attached.insert(at, a);
        return Some(());
    }
    let backoff = pos.map_or(1, |i| (s.api.attach_retry[i].1.backoff * 2).min(244));
    let r = Retry {
        left: backoff.div_ceil(2),
        backoff,
    };
    match pos {
        Some(i) => s.api.attach_retry[i].1 = r,
        None => {
            let at = s.api.attach_retry.partition_point(|(k, _)| *k < key);
            s.api.attach_retry.insert(at, (key, r));
        }
    }
    for (uid, _) in pods {
        crate::apiserver::record_event(
            s,
            None,
            uid,
            crate::events::EventKind::FailedAttachVolume,
            true,
        );
    }
    Some(())
}

/// `reportMultiAttachError`: the volume may be attached to one node only and is attached to
/// another. Every pod scheduled to `node` that needs it gets `FailedAttachVolume`
/// "Multi-Attach error for volume …": naming the pods that use the volume on the node it is
/// attached to, or, when none does (their objects are gone), "Volume is already exclusively
/// attached to one node and can't be attached to another".
pub fn multi_attach(m: &Context, s: &mut State, claim: u8, node: NodeId) -> Option<()> {
    let others: Vec<NodeId> = s
        .api
        .attached
        .iter()
        .filter(|a| a.claim == claim && a.node != node)
        .map(|a| a.node)
        .collect();
    if others.is_empty() {
        return None;
    }
    let users: Vec<(u8, u8)> = others
        .iter()
        .flat_map(|&o| dsw_pods(m, s, claim, o).map(|p| (p.workload, p.suffix)))
        .collect();
    let mut used_by = [None; 4];
    for (slot, u) in used_by.iter_mut().zip(&users) {
        *slot = Some(*u);
    }
    let more = users
        .len()
        .saturating_sub(used_by.len())
        .min(u8::MAX as usize) as u8;
    let kind = crate::events::EventKind::MultiAttach {
        claim,
        used_by,
        more,
    };
    let pods: Vec<u16> = dsw_pods(m, s, claim, node).map(|p| p.uid).collect();
    if pods.is_empty() {
        return None;
    }
    for uid in pods {
        crate::apiserver::record_event(s, None, uid, kind, true);
    }
    Some(())
}

/// `DetachVolume`: the volume is detached from the node and leaves the actual state of the
/// world (the detach itself succeeds here). A force detach does not wait for the node: what
/// runs there keeps its mount.
pub fn detach_volume(m: &Context, s: &mut State, claim: u8, node: NodeId) -> Option<()> {
    let i = s
        .api
        .attached
        .iter()
        .position(|a| a.claim == claim && a.node == node)?;
    detach_why(m, s, &s.api.attached[i])?;
    s.api.attached.remove(i);
    Some(())
}

/// The reconciler's bookkeeping of detach requests, after every step: a volume no pod on its
/// node needs gets its detach request time (`SetDetachRequestTime`), and one needed again
/// loses it (`ResetDetachRequestTime`). Writes only what changes.
pub fn observe(m: &Context, s: &mut State) {
    // No attachment, nothing to mark (and no list to build).
    if s.api.attached.is_empty() {
        return;
    }
    let change: Vec<(usize, Option<Secs>)> = s
        .api
        .attached
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            let desired = volume_desired(m, s, a.claim, a.node);
            match (desired, a.detach_age) {
                (true, Some(_)) => Some((i, None)),
                (false, None) => Some((i, Some(0))),
                _ => None,
            }
        })
        .collect();
    for (i, age) in change {
        s.api.attached[i].detach_age = age;
    }
}
