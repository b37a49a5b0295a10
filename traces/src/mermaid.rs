//! A Mermaid `sequenceDiagram` of a trace.
//!
//! Every actor of the trace is a participant of its own, named as [`words::actor_name`] names
//! it: kubectl, the network, the API server, the scheduler, each controller, each kubelet, each
//! kube-proxy, the client, the clock and the environment (only those that act, and the API
//! server, are drawn). Every step is one message, numbered with the trace's own step index
//! (`[N]`, as in the text timeline), from its actor:
//!
//! - to the API server when it writes an object (kubectl, the scheduler, the controllers, a
//!   kubelet's status updates, node status, evictions, rejections and mirror pods);
//! - from the API server to a kube-proxy that applies the EndpointSlice (a watch);
//! - from the client to the kube-proxy it sends through, with the refusal as the answer;
//! - to itself otherwise (a kubelet's work on its node, the clock, the network, the
//!   environment).
//!
//! The cycle of a lasso is a `loop` block; a leads-to run that stops ends with a note.
//! Who acts and where the message goes are read from the step's action, never from its text.

use crate::words::{self, Who};
use crate::{Kind, RawPath, Trace};
use podcheck_model::controllers::Controller;
use podcheck_model::kubelet::{self, Step};
use podcheck_model::{proxy, Action, Actor, Cluster};

/// A participant: (sort key, id, label).
type Participant = ((u8, u8), String, String);

fn controller_id(c: Controller) -> &'static str {
    match c {
        Controller::ReplicaSet => "replicaset",
        Controller::Job => "job",
        Controller::StatefulSet => "statefulset",
        Controller::EndpointSlice => "endpointslice",
        Controller::NodeLifecycle => "nodelifecycle",
        Controller::TaintEviction => "tainteviction",
        Controller::PodGc => "podgc",
        Controller::AttachDetach => "attachdetach",
        Controller::Disruption => "disruption",
        Controller::Deployment => "deployment",
    }
}

/// The participant of who acts.
fn participant(m: &Cluster, w: Who) -> Participant {
    let label = words::who_name(m, w);
    let (key, id) = match w {
        Who::Kubectl => ((0, 0), "kubectl".to_string()),
        Who::Actor(a) => match a {
            Actor::Network => ((1, 0), "network".into()),
            Actor::Scheduler => ((3, 0), "scheduler".into()),
            Actor::Controller(c) => ((4, c as u8), controller_id(c).into()),
            Actor::Kubelet(n) => ((5, n.0), format!("kubelet{n}")),
            Actor::KubeProxy(n) => ((6, n.0), format!("proxy{n}")),
            Actor::Client => ((7, 0), "client".into()),
            Actor::Clock => ((8, 0), "clock".into()),
            Actor::Environment => ((9, 0), "environment".into()),
            // Rendered as `kubectl` (see `words::who`).
            Actor::Drain(_) => ((0, 0), "kubectl".into()),
        },
    };
    (key, id, label)
}

fn api() -> Participant {
    ((2, 0), "api".into(), "API server".into())
}

/// Text of a participant's label, a message or a note, as Mermaid reads it back: every
/// character Mermaid's sequence-diagram grammar or its rendering would take for syntax is
/// written as an entity code (Mermaid docs, "Sequence diagrams", "Entity codes to escape
/// characters"): `#59;` for `;` (a statement separator), `#35;` for `#` (a comment, and the start
/// of an entity code), `#quot;`, `#lt;`, `#gt;` and `#amp;` for `"`, `<`, `>` and `&` (the
/// label is sanitized as HTML), `#37;` for `%` (`%%` starts a comment or a directive), and the
/// two characters of the placeholders Mermaid's `encodeEntities` puts in place of an entity
/// code (`¶`, `ﬂ`), so that text that looks like them is not turned into one. A line break
/// becomes a space.
///
/// A colon is written `#58;` where Mermaid would take it for syntax: at the start of the text
/// (`wrap:` and `nowrap:` there are directives, `extractWrap` in the sequence diagram's
/// database), and anywhere in a text that holds `style` or `classDef` and an entity code
/// (`encodeEntities` drops the last `;` of such a line when a colon is followed by an entity
/// code).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            ';' => out.push_str("#59;"),
            '#' => out.push_str("#35;"),
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            '%' => out.push_str("#37;"),
            '\u{b6}' => out.push_str("#182;"),
            '\u{fb02}' => out.push_str("#64258;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    let start = out.trim_start();
    let directive = ["wrap:", "nowrap:", ":"]
        .iter()
        .any(|d| start.starts_with(d));
    let style = out.contains('#') && (out.contains("style") || out.contains("classDef"));
    if directive || style {
        out = out.replace(':', "#58;");
    }
    out
}

