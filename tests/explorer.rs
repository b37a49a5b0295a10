//! `podcheck explore`: the Explorer's HTTP API on a free loopback port, and the page itself in a
//! real headless Chromium (Debian's `chromium`, which `.ci/run` installs). Without Chromium the
//! browser test prints one `skipped:` line and passes, unless `PODCHECK_REQUIRE_BROWSER=1` (set
//! by `.ci/run`), which makes it fail; `PODCHECK_CHROMIUM` names another browser binary.
//!
//! Every process a test starts is stopped by the test: each is held by a guard whose `Drop`
//! kills it (Chromium with its whole process group) and waits for it.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;

use common::bin::command;
use common::dir::TempDir;

const SCENARIO: &str = "termination-race";
/// A `step` property: the counterexample path `podcheck explore` prints. Stateright judges
/// only state properties, so the Explorer does not list it.
const PROPERTY: &str = "no_request_to_stopped_container";
/// An `always` property violated in the scenario: the Explorer lists it, marks it in each
/// state, and its own checker finds its counterexample.
const ALWAYS: &str = "deployment_at_most_replicas_running";

/// A free loopback port: bind port 0, read the port, let it go.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("bind 127.0.0.1:0")
        .port()
}

/// Collects what a pipe says, line by line, on a thread of its own.
fn collect(pipe: impl Read + Send + 'static) -> Arc<Mutex<Vec<String>>> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let out = Arc::clone(&lines);
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            match line {
                Ok(l) => out.lock().unwrap().push(l),
                Err(_) => break,
            }
        }
    });
    lines
}

