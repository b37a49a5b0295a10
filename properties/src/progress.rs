//! A long check is never silent and never lost: a progress line on stderr for every phase of a
//! check, and the bounds that stop a phase early (Ctrl-C, a memory limit) so that the report of
//! what was decided so far can still be printed.
//!
//! # Phases
//!
//! A check runs three phases, each with its own line: `exploring` (the breadth-first search,
//! [`crate::explore`]), `graph` (the `leads_to` pass over the explored graph,
//! [`crate::liveness`]) and `traces` (replaying every counterexample and witness through the
//! model). The line gives the states done in the phase (in the `graph` phase: in the pass
//! under way over the explored states, with the property and the pass named, as `graph
//! (drain_completes, components): 1200 of 5000 states`), the breadth-first level being
//! expanded (while exploring), states per second, the resident memory, the time since the
//! check started, and which scenario of how many it is (`scenario 3 of 8`). It is rewritten in place each second when stderr is a terminal, and printed every
//! 10 s otherwise; a check shorter than a second prints nothing.
//!
//! # Stops
//!
//! [`interrupt`] (called by the command line's Ctrl-C handler) stops the phase that is running
//! at its next state; the phases after it run on what was explored, as after `max_states`.
//! With a memory bound, the resident set size is read regularly and the phase stops before the
//! bound would be passed. With a time budget ([`Progress::set_budget`]), the `exploring` and
//! `graph` phases stop once it is spent (the `traces` phase, which only replays what was
//! found, runs on). Either way the phase reports a [`Bound`], and every property it could not
//! decide is `incomplete`.
//!
//! # Keeping under the memory bound
//!
//! The bound is on the whole process's resident memory, and it holds for the peak, not only
//! where it is read:
//!
//! - the resident set is read every 256 states, at most every 10 ms, and the phase stops when
//!   twice the growth since the last reading, or the largest single allocation the phase can
//!   make (a table that doubles, [`Progress::set_headroom`]), would pass it;
//! - the exploration also keeps free what the `leads_to` passes after it will allocate on the
//!   graph it has made so far ([`Progress::reserve_later`], sized by
//!   [`Progress::set_graph_size`]), so that an exploration stopped at the bound still has its
//!   graph judged, and a margin of a sixteenth of the bound for what is not estimated;
//! - each later phase checks its own work arrays against the bound before allocating them
//!   ([`Progress::would_pass_memory`]).
//!
//! # The default memory bound
//!
//! [`default_max_memory`]: half of the machine's memory (`MemTotal` of `/proc/meminfo`, or the
//! control group's `memory.max` when that is lower). `MemTotal`, not `MemAvailable`: the bound
//! is then the same on every run on a machine (a report says it, and two runs of the same check
//! compare), and the other half is left to the system and to whatever else runs.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A phase of a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The breadth-first search that builds the state graph.
    Exploring,
    /// The `leads_to` pass over the graph.
    Graph,
    /// Rebuilding and replaying the traces.
    Traces,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Exploring => "exploring",
            Phase::Graph => "graph",
            Phase::Traces => "traces",
        }
    }
}

/// Why a phase stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The `max_states` bound (`--max-states`).
    MaxStates,
    /// The memory bound (`--max-memory`).
    MaxMemory,
    /// Ctrl-C, SIGTERM or SIGHUP ([`interrupt`]).
    Interrupt,
    /// The time budget of the scenario (`--budget`).
    Budget,
    /// The graph's own tables are full (2³² − 1 edges).
    Capacity,
}

impl Bound {
    /// The bound in the words of the command line: `max-states`, `max-memory`, `interrupt`,
    /// `budget`, `capacity`.
    pub fn as_str(self) -> &'static str {
        match self {
            Bound::MaxStates => "max-states",
            Bound::MaxMemory => "max-memory",
            Bound::Interrupt => "interrupt",
            Bound::Budget => "budget",
            Bound::Capacity => "capacity",
        }
    }
}

