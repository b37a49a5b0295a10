//! `podcheck check SCENARIO --simulate …`: one shard of a swarm run, its report made by the
//! library ([`podcheck::swarm::shard`]) and printed.

use crate::cli::args::{Format, Size};
use crate::cli::common::BadInput;
use podcheck::swarm::{self, PropertyReport, SizeFlags, MAX_DEPTH, MAX_SHARDS};
use podcheck_input::spec::{Scenario, Verdict};
use podcheck_model::Cluster;
use podcheck_properties::simulate::SimOptions;
use podcheck_properties::PropertyDef;
use std::process::ExitCode;

/// The environment variable a Kubernetes Indexed Job sets in each of its pods: the pod's
/// completion index, 0 to `completions - 1`.
pub const INDEX_VAR: &str = "JOB_COMPLETION_INDEX";

/// Walks per shard unless `--walks` says otherwise.
pub const DEFAULT_WALKS: u64 = 1000;

/// Steps per walk at most unless `--depth` says otherwise.
pub const DEFAULT_DEPTH: u32 = 200;

/// Which shard to run: `i/N`, or `N` with the index from [`INDEX_VAR`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    Index { index: u64, count: u64 },
    FromEnv { count: u64 },
}

fn shard_count(t: &str) -> Result<u64, String> {
    let n = t
        .parse::<u64>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("`{t}` is not a shard count (1, 2, …)"))?;
    if n > MAX_SHARDS {
        return Err(format!(
            "{n} shards is more than {MAX_SHARDS}, the most completions of an Indexed Job"
        ));
    }
    Ok(n)
}

/// Parses `--shard i/N` or `--shard N`.
pub fn parse_shard(s: &str) -> Result<ShardArg, String> {
    match s.split_once('/') {
        Some((i, n)) => {
            let count = shard_count(n)?;
            let index = i
                .parse::<u64>()
                .map_err(|_| format!("`{i}` is not a shard index (0, 1, …)"))?;
            if index >= count {
                return Err(format!(
                    "shard index {index} is not below the shard count {count} (shards are numbered 0 to {})",
                    count - 1
                ));
            }
            Ok(ShardArg::Index { index, count })
        }
        None => Ok(ShardArg::FromEnv {
            count: shard_count(s)?,
        }),
    }
}

/// The shard's index and the shard count, the index read from [`INDEX_VAR`] for `--shard N`.
fn resolve_shard(shard: Option<ShardArg>) -> Result<(u64, u64), BadInput> {
    match shard {
        None => Ok((0, 1)),
        Some(ShardArg::Index { index, count }) => Ok((index, count)),
        Some(ShardArg::FromEnv { count }) => {
            let raw = std::env::var(INDEX_VAR).map_err(|_| {
                BadInput(format!(
                    "--shard {count} takes the shard index from {INDEX_VAR}, which a Kubernetes \
                     Indexed Job sets in each pod, and it is not set (or not UTF-8); run one \
                     shard by hand with --shard i/{count}"
                ))
            })?;
            let index: u64 = raw.trim().parse().map_err(|_| {
                BadInput(format!(
                    "{INDEX_VAR} is `{raw}`, not a shard index (0, 1, …) for --shard {count}"
                ))
            })?;
            if index >= count {
                return Err(BadInput(format!(
                    "{INDEX_VAR} is {index}, but --shard {count} has shards 0 to {}: the Job's \
                     completions must equal the shard count",
                    count - 1
                )));
            }
            Ok((index, count))
        }
    }
}

