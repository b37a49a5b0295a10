//! The command line's flags (clap), parsed: a bad flag or value is an error in words, exit 2.

use crate::cli::common::whole;
use clap::{Parser, Subcommand, ValueEnum};
use podcheck::TraceFormat;
use podcheck_properties::progress;

#[derive(Parser)]
#[command(
    name = "podcheck",
    version,
    about = "Model-check the Kubernetes pod lifecycle: which promises hold, with a shortest counterexample where one doesn't."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// List the scenarios, one line each.
    List {
        /// Read scenarios from this YAML file instead of the built-in catalogue.
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
    },
    /// Check scenarios (all built-in ones when none is named).
    Check(CheckArgs),
    /// Propose a fix for each finding of your manifests, checked before it is shown: a
    /// unified diff of your files (`--write` makes it); docs/fixes.md.
    Fix(crate::cli::fix::FixArgs),
    /// Merge the JSON reports of a swarm run's shards (`check SCENARIO --simulate --shard …
    /// --format json`): per property the verdict any shard decided, with the shortest trace,
    /// else `incomplete`.
    Merge {
        /// The shards' reports.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Also write the merged JSON report to this file.
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
        /// Print the trace of every decided property.
        #[arg(long)]
        traces: bool,
        /// The catalogue the shards read their scenario from (default: the built-in one).
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
    },
    /// Show the shortest counterexample (or witness) of a property in a scenario.
    Trace {
        /// Scenario name (with -f: a plan scenario's name, or none when there is one).
        #[arg(required_unless_present = "filename")]
        scenario: Option<String>,
        #[command(flatten)]
        manifests: FromManifests,

        /// Property name (default: the first violated property).
        #[arg(long)]
        property: Option<String>,
        /// Rendering.
        #[arg(long, value_parser = trace_formats(), default_value_t = TraceFormat::Text)]
        format: TraceFormat,
        /// Stop before the process's resident memory passes SIZE (as for check; default:
        /// half of the machine's memory).
        #[arg(long, value_name = "SIZE", value_parser = memory_size)]
        max_memory: Option<u64>,
        /// Time budget of the search, in whole seconds, or `none` (as for check; default: 60
        /// with -f, none for the catalogue's scenarios).
        #[arg(long, value_name = "SECONDS|none", value_parser = budget)]
        budget: Option<Budget>,
        /// For a `within` property (with --property): the slowest run, on which its worst
        /// case is measured, instead of its counterexample.
        #[arg(long, requires = "property")]
        slowest: bool,
        /// Read scenarios from this YAML file instead of the built-in catalogue.
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
        #[command(flatten)]
        size: Size,
    },
    /// Browse a scenario's states in Stateright's Explorer: readable states, a picture of the
    /// cluster, and the counterexample paths, step by step.
    Explore {
        /// Scenario name (with -f: a plan scenario's name, or none when there is one).
        #[arg(required_unless_present = "filename")]
        scenario: Option<String>,
        #[command(flatten)]
        manifests: FromManifests,

        /// Where to serve the Explorer (loopback unless you say otherwise).
        #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:3000")]
        addr: String,
        /// Bound the search for the counterexample paths the Explorer lists, as for check
        /// (default: half of the machine's memory); the Explorer itself explores on demand.
        #[arg(long, value_name = "SIZE", value_parser = memory_size)]
        max_memory: Option<u64>,
        /// Time budget of that search, in whole seconds, or `none` (default: 60 with -f,
        /// none for the catalogue's scenarios).
        #[arg(long, value_name = "SECONDS|none", value_parser = budget)]
        budget: Option<Budget>,
        /// Read scenarios from this YAML file instead of the built-in catalogue.
        #[arg(long, value_name = "FILE")]
        catalogue: Option<String>,
        #[command(flatten)]
        size: Size,
    },
    /// Measure every scenario (or the named ones), each size in a process of its own:
    /// states, seconds per phase, states per second, bytes per state, peak memory.
    Bench(crate::cli::bench::BenchArgs),
}