/// Where a check stopped early: the bound, the phase it stopped, and how many states that
/// phase had done (for `exploring`: the distinct states found).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    pub bound: Bound,
    pub phase: Phase,
    pub states: usize,
}

static INTERRUPTS: AtomicUsize = AtomicUsize::new(0);

/// What interrupted the run: the first signal's name, as the reports say it.
static INTERRUPTED_BY: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

/// Records one interrupt (Ctrl-C) and returns how many there have been. The phase running
/// stops at its next state.
pub fn interrupt() -> usize {
    interrupt_by("Ctrl-C")
}

/// Records one interrupt by `what` (`Ctrl-C`, `SIGTERM`, `SIGHUP`; the first one is what the
/// reports name) and returns how many there have been.
pub fn interrupt_by(what: &'static str) -> usize {
    let _ = INTERRUPTED_BY.set(what);
    INTERRUPTS.fetch_add(1, Ordering::SeqCst) + 1
}

/// What interrupted the run (`Ctrl-C` if nothing said otherwise), for the reports.
pub fn interrupted_by() -> &'static str {
    INTERRUPTED_BY.get().copied().unwrap_or("Ctrl-C")
}

/// How many interrupts there have been.
pub fn interrupts() -> usize {
    INTERRUPTS.load(Ordering::SeqCst)
}

static WHOLE_LINES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on, progress is written in whole lines (one every 10 s), also on a terminal,
/// where it is otherwise one line rewritten each second: for checks that run side by side,
/// whose lines would overwrite each other and the reports between them.
pub fn whole_lines() {
    WHOLE_LINES.store(true, Ordering::Relaxed);
}

/// A field of `/proc/self/status` given in kB (`VmRSS`, `VmHWM`), in bytes.
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line[field.len()..]
        .trim_start_matches(':')
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// The process's resident set size (`VmRSS`), in bytes; `None` where `/proc` is not there.
pub fn rss_bytes() -> Option<u64> {
    status_bytes("VmRSS")
}

/// The process's peak resident set size (`VmHWM`), in bytes.
pub fn peak_rss_bytes() -> Option<u64> {
    status_bytes("VmHWM")
}

/// The machine's memory, in bytes: `MemTotal` of `/proc/meminfo`, or the control group's
/// `memory.max` (cgroup v2) when that is lower; `None` where neither can be read.
pub fn machine_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let total = meminfo.as_deref().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: u64 = line["MemTotal:".len()..]
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Some(kib * 1024)
    });
    let group = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok());
    match (total, group) {
        (Some(t), Some(g)) => Some(t.min(g)),
        (t, g) => t.or(g),
    }
}

/// The memory bound of a check not given one (`--max-memory`): half of [`machine_memory`],
/// in whole MiB; `None` where the machine's memory cannot be read.
pub fn default_max_memory() -> Option<u64> {
    machine_memory()
        .map(|m| (m / 2) >> 20 << 20)
        .filter(|&b| b > 0)
}

const MIB: f64 = 1024.0 * 1024.0;

/// Memory kept free beyond a phase's own estimate when it starts ([`Progress::would_pass_memory`]):
/// the resident set grows by whole allocator blocks (about 10 MiB seen for a `leads_to` pass
/// that needs 3).
pub const ALLOCATOR_SLACK: u64 = 16 << 20;

/// Memory kept free when a phase stops at the bound mid-way ([`Progress::tick`]): what the
/// phases after it still allocate on a stopped run (replaying the traces found so far,
/// building the report) must fit below the bound too (about half a MiB seen).
pub const STOP_RESERVE: u64 = 2 << 20;

