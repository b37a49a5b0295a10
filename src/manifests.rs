//! `podcheck check -f PATH|- [--plan …]`: the applications of the paths, each read by the
//! library (`podcheck::read_application`) and checked under every plan's scenarios, with what
//! the reader made of them on stderr (warnings, ignored objects, assumed defaults, and the
//! fields the model does not read: how many, or with `--verbose` each with its line), so that
//! stdout keeps the report alone.

use crate::{json_scenario, print_table, print_warnings, resize, say, BadInput, Format, Size};
use podcheck::{Behaviour, Finding, Plan, Planned, TraceFormat};
use podcheck_model::manifest::{self, Reading};
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};
use podcheck_properties::progress;
use serde::Serialize;
use serde_json::Value;
use std::process::ExitCode;

impl From<podcheck::Error> for BadInput {
    fn from(e: podcheck::Error) -> BadInput {
        BadInput(e.0)
    }
}

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
            "assumed in {} (say otherwise with annotations {}…; see README):",
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
                let hint = crate::did_you_mean(n, &names);
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

/// The applications of `paths`, with the notes on what was passed over or read once (a link
/// to a folder, a path given twice) on stderr.
fn applications(paths: &[String]) -> Result<Vec<podcheck::Application>, BadInput> {
    let read = podcheck::applications(paths)?;
    for n in &read.notes {
        eprintln!("note: {n}");
    }
    Ok(read.apps)
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    property: &'a str,
    sentence: &'a str,
    trace_steps: Option<usize>,
    /// The shortest counterexample in `--trace-format`: a string (text, mermaid, dot) or
    /// the JSON of the trace (json, itf).
    trace: serde_json::Value,
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
    check: crate::JsonScenario<'a>,
    findings: Vec<JsonFinding<'a>>,
    kubernetes_behaviour: Vec<JsonBehaviour<'a>>,
}

#[derive(Serialize)]
struct JsonNotApplicable<'a> {
    application: &'a str,
    plan: &'static str,
    why: &'a str,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    applications: Vec<&'a str>,
    not_applicable: Vec<JsonNotApplicable<'a>>,
    scenarios: Vec<JsonPlanScenario<'a>>,
    findings: usize,
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
    pub trace_format: TraceFormat,
    pub traces: bool,
    pub strict: bool,
    pub verbose: bool,
    pub size: Size,
    pub opts: CheckOptions,
    /// Plan scenarios checked at once (`--jobs`).
    pub jobs: usize,
}

/// How a plan's reason for having nothing to act on reads when a workload's annotation left
/// the plan out (`podcheck_model::plan`).
const LEFT_OUT: &str = "podcheck.dev/plans annotation leaves it out";

/// Every plan scenario of the manifests at `paths` under the plans named (default: all), for
/// `trace -f` and `explore -f`; what the reader made of the manifests is on stderr, as for
/// `check -f`.
pub fn plan_scenarios(
    paths: &[String],
    plans: &[String],
    size: Size,
) -> Result<Vec<podcheck_model::spec::Scenario>, BadInput> {
    let named = parse_plans(plans)?;
    let mut out = Vec::new();
    let mut bases = Vec::new();
    for app in &applications(paths)? {
        let reading = podcheck::read_application(app)?;
        print_reading(
            &reading,
            Unused::Count {
                how_to_list: "podcheck check -f PATH --verbose lists them",
            },
        );
        let chosen = reading.plans.clone();
        let base = resize(vec![reading.scenario], size, &app.name)?.remove(0);
        let (p, _) = podcheck::planned(&app.name, &base, &named, &chosen);
        out.extend(p.into_iter().map(|p| p.scenario));
        bases.push(base);
    }
    crate::replicas_apply(&bases, size)?;
    if out.is_empty() {
        return Err(BadInput(
            "the manifests have no plan scenario: no plan acts on their workloads".into(),
        ));
    }
    Ok(out)
}

