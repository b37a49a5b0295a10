//! Conformance of `podcheck_k8s::backoff` with client-go's exponential back-off
//! (staging/src/k8s.io/client-go/util/flowcontrol/backoff.go): the upstream tests of
//! backoff_test.go (at commit 04791b4906602ffda5ccf9bc4c84d3329f1d7080), then the kubelet's
//! two policies and its CrashLoopBackOff schedule, then property tests.

use podcheck_k8s::*;
use proptest::prelude::*;

/// The upstream test file of the rows below.
const BOT: &str = "staging/src/k8s.io/client-go/util/flowcontrol/backoff_test.go";

const fn fake(initial: u64, max: u64) -> BackoffPolicy {
    // NewFakeBackOff: default reset rule (2 × max).
    BackoffPolicy {
        initial,
        max,
        expiry: Expiry::TwiceMax,
    }
}

/// backoff_test.go TestSlowBackoff (1 s, 50 s): `Get` before each `Next`, the clock stepping
/// 1 s per call; then `Reset`.
#[test]
fn test_slow_backoff() {
    let p = fake(1, 50);
    let expected = [0u64, 1, 2, 4, 8, 16, 32, 50, 50, 50];
    let mut now = 0i64;
    let mut e: Option<BackoffEntry> = None;
    for (ix, want) in expected.iter().enumerate() {
        now += 1;
        assert_eq!(
            BackoffPolicy::get(e),
            *want,
            "{BOT} TestSlowBackoff call {}",
            ix + 1
        );
        e = Some(p.next(e, now, now));
    }
    // Next then Reset (drop the entry): Get == 0.
    e = Some(p.next(e, now, now));
    assert_eq!(BackoffPolicy::get(e), 50);
    e = None;
    assert_eq!(BackoffPolicy::get(e), 0);
}

/// Six `Next` calls one second apart with (1 s, 5 s): backoff 5 s, lastUpdate at t = 6.
fn to_max(p: &BackoffPolicy) -> (Option<BackoffEntry>, i64) {
    let mut now = 0i64;
    let mut e = None;
    for _ in 0..=5 {
        now += 1;
        e = Some(p.next(e, now, now));
    }
    (e, now)
}

/// backoff_test.go TestBackoffReset (1 s, 5 s).
#[test]
fn test_backoff_reset() {
    let p = fake(1, 5);
    let (e, now) = to_max(&p);
    assert_eq!(BackoffPolicy::get(e), 5);
    assert!(p.is_in_backoff_since(e, now, now));
    let last_update = now;
    let now = now + 2 * 5 + 1;
    // `now - lastUpdate = 11 ≥ 5`, so not in back-off. (The eventTime passed is lastUpdate
    // itself, so it is the elapsed-time test, not the expiry test, that gives false.)
    assert!(!p.is_in_backoff_since(e, last_update, now));
}

/// backoff_test.go TestBackoffHighWaterMark (1 s, 5 s).
#[test]
fn test_backoff_high_water_mark() {
    let p = fake(1, 5);
    let (e, now) = to_max(&p);
    let now = now + 5 + 1;
    let e = Some(p.next(e, now, now));
    assert_eq!(BackoffPolicy::get(e), 5);
}

/// backoff_test.go TestBackoffGC (1 s, 5 s).
#[test]
fn test_backoff_gc() {
    let p = fake(1, 5);
    let (e, now) = to_max(&p);
    let e = e.expect("entry");
    let now = now + 6;
    assert!(
        p.gc_keeps(e, now),
        "{BOT} TestBackoffGC: 6 s after the last update: kept"
    );
    let now = now + 6;
    assert!(
        !p.gc_keeps(e, now),
        "{BOT} TestBackoffGC: 12 s > 2 × 5 s: removed"
    );
}

/// backoff_test.go TestIsInBackOffSinceUpdate (1 s, 10 s): one row per upstream tick. Upstream asserts the value only on
/// in-back-off rows; here the value of the other rows is checked too as `Get` before the
/// `Next` call, except tick 56, whose "0 (reset)" means the entry has expired (21 s > 20 s),
/// so `Next` restarts from the initial 1 s (checked at tick 57).
#[test]
fn test_is_in_backoff_since_update() {
    let p = fake(1, 10);
    let mut rows: Vec<(i64, bool, u64)> = vec![
        (0, false, 0),
        (1, false, 1),
        (2, true, 2),
        (3, false, 2),
        (4, true, 4),
        (5, true, 4),
        (6, true, 4),
        (7, false, 4),
        (8, true, 8),
    ];
    rows.extend((9..=14).map(|t| (t, true, 8)));
    rows.push((15, false, 8));
    rows.push((16, true, 10));
    rows.extend((17..=24).map(|t| (t, true, 10)));
    rows.push((25, false, 10));
    rows.extend((26..=34).map(|t| (t, true, 10)));
    rows.push((35, false, 10));
    rows.push((56, false, 0));
    rows.push((57, false, 1));

    let mut e: Option<BackoffEntry> = None;
    for (tick, in_backoff, value) in rows {
        assert_eq!(
            p.is_in_backoff_since_update(e, tick),
            in_backoff,
            "{BOT} TestIsInBackOffSinceUpdate tick {tick}"
        );
        if tick == 56 {
            let last = e.expect("entry").last_update;
            assert!(
                p.has_expired(tick, last),
                "{BOT} TestIsInBackOffSinceUpdate tick 56: expired"
            );
        } else {
            assert_eq!(
                BackoffPolicy::get(e),
                value,
                "{BOT} TestIsInBackOffSinceUpdate value at tick {tick}"
            );
        }
        if !in_backoff {
            e = Some(p.next(e, tick, tick));
        }
    }
    assert_eq!(BackoffPolicy::get(e), 2, "after tick 57's Next");
}

