//! What a shell given a script with `-c` (`command: ["sh", "-c", "python worker.py"]`) does
//! with it: whether the program ends up as PID 1 of the container (the shell runs it with
//! `exec`, written or done by the shell itself) or stays the shell's child, and the exit code
//! a Job's script ends with (`...; exit 42`).
//!
//! A shell stays PID 1 while it waits for a child; the kernel applies no default action to a
//! signal sent to PID 1, and a shell without a trap ignores SIGTERM there, so the program is
//! only stopped by the SIGKILL at the end of the grace period (kubernetes#127188). Whether the
//! shell forks is each shell's own rule, read from its source:
//!
//! - **bash** runs a `-c` string that is *one simple command* with exec: `parse_and_execute`
//!   (builtins/evalstring.c, under `ONESHOT`, which bash's config-top.h defines) sets
//!   `CMD_NO_FORK` when `should_suppress_fork` holds: bash was started with `-c`, the whole
//!   string has been parsed, the command is simple (`cm_simple`: words, with variable
//!   assignments before them), without redirections, not `time`d nor negated with `!`, and no
//!   trap is set (no EXIT, ERR or signal trap). bash 5.1 and later also try the last command
//!   of a `&&`/`||`/`;` list (`can_optimize_connection`, `CMD_TRY_OPTIMIZING`); earlier
//!   releases fork it, so for a list the bash release in the image decides.
//! - **dash** runs the last command of the string with exec: `main` (src/main.c) evaluates
//!   the `-c` string with `evalstring(minusc, sflag ? 0 : EV_EXIT)`, `evalstring`
//!   (src/eval.c) keeps `EV_EXIT` for the string's last command, `evaltree` passes it to the
//!   last command of a `;`, `&&` or `||` list, and `evalcommand` forks only
//!   `if (!(flags & EV_EXIT) || have_traps())`; redirections do not stop it. But distributions
//!   have built dash with that `EV_EXIT` taken out of `main` (pkgsrc carries such a patch,
//!   taken from Debian, "Disable sh -c optimisation"), so the dash package in the image
//!   decides.
//! - **busybox ash** (`ash`, `busybox sh`) is dash's code: `ash_main` (shell/ash.c) calls
//!   `evalstring(minusc, EV_EXIT)`, and `evalcommand` execs "the very last command" unless a
//!   trap may be set.
//! - **sh** is whichever shell the image installs as /bin/sh: dash (Debian, Ubuntu), busybox
//!   ash (Alpine), bash (Red Hat's images): the image decides.
//! - zsh, ksh and others: not read here.
//!
//! Where the image decides, the reader keeps the shell (the program then ignores SIGTERM) and
//! lists that as an assumed default, `podcheck.dev/sigterm: ignore`, with why; the annotation
//! `podcheck.dev/sigterm: exit` says otherwise.

/// One simple command of a script: its words (after any `NAME=value` assignments), whether it
/// has a redirection, and the separator that comes before it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Simple {
    /// The command word and its arguments, quotes removed (empty for assignments alone).
    words: Vec<String>,
    redirects: bool,
    /// Something was written: a word, an assignment or a redirection.
    written: bool,
    /// The separator before this command: `;` (also a newline, and for the first command),
    /// `&&` or `||`.
    after: &'static str,
}

/// Builtins that every shell runs itself and that return at once: commands before a list's
/// last one that leave no child behind.
const QUICK_BUILTINS: &[&str] = &[
    "cd", "export", "set", "unset", "umask", "ulimit", "echo", "printf", "true", ":", "test", "[",
    "readonly", "shift",
];

/// Words that make a command more than a simple command when they stand first.
const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
    "in", "function", "select", "time", "!", "[[", "]]", "{", "}", "coproc",
];

/// A script being split into simple commands.
struct Lexer {
    out: Vec<Simple>,
    cur: Simple,
    word: String,
    /// A word has started (it may be empty: `""`).
    in_word: bool,
    /// The next word is a redirection's target, not part of the command.
    target: bool,
}

