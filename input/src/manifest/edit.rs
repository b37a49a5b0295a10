//! Text edits of a manifest at the positions the reader recorded: set, add or remove one
//! field of one document, touching only the lines the change needs, and keeping the rest of
//! the file (comments, block or flow style, indentation, quoting) byte for byte. The file is
//! never serialized again: an edit replaces a scalar where it was written, or inserts the lines
//! of a new field after the last entry of its mapping (or inside a flow mapping's braces), or
//! removes an entry's lines.
//!
//! Paths are the reader's (`spec.template.spec.containers[0].lifecycle.preStop`); a key with
//! dots or a slash is written in brackets (`metadata.annotations[podcheck.dev/plans]`).
//! Mappings missing on the way are added; a missing sequence item is an error.

use super::tree::{self, Loc, Node, Tree};

/// A YAML value to write: a scalar as its YAML text, or a mapping or sequence of values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// The scalar as written in YAML: `5`, `true`, `"exec python worker.py"`.
    Scalar(String),
    Map(Vec<(String, Value)>),
    Seq(Vec<Value>),
}

impl Value {
    /// An integer.
    pub fn int(n: i64) -> Value {
        Value::Scalar(n.to_string())
    }

    /// A string, quoted where YAML would read it otherwise (a number, a boolean, a special
    /// character), double-quoted with escapes.
    pub fn str(s: &str) -> Value {
        let plain = !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
            && !s.starts_with(['-', '.'])
            && s.parse::<f64>().is_err()
            && !matches!(
                s.to_ascii_lowercase().as_str(),
                "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n"
            );
        if plain {
            return Value::Scalar(s.to_string());
        }
        let mut q = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => q.push_str("\\\""),
                '\\' => q.push_str("\\\\"),
                '\n' => q.push_str("\\n"),
                '\t' => q.push_str("\\t"),
                c => q.push(c),
            }
        }
        q.push('"');
        Value::Scalar(q)
    }

    /// A mapping of `(key, value)` pairs.
    pub fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// The value in flow style, on one line: `{sleep: {seconds: 5}}`, `[sleep, "5"]`.
    pub fn flow(&self) -> String {
        match self {
            Value::Scalar(s) => s.clone(),
            Value::Map(m) => {
                let items: Vec<String> = m
                    .iter()
                    .map(|(k, v)| format!("{}: {}", key_text(k), v.flow()))
                    .collect();
                format!("{{{}}}", items.join(", "))
            }
            Value::Seq(s) => {
                let items: Vec<String> = s.iter().map(Value::flow).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }

    /// The lines of an entry `key: value` in block style at `indent` spaces, nested mappings
    /// `step` spaces deeper; scalars, sequences and mappings of scalars in flow style.
    fn block(&self, key: &str, indent: usize, step: usize, eol: &str) -> String {
        let pad = " ".repeat(indent);
        match self {
            Value::Map(m) if m.iter().any(|(_, v)| !matches!(v, Value::Scalar(_))) => {
                let mut out = format!("{pad}{}:{eol}", key_text(key));
                for (k, v) in m {
                    out.push_str(&v.block(k, indent + step, step, eol));
                }
                out
            }
            v => format!("{pad}{}: {}{eol}", key_text(key), v.flow()),
        }
    }
}

/// A key as YAML text: plain where it can be.
fn key_text(k: &str) -> String {
    match Value::str(k) {
        Value::Scalar(s) => s,
        _ => k.to_string(),
    }
}

/// What to do at a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Set the field to this value: replace a scalar where it was written, or add the field
    /// (and the mappings missing on the way). Replacing a mapping or a sequence is not done
    /// (set its own fields).
    Set(Value),
    /// Remove the field (an entry of a block mapping) with its lines.
    Remove,
    /// Replace a scalar entry, key and value, where it was written by another:
    /// `minAvailable: 2` by `maxUnavailable: 1` on the same line.
    Replace(String, Value),
}

/// One change of one field of one document of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The document, from 0, in the file's order.
    pub doc: usize,
    /// The field's path in the document.
    pub path: String,
    pub change: Change,
}

