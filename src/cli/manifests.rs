//! `podcheck check -f PATH|- [--plan …]`: the applications of the paths, read and checked
//! under every plan's scenarios by the library ([`podcheck::Check`]), with what the reader
//! made of them on stderr (warnings, ignored objects, assumed defaults, and the fields the
//! model does not read: how many, or with `--verbose` each with its line), so that stdout
//! keeps the report alone.

use crate::cli::args::{Format, Size};
use crate::cli::check::{
    json_scenario, print_table, print_warnings, scenario_line, with_traces, Bounds, JsonBounds,
    JsonScenario,
};
use crate::cli::common::{did_you_mean, replicas_apply, stop_on_ctrl_c, BadInput};
use podcheck::{Application, Check, Checked, Observer, Plan, TraceFormat};
use podcheck_input::manifest::{self, Reading};
use podcheck_properties::check::CheckOptions;
use podcheck_properties::simulate::{SimOptions, Walked};
use serde::Serialize;
use std::process::ExitCode;

/// How the fields the model does not read are shown: listed (`check -f --verbose`), or
/// counted in one line that says how to list them.
#[derive(Clone, Copy)]
enum Unused {
    List,
    Count { how_to_list: &'static str },
}

/// What the reader made of an application's manifests, on stderr.
fn print_reading(r: &Reading, unused: Unused) {
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    for i in &r.ignored {
        eprintln!("ignored: {i}");
    }
    if !r.assumed.is_empty() {
        eprintln!(
            "assumed in {} (say otherwise with annotations {}…; see docs/manifests.md):",
            r.scenario.name,
            manifest::PREFIX
        );
        for a in &r.assumed {
            eprintln!("  {a}");
        }
    }
    match unused {
        Unused::List if r.unused.is_empty() => {
            eprintln!("note: every field given is one the model reads");
        }
        Unused::List => {
            eprintln!("note: fields accepted but not read by the model:");
            for u in &r.unused {
                eprintln!("  {u}");
            }
        }
        Unused::Count { .. } if r.unused.is_empty() => {}
        Unused::Count { how_to_list } => {
            let n = r.unused.len();
            let (fields, are) = if n == 1 {
                ("field", "is")
            } else {
                ("fields", "are")
            };
            eprintln!(
                "note: {}: {n} {fields} given {are} not read by the model ({how_to_list} with their lines)",
                r.scenario.name
            );
        }
    }
}

/// The plans of `--plan` (every plan without it): each occurrence of the flag is a
/// comma-separated list. An empty name (`--plan ""`, `--plan delete-pod,`) and a plan named
/// twice are errors; an unknown name is one with the closest plan's name.
pub fn parse_plans(given: &[String]) -> Result<Vec<Plan>, BadInput> {
    if given.is_empty() {
        return Ok(Plan::ALL.to_vec());
    }
    let names: Vec<&str> = Plan::ALL.iter().map(|p| p.name()).collect();
    let mut plans = Vec::new();
    for list in given {
        for n in list.split(',').map(str::trim) {
            if n.is_empty() {
                return Err(BadInput(format!(
                    "--plan {list:?}: an empty plan name; name plans separated by commas, such as --plan delete-pod,drain (leave --plan out for every plan): {}",
                    names.join(", ")
                )));
            }
            let Some(plan) = Plan::ALL.into_iter().find(|p| p.name() == n) else {
                let hint = did_you_mean(n, &names);
                return Err(BadInput(format!(
                    "--plan: unknown plan `{n}`{hint}; the plans are: {}",
                    names.join(", ")
                )));
            };
            if plans.contains(&plan) {
                return Err(BadInput(format!(
                    "--plan names `{n}` twice: name each plan once"
                )));
            }
            plans.push(plan);
        }
    }
    Ok(plans)
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    property: &'a str,
    sentence: &'a str,
    /// The workload the finding is about, which may not be the plan's target.
    #[serde(skip_serializing_if = "Option::is_none")]
    workload: Option<&'a str>,
    /// Its container, where the fix is in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    container: Option<&'a str>,
    /// Its cause: the index in the report's `causes`, where the same property about the
    /// same workload under every plan is said once.
    cause: Option<usize>,
    trace_steps: Option<usize>,
    /// The shortest counterexample in `--trace-format`: a string (text, mermaid, dot) or
    /// the JSON of the trace (json, itf).
    trace: serde_json::Value,
    /// The annotations' defaults the finding rests on (empty: none).
    assuming: Vec<JsonAssumed<'a>>,
}

/// A cause: the findings of one property about one workload (and container), under every
/// plan scenario that gives it ([`podcheck::causes`]).
#[derive(Serialize)]
struct JsonCause<'a> {
    application: &'a str,
    property: &'a str,
    sentence: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    workload: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    container: Option<&'a str>,
    /// Every plan scenario that gives it, in the order they were checked.
    under: Vec<JsonUnder<'a>>,
    /// The plan scenario whose trace is shown: the shortest.
    shown: &'a str,
    trace_steps: Option<usize>,
    /// Only an operator's action gives it: reported apart, failing the run only with
    /// `--fail-on operator-hazard`.
    operator_hazard: bool,
    /// For an operator hazard, what to do instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    instead: Option<&'static str>,
    assuming: Vec<JsonAssumed<'a>>,
}

