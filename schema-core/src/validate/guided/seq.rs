//! Arrays: each item checked against its position's node (tuples) or `items`, and the bounds.

use super::*;

pub(super) struct GuidedSeq<'g, A> {
    pub(super) seq: A,
    pub(super) cx: &'g Cx<'g>,
    /// The node of the items after `prefix` (`None`: anything goes). Kept as the node rather
    /// than a guide, so that each item's guide is built from two words instead of copied.
    pub(super) items: Option<&'g Info>,
    /// The nodes of the first items, one per position (a tuple).
    pub(super) prefix: &'g [NodeId],
    pub(super) count: u64,
    /// `minItems` and `maxItems` (`0` / `u64::MAX` when absent), as [`rules::min_items_of`]
    /// and [`rules::max_items_so_far`] read them.
    pub(super) min: u64,
    pub(super) max: u64,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for GuidedSeq<'_, A> {
    type Error = A::Error;
    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let g = match self.prefix.get(self.count as usize) {
            Some(&id) => self.cx.guide(id, false),
            None => Guide {
                cx: self.cx,
                mode: match self.items {
                    Some(i) => Mode::Node(i, false),
                    None => Mode::Free,
                },
            },
        };
        match self.seq.next_element_seed(GuidedSeed { seed, g })? {
            Some(v) => {
                self.count += 1;
                if rules::max_items_so_far(self.max, self.count).is_err() {
                    return Err(fail("too many items"));
                }
                Ok(Some(v))
            }
            None => {
                if rules::min_items_of(self.min, self.count).is_err() {
                    return Err(fail("too few items"));
                }
                Ok(None)
            }
        }
    }
    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}
