//! The example manifests of `examples/manifests/` (their README lists them): each application
//! has an `unsafe/` and a `fixed/` folder, read as `podcheck check -f` reads a folder, and
//! checked under the fault plan that finds its problem (`podcheck_input::plan`). The unsafe
//! variant's findings (violated properties that are not Kubernetes' own behaviour,
//! `podcheck_properties::findings`) are exactly the ones its README row names, and every trace
//! and lasso replays through the model; the fixed variant has none (but for a trade-off the
//! README names), its key properties hold without being vacuous, and neither variant has a
//! vacuity warning. Unique-state counts are pinned.
//!
//! `PODCHECK_EXAMPLE_TRACES=1 cargo test --profile tests --test examples -- --nocapture` prints
//! every trace.

use podcheck_input::manifest;
use podcheck_input::plan::{plan_scenarios_for, Plan};
use podcheck_input::spec::{Expectation, Scenario};
use podcheck_model::Verdict;
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};
use podcheck_properties::findings::kubernetes_behaviour_in;
use std::path::Path;

mod common;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/manifests");

/// A property and why (the source of an expectation, or of an accepted finding).
type Why = (&'static str, &'static str);

struct Example {
    name: &'static str,
    /// The plan that finds the problem in `unsafe/`.
    plan: Plan,
    /// The plan `fixed/` is checked under: the same, but where the fix is operational.
    fixed_plan: Plan,
    /// The findings of `unsafe/`.
    findings: &'static [&'static str],
    /// Properties that hold, and not vacuously, in `fixed/`: the other side of the finding.
    holds_in_fixed: &'static [&'static str],
    /// Findings `fixed/` still has, each a trade-off the README names.
    fixed_findings: &'static [Why],
    /// Violations that are Kubernetes' own behaviour, in `unsafe/` and in `fixed/`.
    behaviour: (&'static [&'static str], &'static [&'static str]),
    /// Witnesses (`sometimes`) expected in `unsafe/` and in `fixed/`, with their verdicts.
    witnesses: (&'static [Witness], &'static [Witness]),
    /// Unique states of `unsafe/` and `fixed/` under their plans.
    states: (usize, usize),
}

type Witness = (&'static str, Verdict, &'static str);

