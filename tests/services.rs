//! Every Service of the manifests, and reports that do not depend on how the files are split or
//! ordered: the reader keeps each Service that selects pods, in canonical order (not headless
//! first, then by name), and each plan scenario models the one of the pods its plan acts on.
//! A two-tier application — a web Deployment behind a LoadBalancer Service, a database
//! StatefulSet behind a headless one — gives the same report in one file, in two, and with its
//! documents reversed, and the web tier's request property is decided, not vacuous.

mod common;

use common::bin::{describe, run_expect};
use common::dir::TempDir;
use podcheck_input::manifest::{read, Reading, MAX_SERVICES};
use podcheck_input::plan::{plan_scenarios_served, Plan};
use podcheck_model::cluster::first_pod_nodes;
use serde_json::Value;
use std::collections::BTreeMap;

/// The web tier: two replicas without a preStop hook, behind a LoadBalancer Service.
const WEB: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        readinessProbe:
          httpGet: {path: /, port: 80}
          periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: LoadBalancer
  selector: {app: web}
  ports:
  - port: 80
";

/// The database: one replica, behind the headless Service that governs it.
const DB: &str = "\
apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  clusterIP: None
  selector: {app: db}
  ports:
  - port: 5432
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 1
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: db
        image: postgres:16
        readinessProbe:
          tcpSocket: {port: 5432}
          periodSeconds: 5
";

/// The documents of `texts`, each ending in a newline.
fn documents(texts: &[&str]) -> Vec<String> {
    texts
        .iter()
        .flat_map(|t| t.split("---\n"))
        .map(|d| d.to_string())
        .collect()
}

/// The two-tier application's documents, database first (its headless Service is the first
/// Service in file order).
fn two_tier() -> Vec<String> {
    documents(&[DB, WEB])
}

fn joined(docs: &[String]) -> String {
    docs.join("---\n")
}

