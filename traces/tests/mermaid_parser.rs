//! Every trace's Mermaid diagram parses with mermaid's own parser (`mermaid.parse`, from the
//! `mermaid` npm package, under node with jsdom; the script is `tests/mermaid/parse.mjs`).
//!
//! The parser lives in `$PODCHECK_MERMAID_DIR` (default `target/mermaid-parser`), where
//! `.ci/run` installs it with `npm install --prefix`. Without node or that directory, the test
//! prints one `skipped:` line and passes, unless `PODCHECK_REQUIRE_MERMAID=1` (set by `.ci/run`),
//! which makes it fail. The Rust-side structural check (`common::check_mermaid`) runs in
//! `traces.rs` either way.

use podcheck_input::catalogue;
use podcheck_properties::check::{self, CheckOptions};
use podcheck_traces::{mermaid, RawPath};
use std::io::Write;

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;

fn parser_dir() -> Result<PathBuf, String> {
    let dir = std::env::var_os("PODCHECK_MERMAID_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("target")
                .join("mermaid-parser")
        });
    if !dir.join("node_modules").join("mermaid").is_dir() {
        return Err(format!("no mermaid package in {}", dir.display()));
    }
    if !dir.join("node_modules").join("jsdom").is_dir() {
        return Err(format!("no jsdom package in {}", dir.display()));
    }
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(dir),
        _ => Err("node is not on the PATH".into()),
    }
}

/// The parser's directory, or `None` (after one `skipped:` line) when it is not installed
/// and not required.
fn parser_or_skip(test: &str) -> Option<PathBuf> {
    match parser_dir() {
        Ok(d) => Some(d),
        Err(why) if std::env::var("PODCHECK_REQUIRE_MERMAID").as_deref() == Ok("1") => panic!(
            "PODCHECK_REQUIRE_MERMAID=1 and mermaid's parser is not installed ({why}): npm \
             install --prefix target/mermaid-parser mermaid@11.17.2 jsdom@29.1.1"
        ),
        Err(why) => {
            // Straight to the process's stderr, past the harness's capture.
            let _ = writeln!(
                std::io::stderr(),
                "{test}: skipped: mermaid's parser not found ({why}; set PODCHECK_REQUIRE_MERMAID=1 to make this a failure)"
            );
            None
        }
    }
}

#[test]
fn every_mermaid_trace_parses_with_mermaid() {
    let Some(dir) = parser_or_skip("every_mermaid_trace_parses_with_mermaid") else {
        return;
    };
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mermaid-traces");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mut files = Vec::new();
    for s in catalogue::builtin() {
        let r = check::check(&s, &CheckOptions::default()).unwrap();
        let m = check::model(&r.scenario, &[], false);
        for p in &r.properties {
            let Some((actions, loop_start)) = p.actions() else {
                continue;
            };
            let raw = RawPath::from_actions(&m, actions).unwrap();
            let t = podcheck_traces::from_raw(
                &m,
                &raw,
                p.def.name,
                common::trace_kind(&p.def.kind),
                p.verdict,
                loop_start,
            )
            .unwrap();
            let file = out.join(format!("{}__{}.mmd", s.name, p.def.name));
            let diagram = mermaid::render_mermaid(&m, &raw, &t);
            common::check_mermaid(&diagram).unwrap_or_else(|e| panic!("{}: {e}", s.name));
            std::fs::write(&file, diagram).unwrap();
            files.push(file);
        }
    }
    assert!(!files.is_empty());
    let script = include_str!("mermaid/parse.mjs");
    let o = Command::new("node")
        .current_dir(&dir)
        .args(["--input-type=module", "-e", script])
        .args(&files)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "mermaid.parse rejected a diagram:\n{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // One `ok sequence` line per diagram: every file was parsed, as a sequence diagram.
    let ok = stdout
        .lines()
        .filter(|l| l.starts_with("ok sequence "))
        .count();
    assert_eq!(ok, files.len(), "{stdout}");
}

/// Names with Mermaid's syntax in them (quotes, `;`, `#`, `<br>`, `-->`, `%%{`, `&`, a leading
/// `wrap:`, …) show in the picture Mermaid draws exactly as they are: every participant and
/// every message, read back from the `<text>` elements of `mermaid.render`'s SVG.
#[test]
fn names_with_mermaid_syntax_show_as_they_are_in_mermaids_picture() {
    let Some(dir) =
        parser_or_skip("names_with_mermaid_syntax_show_as_they_are_in_mermaids_picture")
    else {
        return;
    };
    let (scenario, node, workload, container) = common::ODD_NAMES;
    let (m, raw, t) = common::odd_names_trace();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mermaid-odd-names");
    std::fs::create_dir_all(&out).unwrap();
    let file = out.join("odd-names.mmd");
    let diagram = mermaid::render_mermaid(&m, &raw, &t);
    std::fs::write(&file, &diagram).unwrap();
    let o = Command::new("node")
        .current_dir(&dir)
        .args([
            "--input-type=module",
            "-e",
            include_str!("mermaid/render.mjs"),
        ])
        .arg(&file)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "mermaid.render failed:\n{stdout}\n{}\n{diagram}",
        String::from_utf8_lossy(&o.stderr)
    );
    let shown: Vec<String> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let pod = format!("{workload}-1");
    for expected in [
        format!("kubelet@{node}"),
        format!("{scenario} / pod_becomes_ready (sometimes, holds), t=0s: initial state"),
        format!("[1] t=0s create pods for Deployment {workload}"),
        format!("[2] t=0s bind {pod} to {node}"),
        format!("[6] t=0s start container {container} {pod}"),
    ] {
        assert!(
            shown.contains(&expected),
            "the picture does not show `{expected}`; it shows:\n{}\n{diagram}",
            shown.join("\n")
        );
    }
    // Every message as the tests read Mermaid's entity codes (`common::mermaid_unescape`) is
    // what Mermaid shows.
    for line in diagram.lines().filter(|l| l.contains(": [")) {
        let text = common::mermaid_unescape(line.split_once(": ").unwrap().1);
        assert!(shown.contains(&text), "not shown: `{text}`");
    }
    // One text per step and the note, besides the participants (drawn at the top and at the
    // bottom): nothing was cut into pieces or dropped.
    let messages = shown.iter().filter(|s| s.starts_with('[')).count();
    assert_eq!(messages, t.steps.len(), "{}", shown.join("\n"));
}
