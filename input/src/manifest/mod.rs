//! Users' own Kubernetes manifests, read into a [`Scenario`].
//!
//! This module sits beside [`crate::spec`], in the scenario's room: a manifest is one more way
//! to write a scenario, and everything after it (state, components, checking) sees only the
//! [`Scenario`] it produces, validated as every scenario is. It does no IO: it takes the text
//! of each file with the name to show for it (`-` for stdin), so the command line reads files
//! and folders and the tests feed it strings.
//!
//! What it reads: multi-document YAML, `kind: List` and any `*List` with `items`, through the
//! Kubernetes API types of `k8s-openapi` (one release: `v1_37`). Kinds: Pod, Deployment,
//! ReplicaSet, ReplicationController (both checked as a Deployment of one ReplicaSet, without
//! the rollout plan), StatefulSet, Job, Service, PodDisruptionBudget, PersistentVolumeClaim,
//! Node; every other object is listed as ignored, by `kind/name` (a DaemonSet with why: its
//! pods are what `kubectl drain --ignore-daemonsets` leaves).
//!
//! What YAML cannot say — how long the program boots, what SIGTERM does, which probes check
//! an external dependency, the kube-proxy lag — comes from annotations under one prefix,
//! [`PREFIX`], on the pod template (or the Pod, or the Service), with defaults that lean
//! toward finding problems, but for what only the annotation can say (no probe checks the
//! external dependency unless it says which); [`Reading::assumed`] lists each default taken,
//! and [`Reading::defaults`] the annotations' defaults by object, for the findings to name
//! what they rest on.
//!
//! Every error names the file, line, column and field path in the user's words, and a field
//! the API types do not know (`readinesProbe`) is a warning naming the closest known one.

pub mod edit;
pub mod quantity;
pub mod shell;
pub mod tree;

use crate::spec::{self, ClaimSpec, Container, Scenario, Workload, MAX_SECONDS};
use k8s_openapi::api::{
    apps::v1 as apps, batch::v1 as batch, core::v1 as core, policy::v1 as policy,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use podcheck_k8s::{
    ConditionStatus, ExitCodesOperator, PullPolicy, Resources, RestartPolicy, Taint, TaintEffect,
    Toleration, TolerationOperator,
};
use std::cell::RefCell;
use std::collections::BTreeMap;
use tree::{Loc, Node, Tree, UnknownField};

/// Kinds of the Kubernetes API that the model does not read: ignored without a "did you
/// mean", since they are not misspellings of one it reads.
const KNOWN_KINDS: &[&str] = &[
    "ConfigMap",
    "Secret",
    "DaemonSet",
    "CronJob",
    "Ingress",
    "IngressClass",
    "Namespace",
    "ServiceAccount",
    "Role",
    "RoleBinding",
    "ClusterRole",
    "ClusterRoleBinding",
    "HorizontalPodAutoscaler",
    "NetworkPolicy",
    "StorageClass",
    "Endpoints",
    "EndpointSlice",
    "LimitRange",
    "ResourceQuota",
    "PriorityClass",
    "CustomResourceDefinition",
    "Gateway",
    "HTTPRoute",
    "VolumeAttachment",
    "Lease",
    "Event",
    "ControllerRevision",
    "PodTemplate",
    "Binding",
    "ComponentStatus",
    "Eviction",
];

/// The prefix of the annotations that say what YAML cannot.
pub const PREFIX: &str = "podcheck.dev/";

/// The annotations the reader knows (after [`PREFIX`]); each may be suffixed with
/// `.<container>` to apply to one container only.
pub const ANNOTATIONS: &[(&str, &str)] = &[
    ("boot-seconds", "seconds from start until the program answers probes and requests (default 5)"),
    ("sigterm", "`exit`, `exit:<code>` or `ignore` (default: `ignore` for an `sh -c`/`bash -c` wrapper that keeps the shell as PID 1, or where the image's shell decides, else `exit:143`)"),
    ("probe-checks-dependency", "which probes also check the external dependency: a list of `startup`, `readiness`, `liveness`, or `none` (default: none)"),
    ("exit-after-seconds", "the program exits on its own this long after start (default: a Job's regular containers and every init container that is not a sidecar after 10 s; others, sidecars too, never: they run until stopped)"),
    ("exit-code", "the code of that exit (default: the `N` of an `sh -c` script that ends with `exit N`, else 0)"),
    ("memory-usage-mi", "memory the program uses once up, in MiB (default 0)"),
    ("stop-seconds", "how long the program takes to exit after SIGTERM, its own shutdown (draining connections, flushing a queue): SIGKILL at the end of the grace period cuts it short (default 0: it exits at once)"),
    ("pre-stop-seconds", "how long a preStop exec, httpGet or tcpSocket hook runs (default 0; `sleep N` is read from the command)"),
    ("post-start-seconds", "how long a postStart exec, httpGet or tcpSocket hook runs (default 0)"),
    ("image-pull-fails", "`true`: the image cannot be pulled (default false)"),
    ("proxy-lag-seconds", "on a Service: how long a kube-proxy lags behind the EndpointSlice (default 3)"),
    ("clients", "on a Service: `false` if no client sends requests through it (default true)"),
    ("plans", "on a workload's own metadata: the fault plans to check it under, comma-separated (`delete-pod,drain`), or `none` (default: every plan)"),
];

/// The most Services one application may hold. Each scenario models one of them, so they
/// cost no states; the limit keeps what the reader holds and says bounded.
pub const MAX_SERVICES: usize = 64;

/// Default boot time: a program that takes a while to answer makes probes and rollouts matter.
const DEFAULT_BOOT_SECONDS: u16 = 5;
/// A Job's program, or an init container's that is not a sidecar, exits after this long by
/// default, with code 0 (a sidecar's runs until it is stopped, in a Job's pod too).
const DEFAULT_JOB_EXIT_SECONDS: u16 = 10;

/// What the reader made of the manifests.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The scenario: the workloads, their Service, budgets, claims and nodes; no fault.
    pub scenario: Scenario,
    /// Unknown fields, with the closest known name, and other things the user should see.
    pub warnings: Vec<String>,
    /// Objects of kinds the model does not read, as `file: kind/name`.
    pub ignored: Vec<String>,
    /// The defaults taken for what YAML cannot say.
    pub assumed: Vec<String>,
    /// The annotations under [`PREFIX`] whose default was taken, by object and container:
    /// what a finding about those objects rests on.
    pub defaults: Vec<Assumed>,
    /// Fields accepted but not used by the model, as `file:line: kind/name: path`.
    pub unused: Vec<String>,
    /// The fault plans each workload asked for with `podcheck.dev/plans` on its own metadata;
    /// a workload not listed takes every plan.
    pub plans: BTreeMap<String, Vec<crate::spec::Plan>>,
    /// Where each workload was written, in the scenario's order: for reports that point at
    /// the manifest line a fix changes (`check -f --format sarif`).
    pub placed: Vec<Placed>,
    /// Where each PodDisruptionBudget the scenario keeps was written, with the workloads it
    /// selects: a finding about a budget's evictions points at the budget.
    pub budgets: Vec<PlacedBudget>,
    /// Every Service that selects pods of the manifests, in canonical order: not headless
    /// first, then by name. The scenario holds the first; the plans give each of their
    /// scenarios the one of the pods it acts on ([`crate::plan::plan_scenarios_served`]).
    pub services: Vec<NamedService>,
}

/// A workload's manifest: the file it came from and its document, which knows the line and
/// column of every field.
#[derive(Clone, Debug)]
pub struct Placed {
    /// The workload's name (`metadata.name`).
    pub workload: String,
    /// The file, as named to the reader (`-` for stdin).
    pub origin: String,
    /// The object's document (an item of a `List`: the item).
    pub tree: Tree,
}

impl Reading {
    /// An error of [`Scenario::validate`] on a scenario made from this reading (with another
    /// release, say: `--kubernetes-version`) pointed at the manifest: at the field it names
    /// in the workload's file and line, as the reader's own validation points it. None for an
    /// error about no workload of the manifests.
    pub fn locate_invalid(&self, e: &spec::Invalid) -> Option<String> {
        let workloads: Vec<(Doc, Workload, BTreeMap<String, String>)> = self
            .placed
            .iter()
            .filter_map(|p| {
                let w = self
                    .scenario
                    .workloads
                    .iter()
                    .find(|w| w.name() == p.workload)?;
                let kind = p.tree.get("kind").and_then(|k| k.str()).unwrap_or(w.kind());
                let doc = Doc {
                    origin: &p.origin,
                    tree: &p.tree,
                    what: format!("{kind}/{}", p.workload),
                };
                Some((doc, w.clone(), BTreeMap::new()))
            })
            .collect();
        locate_validation(e, &workloads)
    }
}

/// A PodDisruptionBudget's manifest ([`Reading::budgets`]).
#[derive(Clone, Debug)]
pub struct PlacedBudget {
    /// The budget's `metadata.name`, its file and its document.
    pub placed: Placed,
    /// The workloads whose pods it selects, by name.
    pub selects: Vec<String>,
}

impl Placed {
    /// The line and column of the field at `path` (`spec.replicas`,
    /// `spec.template.spec.containers[0].livenessProbe`), or of the deepest field on the way
    /// that the manifest has.
    pub fn locate(&self, path: &str) -> Loc {
        self.tree.locate(path)
    }

    /// Whether the manifest has the field at `path`.
    pub fn has(&self, path: &str) -> bool {
        let mut here = Some(&self.tree);
        for part in path.split('.').filter(|p| !p.is_empty()) {
            let (key, indices) = match part.find('[') {
                Some(i) => (&part[..i], &part[i..]),
                None => (part, ""),
            };
            here = here.and_then(|t| if key.is_empty() { Some(t) } else { t.get(key) });
            for ix in indices.split(']').filter_map(|s| s.strip_prefix('[')) {
                here = match (here.map(|t| &t.node), ix.parse::<usize>()) {
                    (Some(Node::Seq(items)), Ok(i)) => items.get(i),
                    _ => None,
                };
            }
        }
        here.is_some_and(|t| t.node != Node::Null)
    }
}

/// An annotation's default taken for an object (a workload's container, or a Service).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assumed {
    /// `kind/name`, as the manifest names it (`Deployment/web`, `Service/web`).
    pub object: String,
    /// The container, for a container's annotation.
    pub container: Option<String>,
    /// The annotation with the value taken: `podcheck.dev/boot-seconds: 5`.
    pub annotation: String,
}

impl Assumed {
    /// The object's name: the workload's or the Service's name in the scenario.
    pub fn name(&self) -> &str {
        self.object
            .split_once('/')
            .map_or(self.object.as_str(), |(_, n)| n)
    }
}

/// One Service of an application, as a scenario holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedService {
    /// `Service/<name>`, for messages.
    pub name: String,
    pub spec: spec::ServiceSpec,
    /// The lag of each kube-proxy behind its EndpointSlice (its
    /// `podcheck.dev/proxy-lag-seconds`, or the cluster's default).
    pub proxy_lag_seconds: u16,
}

/// One document, with where it came from.
struct Doc<'a> {
    origin: &'a str,
    tree: &'a Tree,
    /// `kind/name`, for messages.
    what: String,
}

impl Doc<'_> {
    fn err(&self, path: &str, msg: impl std::fmt::Display) -> String {
        let loc = self.tree.locate(path);
        located(self.origin, loc, &format!("{}: {path}: {msg}", self.what))
    }

    /// An error about the entry `key` of the mapping at `path`: `path.key` where the key is a
    /// plain word (`resources.requests.cpu`), `path[key]` where it has dots or a domain
    /// (`resources.limits[nvidia.com/gpu]`).
    fn err_entry(&self, path: &str, key: &str, msg: impl std::fmt::Display) -> String {
        if key.contains(['.', '/']) {
            self.err_key(path, key, msg)
        } else {
            self.err(&format!("{path}.{key}"), msg)
        }
    }

    /// An error about the entry `key` of the mapping at `path` (an annotation, whose key has
    /// dots of its own): at the key's line, named as `path[key]`.
    fn err_key(&self, path: &str, key: &str, msg: impl std::fmt::Display) -> String {
        let node = node_at(self.tree, path);
        let loc = match node.map(|n| &n.node) {
            Some(Node::Map(entries)) => entries
                .iter()
                .find(|(k, _, _)| k == key)
                .map(|(_, l, _)| *l)
                .unwrap_or_else(|| self.tree.locate(path)),
            _ => self.tree.locate(path),
        };
        located(
            self.origin,
            loc,
            &format!("{}: {path}[{key}]: {msg}", self.what),
        )
    }
}

fn located(origin: &str, loc: Loc, msg: &str) -> String {
    if loc.line == 0 {
        format!("{origin}: {msg}")
    } else {
        format!("{origin}:{}:{}: {msg}", loc.line, loc.column)
    }
}