/// The flags of a swarm run, on `podcheck check`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SimArgs {
    /// Random-walk (swarm) checking of one scenario instead of the exhaustive search: it
    /// reports what its walks find (`violated` for `always` and `step`, `holds` for
    /// `sometimes`) and `incomplete` for everything else, never `holds` for a safety property.
    #[arg(long)]
    pub simulate: bool,
    /// The swarm's seed (with --simulate): the same for every shard of one run.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Which shard to run (with --simulate): `i/N` for shard i of N, or `N` to take i from
    /// JOB_COMPLETION_INDEX, as in a pod of a Kubernetes Indexed Job. Default 0/1.
    #[arg(long, value_name = "i/N|N", value_parser = parse_shard)]
    pub shard: Option<ShardArg>,
    /// Walks in this shard (with --simulate; default 1000).
    #[arg(long, value_name = "W", value_parser = clap::value_parser!(u64).range(1..))]
    pub walks: Option<u64>,
    /// Steps per walk at most (with --simulate; default 200).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// Also write the shard's JSON report to this file (with --simulate).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

impl SimArgs {
    /// `--out` may not name a file the run reads, the `--catalogue` file or a file given with
    /// `-f` (stdin, `-`, is no file): the report would overwrite it. Checked before anything
    /// is read or run.
    pub fn reject_out_over_input(
        &self,
        catalogue: Option<&str>,
        filenames: &[String],
    ) -> Result<(), BadInput> {
        let Some(out) = &self.out else {
            return Ok(());
        };
        if let Some(c) = catalogue.filter(|c| same_file(out, c)) {
            return Err(BadInput(format!(
                "--out {out} is {c}, the catalogue given with --catalogue: the shard's report would overwrite it; write it to another file"
            )));
        }
        if let Some(f) = filenames
            .iter()
            .find(|f| f.as_str() != "-" && same_file(out, f))
        {
            return Err(BadInput(format!(
                "--out {out} is {f}, given with -f: the report would overwrite your manifests; write it to another file"
            )));
        }
        Ok(())
    }

    /// The first flag of random-walk checking given besides --simulate, if any.
    pub fn first_given(&self) -> Option<&'static str> {
        let given = [
            ("--seed", self.seed.is_some()),
            ("--shard", self.shard.is_some()),
            ("--walks", self.walks.is_some()),
            ("--depth", self.depth.is_some()),
            ("--out", self.out.is_some()),
        ];
        given.iter().find(|(_, g)| *g).map(|(flag, _)| *flag)
    }

    /// Without --simulate, none of its flags may be given.
    pub fn reject_without_simulate(&self) -> Result<(), BadInput> {
        match self.first_given() {
            Some(flag) => Err(BadInput(format!(
                "{flag} is a flag of random-walk checking: add --simulate"
            ))),
            None => Ok(()),
        }
    }
}

