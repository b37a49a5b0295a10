//! The modules of `podcheck-properties` import in one direction: the catalogue and the search
//! below, a property's result above them, the vacuity warnings and the Stateright cross-check
//! above the result, the checking above those, and random-walk checking on top. This test
//! reads the sources and fails on any import against that order, naming the file and the
//! module it reaches for; it also fails if the order itself has a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module of the crate and the modules it may use.
fn allowed() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
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
    // Random walks over the same properties, confirmed as the checking confirms its traces.
    m.insert("simulate", vec!["catalogue", "check", "explore", "result"]);
    // The root declares the modules and names their items with plain paths.
    m.insert("lib", vec![]);
    m.into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
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

/// The imports against the table, one line each, for the files of `src` (name, text).
fn problems(allowed: &BTreeMap<&str, BTreeSet<&str>>, files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in files {
        let module = name.trim_end_matches(".rs");
        let Some(may_use) = allowed.get(module) else {
            out.push(format!(
                "{name}: module `{module}` has no place in the layer table of this test"
            ));
            continue;
        };
        for used in crate_paths(text) {
            if used == module || used == "self" {
                continue;
            }
            if !may_use.contains(used.as_str()) {
                out.push(format!(
                    "{name}: `{module}` uses `crate::{used}`, which is not below it"
                ));
            }
        }
    }
    out
}

/// The modules of the table in an order where each comes after every module it may use, or
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

#[test]
fn modules_import_in_one_direction() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&src).expect("properties/src is readable") {
        let path = entry.expect("a directory entry").path();
        assert!(
            !path.is_dir(),
            "{}: a folder of modules; give this test its files",
            path.display()
        );
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            files.push((name, text));
        }
    }
    files.sort();
    assert!(files.len() >= 12, "only {} files were read", files.len());
    let allowed = allowed();
    if let Err(circle) = one_direction(&allowed) {
        panic!("the layer table has a circle: {circle:?} cannot be put in one order");
    }
    let problems = problems(&allowed, &files);
    assert!(
        problems.is_empty(),
        "imports against the layer order:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_layer_check_sees_a_bad_import() {
    let paths = crate_paths(
        "use crate::check::PropertyResult;\nuse crate::{result::Timing, explore::Run};\n// crate::simulate in a comment\n/// [`crate::vacuity`]\n",
    );
    assert_eq!(
        paths,
        ["check", "explore", "result"]
            .into_iter()
            .map(String::from)
            .collect()
    );
    let allowed = allowed();
    // The circle this order ended: the result read from the checking.
    let bad = [(
        "vacuity.rs".to_string(),
        "use crate::check::PropertyResult;\n".to_string(),
    )];
    assert_eq!(
        problems(&allowed, &bad),
        ["vacuity.rs: `vacuity` uses `crate::check`, which is not below it"]
    );
    let unknown = [("new.rs".to_string(), String::new())];
    assert_eq!(problems(&allowed, &unknown).len(), 1);
    // A table with a circle is refused.
    let mut circular = allowed.clone();
    circular.get_mut("result").unwrap().insert("check");
    assert_eq!(
        one_direction(&circular).unwrap_err(),
        ["check", "cross_check", "result", "simulate", "vacuity"]
    );
}