const EXAMPLES: &[Example] = &[
    Example {
        name: "web-liveness-db",
        plan: Plan::DependencyOutage,
        fixed_plan: Plan::DependencyOutage,
        findings: &["no_restart_while_healthy", "no_request_to_stopped_container"],
        holds_in_fixed: &["no_restart_while_healthy", "no_request_to_stopped_container", "recovered_dependency_leads_to_ready"],
        fixed_findings: &[],
        // Readiness checks the database on every replica, so during its outage no endpoint is
        // ready and kube-proxy rejects requests: while a dependency is down requests fail
        // whatever the probes check (`kubernetes_behaviour_in`).
        behaviour: (&["no_request_finds_no_endpoints"], &["no_request_finds_no_endpoints"]),
        witnesses: (&[], &[]),
        // 1343 for fixed/ before the kube-proxies of nodes no fault names were taken as
        // interchangeable (model/src/symmetry.rs).
        states: (10285, 1025),
    },
    Example {
        name: "api-prestop",
        plan: Plan::DeletePod,
        fixed_plan: Plan::DeletePod,
        findings: &["no_request_to_stopped_container"],
        holds_in_fixed: &["no_request_to_stopped_container", "deleted_leads_to_gone"],
        fixed_findings: &[],
        behaviour: (&["deployment_at_most_replicas_running"], &["deployment_at_most_replicas_running"]),
        witnesses: (&[], &[]),
        // 11742 and 2983 before the scheduler spread the replicas over the two nodes and the
        // kube-proxies were taken as interchangeable.
        states: (5998, 2598),
    },
    Example {
        name: "shell-worker",
        plan: Plan::DeletePod,
        fixed_plan: Plan::DeletePod,
        findings: &["graceful_stop_within_grace"],
        holds_in_fixed: &["graceful_stop_within_grace", "deleted_leads_to_gone"],
        fixed_findings: &[],
        behaviour: (&["deployment_at_most_replicas_running"], &["deployment_at_most_replicas_running"]),
        witnesses: (&[], &[]),
        // 75 and 255 before the scheduler spread the replicas and the kube-proxies were taken
        // as interchangeable.
        states: (62, 170),
    },
    Example {
        name: "statefulset-db",
        plan: Plan::PartitionForceDelete,
        fixed_plan: Plan::Partition,
        findings: &["statefulset_at_most_one", "rwo_volume_mounted_on_one_node"],
        holds_in_fixed: &["statefulset_at_most_one", "rwo_volume_mounted_on_one_node", "rwo_volume_attached_to_one_node"],
        fixed_findings: &[],
        behaviour: (&["force_delete_cleans_runtime"], &[]),
        witnesses: (&[], &[]),
        // Its Service is headless (`clusterIP: None`): no kube-proxy routes it (61 and 17
        // while the reader took every Service for a ClusterIP one).
        states: (51, 10),
    },
    Example {
        name: "job-backoff",
        plan: Plan::Crash,
        fixed_plan: Plan::Crash,
        findings: &["job_fails_only_after_backoff_limit_plus_one_failures"],
        holds_in_fixed: &["job_fails_only_after_backoff_limit_plus_one_failures"],
        fixed_findings: &[],
        behaviour: (&[], &[]),
        witnesses: (
            &[(
                "job_failed",
                Verdict::Holds,
                "one crash under OnFailure fails the Job at backoffLimit 1 (job_controller.go pastBackoffLimitOnFailure)",
            )],
            &[
                (
                    "job_failed",
                    Verdict::Violated,
                    "under Never one failed pod is not more than backoffLimit 1 (job_controller.go exceedsBackoffLimit)",
                ),
                (
                    "job_completes",
                    Verdict::Holds,
                    "the new pod runs the report to its end and the Job completes (job_controller.go)",
                ),
            ],
        ),
        // 25 and 34 before the kubelet held a terminal phase back until the pod worker has
        // stopped the pod (mergePodStatus): the failed or finished pod's write follows its kill.
        states: (28, 43),
    },
    Example {
        name: "pdb-drain",
        plan: Plan::Drain,
        fixed_plan: Plan::Drain,
        findings: &["drain_completes"],
        holds_in_fixed: &["drain_completes", "eviction_respects_budget"],
        fixed_findings: &[],
        behaviour: (&[], &["deployment_at_most_replicas_running"]),
        witnesses: (&[], &[]),
        // 3657 for fixed/ before the drain's observation that a pod is gone waited for the end
        // of its instant (model/src/drain.rs); 6 and 3007 before the scheduler spread the two
        // replicas over the two nodes (the drain now evicts one) and the kube-proxies were
        // taken as interchangeable.
        states: (4, 180),
    },
];

/// The manifests of one folder, as `podcheck check -f FOLDER` reads them (its `.yaml` files,
/// sorted), named by their path under `examples/manifests/`.
fn read(example: &str, variant: &str) -> (Scenario, manifest::Reading) {
    let dir = Path::new(DIR).join(example).join(variant);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no manifest", dir.display());
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|p| {
            let name = p.strip_prefix(DIR).unwrap().display().to_string();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    let r = manifest::read(&sources).unwrap_or_else(|e| panic!("{example}/{variant}: {e}"));
    assert!(
        r.warnings.is_empty(),
        "{example}/{variant}: {:?}",
        r.warnings
    );
    assert!(r.ignored.is_empty(), "{example}/{variant}: {:?}", r.ignored);
    let mut s = r.scenario.clone();
    s.name = format!("{example}/{variant}");
    (s, r)
}

fn expect(s: &mut Scenario, (property, verdict, source): Witness) {
    s.expect.retain(|e| e.property != property);
    s.expect.push(Expectation {
        property: property.into(),
        verdict,
        source: source.into(),
        from: None,
        before: None,
    });
}

/// The one scenario the manifests' `podcheck.dev/plans` annotations ask for, under every
/// plan (as `podcheck check -f` runs them): `plan`'s.
fn plan_scenario((base, r): &(Scenario, manifest::Reading), plan: Plan) -> Scenario {
    let set = plan_scenarios_for(
        base,
        &Plan::ALL,
        &r.plans,
        &podcheck_model::cluster::first_pod_nodes,
    );
    let names: Vec<&str> = set.scenarios.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(set.scenarios.len(), 1, "{}: {names:?}", base.name);
    let s = set.scenarios.into_iter().next().unwrap();
    assert!(
        s.name
            .starts_with(&format!("{}: {} ", base.name, plan.name()))
            || s.name == format!("{}: {}", base.name, plan.name()),
        "{}: the annotation asks for {}",
        s.name,
        plan.name()
    );
    s
}

fn run(s: &Scenario) -> ScenarioResult {
    let r = check::check(s, &CheckOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.complete, "{}: not complete", s.name);
    r
}

/// The violated properties expected to hold: the findings (`behaviour == false`) or the
/// violations that are Kubernetes' own behaviour (`behaviour == true`), sorted.
fn violations(r: &ScenarioResult, behaviour: bool) -> Vec<&'static str> {
    let mut v: Vec<&str> = r
        .properties
        .iter()
        .filter(|p| p.verdict == Verdict::Violated && p.expected != Verdict::Violated)
        .filter(|p| kubernetes_behaviour_in(p.def.name, &r.scenario).is_some() == behaviour)
        .map(|p| p.def.name)
        .collect();
    v.sort_unstable();
    v
}

