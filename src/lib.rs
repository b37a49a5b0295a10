//! podcheck as a library: check your Kubernetes manifests against podcheck's fault plans from
//! your own `cargo test`, with the catalogue's properties and your own.
//!
//! ```
//! const WEB: &str = r#"
//! apiVersion: apps/v1
//! kind: Deployment
//! metadata: {name: web}
//! spec:
//!   replicas: 1
//!   selector: {matchLabels: {app: web}}
//!   template:
//!     metadata:
//!       labels: {app: web}
//!       annotations: {podcheck.dev/boot-seconds: "1"}
//!     spec:
//!       terminationGracePeriodSeconds: 5
//!       containers:
//!       - name: app
//!         image: web:1
//! "#;
//!
//! /// A property of my own: no container is ever restarted.
//! fn never_restarted(_: &podcheck::Cluster, s: &podcheck::State) -> bool {
//!     s.api.pods.iter().all(|p| p.status.statuses.iter().all(|c| c.restart_count == 0))
//! }
//!
//! let report = podcheck::Check::text("web.yaml", WEB)
//!     .plan(podcheck::Plan::DeletePod)
//!     .run()
//!     .expect("the manifests are read and checked");
//! // Without a Service nothing sends requests, and a deleted pod is replaced: clean.
//! report.assert_clean();
//!
//! let report = podcheck::Check::text("web.yaml", WEB)
//!     .plan(podcheck::Plan::Crash)
//!     .property(podcheck::PropertyDef {
//!         name: "never_restarted",
//!         kind: podcheck::Kind::Always(never_restarted),
//!         sentence: "No container is ever restarted.",
//!         source: "my team's runbook",
//!         layer: "api",
//!         premise: None,
//!     })
//!     .run()
//!     .unwrap();
//! // The crash plan restarts the container: my property is broken, with its shortest trace.
//! let f = &report.findings()[0];
//! assert_eq!(f.property, "never_restarted");
//! assert_eq!(f.scenario, "web.yaml: crash web");
//! assert!(f.trace.contains("counterexample"), "{}", f.trace);
//! ```
//!
//! The command line (`podcheck check -f`) is a thin shell over this crate: the same
//! applications, plans, findings and traces.

use podcheck_model::manifest::{self, Reading};
use podcheck_properties::check::{self, CheckOptions, PropertyResult, ScenarioResult};
use podcheck_properties::findings::kubernetes_behaviour_in;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The layers below, for what the re-exports above do not cover.
pub use podcheck_model as model;
pub use podcheck_model::plan::Plan;
pub use podcheck_model::spec::{Scenario, Verdict};
pub use podcheck_model::{state, Action, Cluster, State};
pub use podcheck_properties as properties;
pub use podcheck_properties::{ActionFn, Kind, Premise, PropertyDef, StateFn, StepFn, Steps};
pub use podcheck_traces as traces;

/// Bad input (a manifest podcheck cannot read, a file that cannot be opened, a property
/// given twice), with the file, line and field where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(s: String) -> Error {
        Error(s)
    }
}

/// One application: manifest files checked together, as one cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    /// The folder's path, or the files' names.
    pub name: String,
    /// `(file name, text)` of each file.
    pub sources: Vec<(String, String)>,
}

