//! Swarm checking end to end: shards of `podcheck check --simulate` run by the real binary,
//! merged with `podcheck merge`, their traces replayed through the model and their verdicts
//! held against the exhaustive check; the bad inputs; and the Kubernetes Job that runs a
//! swarm (`docs/swarm-job.yaml`), read with the Kubernetes API types.

use k8s_openapi::api::batch::v1::Job;
use podcheck_input::catalogue;
use podcheck_model::{Cluster, Verdict};
use podcheck_properties::check::{self, CheckOptions};
use podcheck_properties::simulate::confirm;
use podcheck_properties::{Kind, Run};
use serde_json::Value;
use stateright::Model;
use std::process::{Command, Output};

mod common;

use common::bin::{podcheck, stderr, BIN};
use common::dir::TempDir;
use common::json::property;

const JOB_YAML: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/swarm-job.yaml"));

/// A fresh folder for one test's files.
fn dir(name: &str) -> TempDir {
    TempDir::new(&format!("swarm-{name}"))
}

/// Exit 2 with a one-line `error:` message containing `needle`, and no panic.
fn assert_bad_input(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(err.starts_with("error: "), "stderr: {err}");
    assert!(err.contains(needle), "`{needle}` not in: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
}

/// Runs shard `i` of `n` and returns its report file.
fn shard(d: &std::path::Path, scenario: &str, seed: u64, i: u64, n: u64, extra: &[&str]) -> String {
    let file = d.join(format!("{scenario}-{seed}-{i}{}.json", extra.join("")));
    let file = file.to_str().unwrap().to_string();
    let shard = format!("{i}/{n}");
    let seed = seed.to_string();
    let mut args = vec![
        "check",
        scenario,
        "--simulate",
        "--seed",
        &seed,
        "--shard",
        &shard,
        "--out",
        &file,
    ];
    args.extend_from_slice(extra);
    let o = podcheck(&args);
    assert!(
        matches!(o.status.code(), Some(0 | 1 | 3)),
        "shard {i}/{n}: {}",
        stderr(&o)
    );
    file
}

fn read_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A report's trace as a run of the model: each action the one at its index among those the
/// model lists in the state it is taken from.
fn decode(m: &Cluster, trace: &Value) -> Run<podcheck_model::Action> {
    let mut state = m
        .init_states()
        .remove(trace["init"].as_u64().unwrap() as usize);
    let mut actions = Vec::new();
    for i in trace["path"].as_array().unwrap() {
        let mut listed = Vec::new();
        m.actions(&state, &mut listed);
        let a = listed[i.as_u64().unwrap() as usize];
        state = m.next_state(&state, a).expect("enabled");
        actions.push(a);
    }
    Run {
        init: trace["init"].as_u64().unwrap() as usize,
        actions,
    }
}

#[test]
fn merged_shards_find_the_violation_with_a_replayed_shortest_trace_and_decide_nothing_else() {
    let d = dir("merge");
    let name = "termination-race";
    let files: Vec<String> = (0..4)
        .map(|i| shard(&d, name, 7, i, 4, &["--walks", "200", "--depth", "80"]))
        .collect();
    let out = d.join("merged.json");
    let mut args = vec!["merge", "--format", "json", "--out", out.to_str().unwrap()];
    args.extend(files.iter().map(|f| f.as_str()));
    let o = podcheck(&args);
    // Some verdicts are incomplete (an `always` that holds is never decided), none is
    // against its expectation: exit 3.
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let merged: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(merged, read_json(out.to_str().unwrap()));
    assert_eq!(merged["shards"]["merged"], serde_json::json!([0, 1, 2, 3]));
    assert_eq!(merged["shards"]["missing"], serde_json::json!([]));
    assert_eq!(merged["walks"], 800);

    let scenario = catalogue::find(name).unwrap();
    let m = check::model(&scenario, &[], false);
    let defs = check::selected(&scenario).unwrap();
    let exhaustive = check::check(&scenario, &CheckOptions::default()).unwrap();
    assert!(exhaustive.complete);

    // The known violation: found, the shortest trace of all shards (ties: lowest shard, then
    // walk), and it replays and breaks the property.
    let p = property(&merged, "deployment_at_most_replicas_running");
    assert_eq!(p["verdict"], "violated");
    let shortest = files
        .iter()
        .filter_map(|f| {
            let report = read_json(f);
            let t = &property(&report, "deployment_at_most_replicas_running")["trace"];
            (!t.is_null()).then(|| {
                (
                    t["steps"].as_u64().unwrap(),
                    t["shard"].as_u64().unwrap(),
                    t["walk"].as_u64().unwrap(),
                )
            })
        })
        .min()
        .expect("some shard finds it");
    let t = &p["trace"];
    assert_eq!(
        (
            t["steps"].as_u64().unwrap(),
            t["shard"].as_u64().unwrap(),
            t["walk"].as_u64().unwrap()
        ),
        shortest
    );
    let def = defs
        .iter()
        .find(|d| d.name == "deployment_at_most_replicas_running")
        .unwrap();
    let run = decode(&m, t);
    assert_eq!(run.actions.len() as u64, shortest.0);
    run.states(&m).expect("the merged trace replays");
    assert_eq!(confirm(&m, def, &run, None), Ok(Verdict::Violated));
    // No shorter than the shortest counterexample of the exhaustive search.
    let ex = exhaustive
        .properties
        .iter()
        .find(|x| x.def.name == def.name)
        .unwrap();
    assert!(run.actions.len() >= ex.trace_steps().unwrap());

    // Every verdict: a decided one is the exhaustive verdict, with a trace that replays; an
    // `always`, `step` or `leads_to` that holds and a `sometimes` that is violated are
    // `incomplete`.
    let mut incomplete_always = 0;
    for (def, ex) in defs.iter().zip(&exhaustive.properties) {
        let p = property(&merged, def.name);
        let verdict = p["verdict"].as_str().unwrap();
        // What only the absence of a trace shows.
        let undecidable = match def.kind {
            Kind::Always(_) | Kind::Step { .. } => ex.verdict == Verdict::Holds,
            Kind::Sometimes(_) => ex.verdict == Verdict::Violated,
            Kind::LeadsTo { .. } | Kind::Within { .. } => ex.verdict == Verdict::Holds,
        };
        if undecidable {
            assert_eq!(verdict, "incomplete", "{}", def.name);
            assert!(p["trace"].is_null());
            incomplete_always += usize::from(def.kind.is_always());
        }
        if verdict != "incomplete" {
            assert_eq!(verdict, ex.verdict.as_str(), "{}", def.name);
            let run = decode(&m, &p["trace"]);
            let p_index = p["trace"]["p_index"].as_u64().map(|i| i as usize);
            assert_eq!(
                confirm(&m, def, &run, p_index).map(|v| v.as_str()),
                Ok(verdict)
            );
        }
    }
    assert!(incomplete_always > 0, "an always that holds was checked");

    // For every property, the merged trace is the least (steps, shard, walk) of all shards:
    // here `pod_terminating_on_unreachable_node` has a 6-step witness in every shard, and the
    // one of shard 0 wins over walk 0 of shard 2.
    let reports: Vec<Value> = files.iter().map(|f| read_json(f)).collect();
    let key = |t: &Value| {
        (!t.is_null()).then(|| {
            (
                t["steps"].as_u64().unwrap(),
                t["shard"].as_u64().unwrap(),
                t["walk"].as_u64().unwrap(),
            )
        })
    };
    let mut ties = 0;
    for def in &defs {
        let keys: Vec<_> = reports
            .iter()
            .filter_map(|r| key(&property(r, def.name)["trace"]))
            .collect();
        let least = keys.iter().min().copied();
        assert_eq!(
            key(&property(&merged, def.name)["trace"]),
            least,
            "{}",
            def.name
        );
        ties += usize::from(
            keys.iter()
                .filter(|k| Some(k.0) == least.map(|l| l.0))
                .count()
                > 1,
        );
    }
    assert!(
        ties > 0,
        "some property has equally short traces in several shards"
    );

    // The table says the same, and `--traces` renders the merged trace as a timeline.
    let mut args = vec!["merge", "--traces"];
    args.extend(files.iter().map(|f| f.as_str()));
    let o = podcheck(&args);
    assert_eq!(o.status.code(), Some(3));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("4 of 4 shards"), "{text}");
    assert!(text.contains(&format!(
        "termination-race / deployment_at_most_replicas_running (always, violated): counterexample in {} steps",
        shortest.0
    )));
}