fn sorted(v: &[&'static str]) -> Vec<&'static str> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

/// Each trace and lasso of the run replays through the model, step by step.
fn traces_replay(r: &ScenarioResult) {
    for (p, t) in common::trace::replayed(r) {
        // PODCHECK_EXAMPLE_TRACES=1 prints them, as `podcheck check -f … --traces` does.
        if std::env::var_os("PODCHECK_EXAMPLE_TRACES").is_some() {
            eprintln!(
                "--- {} / {}\n{}",
                r.scenario.name,
                p.def.name,
                podcheck_traces::text::render_text(&t)
            );
        }
    }
}

fn print(r: &ScenarioResult) {
    eprintln!(
        "{}: {} unique states, {:.2} s",
        r.scenario.name, r.unique_states, r.seconds
    );
    for p in &r.properties {
        if p.verdict != p.expected || p.verdict == Verdict::Violated || p.def.kind.is_witness() {
            eprintln!(
                "  {} {:?} expected {:?}{}",
                p.def.name,
                p.verdict,
                p.expected,
                if p.vacuous { " (vacuous)" } else { "" }
            );
        }
    }
    for w in &r.warnings {
        eprintln!("  warning: {w}");
    }
}

fn check_example(e: &Example) -> Vec<String> {
    let mut failures = Vec::new();
    let variants = [
        (
            "unsafe",
            e.plan,
            e.findings.to_vec(),
            e.behaviour.0,
            e.witnesses.0,
            e.states.0,
        ),
        (
            "fixed",
            e.fixed_plan,
            e.fixed_findings.iter().map(|(p, _)| *p).collect(),
            e.behaviour.1,
            e.witnesses.1,
            e.states.1,
        ),
    ];
    for (variant, plan, findings, behaviour, witnesses, pinned) in variants {
        let mut s = plan_scenario(&read(e.name, variant), plan);
        for w in witnesses {
            expect(&mut s, *w);
        }
        let r = run(&s);
        print(&r);
        traces_replay(&r);
        if r.unique_states != pinned {
            failures.push(format!(
                "{}: {} unique states, pinned {pinned}",
                s.name, r.unique_states
            ));
        }
        let got = violations(&r, false);
        if got != sorted(&findings) {
            failures.push(format!(
                "{}: findings {got:?}, expected {:?}",
                s.name,
                sorted(&findings)
            ));
        }
        let got = violations(&r, true);
        if got != sorted(behaviour) {
            failures.push(format!(
                "{}: Kubernetes' own behaviour {got:?}, expected {:?}",
                s.name,
                sorted(behaviour)
            ));
        }
        // Every other verdict is as expected: the plan's promise, the witnesses.
        for p in &r.properties {
            if p.verdict != p.expected
                && !(p.verdict == Verdict::Violated && p.expected == Verdict::Holds)
            {
                failures.push(format!(
                    "{}/{}: {} but expected {}",
                    s.name,
                    p.def.name,
                    p.verdict.as_str(),
                    p.expected.as_str()
                ));
            }
        }
        // Each finding has its counterexample (a trace or a lasso).
        for name in &findings {
            let p = r.properties.iter().find(|p| p.def.name == *name).unwrap();
            if p.actions().is_none() {
                failures.push(format!("{}/{name}: no counterexample", s.name));
            }
        }
        // Every fault happens, the cluster settles, every listed property's premise holds.
        for w in &r.warnings {
            failures.push(format!("{}: warning: {w}", s.name));
        }
        if variant == "fixed" {
            for name in e.holds_in_fixed {
                let p = r.properties.iter().find(|p| p.def.name == *name).unwrap();
                if p.verdict != Verdict::Holds || p.vacuous {
                    failures.push(format!(
                        "{}/{name}: {}{}",
                        s.name,
                        p.verdict.as_str(),
                        if p.vacuous { ", vacuous" } else { "" }
                    ));
                }
            }
        }
    }
    failures
}

#[test]
fn every_example_folder_is_listed() {
    let mut folders: Vec<String> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut listed: Vec<String> = EXAMPLES.iter().map(|e| e.name.to_string()).collect();
    listed.sort();
    assert_eq!(folders, listed);
    let readme = std::fs::read_to_string(Path::new(DIR).join("README.md")).unwrap();
    for e in EXAMPLES {
        assert!(
            readme.contains(&format!("`{}`", e.name)),
            "README lacks {}",
            e.name
        );
        for plan in [e.plan, e.fixed_plan] {
            assert!(
                readme.contains(&format!("`{}`", plan.name())),
                "README lacks {}",
                plan.name()
            );
        }
        for v in e.findings {
            assert!(readme.contains(v), "README lacks {v}");
        }
    }
}

macro_rules! example_test {
    ($test:ident, $name:literal) => {
        #[test]
        fn $test() {
            let e = EXAMPLES.iter().find(|e| e.name == $name).unwrap();
            let failures = check_example(e);
            assert!(failures.is_empty(), "{}", failures.join("\n"));
        }
    };
}

example_test!(web_liveness_db, "web-liveness-db");
example_test!(api_prestop, "api-prestop");
example_test!(shell_worker, "shell-worker");
example_test!(statefulset_db, "statefulset-db");
example_test!(job_backoff, "job-backoff");
example_test!(pdb_drain, "pdb-drain");

/// The command line over the whole `examples/` folder, as README says: every unsafe variant's
/// findings with their traces, none in a fixed variant nor in the example crate's `deploy/`,
/// and exit 1 because there are findings.
#[test]
fn podcheck_check_f_examples_reports_the_unsafe_findings_only() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let out = common::bin::command(&["check", "-f", examples])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("podcheck runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    // The application of each finding line and each operator hazard's (statefulset-db's force
    // delete): every unsafe variant, no fixed one.
    let mut apps: Vec<&str> = stdout
        .lines()
        .filter_map(|l| {
            l.strip_prefix("finding: ")
                .or_else(|| l.strip_prefix("operator hazard: "))
        })
        .filter_map(|l| l.strip_prefix(examples))
        .map(|l| l.split(": ").next().unwrap())
        .collect();
    apps.sort();
    apps.dedup();
    let mut expected: Vec<String> = EXAMPLES
        .iter()
        .map(|e| format!("/manifests/{}/unsafe", e.name))
        .collect();
    expected.sort();
    assert_eq!(apps, expected, "{stdout}");
    let all = EXAMPLES.iter().map(|e| e.findings.len()).sum::<usize>();
    // Only an operator's action gives statefulset-db's: operator hazards, counted apart.
    let hazards: Vec<&Example> = EXAMPLES
        .iter()
        .filter(|e| e.plan.operator_hazard().is_some())
        .collect();
    let n_hazards = hazards.iter().map(|e| e.findings.len()).sum::<usize>();
    assert_eq!(n_hazards, 2);
    let summary = stdout.lines().last().unwrap_or("");
    // Four findings rest on an annotation's default (`podcheck.dev/sigterm` in job-backoff,
    // shell-worker and web-liveness-db), each said under its finding and counted apart (the
    // operator hazards of statefulset-db rest on some too, and are not counted there).
    assert!(
        summary.starts_with(&format!(
            "13 applications, 14 plan scenarios: {} findings in {} scenarios (4 resting on assumed defaults); {n_hazards} operator hazards; ",
            all - n_hazards,
            EXAMPLES.len() - hazards.len()
        )),
        "{summary}"
    );
    let findings = all;
    // Each finding is followed by its trace.
    assert_eq!(
        stdout
            .matches("(step, violated): counterexample in")
            .count()
            + stdout
                .matches("(always, violated): counterexample in")
                .count()
            + stdout.matches("(leads_to, violated):").count(),
        findings,
        "{stdout}"
    );
}
