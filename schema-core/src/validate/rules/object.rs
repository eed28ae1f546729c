//! The object keywords: the schema of a property (`properties`, then `additionalProperties`),
//! `required`, `dependentRequired`, `minProperties` and `maxProperties`. (`patternProperties`
//! and `propertyNames` apply subschemas: the walkers evaluate them.)

use super::super::compile::{Additional, Node, NodeId};
use super::{Broken, Objects};

/// The node of `properties`' entry `key` (a scan of a short list costs less than hashing the
/// key).
#[inline]
pub(crate) fn property(n: &Node, key: &str) -> Option<NodeId> {
    if n.properties.len() <= 16 {
        n.properties.iter().find(|(k, _)| k == key).map(|(_, c)| *c)
    } else {
        n.property(key)
    }
}

/// Whether `required` lists `key` (a `null` for a property it does not list reads as absent
/// when parsing).
#[inline]
pub(crate) fn is_required(n: &Node, key: &str) -> bool {
    n.required.iter().any(|r| r == key)
}

/// `additionalProperties`, for the property `key` that no `properties` or `patternProperties`
/// entry names: the schema its value must match (`Ok(Some)`), any value (`Ok(None)`), or an
/// error (`false`).
#[inline]
pub(crate) fn additional<'n>(n: &'n Node, key: &'n str) -> Result<Option<NodeId>, Broken<'n>> {
    match n.additional {
        Additional::Allowed => Ok(None),
        Additional::Schema(c) => Ok(Some(c)),
        Additional::Forbidden => Err(Broken::Additional {
            key,
            objects: Objects::One(n),
        }),
    }
}

/// `required`: each name it lists that the object lacks, in the order listed, with its error;
/// `has(i, name)` says whether `required[i]`, `name`, is present.
pub(crate) fn missing_required<'n>(
    nodes: &'n [Node],
    n: &'n Node,
    mut has: impl FnMut(usize, &str) -> bool,
) -> impl Iterator<Item = (&'n str, Broken<'n>)> {
    n.required
        .iter()
        .enumerate()
        .filter(move |(i, name)| !has(*i, name))
        .map(move |(_, name)| {
            (
                name.as_str(),
                Broken::Required {
                    name,
                    node: n,
                    nodes,
                },
            )
        })
}

/// `dependentRequired`: each name the object lacks that a present property asks for, with its
/// error; `has(name)` says whether `name` is present.
pub(crate) fn missing_dependent<'n>(
    n: &'n Node,
    has: impl Fn(&str) -> bool + Copy,
) -> impl Iterator<Item = (&'n str, Broken<'n>)> {
    n.dependent_required
        .iter()
        .filter(move |(name, _)| has(name))
        .flat_map(move |(name, deps)| {
            deps.iter()
                .filter(move |dep| !has(dep))
                .map(move |dep| (dep.as_str(), Broken::DependentRequired { because: name }))
        })
}

/// `minProperties`, of an object of `len` properties.
pub(crate) fn min_properties(n: &Node, len: u64) -> Result<(), Broken<'static>> {
    match n.min_properties {
        Some(min) if len < min => Err(Broken::MinProperties { min, len }),
        _ => Ok(()),
    }
}

/// `maxProperties`, of an object of `len` properties.
pub(crate) fn max_properties(n: &Node, len: u64) -> Result<(), Broken<'static>> {
    match n.max_properties {
        Some(max) if len > max => Err(Broken::MaxProperties { max, len }),
        _ => Ok(()),
    }
}
