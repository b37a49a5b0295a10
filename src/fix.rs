//! Verified fixes: for each finding, the manifest change that removes it, checked before it is
//! shown (`podcheck fix -f`, docs/fixes.md).
//!
//! For a finding ([`Cause`]) this module proposes candidate changes from what Kubernetes
//! offers ([`candidates`]: a preStop sleep longer than the kube-proxies' lag, `exec` in front
//! of a lone command under `sh -c`, a longer grace period, a liveness probe that checks the
//! process, a budget a drain can satisfy, a second replica, a Job's podFailurePolicy, …), each
//! with its source and why it works. Each candidate is made as a text edit of the user's own
//! files at the positions the reader recorded ([`podcheck_input::manifest::edit`]), the edited
//! files are read again with the same reader, and the application is checked again under the
//! same plans ([`check_sources`]): a candidate is shown only when that re-check is complete,
//! the finding is gone and no finding is new. Numbers are found by trying values in order
//! (the shortest sleep that holds against the lag first), so what is shown is the smallest
//! that works among those tried, with its margin stated.
//!
//! Fixes of one application are found one after the other, each on the files the ones before
//! left: a later fix's diff is against the files with the earlier fixes made, and a finding an
//! earlier fix already removed is listed under that fix.

use crate::{
    causes, findings, planned, properties_of, read_application, Application, Cause, Error, Plan,
    Size, TraceFormat,
};
use podcheck_input::manifest::edit::{self, Change, Edit, Seg, Value};
use podcheck_input::manifest::tree::{self, Node, Tree};
use podcheck_properties::check::{self, CheckOptions};
use serde::Serialize;

/// What a fix is checked with: the plans (default: every plan), the sizes and the checker's
/// bounds (a re-check that stops at a bound verifies nothing).
#[derive(Clone, Debug, Default)]
pub struct FixOptions {
    pub plans: Vec<Plan>,
    pub size: Size,
    pub options: CheckOptions,
}

/// A change to one file: an edit of one document's field, or a new document at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChange {
    Edit(Edit),
    /// A document added after the file's last one (its YAML, without `---`).
    Append(String),
}

/// A candidate change for a finding: what it changes, where the fix comes from, and why it
/// removes the finding.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// What it changes, in a sentence (`preStop sleep 4 s (lag 3 s, margin 1 s)`).
    pub what: String,
    /// The upstream source: a docs page, a KEP, an upstream function.
    pub source: &'static str,
    /// Why it removes the finding.
    pub why: String,
    /// `(file index in the application's sources, change)`, made in order.
    pub changes: Vec<(usize, FileChange)>,
}

/// What the re-check of a candidate found.
#[derive(Clone, Debug, Serialize)]
pub struct Recheck {
    /// Plan scenarios checked.
    pub scenarios: usize,
    /// Distinct states, summed over them.
    pub states: usize,
    /// Every plan scenario was checked completely.
    pub complete: bool,
    /// The findings left, as `property about workload`, operator hazards included.
    pub remaining: Vec<String>,
    /// Findings the re-check has that the check before it had not.
    pub added: Vec<String>,
}

/// A finding's key: its property and what it is about (`property about workload [container
/// c]`), as [`Fix::finding`] and [`Fix::also_removes`] name it.
pub fn key(c: &Cause) -> String {
    let a = &c.shown.about;
    let mut k = c.shown.property.clone();
    if let Some(w) = &a.workload {
        k.push_str(&format!(" about {w}"));
    }
    if let Some(ctr) = &a.container {
        k.push_str(&format!(" container {ctr}"));
    }
    k
}

/// A fix: a change that the re-check showed removes a finding and adds none.
#[derive(Clone, Debug, Serialize)]
pub struct Fix {
    pub application: String,
    /// The finding it removes (`property about workload [container c]`).
    pub finding: String,
    /// The plan scenarios that gave the finding.
    pub under: Vec<String>,
    /// Other findings the same change removed.
    pub also_removes: Vec<String>,
    pub what: String,
    pub source: &'static str,
    pub why: String,
    /// Candidates tried before this one, each with why it was not shown.
    pub tried: Vec<String>,
    /// A unified diff per file changed, against the files as the fixes before left them.
    pub diffs: Vec<FileDiff>,
    pub recheck: Recheck,
}

/// One file's diff.
#[derive(Clone, Debug, Serialize)]
pub struct FileDiff {
    /// The file as named (`<stdin>` for stdin).
    pub file: String,
    pub diff: String,
    /// Replaced lines of the file before the change, `(first, last, new text)`, lines from 1
    /// (`last` = `first - 1`: lines inserted before `first`).
    #[serde(skip)]
    pub replaced: Vec<(usize, usize, String)>,
    /// The same change written against the file as it was read, `(first, last, new text)` as
    /// in `replaced`: what a reader with only the user's file applies (SARIF's
    /// `replacements`). A hunk an earlier fix made in the same lines comes with it.
    #[serde(skip)]
    pub against_read: Vec<(usize, usize, String)>,
}

/// A finding without a verified fix, with why.
#[derive(Clone, Debug, Serialize)]
pub struct NoFix {
    pub application: String,
    pub finding: String,
    pub under: Vec<String>,
    /// Why: no manifest fix (an operator hazard's runbook, a finding class without one), or
    /// the candidates tried and why each was not shown.
    pub why: String,
    pub tried: Vec<String>,
    pub operator_hazard: bool,
}