/// A running `podcheck explore`, killed when dropped.
struct Explorer {
    child: Child,
    port: u16,
    stdout: Arc<Mutex<Vec<String>>>,
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Drop for Explorer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Explorer {
    /// Starts `podcheck explore SCENARIO --addr 127.0.0.1:<free port>` and waits until the
    /// Explorer answers. If another program took the port in between, it tries another.
    fn start() -> Explorer {
        Explorer::start_for(SCENARIO)
    }

    /// Starts `podcheck explore <scenario>`.
    fn start_for(scenario: &str) -> Explorer {
        for _ in 0..3 {
            if let Some(e) = Explorer::try_start(scenario, free_port()) {
                return e;
            }
        }
        panic!("podcheck explore found no free port three times in a row");
    }

    /// Spawns `podcheck explore ARGS` (expected to serve on `port`), collecting its output.
    fn spawn(args: &[&str], port: u16) -> Explorer {
        let mut child = command(&["explore"])
            .args(args)
            // Not the repository: a `ui/` folder in the working directory would replace the
            // Explorer's page.
            .current_dir(env!("CARGO_TARGET_TMPDIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start podcheck explore");
        let stdout = collect(child.stdout.take().unwrap());
        let stderr = collect(child.stderr.take().unwrap());
        Explorer {
            child,
            port,
            stdout,
            stderr,
        }
    }

    fn try_start(scenario: &str, port: u16) -> Option<Explorer> {
        let addr = format!("127.0.0.1:{port}");
        let mut e = Explorer::spawn(&[scenario, "--addr", &addr], port);
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            if let Ok(Some(status)) = e.child.try_wait() {
                std::thread::sleep(Duration::from_millis(100)); // the rest of stderr
                let taken = e
                    .stderr
                    .lock()
                    .unwrap()
                    .iter()
                    .any(|l| l.contains("Another program uses the port"));
                if status.code() == Some(2) && taken {
                    return None;
                }
                panic!(
                    "podcheck explore exited ({status}) before serving:\n{}\n{}",
                    e.stdout.lock().unwrap().join("\n"),
                    e.stderr.lock().unwrap().join("\n")
                );
            }
            let announced = e
                .stdout
                .lock()
                .unwrap()
                .iter()
                .any(|l| l.starts_with("Explorer for "));
            if announced && matches!(e.get("/.status"), Ok((200, _))) {
                return Some(e);
            }
            assert!(
                Instant::now() < deadline,
                "podcheck explore did not answer in time:\n{}",
                e.stderr.lock().unwrap().join("\n")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Asks the Explorer's own checker to explore everything, and waits for its final status.
    fn run_to_completion(&self) -> Value {
        let (code, _) = self.request("POST", "/.runtocompletion").unwrap();
        assert_eq!(code, 200);
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            let st = self.get_json("/.status");
            if st["done"] == true {
                break st;
            }
            assert!(Instant::now() < deadline, "not done: {st}");
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// The first line of stdout that starts with `prefix`, waiting for it (the Explorer serves
    /// before the check that finds the counterexample paths has finished).
    fn wait_line(&mut self, prefix: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            if let Some(l) = self
                .stdout
                .lock()
                .unwrap()
                .iter()
                .find(|l| l.starts_with(prefix))
            {
                return l.clone();
            }
            let exited = self.child.try_wait().ok().flatten();
            assert!(
                exited.is_none() && Instant::now() < deadline,
                "no line `{prefix}…` from podcheck explore ({exited:?}):\n{}\n{}",
                self.stdout.lock().unwrap().join("\n"),
                self.stderr.lock().unwrap().join("\n")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The Explorer URL of the counterexample of PROPERTY, as `podcheck explore` printed it.
    fn counterexample_url(&mut self) -> String {
        let line = self.wait_line(&format!("counterexample of {PROPERTY} "));
        let url = &line[line.find("http://").expect("a URL")..];
        assert!(
            url.starts_with(&format!("http://127.0.0.1:{}/#/steps/0/", self.port)),
            "{url}"
        );
        url.to_string()
    }

    fn request(&self, method: &str, path: &str) -> Result<(u16, String), String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(Duration::from_secs(300)))
            .map_err(|e| e.to_string())?;
        // HTTP/1.0: the answer has a length and the connection closes after it.
        write!(
            s,
            "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\n\r\n",
            self.port
        )
        .map_err(|e| e.to_string())?;
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).map_err(|e| e.to_string())?;
        let text = String::from_utf8(buf).map_err(|e| e.to_string())?;
        let (head, body) = text.split_once("\r\n\r\n").ok_or("no end of header")?;
        let code = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| format!("bad status line: {head}"))?;
        Ok((code, body.to_string()))
    }

    fn get(&self, path: &str) -> Result<(u16, String), String> {
        self.request("GET", path)
    }

    fn get_json(&self, path: &str) -> Value {
        let (code, body) = self.get(path).unwrap();
        assert_eq!(code, 200, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
    }
}

/// The action indices of a `#/steps/…` URL.
fn indices(url: &str) -> Vec<usize> {
    let path = &url[url.find("#/steps/").unwrap() + "#/steps/".len()..];
    path.split('/').map(|i| i.parse().unwrap()).collect()
}

fn join(ix: &[usize]) -> String {
    ix.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join("/")
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("no string `{key}` in {v}"))
}

#[test]
fn explorer_http_api() {
    let mut e = Explorer::start();

    // The status: nothing explored yet, the scenario's properties listed.
    let status = e.get_json("/.status");
    assert_eq!(status["done"], false, "{status}");
    assert!(
        str_of(&status, "model").contains("ExplorerModel"),
        "{status}"
    );
    let props = status["properties"].as_array().unwrap();
    assert!(
        props
            .iter()
            .any(|p| p[0] == "Always" && p[1] == ALWAYS && p[2].is_null()),
        "{status}"
    );
    // Only always and sometimes properties are handed to Stateright: no step, no leads_to.
    assert!(!props.iter().any(|p| p[1] == PROPERTY), "{status}");
    assert!(
        !props
            .iter()
            .any(|p| p[1].as_str().is_some_and(|n| n.contains("leads_to"))),
        "{status}"
    );

    // The initial state.
    let init = e.get_json("/.states");
    let init = init.as_array().unwrap();
    assert_eq!(init.len(), 1);
    assert_eq!(init[0]["actionIndex"], 0);
    assert!(init[0].get("action").is_none());
    assert!(str_of(&init[0], "state").contains("api"));
    assert!(str_of(&init[0], "svg").starts_with("<svg"));

    // Its successors: actions in words, states as text and pictures.
    let next = e.get_json("/.states/0");
    let next = next.as_array().unwrap();
    let create = next
        .iter()
        .find(|s| s["action"] == "replicaset-controller: create pods for Deployment web")
        .unwrap_or_else(|| panic!("no ReplicaSet action in {next:?}"));
    let outcome = str_of(create, "outcome");
    for want in [
        "kubectl get pods",
        "NAME",
        "web-1",
        "Pending",
        "Nodes",
        "node-1",
    ] {
        assert!(outcome.contains(want), "`{want}` not in:\n{outcome}");
    }
    let svg = str_of(create, "svg");
    assert!(svg.starts_with("<svg") && svg.contains("web-1") && svg.contains("node-2"));

    // The counterexample path, step by step: every prefix answers, and every action is words,
    // not a Debug dump.
    let url = e.counterexample_url();
    let ix = indices(&url);
    assert!(ix.len() > 5, "{url}");
    let mut last = Value::Null;
    for k in 1..ix.len() {
        let steps = e.get_json(&format!("/.states/{}", join(&ix[..k])));
        let steps = steps.as_array().unwrap();
        for s in steps {
            let a = str_of(s, "action");
            assert!(!a.contains('{') && !a.contains("Action"), "{a}");
        }
        last = steps
            .iter()
            .find(|s| s["actionIndex"] == ix[k])
            .unwrap_or_else(|| panic!("step {k} of {url}: no action {}", ix[k]))
            .clone();
    }
    let outcome = str_of(&last, "outcome");
    for want in [
        "client: request via kube-proxy@",
        "was refused",
        "kubectl get pods",
        "Terminating",
        "Endpoints",
        "Pending timers",
        "Changes",
        &format!("always {ALWAYS}: "),
    ] {
        assert!(outcome.contains(want), "`{want}` not in:\n{outcome}");
    }
    let svg = str_of(&last, "svg");
    for want in ["<svg", "kube-proxy@node-1", "refused", "Terminating"] {
        assert!(svg.contains(want), "`{want}` not in the SVG");
    }

    // Bad paths answer 404.
    for bad in ["/.states/0/99999", "/.states/x", "/no-such-page"] {
        let (code, _) = e.get(bad).unwrap();
        assert_eq!(code, 404, "GET {bad}");
    }

    // Run to completion: the Explorer's own checker explores the whole state space and
    // finds the counterexample too.
    let status = e.run_to_completion();
    let checked: u64 = e
        .wait_line(&format!("{SCENARIO}: "))
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("podcheck explore prints the number of unique states");
    assert_eq!(
        status["unique_state_count"].as_u64(),
        Some(checked),
        "{status}"
    );
    let found = status["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p[1] == ALWAYS)
        .and_then(|p| p[2].as_str())
        .unwrap_or_else(|| panic!("no discovery of {ALWAYS}: {status}"))
        .to_string();
    let found: Vec<usize> = found.split('/').map(|i| i.parse().unwrap()).collect();
    e.get_json(&format!("/.states/{}", join(&found[..found.len() - 1])));
}

/// Where Chromium is: `$PODCHECK_CHROMIUM` when set (a path to the binary), otherwise Debian's
/// `/usr/bin/chromium`, otherwise `chromium` on the PATH.
fn find_chromium() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("PODCHECK_CHROMIUM") {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("PODCHECK_CHROMIUM={} is not a file", p.display()))
        };
    }
    let fixed = PathBuf::from("/usr/bin/chromium");
    if fixed.is_file() {
        return Ok(fixed);
    }
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join("chromium"))
                .find(|p| p.is_file())
        })
        .ok_or_else(|| "no /usr/bin/chromium and no chromium on the PATH".to_string())
}