fn reading(sources: &[(&str, String)]) -> Reading {
    let sources: Vec<(String, String)> = sources
        .iter()
        .map(|(n, t)| (n.to_string(), t.clone()))
        .collect();
    read(&sources).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_service_is_kept_in_canonical_order() {
    let r = reading(&[("app.yaml", joined(&two_tier()))]);
    let names: Vec<&str> = r.services.iter().map(|v| v.name.as_str()).collect();
    // Not headless first, whatever the file order.
    assert_eq!(names, ["Service/web", "Service/db"]);
    assert_eq!(r.services[0].spec.selects, ["web"]);
    assert!(r.services[0].spec.clients && !r.services[0].spec.headless);
    assert_eq!(r.services[1].spec.selects, ["db"]);
    assert!(r.services[1].spec.headless && !r.services[1].spec.clients);
    assert_eq!(r.scenario.service.as_ref(), Some(&r.services[0].spec));
    assert!(
        !r.ignored.iter().any(|i| i.contains("Service")),
        "{:?}",
        r.ignored
    );
}

#[test]
fn each_plan_scenario_models_the_service_of_its_target() {
    let r = reading(&[("app.yaml", joined(&two_tier()))]);
    let set = plan_scenarios_served(
        &r.scenario,
        &r.services,
        &[Plan::DeletePod, Plan::Crash],
        &BTreeMap::new(),
        &first_pod_nodes,
    );
    assert_eq!(set.services.len(), set.scenarios.len());
    let mut seen = 0;
    for (s, choice) in set.scenarios.iter().zip(&set.services) {
        let target = s.name.rsplit(' ').next().unwrap();
        let service = s.service.as_ref().expect("a Service");
        assert_eq!(service.selects, [target], "{}", s.name);
        assert_eq!(
            choice.modelled.as_deref(),
            Some(format!("Service/{target}").as_str()),
            "{}",
            s.name
        );
        assert!(choice.alike.is_empty(), "{}: {choice:?}", s.name);
        seen += 1;
    }
    assert_eq!(seen, 4, "{:?}", set.scenarios.iter().map(|s| &s.name));
}

/// A second Service over the web tier's pods, first in file order, whose kube-proxies lag
/// less: routed otherwise, so it is checked in a scenario of its own.
const INTERNAL: &str = "\
apiVersion: v1
kind: Service
metadata:
  name: web-internal
  annotations: {podcheck.dev/proxy-lag-seconds: \"1\"}
spec:
  selector: {app: web}
  ports:
  - port: 8080
";

/// A third one, alike to `web` (the same pods, the same lag): checked with it.
const ALIAS: &str = "\
apiVersion: v1
kind: Service
metadata:
  name: web-alias
spec:
  selector: {app: web}
  ports:
  - port: 8081
";

/// A headless one over the web tier's pods: the same EndpointSlice as `web`'s, no kube-proxy
/// routes it, so `web` stands for it.
const PEERS: &str = "\
apiVersion: v1
kind: Service
metadata:
  name: web-peers
spec:
  clusterIP: None
  selector: {app: web}
  ports:
  - port: 80
";

#[test]
fn every_service_of_the_pods_is_checked_and_one_alike_with_the_other() {
    // In file order web-internal comes first; by name, `web` does, headless last.
    let r = reading(&[(
        "app.yaml",
        format!(
            "{INTERNAL}---\n{PEERS}---\n{ALIAS}---\n{}",
            joined(&two_tier())
        ),
    )]);
    let names: Vec<&str> = r.services.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Service/web",
            "Service/web-alias",
            "Service/web-internal",
            "Service/db",
            "Service/web-peers"
        ]
    );
    assert_eq!(r.services[2].proxy_lag_seconds, 1);
    let set = plan_scenarios_served(
        &r.scenario,
        &r.services,
        &[Plan::DeletePod],
        &BTreeMap::new(),
        &first_pod_nodes,
    );
    let made: Vec<(&str, Option<&str>, &[String])> = set
        .scenarios
        .iter()
        .zip(&set.services)
        .map(|(s, c)| (s.name.as_str(), c.modelled.as_deref(), c.alike.as_slice()))
        .collect();
    let app = &r.scenario.name;
    assert_eq!(
        made,
        [
            (
                format!("{app}: delete-pod db").as_str(),
                Some("Service/db"),
                &[][..]
            ),
            (
                format!("{app}: delete-pod web").as_str(),
                Some("Service/web"),
                &[
                    "Service/web-alias".to_string(),
                    "Service/web-peers".to_string()
                ][..]
            ),
            (
                format!("{app}: delete-pod web via Service/web-internal").as_str(),
                Some("Service/web-internal"),
                &[][..]
            ),
        ]
    );
    // The scenario of web-internal routes with its lag.
    assert_eq!(set.scenarios[2].cluster.proxy_lag_seconds, 1);
    assert_eq!(
        set.scenarios[1].cluster.proxy_lag_seconds,
        r.services[0].proxy_lag_seconds
    );
}

#[test]
fn the_split_and_order_of_the_files_change_nothing_read() {
    let docs = two_tier();
    let mut reversed = docs.clone();
    reversed.reverse();
    let readings = [
        reading(&[("app.yaml", joined(&docs))]),
        reading(&[("db.yaml", DB.to_string()), ("web.yaml", WEB.to_string())]),
        reading(&[("web.yaml", WEB.to_string()), ("db.yaml", DB.to_string())]),
        reading(&[("app.yaml", joined(&reversed))]),
    ];
    let canonical = |r: &Reading| {
        let mut s = r.scenario.clone();
        s.description.clear();
        (s, r.services.clone(), r.plans.clone())
    };
    let first = canonical(&readings[0]);
    for r in &readings[1..] {
        assert_eq!(canonical(r), first);
    }
    let names: Vec<&str> = first.0.workloads.iter().map(|w| w.name()).collect();
    assert_eq!(names, ["db", "web"]);
}