/// The fixes of every application, and the findings left without one.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Fixes {
    pub fixes: Vec<Fix>,
    pub unfixed: Vec<NoFix>,
    /// Findings before any fix.
    pub findings: usize,
    /// Every check before the fixes was complete.
    pub complete: bool,
    /// Per application, `(file, text)` of each file with every fix made.
    #[serde(skip)]
    pub files: Vec<(String, Vec<(String, String)>)>,
    /// Per application, `(file, text)` as read.
    #[serde(skip)]
    pub read: Vec<(String, Vec<(String, String)>)>,
    /// The findings before any fix, of every application, in order.
    #[serde(skip)]
    pub causes: Vec<Cause>,
    /// The plan scenarios checked in this run, by content: a re-check checks again only the
    /// plan scenarios a candidate changed.
    #[serde(skip)]
    pub checked: Checked,
}

impl Fixes {
    /// The verified fix that removes a finding of the check before the fixes: its own, or the
    /// earlier fix of its application that removed it too; `None` where it has none.
    pub fn of(&self, cause: &Cause) -> Option<&Fix> {
        let k = key(cause);
        let app = &cause.shown.application;
        self.fixes
            .iter()
            .filter(|f| &f.application == app)
            .find(|f| f.finding == k)
            .or_else(|| {
                self.fixes
                    .iter()
                    .filter(|f| &f.application == app)
                    .find(|f| f.also_removes.contains(&k))
            })
    }

    /// Why a finding of the check before the fixes has no verified fix; `None` where it has one.
    pub fn unfixed(&self, cause: &Cause) -> Option<&NoFix> {
        let k = key(cause);
        self.unfixed
            .iter()
            .find(|n| n.application == cause.shown.application && n.finding == k)
    }

    /// The fixes of an application found before `fix` (each verified with those before it
    /// made, as `fix` was).
    pub fn before(&self, fix: &Fix) -> Vec<&Fix> {
        self.fixes
            .iter()
            .take_while(|f| !std::ptr::eq(*f, fix))
            .filter(|f| f.application == fix.application)
            .collect()
    }
}

/// The findings of one application's files under `opts`' plans: its causes, whether every
/// plan scenario was complete, and the scenarios' count and states.
pub fn check_sources(
    app: &Application,
    opts: &FixOptions,
) -> Result<(Vec<Cause>, bool, usize, usize), Error> {
    check_sources_cached(app, opts, &mut Checked::default())
}

/// The plan scenarios checked so far in a run of `fix`, each by its exact content, with what
/// its check found: a candidate that changes one workload leaves the other plan scenarios as
/// they were (each is cut down to its cone of influence, `podcheck_input::cone`), and those
/// are not checked again. The key is the whole scenario as checked (serialized), with the
/// application, the plan, the properties and the check options: the model is deterministic,
/// so the same key gives the same verdicts, states and traces. Only complete checks are kept
/// (one stopped at a bound may go further on another run).
#[derive(Clone, Debug, Default)]
pub struct Checked {
    results: std::collections::HashMap<String, (usize, Vec<crate::Finding>)>,
    /// Plan scenarios checked, and those whose result was taken from an earlier check.
    pub checked: usize,
    pub reused: usize,
}

/// [`check_sources`], taking each plan scenario's result from `cache` where the same
/// scenario was checked before with the same properties and options.
pub fn check_sources_cached(
    app: &Application,
    opts: &FixOptions,
    cache: &mut Checked,
) -> Result<(Vec<Cause>, bool, usize, usize), Error> {
    let reading = read_application(app)?;
    let base = crate::resized_reading(&reading, opts.size, &app.name)?;
    let mut plans: Vec<Plan> = if opts.plans.is_empty() {
        Plan::ALL.to_vec()
    } else {
        opts.plans.clone()
    };
    plans.sort_by_key(|p| crate::CHECK_ORDER.iter().position(|q| q == p));
    let (planned, _) = planned(
        &app.name,
        &base,
        &reading.services,
        &plans,
        &reading.plans,
        opts.size.no_cone,
    );
    let mut found = Vec::new();
    let mut complete = true;
    let mut states = 0;
    for p in &planned {
        let defs = properties_of(&p.scenario, &[])?;
        let names: Vec<&str> = defs.iter().map(|d| d.name).collect();
        let scenario = serde_json::to_string(&p.scenario).map_err(|e| Error(e.to_string()))?;
        let key = format!(
            "{}\n{}\n{names:?}\n{:?}\n{scenario}",
            p.application,
            p.plan.name(),
            opts.options
        );
        if let Some((n, f)) = cache.results.get(&key) {
            cache.reused += 1;
            states += n;
            found.extend(f.iter().cloned());
            continue;
        }
        let r = check::check_with(&p.scenario, &defs, &opts.options).map_err(Error)?;
        cache.checked += 1;
        complete &= r.complete;
        states += r.unique_states;
        let (f, _) = findings(p, &r, TraceFormat::Text)?;
        if r.complete {
            cache.results.insert(key, (r.unique_states, f.clone()));
        }
        found.extend(f);
    }
    Ok((causes(&found), complete, planned.len(), states))
}

/// The fixes of the applications at `paths` (as `podcheck check -f` reads them).
pub fn fixes(paths: &[String], opts: &FixOptions) -> Result<Fixes, Error> {
    fixes_of(&crate::applications(paths)?.apps, opts)
}

/// The fixes of applications already read.
pub fn fixes_of(apps: &[Application], opts: &FixOptions) -> Result<Fixes, Error> {
    let mut out = Fixes {
        complete: true,
        ..Fixes::default()
    };
    for app in apps {
        if interrupted() {
            out.complete = false;
            break;
        }
        fix_application(app, opts, &mut out)?;
    }
    Ok(out)
}

/// Whether the run was interrupted (Ctrl-C, SIGTERM, SIGHUP).
fn interrupted() -> bool {
    podcheck_properties::progress::interrupts() > 0
}

