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

use podcheck_input::files;
use podcheck_input::manifest::{self, Reading};
use podcheck_properties::check::{self, CheckOptions, PropertyResult, ScenarioResult};
use podcheck_properties::findings::kubernetes_behaviour_in;
use std::path::Path;

pub mod about;
pub mod fix;
pub mod swarm;

/// The layers below, for what the re-exports above do not cover.
pub use podcheck_input as input;
pub use podcheck_input::plan::Plan;
pub use podcheck_input::spec::{Scenario, Verdict};
pub use podcheck_model as model;
pub use podcheck_model::{state, Action, Cluster, State};
pub use podcheck_properties as properties;
pub use podcheck_properties::{ActionFn, Kind, Premise, PropertyDef, StateFn, StepFn, Steps};
pub use podcheck_traces as traces;
pub use podcheck_traces::render::{render, shown_trace, TraceFormat};

/// The trace of property `p` of a check, rendered in `format` ([`podcheck_traces::render`]):
/// `Ok(None)` when it has no run to show. DOT draws the check's graph where it kept one, else
/// the graph explored for drawing ([`podcheck_properties::drawing::graph_to_draw`]).
pub fn render_trace(
    r: &ScenarioResult,
    p: &PropertyResult,
    format: TraceFormat,
) -> Result<Option<String>, String> {
    if p.shown().is_none() {
        return Ok(None);
    }
    let explored;
    let graph = match r.graph.as_deref() {
        None if format == TraceFormat::Dot => {
            explored =
                podcheck_properties::drawing::graph_to_draw(&check::model(&r.scenario, &[], false));
            Some(&explored)
        }
        g => g,
    };
    podcheck_traces::render::render_trace(r, p, format, graph)
}

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

pub use files::{Application, Applications, MAX_INPUT_BYTES};

/// The text of `reader`, named `name` in messages: at most [`MAX_INPUT_BYTES`] (checked while
/// reading, so an endless input stops there), and UTF-8.
pub fn read_text(reader: impl std::io::Read, name: &str) -> Result<String, Error> {
    files::read_text(reader, name).map_err(Error)
}

/// The text of the file at `path`, as [`read_text`] reads it.
pub fn read_text_file(path: &Path) -> Result<String, Error> {
    files::read_text_file(path).map_err(Error)
}

