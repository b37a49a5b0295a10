//! `podcheck check -f … --format sarif`: the findings as a SARIF 2.1.0 log (OASIS SARIF
//! v2.1.0), the form GitHub code scanning and GitLab read. One rule (`reportingDescriptor`)
//! per property of the catalogue; one result per finding (the same property about the same
//! workload under several plans is one, [`podcheck::causes`]; an operator hazard is a warning,
//! not an error), at the manifest line where its fix
//! goes ([`podcheck::about::fix_location`]), with the plan scenario and the trace in its
//! message; what the check could not decide (a scenario stopped at a bound) and the vacuity
//! warnings as notifications of the run. This module only renders: what a finding is about
//! and where its fix goes are the library's.

use podcheck::about::{self, About};
use podcheck::Checked;
use podcheck_input::manifest::{Placed, PlacedBudget};

/// Where an application's workloads and its PodDisruptionBudgets were written.
pub type Placements = (Vec<Placed>, Vec<PlacedBudget>);
use serde_sarif::sarif::{
    ArtifactChange, ArtifactContent, ArtifactLocation, Fix, Invocation, Location, LogicalLocation,
    Message, MultiformatMessageString, Notification, PhysicalLocation, PropertyBag, Region,
    Replacement, ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultLevel,
    Run, Sarif, Tool, ToolComponent,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `uriBaseId` of every file: the working directory, where `podcheck` ran.
pub const SRCROOT: &str = "%SRCROOT%";

/// The SARIF 2.1.0 JSON schema's address, as the log's `$schema`.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// A string map as a SARIF property bag.
fn bag(entries: impl IntoIterator<Item = (&'static str, serde_json::Value)>) -> PropertyBag {
    PropertyBag::builder()
        .additional_properties(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect::<BTreeMap<_, _>>(),
        )
        .build()
}

/// One rule per property of the catalogue: its sentence, what to change, its source.
fn rules() -> Vec<ReportingDescriptor> {
    podcheck_properties::catalogue::all()
        .into_iter()
        .map(|p| {
            let fix = about::fix(p.name);
            ReportingDescriptor::builder()
                .id(p.name)
                .short_description(MultiformatMessageString::builder().text(p.sentence).build())
                .help(
                    MultiformatMessageString::builder()
                        .text(format!(
                            "{} (The property, its kind and source: docs/properties.md; where the fix goes: docs/sarif.md.)",
                            fix.help
                        ))
                        .markdown(format!(
                            "{}\n\nThe property, its kind and its source: `docs/properties.md`; where the fix goes: `docs/sarif.md`.",
                            fix.help
                        ))
                        .build(),
                )
                .default_configuration(
                    ReportingConfiguration::builder()
                        .level(serde_json::json!("error"))
                        .build(),
                )
                .properties(bag([
                    ("kind", p.kind.as_str().into()),
                    ("source", p.source.into()),
                    ("layer", p.layer.into()),
                    (
                        "tags",
                        serde_json::json!(["kubernetes", "pod-lifecycle", p.kind.as_str()]),
                    ),
                ]))
                .build()
        })
        .collect()
}

/// Percent-encodes a path for a URI: every byte but the unreserved ones and `/`.
fn uri_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Where a file named `origin` (as given to `-f`) is, for SARIF: relative to `cwd` (with
/// `uriBaseId` [`SRCROOT`]) where it is under it, else an absolute `file:` URI; `None` for
/// stdin, which has no file.
pub fn artifact(origin: &str, cwd: &Path) -> Option<ArtifactLocation> {
    if origin == "-" {
        return None;
    }
    let path = Path::new(origin);
    let abs = std::fs::canonicalize(cwd.join(path)).unwrap_or_else(|_| cwd.join(path));
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let slashed = |p: &Path| {
        p.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .filter(|c| c != "/")
            .collect::<Vec<_>>()
            .join("/")
    };
    Some(match abs.strip_prefix(&cwd) {
        Ok(rel) => ArtifactLocation::builder()
            .uri(uri_path(&slashed(rel)))
            .uri_base_id(SRCROOT)
            .build(),
        Err(_) => ArtifactLocation::builder()
            .uri(format!("file:///{}", uri_path(&slashed(&abs))))
            .build(),
    })
}

/// `file:///…/` of a folder, as the value of [`SRCROOT`].
fn folder_uri(dir: &Path) -> String {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let parts: Vec<String> = dir
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .filter(|c| c != "/")
        .collect();
    if parts.is_empty() {
        "file:///".into()
    } else {
        format!("file:///{}/", uri_path(&parts.join("/")))
    }
}

/// Where a finding's fix goes: the PodDisruptionBudget that selects its workload's pods for
/// a property whose fix is in one ([`about::budget_fix_location`]); else its workload's
/// manifest (else the first workload's of the application, the plan scenario's own), at the
/// line of [`about::fix_location`].
fn location(
    about: &About,
    property: &str,
    placed: &Placements,
    cwd: &Path,
) -> Option<(Location, String)> {
    let (workloads, budgets) = placed;
    let in_budget = about
        .workload
        .as_deref()
        .and_then(|w| about::budget_fix_location(budgets, w, property));
    let (p, container, loc) = match in_budget {
        Some((b, loc)) => (b, None, loc),
        None => {
            let p = about
                .workload
                .as_deref()
                .and_then(|w| workloads.iter().find(|p| p.workload == w))
                .or_else(|| workloads.first())?;
            let container = about
                .container
                .as_deref()
                .filter(|_| about.workload.is_some());
            (p, container, about::fix_location(p, container, property))
        }
    };
    let kind = p.tree.get("kind").and_then(|k| k.str()).unwrap_or("");
    let what = match container {
        Some(c) => format!("{kind}/{}, container {c}", p.workload),
        None => format!("{kind}/{}", p.workload),
    };
    let logical = LogicalLocation::builder()
        .name(p.workload.clone())
        .fully_qualified_name(match container {
            Some(c) => format!("{kind}/{}/{c}", p.workload),
            None => format!("{kind}/{}", p.workload),
        })
        .kind(if container.is_some() {
            "container"
        } else {
            "object"
        })
        .build();
    let physical = artifact(&p.origin, cwd).map(|a| {
        let region = if loc.line > 0 {
            Region::builder()
                .start_line(loc.line as i64)
                .start_column(loc.column.max(1) as i64)
                .build()
        } else {
            Region::builder().start_line(1).build()
        };
        PhysicalLocation::builder()
            .artifact_location(a)
            .region(region)
            .build()
    });
    let location = match physical {
        Some(ph) => Location::builder()
            .physical_location(ph)
            .logical_locations(vec![logical])
            .build(),
        None => Location::builder().logical_locations(vec![logical]).build(),
    };
    Some((location, what))
}

/// The region of lines `first..=last` (from 1) of `text`, from the start of `first` to the
/// start of the line after `last` (the end of `last` where no line follows it); where `last`
/// is `first - 1`, the empty region at the start of `first`. Columns count UTF-16 code units,
/// SARIF's default `columnKind`.
fn lines_region(text: &str, first: usize, last: usize) -> Region {
    let lines: Vec<&str> = text.split('\n').collect();
    // `split` gives one more piece than there are line ends: the text after the last one.
    let (end_line, end_column) = if last < first || last < lines.len() - 1 {
        (last + 1, 1)
    } else {
        let tail = lines.get(last - 1).copied().unwrap_or("");
        (last, tail.encode_utf16().count() + 1)
    };
    Region::builder()
        .start_line(first as i64)
        .start_column(1)
        .end_line(end_line as i64)
        .end_column(end_column as i64)
        .build()
}

/// A verified fix as SARIF's `fix`: each file's changes as replacements of the file as read;
/// `None` where it changes only stdin, which has no location.
fn sarif_fix(
    fix: &podcheck::fix::Fix,
    earlier: &[&podcheck::fix::Fix],
    read: &[(String, String)],
    cwd: &Path,
) -> Option<Fix> {
    let changes = fix
        .diffs
        .iter()
        .filter_map(|d| {
            let (name, text) = read.iter().find(|(n, _)| n == &d.file)?;
            let location = artifact(name, cwd)?;
            let replacements = d
                .against_read
                .iter()
                .map(|(first, last, new)| {
                    Replacement::builder()
                        .deleted_region(lines_region(text, *first, *last))
                        .inserted_content(ArtifactContent::builder().text(new.clone()).build())
                        .build()
                })
                .collect::<Vec<_>>();
            Some(
                ArtifactChange::builder()
                    .artifact_location(location)
                    .replacements(replacements)
                    .build(),
            )
        })
        .collect::<Vec<_>>();
    // A fix that changes stdin too is not given in part.
    if changes.is_empty() || changes.len() < fix.diffs.len() {
        return None;
    }
    let with = if earlier.is_empty() {
        String::new()
    } else {
        format!(
            " Checked with the fixes found before it made: {}.",
            earlier
                .iter()
                .map(|f| f.what.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        )
    };
    Some(
        Fix::builder()
            .description(
                Message::builder()
                    .text(format!(
                        "{}: {} ({}). Verified: the changed files re-read and re-checked under {} plan scenario{}, every one complete; the finding is gone and no finding is new.{with}",
                        fix.what,
                        fix.why,
                        fix.source,
                        fix.recheck.scenarios,
                        if fix.recheck.scenarios == 1 { "" } else { "s" },
                    ))
                    .build(),
            )
            .artifact_changes(changes)
            .build(),
    )
}

/// The SARIF log of a `check -f` run: its plan scenarios checked, in order, and where each
/// application's workloads were written (by application name); with `fixes`
/// (`--fixes`), each finding's verified fix as its result's `fixes`.
pub fn log(
    results: &[Checked],
    causes: &[podcheck::Cause],
    placed: &BTreeMap<String, Placements>,
    cwd: &Path,
    fixes: Option<&podcheck::fix::Fixes>,
) -> Sarif {
    let rules = rules();
    let index: BTreeMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    let none = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    let mut notes = Vec::new();
    // One result per cause: the same property about the same workload under several plans
    // is one, with the shortest trace among them.
    for c in causes {
        let f = &c.shown;
        let placed = placed.get(&f.application).unwrap_or(&none);
        let found = location(&f.about, &f.property, placed, cwd);
        let what = found
            .as_ref()
            .map(|(_, w)| w.clone())
            .unwrap_or_else(|| f.application.clone());
        let plans: Vec<&str> = c.under.iter().map(|u| u.scenario.as_str()).collect();
        let instead = c
            .hazard
            .map(|i| format!("\n\nAn operator hazard, not a manifest's: {i}."))
            .unwrap_or_default();
        let text = format!(
            "{what}: {} ({}; plan scenario{} `{}`){instead}\n\n{}",
            f.sentence,
            f.property,
            if plans.len() == 1 { "" } else { "s" },
            plans.join("`, `"),
            f.trace.trim_end()
        );
        let mut props = vec![
            ("application", f.application.clone().into()),
            ("plan", f.plan.name().into()),
            ("scenario", f.scenario.clone().into()),
        ];
        if plans.len() > 1 {
            props.push(("scenarios", serde_json::json!(plans)));
        }
        if let Some(w) = &f.about.workload {
            props.push(("workload", w.clone().into()));
        }
        if let Some(ctr) = &f.about.container {
            props.push(("container", ctr.clone().into()));
        }
        if let Some(n) = f.trace_steps {
            props.push(("traceSteps", n.into()));
        }
        if c.hazard.is_some() {
            props.push(("operatorHazard", true.into()));
        }
        // The verified fix, matched by what the fix search found before any fix: the
        // same plans and sizes as this check.
        let fix = fixes.and_then(|x| {
            let before = x.causes.iter().find(|b| {
                b.shown.application == f.application
                    && b.shown.property == f.property
                    && b.shown.about == f.about
            })?;
            Some((x, x.of(before), x.unfixed(before)))
        });
        let read_of = |x: &podcheck::fix::Fixes, fx: &podcheck::fix::Fix| {
            x.read
                .iter()
                .find(|(a, _)| a == &fx.application)
                .map(|(_, r)| r.clone())
                .unwrap_or_default()
        };
        let given = match &fix {
            Some((x, Some(fx), _)) => sarif_fix(fx, &x.before(fx), &read_of(x, fx), cwd),
            _ => None,
        };
        match &fix {
            Some((_, None, Some(n))) => props.push(("noVerifiedFix", n.why.clone().into())),
            Some((_, Some(fx), _)) if given.is_none() => props.push((
                "noVerifiedFix",
                format!(
                    "its verified fix ({}) changes what was read from stdin, which has no location here: podcheck fix -f - prints it as a diff",
                    fx.what
                )
                .into(),
            )),
            _ => {}
        }
        let mut r = SarifResult::builder()
            .rule_id(f.property.clone())
            .level(if c.hazard.is_some() {
                ResultLevel::Warning
            } else {
                ResultLevel::Error
            })
            .message(Message::builder().text(text).build())
            .properties(bag(props))
            .build();
        r.rule_index = index.get(f.property.as_str()).map(|&i| i as i64);
        r.locations = found.map(|(l, _)| vec![l]);
        r.fixes = given.map(|g| vec![g]);
        out.push(r);
    }
    for c in results {
        let name = &c.result.scenario.name;
        for w in &c.result.warnings {
            notes.push(note("warning", format!("{name}: {w}")));
        }
        if !c.result.complete {
            notes.push(note(
                "warning",
                format!(
                    "{name}: {}: what it did not decide is not reported",
                    crate::cli::check::run_end(&c.result)
                ),
            ));
        }
    }
    if fixes.is_none() && !causes.is_empty() {
        notes.push(note(
            "note",
            "fixes: not searched; give --fixes to have each finding's verified fix (the manifest change that removes it, re-checked under the same plans) as its result's `fixes`".into(),
        ));
    }
    if let Some(x) = fixes.filter(|x| !x.complete) {
        notes.push(note(
            "warning",
            format!(
                "fixes: a check of the fix search stopped at a bound (or was interrupted): {} of its {} findings without a verified fix",
                x.unfixed.len(),
                x.findings
            ),
        ));
    }
    let complete = results.iter().all(|c| c.result.complete);
    let driver = ToolComponent::builder()
        .name("podcheck")
        .version(env!("CARGO_PKG_VERSION"))
        .rules(rules)
        .build();
    let invocation = Invocation::builder()
        .execution_successful(complete)
        .tool_execution_notifications(notes)
        .build();
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .original_uri_base_ids(BTreeMap::from([(
            SRCROOT.to_string(),
            ArtifactLocation::builder().uri(folder_uri(cwd)).build(),
        )]))
        .invocations(vec![invocation])
        .results(out)
        .build();
    Sarif::builder()
        .schema(SCHEMA)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build()
}

fn note(level: &str, text: String) -> Notification {
    Notification::builder()
        .level(serde_json::json!(level))
        .message(Message::builder().text(text).build())
        .build()
}

/// The working directory, for relative URIs.
pub fn cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}
