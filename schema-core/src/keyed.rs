//! [`Keyed`]: a hash map whose hash table stores only indices into a `Vec` of values.
//!
//! This is a compile-time measure. Every `HashMap<K, V>` instantiates hashbrown's table code
//! (lookup, insertion, rehashing, drop: 2,000-3,500 lines of LLVM IR in a debug build) once per
//! `(K, V)` pair. A `Keyed<K, V>` holds a `HashMap<K, usize>`, so all the `Keyed` maps with the
//! same key type share one instantiation of that code, and only the thin `Vec<V>` part is
//! instantiated per value type. Lookups cost one extra index into the `Vec`.
//!
//! Values are never removed, so the indices stay valid; iteration (`values`) is in insertion
//! order.

use std::borrow::Borrow;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::Hash;

/// A map from `K` to `V` whose hash table maps keys to positions in a `Vec<V>`.
pub(crate) struct Keyed<K, V> {
    index: HashMap<K, usize>,
    values: Vec<V>,
}

impl<K, V> Default for Keyed<K, V> {
    fn default() -> Self {
        Keyed {
            index: HashMap::new(),
            values: Vec::new(),
        }
    }
}

impl<K: Hash + Eq, V> Keyed<K, V> {
    /// An empty map.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The value for `k`, if any.
    pub(crate) fn get<Q>(&self, k: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.index.get(k).map(|&i| &self.values[i])
    }

    /// Whether `k` has a value.
    pub(crate) fn contains_key<Q>(&self, k: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.index.contains_key(k)
    }

    /// Sets the value for `k`; the previous value, if any (as `HashMap::insert`).
    pub(crate) fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.index.entry(k) {
            Entry::Occupied(e) => Some(std::mem::replace(&mut self.values[*e.get()], v)),
            Entry::Vacant(e) => {
                e.insert(self.values.len());
                self.values.push(v);
                None
            }
        }
    }

    /// The value for `k`, inserting `make()` first when there is none (as
    /// `entry(k).or_insert_with(make)`).
    pub(crate) fn get_or_insert_with(&mut self, k: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.index.entry(k) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                e.insert(self.values.len());
                self.values.push(make());
                self.values.len() - 1
            }
        };
        &mut self.values[i]
    }

    /// Every entry, in the hash table's (unspecified) order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V)> + '_ {
        self.index.iter().map(|(k, &i)| (k, &self.values[i]))
    }

    /// Every value, in insertion order.
    pub(crate) fn values(&self) -> std::slice::Iter<'_, V> {
        self.values.iter()
    }

    /// Whether the map is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::Keyed;

    #[test]
    fn behaves_as_a_map() {
        let mut m: Keyed<String, u32> = Keyed::new();
        assert!(m.is_empty());
        assert_eq!(m.insert("a".into(), 1), None);
        assert_eq!(m.insert("b".into(), 2), None);
        assert_eq!(m.insert("a".into(), 3), Some(1));
        assert_eq!(m.get("a"), Some(&3));
        assert_eq!(m.get("c"), None);
        assert!(m.contains_key("b") && !m.contains_key("c"));
        *m.get_or_insert_with("b".into(), || 9) += 10;
        assert_eq!(*m.get_or_insert_with("c".into(), || 9), 9);
        assert_eq!(m.values().copied().collect::<Vec<_>>(), [3, 12, 9]);
        let mut all: Vec<_> = m.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        all.sort();
        assert_eq!(all, [("a", 3), ("b", 12), ("c", 9)]);
    }
}
