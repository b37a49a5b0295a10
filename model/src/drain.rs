//! `kubectl drain` as a client: it cordons the node, lists the pods on it, evicts each
//! through the Eviction API (or deletes it, with `--disable-eviction`), retries every 5 s
//! while the API answers 429, and waits until each pod is gone
//! (`staging/src/k8s.io/kubectl/pkg/drain/drain.go` `GetPodsForDeletion`,
//! `DeleteOrEvictPods`, `evictPods`, `waitForDelete`; `pkg/cmd/drain/drain.go` `RunDrain`).
//! It keeps going once started, so its steps are weakly fair; `--timeout` (default 0,
//! infinite) is not modelled.
//!
//! Sources: `docs/sources.md#kubectl-drain`.
//!
//! # The observation that a pod is gone, deferred
//!
//! `Gone` changes nothing but the run's own list (and its stage, once the list is empty),
//! and it is enabled from the step that removes the pod until it is taken, which is before
//! time can move (it is urgent). Offered as soon as it is due, it interleaves with every
//! other step of that instant, and each of those steps makes two states: the run still
//! waiting, and the run that has seen it. Where [`gone_deferrable`] holds, the model
//! ([`Context::deferred_gone`]) offers it only once no other component has anything
//! to do at that instant (before the clock's step), and only the first one due
//! ([`first_gone`]); faults and client requests stay enabled all along. Its footprint
//! (`crate::footprint`) is then the clock's: it reads and writes everything.
//!
//! **Why it is exact.** Let `s ~ t` when the two states are equal but for (i) which of the
//! runs' entries of pods already gone are still listed (with the stage `Ended` exactly when
//! the list is empty), and (ii) the uids that pods created since took (a bijection). Then:
//! - Nothing but the drain steps and the uid a creation takes reads an entry of a pod that
//!   is gone: an eviction is sent only for a pod still to be requested, and the entries of
//!   gone pods keep their uid from being taken again (`waitForDelete` compares uids). The
//!   uid a creation takes is read only by equality elsewhere, provided no scale-down names
//!   the pods of its tie by their order of uids ([`gone_deferrable`]'s proviso; PodGC's oldest-first order is
//!   the place in the API's list, where a pod goes last whatever its uid). So `~` relates
//!   states in which the same steps but the `Gone`s are enabled, each leading to `~`-related
//!   states, and the same clock step once no `Gone` is due.
//! - Every property reads a run only through whether it has started and whether it has
//!   ended with its node drained (the stage), and reads uids by equality: a safety
//!   property, a step property and the premise of a `leads_to` have the same value on
//!   `~`-related states and steps, except that "drained" comes when the last `Gone` is
//!   taken.
//! - A path of the whole model maps to a path of the deferred one, no longer, ending in a
//!   `~`-related state: move each `Gone` later, past the steps of its instant that follow
//!   it, to just before the clock's step, order the `Gone`s of one instant as [`first_gone`]
//!   does, and leave out those with no clock step after them (the state they lead to is
//!   `~`-related to the one without them). A `Gone` commutes with every other step up to `~`
//!   (it writes only the run's list, which nothing else reads but the uid a creation takes,
//!   renamed from there on), so the moved path is a path of the deferred model. Each path of
//!   the deferred model is one of the whole model. So a state satisfying a property of the
//!   first kind is reachable in `n` steps in one model iff a `~`-related one is in the
//!   other: `always`, `sometimes` and step verdicts and the shortest trace lengths are the
//!   same. The time of each state is the same (a `Gone` takes none and stays in its
//!   instant), so the times of `within` are too; "drained" is reached at the same instant.
//! - Fairness: a cycle of the whole model takes no `Gone` (a run's list only shrinks, and
//!   a gone uid is not taken again while it is listed), and a fair one has none due (the
//!   drain run would be enabled all along and never taken), so it is a fair cycle of the
//!   deferred model too: a `leads_to` that holds deferred holds. The converse needs more
//!   (deferred, the run is enabled only at the end of an instant, so a cycle within one
//!   instant could be fair there and not in the whole model): a `leads_to` or `within` that
//!   the deferred model does not show to hold is judged again without the deferral
//!   (`podcheck_properties::check`), as the symmetry reduction does.
//!
//! Off (`CheckOptions::deferred_gone`), each `Gone` is offered as soon as it is due.

use crate::apiserver::{self, EvictionResult};
use crate::context::Context;
use crate::state::*;
use podcheck_input::spec::{Fault, Scenario, Workload};

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

/// Enabled drain steps; with `deferred`, without the observations that a pod is gone
/// ([`first_gone`] offers those).
pub fn actions<A: From<Action>>(_m: &Context, s: &State, out: &mut Vec<A>, deferred: bool) {
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
                        DrainStep::Deleting if !deferred && s.pod(p.uid).is_none() => {
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

/// The first observation due that a pod is gone, in the order of the runs and of their lists:
/// where [`gone_deferrable`], the only one offered, once nothing else is enabled.
pub fn first_gone(s: &State) -> Option<Action> {
    s.env
        .drains
        .iter()
        .filter(|d| d.stage == DrainStage::Evicting)
        .find_map(|d| {
            d.pods
                .iter()
                .find(|p| p.step == DrainStep::Deleting && s.pod(p.uid).is_none())
                .map(|p| Action::Gone {
                    fault: d.fault,
                    uid: p.uid,
                })
        })
}

/// Whether the drain runs' observations that a pod is gone can wait until nothing else is
/// enabled at their instant, one at a time (see the module doc): the scenario has a drain,
/// and nothing in it reads the value of a uid, only its equality with another one. The
/// ReplicaSet's scale-down, whose choices among tied pods name them by their order of uids
/// (`controllers::replicaset::picks`), is reached only by a `scale` or a `rolloutRestart`.
pub fn gone_deferrable(scenario: &Scenario) -> bool {
    scenario
        .faults
        .iter()
        .any(|f| matches!(f, Fault::Drain { .. }))
        && !scenario
            .faults
            .iter()
            .any(|f| matches!(f, Fault::Scale { .. } | Fault::RolloutRestart { .. }))
}

fn end_if_done(d: &mut DrainRun) {
    if d.stage == DrainStage::Evicting && d.pods.is_empty() {
        d.stage = DrainStage::Ended;
    }
}
