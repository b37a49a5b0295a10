//! What the subcommands share: bad input (exit 2), printing to stdout, numbers in words,
//! the catalogue's scenarios picked and sized.

use crate::cli::args::Size;
use podcheck_input::catalogue;
use podcheck_input::spec::{parse_scenarios, Scenario};
use podcheck_properties::check;
use podcheck_properties::progress;
use std::process::ExitCode;

/// Bad input: exit 2 with a message.
pub struct BadInput(pub String);

impl From<podcheck::Error> for BadInput {
    fn from(e: podcheck::Error) -> BadInput {
        BadInput(e.0)
    }
}

/// Prints a line to stdout; a closed pipe (`podcheck … | head`) ends the program quietly.
pub fn say(text: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out
        .write_fmt(text)
        .and_then(|_| out.write_all(b"\n"))
        .is_err()
    {
        std::process::exit(0);
    }
}

/// A whole number from `MIN` to `MAX` (a flag's value), with what is wrong in words: not a
/// number, too small, too large.
pub fn whole<T: TryFrom<u64>, const MIN: u64, const MAX: u64>(text: &str) -> Result<T, String> {
    let range = if MAX == u64::MAX {
        format!("a whole number, at least {MIN}")
    } else {
        format!("a whole number from {MIN} to {MAX}")
    };
    let t = text.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("it must be {range}, not `{text}`"));
    }
    // Only digits: a number that does not parse is too large for any u64.
    match t.parse::<u64>() {
        Ok(n) if n < MIN => Err(format!("it must be {range}, not {n}")),
        Ok(n) if n <= MAX => T::try_from(n).map_err(|_| format!("it must be {range}, not {n}")),
        _ => Err(format!("it must be {range}; {t} is too large")),
    }
}

/// The closest of `known` to `name`, as ` (did you mean `x`?)`, or nothing when none is close.
pub fn did_you_mean(name: &str, known: &[&str]) -> String {
    podcheck_input::manifest::tree::closest(name, known)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

/// Ctrl-C, and SIGTERM and SIGHUP alike (a CI job's timeout sends SIGTERM; a closed
/// terminal, SIGHUP): the first stops the running phase at its next state, and the report of
/// what is decided so far is printed (the scenarios done, the one under way incomplete, the
/// rest not started); the second quits at once.
/// The report names the signal: `interrupted (SIGTERM)`. Called more than once, it listens
/// once (each listener would count every signal).
pub fn stop_on_ctrl_c() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(listen);
}

fn listen() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("warning: Ctrl-C will quit without a report: {e}");
            return;
        }
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let by = match signal {
                SIGTERM => "SIGTERM",
                SIGHUP => "SIGHUP",
                _ => "Ctrl-C",
            };
            if progress::interrupt_by(by) > 1 {
                std::process::exit(130);
            }
        }
    });
}

/// `--replicas N` sizes the Deployments and StatefulSets of the scenarios checked: an error
/// when none of them has one (the flag would change nothing), a warning naming those without
/// one when some have.
pub fn replicas_apply<'a>(
    scenarios: impl IntoIterator<Item = &'a Scenario>,
    size: Size,
) -> Result<(), BadInput> {
    let Some(n) = size.replicas else {
        return Ok(());
    };
    let (with, without): (Vec<&Scenario>, Vec<&Scenario>) = scenarios
        .into_iter()
        .partition(|s| s.workloads.iter().any(|w| w.replicas().is_some()));
    let names: Vec<&str> = without.iter().map(|s| s.name.as_str()).collect();
    if with.is_empty() {
        let which = match names.as_slice() {
            [one] => format!("{one} has none"),
            _ => format!("none of {} has one", names.join(", ")),
        };
        return Err(BadInput(format!(
            "--replicas {n} sizes Deployments and StatefulSets, and {which}: leave --replicas out"
        )));
    }
    if !names.is_empty() {
        eprintln!(
            "warning: --replicas {n} changes nothing in {}: no Deployment or StatefulSet",
            names.join(", ")
        );
    }
    Ok(())
}

