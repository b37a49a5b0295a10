//! Time: a discrete clock in whole seconds that jumps to the next deadline.
//!
//! Every timer of the state is listed once ([`Timer`], in `each_timer!`). [`next_deadline`]
//! is the smallest positive time until one of them is due; [`tick`] advances them all by it
//! (count-downs down, ages up to their caps) and then applies what happens inside
//! the containers and the outside world at that instant (a program finishes booting, exits,
//! runs out of memory; preStop ends and SIGTERM is sent; grace ends and SIGKILL is sent; the
//! dependency comes back). Kubelet and controller reactions to those events are actions of
//! their own, taken before time can move again.

use crate::context::Context;
use crate::derived::{next_eviction_in, stuck_now};
use crate::runtime::{exit_now, sigterm, take_turn};
use crate::state::*;
use podcheck_input::spec::Workload;

/// A timer of the state, as the clock sees it.
pub enum Timer<T> {
    /// Seconds left until something is due. `due`: it also sets the next deadline (some
    /// count down without anything waiting on them).
    Countdown { left: T, due: bool },
    /// Seconds since something happened, saturating at `cap`; something is due when it
    /// reaches `due_at`.
    Age {
        age: T,
        cap: Secs,
        due_at: Option<Secs>,
    },
}

/// Every timer of the state, written once: [`next_deadline`] reads them (`each_timer!(m, s,
/// f)`), [`tick`] advances them (`each_timer!(m, s, f, mut)`). `f` gets a [`Timer`] of `&Secs`
/// or of `&mut Secs`.
macro_rules! each_timer {
    ($m:expr, $s:expr, $f:ident $(, $mut:ident)?) => {{
        let m: &Context = $m;
        let grace = m.node_monitor_grace;
        for (_, r) in & $($mut)? *$s.api.attach_retry {
            $f(Timer::Countdown { left: & $($mut)? r.left, due: true });
        }
        // Detach requests: their age matters only where a node can turn unhealthy; it is due
        // when a force detach on timeout is the only way left.
        if m.node_health && $s.api.attached.iter().any(|a| a.detach_age.is_some()) {
            let due: Vec<bool> = $s
                .api
                .attached
                .iter()
                .map(|a| crate::derived::timeout_pending(m, &$s, a))
                .collect();
            for (a, due) in (& $($mut)? *$s.api.attached).into_iter().zip(due) {
                if let Some(age) = & $($mut)? a.detach_age {
                    let due_at = due.then_some(DETACH_AGE_CAP);
                    $f(Timer::Age { age, cap: DETACH_AGE_CAP, due_at });
                }
            }
        }
        for node in & $($mut)? *$s.nodes {
            for rt in & $($mut)? node.pods {
                let rt = & $($mut)? **rt;
                if let Some(t) = & $($mut)? rt.retry_left {
                    $f(Timer::Countdown { left: t, due: true });
                }
                if let Some(r) = & $($mut)? rt.volume_retry {
                    $f(Timer::Countdown { left: & $($mut)? r.left, due: true });
                }
                for c in (& $($mut)? rt.init).into_iter().chain(& $($mut)? rt.ctrs) {
                    for bo in [& $($mut)? c.crash_bo, & $($mut)? c.pull_bo] {
                        if let Some(b) = bo {
                            $f(Timer::Age { age: & $($mut)? b.age, cap: AGE_CAP, due_at: None });
                        }
                    }
                    if let Some(
                        Waiting::CrashLoopBackOff { left }
                        | Waiting::ErrImagePull { left }
                        | Waiting::ImagePullBackOff { left }
                        | Waiting::ErrImageNeverPull { left }
                        | Waiting::CreateContainerConfigError { left }
                        | Waiting::CreateContainerError { left },
                    ) = & $($mut)? c.waiting
                    {
                        $f(Timer::Countdown { left, due: true });
                    }
                    for w in (& $($mut)? c.probes).into_iter().flatten() {
                        if let Some(t) = & $($mut)? w.next_in {
                            $f(Timer::Countdown { left: t, due: true });
                        }
                        if let Some(t) = & $($mut)? w.answer_in {
                            $f(Timer::Countdown { left: t, due: true });
                        }
                    }
                    if let Run::Running(p) = & $($mut)? c.run {
                        if let Some(Hook { left: Some(t), .. }) = & $($mut)? p.post_start {
                            $f(Timer::Countdown { left: t, due: true });
                        }
                        $f(Timer::Countdown { left: & $($mut)? p.boot_left, due: true });
                        if let Some(t) = & $($mut)? p.exit_left {
                            $f(Timer::Countdown { left: t, due: true });
                        }
                        if let Some(t) = & $($mut)? p.oom_left {
                            $f(Timer::Countdown { left: t, due: true });
                        }
                        if let Some(st) = & $($mut)? p.stop {
                            match & $($mut)? st.prestop_left {
                                Some(t) => $f(Timer::Countdown { left: t, due: true }),
                                None => $f(Timer::Countdown { left: & $($mut)? st.kill_left, due: true }),
                            }
                        }
                    }
                }
            }
        }
        for w in & $($mut)? *$s.api.workloads {
            if let Some(j) = & $($mut)? w.job {
                let due = !j.decided();
                $f(Timer::Countdown { left: & $($mut)? j.backoff_left, due });
                if let Some(t) = & $($mut)? j.deadline_left {
                    $f(Timer::Countdown { left: t, due });
                }
            }
            // A rollout's progress deadline.
            if let Some(d) = & $($mut)? w.deployment {
                if let Some(Progressing::Updated { left, .. }) = & $($mut)? d.progressing {
                    $f(Timer::Countdown { left, due: true });
                }
            }
        }
        // A drain run's wait after a 429 (`EvictErrorRetryDelay`).
        for d in & $($mut)? $s.env.drains {
            for p in & $($mut)? d.pods {
                if let DrainStep::Request { wait } = & $($mut)? p.step {
                    $f(Timer::Countdown { left: wait, due: true });
                }
            }
        }
        // `minReadySeconds`: a Ready pod becomes available.
        if m.min_ready {
            for p in & $($mut)? $s.api.pods {
                if p.available_in.is_some_and(|k| k > 0) {
                    if let Some(t) = & $($mut)? p.available_in {
                        $f(Timer::Countdown { left: t, due: true });
                    }
                }
            }
        }
        if let Some(t) = & $($mut)? $s.env.outage_left {
            $f(Timer::Countdown { left: t, due: true });
        }
        for (n, p) in (& $($mut)? *$s.proxies).into_iter().enumerate() {
            if $s.nodes[n].partitioned {
                // A partitioned kube-proxy hears of no change: its lag does not run.
                continue;
            }
            if let Some(t) = & $($mut)? p.lag_left {
                $f(Timer::Countdown { left: t, due: true });
            }
        }
        for (n, node) in (& $($mut)? *$s.nodes).into_iter().enumerate() {
            let obj = & $($mut)? $s.api.nodes[n];
            if node.partitioned {
                // The node lifecycle controller: `now > probeTimestamp + grace`, in whole
                // seconds.
                let due_at = (m.node_health && !obj.unknown && !obj.deleted).then_some(grace + 1);
                $f(Timer::Age { age: & $($mut)? node.lease_age, cap: grace + 1, due_at });
            }
            let due = m.node_health && node.memory_hog;
            $f(Timer::Countdown { left: & $($mut)? node.eviction_wait, due });
            // The running shutdown group's grace period.
            if let Some(sd) = & $($mut)? node.shutdown {
                if sd.killing {
                    $f(Timer::Countdown { left: & $($mut)? sd.left, due: true });
                }
            }
            if obj.unreachable_taint || obj.not_ready_taint || obj.out_of_service {
                // Taint eviction's deadlines follow from this age (see `next_deadline`).
                $f(Timer::Age { age: & $($mut)? obj.taint_age, cap: m.taint_age_cap, due_at: None });
            }
            if let Some(t) = & $($mut)? obj.gc_left {
                $f(Timer::Countdown { left: t, due: m.node_health });
            }
        }
    }};
}