/// The most podcheck reads from one file or from stdin: 16 MiB. Manifests and catalogues are
/// far smaller; the limit stops an endless input (`/dev/zero`, `yes | podcheck check -f -`)
/// from growing the process until the machine runs out of memory.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// The text of `reader`, named `name` in messages: at most [`MAX_INPUT_BYTES`] (checked while
/// reading, so an endless input stops there), and UTF-8.
pub fn read_text(reader: impl Read, name: &str) -> Result<String, Error> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Error(format!(
            "{name}: larger than {} MiB, the most podcheck reads from one file or from stdin (is it the input you meant?)",
            MAX_INPUT_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        Error(format!(
            "{name}: not UTF-8 text (byte {} is not part of a UTF-8 character)",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The text of the file at `path`, as [`read_text`] reads it.
pub fn read_text_file(path: &Path) -> Result<String, Error> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| Error(format!("cannot read {name}: {e}")))?;
    read_text(file, &name)
}

fn is_manifest_name(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
}

fn read_file(path: &Path) -> Result<(String, String), Error> {
    Ok((path.display().to_string(), read_text_file(path)?))
}

/// What walking the `-f` folders has seen so far: the folders read, by canonical path, with
/// the `-f` path each was read under; the notes; and how many folders were passed over as read
/// already and how many links to folders were not followed.
#[derive(Default)]
struct Walk {
    visited: std::collections::HashMap<PathBuf, String>,
    notes: Vec<String>,
    repeats: usize,
    links: usize,
}

/// Every folder under `dir` (itself included) that directly holds manifest files, with them,
/// sorted by path. Hidden folders under it (`.git`, `.github`: their YAML is not Kubernetes
/// objects) are passed over; name one with `-f` to read it. A symbolic link to a folder is not
/// followed (a note says so: name it with `-f` to read it), and a folder already read (under
/// another `-f`) is not read again (a note says so): no folder is read twice, and a link
/// cannot lead the walk round in a loop. A `.yaml`, `.yml` or `.json` name that is not a file
/// that can be read (a link to nothing, a socket) is an error.
fn folders(
    dir: &Path,
    given: &str,
    out: &mut Vec<(PathBuf, Vec<PathBuf>)>,
    walk: &mut Walk,
) -> Result<(), Error> {
    let cannot = |e: std::io::Error| Error(format!("cannot read {}: {e}", dir.display()));
    let canonical = std::fs::canonicalize(dir).map_err(cannot)?;
    if let Some(first) = walk.visited.get(&canonical) {
        walk.notes.push(format!(
            "{}: already read under -f {first}: each application is checked once",
            dir.display()
        ));
        walk.repeats += 1;
        return Ok(());
    }
    walk.visited.insert(canonical, given.to_string());
    let mut paths = Vec::new();
    for e in std::fs::read_dir(dir).map_err(cannot)? {
        paths.push(e.map_err(cannot)?.path());
    }
    paths.sort();
    let mut files = Vec::new();
    let mut subfolders = Vec::new();
    for p in paths {
        let link = std::fs::symlink_metadata(&p)
            .map_err(|e| Error(format!("cannot read {}: {e}", p.display())))?
            .file_type()
            .is_symlink();
        match std::fs::metadata(&p) {
            Ok(m) if m.is_dir() => {
                let hidden = p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'));
                if hidden {
                    continue;
                }
                if link {
                    walk.notes.push(format!(
                        "{}: a symbolic link to a folder, not followed (name it with -f to read it)",
                        p.display()
                    ));
                    walk.links += 1;
                    continue;
                }
                subfolders.push(p);
            }
            Ok(m) if is_manifest_name(&p) => {
                if !m.is_file() {
                    return Err(Error(format!(
                        "{}: not a file that can be read as manifests (a device, a pipe or a socket)",
                        p.display()
                    )));
                }
                files.push(p);
            }
            Err(e) if is_manifest_name(&p) => {
                let what = match std::fs::read_link(&p) {
                    Ok(to) if link => format!(
                        "a symbolic link to {}, which cannot be read: {e}",
                        to.display()
                    ),
                    _ => format!("cannot be read: {e}"),
                };
                return Err(Error(format!("{}: {what}", p.display())));
            }
            _ => {}
        }
    }
    if !files.is_empty() {
        out.push((dir.to_path_buf(), files));
    }
    for p in subfolders {
        folders(&p, given, out, walk)?;
    }
    Ok(())
}

/// The applications of the `-f` paths, with notes on what was passed over or dropped on
/// the way (a link to a folder not followed, a folder or a file given twice).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applications {
    pub apps: Vec<Application>,
    /// One sentence each, naming the path.
    pub notes: Vec<String>,
}

/// The applications of the paths given with `-f`: each folder (the one named, or one under
/// it) that directly holds `.yaml`, `.yml` or `.json` files is one application, its files
/// together, named by its path; the files named directly and stdin (`-`) together make one
/// more, after the folders' ones. A folder or file is read once, however often it is given
/// (also as a folder under one given): a repeat is dropped with a note. Each file and stdin
/// is read up to [`MAX_INPUT_BYTES`].
pub fn applications(paths: &[String]) -> Result<Applications, Error> {
    let mut apps = Vec::new();
    let mut walk = Walk::default();
    let mut loose: Vec<(String, String)> = Vec::new();
    let mut loose_seen: Vec<PathBuf> = Vec::new();
    for p in paths {
        if p == "-" {
            if loose.iter().any(|(n, _)| n == "-") {
                walk.notes
                    .push("-: stdin is given twice with -f: it is read once".to_string());
                continue;
            }
            let text = read_text(std::io::stdin().lock(), "stdin (-f -)")?;
            loose.push(("-".to_string(), text));
            continue;
        }
        let path = Path::new(p);
        if path.is_dir() {
            let mut found = Vec::new();
            let (repeats, links) = (walk.repeats, walk.links);
            folders(path, p, &mut found, &mut walk)?;
            if found.is_empty() && walk.repeats == repeats {
                let unfollowed = if walk.links > links {
                    " (links to folders under it are not followed: name them with -f)"
                } else {
                    ""
                };
                return Err(Error(format!(
                    "{p}: no .yaml, .yml or .json file in the folder or under it{unfollowed}"
                )));
            }
            for (dir, files) in found {
                let sources = files
                    .iter()
                    .map(|f| read_file(f))
                    .collect::<Result<_, _>>()?;
                apps.push(Application {
                    name: dir.display().to_string().trim_end_matches('/').to_string(),
                    sources,
                });
            }
        } else {
            if let Ok(c) = std::fs::canonicalize(path) {
                if loose_seen.contains(&c) {
                    walk.notes
                        .push(format!("{p}: given twice with -f: it is read once"));
                    continue;
                }
                loose_seen.push(c);
            }
            loose.push(read_file(path)?);
        }
    }
    // A file named with -f that a folder given with -f holds already is part of that
    // folder's application: read once, there.
    loose.retain(|(name, _)| {
        if name == "-" || !is_manifest_name(Path::new(name)) {
            return true;
        }
        let folder = std::fs::canonicalize(name)
            .ok()
            .and_then(|c| c.parent().map(Path::to_path_buf))
            .and_then(|dir| walk.visited.get(&dir).cloned());
        match folder {
            Some(given) => {
                walk.notes.push(format!(
                    "{name}: already read with the folder given as -f {given}: each file is checked once, in its folder's application"
                ));
                false
            }
            None => true,
        }
    });
    if !loose.is_empty() {
        let names: Vec<&str> = loose.iter().map(|(n, _)| n.as_str()).collect();
        apps.push(Application {
            name: names.join(", "),
            sources: loose,
        });
    }
    Ok(Applications {
        apps,
        notes: walk.notes,
    })
}

/// The manifests of an application read into a fault-less base scenario named after it.
pub fn read_application(app: &Application) -> Result<Reading, Error> {
    for (name, text) in &app.sources {
        if manifest::looks_like_scenarios(text) {
            return Err(Error(format!(
                "{name}: this is a podcheck scenario list, not Kubernetes manifests: check it with podcheck check --catalogue {name}"
            )));
        }
    }
    let mut r = manifest::read(&app.sources).map_err(Error)?;
    r.scenario.name = app.name.clone();
    check::selected(&r.scenario).map_err(Error)?;
    Ok(r)
}

/// One scenario to check: a plan over an application.
#[derive(Clone, Debug)]
pub struct Planned {
    pub application: String,
    pub plan: Plan,
    pub scenario: Scenario,
}

/// A plan that gave no scenario for an application, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotApplicable {
    pub application: String,
    pub plan: Plan,
    /// `plan: why`.
    pub why: String,
}

