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
use podcheck_input::manifest::Placed;
use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, LogicalLocation, Message, MultiformatMessageString,
    Notification, PhysicalLocation, PropertyBag, Region, ReportingConfiguration,
    ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif, Tool, ToolComponent,
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

/// Where a finding's fix goes: its workload's manifest (else the first workload's of the
/// application, the plan scenario's own), at the line of [`about::fix_location`].
fn location(
    about: &About,
    property: &str,
    placed: &[Placed],
    cwd: &Path,
) -> Option<(Location, String)> {
    let p = about
        .workload
        .as_deref()
        .and_then(|w| placed.iter().find(|p| p.workload == w))
        .or_else(|| placed.first())?;
    let container = about
        .container
        .as_deref()
        .filter(|_| about.workload.is_some());
    let loc = about::fix_location(p, container, property);
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

/// The SARIF log of a `check -f` run: its plan scenarios checked, in order, and where each
/// application's workloads were written (by application name).
pub fn log(
    results: &[Checked],
    causes: &[podcheck::Cause],
    placed: &BTreeMap<String, Vec<Placed>>,
    cwd: &Path,
) -> Sarif {
    let rules = rules();
    let index: BTreeMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    let none = Vec::new();
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