/// The scenarios with the release and the sizes of `size` (scenarios of `origin`).
pub fn resize(list: Vec<Scenario>, size: Size, origin: &str) -> Result<Vec<Scenario>, BadInput> {
    let size = size.lib();
    Ok(list
        .into_iter()
        .map(|s| podcheck::resized(s, size, origin))
        .collect::<Result<_, _>>()?)
}

pub fn load(catalogue_file: &Option<String>) -> Result<Vec<Scenario>, BadInput> {
    let (list, origin) = match catalogue_file {
        None => (catalogue::builtin(), catalogue::CATALOGUE_PATH),
        Some(path) => {
            let text = podcheck::read_text_file(std::path::Path::new(path))?;
            let list = parse_scenarios(&text, path).map_err(|e| {
                if podcheck_input::manifest::looks_like_manifests(&text) {
                    BadInput(format!(
                        "{path}: this is a Kubernetes manifest, not a podcheck scenario list: check it with podcheck check -f {path}"
                    ))
                } else {
                    BadInput(e)
                }
            })?;
            (list, path.as_str())
        }
    };
    // Expectations name properties of the catalogue: check them here, where the file is known.
    for s in &list {
        check::selected(s).map_err(|e| BadInput(format!("{origin}: {e}")))?;
    }
    Ok(list)
}

pub fn pick(all: Vec<Scenario>, names: &[String], origin: &str) -> Result<Vec<Scenario>, BadInput> {
    if names.is_empty() {
        return Ok(all);
    }
    let mut out: Vec<Scenario> = Vec::new();
    for n in names {
        if out.iter().any(|s| &s.name == n) {
            return Err(BadInput(format!(
                "scenario `{n}` is named twice: name each scenario once"
            )));
        }
        match all.iter().find(|s| &s.name == n) {
            Some(s) => out.push(s.clone()),
            None => {
                let known: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
                let hint = did_you_mean(n, &known);
                return Err(BadInput(format!(
                    "unknown scenario `{n}` in {origin}{hint}; the scenarios are: {}",
                    known.join(", ")
                )));
            }
        }
    }
    Ok(out)
}

/// The one scenario `trace` and `explore` work on: a scenario of the catalogue by name, or,
/// with `-f`, one plan scenario of the manifests (by name, or the only one).
pub fn one_scenario(
    file: &Option<String>,
    scenario: Option<String>,
    filename: &[String],
    plan: &[String],
    size: Size,
    origin: &str,
) -> Result<Vec<Scenario>, BadInput> {
    if filename.is_empty() {
        let name = scenario.ok_or_else(|| BadInput("name a scenario".into()))?;
        let picked = load(file)
            .and_then(|all| pick(all, std::slice::from_ref(&name), origin))
            .and_then(|picked| resize(picked, size, origin))?;
        replicas_apply(&picked, size)?;
        return Ok(picked);
    }
    if file.is_some() {
        return Err(BadInput(
            "-f reads your manifests: give it without --catalogue".into(),
        ));
    }
    let all = crate::cli::manifests::plan_scenarios(filename, plan, size)?;
    let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
    match scenario {
        Some(name) => match all.iter().position(|s| s.name == name) {
            Some(i) => Ok(vec![all[i].clone()]),
            None => Err(BadInput(format!(
                "the manifests have no plan scenario `{name}`{}; they have: {}",
                did_you_mean(&name, &names),
                names.join("; ")
            ))),
        },
        None if all.len() == 1 => Ok(all),
        None => Err(BadInput(format!(
            "the manifests have {} plan scenarios: name one (quoted), or narrow them with --plan: {}",
            all.len(),
            names.join("; ")
        ))),
    }
}

/// The exit code of a run, with bad input on stderr and exit 2.
pub fn report(result: Result<ExitCode, BadInput>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(BadInput(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
