//! What Stateright's Explorer shows of the model (`podcheck explore`): each action in Kubernetes
//! words, each state as text a person can read, and a picture of the cluster.
//!
//! - [`step_text`] is the `format_step` text: the action with pod names, the `kubectl get pods`
//!   table, the workloads, each node with its conditions, taints, cpu and pods, the
//!   EndpointSlice and what each kube-proxy routes to, the pending timers, the changes from the
//!   state before, and whether each property holds in this state.
//! - [`svg`] is the `as_svg` picture: the control plane on
//!   top, the nodes with their cpu requests and pods as coloured boxes (one colour per pod,
//!   also used for its table row), each kube-proxy and the pods it sends requests to, the
//!   client, and the `kubectl get pods` table. The actor of the last step and the pods it
//!   changed are highlighted.
//!
//! Everything here is a pure function of the model and the states it is given.

use crate::{words, Kind};
use podcheck_input::spec::Fault;
use podcheck_model::controllers::Controller;
use podcheck_model::derived::{next_eviction_in, pod_request, taints};
use podcheck_model::k8s::Resources;
use podcheck_model::kubectl as render;
use podcheck_model::kubelet::under_memory_pressure;
use podcheck_model::state::*;
use podcheck_model::Verdict;
use podcheck_model::{proxy, scheduler, time, Action, Actor, Cluster};
use stateright::Expectation;
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------------------------
// Readable facts of a state, for the text and for the changes between two states.

fn yes_no(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn probe_result(r: ProbeResult) -> &'static str {
    match r {
        ProbeResult::Unknown => "Unknown",
        ProbeResult::Success => "Success",
        ProbeResult::Failure => "Failure",
    }
}

use crate::facts::run_words;

/// The spec of container `i` of the runtime pod.
fn ctr_spec<'a>(
    m: &'a Cluster,
    rt: &PodRt,
    init: bool,
    i: usize,
) -> &'a podcheck_input::spec::Container {
    let t = m.workload(rt.workload).template();
    if init {
        &t.init_containers[i]
    } else {
        &t.containers[i]
    }
}

/// The containers of a runtime pod: (init, index, name, slot).
fn ctrs<'a>(m: &'a Cluster, rt: &'a PodRt) -> Vec<(bool, usize, &'a str, &'a Ctr)> {
    let init = rt
        .init
        .iter()
        .enumerate()
        .map(|(i, c)| (true, i, ctr_spec(m, rt, true, i).name.as_str(), c));
    let regular = rt
        .ctrs
        .iter()
        .enumerate()
        .map(|(i, c)| (false, i, ctr_spec(m, rt, false, i).name.as_str(), c));
    init.chain(regular).collect()
}

/// The readable facts of a state, in three layers (API objects, runtime truth, data plane).
/// Timers are left out: they change at every tick.
/// The readable facts of a state, per layer (shared with the traces).
fn facts(m: &Cluster, s: &State) -> [BTreeMap<String, String>; 3] {
    let f = crate::facts::facts(m, s);
    [f.api, f.runtime, f.data_plane]
}

fn node_ready(s: &State, n: u8) -> &'static str {
    let obj = &s.api.nodes[n as usize];
    if obj.deleted {
        "deleted"
    } else if obj.unknown {
        "Unknown"
    } else if obj.not_ready {
        "False"
    } else {
        "True"
    }
}

/// The Ready condition's status, with its reason and message where it is False (the kubelet's
/// own words, `nodestatus.ReadyCondition`).
fn node_ready_words(s: &State, n: u8) -> String {
    let obj = &s.api.nodes[n as usize];
    let ready = node_ready(s, n);
    if ready == "False" {
        let c = podcheck_model::derived::node_ready_condition(obj);
        format!("{ready} ({}: {})", c.reason, c.message)
    } else {
        ready.to_string()
    }
}

/// The node's taints: the scenario's and the control plane's.
fn node_taints(m: &Cluster, s: &State, n: u8) -> Vec<String> {
    taints(m, s, NodeId(n))
        .iter()
        .map(|t| {
            if t.value.is_empty() {
                format!("{}:{:?}", t.key, t.effect)
            } else {
                format!("{}={}:{:?}", t.key, t.value, t.effect)
            }
        })
        .collect()
}

/// A workload and its controller's status, in a few words.
fn workload_words(w: &podcheck_input::spec::Workload, st: &WorkloadStatus) -> String {
    let mut v = format!("{} {}", w.kind(), w.name());
    if let Some(r) = w.replicas() {
        v.push_str(&format!(": replicas {r}"));
    }
    if let Some(j) = &st.job {
        v.push_str(&format!(": {}", job_words(j)));
    }
    v
}

use crate::words::job_words;

use crate::facts::sandbox_words;

fn probe_words(w: &Worker) -> String {
    let mut v = format!("result {}", probe_result(w.result));
    if w.run > 0 {
        v.push_str(&format!(", last {} x{}", probe_result(w.last), w.run));
    }
    if w.on_hold {
        v.push_str(", on hold");
    }
    v
}

fn proxy_words(m: &Cluster, s: &State, p: &Proxy) -> String {
    let routes: Vec<String> = p.routes.iter().map(|r| m.uid_name(s, r.0)).collect();
    let mut v = format!("routes to [{}]", routes.join(", "));
    if p.lag_left.is_some() {
        v.push_str(", update pending");
    }
    v
}

/// The facts that differ: `key: old → new`, `key: new` (added), `key: gone` (removed).
fn diff(before: &BTreeMap<String, String>, after: &BTreeMap<String, String>) -> Vec<String> {
    crate::facts::diff(before, after)
}