/// The browser, or `None` (after one line on stderr) when there is none: the browser test is
/// skipped on a machine without Chromium, unless `PODCHECK_REQUIRE_BROWSER=1` (as `.ci/run`
/// sets), which makes a missing browser a failure.
fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    match find_chromium() {
        Ok(p) => Some(p),
        Err(why) if std::env::var("PODCHECK_REQUIRE_BROWSER").as_deref() == Ok("1") => panic!(
            "PODCHECK_REQUIRE_BROWSER=1 and Chromium not found ({why}). Install Debian's \
             package: apt-get install -y --no-install-recommends chromium"
        ),
        Err(why) => {
            // Straight to the process's stderr, past the test harness's capture, so the skip
            // is seen in a plain `cargo test`.
            let _ = writeln!(
                std::io::stderr(),
                "{test}: skipped: Chromium not found ({why}; set PODCHECK_REQUIRE_BROWSER=1 to make this a failure)"
            );
            None
        }
    }
}

/// A headless Chromium run with a fresh profile, in a process group of its own; dropping it
/// stops the browser and every helper process (zygote, renderers, utilities) it started, then
/// removes its profile.
struct Browser {
    child: Child,
    _profile: TempDir,
}

/// The processes whose process group is `pgid` (from `/proc/PID/stat`).
fn group_members(pgid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // Fields after the command name, which is in parentheses: state ppid pgrp …
        let rest = &stat[stat.rfind(')')? + 2..];
        let pgrp: u32 = rest.split_whitespace().nth(2)?.parse().ok()?;
        (pgrp == pgid).then_some(pid)
    })
    .collect()
}