fn consider(min: &mut Option<Secs>, t: Secs) {
    if t > 0 {
        *min = Some(min.map_or(t, |m: Secs| m.min(t)));
    }
}

/// The seconds until the next thing that is due, if anything is pending.
pub fn next_deadline(m: &Context, s: &State) -> Option<Secs> {
    let mut min: Option<Secs> = None;
    let mut visit = |t: Timer<&Secs>| match t {
        Timer::Countdown { left, due: true } => consider(&mut min, *left),
        Timer::Countdown { due: false, .. } => {}
        Timer::Age { age, due_at, .. } => {
            if let Some(at) = due_at.filter(|at| *age < *at) {
                consider(&mut min, at - *age);
            }
        }
    };
    each_timer!(m, s, visit);
    // Taint eviction: when the next NoExecute toleration of a pod on a tainted node runs out,
    // reckoned from the taint's age.
    if m.node_health {
        for n in 0..s.nodes.len() {
            if let Some(t) = next_eviction_in(m, s, NodeId::new(n)) {
                consider(&mut min, t);
            }
        }
    }
    // A history variable: time goes on while a pod is stuck, even when nothing else is
    // pending, so that "stuck for longer than a minute" can be judged.
    if min.is_none() {
        for p in &s.api.pods {
            if p.ghost.stuck_for < STUCK_CAP && stuck_now(m, s, p) {
                consider(&mut min, STUCK_CAP - p.ghost.stuck_for);
            }
        }
    }
    min
}