fn timers(m: &Cluster, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for (n, node) in s.nodes.iter().enumerate() {
        let node_name = m.node_name(NodeId::new(n));
        for rt in &node.pods {
            let key = format!("{node_name} {}", m.uid_name(s, rt.uid));
            for (_, _, cname, c) in ctrs(m, rt) {
                let at = format!("{key}/{cname}");
                if let Run::Running(p) = &c.run {
                    if p.boot_left > 0 {
                        out.push(format!("{at}: answers after {} s of boot", p.boot_left));
                    }
                    if let Some(t) = p.exit_left {
                        out.push(format!("{at}: the program exits in {t} s"));
                    }
                    if let Some(t) = p.oom_left {
                        out.push(format!("{at}: goes over limits.memory in {t} s"));
                    }
                    match p.stop {
                        Some(Stop {
                            prestop_left: Some(t),
                            ..
                        }) => out.push(format!("{at}: preStop ends in {t} s, then SIGTERM")),
                        Some(Stop {
                            awaits_turn: true,
                            kill_left,
                            ..
                        }) => out.push(format!(
                            "{at}: waits for its turn to stop, SIGTERM in {kill_left} s at the latest"
                        )),
                        Some(st) => out.push(format!(
                            "{at}: SIGKILL in {} s unless it exits",
                            st.kill_left
                        )),
                        None => {}
                    }
                }
                if let Some(w) = c.waiting {
                    out.push(format!("{at}: {} for {} s more", w.reason(), w.left()));
                }
                for kind in ProbeKind::ALL {
                    if let Some(Worker {
                        next_in: Some(t), ..
                    }) = c.probes[kind as usize]
                    {
                        out.push(format!("{at}: next {} probe in {t} s", kind.name()));
                    }
                    if let Some(Worker {
                        answer_in: Some(t), ..
                    }) = c.probes[kind as usize]
                    {
                        out.push(format!(
                            "{at}: the {} probe gets no answer; it times out in {t} s",
                            kind.name()
                        ));
                    }
                }
            }
        }
    }
    for (i, w) in s.api.workloads.iter().enumerate() {
        if let Some(j) = &w.job {
            if !j.decided() && j.backoff_left > 0 {
                out.push(format!(
                    "job {}: pod-failure back-off, next pod in {} s",
                    m.workload(i as u8).name(),
                    j.backoff_left
                ));
            }
        }
    }
    if m.node_health {
        let grace = m.node_monitor_grace;
        for n in 0..s.nodes.len() as u8 {
            let (obj, rt) = (&s.api.nodes[n as usize], &s.nodes[n as usize]);
            let name = m.node_name(NodeId(n));
            if rt.partitioned && !obj.unknown && !obj.deleted && rt.lease_age <= grace {
                out.push(format!(
                    "{name}: no lease for {} s; Ready=Unknown after {} s more",
                    rt.lease_age,
                    grace + 1 - rt.lease_age
                ));
            }
            if let Some(t) = next_eviction_in(m, s, NodeId(n)) {
                out.push(format!("{name}: taint eviction of a pod in {t} s"));
            }
            if let Some(t) = obj.gc_left {
                out.push(format!("{name} (deleted): PodGC removes its pods in {t} s"));
            }
            if rt.eviction_wait > 0 {
                out.push(format!(
                    "{name}: the eviction manager may evict again in {} s",
                    rt.eviction_wait
                ));
            }
        }
    }
    if let Some(t) = s.env.outage_left {
        out.push(format!("dependency: back up in {t} s"));
    }
    for (n, p) in s.proxies.iter().enumerate() {
        if let Some(t) = p.lag_left {
            out.push(format!(
                "kube-proxy@{}: applies the new EndpointSlice within {t} s",
                m.node_name(NodeId::new(n))
            ));
        }
    }
    out
}

/// Whether each property of the model holds in this state.
fn property_lines(m: &Cluster, s: &State) -> Vec<String> {
    m.properties
        .iter()
        .map(|p| {
            let v = (p.condition)(m, s);
            let (mark, words) = match (&p.expectation, v) {
                (Expectation::Always, true) => ("✓", "holds here"),
                (Expectation::Always, false) => ("✗", "VIOLATED in this state"),
                (Expectation::Sometimes, true) => ("✓", "true here: a witness"),
                (Expectation::Sometimes, false) => ("·", "not true here"),
                (Expectation::Eventually, true) => ("✓", "true here"),
                (Expectation::Eventually, false) => ("·", "not yet true"),
            };
            let kind = match p.expectation {
                Expectation::Always => "always",
                Expectation::Sometimes => "sometimes",
                Expectation::Eventually => "eventually",
            };
            format!("{mark} {kind} {}: {words}", p.name)
        })
        .collect()
}

fn cpu(r: &Resources) -> String {
    format!("{}m", r.cpu_milli)
}

/// The pods of a node: every pod object bound there and every pod its runtime still holds,
/// by uid.
fn pods_on(s: &State, n: u8) -> Vec<u16> {
    let mut uids: Vec<u16> = s
        .api
        .pods
        .iter()
        .filter(|p| p.node == Some(NodeId(n)))
        .map(|p| p.uid)
        .collect();
    for rt in &s.nodes[n as usize].pods {
        if !uids.contains(&rt.uid) {
            uids.push(rt.uid);
        }
    }
    uids.sort_unstable();
    uids
}

fn node_conditions(m: &Cluster, s: &State, n: u8) -> String {
    let spec = &m.scenario.cluster.nodes[n as usize];
    let taints = node_taints(m, s, n);
    let req = scheduler::requested_on(m, s, NodeId(n));
    let mut out = format!(
        "Ready={}; taints: {}; cpu requested {} of {} allocatable ({} by other pods); memory requested {}Mi of {}Mi",
        node_ready_words(s, n),
        if taints.is_empty() {
            "none".to_string()
        } else {
            taints.join(", ")
        },
        cpu(&req),
        cpu(&spec.allocatable),
        cpu(&spec.used_by_other_pods),
        req.memory_mi,
        spec.allocatable.memory_mi
    );
    let rt = &s.nodes[n as usize];
    if rt.partitioned {
        out.push_str("; CUT OFF from the API server (partition), its containers keep running");
    }
    if rt.memory_hog && under_memory_pressure(m, s, NodeId(n)) {
        out.push_str("; MemoryPressure (memory.available < 100Mi)");
    }
    out
}

