//! A cluster state flattened into readable facts, one map per layer, so that two states can be
//! compared fact by fact and a trace step can show only what changed.
//!
//! Timers are left out on purpose: they change at every tick and would bury the story.

use podcheck_model::k8s::ContainerState;
use podcheck_model::kubectl as render;
use podcheck_model::state::*;
use podcheck_model::{Action, Context};
use std::collections::BTreeMap;

/// The three layers of a state: API objects, runtime truth, the data plane (and the world
/// outside the cluster with it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    pub api: BTreeMap<String, String>,
    pub runtime: BTreeMap<String, String>,
    pub data_plane: BTreeMap<String, String>,
}

fn container_state(st: &ContainerState) -> String {
    match st {
        ContainerState::None => "-".into(),
        ContainerState::Waiting { reason } if reason.is_empty() => "Waiting".into(),
        ContainerState::Waiting { reason } => format!("Waiting({reason})"),
        ContainerState::Running => "Running".into(),
        ContainerState::Terminated(t) => format!("Terminated({}, {})", t.reason, t.exit_code),
    }
}

fn probe_result(r: ProbeResult) -> &'static str {
    match r {
        ProbeResult::Unknown => "Unknown",
        ProbeResult::Success => "Success",
        ProbeResult::Failure => "Failure",
    }
}

/// What a container really does, in a few words (no timers).
pub fn run_words(c: &Ctr) -> String {
    let mut v = match &c.run {
        Run::None => "not created".to_string(),
        Run::Running(p) => {
            let mut v = "running".to_string();
            if p.deadlocked {
                v.push_str(" (deadlocked)");
            } else if p.boot_left > 0 {
                v.push_str(" (booting)");
            }
            match p.stop {
                Some(Stop {
                    prestop_left: Some(_),
                    ..
                }) => v.push_str(", preStop running"),
                Some(Stop {
                    awaits_turn: true, ..
                }) => v.push_str(", waiting for its turn to stop"),
                Some(_) => v.push_str(", SIGTERM sent"),
                None => {}
            }
            v
        }
        Run::Exited(e) => format!("exited {} ({})", e.code, e.reason()),
    };
    if let Some(w) = c.waiting {
        v.push_str(&format!(", waiting: {}", w.reason()));
    }
    v
}