/// A part of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// The parts of a path: `a.b[0].c[podcheck.dev/x]` is `a`, `b`, `0`, `c`, `podcheck.dev/x`.
pub fn parse_path(path: &str) -> Result<Vec<Seg>, String> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
            continue;
        }
        if let Some(r) = rest.strip_prefix('[') {
            let end = r
                .find(']')
                .ok_or_else(|| format!("path `{path}`: `[` without `]`"))?;
            let inner = &r[..end];
            match inner.parse::<usize>() {
                Ok(i) => out.push(Seg::Index(i)),
                Err(_) if !inner.is_empty() => out.push(Seg::Key(inner.to_string())),
                Err(_) => return Err(format!("path `{path}`: empty `[]`")),
            }
            rest = &r[end + 1..];
            continue;
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        out.push(Seg::Key(rest[..end].to_string()));
        rest = &rest[end..];
    }
    if out.is_empty() {
        return Err(format!("path `{path}` is empty"));
    }
    Ok(out)
}

/// The index of the document of `kind` named `name` among `docs`.
pub fn find_doc(docs: &[Tree], kind: &str, name: &str) -> Option<usize> {
    docs.iter().position(|d| {
        d.get("kind").and_then(Tree::str) == Some(kind)
            && d.get("metadata")
                .and_then(|m| m.get("name"))
                .and_then(Tree::str)
                == Some(name)
    })
}

/// The text with the edits made, one after the other (each on the text the one before left).
pub fn apply_all(text: &str, edits: &[Edit]) -> Result<String, String> {
    let mut t = text.to_string();
    for e in edits {
        t = apply(&t, e)?;
    }
    Ok(t)
}

/// The lines of a text with their ends, and where each starts.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' && i + 1 < text.len() {
                starts.push(i + 1);
            }
        }
        Lines { text, starts }
    }
    fn count(&self) -> usize {
        self.starts.len()
    }
    /// Line `i` (from 0) without its end.
    fn line(&self, i: usize) -> &'a str {
        let s = self.starts[i];
        let e = self.starts.get(i + 1).copied().unwrap_or(self.text.len());
        self.text[s..e].trim_end_matches(['\n', '\r'])
    }
    /// The byte offset after line `i`'s end.
    fn after(&self, i: usize) -> usize {
        self.starts.get(i + 1).copied().unwrap_or(self.text.len())
    }
    /// The byte offset of a location (line and column from 1, the column in characters).
    fn offset(&self, loc: Loc) -> Result<usize, String> {
        let i = usize::try_from(loc.line)
            .ok()
            .and_then(|l| l.checked_sub(1))
            .filter(|&l| l < self.count())
            .ok_or_else(|| format!("no line {} in the text", loc.line))?;
        let line = self.line(i);
        let col = usize::try_from(loc.column.max(1) - 1).unwrap_or(usize::MAX);
        let byte = line
            .char_indices()
            .nth(col)
            .map(|(b, _)| b)
            .unwrap_or(line.len());
        Ok(self.starts[i] + byte)
    }
}

/// The end of line to write new lines with: the text's own.
fn eol_of(text: &str) -> &'static str {
    if text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The last line (from 0) of the block entry whose key is on line `key_line` at `indent`
/// spaces: the lines after it that are indented deeper (or a sequence's `- ` at the same
/// indentation), comments indented deeper and blank lines between them included, trailing
/// blank lines and comments at the entry's own indentation or less not.
fn entry_end(lines: &Lines, key_line: usize, indent: usize) -> usize {
    let mut end = key_line;
    for l in key_line + 1..lines.count() {
        let s = lines.line(l);
        let t = s.trim_start();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            // A comment indented deeper is the entry's; one at its own indentation or less
            // is left to what follows.
            if indentation(s) > indent {
                end = l;
            }
            continue;
        }
        if s.starts_with("---") || s.starts_with("...") {
            break;
        }
        let i = indentation(s);
        if i > indent || (i == indent && (t == "-" || t.starts_with("- "))) {
            end = l;
        } else {
            break;
        }
    }
    end
}

/// The byte offset just past the flow collection that opens at `start` (`{` or `[`).
fn flow_end(text: &str, start: usize) -> Result<usize, String> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut it = text[start..].char_indices().peekable();
    while let Some((i, c)) = it.next() {
        match quote {
            Some('"') => match c {
                '\\' => {
                    it.next();
                }
                '"' => quote = None,
                _ => {}
            },
            Some(_) => {
                if c == '\'' {
                    if it.peek().map(|(_, n)| *n) == Some('\'') {
                        it.next();
                    } else {
                        quote = None;
                    }
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '{' | '[' => depth += 1,
                '}' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(start + i + 1);
                    }
                }
                '#' if text[..start + i].ends_with([' ', '\t']) => {
                    // A comment inside a flow collection: to the end of its line.
                    while let Some((_, c)) = it.peek() {
                        if *c == '\n' {
                            break;
                        }
                        it.next();
                    }
                }
                _ => {}
            },
        }
    }
    Err("a flow collection without its closing bracket".into())
}