#[test]
fn more_services_than_the_model_reads_is_an_error_at_the_first_beyond() {
    let svc = |i: usize| {
        format!("apiVersion: v1\nkind: Service\nmetadata: {{name: s{i:03}}}\nspec:\n  selector: {{app: web}}\n")
    };
    let mut docs = vec![WEB.to_string()];
    docs.extend((0..=MAX_SERVICES).map(svc));
    let text = docs.join("---\n");
    let sources = vec![("many.yaml".to_string(), text.clone())];
    let e = read(&sources).expect_err("too many Services");
    // Counted in the order of their names (`web` comes last): the one beyond is the last
    // document, named at its first line.
    let beyond = format!("s{MAX_SERVICES:03}");
    let at = text.find(&format!("{{name: {beyond}}}")).unwrap();
    let line = text[..at].lines().count() - 2;
    assert!(
        e.starts_with(&format!(
            "many.yaml:{line}:1: Service/{beyond}: more than {MAX_SERVICES} Services"
        )),
        "{e}"
    );
    // At the limit, every one is read.
    let sources = vec![("many.yaml".to_string(), docs[..MAX_SERVICES].join("---\n"))];
    assert_eq!(read(&sources).unwrap().services.len(), MAX_SERVICES);
}

/// The JSON report of `podcheck check -f PATH… --plan delete-pod`, with what names the paths
/// and what measures time or memory taken out.
fn report(paths: &[String], names: &[&str]) -> Value {
    let mut args = vec!["check"];
    for p in paths {
        args.extend(["-f", p.as_str()]);
    }
    args.extend(["--plan", "delete-pod", "--format", "json"]);
    // A finding: exit 1.
    let o = run_expect(&args, 1);
    let mut text = String::from_utf8(o.stdout.clone()).expect("UTF-8");
    for n in names {
        text = text.replace(n, "APP");
    }
    let mut v: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("not JSON: {e}\n{}", describe(&args, &o)));
    // What the reader made of each file names the files and lines, which the split changes.
    v.as_object_mut().expect("an object").remove("read");
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in [
                    "seconds",
                    "check_seconds",
                    "exploring_seconds",
                    "graph_seconds",
                    "traces_seconds",
                    "peak_rss_kib",
                    "graph_bytes",
                    "description",
                ] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[test]