impl Lexer {
    fn end_word(&mut self) {
        if self.in_word {
            self.cur.written = true;
            if self.target {
                self.target = false;
            } else if !(self.cur.words.is_empty() && is_assignment(&self.word)) {
                self.cur.words.push(std::mem::take(&mut self.word));
            }
        }
        self.word.clear();
        self.in_word = false;
    }

    /// A separator: `;`, `&&`, `||`, or a newline (`None`). `false` where the shell would
    /// refuse the script (a separator after nothing, a redirection without its target) or
    /// the command is not simple.
    fn separator(&mut self, op: Option<&'static str>) -> bool {
        self.end_word();
        if self.target || first_is_reserved(&self.cur) {
            return false;
        }
        if !self.cur.written {
            // A blank line, or a newline after `&&` or `||`, is allowed; nothing else.
            return op.is_none();
        }
        let next = Simple {
            after: op.unwrap_or(";"),
            ..Simple::default()
        };
        self.out.push(std::mem::replace(&mut self.cur, next));
        true
    }
}

/// The script as a list of simple commands joined by `;`, newlines, `&&` and `||`, or `None`
/// when it holds anything else (a pipe, a background job, a subshell or group, a compound
/// command, a here-document, a command substitution, an unterminated quote): the reader does
/// not parse those, and keeps the conservative reading.
fn simple_list(script: &str) -> Option<Vec<Simple>> {
    let mut l = Lexer {
        out: Vec::new(),
        cur: Simple {
            after: ";",
            ..Simple::default()
        },
        word: String::new(),
        in_word: false,
        target: false,
    };
    let mut chars = script.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                l.in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        ch => l.word.push(ch),
                    }
                }
            }
            '"' => {
                l.in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => {
                            let n = chars.next()?;
                            if !matches!(n, '$' | '`' | '"' | '\\' | '\n') {
                                l.word.push('\\');
                            }
                            if n != '\n' {
                                l.word.push(n);
                            }
                        }
                        '`' => return None,
                        '$' if chars.peek() == Some(&'(') => return None,
                        ch => l.word.push(ch),
                    }
                }
            }
            '\\' => match chars.next()? {
                '\n' => {}
                n => {
                    l.in_word = true;
                    l.word.push(n);
                }
            },
            '`' => return None,
            '$' if chars.peek() == Some(&'(') => return None,
            '$' if chars.peek() == Some(&'{') => {
                l.in_word = true;
                l.word.push('$');
                loop {
                    let ch = chars.next()?;
                    if matches!(ch, '`' | '$' | '\'' | '"') {
                        return None;
                    }
                    l.word.push(ch);
                    if ch == '}' {
                        break;
                    }
                }
            }
            '#' if !l.in_word => {
                for ch in chars.by_ref() {
                    if ch == '\n' {
                        break;
                    }
                }
                if !l.separator(None) {
                    return None;
                }
            }
            ' ' | '\t' => l.end_word(),
            '\n' => {
                if !l.separator(None) {
                    return None;
                }
            }
            ';' => {
                if chars.peek() == Some(&';') || !l.separator(Some(";")) {
                    return None;
                }
            }
            '&' | '|' => {
                if chars.peek() != Some(&c) {
                    // A background job (`&`) or a pipe (`|`).
                    return None;
                }
                chars.next();
                if !l.separator(Some(if c == '&' { "&&" } else { "||" })) {
                    return None;
                }
            }
            '<' | '>' => {
                if l.target {
                    return None;
                }
                // A file descriptor number right before the operator (`2>&1`) is part of it.
                if l.in_word && !l.word.is_empty() && l.word.chars().all(|ch| ch.is_ascii_digit()) {
                    l.word.clear();
                    l.in_word = false;
                } else {
                    l.end_word();
                }
                match chars.peek() {
                    // A here-document, or a process substitution.
                    Some('<') if c == '<' => return None,
                    Some('(') => return None,
                    Some('>') | Some('&') | Some('|') => {
                        chars.next();
                    }
                    _ => {}
                }
                l.cur.redirects = true;
                l.cur.written = true;
                l.target = true;
            }
            '(' | ')' => return None,
            ch => {
                l.in_word = true;
                l.word.push(ch);
            }
        }
    }
    l.end_word();
    if l.target || first_is_reserved(&l.cur) {
        return None;
    }
    if l.cur.written {
        l.out.push(l.cur);
    } else if l.cur.after != ";" {
        // A list cannot end in `&&` or `||`.
        return None;
    }
    Some(l.out)
}

