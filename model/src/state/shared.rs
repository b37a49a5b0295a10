//! [`Shared`]: a part of the state shared between the states that have it in common, with its
//! hash kept.
//!
//! A step changes one pod, or one node's runtime record of it; everything else in the next
//! state is what the state before had. Keeping each pod, runtime record and node behind a
//! reference-counted pointer makes a state's clone a few pointer copies instead of a deep
//! copy, lets the states of the search frontier share what they have in common, and lets the
//! hash of an unchanged part be reused: hashing a state writes one word per part.
//!
//! Mutation goes through [`DerefMut`](std::ops::DerefMut), which copies the part first if
//! another state shares it (`Arc::make_mut`) and forgets its hash, so no code that changes
//! the state can leave a stale hash behind. The hash is computed again, from the content and
//! with fixed keys, the next time the part is hashed: equal parts hash alike on every run.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A shared, copy-on-write part of the state with its hash kept (see the module
/// documentation).
///
/// One pointer: the kept hashes live beside the content in the shared allocation, so that a
/// state, and a list of parts, is a third the size it would be with them in every copy of
/// the pointer (a step moves and copies states and lists of parts), and a hash computed
/// through one copy is known to all. The content never changes while it is shared (a change
/// copies it first), so neither do its hashes.
pub struct Shared<T> {
    value: Arc<Kept<T>>,
}

/// The content and its kept hashes.
struct Kept<T> {
    value: T,
    /// The content's hash; 0 = not known yet.
    hash: AtomicU64,
    /// The symmetry reduction's key of the content ([`Shared::symmetry_key`]); 0 = not known
    /// yet.
    key: AtomicU64,
}

impl<T: Clone> Clone for Kept<T> {
    /// The copy `Arc::make_mut` makes before a change: the hashes come along, and the change
    /// forgets those it affects.
    fn clone(&self) -> Self {
        Kept {
            value: self.value.clone(),
            hash: AtomicU64::new(self.hash.load(Ordering::Relaxed)),
            key: AtomicU64::new(self.key.load(Ordering::Relaxed)),
        }
    }
}

/// The hash of a part's content: fixed keys, so the same on every run and every thread.
fn content_hash<T: Hash>(value: &T) -> u64 {
    const KEYS: (u64, u64) = (0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344);
    // 0 marks "not known".
    ahash::RandomState::with_seeds(KEYS.0, KEYS.1, 0, 0)
        .hash_one(value)
        .max(1)
}

impl<T> Shared<T> {
    pub fn new(value: T) -> Self {
        Shared {
            value: Arc::new(Kept {
                value,
                hash: AtomicU64::new(0),
                key: AtomicU64::new(0),
            }),
        }
    }

    /// The value, copied out if another state shares it.
    pub fn into_inner(self) -> T
    where
        T: Clone,
    {
        match Arc::try_unwrap(self.value) {
            Ok(kept) => kept.value,
            Err(shared) => shared.value.clone(),
        }
    }

    /// Whether two parts are the very same (not only equal): the step that made one from
    /// the other left it alone.
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        Arc::ptr_eq(&a.value, &b.value)
    }
}

impl<T: Hash> Shared<T> {
    /// The content's hash (computed once, then kept until the next change).
    pub fn content_hash(&self) -> u64 {
        let h = self.value.hash.load(Ordering::Relaxed);
        if h != 0 {
            return h;
        }
        let h = content_hash(&self.value.value);
        self.value.hash.store(h, Ordering::Relaxed);
        h
    }
}

impl<T> Shared<T> {
    /// A second hash of the content, kept like the content's: the key by which the symmetry
    /// reduction tells parts apart without their identity (`crate::symmetry`). `key` must be
    /// a function of the content alone, and the same one for every part of type `T` (there
    /// is one slot): it is computed once, then kept until the next change.
    pub fn symmetry_key(&self, key: impl FnOnce(&T) -> u64) -> u64 {
        let k = self.value.key.load(Ordering::Relaxed);
        if k != 0 {
            return k;
        }
        let k = key(&self.value.value).max(1);
        self.value.key.store(k, Ordering::Relaxed);
        k
    }
}

impl<T: Clone> Shared<T> {
    /// The value, to change in what its symmetry key leaves out (the symmetry reduction
    /// renaming a pod's uid and suffix): the content hash is forgotten, the key kept.
    pub fn rename(&mut self) -> &mut T {
        let kept = Arc::make_mut(&mut self.value);
        *kept.hash.get_mut() = 0;
        &mut kept.value
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Self {
        Shared::new(value)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared {
            value: Arc::clone(&self.value),
        }
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value.value
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        let kept = Arc::make_mut(&mut self.value);
        *kept.hash.get_mut() = 0;
        *kept.key.get_mut() = 0;
        &mut kept.value
    }
}

impl<T: Hash> Hash for Shared<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.content_hash());
    }
}

impl<T: PartialEq + Hash> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.value, &other.value) || self.value.value == other.value.value
    }
}

impl<T: Eq + Hash> Eq for Shared<T> {}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value.value.fmt(f)
    }
}

impl<T: Default> Default for Shared<T> {
    fn default() -> Self {
        Shared::new(T::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h<T: Hash>(v: &T) -> u64 {
        let mut s = std::collections::hash_map::DefaultHasher::new();
        v.hash(&mut s);
        s.finish()
    }

    #[test]
    fn a_change_through_deref_mut_changes_the_hash_and_leaves_the_sharer_alone() {
        let a = Shared::new(vec![1u8, 2, 3]);
        let before = h(&a);
        let mut b = a.clone();
        assert!(Shared::ptr_eq(&a, &b));
        assert_eq!(h(&b), before);
        b.push(4);
        assert!(!Shared::ptr_eq(&a, &b));
        assert_eq!(*a, vec![1, 2, 3]);
        assert_ne!(h(&b), before);
        assert_eq!(h(&a), before);
        // Changed back, it hashes as the original again: the hash is the content's.
        b.pop();
        assert_eq!(h(&b), before);
        assert_eq!(a, b);
    }

    #[test]
    fn equal_contents_hash_alike_whatever_their_history() {
        let a = Shared::new(String::from("web-0"));
        let mut b = Shared::new(String::from("web-1"));
        b.pop();
        b.push('0');
        assert_eq!(h(&a), h(&b));
        assert_eq!(a, b);
    }
}
