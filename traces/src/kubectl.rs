//! What `kubectl get pods` and `kubectl describe pod` print.

use crate::events::warning_table;
use podcheck_model::k8s::human_duration;
use podcheck_model::kubectl::print_at;
use podcheck_model::state::*;
use podcheck_model::Context;
use std::collections::{BTreeMap, BTreeSet};

/// The times a run gives that its states do not keep (they have no clock): when each pod's
/// deletion was requested and when each instance of each container stopped. kubectl reads
/// them as `deletionTimestamp` and `lastState.terminated.finishedAt` (the instance before the
/// one `restartCount` counts up to). Of a pod that had restarted before the run's first state,
/// the earlier instances are not known, and no "(X ago)" is printed.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Seconds since the run's start at which the pod's deletion was requested.
    deleted_at: BTreeMap<u16, u64>,
    /// When each instance of each container stopped running, in order.
    stops: BTreeMap<(u16, bool, usize), Vec<u64>>,
    /// The pods whose every container instance the run has seen.
    known: BTreeSet<u16>,
    started: bool,
    /// Seconds since the run's start, at the state last noted.
    pub now: u64,
}

fn containers(rt: &PodRt) -> impl Iterator<Item = ((bool, usize), bool)> + '_ {
    let running = |c: &Ctr| matches!(c.run, Run::Running(_));
    rt.init
        .iter()
        .enumerate()
        .map(move |(i, c)| ((true, i), running(c)))
        .chain(
            rt.ctrs
                .iter()
                .enumerate()
                .map(move |(i, c)| ((false, i), running(c))),
        )
}

impl History {
    /// Notes the step from `before` to `after`, which ends `now` seconds into the run.
    pub fn note(&mut self, before: &State, after: &State, now: u64) {
        if !self.started {
            self.started = true;
            for p in &before.api.pods {
                let fresh = p
                    .status
                    .init_statuses
                    .iter()
                    .chain(&p.status.statuses)
                    .all(|c| c.restart_count == 0 && c.last_state.is_none());
                if fresh {
                    self.known.insert(p.uid);
                }
            }
        }
        self.now = now;
        for p in &after.api.pods {
            let was = before.pod(p.uid);
            if was.is_none() {
                // A new object (uids are reused): every instance of it is seen from here.
                self.deleted_at.remove(&p.uid);
                self.stops.retain(|k, _| k.0 != p.uid);
                self.known.insert(p.uid);
            }
            if p.deletion.is_some() && was.is_none_or(|w| w.deletion.is_none()) {
                self.deleted_at.insert(p.uid, now);
            }
        }
        for (n, node) in after.nodes.iter().enumerate() {
            for rt in &node.pods {
                let old = before.rt(NodeId::new(n), rt.uid);
                for ((init, i), running) in containers(rt) {
                    let was_running =
                        old.is_some_and(|o| containers(o).any(|(k, r)| k == (init, i) && r));
                    if was_running && !running {
                        self.stops.entry((rt.uid, init, i)).or_default().push(now);
                    }
                }
            }
        }
    }

    /// Seconds since the instance of container `i` of `pod` that its `lastState` describes
    /// finished: instance `restartCount − 1`.
    fn finished_ago(&self, pod: &Pod, init: bool, i: usize) -> Option<u64> {
        if !self.known.contains(&pod.uid) {
            return None;
        }
        let statuses = if init {
            &pod.status.init_statuses
        } else {
            &pod.status.statuses
        };
        let rc = statuses.get(i)?.restart_count;
        if rc == 0 || rc >= RESTART_COUNT_CAP {
            return None;
        }
        let t = *self.stops.get(&(pod.uid, init, i))?.get(rc as usize - 1)?;
        Some(self.now.saturating_sub(t))
    }
}

/// `kubectl get pods -o wide`, trimmed to NAME READY STATUS RESTARTS NODE (without what only a
/// run's clock knows: RESTARTS "(X ago)").
pub fn kubectl_get_pods(m: &Context, s: &State) -> String {
    kubectl_get_pods_at(m, s, &History::default())
}

/// [`kubectl_get_pods`] at a moment of a run, with its [`History`].
pub fn kubectl_get_pods_at(m: &Context, s: &State, h: &History) -> String {
    let mut rows = vec![[
        "NAME".to_string(),
        "READY".into(),
        "STATUS".into(),
        "RESTARTS".into(),
        "NODE".into(),
    ]];
    for pod in &s.api.pods {
        let p = print_at(m, pod, &|init, i| h.finished_ago(pod, init, i));
        rows.push([
            m.pod_name(pod),
            p.ready,
            p.status,
            p.restarts,
            pod.node
                .map(|n| m.node_name(n).to_string())
                .unwrap_or_else(|| "<none>".into()),
        ]);
    }
    if rows.len() == 1 {
        return "No resources found.".into();
    }
    let widths: Vec<usize> = (0..5)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .map(|(i, c)| format!("{:w$}", c, w = widths[i] + 3))
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `kubectl describe pod`'s Status line: "Terminating (lasts X)" for a pod being deleted that
/// is not Succeeded or Failed, X the time since its `deletionTimestamp` (the request's time
/// plus its grace period; "<invalid>" while that is still ahead, as `HumanDuration` prints a
/// negative duration), else the phase.
fn describe_status(p: &Pod, h: &History) -> String {
    match (p.deletion, h.deleted_at.get(&p.uid)) {
        (Some(grace), at) if !p.status.phase.is_terminal() => {
            let lasts = match at {
                None => "<unknown>".to_string(),
                Some(&at) => {
                    let since = h.now as i64 - (at as i64 + grace as i64);
                    match since {
                        s if s < -1 => "<invalid>".to_string(),
                        s if s < 0 => "0s".to_string(),
                        s => human_duration(s as u64),
                    }
                }
            };
            format!("Terminating (lasts {lasts}); Termination Grace Period: {grace}s")
        }
        _ => p.status.phase.as_str().to_string(),
    }
}

/// `kubectl describe pod`, trimmed to status and events, for the pods with warnings.
pub fn describe_warned(m: &Context, s: &State) -> Vec<String> {
    describe_warned_at(m, s, &History::default())
}

/// [`describe_warned`] at a moment of a run, with its [`History`].
pub fn describe_warned_at(m: &Context, s: &State, h: &History) -> Vec<String> {
    let mut out = Vec::new();
    for p in &s.api.pods {
        let table = warning_table(m, p);
        if table.is_empty() {
            continue;
        }
        let printed = print_at(m, p, &|init, i| h.finished_ago(p, init, i));
        out.push(format!(
            "kubectl describe pod {}  (Status: {}; kubectl get pods: {})",
            m.pod_name(p),
            describe_status(p, h),
            printed.status
        ));
        out.extend(table);
    }
    out
}
