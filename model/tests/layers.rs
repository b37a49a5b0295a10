//! The workspace's crates depend in one direction: podcheck-k8s (upstream logic) →
//! podcheck-input (the scenario, manifests, plans) → podcheck-model → podcheck-properties →
//! podcheck-traces → podcheck (the command line); `k8s-openapi` is the manifest reader's
//! alone. Within the model, the input crate and the properties crate, modules import in one
//! direction too: for the model, scenario → state → what sits below the components → the
//! components (none of which imports another) → the cluster's composition. These tests read
//! the manifests and the sources and fail on any dependency or import against that order,
//! naming the file and what it reaches for; each table is checked to have no circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module of the model and the modules it may use. The upstream logic,
/// `crate::k8s`, is the crate `podcheck-k8s` (re-exported), below them all; the scenario is
/// the crate `podcheck-input`, below too.
fn allowed() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let below_components = [
        "state",
        "context",
        "apiserver",
        "derived",
        "runtime",
        "kubectl",
    ];
    let mut m: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    m.insert("state", vec![]);
    m.insert("context", vec!["state"]);
    m.insert("kubectl", vec!["state", "context"]);
    m.insert("derived", vec!["state", "context", "kubectl"]);
    m.insert("apiserver", vec!["state", "context"]);
    m.insert("runtime", vec!["state"]);
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
    m.insert("symmetry", vec!["state"]);
    let everything: Vec<&str> = m.keys().copied().collect();
    m.insert("cluster", everything);
    // What each action reads and writes: over the cluster's actions and the components'
    // (a fault's, by what the scenario says it does).
    m.insert(
        "footprint",
        vec![
            "state",
            "context",
            "cluster",
            "kubelet",
            "controllers",
            "proxy",
            "scheduler",
            "faults",
            "drain",
        ],
    );
    m.insert("lib", vec![]);
    m.into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}

/// Each top-level module of the input crate and the modules it may use: the scenario's
/// schema first, then what reads into a scenario (the built-in catalogue, users'
/// manifests), then the fault plans over a manifest's scenario.
fn input_allowed() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let mut m: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    m.insert("files", vec![]);
    m.insert("spec", vec![]);
    m.insert("catalogue", vec!["spec"]);
    m.insert("manifest", vec!["spec"]);
    m.insert("cone", vec!["spec"]);
    m.insert("plan", vec!["spec", "manifest", "cone"]);
    m.insert("lib", vec![]);
    m.into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}

/// Each module of `podcheck-properties` and the modules it may use: the catalogue and the
/// search below, a property's result above them, the vacuity warnings and the Stateright
/// cross-check above the result, the checking above those, and what reads a check (the
/// drawing of its graph, random-walk checking) on top.
fn properties_allowed() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let mut m: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    // The properties themselves: typed conditions on the model's states and steps.
    m.insert("catalogue", vec![]);
    // Progress lines and the bounds that stop a phase.
    m.insert("progress", vec![]);
    // Findings of a check apart from Kubernetes behaviour.
    m.insert("findings", vec![]);
    // The state graph and its search, and what is judged on the graph.
    m.insert("explore", vec!["progress"]);
    m.insert("liveness", vec!["explore", "progress"]);
    m.insert("timing", vec!["explore", "liveness", "progress"]);
    // One property's verdict, trace, lasso and times.
    m.insert("result", vec!["catalogue", "explore", "timing"]);
    // Read the results: what a check never saw happen, and Stateright's own verdicts.
    m.insert("vacuity", vec!["result"]);
    m.insert("cross_check", vec!["catalogue", "result"]);
    // The checking, over everything below it.
    m.insert(
        "check",
        vec![
            "catalogue",
            "explore",
            "liveness",
            "timing",
            "progress",
            "result",
            "vacuity",
            "cross_check",
        ],
    );
    // What DOT draws of a check's graph (a renderer only renders it).
    m.insert("drawing", vec!["check", "explore"]);
    // Random walks over the same properties, confirmed as the checking confirms its traces.
    m.insert("simulate", vec!["catalogue", "check", "explore", "result"]);
    m.insert("lib", vec![]);
    m.into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}