/// The progress of one check: its line on stderr, and the bounds that stop its phases.
pub struct Progress {
    name: Option<String>,
    tty: bool,
    start: Instant,
    next_report: Duration,
    /// A line rewritten with `\r` is open on the terminal.
    open_line: bool,
    phase: Phase,
    label: Option<String>,
    phase_start: Instant,
    total: Option<usize>,
    /// Interrupts seen before the phase started: only a later one stops it.
    interrupts_before: usize,
    max_memory: Option<u64>,
    last_memory_check: Instant,
    last_rss: Option<u64>,
    headroom: u64,
    ticks: u64,
    stop: Option<Stop>,
    stops: Vec<Stop>,
    /// The time budget, and when it runs out.
    budget: Option<(std::time::Duration, Instant)>,
    /// Bytes per state and per edge the phases after the exploration allocate.
    later: (u64, u64),
    /// States and edges of the graph so far (exploring).
    graph_size: (u64, u64),
    /// The step of a part under way (a pass over the graph), said after its label.
    step: Option<&'static str>,
    /// This scenario's place in the check's list: `scenario k of N`.
    position: Option<(usize, usize)>,
    /// The largest count of states read (every 256 states) in the step under way.
    most: usize,
}

impl Progress {
    /// Progress under `name` on stderr (`None`: silent), with an optional memory bound in
    /// bytes.
    pub fn new(name: Option<String>, max_memory: Option<u64>) -> Self {
        let now = Instant::now();
        Progress {
            name,
            tty: std::io::stderr().is_terminal() && !WHOLE_LINES.load(Ordering::Relaxed),
            start: now,
            next_report: Duration::from_secs(1),
            open_line: false,
            phase: Phase::Exploring,
            label: None,
            phase_start: now,
            total: None,
            interrupts_before: interrupts(),
            max_memory,
            last_memory_check: now,
            last_rss: None,
            headroom: 0,
            ticks: 0,
            stop: None,
            stops: Vec::new(),
            budget: None,
            later: (0, 0),
            graph_size: (0, 0),
            step: None,
            position: None,
            most: 0,
        }
    }

    /// The largest count of states the part or step under way has said so far, read every 256
    /// states (what its progress line would show).
    pub fn most(&self) -> usize {
        self.most
    }

    /// This scenario is the `k`th of `n` the check runs (from 1): every progress line says
    /// `scenario k of n`.
    pub fn set_position(&mut self, position: Option<(usize, usize)>) {
        self.position = position;
    }

    /// A step of the part under way: a pass over the graph whose states count from zero
    /// again (a `leads_to` property's components, then its way back), said after the part's
    /// label.
    pub fn step(&mut self, what: &'static str) {
        self.step = Some(what);
        self.most = 0;
        self.phase_start = Instant::now();
    }

    /// A time budget for the `exploring` and `graph` phases, from now: once it is spent, the
    /// phase running stops at its next state ([`Bound::Budget`]), and so does the `graph`
    /// phase after it. `None`: no budget.
    pub fn set_budget(&mut self, budget: Option<std::time::Duration>) {
        self.budget = budget.map(|b| (b, Instant::now() + b));
    }

    /// Under a memory bound, the exploration keeps free `per_state` bytes for each state and
    /// `per_edge` for each edge of its graph ([`Progress::set_graph_size`]): what the phases
    /// after it will allocate on that graph.
    pub fn reserve_later(&mut self, per_state: u64, per_edge: u64) {
        self.later = (per_state, per_edge);
    }

    /// The size of the graph explored so far (see [`Progress::reserve_later`]).
    pub fn set_graph_size(&mut self, states: usize, edges: usize) {
        self.graph_size = (states as u64, edges as u64);
    }

    /// Silent, and bounded only by Ctrl-C.
    pub fn silent() -> Self {
        Progress::new(None, None)
    }

    /// Starts a phase: its states count from zero, and only an interrupt from now on stops
    /// it. `label` says what in the phase (a property's name); `total`, how many states it
    /// will do at most.
    pub fn phase(&mut self, phase: Phase, label: Option<&str>, total: Option<usize>) {
        self.phase = phase;
        self.label = label.map(str::to_string);
        self.step = None;
        self.most = 0;
        self.phase_start = Instant::now();
        self.total = total;
        self.interrupts_before = interrupts();
        self.last_rss = None;
        self.headroom = 0;
        self.stop = None;
    }

    /// The most memory one step of the phase may take at once (a table that grows by
    /// doubling): the memory bound keeps that much free.
    pub fn set_headroom(&mut self, bytes: u64) {
        self.headroom = bytes;
    }