pub fn run(a: ManifestArgs) -> Result<ExitCode, BadInput> {
    let plans = parse_plans(&a.plans)?;
    let apps = applications(&a.paths)?;
    let mut planned: Vec<Planned> = Vec::new();
    let mut not_applicable = Vec::new();
    let mut bases = Vec::new();
    for app in &apps {
        let reading = podcheck::read_application(app)?;
        let unused = if a.verbose {
            Unused::List
        } else {
            Unused::Count {
                how_to_list: "--verbose lists them",
            }
        };
        print_reading(&reading, unused);
        let chosen = reading.plans.clone();
        let base = resize(vec![reading.scenario], a.size, &app.name)?.remove(0);
        let (p, na) = podcheck::planned(&app.name, &base, &plans, &chosen);
        planned.extend(p);
        not_applicable.extend(na);
        bases.push(base);
    }
    crate::replicas_apply(&bases, a.size)?;
    // The plans a workload's own `podcheck.dev/plans` leaves out, one line per application;
    // every other plan with nothing to act on, a line each with why.
    for app in &apps {
        let left_out: Vec<&str> = not_applicable
            .iter()
            .filter(|n| n.application == app.name && n.why.contains(LEFT_OUT))
            .map(|n| n.plan.name())
            .collect();
        if !left_out.is_empty() {
            eprintln!(
                "not checked: {}: {} (left out by the podcheck.dev/plans annotation)",
                app.name,
                left_out.join(", ")
            );
        }
    }
    for n in not_applicable.iter().filter(|n| !n.why.contains(LEFT_OUT)) {
        eprintln!("not applicable: {}: {}", n.application, n.why);
    }
    if !a.plans.is_empty() {
        for &plan in &plans {
            if !planned.iter().any(|p| p.plan == plan) {
                let why: Vec<String> = not_applicable
                    .iter()
                    .filter(|n| n.plan == plan)
                    .map(|n| format!("{}: {}", n.application, n.why))
                    .collect();
                return Err(BadInput(format!(
                    "--plan {} applies to nothing in the manifests ({})",
                    plan.name(),
                    why.join("; ")
                )));
            }
        }
    }
    crate::stop_on_ctrl_c();
    let threads = a.opts.threads as u16;
    type Done = (
        ScenarioResult,
        bool,
        Vec<Finding>,
        Vec<Behaviour>,
        Vec<Option<Value>>,
    );
    let mut results: Vec<Done> = Vec::new();
    // Each plan scenario checked, with its findings and (with --traces) the text of its
    // other traces, on one of `--jobs` threads; then reported in order.
    let work = |i: usize| -> Result<_, BadInput> {
        let p = &planned[i];
        let interrupted = progress::interrupts() > 0;
        let r = if interrupted {
            crate::not_started(&p.scenario)?
        } else {
            let defs = podcheck::properties_of(&p.scenario, &[])?;
            check::check_with(&p.scenario, &defs, &a.opts).map_err(BadInput)?
        };
        let (found, behaviour) = podcheck::findings(p, &r, a.trace_format)?;
        let mut others = Vec::new();
        if a.format == Format::Table && a.traces {
            // The other runs: witnesses, and the counterexamples of Kubernetes' behaviour.
            for prop in &r.properties {
                if found.iter().any(|f| f.property == prop.def.name) {
                    continue;
                }
                if let Some(t) =
                    podcheck::render_trace(&r, prop, a.trace_format).map_err(BadInput)?
                {
                    others.push(t);
                }
            }
        }
        // With --format json --traces: every property's run, in --trace-format.
        let json = if a.format == Format::Json && a.traces {
            crate::json_traces(&r, a.trace_format)?
        } else {
            Vec::new()
        };
        Ok((r, interrupted, found, behaviour, others, json))
    };
    crate::in_order(planned.len(), a.jobs, work, |done| {
        let (r, interrupted, found, behaviour, others, json) = done?;
        if r.complete && r.unique_states <= 1 {
            eprintln!(
                "{}: {}: only the start state was explored: nothing can happen from the settled start (can the pods be placed on the nodes? check resources, taints and nodeSelector); the verdicts say nothing about your workloads",
                if a.strict { "error" } else { "warning" },
                r.scenario.name
            );
        }
        if a.format == Format::Table {
            print_table(&r, !interrupted);
            for f in &found {
                say!("finding: {}: {}: {}", f.scenario, f.property, f.sentence);
                say!("{}", f.trace);
            }
            for b in &behaviour {
                say!(
                    "kubernetes behaviour: {}: {}: {}",
                    b.scenario,
                    b.property,
                    b.why
                );
            }
            for t in &others {
                say!("{t}");
            }
            if !found.is_empty() || !behaviour.is_empty() {
                say!("");
            }
        }
        print_warnings(&r, a.strict);
        results.push((r, !interrupted, found, behaviour, json));
        Ok(())
    })?;
    let n_findings: usize = results.iter().map(|r| r.2.len()).sum();
    let k_scenarios = results.iter().filter(|r| !r.2.is_empty()).count();
    let n_behaviour: usize = results.iter().map(|r| r.3.len()).sum();
    let n_warnings: usize = results.iter().map(|r| r.0.warnings.len()).sum();
    let one_state = results
        .iter()
        .any(|r| r.0.complete && r.0.unique_states <= 1);
    let n_vacuous: usize = results
        .iter()
        .map(|r| r.0.properties.iter().filter(|p| p.vacuous).count())
        .sum();
    let incomplete = results.iter().filter(|r| !r.0.complete).count();
    if a.format == Format::Json {
        let out = JsonReport {
            applications: apps.iter().map(|a| a.name.as_str()).collect(),
            not_applicable: not_applicable
                .iter()
                .map(|n| JsonNotApplicable {
                    application: &n.application,
                    plan: n.plan.name(),
                    why: &n.why,
                })
                .collect(),
            scenarios: planned
                .iter()
                .zip(&results)
                .map(
                    |(p, (r, checked, found, behaviour, json))| JsonPlanScenario {
                        application: &p.application,
                        plan: p.plan.name(),
                        check: crate::with_traces(
                            json_scenario(r, threads, *checked),
                            json.clone(),
                        ),
                        findings: found
                            .iter()
                            .map(|f| JsonFinding {
                                property: &f.property,
                                sentence: &f.sentence,
                                trace_steps: f.trace_steps,
                                trace: trace_value(&f.trace, a.trace_format),
                            })
                            .collect(),
                        kubernetes_behaviour: behaviour
                            .iter()
                            .map(|b| JsonBehaviour {
                                property: &b.property,
                                why: &b.why,
                            })
                            .collect(),
                    },
                )
                .collect(),
            findings: n_findings,
            kubernetes_behaviours: n_behaviour,
        };
        say!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| BadInput(e.to_string()))?
        );
    } else {
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
        say!(
            "{}, {}: {} in {}; {}; {} vacuous{tail}",
            plural(apps.len(), "application", "applications"),
            plural(results.len(), "plan scenario", "plan scenarios"),
            plural(n_findings, "finding", "findings"),
            plural(k_scenarios, "scenario", "scenarios"),
            plural(n_behaviour, "Kubernetes behaviour", "Kubernetes behaviours"),
            n_vacuous
        );
    }
    Ok(
        if n_findings > 0 || (a.strict && (n_warnings > 0 || one_state)) {
            ExitCode::from(1)
        } else if incomplete > 0 {
            ExitCode::from(3)
        } else {
            ExitCode::SUCCESS
        },
    )
}
