//! A schema's own keywords, read in one pass over its keys before its shape is read ([`head`]):
//! its description, its keyword order, the keywords the model keeps as written ([`kept`]), and
//! which of the keywords the normalizer looks for it has ([`Has`]), so that an absent keyword
//! costs a bit test, not a search of the map.

use super::normalize::malformed;
#[cfg(test)]
use super::normalize::SHAPE_KEYWORDS;
use super::Schema;
use crate::convert::{is_meta, kind_of, pointer, ConvertError, SmallMap};
use serde_json::{Map, Value};

type R<T> = Result<T, ConvertError>;

/// Keywords that make a schema without `type` an array ([`Has::of`] marks them; its test
/// holds it to the list).
#[cfg(test)]
const ARRAY_KEYWORDS: &[&str] = &[
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
];

/// Keywords the model holds in [`Schema::kind`] (or drops: `$defs`, which the table replaces)
/// besides the shape keywords (`normalize::SHAPE_KEYWORDS`); every other keyword stays in
/// [`Schema::keywords`]. (Read as one match with the shape keywords by [`kept`]; the list is
/// what its test holds it to.)
#[cfg(test)]
const STRUCTURAL: &[&str] = &[
    "additionalItems",
    "not",
    "description",
    "nullable",
    "$defs",
    "definitions",
];

/// Which of the keywords the normalizer looks for a schema has (found in [`head`]'s one pass
/// over its keys, so that each absent one is a bit test rather than a search of the map).
#[derive(Clone, Copy)]
pub(super) struct Has(u32);

impl Has {
    pub(super) const REF: u32 = 1;
    pub(super) const ALL_OF: u32 = 1 << 1;
    pub(super) const ANY_OF: u32 = 1 << 2;
    pub(super) const ONE_OF: u32 = 1 << 3;
    pub(super) const NOT: u32 = 1 << 4;
    pub(super) const CONST: u32 = 1 << 5;
    pub(super) const ENUM: u32 = 1 << 6;
    pub(super) const TYPE: u32 = 1 << 7;
    pub(super) const NULLABLE: u32 = 1 << 8;
    /// One of the object keywords (`normalize::OBJECT_KEYWORDS`).
    pub(super) const OBJECT_KEYWORD: u32 = 1 << 9;
    /// One of the `ARRAY_KEYWORDS`.
    pub(super) const ARRAY_KEYWORD: u32 = 1 << 10;

    /// The bit of the keyword `k` (0 for the others).
    fn of(k: &str) -> u32 {
        match k {
            "$ref" => Has::REF,
            "allOf" => Has::ALL_OF,
            "anyOf" => Has::ANY_OF,
            "oneOf" => Has::ONE_OF,
            "not" => Has::NOT,
            "const" => Has::CONST,
            "enum" => Has::ENUM,
            "type" => Has::TYPE,
            "nullable" => Has::NULLABLE,
            "properties"
            | "additionalProperties"
            | "patternProperties"
            | "required"
            | "minProperties"
            | "maxProperties"
            | "propertyNames" => Has::OBJECT_KEYWORD,
            "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" => Has::ARRAY_KEYWORD,
            _ => 0,
        }
    }

    /// Whether the schema has any of the keywords of `bits`.
    pub(super) fn any(self, bits: u32) -> bool {
        self.0 & bits != 0
    }
}

/// Whether the keyword `k` stays in [`Schema::keywords`]: `type` (as written too: whether an
/// integer is meant is a note of its own) and every keyword that is neither one of the
/// shape keywords (`normalize::SHAPE_KEYWORDS`) nor `STRUCTURAL` (the two lists written as
/// one match: one comparison by length and bytes, not a search of both lists;
/// `kept_is_the_two_lists` holds them equal).
fn kept(k: &str) -> bool {
    !matches!(
        k,
        "const"
            | "enum"
            | "$ref"
            | "allOf"
            | "anyOf"
            | "oneOf"
            | "properties"
            | "additionalProperties"
            | "patternProperties"
            | "required"
            | "items"
            | "prefixItems"
            | "additionalItems"
            | "not"
            | "description"
            | "nullable"
            | "$defs"
            | "definitions"
    )
}

/// A schema's own description and kept keywords, before its shape is read, written into `s`
/// (a new schema: filled in place, not moved out of a return value).
#[inline(never)]
pub(super) fn head(s: &mut Schema, m: &Map<String, Value>, at: &str) -> R<Has> {
    // (`at` is the caller's to move in)
    s.desc = match m.fget("description") {
        None => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(other) => {
            return malformed(
                &pointer::push(at, "description"),
                format!("expected a string, found {}", kind_of(other)),
            )
        }
    };
    // (annotations as the dialect converter reads them: `is_meta`)
    s.everything = m.keys().all(|k| is_meta(k));
    // One pass for the order and which keywords are kept (the first 64 marked in `marks`, so
    // that the copy below does not test them again).
    s.order = Vec::with_capacity(m.len());
    let (mut n, mut marks, mut has) = (0, 0u64, Has(0));
    for (i, k) in m.keys().enumerate() {
        s.order.push(super::key(k));
        has.0 |= Has::of(k);
        if kept(k) {
            n += 1;
            if i < 64 {
                marks |= 1 << i;
            }
        }
    }
    if n > 0 {
        s.keywords = Map::with_capacity(n);
        for (i, (k, v)) in m.iter().enumerate() {
            let keep = if i < 64 {
                marks & (1 << i) != 0
            } else {
                kept(k)
            };
            if keep {
                s.keywords.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(has)
}

#[cfg(test)]
mod tests {
    use super::super::normalize::OBJECT_KEYWORDS;
    use super::*;

    /// [`Has::of`] marks the object and array keywords as the lists name them, and no other
    /// keyword with their bits.
    #[test]
    fn has_marks_the_lists() {
        for k in OBJECT_KEYWORDS {
            assert_eq!(Has::of(k), Has::OBJECT_KEYWORD, "{k}");
        }
        for k in ARRAY_KEYWORDS {
            assert_eq!(Has::of(k), Has::ARRAY_KEYWORD, "{k}");
        }
        for k in [
            "dependentRequired",
            "additionalItems",
            "title",
            "x-a",
            "",
            "$defs",
        ] {
            assert_eq!(Has::of(k), 0, "{k}");
        }
        let names = [
            "$ref", "allOf", "anyOf", "oneOf", "not", "const", "enum", "type",
        ];
        let bits: Vec<u32> = names
            .iter()
            .chain(&["nullable"])
            .map(|k| Has::of(k))
            .collect();
        assert!(bits.iter().all(|b| b.count_ones() == 1));
        assert_eq!(bits.iter().fold(0, |a, b| a | b).count_ones(), 9);
    }

    /// [`kept`] is the test written with the two lists: `type`, or neither a shape keyword nor
    /// a structural one.
    #[test]
    fn kept_is_the_two_lists() {
        let by_lists =
            |k: &str| k == "type" || !(SHAPE_KEYWORDS.contains(&k) || STRUCTURAL.contains(&k));
        let others = [
            "minLength",
            "title",
            "default",
            "x-a",
            "",
            "typ",
            "enums",
            "$id",
        ];
        for k in SHAPE_KEYWORDS.iter().chain(STRUCTURAL).chain(&others) {
            assert_eq!(kept(k), by_lists(k), "{k}");
        }
    }
}