    /// Names a part of the current phase (a property), with the states it will do at most;
    /// the phase's bounds and stops carry on.
    pub fn part(&mut self, label: Option<&str>, total: Option<usize>) {
        self.label = label.map(str::to_string);
        self.step = None;
        self.most = 0;
        self.phase_start = Instant::now();
        self.total = total;
    }

    /// Where the current phase stopped, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        self.stop
    }

    /// Every early stop of this check, in order.
    pub fn stops(&self) -> &[Stop] {
        &self.stops
    }

    /// Stops the current phase at a bound found by its caller (`max_states`).
    pub fn stop_at(&mut self, bound: Bound, states: usize) -> Stop {
        let stop = Stop {
            bound,
            phase: self.phase,
            states,
        };
        if self.stop.is_none() {
            // A budget spent is said once: the phases after the one it stopped stop too.
            let said = bound == Bound::Budget && self.stops.iter().any(|s| s.bound == bound);
            self.stop = Some(stop);
            self.stops.push(stop);
            if !said {
                self.announce(stop, None);
            }
        }
        stop
    }

    /// Whether `bytes` more than the resident set now would pass the memory bound (then the
    /// phase stops at once, before allocating them). The allocator takes memory from the
    /// system in blocks, and what the phase before freed may not serve these allocations:
    /// [`ALLOCATOR_SLACK`] more is kept free.
    pub fn would_pass_memory(&mut self, bytes: u64, states: usize) -> bool {
        let (Some(limit), Some(rss)) = (self.max_memory, rss_bytes()) else {
            return false;
        };
        if rss.saturating_add(bytes).saturating_add(ALLOCATOR_SLACK) < limit {
            return false;
        }
        let stop = Stop {
            bound: Bound::MaxMemory,
            phase: self.phase,
            states,
        };
        self.stop = Some(stop);
        self.stops.push(stop);
        self.announce(stop, Some((rss, bytes + ALLOCATOR_SLACK)));
        true
    }

    /// One more state done in the phase: `states` done so far, `depth` the breadth-first level
    /// (exploring). Returns the stop when the phase must stop here (and keeps returning it).
    #[inline]
    pub fn tick(&mut self, states: usize, depth: Option<usize>) -> Option<Stop> {
        if self.stop.is_some() {
            return self.stop;
        }
        if INTERRUPTS.load(Ordering::Relaxed) > self.interrupts_before {
            return Some(self.stop_at(Bound::Interrupt, states));
        }
        self.ticks += 1;
        if self.ticks & 255 != 0 {
            return None;
        }
        self.slow_tick(states, depth)
    }

    fn slow_tick(&mut self, states: usize, depth: Option<usize>) -> Option<Stop> {
        self.most = self.most.max(states);
        let now = Instant::now();
        if let Some((_, end)) = self.budget {
            if now >= end && self.phase != Phase::Traces {
                return Some(self.stop_at(Bound::Budget, states));
            }
        }
        if let Some(limit) = self.max_memory {
            if now.duration_since(self.last_memory_check) >= Duration::from_millis(10) {
                self.last_memory_check = now;
                if let Some(rss) = rss_bytes() {
                    // Stop before the bound: when the growth since the last reading, twice
                    // over, or the phase's largest growth at once would pass it; exploring,
                    // also when what the phases after it need on the graph so far would, with
                    // a margin of a sixteenth of the bound.
                    let growth = self.last_rss.map_or(0, |r| rss.saturating_sub(r));
                    self.last_rss = Some(rss);
                    let mut ahead = (2 * growth).max(self.headroom) + STOP_RESERVE;
                    if self.phase == Phase::Exploring {
                        let (states, edges) = self.graph_size;
                        let (per_state, per_edge) = self.later;
                        if per_state + per_edge > 0 {
                            ahead = ahead
                                .saturating_add(per_state.saturating_mul(states))
                                .saturating_add(per_edge.saturating_mul(edges))
                                .saturating_add(ALLOCATOR_SLACK);
                        }
                        ahead = ahead.saturating_add(limit / 16);
                    }
                    if rss.saturating_add(ahead) >= limit {
                        let stop = Stop {
                            bound: Bound::MaxMemory,
                            phase: self.phase,
                            states,
                        };
                        self.stop = Some(stop);
                        self.stops.push(stop);
                        self.announce(stop, Some((rss, 0)));
                        return self.stop;
                    }
                }
            }
        }
        let elapsed = now.duration_since(self.start);
        if self.name.is_some() && elapsed >= self.next_report {
            self.print_line(states, depth, elapsed);
            while self.next_report <= elapsed {
                self.next_report += Duration::from_secs(if self.tty { 1 } else { 10 });
            }
        }
        None
    }

    fn print_line(&mut self, states: usize, depth: Option<usize>, elapsed: Duration) {
        let Some(line) = self.line(states, depth, elapsed) else {
            return;
        };
        if self.tty {
            eprint!("\r\x1b[K{line}");
            self.open_line = true;
        } else {
            eprintln!("{line}");
        }
    }

    /// The progress line (`None` when silent).
    fn line(&self, states: usize, depth: Option<usize>, elapsed: Duration) -> Option<String> {
        let Some(name) = &self.name else {
            return None;
        };
        let secs = self.phase_start.elapsed().as_secs_f64().max(1e-9);
        let mut line = format!("{name}: {}", self.phase.as_str());
        match (&self.label, self.step) {
            (Some(l), Some(step)) => line.push_str(&format!(" ({l}, {step})")),
            (Some(l), None) => line.push_str(&format!(" ({l})")),
            (None, Some(step)) => line.push_str(&format!(" ({step})")),
            (None, None) => {}
        }
        line.push_str(&format!(": {states}"));
        if let Some(t) = self.total {
            line.push_str(&format!(" of {t}"));
        }
        line.push_str(" states");
        if let Some(d) = depth {
            line.push_str(&format!(", depth {d}"));
        }
        line.push_str(&format!(", {:.0} states/s", states as f64 / secs));
        if let Some(rss) = rss_bytes() {
            line.push_str(&format!(", {:.0} MiB", rss as f64 / MIB));
        }
        line.push_str(&format!(", {:.0} s", elapsed.as_secs_f64()));
        if let Some((k, n)) = self.position {
            line.push_str(&format!("; scenario {k} of {n}"));
        }
        Some(line)
    }

    /// Says on stderr why the phase stopped (always, even for a short run: a stop changes the
    /// verdicts).
    fn announce(&mut self, stop: Stop, memory: Option<(u64, u64)>) {
        let Some(name) = self.name.clone() else {
            return;
        };
        self.end_line();
        let mut place = format!("in phase {} at {} states", stop.phase.as_str(), stop.states);
        if let Some(l) = &self.label {
            place = format!(
                "in phase {} ({l}) at {} states",
                stop.phase.as_str(),
                stop.states
            );
        }
        let limit = size_words(self.max_memory.unwrap_or(0));
        let line = match (stop.bound, memory) {
            (Bound::MaxStates, _) => format!("stopped at --max-states {place}"),
            (Bound::Capacity, _) => format!("stopped {place}: the graph's edge table is full"),
            (Bound::Interrupt, _) => {
                let by = interrupted_by();
                format!(
                    "interrupted ({by}) {place}: the report of what is decided so far follows \
                     ({by} again quits at once)"
                )
            }
            (Bound::Budget, _) => format!(
                "the time budget was reached (--budget {} s): stopped {place}",
                self.budget.map_or(0, |(b, _)| b.as_secs())
            ),
            (Bound::MaxMemory, Some((rss, 0))) => format!(
                "the memory bound was reached (--max-memory {limit}, resident {:.0} MiB): \
                 stopped {place}",
                rss as f64 / MIB
            ),
            (Bound::MaxMemory, Some((rss, more))) => format!(
                "the memory bound was reached (--max-memory {limit}, resident {:.0} MiB, \
                 and this phase needs about {:.0} MiB more, allocator blocks included): stopped {place}",
                rss as f64 / MIB,
                more as f64 / MIB
            ),
            (Bound::MaxMemory, None) => format!(
                "the memory bound was reached (--max-memory {limit}): stopped {place}"
            ),
        };
        eprintln!("{name}: {line}");
    }

    /// Ends an open progress line (call once the check is over).
    pub fn end_line(&mut self) {
        if self.open_line {
            eprintln!();
            self.open_line = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.end_line();
    }
}