fn first_is_reserved(c: &Simple) -> bool {
    c.words
        .first()
        .is_some_and(|w| RESERVED.contains(&w.as_str()))
}

/// `NAME=value`, a variable assignment before a command.
fn is_assignment(w: &str) -> bool {
    match w.split_once('=') {
        Some((name, _)) => {
            let mut cs = name.chars();
            cs.next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        None => false,
    }
}

/// The shells the reader knows, by how they are named in `command`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shell {
    Bash,
    Dash,
    Ash,
    /// `sh`: whichever shell the image installs as /bin/sh.
    Sh,
    /// zsh, ksh, mksh: shells whose rule is not read here.
    Other,
}

/// The shell and its `-c` script, if `command` then `args` run one: `sh -c SCRIPT`, `bash -ec
/// SCRIPT`, `/bin/busybox sh -c SCRIPT`. `None` for anything else (a program, a shell running
/// a script file).
fn shell_script<'a>(command: &'a [String], args: &'a [String]) -> Option<(Shell, &'a str)> {
    let argv: Vec<&str> = command.iter().chain(args).map(|s| s.as_str()).collect();
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    let mut first = base(argv.first()?);
    let mut rest = &argv[1..];
    if first == "busybox" {
        first = base(rest.first()?);
        rest = &rest[1..];
        if first == "sh" {
            first = "ash".into();
        }
    }
    let shell = match first.as_str() {
        "bash" => Shell::Bash,
        "dash" => Shell::Dash,
        "ash" => Shell::Ash,
        "sh" => Shell::Sh,
        "zsh" | "ksh" | "mksh" | "ksh93" => Shell::Other,
        _ => return None,
    };
    // Options come before the script: `-c` alone or among other letters (`-ec`), `-o NAME`.
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        if a.starts_with("--") {
            i += 1;
            continue;
        }
        if let Some(letters) = a.strip_prefix('-').or_else(|| a.strip_prefix('+')) {
            if letters.contains('c') && a.starts_with('-') {
                return rest.get(i + 1).map(|s| (shell, *s));
            }
            i += if letters.contains('o') { 2 } else { 1 };
            continue;
        }
        return None;
    }
    None
}

/// What the shell of a `-c` wrapper does with its program when the container is stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrapper {
    /// Not a shell running a `-c` script.
    None,
    /// The program replaces the shell: written (`exec python worker.py`), or done by the
    /// shell itself (bash with one simple command).
    Execs,
    /// The shell stays PID 1 and its child does not get SIGTERM, because of what the string
    /// says (why it keeps the shell, for the assumption).
    KeepsShell(String),
}

/// What the shell of `command` + `args` does with its `-c` script: see the module's doc for
/// each shell's rule.
pub fn wrapper(command: &[String], args: &[String]) -> Wrapper {
    let Some((shell, script)) = shell_script(command, args) else {
        return Wrapper::None;
    };
    // An `exec` written anywhere: the program replaces the shell where it runs.
    if script
        .split(|ch: char| ch.is_whitespace() || ch == ';' || ch == '&' || ch == '|')
        .any(|w| w == "exec")
    {
        return Wrapper::Execs;
    }
    let keeps = |why: &str| Wrapper::KeepsShell(why.to_string());
    let Some(list) = simple_list(script) else {
        return keeps("the script is more than a list of simple commands (a pipe, a background job, a subshell, a loop or a command substitution), which the shell runs as its children");
    };
    if list
        .iter()
        .any(|c| c.words.first().is_some_and(|w| w == "trap"))
    {
        return keeps("the script sets a trap, and a shell with a trap forks its commands");
    }
    let Some((last, before)) = list.split_last() else {
        // Nothing to run: the shell exits at once.
        return Wrapper::None;
    };
    // Commands before the last one run as the shell's children, unless the shell runs them
    // itself (a builtin that returns at once).
    let setup = before.iter().all(|c| {
        c.words
            .first()
            .is_none_or(|w| QUICK_BUILTINS.contains(&w.as_str()))
    });
    match shell {
        Shell::Bash if before.is_empty() && !last.redirects => Wrapper::Execs,
        Shell::Bash if before.is_empty() => keeps("bash forks a command with a redirection (should_suppress_fork)"),
        Shell::Bash => keeps("the script is a list of commands: bash 5.1 and later may exec its last command, earlier releases fork it, and the bash release in the image decides"),
        Shell::Ash if setup => Wrapper::Execs,
        Shell::Ash => keeps("a command before the script's last one runs as the shell's child"),
        Shell::Dash => keeps("dash execs the script's last command unless the image's dash is built without it, as some distributions' packages are"),
        Shell::Sh => keeps("`sh` is dash, busybox ash or bash as the image installs it, and which one (its build, its release) decides whether it execs the script's last command"),
        Shell::Other => keeps("podcheck does not read whether this shell execs the script's last command"),
    }
}

