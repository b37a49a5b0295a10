//! The sizes the model's state can hold: a scenario beyond them is refused where it enters.

/// The largest cpu (millicores) or memory (MiB) a scenario may give one container or node:
/// 2^40, far above any machine, so that the sums over a node's pods, in 64 bits, cannot
/// overflow.
pub const MAX_RESOURCE: u64 = 1 << 40;

/// The largest amount of any other resource (ephemeral-storage and hugepages in bytes, an
/// extended resource in units) a scenario may give one container or node: 2^50 (1 PiB of
/// bytes); the sums over a node's pods saturate rather than wrap.
pub const MAX_SCALAR: u64 = 1 << 50;

/// The longest duration a scenario may give, in seconds: the model's clock counts in 16 bits,
/// and the sum of two durations (a delay after a grace period, say) must still fit.
pub const MAX_SECONDS: u16 = u16::MAX / 2;

/// How many distinct images a scenario may name: each node's images are a 32-bit set.
pub const MAX_IMAGES: usize = 32;

/// How many faults a scenario may list: which ones have happened is a 32-bit set.
pub const MAX_FAULTS: usize = 32;

/// How many PersistentVolumeClaims a scenario may have (declared, referenced, and one per
/// StatefulSet ordinal and claim template): a node's volumes in use are a 32-bit set.
pub const MAX_CLAIMS: usize = 32;

/// How many PodDisruptionBudgets a scenario may have: they are counted in 8 bits.
pub const MAX_BUDGETS: usize = u8::MAX as usize;

/// How many workloads a scenario may have, and containers a pod template: both are counted
/// in 8 bits in the state and the actions.
pub const MAX_WORKLOADS: usize = u8::MAX as usize;
pub const MAX_CONTAINERS: usize = u8::MAX as usize;

/// Jobs the model holds: at most this many pods at once and this many completion indexes.
pub const MAX_JOB_PARALLELISM: u8 = 5;
pub const MAX_JOB_COMPLETIONS: u8 = 16;