/// The scenarios of `plans` over an application's base scenario, plan by plan, with the
/// plans that had nothing to act on. A workload in `chosen` (its `podcheck.dev/plans`
/// annotation, [`Reading::plans`]) is checked only under the plans listed for it.
pub fn planned(
    application: &str,
    base: &Scenario,
    plans: &[Plan],
    chosen: &std::collections::BTreeMap<String, Vec<Plan>>,
) -> (Vec<Planned>, Vec<NotApplicable>) {
    let mut out = Vec::new();
    let mut na = Vec::new();
    let mut seen = Vec::new();
    for &plan in plans {
        if seen.contains(&plan) {
            continue;
        }
        seen.push(plan);
        let set = podcheck_model::plan::plan_scenarios_for(base, &[plan], chosen);
        out.extend(set.scenarios.into_iter().map(|scenario| Planned {
            application: application.to_string(),
            plan,
            scenario,
        }));
        na.extend(set.not_applicable.into_iter().map(|why| NotApplicable {
            application: application.to_string(),
            plan,
            why,
        }));
    }
    (out, na)
}

/// How a trace is rendered (as `podcheck trace --format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TraceFormat {
    /// A timeline: time, actor, action, what changed, events, `kubectl get pods`.
    #[default]
    Text,
    /// The trace as data (JSON).
    Json,
    /// The Informal Trace Format (JSON).
    Itf,
    /// A Mermaid sequence diagram.
    Mermaid,
    /// Graphviz DOT: the state graph of a small scenario (with a kept graph), else the path.
    Dot,
}

