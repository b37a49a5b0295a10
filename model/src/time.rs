//! Time: a discrete clock in whole seconds that jumps to the next deadline.
//!
//! Timers hold the seconds left. [`next_deadline`] is the smallest positive one; [`tick`]
//! subtracts it from every timer, ages the back-off entries, and applies what happens inside
//! the containers and the outside world at that instant (a program finishes booting, exits,
//! runs out of memory; preStop ends and SIGTERM is sent; grace ends and SIGKILL is sent; the
//! dependency comes back). Kubelet and controller reactions to those events are actions of
//! their own, taken before time can move again.

use crate::cluster::Cluster;
use crate::spec::Workload;
use crate::state::*;
use crate::{kubelet, nodes};

fn consider(min: &mut Option<Secs>, t: Secs) {
    if t > 0 {
        *min = Some(min.map_or(t, |m: Secs| m.min(t)));
    }
}

/// The seconds until the next thing that is due, if anything is pending.
pub fn next_deadline(m: &Cluster, s: &State) -> Option<Secs> {
    let mut min = None;
    for (_, r) in &s.api.attach_retry {
        consider(&mut min, r.left);
    }
    for node in &s.nodes {
        for rt in &node.pods {
            if let Some(t) = rt.retry_left {
                consider(&mut min, t);
            }
            if let Some(r) = rt.volume_retry {
                consider(&mut min, r.left);
            }
            for c in rt.init.iter().chain(&rt.ctrs) {
                if let Run::Running(p) = &c.run {
                    if let Some(t) = p.post_start.and_then(|h| h.left) {
                        consider(&mut min, t);
                    }
                    consider(&mut min, p.boot_left);
                    if let Some(t) = p.exit_left {
                        consider(&mut min, t);
                    }
                    if let Some(t) = p.oom_left {
                        consider(&mut min, t);
                    }
                    if let Some(st) = p.stop {
                        match st.prestop_left {
                            Some(t) => consider(&mut min, t),
                            None => consider(&mut min, st.kill_left),
                        }
                    }
                }
                for w in c.probes.iter().flatten() {
                    if let Some(t) = w.next_in {
                        consider(&mut min, t);
                    }
                }
                if let Some(w) = c.waiting {
                    consider(&mut min, w.left());
                }
            }
        }
    }
    for (i, w) in s.api.workloads.iter().enumerate() {
        if let (Some(j), Workload::Job { .. }) = (&w.job, &m.scenario.workloads[i]) {
            if j.condition.is_none() {
                consider(&mut min, j.backoff_left);
            }
        }
    }
    if let Some(t) = s.env.outage_left {
        consider(&mut min, t);
    }
    // Observer: time goes on while a pod is stuck, even when nothing else is pending, so that
    // "stuck for longer than a minute" can be judged.
    if min.is_none() {
        for p in &s.api.pods {
            if p.ghost.stuck_for < STUCK_CAP && stuck_now(m, s, p) {
                consider(&mut min, STUCK_CAP - p.ghost.stuck_for);
            }
        }
    }
    for (n, p) in s.proxies.iter().enumerate() {
        if s.nodes[n].partitioned {
            continue;
        }
        if let Some(t) = p.lag_left {
            consider(&mut min, t);
        }
    }
    if m.node_health {
        let grace = m.scenario.cluster.node_monitor_grace_period_seconds;
        for (n, node) in s.nodes.iter().enumerate() {
            let obj = &s.api.nodes[n];
            // NLC: `now > probeTimestamp + grace` (F 99), in whole seconds.
            if node.partitioned && !obj.unknown && !obj.deleted && node.lease_age <= grace {
                consider(&mut min, grace + 1 - node.lease_age);
            }
            if let Some(t) = nodes::next_eviction_in(m, s, n as u8) {
                consider(&mut min, t);
            }
            if let Some(t) = obj.gc_left {
                consider(&mut min, t);
            }
            if node.memory_hog {
                consider(&mut min, node.eviction_wait);
            }
        }
    }
    min
}

fn dec(t: &mut Secs, d: Secs) {
    *t = t.saturating_sub(d);
}

fn age(bo: &mut Option<Bo>, d: Secs) {
    if let Some(b) = bo {
        b.age = b.age.saturating_add(d).min(AGE_CAP);
    }
}

