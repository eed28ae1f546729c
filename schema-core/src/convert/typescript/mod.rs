//! JSON Schema -> compressed TypeScript type text (seed 003).
//!
//! Models know TypeScript types well and the syntax costs far fewer tokens than JSON Schema, so a
//! prompt can carry `{path: string /* File path */; tail?: number}` instead of the schema, in the
//! form seed 003 and DESIGN.md write it.
//!
//! By default nothing the schema says is lost: every property, required marker, enum and const
//! value, description (whole), default and bound is in the text. Only the options that say so in
//! their documentation ([`TsOptions`]) drop anything.
//!
//! # What the text looks like
//! - `string`, `number` (`integer` too, with an `int` note), `boolean`, `null`; `unknown` for an
//!   empty or unknown schema (`{}`, `true`), `never` for `false` and `{"not": {}}`.
//! - arrays `T[]` (unions and commented items parenthesised: `("a"|"b")[]`), `prefixItems` tuples
//!   `[A, B]` (`[A, B, ...T[]]` when `items` allows more), objects `{a: T; b?: U}` (`?` when the
//!   property is not `required`; an optional property that can only be absent, `{"not": {}}`, is
//!   left out and the object's note says `b must be absent`), maps `Record<string, T>`
//!   (`additionalProperties` schema; `object` for an object schema that says nothing about its
//!   properties), `const` and `enum` as literal types (four or more plain strings as the indexed
//!   JSON array `["a","b","c","d"][number]`, which costs a token less per value than
//!   `"a"|"b"|"c"|"d"`), `anyOf`/`oneOf` and type arrays as unions, `allOf` as one merged type (or
//!   an intersection `A & B` when the parts cannot be merged: no value fits all, or a part has
//!   a union of its own).
//! - descriptions and constraints as one `/* ... */` comment: `/* ISO 639-1 language code;
//!   max 10 chars */`. The comment follows the type (`name: string /* ... */`), or comes before
//!   it when the type is an object literal (`name: /* ... */ {...}`), so it stays next to the name.
//!   Notes: `int`, `max N chars`, `N-M chars`, `pattern /re/`, `format uri`, `>=0`, `<=9`,
//!   `0-100` (`int 0-100`), `>0`, `<1`, `max N items`, `unique`, `max N keys`, `default X`,
//!   `not T`, `exactly one of: a, b` (a `oneOf` of `required`-only clauses), ... A value of a
//!   string enum keeps its own description: `"a" /* first */|"b"`. A note the schema gives
//!   twice (merged `allOf` parts) is written once.
//! - Layout: one line, properties separated by seed 003's `; ` (`{path: string /* File path */;
//!   tail?: number}`), the specification's literal form. A line break after a property that
//!   ends in a comment would save one o200k token per such property (` */;` and a line break
//!   are one token), about 2.6% on real MCP tool schemas, but changes the text the
//!   specification shows, so it is not done. ([`TsOptions::multiline`] puts every property on
//!   its own, indented line.)
//! - Noise is left out: an integer bound that only restates the width of a 32- or 64-bit type
//!   (a `u32`'s `maximum: 4294967295`, an `i32`'s ±2147483647, JavaScript's ±(2^53-1)) gives `int`
//!   or `int >=0`, while declared ranges and narrow types stay (`int 0-100`, a `u8`'s `int
//!   0-255`); `format: float`/`double` on a number and `int32`/`int64` on an integer restate the
//!   type and are left out too.
//! - `$ref` to `$defs`/`definitions` (any local pointer) is resolved inline, except a definition
//!   more than one `$ref` names whose text is long (more than 24 schemas), which is declared
//!   once as a named alias, so that the text stays linear in the input's size. A type that
//!   refers to itself through an object or array is declared once as a named alias and used by
//!   name:
//!
//!   ```text
//!   type Node = {value: number, children: Node[]};
//!   {root: Node}
//!   ```
//!   The output is then zero or more `type X = ...;` lines followed by the root type expression
//!   (after the last declaration's line). To get a complete TypeScript file (what `tsc` checks),
//!   set [`TsOptions::root_name`]: the root expression then becomes a declaration too
//!   (`type Root = ...;`). Without declarations the text is a bare type expression, valid as
//!   `type Root = <text>;`.
//!
//! # How the text is made, in this order
//! 1. `convert::schema::normalize` turns the input into the normalized model (references as
//!    a definitions table, `allOf` merged, type arrays and `nullable` as unions). Nothing in
//!    this module reads `$ref`, `allOf` or `type` arrays from the JSON again.
//! 2. `build.rs` walks the model into a tree of TypeScript types (`node.rs`), writing each
//!    schema's typed constraints as notes (`notes.rs`) on the way. A definition reached again
//!    through an object or array is named (`names.rs`) where it was entered (the walk below it
//!    is undone, nothing before refers to it) and declared after the root; the walk never
//!    starts again, so the work stays linear in the number of recursive definitions. A cycle
//!    through unions alone is an error.
//! 3. `print.rs` writes the named declarations, then the root, with comments, parentheses
//!    and layout.
//!
//! # Errors
//! A `$ref` that resolves nowhere, a `$ref` cycle with no object or array in between (which
//! describes no value, and which TypeScript rejects as a circular alias), a non-schema where a
//! schema belongs or a keyword with a wrongly typed value, nesting deeper than [`MAX_DEPTH`] and
//! an expansion larger than [`MAX_NODES`] nodes all give a [`ConvertError`]; nothing panics and
//! the recursion is bounded.