/// The run a check shows for a property (counterexample, witness, lasso), replayed into a
/// trace: `None` when it has none.
pub fn shown_trace(
    m: &Cluster,
    p: &PropertyResult,
) -> Option<Result<(podcheck_traces::RawPath, podcheck_traces::Trace), String>> {
    let shown = p.shown()?;
    let raw = match podcheck_traces::RawPath::from_actions(m, shown.actions) {
        Ok(raw) => raw,
        Err(e) => return Some(Err(e)),
    };
    Some(
        podcheck_traces::from_raw(
            m,
            &raw,
            p.def.name,
            podcheck_traces::Kind::from(&p.def.kind),
            p.verdict,
            shown.loop_start,
        )
        .map(|t| match shown.clock {
            Some((from, deadline, slowest)) => t.with_clock(from, deadline, slowest),
            None => t,
        })
        .map(|t| (raw, t)),
    )
}

/// The trace of property `p` of a check, rendered: `Ok(None)` when it has no run to show.
pub fn render_trace(
    r: &ScenarioResult,
    p: &PropertyResult,
    format: TraceFormat,
) -> Result<Option<String>, Error> {
    let model = check::model(&r.scenario, &[], false);
    let Some(shown) = shown_trace(&model, p) else {
        return Ok(None);
    };
    let (raw, trace) =
        shown.map_err(|e| Error(format!("internal error: the trace does not replay: {e}")))?;
    render(&model, r.graph.as_deref(), &raw, &trace, format).map(Some)
}

/// A replayed trace in `format`: the timeline, its JSON, ITF, a Mermaid sequence diagram, or
/// DOT (the state graph with the trace in red where the check kept its graph, else the path).
pub fn render(
    model: &Cluster,
    graph: Option<&podcheck_properties::check::ClusterGraph>,
    raw: &podcheck_traces::RawPath,
    trace: &podcheck_traces::Trace,
    format: TraceFormat,
) -> Result<String, Error> {
    Ok(match format {
        TraceFormat::Text => podcheck_traces::render_text(trace),
        TraceFormat::Json => pretty(trace)?,
        TraceFormat::Itf => pretty(&podcheck_traces::itf::render_itf(model, raw, trace))?,
        TraceFormat::Mermaid => podcheck_traces::mermaid::render_mermaid(model, raw, trace),
        TraceFormat::Dot => match graph {
            Some(g) => podcheck_traces::dot::render_dot_graph(model, g, raw, trace),
            None => podcheck_traces::dot::render_dot(model, raw, trace),
        }
        .map_err(Error)?,
    })
}

