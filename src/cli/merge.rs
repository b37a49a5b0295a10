//! `podcheck merge FILE…`: the shards' reports read, merged by the library
//! ([`podcheck::swarm::merge`]) and printed.

use crate::cli::args::Format;
use crate::cli::common::{load, BadInput};
use crate::cli::simulate::{exit_code, print_properties, print_traces, same_file, write_out};
use podcheck::swarm::{self, Merged, ShardReport};
use std::process::ExitCode;

/// Reads one shard report, naming the file in every error.
fn read_report(path: &str) -> Result<ShardReport, BadInput> {
    let text =
        std::fs::read_to_string(path).map_err(|e| BadInput(format!("cannot read {path}: {e}")))?;
    Ok(swarm::read_shard_report(path, &text)?)
}

/// `podcheck merge FILE…`.
pub fn run(
    files: Vec<String>,
    format: Format,
    out: Option<String>,
    traces: bool,
    catalogue_file: Option<String>,
) -> Result<ExitCode, BadInput> {
    if let Some(out) = &out {
        for f in &files {
            if same_file(out, f) {
                return Err(BadInput(format!(
                    "--out {out} is {f}, one of the reports to merge: the merged report would overwrite it; write it to another file"
                )));
            }
        }
        if let Some(c) = catalogue_file.as_deref().filter(|c| same_file(out, c)) {
            return Err(BadInput(format!(
                "--out {out} is {c}, the catalogue given with --catalogue: the merged report would overwrite it; write it to another file"
            )));
        }
    }
    let mut reports = Vec::new();
    for f in &files {
        reports.push((f.as_str(), read_report(f)?));
    }
    let Merged {
        report: merged,
        missing,
        model: m,
        defs,
    } = swarm::merge(
        &reports,
        || load(&catalogue_file).map_err(|BadInput(e)| podcheck::Error(e)),
        catalogue_file.as_deref(),
    )?;
    let count = merged.shards.count;
    // Every report is valid: only now a warning.
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|i| i.to_string()).collect();
        eprintln!(
            "warning: {} of {count} shards are missing ({}): merging the {} given; what they found stands, but the missing shards' walks were not run",
            missing.len(),
            list.join(", "),
            reports.len()
        );
    }
    let json = serde_json::to_string_pretty(&merged).map_err(|e| BadInput(e.to_string()))?;
    if let Some(path) = &out {
        write_out(path, &json)?;
    }
    match format {
        Format::Json => say!("{json}"),
        Format::Table => {
            say!(
                "{}  (Kubernetes {}, swarm: seed {}, {} of {count} shards{}, {} walks of up to {} steps, {} states visited)",
                merged.scenario,
                merged.kubernetes_version,
                merged.seed,
                merged.shards.merged.len(),
                if missing.is_empty() { "" } else { ", SOME MISSING" },
                merged.walks,
                merged.depth,
                merged.states_visited
            );
            print_properties(&merged.properties);
            if traces {
                print_traces(&m, &defs, &merged.properties)?;
            }
        }
    }
    Ok(exit_code(&merged.properties))
}