/// Lets `d` seconds pass: every timer advances, then what is due at that instant happens
/// inside the containers and outside the cluster.
pub fn tick(m: &Context, s: &mut State, d: Secs) -> Option<()> {
    if d == 0 {
        return None;
    }
    // History variable: how long each pod has been stuck (judged at the start of the
    // interval).
    let stuck: Vec<bool> = s.api.pods.iter().map(|p| stuck_now(m, s, p)).collect();
    for (i, stuck) in stuck.into_iter().enumerate() {
        let was = s.api.pods[i].ghost.stuck_for;
        let now = if stuck {
            was.saturating_add(d).min(STUCK_CAP)
        } else {
            0
        };
        // Written only where it changes: the pods are shared with the state before.
        if now != was {
            s.api.pods[i].ghost.stuck_for = now;
        }
    }
    let advance = |t: Timer<&mut Secs>| match t {
        Timer::Countdown { left, .. } => *left = left.saturating_sub(d),
        Timer::Age { age, cap, .. } => *age = age.saturating_add(d).min(cap),
    };
    each_timer!(m, s, advance, mut);
    due_now(m, s);
    Some(())
}

/// What happens at the instant time stops: programs exit or are OOM-killed, preStop hooks end
/// and SIGTERM is sent, grace periods end and SIGKILL is sent, the dependency comes back.
fn due_now(m: &Context, s: &mut State) {
    let mut failed_runs: Vec<u8> = Vec::new();
    for node in s.nodes.iter_mut() {
        for rt in &mut node.pods {
            let w = rt.workload;
            let is_job = matches!(m.workload(w), Workload::Job { .. });
            for (init, i) in (0..rt.init.len())
                .map(|i| (true, i))
                .chain((0..rt.ctrs.len()).map(|i| (false, i)))
            {
                let cs = m.container(w, init, i);
                let c = rt.ctr_mut(init, i);
                // A probe worker's tick while its run still waits for an answer (a timeout
                // longer than the period): the worker takes it only when that run ends
                // (`worker.go` `run` calls `doProbe` and only then waits on its ticker), and
                // the ticker keeps one tick for a slow receiver, so the next run begins at
                // once when this one times out. Held as no countdown beside the wait
                // (`crate::kubelet` runs it when the timeout comes). Only a deadlocked
                // program leaves a run waiting, and it stays so until the container is
                // stopped, so the ticker's phase no longer matters.
                for w in c.probes.iter_mut().flatten() {
                    if w.next_in == Some(0) && w.answer_in.is_some_and(|t| t > 0) {
                        w.next_in = None;
                    }
                }
                let Run::Running(p) = &mut c.run else {
                    continue;
                };
                let mut sigterm_now = false;
                let mut sigkill_now = false;
                // A sidecar waiting for its turn: the grace to wait in has run out (or its
                // preStop used it all up), so StopContainer is called now with 2 s.
                let mut turn_now = false;
                if let Some(st) = p.stop.as_mut() {
                    match st.prestop_left {
                        Some(0) => {
                            st.prestop_left = None;
                            if st.awaits_turn {
                                turn_now = st.kill_left == 0;
                            } else {
                                sigterm_now = true;
                            }
                        }
                        Some(_) => {}
                        None if st.awaits_turn => turn_now = st.kill_left == 0,
                        None => sigkill_now = st.kill_left == 0,
                    }
                }
                let exits = p.exit_left == Some(0);
                let oom = p.oom_left == Some(0);
                // At one instant: the program's own exit first, then OOM, then signals.
                let sigterm_exit = p.stop.and_then(|st| st.sigterm_exit);
                if let (true, Some(code)) = (exits, sigterm_exit) {
                    // The end of the program's shutdown after SIGTERM, as when it exits at
                    // once: a stop, not a failed run.
                    exit_now(c, code, false);
                } else if exits {
                    let code = cs.app.exit_code;
                    exit_now(c, code, false);
                    if code != 0 && is_job {
                        failed_runs.push(w);
                    }
                } else if oom {
                    exit_now(c, 137, true);
                    if is_job {
                        failed_runs.push(w);
                    }
                } else if sigkill_now {
                    exit_now(c, 137, false);
                } else if sigterm_now {
                    sigterm(c, cs);
                } else if turn_now {
                    take_turn(c, cs);
                }
            }
        }
    }
    for w in failed_runs {
        if let Some(j) = s.api.workloads[w as usize].job.as_mut() {
            j.failed_runs = j.failed_runs.saturating_add(1);
        }
    }
    if s.env.outage_left == Some(0) {
        s.env.outage_left = None;
        s.env.dependency_down = false;
    }
}