/// Flattens a state.
pub fn facts(m: &Context, s: &State) -> Facts {
    let mut f = Facts::default();
    for pod in &s.api.pods {
        let name = format!("pod {}", m.pod_name(pod));
        f.api.insert(name.clone(), "exists".into());
        let st = &pod.status;
        let printed = render::print(m, pod);
        f.api
            .insert(format!("{name} STATUS"), printed.status.clone());
        f.api
            .insert(format!("{name} phase"), st.phase.as_str().into());
        if let Some(n) = pod.node {
            f.api
                .insert(format!("{name} nodeName"), m.node_name(n).into());
        }
        // A StatefulSet's pod names no revision; once its template has changed, its
        // `controller-revision-hash` label tells the revisions apart.
        if s.api.workloads[pod.workload as usize].statefulset.is_some() {
            f.api
                .insert(format!("{name} revision"), format!("{}", pod.revision + 1));
        }
        if let Some(msg) = &pod.unschedulable {
            f.api.insert(
                format!("{name} PodScheduled"),
                format!("False (Unschedulable: {msg})"),
            );
        }
        if let Some(g) = pod.deletion {
            f.api.insert(
                format!("{name} deletionTimestamp"),
                format!("set, grace {g} s"),
            );
        }
        if !st.reason.is_empty() {
            f.api.insert(format!("{name} reason"), st.reason.clone());
        }
        if st.pod_ip {
            f.api.insert(format!("{name} podIP"), "assigned".into());
        }
        for (cond, v) in [
            ("Initialized", st.initialized),
            ("ContainersReady", st.containers_ready),
            ("Ready", st.ready),
        ] {
            if !st.statuses.is_empty() || v {
                f.api.insert(
                    format!("{name} {cond}"),
                    if v { "True" } else { "False" }.into(),
                );
            }
        }
        for c in st.init_statuses.iter().chain(&st.statuses) {
            let mut v = container_state(&c.state);
            if let Some(l) = &c.last_state {
                v.push_str(&format!(
                    ", lastState Terminated({}, {})",
                    l.reason, l.exit_code
                ));
            }
            v.push_str(&format!(
                ", ready={}, restartCount={}",
                c.ready, c.restart_count
            ));
            f.api.insert(format!("{name} container {}", c.name), v);
        }
    }
    for e in s.api.endpoints.iter() {
        let c = e.conditions;
        f.api.insert(
            format!("EndpointSlice {}", m.uid_name(s, e.uid)),
            format!(
                "ready={} serving={} terminating={}",
                c.ready, c.serving, c.terminating
            ),
        );
    }
    for (i, w) in s.api.workloads.iter().enumerate() {
        if let Some(j) = &w.job {
            f.api.insert(
                format!("job {}", m.workload(i as u8).name()),
                crate::words::job_words(j),
            );
        }
        // A StatefulSet's revisions, once its template has changed.
        if let Some(st) = w.statefulset {
            f.api.insert(
                format!("statefulset {}", m.workload(i as u8).name()),
                format!(
                    "currentRevision {} updateRevision {}",
                    st.current + 1,
                    st.update + 1
                ),
            );
        }
        // A Deployment's ReplicaSets and rollout, once its template has changed.
        if let Some(d) = w.deployment.as_ref().filter(|d| d.template > 0) {
            let name = m.workload(i as u8).name();
            f.api.insert(
                format!("deployment {name}"),
                format!("template revision {}", d.template + 1),
            );
            for (r, n) in d.replica_sets.iter().enumerate() {
                if let Some(n) = n {
                    f.api.insert(
                        format!(
                            "ReplicaSet {}",
                            crate::words::replica_set(m, i as u8, r as u8)
                        ),
                        format!("replicas={n}"),
                    );
                }
            }
            // The condition, with the status counts the controller last wrote.
            let counts = |c: &Seen| {
                format!(
                    "; replicas={} updated={} ready={} available={}",
                    c.replicas, c.updated, c.ready, c.available
                )
            };
            let cond = match &d.progressing {
                None => None,
                Some(Progressing::Updated { seen, .. }) => {
                    Some(format!("True (ReplicaSetUpdated){}", counts(seen)))
                }
                Some(Progressing::NewReplicaSetAvailable) => {
                    Some("True (NewReplicaSetAvailable)".to_string())
                }
                Some(Progressing::ProgressDeadlineExceeded { seen }) => {
                    Some(format!("False (ProgressDeadlineExceeded){}", counts(seen)))
                }
            };
            if let Some(c) = cond {
                f.api.insert(format!("deployment {name} Progressing"), c);
            }
        }
    }
    // The attach/detach controller's actual state of the world, and what each node reports
    // mounted (`volumesInUse`).
    for a in s.api.attached.iter() {
        f.api.insert(
            format!(
                "VolumeAttachment {} on {}",
                m.claims[a.claim as usize].name,
                m.node_name(a.node)
            ),
            if a.detach_age.is_some() {
                "attached, detach requested (no pod on the node needs it)"
            } else {
                "attached"
            }
            .into(),
        );
    }
    for (n, obj) in s.api.nodes.iter().enumerate() {
        if obj.volumes_in_use != 0 {
            let names: Vec<&str> = (0..m.claims.len())
                .filter(|c| obj.volumes_in_use & (1 << c) != 0)
                .map(|c| m.claims[c].name.as_str())
                .collect();
            f.api.insert(
                format!("node {} volumesInUse", m.node_name(NodeId::new(n))),
                names.join(", "),
            );
        }
    }
    for (n, obj) in s.api.nodes.iter().enumerate() {
        if obj.unschedulable {
            f.api.insert(
                format!("node {} unschedulable", m.node_name(NodeId::new(n))),
                "true (taint node.kubernetes.io/unschedulable:NoSchedule)".into(),
            );
        }
    }
    for (b, st) in s.api.pdbs.iter().enumerate() {
        let name = &m.scenario.pod_disruption_budgets[b].metadata.name;
        let v = if st.observed {
            let disrupted: Vec<String> = st
                .disrupted_pods
                .iter()
                .map(|u| m.uid_name(s, *u))
                .collect();
            format!(
                "currentHealthy {}, desiredHealthy {}, expectedPods {}, disruptionsAllowed {}, disruptedPods [{}]",
                st.current_healthy,
                st.desired_healthy,
                st.expected_pods,
                st.disruptions_allowed,
                disrupted.join(", ")
            )
        } else {
            "not yet observed by the disruption controller".into()
        };
        f.api.insert(format!("PodDisruptionBudget {name}"), v);
    }
    for (n, node) in s.nodes.iter().enumerate() {
        let node_name = m.node_name(NodeId::new(n));
        for rt in &node.pods {
            let pod = m.rt_name(rt);
            let key = format!("{node_name} {pod}");
            f.runtime.insert(key.clone(), "admitted".into());
            if rt.volumes {
                let v = if rt.cleaned { "unmounted" } else { "mounted" };
                f.runtime.insert(format!("{key} volumes"), v.into());
            }
            f.runtime
                .insert(format!("{key} sandbox"), sandbox_words(rt).into());
            if rt.terminating {
                f.runtime
                    .insert(format!("{key} pod worker"), "terminating".into());
            }
            for (c, cs) in m.containers(rt) {
                let v = run_words(c);
                f.runtime.insert(format!("{key}/{}", cs.name), v);
                for kind in ProbeKind::ALL {
                    if let Some(w) = c.probes[kind as usize] {
                        let mut v = format!("result {}", probe_result(w.result));
                        if w.run > 0 {
                            v.push_str(&format!(", last {} x{}", probe_result(w.last), w.run));
                        }
                        if w.on_hold {
                            v.push_str(", on hold");
                        }
                        if w.answer_in.is_some() {
                            v.push_str(", waiting for an answer (timeoutSeconds)");
                        }
                        f.runtime
                            .insert(format!("{key}/{} {} probe", cs.name, kind.name()), v);
                    }
                }
            }
        }
    }
    for (n, p) in s.proxies.iter().enumerate() {
        // A route to a pod the API's slice lists as terminating is marked: kube-proxy routes
        // there only while it lags, or (from 1.26) when no endpoint is ready.
        let terminating = |uid: u16| {
            s.api
                .endpoints
                .iter()
                .any(|e| e.uid == uid && e.conditions.terminating)
        };
        let routes: Vec<String> = p
            .routes
            .iter()
            .map(|r| {
                let name = m.uid_name(s, r.0);
                if terminating(r.0) {
                    format!("{name} (terminating)")
                } else {
                    name
                }
            })
            .collect();
        let mut v = format!("routes to [{}]", routes.join(", "));
        if p.lag_left.is_some() {
            v.push_str(", update pending");
        }
        f.data_plane
            .insert(format!("kube-proxy@{}", m.node_name(NodeId::new(n))), v);
    }
    // The kubectl drain runs: the client's memory, outside the cluster.
    for d in &s.env.drains {
        let pods = |f: fn(&DrainStep) -> bool| -> Vec<String> {
            d.pods
                .iter()
                .filter(|p| f(&p.step))
                .map(|p| m.name_of(p.workload, p.suffix))
                .collect()
        };
        let v = match d.stage {
            DrainStage::Cordon => "started".to_string(),
            DrainStage::Ended if d.failed => "ended: error: unable to drain node".into(),
            DrainStage::Ended => "ended: node drained".into(),
            DrainStage::Evicting => {
                let evict = pods(|st| matches!(st, DrainStep::Request { .. }));
                let wait = pods(|st| matches!(st, DrainStep::Deleting));
                format!(
                    "evicting [{}], waiting for [{}] to be gone",
                    evict.join(", "),
                    wait.join(", ")
                )
            }
        };
        f.data_plane
            .insert(format!("kubectl drain {}", m.node_name(d.node)), v);
    }
    f.data_plane.insert(
        "dependency".into(),
        if s.env.dependency_down { "down" } else { "up" }.into(),
    );
    f
}