/// Whether two paths name the same file: the same canonical path (for a file not there yet,
/// its folder's canonical path and its name), or, on Unix, the same file on the same device
/// (a hard link).
pub fn same_file(a: &str, b: &str) -> bool {
    use std::path::{Path, PathBuf};
    let canonical = |p: &str| -> Option<PathBuf> {
        let p = Path::new(p);
        std::fs::canonicalize(p).ok().or_else(|| {
            let folder = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            Some(std::fs::canonicalize(folder).ok()?.join(p.file_name()?))
        })
    };
    if let (Some(x), Some(y)) = (canonical(a), canonical(b)) {
        if x == y {
            return true;
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

pub fn write_out(path: &str, json: &str) -> Result<(), BadInput> {
    std::fs::write(path, format!("{json}\n"))
        .map_err(|e| BadInput(format!("cannot write {path}: {e}")))
}

/// Exit 1 for a decided verdict against the expectation, else 3 for an incomplete one, else 0
/// (as `podcheck check`).
pub fn exit_code(props: &[PropertyReport]) -> ExitCode {
    if props
        .iter()
        .any(|p| p.verdict != Verdict::Incomplete && p.verdict != p.expected)
    {
        ExitCode::from(1)
    } else if props.iter().any(|p| p.verdict == Verdict::Incomplete) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn print_properties(props: &[PropertyReport]) {
    let w = props.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in props {
        let decided = p.verdict != Verdict::Incomplete;
        let mark = if decided && p.verdict != p.expected {
            "!"
        } else {
            " "
        };
        let found = p
            .trace
            .as_ref()
            .map(|t| {
                format!(
                    "trace {} steps (shard {}, walk {})",
                    t.steps, t.shard, t.walk
                )
            })
            .unwrap_or_default();
        say!(
            " {mark} {:w$}  {:9}  {:10}  expected {:10}  {}",
            p.name,
            p.kind,
            p.verdict.as_str(),
            p.expected.as_str(),
            found
        );
    }
    let decided = props
        .iter()
        .filter(|p| p.verdict != Verdict::Incomplete)
        .count();
    let bad = props
        .iter()
        .filter(|p| p.verdict != Verdict::Incomplete && p.verdict != p.expected)
        .count();
    say!(
        "\n{} verdicts: {} decided ({} as expected, {} not), {} incomplete (a simulation decides only what its walks find)",
        props.len(),
        decided,
        decided - bad,
        bad,
        props.len() - decided
    );
}

/// Prints each found trace as a text timeline.
pub fn print_traces(
    m: &Cluster,
    defs: &[PropertyDef],
    props: &[PropertyReport],
) -> Result<(), BadInput> {
    for (d, p) in defs.iter().zip(props) {
        let Some(t) = &p.trace else { continue };
        let run = swarm::decode(m, t).map_err(BadInput)?;
        let trace = podcheck::traces::from_run(
            m,
            &run,
            d.name,
            podcheck::traces::Kind::from(&d.kind),
            p.verdict,
            None,
        )
        .map_err(|e| {
            BadInput(format!(
                "internal error: the trace of {} does not replay: {e}",
                d.name
            ))
        })?;
        say!("{}: {}\n", d.name, d.sentence);
        say!("{}", podcheck::traces::render_text(&trace));
    }
    Ok(())
}

/// `podcheck check SCENARIO --simulate …`: one shard.
pub fn run(
    picked: Vec<Scenario>,
    format: Format,
    traces: bool,
    args: &SimArgs,
    size: Size,
) -> Result<ExitCode, BadInput> {
    let [scenario] = <[Scenario; 1]>::try_from(picked).map_err(|_| {
        BadInput(
            "--simulate runs one scenario: name it (podcheck check SCENARIO --simulate --seed S …)"
                .into(),
        )
    })?;
    let seed = args.seed.ok_or_else(|| {
        BadInput(
            "--simulate needs --seed S (any number; the same seed, shard, walks and depth give the same report)"
                .into(),
        )
    })?;
    let (index, count) = resolve_shard(args.shard)?;
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    let opts = SimOptions {
        seed,
        shard: index,
        walks: args.walks.unwrap_or(DEFAULT_WALKS),
        depth: depth as usize,
    };
    let start = std::time::Instant::now();
    let size = SizeFlags {
        nodes: size.nodes,
        replicas: size.replicas,
        kubernetes_version: size.kubernetes_version,
    };
    let swarm::Shard {
        report,
        model: m,
        defs,
    } = swarm::shard(&scenario, size, &opts, count)?;
    let json = serde_json::to_string_pretty(&report).map_err(|e| BadInput(e.to_string()))?;
    if let Some(path) = &args.out {
        write_out(path, &json)?;
    }
    match format {
        Format::Json => say!("{json}"),
        Format::Table => {
            say!(
                "{}  (Kubernetes {}, simulation: seed {seed}, shard {index}/{count}, {} walks of up to {depth} steps, {} states visited, {} distinct, {} walks ended in a terminal state)",
                scenario.name,
                report.kubernetes_version,
                opts.walks,
                report.states_visited,
                report.distinct_states,
                report.walks_to_terminal
            );
            print_properties(&report.properties);
            if traces {
                print_traces(&m, &defs, &report.properties)?;
            }
        }
    }
    eprintln!(
        "{}: shard {index}/{count} simulated in {:.2} s",
        scenario.name,
        start.elapsed().as_secs_f64()
    );
    Ok(exit_code(&report.properties))
}
