//! The documentation stays true to the repository: every relative link of `README.md`,
//! `CONTRIBUTING.md` and `docs/*.md` names a file or folder that exists (and, for a page, one
//! of its headings); every path `CONTRIBUTING.md` names in backticks exists; the reference
//! tables of `docs/properties.md` and `docs/scenarios.md` name exactly the properties of the
//! catalogue and the built-in scenarios. Each check is also run on a page made to break it, so
//! that it is seen to fail.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path as the messages show it: from the repository's root.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The pages checked: README, CONTRIBUTING, every page of `docs/`, the examples' README.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![
        root().join("README.md"),
        root().join("CONTRIBUTING.md"),
        root().join("examples/manifests/README.md"),
    ];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    assert!(docs.len() >= 10, "docs/ has only {docs:?}");
    out.extend(docs);
    out
}

/// The lines of a page outside its fenced code blocks.
fn prose(page: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in page.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// A line without its inline code spans (`` `…` ``), which hold no links.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
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

/// The anchors of a page's headings, as GitHub makes them (a repeated one gets `-1`, `-2`, …).
fn anchors(page: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose(page) {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if hashes == 0 || hashes > 6 {
            continue;
        }
        let Some(text) = line[hashes..].strip_prefix(' ') else {
            continue;
        };
        let base = slug(text);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of a page's inline links and images, `[…](target)`, with their lines.
fn links(page: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose(page) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else {
                break;
            };
            // `[text](target "title")`: the target is up to the first space.
            let target = after[..end].split(' ').next().unwrap_or("").to_string();
            out.push((n, target));
            rest = &after[end..];
        }
    }
    out
}

/// What is wrong with the relative links of `page` (at `path`): a target that does not exist,
/// or an anchor that is not a heading of the page it names.
fn broken_links(path: &Path, page: &str) -> Vec<String> {
    let dir = path.parent().expect("a page is in a folder");
    let mut out = Vec::new();
    for (line, target) in links(page) {
        if target.is_empty() {
            out.push(format!("{}:{line}: an empty link", shown(path)));
            continue;
        }
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((f, a)) => (f, Some(a)),
            None => (target.as_str(), None),
        };
        let file_path = dir.join(file);
        if !file.is_empty() && !file_path.exists() {
            out.push(format!(
                "{}:{line}: `{target}`: {} does not exist",
                shown(path),
                shown(&file_path)
            ));
            continue;
        }
        if file.ends_with('/') && !file_path.is_dir() {
            out.push(format!(
                "{}:{line}: `{target}` is not a folder",
                shown(path)
            ));
            continue;
        }
        if let Some(anchor) = anchor {
            let is_page = file.is_empty() || file.ends_with(".md");
            if !is_page {
                out.push(format!(
                    "{}:{line}: `{target}`: an anchor into a file that is not a page",
                    shown(path)
                ));
                continue;
            }
            let known = if file.is_empty() {
                anchors(page)
            } else {
                anchors(&read(&file_path))
            };
            if !known.contains(anchor) {
                out.push(format!(
                    "{}:{line}: `{target}`: no heading of {} has the anchor #{anchor}",
                    shown(path),
                    shown(&file_path)
                ));
            }
        }
    }
    out
}