#[test]
fn the_same_seed_gives_byte_identical_reports_and_another_seed_another_report() {
    let d = dir("determinism");
    let run = |seed: &str, out: &str| {
        let out = d.join(out);
        let o = podcheck(&[
            "check",
            "termination-race",
            "--simulate",
            "--seed",
            seed,
            "--shard",
            "2/5",
            "--walks",
            "40",
            "--depth",
            "60",
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        let file = std::fs::read(&out).unwrap();
        assert_eq!(o.stdout, file, "--out holds what stdout shows");
        o.stdout
    };
    let a = run("42", "a.json");
    let b = run("42", "b.json");
    assert_eq!(a, b);
    let report: Value = serde_json::from_slice(&a).unwrap();
    assert_eq!(report["shard"], serde_json::json!({"index": 2, "count": 5}));
    assert_eq!(report["seed"], 42);
    assert!(report["states_visited"].as_u64().unwrap() > 40);
    let c = run("43", "c.json");
    assert_ne!(a, c);
}

#[test]
fn the_shard_index_comes_from_job_completion_index() {
    let d = dir("env");
    let out = d.join("env.json");
    let o = Command::new(BIN)
        .args([
            "check",
            "healthy",
            "--simulate",
            "--seed",
            "5",
            "--shard",
            "3",
            "--walks",
            "10",
            "--format",
            "json",
            "--out",
        ])
        .arg(&out)
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let by_env: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(by_env["shard"], serde_json::json!({"index": 1, "count": 3}));
    let by_hand = podcheck(&[
        "check",
        "healthy",
        "--simulate",
        "--seed",
        "5",
        "--shard",
        "1/3",
        "--walks",
        "10",
        "--format",
        "json",
    ]);
    assert_eq!(o.stdout, by_hand.stdout);
}

#[test]
fn bad_shards_and_flags_are_bad_input() {
    let sim = |shard: &str| {
        podcheck(&[
            "check",
            "healthy",
            "--simulate",
            "--seed",
            "1",
            &format!("--shard={shard}"),
        ])
    };
    assert_bad_input(&sim("4/4"), "shard index 4 is not below the shard count 4");
    assert_bad_input(&sim("0/0"), "`0` is not a shard count");
    assert_bad_input(&sim("x/2"), "`x` is not a shard index");
    assert_bad_input(&sim("-1/2"), "`-1` is not a shard index");
    assert_bad_input(&sim("two"), "`two` is not a shard count");
    assert_bad_input(&sim("0/100001"), "100001 shards is more than 100000");
    // `--shard N` without JOB_COMPLETION_INDEX (podcheck() removes it).
    assert_bad_input(&sim("4"), "JOB_COMPLETION_INDEX");
    assert_bad_input(&sim("4"), "--shard i/4");
    for (value, needle) in [
        ("abc", "JOB_COMPLETION_INDEX is `abc`, not a shard index"),
        ("", "JOB_COMPLETION_INDEX is ``, not a shard index"),
        (
            "4",
            "JOB_COMPLETION_INDEX is 4, but --shard 4 has shards 0 to 3",
        ),
    ] {
        let o = Command::new(BIN)
            .args([
                "check",
                "healthy",
                "--simulate",
                "--seed",
                "1",
                "--shard",
                "4",
            ])
            .env("JOB_COMPLETION_INDEX", value)
            .output()
            .unwrap();
        assert_bad_input(&o, needle);
    }
    assert_bad_input(
        &podcheck(&["check", "healthy", "--simulate"]),
        "--simulate needs --seed",
    );
    assert_bad_input(
        &podcheck(&["check", "--simulate", "--seed", "1"]),
        "--simulate runs one scenario",
    );
    assert_bad_input(
        &podcheck(&["check", "healthy", "--shard", "0/2"]),
        "--shard is a flag of random-walk checking: add --simulate",
    );
    assert_bad_input(
        &podcheck(&[
            "check",
            "healthy",
            "--simulate",
            "--seed",
            "1",
            "--max-states",
            "9",
        ]),
        "--simulate takes none of",
    );
    assert_bad_input(
        &podcheck(&[
            "check",
            "healthy",
            "--simulate",
            "--seed",
            "1",
            "--depth",
            "0",
        ]),
        "--depth",
    );
    assert_bad_input(
        &podcheck(&["check", "nope", "--simulate", "--seed", "1"]),
        "unknown scenario `nope`",
    );
}

#[test]
fn merge_refuses_reports_of_another_run_and_repeated_or_forged_shards() {
    let d = dir("refuse");
    let small = ["--walks", "30", "--depth", "40"];
    let a0 = shard(&d, "statefulset-force-delete", 3, 0, 3, &small);
    let a1 = shard(&d, "statefulset-force-delete", 3, 1, 3, &small);
    let a2 = shard(&d, "statefulset-force-delete", 3, 2, 3, &small);
    let other = shard(&d, "healthy", 3, 1, 3, &small);
    let deeper = shard(
        &d,
        "statefulset-force-delete",
        3,
        1,
        3,
        &["--walks", "30", "--depth", "41"],
    );
    let reseeded = shard(&d, "statefulset-force-delete", 4, 1, 3, &small);
    assert_bad_input(&podcheck(&["merge", &a0, &other]), &other);
    assert_bad_input(
        &podcheck(&["merge", &a0, &other]),
        "its scenario is `healthy`, not `statefulset-force-delete`",
    );
    assert_bad_input(&podcheck(&["merge", &a0, &deeper]), &deeper);
    assert_bad_input(
        &podcheck(&["merge", &a0, &deeper]),
        "its depth is 41, not 40",
    );
    assert_bad_input(
        &podcheck(&["merge", &a0, &reseeded]),
        "its seed is 4, not 3",
    );
    assert_bad_input(
        &podcheck(&["merge", &a0, &a1, &a0]),
        &format!("shard 0/3 is given twice: {a0} and {a0}"),
    );
    let resized = d.join("resized.json");
    let o = podcheck(&[
        "check",
        "statefulset-force-delete",
        "--simulate",
        "--seed",
        "3",
        "--shard",
        "2/3",
        "--walks",
        "30",
        "--depth",
        "40",
        "--nodes",
        "3",
        "--out",
        resized.to_str().unwrap(),
    ]);
    assert!(matches!(o.status.code(), Some(0 | 3)), "{}", stderr(&o));
    assert_bad_input(
        &podcheck(&["merge", &a0, resized.to_str().unwrap()]),
        "its size is 3 nodes",
    );
    assert_bad_input(
        &podcheck(&["merge", "/nonexistent/shard.json"]),
        "cannot read /nonexistent/shard.json",
    );

    // A missing shard: a warning that names it, and the merge of the others.
    let o = podcheck(&["merge", "--format", "json", &a0, &a2]);
    assert!(
        stderr(&o).contains("warning: 1 of 3 shards are missing (1)"),
        "{}",
        stderr(&o)
    );
    let merged: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(merged["shards"]["missing"], serde_json::json!([1]));
    // The expected violations of `always` properties found, the other safety properties
    // incomplete: exit 3.
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        property(&merged, "statefulset_at_most_one")["verdict"],
        "violated"
    );

    // A forged trace (one step less, so its last state does not break the property) and a
    // forged verdict (an `always` that "holds") are refused, naming the file.
    let mut forged = read_json(&a1);
    let t = &mut forged["properties"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["name"] == "statefulset_at_most_one")
        .unwrap()["trace"];
    assert!(!t.is_null(), "shard 1 finds it");
    let n = t["steps"].as_u64().unwrap();
    t["steps"] = (n - 1).into();
    t["path"].as_array_mut().unwrap().pop();
    t["actions"].as_array_mut().unwrap().pop();
    let forged_file = d.join("forged.json");
    std::fs::write(&forged_file, forged.to_string()).unwrap();
    let f = forged_file.to_str().unwrap();
    assert_bad_input(&podcheck(&["merge", &a0, f]), f);
    assert_bad_input(&podcheck(&["merge", &a0, f]), "does not break it on replay");

    let mut holds = read_json(&a1);
    let p = holds["properties"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["name"] == "pending_until_first_start")
        .unwrap();
    p["verdict"] = "holds".into();
    let holds_file = d.join("holds.json");
    std::fs::write(&holds_file, holds.to_string()).unwrap();
    let h = holds_file.to_str().unwrap();
    assert_bad_input(
        &podcheck(&["merge", &a0, h]),
        "verdict holds without a trace",
    );

    // A merged report is not a shard report.
    let merged_file = d.join("merged.json");
    let o = podcheck(&[
        "merge",
        &a0,
        &a1,
        &a2,
        "--out",
        merged_file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3));
    assert_bad_input(
        &podcheck(&["merge", merged_file.to_str().unwrap()]),
        "is a merged report",
    );
}

/// Writes `report` to `name` in `d` and returns the file's path.
fn write_report(d: &std::path::Path, name: &str, report: &Value) -> String {
    let file = d.join(name);
    std::fs::write(&file, serde_json::to_string_pretty(report).unwrap()).unwrap();
    file.to_str().unwrap().to_string()
}

/// The index of the property of `report` with the longest trace.
fn traced(report: &Value) -> usize {
    let props = report["properties"].as_array().unwrap();
    (0..props.len())
        .filter(|&i| !props[i]["trace"].is_null())
        .max_by_key(|&i| props[i]["trace"]["steps"].as_u64().unwrap())
        .expect("the shard found a trace")
}

#[test]
fn merge_out_naming_an_input_or_the_catalogue_is_bad_input_and_overwrites_nothing() {
    let d = dir("out-input");
    let small = ["--walks", "20", "--depth", "30"];
    let s0 = shard(&d, "healthy", 1, 0, 2, &small);
    let s1 = shard(&d, "healthy", 1, 1, 2, &small);
    let before = std::fs::read(&s0).unwrap();
    // The same file, as given, through `.`, and through a hard link.
    let dotted = d
        .join(".")
        .join(std::path::Path::new(&s0).file_name().unwrap());
    let linked = d.join("linked.json");
    std::fs::hard_link(&s0, &linked).unwrap();
    for out in [
        s0.clone(),
        dotted.to_str().unwrap().to_string(),
        linked.to_str().unwrap().to_string(),
    ] {
        let o = podcheck(&["merge", &s0, &s1, "--out", &out]);
        assert_bad_input(
            &o,
            &format!("--out {out} is {s0}, one of the reports to merge"),
        );
        assert!(o.stdout.is_empty());
        assert_eq!(std::fs::read(&s0).unwrap(), before, "{s0} was overwritten");
    }
    // The catalogue the scenario is read from.
    let cat = d.join("catalogue.yaml");
    std::fs::write(&cat, NO_EXPECTATIONS_YAML).unwrap();
    let cat = cat.to_str().unwrap();
    let o = podcheck(&["merge", "--catalogue", cat, &s0, "--out", cat]);
    assert_bad_input(&o, "the catalogue given with --catalogue");
    assert_eq!(std::fs::read_to_string(cat).unwrap(), NO_EXPECTATIONS_YAML);
    // Another file is written.
    let merged = d.join("merged.json");
    let o = podcheck(&["merge", &s0, &s1, "--out", merged.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(
        read_json(merged.to_str().unwrap())["report"],
        "podcheck swarm merged"
    );
}

#[test]
fn merge_refuses_a_report_that_contradicts_itself_naming_the_file_and_the_field() {
    let d = dir("contradicts");
    let s0 = shard(&d, "healthy", 1, 0, 2, &["--walks", "30", "--depth", "40"]);
    let good = read_json(&s0);
    let i = traced(&good);
    let name = good["properties"][i]["name"].as_str().unwrap().to_string();
    // (file, edit, what the error says)
    type Edit = (&'static str, Box<dyn Fn(&mut Value)>, String);
    let edits: Vec<Edit> = vec![
        (
            "nodes",
            Box::new(|r: &mut Value| r["size"]["nodes"] = 3.into()),
            "size.nodes is 3, but nodes is 2".into(),
        ),
        (
            "replicas",
            Box::new(|r: &mut Value| r["size"]["replicas"] = 3.into()),
            "size.replicas is 3, but replicas gives web 1".into(),
        ),
        (
            "no-walks",
            Box::new(|r: &mut Value| r["walks"] = 0.into()),
            "walks is 0, but a shard runs at least one walk".into(),
        ),
        (
            "fewer-walks",
            Box::new(move |r: &mut Value| r["properties"][i]["trace"]["walk"] = 30.into()),
            format!(
                "properties[{i}].trace.walk (of {name}) is 30, but the shard ran 30 walks, numbered 0 to 29"
            ),
        ),
        (
            "distinct",
            Box::new(|r: &mut Value| r["distinct_states"] = 1_000_000_000u64.into()),
            "distinct_states is 1000000000, but the distinct states are 1 to the states visited"
                .into(),
        ),
        (
            "visited",
            Box::new(|r: &mut Value| r["states_visited"] = 1_000_000_000u64.into()),
            "states_visited is 1000000000, but 30 walks of up to 40 steps visit 30 to 1230 states"
                .into(),
        ),
        (
            "terminal",
            Box::new(|r: &mut Value| r["walks_to_terminal"] = 31.into()),
            "walks_to_terminal is 31, more than the shard's walks (30)".into(),
        ),
        (
            "shallow",
            Box::new(move |r: &mut Value| {
                let steps = r["properties"][i]["trace"]["steps"].as_u64().unwrap();
                assert!(steps >= 2, "a trace of {steps} steps");
                r["depth"] = (steps - 1).into();
                r["states_visited"] = r["walks"].clone();
                r["distinct_states"] = 1.into();
            }),
            format!("properties[{i}].trace.steps (of {name}) is"),
        ),
        (
            "expected",
            Box::new(move |r: &mut Value| {
                let p = &mut r["properties"][i];
                p["expected"] = if p["expected"] == "holds" {
                    "violated".into()
                } else {
                    "holds".into()
                };
            }),
            format!("properties[{i}].expected is"),
        ),
        (
            "expected-source",
            Box::new(move |r: &mut Value| {
                r["properties"][i]["expected_source"] = "my own say-so".into()
            }),
            format!("properties[{i}].expected_source of {name} is `my own say-so`"),
        ),
        (
            "release",
            Box::new(|r: &mut Value| r["kubernetes_version"] = "1.30".into()),
            "kubernetes_version is 1.30, but scenario `healthy` in the built-in catalogue without --kubernetes-version follows Kubernetes 1.35".into(),
        ),
    ];
    for (file, edit, needle) in edits {
        let mut r = good.clone();
        edit(&mut r);
        let f = write_report(&d, &format!("{file}.json"), &r);
        let o = podcheck(&["merge", &f]);
        assert_bad_input(&o, &f);
        assert_bad_input(&o, &needle);
    }
    // Unedited, it merges (one shard of two missing).
    assert_eq!(podcheck(&["merge", &s0]).status.code(), Some(3));
    // Two shards whose walks, each possible alone, add up to more than a count can hold.
    let s1 = shard(&d, "healthy", 1, 1, 2, &["--walks", "30", "--depth", "40"]);
    let huge: Vec<String> = [&s0, &s1]
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let mut r = read_json(f);
            r["walks"] = (u64::MAX / 2 + 1).into();
            r["states_visited"] = r["walks"].clone();
            write_report(&d, &format!("huge-{k}.json"), &r)
        })
        .collect();
    assert_bad_input(
        &podcheck(&["merge", &huge[0], &huge[1]]),
        "the shards' walks add up to more than 18446744073709551615",
    );
}

#[test]
fn merge_messages_name_the_file_the_field_and_the_real_difference() {
    let d = dir("messages");
    let small = ["--walks", "30", "--depth", "40"];
    let s0 = shard(&d, "healthy", 1, 0, 2, &small);
    let old = shard(
        &d,
        "healthy",
        1,
        1,
        2,
        &[
            "--walks",
            "30",
            "--depth",
            "40",
            "--kubernetes-version",
            "1.30",
        ],
    );
    // Another Kubernetes release, the same size: the release is named, not the size.
    let o = podcheck(&["merge", &s0, &old]);
    assert_bad_input(
        &o,
        &format!(
            "{old} is not a shard of the same run as {s0}: its Kubernetes release is 1.30 (--kubernetes-version 1.30), not 1.35 (without --kubernetes-version)"
        ),
    );
    // The same size, asked for by a flag in one shard only: the flags are named.
    let flagged = shard(
        &d,
        "healthy",
        1,
        1,
        2,
        &["--walks", "30", "--depth", "40", "--nodes", "2"],
    );
    assert_bad_input(
        &podcheck(&["merge", &s0, &flagged]),
        "(--nodes 2, without --replicas), not 2 nodes, replicas {\"web\": 1} (without --nodes, without --replicas)",
    );

    // A scenario not in the catalogue given: the file, the catalogue and what it has.
    let cat = d.join("catalogue.yaml");
    std::fs::write(&cat, NO_EXPECTATIONS_YAML).unwrap();
    let cat = cat.to_str().unwrap();
    assert_bad_input(
        &podcheck(&["merge", "--catalogue", cat, &s0]),
        &format!(
            "{s0}: unknown scenario `healthy` (in {cat}): merge with the catalogue the shards ran it from (--catalogue FILE); {cat} has: force-delete-unexpected"
        ),
    );

    // A size podcheck cannot run: the file and the field.
    let mut r = read_json(&s0);
    r["size"]["nodes"] = 9.into();
    r["nodes"] = 9.into();
    let f = write_report(&d, "nine-nodes.json", &r);
    let o = podcheck(&["merge", &f]);
    assert_bad_input(&o, &format!("{f}: size.nodes is 9: "));
    assert_bad_input(&o, "--nodes 9: must be 1 to 5");

    // A field of the wrong type, at the top and deep down: its path.
    let mut r = read_json(&s0);
    r["depth"] = "200".into();
    let f = write_report(&d, "depth-string.json", &r);
    assert_bad_input(
        &podcheck(&["merge", &f]),
        &format!("{f}: not a valid shard report: field `depth`: invalid type: string \"200\", expected u32"),
    );
    let mut r = read_json(&s0);
    let i = traced(&r);
    r["properties"][i]["trace"]["walk"] = (-1).into();
    let f = write_report(&d, "walk-negative.json", &r);
    assert_bad_input(
        &podcheck(&["merge", &f]),
        &format!("field `properties[{i}].trace.walk`: invalid value: integer `-1`"),
    );
    for (field, path) in [
        ("kubernetes_version", "kubernetes_version"),
        ("size", "size.kubernetes_version"),
    ] {
        let mut r = read_json(&s0);
        if field == "size" {
            r["size"]["kubernetes_version"] = "1.99".into();
        } else {
            r[field] = "1.99".into();
        }
        let f = write_report(&d, &format!("release-{field}.json"), &r);
        assert_bad_input(
            &podcheck(&["merge", &f]),
            &format!("field `{path}`: Kubernetes 1.99 is not supported"),
        );
    }
    let mut r = read_json(&s0);
    r["shard"].as_object_mut().unwrap().remove("count");
    let f = write_report(&d, "no-count.json", &r);
    assert_bad_input(
        &podcheck(&["merge", &f]),
        "field `shard`: missing field `count`",
    );
}

/// `statefulset-force-delete` with no expectations: every safety property is expected to
/// hold, so the violations the walks find are verdicts against the expectation.
const NO_EXPECTATIONS_YAML: &str = r#"- name: force-delete-unexpected
  description: statefulset-force-delete, with every safety property expected to hold.
  source: copied from statefulset-force-delete
  cluster:
    nodes:
      - {name: node-1, allocatable: {cpuMilli: 4000, memoryMi: 8192}, usedByOtherPods: {cpuMilli: 1000}}
      - {name: node-2, allocatable: {cpuMilli: 4000, memoryMi: 8192}, usedByOtherPods: {cpuMilli: 2000}}
    start: settled
  workloads:
    - kind: StatefulSet
      metadata: {name: db}
      spec:
        replicas: 1
        podManagementPolicy: OrderedReady
        template:
          spec:
            containers:
              - name: db
                image: db:1.0
                resources: {requests: {cpuMilli: 500}}
  faults:
    - partition: {node: node-1}
    - forceDeletePod: {workload: db, terminatingOnly: true}
"#;

#[test]
fn a_found_violation_against_the_expectation_exits_1_in_check_and_merge() {
    let d = dir("unexpected");
    let cat = d.join("catalogue.yaml");
    std::fs::write(&cat, NO_EXPECTATIONS_YAML).unwrap();
    let cat = cat.to_str().unwrap();
    let out = d.join("shard.json");
    let o = podcheck(&[
        "check",
        "force-delete-unexpected",
        "--catalogue",
        cat,
        "--simulate",
        "--seed",
        "9",
        "--walks",
        "30",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let table = String::from_utf8(o.stdout).unwrap();
    assert!(
        table.contains(" ! statefulset_at_most_one") && table.contains("expected holds"),
        "{table}"
    );
    // `merge` finds the scenario in the same catalogue, and says the same.
    let o = podcheck(&["merge", "--catalogue", cat, out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // With another scenario of the same name (one node fewer), the traces are not its:
    // refused before any replay.
    let other = d.join("other.yaml");
    let one_node: String = NO_EXPECTATIONS_YAML
        .lines()
        .filter(|l| !l.contains("name: node-2"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&other, one_node).unwrap();
    assert_bad_input(
        &podcheck(&[
            "merge",
            "--catalogue",
            other.to_str().unwrap(),
            out.to_str().unwrap(),
        ]),
        "has 1 nodes and replicas {\"db\": 1}, but the shards ran 2 nodes",
    );
    // Without it, the scenario is unknown: bad input, naming the file and saying to give the
    // catalogue.
    let o = podcheck(&["merge", out.to_str().unwrap()]);
    assert_bad_input(
        &o,
        &format!(
            "{}: unknown scenario `force-delete-unexpected` (in the built-in catalogue)",
            out.display()
        ),
    );
    assert_bad_input(&o, "merge with that file: podcheck merge --catalogue FILE");
}

/// The words of the Job's shell script.
fn script_words(job: &Job) -> Vec<String> {
    let c = &job
        .spec
        .as_ref()
        .unwrap()
        .template
        .spec
        .as_ref()
        .unwrap()
        .containers[0];
    c.command
        .iter()
        .flatten()
        .chain(c.args.iter().flatten())
        .flat_map(|s| s.split_whitespace())
        .filter(|w| *w != "\\")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_swarm_job_is_an_indexed_job_with_one_shard_per_completion() {
    let job: Job = serde_saphyr::from_str(JOB_YAML).expect("docs/swarm-job.yaml is a batch/v1 Job");
    let spec = job.spec.as_ref().unwrap();
    assert_eq!(spec.completion_mode.as_deref(), Some("Indexed"));
    let completions = spec.completions.expect("completions");
    assert!(completions > 1);
    assert!(spec
        .parallelism
        .is_some_and(|p| (1..=completions).contains(&p)));
    let pod = spec.template.spec.as_ref().unwrap();
    assert_eq!(pod.restart_policy.as_deref(), Some("Never"));
    let words = script_words(&job);
    let at = |flag: &str| {
        words
            .iter()
            .position(|w| w == flag)
            .unwrap_or_else(|| panic!("the command has no {flag}: {words:?}"))
    };
    assert_eq!(words[at("podcheck") + 1], "check");
    at("--simulate");
    at("--seed");
    // `--shard N`: the index comes from JOB_COMPLETION_INDEX, the count is `completions`.
    let n = &words[at("--shard") + 1];
    assert!(
        !n.contains('/'),
        "--shard {n} would run one fixed shard in every pod"
    );
    assert_eq!(
        n.parse::<i32>().ok(),
        Some(completions),
        "--shard {n} vs completions {completions}"
    );
    assert_eq!(words[at("--format") + 1], "json");
    // An exit 2 (bad input) fails the Job rather than being retried.
    let rules = &spec.pod_failure_policy.as_ref().unwrap().rules;
    assert!(rules.iter().any(|r| r.action == "FailJob"
        && r.on_exit_codes
            .as_ref()
            .is_some_and(|e| e.values.contains(&2))));

    // The container's script, run here by /bin/sh as the Job runs it in pod 1 (its walks cut
    // down to keep the test short, its folder a fresh one): it succeeds, and what it prints
    // (the pod's log) is the shard's report alone.
    let c = &pod.containers[0];
    let script = c.args.as_ref().unwrap().join("\n");
    let d = dir("job");
    let walks = &words[at("--walks") + 1];
    let script = script
        .replace("/reports", d.to_str().unwrap())
        .replace(&format!("--walks {walks}"), "--walks 20");
    let bin_dir = std::path::Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |script: &str| {
        Command::new(&c.command.as_ref().unwrap()[0])
            .args(&c.command.as_ref().unwrap()[1..])
            .arg(script)
            .env("PATH", &path)
            .env("JOB_COMPLETION_INDEX", "1")
            .output()
            .unwrap()
    };
    let o = run(&script);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: Value = serde_json::from_slice(&o.stdout).expect("the log is the report");
    assert_eq!(report["report"], "podcheck swarm shard");
    assert_eq!(
        report["shard"],
        serde_json::json!({"index": 1, "count": completions})
    );
    assert_eq!(report["walks"], 20);
    // Bad input: the pod fails with exit 2 (which fails the Job) and podcheck's message.
    let scenario = &words[at("check") + 1];
    let o = run(&script.replace(&format!("check {scenario}"), "check nope"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown scenario `nope`"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

/// Over every built-in scenario, a shard's decided verdicts are the exhaustive check's, and
/// what the exhaustive check decides by the absence of a trace stays `incomplete`.
#[test]
fn a_simulation_decides_only_what_the_exhaustive_check_decides_the_same_way() {
    use podcheck_properties::simulate::{simulate, SimOptions};
    let mut decided = [0usize; 4];
    for scenario in catalogue::builtin() {
        let ex = check::check(&scenario, &CheckOptions::default()).unwrap();
        assert!(ex.complete);
        let opts = SimOptions {
            seed: 2026,
            shard: 0,
            walks: 200,
            depth: 120,
        };
        let sim = simulate(&scenario, &opts).unwrap();
        let m = check::model(&scenario, &[], false);
        for (p, e) in sim.properties.iter().zip(&ex.properties) {
            assert_eq!(p.def.name, e.def.name);
            let what = format!("{} / {}", scenario.name, p.def.name);
            if p.verdict == Verdict::Incomplete {
                assert!(p.found.is_none(), "{what}");
                continue;
            }
            assert_eq!(p.verdict, e.verdict, "{what}");
            let f = p.found.as_ref().expect("a decided verdict has a trace");
            assert_eq!(
                confirm(&m, &p.def, &f.run, f.p_index),
                Ok(p.verdict),
                "{what}"
            );
            // Never shorter than the exhaustive search's shortest trace (a lasso or a
            // stopping run of a leads_to need not be shortest).
            if !p.def.kind.is_leads_to() && !p.def.kind.is_within() {
                assert!(f.run.actions.len() >= e.trace_steps().unwrap(), "{what}");
            }
            decided[match p.def.kind {
                Kind::Always(_) => 0,
                Kind::Step { .. } => 1,
                Kind::Sometimes(_) => 2,
                Kind::LeadsTo { .. } | Kind::Within { .. } => 3,
            }] += 1;
        }
    }
    // Each kind decided somewhere: the comparison was not empty.
    assert!(
        decided.iter().all(|n| *n > 0),
        "decided per kind: {decided:?}"
    );
}

#[test]
fn check_out_naming_the_catalogue_or_a_manifest_is_bad_input_and_overwrites_nothing() {
    let d = dir("check-out-input");
    let cat = d.join("catalogue.yaml");
    std::fs::write(&cat, NO_EXPECTATIONS_YAML).unwrap();
    let cat = cat.to_str().unwrap().to_string();
    // The catalogue, as given, through `.`, and through a hard link.
    let dotted = d.join(".").join("catalogue.yaml");
    let linked = d.join("linked.yaml");
    std::fs::hard_link(&cat, &linked).unwrap();
    for out in [
        cat.clone(),
        dotted.to_str().unwrap().to_string(),
        linked.to_str().unwrap().to_string(),
    ] {
        let o = podcheck(&[
            "check",
            "--catalogue",
            &cat,
            "force-delete-unexpected",
            "--simulate",
            "--seed",
            "1",
            "--walks",
            "5",
            "--out",
            &out,
        ]);
        assert_bad_input(
            &o,
            &format!("--out {out} is {cat}, the catalogue given with --catalogue"),
        );
        assert!(o.stdout.is_empty());
        assert_eq!(
            std::fs::read_to_string(&cat).unwrap(),
            NO_EXPECTATIONS_YAML,
            "{cat} was overwritten"
        );
    }
    // A manifest given with -f: refused as such, and the swarm's flags are no flags of -f.
    let web = d.join("web.yaml");
    let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n";
    std::fs::write(&web, manifest).unwrap();
    let web = web.to_str().unwrap();
    let o = podcheck(&[
        "check",
        "-f",
        web,
        "--simulate",
        "--seed",
        "1",
        "--out",
        web,
    ]);
    assert_bad_input(&o, &format!("--out {web} is {web}, given with -f"));
    assert_eq!(std::fs::read_to_string(web).unwrap(), manifest);
    let other = d.join("report.json");
    let o = podcheck(&["check", "-f", web, "--out", other.to_str().unwrap()]);
    assert_bad_input(
        &o,
        "--out is a flag of a swarm run of one scenario (--simulate without -f); with -f, --simulate walks every plan scenario that stopped at a bound",
    );
    assert!(!other.exists());
    let o = podcheck(&["check", "-f", web, "--seed", "3"]);
    assert_bad_input(&o, "--seed is a flag of random-walk checking (--simulate)");
    // Another file is written.
    let o = podcheck(&[
        "check",
        "--catalogue",
        &cat,
        "force-delete-unexpected",
        "--simulate",
        "--seed",
        "1",
        "--walks",
        "5",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{}", stderr(&o));
    assert_eq!(
        read_json(other.to_str().unwrap())["report"],
        "podcheck swarm shard"
    );
}