/// The applications of the paths given with `-f`: each folder (the one named, or one under
/// it) that directly holds `.yaml`, `.yml` or `.json` files is one application, its files
/// together, named by its path; the files named directly and stdin (`-`) together make one
/// more, after the folders' ones. A folder or file is read once, however often it is given
/// (also as a folder under one given): a repeat is dropped with a note. Each file and stdin
/// is read up to [`MAX_INPUT_BYTES`].
pub fn applications(paths: &[String]) -> Result<Applications, Error> {
    files::applications(paths).map_err(Error)
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

/// The order in which an application's plan scenarios are checked and reported: by their
/// expected cost, cheapest first, so that a slow plan (under a time budget, or stopped by
/// Ctrl-C) never holds back the findings of a cheap one. A crash restarts one container and
/// a delete-pod replaces one pod; a dependency outage changes probe results only; a power-off
/// removes one node's pods at once; a partition waits out the taint-based eviction (and its
/// force-delete variant adds a step); a rollout replaces every pod of the workload; a drain
/// evicts every pod of a node, with kubectl's 1 s polls and 5 s retries between. Fixed, so the
/// report is the same on every run.
pub const CHECK_ORDER: [Plan; 8] = [
    Plan::DeletePod,
    Plan::Crash,
    Plan::DependencyOutage,
    Plan::PowerOff,
    Plan::Partition,
    Plan::PartitionForceDelete,
    Plan::Rollout,
    Plan::Drain,
];

/// One scenario to check: a plan over an application.
#[derive(Clone, Debug)]
pub struct Planned {
    pub application: String,
    pub plan: Plan,
    pub scenario: Scenario,
    /// The application's workloads left out of the scenario, outside its cone of influence
    /// (`podcheck_input::cone`: they cannot change its verdicts); empty where it has them
    /// all, or with [`Size::no_cone`].
    pub left_out: Vec<String>,
    /// The application's Service it models, and the others that select the pods its plan
    /// acts on, not modelled in it (`podcheck_input::plan::plan_scenarios_served`).
    pub services: podcheck_input::plan::ServiceChoice,
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
/// annotation, [`Reading::plans`]) is checked only under the plans listed for it. Each
/// scenario is reduced to its cone of influence where that is exact
/// ([`podcheck_input::cone`]), unless `whole` asks for the whole application in each. Each
/// scenario holds the Service of `services` ([`Reading::services`]) that concerns its plan's
/// pods; with none, `base`'s own.
pub fn planned(
    application: &str,
    base: &Scenario,
    services: &[podcheck_input::plan::NamedService],
    plans: &[Plan],
    chosen: &std::collections::BTreeMap<String, Vec<Plan>>,
    whole: bool,
) -> (Vec<Planned>, Vec<NotApplicable>) {
    let mut out = Vec::new();
    let mut na = Vec::new();
    let mut seen = Vec::new();
    for &plan in plans {
        if seen.contains(&plan) {
            continue;
        }
        seen.push(plan);
        let set = if whole {
            podcheck_input::plan::plan_scenarios_served(
                base,
                services,
                &[plan],
                chosen,
                &podcheck_model::cluster::first_pod_nodes,
            )
        } else {
            podcheck_input::plan::plan_scenarios_in_cones_served(
                base,
                services,
                &[plan],
                chosen,
                &podcheck_model::cluster::pod_places,
            )
        };
        let first = out.len();
        let choices = set
            .services
            .into_iter()
            .chain(std::iter::repeat_with(Default::default));
        for ((scenario, left_out), services) in
            set.scenarios.into_iter().zip(set.left_out).zip(choices)
        {
            // A node plan acts on a node, not on its target: the scenarios of two workloads
            // whose first pods share a node, with the same cone, are one scenario under two
            // names. It is checked once, under the first name.
            let same = out[first..].iter().find(|p: &&Planned| {
                p.left_out == left_out && same_but_names(&p.scenario, &scenario)
            });
            if let Some(p) = same {
                na.push(NotApplicable {
                    application: application.to_string(),
                    plan,
                    why: format!(
                        "`{}` {SAME_SCENARIO} `{}` (the same node and the same workloads): checked once, as `{}`",
                        scenario.name, p.scenario.name, p.scenario.name
                    ),
                });
                continue;
            }
            out.push(Planned {
                application: application.to_string(),
                plan,
                scenario,
                left_out,
                services,
            });
        }
        na.extend(set.not_applicable.into_iter().map(|why| NotApplicable {
            application: application.to_string(),
            plan,
            why,
        }));
    }
    (out, na)
}

/// What a [`NotApplicable`] says of a plan scenario left out because an earlier one of the
/// same plan is the same scenario under another name.
pub const SAME_SCENARIO: &str = "is the same scenario as";

/// Whether two scenarios differ at most in their names and descriptions.
fn same_but_names(a: &Scenario, b: &Scenario) -> bool {
    let unnamed = |s: &Scenario| Scenario {
        name: String::new(),
        description: String::new(),
        ..s.clone()
    };
    unnamed(a) == unnamed(b)
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
    /// The workload the finding is about (which may not be the plan's target) and, where
    /// the fix is in one, its container ([`about::about`]).
    pub about: about::About,
    /// The annotations' defaults the finding rests on ([`assumed_in`]): empty where the
    /// manifests say everything the scenario reads.
    pub assuming: Vec<manifest::Assumed>,
}

/// `assuming …` lines for a finding's [`Finding::assuming`], one per container (or Service):
/// `assuming podcheck.dev/sigterm: ignore, podcheck.dev/boot-seconds: 5 (Deployment/worker
/// container app)`.
pub fn assuming_lines(assuming: &[manifest::Assumed]) -> Vec<String> {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for a in assuming {
        let whose = match &a.container {
            Some(c) => format!("{} container {c}", a.object),
            None => a.object.clone(),
        };
        match groups.iter_mut().find(|(w, _)| *w == whose) {
            Some((_, list)) => list.push(&a.annotation),
            None => groups.push((whose, vec![&a.annotation])),
        }
    }
    groups
        .into_iter()
        .map(|(whose, list)| format!("assuming {} ({whose})", list.join(", ")))
        .collect()
}

/// The annotations' defaults of `defaults` (an application's, [`Reading::defaults`]) that a
/// finding of `scenario` may rest on. Which of them matter to which property is not worked
/// out, so this is every default of the workloads in the scenario (its cone of influence,
/// where it has one) and of the Service when the scenario holds one: more than a finding
/// needs, never less. The Service is the one `services` says the scenario models (with those
/// alike it stands for); the application's other Services are not in the scenario, and their
/// defaults are not what its findings rest on. Without that choice (a scenario that keeps its
/// base's Service), every Service's.
pub fn assumed_in(
    scenario: &Scenario,
    services: &podcheck_input::plan::ServiceChoice,
    defaults: &[manifest::Assumed],
) -> Vec<manifest::Assumed> {
    defaults
        .iter()
        .filter(|d| {
            if d.object.starts_with("Service/") {
                scenario.service.is_some()
                    && services
                        .modelled
                        .as_ref()
                        .is_none_or(|m| *m == d.object || services.alike.contains(&d.object))
            } else {
                scenario.workloads.iter().any(|w| w.name() == d.name())
            }
        })
        .cloned()
        .collect()
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

/// A plan scenario that gave a finding (or a Kubernetes behaviour) of a [`Cause`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Under {
    pub plan: Plan,
    /// The plan scenario, as `<application>: <plan> <workload>`.
    pub scenario: String,
    /// Steps of its trace (`None`: no run to show).
    pub trace_steps: Option<usize>,
}

/// One cause: the findings of the same property about the same workload (and container) of
/// one application, under every plan scenario that gives it, said once with the shortest
/// trace among them. A finding whose workload is not known ([`about::About`]) is a cause of
/// its own.
#[derive(Clone, Debug)]
pub struct Cause {
    /// The finding shown: the one with the shortest trace, the first checked among equals
    /// (a finding with no run to show comes last).
    pub shown: Finding,
    /// Every plan scenario that gives it, in the order they were checked.
    pub under: Vec<Under>,
    /// `Some(what to do instead)` when every plan that gives it is an operator's action that
    /// no manifest can make safe ([`Plan::operator_hazard`]): an operator hazard, reported
    /// apart and failing a run only when asked.
    pub hazard: Option<&'static str>,
}

/// The findings of `findings` (in check order) merged into causes, in the order of each
/// cause's first finding.
pub fn causes<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Vec<Cause> {
    let mut out: Vec<Cause> = Vec::new();
    // The length a finding's trace is ranked by: no run to show ranks last.
    let rank = |f: &Finding| f.trace_steps.unwrap_or(usize::MAX);
    for f in findings {
        let under = Under {
            plan: f.plan,
            scenario: f.scenario.clone(),
            trace_steps: f.trace_steps,
        };
        let same = |c: &&mut Cause| {
            let s = &c.shown;
            s.application == f.application
                && s.property == f.property
                && f.about.workload.is_some()
                && s.about == f.about
        };
        match out.iter_mut().find(same) {
            Some(c) => {
                if rank(f) < rank(&c.shown) {
                    c.shown = f.clone();
                }
                c.under.push(under);
                c.hazard = c.hazard.and(f.plan.operator_hazard());
            }
            None => out.push(Cause {
                shown: f.clone(),
                under: vec![under],
                hazard: f.plan.operator_hazard(),
            }),
        }
    }
    out
}

/// The Kubernetes behaviours of `behaviours` (in check order) said once each: the same
/// property of one application for the same reason, with every plan scenario that gave it.
pub fn behaviour_causes<'a>(
    behaviours: impl IntoIterator<Item = &'a Behaviour>,
) -> Vec<(Behaviour, Vec<String>)> {
    let mut out: Vec<(Behaviour, Vec<String>)> = Vec::new();
    for b in behaviours {
        match out.iter_mut().find(|(s, _)| {
            s.application == b.application && s.property == b.property && s.why == b.why
        }) {
            Some((_, under)) => under.push(b.scenario.clone()),
            None => out.push((b.clone(), vec![b.scenario.clone()])),
        }
    }
    out
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
    let mut model = None;
    // The plan's target workload: the name's last word, before the Service of a scenario
    // `… via Service/<name>`.
    let target = r
        .scenario
        .name
        .strip_prefix(&format!(
            "{}: {} ",
            planned.application,
            planned.plan.name()
        ))
        .map(|t| t.split(podcheck_input::plan::VIA).next().unwrap_or(t));
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
        let trace = match render_trace(r, p, format).map_err(Error)? {
            Some(t) => t,
            None => format!(
                "{}: {} (no run to show: no reachable state has it)",
                p.def.name, p.def.sentence
            ),
        };
        let model = model.get_or_insert_with(|| check::model(&r.scenario, &[], false));
        let raw = shown_trace(model, p)
            .and_then(Result::ok)
            .map(|(raw, _)| raw);
        found.push(Finding {
            about: about::about(&r.scenario, target, raw.as_ref(), p.def.name),
            application: planned.application.clone(),
            scenario: r.scenario.name.clone(),
            plan: planned.plan,
            property: p.def.name.to_string(),
            sentence: p.def.sentence.to_string(),
            trace_steps: p.trace_steps(),
            trace,
            assuming: Vec::new(),
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
    size: Size,
    traces: bool,
    walks: Option<podcheck_properties::simulate::SimOptions>,
}

/// The sizes every application's scenario is given ([`Check::size`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Nodes (extra nodes copy the last one).
    pub nodes: Option<u8>,
    /// `replicas` of every Deployment and StatefulSet.
    pub replicas: Option<u8>,
    /// The Kubernetes release to follow instead of the scenario's own.
    pub kubernetes_version: Option<podcheck_input::spec::Release>,
    /// Check each plan scenario with the whole application, not only its cone of influence
    /// (`podcheck_input::cone`; `--no-cone`): for comparison, the verdicts are the same.
    pub no_cone: bool,
}

/// `scenario` with the release and the sizes of `size` (a scenario of `origin`, in messages).
pub fn resized(mut scenario: Scenario, size: Size, origin: &str) -> Result<Scenario, Error> {
    if let Some(v) = size.kubernetes_version {
        scenario.cluster.kubernetes_version = Some(v.to_string());
    }
    if size.nodes.is_none() && size.replicas.is_none() {
        return Ok(scenario);
    }
    scenario
        .resize(size.nodes, size.replicas)
        .map_err(|e| Error(format!("scenario `{}` (in {origin}): {e}", scenario.name)))?;
    Ok(scenario)
}

/// The scenario of an application's `reading` with the release and the sizes of `size`
/// ([`resized`]). A release of `--kubernetes-version` may refuse what the manifests ask for (a
/// field its API server drops): said at the field's file and line.
pub fn resized_reading(reading: &Reading, size: Size, origin: &str) -> Result<Scenario, Error> {
    let base = resized(reading.scenario.clone(), size, origin)?;
    if size.kubernetes_version.is_some() {
        if let Err(e) = base.validate() {
            return Err(Error(
                reading
                    .locate_invalid(&e)
                    .unwrap_or_else(|| format!("{origin}: {e}")),
            ));
        }
    }
    Ok(base)
}

/// What a check tells as it goes ([`Check::prepare`], [`Check::check`]): the paths' notes,
/// each application as it is read, each plan scenario as it is checked, in order. Every
/// method does nothing unless overridden; an error stops the check.
///
/// ```
/// struct Names(Vec<String>);
///
/// impl podcheck::Observer for Names {
///     fn checked(&mut self, c: &podcheck::Checked) -> Result<(), podcheck::Error> {
///         self.0.push(format!("{}: {} states", c.planned.scenario.name, c.result.unique_states));
///         Ok(())
///     }
/// }
///
/// let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: one}\nspec:\n  containers:\n  - {name: app, image: app:1}\n";
/// let mut names = Names(Vec::new());
/// let report = podcheck::Check::text("pod.yaml", yaml)
///     .plan(podcheck::Plan::Crash)
///     .run_with(&mut names)
///     .unwrap();
/// assert_eq!(names.0.len(), report.scenarios().len());
/// assert!(names.0[0].starts_with("pod.yaml: crash one: "), "{:?}", names.0);
/// ```
pub trait Observer {
    /// The notes on the paths read (a link to a folder not followed, a path given twice).
    fn notes(&mut self, _notes: &[String]) -> Result<(), Error> {
        Ok(())
    }
    /// An application read, before it is sized and planned.
    fn read(&mut self, _app: &Application, _reading: &Reading) -> Result<(), Error> {
        Ok(())
    }
    /// A plan scenario checked, in the order of [`Prepared::planned`].
    fn checked(&mut self, _checked: &Checked) -> Result<(), Error> {
        Ok(())
    }
    /// The error for jobs whose thread could not be started.
    fn cannot_start_thread(&self, e: std::io::Error) -> Error {
        Error(format!("cannot start a thread for jobs: {e}"))
    }
}

/// An [`Observer`] that is told nothing.
struct Quiet;

impl Observer for Quiet {}

/// The applications read and planned, not checked yet ([`Check::prepare`]).
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    /// The applications' names.
    pub applications: Vec<String>,
    /// Each application's base scenario, sized.
    pub bases: Vec<Scenario>,
    /// The plan scenarios, application by application, plan by plan.
    pub planned: Vec<Planned>,
    /// The plans that had nothing to act on in an application.
    pub not_applicable: Vec<NotApplicable>,
    notes: Vec<String>,
    /// Per application, the reader's warnings.
    read_warnings: Vec<Vec<String>>,
    /// Per application, the annotations' defaults the reader took.
    defaults: Vec<Vec<manifest::Assumed>>,
    /// Per plan scenario, its application's index.
    app_of: Vec<usize>,
    /// The applications as read, for [`Report::fixes`].
    sources: Vec<Application>,
}

/// One plan scenario checked.
#[derive(Clone, Debug)]
pub struct Checked {
    pub planned: Planned,
    pub result: ScenarioResult,
    /// `false`: it was not started (Ctrl-C came first), and every property is `incomplete`.
    pub started: bool,
    pub findings: Vec<Finding>,
    pub behaviours: Vec<Behaviour>,
    /// With [`Check::traces`]: each property's run in the trace format (`None` where it has
    /// none); else empty.
    pub traces: Vec<Option<String>>,
    /// With [`Check::walks`], for a scenario whose check stopped at a bound: what its random
    /// walks did and decided.
    pub walked: Option<podcheck_properties::simulate::Walked>,
}

/// The report of a scenario not started before Ctrl-C: every property `incomplete`.
pub fn not_started(s: &Scenario) -> Result<ScenarioResult, Error> {
    let stop = podcheck_properties::progress::Stop {
        bound: podcheck_properties::progress::Bound::Interrupt,
        phase: podcheck_properties::progress::Phase::Exploring,
        states: 0,
    };
    check::not_checked(s, stop).map_err(Error)
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

    /// The manifests at `paths`, read together as `podcheck check -f` reads them ([`applications`]:
    /// files, folders, `-` for stdin); a path that cannot be read is an error of the run.
    pub fn paths(paths: Vec<String>) -> Check {
        Check {
            input: vec![Input::Paths(paths)],
            ..Check::empty()
        }
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
            size: Size::default(),
            traces: false,
            walks: None,
        }
    }

    /// Check under this plan (repeatable). Without any, every plan ([`Plan::ALL`]); some are
    /// slow on larger manifests (a drain tells pods apart: millions of states at two
    /// replicas), so pick what your tests need. The plans are checked in [`CHECK_ORDER`],
    /// whatever order they are given in.
    pub fn plan(mut self, plan: Plan) -> Check {
        self.plans.push(plan);
        self
    }

    /// Check under these plans, as [`Check::plan`] each.
    pub fn plans(mut self, plans: impl IntoIterator<Item = Plan>) -> Check {
        self.plans.extend(plans);
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

    /// Walk every plan scenario whose exhaustive check stops at a bound (its time budget, the
    /// memory bound, `max_states`; not Ctrl-C) with these random walks
    /// ([`podcheck_properties::simulate::walk_incomplete`]): what they find decides a property
    /// left `incomplete` (a violation with its replayed trace); nothing found leaves it so.
    pub fn walks(mut self, walks: podcheck_properties::simulate::SimOptions) -> Check {
        self.walks = Some(walks);
        self
    }

    /// Render every property's run too, not only the findings' ([`Checked::traces`]).
    pub fn traces(mut self, traces: bool) -> Check {
        self.traces = traces;
        self
    }

    /// Give every application's scenario these sizes and this release.
    pub fn size(mut self, size: Size) -> Check {
        self.size = size;
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
        let prepared = self.prepare(&mut Quiet)?;
        self.check(prepared, &mut Quiet)
    }

    /// [`Check::run`], telling `observer` as it goes.
    pub fn run_with(self, observer: &mut impl Observer) -> Result<Report, Error> {
        let prepared = self.prepare(observer)?;
        self.check(prepared, observer)
    }

    /// Reads the manifests into applications and makes every plan's scenarios, sized, without
    /// checking them.
    pub fn prepare(&self, observer: &mut impl Observer) -> Result<Prepared, Error> {
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
        observer.notes(&notes)?;
        let mut plans: Vec<Plan> = if self.plans.is_empty() {
            Plan::ALL.to_vec()
        } else {
            self.plans.clone()
        };
        // Cheap plans first, whatever order they were named in.
        plans.sort_by_key(|p| CHECK_ORDER.iter().position(|q| q == p));
        let mut out = Prepared {
            notes,
            ..Prepared::default()
        };
        for (k, app) in apps.iter().enumerate() {
            let reading = read_application(app)?;
            let base = resized_reading(&reading, self.size, &app.name)?;
            observer.read(app, &reading)?;
            let (p, na) = planned(
                &app.name,
                &base,
                &reading.services,
                &plans,
                &reading.plans,
                self.size.no_cone,
            );
            out.applications.push(app.name.clone());
            out.sources.push(app.clone());
            out.read_warnings.push(reading.warnings);
            out.defaults.push(reading.defaults);
            out.app_of.extend(p.iter().map(|_| k));
            out.planned.extend(p);
            out.not_applicable.extend(na);
            out.bases.push(base);
        }
        Ok(out)
    }

    /// Checks the plan scenarios of `prepared`, [`Check::jobs`] at once, telling `observer` of
    /// each in order.
    pub fn check(&self, prepared: Prepared, observer: &mut impl Observer) -> Result<Report, Error> {
        let Prepared {
            applications,
            planned,
            not_applicable,
            notes,
            mut read_warnings,
            app_of,
            defaults,
            sources,
            ..
        } = prepared;
        let mut report = Report {
            applications,
            not_applicable,
            warnings: notes,
            fix_input: Some((
                sources,
                fix::FixOptions {
                    plans: self.plans.clone(),
                    size: self.size,
                    options: CheckOptions {
                        threads: 1,
                        progress: false,
                        position: None,
                        ..self.options.clone()
                    },
                },
            )),
            ..Report::default()
        };
        let work = |i: usize| -> Result<Checked, Error> {
            let p = &planned[i];
            let started = podcheck_properties::progress::interrupts() == 0;
            let mut walked = None;
            let r = if started {
                let defs = properties_of(&p.scenario, &self.own)?;
                let opts = CheckOptions {
                    position: Some((i + 1, planned.len())),
                    ..self.options.clone()
                };
                let mut r = check::check_with(&p.scenario, &defs, &opts).map_err(Error)?;
                // Stopped at a bound (not by Ctrl-C): random walks on what is left.
                let bounded = r
                    .stopped
                    .is_some_and(|s| s.bound != podcheck_properties::progress::Bound::Interrupt);
                if let Some(sim) = self.walks.filter(|_| !r.complete && bounded) {
                    if podcheck_properties::progress::interrupts() == 0 {
                        walked = Some(
                            podcheck_properties::simulate::walk_incomplete(&mut r, &defs, &sim)
                                .map_err(Error)?,
                        );
                    }
                }
                r
            } else {
                not_started(&p.scenario)?
            };
            let (mut findings, behaviours) = findings(p, &r, self.trace_format)?;
            let assuming = assumed_in(&p.scenario, &p.services, &defaults[app_of[i]]);
            for f in &mut findings {
                f.assuming.clone_from(&assuming);
            }
            let traces = if self.traces {
                r.properties
                    .iter()
                    .map(|q| render_trace(&r, q, self.trace_format).map_err(Error))
                    .collect::<Result<_, _>>()?
            } else {
                Vec::new()
            };
            Ok(Checked {
                planned: p.clone(),
                result: r,
                started,
                findings,
                behaviours,
                traces,
                walked,
            })
        };
        // The reader's warnings of each application come before its scenarios' warnings.
        let mut read_in = 0;
        let mut emit = |done: Result<Checked, Error>, report: &mut Report| -> Result<(), Error> {
            let c = done?;
            let app = app_of[report.scenarios.len()];
            while read_in <= app {
                report
                    .warnings
                    .extend(std::mem::take(&mut read_warnings[read_in]));
                read_in += 1;
            }
            let r = &c.result;
            if !r.complete {
                report.incomplete.push(r.scenario.name.clone());
            }
            let name = &r.scenario.name;
            report
                .warnings
                .extend(r.warnings.iter().map(|w| format!("{name}: {w}")));
            report.findings.extend(c.findings.iter().cloned());
            report.behaviours.extend(c.behaviours.iter().cloned());
            report.scenarios.push(name.clone());
            observer.checked(&c)
        };
        if self.options.progress && self.jobs.min(planned.len()) > 1 {
            // Two checks' progress lines would overwrite each other on a terminal.
            podcheck_properties::progress::whole_lines();
        }
        in_order(planned.len(), self.jobs, work, |done| {
            emit(done, &mut report)
        })
        .map_err(|e| match e {
            Ok(e) => e,
            Err(spawn) => observer.cannot_start_thread(spawn),
        })?;
        for w in read_warnings.into_iter().skip(read_in) {
            report.warnings.extend(w);
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

/// What a [`Check`] found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The applications as read and how they were checked, for [`Report::fixes`].
    fix_input: Option<(Vec<Application>, fix::FixOptions)>,
    applications: Vec<String>,
    scenarios: Vec<String>,
    findings: Vec<Finding>,
    behaviours: Vec<Behaviour>,
    not_applicable: Vec<NotApplicable>,
    incomplete: Vec<String>,
    warnings: Vec<String>,
}

impl Report {
    /// Each finding's verified fix ([`fix`]): the manifest change that removes it, found by
    /// checking the changed files again under the same plans, sizes and bounds (the
    /// catalogue's properties; a property of your own, [`Check::property`], is not
    /// re-checked), each with its diff and the report of that re-check, and the findings left
    /// without one, with why. Each candidate is a check of its application.
    pub fn fixes(&self) -> Result<fix::Fixes, Error> {
        match &self.fix_input {
            Some((apps, opts)) => fix::fixes_of(apps, opts),
            None => Ok(fix::Fixes {
                complete: true,
                ..fix::Fixes::default()
            }),
        }
    }

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
    /// The findings merged by cause ([`causes`]): each property about each workload once,
    /// with every plan scenario that gave it and the shortest trace among them.
    pub fn causes(&self) -> Vec<Cause> {
        causes(&self.findings)
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
                "\n\nfinding in {}: {}: {}",
                f.scenario, f.property, f.sentence
            ));
            for l in assuming_lines(&f.assuming) {
                msg.push_str(&format!("\n  {l}"));
            }
            msg.push_str(&format!("\n{}", f.trace));
        }
        for s in &self.incomplete {
            msg.push_str(&format!("\n\nincomplete: {s} stopped at a bound"));
        }
        panic!("{msg}");
    }
}

#[cfg(test)]
mod tests {
    use super::{Plan, CHECK_ORDER};

    #[test]
    fn the_check_order_has_every_plan_once() {
        let mut order = CHECK_ORDER.to_vec();
        order.sort_by_key(|p| Plan::ALL.iter().position(|q| q == p));
        assert_eq!(order, Plan::ALL);
        assert_eq!(CHECK_ORDER.first(), Some(&Plan::DeletePod));
        assert_eq!(CHECK_ORDER.last(), Some(&Plan::Drain));
    }
}
