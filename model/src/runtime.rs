//! The container runtime and the programs in the containers: what a process does once it
//! runs — it exits, is OOM-killed, gets SIGTERM after its preStop hook and SIGKILL after the
//! grace period. The kubelet asks the runtime to stop a container ([`begin_stop`]); the clock
//! delivers what happens at each instant (the clock, `time.rs`).

use crate::state::*;
use podcheck_input::spec::{Container, OnSigterm};

/// The process ends (on its own, OOM-killed, or by a signal).
pub fn exit_now(c: &mut Ctr, code: i32, oom: bool) {
    c.run = Run::Exited(Exit { code, oom });
    for w in c.probes.iter_mut().flatten() {
        w.next_in = None;
        w.answer_in = None;
        // A container that does not run reads as Failure.
        w.result = ProbeResult::Failure;
    }
}

/// The container's preStop sleep, bounded by the grace period (`executePreStopHook` abandons
/// the hook when the grace runs out).
fn prestop_seconds(cs: &Container, grace: Secs) -> Option<Secs> {
    cs.lifecycle
        .as_ref()
        .and_then(|l| l.pre_stop.as_ref())
        .map(|ps| ps.sleep.seconds.min(grace))
}

/// killContainer: preStop bounded by grace, then SIGTERM with what is left of the
/// grace (at least 2 s), then SIGKILL.
pub fn begin_stop(c: &mut Ctr, cs: &Container, grace: Secs, why: StopWhy) {
    let Run::Running(p) = &mut c.run else {
        return;
    };
    if p.stop.is_some() {
        return;
    }
    let prestop = prestop_seconds(cs, grace);
    let kill_left = grace.saturating_sub(prestop.unwrap_or(0)).max(2);
    p.stop = Some(Stop {
        prestop_left: prestop.filter(|&s| s > 0),
        kill_left,
        why,
        awaits_turn: false,
        sigterm_exit: None,
    });
    if prestop.unwrap_or(0) == 0 {
        sigterm(c, cs);
    }
}

/// killContainer with a termination ordering, for a sidecar when its pod is killed
/// (`kuberuntime_container.go` `killContainer`, `kuberuntime_termination_order.go`): preStop
/// at once, bounded by the grace; then it waits for its turn with what is left of the grace
/// ([`Stop::awaits_turn`]); [`take_turn`] sends SIGTERM. `docs/sources.md#sidecar-containers`.
pub fn begin_ordered_stop(c: &mut Ctr, cs: &Container, grace: Secs, why: StopWhy) {
    let Run::Running(p) = &mut c.run else {
        return;
    };
    if p.stop.is_some() {
        return;
    }
    let prestop = prestop_seconds(cs, grace);
    p.stop = Some(Stop {
        prestop_left: prestop.filter(|&s| s > 0),
        kill_left: grace.saturating_sub(prestop.unwrap_or(0)),
        why,
        awaits_turn: true,
        sigterm_exit: None,
    });
}

/// The wait of a container stopped by [`begin_ordered_stop`] ends (its turn has come, or the
/// grace to wait in has run out): StopContainer with what is left of the grace, at least 2 s
/// (`minimumGracePeriodInSeconds`), so SIGTERM now and SIGKILL when that runs out.
pub fn take_turn(c: &mut Ctr, cs: &Container) {
    let Run::Running(p) = &mut c.run else {
        return;
    };
    let Some(st) = p.stop.as_mut() else {
        return;
    };
    if !st.awaits_turn || st.prestop_left.is_some() {
        return;
    }
    st.awaits_turn = false;
    st.kill_left = st.kill_left.max(2);
    sigterm(c, cs);
}

/// SIGTERM reaches the program: it exits at once, after its own shutdown (its exit is then
/// due in that many seconds, unless it was due sooner on its own), or not at all.
pub fn sigterm(c: &mut Ctr, cs: &Container) {
    match cs.app.on_sigterm {
        OnSigterm::Exit(code) | OnSigterm::ExitAfter { code, seconds: 0 } => {
            exit_now(c, code, false)
        }
        OnSigterm::ExitAfter { code, seconds } => {
            if let Run::Running(p) = &mut c.run {
                if p.exit_left.is_none_or(|t| t > seconds) {
                    p.exit_left = Some(seconds);
                    if let Some(st) = p.stop.as_mut() {
                        st.sigterm_exit = Some(code);
                    }
                }
            }
        }
        OnSigterm::Ignore => {}
    }
}

/// Node `n`'s machine stops: its containers are gone, its kubelet and kube-proxy stop, and
/// its lease is no longer renewed.
pub fn power_off(s: &mut State, n: usize) {
    let dead = &mut s.nodes[n];
    dead.powered_off = true;
    dead.partitioned = true;
    dead.lease_age = 0;
    dead.memory_hog = false;
    dead.kubelet_down = false;
    dead.shutdown = None;
    dead.pods.clear();
}
