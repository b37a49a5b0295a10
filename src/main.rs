//! `podcheck`: the command line. A thin shell over the `podcheck` library and the crates
//! below it: the flags are parsed here and each subcommand runs in its file under `cli/`.

mod cli;

use cli::args::{Command, FromManifests};
use std::process::ExitCode;

/// The search allocates and frees a few small blocks per transition; mimalloc does that in a
/// fraction of the system allocator's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = cli::args::parse();
    let result = match cli.command {
        Command::List { catalogue } => cli::list::run(&catalogue),
        Command::Check(args) => cli::check::run(args),
        Command::Fix(args) => cli::fix::run(args),
        Command::Merge {
            files,
            format,
            out,
            traces,
            catalogue: file,
        } => cli::merge::run(files, format, out, traces, file),
        Command::Trace {
            scenario,
            property,
            format,
            max_memory,
            budget,
            slowest,
            catalogue: file,
            size,
            manifests: FromManifests { filename, plan },
        } => {
            let origin = file
                .clone()
                .unwrap_or_else(|| "the built-in catalogue".into());
            let bounds = cli::check::Bounds::new(max_memory, budget, !filename.is_empty());
            cli::common::one_scenario(&file, scenario, &filename, &plan, size, &origin).and_then(
                |mut picked| {
                    cli::trace::run(picked.remove(0), property, format, bounds, slowest, &origin)
                },
            )
        }
        Command::Bench(args) => cli::bench::run(args),
        Command::Explore {
            scenario,
            addr,
            max_memory,
            budget,
            catalogue: file,
            size,
            manifests: FromManifests { filename, plan },
        } => {
            let origin = file
                .clone()
                .unwrap_or_else(|| "the built-in catalogue".into());
            let bounds = cli::check::Bounds::new(max_memory, budget, !filename.is_empty());
            cli::common::one_scenario(&file, scenario, &filename, &plan, size, &origin)
                .and_then(|mut picked| cli::explore::run(picked.remove(0), &addr, bounds))
        }
    };
    cli::common::report(result)
}