/// `podcheck check`'s arguments.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Scenario names.
    pub scenarios: Vec<String>,
    /// Output format (`sarif` with `-f`: a SARIF 2.1.0 log for code scanning, docs/sarif.md).
    #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
    pub format: CheckFormat,
    /// Threads that explore (and that run Stateright's checker with `--cross-check`).
    /// Verdicts, counts and traces are the same for any number.
    #[arg(long, default_value_t = 1, value_parser = whole::<u16, 1, 64>)]
    pub threads: u16,
    /// Scenarios checked at once, each on threads of its own (default: the machine's
    /// cores divided by --threads; one with --max-memory, whose bound is the whole
    /// process's). The report is the same for any number: each scenario's part comes
    /// out in order, when it and those before it are done.
    #[arg(long, value_name = "N", value_parser = whole::<u16, 1, 64>)]
    pub jobs: Option<u16>,
    /// Stop before more than this many distinct states have been found. A run that
    /// reaches the bound is reported incomplete, and the properties it could not decide
    /// are `incomplete`.
    #[arg(long, value_name = "N", value_parser = whole::<u64, 1, { u64::MAX }>)]
    pub max_states: Option<u64>,
    /// Stop before the process's resident memory passes SIZE (512M, 8G, 8GiB, 1.5G:
    /// powers of 1024; a fraction needs a unit). A run that reaches the bound is reported
    /// incomplete, as with --max-states.
    /// (default: half of the machine's memory, said in the report's heading.)
    #[arg(long, value_name = "SIZE", value_parser = memory_size)]
    pub max_memory: Option<u64>,
    /// Time budget per scenario, in whole seconds, or `none`: a scenario that reaches it
    /// stops, is reported incomplete (what its exploration decided stands), and the check
    /// goes on with the next. Default: 60 with -f, none for the catalogue's scenarios.
    #[arg(long, value_name = "SECONDS|none", value_parser = budget)]
    pub budget: Option<Budget>,
    /// Also run Stateright's own checker (with `--threads` threads) and fail unless it
    /// finds the same number of unique states and the same `always` and `sometimes`
    /// verdicts.
    #[arg(long)]
    pub cross_check: bool,
    /// Print the shortest counterexample or witness of every discovered property. With
    /// --format json, each such property gets a `trace`: the trace's JSON, as `podcheck
    /// trace --format json` prints it (with -f: in --trace-format, a string or JSON).
    #[arg(long)]
    pub traces: bool,
    /// Explore every state, also those that differ from one already found only by which
    /// of two interchangeable nodes holds what (see docs/symmetry.md).
    #[arg(long)]
    pub no_reduction: bool,
    /// Make every successor, also one the search can name from a diamond of two
    /// independent steps it has made already (see "Diamonds" in docs/performance.md), and
    /// a client's request, which leads back to the state it leaves: the same states,
    /// edges, verdicts and traces, only slower; for comparison.
    #[arg(long)]
    pub no_diamonds: bool,
    /// Also give every `leads_to` property its worst-case and best-case time from P to Q
    /// (a `within` property always has them): the seconds, or `unbounded`.
    #[arg(long)]
    pub worst_case: bool,
    /// Read scenarios from this YAML file instead of the built-in catalogue.
    #[arg(long, value_name = "FILE")]
    pub catalogue: Option<String>,
    /// Make every vacuity warning an error (exit 1): a fault that never happened, a
    /// `start: settled` that never settled, a witness that never happens, a property
    /// whose premise no reachable state has.
    #[arg(long)]
    pub strict: bool,
    /// Check your own Kubernetes manifests: a file, a folder or `-` for stdin; repeatable.
    /// Applications: each folder (given, or under one given; hidden ones and links to
    /// folders under it are passed over, a link with a note) that directly holds `.yaml`,
    /// `.yml` or `.json` files is one application, its files together, named by its
    /// path; the files named directly and stdin together make one more. A folder or file
    /// given twice is read once; each file is read up to 16 MiB. Each application is
    /// checked on its own under every plan of --plan, from the settled cluster (see
    /// docs/manifests.md).
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub filename: Vec<String>,
    /// With -f: the fault plans to check, comma-separated (default: all): delete-pod,
    /// rollout, dependency-outage, crash, drain, partition, partition-force-delete,
    /// power-off. A plan named here that applies to nothing, an empty name and a plan
    /// named twice are errors.
    #[arg(long, value_name = "PLAN,...")]
    pub plan: Vec<String>,
    /// With -f: the format of each finding's trace (and, with --traces, of the others).
    #[arg(long, value_parser = trace_formats(), default_value_t = TraceFormat::Text)]
    pub trace_format: TraceFormat,
    /// With -f: also print each plan scenario's table of every property and its verdict
    /// as it is checked, and list the fields the model does not read, each with its line
    /// (without --verbose: one line per scenario after the findings, and a note says how
    /// many fields are not read; an error without -f).
    #[arg(long)]
    pub verbose: bool,
    /// With -f: what fails the run (exit 1) besides the findings. `operator-hazard`: a
    /// finding that only an operator's action gives (a force delete of a pod on a node cut
    /// off), reported in a section of its own and otherwise not failing the run.
    #[arg(long, value_enum, value_name = "KIND")]
    pub fail_on: Vec<FailOn>,
    /// With -f and --format sarif: give each finding's verified fix as its result's `fixes`
    /// (the manifest change that removes it, re-checked under the same plans before it is
    /// given, as `podcheck fix` finds it; each candidate costs a check of the application).
    #[arg(long)]
    pub fixes: bool,
    #[command(flatten)]
    pub size: Size,
    #[command(flatten)]
    pub sim: crate::cli::simulate::SimArgs,
}

/// `trace -f` and `explore -f`: one plan scenario of your manifests instead of a scenario.
#[derive(clap::Args)]
pub struct FromManifests {
    /// Your own manifests instead of a scenario (as `check -f`): SCENARIO then names one of
    /// their plan scenarios (`"deploy: delete-pod web"`), and may be left out when there is
    /// only one.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub filename: Vec<String>,
    /// With -f: the fault plans whose scenarios to choose from (default: all).
    #[arg(long, value_name = "PLAN,...", requires = "filename")]
    pub plan: Vec<String>,
}