/// The `format_step` text: `None` if the action is not enabled.
pub fn step_text(m: &Cluster, before: &State, action: &Action) -> Option<String> {
    let s = m.apply(before, action)?;
    let mut out: Vec<String> = Vec::new();
    out.push(words::describe(m, before, action, &s));
    if let Some(uid) = crate::facts::refused_request(before, action) {
        out.push(format!(
            "⚠ the request was refused: no container of {} is running",
            m.uid_name(&s, uid)
        ));
    }
    if crate::facts::rejected_request(before, action).is_some() {
        out.push("⚠ the request was rejected: the Service has no endpoints".to_string());
    }
    // The events this step recorded (pod events; the model keeps no others).
    for (uid, kind) in &s.journal.0 {
        let pod = s.pod(*uid).or_else(|| before.pod(*uid)).or_else(|| {
            s.nodes
                .iter()
                .find_map(|n| n.static_pods.iter().find(|p| p.uid == *uid).map(|p| &**p))
        });
        if let Some(p) = pod {
            let e = crate::events::text(m, p, *kind);
            out.push(format!(
                "event  {} {} {}: {}",
                e.r#type, e.reason, e.object, e.message
            ));
        }
    }
    out.push(String::new());
    out.push("$ kubectl get pods".into());
    out.push(crate::kubectl::kubectl_get_pods(m, &s));
    // `kubectl describe pod`'s Events of the pods that have warnings.
    for p in &s.api.pods {
        let table = crate::events::warning_table(m, p);
        if !table.is_empty() {
            out.push(String::new());
            out.push(format!(
                "$ kubectl describe pod {}  (Events)",
                m.pod_name(p)
            ));
            out.extend(table);
        }
    }

    out.push(String::new());
    out.push("Workloads".into());
    for (i, w) in m.scenario.workloads.iter().enumerate() {
        out.push(format!("  {}", workload_words(w, &s.api.workloads[i])));
    }
    let unbound: Vec<&Pod> = s
        .api
        .pods
        .iter()
        .filter(|p| p.node.is_none())
        .map(|p| &**p)
        .collect();
    if !unbound.is_empty() {
        out.push(String::new());
        out.push("Not scheduled".into());
        for p in unbound {
            let why = p
                .unschedulable
                .as_ref()
                .map(|m| format!("PodScheduled=False, Unschedulable: {m}"))
                .unwrap_or_else(|| "waiting for the scheduler".into());
            out.push(format!("  {} (uid {}): {why}", m.pod_name(p), p.uid));
        }
    }

    out.push(String::new());
    out.push("Nodes".into());
    for n in 0..s.nodes.len() as u8 {
        out.push(format!(
            "  {}: {}",
            m.node_name(NodeId(n)),
            node_conditions(m, &s, n)
        ));
        let uids = pods_on(&s, n);
        if uids.is_empty() {
            out.push("    no pods of the scenario".into());
        }
        for uid in uids {
            let name = m.uid_name(&s, uid);
            match s.pod(uid) {
                Some(p) => {
                    let pr = render::print(m, p);
                    let mut line = format!(
                        "    {name} (uid {uid}): STATUS {}, READY {}, phase {}, Ready={}",
                        pr.status,
                        pr.ready,
                        p.status.phase.as_str(),
                        yes_no(p.status.ready)
                    );
                    if let Some(g) = p.deletion {
                        line.push_str(&format!(", deletionTimestamp set (grace {g} s)"));
                    }
                    out.push(line);
                }
                None => out.push(format!(
                    "    {name}: the pod object is gone from the API; the node still holds it"
                )),
            }
            if let Some(rt) = s.rt(NodeId(n), uid) {
                let mut line = format!("      runtime: sandbox {}", sandbox_words(rt));
                if rt.volumes {
                    line.push_str(", volumes mounted");
                }
                if rt.terminating {
                    line.push_str(", pod worker terminating");
                }
                out.push(line);
                for (init, _, cname, c) in ctrs(m, rt) {
                    let mut line = format!(
                        "      {}{cname}: {}, restarts {}",
                        if init { "init " } else { "" },
                        run_words(c),
                        c.restart_count
                    );
                    for kind in ProbeKind::ALL {
                        if let Some(w) = c.probes[kind as usize] {
                            line.push_str(&format!("; {} {}", kind.name(), probe_words(&w)));
                        }
                    }
                    out.push(line);
                }
            } else {
                out.push("      runtime: not admitted by the kubelet yet".into());
            }
        }
    }

    out.push(String::new());
    out.push("Endpoints".into());
    if s.api.endpoints.is_empty() {
        out.push("  EndpointSlice: no endpoints".into());
    } else {
        let eps: Vec<String> = s
            .api
            .endpoints
            .iter()
            .map(|e| {
                let c = e.conditions;
                format!(
                    "{} (ready={} serving={} terminating={})",
                    m.uid_name(&s, e.uid),
                    c.ready,
                    c.serving,
                    c.terminating
                )
            })
            .collect();
        out.push(format!("  EndpointSlice: {}", eps.join(", ")));
    }
    for (n, p) in s.proxies.iter().enumerate() {
        out.push(format!(
            "  kube-proxy@{} {}",
            m.node_name(NodeId::new(n)),
            proxy_words(m, &s, p)
        ));
    }
    out.push(format!(
        "  dependency: {}",
        if s.env.dependency_down { "down" } else { "up" }
    ));

    out.push(String::new());
    out.push("Pending timers".into());
    let ts = timers(m, &s);
    if ts.is_empty() {
        out.push("  none".into());
    }
    for t in ts {
        out.push(format!("  {t}"));
    }
    match time::next_deadline(m, &s) {
        Some(d) => out.push(format!(
            "  (when no component has anything to do, time jumps {d} s)"
        )),
        None => out.push("  (nothing is due: time stands still)".into()),
    }

    out.push(String::new());
    out.push("Changes".into());
    let (b, a) = (facts(m, before), facts(m, &s));
    let mut any = false;
    for (layer, (fb, fa)) in ["api", "runtime", "network"].iter().zip(b.iter().zip(&a)) {
        for (i, d) in diff(fb, fa).into_iter().enumerate() {
            any = true;
            let label = if i == 0 { *layer } else { "" };
            out.push(format!("  {label:8} {d}"));
        }
    }
    if !any {
        out.push("  only timers changed".into());
    }

    if !m.properties.is_empty() {
        out.push(String::new());
        out.push("Properties in this state".into());
        for l in property_lines(m, &s) {
            out.push(format!("  {l}"));
        }
    }
    Some(out.join("\n"))
}

// ---------------------------------------------------------------------------------------------
// The picture.

/// One colour per pod (by uid), used for its box, its cpu share and its table row.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#e6850e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
    "#393b79", "#637939",
];

/// The colour of a pod.
pub fn pod_colour(uid: u16) -> &'static str {
    PALETTE[(uid as usize + PALETTE.len() - 1) % PALETTE.len()]
}

const RED: &str = "#d62728";
const GREEN: &str = "#2a9d3f";
const AMBER: &str = "#c77c02";
const GREY: &str = "#777";
const HIGHLIGHT: &str = "#ff9800";

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The colour of a STATUS text.
fn status_colour(status: &str) -> &'static str {
    match status {
        "Running" => GREEN,
        "Completed" | "Terminating" | "Succeeded" => GREY,
        "Pending" | "ContainerCreating" | "PodInitializing" => AMBER,
        s if s.starts_with("Init:") && !s.contains("Error") && !s.contains("BackOff") => AMBER,
        _ => RED,
    }
}

/// A small SVG writer.
struct Svg {
    out: String,
}

