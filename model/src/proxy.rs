//! kube-proxy on each node, and the clients that send requests through the Service.
//!
//! Each proxy routes by its own copy of the EndpointSlice. It picks the endpoints as
//! `CategorizeEndpoints` (`pkg/proxy/topology.go`) does for a Service with the `Cluster`
//! traffic policy: the ready ones if there is any; from 1.26 (gate
//! `ProxyTerminatingEndpoints`, KEP-1669), when there is none, the ones that are serving and
//! terminating; ready and terminating endpoints are never mixed. A change to the slice
//! reaches a proxy after a delay of at most `proxyLagSeconds`: the proxy may apply it at any
//! moment before, and must apply it at the deadline. Requests are answered by the runtime
//! truth: a request routed to a pod whose container no longer runs is refused. A request
//! through a proxy with no endpoint at all is rejected by the proxy itself (the iptables
//! proxier's REJECT rule for a Service that "has no endpoints", `pkg/proxy/iptables`
//! `syncProxyRules`).
//!
//! A headless Service (`clusterIP: None`) is not handled by kube-proxy at all
//! (`pkg/proxy/util/utils.go` `ShouldSkipService`): its slice is kept all the same, but no
//! proxy ever routes to it, so the proxies of such a scenario hold no routes and have nothing
//! to apply ([`proxied`]).
//!
//! Sources: `docs/sources.md#kube-proxy-routing-lags-the-endpointslice`,
//! `docs/sources.md#kube-proxy-terminating-endpoints`,
//! `docs/sources.md#kube-proxy-headless-services`.

use crate::context::Context;
use crate::state::*;

/// kube-proxy on a node applies the current EndpointSlice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Sync { node: NodeId },
}

/// A client request through a node's kube-proxy: to the pod `uid` it routes to, or, with
/// `uid` None, to a proxy that has no endpoint for the Service (it rejects the request).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    pub via: NodeId,
    pub uid: Option<u16>,
}

/// The endpoints a proxy picks from a slice (`CategorizeEndpoints`, Cluster traffic policy):
/// the ready ones; with none and `terminating_fallback`, the serving and terminating ones.
pub fn pick<'a>(
    endpoints: &'a [Endpoint],
    terminating_fallback: bool,
) -> impl Iterator<Item = (u16, NodeId)> + 'a {
    let any_ready = endpoints.iter().any(|e| e.conditions.ready);
    let fallback = !any_ready && terminating_fallback;
    endpoints
        .iter()
        .filter(move |e| {
            if fallback {
                e.conditions.serving && e.conditions.terminating
            } else {
                e.conditions.ready
            }
        })
        .map(|e| (e.uid, e.node))
}

/// Whether the kube-proxies handle the scenario's Service: it has one, and it is not
/// headless (`ShouldSkipService`).
pub fn proxied(m: &Context) -> bool {
    m.scenario.service.as_ref().is_some_and(|svc| !svc.headless)
}

/// What the proxies should route to now, from the API's slice: nothing for a Service they
/// do not handle ([`proxied`]).
pub fn desired_routes(m: &Context, s: &State) -> crate::state::Routes {
    if !proxied(m) {
        return Default::default();
    }
    pick(&s.api.endpoints, m.by_release.proxy_terminating_endpoints).collect()
}

/// The watch after the step from `before` to `s`: [`observe`], unless the step changed
/// nothing the watch reads (the slice, the proxies, the nodes' partitions). Then what it
/// found in `before` still stands, since every state the model reaches has been watched: the
/// empty cluster has no slice and no routes, and every other state is made by a step (or is
/// the symmetry reduction's renumbering of one, which renumbers slice and routes alike).
pub fn observe_after(m: &Context, before: &State, s: &mut State) {
    let unchanged = Shared::ptr_eq(&before.api.endpoints, &s.api.endpoints)
        && Shared::ptr_eq(&before.proxies, &s.proxies)
        && before
            .nodes
            .iter()
            .zip(s.nodes.iter())
            .all(|(a, b)| a.partitioned == b.partitioned);
    if !unchanged {
        observe(m, s);
    }
}

/// The watch: after every step, a proxy whose routes differ from the slice gets a pending
/// update with the full lag; one with nothing to apply has none. A Service the proxies do
/// not handle ([`proxied`]) never gives them anything to apply.
pub fn observe(m: &Context, s: &mut State) {
    if !proxied(m) {
        return;
    }
    let fallback = m.by_release.proxy_terminating_endpoints;
    // Picked once for every proxy (this runs after every step).
    let want: smallvec::SmallVec<[(u16, NodeId); 8]> = pick(&s.api.endpoints, fallback).collect();
    let lag = m.scenario.cluster.proxy_lag_seconds;
    for n in 0..s.proxies.len() {
        if s.nodes[n].partitioned {
            // A partitioned kube-proxy sees no updates; it keeps its old routes.
            continue;
        }
        let p = &s.proxies[n];
        let lag_left = if p.routes[..] == want[..] {
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
            out.push(
                Action::Sync {
                    node: NodeId::new(n),
                }
                .into(),
            );
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
            out.push(
                Action::Sync {
                    node: NodeId::new(n),
                }
                .into(),
            );
        }
    }
    let clients = m.scenario.service.as_ref().is_some_and(|svc| svc.clients);
    if !clients {
        return;
    }
    for (n, p) in s.proxies.iter().enumerate() {
        if s.nodes[n].powered_off {
            // No client reaches a kube-proxy on a machine that is off.
            continue;
        }
        for &(uid, _) in &p.routes {
            out.push(
                Request {
                    via: NodeId::new(n),
                    uid: Some(uid),
                }
                .into(),
            );
        }
        if p.routes.is_empty() {
            out.push(
                Request {
                    via: NodeId::new(n),
                    uid: None,
                }
                .into(),
            );
        }
    }
}

/// The proxy applies the current slice.
pub fn sync(m: &Context, s: &mut State, node: NodeId) -> Option<()> {
    let want = desired_routes(m, s);
    let p = &mut s.proxies[node.index()];
    p.served |= !want.is_empty();
    p.routes = want;
    p.lag_left = None;
    Some(())
}

/// A request reaches the pod the proxy picked. It is served if a container of that pod runs on
/// that node, and refused otherwise ([`refused`]); a request through a proxy with no endpoint
/// is rejected ([`no_endpoints`]). Either way the cluster's state does not change (the
/// properties judge the step itself).
pub fn request(_m: &Context, s: &mut State, via: NodeId, uid: Option<u16>) -> Option<()> {
    let routes = &s.proxies[via.index()].routes;
    match uid {
        Some(uid) => routes.iter().find(|r| r.0 == uid).map(|_| ()),
        None => routes.is_empty().then_some(()),
    }
}

/// Whether a request through the kube-proxy of node `via` to pod `uid` is refused in state
/// `s`: the proxy routes to the pod on a node where no container of it runs.
pub fn refused(s: &State, via: NodeId, uid: Option<u16>) -> bool {
    let Some(uid) = uid else {
        return false;
    };
    let Some(&(_, node)) = s.proxies[via.index()].routes.iter().find(|r| r.0 == uid) else {
        return false;
    };
    !s.rt(node, uid)
        .is_some_and(|rt| rt.ctrs.iter().any(|c| matches!(c.run, Run::Running(_))))
}

/// Whether the request is one the kube-proxy of node `via` rejects because it has no
/// endpoint for the Service in state `s`.
pub fn no_endpoints(s: &State, via: NodeId, uid: Option<u16>) -> bool {
    uid.is_none() && s.proxies[via.index()].routes.is_empty()
}
