//! The model's modules import in one direction: scenario → state → what sits below the
//! components → the components (none of which imports another) → the cluster's composition.
//! This test reads the sources and fails on any import against that order, naming the file
//! and the module it reaches for.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module of the model and the modules it may use.
fn allowed() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let below_components = [
        "k8s",
        "spec",
        "state",
        "context",
        "apiserver",
        "derived",
        "runtime",
        "kubectl",
    ];
    let mut m: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    m.insert("k8s", vec![]);
    m.insert("spec", vec!["k8s"]);
    m.insert("catalogue", vec!["spec"]);
    // Users' manifests, read into a scenario: beside the scenario schema.
    m.insert("manifest", vec!["spec", "k8s"]);
    m.insert("state", vec!["k8s"]);
    m.insert("context", vec!["k8s", "spec", "state"]);
    m.insert("kubectl", vec!["k8s", "state", "context"]);
    m.insert(
        "derived",
        vec!["k8s", "spec", "state", "context", "kubectl"],
    );
    m.insert("apiserver", vec!["k8s", "spec", "state", "context"]);
    m.insert("runtime", vec!["k8s", "spec", "state"]);
    for component in [
        "kubelet",
        "controllers",
        "scheduler",
        "proxy",
        "faults",
        "drain",
        "time",
    ] {
        m.insert(component, below_components.to_vec());
    }
    // Which nodes are interchangeable, and a state's representative: read by the cluster.
    m.insert("symmetry", vec!["spec", "state"]);
    let mut everything: Vec<&str> = m.keys().copied().collect();
    everything.retain(|k| *k != "catalogue" && *k != "manifest");
    m.insert("cluster", everything);
    // The fault plans over users' manifests: scenarios built above the cluster, which they
    // settle once to learn where the first pod of a workload runs.
    m.insert("plan", vec!["spec", "cluster"]);
    // What each action reads and writes: over the cluster's actions and the components'
    // (a fault's, by what the scenario says it does).
    m.insert(
        "footprint",
        vec![
            "spec",
            "state",
            "context",
            "cluster",
            "kubelet",
            "controllers",
            "proxy",
            "scheduler",
            "faults",
        ],
    );
    m.insert("lib", vec![]);
    m.into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("model/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The modules a source file names with `crate::<module>`, outside comments.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
            rest = after;
        }
        // `use crate::{a, b}`: every name in the braces.
        if let Some(i) = code.find("crate::{") {
            let inner = &code[i + "crate::{".len()..];
            let inner = inner.split('}').next().unwrap_or("");
            for name in inner.split(',') {
                let name = name.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    found.insert(name.to_string());
                }
            }
        }
    }
    found
}

#[test]
fn modules_import_in_one_direction() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let allowed = allowed();
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a file name")
            .trim_end_matches(".rs")
            .to_string();
        let Some(may_use) = allowed.get(top.as_str()) else {
            problems.push(format!(
                "{}: module `{top}` has no place in the layer table of this test",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for used in crate_paths(&text) {
            // `crate::events` is `state::events`, re-exported at the root.
            let used = if used == "events" {
                "state".to_string()
            } else {
                used
            };
            // A folder's own submodules (`crate::kubelet::…` inside kubelet/) are its own room.
            if used == top || used == "self" {
                continue;
            }
            if !may_use.contains(used.as_str()) {
                problems.push(format!(
                    "{}: `{top}` uses `crate::{used}`, which is not below it",
                    rel.display()
                ));
            }
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} model files were read");
    assert!(
        problems.is_empty(),
        "imports against the layer order:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_layer_check_sees_a_bad_import() {
    // The checker above must catch a component reaching for another one.
    let paths = crate_paths("use crate::kubelet::terminate;\nuse crate::{cluster::Action, state::*};\n// crate::time in a comment\n");
    assert_eq!(
        paths,
        ["cluster", "kubelet", "state"]
            .into_iter()
            .map(String::from)
            .collect()
    );
    let allowed = allowed();
    assert!(!allowed["scheduler"].contains("kubelet"));
    assert!(!allowed["kubelet"].contains("cluster"));
}