/// A size in bytes as `--max-memory` would take it, exactly: in MiB when it is a whole number
/// of MiB, else in KiB when a whole number of KiB, else in bytes (`40 MiB`, `1 KiB`,
/// `1536 bytes`).
pub fn size_words(bytes: u64) -> String {
    match bytes {
        1 => "1 byte".to_string(),
        b if b != 0 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b != 0 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Parses a size such as `512M`, `8G`, `8GiB`, `1.5G` or `1048576` (bytes) into bytes. The
/// unit is one of `K`, `M`, `G`, `T`, optionally followed by `B` or `iB` (all powers of 1024:
/// the bound is on resident memory, which the system counts in pages of 4 KiB), or `B`, or
/// none. Strict: anything else is an error that says what is accepted.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let accepted = "a size such as 512M, 8G, 8GiB or 1.5G (units K, M, G, T, powers of 1024)";
    let bad = || format!("`{text}` is not {accepted}");
    if number.is_empty() || number.starts_with('.') || number.ends_with('.') {
        return Err(bad());
    }
    let value: f64 = number.parse().map_err(|_| bad())?;
    let shift = match unit.trim_start().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(bad()),
    };
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("`{text}` is too large"));
    }
    if bytes < 1.0 {
        return Err(format!(
            "`{text}` is zero: the bound must be at least 1 byte"
        ));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::{
        default_max_memory, machine_memory, parse_size, rss_bytes, size_words, Bound, Phase,
        Progress,
    };
    use std::time::Duration;

    #[test]
    fn the_memory_bound_stops_a_phase_and_only_that_phase() {
        if rss_bytes().is_none() {
            return; // no /proc here: the bound cannot be read (the CLI tests run where it can)
        }
        // One byte: passed at the first reading.
        let mut p = Progress::new(None, Some(1));
        std::thread::sleep(std::time::Duration::from_millis(20));
        let stop = (0..10_000).find_map(|i| p.tick(i, Some(0)));
        let stop = stop.expect("the memory bound stops the phase");
        assert_eq!(stop.bound, Bound::MaxMemory);
        assert_eq!(stop.phase, Phase::Exploring);
        assert_eq!(p.tick(1, None), Some(stop), "a stopped phase stays stopped");
        // The next phase starts afresh, and refuses an allocation that would pass the bound.
        p.phase(Phase::Graph, Some("p"), None);
        assert_eq!(p.stopped(), None);
        assert!(p.would_pass_memory(0, 0));
        assert_eq!(
            p.stopped().map(|s| (s.bound, s.phase)),
            Some((Bound::MaxMemory, Phase::Graph))
        );
        assert_eq!(p.stops().len(), 2);
        // Without a bound nothing stops.
        let mut free = Progress::new(None, None);
        assert!((0..10_000).all(|i| free.tick(i, None).is_none()));
        assert!(!free.would_pass_memory(u64::MAX / 2, 0));
    }

    #[test]
    fn the_default_bound_is_half_the_machine_in_whole_mib() {
        let (Some(machine), Some(bound)) = (machine_memory(), default_max_memory()) else {
            return; // no /proc here
        };
        assert_eq!(bound % (1 << 20), 0, "{bound}");
        assert!(
            bound <= machine / 2 && machine / 2 - bound < 1 << 20,
            "{bound} of {machine}"
        );
    }

    #[test]
    fn the_exploration_keeps_room_for_the_phases_after_it() {
        let Some(rss) = rss_bytes() else { return };
        // A bound well above what is resident now: nothing stops without a reserve…
        let limit = rss + (512 << 20);
        let run = |reserve: bool| {
            let mut p = Progress::new(None, Some(limit));
            if reserve {
                // …and with one of 1 MiB per state for 1000 states, the exploration stops.
                p.reserve_later(1 << 20, 0);
            }
            p.set_graph_size(1000, 0);
            std::thread::sleep(std::time::Duration::from_millis(20));
            (0..10_000).find_map(|i| p.tick(i, Some(0)))
        };
        assert_eq!(run(false), None);
        let stop = run(true).expect("the reserve stops the exploration");
        assert_eq!(
            (stop.bound, stop.phase),
            (Bound::MaxMemory, Phase::Exploring)
        );
    }

    #[test]
    fn the_budget_stops_exploring_and_graph_but_not_traces() {
        let mut p = Progress::new(None, None);
        p.set_budget(Some(std::time::Duration::ZERO));
        let stop = (0..10_000).find_map(|i| p.tick(i, Some(0)));
        assert_eq!(
            stop.map(|s| (s.bound, s.phase)),
            Some((Bound::Budget, Phase::Exploring))
        );
        p.phase(Phase::Graph, None, None);
        let stop = (0..10_000).find_map(|i| p.tick(i, None));
        assert_eq!(stop.map(|s| s.phase), Some(Phase::Graph));
        p.phase(Phase::Traces, None, None);
        assert!((0..10_000).all(|i| p.tick(i, None).is_none()));
        assert_eq!(p.stops().len(), 2);
        // Without a budget nothing stops.
        let mut free = Progress::new(None, None);
        free.set_budget(None);
        assert!((0..10_000).all(|i| free.tick(i, None).is_none()));
    }

    #[test]
    fn the_line_says_the_pass_and_the_scenario_of_how_many() {
        let mut p = Progress::new(Some("web: drain web".into()), None);
        p.set_position(Some((3, 8)));
        p.phase(Phase::Graph, None, None);
        p.part(Some("drain_completes"), Some(5000));
        p.step("components");
        let line = p.line(1200, None, Duration::from_secs(4)).unwrap();
        assert!(
            line.starts_with(
                "web: drain web: graph (drain_completes, components): 1200 of 5000 states, "
            ),
            "{line}"
        );
        assert!(line.ends_with(", 4 s; scenario 3 of 8"), "{line}");
        p.phase(Phase::Exploring, None, None);
        let line = p.line(10, Some(2), Duration::from_secs(1)).unwrap();
        assert!(
            line.starts_with("web: drain web: exploring: 10 states, depth 2, "),
            "{line}"
        );
        assert!(Progress::silent().line(1, None, Duration::ZERO).is_none());
    }

    #[test]
    fn sizes_parse_strictly() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("8GiB"), Ok(8 << 30));
        assert_eq!(parse_size("8gb"), Ok(8 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        for bad in [
            "", "M", "12X", "1..5G", ".5G", "5.G", "-1G", "1 G B", "1e9", "G8", "0", "0M",
        ] {
            assert!(parse_size(bad).is_err(), "{bad:?} parsed");
        }
        assert!(parse_size("99999999999T").is_err());
    }

    #[test]
    fn sizes_are_said_exactly() {
        assert_eq!(size_words(40 << 20), "40 MiB");
        assert_eq!(size_words(8 << 30), "8192 MiB");
        assert_eq!(size_words(1 << 10), "1 KiB");
        assert_eq!(size_words(1536), "1536 bytes");
        assert_eq!(size_words((1 << 20) + (1 << 10)), "1025 KiB");
        assert_eq!(size_words(1), "1 byte");
        assert_eq!(size_words(0), "0 bytes");
        // Every size said reads back as itself.
        for b in [1, 1024, 1536, 40 << 20, (1 << 20) + 1, 3 << 29] {
            let w = size_words(b).replace(" bytes", "").replace(" byte", "");
            assert_eq!(parse_size(&w), Ok(b), "{w}");
        }
    }
}
