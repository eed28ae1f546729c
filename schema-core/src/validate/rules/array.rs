//! The array keywords: `minItems` and `maxItems` (with [`max_items_so_far`] for an array still
//! arriving), the schema of the item at a position (`prefixItems`, then `items`), the bounds on
//! the items matching `contains`, and `uniqueItems`.

use super::super::check::canonical;
use super::super::compile::{Node, NodeId};
use super::Broken;
use serde_json::Value;
use std::collections::HashSet;

/// `minItems` `min` (`0` when absent), of an array of `len` items.
#[inline(always)]
pub(crate) fn min_items_of(min: u64, len: u64) -> Result<(), Broken<'static>> {
    if len < min {
        Err(Broken::MinItems { min, len })
    } else {
        Ok(())
    }
}

/// `maxItems` `max` (`u64::MAX` when absent), of an array of `len` items.
#[inline(always)]
pub(crate) fn max_items_of(max: u64, len: u64) -> Result<(), Broken<'static>> {
    if len > max {
        Err(Broken::MaxItems { max, len })
    } else {
        Ok(())
    }
}

/// `minItems`, of an array of `len` items.
pub(crate) fn min_items(n: &Node, len: u64) -> Result<(), Broken<'static>> {
    min_items_of(n.min_items.unwrap_or(0), len)
}

/// `maxItems`, of an array of `len` items.
pub(crate) fn max_items(n: &Node, len: u64) -> Result<(), Broken<'static>> {
    max_items_of(n.max_items.unwrap_or(u64::MAX), len)
}

/// `maxItems` `max` of an array still arriving, `count` items begun so far: more can only make
/// it longer.
#[inline(always)]
pub(crate) fn max_items_so_far(max: u64, count: u64) -> Result<(), Broken<'static>> {
    if count > max {
        Err(Broken::MaxItemsSoFar { max })
    } else {
        Ok(())
    }
}

/// The schema the item at `index` must match: its `prefixItems` entry, else `items` (`None`:
/// any item).
#[inline]
pub(crate) fn item_node(n: &Node, index: usize) -> Option<NodeId> {
    n.prefix_items.get(index).copied().or(n.items)
}

/// `contains` with `minContains` and `maxContains`, of an array with `count` items matching the
/// `contains` schema (only asked when `contains` is written).
pub(crate) fn contains_count(n: &Node, count: u64) -> Result<(), Broken<'static>> {
    let min = n.min_contains.unwrap_or(1);
    if count < min {
        return Err(Broken::MinContains {
            min,
            count,
            written: n.min_contains.is_some(),
        });
    }
    match n.max_contains {
        Some(max) if count > max => Err(Broken::MaxContains { max, count }),
        _ => Ok(()),
    }
}

/// `uniqueItems`: the indexes of the items equal (as JSON Schema compares values: `1` equals
/// `1.0`) to an earlier one, in order; empty when the keyword is absent. Linear in the array's
/// size (each item's canonical text is hashed).
pub(crate) fn repeated_items(n: &Node, a: &[Value]) -> Vec<usize> {
    if !n.unique_items {
        return Vec::new();
    }
    let mut seen = HashSet::new();
    let mut repeats = Vec::new();
    for (i, item) in a.iter().enumerate() {
        let mut key = String::new();
        canonical(item, &mut key);
        if !seen.insert(key) {
            repeats.push(i);
        }
    }
    repeats
}