/// An object the model reads, typed, with its document.
enum Object<'a> {
    Workload(Doc<'a>, Box<Workload>, BTreeMap<String, String>),
    Service(Doc<'a>, Box<core::Service>),
    Pdb(Doc<'a>, Box<policy::PodDisruptionBudget>),
    Claim(ClaimSpec),
    Volume(Volume),
    Node(spec::NodeSpec),
}

/// A PersistentVolume, as far as it decides whether the claims it can bind are attached
/// before they are mounted ([`spec::ClaimSpecFields::attachable`]).
struct Volume {
    name: String,
    /// `spec.storageClassName` ("" when not written).
    class: String,
    /// `spec.claimRef.name`: the claim it is reserved for.
    claim_ref: Option<String>,
    access_modes: Vec<String>,
    /// Its source, where it has no attacher: `hostPath`, `local` or `nfs`.
    no_attacher: Option<&'static str>,
}

/// What a claim says of the volume it binds: `spec.storageClassName` and `spec.volumeName`.
#[derive(Clone, Default)]
struct Binding {
    class: Option<String>,
    volume_name: Option<String>,
}

/// Whether the text looks like a podcheck scenario list (a sequence of mappings with
/// `workloads`), for the error when one is given where manifests are expected.
pub fn looks_like_scenarios(text: &str) -> bool {
    match tree::documents(text) {
        Ok(docs) => docs.iter().any(|d| match &d.node {
            Node::Seq(items) => items.iter().any(|i| i.get("workloads").is_some()),
            _ => false,
        }),
        Err(_) => false,
    }
}

/// Whether the text looks like Kubernetes manifests (a mapping with `apiVersion` and `kind`),
/// for the error when one is given where a scenario list is expected.
pub fn looks_like_manifests(text: &str) -> bool {
    match tree::documents(text) {
        Ok(docs) => docs
            .iter()
            .any(|d| d.get("apiVersion").is_some() && d.get("kind").is_some()),
        Err(_) => false,
    }
}

/// Reads the manifests of every source (`(name to show, text)`) into one scenario, settled
/// (`start: settled`) and without faults: the plans of [`crate::plan`] add what happens to
/// the application, one scenario each.
pub fn read(sources: &[(String, String)]) -> Result<Reading, String> {
    let mut trees = Vec::new();
    for (origin, text) in sources {
        let docs = tree::documents(text)
            .map_err(|(msg, loc)| located(origin, loc, &format!("not valid YAML: {msg}")))?;
        for d in docs {
            trees.push((origin.as_str(), d));
        }
    }
    let mut r = Reader::default();
    let mut flat: Vec<(&str, &Tree)> = Vec::new();
    for (origin, t) in &trees {
        flatten(origin, t, &mut flat)?;
    }
    // Objects written for kustomize may lack what it adds (a Deployment without the
    // selector that `commonLabels` writes, a namespace): an error among them says where the
    // kustomization is and how to read what it renders.
    let kustomization = flat
        .iter()
        .find(|(_, t)| is_kustomization(t))
        .map(|(o, t)| located(o, t.loc, "").trim_end_matches(": ").to_string());
    let hint = |e: String| {
        match &kustomization {
        Some(k) => format!("{e} ({k} is a kustomization, which podcheck does not apply: to check what `kubectl apply -k` applies, give it the rendered objects, `kubectl kustomize DIR | podcheck check -f -`)"),
        None => e,
    }
    };
    one_namespace(&flat).map_err(hint)?;
    let mut objects = Vec::new();
    for (origin, t) in flat {
        if let Some(o) = r.object(origin, t).map_err(hint)? {
            objects.push(o);
        }
    }
    r.scenario(objects, sources).map_err(hint)
}

/// A kustomization file (`apiVersion: kustomize.config.k8s.io/…`): kustomize's input, not an
/// API object.
fn is_kustomization(t: &Tree) -> bool {
    t.get("apiVersion")
        .and_then(|v| v.str())
        .is_some_and(|v| v.starts_with("kustomize.config.k8s.io/"))
}

#[derive(Default)]
struct Reader {
    warnings: Vec<String>,
    /// Each pod anti-affinity of the manifests (without terms that reach other namespaces):
    /// the index of its warning, the object, and its terms' label selectors.
    anti_affinity: Vec<(usize, String, Vec<LabelSelector>)>,
    /// The unknown fields of the object being read (`path: an unknown field; did you mean
    /// …`), warned of once it is read.
    unknown_here: Vec<String>,
    ignored: Vec<String>,
    assumed: Vec<String>,
    defaults: Vec<Assumed>,
    unused: Vec<String>,
    /// Each HorizontalPodAutoscaler: what it scales, compared with the workload's replicas
    /// once the workloads are read.
    autoscalers: Vec<Autoscaler>,
    /// What each claim says of its volume, by claim name (a StatefulSet's template by
    /// `<template>-<statefulset>`, the prefix of its claims' names).
    bindings: BTreeMap<String, Binding>,
}

/// A HorizontalPodAutoscaler, ignored but for the bounds it keeps its target's replicas in.
struct Autoscaler {
    /// `file:line:col: HorizontalPodAutoscaler/name`, for the warning.
    at: String,
    /// `scaleTargetRef` as `kind/name`.
    target: String,
    /// `spec.minReplicas` (the API server's default, 1, when not written).
    min: i64,
    /// `spec.maxReplicas`, when written.
    max: Option<i64>,
}

impl Autoscaler {
    fn of(origin: &str, t: &Tree, name: &str) -> Option<Autoscaler> {
        let spec = t.get("spec")?;
        let target = spec.get("scaleTargetRef")?;
        let int = |v: Option<&Tree>| match v.map(|v| &v.node) {
            Some(Node::Int(n)) => Some(*n),
            Some(Node::UInt(n)) => i64::try_from(*n).ok(),
            _ => None,
        };
        Some(Autoscaler {
            at: located(origin, t.loc, &format!("HorizontalPodAutoscaler/{name}")),
            target: format!(
                "{}/{}",
                target.get("kind")?.str()?,
                target.get("name")?.str()?
            ),
            min: int(spec.get("minReplicas")).unwrap_or(1),
            max: int(spec.get("maxReplicas")),
        })
    }
}

/// Documents, with the items of every `List` in their place; empty documents dropped.
fn flatten<'a>(
    origin: &'a str,
    t: &'a Tree,
    out: &mut Vec<(&'a str, &'a Tree)>,
) -> Result<(), String> {
    match &t.node {
        Node::Null => return Ok(()),
        Node::Map(_) => {}
        Node::Seq(_) => {
            if t.get("workloads").is_none() && looks_like_scenario_seq(t) {
                return Err(located(
                    origin,
                    t.loc,
                    "this is a podcheck scenario list, not a Kubernetes manifest: give it with --catalogue FILE",
                ));
            }
            return Err(located(
                origin,
                t.loc,
                "expected a Kubernetes object (a mapping with apiVersion and kind), found a list",
            ));
        }
        _ => {
            return Err(located(
                origin,
                t.loc,
                "expected a Kubernetes object (a mapping with apiVersion and kind), found a plain value",
            ))
        }
    }
    let Some(kind) = t.get("kind") else {
        return Err(located(
            origin,
            t.loc,
            "not a Kubernetes object: it has no `kind`",
        ));
    };
    let Some(kind) = kind.str() else {
        return Err(located(
            origin,
            t.locate("kind"),
            "kind: must be a string such as Deployment",
        ));
    };
    if kind.ends_with("List") {
        match t.get("items").map(|i| &i.node) {
            Some(Node::Seq(items)) => {
                for i in items {
                    flatten(origin, i, out)?;
                }
                return Ok(());
            }
            Some(Node::Null) | None => return Ok(()),
            Some(_) => {
                return Err(located(
                    origin,
                    t.locate("items"),
                    &format!("{kind}: items: must be a list of objects"),
                ))
            }
        }
    }
    out.push((origin, t));
    Ok(())
}

/// The kinds the model reads; every other object is listed as ignored.
const KINDS: [&str; 11] = [
    "Pod",
    "Deployment",
    "ReplicaSet",
    "ReplicationController",
    "StatefulSet",
    "Job",
    "Service",
    "PodDisruptionBudget",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "Node",
];

/// The model holds one namespace: a Service or a budget selects only the pods of its own
/// namespace, and names are unique within one. Objects that name two namespaces are refused
/// (one that names none is taken to be in the namespace the others name, as `kubectl apply
/// -n` would put it); a Node has no namespace. Only the objects the model reads count: an
/// ignored one (a RoleBinding that grants access in another namespace, as install manifests
/// carry) changes nothing the model holds, wherever it is.
fn one_namespace(flat: &[(&str, &Tree)]) -> Result<(), String> {
    let mut first: Option<(&str, &str, Loc, String)> = None;
    for (origin, t) in flat {
        let kind = t.get("kind").and_then(|k| k.str()).unwrap_or("");
        if kind == "Node" || !KINDS.contains(&kind) {
            continue;
        }
        let Some(ns) = t
            .get("metadata")
            .and_then(|m| m.get("namespace"))
            .and_then(|n| n.str())
        else {
            continue;
        };
        let here = t.locate("metadata.namespace");
        let what = format!("{kind}/{}", name_of(t));
        match &first {
            None => first = Some((ns, origin, here, what)),
            Some((ns0, origin0, loc0, what0)) if *ns0 != ns => {
                return Err(located(
                    origin,
                    here,
                    &format!(
                        "{what}: metadata.namespace: `{ns}`, but {what0} ({}) is in `{ns0}`: podcheck checks one namespace at a time; give each namespace's manifests as an application of its own (a folder each)",
                        located(origin0, *loc0, "").trim_end_matches(": ")
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Whether a field that the model does not read, and that would be a warning, is written
/// with the value the API server gives it when it is left out (`SetDefaults_StatefulSet` in
/// pkg/apis/apps/v1/defaults.go, `SetDefaults_Service` in pkg/apis/core/v1/defaults.go): a
/// manifest that spells the default out asks for what the model does, so it is no warning
/// (and is still listed with the fields not read).
fn written_as_default(field: &str, v: &Tree) -> bool {
    let int = |t: Option<&Tree>, want: i64| match t.map(|t| &t.node) {
        None | Some(Node::Null) => true,
        Some(Node::Int(i)) => *i == want,
        Some(Node::UInt(u)) => i64::try_from(*u) == Ok(want),
        Some(Node::Str(s)) => s.parse::<i64>() == Ok(want),
        _ => false,
    };
    let text = |t: Option<&Tree>, want: &str| match t.map(|t| &t.node) {
        None | Some(Node::Null) => true,
        Some(_) => t.and_then(|t| t.str()) == Some(want),
    };
    let map = |t: &Tree, keys: &[&str]| match &t.node {
        Node::Map(entries) => entries.iter().all(|(k, _, _)| keys.contains(&k.as_str())),
        Node::Null => true,
        _ => false,
    };
    match field {
        "spec.ordinals" => map(v, &["start"]) && int(v.get("start"), 0),
        "spec.persistentVolumeClaimRetentionPolicy" => {
            map(v, &["whenDeleted", "whenScaled"])
                && text(v.get("whenDeleted"), "Retain")
                && text(v.get("whenScaled"), "Retain")
        }
        "spec.sessionAffinity" => text(Some(v), "None"),
        "spec.internalTrafficPolicy" | "spec.externalTrafficPolicy" => text(Some(v), "Cluster"),
        _ => false,
    }
}

fn looks_like_scenario_seq(t: &Tree) -> bool {
    matches!(&t.node, Node::Seq(items) if items.iter().any(|i| i.get("workloads").is_some()))
}

/// The name under `metadata.name`, if written.
fn name_of(t: &Tree) -> String {
    t.get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(|n| n.str())
        .unwrap_or("")
        .to_string()
}

/// serde's words turned into the user's: `invalid type: string "x", expected i32` becomes
/// `must be a whole number, not the string "x"`.
fn words(msg: &str) -> String {
    let expected = |e: &str| -> String {
        let e = e.trim();
        match e {
            "i32" | "i64" | "u8" | "u16" | "u32" | "u64" => "a whole number".into(),
            "a boolean" | "bool" => "true or false".into(),
            "a string" | "string" => "a string".into(),
            "Quantity" => "a quantity such as 250m or 128Mi".into(),
            "IntOrString" => "a number or a percentage such as 25%".into(),
            "a sequence" => "a list".into(),
            "a map" => "a mapping".into(),
            "a 32-bit integer" => "a whole number below 2147483648".into(),
            other if other.chars().next().is_some_and(|c| c.is_ascii_uppercase()) => {
                format!("a mapping ({other})")
            }
            other => other.to_string(),
        }
    };
    let got = |g: &str| -> String {
        let g = g.trim();
        if let Some(n) = g.strip_prefix("integer ") {
            format!("the number {n}")
        } else if let Some(s) = g.strip_prefix("string ") {
            format!("the string {s}")
        } else if let Some(b) = g.strip_prefix("boolean ") {
            b.to_string()
        } else if let Some(f) = g.strip_prefix("floating point ") {
            format!("the number {f}")
        } else if g == "sequence" {
            "a list".into()
        } else if g == "map" {
            "a mapping".into()
        } else if g == "unit value" {
            "an empty value".into()
        } else {
            g.to_string()
        }
    };
    // The range of an integer type, for a number outside it.
    let range = |e: &str| -> Option<(i128, i128)> {
        Some(match e.trim() {
            "i32" | "a 32-bit integer" => (i32::MIN.into(), i32::MAX.into()),
            "i64" => (i64::MIN.into(), i64::MAX.into()),
            "u8" => (0, u8::MAX.into()),
            "u16" => (0, u16::MAX.into()),
            "u32" => (0, u32::MAX.into()),
            "u64" => (0, u64::MAX.into()),
            _ => return None,
        })
    };
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = msg.strip_prefix(prefix) {
            if let Some((g, e)) = rest.rsplit_once(", expected ") {
                let number =
                    g.trim().starts_with("integer ") || g.trim().starts_with("floating point ");
                if let (true, Some((lo, hi))) = (number, range(e)) {
                    let whole = g.trim().starts_with("integer ")
                        || g.trim().trim_end_matches('`').ends_with(".0");
                    if whole {
                        return format!(
                            "must be a whole number from {lo} to {hi}, not {}, which is outside it",
                            got(g)
                        );
                    }
                }
                return format!("must be {}, not {}", expected(e), got(g));
            }
        }
    }
    if let Some(f) = msg.strip_prefix("missing field ") {
        return format!("the field {f} is required");
    }
    msg.to_string()
}

/// `podcheck.dev/plans` on a workload's own `metadata.annotations`: the plans it is checked
/// under, or `none`.
fn workload_plans(d: &Doc) -> Result<Option<Vec<crate::spec::Plan>>, String> {
    let key = format!("{PREFIX}plans");
    let Some(v) = d
        .tree
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(&key))
    else {
        return Ok(None);
    };
    let Some(text) = v.str() else {
        return Err(d.err_key(
            "metadata.annotations",
            &key,
            "must be a string such as \"delete-pod,drain\"",
        ));
    };
    if text.trim() == "none" {
        return Ok(Some(Vec::new()));
    }
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim) {
        let p = crate::spec::Plan::parse(name)
            .map_err(|e| d.err_key("metadata.annotations", &key, e))?;
        if !out.contains(&p) {
            out.push(p);
        }
    }
    Ok(Some(out))
}

/// An annotation lookup: `podcheck.dev/<field>.<container>`, else `podcheck.dev/<field>`.
struct Notes<'a> {
    map: &'a BTreeMap<String, String>,
    /// The keys a lookup found: the others, at the end, were never read.
    used: RefCell<std::collections::BTreeSet<String>>,
    /// Where the annotations are written: `metadata.annotations` (a Pod, a Service) or
    /// `spec.template.metadata.annotations`.
    path: &'a str,
}

impl Notes<'_> {
    /// An error about the annotation `key`, at its line.
    fn err(&self, doc: &Doc, key: &str, msg: impl std::fmt::Display) -> String {
        doc.err_key(self.path, key, msg)
    }

    fn get(&self, field: &str, container: Option<&str>) -> Option<(String, &str)> {
        if let Some(c) = container {
            let key = format!("{PREFIX}{field}.{c}");
            if let Some(v) = self.map.get(&key) {
                self.used.borrow_mut().insert(key.clone());
                return Some((key, v.as_str()));
            }
        }
        let key = format!("{PREFIX}{field}");
        let v = self.map.get(&key)?;
        self.used.borrow_mut().insert(key.clone());
        Some((key, v.as_str()))
    }
}

/// `annotations` of an object's metadata.
fn annotations(m: &Option<ObjectMeta>) -> BTreeMap<String, String> {
    m.as_ref()
        .and_then(|m| m.annotations.clone())
        .unwrap_or_default()
}

fn labels(m: &Option<ObjectMeta>) -> BTreeMap<String, String> {
    m.as_ref()
        .and_then(|m| m.labels.clone())
        .unwrap_or_default()
}

/// A whole number in `lo..=hi`, or the error in the user's words.
fn ranged(doc: &Doc, path: &str, v: i64, lo: i64, hi: i64, why: &str) -> Result<i64, String> {
    if v < lo || v > hi {
        let field = path.rsplit('.').next().unwrap_or(path);
        return Err(doc.err(path, format!("{field} must be {lo} to {hi}{why}, not {v}")));
    }
    Ok(v)
}

fn seconds(doc: &Doc, path: &str, v: i64) -> Result<u16, String> {
    ranged(
        doc,
        path,
        v,
        0,
        MAX_SECONDS as i64,
        " (the model's clock holds durations up to that many seconds)",
    )
    .map(|v| v as u16)
}

fn small(doc: &Doc, path: &str, v: i32, lo: i64) -> Result<u8, String> {
    ranged(
        doc,
        path,
        v as i64,
        lo,
        u8::MAX as i64,
        " (the model counts it in 8 bits)",
    )
    .map(|v| v as u8)
}

fn int_or_string(v: &IntOrString) -> spec::IntOrString {
    match v {
        IntOrString::Int(i) => spec::IntOrString::Int(*i as i64),
        IntOrString::String(s) => spec::IntOrString::String(s.clone()),
    }
}

fn int_or_percent(v: &IntOrString) -> spec::IntOrPercent {
    match v {
        IntOrString::Int(i) => spec::IntOrPercent::Int(*i as i64),
        IntOrString::String(s) => spec::IntOrPercent::Text(s.clone()),
    }
}

/// `IsValidLabelValue` (`k8s.io/apimachinery/pkg/util/validation`): why `v` is not a label
/// value, or None.
fn label_value(v: &str) -> Option<String> {
    if v.len() > 63 {
        return Some("must be no more than 63 characters".into());
    }
    name_part(v, true)
}

/// `IsQualifiedName`, as label keys must be: an optional DNS subdomain prefix and `/`, then
/// a name of at most 63 characters.
fn label_key(k: &str) -> Option<String> {
    let name = match k.rsplit_once('/') {
        Some((prefix, name)) => {
            if let Some(why) = crate::spec::dns1123_subdomain(prefix) {
                return Some(format!("prefix part {why}"));
            }
            name
        }
        None => k,
    };
    if name.is_empty() {
        return Some("name part must be non-empty".into());
    }
    if name.len() > 63 {
        return Some("name part must be no more than 63 characters".into());
    }
    name_part(name, false)
}

/// `validateContainerResourceName` (pkg/apis/core/validation): why `name` is not a resource
/// a container may request, or None. A qualified name; without a domain, one of cpu, memory,
/// ephemeral-storage and `hugepages-<size>` (`IsStandardContainerResourceName`); with one,
/// in `kubernetes.io/` or an extended resource name (`IsExtendedResourceName`).
fn container_resource_name(name: &str) -> Option<String> {
    if let Some(why) = label_key(name) {
        return Some(why);
    }
    if !name.contains('/') {
        let standard = matches!(name, "cpu" | "memory" | podcheck_k8s::EPHEMERAL_STORAGE)
            || podcheck_k8s::is_hugepages(name);
        return (!standard).then(|| "must be a standard resource for containers (cpu, memory, ephemeral-storage, hugepages-<size>) or an extended resource with a domain, such as example.com/gpu".into());
    }
    if podcheck_k8s::is_native_resource(name) {
        return None;
    }
    let extended = podcheck_k8s::is_extended_resource(name)
        && label_key(&format!("requests.{name}")).is_none();
    (!extended).then(|| "doesn't follow extended resource name standard".into())
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]` (empty allowed where `empty` is).
fn name_part(v: &str, empty: bool) -> Option<String> {
    if v.is_empty() {
        return (!empty).then(|| "must be non-empty".into());
    }
    let alnum = |c: char| c.is_ascii_alphanumeric();
    let fine = v.starts_with(alnum)
        && v.ends_with(alnum)
        && v.chars().all(|c| alnum(c) || matches!(c, '-' | '_' | '.'));
    (!fine).then(|| "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character".into())
}

/// The node at `path` (`spec.volumes[2]`), if the tree has it.
fn node_at<'a>(t: &'a Tree, path: &str) -> Option<&'a Tree> {
    let mut here = t;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            here = here.get(key)?;
        }
        for ix in indices.split(']').filter_map(|s| s.strip_prefix('[')) {
            let i: usize = ix.parse().ok()?;
            match &here.node {
                Node::Seq(items) => here = items.get(i)?,
                _ => return None,
            }
        }
    }
    Some(here)
}

/// A claim's requested storage, as the API server parses it: a quantity (its size is not
/// modelled).
fn storage_quantity(
    doc: &Doc,
    path: &str,
    spec: Option<&core::PersistentVolumeClaimSpec>,
) -> Result<(), String> {
    let requests = spec
        .and_then(|s| s.resources.as_ref())
        .and_then(|r| r.requests.as_ref());
    for (k, q) in requests.into_iter().flatten() {
        if k == "storage" {
            quantity::mebi(&q.0)
                .map_err(|e| doc.err(&format!("{path}.resources.requests.storage"), e))?;
        }
    }
    Ok(())
}

/// Whether the volume a claim (or each claim of a StatefulSet's template, `names`) binds is
/// attached before it is mounted: `Some(false)` where every PersistentVolume of the manifests
/// it can bind has no attacher (`hostPath`, `local`, `nfs`), None (attachable, the default)
/// otherwise, and where it binds none of them (a provisioner makes its volume).
///
/// The volumes it can bind, as the PersistentVolume controller matches them
/// (`pkg/controller/volume/persistentvolume`, `findMatchingVolume` in
/// `staging/src/k8s.io/component-helpers/storage/volume/pv_helpers.go`): the one its
/// `volumeName` names; else those whose `claimRef` names it; else the unreserved ones of its
/// `storageClassName` whose access modes include its own. A claim without a
/// `storageClassName` takes the cluster's default StorageClass, which the manifests do not
/// tell: it is taken to be provisioned.
fn attachable(
    volumes: &[Volume],
    binding: Option<Binding>,
    names: &[String],
    claim: &ClaimSpec,
) -> Option<bool> {
    let binding = binding.unwrap_or_default();
    let candidates: Vec<&Volume> = if let Some(v) = &binding.volume_name {
        volumes.iter().filter(|x| &x.name == v).collect()
    } else {
        let reserved: Vec<&Volume> = volumes
            .iter()
            .filter(|x| x.claim_ref.as_ref().is_some_and(|r| names.contains(r)))
            .collect();
        if !reserved.is_empty() {
            reserved
        } else if let Some(class) = &binding.class {
            volumes
                .iter()
                .filter(|x| x.claim_ref.is_none() && &x.class == class)
                .filter(|x| {
                    claim
                        .spec
                        .access_modes
                        .iter()
                        .all(|m| x.access_modes.contains(m))
                })
                .collect()
        } else {
            Vec::new()
        }
    };
    (!candidates.is_empty() && candidates.iter().all(|v| v.no_attacher.is_some())).then_some(false)
}

/// A port number, as `validation.IsValidPortNum` wants it: 1 to 65535.
fn port_number(doc: &Doc, path: &str, v: i32) -> Result<(), String> {
    if (1..=65535).contains(&v) {
        Ok(())
    } else {
        Err(doc.err(
            path,
            format!("Invalid value: {v}: must be between 1 and 65535, inclusive"),
        ))
    }
}

/// One of the values `allowed`, as the API server says it: `Unsupported value`.
fn one_of<T: Copy>(doc: &Doc, path: &str, v: &str, allowed: &[(&str, T)]) -> Result<T, String> {
    allowed
        .iter()
        .find(|(n, _)| *n == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<String> = allowed.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            doc.err(
                path,
                format!(
                    "Unsupported value: \"{v}\": supported values: {}",
                    names.join(", ")
                ),
            )
        })
}

/// Whether `sel` (a Service's map) selects pods labelled `labels`: every pair present.
fn map_selects(sel: &BTreeMap<String, String>, labels: &BTreeMap<String, String>) -> bool {
    !sel.is_empty() && sel.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// `metav1.LabelSelectorAsSelector` then `Matches`: matchLabels and matchExpressions
/// (In, NotIn, Exists, DoesNotExist), all of them. An empty selector selects every pod.
fn selector_selects(
    doc: &Doc,
    path: &str,
    sel: &LabelSelector,
    labels: &BTreeMap<String, String>,
) -> Result<bool, String> {
    if let Some(m) = &sel.match_labels {
        if !m.iter().all(|(k, v)| labels.get(k) == Some(v)) {
            return Ok(false);
        }
    }
    for (i, e) in sel.match_expressions.iter().flatten().enumerate() {
        let vals = e.values.clone().unwrap_or_default();
        let has = labels.get(&e.key);
        let ok = match e.operator.as_str() {
            "In" => has.is_some_and(|v| vals.contains(v)),
            "NotIn" => has.is_none_or(|v| !vals.contains(v)),
            "Exists" => has.is_some(),
            "DoesNotExist" => has.is_none(),
            other => {
                return Err(doc.err(
                    &format!("{path}.matchExpressions[{i}].operator"),
                    format!("Unsupported value: \"{other}\": supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\""),
                ))
            }
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

/// An `sh -c`/`bash -c` wrapper that keeps the shell as PID 1: the shell does not forward
/// SIGTERM to its child (kubernetes#127188), so the program is only stopped by SIGKILL at the
/// end of the grace period. Each shell's own rule for running its `-c` string's last command
/// with exec, and where the image decides (then the shell is taken to stay), is in
/// [`shell`].
pub fn shell_wrapper_without_exec(command: &[String], args: &[String]) -> bool {
    shell::keeps_shell(command, args)
}

/// The most memory `podcheck.dev/memory-usage-mi` may give: 1 PiB, far above any node, so
/// that sums over a node's pods cannot overflow.
const MAX_MEMORY_MI: u64 = 1 << 30;

/// An exit code written in an annotation: a whole number 0–255 (a process's exit status is
/// 8 bits; `exit(256)` is a status of 0, a success).
fn exit_code(v: &str) -> Result<i32, String> {
    match v.trim().parse::<i64>() {
        Ok(c) if (0..=255).contains(&c) => Ok(c as i32),
        Ok(c) => Err(format!(
            "an exit code must be 0 to 255 (a process's exit status is 8 bits), not {c}"
        )),
        Err(_) => Err(format!(
            "the exit code must be a whole number 0 to 255, not `{}`",
            v.trim()
        )),
    }
}

/// `sleep N` as an exec hook's command (directly or through `sh -c`), if it is one: the
/// seconds (`N`, or `N` with a suffix `s`, `m`, `h` or `d` as coreutils' and busybox's sleep
/// take it; several operands add up), or the operand podcheck cannot read as whole seconds
/// (`2.5`, `infinity`).
fn sleep_seconds(cmd: &[String]) -> Option<Result<i64, String>> {
    let argv: Vec<&str> = cmd.iter().map(|s| s.as_str()).collect();
    let words: Vec<&str> = match argv.as_slice() {
        [sh, flag, script] if sh.ends_with("sh") && *flag == "-c" => {
            script.split_whitespace().collect()
        }
        other => other.to_vec(),
    };
    let (first, operands) = words.split_first()?;
    if first.rsplit('/').next() != Some("sleep") || operands.is_empty() {
        return None;
    }
    let mut total: i64 = 0;
    for w in operands {
        let (digits, unit) = match w.char_indices().last() {
            Some((i, 's')) => (&w[..i], 1),
            Some((i, 'm')) => (&w[..i], 60),
            Some((i, 'h')) => (&w[..i], 3600),
            Some((i, 'd')) => (&w[..i], 86400),
            _ => (*w, 1),
        };
        let n = match digits.parse::<i64>() {
            Ok(n) if n >= 0 && digits.chars().all(|c| c.is_ascii_digit()) => n,
            _ => return Some(Err(w.to_string())),
        };
        total = total.saturating_add(n.saturating_mul(unit));
    }
    Some(Ok(total))
}

impl Reader {
    /// Reads one object: typed, or listed as ignored.
    fn object<'a>(&mut self, origin: &'a str, t: &'a Tree) -> Result<Option<Object<'a>>, String> {
        let kind = t
            .get("kind")
            .and_then(|k| k.str())
            .unwrap_or("")
            .to_string();
        let name = name_of(t);
        let doc = Doc {
            origin,
            tree: t,
            what: format!("{kind}/{name}"),
        };
        if !KINDS.contains(&kind.as_str()) {
            // A kind of another API group (`APIService` of apiregistration.k8s.io, a
            // `ServiceMonitor` of monitoring.coreos.com) is not a misspelling of one the
            // model reads: those are all of the core group, apps, batch or policy.
            let group = t
                .get("apiVersion")
                .and_then(|v| v.str())
                .and_then(|v| v.rsplit_once('/'))
                .map_or("", |(g, _)| g);
            let ours = matches!(group, "" | "apps" | "batch" | "policy" | "extensions");
            let hint = match tree::closest(&kind, &KINDS) {
                Some(k) if ours && !KNOWN_KINDS.contains(&kind.as_str()) => {
                    format!("; did you mean `{k}`?")
                }
                _ => String::new(),
            };
            let kustomize = is_kustomization(t);
            if kind == "HorizontalPodAutoscaler" {
                if let Some(a) = Autoscaler::of(origin, t, &name) {
                    self.autoscalers.push(a);
                }
            }
            let why = if kind == "DaemonSet" {
                // `kubectl drain --ignore-daemonsets` leaves a DaemonSet's pods on the node
                // (its controller would put them back at once).
                "a DaemonSet's pods are what `kubectl drain --ignore-daemonsets` leaves on a node, and the model has no DaemonSet controller: they are not checked".to_string()
            } else if kustomize {
                // A kustomization is kustomize's input, not an API object: `kubectl apply -k`
                // applies what it renders (labels, namespace, name prefixes, images, patches).
                "a kustomization is not applied: its labels, namespace, prefixes, images and patches are not in the objects read here; to check what `kubectl apply -k` applies, give podcheck the rendered objects: `kubectl kustomize DIR | podcheck check -f -`".to_string()
            } else if kind == "CronJob" {
                // The CronJob controller creates a Job from `jobTemplate` at each scheduled
                // time; the model holds no schedule.
                "the model does not read CronJob objects: it has no schedule to start their Jobs on; to check one run, write its jobTemplate as a Job".to_string()
            } else {
                format!("the model does not read {kind} objects{hint}")
            };
            // A kustomization has no name: `Kustomization`, not `Kustomization/`.
            let what = if name.is_empty() {
                kind.clone()
            } else {
                format!("{kind}/{name}")
            };
            self.ignored.push(format!(
                "{}: {what} ({why})",
                located(origin, t.loc, "").trim_end_matches(": ")
            ));
            return Ok(None);
        }
        match t.get("metadata").map(|m| &m.node) {
            Some(Node::Map(_)) => {}
            None | Some(Node::Null) => {
                return Err(doc.err("metadata", "Required value: metadata with a name"))
            }
            Some(_) => {
                return Err(doc.err(
                    "metadata",
                    "must be a mapping such as `{name: web}`, not a plain value",
                ))
            }
        }
        match t.get("metadata").and_then(|m| m.get("name")) {
            None
            | Some(Tree {
                node: Node::Null, ..
            }) => return Err(doc.err("metadata.name", "Required value: a name")),
            Some(n) if n.str().is_none() => {
                return Err(doc.err(
                    "metadata.name",
                    "must be a string (quote a name that reads as a number: \"123\")",
                ))
            }
            Some(_) if name.is_empty() => {
                return Err(doc.err("metadata.name", "Required value: a name"))
            }
            Some(_) => {}
        }
        let api = match kind.as_str() {
            "Deployment" | "ReplicaSet" | "StatefulSet" => "apps/v1",
            "Job" => "batch/v1",
            "PodDisruptionBudget" => "policy/v1",
            _ => "v1",
        };
        match t.get("apiVersion").map(|a| &a.node) {
            Some(Node::Str(a)) if a == api => {}
            Some(Node::Str(a)) => {
                return Err(doc.err(
                    "apiVersion",
                    format!("podcheck reads {kind} as {api} (the API of Kubernetes 1.37), not {a}"),
                ))
            }
            None | Some(Node::Null) => {
                return Err(doc.err("apiVersion", format!("Required value: apiVersion {api}")))
            }
            Some(_) => {
                return Err(doc.err(
                    "apiVersion",
                    format!("must be a string: podcheck reads {kind} as {api}"),
                ))
            }
        }
        self.check_annotations(&doc, &kind);
        for path in ["metadata.labels", "spec.template.metadata.labels"] {
            let Some(Node::Map(entries)) = node_at(t, path).map(|n| &n.node) else {
                continue;
            };
            for (key, _, v) in entries {
                if let Some(why) = label_key(key) {
                    return Err(doc.err_key(path, key, format!("Invalid value: \"{key}\": {why}")));
                }
                if let Some(value) = v.str() {
                    if let Some(why) = label_value(value) {
                        return Err(doc.err_key(
                            path,
                            key,
                            format!("Invalid value: \"{value}\": {why}"),
                        ));
                    }
                }
            }
        }
        let unknown = RefCell::new(Vec::new());
        macro_rules! typed {
            ($t:ty) => {{
                let v: $t = tree::read(t, "", &unknown).map_err(|e| {
                    let (path, loc) = e.at.clone().unwrap_or_default();
                    let path = if path.is_empty() {
                        "(object)".to_string()
                    } else {
                        path
                    };
                    located(
                        origin,
                        loc,
                        &format!("{}: {path}: {}", doc.what, words(&e.msg)),
                    )
                })?;
                // Kept for an error about the object that one of them explains.
                self.unknown_here = unknown
                    .borrow()
                    .iter()
                    .map(|u| match &u.closest {
                        Some(c) => format!("{}: an unknown field; did you mean `{c}`?", u.path),
                        None => format!("{}: an unknown field", u.path),
                    })
                    .collect();
                v
            }};
        }
        let out = match kind.as_str() {
            "Deployment" => {
                let d = typed!(apps::Deployment);
                let s = d.spec.clone();
                let tmpl = s.template.clone();
                let (pod, replicas) = self.replicated(&doc, &tmpl, s.replicas)?;
                let mut ds = spec::DeploymentSpec::new(replicas, spec::PodTemplate { spec: pod });
                if let Some(st) = &s.strategy {
                    ds.strategy.kind = one_of(
                        &doc,
                        "spec.strategy.type",
                        st.type_.as_deref().unwrap_or("RollingUpdate"),
                        &[
                            ("RollingUpdate", spec::StrategyType::RollingUpdate),
                            ("Recreate", spec::StrategyType::Recreate),
                        ],
                    )?;
                    if let Some(ru) = &st.rolling_update {
                        ds.strategy.rolling_update = Some(spec::RollingUpdateDeployment {
                            max_surge: ru.max_surge.as_ref().map(int_or_string),
                            max_unavailable: ru.max_unavailable.as_ref().map(int_or_string),
                        });
                    }
                }
                if let Some(v) = s.min_ready_seconds {
                    ds.min_ready_seconds = seconds(&doc, "spec.minReadySeconds", v as i64)?;
                }
                if let Some(v) = s.progress_deadline_seconds {
                    ds.progress_deadline_seconds =
                        seconds(&doc, "spec.progressDeadlineSeconds", v as i64)?;
                }
                if let Some(v) = s.revision_history_limit {
                    ds.revision_history_limit = small(&doc, "spec.revisionHistoryLimit", v, 0)?;
                }
                self.check_selector(
                    &doc,
                    "spec.selector",
                    Some(&s.selector),
                    &labels(&tmpl.metadata),
                )?;
                let w = Workload::Deployment {
                    metadata: spec::Metadata { name: name.clone() },
                    spec: ds,
                };
                Object::Workload(doc, Box::new(w), labels(&tmpl.metadata))
            }
            "ReplicaSet" => {
                let d = typed!(apps::ReplicaSet);
                let s = d.spec.clone();
                let tmpl = s.template.clone().unwrap_or_default();
                let (pod, replicas) = self.replicated(&doc, &tmpl, s.replicas)?;
                let mut ds = spec::DeploymentSpec::new(replicas, spec::PodTemplate { spec: pod });
                if let Some(v) = s.min_ready_seconds {
                    ds.min_ready_seconds = seconds(&doc, "spec.minReadySeconds", v as i64)?;
                }
                self.check_selector(
                    &doc,
                    "spec.selector",
                    Some(&s.selector),
                    &labels(&tmpl.metadata),
                )?;
                self.warnings.push(format!(
                    "{}: {}: a ReplicaSet is checked as a Deployment of one ReplicaSet (the model has no ReplicaSet without a Deployment), without the rollout plan (kubectl rollout restart does not act on a ReplicaSet)",
                    origin, doc.what
                ));
                ds.no_rollout = true;
                let w = Workload::Deployment {
                    metadata: spec::Metadata { name: name.clone() },
                    spec: ds,
                };
                Object::Workload(doc, Box::new(w), labels(&tmpl.metadata))
            }
            "ReplicationController" => {
                let d = typed!(core::ReplicationController);
                let s = d.spec.clone().unwrap_or_default();
                let Some(tmpl) = s.template.clone() else {
                    return Err(doc.err(
                        "spec.template",
                        "Required value: a ReplicationController needs a pod template",
                    ));
                };
                let (pod, replicas) = self.replicated(&doc, &tmpl, s.replicas)?;
                let mut ds = spec::DeploymentSpec::new(replicas, spec::PodTemplate { spec: pod });
                if let Some(v) = s.min_ready_seconds {
                    ds.min_ready_seconds = seconds(&doc, "spec.minReadySeconds", v as i64)?;
                }
                // `SetDefaults_ReplicationController`: no selector is the template's labels;
                // `ValidateReplicationControllerSpec`: a selector that does not select the
                // template is refused.
                let tl = labels(&tmpl.metadata);
                let sel = s.selector.clone().filter(|m| !m.is_empty());
                if tl.is_empty() && sel.is_none() {
                    return Err(doc.err(
                        "spec.selector",
                        "Required value: a selector, or labels on the pod template",
                    ));
                }
                if let Some(sel) = &sel {
                    if !map_selects(sel, &tl) {
                        return Err(doc.err(
                            "spec.template.metadata.labels",
                            "Invalid value: `selector` does not match template `labels`",
                        ));
                    }
                }
                self.warnings.push(format!(
                    "{}: {}: a ReplicationController is checked as a Deployment of one ReplicaSet (the model has no ReplicationController controller; both keep `replicas` pods of the template), without the rollout plan (kubectl rollout restart does not act on a ReplicationController)",
                    origin, doc.what
                ));
                ds.no_rollout = true;
                let w = Workload::Deployment {
                    metadata: spec::Metadata { name: name.clone() },
                    spec: ds,
                };
                Object::Workload(doc, Box::new(w), tl)
            }
            "StatefulSet" => {
                let d = typed!(apps::StatefulSet);
                let s = d.spec.clone();
                let tmpl = s.template.clone();
                let (pod, replicas) = self.replicated(&doc, &tmpl, s.replicas)?;
                let policy = one_of(
                    &doc,
                    "spec.podManagementPolicy",
                    s.pod_management_policy.as_deref().unwrap_or("OrderedReady"),
                    &[
                        ("OrderedReady", spec::PodManagementPolicy::OrderedReady),
                        ("Parallel", spec::PodManagementPolicy::Parallel),
                    ],
                )?;
                let mut templates = Vec::new();
                for (i, c) in s.volume_claim_templates.iter().flatten().enumerate() {
                    storage_quantity(
                        &doc,
                        &format!("spec.volumeClaimTemplates[{i}].spec"),
                        c.spec.as_ref(),
                    )?;
                    let n = c.metadata.name.clone().unwrap_or_default();
                    if n.is_empty() {
                        return Err(doc.err(
                            &format!("spec.volumeClaimTemplates[{i}].metadata.name"),
                            "the field name is required",
                        ));
                    }
                    self.bindings.insert(
                        format!("{n}-{name}"),
                        Binding {
                            class: c.spec.as_ref().and_then(|s| s.storage_class_name.clone()),
                            volume_name: c.spec.as_ref().and_then(|s| s.volume_name.clone()),
                        },
                    );
                    let claim = ClaimSpec {
                        metadata: spec::Metadata { name: n },
                        spec: spec::ClaimSpecFields {
                            access_modes: c
                                .spec
                                .as_ref()
                                .and_then(|s| s.access_modes.clone())
                                .unwrap_or_default(),
                            attachable: None,
                        },
                    };
                    let path = format!("spec.volumeClaimTemplates[{i}].spec.accessModes");
                    claim_modes(&doc, &path, &claim)?;
                    templates.push(claim);
                }
                self.check_selector(
                    &doc,
                    "spec.selector",
                    Some(&s.selector),
                    &labels(&tmpl.metadata),
                )?;
                let min_ready_seconds = match s.min_ready_seconds {
                    Some(v) => seconds(&doc, "spec.minReadySeconds", v as i64)?,
                    None => 0,
                };
                let mut update_strategy = spec::StatefulSetUpdateStrategy::default();
                if let Some(st) = &s.update_strategy {
                    update_strategy.kind = one_of(
                        &doc,
                        "spec.updateStrategy.type",
                        st.type_.as_deref().unwrap_or("RollingUpdate"),
                        &[
                            (
                                "RollingUpdate",
                                spec::StatefulSetStrategyType::RollingUpdate,
                            ),
                            ("OnDelete", spec::StatefulSetStrategyType::OnDelete),
                        ],
                    )?;
                    if let Some(ru) = &st.rolling_update {
                        // `ValidateStatefulSetUpdateStrategy`: a partition is >= 0. Every
                        // partition of `replicas` or more updates no ordinal, so one past what
                        // the model counts (255) is held as 255, which behaves the same.
                        let partition = match ru.partition {
                            Some(p) if p < 0 => {
                                return Err(doc.err(
                                    "spec.updateStrategy.rollingUpdate.partition",
                                    format!(
                                        "Invalid value: {p}: must be greater than or equal to 0"
                                    ),
                                ));
                            }
                            Some(p) => p.min(i32::from(u8::MAX)) as u8,
                            None => 0,
                        };
                        update_strategy.rolling_update = Some(spec::RollingUpdateStatefulSet {
                            partition,
                            max_unavailable: ru.max_unavailable.as_ref().map(int_or_string),
                        });
                    }
                }
                let w = Workload::StatefulSet {
                    metadata: spec::Metadata { name: name.clone() },
                    spec: spec::StatefulSetSpec {
                        replicas,
                        pod_management_policy: policy,
                        template: spec::PodTemplate { spec: pod },
                        volume_claim_templates: templates,
                        min_ready_seconds,
                        update_strategy,
                    },
                };
                Object::Workload(doc, Box::new(w), labels(&tmpl.metadata))
            }
            "Job" => {
                let d = typed!(batch::Job);
                let s = d.spec.clone().unwrap_or_default();
                let tmpl = s.template.clone();
                let notes = annotations(&tmpl.metadata);
                let pod =
                    self.pod_spec(&doc, "spec.template.spec", tmpl.spec.as_ref(), &notes, true)?;
                let js = self.job_spec(&doc, &s, pod)?;
                let w = Workload::Job {
                    metadata: spec::Metadata { name: name.clone() },
                    spec: js,
                };
                Object::Workload(doc, Box::new(w), labels(&tmpl.metadata))
            }
            "Pod" => {
                let p = typed!(core::Pod);
                let notes = annotations(&Some(p.metadata.clone()));
                let pod = self.pod_spec(&doc, "spec", p.spec.as_ref(), &notes, false)?;
                let w = Workload::Pod {
                    metadata: spec::Metadata { name: name.clone() },
                    spec: pod,
                };
                Object::Workload(
                    doc,
                    Box::new(w),
                    p.metadata.labels.clone().unwrap_or_default(),
                )
            }
            "Service" => {
                let v = typed!(core::Service);
                if let Some(sp) = &v.spec {
                    if let Some(t) = sp.type_.as_deref() {
                        one_of(
                            &doc,
                            "spec.type",
                            t,
                            &[
                                ("ClusterIP", ()),
                                ("NodePort", ()),
                                ("LoadBalancer", ()),
                                ("ExternalName", ()),
                            ],
                        )?;
                        if t == "ExternalName" {
                            self.warnings.push(doc.err("spec.type", "an ExternalName Service is a DNS alias with no endpoints: the model reads it as a Service over the pods it selects"));
                        }
                    }
                    // `ValidateService`: ports 1–65535.
                    for (i, p) in sp.ports.iter().flatten().enumerate() {
                        port_number(&doc, &format!("spec.ports[{i}].port"), p.port)?;
                        if let Some(IntOrString::Int(t)) = &p.target_port {
                            port_number(&doc, &format!("spec.ports[{i}].targetPort"), *t)?;
                        }
                    }
                }
                Object::Service(doc, Box::new(v))
            }
            "PodDisruptionBudget" => {
                let v = typed!(policy::PodDisruptionBudget);
                Object::Pdb(doc, Box::new(v))
            }
            "PersistentVolumeClaim" => {
                let c = typed!(core::PersistentVolumeClaim);
                storage_quantity(&doc, "spec", c.spec.as_ref())?;
                self.bindings.insert(
                    name.clone(),
                    Binding {
                        class: c.spec.as_ref().and_then(|s| s.storage_class_name.clone()),
                        volume_name: c.spec.as_ref().and_then(|s| s.volume_name.clone()),
                    },
                );
                let claim = ClaimSpec {
                    metadata: spec::Metadata { name: name.clone() },
                    spec: spec::ClaimSpecFields {
                        access_modes: c.spec.and_then(|s| s.access_modes).unwrap_or_default(),
                        attachable: None,
                    },
                };
                claim_modes(&doc, "spec.accessModes", &claim)?;
                Object::Claim(claim)
            }
            "PersistentVolume" => {
                let v = typed!(core::PersistentVolume);
                let spec = v.spec.unwrap_or_default();
                let no_attacher = if spec.host_path.is_some() {
                    Some("hostPath")
                } else if spec.local.is_some() {
                    Some("local")
                } else if spec.nfs.is_some() {
                    Some("nfs")
                } else {
                    None
                };
                let access_modes = spec.access_modes.unwrap_or_default();
                // The API server checks a volume's access modes as a claim's
                // (`ValidatePersistentVolumeSpec`: at least one, known ones, and
                // ReadWriteOncePod alone).
                let modes = ClaimSpec {
                    metadata: spec::Metadata { name: name.clone() },
                    spec: spec::ClaimSpecFields {
                        access_modes: access_modes.clone(),
                        attachable: None,
                    },
                };
                claim_modes(&doc, "spec.accessModes", &modes)?;
                Object::Volume(Volume {
                    name: name.clone(),
                    class: spec.storage_class_name.unwrap_or_default(),
                    claim_ref: spec.claim_ref.and_then(|r| r.name),
                    access_modes,
                    no_attacher,
                })
            }
            "Node" => {
                let n = typed!(core::Node);
                Object::Node(self.node(&doc, &n)?)
            }
            _ => unreachable!("kinds are listed above"),
        };
        for u in unknown.into_inner() {
            self.unknown_field(origin, &kind, &name, u);
        }
        self.unused_fields(origin, &kind, &name, t);
        Ok(Some(out))
    }

    /// An error `msg` about the object at `here`, with the unknown fields written under it
    /// that the reader dropped (their warnings are not printed when reading stops at an
    /// error): a probe's `gRPC:` is dropped, and the probe then has no handler, which only
    /// the misspelt key explains.
    fn with_unknown_fields(&self, here: &str, msg: &str) -> String {
        let prefix = format!("{here}.");
        let unknown: Vec<&str> = self
            .unknown_here
            .iter()
            .filter(|u| u.starts_with(&prefix))
            .map(String::as_str)
            .collect();
        if unknown.is_empty() {
            msg.to_string()
        } else {
            format!("{msg}; {}", unknown.join("; "))
        }
    }

    fn unknown_field(&mut self, origin: &str, kind: &str, name: &str, u: UnknownField) {
        let hint = match &u.closest {
            Some(c) => format!("; did you mean `{c}`?"),
            None => String::new(),
        };
        self.warnings.push(located(
            origin,
            u.loc,
            &format!("{kind}/{name}: {}: unknown field, ignored{hint}", u.path),
        ));
    }

    /// A workload's selector must select its own template (`ValidateDeploymentSpec`:
    /// "`selector` does not match template `labels`").
    /// The pod template and `spec.replicas` of a Deployment, ReplicaSet or StatefulSet.
    fn replicated(
        &mut self,
        doc: &Doc,
        tmpl: &core::PodTemplateSpec,
        replicas: Option<i32>,
    ) -> Result<(spec::PodSpec, u8), String> {
        let notes = annotations(&tmpl.metadata);
        let pod = self.pod_spec(doc, "spec.template.spec", tmpl.spec.as_ref(), &notes, false)?;
        let replicas = ranged(
            doc,
            "spec.replicas",
            i64::from(replicas.unwrap_or(1)),
            1,
            5,
            " (the model holds up to 5 replicas)",
        )? as u8;
        Ok((pod, replicas))
    }

    fn check_selector(
        &mut self,
        doc: &Doc,
        path: &str,
        sel: Option<&LabelSelector>,
        labels: &BTreeMap<String, String>,
    ) -> Result<(), String> {
        let Some(sel) = sel else { return Ok(()) };
        if sel.match_labels.as_ref().is_none_or(|m| m.is_empty())
            && sel.match_expressions.as_ref().is_none_or(|m| m.is_empty())
        {
            return Err(doc.err(
                path,
                "Invalid value: empty selector is invalid for this workload",
            ));
        }
        if !selector_selects(doc, path, sel, labels)? {
            return Err(doc.err(
                path,
                "Invalid value: `selector` does not match template `labels`",
            ));
        }
        Ok(())
    }

    fn job_spec(
        &mut self,
        doc: &Doc,
        s: &batch::JobSpec,
        pod: spec::PodSpec,
    ) -> Result<spec::JobSpec, String> {
        let mut j = spec::JobSpec::new(spec::PodTemplate { spec: pod });
        let opt = |path: &str, v: Option<i32>, lo: i64| -> Result<Option<u8>, String> {
            v.map(|v| small(doc, path, v, lo)).transpose()
        };
        j.completions = opt("spec.completions", s.completions, 0)?;
        j.parallelism = opt("spec.parallelism", s.parallelism, 0)?;
        j.backoff_limit_field = opt("spec.backoffLimit", s.backoff_limit, 0)?;
        j.backoff_limit_per_index = opt("spec.backoffLimitPerIndex", s.backoff_limit_per_index, 0)?;
        j.max_failed_indexes = opt("spec.maxFailedIndexes", s.max_failed_indexes, 0)?;
        if let Some(m) = &s.completion_mode {
            j.completion_mode = one_of(
                doc,
                "spec.completionMode",
                m,
                &[
                    ("NonIndexed", spec::CompletionMode::NonIndexed),
                    ("Indexed", spec::CompletionMode::Indexed),
                ],
            )?;
        }
        if let Some(p) = &s.pod_replacement_policy {
            j.pod_replacement_policy = Some(one_of(
                doc,
                "spec.podReplacementPolicy",
                p,
                &[
                    (
                        "TerminatingOrFailed",
                        spec::PodReplacementPolicy::TerminatingOrFailed,
                    ),
                    ("Failed", spec::PodReplacementPolicy::Failed),
                ],
            )?);
        }
        if let Some(a) = s.active_deadline_seconds {
            j.active_deadline_seconds = Some(seconds(doc, "spec.activeDeadlineSeconds", a)?);
        }
        if let Some(pfp) = &s.pod_failure_policy {
            let mut rules = Vec::new();
            for (i, r) in pfp.rules.iter().enumerate() {
                let at = format!("spec.podFailurePolicy.rules[{i}]");
                let action = one_of(
                    doc,
                    &format!("{at}.action"),
                    &r.action,
                    &[
                        ("FailJob", spec::PodFailurePolicyActionSpec::FailJob),
                        ("FailIndex", spec::PodFailurePolicyActionSpec::FailIndex),
                        ("Ignore", spec::PodFailurePolicyActionSpec::Ignore),
                        ("Count", spec::PodFailurePolicyActionSpec::Count),
                    ],
                )?;
                let on_exit_codes = match &r.on_exit_codes {
                    None => None,
                    Some(e) => Some(spec::OnExitCodesSpec {
                        container_name: e.container_name.clone(),
                        operator: one_of(
                            doc,
                            &format!("{at}.onExitCodes.operator"),
                            &e.operator,
                            &[
                                ("In", ExitCodesOperator::In),
                                ("NotIn", ExitCodesOperator::NotIn),
                            ],
                        )?,
                        values: e.values.clone(),
                    }),
                };
                let mut on_pod_conditions = Vec::new();
                for (k, c) in r.on_pod_conditions.iter().flatten().enumerate() {
                    on_pod_conditions.push(spec::OnPodConditionsSpec {
                        type_: c.type_.clone(),
                        status: one_of(
                            doc,
                            &format!("{at}.onPodConditions[{k}].status"),
                            c.status.as_deref().unwrap_or("True"),
                            &[
                                ("True", ConditionStatus::True),
                                ("False", ConditionStatus::False),
                                ("Unknown", ConditionStatus::Unknown),
                            ],
                        )?,
                    });
                }
                rules.push(spec::PodFailurePolicyRuleSpec {
                    action,
                    on_exit_codes,
                    on_pod_conditions,
                });
            }
            j.pod_failure_policy = Some(spec::PodFailurePolicySpec { rules });
        }
        if let Some(sp) = &s.success_policy {
            let mut rules = Vec::new();
            for (i, r) in sp.rules.iter().enumerate() {
                rules.push(spec::SuccessPolicyRuleSpec {
                    succeeded_indexes: r.succeeded_indexes.clone(),
                    succeeded_count: opt(
                        &format!("spec.successPolicy.rules[{i}].succeededCount"),
                        r.succeeded_count,
                        0,
                    )?,
                });
            }
            j.success_policy = Some(spec::SuccessPolicySpec { rules });
        }
        Ok(j)
    }

    fn pod_spec(
        &mut self,
        doc: &Doc,
        base: &str,
        p: Option<&core::PodSpec>,
        notes: &BTreeMap<String, String>,
        job: bool,
    ) -> Result<spec::PodSpec, String> {
        let Some(p) = p else {
            return Err(doc.err(
                base,
                "the field spec is required: a pod template needs its containers",
            ));
        };
        let path = match base.strip_suffix("spec") {
            Some(outer) => format!("{outer}metadata.annotations"),
            None => "metadata.annotations".to_string(),
        };
        let notes = Notes {
            map: notes,
            used: Default::default(),
            path: &path,
        };
        let restart_policy = one_of(
            doc,
            &format!("{base}.restartPolicy"),
            p.restart_policy.as_deref().unwrap_or("Always"),
            &[
                ("Always", RestartPolicy::Always),
                ("OnFailure", RestartPolicy::OnFailure),
                ("Never", RestartPolicy::Never),
            ],
        )?;
        if job && p.restart_policy.is_none() {
            return Err(doc.err(
                &format!("{base}.restartPolicy"),
                "Required value: a Job's pods need restartPolicy OnFailure or Never",
            ));
        }
        let grace = match p.termination_grace_period_seconds {
            Some(g) => seconds(doc, &format!("{base}.terminationGracePeriodSeconds"), g)?,
            None => 30,
        };
        let mut tolerations = Vec::new();
        for (i, t) in p.tolerations.iter().flatten().enumerate() {
            let at = format!("{base}.tolerations[{i}]");
            tolerations.push(Toleration {
                key: t.key.clone().unwrap_or_default(),
                operator: one_of(
                    doc,
                    &format!("{at}.operator"),
                    t.operator.as_deref().unwrap_or("Equal"),
                    &[
                        ("Equal", TolerationOperator::Equal),
                        ("Exists", TolerationOperator::Exists),
                    ],
                )?,
                value: t.value.clone().unwrap_or_default(),
                effect: match t.effect.as_deref() {
                    None | Some("") => None,
                    Some(e) => Some(one_of(
                        doc,
                        &format!("{at}.effect"),
                        e,
                        &[
                            ("NoSchedule", TaintEffect::NoSchedule),
                            ("PreferNoSchedule", TaintEffect::PreferNoSchedule),
                            ("NoExecute", TaintEffect::NoExecute),
                        ],
                    )?),
                },
                toleration_seconds: t.toleration_seconds,
            });
        }
        // `ValidateVolumes`: names unique, one source each; `validateVolumeMounts`: a mount
        // names a volume of the pod. A volume that names no source (or only null ones) is an
        // emptyDir: the API server defaults it so before validating (`SetDefaults_Volume` in
        // pkg/apis/core/v1/defaults.go).
        let mut volume_names: Vec<&str> = Vec::new();
        let mut no_source: Vec<usize> = Vec::new();
        for (i, v) in p.volumes.iter().flatten().enumerate() {
            let here = format!("{base}.volumes[{i}]");
            if volume_names.contains(&v.name.as_str()) {
                return Err(doc.err(
                    &format!("{here}.name"),
                    format!("Duplicate value: \"{}\"", v.name),
                ));
            }
            volume_names.push(&v.name);
            let sources = match node_at(doc.tree, &here).map(|n| &n.node) {
                Some(Node::Map(entries)) => entries
                    .iter()
                    .filter(|(k, _, t)| k != "name" && !matches!(t.node, Node::Null))
                    .count(),
                _ => 1,
            };
            if sources > 1 {
                return Err(doc.err(&here, "Forbidden: may not specify more than 1 volume type"));
            }
            if sources == 0 {
                no_source.push(i);
                self.assumed.push(format!(
                    "{}: {here} (`{}`): no volume type given: an emptyDir, as the API server defaults it",
                    doc.what, v.name
                ));
            }
        }
        // A StatefulSet's claim templates are volumes of its pods too (the controller adds
        // them, `updateStorage`).
        let templates: Vec<&str> = match doc
            .tree
            .get("spec")
            .and_then(|s| s.get("volumeClaimTemplates"))
            .map(|t| &t.node)
        {
            Some(Node::Seq(items)) if doc.what.starts_with("StatefulSet/") => items
                .iter()
                .filter_map(|c| c.get("metadata").and_then(|m| m.get("name")))
                .filter_map(|n| n.str())
                .collect(),
            _ => Vec::new(),
        };
        volume_names.extend(templates.iter().copied());
        for (list, ctrs) in [
            (
                "initContainers",
                p.init_containers.as_deref().unwrap_or_default(),
            ),
            ("containers", p.containers.as_slice()),
        ] {
            for (i, c) in ctrs.iter().enumerate() {
                for (j, m) in c.volume_mounts.iter().flatten().enumerate() {
                    if !volume_names.contains(&m.name.as_str()) {
                        return Err(doc.err(
                            &format!("{base}.{list}[{i}].volumeMounts[{j}].name"),
                            format!(
                                "Not found: \"{}\": no volume of the pod has that name",
                                m.name
                            ),
                        ));
                    }
                }
            }
        }
        let mut volumes = Vec::new();
        for (i, v) in p.volumes.iter().flatten().enumerate() {
            // The StatefulSet controller replaces a volume of the template that has a claim
            // template's name with that claim (`updateStorage` in stateful_set_utils.go): the
            // API server accepts both, and the pods mount the claim.
            if templates.contains(&v.name.as_str()) {
                self.warnings.push(doc.err(
                    &format!("{base}.volumes[{i}]"),
                    format!(
                        "`{}` is also the name of a volume claim template, which replaces this volume in every pod (the StatefulSet controller's updateStorage): the pods mount their own claim from the template, never this volume",
                        v.name
                    ),
                ));
                continue;
            }
            volumes.push(spec::Volume {
                name: v.name.clone(),
                empty_dir: (v.empty_dir.is_some() || no_source.contains(&i))
                    .then_some(spec::EmptyDir {}),
                config_map: v.config_map.as_ref().map(|c| spec::ObjectRef {
                    name: c.name.clone(),
                }),
                secret: v.secret.as_ref().map(|s| spec::SecretRef {
                    secret_name: s.secret_name.clone().unwrap_or_default(),
                }),
                persistent_volume_claim: v.persistent_volume_claim.as_ref().map(|c| {
                    spec::ClaimRef {
                        claim_name: c.claim_name.clone(),
                    }
                }),
            });
        }
        let mut init = Vec::new();
        for (i, c) in p.init_containers.iter().flatten().enumerate() {
            init.push(self.container(
                doc,
                &format!("{base}.initContainers[{i}]"),
                c,
                &notes,
                job,
                grace,
            )?);
        }
        let mut containers = Vec::new();
        for (i, c) in p.containers.iter().enumerate() {
            containers.push(self.container(
                doc,
                &format!("{base}.containers[{i}]"),
                c,
                &notes,
                job,
                grace,
            )?);
        }
        self.unread_notes(doc, &notes, p);
        if containers.is_empty() {
            return Err(doc.err(
                &format!("{base}.containers"),
                "Required value: a pod needs at least one container",
            ));
        }
        let required_node_affinity = self.affinity(doc, base, p)?;
        Ok(spec::PodSpec {
            restart_policy,
            termination_grace_period_seconds: grace,
            node_selector: p.node_selector.clone().unwrap_or_default(),
            required_node_affinity,
            tolerations,
            priority: p.priority.unwrap_or(0),
            init_containers: init,
            containers,
            volumes,
            node_name: p.node_name.clone(),
        })
    }

    /// Every `podcheck.dev/` annotation of the object where the reader looks for it: one it
    /// does not know, one in a place it is not read (`plans` on a pod template, `boot-seconds`
    /// on a Deployment's own metadata), or one for a container the pod does not have is a
    /// warning, so that nothing the user wrote is dropped without a word.
    fn check_annotations(&mut self, doc: &Doc, kind: &str) {
        const SERVICE: [&str; 2] = ["proxy-lag-seconds", "clients"];
        let all: Vec<&str> = ANNOTATIONS.iter().map(|(n, _)| *n).collect();
        let pod: Vec<&str> = all
            .iter()
            .copied()
            .filter(|n| !SERVICE.contains(n) && *n != "plans")
            .collect();
        let pod_and_plans: Vec<&str> = pod.iter().copied().chain(["plans"]).collect();
        let places: Vec<(&str, &[&str])> = match kind {
            "Pod" => vec![("metadata.annotations", &pod_and_plans)],
            "Deployment" | "ReplicaSet" | "ReplicationController" | "StatefulSet" | "Job" => vec![
                ("metadata.annotations", &["plans"]),
                ("spec.template.metadata.annotations", &pod),
            ],
            "Service" => vec![("metadata.annotations", &SERVICE)],
            _ => vec![("metadata.annotations", &[])],
        };
        let spec = if kind == "Pod" {
            doc.tree.get("spec")
        } else {
            doc.tree
                .get("spec")
                .and_then(|s| s.get("template"))
                .and_then(|t| t.get("spec"))
        };
        let containers: Vec<&str> = ["initContainers", "containers"]
            .into_iter()
            .filter_map(|l| spec.and_then(|s| s.get(l)))
            .filter_map(|l| match &l.node {
                Node::Seq(items) => Some(items),
                _ => None,
            })
            .flatten()
            .filter_map(|c| c.get("name").and_then(|n| n.str()))
            .collect();
        let where_read = |n: &str| {
            if n == "plans" {
                "on a workload's own metadata (or a Pod's)"
            } else if SERVICE.contains(&n) {
                "on a Service"
            } else {
                "on the pod template (or a Pod)"
            }
        };
        for (path, allowed) in places {
            let mut node = Some(doc.tree);
            for part in path.split('.') {
                node = node.and_then(|n| n.get(part));
            }
            let Some(Node::Map(entries)) = node.map(|n| &n.node) else {
                continue;
            };
            for (key, _, _) in entries {
                let Some(rest) = key.strip_prefix(PREFIX) else {
                    continue;
                };
                let (field, container) = match rest.split_once('.') {
                    Some((f, c)) => (f, Some(c)),
                    None => (rest, None),
                };
                let msg = if !all.contains(&field) {
                    match tree::closest(field, &all) {
                        Some(c) => format!("not an annotation podcheck reads, ignored; did you mean `{PREFIX}{c}`?"),
                        None => "not an annotation podcheck reads, ignored (they are listed in docs/manifests.md)".to_string(),
                    }
                } else if !allowed.contains(&field) {
                    format!(
                        "ignored here: podcheck reads `{PREFIX}{field}` {}",
                        where_read(field)
                    )
                } else if let Some(c) = container {
                    if !pod.contains(&field) {
                        format!("`{PREFIX}{field}` applies to the whole object, not to one container: ignored")
                    } else if !containers.contains(&c) {
                        format!("the pod has no container `{c}`: ignored")
                    } else {
                        continue;
                    }
                } else {
                    continue;
                };
                self.warnings.push(doc.err_key(path, key, msg));
            }
        }
    }

    /// `affinity`: the required node affinity, which the model's scheduler and kubelet
    /// admission run; a warning for each part they do not (preferred node affinity, pod
    /// affinity and anti-affinity) and for topology spread constraints, which change where
    /// pods land in a real cluster.
    fn affinity(
        &mut self,
        doc: &Doc,
        base: &str,
        p: &core::PodSpec,
    ) -> Result<Option<Vec<podcheck_k8s::NodeSelectorTerm>>, String> {
        let not_run = |what: &str| {
            format!("the model's scheduler does not run {what}: it may place pods where a real scheduler would not, and its findings about nodes (a drain, a partition, a node that dies) may differ")
        };
        if p.topology_spread_constraints
            .as_ref()
            .is_some_and(|t| !t.is_empty())
        {
            self.warnings.push(doc.err(
                &format!("{base}.topologySpreadConstraints"),
                not_run("topology spread constraints"),
            ));
        }
        let Some(a) = &p.affinity else {
            return Ok(None);
        };
        if a.pod_affinity.is_some() {
            self.warnings.push(doc.err(
                &format!("{base}.affinity.podAffinity"),
                not_run("pod affinity"),
            ));
        }
        if let Some(anti) = &a.pod_anti_affinity {
            // Kept to be told apart once every pod template is read: one whose terms select
            // no pod of the manifests keeps none of them apart.
            let terms: Vec<&core::PodAffinityTerm> = anti
                .required_during_scheduling_ignored_during_execution
                .iter()
                .flatten()
                .chain(
                    anti.preferred_during_scheduling_ignored_during_execution
                        .iter()
                        .flatten()
                        .map(|w| &w.pod_affinity_term),
                )
                .collect();
            // A term that may reach another namespace's pods is not judged here.
            if terms
                .iter()
                .all(|t| t.namespaces.is_none() && t.namespace_selector.is_none())
            {
                self.anti_affinity.push((
                    self.warnings.len(),
                    doc.what.clone(),
                    terms
                        .iter()
                        .filter_map(|t| t.label_selector.clone())
                        .collect(),
                ));
            }
            self.warnings.push(doc.err(
                &format!("{base}.affinity.podAntiAffinity"),
                not_run("pod anti-affinity"),
            ));
        }
        let Some(na) = &a.node_affinity else {
            return Ok(None);
        };
        if na
            .preferred_during_scheduling_ignored_during_execution
            .as_ref()
            .is_some_and(|t| !t.is_empty())
        {
            self.warnings.push(doc.err(
                &format!(
                    "{base}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution"
                ),
                not_run("preferred node affinity (a score)"),
            ));
        }
        let Some(req) = &na.required_during_scheduling_ignored_during_execution else {
            return Ok(None);
        };
        let here = format!(
            "{base}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
        );
        let ops = [
            ("In", podcheck_k8s::NodeSelectorOperator::In),
            ("NotIn", podcheck_k8s::NodeSelectorOperator::NotIn),
            ("Exists", podcheck_k8s::NodeSelectorOperator::Exists),
            (
                "DoesNotExist",
                podcheck_k8s::NodeSelectorOperator::DoesNotExist,
            ),
            ("Gt", podcheck_k8s::NodeSelectorOperator::Gt),
            ("Lt", podcheck_k8s::NodeSelectorOperator::Lt),
        ];
        let mut terms = Vec::new();
        for (i, t) in req.node_selector_terms.iter().enumerate() {
            let mut term = podcheck_k8s::NodeSelectorTerm::default();
            for (list, reqs, out) in [
                (
                    "matchExpressions",
                    &t.match_expressions,
                    &mut term.match_expressions,
                ),
                ("matchFields", &t.match_fields, &mut term.match_fields),
            ] {
                for (j, r) in reqs.iter().flatten().enumerate() {
                    let operator = one_of(
                        doc,
                        &format!("{here}[{i}].{list}[{j}].operator"),
                        &r.operator,
                        &ops,
                    )?;
                    out.push(podcheck_k8s::NodeSelectorRequirement {
                        key: r.key.clone(),
                        operator,
                        values: r.values.clone().unwrap_or_default(),
                    });
                }
            }
            terms.push(term);
        }
        Ok(Some(terms))
    }

    /// An annotation read as a number of seconds, or its default (noted as assumed).
    /// A warning for each container annotation no container read: one that says how long a
    /// hook runs where no container has such a hook (a `sleep` hook's length is read from the
    /// hook itself). Misspelt or misplaced ones are warned about by `check_annotations`.
    fn unread_notes(&mut self, doc: &Doc, notes: &Notes, p: &core::PodSpec) {
        let names: Vec<&str> = p
            .init_containers
            .iter()
            .flatten()
            .chain(&p.containers)
            .map(|c| c.name.as_str())
            .collect();
        let used = notes.used.borrow();
        for key in notes.map.keys() {
            let Some(rest) = key.strip_prefix(PREFIX) else {
                continue;
            };
            let (field, container) = match rest.split_once('.') {
                Some((f, c)) => (f, Some(c)),
                None => (rest, None),
            };
            if used.contains(key) || container.is_some_and(|c| !names.contains(&c)) {
                continue;
            }
            let why = match field {
                "pre-stop-seconds" => "no container it applies to has a preStop exec, httpGet or tcpSocket hook (a `sleep` hook's length is read from the hook)",
                "post-start-seconds" => "no container it applies to has a postStart exec, httpGet or tcpSocket hook (a `sleep` hook's length is read from the hook)",
                _ => continue,
            };
            self.warnings
                .push(notes.err(doc, key, format!("not read: {why}")));
        }
    }

    fn note_seconds(
        &mut self,
        doc: &Doc,
        notes: &Notes,
        field: &str,
        c: &str,
        default: Option<u16>,
    ) -> Result<Option<u16>, String> {
        match notes.get(field, Some(c)) {
            Some((key, v)) => {
                let n: i64 = v.trim().parse().map_err(|_| {
                    notes.err(
                        doc,
                        &key,
                        format!("must be a whole number of seconds, not `{v}`"),
                    )
                })?;
                if n < 0 || n > MAX_SECONDS as i64 {
                    return Err(notes.err(
                        doc,
                        &key,
                        format!("must be 0 to {MAX_SECONDS} seconds (the model's clock holds durations up to that many seconds), not {n}"),
                    ));
                }
                Ok(Some(n as u16))
            }
            None => {
                if let Some(d) = default {
                    self.assume_default(doc, c, field, &d.to_string(), "");
                }
                Ok(default)
            }
        }
    }

    fn assume(&mut self, doc: &Doc, c: &str, what: &str) {
        self.assumed
            .push(format!("{} container {c}: {what}", doc.what));
    }

    /// The default `value` of the annotation `field` taken for container `c`, with why (` (…)`
    /// or empty): listed in [`Reading::assumed`] and in [`Reading::defaults`].
    fn assume_default(&mut self, doc: &Doc, c: &str, field: &str, value: &str, why: &str) {
        self.assume(doc, c, &format!("{PREFIX}{field}: {value}{why}"));
        self.defaults.push(Assumed {
            object: doc.what.clone(),
            container: Some(c.to_string()),
            annotation: format!("{PREFIX}{field}: {value}"),
        });
    }

    fn container(
        &mut self,
        doc: &Doc,
        at: &str,
        c: &core::Container,
        notes: &Notes,
        job: bool,
        grace: u16,
    ) -> Result<Container, String> {
        if c.name.is_empty() {
            return Err(doc.err(
                &format!("{at}.name"),
                "Required value: a container needs a name",
            ));
        }
        for (i, p) in c.ports.iter().flatten().enumerate() {
            port_number(
                doc,
                &format!("{at}.ports[{i}].containerPort"),
                p.container_port,
            )?;
        }
        // A probe's port by number must be a port; by name, one of the container's ports, or
        // the kubelet cannot resolve it and the probe fails.
        let port_names: Vec<&str> = c
            .ports
            .iter()
            .flatten()
            .filter_map(|p| p.name.as_deref())
            .collect();
        for (kind, p) in [
            ("startupProbe", &c.startup_probe),
            ("readinessProbe", &c.readiness_probe),
            ("livenessProbe", &c.liveness_probe),
        ] {
            let Some(p) = p else { continue };
            let ports = [
                ("httpGet", p.http_get.as_ref().map(|h| &h.port)),
                ("tcpSocket", p.tcp_socket.as_ref().map(|h| &h.port)),
            ];
            for (handler, port) in ports {
                let path = format!("{at}.{kind}.{handler}.port");
                match port {
                    Some(IntOrString::Int(v)) => port_number(doc, &path, *v)?,
                    Some(IntOrString::String(name)) if !port_names.contains(&name.as_str()) => {
                        self.warnings.push(doc.err(&path, format!("the container has no port named `{name}`: in a real cluster the kubelet cannot resolve it and the probe never succeeds; the model takes the probe to reach the program")));
                    }
                    _ => {}
                }
            }
        }
        let n = c.name.as_str();
        let image = match c.image.as_deref() {
            Some(i) if !i.is_empty() => i.to_string(),
            _ => {
                return Err(doc.err(
                    &format!("{at}.image"),
                    "Required value: a container needs an image",
                ))
            }
        };
        let resources = match &c.resources {
            Some(r) => self.container_resources(doc, at, r)?,
            None => spec::ResourceRequirements::default(),
        };
        let checks = match notes.get("probe-checks-dependency", Some(n)) {
            Some((key, v)) => {
                let mut set = Vec::new();
                for w in v.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                    match w {
                        "startup" | "readiness" | "liveness" => set.push(w.to_string()),
                        "none" => {}
                        other => return Err(notes.err(doc, &key, format!("`{other}` is not a probe; write a list of startup, readiness, liveness, or none"))),
                    }
                }
                Some(set)
            }
            None => None,
        };
        let mut probes = Vec::new();
        for (kind, short, p) in [
            ("startupProbe", "startup", &c.startup_probe),
            ("readinessProbe", "readiness", &c.readiness_probe),
            ("livenessProbe", "liveness", &c.liveness_probe),
        ] {
            let Some(p) = p else {
                probes.push(None);
                continue;
            };
            let here = format!("{at}.{kind}");
            let handlers = [
                p.exec.is_some(),
                p.http_get.is_some(),
                p.tcp_socket.is_some(),
                p.grpc.is_some(),
            ]
            .iter()
            .filter(|h| **h)
            .count();
            if handlers != 1 {
                let msg = self.with_unknown_fields(&here, "Required value: must specify exactly one handler type (exec, httpGet, tcpSocket or grpc)");
                return Err(doc.err(&here, msg));
            }
            // Only the annotation says that a probe checks the external dependency: a probe
            // of its own process (`mysqladmin ping`, a ZooKeeper `ruok`) does not, and the
            // probe's handler cannot tell the two apart.
            let dependency = checks
                .as_ref()
                .is_some_and(|set| set.iter().any(|s| s == short));
            let i32f = |path: &str, v: Option<i32>, d: i64, lo: i64| -> Result<i64, String> {
                ranged(
                    doc,
                    &format!("{here}.{path}"),
                    v.map(i64::from).unwrap_or(d),
                    lo,
                    i64::from(MAX_SECONDS),
                    "",
                )
            };
            probes.push(Some(spec::Probe {
                initial_delay_seconds: i32f("initialDelaySeconds", p.initial_delay_seconds, 0, 0)?
                    as u16,
                period_seconds: i32f("periodSeconds", p.period_seconds, 10, 1)? as u16,
                failure_threshold: ranged(
                    doc,
                    &format!("{here}.failureThreshold"),
                    p.failure_threshold.unwrap_or(3) as i64,
                    1,
                    255,
                    " (the model counts it in 8 bits)",
                )? as u8,
                success_threshold: ranged(
                    doc,
                    &format!("{here}.successThreshold"),
                    p.success_threshold.unwrap_or(1) as i64,
                    1,
                    255,
                    " (the model counts it in 8 bits)",
                )? as u8,
                timeout_seconds: i32f("timeoutSeconds", p.timeout_seconds, 1, 0)? as u16,
                termination_grace_period_seconds: p
                    .termination_grace_period_seconds
                    .map(|g| seconds(doc, &format!("{here}.terminationGracePeriodSeconds"), g))
                    .transpose()?,
                checks_dependency: dependency,
            }));
        }
        let command = c.command.clone().unwrap_or_default();
        let args = c.args.clone().unwrap_or_default();
        let mut app = spec::App::default();
        let mut lifecycle = None;
        if let Some(l) = &c.lifecycle {
            let mut out = spec::Lifecycle {
                pre_stop: None,
                post_start: None,
            };
            if let Some(h) = &l.pre_stop {
                let here = format!("{at}.lifecycle.preStop");
                let handlers = [
                    h.exec.is_some(),
                    h.http_get.is_some(),
                    h.sleep.is_some(),
                    h.tcp_socket.is_some(),
                ];
                match handlers.iter().filter(|x| **x).count() {
                    1 => {}
                    0 => return Err(doc.err(&here, "Required value: must specify a handler type (exec, httpGet, sleep or tcpSocket)")),
                    _ => return Err(doc.err(&here, "Forbidden: may not specify more than 1 handler type (exec, httpGet, sleep or tcpSocket)")),
                }
                let exec_sleep = h
                    .exec
                    .as_ref()
                    .map(|e| sleep_seconds(e.command.as_deref().unwrap_or_default()));
                let secs = match (&h.sleep, exec_sleep) {
                    (Some(s), _) => seconds(doc, &format!("{here}.sleep.seconds"), s.seconds)?,
                    (None, Some(Some(Ok(v)))) => {
                        // The kubelet waits for a preStop hook at most the grace period
                        // (`executePreStopHook`, pkg/kubelet/kuberuntime): a longer sleep is
                        // cut there.
                        if v > grace as i64 {
                            self.assume(doc, n, &format!("preStop `sleep` of {v} s is cut at the grace period ({grace} s): the kubelet waits for a preStop hook no longer"));
                        }
                        v.min(grace as i64) as u16
                    }
                    (None, Some(Some(Err(word)))) if word == "infinity" => {
                        self.assume(doc, n, &format!("preStop `sleep infinity` is cut at the grace period ({grace} s): the kubelet waits for a preStop hook no longer"));
                        grace
                    }
                    (None, Some(Some(Err(word)))) => {
                        match self.note_seconds(doc, notes, "pre-stop-seconds", n, None)? {
                            Some(v) => v.min(grace),
                            None => return Err(doc.err(
                                &format!("{here}.exec.command"),
                                format!("`sleep {word}`: podcheck counts whole seconds (with an optional s, m, h or d suffix); say how long the hook runs with the annotation {PREFIX}pre-stop-seconds"),
                            )),
                        }
                    }
                    _ => self
                        .note_seconds(doc, notes, "pre-stop-seconds", n, Some(0))?
                        .unwrap_or(0),
                };
                if secs > 0 {
                    out.pre_stop = Some(spec::PreStop {
                        sleep: spec::SleepAction { seconds: secs },
                    });
                }
            }
            if let Some(h) = &l.post_start {
                let here = format!("{at}.lifecycle.postStart");
                let handlers = [
                    h.exec.is_some(),
                    h.http_get.is_some(),
                    h.sleep.is_some(),
                    h.tcp_socket.is_some(),
                ];
                if handlers.iter().filter(|x| **x).count() > 1 {
                    return Err(doc.err(&here, "Forbidden: may not specify more than 1 handler type (exec, httpGet, sleep or tcpSocket)"));
                }
                out.post_start = Some(match &h.sleep {
                    Some(s) => spec::PostStart {
                        exec: None,
                        sleep: Some(spec::SleepAction {
                            seconds: seconds(doc, &format!("{here}.sleep.seconds"), s.seconds)?,
                        }),
                    },
                    None => {
                        let command = match (&h.exec, &h.http_get, &h.tcp_socket) {
                            (Some(e), None, None) => e.command.clone().unwrap_or_default(),
                            (None, Some(_), None) => vec!["httpGet".into()],
                            (None, None, Some(_)) => vec!["tcpSocket".into()],
                            _ => {
                                let msg = self.with_unknown_fields(&here, "Required value: must specify exactly one handler type (exec, httpGet, sleep or tcpSocket)");
                                return Err(doc.err(&here, msg));
                            }
                        };
                        app.post_start_seconds = self
                            .note_seconds(doc, notes, "post-start-seconds", n, Some(0))?
                            .unwrap_or(0);
                        spec::PostStart {
                            exec: Some(spec::ExecAction { command }),
                            sleep: None,
                        }
                    }
                });
            }
            lifecycle = Some(out).filter(|l| l.pre_stop.is_some() || l.post_start.is_some());
        }
        app.boot_seconds = self
            .note_seconds(doc, notes, "boot-seconds", n, Some(DEFAULT_BOOT_SECONDS))?
            .unwrap_or(0);
        // An init container that is not a sidecar runs to completion before the next starts:
        // like a Job's container, it is taken to exit on its own. A sidecar (an init container
        // with `restartPolicy: Always`) runs until it is stopped, in a Job's pod too: the
        // kubelet stops it once the regular containers are done (KEP-753;
        // docs/sources.md#sidecar-containers).
        let init = at.contains(".initContainers[");
        let sidecar = init && c.restart_policy.as_deref() == Some("Always");
        let runs_to_completion = (job || init) && !sidecar;
        app.exit_after_seconds = self.note_seconds(
            doc,
            notes,
            "exit-after-seconds",
            n,
            runs_to_completion.then_some(DEFAULT_JOB_EXIT_SECONDS),
        )?;
        if let Some((key, v)) = notes.get("exit-code", Some(n)) {
            app.exit_code = exit_code(v).map_err(|e| notes.err(doc, &key, e))?;
        } else if let Some(code) = app
            .exit_after_seconds
            .and(shell::script_exit_code(&command, &args))
        {
            // A program that exits on its own, run by a script that ends with `exit N`: the
            // shell exits N, in every shell.
            app.exit_code = code;
        } else if runs_to_completion {
            self.assume_default(doc, n, "exit-code", "0", "");
        }
        if let Some((key, v)) = notes.get("memory-usage-mi", Some(n)) {
            app.memory_usage_mi = match v.trim().parse::<u64>() {
                Ok(mi) if mi <= MAX_MEMORY_MI => mi,
                Ok(mi) => {
                    return Err(notes.err(
                        doc,
                        &key,
                        format!("must be at most {MAX_MEMORY_MI} MiB (1 PiB), not {mi}"),
                    ))
                }
                Err(_) => {
                    return Err(notes.err(
                        doc,
                        &key,
                        format!("must be a whole number of MiB, not `{v}`"),
                    ))
                }
            };
        }
        if let Some((key, v)) = notes.get("image-pull-fails", Some(n)) {
            app.image_pull_fails = match v.trim() {
                "true" => true,
                "false" => false,
                _ => return Err(notes.err(doc, &key, format!("must be true or false, not `{v}`"))),
            };
        }
        app.on_sigterm = match notes.get("sigterm", Some(n)) {
            Some((key, v)) => match v.trim() {
                "ignore" => spec::OnSigterm::Ignore,
                "exit" => spec::OnSigterm::Exit(143),
                other => match other.strip_prefix("exit:") {
                    Some(code) => {
                        spec::OnSigterm::Exit(exit_code(code).map_err(|e| notes.err(doc, &key, e))?)
                    }
                    None => {
                        return Err(notes.err(
                            doc,
                            &key,
                            format!("must be exit, exit:<code> or ignore, not `{v}`"),
                        ))
                    }
                },
            },
            None => match shell::wrapper(&command, &args) {
                shell::Wrapper::KeepsShell(why) => {
                    self.assume_default(doc, n, "sigterm", "ignore", &format!(" (a shell wrapper without `exec`: {why}; a shell that stays PID 1 does not forward SIGTERM)"));
                    spec::OnSigterm::Ignore
                }
                _ => {
                    self.assume_default(doc, n, "sigterm", "exit:143", "");
                    spec::OnSigterm::Exit(143)
                }
            },
        };
        if let Some(seconds) = self.note_seconds(doc, notes, "stop-seconds", n, None)? {
            app.on_sigterm = match app.on_sigterm {
                spec::OnSigterm::Exit(code) | spec::OnSigterm::ExitAfter { code, .. } => {
                    spec::OnSigterm::ExitAfter { code, seconds }
                }
                spec::OnSigterm::Ignore => {
                    let key = notes
                        .get("stop-seconds", Some(n))
                        .map_or_else(|| "stop-seconds".to_string(), |(k, _)| k);
                    return Err(notes.err(
                        doc,
                        &key,
                        "the program is taken to ignore SIGTERM (podcheck.dev/sigterm: ignore, said or assumed), so it has no shutdown to time: say podcheck.dev/sigterm: exit (or exit:<code>) with it",
                    ));
                }
            };
        }
        let mut probes = probes.into_iter();
        Ok(Container {
            name: n.to_string(),
            image,
            resources,
            startup_probe: probes.next().flatten(),
            readiness_probe: probes.next().flatten(),
            liveness_probe: probes.next().flatten(),
            lifecycle,
            image_pull_policy: match c.image_pull_policy.as_deref() {
                None => None,
                Some(p) => Some(one_of(
                    doc,
                    &format!("{at}.imagePullPolicy"),
                    p,
                    &[
                        ("Always", PullPolicy::Always),
                        ("IfNotPresent", PullPolicy::IfNotPresent),
                        ("Never", PullPolicy::Never),
                    ],
                )?),
            },
            restart_policy: match c.restart_policy.as_deref() {
                None => None,
                Some(p) => Some(one_of(
                    doc,
                    &format!("{at}.restartPolicy"),
                    p,
                    &[
                        ("Always", RestartPolicy::Always),
                        ("OnFailure", RestartPolicy::OnFailure),
                        ("Never", RestartPolicy::Never),
                    ],
                )?),
            },
            app,
        })
    }

    /// A container's `resources`, as the API server validates them
    /// (`ValidateContainerResourceRequirements`, pkg/apis/core/validation) and defaults them
    /// (`SetDefaults_Pod`: a resource with a limit and no request is requested at its limit).
    /// Every resource name a container may use is read: cpu, memory, ephemeral-storage,
    /// `hugepages-<size>`, and domain-prefixed ones (extended resources such as
    /// `nvidia.com/gpu`).
    fn container_resources(
        &mut self,
        doc: &Doc,
        at: &str,
        r: &core::ResourceRequirements,
    ) -> Result<spec::ResourceRequirements, String> {
        let base = format!("{at}.resources");
        let empty = BTreeMap::new();
        let requests = r.requests.as_ref().unwrap_or(&empty);
        let limits = r.limits.as_ref().unwrap_or(&empty);
        let mut hugepages = false;
        for (part, map) in [("limits", limits), ("requests", requests)] {
            let path = format!("{base}.{part}");
            for (name, q) in map {
                let err = |msg: String| doc.err_entry(&path, name, msg);
                if let Some(why) = container_resource_name(name) {
                    return Err(err(format!("Invalid value: \"{name}\": {why}")));
                }
                // `ValidateResourceQuantityValue`: not negative; an integer resource whole.
                let whole = quantity::is_whole(&q.0).map_err(&err)?;
                if podcheck_k8s::is_extended_resource(name) && !whole {
                    return Err(err(format!(
                        "Invalid value: \"{}\": must be an integer",
                        q.0
                    )));
                }
                if podcheck_k8s::is_hugepages(name) {
                    hugepages = true;
                    // `validateResourceQuantityHugePageValue`: a whole number of pages.
                    let page = quantity::value(&name["hugepages-".len()..])
                        .ok()
                        .filter(|p| *p > 0);
                    let (n, d) = quantity::exact(&q.0).map_err(&err)?;
                    let divisible =
                        page.is_some_and(|p| n % d == 0 && (n / d) % u128::from(p) == 0);
                    if !divisible {
                        return Err(err(format!(
                            "Invalid value: \"{}\": {} is not positive integer multiple of {name}",
                            q.0, q.0
                        )));
                    }
                }
            }
        }
        // Requests against limits: a request above its limit is refused; a resource that
        // cannot be overcommitted (`IsOvercommitAllowed`: hugepages and extended resources)
        // needs a limit, and its request must equal it.
        for (name, q) in requests {
            let path = format!("{base}.requests");
            let overcommit =
                podcheck_k8s::is_native_resource(name) && !podcheck_k8s::is_hugepages(name);
            match limits.get(name) {
                Some(l) => {
                    let (a, b) =
                        quantity::exact(&q.0).map_err(|e| doc.err_entry(&path, name, e))?;
                    let (c, d) =
                        quantity::exact(&l.0).map_err(|e| doc.err_entry(&path, name, e))?;
                    // a/b against c/d.
                    let (x, y) = (a * d, c * b);
                    if x != y && !overcommit {
                        return Err(doc.err_entry(
                            &path,
                            name,
                            format!(
                                "Invalid value: \"{}\": must be equal to {name} limit of {}",
                                q.0, l.0
                            ),
                        ));
                    }
                    if x > y && !matches!(name.as_str(), "cpu" | "memory") {
                        return Err(doc.err_entry(&path, name, format!("Invalid value: \"{}\": must be less than or equal to {name} limit of {}", q.0, l.0)));
                    }
                }
                None if !overcommit => {
                    return Err(doc.err_entry(&path, name, format!("Required value: Limit must be set for non overcommitable resources (write `limits: {{{name}: {}}}`; the request defaults to the limit)", q.0)));
                }
                None => {}
            }
        }
        if hugepages {
            let cpu_or_memory = [requests, limits]
                .iter()
                .any(|m| m.contains_key("cpu") || m.contains_key("memory"));
            if !cpu_or_memory {
                return Err(doc.err(&base, "Forbidden: HugePages require cpu or memory"));
            }
        }
        let mut out = spec::ResourceRequirements {
            requests: self.resources(doc, &format!("{base}.requests"), Some(requests))?,
            limits: self.resources(doc, &format!("{base}.limits"), Some(limits))?,
        };
        // `SetDefaults_Pod`: a limit without a request is the request too.
        let defaulted: BTreeMap<String, _> = limits
            .iter()
            .filter(|(k, _)| !requests.contains_key(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let more = self.resources(doc, &format!("{base}.limits"), Some(&defaulted))?;
        if defaulted.contains_key("cpu") {
            out.requests.cpu_milli = more.cpu_milli;
        }
        if defaulted.contains_key("memory") {
            out.requests.memory_mi = more.memory_mi;
        }
        out.requests.scalar.extend(more.scalar);
        Ok(out)
    }

    /// A map of resources (a container's requests or limits, a node's allocatable): cpu in
    /// millicores, memory in MiB, every other resource in its own unit. A node's `pods` (the
    /// count of pods it takes) is not modelled: said in the fields not read.
    fn resources(
        &mut self,
        doc: &Doc,
        at: &str,
        m: Option<&BTreeMap<String, k8s_openapi::apimachinery::pkg::api::resource::Quantity>>,
    ) -> Result<Resources, String> {
        let mut r = Resources::default();
        for (k, q) in m.into_iter().flatten() {
            let err = |e: String| doc.err_entry(at, k, e);
            match k.as_str() {
                "cpu" => r.cpu_milli = quantity::milli(&q.0).map_err(err)?,
                "memory" => r.memory_mi = quantity::mebi(&q.0).map_err(err)?,
                "pods" => {
                    quantity::value(&q.0).map_err(err)?;
                    self.unused.push(doc.err_entry(
                        at,
                        k,
                        "not modelled: the model's scheduler does not count pods per node (\"Too many pods\")",
                    ));
                }
                _ => {
                    let v = quantity::value(&q.0).map_err(err)?;
                    r.scalar.insert(k.clone(), v);
                }
            }
        }
        Ok(r)
    }

    fn node(&mut self, doc: &Doc, n: &core::Node) -> Result<spec::NodeSpec, String> {
        let name = n.metadata.name.clone().unwrap_or_default();
        let mut node = spec::NodeSpec::new(&name, 0, 0);
        let status = n.status.clone().unwrap_or_default();
        let (field, res) = match (&status.allocatable, &status.capacity) {
            (Some(a), _) => ("status.allocatable", Some(a)),
            (None, Some(c)) => ("status.capacity", Some(c)),
            (None, None) => ("status.allocatable", None),
        };
        match res {
            Some(m) => {
                node.allocatable = self.resources(doc, field, Some(m))?;
                if !m.contains_key("cpu") || !m.contains_key("memory") {
                    return Err(doc.err(field, "the node needs both cpu and memory, so that pods can be placed on it"));
                }
            }
            None => return Err(doc.err("status", "Required value: status.allocatable (or status.capacity) with cpu and memory, so that pods can be placed on the node")),
        }
        node.labels = n.metadata.labels.clone().unwrap_or_default();
        for (i, t) in n
            .spec
            .as_ref()
            .and_then(|s| s.taints.clone())
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            node.taints.push(Taint {
                key: t.key.clone(),
                value: t.value.clone().unwrap_or_default(),
                effect: one_of(
                    doc,
                    &format!("spec.taints[{i}].effect"),
                    &t.effect,
                    &[
                        ("NoSchedule", TaintEffect::NoSchedule),
                        ("PreferNoSchedule", TaintEffect::PreferNoSchedule),
                        ("NoExecute", TaintEffect::NoExecute),
                    ],
                )?,
            });
        }
        Ok(node)
    }

    /// Fields written that the model does not read, listed for `--verbose`; those that change
    /// what a real cluster does (a paused Deployment, a suspended Job, readiness gates…) are
    /// warnings too, since the check goes on as if they were not there.
    fn unused_fields(&mut self, origin: &str, kind: &str, name: &str, t: &Tree) {
        let used = used_paths(kind);
        let mut out = Vec::new();
        walk_unused(t, "", &used, &mut out);
        for (path, loc, v) in out {
            let field = path.replace("[]", "");
            let pod = field
                .strip_prefix("spec.template.spec.")
                .or_else(|| field.strip_prefix("spec.").filter(|_| kind == "Pod"));
            let set = !matches!(&v.node, Node::Null | Node::Bool(false))
                && !matches!(&v.node, Node::Seq(items) if items.is_empty());
            let why = match (kind, field.as_str(), pod) {
                ("Deployment", "spec.paused", _) => Some("a paused Deployment rolls out no change to its template; the model's Deployment controller does not pause"),
                ("Job", "spec.suspend", _) => Some("a suspended Job runs no pods; the model's Job controller does not suspend"),
                ("StatefulSet", "spec.ordinals" | "spec.persistentVolumeClaimRetentionPolicy", _) => Some("the model's StatefulSet controller does not read it"),
                ("Service", "spec.internalTrafficPolicy" | "spec.externalTrafficPolicy" | "spec.sessionAffinity" | "spec.trafficDistribution", _) => Some("the model's kube-proxy routes every Service as Cluster traffic policy without affinity"),
                ("PersistentVolume", "spec.nodeAffinity", _) => Some("the scheduler puts a pod that uses this volume only on the nodes it names (the VolumeBinding plugin); the model's scheduler does not read it"),
                (_, _, Some("readinessGates")) => Some("the pods are Ready only once these conditions are True; the model takes them Ready without them"),
                (_, _, Some("activeDeadlineSeconds")) => Some("the kubelet fails a pod that runs longer; the model does not"),
                (_, _, Some("priorityClassName")) => Some("the model does not resolve a priority class: write `priority` to give the pods theirs (node-pressure eviction and node shutdown order by it)"),
                (_, _, Some("containers.lifecycle.stopSignal" | "initContainers.lifecycle.stopSignal")) => Some("the model stops containers with SIGTERM"),
                (_, _, Some("overhead" | "runtimeClassName")) => Some("the model's scheduler counts the containers' requests only"),
                _ => None,
            };
            if let Some(why) = why.filter(|_| set && !written_as_default(&field, v)) {
                self.warnings.push(located(
                    origin,
                    loc,
                    &format!("{kind}/{name}: {path}: not modelled: {why}"),
                ));
            }
            self.unused
                .push(located(origin, loc, &format!("{kind}/{name}: {path}")));
        }
    }

    /// One warning for each workload no node can take
    /// ([`crate::spec::placement::no_node_can_take`]), naming the workload, what no node has
    /// (the labels of its selector, a resource, a toleration) and how to say otherwise. The
    /// plans leave such a workload out ([`crate::plan`]).
    fn unplaceable(
        &mut self,
        scenario: &Scenario,
        workloads: &[(Doc, Workload, BTreeMap<String, String>)],
        given_nodes: bool,
    ) {
        let nodes = if given_nodes {
            "no Node object of the manifests"
        } else {
            "neither default node (node-1, node-2: 4 CPUs, 8 GiB, the labels a kubelet sets)"
        };
        for (d, w, _) in workloads {
            let Some(why) = crate::spec::placement::no_node_can_take(scenario, w) else {
                continue;
            };
            let t = w.template();
            let mut what = Vec::new();
            if why.contains("node affinity/selector") {
                let mut sel: Vec<String> = t
                    .node_selector
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                if t.required_node_affinity.is_some() {
                    sel.push("its required node affinity".into());
                }
                what.push(format!(
                    "{nodes} has the labels of its node selector ({})",
                    sel.join(", ")
                ));
            }
            let mut short: Vec<String> = scenario
                .cluster
                .nodes
                .iter()
                .flat_map(|n| crate::spec::placement::refusals(t, n, t.node_name.is_some()))
                .filter_map(|r| r.strip_prefix("Insufficient ").map(str::to_string))
                .collect();
            if !short.is_empty() {
                short.sort();
                short.dedup();
                what.push(format!(
                    "{nodes} has enough {} in status.allocatable",
                    short.join(", ")
                ));
            }
            if why.contains("untolerated taint") {
                what.push(format!("it tolerates no taint that {nodes} has"));
            }
            let how = if given_nodes {
                "give a Node object that can take it (labels, status.allocatable, spec.taints)"
            } else {
                "give Node objects in the manifests (kind: Node, with the labels, status.allocatable and spec.taints of your nodes) to check it on your nodes"
            };
            self.warnings.push(located(
                d.origin,
                d.tree.loc,
                &format!(
                    "{}: no node can take its pods ({why}): {}; its pods stay Pending, so no plan acts on it and nothing about it is checked; {how} (docs/manifests.md#nodes)",
                    d.what,
                    what.join("; ")
                ),
            ));
        }
    }

    /// What the model does with the resources beyond cpu and memory, said once: hugepages are
    /// scheduled against node allocatable and nothing more; ephemeral-storage is checked only
    /// on nodes that list it.
    fn scalar_notes(&mut self, scenario: &Scenario) {
        let mut requested: Vec<&str> = Vec::new();
        for w in &scenario.workloads {
            let t = w.template();
            for c in t.init_containers.iter().chain(&t.containers) {
                requested.extend(c.resources.requests.scalar.keys().map(String::as_str));
            }
        }
        requested.sort();
        requested.dedup();
        let huge: Vec<&str> = requested
            .iter()
            .copied()
            .filter(|n| podcheck_k8s::is_hugepages(n))
            .collect();
        if !huge.is_empty() {
            self.assumed.push(format!("{}: scheduled against the nodes' status.allocatable only; the pages themselves (the hugetlb limit, an emptyDir of medium HugePages) are not modelled", huge.join(", ")));
        }
        let storage = podcheck_k8s::EPHEMERAL_STORAGE;
        if requested.contains(&storage)
            && scenario
                .cluster
                .nodes
                .iter()
                .any(|n| !n.allocatable.scalar.contains_key(storage))
        {
            self.assumed.push(format!("{storage}: requests of it are checked only against nodes whose status.allocatable lists it (a node that does not say how much it has is taken to have enough)"));
        }
    }

    fn scenario(
        mut self,
        objects: Vec<Object>,
        sources: &[(String, String)],
    ) -> Result<Reading, String> {
        let mut workloads: Vec<(Doc, Workload, BTreeMap<String, String>)> = Vec::new();
        let mut services = Vec::new();
        let mut pdbs = Vec::new();
        let mut claims = Vec::new();
        let mut volumes = Vec::new();
        let mut nodes = Vec::new();
        let mut plans = BTreeMap::new();
        for o in objects {
            match o {
                Object::Workload(d, w, l) => {
                    let w = *w;
                    if let Some(p) = workload_plans(&d)? {
                        plans.insert(w.name().to_string(), p);
                    }
                    if let Some((first, _, _)) =
                        workloads.iter().find(|(_, x, _)| x.name() == w.name())
                    {
                        return Err(d.err("metadata.name", format!("the model needs workload names unique across kinds: `{}` is also {} ({})", w.name(), first.what, located(first.origin, first.tree.loc, "").trim_end_matches(": "))));
                    }
                    workloads.push((d, w, l));
                }
                Object::Service(d, s) => services.push((d, s)),
                Object::Pdb(d, p) => pdbs.push((d, p)),
                Object::Claim(c) => claims.push(c),
                Object::Volume(v) => volumes.push(v),
                Object::Node(n) => nodes.push(n),
            }
        }
        // A pod anti-affinity whose terms select no pod of the manifests keeps none of them
        // apart: the model's scheduler, which does not run it, places them as a real one
        // would here, and the usual cause is a selector that does not match the template's
        // labels (the Kubernetes docs' ZooKeeper example asks for `app: zk` on pods labelled
        // `app.kubernetes.io/name: zk`).
        for (at, what, selectors) in std::mem::take(&mut self.anti_affinity) {
            let Some((doc, _, _)) = workloads.iter().find(|(d, _, _)| d.what == what) else {
                continue;
            };
            let mut any = false;
            for sel in &selectors {
                for (_, _, labels) in &workloads {
                    any |= selector_selects(doc, "spec.template.spec.affinity", sel, labels)
                        .unwrap_or(true);
                }
            }
            if !any {
                if let Some(w) = self.warnings.get_mut(at) {
                    let run = ": the model's scheduler does not run pod anti-affinity";
                    if let Some(i) = w.find(run) {
                        w.truncate(i + run.len());
                        w.push_str(", but its terms select no pod of the manifests, so it keeps none of them apart and the pods land where a real scheduler would place them here; to spread these pods, its labelSelector must match the labels of their template");
                    }
                }
            }
        }
        if workloads.is_empty() {
            let names: Vec<&str> = sources.iter().map(|(o, _)| o.as_str()).collect();
            let ignored = if self.ignored.is_empty() {
                String::new()
            } else {
                format!(" (ignored: {})", self.ignored.join("; "))
            };
            return Err(format!(
                "{}: no Pod, Deployment, ReplicaSet, StatefulSet or Job to check{ignored}",
                names.join(", ")
            ));
        }
        // Canonical order, by name: the files' order and split decide nothing (the settled
        // cluster creates and places pods in the workloads' order). Node objects stay in the
        // order given: it is the cluster's own description, node by node.
        workloads.sort_by(|a, b| a.1.name().cmp(b.1.name()));
        claims.sort_by(|a: &ClaimSpec, b| a.metadata.name.cmp(&b.metadata.name));
        for c in &mut claims {
            let binding = self.bindings.get(&c.metadata.name).cloned();
            c.spec.attachable =
                attachable(&volumes, binding, std::slice::from_ref(&c.metadata.name), c);
        }
        for (_, w, _) in &mut workloads {
            if let Workload::StatefulSet { spec, metadata } = w {
                for c in &mut spec.volume_claim_templates {
                    let prefix = format!("{}-{}", c.metadata.name, metadata.name);
                    let names: Vec<String> = (0..spec.replicas)
                        .map(|i| format!("{prefix}-{i}"))
                        .collect();
                    let binding = self.bindings.get(&prefix).cloned();
                    c.spec.attachable = attachable(&volumes, binding, &names, c);
                }
            }
        }
        pdbs.sort_by_key(|(d, _)| name_of(d.tree));
        services.sort_by_key(|(d, _)| name_of(d.tree));
        if nodes.len() > 5 {
            return Err(format!(
                "{}: {} Node objects: the model holds 1 to 5 nodes",
                sources
                    .iter()
                    .map(|(o, _)| o.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                nodes.len()
            ));
        }
        // A HorizontalPodAutoscaler keeps its target's replicas within minReplicas and
        // maxReplicas whatever the manifest says (`reconcileAutoscaler` in
        // pkg/controller/podautoscaler/horizontal.go: a count below `minReplicas` is raised to
        // it, one above `maxReplicas` lowered to it, at its first sync). The model does not
        // run it and checks `spec.replicas`: where that is outside the bounds, the cluster
        // runs another number of pods than the one checked, so say so.
        for a in std::mem::take(&mut self.autoscalers) {
            let Some((d, w, _)) = workloads.iter().find(|(d, _, _)| d.what == a.target) else {
                continue;
            };
            let Some(replicas) = w.replicas().map(i64::from) else {
                continue;
            };
            let runs = if replicas < a.min {
                a.min
            } else if a.max.is_some_and(|m| replicas > m) {
                a.max.unwrap_or(replicas)
            } else {
                continue;
            };
            let written = d
                .tree
                .get("spec")
                .and_then(|s| s.get("replicas"))
                .is_some_and(|r| r.node != Node::Null);
            let how = if written {
                format!("its spec.replicas: {replicas}")
            } else {
                format!("spec.replicas {replicas}, the default of a field not written")
            };
            let bounds = match a.max {
                Some(m) => format!("{} to {m}", a.min),
                None => format!("at least {}", a.min),
            };
            let fix = if runs <= 5 {
                format!("write `replicas: {runs}` to check what the cluster runs")
            } else {
                "the model holds up to 5 replicas, so `replicas: 5` comes nearest".to_string()
            };
            self.warnings.push(format!(
                "{}: keeps {} at {bounds} replicas, so a real cluster runs {runs} of its pods; the model does not run the autoscaler and checks {how}; {fix}",
                a.at, a.target,
            ));
        }
        for (d, w, _) in &workloads {
            // A StatefulSet's governing Service gives its pods their DNS names; one the
            // manifests do not hold is worth a word (the model holds no DNS).
            if let Some(svc) = d
                .tree
                .get("spec")
                .and_then(|s| s.get("serviceName"))
                .and_then(|n| n.str())
                .filter(|n| !n.is_empty())
            {
                if !services.iter().any(|(s, _)| name_of(s.tree) == svc) {
                    self.warnings.push(d.err(
                        "spec.serviceName",
                        format!("no Service `{svc}` in the manifests: the pods' DNS names need it in a real cluster (the model holds no DNS)"),
                    ));
                }
            }
            for v in &w.template().volumes {
                let Some(c) = &v.persistent_volume_claim else {
                    continue;
                };
                if !claims.iter().any(|x| x.metadata.name == c.claim_name) {
                    self.assumed.push(format!("{}: volume `{}` claims `{}`, which no PersistentVolumeClaim of the manifests defines: taken to exist and be bound (a real pod stays Pending until it is)", d.what, v.name, c.claim_name));
                }
            }
        }
        let mut cluster = spec::ClusterSpec {
            start: spec::Start::Settled,
            ..spec::ClusterSpec::default()
        };
        let given_nodes = !nodes.is_empty();
        if given_nodes {
            cluster.nodes = nodes;
        } else {
            self.assumed.push("cluster: no Node given: two nodes of 4 CPUs and 8 GiB, one with 1 CPU and one with 2 CPUs already requested by other pods, labelled as a kubelet labels its node (kubernetes.io/os=linux, kubernetes.io/arch=amd64, kubernetes.io/hostname=<name>, and the deprecated beta.kubernetes.io/os=linux, beta.kubernetes.io/arch=amd64)".into());
        }
        // The Services: every one that selects pods, in canonical order (not headless
        // first, then by name), so that neither the files' order nor their split decides
        // which a scenario holds. The model holds one per scenario: the plans
        // (`crate::plan::plan_scenarios_served`) give each the one of its target's pods; the
        // base scenario holds the first.
        if let Some((d, _)) = services.get(MAX_SERVICES) {
            return Err(located(
                d.origin,
                d.tree.loc,
                &format!(
                    "{}: more than {MAX_SERVICES} Services in one application: podcheck reads at most {MAX_SERVICES} (give the application's manifests as a folder of their own)",
                    d.what
                ),
            ));
        }
        let mut modelled = Vec::new();
        for (d, s) in &services {
            let sel = s
                .spec
                .as_ref()
                .and_then(|s| s.selector.clone())
                .unwrap_or_default();
            if sel.is_empty() {
                self.ignored.push(format!("{}: {} (a Service without a selector: no pods of the manifests get its traffic)", located(d.origin, d.tree.loc, "").trim_end_matches(": "), d.what));
                continue;
            }
            let selects: Vec<String> = workloads
                .iter()
                .filter(|(_, _, l)| map_selects(&sel, l))
                .map(|(_, w, _)| w.name().to_string())
                .collect();
            if selects.is_empty() {
                self.warnings.push(d.err(
                    "spec.selector",
                    "selects no pod of the manifests: the Service has no endpoints",
                ));
                continue;
            }
            // `clusterIP: None`: kube-proxy does not handle the Service (`ShouldSkipService`),
            // so no client request goes through a proxy.
            let headless = s
                .spec
                .as_ref()
                .and_then(|s| s.cluster_ip.as_deref())
                .is_some_and(|ip| ip == "None");
            modelled.push((d, s, selects, headless));
        }
        modelled.sort_by_key(|m| (m.3, name_of(m.0.tree)));
        let mut named = Vec::new();
        for (d, s, selects, headless) in modelled {
            let notes = annotations(&Some(s.metadata.clone()));
            let notes = Notes {
                map: &notes,
                used: Default::default(),
                path: "metadata.annotations",
            };
            let clients = match notes.get("clients", None) {
                None if headless => {
                    self.assumed.push(format!("{}: clusterIP: None (headless): no kube-proxy routes to its pods and no client request goes through one (clients reach a headless Service's pods by DNS, which the model does not hold)", d.what));
                    false
                }
                None => true,
                Some((key, "true")) if headless => {
                    return Err(notes.err(
                        d,
                        &key,
                        "true on a headless Service (spec.clusterIP: None): kube-proxy does not handle it, and the model's clients send their requests through kube-proxy",
                    ))
                }
                Some((_, "true")) => true,
                Some((_, "false")) => false,
                Some((key, v)) => {
                    return Err(notes.err(d, &key, format!("must be true or false, not `{v}`")))
                }
            };
            let proxy_lag_seconds = match notes.get("proxy-lag-seconds", None) {
                // kube-proxy does not handle a headless Service: no proxy lags behind its
                // EndpointSlice, and no default is assumed.
                Some((key, _)) if headless => {
                    self.warnings.push(notes.err(
                        d,
                        &key,
                        "ignored on a headless Service (spec.clusterIP: None): kube-proxy does not handle it, so no kube-proxy lags behind its EndpointSlice",
                    ));
                    cluster.proxy_lag_seconds
                }
                None if headless => cluster.proxy_lag_seconds,
                Some((key, v)) => {
                    let n: i64 = v.trim().parse().map_err(|_| {
                        notes.err(
                            d,
                            &key,
                            format!("must be a whole number of seconds, not `{v}`"),
                        )
                    })?;
                    if n < 0 || n > MAX_SECONDS as i64 {
                        return Err(notes.err(d, &key, format!("must be 0 to {MAX_SECONDS} seconds (the model's clock holds durations up to that many seconds), not {n}")));
                    }
                    n as u16
                }
                None => {
                    self.assumed.push(format!("{}: {PREFIX}proxy-lag-seconds: {} (each kube-proxy may lag this long behind the EndpointSlice)", d.what, cluster.proxy_lag_seconds));
                    self.defaults.push(Assumed {
                        object: d.what.clone(),
                        container: None,
                        annotation: format!(
                            "{PREFIX}proxy-lag-seconds: {}",
                            cluster.proxy_lag_seconds
                        ),
                    });
                    cluster.proxy_lag_seconds
                }
            };
            named.push(NamedService {
                name: d.what.clone(),
                spec: spec::ServiceSpec {
                    selects,
                    publish_not_ready_addresses: s
                        .spec
                        .as_ref()
                        .and_then(|s| s.publish_not_ready_addresses)
                        .unwrap_or(false),
                    headless,
                    clients,
                },
                proxy_lag_seconds,
            });
        }
        let service = named.first().map(|v| v.spec.clone());
        if let Some(v) = named.first() {
            cluster.proxy_lag_seconds = v.proxy_lag_seconds;
        }
        let mut budgets = Vec::new();
        for (d, p) in &pdbs {
            let s = p.spec.clone().unwrap_or_default();
            let Some(sel) = &s.selector else {
                self.warnings
                    .push(d.err("spec", "no selector: the budget selects no pod"));
                continue;
            };
            let mut selects = Vec::new();
            for (_, w, l) in &workloads {
                if selector_selects(d, "spec.selector", sel, l)? {
                    selects.push(w.name().to_string());
                }
            }
            if selects.is_empty() {
                self.warnings
                    .push(d.err("spec.selector", "selects no pod of the manifests"));
                continue;
            }
            let budget = spec::PdbSpec {
                metadata: spec::Metadata {
                    name: p.metadata.name.clone().unwrap_or_default(),
                },
                spec: spec::PdbSpecFields {
                    selects,
                    min_available: s.min_available.as_ref().map(int_or_percent),
                    max_unavailable: s.max_unavailable.as_ref().map(int_or_percent),
                    unhealthy_pod_eviction_policy: s
                        .unhealthy_pod_eviction_policy
                        .as_deref()
                        .map(|v| {
                            one_of(
                                d,
                                "spec.unhealthyPodEvictionPolicy",
                                v,
                                &[
                                    (
                                        "IfHealthyBudget",
                                        spec::UnhealthyPodEvictionPolicy::IfHealthyBudget,
                                    ),
                                    ("AlwaysAllow", spec::UnhealthyPodEvictionPolicy::AlwaysAllow),
                                ],
                            )
                        })
                        .transpose()?,
                },
            };
            if let Some(v) = &budget.spec.min_available {
                v.read().map_err(|e| d.err("spec.minAvailable", e))?;
            }
            if let Some(v) = &budget.spec.max_unavailable {
                v.read().map_err(|e| d.err("spec.maxUnavailable", e))?;
            }
            if budget.spec.min_available.is_some() == budget.spec.max_unavailable.is_some() {
                return Err(d.err(
                    "spec",
                    "give exactly one of minAvailable and maxUnavailable",
                ));
            }
            budgets.push(budget);
        }
        let origins: Vec<&str> = {
            let mut o: Vec<&str> = sources.iter().map(|(o, _)| o.as_str()).collect();
            o.dedup();
            o
        };
        let scenario = Scenario {
            name: "manifests".into(),
            description: format!("the manifests in {}", origins.join(", ")),
            source: "the user's manifests".into(),
            cluster,
            workloads: workloads.iter().map(|(_, w, _)| w.clone()).collect(),
            service,
            // No fault: the plans (`crate::plan`) add what happens to the application.
            faults: Vec::new(),
            persistent_volume_claims: claims,
            pod_disruption_budgets: budgets,
            expect: Vec::new(),
            settle_placement: Vec::new(),
            node_focus: None,
        };
        // The scenario's own validation, its message pointed back at the manifest.
        if let Err(e) = scenario.validate() {
            // A workload's at its manifest, a budget's at its own; about the whole (or a
            // Service, a node): named by the files.
            let located_e = locate_validation(&e, &workloads).unwrap_or_else(|| {
                let budget = match &e.object {
                    spec::Object::Budget(b) => {
                        pdbs.iter().map(|(d, _)| d).find(|d| name_of(d.tree) == *b)
                    }
                    _ => None,
                };
                match budget {
                    Some(d) => located(d.origin, d.tree.loc, &format!("{}: {e}", d.what)),
                    None => format!("{}: {e}", origins.join(", ")),
                }
            });
            return Err(located_e);
        }
        self.unplaceable(&scenario, &workloads, given_nodes);
        self.scalar_notes(&scenario);
        let placed_budgets: Vec<PlacedBudget> = scenario
            .pod_disruption_budgets
            .iter()
            .filter_map(|b| {
                let (d, _) = pdbs
                    .iter()
                    .find(|(d, _)| name_of(d.tree) == b.metadata.name)?;
                Some(PlacedBudget {
                    placed: Placed {
                        workload: b.metadata.name.clone(),
                        origin: d.origin.to_string(),
                        tree: d.tree.clone(),
                    },
                    selects: b.spec.selects.clone(),
                })
            })
            .collect();
        Ok(Reading {
            scenario,
            warnings: self.warnings,
            ignored: self.ignored,
            assumed: self.assumed,
            defaults: self.defaults,
            unused: self.unused,
            plans,
            placed: workloads
                .iter()
                .map(|(d, w, _)| Placed {
                    workload: w.name().to_string(),
                    origin: d.origin.to_string(),
                    tree: d.tree.clone(),
                })
                .collect(),
            budgets: placed_budgets,
            services: named,
        })
    }
}

/// A claim's access modes as the API server checks them, the error at `path`.
fn claim_modes(doc: &Doc, path: &str, c: &ClaimSpec) -> Result<(), String> {
    c.modes().map(|_| ()).map_err(|e| doc.err(path, e))
}

/// An error of [`Scenario::validate`] about a workload, pointed at its manifest: at the field
/// it names (or the container's), else at the object; None for one about no workload.
fn locate_validation(
    e: &spec::Invalid,
    workloads: &[(Doc, Workload, BTreeMap<String, String>)],
) -> Option<String> {
    let (name, container) = match &e.object {
        spec::Object::Workload(w) => (w, None),
        spec::Object::Container {
            workload,
            container,
        } => (workload, Some(container)),
        _ => return None,
    };
    let (d, w, _) = workloads.iter().find(|(_, w, _)| w.name() == name)?;
    // A field of a container of the template.
    if let Some(c) = container {
        let base = if matches!(w, Workload::Pod { .. }) {
            "spec"
        } else {
            "spec.template.spec"
        };
        let t = w.template();
        let path = t
            .containers
            .iter()
            .position(|x| &x.name == c)
            .map(|i| format!("{base}.containers[{i}]"))
            .or_else(|| {
                t.init_containers
                    .iter()
                    .position(|x| &x.name == c)
                    .map(|i| format!("{base}.initContainers[{i}]"))
            })
            .unwrap_or_else(|| base.to_string());
        // The scenario's field names, in the manifest's words.
        let field = e
            .field
            .replace(".cpuMilli", ".cpu")
            .replace(".memoryMi", ".memory");
        let full = if field.starts_with("app.") || field.is_empty() {
            path
        } else {
            format!("{path}.{field}")
        };
        return Some(d.err(&full, &e.detail));
    }
    if e.field.starts_with("spec") || e.field.starts_with("metadata") {
        return Some(d.err(&e.field, &e.detail));
    }
    Some(located(
        d.origin,
        d.tree.loc,
        &format!("{}: {}", d.what, e.after_object()),
    ))
}

/// The paths the model reads, per kind (`[]` for any index; a trailing `.*` for a whole
/// subtree).
fn used_paths(kind: &str) -> Vec<String> {
    let mut v: Vec<String> = [
        "apiVersion",
        "kind",
        "metadata.name",
        "metadata.labels.*",
        "metadata.annotations.*",
        "metadata.namespace",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let pod = |base: &str, v: &mut Vec<String>| {
        for f in [
            "restartPolicy",
            "terminationGracePeriodSeconds",
            "nodeSelector.*",
            "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.*",
            "tolerations.*",
            "priority",
            "nodeName",
            "volumes[].name",
            "volumes[].emptyDir.*",
            "volumes[].configMap.name",
            "volumes[].secret.secretName",
            "volumes[].persistentVolumeClaim.claimName",
        ] {
            v.push(format!("{base}.{f}"));
        }
        for list in ["containers[]", "initContainers[]"] {
            for f in [
                "name",
                "image",
                "imagePullPolicy",
                "restartPolicy",
                "command.*",
                "args.*",
                "resources.requests.*",
                "resources.limits.*",
                "startupProbe.*",
                "readinessProbe.*",
                "livenessProbe.*",
                "lifecycle.preStop.*",
                "lifecycle.postStart.*",
            ] {
                v.push(format!("{base}.{list}.{f}"));
            }
        }
    };
    let template = |v: &mut Vec<String>| {
        v.push("spec.selector.*".into());
        v.push("spec.template.metadata.labels.*".into());
        v.push("spec.template.metadata.annotations.*".into());
        pod("spec.template.spec", v);
    };
    match kind {
        "Deployment" => {
            for f in [
                "replicas",
                "strategy.*",
                "minReadySeconds",
                "progressDeadlineSeconds",
                "revisionHistoryLimit",
            ] {
                v.push(format!("spec.{f}"));
            }
            template(&mut v);
        }
        "ReplicaSet" | "ReplicationController" => {
            v.push("spec.replicas".into());
            v.push("spec.minReadySeconds".into());
            template(&mut v);
        }
        "StatefulSet" => {
            for f in [
                "replicas",
                "podManagementPolicy",
                "minReadySeconds",
                "updateStrategy.*",
                "volumeClaimTemplates[].metadata.name",
                "volumeClaimTemplates[].spec.accessModes.*",
                "volumeClaimTemplates[].spec.storageClassName",
                "volumeClaimTemplates[].spec.volumeName",
            ] {
                v.push(format!("spec.{f}"));
            }
            template(&mut v);
        }
        "Job" => {
            for f in [
                "completions",
                "parallelism",
                "completionMode",
                "backoffLimit",
                "backoffLimitPerIndex",
                "maxFailedIndexes",
                "podFailurePolicy.*",
                "podReplacementPolicy",
                "activeDeadlineSeconds",
                "successPolicy.*",
            ] {
                v.push(format!("spec.{f}"));
            }
            template(&mut v);
        }
        "Pod" => pod("spec", &mut v),
        "Service" => {
            v.push("spec.selector.*".into());
            v.push("spec.publishNotReadyAddresses".into());
            v.push("spec.clusterIP".into());
        }
        "PodDisruptionBudget" => {
            for f in [
                "selector.*",
                "minAvailable",
                "maxUnavailable",
                "unhealthyPodEvictionPolicy",
            ] {
                v.push(format!("spec.{f}"));
            }
        }
        "PersistentVolumeClaim" => {
            for f in ["accessModes.*", "storageClassName", "volumeName"] {
                v.push(format!("spec.{f}"));
            }
        }
        "PersistentVolume" => {
            for f in [
                "accessModes.*",
                "storageClassName",
                "claimRef.name",
                "hostPath.*",
                "local.*",
                "nfs.*",
            ] {
                v.push(format!("spec.{f}"));
            }
        }
        "Node" => {
            v.push("spec.taints.*".into());
            v.push("status.allocatable.*".into());
            v.push("status.capacity.*".into());
        }
        _ => {}
    }
    v
}

fn walk_unused<'a>(
    t: &'a Tree,
    path: &str,
    used: &[String],
    out: &mut Vec<(String, Loc, &'a Tree)>,
) {
    match &t.node {
        Node::Map(entries) => {
            for (k, loc, v) in entries {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let covered = used.iter().any(|u| {
                    *u == p
                        || u.strip_suffix(".*")
                            .is_some_and(|s| s == p || p.starts_with(&format!("{s}.")))
                });
                if covered {
                    continue;
                }
                let deeper = used
                    .iter()
                    .any(|u| u.starts_with(&format!("{p}.")) || u.starts_with(&format!("{p}[]")));
                if deeper {
                    walk_unused(v, &p, used, out);
                } else {
                    out.push((p, *loc, v));
                }
            }
        }
        Node::Seq(items) => {
            for i in items {
                walk_unused(i, &format!("{path}[]"), used, out);
            }
        }
        _ => {}
    }
}
