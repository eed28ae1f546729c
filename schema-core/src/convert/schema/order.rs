//! The keyword order of the model ([`Schema::order`](super::Schema::order)): how a keyword's
//! name is held, and how the orders of merged parts join.

use std::borrow::Cow;
use std::collections::HashSet;

/// A keyword's name in [`Schema::order`](super::Schema::order): borrowed for the keywords of
/// the specification (no copy per schema), owned for the others.
pub(crate) type Key = Cow<'static, str>;

/// The [`Key`] of the keyword `k`.
pub(crate) fn key(k: &str) -> Key {
    Cow::Borrowed(match k {
        "type" => "type",
        "description" => "description",
        "title" => "title",
        "properties" => "properties",
        "required" => "required",
        "additionalProperties" => "additionalProperties",
        "patternProperties" => "patternProperties",
        "items" => "items",
        "prefixItems" => "prefixItems",
        "additionalItems" => "additionalItems",
        "enum" => "enum",
        "const" => "const",
        "default" => "default",
        "examples" => "examples",
        "format" => "format",
        "pattern" => "pattern",
        "minLength" => "minLength",
        "maxLength" => "maxLength",
        "minimum" => "minimum",
        "maximum" => "maximum",
        "exclusiveMinimum" => "exclusiveMinimum",
        "exclusiveMaximum" => "exclusiveMaximum",
        "multipleOf" => "multipleOf",
        "minItems" => "minItems",
        "maxItems" => "maxItems",
        "uniqueItems" => "uniqueItems",
        "minProperties" => "minProperties",
        "maxProperties" => "maxProperties",
        "propertyNames" => "propertyNames",
        "dependentRequired" => "dependentRequired",
        "anyOf" => "anyOf",
        "oneOf" => "oneOf",
        "allOf" => "allOf",
        "not" => "not",
        "$ref" => "$ref",
        "$defs" => "$defs",
        "definitions" => "definitions",
        "$schema" => "$schema",
        "$id" => "$id",
        "$comment" => "$comment",
        "nullable" => "nullable",
        "deprecated" => "deprecated",
        "readOnly" => "readOnly",
        "writeOnly" => "writeOnly",
        other => return Cow::Owned(other.to_string()),
    })
}

/// Adds the keyword order `from` of a later part (or of the schema's own keywords) to `into`,
/// the order of the parts before it: each keyword not there yet goes at the end, as the
/// dialect converter's merge inserts it; `$ref` and `allOf` of `from` are left out (their
/// parts are what was merged), and so are `$defs` and `definitions` (a part's definitions
/// table is not part of the merged schema). Linear time: a set beside the list once it is long.
pub(super) fn join_order(into: &mut Vec<Key>, from: &[Key]) {
    join(into, from, false);
}

/// [`join_order`] for the schema's own keywords (`from`) after its merged parts: its own
/// `$defs` / `definitions` keep their place.
pub(super) fn join_own(into: &mut Vec<Key>, from: &[Key]) {
    join(into, from, true);
}

fn join(into: &mut Vec<Key>, from: &[Key], own: bool) {
    const SCAN: usize = 16;
    let mut seen: Option<HashSet<Key>> = None;
    for k in from {
        let skip = match k.as_ref() {
            "$ref" | "allOf" => true,
            "$defs" | "definitions" => !own,
            _ => false,
        };
        if skip {
            continue;
        }
        let there = match &mut seen {
            Some(set) => !set.insert(k.clone()),
            None if into.len() < SCAN => into.contains(k),
            None => {
                let mut set: HashSet<Key> = into.iter().cloned().collect();
                let there = !set.insert(k.clone());
                seen = Some(set);
                there
            }
        };
        if !there {
            into.push(k.clone());
        }
    }
}
