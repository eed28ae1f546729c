//! The union keywords: the tag of a tagged `anyOf` / `oneOf` (a `discriminator`, or branches
//! that each pin a tag property to a different string), with [`tag_so_far`] for a tag still
//! arriving, and `oneOf`'s count of passing branches.

use super::super::compile::{Discriminator, NodeId};
use super::Broken;

/// The index of the branch whose tag is `tag` among a tagged union's `branches`.
#[inline]
pub(crate) fn tag_index(branches: &[(String, NodeId)], tag: &str) -> Option<usize> {
    branches.iter().position(|(t, _)| t == tag)
}

/// The branch a tagged union's tag names (`tag`: `None` when the tag is not a string);
/// `one_of`: the union is a `oneOf`.
#[inline]
pub(crate) fn tag_branch<'n>(
    d: &'n Discriminator,
    one_of: bool,
    tag: Option<&str>,
) -> Result<NodeId, Broken<'n>> {
    tag.and_then(|t| tag_index(&d.branches, t))
        .map(|i| d.branches[i].1)
        .ok_or(Broken::TagUnknown { d, one_of })
}

/// A tagged union's tag still arriving, `so_far` its text yet: it fails once no branch's tag
/// begins so.
#[cfg(feature = "stream")]
#[inline]
pub(crate) fn tag_so_far<'n>(
    d: &'n Discriminator,
    one_of: bool,
    so_far: &str,
) -> Result<(), Broken<'n>> {
    if d.branches.iter().any(|(t, _)| t.starts_with(so_far)) {
        Ok(())
    } else {
        Err(Broken::TagUnknown { d, one_of })
    }
}

/// A tagged union's object must have its tag (`present`: it has).
#[inline]
pub(crate) fn tag_required(d: &Discriminator, present: bool) -> Result<(), Broken<'_>> {
    if present {
        Ok(())
    } else {
        Err(Broken::TagMissing(d))
    }
}

/// `anyOf` (`exactly_one` false) or `oneOf`, given the indexes of the branches the value
/// passes: `Err(None)` when it passes none (the walker reports the closest branch's errors),
/// `Err(Some)` when a `oneOf` passes several.
pub(crate) fn branch_count(exactly_one: bool, passing: &[usize]) -> Result<(), Option<Broken<'_>>> {
    match passing.len() {
        0 => Err(None),
        1 => Ok(()),
        _ if exactly_one => Err(Some(Broken::OneOfMany(passing))),
        _ => Ok(()),
    }
}