mod build;
mod names;
mod node;
mod notes;
mod print;
#[cfg(test)]
mod tests;

use super::schema;
use super::ConvertError;
use build::{Builder, Fail};
use print::print_all;
use serde_json::Value;

/// How deep schemas may nest (counting `$ref` hops) before [`to_typescript`] gives up with
/// [`ConvertErrorKind::TooDeep`](super::ConvertErrorKind::TooDeep). Bounds the recursion, so the stack cannot overflow.
pub const MAX_DEPTH: usize = 128;

/// How many schema nodes and literal values one conversion may expand (inlined `$ref`s count
/// each time) before it gives up with [`ConvertErrorKind::LimitExceeded`](super::ConvertErrorKind::LimitExceeded): guards against
/// exponential expansion, and leaves room for an enum of several hundred thousand values.
pub const MAX_NODES: usize = 1_000_000;

/// Options of the TypeScript rendering.
///
/// The default keeps everything the schema says: every description whole, every default, every
/// constraint. The options that drop information say so: [`include_descriptions`],
/// [`max_description_len`] and [`include_constraints`] (and [`TsOptions::brief`], which sets a
/// cap). [`multiline`] and [`root_name`] change only the layout.
///
/// [`include_descriptions`]: TsOptions::include_descriptions
/// [`max_description_len`]: TsOptions::max_description_len
/// [`include_constraints`]: TsOptions::include_constraints
/// [`multiline`]: TsOptions::multiline
/// [`root_name`]: TsOptions::root_name
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TsOptions {
    /// Keep descriptions as `/* ... */` comments (default `true`).
    ///
    /// **Drops information** when `false`: every description is left out.
    pub include_descriptions: bool,
    /// An opt-in cap on the length of each description and each default: `None` (the default)
    /// cuts nothing. With `Some(n)`, a description longer than `n` characters (Unicode scalar
    /// values, never inside one; at the end of the last whole word when that keeps at least half)
    /// is cut and the cut marked with `…`; so is the JSON text of a `default` longer than `n`.
    /// `Some(0)` leaves descriptions out and writes a default as `default …`. Whitespace runs in
    /// a description become one space, capped or not.
    ///
    /// **Drops information** when set: the cut-off text is lost (the `…` says where). Seed 003's
    /// convenience function cuts at 50 characters to save tokens; [`TsOptions::brief`] gives that.
    pub max_description_len: Option<usize>,
    /// Keep constraints (`maxLength`, `minimum`, `pattern`, `format`, `minItems`, `default`, ...)
    /// as short notes in the comment (default `true`), so the text says what the schema says.
    ///
    /// **Drops information** when `false`: every constraint note (bounds, lengths, patterns,
    /// formats, defaults, the `int` of an integer, ...) is left out.
    pub include_constraints: bool,
    /// One property per line, indented by two spaces (default `false`: one line, fewest tokens).
    /// Layout only; nothing is dropped.
    pub multiline: bool,
    /// When set, the root is written as a declaration `type <root_name> = ...;`, so the whole
    /// text is a TypeScript file of type declarations (also when recursive types are named).
    /// Also the name of the root when the root itself is recursive (default: its `title`, else
    /// `Root`). Layout only; nothing is dropped.
    pub root_name: Option<String>,
}

impl Default for TsOptions {
    /// Everything kept: descriptions whole, constraints and defaults as notes, one line.
    fn default() -> Self {
        TsOptions {
            include_descriptions: true,
            max_description_len: None,
            include_constraints: true,
            multiline: false,
            root_name: None,
        }
    }
}

impl TsOptions {
    /// Seed 003's convenience-function default: descriptions (and long defaults) cut to 50
    /// characters, the cut marked with `…`.
    ///
    /// **Drops information**: the rest of every longer description is lost.
    pub fn brief() -> Self {
        TsOptions {
            max_description_len: Some(50),
            ..TsOptions::default()
        }
    }
}

/// Renders any JSON Schema (2020-12, or draft 4-7 `definitions` / tuple `items`) as TypeScript
/// type text. See the module documentation of `schema_core::convert` for the form of the text.
///
/// ```
/// use schema_core::convert::{to_typescript, TsOptions};
/// let schema = serde_json::json!({
///     "type": "object",
///     "properties": {
///         "path": {"type": "string", "description": "File path"},
///         "tail": {"type": "integer", "minimum": 1}
///     },
///     "required": ["path"]
/// });
/// let text = to_typescript(&schema, &TsOptions::default()).unwrap();
/// assert_eq!(text, "{path: string /* File path */; tail?: number /* int >=1 */}");
/// ```
pub fn to_typescript(schema: &Value, options: &TsOptions) -> Result<String, ConvertError> {
    // Recursive targets are discovered while building, and named where they were entered, so
    // that every reference to them (the first included) uses the name.
    // (drafts 4 to 7 ignore the keywords beside a `$ref`)
    let own = crate::vocab::without_ref_siblings(schema).map(|(own, _)| own);
    let schema = own.as_ref().unwrap_or(schema);
    let doc = schema::normalize(schema)?;
    let mut b = Builder::new(&doc, options, schema);
    match b.run() {
        Ok((decls, root)) => Ok(print_all(&decls, &root, &b.named, options)),
        Err(Fail::Error(e)) => Err(e),
        // (each is caught where its definition was entered: not reached)
        Err(Fail::Restart(id)) => Err(ConvertError::new(
            "",
            crate::convert::ConvertErrorKind::RefCycle(doc.def(id).target.clone()),
        )),
    }
}
