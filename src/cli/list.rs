//! `podcheck list`: the scenarios, one line each.

use crate::cli::common::{load, BadInput};
use std::process::ExitCode;

/// `podcheck list [--catalogue FILE]`.
pub fn run(catalogue: &Option<String>) -> Result<ExitCode, BadInput> {
    load(catalogue).map(|all| {
        let w = all.iter().map(|s| s.name.len()).max().unwrap_or(0);
        for s in &all {
            say!("{:w$}  {}", s.name, s.description);
        }
        ExitCode::SUCCESS
    })
}