#[derive(Serialize)]
struct JsonUnder<'a> {
    plan: &'static str,
    scenario: &'a str,
    trace_steps: Option<usize>,
}

impl<'a> JsonCause<'a> {
    fn of(c: &'a podcheck::Cause) -> Self {
        let f = &c.shown;
        JsonCause {
            application: &f.application,
            property: &f.property,
            sentence: &f.sentence,
            workload: f.about.workload.as_deref(),
            container: f.about.container.as_deref(),
            under: c
                .under
                .iter()
                .map(|u| JsonUnder {
                    plan: u.plan.name(),
                    scenario: &u.scenario,
                    trace_steps: u.trace_steps,
                })
                .collect(),
            shown: &f.scenario,
            trace_steps: f.trace_steps,
            operator_hazard: c.hazard.is_some(),
            instead: c.hazard,
            assuming: json_assuming(&f.assuming),
        }
    }
}

fn json_assuming(assuming: &[manifest::Assumed]) -> Vec<JsonAssumed<'_>> {
    assuming
        .iter()
        .map(|d| JsonAssumed {
            object: &d.object,
            container: d.container.as_deref(),
            annotation: &d.annotation,
        })
        .collect()
}

#[derive(Serialize)]
struct JsonAssumed<'a> {
    /// `kind/name`: `Deployment/web`, `Service/web`.
    object: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    container: Option<&'a str>,
    /// The annotation with the default taken: `podcheck.dev/boot-seconds: 5`.
    annotation: &'a str,
}

#[derive(Serialize)]
struct JsonBehaviour<'a> {
    property: &'a str,
    why: &'a str,
}

#[derive(Serialize)]
struct JsonPlanScenario<'a> {
    application: &'a str,
    plan: &'static str,
    #[serde(flatten)]
    check: JsonScenario<'a>,
    /// With --simulate, for a scenario stopped at a bound: its random walks.
    #[serde(skip_serializing_if = "Option::is_none")]
    walked: Option<JsonWalked<'a>>,
    findings: Vec<JsonFinding<'a>>,
    kubernetes_behaviour: Vec<JsonBehaviour<'a>>,
    /// The workloads left out of the scenario, outside its cone of influence.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    left_out: &'a [String],
    /// The Services that select the same pods as the one it models, alike (or headless over
    /// them), and so are checked with it, as `Service/<name>`: no scenario of their own.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    services_alike: &'a [String],
    /// Where its plan acts on the pods of several workloads: the other Services that select
    /// them, not modelled in it (the model holds one Service per scenario).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    services_not_modelled: &'a [String],
}

/// The random walks of a plan scenario stopped at a bound (`--simulate`).
#[derive(Serialize)]
struct JsonWalked<'a> {
    seed: u64,
    walks: u64,
    depth: usize,
    states_visited: u64,
    distinct_states: u64,
    /// The properties the walks decided; every other `incomplete` one stays so.
    decided: &'a [&'static str],
}

impl<'a> JsonWalked<'a> {
    fn of(w: &'a Walked) -> Self {
        JsonWalked {
            seed: w.options.seed,
            walks: w.options.walks,
            depth: w.options.depth,
            states_visited: w.states_visited,
            distinct_states: w.distinct_states,
            decided: &w.decided,
        }
    }
}

