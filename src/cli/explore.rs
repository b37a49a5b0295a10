//! `podcheck explore`: Stateright's Explorer over a scenario, with the URLs of its
//! counterexamples.

use crate::cli::check::Bounds;
use crate::cli::common::BadInput;
use podcheck_input::spec::{Scenario, Verdict};
use podcheck_properties::check::{self, CheckOptions};
use std::process::ExitCode;

/// The one socket address `addr` names, bound once to check that it can be bound now
/// (Stateright's `serve` would panic on a busy port) and to learn the port really bound (for
/// port 0, the one the system picked; Stateright does not say which port it bound). The
/// Explorer is then served on that address.
fn explore_addr(addr: &str) -> Result<std::net::SocketAddr, BadInput> {
    use std::net::ToSocketAddrs;
    let sock = addr
        .to_socket_addrs()
        .map_err(|e| BadInput(format!("--addr {addr}: not a HOST:PORT address ({e})")))?
        .next()
        .ok_or_else(|| BadInput(format!("--addr {addr}: names no address")))?;
    let listener = std::net::TcpListener::bind(sock).map_err(|e| {
        let hint = match e.kind() {
            std::io::ErrorKind::AddrInUse => {
                " Another program uses the port: choose another one with --addr 127.0.0.1:PORT."
            }
            std::io::ErrorKind::AddrNotAvailable => " This machine has no such address.",
            std::io::ErrorKind::PermissionDenied => " Ports below 1024 need privileges.",
            _ => "",
        };
        BadInput(format!("cannot listen on {sock}: {e}.{hint}"))
    })?;
    listener
        .local_addr()
        .map_err(|e| BadInput(format!("cannot listen on {sock}: {e}")))
}

/// `podcheck explore`: check the scenario for its counterexample paths, print their Explorer
/// URLs, then serve the Explorer until the process is stopped.
pub fn run(scenario: Scenario, addr: &str, bounds: Bounds) -> Result<ExitCode, BadInput> {
    use stateright::Model;
    let selected = check::selected(&scenario).map_err(BadInput)?;
    scenario.validate().map_err(|e| BadInput(e.to_string()))?;
    let sock = explore_addr(addr)?;
    if !sock.ip().is_loopback() {
        eprintln!(
            "warning: {sock} is not a loopback address: anyone who can reach it can browse \
             the Explorer."
        );
    }
    if std::path::Path::new("ui").is_dir() {
        eprintln!(
            "warning: the Explorer serves the files of ./ui instead of its own page when they \
             exist; run podcheck explore from another folder if the page looks wrong."
        );
    }
    let url = format!("http://{sock}/");
    // The served model carries the scenario's properties, so the Explorer lists them and
    // each state's text says which hold there. Paths encode as action indices, and the
    // actions of a state do not depend on the properties a model carries.
    // Only state properties reach Stateright (`check::model` drops the others too): a
    // leads-to is not one, and Stateright would judge it as `always`; a step property reads
    // transitions.
    let state_props: Vec<_> = selected
        .iter()
        .filter(|d| d.kind.is_always() || d.kind.is_sometimes())
        .copied()
        .collect();
    let model = check::model(&scenario, &state_props, false);
    // Serve at once; `serve` never returns. The counterexample URLs follow once found.
    let listed = selected
        .iter()
        .map(|d| podcheck_traces::explorer::Listed {
            name: d.name.to_string(),
            kind: podcheck_traces::Kind::from(&d.kind),
            expected: check::expectation(&scenario, d).0,
        })
        .collect();
    let served = podcheck_traces::explorer::ExplorerModel::new(model.clone()).with_listed(listed);
    let report = served.report();
    let server = std::thread::spawn(move || {
        let _ = served.checker().serve(sock);
    });
    let start = std::time::Instant::now();
    while std::net::TcpStream::connect(sock).is_err()
        && start.elapsed() < std::time::Duration::from_secs(5)
    {
        if server.is_finished() {
            return Err(BadInput(format!("cannot serve the Explorer on {sock}")));
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    say!(
        "Explorer for {}: {url}#/steps/0 (the initial state, with the scenario and its properties; Ctrl-C to stop)",
        scenario.name
    );
    eprintln!("checking {} for counterexample paths…", scenario.name);
    // Unreduced, as the Explorer's own checker explores: the counts agree.
    eprintln!("{}", bounds.heading());
    let opts = CheckOptions {
        progress: true,
        reduction: false,
        max_memory: bounds.max_memory,
        budget: bounds.budget,
        ..CheckOptions::default()
    };
    let r = check::check(&scenario, &opts).map_err(BadInput)?;
    say!(
        "{}: {} unique states ({})",
        scenario.name,
        r.unique_states,
        if r.complete { "complete" } else { "incomplete" }
    );
    let _ = report.set(podcheck_traces::explorer::Report {
        unique_states: r.unique_states,
        complete: r.complete,
        verdicts: r
            .properties
            .iter()
            .map(|p| (p.def.name.to_string(), p.verdict, p.trace_steps()))
            .collect(),
    });
    let mut any = false;
    for (witness, verdict, title) in [
        (false, Verdict::Violated, "counterexample"),
        (true, Verdict::Holds, "witness"),
    ] {
        for p in &r.properties {
            if p.def.kind.is_witness() != witness || p.verdict != verdict {
                continue;
            }
            if let Some(run) = &p.trace {
                let init = model.init_states().remove(run.init);
                let Some(path) = stateright::Path::from_actions(&model, init, &run.actions) else {
                    return Err(BadInput(format!(
                        "internal error: the trace of {} does not replay",
                        p.def.name
                    )));
                };
                any = true;
                say!(
                    "{title} of {} ({} steps): {url}#/steps/{}",
                    p.def.name,
                    p.trace_steps().unwrap_or(0),
                    path.encode(&model)
                );
            }
        }
    }
    // A leads-to counterexample: its path as action indices, found among the actions
    // enabled in each state (how Stateright encodes a path).
    for p in &r.properties {
        let Some(l) = &p.lasso else { continue };
        let states = l.states(&model).map_err(BadInput)?;
        let mut indices = vec![0usize];
        for (s, a) in states.iter().zip(&l.actions) {
            let mut enabled = Vec::new();
            model.actions(s, &mut enabled);
            match enabled.iter().position(|e| e == a) {
                Some(i) => indices.push(i),
                None => break,
            }
        }
        if indices.len() != l.actions.len() + 1 {
            continue;
        }
        any = true;
        let path: Vec<String> = indices.iter().map(|i| i.to_string()).collect();
        let shape = match l.loop_start {
            Some(c) => format!("a lasso: the cycle starts at step {}", c + 1),
            None => "a run that stops: no fair component has anything left to do".to_string(),
        };
        say!(
            "counterexample of {} ({} steps, {shape}): {url}#/steps/{}",
            p.def.name,
            l.actions.len(),
            path.join("/")
        );
    }
    if !any {
        say!("no property is violated and no witness was asked for: start at {url}");
    }
    server
        .join()
        .map_err(|_| BadInput(format!("the Explorer on {sock} stopped")))?;
    Ok(ExitCode::SUCCESS)
}
