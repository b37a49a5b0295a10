//! The EndpointSlice controller.
//!
//! Sources: `docs/sources.md#endpointslice-conditions`.

use super::*;

/// EndpointSlice controller: every pod of the selected workloads that should be in
/// endpoints, with ready / serving / terminating.
pub fn sync(m: &Context, s: &mut State) -> Option<()> {
    s.api.endpoints = desired_endpoints(m, s)?.into();
    Some(())
}

/// The slice the EndpointSlice controller would write now (None without a Service).
pub fn desired_endpoints(m: &Context, s: &State) -> Option<Vec<Endpoint>> {
    let svc = m.scenario.service.as_ref()?;
    let selected: Vec<u8> = m
        .scenario
        .workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| svc.selects.iter().any(|n| n == w.name()))
        .map(|(i, _)| i as u8)
        .collect();
    let mut eps: Vec<Endpoint> = s
        .api
        .pods
        .iter()
        .filter(|p| selected.contains(&p.workload))
        .filter(|p| {
            k8s::should_pod_be_in_endpoints(
                p.status.phase,
                p.status.pod_ip,
                p.deletion.is_some(),
                true,
            )
        })
        .filter_map(|p| {
            Some(Endpoint {
                uid: p.uid,
                node: p.node?,
                conditions: k8s::pod_to_endpoint_conditions(
                    p.status.ready,
                    p.deletion.is_some(),
                    svc.publish_not_ready_addresses,
                ),
            })
        })
        .collect();
    eps.sort();
    Some(eps)
}