impl Svg {
    fn rect(&mut self, (x, y, w, h): (f64, f64, f64, f64), fill: &str, stroke: &str, extra: &str) {
        self.out.push_str(&format!(
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="6" fill="{fill}" stroke="{stroke}" {extra}/>"#
        ));
        self.out.push('\n');
    }
    fn text(&mut self, x: f64, y: f64, size: f64, fill: &str, extra: &str, s: &str) {
        self.out.push_str(&format!(
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" fill="{fill}" {extra}>{}</text>"#,
            esc(s)
        ));
        self.out.push('\n');
    }
    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, extra: &str) {
        self.out.push_str(&format!(
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" {extra}/>"#
        ));
        self.out.push('\n');
    }
    fn path(&mut self, d: &str, stroke: &str, extra: &str) {
        self.out.push_str(&format!(
            r#"<path d="{d}" fill="none" stroke="{stroke}" {extra}/>"#
        ));
        self.out.push('\n');
    }
}

/// Breaks a text into lines of at most about `max` characters, at spaces.
fn wrap(s: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in s.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Clips a text to about `max` characters.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// What a person sees of one pod in a state (no timers), to tell which pods a step changed.
fn pod_look(s: &State, uid: u16) -> String {
    let api = s
        .pod(uid)
        .map(|p| format!("{:?}/{:?}/{:?}", p.node, p.deletion, p.status));
    let rt = s.rt_any(uid).map(|(n, r)| {
        let ctrs: Vec<String> = r
            .init
            .iter()
            .chain(&r.ctrs)
            .map(|c| {
                let probes: Vec<String> = c
                    .probes
                    .iter()
                    .flatten()
                    .map(|w| format!("{:?}{:?}{}", w.result, w.last, w.run))
                    .collect();
                format!("{}|{}|{}", run_words(c), c.restart_count, probes.join(","))
            })
            .collect();
        format!(
            "{n}/{}/{}/{}/{}/{}/{}",
            r.volumes,
            r.sandbox,
            r.terminating,
            r.killed,
            r.cleaned,
            ctrs.join(";")
        )
    });
    format!("{api:?} {rt:?}")
}

/// The pods whose readable facts changed between two states.
fn changed_pods(before: &State, after: &State) -> BTreeSet<u16> {
    before
        .api
        .pods
        .iter()
        .map(|p| p.uid)
        .chain(after.api.pods.iter().map(|p| p.uid))
        .chain(
            before
                .nodes
                .iter()
                .flat_map(|n| n.pods.iter().map(|r| r.uid)),
        )
        .chain(
            after
                .nodes
                .iter()
                .flat_map(|n| n.pods.iter().map(|r| r.uid)),
        )
        .filter(|&uid| pod_look(before, uid) != pod_look(after, uid))
        .collect()
}

/// A box of the picture that lights up when the last step's actor is in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// The operator's `kubectl`: its faults and a drain's steps.
    Kubectl,
    /// kube-scheduler.
    Scheduler,
    /// kube-controller-manager, which runs every controller.
    ControllerManager,
    /// The EndpointSlice, which the EndpointSlice controller writes.
    EndpointSlice,
    /// A node, by its kubelet.
    Node(NodeId),
    /// A node's kube-proxy: its own syncs, and the client requests sent through it.
    KubeProxy(NodeId),
    /// The client of the Service.
    Client,
}

/// The lanes a step lights up. An exhaustive match over who acts and, for a controller, over
/// the controllers: a new component or controller does not compile until it has its lane.
/// The clock, the network and the environment's own faults have no box (a fault is drawn
/// where it happens).
pub fn lanes(m: &Cluster, action: &Action) -> Vec<Lane> {
    let actor = match words::who(m, action) {
        words::Who::Kubectl => return vec![Lane::Kubectl],
        words::Who::Actor(actor) => actor,
    };
    match actor {
        Actor::Clock | Actor::Network | Actor::Environment => Vec::new(),
        Actor::Scheduler => vec![Lane::Scheduler],
        Actor::Kubelet(n) => vec![Lane::Node(n)],
        Actor::Controller(c) => match c {
            Controller::ReplicaSet
            | Controller::Deployment
            | Controller::Job
            | Controller::StatefulSet
            | Controller::NodeLifecycle
            | Controller::TaintEviction
            | Controller::PodGc
            | Controller::AttachDetach
            | Controller::Disruption => vec![Lane::ControllerManager],
            Controller::EndpointSlice => vec![Lane::ControllerManager, Lane::EndpointSlice],
        },
        Actor::KubeProxy(n) => vec![Lane::KubeProxy(n)],
        Actor::Client => match action {
            Action::Client(proxy::Request { via, .. }) => {
                vec![Lane::Client, Lane::KubeProxy(*via)]
            }
            _ => vec![Lane::Client],
        },
        Actor::Drain(_) => vec![Lane::Kubectl],
    }
}