/// Lets `d` seconds pass.
pub fn tick(m: &Cluster, s: &mut State, d: Secs) -> Option<()> {
    if d == 0 {
        return None;
    }
    let mut failed_runs: Vec<u8> = Vec::new();
    // Observer: how long each pod has been stuck (judged at the start of the interval).
    let stuck: Vec<bool> = s.api.pods.iter().map(|p| stuck_now(m, s, p)).collect();
    for (p, stuck) in s.api.pods.iter_mut().zip(stuck) {
        p.ghost.stuck_for = if stuck {
            p.ghost.stuck_for.saturating_add(d).min(STUCK_CAP)
        } else {
            0
        };
    }
    for (_, r) in s.api.attach_retry.iter_mut() {
        dec(&mut r.left, d);
    }
    for node in &mut s.nodes {
        for rt in &mut node.pods {
            if let Some(t) = rt.retry_left.as_mut() {
                dec(t, d);
            }
            if let Some(r) = rt.volume_retry.as_mut() {
                dec(&mut r.left, d);
            }
            let w = rt.workload;
            let is_job = matches!(m.workload(w), Workload::Job { .. });
            for (init, i) in (0..rt.init.len())
                .map(|i| (true, i))
                .chain((0..rt.ctrs.len()).map(|i| (false, i)))
            {
                let cs = container_for(m, w, init, i);
                let c = rt.ctr_mut(init, i);
                age(&mut c.crash_bo, d);
                age(&mut c.pull_bo, d);
                if let Some(left) = c.waiting.as_mut().and_then(|w| w.left_mut()) {
                    dec(left, d);
                }
                for wk in c.probes.iter_mut().flatten() {
                    if let Some(t) = wk.next_in.as_mut() {
                        dec(t, d);
                    }
                }
                let Run::Running(p) = &mut c.run else {
                    continue;
                };
                if let Some(t) = p.post_start.as_mut().and_then(|h| h.left.as_mut()) {
                    dec(t, d);
                }
                dec(&mut p.boot_left, d);
                if let Some(t) = p.exit_left.as_mut() {
                    dec(t, d);
                }
                if let Some(t) = p.oom_left.as_mut() {
                    dec(t, d);
                }
                let mut sigterm_now = false;
                let mut sigkill_now = false;
                if let Some(st) = p.stop.as_mut() {
                    match st.prestop_left.as_mut() {
                        Some(t) => {
                            dec(t, d);
                            if *t == 0 {
                                st.prestop_left = None;
                                sigterm_now = true;
                            }
                        }
                        None => {
                            dec(&mut st.kill_left, d);
                            sigkill_now = st.kill_left == 0;
                        }
                    }
                }
                let exits = p.exit_left == Some(0);
                let oom = p.oom_left == Some(0);
                let why = p.stop.map(|st| st.why);
                // At one instant: the program's own exit first, then OOM, then signals.
                if exits {
                    let code = cs.app.exit_code;
                    kubelet::exit_now(c, code, false);
                    if code != 0 && is_job {
                        failed_runs.push(w);
                    }
                } else if oom {
                    kubelet::exit_now(c, 137, true);
                    if is_job {
                        failed_runs.push(w);
                    }
                } else if sigkill_now {
                    kubelet::exit_now(c, 137, false);
                    if why == Some(StopWhy::Deletion) {
                        c.ghost.sigkilled_on_deletion = true;
                    }
                } else if sigterm_now {
                    kubelet::sigterm(c, cs);
                }
            }
        }
    }
    for w in failed_runs {
        if let Some(j) = s.api.workloads[w as usize].job.as_mut() {
            j.failed_runs = j.failed_runs.saturating_add(1);
        }
    }
    for w in s.api.workloads.iter_mut() {
        if let Some(j) = w.job.as_mut() {
            dec(&mut j.backoff_left, d);
        }
    }
    if let Some(t) = s.env.outage_left.as_mut() {
        dec(t, d);
        if *t == 0 {
            s.env.outage_left = None;
            s.env.dependency_down = false;
        }
    }
    for (n, p) in s.proxies.iter_mut().enumerate() {
        if s.nodes[n].partitioned {
            continue;
        }
        if let Some(t) = p.lag_left.as_mut() {
            dec(t, d);
        }
    }
    let grace = m.scenario.cluster.node_monitor_grace_period_seconds;
    for (n, node) in s.nodes.iter_mut().enumerate() {
        if node.partitioned {
            node.lease_age = node.lease_age.saturating_add(d).min(grace + 1);
        }
        dec(&mut node.eviction_wait, d);
        let obj = &mut s.api.nodes[n];
        if obj.unreachable_taint || obj.out_of_service {
            obj.taint_age = obj.taint_age.saturating_add(d).min(m.taint_age_cap);
        }
        if let Some(t) = obj.gc_left.as_mut() {
            dec(t, d);
        }
    }
    Some(())
}

/// A pod is stuck (seed 000's "stuck Pods"): on a node whose kubelet reaches the API
/// server, it shows `ContainerCreating`, or it was deleted and nothing of it runs any more
/// but its object is still there.
pub fn stuck_now(m: &Cluster, s: &State, p: &Pod) -> bool {
    let Some(n) = p.node else {
        return false;
    };
    if s.nodes[n as usize].partitioned || p.mirror_of.is_some() {
        return false;
    }
    if p.deletion.is_some() {
        return s.rt(n, p.uid).is_none_or(|rt| !rt.any_running());
    }
    crate::render::print(m, p).status == "ContainerCreating"
}

fn container_for(m: &Cluster, w: u8, init: bool, i: usize) -> &crate::spec::Container {
    let t = m.workload(w).template();
    if init {
        &t.init_containers[i]
    } else {
        &t.containers[i]
    }
}