/// The line under a finding that names the workload (and container) it is about.
fn about_line(a: &podcheck::about::About) -> Option<String> {
    let w = a.workload.as_deref()?;
    Some(match a.container.as_deref() {
        Some(c) => format!("  about: {w}, container {c}"),
        None => format!("  about: {w}"),
    })
}

/// The line of a table report on a scenario's random walks.
fn walked_line(w: &Walked) -> String {
    let decided = if w.decided.is_empty() {
        "they decided nothing: what the search left stays incomplete".to_string()
    } else {
        format!(
            "they decided {} (the rest stays incomplete)",
            w.decided.join(", ")
        )
    };
    format!(
        "walked: {} walks, depth {} (seed {}), {} states visited, {} distinct; {decided}",
        w.options.walks, w.options.depth, w.options.seed, w.states_visited, w.distinct_states
    )
}

#[derive(Serialize)]
struct JsonNotApplicable<'a> {
    application: &'a str,
    plan: &'static str,
    why: &'a str,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    /// The memory bound and the time budget of each plan scenario.
    bounds: JsonBounds,
    applications: Vec<&'a str>,
    /// What the reader made of each application: warnings, ignored objects, assumptions.
    read: &'a [JsonReading],
    not_applicable: Vec<JsonNotApplicable<'a>>,
    scenarios: Vec<JsonPlanScenario<'a>>,
    /// The findings merged by cause, operator hazards among them.
    causes: Vec<JsonCause<'a>>,
    /// The causes that are findings (not operator hazards).
    findings: usize,
    /// Of the findings, those that rest on an annotation's default.
    findings_assuming: usize,
    /// The causes that only an operator's action gives.
    operator_hazards: usize,
    /// The Kubernetes behaviours, each property once per application and reason.
    kubernetes_behaviours: usize,
}

fn trace_value(text: &str, format: TraceFormat) -> serde_json::Value {
    match format {
        TraceFormat::Json | TraceFormat::Itf => serde_json::from_str(text)
            .unwrap_or_else(|_| serde_json::Value::String(text.to_string())),
        _ => serde_json::Value::String(text.to_string()),
    }
}

/// Options of `check -f`.
pub struct ManifestArgs {
    pub paths: Vec<String>,
    pub plans: Vec<String>,
    pub format: Format,
    /// `--format sarif`: the report is a SARIF log (`format` is JSON's, which prints nothing
    /// as the scenarios are checked).
    pub sarif: bool,
    /// `--fixes` (with `sarif`): each finding's verified fix in the log.
    pub fixes: bool,
    pub trace_format: TraceFormat,
    pub traces: bool,
    pub strict: bool,
    pub verbose: bool,
    /// `--fail-on operator-hazard`: an operator hazard fails the run as a finding does.
    pub fail_on_hazard: bool,
    pub size: Size,
    pub opts: CheckOptions,
    /// Plan scenarios checked at once (`--jobs`).
    pub jobs: usize,
    /// The memory bound and time budget, for the report's heading.
    pub bounds: Bounds,
    /// `--simulate`: random walks for each plan scenario that stops at a bound.
    pub walks: Option<SimOptions>,
}

/// How a plan's reason for having nothing to act on reads when a workload's annotation left
/// the plan out (`podcheck_input::plan`).
const LEFT_OUT: &str = "podcheck.dev/plans annotation leaves it out";

/// What `check -f`, `trace -f` and `explore -f` print as the library reads and checks: the
/// notes on the paths and the reading of each application on stderr; with `report`, each
/// plan scenario's part of the report as it is checked.
struct Printer {
    unused: Unused,
    report: Option<(Format, bool)>,
    /// With `report`: each plan scenario checked, in order.
    results: Vec<Checked>,
    /// The report's heading, printed before the first plan scenario's part.
    heading: Option<String>,
    /// Where each application's workloads were written, for `--format sarif`.
    placed: std::collections::BTreeMap<String, crate::cli::sarif::Placements>,
    /// `--verbose`: each plan scenario's whole table as it is checked.
    verbose: bool,
    /// Each application as read, for `--fixes` (stdin cannot be read twice).
    apps: Vec<Application>,
    /// What the reader made of each application, for the JSON report.
    readings: Vec<JsonReading>,
}