/// The byte range of the scalar that starts at `start`, as written: a quoted one to its
/// closing quote, a plain one to the end of its line, a comment, or (in a flow collection) the
/// next `,`, `]` or `}`.
fn scalar_range(text: &str, start: usize, in_flow: bool) -> Result<(usize, usize), String> {
    let rest = &text[start..];
    match rest.chars().next() {
        Some('"') => {
            let mut esc = false;
            for (i, c) in rest.char_indices().skip(1) {
                match c {
                    _ if esc => esc = false,
                    '\\' => esc = true,
                    '"' => return Ok((start, start + i + 1)),
                    _ => {}
                }
            }
            Err("a double-quoted scalar without its closing quote".into())
        }
        Some('\'') => {
            let b = rest.as_bytes();
            let mut i = 1;
            while i < b.len() {
                if b[i] == b'\'' {
                    if b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    return Ok((start, start + i + 1));
                }
                i += 1;
            }
            Err("a single-quoted scalar without its closing quote".into())
        }
        Some('|' | '>') => Err("a block scalar (`|`, `>`) is not edited in place".into()),
        _ => {
            let line_end = rest.find(['\n', '\r']).unwrap_or(rest.len());
            let mut end = line_end;
            let line = &rest[..line_end];
            for (i, c) in line.char_indices() {
                if c == '#' && line[..i].ends_with([' ', '\t']) {
                    end = i;
                    break;
                }
                if in_flow && matches!(c, ',' | ']' | '}') {
                    end = i;
                    break;
                }
            }
            let trimmed = line[..end].trim_end();
            Ok((start, start + trimmed.len()))
        }
    }
}