/// `--max-memory SIZE`, in bytes. A fraction needs a unit (`1.5G`): a fraction of a byte is
/// no size.
pub fn memory_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let number = t.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c.is_whitespace());
    let unit = &t[number.len()..];
    if number.contains('.') && matches!(unit.trim().to_ascii_lowercase().as_str(), "" | "b") {
        return Err(format!(
            "`{text}` is a fraction of a byte: give a fraction with a unit (1.5G, 0.5M) or a whole number of bytes"
        ));
    }
    progress::parse_size(text)
}

/// `--budget`: whole seconds (at least 1), or no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Seconds(u64),
    Unlimited,
}

impl Budget {
    /// The budget as the checker takes it: `None` for no limit.
    pub fn duration(self) -> Option<std::time::Duration> {
        match self {
            Budget::Seconds(s) => Some(std::time::Duration::from_secs(s)),
            Budget::Unlimited => None,
        }
    }
}

/// `--budget SECONDS|none`.
pub fn budget(text: &str) -> Result<Budget, String> {
    if text.trim() == "none" {
        return Ok(Budget::Unlimited);
    }
    whole::<u64, 1, 31_536_000>(text)
        .map(Budget::Seconds)
        .map_err(|e| format!("{e} (or `none` for no limit)"))
}

/// Scenario sizes, applied to every scenario checked.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Size {
    /// Number of nodes (1–5); extra nodes copy the last node of the scenario.
    #[arg(long, value_parser = whole::<u8, 1, 5>)]
    pub nodes: Option<u8>,
    /// `replicas` of every Deployment and StatefulSet (1–5).
    #[arg(long, value_parser = whole::<u8, 1, 5>)]
    pub replicas: Option<u8>,
    /// The Kubernetes release to follow, as 1.33 (1.22 to 1.35), for every scenario; it
    /// replaces the scenario's `cluster.kubernetesVersion` (default: the newest, 1.35).
    #[arg(long, value_name = "V", value_parser = kubernetes_version)]
    pub kubernetes_version: Option<podcheck_input::spec::Release>,
    /// With -f: check each plan scenario with every workload of the application, not only
    /// those that can influence its verdicts (its cone of influence), for comparison.
    #[arg(long, requires = "filename")]
    pub no_cone: bool,
}

impl Size {
    /// The sizes, as the library takes them.
    pub fn lib(self) -> podcheck::Size {
        podcheck::Size {
            nodes: self.nodes,
            replicas: self.replicas,
            kubernetes_version: self.kubernetes_version,
            no_cone: self.no_cone,
        }
    }
}

/// `--kubernetes-version V`.
fn kubernetes_version(text: &str) -> Result<podcheck_input::spec::Release, String> {
    podcheck_input::spec::Release::parse(text)
}

/// `--format` of `trace` and `--trace-format` of `check -f`: the names of
/// [`TraceFormat`], each with its help.
fn trace_formats() -> impl clap::builder::TypedValueParser<Value = TraceFormat> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let help = |f: TraceFormat| match f {
        TraceFormat::Text => {
            "A timeline: time, actor, action, what changed, events, `kubectl get pods`"
        }
        TraceFormat::Json => "The trace as data",
        TraceFormat::Itf => {
            "The Informal Trace Format (Apalache ADR-015), for Quint and Apalache tooling"
        }
        TraceFormat::Mermaid => "A Mermaid sequence diagram",
        TraceFormat::Dot => "The state graph of a small scenario in Graphviz DOT, the trace in red",
    };
    PossibleValuesParser::new(TraceFormat::ALL.map(|f| PossibleValue::new(f.name()).help(help(f))))
        .map(|name| {
            TraceFormat::ALL
                .into_iter()
                .find(|f| f.name() == name)
                .unwrap_or_default()
        })
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
}

/// `podcheck check --format`: [`Format`], and with `-f` SARIF.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Table,
    Json,
    /// A SARIF 2.1.0 log of the findings, each at the manifest line its fix changes (with -f)
    Sarif,
}

/// `podcheck check -f --fail-on`: what else fails the run.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// A finding that only an operator's action gives.
    OperatorHazard,
}

/// The command line, parsed: a bad flag or value is an error in words, exit 2.
pub fn parse() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    // `--walks` and `--depth` are defined with the rest of the swarm's flags; their numbers
    // are read here as every other count is, with the same ranges and messages in words.
    let mut cmd = Cli::command().mut_subcommand("check", |c| {
        c.mut_arg("walks", |a| a.value_parser(whole::<u64, 1, { u64::MAX }>))
            .mut_arg("depth", |a| a.value_parser(whole::<u32, 1, 1_000_000>))
    });
    let matches = cmd.clone().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut cmd).exit())
}