#[test]
fn every_relative_link_names_something_that_exists() {
    let mut broken = Vec::new();
    let mut count = 0;
    for p in pages() {
        let page = read(&p);
        count += links(&page).len();
        broken.extend(broken_links(&p, &page));
    }
    assert!(count > 300, "only {count} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_check_fails_on_a_broken_link() {
    let page = "# Title\n\n## A section\n\n\
        [fine](#a-section) [fine](README.md#two-commands-on-a-fresh-machine) \
        `[in code](nowhere.md)`\n\
        [gone](nowhere.md) [bad anchor](#no-such-section) \
        [bad anchor elsewhere](README.md#no-such-section) [a file as a folder](README.md/)\n\
        ```\n[in a block](nowhere-either.md)\n```\n";
    let broken = broken_links(&root().join("page.md"), page);
    assert_eq!(broken.len(), 4, "{broken:#?}");
    for (b, says) in broken.iter().zip([
        "nowhere.md",
        "#no-such-section",
        "README.md#no-such-section",
        "README.md/",
    ]) {
        assert!(b.contains(says), "{b}");
    }
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let page = "# Swarm checking: random walks\n## `podcheck check -f`: your manifests\n\
        ## Twice\n## Twice\n```\n# not a heading\n```\n";
    let a = anchors(page);
    let want = [
        "swarm-checking-random-walks",
        "podcheck-check--f-your-manifests",
        "twice",
        "twice-1",
    ];
    assert_eq!(a, want.iter().map(|s| s.to_string()).collect(), "{a:?}");
}

/// The paths a page names in backticks: a span of path characters with a `/`, or ending in a
/// file extension the repository uses. A placeholder (`model/src/<name>.rs`) is checked up to
/// it; an anchor (`docs/sources.md#…`) as in a link.
fn named_paths(page: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose(page) {
        for (i, span) in line.split('`').enumerate() {
            if i % 2 == 0 {
                continue;
            }
            let pathlike = span
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-/<>#*".contains(c));
            let extension = [".rs", ".md", ".yaml", ".toml", ".snap", ".json"]
                .iter()
                .any(|x| span.split('#').next().unwrap_or("").ends_with(x));
            // An annotation (`podcheck.dev/plans`) or a flag is no path.
            let other = span.starts_with("--") || span.starts_with("podcheck.dev/");
            if pathlike && (span.contains('/') || extension) && !other {
                out.push((n, span.to_string()));
            }
        }
    }
    out
}

/// What is wrong with the paths `page` names: each is read from the repository's root.
fn missing_paths(name: &str, page: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (line, span) in named_paths(page) {
        let (path, anchor) = match span.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (span.as_str(), None),
        };
        // A placeholder or a pattern: the part before it must exist.
        let cut = path.find(['<', '*']).unwrap_or(path.len());
        let (checked, whole) = (&path[..cut], cut == path.len());
        let checked = if whole {
            checked
        } else {
            &checked[..checked.rfind('/').map_or(0, |i| i + 1)]
        };
        let full = root().join(checked);
        if !full.exists() {
            out.push(format!("{name}:{line}: `{span}` does not exist"));
        } else if whole && checked.ends_with('/') && !full.is_dir() {
            out.push(format!("{name}:{line}: `{span}` is not a folder"));
        } else if let Some(anchor) = anchor {
            if !anchors(&read(&full)).contains(anchor) {
                out.push(format!("{name}:{line}: `{span}`: no such heading"));
            }
        }
    }
    out
}

