//! `kubectl drain` as a client: it cordons the node, lists the pods on it, evicts each
//! through the Eviction API (or deletes it, with `--disable-eviction`), retries every 5 s
//! while the API answers 429, and waits until each pod is gone
//! (`staging/src/k8s.io/kubectl/pkg/drain/drain.go` `GetPodsForDeletion`,
//! `DeleteOrEvictPods`, `evictPods`, `waitForDelete`; `pkg/cmd/drain/drain.go` `RunDrain`).
//! It keeps going once started, so its steps are weakly fair; `--timeout` (default 0,
//! infinite) is not modelled.
//!
//! Sources: `docs/sources.md#kubectl-drain`.

use crate::apiserver::{self, EvictionResult};
use crate::context::Context;
use crate::state::*;
use podcheck_input::spec::{Fault, Workload};

/// `EvictErrorRetryDelay`: drain waits 5 s after a 429 before it evicts the pod again.
pub const EVICT_ERROR_RETRY_DELAY: Secs = 5;

/// A step of a drain run (`fault`: the scenario's drain fault).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Cordon the node (`spec.unschedulable: true`) and list its pods.
    Cordon { fault: u8 },
    /// Send the eviction (or, with `--disable-eviction`, the delete) of the pod.
    Evict { fault: u8, uid: u16 },
    /// The pod is gone: `pod/x evicted` (or `deleted`).
    Gone { fault: u8, uid: u16 },
}

impl Action {
    pub fn fault(&self) -> u8 {
        match *self {
            Action::Cordon { fault } | Action::Evict { fault, .. } | Action::Gone { fault, .. } => {
                fault
            }
        }
    }
    pub fn pod(&self) -> Option<u16> {
        match *self {
            Action::Cordon { .. } => None,
            Action::Evict { uid, .. } | Action::Gone { uid, .. } => Some(uid),
        }
    }
}

/// The flags of a drain fault: (`--disable-eviction`, `--force`, `--delete-emptydir-data`).
fn flags(m: &Context, fault: u8) -> Option<(bool, bool, bool)> {
    match m.scenario.faults.get(fault as usize)? {
        Fault::Drain {
            disable_eviction,
            force,
            delete_emptydir_data,
            ..
        } => Some((*disable_eviction, *force, *delete_emptydir_data)),
        _ => None,
    }
}

/// Why the drain refuses a pod (`filters.go`, in the order of `makeFilters`), if it does: a
/// finished pod passes every filter; one no controller owns needs `--force`, one with an
/// emptyDir volume `--delete-emptydir-data`. Mirror pods are skipped before (`mirrorPodFilter`).
pub fn refusal(m: &Context, pod: &Pod, force: bool, emptydir: bool) -> Option<&'static str> {
    if pod.status.phase.is_terminal() {
        return None;
    }
    let spec = m.template(pod.workload);
    if !emptydir && spec.volumes.iter().any(|v| v.empty_dir.is_some()) {
        return Some("Pods with local storage (use --delete-emptydir-data to override)");
    }
    if !force && matches!(m.workload(pod.workload), Workload::Pod { .. }) {
        return Some("cannot delete Pods that declare no controller (use --force to override)");
    }
    None
}

/// The pods the drain lists on node `n` (`GetPodsForDeletion`: field selector
/// `spec.nodeName`), mirror pods left out.
pub fn listed(s: &State, n: NodeId) -> impl Iterator<Item = &Pod> {
    s.api
        .pods
        .iter()
        .map(|p| &**p)
        .filter(move |p| p.node == Some(n) && p.mirror_of.is_none())
}

/// Enabled drain steps.
pub fn actions<A: From<Action>>(_m: &Context, s: &State, out: &mut Vec<A>) {
    for d in &s.env.drains {
        let fault = d.fault;
        match d.stage {
            DrainStage::Cordon => out.push(Action::Cordon { fault }.into()),
            DrainStage::Evicting => {
                for p in &d.pods {
                    match p.step {
                        DrainStep::Request { wait: 0 } => {
                            out.push(Action::Evict { fault, uid: p.uid }.into())
                        }
                        DrainStep::Deleting if s.pod(p.uid).is_none() => {
                            out.push(Action::Gone { fault, uid: p.uid }.into())
                        }
                        _ => {}
                    }
                }
            }
            DrainStage::Ended => {}
        }
    }
}

/// Applies a drain step; None if it is not enabled.
pub fn apply(m: &Context, s: &mut State, a: Action) -> Option<()> {
    let fault = a.fault();
    let i = s.env.drains.iter().position(|d| d.fault == fault)?;
    let (disable_eviction, force, emptydir) = flags(m, fault)?;
    match a {
        Action::Cordon { .. } => {
            if s.env.drains[i].stage != DrainStage::Cordon {
                return None;
            }
            let n = s.env.drains[i].node;
            if !s.api.nodes[n.index()].unschedulable {
                s.api.nodes[n.index()].unschedulable = true;
            }
            let refused = listed(s, n).any(|p| refusal(m, p, force, emptydir).is_some());
            let uids: Vec<(u16, u8, u8)> = listed(s, n)
                .map(|p| (p.uid, p.workload, p.suffix))
                .collect();
            let d = &mut s.env.drains[i];
            if refused {
                d.failed = true;
            } else {
                d.pods = uids
                    .into_iter()
                    .map(|(uid, workload, suffix)| DrainPod {
                        uid,
                        workload,
                        suffix,
                        step: DrainStep::Request { wait: 0 },
                    })
                    .collect();
            }
            d.stage = DrainStage::Evicting;
            end_if_done(&mut s.env.drains[i]);
            Some(())
        }
        Action::Evict { uid, .. } => {
            let k = s.env.drains[i].pods.iter().position(|p| p.uid == uid)?;
            if s.env.drains[i].pods[k].step != (DrainStep::Request { wait: 0 }) {
                return None;
            }
            let result = if disable_eviction {
                match apiserver::delete_pod(m, s, uid, None) {
                    Some(()) => EvictionResult::Evicted,
                    None => EvictionResult::NotFound,
                }
            } else {
                apiserver::evict_pod(m, s, uid)
            };
            let d = &mut s.env.drains[i];
            match result {
                EvictionResult::Evicted => d.pods[k].step = DrainStep::Deleting,
                EvictionResult::TooManyRequests { .. } => {
                    d.pods[k].step = DrainStep::Request {
                        wait: EVICT_ERROR_RETRY_DELAY,
                    }
                }
                // NotFound counts as done, without waiting.
                EvictionResult::NotFound => {
                    d.pods.remove(k);
                }
                EvictionResult::MultipleBudgets => {
                    d.pods.remove(k);
                    d.failed = true;
                }
            }
            end_if_done(d);
            Some(())
        }
        Action::Gone { uid, .. } => {
            if s.pod(uid).is_some() {
                return None;
            }
            let d = &mut s.env.drains[i];
            let k = d
                .pods
                .iter()
                .position(|p| p.uid == uid && p.step == DrainStep::Deleting)?;
            d.pods.remove(k);
            end_if_done(d);
            Some(())
        }
    }
}

fn end_if_done(d: &mut DrainRun) {
    if d.stage == DrainStage::Evicting && d.pods.is_empty() {
        d.stage = DrainStage::Ended;
    }
}