/// The kubelet's two back-offs (pkg/kubelet/kubelet.go, `NewMainKubelet`): both 10 s doubling to
/// 300 s; CrashLoopBackOff resets after 600 s (its `HasExpiredFunc`), the image-pull back-off
/// after client-go's default 2 × max. They differ only in the reset rule.
#[test]
fn kubelet_backoff_policies() {
    assert_eq!(
        CRASH_LOOP_BACKOFF,
        BackoffPolicy {
            initial: 10,
            max: 300,
            expiry: Expiry::After(600)
        }
    );
    assert_eq!(
        IMAGE_PULL_BACKOFF,
        BackoffPolicy {
            initial: 10,
            max: 300,
            expiry: Expiry::TwiceMax
        }
    );
    assert!(!CRASH_LOOP_BACKOFF.has_expired(600, 0));
    assert!(CRASH_LOOP_BACKOFF.has_expired(601, 0));
    assert!(!IMAGE_PULL_BACKOFF.has_expired(600, 0));
    assert!(IMAGE_PULL_BACKOFF.has_expired(601, 0));
}

// ---------------------------------------------------------------------------------------
// The kubelet's CrashLoopBackOff schedule. Derived from source, not an upstream test table:
// `doBackOff` in pkg/kubelet/kuberuntime/kuberuntime_manager.go over the flowcontrol.Backoff
// that `NewMainKubelet` configures (10 s initial, 300 s max, reset after 600 s).
// ---------------------------------------------------------------------------------------

/// Rapid crash number n: the wait before its restart and the back-off entry after it; then the
/// reset after a run of more than 600 s.
#[test]
fn crash_loop_backoff_schedule() {
    let rows: &[(usize, u64, u64)] = &[
        (1, 0, 10),
        (2, 10, 20),
        (3, 20, 40),
        (4, 40, 80),
        (5, 80, 160),
        (6, 160, 300),
        (7, 300, 300),
        (8, 300, 300),
        (9, 300, 300),
    ];
    let sched = crash_loop_schedule(rows.len());
    let delays = crash_loop_delays(rows.len());
    for &(exit, wait_s, entry) in rows {
        assert_eq!(
            sched[exit - 1],
            (wait_s, entry),
            "doBackOff schedule, exit #{exit}"
        );
        assert_eq!(delays[exit - 1], wait_s, "crash_loop_delays, exit #{exit}");
    }

    // Reset row: the container ran > 600 s after the last restart → restart at once, entry 10.
    let p = CRASH_LOOP_BACKOFF;
    let e = Some(BackoffEntry {
        backoff: 300,
        last_update: 0,
    });
    let finished = 601;
    assert!(!p.is_in_backoff_since(e, finished, finished));
    assert_eq!(p.next(e, finished, finished).backoff, 10);
    // Exactly 600 s is not > 600 s: still in back-off, and Next would double (capped).
    assert!(p.is_in_backoff_since(e, 600, 600));
    assert_eq!(p.next(e, 600, 900).backoff, 300);
}

fn policy_strategy() -> impl Strategy<Value = BackoffPolicy> {
    prop_oneof![
        Just(CRASH_LOOP_BACKOFF),
        Just(IMAGE_PULL_BACKOFF),
        (1u64..20, 1u64..400, prop::bool::ANY).prop_map(|(i, m, twice)| BackoffPolicy {
            initial: i.min(m),
            max: m,
            expiry: if twice {
                Expiry::TwiceMax
            } else {
                Expiry::After(2 * m)
            },
        }),
    ]
}

proptest! {
    /// The back-off never exceeds `max` and never drops below `initial`.
    #[test]
    fn backoff_stays_within_bounds(p in policy_strategy(), steps in prop::collection::vec(0i64..1500, 1..40)) {
        let mut now = 0i64;
        let mut e: Option<BackoffEntry> = None;
        for d in steps {
            now += d;
            let n = p.next(e, now, now);
            prop_assert!(n.backoff <= p.max);
            prop_assert!(n.backoff >= p.initial.min(p.max));
            e = Some(n);
        }
    }

    /// The CrashLoopBackOff wait is non-decreasing for rapid exits and capped at 300 s.
    #[test]
    fn crash_loop_delays_monotone_and_capped(n in 0usize..30) {
        let d = crash_loop_delays(n);
        prop_assert_eq!(d.len(), n);
        prop_assert!(d.windows(2).all(|w| w[0] <= w[1]));
        prop_assert!(d.iter().all(|&x| x <= 300));
    }

}
