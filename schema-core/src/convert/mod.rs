//! Run-time conversion of any JSON Schema (an MCP tool's `input_schema`, a schema from an OpenAPI
//! document, the output of another tool) into a provider dialect or into TypeScript text.
//!
//! Derived types go through the same code: `T::json_schema(d)` renders the full 2020-12 schema of
//! the type and hands it to [`to_dialect`], so derived and converted schemas obey the same rules.
//!
//! - `schema/`: the normalized, owned schema model and its normalizer (references as a
//!   definitions table with recursion marked, `allOf` merged, type arrays and `nullable` as
//!   unions, constraints typed). [`to_typescript`] reads only this model.
//! - `dialect/`: the dialect passes and their rule tables. They still walk the input JSON
//!   themselves (their own `$ref` inlining in `walk.rs`, their `allOf` merge of `properties` /
//!   `required` in `merge.rs`, the `nullable` / type-array / `oneOf` rewrites in
//!   `dialect/normalize.rs`), sharing with the model the reference table (`dialect/refs.rs`:
//!   every reference resolved once, alias chains followed, recursion and uses marked; the
//!   passes and the model's recursion marks take targets from it, none calls `refs::follow`
//!   per use), what a `required` clause is, the annotation test (`is_meta`), and the merge
//!   rules: how one keyword's values combine across `allOf` parts (`schema::merge_keyword`:
//!   types, enums and constants intersect, bounds tighten), which values of an enum a type
//!   beside it keeps (`schema::retain_of_type`), how a `$ref`'s own keywords combine with its
//!   target's (`schema::over_target`) and how one part's rest (`items`) applies to another
//!   part's tuple positions (`rest_over_positions`, as the model's `both_arrays`); both merge a
//!   schema's parts in one order (`$ref` target, `allOf` members, own keywords).
//!   `tests/readers_agree.rs` holds the two readers to the same shapes. The model keeps the
//!   input's keyword order (`Schema::order`: every keyword, unknown ones and annotations in
//!   place; merged parts in the order the dialect merge writes them, which
//!   `schema/order_tests.rs` holds against the dialect output of the fixtures and the MCP
//!   corpus; the passes add their own rules on top: `type` first, an object's keywords as one
//!   block, a union's annotations before its `anyOf`) and tells a tuple closed by `items:
//!   false` from an open one (`Array::closed`).
//!
//!   **Open part of issue 13** (what remains of the Build item "the dialect renderers read the
//!   model"): `Conv` emitting from the `Doc`, so that `walk.rs`'s inlining, `merge.rs` and
//!   `dialect/normalize.rs` can be deleted. Done toward it: the model lowers itself to one
//!   canonical JSON (`schema/lower.rs`), and `Conv` on that JSON writes byte for byte what it
//!   writes for the input, for every input of the fixtures, the MCP corpus and the JSON Schema
//!   Test Suite that both accept and the model can write back, and rejects the lowered JSON
//!   wherever it rejects the input (`schema/lower_tests.rs`: 493 + 1,429 inputs, 1 + 23 not
//!   written back (9 of the suite's since this round), each for a reason it names; of the
//!   rejected conversions 958 + 22,536 give the same error, 0 + 196 another). Beside those,
//!   `ref_sibling_shapes_convert_as_their_input` holds 1,296 `$ref`-with-siblings shapes
//!   (OpenAPI's `nullable` beside a `$ref`, type arrays, enums and object keywords beside
//!   references to objects, strings and unions) to the same: all written back, the walk
//!   merging or distributing nothing on their lowered documents, 22 listed corrections (enum
//!   values of another type than the one beside them, which the walk keeps at the root). No input the normalizer rejects converts in any
//!   dialect. Not done: the switch (`to_dialect` = input checks, normalize, lower, the walk)
//!   and the deletions; the lowering splits type arrays, writes `oneOf` unions as `anyOf`
//!   and an enum's `null` as the `nullable` flag as the walk does (the test holds that on
//!   lowered input those three rewrites of `dialect/normalize.rs` never run), and merges a
//!   union's keywords that are not annotations into its branches with the walk's own code
//!   (`dialect::with_beside`); it still writes an unmerged intersection as `allOf` and a
//!   union of `required` clauses as written, which the walk reads. The walk's own merges on
//!   lowered input (test-only counters `ALL_OF_MERGES`, `UNION_DISTRIBUTIONS`, which
//!   `lower_tests.rs` holds to the inputs it names): none for the fixtures and the MCP corpus
//!   (before: the distribution for one corpus schema and one fixture); for the suite, the
//!   distribution for 6 inputs (was 36), each a union with a `$ref` branch (the walk makes an
//!   `allOf` of the keywords and the branch, and merges it), and the `allOf` merge for 10:
//!   those 6, and 4 where one property is both beside the union and in a branch (the merge
//!   writes an `allOf` of its two schemas, which the walk merges again).
//!   Cost (callgrind on a release test binary, the 389 MCP corpus schemas once each):
//!   `to_dialect` 13.2M per dialect, `normalize` 13.5M (was 21.7M), `lower` 11.5M more (was
//!   13.6M), each with dropping what it built; the switch as it stands would cost about 2.9x
//!   today's conversion (was 3.4x); a trial of the wiring (branch `d26`, not merged) measured
//!   `to_dialect` over the corpus x 5 dialects at 174.7M instructions against 64.1M
//!   (`examples/convert_cost.rs` says how to re-run it). What is left is mostly allocation: the owned model's
//!   copies of keywords, descriptions and values, one pointer string per schema, and the
//!   lowered JSON's maps (serde_json's, hashed); one dialect's cost would take a model that
//!   borrows the input's values. What stands in the way, in order: (1) errors: the normalizer checks
//!   a whole subtree (constraint types, `required` lists) before a dialect pass would raise its own
//!   error elsewhere, so a walk over the model can report a different first error (pointer
//!   and message); the comparison harness holds 39,898 error records that must stay, so the
//!   model would have to keep its malformed parts for the pass to meet in walk order; (2) change reports: the model must
//!   keep, per merged keyword, the pointer the dialect reports it at (an inlined target's
//!   keywords at the target, `allOf` parts at `/allOf/i`, annotations dropped at the schema),
//!   and which rewrite happened where (`$ref` inlined, `allOf` merged, type array split,
//!   `oneOf` to `anyOf`, keywords distributed into branches). Measured in `lower_tests.rs`
//!   (the lowered document's reports, pointers mapped to the input through the side table,
//!   against the input's, as multisets): fixtures and corpus 16,090 conversions equal, 448
//!   differ, only in the rewrites the lowering did itself (reported for the input only:
//!   `oneOf` to `anyOf` 296 lines, distributed 164, type array split 144, `allOf` merged 36,
//!   `$ref` inlined 36) and in changes reported at another place (as many for the input as
//!   for the lowered document: moved to the description 72, added 68, made nullable 28,
//!   object closed 16, `const` to `enum` 12), which the test holds; suite 18,840 equal, 3,644
//!   differ (there also keywords dropped at other places, 1,584 against 1,488, and the
//!   walk's own merges of the named inputs). The side table does not carry keyword origins
//!   yet; (3) the passes' own order rules above (`type` first, object keywords
//!   as one block, a union's annotations first) applied to `order` (met by the lowering: the
//!   walk applies them to the lowered JSON, byte-identical); (4) where a merged
//!   keyword came from: a `$ref`'s sibling keywords are walked at its target's pointer but
//!   their changes (moved into the description, dropped) name the `$ref`, and an input
//!   `allOf`'s keyword changes name the part that wrote the keyword first (a `$ref` part's
//!   target keywords: the target), through `Conv::keyword_origins`, filled only for a report;
//!   known wrong still: errors raised on a sibling keyword name the target, a root `$ref`'s
//!   own keywords (`root.rs`) name the target, the other change kinds of a merged schema
//!   (`allOf` merged, object closed) name the schema it is walked at, and keywords of an
//!   `allOf` nested in a part name that part. No pass reads the model yet, and the TypeScript printer does not read `order` or
//!   `closed`. Known approximation of both readers: positions past a closed tuple's end are
//!   not cut when two `allOf` parts' arrays merge. Work on big inputs is linear (union
//!   branches, required names, kept definitions, root-union variants and the TypeScript
//!   printer's recursive definitions are found by hash; `dialect/branches.rs` and
//!   `typescript/tests.rs` count it) except two known corners: an `allOf` of many parts that
//!   each add a few `required` names compares each name with the list so far (parts × names,
//!   a memory compare each), and one property with many different schemas across root-union
//!   variants compares each schema with the earlier ones.
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
