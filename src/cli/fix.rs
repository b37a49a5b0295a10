//! `podcheck fix -f PATH`: each finding's verified fix ([`podcheck::fix`]) as a unified diff of
//! the user's own files, with the finding it removes and the re-check's result; `--write`
//! makes them.

use crate::cli::args::{Budget, Format, Size};
use crate::cli::check::Bounds;
use crate::cli::common::{stop_on_ctrl_c, BadInput};
use crate::cli::manifests::parse_plans;
use podcheck::fix::{FixOptions, Fixes};
use podcheck_properties::check::CheckOptions;
use std::process::ExitCode;

/// `podcheck fix`'s arguments.
#[derive(clap::Args)]
pub struct FixArgs {
    /// Your Kubernetes manifests: a file, a folder or `-` for stdin; repeatable (read as
    /// `check -f` reads them).
    #[arg(short = 'f', long = "filename", value_name = "PATH", required = true)]
    pub filename: Vec<String>,
    /// The fault plans to check and re-check, comma-separated (default: all, or each
    /// workload's `podcheck.dev/plans`).
    #[arg(long, value_name = "PLAN,...")]
    pub plan: Vec<String>,
    /// Make the fixes in the files (never to stdin).
    #[arg(long)]
    pub write: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Stop each check before the process's resident memory passes SIZE (as for check). A
    /// re-check stopped at a bound verifies no fix.
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::args::memory_size)]
    pub max_memory: Option<u64>,
    /// Time budget per plan scenario, of the check and of each re-check, in whole seconds,
    /// or `none` (default: 60).
    #[arg(long, value_name = "SECONDS|none", value_parser = crate::cli::args::budget)]
    pub budget: Option<Budget>,
    #[command(flatten)]
    pub size: Size,
}

/// `podcheck fix`: exit 0 when every finding has a verified fix (or there is none; an operator
/// hazard, which no manifest fixes, does not count, as for `check -f`), 1 when a finding is
/// left without one, 2 on bad input, 3 when the check before the fixes stopped at a bound.
pub fn run(a: FixArgs) -> Result<ExitCode, BadInput> {
    let plans = parse_plans(&a.plan)?;
    if a.write && a.filename.iter().any(|f| f == "-") {
        return Err(BadInput(
            "--write makes the fixes in your files: stdin (`-`) has none; leave out --write to see the diff, or give the file".into(),
        ));
    }
    let bounds = Bounds::new(a.max_memory, a.budget, true);
    let opts = FixOptions {
        plans,
        size: a.size.lib(),
        options: CheckOptions {
            threads: 1,
            // A check or re-check that runs past a second says how far it is on stderr, as
            // `check` does.
            progress: true,
            max_memory: bounds.max_memory,
            budget: bounds.budget,
            ..CheckOptions::default()
        },
    };
    stop_on_ctrl_c();
    let fixes = podcheck::fix::fixes(&a.filename, &opts)?;
    if a.format == Format::Json {
        say!(
            "{}",
            serde_json::to_string_pretty(&fixes).map_err(|e| BadInput(e.to_string()))?
        );
    } else {
        print_text(&fixes);
    }
    if a.write {
        write(&fixes)?;
    }
    // As for `check -f`: an operator hazard alone does not fail the run.
    let all_fixed = fixes.unfixed.iter().all(|n| n.operator_hazard);
    Ok(if !fixes.complete {
        ExitCode::from(3)
    } else if all_fixed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_text(f: &Fixes) {
    for x in &f.fixes {
        say!("fix: {}: {}", x.application, x.finding);
        say!("  under: {}", x.under.join(", "));
        say!("  change: {}", x.what);
        say!("  why: {}", x.why);
        say!("  source: {}", x.source);
        for t in &x.tried {
            say!("  tried first: {t}");
        }
        say!(
            "  checked: the changed files re-read and re-checked under the same plans, {}, {} states, complete: the finding is gone, no finding is new{}",
            count(x.recheck.scenarios, "plan scenario"),
            x.recheck.states,
            if x.also_removes.is_empty() {
                String::new()
            } else {
                format!("; it also removes {}", x.also_removes.join(", "))
            }
        );
        for d in &x.diffs {
            say!("{}", d.diff.trim_end());
        }
        say!("");
    }
    for n in &f.unfixed {
        let label = if n.operator_hazard {
            "operator hazard, no manifest fix"
        } else {
            "no verified fix"
        };
        say!("{label}: {}: {}", n.application, n.finding);
        say!("  under: {}", n.under.join(", "));
        say!("  {}", n.why);
        for t in &n.tried {
            say!("  tried: {t}");
        }
        say!("");
    }
    say!(
        "{}: {} fixed by {}, {} without a fix{}",
        count(f.findings, "finding"),
        f.findings - f.unfixed.len(),
        count(f.fixes.len(), "verified fix"),
        f.unfixed.len(),
        if f.complete {
            ""
        } else {
            " (a check stopped at a bound: what it did not decide is not fixed)"
        }
    );
}

/// Writes each changed file with every fix made.
fn write(f: &Fixes) -> Result<(), BadInput> {
    for ((_, before), (_, after)) in f.read.iter().zip(&f.files) {
        for ((name, old), (_, new)) in before.iter().zip(after) {
            if old != new {
                std::fs::write(name, new)
                    .map_err(|e| BadInput(format!("{name}: cannot write the fix: {e}")))?;
                eprintln!("written: {name}");
            }
        }
    }
    Ok(())
}

/// `1 finding`, `2 findings`; a noun ending in `x` takes `es`.
fn count(n: usize, noun: &str) -> String {
    match (n, noun.ends_with('x')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{n} {noun}es"),
        (_, false) => format!("{n} {noun}s"),
    }
}