/// The text with `edit` made.
pub fn apply(text: &str, edit: &Edit) -> Result<String, String> {
    let docs = tree::documents(text)
        .map_err(|(m, l)| format!("line {} column {}: not valid YAML: {m}", l.line, l.column))?;
    let root = docs
        .get(edit.doc)
        .ok_or_else(|| format!("no document {} (the text has {})", edit.doc + 1, docs.len()))?;
    let segs = parse_path(&edit.path)?;
    let lines = Lines::new(text);
    let eol = eol_of(text);
    let at = |why: &str| format!("{}: {why}", edit.path);
    // Walk the path as far as the document has it: each step's node, its key's location
    // (for a mapping's entry) and whether it is inside a flow collection.
    let mut here = root;
    let mut key_loc: Option<Loc> = None;
    let mut in_flow = false;
    let mut depth = 0;
    for seg in &segs {
        let open = lines
            .offset(here.loc)
            .ok()
            .and_then(|o| text[o..].chars().next());
        let flow_here =
            matches!(here.node, Node::Map(_) | Node::Seq(_)) && matches!(open, Some('{' | '['));
        let next = match (&here.node, seg) {
            (Node::Map(m), Seg::Key(k)) => m
                .iter()
                .find(|(key, _, _)| key == k)
                .map(|(_, l, v)| (Some(*l), v)),
            (Node::Seq(items), Seg::Index(i)) => items.get(*i).map(|v| (None, v)),
            _ => None,
        };
        let Some((kl, next)) = next else { break };
        in_flow |= flow_here;
        key_loc = kl;
        here = next;
        depth += 1;
    }
    if depth == segs.len() {
        return match &edit.change {
            Change::Set(v) => set_existing(text, &lines, here, in_flow, v).map_err(|e| at(&e)),
            Change::Replace(new_key, v) => {
                let Some(kl) = key_loc else {
                    return Err(at("only an entry of a mapping can be replaced"));
                };
                if matches!(here.node, Node::Map(_) | Node::Seq(_)) || here.loc.line == 0 {
                    return Err(at("only an entry with a scalar value is replaced in place"));
                }
                let from = lines.offset(kl)?;
                let (_, e) = scalar_range(text, lines.offset(here.loc)?, in_flow)?;
                let mut out = text[..from].to_string();
                out.push_str(&format!("{}: {}", key_text(new_key), v.flow()));
                out.push_str(&text[e..]);
                Ok(out)
            }
            Change::Remove => {
                let Some(kl) = key_loc else {
                    return Err(at("only an entry of a mapping can be removed"));
                };
                if in_flow {
                    return Err(at(
                        "an entry of a flow mapping `{…}` is not removed in place",
                    ));
                }
                let key_line = usize::try_from(kl.line - 1).unwrap_or(0);
                let indent = usize::try_from(kl.column - 1).unwrap_or(0);
                let line = lines.line(key_line);
                if indentation(line) != indent {
                    return Err(at(
                        "the entry shares its line with another (`- key: …`): not removed in place",
                    ));
                }
                let end = entry_end(&lines, key_line, indent);
                let from = lines.starts[key_line];
                let to = lines.after(end);
                let mut out = text[..from].to_string();
                out.push_str(&text[to..]);
                Ok(out)
            }
        };
    }
    let (Change::Set(value) | Change::Replace(_, value)) = &edit.change else {
        // Nothing to remove.
        return Ok(text.to_string());
    };
    // Add the missing keys as nested mappings around the value.
    let missing = &segs[depth..];
    let Seg::Key(first) = &missing[0] else {
        return Err(at(
            "a sequence item that the manifest does not have is not added",
        ));
    };
    let mut v = value.clone();
    for seg in missing[1..].iter().rev() {
        match seg {
            Seg::Key(k) => v = Value::Map(vec![(k.clone(), v)]),
            Seg::Index(_) => {
                return Err(at(
                    "a sequence item that the manifest does not have is not added",
                ))
            }
        }
    }
    let Node::Map(entries) = &here.node else {
        return Err(at("the field's parent is not a mapping"));
    };
    let start = lines.offset(here.loc)?;
    if text[start..].starts_with('{') {
        // A flow mapping: `, key: value` before its closing brace.
        let end = flow_end(text, start)? - 1;
        let before = text[start + 1..end].trim_end();
        let insert_at = start + 1 + before.len();
        let sep = if entries.is_empty() { "" } else { ", " };
        let mut out = text[..insert_at].to_string();
        out.push_str(&format!("{sep}{}: {}", key_text(first), v.flow()));
        out.push_str(&text[insert_at..]);
        return Ok(out);
    }
    let Some((_, first_loc, _)) = entries.first() else {
        return Err(at(
            "the field's parent is an empty mapping not written as `{}`",
        ));
    };
    let indent = usize::try_from(first_loc.column - 1).unwrap_or(0);
    // How much deeper a nested mapping goes: as the parent is under its own key, else 2.
    let step = key_loc
        .map(|k| usize::try_from(k.column - 1).unwrap_or(0))
        .filter(|&k| indent > k)
        .map_or(2, |k| indent - k)
        .clamp(1, 8);
    let (_, last_loc, _) = entries.last().expect("not empty");
    let last_line = usize::try_from(last_loc.line - 1).unwrap_or(0);
    let end = entry_end(&lines, last_line, indent);
    let at_off = lines.after(end);
    let mut out = text[..at_off].to_string();
    if !out.ends_with('\n') {
        out.push_str(eol);
    }
    out.push_str(&v.block(first, indent, step, eol));
    out.push_str(&text[at_off..]);
    Ok(out)
}

/// Sets the node `here`, which the document has, to `v`: a scalar is replaced where it was
/// written.
fn set_existing(
    text: &str,
    lines: &Lines,
    here: &Tree,
    in_flow: bool,
    v: &Value,
) -> Result<String, String> {
    match &here.node {
        Node::Map(_) | Node::Seq(_) => {
            Err("the field is a mapping or a sequence: set its own fields instead".into())
        }
        node => {
            if here.loc.line == 0 {
                return Err("the field has no recorded position".into());
            }
            let start = lines.offset(here.loc)?;
            let (s, e) = scalar_range(text, start, in_flow)?;
            let written = &text[s..e];
            // A plain scalar that goes on over more lines is not edited in place.
            if let Node::Str(value) = node {
                if !written.starts_with(['"', '\'']) && written.trim() != value.trim() {
                    return Err("a scalar written over several lines is not edited in place".into());
                }
            }
            let mut out = text[..s].to_string();
            out.push_str(&v.flow());
            out.push_str(&text[e..]);
            Ok(out)
        }
    }
}