/// What the reader made of an application's manifests, as stderr says it: the JSON report
/// carries it too.
#[derive(Serialize)]
struct JsonReading {
    application: String,
    warnings: Vec<String>,
    /// The objects the model does not read, each with its file, line and why.
    ignored: Vec<String>,
    /// Every default taken where the manifests say nothing (annotations, nodes, Services).
    assumed: Vec<String>,
    /// The fields given that the model does not read, each with its line.
    unused: Vec<String>,
}

impl Observer for Printer {
    fn notes(&mut self, notes: &[String]) -> Result<(), podcheck::Error> {
        for n in notes {
            eprintln!("note: {n}");
        }
        Ok(())
    }

    fn read(&mut self, app: &Application, reading: &Reading) -> Result<(), podcheck::Error> {
        print_reading(reading, self.unused);
        self.placed.insert(
            app.name.clone(),
            (reading.placed.clone(), reading.budgets.clone()),
        );
        self.apps.push(app.clone());
        self.readings.push(JsonReading {
            application: app.name.clone(),
            warnings: reading.warnings.clone(),
            ignored: reading.ignored.clone(),
            assumed: reading.assumed.clone(),
            unused: reading.unused.clone(),
        });
        Ok(())
    }

    fn checked(&mut self, c: &Checked) -> Result<(), podcheck::Error> {
        let Some((format, strict)) = self.report else {
            return Ok(());
        };
        let r = &c.result;
        if !c.planned.left_out.is_empty() {
            eprintln!(
                "note: {}: left out, outside its cone of influence (--no-cone keeps them): {}",
                r.scenario.name,
                c.planned.left_out.join(", ")
            );
        }
        if r.complete && r.unique_states <= 1 {
            eprintln!(
                "{}: {}: only the start state was explored: nothing can happen from the settled start (can the pods be placed on the nodes? check resources, taints and nodeSelector); the verdicts say nothing about your workloads",
                if strict { "error" } else { "warning" },
                r.scenario.name
            );
        }
        if format == Format::Table {
            // The findings come merged at the end; as each scenario is checked, its whole
            // table with --verbose, and with --traces its other runs (witnesses, and the
            // counterexamples of Kubernetes' behaviour).
            let others: Vec<&String> = r
                .properties
                .iter()
                .zip(&c.traces)
                .filter(|(prop, _)| !c.findings.iter().any(|f| f.property == prop.def.name))
                .filter_map(|(_, t)| t.as_ref())
                .collect();
            if self.verbose || !others.is_empty() {
                if let Some(h) = self.heading.take() {
                    say!("{h}");
                }
            }
            if self.verbose {
                print_table(r, c.started);
                if let Some(w) = &c.walked {
                    say!("{}", walked_line(w));
                }
            }
            for t in &others {
                say!("{t}");
            }
            if self.verbose || !others.is_empty() {
                say!("");
            }
        }
        print_warnings(r, strict);
        self.results.push(c.clone());
        Ok(())
    }

    fn cannot_start_thread(&self, e: std::io::Error) -> podcheck::Error {
        podcheck::Error(format!("cannot start a thread for --jobs: {e}"))
    }
}

/// Every plan scenario of the manifests at `paths` under the plans named (default: all), for
/// `trace -f` and `explore -f`; what the reader made of the manifests is on stderr, as for
/// `check -f`.
pub fn plan_scenarios(
    paths: &[String],
    plans: &[String],
    size: Size,
) -> Result<Vec<podcheck_input::spec::Scenario>, BadInput> {
    let named = parse_plans(plans)?;
    let prepared = Check::paths(paths.to_vec())
        .plans(named)
        .size(size.lib())
        .prepare(&mut Printer {
            unused: Unused::Count {
                how_to_list: "podcheck check -f PATH --verbose lists them",
            },
            report: None,
            results: Vec::new(),
            heading: None,
            placed: Default::default(),
            apps: Vec::new(),
            verbose: false,
            readings: Vec::new(),
        })?;
    replicas_apply(&prepared.bases, size)?;
    say_services(&prepared.planned);
    if prepared.planned.is_empty() {
        return Err(BadInput(
            "the manifests have no plan scenario: no plan acts on their workloads".into(),
        ));
    }
    Ok(prepared.planned.into_iter().map(|p| p.scenario).collect())
}

