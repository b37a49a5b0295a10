//! client-go `flowcontrol.Backoff` (staging/src/k8s.io/client-go/util/flowcontrol/backoff.go)
//! as pure values on absolute seconds, one entry per key.
//!
//! `None` stands for "no entry for this key" (never set, `Reset`, `DeleteEntry` or removed by
//! `GC`). Jitter is 0 (`NewBackOff` calls `NewBackOffWithJitter(initial, max, 0.0)`).
//!
//! Sources: `docs/sources.md#client-go-exponential-back-off`,
//! `docs/sources.md#kubelet-crash-back-off`, `docs/sources.md#kubelet-image-pull-back-off`.
//! Conformance rows: upstream `backoff_test.go` and the derived
//! crash back-off schedule (`docs/sources.md#conformance-tables`).

/// The reset rule: `Backoff.HasExpiredFunc`, or the default `hasExpired`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expiry {
    /// Default `hasExpired`: `eventTime - lastUpdate > 2*maxDuration` (`backoff.go` `hasExpired`).
    TwiceMax,
    /// A custom `HasExpiredFunc`: `eventTime - lastUpdate > N` seconds. The kubelet's crash
    /// back-off uses 600 (`NewMainKubelet` in `pkg/kubelet/kubelet.go`).
    After(u64),
}

/// `NewBackOff(initial, max)` plus its reset rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BackoffPolicy {
    /// `defaultDuration`, seconds.
    pub initial: u64,
    /// `maxDuration`, seconds.
    pub max: u64,
    pub expiry: Expiry,
}

/// `backoffEntry`: the current delay and the time of the last `Next`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BackoffEntry {
    /// Seconds.
    pub backoff: u64,
    /// Absolute seconds.
    pub last_update: i64,
}

/// The kubelet's `crashLoopBackOff`: `NewBackOff(10s, 300s)` with
/// `HasExpiredFunc = eventTime - lastUpdate > 600s` (`pkg/kubelet/kubelet.go`; default gates).
pub const CRASH_LOOP_BACKOFF: BackoffPolicy = BackoffPolicy {
    initial: 10,
    max: 300,
    expiry: Expiry::After(600),
};

/// The kubelet's image-pull back-off: `NewBackOff(imageBackOffPeriod=10s,
/// MaxImageBackOff=300s)` with the default reset rule, 2 × 300 s (`pkg/kubelet/kubelet.go`).
pub const IMAGE_PULL_BACKOFF: BackoffPolicy = BackoffPolicy {
    initial: 10,
    max: 300,
    expiry: Expiry::TwiceMax,
};

impl BackoffPolicy {
    /// `hasExpired(eventTime, lastUpdate, maxDuration)` or the policy's `HasExpiredFunc`.
    pub fn has_expired(&self, event_time: i64, last_update: i64) -> bool {
        let elapsed = i128::from(event_time) - i128::from(last_update);
        let limit = match self.expiry {
            Expiry::TwiceMax => i128::from(self.max) * 2,
            Expiry::After(s) => i128::from(s),
        };
        elapsed > limit
    }

    /// `Next(id, eventTime)` at clock `now`: no entry or an expired one → `initial`;
    /// otherwise `min(2 * backoff, max)`; then `lastUpdate = now` (the clock, not `eventTime`).
    pub fn next(&self, entry: Option<BackoffEntry>, event_time: i64, now: i64) -> BackoffEntry {
        let backoff = match entry {
            Some(e) if !self.has_expired(event_time, e.last_update) => {
                e.backoff.saturating_mul(2).min(self.max)
            }
            _ => self.initial,
        };
        BackoffEntry {
            backoff,
            last_update: now,
        }
    }

    /// `IsInBackOffSince(id, eventTime)` at clock `now`: an entry exists, it has not expired
    /// relative to `eventTime`, and `now - eventTime < backoff`. This is `doBackOff`'s test
    /// with `eventTime = FinishedAt` of the newest exited container.
    pub fn is_in_backoff_since(
        &self,
        entry: Option<BackoffEntry>,
        event_time: i64,
        now: i64,
    ) -> bool {
        match entry {
            None => false,
            Some(e) if self.has_expired(event_time, e.last_update) => false,
            Some(e) => i128::from(now) - i128::from(event_time) < i128::from(e.backoff),
        }
    }

    /// `IsInBackOffSinceUpdate(id, now)`: an entry exists, it has not expired relative to
    /// `now`, and `now - lastUpdate < backoff`. The image manager's check (`EnsureImageExists`).
    pub fn is_in_backoff_since_update(&self, entry: Option<BackoffEntry>, now: i64) -> bool {
        match entry {
            None => false,
            Some(e) if self.has_expired(now, e.last_update) => false,
            Some(e) => i128::from(now) - i128::from(e.last_update) < i128::from(e.backoff),
        }
    }

    /// `Get(id)`: the current delay, 0 without an entry.
    pub fn get(entry: Option<BackoffEntry>) -> u64 {
        entry.map_or(0, |e| e.backoff)
    }

    /// `GC()` at clock `now` keeps an entry iff it has not expired relative to `now`.
    pub fn gc_keeps(&self, entry: BackoffEntry, now: i64) -> bool {
        !self.has_expired(now, entry.last_update)
    }
}

/// The CrashLoopBackOff schedule for `n` rapid exits: for exit `k`, the wait before the
/// restart and the back-off entry right after it (`docs/sources.md#kubelet-crash-back-off`).
///
/// Driven through [`BackoffPolicy`] with [`CRASH_LOOP_BACKOFF`], exactly as `doBackOff`
/// does: the container exits at `FinishedAt = t`; the kubelet restarts it at the first whole
/// second `now ≥ t` where `IsInBackOffSince(key, FinishedAt)` is false, then calls
/// `Next(key, FinishedAt)` at `now`. "Rapid" means the restarted container exits at once,
/// so the next `FinishedAt` is that `now`.
pub fn crash_loop_schedule(n: usize) -> Vec<(u64, u64)> {
    let p = CRASH_LOOP_BACKOFF;
    let mut entry: Option<BackoffEntry> = None;
    let mut t: i64 = 0;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let finished = t;
        let mut now = finished;
        while p.is_in_backoff_since(entry, finished, now) {
            now += 1;
        }
        let e = p.next(entry, finished, now);
        entry = Some(e);
        // `now - finished` is non-negative: the loop only moves `now` forward.
        out.push((now.abs_diff(finished), e.backoff));
        t = now;
    }
    out
}

/// The wait before each restart for `n` rapid exits: 0, 10, 20, 40, 80,
/// 160, 300, 300, … seconds. See [`crash_loop_schedule`].
pub fn crash_loop_delays(n: usize) -> Vec<u64> {
    crash_loop_schedule(n).into_iter().map(|(w, _)| w).collect()
}