fn pretty<T: serde::Serialize>(v: &T) -> Result<String, Error> {
    serde_json::to_string_pretty(v).map_err(|e| Error(e.to_string()))
}

/// A violated property that the manifests can change: a finding.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The application (its folder, or its files).
    pub application: String,
    /// The plan scenario, as `<application>: <plan> <workload>`.
    pub scenario: String,
    pub plan: Plan,
    pub property: String,
    /// What the property says.
    pub sentence: String,
    /// Steps of the shortest counterexample (or of the lasso); `None` when there is no run to
    /// show (a `sometimes` of your own that no state has).
    pub trace_steps: Option<usize>,
    /// The shortest counterexample in the chosen trace format (timeline text by default);
    /// for a property without a run to show, a sentence saying so.
    pub trace: String,
}

/// A violated property that is Kubernetes' own behaviour whatever the manifests say: not a
/// finding, reported with why.
#[derive(Clone, Debug)]
pub struct Behaviour {
    pub application: String,
    pub scenario: String,
    pub plan: Plan,
    pub property: String,
    pub why: String,
}

/// The findings and the Kubernetes behaviours of one plan scenario's check, the findings'
/// traces rendered in `format`.
pub fn findings(
    planned: &Planned,
    r: &ScenarioResult,
    format: TraceFormat,
) -> Result<(Vec<Finding>, Vec<Behaviour>), Error> {
    let mut found = Vec::new();
    let mut behaviour = Vec::new();
    for p in &r.properties {
        if p.verdict == Verdict::Incomplete || p.verdict == p.expected {
            continue;
        }
        if let Some(why) = kubernetes_behaviour_in(p.def.name, &r.scenario) {
            behaviour.push(Behaviour {
                application: planned.application.clone(),
                scenario: r.scenario.name.clone(),
                plan: planned.plan,
                property: p.def.name.to_string(),
                why: why.to_string(),
            });
            continue;
        }
        let trace = match render_trace(r, p, format)? {
            Some(t) => t,
            None => format!(
                "{}: {} (no run to show: no reachable state has it)",
                p.def.name, p.def.sentence
            ),
        };
        found.push(Finding {
            application: planned.application.clone(),
            scenario: r.scenario.name.clone(),
            plan: planned.plan,
            property: p.def.name.to_string(),
            sentence: p.def.sentence.to_string(),
            trace_steps: p.trace_steps(),
            trace,
        });
    }
    Ok((found, behaviour))
}

/// The properties a plan scenario is checked with: the catalogue's (every safety property and
/// the plan's promise) and `own`.
pub fn properties_of(scenario: &Scenario, own: &[PropertyDef]) -> Result<Vec<PropertyDef>, Error> {
    let mut defs = check::selected(scenario).map_err(Error)?;
    for d in own {
        if defs.iter().any(|c| c.name == d.name) {
            return Err(Error(format!(
                "property `{}` is a property of the catalogue: give yours another name",
                d.name
            )));
        }
    }
    defs.extend_from_slice(own);
    Ok(defs)
}

enum Input {
    Paths(Vec<String>),
    Text(String, String),
}

/// A check of manifests against fault plans: [`Check::manifests`] or [`Check::text`], then
/// [`Check::plan`] and [`Check::property`] as needed, then [`Check::run`].
pub struct Check {
    input: Vec<Input>,
    plans: Vec<Plan>,
    own: Vec<PropertyDef>,
    options: CheckOptions,
    trace_format: TraceFormat,
    jobs: usize,
}

impl Check {
    /// The manifests at `path`: a file, or a folder (each folder under it that directly holds
    /// manifest files is one application, as with `podcheck check -f`).
    pub fn manifests(path: impl AsRef<Path>) -> Result<Check, Error> {
        let p = path.as_ref();
        if !p.exists() {
            return Err(Error(format!("{}: no such file or folder", p.display())));
        }
        Ok(Check {
            input: vec![Input::Paths(vec![p.display().to_string()])],
            ..Check::empty()
        })
    }