/// Plan scenarios grouped by application and Service choice.
type ByChoice<'a> = Vec<(
    &'a str,
    &'a podcheck_input::plan::ServiceChoice,
    Vec<&'a str>,
)>;

/// The plan scenarios of `planned` whose Service choice has something in the list `pick`
/// gives, grouped by application and choice: `(application, choice, scenario names)`.
fn by_choice(
    planned: &[podcheck::Planned],
    pick: fn(&podcheck_input::plan::ServiceChoice) -> &[String],
) -> ByChoice<'_> {
    let mut said: Vec<(&str, &podcheck_input::plan::ServiceChoice, Vec<&str>)> = Vec::new();
    for p in planned.iter().filter(|p| !pick(&p.services).is_empty()) {
        let name = p
            .scenario
            .name
            .strip_prefix(&format!("{}: ", p.application))
            .unwrap_or(&p.scenario.name);
        match said
            .iter_mut()
            .find(|(a, c, _)| *a == p.application && **c == p.services)
        {
            Some((_, _, names)) => names.push(name),
            None => said.push((&p.application, &p.services, vec![name])),
        }
    }
    said
}

/// On stderr, once for the scenarios that share the choice: the Services checked with
/// another one, alike, and those a plan acting on several workloads does not model.
fn say_services(planned: &[podcheck::Planned]) {
    for (app, choice, names) in by_choice(planned, |c| &c.alike) {
        let others = &choice.alike;
        eprintln!(
            "note: {app}: {} {} the same pods as {}, alike (or headless over them: the same EndpointSlice, and no kube-proxy routes it), so {} {} checked with it in {}",
            others.join(", "),
            if others.len() == 1 { "selects" } else { "select" },
            choice.modelled.as_deref().unwrap_or("the Service modelled"),
            if others.len() == 1 { "it" } else { "they" },
            if others.len() == 1 { "is" } else { "are" },
            names.join(", "),
        );
    }
    for (app, choice, names) in by_choice(planned, |c| &c.not_modelled) {
        let others = &choice.not_modelled;
        eprintln!(
            "note: {app}: the model holds one Service per scenario, and {} {} on the pods of several workloads: {} {}; {}, which also {} the pods their plan acts on, {} not modelled there (each is checked under the plans that act on its own workload)",
            names.join(", "),
            if names.len() == 1 { "acts" } else { "act" },
            if names.len() == 1 { "it models" } else { "they model" },
            choice.modelled.as_deref().unwrap_or("no Service"),
            others.join(", "),
            if others.len() == 1 { "selects" } else { "select" },
            if others.len() == 1 { "is" } else { "are" },
        );
    }
}

