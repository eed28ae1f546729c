//! Run-time conversion of any JSON Schema (an MCP tool's `input_schema`, a schema from an OpenAPI
//! document, the output of another tool) into a provider dialect or into TypeScript text.
//!
//! Derived types go through the same code: `T::json_schema(d)` renders the full 2020-12 schema of
//! the type and hands it to [`to_dialect`], so derived and converted schemas obey the same rules.
//!
//! # The pipeline of [`to_dialect_with`], in order
//!
//! 0. **Shape rewrites** (`rewrite/`): what the target's rule table cannot express is
//!    rewritten into a form it can (a map as `{key, value}` entries, a tuple as an object
//!    `{_0, _1, ...}`, a value of any type as JSON text, recursion unrolled, a plan for a
//!    per-request budget, a non-object root wrapped), each change reported at its input
//!    pointer and its inverse added to the [`ReadBack`] plan ([`Converted::read_back`]).
//! 1. **Input checks** (`dialect/check.rs`): bounded JSON nesting; `Dialect::JsonSchema` returns
//!    its input once every subschema is a schema and every `$ref` resolves; a schema that is
//!    not an object (`true`) is an error.
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
//!    union's branches, an `additionalItems` without effect dropped, a keyword the model
//!    left out where it has no effect) where and in the order the walk reports its own.
//!
//! [`to_typescript`] reads the model of step 2 (`typescript/`).
//!
//! # What holds for every conversion
//!
//! - **No input is walked as it is.** The walk reads the lowered document only; what it would
//!   merge there (an `allOf`, a `$ref` beside keywords, a union's keywords), the lowering
//!   merges (`schema/lower/settle.rs`, on the one `allOf` merge, `dialect::merge_parts`), or
//!   names as a conflict at the place the walk meets the schema (`Lowered::conflicts`), which
//!   the walk reports there. A form the walk meets that the lowering should have merged is an
//!   internal [`ConvertError`] ("please report this schema"); a schema the model cannot write
//!   back (`schema::lower`'s `Unlowerable`) is a [`ConvertError`] naming its pointer and why.
//! - **Errors and changes name places the input has.** Every pointer of an error or a change
//!   is mapped back through the lowering's side table (the nearest input place where a schema
//!   was moved: merged into another, copied into a union's branches).
//! - **No value the input accepts is refused by the output** unless the dialect's rule says so
//!   and the change is reported: an object closed, an optional property made required and
//!   nullable, a `type` the dialect needs where the input implies one from its keywords alone
//!   (`properties` without `type`), which other dialects leave out. Constraints a dialect
//!   cannot carry move into the description (the validator still enforces them).
//! - **A schema no value satisfies is an error, never an output**: an `enum` or `const` none of
//!   whose values is of the `type` beside it, two `allOf` parts' tuple positions that do not
//!   merge. An `enum` or `const` of objects where the dialect closes every object is written
//!   as the schemas of its values.
//! - **Drafts 4 to 7 ignore the keywords beside a `$ref`** (`crate::vocab`): they are left out
//!   and reported before the model is built, as the validator ignores them.
//! - **Work is linear in the input's size.** The keywords beside a union copied into its
//!   branches are bounded by four times the input's values (beyond, the conversion is refused
//!   naming the union); the engines that compile a `$ref` once (llguidance, xgrammar) keep
//!   shared definitions whose copies would blow the output up; the TypeScript printer
//!   declares such definitions once. A `$ref` inside a keyword the model does not read (`if`,
//!   `then`, ...) is written as the input has it, and so is its target
//!   (`schema/lower/opaque.rs`); a `$ref` into a place the lowering merged away follows its
//!   definition into the root's `$defs`.
//!
//! `schema/lower_tests.rs` holds the conversion through the model to the walk over the input
//! (`dialect/input.rs`, compiled for the tests), schema for schema and accept for reject, over
//! the fixtures, the MCP corpus, the suite and 1,296 `$ref`-with-siblings shapes; the named
//! corrections are listed there. `crosscheck/tests/jsonschemabench.rs` converts the 11,305
//! schemas of JSONSchemaBench into every dialect, with llguidance and the `jsonschema` crate as
//! oracles.
//!
//! **Cost**: about 75,000 instructions per schema and dialect on the MCP corpus
//! (`examples/convert_cost.rs` under callgrind). Normalize and lower are the same for every
//! dialect; what is left is mostly allocation: the owned model's keyword maps, the lowered
//! document's maps, the walk on the lowered document, and freeing both.
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
//! - `rewrite/`: the shape rewrites and the read-back plan.
//! - `typescript/`: the TypeScript printer (its module docs list its passes in order).

pub(crate) mod dialect;
mod error;
#[cfg(test)]
mod fuzz_tests;
pub(crate) mod pointer;
pub(crate) mod rewrite;
mod schema;
mod typescript;

#[cfg(feature = "view")]
pub(crate) use dialect::clause_note;
pub(crate) use dialect::table::rules;
pub use dialect::table::{
    Bounds, DialectRules, Lengths, Limits, MinItems, Patterns, RootUnion, Unknown,
};
pub(crate) use dialect::{is_meta, required_names, to_dialect_quiet, type_branches};
pub use dialect::{
    to_dialect, to_dialect_report, to_dialect_with, Change, ChangeKind, Converted, DialectOptions,
    MAX_DEPTH, MAX_NODES,
};
pub use error::{ConvertError, ConvertErrorKind};
pub use rewrite::{ReadBack, DEFAULT_RECURSION_DEPTH, DEFAULT_ROOT_KEY};
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