    /// Manifests given as text (one or more YAML documents), named `name` in messages.
    pub fn text(name: &str, yaml: &str) -> Check {
        Check {
            input: vec![Input::Text(name.to_string(), yaml.to_string())],
            ..Check::empty()
        }
    }

    fn empty() -> Check {
        Check {
            input: Vec::new(),
            plans: Vec::new(),
            own: Vec::new(),
            options: CheckOptions::default(),
            trace_format: TraceFormat::Text,
            jobs: 1,
        }
    }

    /// Check under this plan (repeatable). Without any, every plan ([`Plan::ALL`]); some are
    /// slow on larger manifests (a drain tells pods apart: millions of states at two
    /// replicas), so pick what your tests need.
    pub fn plan(mut self, plan: Plan) -> Check {
        self.plans.push(plan);
        self
    }

    /// Check this property of your own too, in every plan scenario. It is expected to hold:
    /// a violation is a finding.
    pub fn property(mut self, def: PropertyDef) -> Check {
        self.own.push(def);
        self
    }

    /// The checker's options (bounds, threads).
    pub fn options(mut self, options: CheckOptions) -> Check {
        self.options = options;
        self
    }

    /// The format of the findings' traces (default: timeline text).
    pub fn trace_format(mut self, format: TraceFormat) -> Check {
        self.trace_format = format;
        self
    }

    /// Check this many plan scenarios at once, each on threads of its own (default 1; at
    /// least 1). The report is the same for any number. `cargo test` already runs tests side
    /// by side, so more jobs help a test that checks many plans, on a machine with cores to
    /// spare.
    pub fn jobs(mut self, jobs: usize) -> Check {
        self.jobs = jobs.max(1);
        self
    }

    /// Reads the manifests, makes every plan's scenarios and checks them.
    pub fn run(self) -> Result<Report, Error> {
        let mut apps = Vec::new();
        let mut notes = Vec::new();
        for i in &self.input {
            match i {
                Input::Paths(p) => {
                    let read = applications(p)?;
                    apps.extend(read.apps);
                    notes.extend(read.notes);
                }
                Input::Text(name, text) => apps.push(Application {
                    name: name.clone(),
                    sources: vec![(name.clone(), text.clone())],
                }),
            }
        }
        let plans: Vec<Plan> = if self.plans.is_empty() {
            Plan::ALL.to_vec()
        } else {
            self.plans.clone()
        };
        let mut report = Report {
            warnings: notes,
            ..Report::default()
        };
        for app in &apps {
            let reading = read_application(app)?;
            report.warnings.extend(reading.warnings.iter().cloned());
            report.applications.push(app.name.clone());
            let (scenarios, na) = planned(&app.name, &reading.scenario, &plans, &reading.plans);
            report.not_applicable.extend(na);
            let work = |i: usize| -> Result<Checked, Error> {
                let p = &scenarios[i];
                let defs = properties_of(&p.scenario, &self.own)?;
                let r = check::check_with(&p.scenario, &defs, &self.options).map_err(Error)?;
                let (f, b) = findings(p, &r, self.trace_format)?;
                Ok((r, f, b))
            };
            let emit = |done: Result<Checked, Error>| -> Result<(), Error> {
                let (r, f, b) = done?;
                let p = &r.scenario;
                if !r.complete {
                    report.incomplete.push(p.name.clone());
                }
                report
                    .warnings
                    .extend(r.warnings.iter().map(|w| format!("{}: {w}", p.name)));
                report.findings.extend(f);
                report.behaviours.extend(b);
                report.scenarios.push(p.name.clone());
                Ok(())
            };
            if self.options.progress && self.jobs.min(scenarios.len()) > 1 {
                // Two checks' progress lines would overwrite each other on a terminal.
                podcheck_properties::progress::whole_lines();
            }
            in_order(scenarios.len(), self.jobs, work, emit).map_err(|e| {
                e.unwrap_or_else(|spawn| Error(format!("cannot start a thread for jobs: {spawn}")))
            })?;
        }
        Ok(report)
    }
}

