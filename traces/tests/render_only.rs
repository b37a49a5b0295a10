//! Renderers only render: nothing under `traces/src` changes a state through the API server's
//! writes (`podcheck_model::apiserver`) or explores the state space. What a step did is read
//! from the states before and after it; what DOT draws comes from the state graph the check
//! explored (`podcheck_properties::drawing`).

use std::path::{Path, PathBuf};

/// What a renderer must not name: the API server's writes, and the exploration (ours, the one
/// that explores a graph to draw, and Stateright's checker).
const FORBIDDEN: [&str; 7] = [
    "podcheck_model::apiserver",
    "apiserver::",
    "podcheck_properties::explore",
    "explore(",
    "graph_to_draw",
    "Checker",
    "checker()",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each line of `source` that names one of `forbidden` (doc comments and comments too: a
/// rendering has no business naming them), as `file:line: text`.
fn offences(file: &str, source: &str, forbidden: &[&str]) -> Vec<String> {
    source
        .lines()
        .enumerate()
        .filter(|(_, l)| forbidden.iter().any(|f| l.contains(f)))
        .map(|(i, l)| format!("{file}:{}: {}", i + 1, l.trim()))
        .collect()
}

#[test]
fn nothing_under_traces_src_writes_through_the_api_server_or_explores() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(
        files.iter().any(|f| f.ends_with("words.rs"))
            && files.iter().any(|f| f.ends_with("dot.rs")),
        "the renderers are not where this test looks: {files:?}"
    );
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.strip_prefix(&src).unwrap().display().to_string();
        found.extend(offences(&name, &text, &FORBIDDEN));
    }
    assert!(
        found.is_empty(),
        "a renderer runs the model (say what a step did from the states before and after it, \
         and draw from the graph the check explored):\n{}",
        found.join("\n")
    );
}

/// The test above can fail: the old wording of a drain's eviction, which cloned the state and
/// evicted the pod through the API server, and the old DOT, which explored, are caught.
#[test]
fn the_scan_catches_a_renderer_that_runs_the_model() {
    let old_words = "let mut t = state.clone();\n\
                     match podcheck_model::apiserver::evict_pod(m, &mut t, uid) {";
    let old_dot = "use podcheck_properties::explore::{explore, ExploreOptions, StateId};\n\
                   let (graph, _) = explore(m, fair_actor, &[], &opts);";
    assert_eq!(offences("words.rs", old_words, &FORBIDDEN).len(), 1);
    assert_eq!(offences("dot.rs", old_dot, &FORBIDDEN).len(), 2);
    assert_eq!(
        offences("x.rs", "let c = Checker::new(m);", &FORBIDDEN).len(),
        1
    );
    assert_eq!(
        offences("x.rs", "m.checker().spawn_bfs()", &FORBIDDEN).len(),
        1
    );
    assert_eq!(
        offences("x.rs", "let g = drawing::graph_to_draw(m);", &FORBIDDEN).len(),
        1
    );
    assert!(offences(
        "x.rs",
        "let d = drawing::drawing(m, g, &path.states)?;",
        &FORBIDDEN
    )
    .is_empty());
}
