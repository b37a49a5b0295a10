//! The example manifests of `examples/manifests/` (their README lists them): each application
//! has an `unsafe/` and a `fixed/` folder, read as `podcheck check -f` reads them, checked
//! under the fault plan that finds its problem. The unsafe variant violates exactly the
//! properties the README names (and its traces replay through the model); the fixed variant,
//! under its plan, has every verdict as expected and no vacuity warning. Unique-state counts
//! are pinned.

use podcheck_model::manifest;
use podcheck_model::spec::{Expectation, Fault, Scenario};
use podcheck_model::Verdict;
use podcheck_properties::check::{self, CheckOptions, ScenarioResult};
use std::path::Path;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/manifests");

/// A property violated in both variants because that is what Kubernetes does, not because of
/// the manifests: expected `violated` in both, with its upstream source.
type Inherent = (&'static str, &'static str);

/// Under `kubectl delete pod` or a drain, the ReplicaSet does not count a terminating pod as
/// active, so the replacement starts while the old container still runs.
const SURGE: Inherent = (
    "deployment_at_most_replicas_running",
    "a terminating pod is not active, so the ReplicaSet's replacement starts while the old container still runs (controller_utils.go IsPodActive; kubernetes#95498)",
);

/// Under an outage of the dependency that every replica's readiness probe checks, no endpoint
/// is ready or serving, and kube-proxy rejects requests until the dependency is back.
const NO_ENDPOINTS: Inherent = (
    "no_request_finds_no_endpoints",
    "readiness checks the database on every replica, so during its outage no endpoint is ready or serving and kube-proxy rejects requests (endpointslice podToEndpoint; pkg/proxy/topology.go CategorizeEndpoints)",
);

struct Example {
    name: &'static str,
    /// The plan that finds the problem in `unsafe/` (a `Plan::name`), or `none` for a
    /// problem that needs no fault (a Job whose program fails by itself).
    plan: &'static str,
    /// The plan `fixed/` is checked under: the same, but where the fix is operational.
    fixed_plan: &'static str,
    /// The properties `unsafe/` violates (and `fixed/` does not), each expected to hold.
    violated: &'static [&'static str],
    /// Properties that must hold (not vacuously) in `fixed/`: the finding's other side.
    holds_in_fixed: &'static [&'static str],
    /// Violated, as upstream intends, in `unsafe/` and in `fixed/`.
    inherent: (&'static [Inherent], &'static [Inherent]),
    /// Witnesses expected in both variants (with what they witness, as a source).
    witnesses: &'static [(&'static str, &'static str)],
    /// Unique states of `unsafe/` and `fixed/` under their plans.
    states: (usize, usize),
}

const EXAMPLES: &[Example] = &[
    Example {
        name: "web-liveness-db",
        plan: "dependency-outage",
        fixed_plan: "dependency-outage",
        violated: &["no_restart_while_healthy", "no_request_to_stopped_container"],
        holds_in_fixed: &["no_restart_while_healthy"],
        inherent: (&[NO_ENDPOINTS], &[NO_ENDPOINTS]),
        witnesses: &[],
        states: (0, 0),
    },
    Example {
        name: "api-prestop",
        plan: "delete-pod",
        fixed_plan: "delete-pod",
        violated: &["no_request_to_stopped_container"],
        holds_in_fixed: &["no_request_to_stopped_container"],
        inherent: (&[SURGE], &[SURGE]),
        witnesses: &[],
        states: (0, 0),
    },
    Example {
        name: "shell-worker",
        plan: "delete-pod",
        fixed_plan: "delete-pod",
        violated: &["graceful_stop_within_grace"],
        holds_in_fixed: &["graceful_stop_within_grace"],
        inherent: (&[SURGE], &[SURGE]),
        witnesses: &[],
        states: (0, 0),
    },
    Example {
        name: "statefulset-db",
        plan: "partition-force-delete",
        fixed_plan: "partition",
        violated: &[
            "statefulset_at_most_one",
            "rwo_volume_mounted_on_one_node",
            "force_delete_cleans_runtime",
        ],
        holds_in_fixed: &["statefulset_at_most_one", "rwo_volume_mounted_on_one_node"],
        inherent: (&[], &[]),
        witnesses: &[],
        states: (0, 0),
    },
    Example {
        name: "job-backoff",
        plan: "none",
        fixed_plan: "none",
        violated: &["job_fails_only_after_backoff_limit_plus_one_failures"],
        holds_in_fixed: &["job_fails_only_after_backoff_limit_plus_one_failures"],
        inherent: (&[], &[]),
        witnesses: &[(
            "job_failed",
            "the program always exits 1, so the Job fails with BackoffLimitExceeded (job_controller.go)",
        )],
        states: (0, 0),
    },
    Example {
        name: "pdb-drain",
        plan: "drain",
        fixed_plan: "drain",
        violated: &["drain_completes"],
        holds_in_fixed: &["drain_completes"],
        inherent: (&[], &[SURGE]),
        witnesses: &[],
        states: (0, 0),
    },
];

/// The manifests of one folder, as `podcheck check -f FOLDER` reads them (its `.yaml` files,
/// sorted), named by their path under `examples/manifests/`.
fn read(example: &str, variant: &str) -> Scenario {
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
    assert!(r.warnings.is_empty(), "{example}/{variant}: {:?}", r.warnings);
    assert!(r.ignored.is_empty(), "{example}/{variant}: {:?}", r.ignored);
    let mut s = r.scenario;
    s.name = format!("{example}/{variant}");
    s
}

fn expect(s: &mut Scenario, property: &str, verdict: Verdict, source: &str) {
    s.expect.retain(|e| e.property != property);
    s.expect.push(Expectation {
        property: property.into(),
        verdict,
        source: source.into(),
        from: None,
        before: None,
    });
}

