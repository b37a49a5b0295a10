//! kube-proxy on each node, and the clients that send requests through the Service.
//!
//! Each proxy routes by its own copy of the EndpointSlice (only `ready` endpoints). A change to
//! the slice reaches a proxy after a delay of at most `proxyLagSeconds`: the proxy may apply it
//! at any moment before, and must apply it at the deadline. Requests are answered by the
//! runtime truth: a request routed to a pod whose container no longer runs is refused.
//!
//! Sources: `docs/sources.md#kube-proxy-routing-lags-the-endpointslice`,
//! `docs/sources.md#kube-proxy-terminating-endpoints`.

use crate::context::Context;
use crate::state::*;

/// kube-proxy on a node applies the current EndpointSlice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Sync { node: u8 },
}

/// A client request through a node's kube-proxy to a pod it routes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    pub via: u8,
    pub uid: u16,
}

/// What the proxies should route to now: the ready endpoints of the API's slice.
pub fn desired_routes(s: &State) -> Vec<(u16, u8)> {
    s.api
        .endpoints
        .iter()
        .filter(|e| e.conditions.ready)
        .map(|e| (e.uid, e.node))
        .collect()
}

/// The watch: after every step, a proxy whose routes differ from the slice gets a pending
/// update with the full lag; one with nothing to apply has none.
pub fn observe(m: &Context, s: &mut State) {
    let want = || {
        s.api
            .endpoints
            .iter()
            .filter(|e| e.conditions.ready)
            .map(|e| (e.uid, e.node))
    };
    let lag = m.scenario.cluster.proxy_lag_seconds;
    for n in 0..s.proxies.len() {
        if s.nodes[n].partitioned {
            // A partitioned kube-proxy sees no updates; it keeps its old routes.
            continue;
        }
        let p = &s.proxies[n];
        let lag_left = if p.routes.iter().copied().eq(want()) {
            None
        } else {
            Some(p.lag_left.unwrap_or(lag))
        };
        // Changed only where it changes: the proxies are shared with the state before.
        if p.lag_left != lag_left {
            s.proxies[n].lag_left = lag_left;
        }
    }
}

/// A proxy at its deadline must apply the slice.
pub fn urgent_actions<A: From<Action>>(s: &State, out: &mut Vec<A>) {
    for (n, p) in s.proxies.iter().enumerate() {
        if p.lag_left == Some(0) && !s.nodes[n].partitioned {
            out.push(Action::Sync { node: n as u8 }.into());
        }
    }
}

/// A proxy may apply the slice early; clients may send a request at any time.
pub fn environment_actions<A: From<Action> + From<Request>>(
    m: &Context,
    s: &State,
    out: &mut Vec<A>,
) {
    for (n, p) in s.proxies.iter().enumerate() {
        if matches!(p.lag_left, Some(t) if t > 0) && !s.nodes[n].partitioned {
            out.push(Action::Sync { node: n as u8 }.into());
        }
    }
    let clients = m.scenario.service.as_ref().is_some_and(|svc| svc.clients);
    if !clients {
        return;
    }
    for (n, p) in s.proxies.iter().enumerate() {
        for &(uid, _) in &p.routes {
            out.push(Request { via: n as u8, uid }.into());
        }
    }
}

/// The proxy applies the current slice.
pub fn sync(_m: &Context, s: &mut State, node: u8) -> Option<()> {
    let want = desired_routes(s);
    let p = &mut s.proxies[node as usize];
    p.routes = want;
    p.lag_left = None;
    Some(())
}

/// A request reaches the pod the proxy picked. It is served if a container of that pod runs on
/// that node, and refused otherwise ([`refused`]); either way the cluster's state does not
/// change (the `no_request_to_stopped_container` property judges the step itself).
pub fn request(_m: &Context, s: &mut State, via: u8, uid: u16) -> Option<()> {
    s.proxies[via as usize].routes.iter().find(|r| r.0 == uid)?;
    Some(())
}

/// Whether a request through the kube-proxy of node `via` to pod `uid` is refused in state
/// `s`: the proxy routes to the pod on a node where no container of it runs.
pub fn refused(s: &State, via: u8, uid: u16) -> bool {
    let Some(&(_, node)) = s.proxies[via as usize].routes.iter().find(|r| r.0 == uid) else {
        return false;
    };
    !s.rt(node, uid)
        .is_some_and(|rt| rt.ctrs.iter().any(|c| matches!(c.run, Run::Running(_))))
}