/// Whether the shell wrapper keeps the shell as PID 1 ([`wrapper`]).
pub fn keeps_shell(command: &[String], args: &[String]) -> bool {
    matches!(wrapper(command, args), Wrapper::KeepsShell(_))
}

/// The exit code a shell script ends with, when its last command is `exit N` with a literal
/// `N` that surely runs: after `;` or a newline, or alone, or after `&&` from commands that
/// cannot fail (`echo`, `true`, `:`, `sleep` of a literal duration, without redirections:
/// `echo "Hello world!" && sleep 5 && exit 42`, the Kubernetes docs' Job example). Every
/// shell exits with `N` there. `None` otherwise (no `-c` script, a script the reader does not
/// parse, `exit` without a literal number, after `||` or after a command that may fail,
/// another last command).
pub fn script_exit_code(command: &[String], args: &[String]) -> Option<i32> {
    let (_, script) = shell_script(command, args)?;
    let list = simple_list(script)?;
    let last = list.last()?;
    let code: i64 = match last.words.as_slice() {
        [exit, n] if exit == "exit" && n.chars().all(|c| c.is_ascii_digit()) => n.parse().ok()?,
        _ => return None,
    };
    // Back along the `&&` chain that leads to the `exit`: each command must succeed.
    let mut i = list.len() - 1;
    while list[i].after == "&&" {
        i -= 1;
        if !cannot_fail(&list[i]) {
            return None;
        }
    }
    if list[i].after == "||" {
        return None;
    }
    // The exit status is 8 bits: `exit 256` exits 0.
    Some((code % 256) as i32)
}

