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
            let id = rest.split(" as ").next().unwrap_or("");
            if !plain(id) {
                return Err(format!("bad participant id: {line}"));
            }
            declared.push(id.to_string());
            continue;
        }
        let check_msg = |msg: &str| -> Result<(), String> {
            if msg.trim().is_empty() || msg.contains(';') || msg.contains('#') {
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

/// The kind of a property, as a trace records it.
pub fn trace_kind(k: &podcheck_properties::Kind) -> podcheck_traces::Kind {
    podcheck_traces::Kind::from(k)
}