/// A candidate's changes made and the application checked again.
struct Rechecked {
    changed: Application,
    after: Vec<Cause>,
    remaining: Vec<String>,
    added: Vec<String>,
    complete: bool,
    scenarios: usize,
    states: usize,
}

/// `cand` made on `current` and the result checked again; `Err` says why it could not be.
fn recheck(
    current: &Application,
    cand: &Candidate,
    opts: &FixOptions,
    now: &[String],
    cache: &mut Checked,
) -> Result<Rechecked, String> {
    let changed = apply(current, cand).map_err(|e| format!("not made: {e}"))?;
    let (after, complete, scenarios, states) = check_sources_cached(&changed, opts, cache)
        .map_err(|e| format!("the changed files are refused: {}", e.0))?;
    let remaining: Vec<String> = after.iter().map(key).collect();
    let added = remaining
        .iter()
        .filter(|r| !now.contains(r))
        .cloned()
        .collect();
    Ok(Rechecked {
        changed,
        after,
        remaining,
        added,
        complete,
        scenarios,
        states,
    })
}

/// Why a re-check does not verify a candidate for finding `k`, or `None` when it does.
fn not_verified(t: &Rechecked, k: &str) -> Option<String> {
    if !t.complete {
        Some(
            "the re-check stopped at a bound before it was complete, so it verifies nothing".into(),
        )
    } else if t.remaining.iter().any(|r| r == k) {
        Some("the finding is still there".into())
    } else if !t.added.is_empty() {
        Some(format!("adds {}", t.added.join(", ")))
    } else {
        None
    }
}

/// How many of a finding's candidates that failed are tried again combined with the first
/// candidates of the findings they left or added.
pub const COMBINED_TRIES: usize = 2;

/// A candidate `cand` whose re-check `t` left finding `k` or added findings, combined with the
/// first candidate of each finding that stood in its way: each finding the re-check added,
/// and each it left about the same workload as `cause` (one level: those candidates' own
/// findings are not followed). `None` where none of them has a candidate.
fn combined(cause: &Cause, k: &str, cand: &Candidate, t: &Rechecked) -> Option<Candidate> {
    let workload = &cause.shown.about.workload;
    let reading = read_application(&t.changed).ok()?;
    let mut parts: Vec<Candidate> = Vec::new();
    for c in &t.after {
        let ck = key(c);
        let in_the_way = t.added.contains(&ck) || c.shown.about.workload == *workload;
        if ck == k || c.hazard.is_some() || !in_the_way {
            continue;
        }
        let Some(first) = candidates(c, &t.changed, &reading).into_iter().next() else {
            continue;
        };
        // Two findings with the same first candidate (two preStop findings): made once.
        if !parts.iter().any(|p| p.changes == first.changes) {
            parts.push(first);
        }
    }
    if parts.is_empty() {
        return None;
    }
    // The edits are made by path (`edit::apply` reads the text again), so the parts, found on
    // the files with `cand` made, follow its changes.
    let mut changes = cand.changes.clone();
    for p in &parts {
        changes.extend(p.changes.iter().cloned());
    }
    let with: Vec<String> = parts.iter().map(|p| p.what.clone()).collect();
    let why: Vec<String> = parts
        .iter()
        .map(|p| format!("{}: {} ({})", p.what, p.why, p.source))
        .collect();
    Some(Candidate {
        what: format!("{}, together with {}", cand.what, with.join(" and ")),
        source: cand.source,
        why: format!(
            "{}; alone it did not pass the re-check, which left or added the findings the changes with it remove. Together with {}",
            cand.why,
            why.join("; ")
        ),
        changes,
    })
}