pub fn run(a: ManifestArgs) -> Result<ExitCode, BadInput> {
    let plans = parse_plans(&a.plans)?;
    let check = Check::paths(a.paths.clone())
        .plans(plans.iter().copied())
        .size(a.size.lib())
        .options(a.opts.clone())
        .jobs(a.jobs)
        .trace_format(a.trace_format)
        .traces(a.traces);
    let check = match a.walks {
        Some(w) => check.walks(w),
        None => check,
    };
    let mut printer = Printer {
        unused: if a.verbose {
            Unused::List
        } else {
            Unused::Count {
                how_to_list: "--verbose lists them",
            }
        },
        report: Some((a.format, a.strict)),
        results: Vec::new(),
        heading: None,
        placed: Default::default(),
        apps: Vec::new(),
        verbose: a.verbose,
        readings: Vec::new(),
    };
    let prepared = check.prepare(&mut printer)?;
    replicas_apply(&prepared.bases, a.size)?;
    say_services(&prepared.planned);
    let not_applicable = &prepared.not_applicable;
    // The plans a workload's own `podcheck.dev/plans` leaves out, one line per application;
    // every other plan with nothing to act on, a line each with why.
    for app in &prepared.applications {
        let left_out: Vec<&str> = not_applicable
            .iter()
            .filter(|n| &n.application == app && n.why.contains(LEFT_OUT))
            .map(|n| n.plan.name())
            .collect();
        if !left_out.is_empty() {
            eprintln!(
                "not checked: {}: {} (left out by the podcheck.dev/plans annotation)",
                app,
                left_out.join(", ")
            );
        }
    }
    // A workload no node can take was warned of once, by the reader: not again per plan.
    let no_node = podcheck_input::plan::NO_NODE;
    for n in not_applicable
        .iter()
        .filter(|n| !n.why.contains(LEFT_OUT) && !n.why.contains(no_node))
    {
        if n.why.contains(podcheck::SAME_SCENARIO) {
            eprintln!("note: {}: {}", n.application, n.why);
        } else {
            eprintln!("not applicable: {}: {}", n.application, n.why);
        }
    }
    if !a.plans.is_empty() {
        every_plan_applies(&plans, &prepared.planned, not_applicable)?;
    }
    stop_on_ctrl_c();
    // The heading comes with the first plan scenario's part: bad input prints nothing on
    // stdout.
    if a.format == Format::Table {
        printer.heading = Some(a.bounds.heading());
    }
    let threads = a.opts.threads as u16;
    let report = check.check(prepared, &mut printer)?;
    let results = &printer.results;
    // Each finding once per cause: the same property about the same workload under several
    // plans is one, shown with the shortest trace among them.
    let all_findings: Vec<&podcheck::Finding> = results.iter().flat_map(|c| &c.findings).collect();
    let causes = podcheck::causes(all_findings.iter().copied());
    let (hazards, findings): (Vec<&podcheck::Cause>, Vec<&podcheck::Cause>) =
        causes.iter().partition(|c| c.hazard.is_some());
    let n_findings = findings.len();
    let n_hazards = hazards.len();
    let k_scenarios = results
        .iter()
        .filter(|c| {
            findings
                .iter()
                .any(|f| f.under.iter().any(|u| u.scenario == c.result.scenario.name))
        })
        .count();
    let n_assuming = findings
        .iter()
        .filter(|c| !c.shown.assuming.is_empty())
        .count();
    let behaviours = podcheck::behaviour_causes(results.iter().flat_map(|c| &c.behaviours));
    let n_behaviour = behaviours.len();
    let n_warnings: usize = results.iter().map(|c| c.result.warnings.len()).sum();
    let one_state = results
        .iter()
        .any(|c| c.result.complete && c.result.unique_states <= 1);
    let n_vacuous: usize = results
        .iter()
        .map(|c| c.result.properties.iter().filter(|p| p.vacuous).count())
        .sum();
    let incomplete = results.iter().filter(|c| !c.result.complete).count();
    // Nothing checked about any workload: no plan scenario, or each explored its start only.
    let nothing = results
        .iter()
        .all(|c| c.result.complete && c.result.unique_states <= 1);
    if nothing {
        eprintln!(
            "{}: nothing was checked about any workload: {} (see the warnings above; docs/manifests.md#nodes)",
            if a.strict { "error" } else { "warning" },
            if results.is_empty() {
                "no plan acts on a workload whose pods a node can take"
            } else {
                "every plan scenario explored only its start"
            }
        );
    }
    if a.sarif {
        let fixes = if a.fixes {
            Some(find_fixes(&a, &printer.apps)?)
        } else {
            None
        };
        let log = crate::cli::sarif::log(
            results,
            &causes,
            &printer.placed,
            &crate::cli::sarif::cwd(),
            fixes.as_ref(),
        );
        say!(
            "{}",
            serde_json::to_string_pretty(&log).map_err(|e| BadInput(e.to_string()))?
        );
    } else if a.format == Format::Json {
        // The cause of a scenario's finding: its index in `causes`.
        let cause_of = |f: &podcheck::Finding| {
            causes.iter().position(|c| {
                c.shown.application == f.application
                    && c.shown.property == f.property
                    && c.shown.about == f.about
                    && c.under.iter().any(|u| u.scenario == f.scenario)
            })
        };
        let out = JsonReport {
            bounds: a.bounds.json(),
            applications: report.applications().iter().map(String::as_str).collect(),
            read: &printer.readings,
            not_applicable: report
                .not_applicable()
                .iter()
                .map(|n| JsonNotApplicable {
                    application: &n.application,
                    plan: n.plan.name(),
                    why: &n.why,
                })
                .collect(),
            scenarios: results
                .iter()
                .map(|c| JsonPlanScenario {
                    application: &c.planned.application,
                    plan: c.planned.plan.name(),
                    walked: c.walked.as_ref().map(JsonWalked::of),
                    check: with_traces(
                        json_scenario(&c.result, threads, c.started),
                        // With --traces: every property's run, in --trace-format.
                        c.traces
                            .iter()
                            .map(|t| t.as_deref().map(|t| trace_value(t, a.trace_format)))
                            .collect(),
                    ),
                    findings: c
                        .findings
                        .iter()
                        .map(|f| JsonFinding {
                            property: &f.property,
                            sentence: &f.sentence,
                            workload: f.about.workload.as_deref(),
                            container: f.about.container.as_deref(),
                            cause: cause_of(f),
                            trace_steps: f.trace_steps,
                            trace: trace_value(&f.trace, a.trace_format),
                            assuming: json_assuming(&f.assuming),
                        })
                        .collect(),
                    kubernetes_behaviour: c
                        .behaviours
                        .iter()
                        .map(|b| JsonBehaviour {
                            property: &b.property,
                            why: &b.why,
                        })
                        .collect(),
                    left_out: &c.planned.left_out,
                    services_alike: &c.planned.services.alike,
                    services_not_modelled: &c.planned.services.not_modelled,
                })
                .collect(),
            causes: causes.iter().map(JsonCause::of).collect(),
            findings: n_findings,
            findings_assuming: n_assuming,
            operator_hazards: n_hazards,
            kubernetes_behaviours: n_behaviour,
        };
        say!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| BadInput(e.to_string()))?
        );
    } else {
        if let Some(h) = printer.heading.take() {
            say!("{h}");
        }
        for c in &findings {
            print_cause("finding", c);
        }
        if !hazards.is_empty() {
            say!(
                "operator hazards: what an operator's action does whatever the manifests say; {} (docs/manifests.md#operator-hazards)",
                if a.fail_on_hazard {
                    "they fail the run (--fail-on operator-hazard)"
                } else {
                    "reported, they fail the run only with --fail-on operator-hazard"
                }
            );
            say!("");
            for c in &hazards {
                print_cause("operator hazard", c);
            }
        }
        for (b, under) in &behaviours {
            say!(
                "kubernetes behaviour: {}: {}: {}",
                b.scenario,
                b.property,
                b.why
            );
            if under.len() > 1 {
                say!("  also under: {}", others(&b.application, &under[1..]));
            }
        }
        if !behaviours.is_empty() {
            say!("");
        }
        if !a.verbose {
            // One line per scenario; --verbose printed each one's table as it was checked.
            for c in results {
                say!("{}", scenario_line(&c.result, c.started));
                if let Some(w) = &c.walked {
                    say!("  {}", walked_line(w));
                }
            }
            if !results.is_empty() {
                say!("");
            }
        }
        // Each plan scenario a bound stopped: what its answer is worth, and how to decide
        // the rest (an interrupted run says so on its own line).
        for c in results.iter().filter(|c| c.started && !c.result.complete) {
            use podcheck_properties::progress::Bound;
            let Some(stop) = c.result.stopped else {
                continue;
            };
            let plan = c.planned.plan.name();
            let (bound, room) = match stop.bound {
                Bound::Budget => (
                    "--budget",
                    format!("`--plan {plan} --budget none`, with a `--max-memory` it fits in"),
                ),
                Bound::MaxMemory => (
                    "--max-memory",
                    format!("`--plan {plan}` with a larger `--max-memory`"),
                ),
                Bound::MaxStates => (
                    "--max-states",
                    format!("`--plan {plan}` without `--max-states`"),
                ),
                Bound::Capacity => ("the graph's edge table", format!("`--plan {plan}` alone")),
                Bound::Interrupt => continue,
            };
            let walk = if c.walked.is_none() {
                ", or walk it at random (`--simulate`)"
            } else {
                ""
            };
            say!(
                "incomplete: {}: stopped at {bound}: its findings stand, and a property it did not decide is not said to hold; to decide the rest, check it alone with more room ({room}){walk}",
                c.result.scenario.name,
            );
        }
        let plural = |n: usize, one: &str, many: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {many}")
            }
        };
        let mut tail = String::new();
        if n_warnings > 0 {
            tail.push_str(&format!("; {}", plural(n_warnings, "warning", "warnings")));
        }
        if incomplete > 0 {
            tail.push_str(&format!("; {incomplete} incomplete"));
        }
        // The findings that rest on an annotation's default, apart from the others.
        let assuming = if n_assuming > 0 {
            format!(" ({n_assuming} resting on assumed defaults)")
        } else {
            String::new()
        };
        let hazards_said = if n_hazards > 0 {
            format!(
                "; {}",
                plural(n_hazards, "operator hazard", "operator hazards")
            )
        } else {
            String::new()
        };
        say!(
            "{}, {}: {} in {}{assuming}{hazards_said}; {}; {} vacuous{tail}",
            plural(report.applications().len(), "application", "applications"),
            plural(results.len(), "plan scenario", "plan scenarios"),
            plural(n_findings, "finding", "findings"),
            plural(k_scenarios, "scenario", "scenarios"),
            plural(n_behaviour, "Kubernetes behaviour", "Kubernetes behaviours"),
            n_vacuous
        );
    }
    let fails = n_findings > 0 || (a.fail_on_hazard && n_hazards > 0);
    Ok(
        if fails || (a.strict && (n_warnings > 0 || one_state || nothing)) {
            ExitCode::from(1)
        } else if incomplete > 0 {
            ExitCode::from(3)
        } else {
            ExitCode::SUCCESS
        },
    )
}