fn the_same_objects_give_the_same_report_however_split_or_ordered() {
    let dir = TempDir::new("services");
    let docs = two_tier();
    let mut reversed = docs.clone();
    reversed.reverse();
    let one = dir.write("one/app.yaml", &joined(&docs));
    let web = dir.write("split/web.yaml", WEB);
    let db = dir.write("split/db.yaml", DB);
    let rev = dir.write("reversed/app.yaml", &joined(&reversed));
    let split_name = format!("{db}, {web}");
    let folder = dir.join("split").display().to_string();
    let base = report(std::slice::from_ref(&one), &[&one]);
    for (paths, name) in [
        (vec![folder.clone()], folder.clone()),
        (vec![web.clone(), db.clone()], split_name.clone()),
        (vec![db.clone(), web.clone()], split_name.clone()),
        (vec![rev.clone()], rev.clone()),
    ] {
        let other = report(&paths, &[&format!("{web}, {db}"), &name]);
        assert_eq!(
            other,
            base,
            "{paths:?} gives another report than {one}:\n{}\n---\n{}",
            serde_json::to_string_pretty(&other).unwrap(),
            serde_json::to_string_pretty(&base).unwrap()
        );
    }
    // The web tier's scenario models its LoadBalancer Service: its request property is
    // decided (violated: no preStop hook, so a request can reach a stopped container).
    let scenarios = base["scenarios"].as_array().expect("scenarios");
    let web_scenario = scenarios
        .iter()
        .find(|s| s["scenario"] == "APP: delete-pod web")
        .unwrap_or_else(|| panic!("no delete-pod web in {base}"));
    let requests = web_scenario["properties"]
        .as_array()
        .expect("properties")
        .iter()
        .find(|p| p["name"] == "no_request_to_stopped_container")
        .expect("no_request_to_stopped_container");
    assert_eq!(requests["vacuous"], false, "{requests}");
    assert!(
        web_scenario["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .any(|f| f["property"] == "no_request_to_stopped_container"),
        "{web_scenario}"
    );
}

#[test]
fn the_services_checked_alike_are_said_once_on_stderr_and_in_json() {
    let dir = TempDir::new("services-said");
    let app = dir.write(
        "app.yaml",
        &format!("{INTERNAL}---\n{ALIAS}---\n{}", joined(&two_tier())),
    );
    let args = [
        "check",
        "-f",
        &app,
        "--plan",
        "delete-pod",
        "--plan",
        "crash",
        "--format",
        "json",
    ];
    let o = run_expect(&args, 1);
    let err = String::from_utf8(o.stderr.clone()).expect("UTF-8");
    let said: Vec<&str> = err.lines().filter(|l| l.contains(", alike ")).collect();
    assert_eq!(
        said,
        [format!(
            "note: {app}: Service/web-alias selects the same pods as Service/web, alike (or headless over them: the same EndpointSlice, and no kube-proxy routes it), so it is checked with it in delete-pod web, crash web"
        )],
        "{}",
        describe(&args, &o)
    );
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let mut names = Vec::new();
    for s in v["scenarios"].as_array().expect("scenarios") {
        let name = s["scenario"].as_str().unwrap();
        names.push(name.strip_prefix(&format!("{app}: ")).unwrap().to_string());
        let expected = if name.ends_with(" web") {
            serde_json::json!(["Service/web-alias"])
        } else {
            Value::Null
        };
        assert_eq!(s["services_alike"], expected, "{name}");
    }
    assert_eq!(
        names,
        [
            "delete-pod db",
            "delete-pod web",
            "delete-pod web via Service/web-internal",
            "crash db",
            "crash web",
            "crash web via Service/web-internal"
        ]
    );
    // The same finding about web under both Services of it is one.
    let causes = v["causes"].as_array().expect("causes");
    let stopped: Vec<&Value> = causes
        .iter()
        .filter(|c| c["property"] == "no_request_to_stopped_container" && c["workload"] == "web")
        .collect();
    assert_eq!(stopped.len(), 1, "{v:#}");
    let under: Vec<&str> = stopped[0]["under"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            u["scenario"]
                .as_str()
                .unwrap()
                .strip_prefix(&format!("{app}: "))
                .unwrap()
        })
        .collect();
    assert_eq!(
        under,
        ["delete-pod web", "delete-pod web via Service/web-internal"],
        "{v:#}"
    );
}

/// A plan that acts on the pods of several workloads (here a drain of the node both tiers'
/// first pods are on) models the first of their Services only, and says the others are not
/// modelled there: one scenario per Service of a node's workloads would repeat the drain, the
/// costliest fault, for each. Each Service is checked under the plans that act on its own
/// workload alone.
#[test]
fn a_plan_over_several_workloads_models_the_first_service_and_names_the_others() {
    let r = reading(&[("app.yaml", joined(&two_tier()))]);
    let set = plan_scenarios_served(
        &r.scenario,
        &r.services,
        &[Plan::Drain],
        &BTreeMap::new(),
        &first_pod_nodes,
    );
    let nodes = first_pod_nodes(&r.scenario);
    assert_eq!(
        nodes[0], nodes[1],
        "both tiers' first pods on one node: {nodes:?}"
    );
    assert!(
        set.scenarios.iter().all(|s| !s.name.contains(" via ")),
        "{:?}",
        set.scenarios.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    for (s, c) in set.scenarios.iter().zip(&set.services) {
        assert_eq!(c.modelled.as_deref(), Some("Service/web"), "{}", s.name);
        assert_eq!(c.not_modelled, ["Service/db"], "{}", s.name);
        assert!(c.alike.is_empty(), "{}", s.name);
    }
}
