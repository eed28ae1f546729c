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
//! **No input is walked as it is** (since the switch's last step; `dialect::walk_input`, the
//! path before the model, is the tests' reference only): a schema the model cannot write
//! back (`schema::lower`'s `Unlowerable`) is a [`ConvertError`] naming its pointer and the
//! reason (none of the fixtures, the MCP corpus and the suite but the two corrections below;
//! an `enum` beside `items` of a type array with a value of the type, say, which the model
//! reads as the enum alone: "the converter cannot write this schema for a dialect"). What the
//! walk would merge in a lowered document, the lowering merges (`schema/lower/settle.rs`, on
//! the one `allOf` merge, `dialect::merge_parts`): an intersection the model keeps, a `$ref`
//! beside keywords where the walk inlines its target (`schema/lower/merged.rs`: not a
//! recursive target, nor one a dialect keeps shared, read from the lowered document's
//! references as the walk reads them), a root `$ref` beside keywords, a union's keywords
//! into its branches (those of another type narrowed away); and it writes a union's `$ref`
//! branch beside keywords as its definition. Where parts do not merge, the lowering names
//! the conflict (the error as the walk over the input names it) at the place the walk meets
//! the schema, after every move of the lowering (`Lowered::conflicts`, a last pass over the
//! lowered document), and the walk reports it there: an error before it in the walk's order
//! still comes first. The walk merges nothing itself: its `allOf` merge, type-array split,
//! enum-`null` rewrite and union distribution are the tests' reference walk only
//! (`dialect/input.rs`, compiled for the tests); on a lowered document each would be an
//! internal [`ConvertError`], which no fixture, corpus, suite or shape input and none of
//! 900,000 random conversions gives (`fuzz_tests.rs`). An error's pointer names a place the
//! input has (the nearest one, where the schema was moved: merged into another, copied
//! into a union's branches). A `$ref` inside a keyword the model does not read (`if`,
//! `then`, `else`, `$recursiveRef`'s neighbours, ...) is written as the input has it, and so
//! is its target, where the reference points (`schema/lower/opaque.rs`).
//!
//! **What the walk's own merges' removal changed** (a harness of 191,880 records: every input
//! of the fixtures, the MCP corpus, the suite, the 1,296 shapes and 1,500 random documents of
//! `fuzz_tests.rs`'s generator, in 10 dialects x 4 option sets, against the conversion
//! before): no fixture's or corpus schema's output, error or report changed. Error texts of
//! 3,960 shape records now name the `$ref` that writes a `type` beside it where no branch of
//! the union it names has that type (was: the union's definition, which is valid on its
//! own), and 112 suite and 2,768 random records a place the input has (was: a place below a
//! schema the lowering moved, `/anyOf/0` of a type array, say); report lines of 348 shape and
//! 1,632 random records name the same changes where the input writes them. Two corrections:
//! a root `$ref` to a union of objects beside `required` is read with the `required` in
//! every variant (OpenAI and Gemini wrote "the root schema must be an object"; they now write
//! the one object of tagged variants); an intersection of a `type` with a shared union no
//! branch of which has that type is an error under `keep_defs` too (was: the type dropped
//! beside the kept reference, the union accepted). And an annotation of an `allOf` part that
//! is a chain of two `$ref`s is the first part's, as for one `$ref` (was: the later part's).
//!
//! **Correction:** an `enum` or `const` none of whose values is of the `type` beside it, next
//! to an array keyword (a BFCL tool of the MCP corpus: `metrics` is `type: array` with `items`
//! and an `enum` of strings), was written as it is, a schema no value satisfies (llguidance:
//! "Unsatisfiable schema"); it is now a [`ConvertError`] naming the schema's pointer
//! (`/properties/metrics`), in every dialect but `JsonSchema`.
//!
//! **Correction:** a tuple position two `allOf` parts give schemas the normalizer cannot merge
//! (3 suite inputs, "additionalItems does not look in applicators": one part's list says
//! `string` there, the other's rest `boolean`) was written with the first part's schema alone
//! (`string`, accepting `[1, "hello"]`, which the input rejects); it is now a [`ConvertError`]
//! naming the position (`/allOf/0/items/1`).
//!
//! `schema/lower_tests.rs` holds the conversion through the model to the walk over the input,
//! schema for schema and accept for reject, over the fixtures, the MCP corpus, the suite and
//! 1,296 `$ref`-with-siblings shapes (`ref_sibling_shapes_convert_as_their_input`; there, the
//! listed corrections aside).
//!
//! **What the switch changed** (the comparison harness: every input of the fixtures, the MCP
//! corpus, the suite, the derived seed types and the 1,296 shapes, in 10 dialects x 4 option
//! sets, plus the TypeScript printer: 178,922 records, against the walk over the input):
//! - **Schemas:** only those of 22 shapes (770 records), the listed corrections: an `enum`
//!   value of another type than the `type` (or the union branch) beside it is left out, as
//!   JSON Schema validation 6.1.1 / 6.1.2 read together require (the walk over the input kept
//!   it at a root, or copied it into every branch). No fixture, corpus, suite or derived
//!   type's schema changed.
//! - **Accepted to rejected:** 90 records, the two corrections above (BFCL `metrics`, 45; the
//!   three `additionalItems` suite inputs, 45). Nothing rejected before is accepted.
//! - **Error texts** of 1,238 records: 760 name the input's `oneOf` branch where the walk
//!   named the `anyOf` it made of it; 120 name the `allOf` part that writes a property; where
//!   an input is invalid in two places, the normalizer's order decides which error comes
//!   first (180: another unresolvable `$ref` of the same input); 45 name a `$ref` to the
//!   `false` schema as the `false` schema at its definition (was: "`$ref` to something that
//!   is not a schema", wrong since draft 6 makes `false` a schema); 5 name the definition a
//!   root `$ref` leads to (was: the root); 128 are the additionalItems inputs' merge error and
//!   input places of the 10 suite inputs the lowering now merges.
//! - **Report lines** of 14,324 records (`tests/dialect_baseline.rs` lists the fixtures and
//!   corpus inputs among them): the same changes named where the input writes them (the
//!   `oneOf` branch, the `allOf` part, the `$ref`, the type array beside a `$ref`), a
//!   keyword's per-branch lines as one line at the union it was written beside, order, and
//!   lines lost for an `allOf` the walk built itself (not in the input) or the per-branch
//!   "dropped" line of a keyword the model keeps in the branch it applies to (`maxLength`
//!   beside `string|integer`, kept for the string as before). No kind of change is reported
//!   that was not before. Lines naming a pointer the input does not have fell from 10,352 to
//!   56, and lines naming a keyword the schema there does not have from 6,540 to 1,016.
//!
//! **Cost** (callgrind, `examples/convert_cost.rs`: the 389 MCP corpus schemas, each
//! converted into the 5 provider dialects, release, the loading of the corpus (18.57M)
//! subtracted): `to_dialect` 64.0M on the walk over the input (574f478), 175.1M at the switch,
//! 145.9M after it (2.28x the old path), 147.0M since the lowering names the conflicts (2.30x);
//! with the report (`to_dialect_with`, the side table read) 66.8M, 203.9M, 166.5M, 167.7M now
//! (2.51x). About 75,000 instructions per schema and dialect.
//! Normalize and lower are the same for every dialect. What is left is mostly allocation: the
//! owned model's keyword maps, keys and values; the lowered document's serde_json maps (hashed
//! with SipHash on insert); the walk on the lowered document (about 44M); freeing the model
//! and the lowered document (about 20M).
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

pub(crate) use dialect::table::rules;
pub use dialect::table::{
    Bounds, DialectRules, Lengths, Limits, MinItems, Patterns, RootUnion, Unknown,
};
pub(crate) use dialect::{clause_note, is_meta, required_names, to_dialect_quiet, type_branches};
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