/// The plan scenarios of `under` without their application's name: `drain web, crash web`.
fn others(application: &str, under: &[String]) -> String {
    let prefix = format!("{application}: ");
    under
        .iter()
        .map(|s| s.strip_prefix(&prefix).unwrap_or(s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A cause in the table report: its plan scenario (the shortest trace's), property and
/// sentence, what it is about, the other plan scenarios that give it, what to do instead for
/// an operator hazard, the assumptions it rests on, and its trace.
fn print_cause(label: &str, c: &podcheck::Cause) {
    let f = &c.shown;
    say!("{label}: {}: {}: {}", f.scenario, f.property, f.sentence);
    if let Some(about) = about_line(&f.about) {
        say!("{about}");
    }
    let also: Vec<String> = c
        .under
        .iter()
        .filter(|u| u.scenario != f.scenario)
        .map(|u| match u.trace_steps {
            Some(n) => format!("{} ({n} steps)", u.scenario),
            None => u.scenario.clone(),
        })
        .collect();
    if !also.is_empty() {
        say!("  also under: {}", others(&f.application, &also));
    }
    if let Some(instead) = c.hazard {
        say!("  instead: {instead}");
    }
    for l in podcheck::assuming_lines(&f.assuming) {
        say!("  {l}");
    }
    say!("{}", f.trace.trim_end());
    say!("");
}

/// Each plan of `plans` (named with `--plan`) has a scenario in `planned`; else the error says
/// why it applies to nothing, application by application.
pub fn every_plan_applies(
    plans: &[Plan],
    planned: &[podcheck::Planned],
    not_applicable: &[podcheck::NotApplicable],
) -> Result<(), BadInput> {
    for &plan in plans {
        if !planned.iter().any(|p| p.plan == plan) {
            let why: Vec<String> = not_applicable
                .iter()
                .filter(|n| n.plan == plan)
                .map(|n| format!("{}: {}", n.application, n.why))
                .collect();
            // Its workloads are there, but no node can take them: the reader warned, and the
            // run says that it checked nothing.
            if !why.is_empty()
                && why
                    .iter()
                    .all(|w| w.contains(podcheck_input::plan::NO_NODE))
            {
                continue;
            }
            return Err(BadInput(format!(
                "--plan {} applies to nothing in the manifests ({})",
                plan.name(),
                why.join("; ")
            )));
        }
    }
    Ok(())
}

/// `--fixes`: the verified fixes of the applications checked, found as `podcheck fix` finds
/// them (the same plans, sizes and bounds), each on a progress line of its own.
fn find_fixes(a: &ManifestArgs, apps: &[Application]) -> Result<podcheck::fix::Fixes, BadInput> {
    let opts = podcheck::fix::FixOptions {
        plans: parse_plans(&a.plans)?,
        size: a.size.lib(),
        options: CheckOptions {
            threads: 1,
            progress: false,
            ..a.opts.clone()
        },
    };
    eprintln!("fixes: finding a verified fix for each finding (each candidate is a check of its application)");
    Ok(podcheck::fix::fixes_of(apps, &opts)?)
}