/// The fixes of one application, added to `out`.
pub fn fix_application(app: &Application, opts: &FixOptions, out: &mut Fixes) -> Result<(), Error> {
    let (before, complete, _, _) = check_sources_cached(app, opts, &mut out.checked)?;
    out.complete &= complete;
    out.findings += before.len();
    out.causes.extend(before.iter().cloned());
    out.read.push((app.name.clone(), app.sources.clone()));
    let mut current = app.clone();
    // The findings of the files as they are now.
    let mut now: Vec<String> = before.iter().map(key).collect();
    for cause in &before {
        let k = key(cause);
        let under: Vec<String> = cause.under.iter().map(|u| u.scenario.clone()).collect();
        // After a Ctrl-C (or SIGTERM, SIGHUP) no candidate is tried: every check from now on
        // would stop before it started, and a fix is shown only after a complete re-check.
        if interrupted() {
            out.complete = false;
            out.unfixed.push(NoFix {
                application: app.name.clone(),
                finding: k,
                under,
                why: format!(
                    "not tried: interrupted ({}) before its candidates were checked",
                    podcheck_properties::progress::interrupted_by()
                ),
                tried: Vec::new(),
                operator_hazard: false,
            });
            continue;
        }
        if let Some(instead) = cause.hazard {
            out.unfixed.push(NoFix {
                application: app.name.clone(),
                finding: k,
                under,
                why: format!("an operator hazard: no manifest change prevents it, only the operator can. Instead: {instead}."),
                tried: Vec::new(),
                operator_hazard: true,
            });
            continue;
        }
        if !now.contains(&k) {
            // Removed by an earlier fix of this application (listed in its `also_removes`).
            continue;
        }
        let reading = read_application(&current)?;
        let cands = candidates(cause, &current, &reading);
        let mut tried = Vec::new();
        if cands.is_empty() {
            out.unfixed.push(NoFix {
                application: app.name.clone(),
                finding: k,
                under,
                why: no_fix_why(&cause.shown.property),
                tried,
                operator_hazard: false,
            });
            continue;
        }
        let mut passed: Option<(Candidate, Rechecked)> = None;
        // Complete re-checks that left the finding or added one: tried again combined.
        let mut failed: Vec<(Candidate, Rechecked)> = Vec::new();
        for cand in cands {
            if interrupted() {
                out.complete = false;
                tried.push(format!(
                    "{}: not checked: interrupted ({})",
                    cand.what,
                    podcheck_properties::progress::interrupted_by()
                ));
                break;
            }
            let t = match recheck(&current, &cand, opts, &now, &mut out.checked) {
                Ok(t) => t,
                Err(why) => {
                    tried.push(format!("{}: {why}", cand.what));
                    continue;
                }
            };
            match not_verified(&t, &k) {
                None => {
                    passed = Some((cand, t));
                    break;
                }
                Some(why) => {
                    tried.push(format!("{}: {why}", cand.what));
                    if t.complete {
                        failed.push((cand, t));
                    }
                }
            }
        }
        if passed.is_none() {
            for (cand, t) in failed.iter().take(COMBINED_TRIES) {
                if interrupted() {
                    out.complete = false;
                    break;
                }
                let Some(both) = combined(cause, &k, cand, t) else {
                    continue;
                };
                let t = match recheck(&current, &both, opts, &now, &mut out.checked) {
                    Ok(t) => t,
                    Err(why) => {
                        tried.push(format!("{}: {why}", both.what));
                        continue;
                    }
                };
                match not_verified(&t, &k) {
                    None => {
                        passed = Some((both, t));
                        break;
                    }
                    Some(why) => tried.push(format!("{}: {why}", both.what)),
                }
            }
        }
        let Some((cand, t)) = passed else {
            out.unfixed.push(NoFix {
                application: app.name.clone(),
                finding: k,
                under,
                why: "no candidate passed the re-check (each tried is listed)".into(),
                tried,
                operator_hazard: false,
            });
            continue;
        };
        let also: Vec<String> = now
            .iter()
            .filter(|n| **n != k && !t.remaining.contains(n))
            .cloned()
            .collect();
        let diffs = app
            .sources
            .iter()
            .zip(current.sources.iter().zip(&t.changed.sources))
            .filter(|(_, (a, b))| a.1 != b.1)
            .map(|((_, read), ((name, old), (_, new)))| {
                let shown = if name == "-" {
                    "<stdin>"
                } else {
                    name.as_str()
                };
                FileDiff {
                    file: shown.to_string(),
                    diff: edit::unified_diff(
                        &format!("a/{}", shown.trim_start_matches('/')),
                        &format!("b/{}", shown.trim_start_matches('/')),
                        old,
                        new,
                    ),
                    replaced: edit::replaced_lines(old, new),
                    against_read: edit::replaced_lines_since(read, old, new),
                }
            })
            .collect();
        out.fixes.push(Fix {
            application: app.name.clone(),
            finding: k.clone(),
            under: under.clone(),
            also_removes: also,
            what: cand.what.clone(),
            source: cand.source,
            why: cand.why.clone(),
            tried: std::mem::take(&mut tried),
            diffs,
            recheck: Recheck {
                scenarios: t.scenarios,
                states: t.states,
                complete: t.complete,
                remaining: t.remaining.clone(),
                added: t.added,
            },
        });
        now = t.remaining;
        current = t.changed;
    }
    // A finding without a fix of its own that a later fix removed is that fix's.
    out.unfixed
        .retain(|n| n.application != app.name || n.operator_hazard || now.contains(&n.finding));
    out.files.push((app.name.clone(), current.sources));
    Ok(())
}

/// Why a finding has no candidate.
fn no_fix_why(property: &str) -> String {
    format!(
        "podcheck has no manifest repair for `{property}` (docs/fixes.md lists the repairs): the trace shows the run that breaks it, and {}",
        crate::about::fix(property).help
    )
}

/// The application with a candidate's changes made.
pub fn apply(app: &Application, cand: &Candidate) -> Result<Application, String> {
    let mut out = app.clone();
    for (i, ch) in &cand.changes {
        let (name, text) = out
            .sources
            .get_mut(*i)
            .ok_or_else(|| format!("no file {i}"))?;
        *text = match ch {
            FileChange::Edit(e) => edit::apply(text, e).map_err(|m| format!("{name}: {m}"))?,
            FileChange::Append(doc) => {
                let mut t = text.clone();
                if !t.is_empty() && !t.ends_with('\n') {
                    t.push('\n');
                }
                t.push_str("---\n");
                t.push_str(doc);
                t
            }
        };
    }
    Ok(out)
}

/// A workload's document in an application's files.
struct Doc {
    file: usize,
    doc: usize,
    tree: Tree,
    kind: String,
}