/// A command that exits 0 whatever happens: `echo`, `true`, `:` and `sleep` of literal
/// durations (`5`, `0.5`, `2m`), without a redirection.
fn cannot_fail(c: &Simple) -> bool {
    let duration = |w: &String| {
        let digits = w.trim_end_matches(['s', 'm', 'h', 'd']);
        !digits.is_empty()
            && digits.len() + 1 >= w.len()
            && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
            && digits.chars().filter(|c| *c == '.').count() <= 1
            && digits.chars().any(|c| c.is_ascii_digit())
    };
    !c.redirects
        && match c.words.split_first() {
            Some((w, _)) if matches!(w.as_str(), "echo" | "true" | ":") => true,
            Some((w, rest)) if w == "sleep" => !rest.is_empty() && rest.iter().all(duration),
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    fn of(shell: &str, script: &str) -> Wrapper {
        wrapper(&v(&[shell, "-c", script]), &[])
    }

    #[test]
    fn bash_execs_one_simple_command() {
        for s in [
            "python worker.py",
            "python worker.py --queue 'a b'",
            "PYTHONUNBUFFERED=1 python worker.py",
            "python worker.py \"$QUEUE\" ${EXTRA:-x}",
            "python worker.py\n",
            "  python worker.py  # the worker\n",
        ] {
            assert_eq!(of("bash", s), Wrapper::Execs, "{s:?}");
            assert_eq!(of("/bin/bash", s), Wrapper::Execs, "{s:?}");
        }
        assert_eq!(
            wrapper(&v(&["bash"]), &v(&["-ec", "python app.py"])),
            Wrapper::Execs
        );
        assert_eq!(
            wrapper(&v(&["bash", "-o", "pipefail", "-c", "python app.py"]), &[]),
            Wrapper::Execs
        );
    }

    #[test]
    fn bash_keeps_the_shell_for_anything_more() {
        for s in [
            "python worker.py > /var/log/w.log",
            "python worker.py 2>&1",
            "cd /app; python worker.py",
            "cd /app && python worker.py",
            "python worker.py | tee log",
            "python worker.py &",
            "trap 'exit 0' TERM; python worker.py",
            "while true; do python worker.py; done",
            "(python worker.py)",
            "time python worker.py",
            "! python worker.py",
            "python worker.py $(cat args)",
            "python worker.py `cat args`",
            "python 'worker.py",
            "{ python worker.py; }",
        ] {
            assert!(
                matches!(of("bash", s), Wrapper::KeepsShell(_)),
                "{s:?}: {:?}",
                of("bash", s)
            );
        }
    }

    #[test]
    fn busybox_ash_execs_the_last_command_of_a_list() {
        for (argv, want) in [
            (v(&["ash", "-c", "cd /app && python w.py > log"]), true),
            (v(&["/bin/busybox", "sh", "-c", "python w.py"]), true),
            (v(&["busybox", "ash", "-c", "cd /app; python w.py"]), true),
            (v(&["ash", "-c", "trap 'exit' TERM; python w.py"]), false),
            (v(&["ash", "-c", "python w.py | tee log"]), false),
            (v(&["ash", "-c", "./migrate; python w.py"]), false),
            (v(&["ash", "-c", "python w.py; echo done"]), false),
        ] {
            assert_eq!(wrapper(&argv, &[]) == Wrapper::Execs, want, "{argv:?}");
        }
    }

    #[test]
    fn where_the_image_decides_the_shell_is_kept_and_said() {
        for shell in ["sh", "/bin/sh", "dash", "zsh"] {
            match of(shell, "python worker.py") {
                Wrapper::KeepsShell(why) => assert!(!why.is_empty()),
                w => panic!("{shell}: {w:?}"),
            }
        }
        let Wrapper::KeepsShell(why) = of("sh", "python worker.py") else {
            unreachable!()
        };
        assert!(why.contains("dash, busybox ash or bash"), "{why}");
    }

    #[test]
    fn exec_written_is_exec_and_programs_are_no_wrapper() {
        assert_eq!(of("sh", "exec python app.py"), Wrapper::Execs);
        assert_eq!(of("sh", "cd /app && exec python app.py"), Wrapper::Execs);
        assert_eq!(wrapper(&v(&["python", "app.py"]), &[]), Wrapper::None);
        assert_eq!(wrapper(&v(&["sh", "run.sh"]), &[]), Wrapper::None);
        assert_eq!(wrapper(&[], &[]), Wrapper::None);
        assert!(keeps_shell(&v(&["/bin/sh", "-c", "./a; ./b"]), &[]));
        assert!(!keeps_shell(&v(&["bash", "-c", "./a"]), &[]));
    }

    #[test]
    fn a_scripts_last_exit_with_a_literal_code_is_read() {
        let code = |s: &str| script_exit_code(&v(&["sh", "-c", s]), &[]);
        assert_eq!(code("python report.py; exit 42"), Some(42));
        assert_eq!(code("python report.py\nexit 3\n"), Some(3));
        assert_eq!(code("exit 0"), Some(0));
        assert_eq!(code("exit 256"), Some(0));
        assert_eq!(code("python report.py && exit 1"), None);
        assert_eq!(
            code("echo \"Hello world!\" && sleep 5 && exit 42"),
            Some(42)
        );
        assert_eq!(code("python x; true && sleep 1m && exit 3"), Some(3));
        assert_eq!(code("echo hi > /log && exit 3"), None);
        assert_eq!(code("sleep $T && exit 3"), None);
        assert_eq!(code("sleep 5x && exit 3"), None);
        assert_eq!(code("false || echo hi && exit 3"), None);
        assert_eq!(code("python report.py || exit 1"), None);
        assert_eq!(code("python report.py; exit $RC"), None);
        assert_eq!(code("python report.py; exit"), None);
        assert_eq!(code("exit 4; python report.py"), None);
        assert_eq!(code("if x; then exit 1; fi"), None);
        assert_eq!(code("python report.py | tee log; exit 2"), None);
        assert_eq!(script_exit_code(&v(&["python", "exit", "4"]), &[]), None);
        assert_eq!(
            script_exit_code(&v(&["bash", "-c"]), &v(&["run; exit 7"])),
            Some(7)
        );
    }

    /// A Job whose container runs `command`, read: its exit code and the defaults taken.
    fn job(command: &str) -> (i32, Vec<String>) {
        let yaml = format!(
            "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: report}}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: r\n        image: r:1\n        command: {command}\n"
        );
        let r = crate::manifest::read(&[("job.yaml".into(), yaml)]).expect("read");
        let c = &r.scenario.workloads[0].template().containers[0];
        let defaults = r.defaults.iter().map(|d| d.annotation.clone()).collect();
        (c.app.exit_code, defaults)
    }

    #[test]
    fn the_reader_takes_a_jobs_exit_code_from_its_script_or_says_it_assumes_0() {
        let (code, defaults) = job(r#"["sh", "-c", "python report.py; exit 42"]"#);
        assert_eq!(code, 42);
        assert!(
            !defaults.iter().any(|d| d.contains("exit-code")),
            "{defaults:?}"
        );
        for command in [
            r#"["sh", "-c", "python report.py && exit 42"]"#,
            r#"["python", "report.py"]"#,
        ] {
            let (code, defaults) = job(command);
            assert_eq!(code, 0, "{command}");
            assert!(
                defaults.contains(&"podcheck.dev/exit-code: 0".to_string()),
                "{command}: {defaults:?}"
            );
        }
        // The shell's default on SIGTERM is a default taken too, and said.
        let (_, defaults) = job(r#"["sh", "-c", "python report.py"]"#);
        assert!(
            defaults.contains(&"podcheck.dev/sigterm: ignore".to_string()),
            "{defaults:?}"
        );
        let (_, defaults) = job(r#"["bash", "-c", "python report.py"]"#);
        assert!(
            defaults.contains(&"podcheck.dev/sigterm: exit:143".to_string()),
            "{defaults:?}"
        );
    }

    #[test]
    fn no_script_makes_the_reader_panic() {
        // Every string of up to four characters over the shell's special characters.
        let alphabet: Vec<char> = "a 1;&|<>()'\"\\$`{}#\n=!x".chars().collect();
        let mut scripts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = scripts
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            scripts.extend(longer);
            scripts.dedup();
        }
        for s in &scripts {
            for shell in ["bash", "sh", "ash"] {
                let _ = wrapper(&v(&[shell, "-c", s]), &[]);
                let _ = script_exit_code(&v(&[shell, "-c", s]), &[]);
            }
        }
    }

    #[test]
    fn lists_are_split_at_their_separators_only() {
        let l = simple_list("A=1 cd '/a b';python  w.py 2>&1 && echo \"x;y\"").unwrap();
        let words: Vec<&[String]> = l.iter().map(|c| c.words.as_slice()).collect();
        assert_eq!(
            words,
            [
                &v(&["cd", "/a b"])[..],
                &v(&["python", "w.py"]),
                &v(&["echo", "x;y"])
            ]
        );
        assert_eq!(
            l.iter().map(|c| c.after).collect::<Vec<_>>(),
            [";", ";", "&&"]
        );
        assert!(l[1].redirects && !l[0].redirects);
        assert_eq!(simple_list("a &&"), None);
        assert_eq!(simple_list("a ;; b"), None);
        assert_eq!(simple_list("cat <<EOF"), None);
        assert_eq!(simple_list("a > "), None);
    }
}
