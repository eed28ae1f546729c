//! Run-time conversion of any JSON Schema (an MCP tool's `input_schema`, a schema from an OpenAPI
//! document, the output of another tool) into a provider dialect or into TypeScript text.
//!
//! Derived types go through the same code: `T::json_schema(d)` renders the full 2020-12 schema of
//! the type and hands it to [`to_dialect`], so derived and converted schemas obey the same rules.
//!
//! # The pipeline of [`to_dialect_with`], in order
//!
//! 1. **Input checks** (`dialect/check.rs`): bounded JSON nesting; `Dialect::JsonSchema` returns
//!    its input once every subschema is a schema and every `$ref` resolves; a root that is
//!    not an object is an error.
//! 2. **Normalize** (`schema/`): the input read once into the owned model, references as a
//!    definitions table with recursion marked, `allOf` merged, type arrays and `nullable` as
//!    unions, constraints typed. An input it rejects is rejected with its error (no input it
//!    rejects converted before either).
//! 3. **Lower** (`schema/lower.rs`): the model written back as one canonical JSON Schema, and a
//!    side table from each lowered schema to the input pointer it was read from; type arrays
//!    split, `oneOf` unions as `anyOf`, an enum's `null` as the `nullable` flag, a union's
//!    keywords merged into its branches (`dialect::with_beside`).
//! 4. **The dialect walk** (`dialect/`, its module docs list its passes) on the lowered
//!    document; `dialect/model.rs` maps every pointer of an error or a change back to the
//!    input through the side table and reports the rewrites steps 2 and 3 did (`$ref`
//!    inlined, `allOf` merged, type array split, `oneOf` to `anyOf`, keywords copied into a
//!    union's branches, an `additionalItems` without effect dropped) where and in the order
//!    the walk reports its own.
//!
//! [`to_typescript`] reads the model of step 2 (`typescript/`).
//!
//! **Where the walk still reads the input itself** (`dialect::walk_input`, the path before
//! the model): an input the model cannot write back (`schema::lower`'s `Unlowerable`: 1 of the
//! 493 fixture and corpus inputs, an `enum` beside `items`; 9 of the 1,429 JSON Schema Test
//! Suite inputs: a tuple position the normalizer merged from two parts' lists with the rest
//! of one (3), a `$ref` inside a keyword the model does not read (6)), and an input whose lowered document the walk
//! would merge itself (10 suite inputs: 6 with a union beside keywords and with a `$ref`
//! branch, which the walk makes an `allOf` of and merges; 4 with one property both beside a
//! union and in its branch, whose two schemas the merge into the branch writes as an
//! `allOf`). Until those are lowered, `dialect/merge.rs`'s `allOf` merge,
//! `dialect/normalize.rs`'s type-array / `oneOf` / nullable rewrites and `walk.rs`'s union
//! distribution stay for that path (on lowered input they never run: `schema/lower_tests.rs`
//! counts it).
//!
//! **What the switch changed** (the comparison harness: every input of the fixtures, the MCP
//! corpus, the suite and the derived seed types, in 10 dialects x 4 option sets, plus
//! `to_dialect` and the TypeScript printer): no schema, no accept / reject, no derived type's
//! output and no TypeScript text changed. Error texts of 840 of 108,938 records changed: 490
//! name the input's `oneOf` branch where the walk named the `anyOf` it made of it, 60 name the
//! `allOf` part that writes a property, 60 name a `$ref` merged with its siblings at the
//! `$ref`'s schema (was: at its target), 5 name the definition inside a reference chain (was:
//! the root); where an input is invalid in two places, the normalizer's order decides which
//! error comes first (180: another unresolvable `$ref` of the same input; 45: a `$ref` to
//! `false` reported as the `false` schema at its target, was as "not a schema" at the use).
//! Report lines of 960 records changed place or order (suite inputs, and 6 fixture and corpus
//! inputs; `tests/dialect_baseline.rs` lists those of its dialects): 1,432 lines name the same
//! change where the input writes it (the `oneOf` branch, the `allOf` part, the `$ref`, the
//! keywords beside a union), 264 per-branch lines of one keyword copied into a union's
//! branches are one line at the union, and 12 lines for an `allOf` the walk built itself
//! (items over a tuple's positions, not in the input) are gone; lines at a pointer that is not
//! in the input, or naming a keyword the schema there does not have, fell from 3,416 to 1,780,
//! none new.
//!
//! **Cost** (callgrind on the release lib-test binary, the 389 MCP corpus schemas, each
//! converted into the 5 provider dialects, the loading of the corpus subtracted): `to_dialect`
//! 66.7M before (the walk over the input), 177.0M after (2.65x: normalize 49.6M, lower 31.7M,
//! the walk on the lowered document 52.2M, dropping the model and the lowered document most of
//! the rest); with the report (`to_dialect_with`, the side table read) 69.6M before, 202.5M
//! after (2.9x). Normalize and lower are the same for every dialect.
//!
//! # Modules
//!
//! - `schema/`: the normalized, owned schema model, its normalizer and its lowering. The model
//!   and the dialect passes share the reference table (`dialect/refs.rs`: every reference
//!   resolved once, alias chains followed, recursion and uses marked), what a `required`
//!   clause is, the annotation test (`is_meta`), and the merge rules: how one keyword's
//!   values combine across `allOf` parts (`schema::merge_keyword`: types, enums and constants
//!   intersect, bounds tighten), which values of an enum a type beside it keeps
//!   (`schema::retain_of_type`), how a `$ref`'s own keywords combine with its target's
//!   (`schema::over_target`) and how one part's rest (`items`) applies to another part's
//!   tuple positions (`rest_over_positions`, as the model's `both_arrays`).
//!   `tests/readers_agree.rs` holds the two readers to the same shapes. The model keeps the
//!   input's keyword order (`Schema::order`), which the lowered document and so the dialect
//!   output follow, and tells a tuple closed by `items: false` from an open one
//!   (`Array::closed`). Known approximation: positions past a closed tuple's end are not cut
//!   when two `allOf` parts' arrays merge. Work on big inputs is linear (union branches,
//!   required names, kept definitions, root-union variants and the TypeScript printer's
//!   recursive definitions are found by hash; `dialect/branches.rs` and `typescript/tests.rs`
//!   count it) except two known corners: an `allOf` of many parts that each add a few
//!   `required` names compares each name with the list so far (parts x names, a memory
//!   compare each), and one property with many different schemas across root-union variants
//!   compares each schema with the earlier ones.
//! - `dialect/`: the dialect passes and their rule tables.
//! - `typescript/`: the TypeScript printer (its module docs list its passes in order).

