//! Running the `podcheck` binary that Cargo built for these tests, and reading what it printed.

use serde_json::Value;
use std::process::{Command, Output, Stdio};

/// The `podcheck` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_podcheck");

/// `podcheck ARGS`, not started yet: for a test that pipes, signals or waits on it itself.
/// Without the environment's `JOB_COMPLETION_INDEX`, which `--shard N` reads (a test that
/// wants one sets it).
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).env_remove("JOB_COMPLETION_INDEX");
    c
}

/// Runs `podcheck ARGS` to its end.
pub fn podcheck(args: &[&str]) -> Output {
    command(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

/// Runs `podcheck ARGS` to its end with `input` on its standard input.
pub fn podcheck_with_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    if let Err(e) = child.stdin.take().expect("stdin is piped").write_all(input) {
        // podcheck may refuse its flags (exit 2) and end before it reads its input: what it
        // did is in its output, checked by the caller.
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "podcheck reads its input: {e}"
        );
    }
    child.wait_with_output().expect("podcheck ends")
}

/// Starts `podcheck ARGS`, waits until a line of its stderr starts with `line` (a progress
/// line of the scenario under way, say), sends it `signal` and collects what it printed to
/// its end, with the moment the signal was sent. The moment is an event of the run, not a
/// guess of how long it takes; a run that ends without printing such a line is signalled (too
/// late to matter) and returned as it is.
pub fn signalled_once(
    args: &[&str],
    line: &str,
    signal: nix::sys::signal::Signal,
) -> (Output, std::time::Instant) {
    use std::io::{BufRead, Read};
    let mut child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    let mut pipe = std::io::BufReader::new(child.stderr.take().expect("stderr is piped"));
    let mut said = String::new();
    loop {
        let mut l = String::new();
        let n = pipe.read_line(&mut l).expect("stderr");
        said.push_str(&l);
        if n == 0 || l.starts_with(line) {
            break;
        }
    }
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    // A run that has ended already cannot be signalled: no error of the test's own.
    let _ = nix::sys::signal::kill(pid, signal);
    let sent = std::time::Instant::now();
    pipe.read_to_string(&mut said).expect("stderr");
    let mut o = child.wait_with_output().expect("podcheck ends");
    o.stderr = said.into_bytes();
    (o, sent)
}

/// Runs `podcheck ARGS`: its exit code, stdout and stderr.
pub fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = podcheck(args);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// The command, its exit code and all it printed: the message of a failed assertion.
pub fn describe(args: &[&str], o: &Output) -> String {
    format!(
        "podcheck {}\nexit: {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        args.join(" "),
        o.status.code(),
        stdout(o),
        stderr(o)
    )
}

/// Runs podcheck, asserts its exit code, and returns its output.
pub fn run_expect(args: &[&str], code: i32) -> Output {
    let o = podcheck(args);
    assert_eq!(o.status.code(), Some(code), "{}", describe(args, &o));
    assert!(
        !stderr(&o).contains("panicked"),
        "podcheck panicked:\n{}",
        describe(args, &o)
    );
    o
}

/// Runs a `--format json` check, asserts its exit code, and returns the parsed array.
pub fn run_json(args: &[&str], code: i32) -> Vec<Value> {
    let o = run_expect(args, code);
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON: {e}\n{}", describe(args, &o)));
    match v {
        Value::Array(a) => a,
        other => panic!("expected a JSON array, got {other}"),
    }
}