/// Runs `work` on each of `0..n`, on up to `jobs` threads, and hands each result to `emit` on
/// the calling thread in index order, as soon as it and every one before it are done: what
/// `emit` does is the same for any number of jobs. With one job, `work` runs on the calling
/// thread. Where `emit` fails, no more work starts, and its error is returned (`Err(Ok(e))`)
/// once the work under way is done; `Err(Err(_))` where a thread could not be started.
/// (`podcheck check --jobs` and [`Check::jobs`] run their scenarios so.)
pub fn in_order<T: Send, E>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    mut emit: impl FnMut(T) -> Result<(), E>,
) -> Result<(), Result<E, std::io::Error>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let jobs = jobs.min(n);
    if jobs <= 1 {
        return (0..n).try_for_each(|i| emit(work(i))).map_err(Ok);
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..jobs {
            let (tx, next, stop, work) = (tx.clone(), &next, &stop, &work);
            // More stack than a main thread has: a check runs as it would there.
            let spawned = std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    while !stop.load(Ordering::SeqCst) {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= n || tx.send((i, work(i))).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                stop.store(true, Ordering::SeqCst);
                return Err(Err(e));
            }
        }
        drop(tx);
        let mut ready = std::collections::BTreeMap::new();
        let mut due = 0;
        for (i, t) in rx {
            ready.insert(i, t);
            while let Some(t) = ready.remove(&due) {
                due += 1;
                if let Err(e) = emit(t) {
                    stop.store(true, Ordering::SeqCst);
                    return Err(Ok(e));
                }
            }
        }
        Ok(())
    })
}

/// A plan scenario checked, with its findings and Kubernetes' behaviours.
type Checked = (ScenarioResult, Vec<Finding>, Vec<Behaviour>);

/// What a [`Check`] found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    applications: Vec<String>,
    scenarios: Vec<String>,
    findings: Vec<Finding>,
    behaviours: Vec<Behaviour>,
    not_applicable: Vec<NotApplicable>,
    incomplete: Vec<String>,
    warnings: Vec<String>,
}

impl Report {
    /// The applications checked, by name.
    pub fn applications(&self) -> &[String] {
        &self.applications
    }
    /// The plan scenarios checked, by name.
    pub fn scenarios(&self) -> &[String] {
        &self.scenarios
    }
    /// The findings: violated properties the manifests can change, each with its trace.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }
    /// Violations that are Kubernetes' own behaviour, with why: not findings.
    pub fn behaviours(&self) -> &[Behaviour] {
        &self.behaviours
    }
    /// The plans that had nothing to act on in an application.
    pub fn not_applicable(&self) -> &[NotApplicable] {
        &self.not_applicable
    }
    /// The scenarios whose check stopped at a bound before it was complete.
    pub fn incomplete(&self) -> &[String] {
        &self.incomplete
    }
    /// The reader's warnings (unknown fields), the notes on the paths read (a link to a
    /// folder not followed, a path given twice) and the checks' vacuity warnings.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Panics unless the report has no finding and every check was complete, listing each
    /// finding with its trace.
    #[track_caller]
    pub fn assert_clean(&self) {
        if self.findings.is_empty() && self.incomplete.is_empty() {
            return;
        }
        let mut msg = format!(
            "podcheck: {} findings in {} plan scenarios",
            self.findings.len(),
            self.scenarios.len()
        );
        for f in &self.findings {
            msg.push_str(&format!(
                "\n\nfinding in {}: {}: {}\n{}",
                f.scenario, f.property, f.sentence, f.trace
            ));
        }
        for s in &self.incomplete {
            msg.push_str(&format!("\n\nincomplete: {s} stopped at a bound"));
        }
        panic!("{msg}");
    }
}