/// The modules of a table in an order where each comes after every module it may use, or
/// the modules left on a circle.
fn one_direction(allowed: &BTreeMap<&str, BTreeSet<&str>>) -> Result<Vec<String>, Vec<String>> {
    let mut placed: Vec<String> = Vec::new();
    let mut left: BTreeSet<&str> = allowed.keys().copied().collect();
    while !left.is_empty() {
        let ready: Vec<&str> = left
            .iter()
            .copied()
            .filter(|m| {
                allowed[m]
                    .iter()
                    .all(|u| placed.iter().any(|p| p == u) || !allowed.contains_key(u))
            })
            .collect();
        if ready.is_empty() {
            return Err(left.into_iter().map(String::from).collect());
        }
        for m in ready {
            left.remove(m);
            placed.push(m.to_string());
        }
    }
    Ok(placed)
}

/// The workspace's crates, bottom up: each may depend on the ones before it only. The
/// example crate, a user of podcheck, may depend on any.
const CRATES: [&str; 7] = [
    "podcheck-k8s",
    "podcheck-input",
    "podcheck-model",
    "podcheck-properties",
    "podcheck-traces",
    "podcheck",
    "podcheck-in-cargo-test",
];

/// Where `k8s-openapi` may appear: the manifest reader's crate, and the root's tests.
const K8S_OPENAPI: [(&str, &str); 2] = [
    ("podcheck-input", "dependencies"),
    ("podcheck", "dev-dependencies"),
];

/// A Cargo manifest's package name and its dependencies, each with its table
/// (`dependencies`, `dev-dependencies`, `build-dependencies`).
fn manifest_deps(text: &str) -> (String, Vec<(String, String)>) {
    let mut name = String::new();
    let mut section = String::new();
    let mut deps = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(h) = line.strip_prefix('[') {
            section = h.trim_end_matches(']').trim().to_string();
            // `[dependencies.foo]`: the dependency is the header's.
            for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
                if let Some(dep) = section.strip_prefix(&format!("{table}.")) {
                    deps.push((dep.to_string(), table.to_string()));
                }
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        if section == "package" && key == "name" {
            name = value.trim().trim_matches('"').to_string();
        }
        // `[target.'cfg(…)'.dependencies]` counts as `dependencies`.
        let table = section.rsplit('.').next().unwrap_or("");
        if ["dependencies", "dev-dependencies", "build-dependencies"].contains(&table)
            && !section.starts_with("workspace")
        {
            let dep = key.trim_end_matches(".workspace").trim_matches('"');
            deps.push((dep.to_string(), table.to_string()));
        }
    }
    (name, deps)
}

/// What is wrong with one crate's dependencies against [`CRATES`] and [`K8S_OPENAPI`].
fn crate_problems(file: &str, text: &str) -> Vec<String> {
    let (name, deps) = manifest_deps(text);
    let Some(rank) = CRATES.iter().position(|c| *c == name) else {
        return vec![format!(
            "{file}: crate `{name}` has no place in the crate order of this test"
        )];
    };
    let mut problems = Vec::new();
    for (dep, table) in deps {
        if let Some(r) = CRATES.iter().position(|c| *c == dep) {
            if r >= rank && name != "podcheck-in-cargo-test" {
                problems.push(format!(
                    "{file}: `{name}` depends on `{dep}` ({table}), which is not below it"
                ));
            }
        }
        if dep == "k8s-openapi" && !K8S_OPENAPI.contains(&(name.as_str(), table.as_str())) {
            problems.push(format!(
                "{file}: `{name}` depends on `k8s-openapi` ({table}): only the manifest reader does"
            ));
        }
    }
    problems
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

/// What is wrong with the imports of the crate whose sources are in `src`, against its
/// module table, and how many files were read.
fn module_problems(
    src: &Path,
    allowed: &BTreeMap<&str, BTreeSet<&str>>,
    always: &[&str],
) -> (Vec<String>, usize) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(src).expect("under src");
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
            if used == top || used == "self" || always.contains(&used.as_str()) {
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
    (problems, checked)
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the model is in the workspace")
        .to_path_buf()
}

#[test]
fn modules_import_in_one_direction() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // `crate::k8s` is the crate below, re-exported: every module may use it.
    let (problems, checked) = module_problems(&src, &allowed(), &["k8s"]);
    assert!(checked >= 30, "only {checked} model files were read");
    assert!(
        problems.is_empty(),
        "imports against the layer order:\n{}",
        problems.join("\n")
    );
}

