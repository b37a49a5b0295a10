//! The render dispatch: a trace in one of its formats ([`TraceFormat`]), and the trace a
//! check shows for a property, replayed and rendered.

use crate::{dot, from_raw, itf, mermaid, render_text, Kind, RawPath, Trace};
use podcheck_model::Cluster;
use podcheck_properties::check::{self, ClusterGraph, PropertyResult, ScenarioResult};

/// How a trace is rendered (as `podcheck trace --format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TraceFormat {
    /// A timeline: time, actor, action, what changed, events, `kubectl get pods`.
    #[default]
    Text,
    /// The trace as data (JSON).
    Json,
    /// The Informal Trace Format (JSON).
    Itf,
    /// A Mermaid sequence diagram.
    Mermaid,
    /// Graphviz DOT: the state graph of a small scenario (with a kept graph), else the path.
    Dot,
}

impl TraceFormat {
    /// Every format, in the order `--format` lists them.
    pub const ALL: [TraceFormat; 5] = [
        TraceFormat::Text,
        TraceFormat::Json,
        TraceFormat::Itf,
        TraceFormat::Mermaid,
        TraceFormat::Dot,
    ];

    /// The format's name, as `--format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Text => "text",
            TraceFormat::Json => "json",
            TraceFormat::Itf => "itf",
            TraceFormat::Mermaid => "mermaid",
            TraceFormat::Dot => "dot",
        }
    }

    /// Whether a rendering in this format is JSON text.
    pub fn is_json(self) -> bool {
        matches!(self, TraceFormat::Json | TraceFormat::Itf)
    }
}

impl std::fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for TraceFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<TraceFormat, String> {
        TraceFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = TraceFormat::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown trace format `{s}`; the formats are: {}",
                    names.join(", ")
                )
            })
    }
}

/// The run a check shows for a property (counterexample, witness, lasso), replayed into a
/// trace: `None` when it has none.
pub fn shown_trace(m: &Cluster, p: &PropertyResult) -> Option<Result<(RawPath, Trace), String>> {
    let shown = p.shown()?;
    let raw = match RawPath::from_actions(m, shown.actions) {
        Ok(raw) => raw,
        Err(e) => return Some(Err(e)),
    };
    Some(
        from_raw(
            m,
            &raw,
            p.def.name,
            Kind::from(&p.def.kind),
            p.verdict,
            shown.loop_start,
        )
        .map(|t| match shown.clock {
            Some((from, deadline, slowest)) => t.with_clock(from, deadline, slowest),
            None => t,
        })
        .map(|t| (raw, t)),
    )
}

/// The trace of property `p` of a check, rendered: `Ok(None)` when it has no run to show.
/// DOT draws `graph`: the check's kept graph, or one explored for drawing by the caller
/// (a renderer does not explore: the library does, where the check kept no graph).
pub fn render_trace(
    r: &ScenarioResult,
    p: &PropertyResult,
    format: TraceFormat,
    graph: Option<&ClusterGraph>,
) -> Result<Option<String>, String> {
    let model = check::model(&r.scenario, &[], false);
    let Some(shown) = shown_trace(&model, p) else {
        return Ok(None);
    };
    let (raw, trace) =
        shown.map_err(|e| format!("internal error: the trace does not replay: {e}"))?;
    render(&model, graph, &raw, &trace, format).map(Some)
}

/// A replayed trace in `format`: the timeline, its JSON, ITF, a Mermaid sequence diagram, or
/// DOT (the state graph `graph`, unreduced, with the trace in red: the whole graph, or the
/// trace's neighbourhood, [`podcheck_properties::drawing`]; DOT needs the graph).
pub fn render(
    model: &Cluster,
    graph: Option<&ClusterGraph>,
    raw: &RawPath,
    trace: &Trace,
    format: TraceFormat,
) -> Result<String, String> {
    Ok(match format {
        TraceFormat::Text => render_text(trace),
        TraceFormat::Json => pretty(trace)?,
        TraceFormat::Itf => pretty(&itf::render_itf(model, raw, trace))?,
        TraceFormat::Mermaid => mermaid::render_mermaid(model, raw, trace),
        TraceFormat::Dot => {
            let graph = graph.ok_or_else(|| {
                "internal error: DOT is drawn from a state graph, and none was given".to_string()
            })?;
            let drawn = podcheck_properties::drawing::drawing(model, graph, &raw.states)?;
            dot::render_dot(model, &drawn, raw, trace)
        }
    })
}

fn pretty<T: serde::Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string_pretty(v).map_err(|e| e.to_string())
}