/// Whether a kubelet's step writes to the API server.
fn kubelet_writes_api(k: &kubelet::Action) -> bool {
    match k {
        kubelet::Action::StatusUpdate { .. }
        | kubelet::Action::RemoveObject { .. }
        | kubelet::Action::NodeStatus { .. }
        | kubelet::Action::Evict { .. } => true,
        kubelet::Action::Start { .. } | kubelet::Action::Shutdown { .. } => false,
        kubelet::Action::Sync { step, .. } => {
            matches!(step, Step::Reject | Step::CreateMirror | Step::DeleteMirror)
        }
        kubelet::Action::Probe { .. } => false,
    }
}

/// Renders a trace; `path` is the path it was built from.
pub fn render_mermaid(m: &Cluster, path: &RawPath, t: &Trace) -> String {
    let mut ps: Vec<Participant> = vec![api()];
    for a in &path.actions {
        ps.push(participant(m, words::who(m, a)));
        if let Action::Client(proxy::Request { via, .. }) = a {
            ps.push(participant(m, Who::Actor(Actor::KubeProxy(*via))));
        }
    }
    ps.sort();
    ps.dedup();
    let mut out = String::from("sequenceDiagram\n");
    for (_, id, label) in &ps {
        if id == label {
            out.push_str(&format!("    participant {id}\n"));
        } else {
            out.push_str(&format!("    participant {id} as {}\n", escape(label)));
        }
    }
    let first = &ps[0].1;
    let last = &ps[ps.len() - 1].1;
    let span = if first == last {
        first.clone()
    } else {
        format!("{first},{last}")
    };
    out.push_str(&format!(
        "    Note over {span}: {}\n",
        escape(&format!(
            "{} / {} ({}, {}), t=0s: initial state",
            t.scenario,
            t.property,
            t.kind.as_str(),
            t.verdict.as_str()
        ))
    ));
    for (i, (s, a)) in t.steps.iter().zip(&path.actions).enumerate() {
        if t.loop_start == Some(s.index) {
            out.push_str("    loop the cycle repeats forever\n");
        }
        let (_, from, _) = participant(m, words::who(m, a));
        let text = escape(&format!("[{}] t={}s {}", s.index, s.time, s.action));
        let line = match a {
            Action::KubeProxy(_) => format!("    api-->>{from}: {text}\n"),
            Action::Client(proxy::Request { via, .. }) => {
                let (_, to, _) = participant(m, Who::Actor(Actor::KubeProxy(*via)));
                let mut l = format!("    {from}->>{to}: {text}\n");
                if crate::facts::refused_request(&path.states[i], a).is_some() {
                    l.push_str(&format!("    {to}-->>{from}: connection refused\n"));
                }
                if crate::facts::rejected_request(&path.states[i], a).is_some() {
                    l.push_str(&format!("    {to}-->>{from}: rejected, no endpoints\n"));
                }
                l
            }
            Action::Kubelet(k) if !kubelet_writes_api(k) => {
                format!("    {from}->>{from}: {text}\n")
            }
            Action::Kubelet(_) | Action::Scheduler(_) | Action::Controller(_) => {
                format!("    {from}->>api: {text}\n")
            }
            _ if words::who(m, a) == Who::Kubectl => format!("    {from}->>api: {text}\n"),
            _ => format!("    {from}->>{from}: {text}\n"),
        };
        out.push_str(&line);
    }
    if t.loop_start.is_some() {
        out.push_str("    end\n");
    } else if t.kind == Kind::LeadsTo {
        out.push_str(&format!(
            "    Note over {span}: the run stays here: no component that must act has anything to do\n"
        ));
    }
    out
}