/// The pod a step's client request was refused by, if it is one: the proxy routed it to a
/// pod none of whose containers runs ([`podcheck_model::proxy::refused`]). A refusal
/// changes no state; it is a fact of the step.
pub fn refused_request(before: &State, action: &Action) -> Option<u16> {
    match *action {
        Action::Client(r) if podcheck_model::proxy::refused(before, r.via, r.uid) => r.uid,
        _ => None,
    }
}

/// The kube-proxy (its node) that rejected a step's client request because it had no
/// endpoint for the Service ([`podcheck_model::proxy::no_endpoints`]), if the step is one.
pub fn rejected_request(before: &State, action: &Action) -> Option<NodeId> {
    match *action {
        Action::Client(r) if podcheck_model::proxy::no_endpoints(before, r.via, r.uid) => {
            Some(r.via)
        }
        _ => None,
    }
}

/// The line a trace shows for a request rejected for want of endpoints.
pub fn rejected_words(m: &Context, via: NodeId) -> String {
    format!(
        "client: a request via kube-proxy@{} was rejected: the Service has no endpoints",
        m.node_name(via)
    )
}

/// The line a trace shows for a refused request.
pub fn refused_words(m: &Context, before: &State, uid: u16) -> String {
    format!(
        "client: a request to {} was refused: no container of it is running",
        m.uid_name(before, uid)
    )
}

/// The facts that differ: `key: old → new`, `key: new` (added), `key: gone` (removed). An
/// object that disappears is one line (`pod web-1: gone`), not one line per field.
pub fn diff(before: &BTreeMap<String, String>, after: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in after {
        match before.get(k) {
            None => out.push(format!("{k}: {v}")),
            Some(old) if old != v => out.push(format!("{k}: {old} → {v}")),
            _ => {}
        }
    }
    let gone: Vec<&String> = before.keys().filter(|k| !after.contains_key(*k)).collect();
    for k in &gone {
        let whole_object_gone = gone.iter().any(|o| {
            k.len() > o.len() && k.starts_with(o.as_str()) && k[o.len()..].starts_with([' ', '/'])
        });
        if !whole_object_gone {
            out.push(format!("{k}: gone"));
        }
    }
    out
}

/// The pod sandbox in words: none yet, up with its IP, or stopped (StopPodSandbox, CNI DEL).
pub fn sandbox_words(rt: &PodRt) -> &'static str {
    match (rt.sandbox, rt.killed) {
        (false, _) => "none",
        (true, false) => "ready, IP assigned",
        (true, true) => "torn down",
    }
}