/// The scenario of one plan on the settled cluster of the manifests, with the liveness
/// property the plan is about expected to hold.
fn plan_scenario(base: &Scenario, plan: &str) -> Scenario {
    let mut s = base.clone();
    let first_workload = s.workloads[0].name().to_string();
    match plan {
        // The reader's own fault: `kubectl delete pod` of each Deployment and StatefulSet.
        "delete-pod" => {}
        "none" => s.faults.clear(),
        "dependency-outage" => {
            s.faults = vec![Fault::DependencyOutage { seconds: 60 }];
            expect(
                &mut s,
                "recovered_dependency_leads_to_ready",
                Verdict::Holds,
                "plan dependency-outage: every pod is Ready again once the dependency is back",
            );
        }
        "drain" => {
            s.faults = vec![Fault::Drain {
                node: s.cluster.nodes[0].name.clone(),
                disable_eviction: false,
                force: false,
                delete_emptydir_data: false,
            }];
            expect(
                &mut s,
                "drain_completes",
                Verdict::Holds,
                "plan drain: the drain ends with the node empty",
            );
        }
        "partition" => {
            s.faults = vec![Fault::Partition {
                node: s.cluster.nodes[0].name.clone(),
                heals: true,
            }];
            expect(
                &mut s,
                "deleted_leads_to_gone",
                Verdict::Holds,
                "plan partition: once the partition heals, every deleted pod is gone",
            );
        }
        "partition-force-delete" => {
            s.faults = vec![
                Fault::Partition {
                    node: s.cluster.nodes[0].name.clone(),
                    heals: false,
                },
                Fault::ForceDeletePod {
                    workload: first_workload,
                    terminating_only: true,
                },
            ];
        }
        other => panic!("no plan {other}"),
    }
    s
}

fn run(s: &Scenario) -> ScenarioResult {
    let r = check::check(s, &CheckOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.complete, "{}: not complete", s.name);
    r
}

fn violated(r: &ScenarioResult) -> Vec<&'static str> {
    r.properties
        .iter()
        .filter(|p| p.verdict == Verdict::Violated && p.expected != Verdict::Violated)
        .map(|p| p.def.name)
        .collect()
}

/// Each trace and lasso of the run replays through the model, step by step.
fn traces_replay(r: &ScenarioResult) {
    let m = check::model(&r.scenario, &[], false);
    for p in &r.properties {
        let (run, kind, loop_start) = match (&p.trace, &p.lasso) {
            (Some(t), _) => (t.clone(), podcheck_traces::Kind::Always, None),
            (None, Some(l)) => (l.run(), podcheck_traces::Kind::LeadsTo, l.loop_start),
            _ => continue,
        };
        let t = podcheck_traces::from_run(&m, &run, p.def.name, kind, p.verdict, loop_start)
            .unwrap_or_else(|e| panic!("{}/{}: {e}", r.scenario.name, p.def.name));
        // PODCHECK_EXAMPLE_TRACES=1 prints them, as `podcheck check -f … --traces` does.
        if std::env::var_os("PODCHECK_EXAMPLE_TRACES").is_some() {
            eprintln!("--- {} / {}\n{}", r.scenario.name, p.def.name, podcheck_traces::text::render_text(&t));
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
    let variants = [("unsafe", e.plan), ("fixed", e.fixed_plan)];
    for (i, (variant, plan)) in variants.into_iter().enumerate() {
        let mut s = plan_scenario(&read(e.name, variant), plan);
        let inherent = if i == 0 { e.inherent.0 } else { e.inherent.1 };
        for (property, source) in inherent {
            expect(&mut s, property, Verdict::Violated, source);
        }
        for (property, source) in e.witnesses {
            expect(&mut s, property, Verdict::Holds, source);
        }
        let r = run(&s);
        print(&r);
        traces_replay(&r);
        let pinned = if i == 0 { e.states.0 } else { e.states.1 };
        if r.unique_states != pinned {
            failures.push(format!(
                "{}: {} unique states, pinned {pinned}",
                s.name, r.unique_states
            ));
        }
        let got = violated(&r);
        let want: Vec<&str> = if i == 0 { e.violated.to_vec() } else { vec![] };
        let mut sorted = got.clone();
        sorted.sort_unstable();
        let mut want_sorted = want.clone();
        want_sorted.sort_unstable();
        if sorted != want_sorted {
            failures.push(format!(
                "{}: violated {got:?}, expected {want:?}",
                s.name
            ));
        }
        // Every other verdict is as expected: the plan's liveness property, the inherent ones.
        for p in &r.properties {
            if p.verdict != p.expected && !want.contains(&p.def.name) {
                failures.push(format!(
                    "{}/{}: {} but expected {}",
                    s.name,
                    p.def.name,
                    p.verdict.as_str(),
                    p.expected.as_str()
                ));
            }
        }
        // A violation the example names has its counterexample.
        for name in &want {
            let p = r.properties.iter().find(|p| p.def.name == *name).unwrap();
            if p.actions().is_none() {
                failures.push(format!("{}/{name}: no counterexample", s.name));
            }
        }
        if i == 1 {
            if !r.warnings.is_empty() {
                failures.push(format!("{}: warnings {:?}", s.name, r.warnings));
            }
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
        // The unsafe variant's faults happen too (no warning that one never did).
        if i == 0 {
            for w in &r.warnings {
                failures.push(format!("{}: {w}", s.name));
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
        assert!(readme.contains(&format!("`{}`", e.name)), "README lacks {}", e.name);
        for v in e.violated {
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