#[test]
fn every_path_contributing_names_exists() {
    let page = read(&root().join("CONTRIBUTING.md"));
    let named = named_paths(&page);
    assert!(named.len() > 40, "only {} paths found", named.len());
    let missing = missing_paths("CONTRIBUTING.md", &page);
    assert!(
        missing.is_empty(),
        "CONTRIBUTING.md names paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_path_check_fails_on_a_missing_path() {
    // The unknown anchor is put together here, so that `tests/sources.rs` (which checks every
    // anchor of `docs/sources.md` the sources cite) does not read it as a citation.
    let page = concat!(
        "`model/src/cluster.rs` `model/src/<name>.rs` `Cargo.toml` ",
        "`docs/sources.md#kubelet-crash-back-off` `cargo test --profile tests`\n",
        "`traces/tests/snapshots/` `model/nowhere/<name>.rs` `Cargo.toml/` `docs/sources.md",
        "#no-such-source` `nowhere.rs`\n"
    );
    let missing = missing_paths("page", page);
    assert_eq!(missing.len(), 5, "{missing:#?}");
    for (m, says) in missing.iter().zip([
        "traces/tests/snapshots/",
        "model/nowhere/<name>.rs",
        "Cargo.toml/",
        "no-such-source",
        "nowhere.rs",
    ]) {
        assert!(m.contains(says), "{m}");
    }
}

/// The names a reference page's tables headed `| key |` give in their first column, each
/// with the row's second column and its line: every backticked name of the first cell.
fn table_names(page: &str, key: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    // Whether the lines are in a table headed by `key`, and past its header.
    let mut in_table = false;
    for (n, line) in prose(page) {
        let Some(row) = line.strip_prefix('|') else {
            in_table = false;
            continue;
        };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        if !in_table {
            in_table = cells[0] == key;
            continue;
        }
        if cells[0].starts_with("---") {
            continue;
        }
        let second = cells.get(1).copied().unwrap_or("").to_string();
        for (i, span) in cells[0].split('`').enumerate() {
            if i % 2 == 1 {
                out.push((n, span.to_string(), second.clone()));
            }
        }
    }
    out
}

/// What is wrong with a reference page against the names it must give (each with the second
/// column it must have, if any): one missing, one unknown, one given twice, a wrong column.
fn reference_errors(
    name: &str,
    page: &str,
    key: &str,
    want: &BTreeMap<String, Option<String>>,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut given: BTreeMap<String, usize> = BTreeMap::new();
    for (line, item, second) in table_names(page, key) {
        match want.get(&item) {
            None => out.push(format!("{name}:{line}: `{item}` is not in the code")),
            Some(Some(w)) if *w != second => out.push(format!(
                "{name}:{line}: `{item}` is said to be `{second}`, the code says `{w}`"
            )),
            Some(_) => {}
        }
        if let Some(first) = given.insert(item.clone(), line) {
            out.push(format!(
                "{name}:{line}: `{item}` is given again (first on line {first})"
            ));
        }
    }
    for item in want.keys() {
        if !given.contains_key(item) {
            out.push(format!("{name}: `{item}` is missing"));
        }
    }
    out
}

fn properties_wanted() -> BTreeMap<String, Option<String>> {
    podcheck_properties::catalogue::all()
        .iter()
        .map(|d| (d.name.to_string(), Some(d.kind.as_str().to_string())))
        .collect()
}

fn scenarios_wanted() -> BTreeMap<String, Option<String>> {
    podcheck_input::catalogue::builtin()
        .into_iter()
        .map(|s| (s.name, None))
        .collect()
}

#[test]
fn the_properties_page_names_every_property_of_the_catalogue_and_no_other() {
    let want = properties_wanted();
    assert!(want.len() > 90, "{}", want.len());
    let page = read(&root().join("docs/properties.md"));
    let errors = reference_errors("docs/properties.md", &page, "property", &want);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_scenarios_page_names_every_built_in_scenario_and_no_other() {
    let want = scenarios_wanted();
    assert!(want.len() > 70, "{}", want.len());
    let page = read(&root().join("docs/scenarios.md"));
    let errors = reference_errors("docs/scenarios.md", &page, "scenario", &want);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_reference_check_fails_on_a_stale_page() {
    let want = properties_wanted();
    let page = read(&root().join("docs/properties.md"));
    assert!(reference_errors("p", &page, "property", &want).is_empty());
    // A property left out, one that does not exist, one twice, one of the wrong kind.
    let first = table_names(&page, "property")[0].1.clone();
    let stale = page
        .lines()
        .map(|l| {
            if l.starts_with(&format!("| `{first}` |")) {
                "| `no_such_property` | always | x | x |\n| `backoff_bounded` | always | x | x |"
                    .to_string()
            } else {
                l.replace(
                    "| `job_completes` | sometimes |",
                    "| `job_completes` | always |",
                )
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let errors = reference_errors("p", &stale, "property", &want);
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(errors
        .iter()
        .any(|e| e.contains("`no_such_property` is not in the code")));
    assert!(errors
        .iter()
        .any(|e| e.contains("`backoff_bounded` is given again")));
    assert!(errors
        .iter()
        .any(|e| e.contains("`job_completes` is said to be `always`")));
    assert!(errors
        .iter()
        .any(|e| e.contains(&format!("`{first}` is missing"))));

    let scenarios = scenarios_wanted();
    let page = read(&root().join("docs/scenarios.md"));
    let stale = page.replace("| `healthy` |", "| `healthy-ish` |");
    let errors = reference_errors("s", &stale, "scenario", &scenarios);
    assert_eq!(errors.len(), 2, "{errors:#?}");
}