/// Geometry of a pod box, for the routes drawn to it.
#[derive(Clone, Copy)]
struct BoxAt {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// The picture of a state. `prev` is the state before and the action that led here, if any;
/// `time` the seconds since the start, `step` the number of actions so far.
pub fn svg(
    m: &Cluster,
    prev: Option<(&State, &Action)>,
    s: &State,
    time: u64,
    step: usize,
) -> String {
    const W: f64 = 900.0;
    const PAD: f64 = 12.0;
    let n_nodes = s.nodes.len().max(1);
    let lit = prev.map(|(_, a)| lanes(m, a)).unwrap_or_default();
    let changed = prev.map(|(b, _)| changed_pods(b, s)).unwrap_or_default();
    let last = prev.map(|(b, a)| (b, a, words::describe(m, b, a, s)));
    let mut g = Svg { out: String::new() };

    // Header.
    g.text(
        PAD,
        22.0,
        15.0,
        "#222",
        r#"font-weight="bold""#,
        &format!("{}   t = {time} s   step {step}", m.scenario.name),
    );
    if let Some((_, _, words)) = &last {
        g.text(
            PAD,
            42.0,
            13.0,
            "#b35900",
            "",
            &clip(&format!("last step: {words}"), 115),
        );
    } else {
        let words = if s.api.pods.is_empty() {
            "initial state: no pods yet".to_string()
        } else {
            match s.api.pods.len() {
                1 => "initial state: 1 pod object".to_string(),
                n => format!("initial state: {n} pod objects"),
            }
        };
        g.text(PAD, 42.0, 13.0, GREY, "", &words);
    }

    // The control plane.
    let cp_y = 54.0;
    let cp_h = 150.0;
    g.rect(
        (PAD, cp_y, W - 2.0 * PAD, cp_h),
        "#eef3fb",
        "#5b7db1",
        r#"stroke-width="1.5""#,
    );
    g.text(
        PAD + 8.0,
        cp_y + 16.0,
        12.0,
        "#2f4f80",
        r#"font-weight="bold""#,
        "control plane",
    );
    // Each box with its lane (the API server's lights up where an object changed).
    let comps: [(&str, Option<Lane>); 5] = [
        ("kubectl", Some(Lane::Kubectl)),
        ("API server + etcd", None),
        ("kube-scheduler", Some(Lane::Scheduler)),
        ("controller-manager", Some(Lane::ControllerManager)),
        ("EndpointSlice", Some(Lane::EndpointSlice)),
    ];
    let cw = (W - 2.0 * PAD - 16.0 - 4.0 * 8.0) / 5.0;
    let kubectl_acted = lit.contains(&Lane::Kubectl);
    // Every step that writes an object goes through the API server.
    let api_changed = prev.is_some_and(|(b, _)| {
        let [before, ..] = facts(m, b);
        let [after, ..] = facts(m, s);
        before != after
    });
    for (i, (title, lane)) in comps.iter().enumerate() {
        let x = PAD + 8.0 + i as f64 * (cw + 8.0);
        let y = cp_y + 24.0;
        let active = match lane {
            Some(l) => lit.contains(l),
            None => api_changed,
        };
        let (stroke, width) = if active {
            (HIGHLIGHT, "3")
        } else {
            ("#8aa2c8", "1")
        };
        g.rect(
            (x, y, cw, cp_h - 32.0),
            "#fff",
            stroke,
            &format!(r#"stroke-width="{width}""#),
        );
        g.text(
            x + 6.0,
            y + 15.0,
            12.0,
            "#223",
            r#"font-weight="bold""#,
            title,
        );
        let mut lines: Vec<(String, &str)> = Vec::new();
        match i {
            0 => {
                for f in &m.scenario.faults {
                    let w = match f {
                        Fault::DeletePod { workload, .. } => {
                            format!("may: delete pod ({workload})")
                        }
                        Fault::ForceDeletePod { workload, .. } => {
                            format!("may: delete --force ({workload})")
                        }
                        Fault::ControlPlanePartition {} => "may: cut off every node".into(),
                        Fault::DeleteNode { node } => format!("may: delete node {node}"),
                        Fault::PowerOff { node } => format!("may: {node} powers off"),
                        Fault::NodeShutdown { node } => format!("may: shut down {node}"),
                        Fault::KubeletRestart { node } => {
                            format!("may: restart the kubelet of {node}")
                        }
                        Fault::OutOfServiceTaint { node } => {
                            format!("may: taint {node} out-of-service")
                        }
                        Fault::Cordon { node } => format!("may: cordon {node}"),
                        Fault::Uncordon { node } => format!("may: uncordon {node}"),
                        Fault::Drain { node, .. } => format!("may: drain {node}"),
                        // The environment's faults are drawn where they happen.
                        Fault::Partition { .. }
                        | Fault::MemoryPressure { .. }
                        | Fault::DependencyOutage { .. }
                        | Fault::Deadlock { .. }
                        | Fault::Crash { .. } => continue,
                        f @ Fault::StepFails { .. } => words::condition_words(f),
                        Fault::RolloutRestart { workload } => {
                            format!("may: rollout restart ({workload})")
                        }
                        Fault::Scale { workload, replicas } => {
                            format!("may: scale {workload} to {replicas}")
                        }
                        Fault::SetPodImage {
                            workload,
                            container,
                            image,
                        } => format!("may: set image of a {workload} pod, {container}={image}"),
                    };
                    lines.push((w, "#333"));
                }
                if let (true, Some((_, _, words))) = (kubectl_acted, &last) {
                    lines.push((format!("did: {words}"), HIGHLIGHT));
                }
            }
            1 => {
                lines.push((format!("{} pod objects", s.api.pods.len()), "#333"));
                for p in &s.api.pods {
                    let pr = render::print(m, p);
                    lines.push((
                        format!("■ {} {}", m.pod_name(p), pr.status),
                        pod_colour(p.uid),
                    ));
                }
            }
            2 => {
                let queue: Vec<&Pod> = s
                    .api
                    .pods
                    .iter()
                    .filter(|p| p.node.is_none())
                    .map(|p| &**p)
                    .collect();
                if queue.is_empty() {
                    lines.push(("no pod waits for a node".into(), GREY));
                }
                for p in queue {
                    let w = if p.unschedulable.is_some() {
                        "Unschedulable"
                    } else {
                        "to schedule"
                    };
                    lines.push((format!("■ {} {w}", m.pod_name(p)), pod_colour(p.uid)));
                    if let Some(msg) = &p.unschedulable {
                        for l in wrap(msg, (cw / 6.3) as usize) {
                            lines.push((l, "#555"));
                        }
                    }
                }
            }
            3 => {
                for (wi, w) in m.scenario.workloads.iter().enumerate() {
                    let st = &s.api.workloads[wi];
                    let mut t = format!("{} {}", w.kind(), w.name());
                    if let Some(r) = w.replicas() {
                        t.push_str(&format!(": replicas {r}"));
                    }
                    lines.push((t, "#333"));
                    if let Some(j) = &st.job {
                        lines.push((format!("  {}", job_words(j)), "#333"));
                    }
                }
            }
            _ => {
                if s.api.endpoints.is_empty() {
                    lines.push(("no endpoints".into(), GREY));
                }
                for e in s.api.endpoints.iter() {
                    let c = e.conditions;
                    let mut v = Vec::new();
                    if c.ready {
                        v.push("ready");
                    } else {
                        v.push("not ready");
                    }
                    if c.serving && !c.ready {
                        v.push("serving");
                    }
                    if c.terminating {
                        v.push("terminating");
                    }
                    lines.push((
                        format!("■ {} {}", m.uid_name(s, e.uid), v.join(", ")),
                        pod_colour(e.uid),
                    ));
                }
            }
        }
        let max_chars = (cw / 6.3) as usize;
        for (li, (t, colour)) in lines.iter().take(6).enumerate() {
            g.text(
                x + 6.0,
                y + 31.0 + li as f64 * 14.0,
                11.0,
                colour,
                "",
                &clip(t, max_chars),
            );
        }
    }

    // The nodes.
    let nodes_y = cp_y + cp_h + 40.0;
    let nw = (W - 2.0 * PAD - (n_nodes as f64 - 1.0) * 12.0) / n_nodes as f64;
    struct PodLines {
        uid: u16,
        lines: Vec<(String, String, bool)>,
    }
    let mut per_node: Vec<Vec<PodLines>> = Vec::new();
    for n in 0..s.nodes.len() as u8 {
        let mut v = Vec::new();
        for uid in pods_on(s, n) {
            let mut lines: Vec<(String, String, bool)> = Vec::new();
            let name = m.uid_name(s, uid);
            match s.pod(uid) {
                Some(p) => {
                    let pr = render::print(m, p);
                    lines.push((
                        format!("{name}  {}", pr.status),
                        status_colour(&pr.status).to_string(),
                        true,
                    ));
                    lines.push((
                        format!(
                            "READY {}  RESTARTS {}  phase {}",
                            pr.ready,
                            pr.restarts,
                            p.status.phase.as_str()
                        ),
                        "#333".into(),
                        false,
                    ));
                    if let Some(gr) = p.deletion {
                        lines.push((
                            format!("deletionTimestamp set, grace {gr} s"),
                            RED.into(),
                            false,
                        ));
                    }
                }
                None => lines.push((format!("{name}  object deleted"), RED.to_string(), true)),
            }
            match s.rt(NodeId(n), uid) {
                Some(rt) => {
                    let mut l = format!("sandbox {}", sandbox_words(rt));
                    if rt.terminating {
                        l.push_str(", terminating");
                    }
                    lines.push((l, "#555".into(), false));
                    for (init, _, cname, c) in ctrs(m, rt) {
                        let colour = match &c.run {
                            Run::Running(p) if p.stop.is_some() || p.deadlocked => AMBER,
                            Run::Running(_) => GREEN,
                            Run::Exited(_) => RED,
                            Run::None => GREY,
                        };
                        let mut l = format!(
                            "{}{cname}: {}",
                            if init { "init " } else { "" },
                            run_words(c)
                        );
                        if let Some(w) = c.probes[ProbeKind::Readiness as usize] {
                            l.push_str(&format!("; readiness {}", probe_result(w.result)));
                        }
                        lines.push((l, colour.into(), false));
                    }
                }
                None => lines.push(("not admitted yet".into(), GREY.into(), false)),
            }
            v.push(PodLines { uid, lines });
        }
        per_node.push(v);
    }
    let pod_h = |p: &PodLines| 10.0 + p.lines.len() as f64 * 14.0;
    let pods_h = per_node
        .iter()
        .map(|v| v.iter().map(|p| pod_h(p) + 8.0).sum::<f64>())
        .fold(0.0, f64::max)
        .max(30.0);
    let node_header = 80.0;
    let proxy_h = 46.0;
    let node_h = node_header + pods_h + proxy_h + 16.0;
    let mut boxes: BTreeMap<u16, BoxAt> = BTreeMap::new();
    let mut proxy_at: Vec<BoxAt> = Vec::new();
    for (ni, pods) in per_node.iter().enumerate() {
        let n = ni as u8;
        let x = PAD + ni as f64 * (nw + 12.0);
        let y = nodes_y;
        let spec = &m.scenario.cluster.nodes[ni];
        // The link to the control plane (the kubelet's and the proxy's watches); a partition
        // cuts it.
        let partitioned = s.nodes[ni].partitioned;
        let (lx, ly0, ly1) = (x + nw / 2.0, cp_y + cp_h, y);
        if partitioned {
            let mid = (ly0 + ly1) / 2.0;
            g.line(lx, ly0, lx, mid - 7.0, RED, r#"stroke-width="2""#);
            g.line(lx, mid + 7.0, lx, ly1, RED, r#"stroke-width="2""#);
            g.line(
                lx - 9.0,
                mid - 3.0,
                lx + 9.0,
                mid - 11.0,
                RED,
                r#"stroke-width="2""#,
            );
            g.line(
                lx - 9.0,
                mid + 11.0,
                lx + 9.0,
                mid + 3.0,
                RED,
                r#"stroke-width="2""#,
            );
            g.text(
                lx + 14.0,
                mid + 4.0,
                11.0,
                RED,
                r#"font-weight="bold""#,
                "✂ partition: no lease, no status, no watch",
            );
        } else {
            g.line(lx, ly0, lx, ly1, "#5b7db1", r#"stroke-width="2""#);
            g.text(lx + 6.0, ly1 - 10.0, 10.0, "#5b7db1", "", "watch / status");
        }
        let node_active = lit.contains(&Lane::Node(NodeId(n)));
        let ready = node_ready(s, n);
        g.rect(
            (x, y, nw, node_h),
            if ready == "True" {
                "#f7f7f4"
            } else {
                "#fbeeee"
            },
            if node_active { HIGHLIGHT } else { "#777" },
            if node_active {
                r#"stroke-width="3""#
            } else {
                r#"stroke-width="1.5""#
            },
        );
        g.text(
            x + 8.0,
            y + 17.0,
            13.0,
            "#222",
            r#"font-weight="bold""#,
            &spec.name,
        );
        let mut cond = format!("Ready={ready}");
        if s.nodes[ni].memory_hog && under_memory_pressure(m, s, NodeId(n)) {
            cond.push_str("  MemoryPressure");
        }
        g.text(
            x + 8.0 + 9.0 * spec.name.chars().count() as f64,
            y + 17.0,
            12.0,
            if ready == "True" { GREEN } else { RED },
            r#"font-weight="bold""#,
            &cond,
        );
        let taints = node_taints(m, s, n);
        g.text(
            x + 8.0,
            y + 32.0,
            10.5,
            if taints.is_empty() { "#555" } else { RED },
            "",
            &clip(
                &format!(
                    "kubelet · containerd   taints: {}",
                    if taints.is_empty() {
                        "none".into()
                    } else {
                        taints.join(", ")
                    }
                ),
                (nw / 6.0) as usize,
            ),
        );
        // cpu requests against allocatable.
        let alloc = spec.allocatable.cpu_milli.max(1) as f64;
        let bar_x = x + 8.0;
        let bar_w = nw - 16.0;
        let bar_y = y + 40.0;
        g.rect((bar_x, bar_y, bar_w, 12.0), "#fff", "#999", r#"rx="2""#);
        let mut used = spec.used_by_other_pods.cpu_milli as f64;
        g.rect(
            (bar_x, bar_y, bar_w * (used / alloc).min(1.0), 12.0),
            "#bbb",
            "none",
            r#"rx="2""#,
        );
        for p in &s.api.pods {
            if p.node == Some(NodeId(n)) && !p.status.phase.is_terminal() {
                let q = pod_request(m.workload(p.workload).template()).cpu_milli as f64;
                let x0 = bar_x + bar_w * (used / alloc).min(1.0);
                let w0 = bar_w * (q / alloc).min((1.0 - used / alloc).max(0.0));
                g.rect(
                    (x0, bar_y, w0, 12.0),
                    pod_colour(p.uid),
                    "#fff",
                    r#"rx="2""#,
                );
                used += q;
            }
        }
        let req = scheduler::requested_on(m, s, NodeId(n));
        g.text(
            x + 8.0,
            bar_y + 25.0,
            10.5,
            "#333",
            "",
            &format!(
                "cpu requested {} of {} (other pods {})",
                cpu(&req),
                cpu(&spec.allocatable),
                cpu(&spec.used_by_other_pods)
            ),
        );
        // The pods.
        let mut py = y + node_header;
        for p in pods {
            let h = pod_h(p);
            let colour = pod_colour(p.uid);
            let is_changed = changed.contains(&p.uid);
            if is_changed {
                g.rect(
                    (x + 5.0, py - 3.0, nw - 10.0, h + 6.0),
                    "none",
                    HIGHLIGHT,
                    r#"stroke-width="3" stroke-dasharray="6 3""#,
                );
            }
            g.rect(
                (x + 8.0, py, nw - 16.0, h),
                colour,
                colour,
                r#"fill-opacity="0.16" stroke-width="2""#,
            );
            g.rect((x + 8.0, py, 6.0, h), colour, colour, r#"rx="2""#);
            let max_chars = ((nw - 30.0) / 6.2) as usize;
            for (li, (t, c, bold)) in p.lines.iter().enumerate() {
                g.text(
                    x + 20.0,
                    py + 15.0 + li as f64 * 14.0,
                    if *bold { 12.5 } else { 11.0 },
                    c,
                    if *bold { r#"font-weight="bold""# } else { "" },
                    &clip(t, max_chars),
                );
            }
            boxes.insert(
                p.uid,
                BoxAt {
                    x: x + 8.0,
                    y: py,
                    w: nw - 16.0,
                    h,
                },
            );
            py += h + 8.0;
        }
        if pods.is_empty() {
            g.text(
                x + 12.0,
                y + node_header + 16.0,
                11.0,
                GREY,
                "",
                "no pods of the scenario",
            );
        }
        // kube-proxy.
        let px = x + 8.0;
        let py = y + node_h - proxy_h - 8.0;
        let proxy = &s.proxies[ni];
        let proxy_active = lit.contains(&Lane::KubeProxy(NodeId(n)));
        g.rect(
            (px, py, nw - 16.0, proxy_h),
            "#fff",
            if proxy_active { HIGHLIGHT } else { "#2a6f97" },
            if proxy_active {
                r#"stroke-width="3""#
            } else {
                r#"stroke-width="1.5""#
            },
        );
        g.text(
            px + 6.0,
            py + 15.0,
            12.0,
            "#2a6f97",
            r#"font-weight="bold""#,
            &format!("kube-proxy@{}", spec.name),
        );
        let routes: Vec<String> = proxy.routes.iter().map(|r| m.uid_name(s, r.0)).collect();
        g.text(
            px + 6.0,
            py + 29.0,
            10.5,
            "#333",
            "",
            &clip(
                &format!("routes to [{}]", routes.join(", ")),
                ((nw - 30.0) / 6.0) as usize,
            ),
        );
        if let Some(t) = proxy.lag_left {
            g.text(
                px + 6.0,
                py + 41.0,
                10.5,
                AMBER,
                "",
                &format!("EndpointSlice update pending: applied within {t} s"),
            );
        }
        proxy_at.push(BoxAt {
            x: px,
            y: py,
            w: nw - 16.0,
            h: proxy_h,
        });
    }

    // Routes: each proxy to each pod it sends requests to.
    for (ni, proxy) in s.proxies.iter().enumerate() {
        let pa = proxy_at[ni];
        for (k, &(uid, node)) in proxy.routes.iter().enumerate() {
            let Some(b) = boxes.get(&uid) else { continue };
            let serving = s
                .rt(node, uid)
                .is_some_and(|rt| rt.ctrs.iter().any(|c| matches!(c.run, Run::Running(_))));
            let this_request = matches!(prev, Some((_, Action::Client(proxy::Request { via, uid: u }))) if via.index() == ni && *u == Some(uid));
            let colour = if serving { GREEN } else { RED };
            let mut extra = format!(
                r#"stroke-width="{}" marker-end="url(#arrow-{})""#,
                if this_request { 4 } else { 2 },
                if serving { "green" } else { "red" }
            );
            if !serving {
                extra.push_str(r#" stroke-dasharray="5 3""#);
            }
            let x1 = pa.x + pa.w - 20.0 - k as f64 * 16.0;
            let y1 = pa.y;
            let x2 = b.x + b.w - 24.0 - ni as f64 * 14.0;
            let y2 = b.y + b.h;
            let d = format!(
                "M {x1:.1} {y1:.1} C {x1:.1} {:.1}, {x2:.1} {:.1}, {x2:.1} {y2:.1}",
                y1 - 30.0,
                y2 + 30.0
            );
            g.path(&d, colour, &extra);
        }
    }

    // Below the nodes: the client and the dependency.
    let below = nodes_y + node_h + 24.0;
    let has_clients = m.scenario.service.as_ref().is_some_and(|svc| svc.clients);
    if has_clients {
        let cx = PAD;
        let cwid = 300.0;
        let client_active = lit.contains(&Lane::Client);
        g.rect(
            (cx, below, cwid, 40.0),
            "#fff",
            if client_active { HIGHLIGHT } else { "#444" },
            if client_active {
                r#"stroke-width="3""#
            } else {
                r#"stroke-width="1.5""#
            },
        );
        let svc = m
            .scenario
            .service
            .as_ref()
            .map(|s| s.selects.join(", "))
            .unwrap_or_default();
        g.text(
            cx + 8.0,
            below + 16.0,
            12.0,
            "#222",
            r#"font-weight="bold""#,
            &format!("client → Service ({svc})"),
        );
        match prev.and_then(|(b, a)| crate::facts::refused_request(b, a)) {
            Some(uid) => g.text(
                cx + 8.0,
                below + 31.0,
                11.0,
                RED,
                r#"font-weight="bold""#,
                &format!("✗ a request to {} was refused", m.uid_name(s, uid)),
            ),
            None if prev.is_some_and(|(b, a)| crate::facts::rejected_request(b, a).is_some()) => g
                .text(
                    cx + 8.0,
                    below + 31.0,
                    11.0,
                    RED,
                    r#"font-weight="bold""#,
                    "✗ a request was rejected: no endpoints",
                ),
            None => g.text(
                cx + 8.0,
                below + 31.0,
                11.0,
                "#333",
                "",
                "sends requests via any kube-proxy",
            ),
        }
        for (ni, pa) in proxy_at.iter().enumerate() {
            let active = matches!(prev, Some((_, Action::Client(proxy::Request { via, .. }))) if via.index() == ni);
            g.line(
                cx + cwid / 2.0,
                below,
                pa.x + 30.0,
                pa.y + pa.h,
                if active { HIGHLIGHT } else { "#999" },
                &format!(
                    r#"stroke-width="{}" marker-end="url(#arrow-grey)""#,
                    if active { 3 } else { 1 }
                ),
            );
        }
    }
    let uses_dependency = m
        .scenario
        .faults
        .iter()
        .any(|f| matches!(f, Fault::DependencyOutage { .. }));
    if uses_dependency {
        let dx = PAD + 320.0;
        let down = s.env.dependency_down;
        g.rect(
            (dx, below, 200.0, 40.0),
            if down { "#fde0e0" } else { "#e6f4ea" },
            if down { RED } else { GREEN },
            r#"stroke-width="1.5""#,
        );
        g.text(
            dx + 8.0,
            below + 16.0,
            12.0,
            "#222",
            r#"font-weight="bold""#,
            "dependency (database)",
        );
        let t = match (down, s.env.outage_left) {
            (true, Some(l)) => format!("DOWN, back in {l} s"),
            (true, None) => "DOWN".into(),
            _ => "up".into(),
        };
        g.text(
            dx + 8.0,
            below + 31.0,
            11.0,
            if down { RED } else { GREEN },
            "",
            &t,
        );
    }

    // kubectl get pods, one colour per row.
    let table_x = PAD + 530.0;
    let table = crate::kubectl::kubectl_get_pods(m, s);
    g.text(
        table_x,
        below + 10.0,
        11.0,
        "#222",
        r#"font-weight="bold""#,
        "$ kubectl get pods",
    );
    let mut rows = 0;
    for (ri, row) in table.lines().enumerate() {
        let colour = if ri == 0 {
            "#222"
        } else {
            s.api
                .pods
                .get(ri - 1)
                .map(|p| pod_colour(p.uid))
                .unwrap_or("#222")
        };
        g.text(
            table_x,
            below + 25.0 + ri as f64 * 13.0,
            11.0,
            colour,
            r#"font-family="monospace" xml:space="preserve""#,
            row,
        );
        rows += 1;
    }
    let height = (below + 40.0 + rows as f64 * 13.0).max(below + 56.0) + PAD;

    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 {w} {h:.0}" "#,
            r#"style="max-width: {w}px; display: block" "#,
            r#"font-family="Helvetica, Arial, sans-serif">"#,
            "\n<defs>",
            r#"<marker id="arrow-green" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{green}"/></marker>"#,
            r#"<marker id="arrow-red" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{red}"/></marker>"#,
            r##"<marker id="arrow-grey" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#999"/></marker>"##,
            "</defs>\n",
            r##"<rect x="0" y="0" width="{w}" height="{h:.0}" fill="#ffffff"/>"##,
            "\n{body}</svg>"
        ),
        w = W,
        h = height,
        green = GREEN,
        red = RED,
        body = g.out
    )
}

/// The picture of the last state of a path (as Stateright's `as_svg` gets it), highlighting
/// what its last action changed.
pub fn path_svg(m: &Cluster, steps: &[(State, Option<Action>)]) -> Option<String> {
    let (last, _) = steps.last()?;
    let time: u64 = steps
        .iter()
        .filter_map(|(_, a)| match a {
            Some(Action::Tick(d)) => Some(u64::from(*d)),
            _ => None,
        })
        .sum();
    let prev = steps
        .len()
        .checked_sub(2)
        .and_then(|i| steps[i].1.as_ref().map(|a| (&steps[i].0, a)));
    Some(svg(m, prev, last, time, steps.len() - 1))
}

/// The scenario panel above the picture of the initial state: the scenario's name and
/// description, and every property it checks with its kind, the verdict real Kubernetes gives,
/// and the verdict `podcheck check` gives (`checking…` until it is known).
pub fn scenario_svg(
    m: &Cluster,
    listed: &[super::Listed],
    report: Option<&super::Report>,
) -> String {
    const W: f64 = 900.0;
    const PAD: f64 = 12.0;
    let mut g = Svg { out: String::new() };
    let mut y = 22.0;
    g.text(
        PAD,
        y,
        15.0,
        "#222",
        r#"font-weight="bold""#,
        &format!("scenario {}  (Kubernetes {})", m.scenario.name, m.release),
    );
    for line in wrap(&m.scenario.description, 120) {
        y += 16.0;
        g.text(PAD, y, 12.0, "#333", "", &line);
    }
    y += 18.0;
    let checked = match report {
        Some(r) => format!(
            "podcheck check: {} unique states, {}",
            r.unique_states,
            if r.complete { "complete" } else { "incomplete" }
        ),
        None => "podcheck check: checking… (reload the page for the verdicts)".to_string(),
    };
    g.text(PAD, y, 12.0, GREY, "", &checked);
    y += 20.0;
    let cols = [PAD, PAD + 90.0, PAD + 500.0, PAD + 640.0];
    for (x, head) in cols
        .iter()
        .zip(["kind", "property", "expected", "podcheck check"])
    {
        g.text(*x, y, 12.0, "#222", r#"font-weight="bold""#, head);
    }
    for p in listed {
        y += 15.0;
        let found = report.and_then(|r| r.verdicts.iter().find(|(n, ..)| *n == p.name));
        let (verdict, colour) = match found {
            Some((_, v, steps)) => {
                let what = match (p.kind, v, steps) {
                    (Kind::Sometimes, Verdict::Holds, Some(n)) => {
                        format!("holds (witness, {n} steps)")
                    }
                    (_, Verdict::Violated, Some(n)) => format!("violated ({n} steps)"),
                    _ => v.as_str().to_string(),
                };
                let colour = if *v == p.expected { GREEN } else { RED };
                (what, colour)
            }
            None => ("checking…".to_string(), GREY),
        };
        g.text(
            cols[0],
            y,
            12.0,
            "#333",
            r#"font-family="monospace""#,
            p.kind.as_str(),
        );
        g.text(
            cols[1],
            y,
            12.0,
            "#333",
            r#"font-family="monospace""#,
            &clip(&p.name, 58),
        );
        g.text(cols[2], y, 12.0, "#333", "", p.expected.as_str());
        g.text(cols[3], y, 12.0, colour, "", &verdict);
    }
    let height = y + PAD;
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 {w} {h:.0}" "#,
            r#"style="max-width: {w}px; display: block" "#,
            r#"font-family="Helvetica, Arial, sans-serif">"#,
            "\n",
            r##"<rect x="0" y="0" width="{w}" height="{h:.0}" fill="#fffbea"/>"##,
            "\n{body}</svg>\n"
        ),
        w = W,
        h = height,
        body = g.out
    )
}