impl Doc {
    /// The pod template's spec and metadata paths.
    fn pod(&self) -> (&'static str, &'static str) {
        if self.kind == "Pod" {
            ("spec", "metadata")
        } else {
            ("spec.template.spec", "spec.template.metadata")
        }
    }
    fn get(&self, path: &str) -> Option<&Tree> {
        get(&self.tree, path)
    }
    fn set(&self, path: String, v: Value) -> (usize, FileChange) {
        (
            self.file,
            FileChange::Edit(Edit {
                doc: self.doc,
                path,
                change: Change::Set(v),
            }),
        )
    }
    fn int(&self, path: &str) -> Option<i64> {
        match self.get(path).map(|t| &t.node) {
            Some(Node::Int(i)) => Some(*i),
            _ => None,
        }
    }
    fn strings(&self, path: &str) -> Vec<String> {
        match self.get(path).map(|t| &t.node) {
            Some(Node::Seq(items)) => items
                .iter()
                .map(|t| match &t.node {
                    Node::Str(s) => s.clone(),
                    Node::Int(i) => i.to_string(),
                    _ => String::new(),
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The node at `path` of `t`.
fn get<'a>(t: &'a Tree, path: &str) -> Option<&'a Tree> {
    let mut here = t;
    for seg in edit::parse_path(path).ok()? {
        here = match (&here.node, seg) {
            (Node::Map(_), Seg::Key(k)) => here.get(&k)?,
            (Node::Seq(items), Seg::Index(i)) => items.get(i)?,
            _ => return None,
        };
    }
    Some(here)
}

const WORKLOAD_KINDS: [&str; 6] = [
    "Pod",
    "Deployment",
    "ReplicaSet",
    "ReplicationController",
    "StatefulSet",
    "Job",
];

/// Every document of the application's files, with its file and index.
fn documents(app: &Application) -> Vec<(usize, usize, Tree)> {
    let mut out = Vec::new();
    for (f, (_, text)) in app.sources.iter().enumerate() {
        if let Ok(docs) = tree::documents(text) {
            out.extend(docs.into_iter().enumerate().map(|(d, t)| (f, d, t)));
        }
    }
    out
}

fn workload_doc(app: &Application, name: &str) -> Option<Doc> {
    documents(app).into_iter().find_map(|(file, doc, tree)| {
        let kind = tree.get("kind").and_then(Tree::str)?.to_string();
        let named = get(&tree, "metadata.name").and_then(Tree::str) == Some(name);
        (named && WORKLOAD_KINDS.contains(&kind.as_str())).then_some(Doc {
            file,
            doc,
            tree,
            kind,
        })
    })
}

/// The PodDisruptionBudgets whose `matchLabels` the workload's pods carry.
fn budgets_of(app: &Application, w: &Doc) -> Vec<Doc> {
    let labels = |t: &Tree| -> Vec<(String, String)> {
        match t.node {
            Node::Map(ref m) => m
                .iter()
                .filter_map(|(k, _, v)| v.str().map(|s| (k.clone(), s.to_string())))
                .collect(),
            _ => Vec::new(),
        }
    };
    let (_, meta) = w.pod();
    let pod_labels = w
        .get(&format!("{meta}.labels"))
        .map(labels)
        .unwrap_or_default();
    documents(app)
        .into_iter()
        .filter_map(|(file, doc, tree)| {
            let kind = tree.get("kind").and_then(Tree::str)?.to_string();
            if kind != "PodDisruptionBudget" {
                return None;
            }
            let sel = get(&tree, "spec.selector.matchLabels").map(labels)?;
            (!sel.is_empty() && sel.iter().all(|l| pod_labels.contains(l))).then_some(Doc {
                file,
                doc,
                tree,
                kind,
            })
        })
        .collect()
}

/// How many seconds longer than the lag a preStop sleep is tried, at most.
pub const SLEEP_TRIES: i64 = 4;

/// The candidates for a finding, in the order they are tried.
pub fn candidates(
    cause: &Cause,
    app: &Application,
    reading: &podcheck_input::manifest::Reading,
) -> Vec<Candidate> {
    let f = &cause.shown;
    let Some(workload) = &f.about.workload else {
        return Vec::new();
    };
    let Some(w) = workload_doc(app, workload) else {
        return Vec::new();
    };
    let (pod, meta) = w.pod();
    // The container: the one the finding names, else the first.
    let containers = w.strings_named(&format!("{pod}.containers"));
    let ci = f
        .about
        .container
        .as_ref()
        .and_then(|c| containers.iter().position(|n| n == c))
        .unwrap_or(0);
    let cp = format!("{pod}.containers[{ci}]");
    let lag = reading
        .services
        .iter()
        .filter(|s| s.spec.selects.iter().any(|n| n == workload))
        .map(|s| i64::from(s.proxy_lag_seconds))
        .max()
        .unwrap_or(3);
    let release = reading
        .scenario
        .release()
        .unwrap_or(podcheck_input::spec::Release::NEWEST);
    let grace = w
        .int(&format!("{pod}.terminationGracePeriodSeconds"))
        .unwrap_or(30);
    let mut out = Vec::new();
    match f.property.as_str() {
        "no_request_to_stopped_container"
        | "deleted_pod_unrouted_before_sigterm"
        | "endpoint_ready_implies_serving_not_terminating" => {
            out.extend(pre_stop(&w, &cp, pod, lag, grace, release));
        }
        "rollout_serving_endpoints_within_unavailable" => {
            for s in lag + 1..=lag + 3 {
                out.push(Candidate {
                    what: format!("spec.minReadySeconds: {s} (lag {lag} s, margin {} s)", s - lag),
                    source: "Kubernetes docs, Deployments, \"Min Ready Seconds\"; deployment_util.go IsPodAvailable",
                    why: format!("the Deployment counts a new pod available only {s} s after it is Ready, by when every kube-proxy ({lag} s behind the EndpointSlice) routes to it, so the old pods are scaled down only once the new ones serve"),
                    changes: vec![w.set("spec.minReadySeconds".into(), Value::int(s))],
                });
            }
            out.extend(pre_stop(&w, &cp, pod, lag, grace, release));
        }
        "graceful_stop_within_grace"
        | "deleted_pod_gone_within_grace"
        | "deleted_pod_gone_within_a_second_of_sigterm" => {
            out.extend(exec_in_shell(&w, &cp));
            // The container as read: how long its program takes to stop after SIGTERM
            // (`podcheck.dev/stop-seconds`), and its preStop hook's length.
            let read = reading
                .scenario
                .workloads
                .iter()
                .find(|x| x.name() == workload)
                .and_then(|x| {
                    x.template()
                        .containers
                        .iter()
                        .find(|c| Some(&c.name) == containers.get(ci))
                });
            let stop = read.map(|c| c.app.on_sigterm.stop_seconds());
            let pre = read
                .and_then(|c| c.lifecycle.as_ref())
                .and_then(|l| l.pre_stop.as_ref())
                .map_or(0, |p| i64::from(p.sleep.seconds));
            // The grace that covers the hook and the program's own shutdown, with a margin of
            // 1 to 3 s. A program that ignores SIGTERM stops only at SIGKILL, so a longer grace
            // only delays it (the fix is the `exec` above, or a program that handles SIGTERM);
            // one that stops at once within a grace that already covers its hook has nothing a
            // longer grace would change. No multiple of the grace is guessed: a candidate is
            // tried only where the manifest says how long the stop takes.
            let tries: Vec<(i64, String)> = match stop {
                Some(Some(s)) => (1..=3)
                    .map(|m| (pre + i64::from(s) + m, m))
                    .filter(|(g, _)| *g > grace)
                    .map(|(g, m)| {
                        let mut parts = Vec::new();
                        if pre > 0 {
                            parts.push(format!("preStop {pre} s"));
                        }
                        if s > 0 {
                            parts.push(format!("the program's {s} s shutdown"));
                        }
                        (g, format!("{}, margin {m} s", parts.join(" + ")))
                    })
                    .filter(|_| pre > 0 || s > 0)
                    .collect(),
                _ => Vec::new(),
            };
            for (g, cover) in tries {
                let what = format!("terminationGracePeriodSeconds: {g} (was {grace}; {cover})");
                out.push(Candidate {
                    what,
                    source: "Kubernetes docs, Pod Lifecycle, \"Termination of Pods\"; kuberuntime_container.go killContainer",
                    why: format!("the kubelet runs the preStop hook, sends SIGTERM and sends SIGKILL when terminationGracePeriodSeconds have passed since the kill began: {g} s covers the hook and the program's own shutdown"),
                    changes: vec![w.set(format!("{pod}.terminationGracePeriodSeconds"), Value::int(g))],
                });
            }
        }
        "no_restart_while_healthy"
        | "deadlock_killed_within_failure_threshold_periods"
        | "probe_kill_within_probe_grace" => {
            out.extend(liveness(&w, &cp, meta));
        }
        "no_request_finds_no_endpoints" => {
            let replicas = w.int("spec.replicas").unwrap_or(1);
            if replicas == 1 && w.kind != "Pod" && w.kind != "Job" {
                let mut changes = vec![w.set("spec.replicas".into(), Value::int(2))];
                let have_budget = !budgets_of(app, &w).is_empty();
                if !have_budget {
                    if let Some(labels) = w.get(&format!("{meta}.labels")) {
                        let sel: Vec<String> = match &labels.node {
                            Node::Map(m) => m
                                .iter()
                                .filter_map(|(k, _, v)| {
                                    v.str().map(|s| format!("{}: {}", k, flow_str(s)))
                                })
                                .collect(),
                            _ => Vec::new(),
                        };
                        if !sel.is_empty() {
                            changes.push((w.file, FileChange::Append(format!(
                                "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {workload}\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels: {{{}}}\n",
                                sel.join(", ")
                            ))));
                        }
                    }
                }
                out.push(Candidate {
                    what: format!(
                        "replicas: 2{}",
                        if have_budget { "" } else { " and a PodDisruptionBudget with minAvailable: 1" }
                    ),
                    source: "Kubernetes docs, \"Specifying a Disruption Budget for your Application\"; disruption.go updatePdbStatus",
                    why: "with two replicas one pod can go (deleted, evicted, on a failed node) while the other stays Ready behind the Service, and the budget keeps voluntary evictions from taking both at once".into(),
                    changes,
                });
            }
            out.extend(pre_stop(&w, &cp, pod, lag, grace, release));
        }
        "eviction_respects_budget"
        | "drain_completes"
        | "drain_breaks_budget"
        | "unready_pod_evicted_only_within_budget" => {
            let replicas = w.int("spec.replicas").unwrap_or(1);
            for b in budgets_of(app, &w) {
                let bfile = b.file;
                let bdoc = b.doc;
                if let Some(min) = b.get("spec.minAvailable") {
                    out.push(Candidate {
                        what: "the PodDisruptionBudget's minAvailable replaced by maxUnavailable: 1".into(),
                        source: "Kubernetes docs, \"Specifying a Disruption Budget for your Application\"; disruption.go updatePdbStatus, eviction.go checkAndDecrement",
                        why: "maxUnavailable: 1 lets one pod be evicted at a time whatever the replicas, and the next once its replacement is Ready; it keeps working when the workload is scaled, where minAvailable must follow replicas by hand".into(),
                        changes: vec![(
                            bfile,
                            FileChange::Edit(Edit {
                                doc: bdoc,
                                path: "spec.minAvailable".into(),
                                change: Change::Replace("maxUnavailable".into(), Value::int(1)),
                            }),
                        )],
                    });
                    if let Node::Int(m) = min.node {
                        if m >= replicas && w.kind != "Pod" {
                            out.push(Candidate {
                                what: format!("replicas: {} (minAvailable {m})", m + 1),
                                source: "Kubernetes docs, \"Specifying a Disruption Budget for your Application\"; disruption.go updatePdbStatus",
                                why: format!("with {} replicas and minAvailable {m}, disruptionsAllowed is 1, so the Eviction API lets a drain evict one pod at a time; it costs a replica, where maxUnavailable costs none", m + 1),
                                changes: vec![w.set("spec.replicas".into(), Value::int(m + 1))],
                            });
                        }
                    }
                } else if b.int("spec.maxUnavailable") == Some(0) {
                    out.push(Candidate {
                        what: "the PodDisruptionBudget's maxUnavailable: 1 (was 0)".into(),
                        source: "Kubernetes docs, \"Specifying a Disruption Budget for your Application\"; eviction.go checkAndDecrement",
                        why: "maxUnavailable 0 refuses every eviction; 1 lets a drain evict one pod at a time".into(),
                        changes: vec![(bfile, FileChange::Edit(Edit { doc: bdoc, path: "spec.maxUnavailable".into(), change: Change::Set(Value::int(1)) }))],
                    });
                }
            }
        }
        "job_fails_only_after_backoff_limit_plus_one_failures" => {
            // Under a plan that disrupts the Job's pod (a drain's eviction, a node's taint),
            // the failure counted is the disruption's: the podFailurePolicy rule is the fix,
            // where a longer backoffLimit would only hide one disruption more.
            if cause.under.iter().any(|u| u.plan != Plan::Crash) {
                out.extend(ignore_disruptions(&w, pod));
            }
            let rp = w
                .get(&format!("{pod}.restartPolicy"))
                .and_then(Tree::str)
                .unwrap_or("");
            if rp == "OnFailure" {
                out.push(Candidate {
                    what: "restartPolicy: Never (was OnFailure)".into(),
                    source: "Kubernetes docs, Jobs, \"Pod backoff failure policy\"; job_controller.go exceedsBackoffLimit, pastBackoffLimitOnFailure",
                    why: "with Never each failed run is a failed pod and the Job fails only when more than backoffLimit pods have failed; with OnFailure the restarts count and the Job fails one attempt earlier".into(),
                    changes: vec![w.set(format!("{pod}.restartPolicy"), Value::str("Never"))],
                });
            }
            let limit = w.int("spec.backoffLimit").unwrap_or(6);
            out.push(Candidate {
                what: format!("backoffLimit: {} (was {limit})", limit + 1),
                source: "Kubernetes docs, Jobs, \"Pod backoff failure policy\"; job_controller.go pastBackoffLimitOnFailure",
                why: "one more retry before the Job is failed, the attempt that restartPolicy OnFailure takes away".into(),
                changes: vec![w.set("spec.backoffLimit".into(), Value::int(limit + 1))],
            });
        }
        p if p.starts_with("job_") => out.extend(ignore_disruptions(&w, pod)),
        _ => {}
    }
    out
}

impl Doc {
    /// The `name` of each item of the sequence at `path`.
    fn strings_named(&self, path: &str) -> Vec<String> {
        match self.get(path).map(|t| &t.node) {
            Some(Node::Seq(items)) => items
                .iter()
                .map(|t| t.get("name").and_then(Tree::str).unwrap_or("").to_string())
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A `podFailurePolicy` rule that ignores pods failed by a disruption, for a Job without a
/// policy (with `restartPolicy: Never`, which the policy requires).
fn ignore_disruptions(w: &Doc, pod: &str) -> Option<Candidate> {
    if w.kind != "Job" || w.get("spec.podFailurePolicy").is_some() {
        return None;
    }
    let mut changes = Vec::new();
    if w.get(&format!("{pod}.restartPolicy")).and_then(Tree::str) != Some("Never") {
        changes.push(w.set(format!("{pod}.restartPolicy"), Value::str("Never")));
    }
    changes.push(w.set(
        "spec.podFailurePolicy".into(),
        Value::map([(
            "rules",
            Value::Seq(vec![Value::map([
                ("action", Value::str("Ignore")),
                (
                    "onPodConditions",
                    Value::Seq(vec![Value::map([("type", Value::str("DisruptionTarget"))])]),
                ),
            ])]),
        )]),
    ));
    Some(Candidate {
        what: "a podFailurePolicy rule that ignores pods failed by a disruption (DisruptionTarget)".into(),
        source: "Kubernetes docs, Jobs, \"Pod failure policy\" (KEP-3329); job_controller.go, getPodFailurePolicyAction",
        why: "a pod that fails because it was disrupted (evicted, preempted, its node gone) carries the DisruptionTarget condition; the Ignore rule does not count it against backoffLimit, so a disruption no longer fails the Job (the rule needs restartPolicy Never)".into(),
        changes,
    })
}

/// A string in flow style.
fn flow_str(s: &str) -> String {
    Value::str(s).flow()
}

/// preStop sleeps `lag + 1`, `lag + 2`, … in order, each raising the grace period where it
/// would not cover the sleep.
fn pre_stop(
    w: &Doc,
    cp: &str,
    pod: &str,
    lag: i64,
    grace: i64,
    release: podcheck_input::spec::Release,
) -> Vec<Candidate> {
    let existing = w.int(&format!("{cp}.lifecycle.preStop.sleep.seconds"));
    if w.get(&format!("{cp}.lifecycle.preStop")).is_some() && existing.is_none() {
        // A hook of another kind: what it does is the user's, not replaced here.
        return Vec::new();
    }
    let from = existing.map_or(lag + 1, |e| (e + 1).max(lag + 1));
    let sleep_action = release.at_least(30);
    let mut out = Vec::new();
    for s in from..=lag + SLEEP_TRIES {
        let mut changes = Vec::new();
        if existing.is_some() {
            changes.push(w.set(
                format!("{cp}.lifecycle.preStop.sleep.seconds"),
                Value::int(s),
            ));
        } else if sleep_action {
            changes.push(w.set(
                format!("{cp}.lifecycle.preStop"),
                Value::map([("sleep", Value::map([("seconds", Value::int(s))]))]),
            ));
        } else {
            changes.push(w.set(
                format!("{cp}.lifecycle.preStop"),
                Value::map([(
                    "exec",
                    Value::map([(
                        "command",
                        Value::Seq(vec![Value::str("sleep"), Value::str(&s.to_string())]),
                    )]),
                )]),
            ));
        }
        let mut raised = String::new();
        if s >= grace {
            let g = s + 30;
            changes.push(w.set(
                format!("{pod}.terminationGracePeriodSeconds"),
                Value::int(g),
            ));
            raised = format!(", terminationGracePeriodSeconds {g} (was {grace})");
        }
        let how = if sleep_action {
            "sleep"
        } else {
            "exec sleep (the image needs a `sleep` binary; the sleep action needs 1.30, PodLifecycleSleepAction)"
        };
        out.push(Candidate {
            what: format!(
                "preStop {how} {s} s (kube-proxy lag {lag} s, margin {} s){raised}",
                s - lag
            ),
            source: "Kubernetes docs, Pod Lifecycle, \"Termination of Pods\" and container hooks (sleep action: KEP-3960); kubernetes#43576",
            why: format!("the kubelet runs the preStop hook before SIGTERM while the pod, already out of the EndpointSlice's ready endpoints, keeps serving; after {s} s every kube-proxy ({lag} s behind) has stopped routing to it, and the hook's time counts against the grace period"),
            changes,
        });
    }
    out
}

/// `exec` in front of a lone command run by `sh -c` (or `bash -c`), which otherwise may keep
/// the shell as PID 1 and lose SIGTERM.
fn exec_in_shell(w: &Doc, cp: &str) -> Vec<Candidate> {
    let command = w.strings(&format!("{cp}.command"));
    let args = w.strings(&format!("{cp}.args"));
    if !podcheck_input::manifest::shell_wrapper_without_exec(&command, &args) {
        return Vec::new();
    }
    let all: Vec<&String> = command.iter().chain(args.iter()).collect();
    let Some(c) = all
        .iter()
        .position(|a| a.starts_with('-') && a.contains('c'))
    else {
        return Vec::new();
    };
    let Some(script) = all.get(c + 1) else {
        return Vec::new();
    };
    // `exec` in front of a list would exec its first command and drop the rest.
    if script.contains([';', '&', '|', '\n', '`', '(']) || script.trim_start().starts_with("exec ")
    {
        return Vec::new();
    }
    let (list, i) = if c + 1 < command.len() {
        ("command", c + 1)
    } else {
        ("args", c + 1 - command.len())
    };
    vec![Candidate {
        what: format!("`exec {}` under the shell", script.trim()),
        source: "Kubernetes docs, Pod Lifecycle, \"Termination of Pods\" (SIGTERM to PID 1); kubernetes#127188",
        why: "exec replaces the shell with the program, so the program is PID 1 and gets the runtime's SIGTERM itself; a shell as PID 1 neither forwards it nor stops on it".into(),
        changes: vec![w.set(
            format!("{cp}.{list}[{i}]"),
            Value::str(&format!("exec {}", script.trim())),
        )],
    }]
}

/// A liveness probe that checks the process, not the dependency; else a failure threshold
/// that outlasts the plan's outage.
fn liveness(w: &Doc, cp: &str, meta: &str) -> Vec<Candidate> {
    let mut out = Vec::new();
    let note = format!("{meta}.annotations[podcheck.dev/probe-checks-dependency]");
    if let Some(v) = w.get(&note).and_then(Tree::str) {
        let kept: Vec<&str> = v
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty() && *p != "liveness")
            .collect();
        if kept.len() < v.split(',').count() {
            let new = if kept.is_empty() {
                "none".to_string()
            } else {
                kept.join(",")
            };
            out.push(Candidate {
                what: format!("the liveness probe checks the process only (podcheck.dev/probe-checks-dependency: {new}); change the probe's endpoint to match, such as /livez answered by the process without calling the dependency"),
                source: "Kubernetes docs, \"Configure Liveness, Readiness and Startup Probes\"; kuberuntime_manager.go computePodActions",
                why: "the kubelet restarts a container whose liveness probe fails, whatever the cause; a probe that asks the dependency restarts every healthy replica when it is down, while a readiness probe that asks it only takes them out of the endpoints".into(),
                changes: vec![w.set(note.clone(), Value::str(&new))],
            });
        }
    }
    if w.get(&format!("{cp}.livenessProbe")).is_some() {
        let period = w
            .int(&format!("{cp}.livenessProbe.periodSeconds"))
            .unwrap_or(10);
        let outage = i64::from(podcheck_input::plan::OUTAGE_SECONDS);
        // failureThreshold failures in a row span (failureThreshold − 1) periods, from the
        // first to the last: a probe at the outage's first instant and one at its last both
        // fail, so the span must be longer than the outage.
        let ft = outage / period.max(1) + 2;
        for t in [ft, ft + 1] {
            out.push(Candidate {
                what: format!("livenessProbe.failureThreshold: {t} ({} × {period} s from the first failure to the {t}th outlast the plan's {outage} s outage)", t - 1),
                source: "Kubernetes docs, \"Configure Liveness, Readiness and Startup Probes\" (failureThreshold, periodSeconds); prober/worker.go",
                why: format!("the kubelet restarts the container only after failureThreshold failures in a row, {period} s apart: from the first to the {t}th is {} s, longer than the outage, so the probe passes again first", (t - 1) * period),
                changes: vec![w.set(format!("{cp}.livenessProbe.failureThreshold"), Value::int(t))],
            });
        }
    }
    out
}