#[test]
fn input_modules_import_in_one_direction() {
    let src = workspace_root().join("input/src");
    let (problems, checked) = module_problems(&src, &input_allowed(), &[]);
    assert!(checked >= 10, "only {checked} input files were read");
    assert!(
        problems.is_empty(),
        "imports against the layer order of the input crate:\n{}",
        problems.join("\n")
    );
}

#[test]
fn properties_modules_import_in_one_direction() {
    let src = workspace_root().join("properties/src");
    let (problems, checked) = module_problems(&src, &properties_allowed(), &[]);
    assert!(checked >= 12, "only {checked} properties files were read");
    assert!(
        problems.is_empty(),
        "imports against the layer order of the properties crate:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_layer_table_is_one_order() {
    for (name, table) in [
        ("model", allowed()),
        ("input", input_allowed()),
        ("properties", properties_allowed()),
    ] {
        if let Err(circle) = one_direction(&table) {
            panic!("the {name} layer table has a circle: {circle:?} cannot be put in one order");
        }
    }
}

#[test]
fn crates_depend_in_one_direction() {
    let root = workspace_root();
    let text = std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace manifest");
    // `members = ["k8s", …]`: every member, and the root's own package.
    let members = text
        .split_once("members")
        .and_then(|(_, rest)| rest.split_once('['))
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("a members list");
    let mut files: Vec<String> = members
        .split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .map(|m| format!("{m}/Cargo.toml"))
        .collect();
    files.push("Cargo.toml".into());
    let mut problems = Vec::new();
    let mut names = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(root.join(file)).expect("a member's manifest");
        names.insert(manifest_deps(&text).0);
        problems.extend(crate_problems(file, &text));
    }
    assert_eq!(
        names,
        CRATES.iter().map(|c| c.to_string()).collect(),
        "the workspace's crates and this test's order"
    );
    assert!(
        problems.is_empty(),
        "dependencies against the crate order:\n{}",
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
    let input = input_allowed();
    assert!(!input["spec"].contains("manifest"));
    assert!(!input["manifest"].contains("plan"));
    // The circle the properties' order ended: the result read from the checking.
    let properties = properties_allowed();
    assert!(!properties["vacuity"].contains("check"));
    let mut circular = properties.clone();
    circular.get_mut("result").unwrap().insert("check");
    assert_eq!(
        one_direction(&circular).unwrap_err(),
        [
            "check",
            "cross_check",
            "drawing",
            "result",
            "simulate",
            "vacuity"
        ]
    );
    assert!(one_direction(&properties).is_ok());
}

#[test]
fn the_crate_check_sees_a_bad_dependency() {
    // The model reaching up for the properties, and for the API types.
    let model = "[package]\nname = \"podcheck-model\"\n\n[dependencies]\npodcheck-input.workspace = true\npodcheck-properties = { path = \"../properties\" }\n\n[dev-dependencies]\nk8s-openapi = \"0.29\"\n";
    let problems = crate_problems("model/Cargo.toml", model);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("`podcheck-properties`"),
        "{problems:?}"
    );
    assert!(problems[1].contains("`k8s-openapi`"), "{problems:?}");
    // The input crate below the model, with the API types: as it should be.
    let input = "[package]\nname = \"podcheck-input\"\n[dependencies]\npodcheck-k8s.workspace = true\nk8s-openapi = { version = \"0.29\" }\n";
    assert!(crate_problems("input/Cargo.toml", input).is_empty());
    // A crate that reaches for itself or one beside it.
    let k8s =
        "[package]\nname = \"podcheck-k8s\"\n[dependencies.podcheck-input]\npath = \"../input\"\n";
    assert_eq!(crate_problems("k8s/Cargo.toml", k8s).len(), 1);
}
