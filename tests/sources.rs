//! `docs/sources.md` is where the code, the scenario catalogue and the property catalogue send a
//! reader for the upstream source of a behaviour or a verdict. Every anchor of that page they
//! cite, and every `(#…)` link inside the page, must name one of its headings.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The anchor GitHub gives a heading: lower case, punctuation other than `-` and `_` dropped,
/// spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(page: &str) -> BTreeSet<String> {
    page.lines()
        .filter(|l| l.starts_with('#'))
        .filter_map(|l| l.trim_start_matches('#').strip_prefix(' '))
        .map(slug)
        .collect()
}

/// The anchors cited after `prefix` in `text`.
fn cited(text: &str, prefix: &str) -> Vec<String> {
    text.match_indices(prefix)
        .map(|(i, _)| {
            text[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect::<String>()
        })
        .filter(|a| !a.is_empty())
        .collect()
}

fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                text_files(&p, out);
            }
        } else if [".rs", ".md", ".yaml", ".snap"]
            .iter()
            .any(|x| name.ends_with(x))
        {
            out.push(p);
        }
    }
}

#[test]
fn every_cited_source_anchor_exists() {
    let page = std::fs::read_to_string(root().join("docs/sources.md")).expect("docs/sources.md");
    let known = anchors(&page);
    assert!(known.contains("kubelet-crash-back-off"), "{known:?}");

    let mut missing = Vec::new();
    for a in cited(&page, "](#") {
        if !known.contains(&a) {
            missing.push(format!("docs/sources.md: #{a}"));
        }
    }
    let mut files = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    for dir in ["src", "model", "properties", "traces", "tests", "docs"] {
        text_files(&root().join(dir), &mut files);
    }
    let mut citations = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for a in cited(&text, "sources.md#") {
            citations += 1;
            if !known.contains(&a) {
                missing.push(format!("{}: #{a}", f.display()));
            }
        }
    }
    assert!(
        citations > 50,
        "only {citations} citations of docs/sources.md found"
    );
    assert!(
        missing.is_empty(),
        "unknown anchors:\n{}",
        missing.join("\n")
    );
}