fn kill_pid(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

impl Drop for Browser {
    fn drop(&mut self) {
        let pgid = self.child.id();
        // The group leader is the browser. While it is alive (not yet reaped) the group is
        // surely ours: kill its members, then the browser.
        if matches!(self.child.try_wait(), Ok(None)) {
            for pid in group_members(pgid) {
                kill_pid(pid);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Helpers leave with the browser; any still in the group after a while are stopped.
        // (A process group id is not reused while the group has a member.)
        let deadline = Instant::now() + Duration::from_secs(5);
        while !group_members(pgid).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        for pid in group_members(pgid) {
            kill_pid(pid);
        }
        // The profile's folder is removed after this, with the field.
    }
}

/// Runs headless Chromium on `url` with `extra` flags; returns what it printed on stdout.
fn run_chromium(browser: &Path, url: &str, extra: &[&str]) -> String {
    use std::os::unix::process::CommandExt;
    // A fresh, empty profile for every run.
    let profile = TempDir::new("chromium");
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
        "--hide-scrollbars",
        "--virtual-time-budget=5000",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .args(extra)
    .arg(url)
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .process_group(0);
    let mut child = cmd.spawn().expect("start chromium");
    let mut stdout = child.stdout.take().unwrap();
    let stderr = collect(child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let mut b = Browser {
        child,
        _profile: profile,
    };
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(st) = b.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            Instant::now() < deadline,
            "chromium did not finish in time:\n{}",
            stderr.lock().unwrap().join("\n")
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    drop(b);
    let out = out.join().unwrap();
    assert!(
        status.success(),
        "chromium failed ({status}):\n{}",
        stderr.lock().unwrap().join("\n")
    );
    out
}

#[test]
fn explorer_in_headless_chromium() {
    let Some(browser) = chromium_or_skip("explorer_in_headless_chromium") else {
        return;
    };
    let mut e = Explorer::start();
    let url = e.counterexample_url();
    let path = join(&indices(&url));

    // The page follows the counterexample to its last step: the path of actions, the
    // readable state, and the picture are all in the DOM.
    let dom = run_chromium(&browser, &url, &["--dump-dom"]);
    for want in [
        format!("#/steps/{path}?offset=0"),
        "Path of Actions".to_string(),
        "client: request via kube-proxy@".to_string(),
        "kubectl get pods".to_string(),
        "was refused".to_string(),
        format!("always {ALWAYS}: "),
        "<svg".to_string(),
        "kube-proxy@node-1".to_string(),
    ] {
        assert!(
            dom.contains(&want),
            "`{want}` not in the DOM that {} rendered for {url}:\n{}",
            browser.display(),
            &dom[..dom.len().min(4000)]
        );
    }

    // A screenshot of the same page (the picture of docs/explorer.md).
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer.png");
    let _ = std::fs::remove_file(&shot);
    run_chromium(
        &browser,
        &url,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1400,1000",
        ],
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 20_000);
    // PODCHECK_UPDATE_SCREENSHOT=1 refreshes the copy in docs/.
    if std::env::var_os("PODCHECK_UPDATE_SCREENSHOT").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
        std::fs::create_dir_all(&docs).unwrap();
        std::fs::write(docs.join("explorer.png"), &png).unwrap();
    }
}

#[test]
fn explore_refuses_bad_input_and_a_busy_port() {
    let run = |args: &[&str]| {
        command(args)
            .current_dir(env!("CARGO_TARGET_TMPDIR"))
            .stdin(Stdio::null())
            .output()
            .expect("run podcheck")
    };
    let out = run(&["explore", "no-such-scenario"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown scenario `no-such-scenario`"));

    let out = run(&["explore", SCENARIO, "--addr", "not an address"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--addr not an address"));

    // A port that is taken: a clear message, before any checking.
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = run(&["explore", SCENARIO, "--addr", &addr]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
    assert!(out.stdout.is_empty());
}

/// Every built-in scenario's first states render: actions in words, the state text, and an
/// SVG whose tags are balanced and whose numbers are finite.
#[test]
fn every_scenario_renders_its_first_states() {
    use podcheck_properties::check;
    use stateright::{Model, Path};
    for scenario in podcheck_input::catalogue::builtin() {
        let defs: Vec<_> = check::selected(&scenario)
            .unwrap()
            .into_iter()
            .filter(|d| d.kind.is_always() || d.kind.is_sometimes())
            .collect();
        let model =
            podcheck_traces::explorer::ExplorerModel::new(check::model(&scenario, &defs, false));
        // Breadth first, the first 200 states, each with the actions that led to it.
        let init = model.init_states().remove(0);
        let mut queue = std::collections::VecDeque::from([(init.clone(), Vec::new())]);
        let mut seen = std::collections::HashSet::from([init.clone()]);
        while let Some((state, actions)) = queue.pop_front() {
            if seen.len() > 200 {
                break;
            }
            let path: Vec<_> = actions.iter().collect();
            let svg = model
                .as_svg(Path::from_actions(&model, init.clone(), path).unwrap())
                .unwrap();
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            for (open, close) in [("<text", "</text>"), ("<marker", "</marker>")] {
                assert_eq!(svg.matches(open).count(), svg.matches(close).count());
            }
            for bad in ["NaN", "=\"inf", "=\"-inf"] {
                assert!(!svg.contains(bad), "{}: {bad} in the SVG", scenario.name);
            }
            for (action, next) in model.next_steps(&state) {
                let words = model.format_action(&action);
                assert!(!words.contains('{'), "{}: {words}", scenario.name);
                let text = model.format_step(&state, action.clone()).unwrap();
                assert!(
                    text.contains("kubectl get pods"),
                    "{}: {text}",
                    scenario.name
                );
                if seen.insert(next.clone()) {
                    let mut a = actions.clone();
                    a.push(action);
                    queue.push_back((next, a));
                }
            }
        }
    }
}

/// The Explorer and `podcheck check` tell the same story: the Explorer lists only state
/// properties (a leads-to is not one, and Stateright would judge it as `always`), and after
/// running to completion it has a counterexample for exactly the `always` properties `check`
/// finds violated, and a witness for exactly the `sometimes` ones `check` finds holding.
#[test]
fn explorer_agrees_with_check() {
    let scenario = "healthy";
    let out = command(&["check", scenario, "--format", "json"])
        .output()
        .expect("run podcheck check");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let checked = report[0]["properties"]
        .as_array()
        .expect("properties")
        .clone();
    let kind_of = |name: &str| {
        checked.iter().find(|p| p["name"] == name).map(|p| {
            (
                str_of(p, "kind").to_string(),
                str_of(p, "verdict").to_string(),
            )
        })
    };
    let leads_to: Vec<&str> = checked
        .iter()
        .filter(|p| p["kind"] == "leads_to")
        .map(|p| str_of(p, "name"))
        .collect();
    assert!(
        !leads_to.is_empty(),
        "healthy checks no leads-to property: {report}"
    );

    let e = Explorer::start_for(scenario);
    let status = e.run_to_completion();
    let listed = status["properties"].as_array().expect("properties");
    assert!(!listed.is_empty(), "{status}");
    for p in listed {
        let expectation = p[0].as_str().expect("an expectation");
        let name = p[1].as_str().expect("a name");
        assert!(
            !leads_to.contains(&name),
            "the Explorer lists leads-to {name} as {expectation}"
        );
        let (kind, verdict) = kind_of(name)
            .unwrap_or_else(|| panic!("the Explorer lists {name}, which check does not judge"));
        let discovered = !p[2].is_null();
        match (expectation, kind.as_str()) {
            ("Always", "always") => assert_eq!(
                discovered,
                verdict == "violated",
                "{name}: check says {verdict}, the Explorer {}",
                if discovered {
                    "has a counterexample"
                } else {
                    "has none"
                }
            ),
            ("Sometimes", "sometimes") => assert_eq!(
                discovered,
                verdict == "holds",
                "{name}: check says {verdict}, the Explorer {}",
                if discovered {
                    "has a witness"
                } else {
                    "has none"
                }
            ),
            _ => panic!("{name}: the Explorer says {expectation}, check says {kind}"),
        }
    }
}

/// `--addr 127.0.0.1:0` serves on the port the system picks, and the printed URL names it;
/// `--nodes` resizes the scenario; the initial state's picture starts with the scenario panel
/// (every property with its kind and the verdict `podcheck check` gives, the leads-to one
/// included), and the leads-to counterexample gets a URL that names it.
#[test]
fn explore_on_port_0_prints_the_bound_port_and_the_scenario_panel() {
    let scenario = "statefulset-force-delete";
    let mut e = Explorer::spawn(&[scenario, "--addr", "127.0.0.1:0", "--nodes", "3"], 0);
    let first = e.wait_line("Explorer for ");
    let url = &first[first.find("http://").expect("a URL")..];
    let port: u16 = url["http://127.0.0.1:".len()..]
        .split('/')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {first}"));
    assert_ne!(port, 0, "{first}");
    assert!(url.contains("/#/steps/0 "), "{first}");
    e.port = port;
    let lasso = e.wait_line("counterexample of deleted_leads_to_gone ");
    assert!(
        lasso.contains(&format!("http://127.0.0.1:{port}/#/steps/0")),
        "{lasso}"
    );
    let init = e.get_json("/.states");
    let svg = str_of(&init[0], "svg");
    for want in [
        &format!("scenario {scenario}  (Kubernetes 1.35)") as &str,
        "podcheck check: ",
        "leads_to",
        "deleted_leads_to_gone",
        "statefulset_at_most_one",
        "violated (",
        "node-3",
    ] {
        assert!(
            svg.contains(want),
            "`{want}` not in the initial picture:\n{svg}"
        );
    }
}