/// A unified diff of `old` and `new` (3 lines of context), with `a/`-less names as given:
/// empty when they are the same.
pub fn unified_diff(old_name: &str, new_name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
}

/// The lines (from 1) of `old` that a change to `new` replaces or removes, with the line of
/// `old` before which lines are only added (`(n, n - 1)`): each hunk as `(first, last)` of
/// `old`, and the new text that takes their place. For SARIF's `replacements`.
pub fn replaced_lines(old: &str, new: &str) -> Vec<(usize, usize, String)> {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut out = Vec::new();
    for group in diff.grouped_ops(0) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_from = first.old_range().start;
        let old_to = last.old_range().end;
        let new_from = first.new_range().start;
        let new_to = last.new_range().end;
        let inserted: String = diff.new_slices()[new_from..new_to].concat();
        out.push((old_from + 1, old_to, inserted));
    }
    out
}

/// The hunks of [`replaced_lines`]`(read, after)` that a change from `before` to `after` made
/// (lines from 1 of `read`, as there): where `before` is `read` with earlier changes made, the
/// change written against the text as read, for a reader that has only that text (SARIF's
/// `replacements`, whose regions are the scanned file's). A hunk that an earlier change made
/// next to or into the same lines comes with it, as one replacement; a hunk the change did not
/// touch is left out.
pub fn replaced_lines_since(read: &str, before: &str, after: &str) -> Vec<(usize, usize, String)> {
    // The lines of `after` (from 0, end exclusive) the change wrote; an empty range where it
    // only removed lines.
    let touched: Vec<std::ops::Range<usize>> = similar::TextDiff::from_lines(before, after)
        .grouped_ops(0)
        .iter()
        .filter_map(|g| Some(g.first()?.new_range().start..g.last()?.new_range().end))
        .collect();
    let meets = |a: &std::ops::Range<usize>, b: &std::ops::Range<usize>| {
        if a.is_empty() || b.is_empty() {
            a.start <= b.end && b.start <= a.end
        } else {
            a.start < b.end && b.start < a.end
        }
    };
    let diff = similar::TextDiff::from_lines(read, after);
    let mut out = Vec::new();
    for group in diff.grouped_ops(0) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let new = first.new_range().start..last.new_range().end;
        if !touched.iter().any(|t| meets(t, &new)) {
            continue;
        }
        let inserted: String = diff.new_slices()[new].concat();
        out.push((first.old_range().start + 1, last.old_range().end, inserted));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPLOY: &str = "\
# a comment on top
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 1 # one for now
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: web:1
        # the program's port
        ports:
        - containerPort: 80
        command: [\"sh\", \"-c\", \"python worker.py\"]

      # a trailing comment
---
apiVersion: v1
kind: Service
metadata:
    name: web
spec:
    selector: {app: web}
";

    fn set(path: &str, v: Value) -> Edit {
        Edit {
            doc: 0,
            path: path.into(),
            change: Change::Set(v),
        }
    }

    #[test]
    fn a_scalar_is_replaced_where_it_was_written() {
        let out = apply(DEPLOY, &set("spec.replicas", Value::int(2))).unwrap();
        assert_eq!(out, DEPLOY.replace("replicas: 1 #", "replicas: 2 #"));
    }

    #[test]
    fn an_item_of_a_flow_sequence_is_replaced_with_its_quotes() {
        let out = apply(
            DEPLOY,
            &set(
                "spec.template.spec.containers[0].command[2]",
                Value::str("exec python worker.py"),
            ),
        )
        .unwrap();
        assert_eq!(
            out,
            DEPLOY.replace("\"python worker.py\"", "\"exec python worker.py\"")
        );
    }

    #[test]
    fn a_missing_field_is_added_after_the_last_entry_with_its_mappings() {
        let v = Value::map([("sleep", Value::map([("seconds", Value::int(5))]))]);
        let out = apply(
            DEPLOY,
            &set("spec.template.spec.containers[0].lifecycle.preStop", v),
        )
        .unwrap();
        let want = DEPLOY.replace(
            "\"python worker.py\"]\n",
            "\"python worker.py\"]\n        lifecycle:\n          preStop:\n            sleep: {seconds: 5}\n",
        );
        assert_eq!(out, want);
        let docs = tree::documents(&out).unwrap();
        let t = &docs[0];
        assert!(t
            .get("spec")
            .and_then(|s| s.get("template"))
            .and_then(|s| s.get("spec"))
            .is_some());
    }

    #[test]
    fn a_field_is_added_to_a_flow_mapping_inside_its_braces() {
        let out = apply(
            DEPLOY,
            &set("metadata.annotations", Value::map([("a", Value::str("b"))])),
        );
        let out = out.unwrap();
        assert_eq!(
            out,
            DEPLOY.replace(
                "metadata: {name: web, labels: {app: web}}",
                "metadata: {name: web, labels: {app: web}, annotations: {a: b}}"
            )
        );
    }

    #[test]
    fn a_field_is_added_to_the_second_document_with_its_indentation() {
        let e = Edit {
            doc: 1,
            path: "metadata.annotations[podcheck.dev/proxy-lag-seconds]".into(),
            change: Change::Set(Value::str("3")),
        };
        let out = apply(DEPLOY, &e).unwrap();
        assert_eq!(
            out,
            DEPLOY.replace(
                "    name: web\nspec:\n    selector",
                "    name: web\n    annotations: {podcheck.dev/proxy-lag-seconds: \"3\"}\nspec:\n    selector"
            )
        );
    }

    #[test]
    fn an_entry_is_removed_with_its_lines_and_a_top_level_field_added() {
        let e = Edit {
            doc: 0,
            path: "spec.selector".into(),
            change: Change::Remove,
        };
        let out = apply(DEPLOY, &e).unwrap();
        assert_eq!(
            out,
            DEPLOY.replace("  selector:\n    matchLabels: {app: web}\n", "")
        );
        let out = apply(&out, &set("spec.minReadySeconds", Value::int(3))).unwrap();
        assert!(
            out.contains("worker.py\"]\n\n      # a trailing comment\n  minReadySeconds: 3\n---"),
            "{out}"
        );
    }

    #[test]
    fn an_entry_is_replaced_by_another_on_its_line() {
        let e = Edit {
            doc: 0,
            path: "spec.replicas".into(),
            change: Change::Replace("minReadySeconds".into(), Value::int(4)),
        };
        let out = apply(DEPLOY, &e).unwrap();
        assert_eq!(out, DEPLOY.replace("replicas: 1 #", "minReadySeconds: 4 #"));
    }

    #[test]
    fn a_missing_sequence_item_and_a_mapping_replaced_are_errors() {
        assert!(apply(
            DEPLOY,
            &set("spec.template.spec.containers[1].image", Value::str("x"))
        )
        .is_err());
        assert!(apply(DEPLOY, &set("spec.selector", Value::str("x"))).is_err());
    }

    #[test]
    fn the_diff_shows_only_the_lines_changed() {
        let new = apply(DEPLOY, &set("spec.replicas", Value::int(2))).unwrap();
        let d = unified_diff("a/x.yaml", "b/x.yaml", DEPLOY, &new);
        let changed: Vec<&str> = d
            .lines()
            .filter(|l| {
                (l.starts_with('-') || l.starts_with('+'))
                    && !l.starts_with("---")
                    && !l.starts_with("+++")
            })
            .collect();
        assert_eq!(
            changed,
            [
                "-  replicas: 1 # one for now",
                "+  replicas: 2 # one for now"
            ]
        );
        assert_eq!(
            replaced_lines(DEPLOY, &new),
            [(6, 6, "  replicas: 2 # one for now\n".to_string())]
        );
    }

    #[test]
    fn a_later_change_is_written_against_the_text_as_read() {
        let read = "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\n";
        // An earlier change inserted two lines after `a`; the later one sets `d`.
        let before = "a: 1\nx: 0\ny: 0\nb: 2\nc: 3\nd: 4\ne: 5\n";
        let after = "a: 1\nx: 0\ny: 0\nb: 2\nc: 3\nd: 9\ne: 5\n";
        assert_eq!(
            replaced_lines_since(read, before, after),
            [(4, 4, "d: 9\n".to_string())]
        );
        // A change into the lines an earlier one wrote comes with that one's hunk.
        let after = "a: 1\nx: 1\ny: 0\nb: 2\nc: 3\nd: 4\ne: 5\n";
        assert_eq!(
            replaced_lines_since(read, before, after),
            [(2, 1, "x: 1\ny: 0\n".to_string())]
        );
        // A removal, and the first change (against the text as read itself).
        let after = "a: 1\nb: 2\nc: 3\ne: 5\n";
        assert_eq!(
            replaced_lines_since(read, read, after),
            [(4, 4, String::new())]
        );
        assert_eq!(
            replaced_lines_since(read, read, after),
            replaced_lines(read, after)
        );
    }

    #[test]
    fn paths_parse_with_bracketed_keys() {
        assert_eq!(
            parse_path("a.b[0].c[podcheck.dev/x]").unwrap(),
            [
                Seg::Key("a".into()),
                Seg::Key("b".into()),
                Seg::Index(0),
                Seg::Key("c".into()),
                Seg::Key("podcheck.dev/x".into())
            ]
        );
    }

    /// The tree without its positions.
    fn strip(t: &Tree) -> Tree {
        let node = match &t.node {
            Node::Seq(items) => Node::Seq(items.iter().map(strip).collect()),
            Node::Map(m) => Node::Map(
                m.iter()
                    .map(|(k, _, v)| (k.clone(), Loc::default(), strip(v)))
                    .collect(),
            ),
            n => n.clone(),
        };
        Tree {
            node,
            loc: Loc::default(),
        }
    }

    /// `t` with the field at `segs` set to `v` (mappings added on the way).
    fn set_in(t: &mut Tree, segs: &[Seg], v: Tree) {
        let Some((seg, rest)) = segs.split_first() else {
            *t = v;
            return;
        };
        match (&mut t.node, seg) {
            (Node::Map(m), Seg::Key(k)) => {
                if !m.iter().any(|(key, _, _)| key == k) {
                    m.push((
                        k.clone(),
                        Loc::default(),
                        strip(&Tree {
                            node: Node::Map(Vec::new()),
                            loc: Loc::default(),
                        }),
                    ));
                }
                let (_, _, child) = m.iter_mut().find(|(key, _, _)| key == k).unwrap();
                set_in(child, rest, v);
            }
            (Node::Seq(items), Seg::Index(i)) => set_in(&mut items[*i], rest, v),
            _ => panic!("no such path"),
        }
    }

    const SCALARS: &[&str] = &[
        "spec.replicas",
        "spec.template.spec.containers[0].image",
        "spec.template.spec.containers[0].ports[0].containerPort",
        "spec.template.spec.containers[0].command[1]",
        "spec.template.metadata.labels.app",
        "metadata.name",
        "spec.selector.matchLabels.app",
    ];
    const MAPS: &[&str] = &[
        "spec",
        "metadata",
        "spec.template.metadata.labels",
        "spec.template.spec.containers[0]",
        "spec.template.spec",
        "spec.selector.matchLabels",
        "spec.template.spec.containers[0].lifecycle.preStop",
    ];

    proptest::proptest! {
        /// An edit, then a re-read: the tree with exactly that field changed, and the other
        /// lines as they were.
        #[test]
        fn an_edit_changes_that_field_and_no_other_line(
            existing in proptest::prelude::any::<bool>(),
            which in 0usize..7,
            key in "[a-z]{1,6}",
            text_value in "[a-zA-Z0-9 ._-]{0,12}",
            number in proptest::prelude::any::<bool>(),
            n in 0i64..1000,
        ) {
            let value = if number { Value::int(n) } else { Value::str(&text_value) };
            let path = if existing {
                SCALARS[which].to_string()
            } else {
                format!("{}.x{key}", MAPS[which])
            };
            let out = apply(DEPLOY, &set(&path, value.clone())).unwrap();
            let before = tree::documents(DEPLOY).unwrap();
            let after = tree::documents(&out).unwrap();
            let mut want = strip(&before[0]);
            let v = strip(&tree::documents(&value.flow()).unwrap()[0]);
            set_in(&mut want, &parse_path(&path).unwrap(), v);
            proptest::prop_assert_eq!(strip(&after[0]), want);
            proptest::prop_assert_eq!(strip(&after[1]), strip(&before[1]));
            // Only the lines of the field change: one replaced, or only lines added.
            let d = similar::TextDiff::from_lines(DEPLOY, &out);
            let removed = d.iter_all_changes().filter(|c| c.tag() == similar::ChangeTag::Delete).count();
            let inflow = path.starts_with("metadata.") || path.starts_with("spec.selector.matchLabels.");
            if existing || inflow {
                proptest::prop_assert_eq!(removed, 1, "{}", out);
            } else {
                proptest::prop_assert_eq!(removed, 0, "{}", out);
            }
        }
    }
}
