//! Helpers shared by the trace tests.

/// A strict structural check of the output of `render_mermaid`: the header, declared
/// participants with plain ids, and only the statement forms it emits, each using declared
/// participants; `loop` blocks are closed. Returns the first offending line.
pub fn check_mermaid(text: &str) -> Result<(), String> {
    let mut open_loops = 0usize;
    let mut lines = text.lines();
    if lines.next() != Some("sequenceDiagram") {
        return Err("the first line must be `sequenceDiagram`".into());
    }
    let plain =
        |id: &str| !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut declared: Vec<String> = Vec::new();
    for line in lines {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("participant ") {
            let (id, label) = rest.split_once(" as ").unwrap_or((rest, ""));
            if !plain(id) {
                return Err(format!("bad participant id: {line}"));
            }
            if !plain_text(label) {
                return Err(format!("bad participant label: {line}"));
            }
            declared.push(id.to_string());
            continue;
        }
        let check_msg = |msg: &str| -> Result<(), String> {
            if msg.trim().is_empty() || !plain_text(msg) {
                return Err(format!("bad message text: {line}"));
            }
            Ok(())
        };
        if let Some(label) = l.strip_prefix("loop ") {
            if label.trim().is_empty() {
                return Err(format!("a loop without a label: {line}"));
            }
            open_loops += 1;
            continue;
        }
        if l == "end" {
            open_loops = open_loops
                .checked_sub(1)
                .ok_or_else(|| format!("`end` without a loop: {line}"))?;
            continue;
        }
        if let Some(rest) = l.strip_prefix("Note over ") {
            let (who, msg) = rest
                .split_once(": ")
                .ok_or_else(|| format!("a note without text: {line}"))?;
            for id in who.split(',') {
                if !declared.iter().any(|d| d == id) {
                    return Err(format!("undeclared participant `{id}`: {line}"));
                }
            }
            check_msg(msg)?;
            continue;
        }
        let arrow = if l.contains("-->>") { "-->>" } else { "->>" };
        let (from, rest) = l
            .split_once(arrow)
            .ok_or_else(|| format!("not a statement this renderer emits: {line}"))?;
        let (to, msg) = rest
            .split_once(": ")
            .ok_or_else(|| format!("a message without text: {line}"))?;
        for id in [from, to] {
            if !plain(id) || !declared.iter().any(|d| d == id) {
                return Err(format!("undeclared participant `{id}`: {line}"));
            }
        }
        check_msg(msg)?;
    }
    if open_loops > 0 {
        return Err("a loop is not closed".into());
    }
    Ok(())
}

/// Text Mermaid reads as text: outside its entity codes (`#quot;`, `#59;`, …), none of the
/// characters its grammar or its HTML sanitizing takes for syntax (`;`, `#`, `"`, `<`, `>`,
/// `&`, `%`), no line break, no `wrap:` directive at its start, and, in a text with an entity
/// code and `style` or `classDef`, no colon (Mermaid's `encodeEntities` cuts the last `;` of
/// such a line).
pub fn plain_text(text: &str) -> bool {
    let mut rest = text;
    let mut outside = String::new();
    while let Some(i) = rest.find('#') {
        outside.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.find(';') {
            Some(end) if end > 0 && after[..end].chars().all(|c| c.is_ascii_alphanumeric()) => {
                rest = &after[end + 1..];
            }
            _ => return false,
        }
    }
    outside.push_str(rest);
    let start = outside.trim_start();
    !outside.contains([';', '#', '"', '<', '>', '&', '%', '\n', '\r'])
        && !start.starts_with("wrap:")
        && !start.starts_with("nowrap:")
        && !(text.contains('#')
            && (text.contains("style") || text.contains("classDef"))
            && outside.contains(':'))
}

/// The kind of a property, as a trace records it.
pub fn trace_kind(k: &podcheck_properties::Kind) -> podcheck_traces::Kind {
    podcheck_traces::Kind::from(k)
}

/// A scenario whose name holds the characters DOT and Mermaid take for syntax: quotes, `;`,
/// `-->`, a leading `wrap:` (a Mermaid directive at the start of a message) and `style` with a
/// colon (which Mermaid's entity handling treats apart). Node, workload and container names
/// are DNS names (validation refuses others, as the API server does), so the scenario's name
/// and an expectation's source are the free text that reaches the renderings. Its one
/// `sometimes` property has a witness.
pub const ODD_NAMES_YAML: &str = r#"- name: "wrap:we\"ird;style-->"
  description: names with quotes, semicolons, arrows and other syntax of DOT and Mermaid
  source: "a test of the renderings"
  cluster:
    nodes:
      - {name: node-1, allocatable: {cpuMilli: 4000, memoryMi: 8192}}
  workloads:
    - kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 1
        template:
          spec:
            containers:
              - name: app
                image: "web:1.0"
                readinessProbe: {periodSeconds: 5, failureThreshold: 3}
                app: {bootSeconds: 3}
  service: {selects: [web]}
  expect:
    - {property: pod_becomes_ready, verdict: holds, source: "a \"quoted\"; source"}
"#;

/// The names of [`ODD_NAMES_YAML`]: (scenario, node, workload, container).
pub const ODD_NAMES: (&str, &str, &str, &str) = ("wrap:we\"ird;style-->", "node-1", "web", "app");

/// The witness of `pod_becomes_ready` in [`ODD_NAMES_YAML`]: the model, its path and trace.
pub fn odd_names_trace() -> (
    podcheck_model::Cluster,
    podcheck_traces::RawPath,
    podcheck_traces::Trace,
) {
    use podcheck_properties::check::{self, CheckOptions};
    let s = podcheck_input::spec::parse_scenarios(ODD_NAMES_YAML, "odd-names.yaml")
        .unwrap()
        .remove(0);
    assert_eq!(s.name, ODD_NAMES.0);
    let r = check::check(&s, &CheckOptions::default()).unwrap();
    let m = check::model(&r.scenario, &[], false);
    let p = r
        .properties
        .iter()
        .find(|p| p.def.name == "pod_becomes_ready")
        .unwrap();
    let (actions, loop_start) = p.actions().expect("a witness");
    let raw = podcheck_traces::RawPath::from_actions(&m, actions).unwrap();
    let t = podcheck_traces::from_raw(
        &m,
        &raw,
        p.def.name,
        trace_kind(&p.def.kind),
        p.verdict,
        loop_start,
    )
    .unwrap();
    (m, raw, t)
}

/// Mermaid text with its entity codes (`#quot;`, `#59;`, …) read back as characters, as
/// Mermaid shows it.
pub fn mermaid_unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('#') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let end = after.find(';').expect("an entity code ends with `;`");
        let code = &after[..end];
        let c = match code {
            "quot" => '"',
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            n => char::from_u32(n.parse().expect("a named or numbered entity code"))
                .expect("a character"),
        };
        out.push(c);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}