pub(crate) mod dialect;
mod error;
pub(crate) mod pointer;
mod schema;
mod typescript;

pub(crate) use dialect::table::rules;
pub use dialect::table::{
    Bounds, DialectRules, Lengths, Limits, MinItems, Patterns, RootUnion, Unknown,
};
pub(crate) use dialect::{clause_note, is_meta, required_names, type_branches};
pub use dialect::{
    to_dialect, to_dialect_report, to_dialect_with, Change, ChangeKind, Converted, DialectOptions,
    MAX_DEPTH, MAX_NODES,
};
pub use error::{ConvertError, ConvertErrorKind};
use serde_json::{Map, Value};
pub use typescript::{to_typescript, TsOptions};

/// Lookups in the small maps of a schema: a linear scan is cheaper than hashing the key.
pub(crate) trait SmallMap {
    /// [`Map::get`].
    fn fget(&self, key: &str) -> Option<&Value>;
    /// [`Map::get_mut`].
    fn fget_mut(&mut self, key: &str) -> Option<&mut Value>;
    /// [`Map::contains_key`].
    fn fhas(&self, key: &str) -> bool {
        self.fget(key).is_some()
    }
}

/// Above this many keys a map is searched by hash.
pub(crate) const SMALL: usize = 12;

impl SmallMap for Map<String, Value> {
    #[inline]
    fn fget(&self, key: &str) -> Option<&Value> {
        if self.len() <= SMALL {
            self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
        } else {
            self.get(key)
        }
    }

    #[inline]
    fn fget_mut(&mut self, key: &str) -> Option<&mut Value> {
        if self.len() <= SMALL {
            self.iter_mut()
                .find(|(k, _)| k.as_str() == key)
                .map(|(_, v)| v)
        } else {
            self.get_mut(key)
        }
    }
}

impl SmallMap for Value {
    #[inline]
    fn fget(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|m| m.fget(key))
    }

    #[inline]
    fn fget_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_object_mut().and_then(|m| m.fget_mut(key))
    }
}

/// A few words on what kind of JSON value `v` is, for error messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
