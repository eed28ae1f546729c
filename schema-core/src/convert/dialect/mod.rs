//! JSON Schema -> provider dialect or engine dialect.
//!
//! [`to_dialect`] takes any JSON Schema (an MCP tool's `input_schema`, an OpenAPI 3.0 schema, the
//! full schema of a derived type) and rewrites it into the subset a target accepts. What a target
//! accepts is data: a [`DialectRules`] table per target, one file per target in `targets/`
//! (see `table.rs`); the passes below read only the table, never the dialect's name.
//!
//! # Passes, in order
//!
//! The passes read the model's lowered document (`model.rs`: the input normalized and written
//! back by `schema::lower`, every pointer of an error or a change mapped back to the input,
//! the model's own rewrites reported as the walk reports its own). The walk merges nothing
//! itself there: the lowering merged every `allOf`, every `$ref` beside keywords it inlines
//! and every union's keywords into its branches, split every type array and wrote every
//! enum's `null` as the flag, or named the conflict where the walk meets the schema
//! (`schema::Lowered::conflicts`), which the walk reports then; a schema left for the walk to
//! merge is an internal [`ConvertError`] ("internal: ... please report this schema"). The
//! rewrites marked *reference walk* below run only in the tests' walk over an input as it is
//! (`walk_input`, `input.rs`, compiled for the tests only).
//!
//! 1. **Input checks** (`check.rs`): bounded JSON nesting, then (for `Dialect::JsonSchema`,
//!    which returns its input unchanged) well-formed subschemas and resolvable `$ref`s.
//! 2. **Reference scan** (`refs.rs`): every local `$ref` resolved once (the passes below, and the
//!    model's recursion marks, take targets from this table), which targets are recursive and
//!    how often each is used.
//! 3. **Root** (`root.rs`): a root `$ref` is followed (its own annotations over its target's;
//!    other keywords beside it: *reference walk*, the lowering writes such a root merged); where the table's
//!    [`RootUnion`](table::RootUnion) says `OneObject`, a root union of tagged objects becomes one
//!    object (the tag an `enum`, each payload property naming its tag value).
//! 4. **Walk** (`walk.rs`), one schema at a time, depth first, each schema going through:
//!    1. **normalisation** (`normalize.rs`): annotations dropped, `nullable` turned into a
//!       nullable flag, a union of `required` clauses into a note, a union of documented
//!       constants into one `enum`; *reference walk*: `allOf` merged (`input.rs`, on the merge
//!       the lowering shares, `merge.rs`: how one keyword's values combine is the model's
//!       `schema::merge_keyword`, how a `$ref`'s own keywords combine with its target's
//!       `schema::over_target`), type arrays split, an enum's `null` as the flag, `oneOf` read as
//!       `anyOf`;
//!    2. **`$ref`**: inlined (its annotations over its target's; *reference walk*: other
//!       keywords beside it merged with the target), or kept in `$defs` for recursion and (with
//!       `keep_defs`) shared types, the keywords beside it dropped;
//!    3. **union** (`walk.rs`): each branch walked, nested unions flattened, equal branches
//!       merged (found by hash: `branches.rs`); *reference walk*: keywords beside `anyOf`
//!       copied into the branches;
//!    4. **typed schema** (`typed.rs`): each keyword kept, tagged into the description, or
//!       dropped, as the table says; array items walked;
//!    5. **object** (`object.rs`): properties walked in order, `required`, closing, optional
//!       properties made nullable, `patternProperties`, `propertyOrdering`;
//!    6. **nullable wrapper**: `anyOf [schema, {"type": "null"}]`.
//! 5. **Definitions** (`root.rs`): the kept `$defs` walked and attached.
//! 6. **Limits** (`limits.rs`): the table's [`Limits`](table::Limits) checked on the output.
//!
//! Every change is reported once ([`to_dialect_report`], `report.rs`); a conversion of its own
//! output changes nothing and reports nothing. What a dialect cannot express at all (a map under
//! OpenAI strict, recursion under Anthropic, a tuple where the table has none) is a
//! [`ConvertError`] naming the JSON pointer and the rule. Bad input never panics: nesting is
//! limited to [`MAX_DEPTH`] levels.

mod branches;
mod check;
#[cfg(test)]
mod input;
mod keywords;
mod limits;
mod merge;
pub(crate) mod model;
mod normalize;
mod object;
pub(crate) mod refs;
mod report;
mod root;
pub(crate) mod table;
pub(crate) mod targets;
mod typed;
mod walk;

use super::pointer;
use super::{ConvertError, ConvertErrorKind};
use crate::convert::{kind_of, SmallMap};
use crate::Dialect;
pub(crate) use check::check_json_depth;
use check::check_structure;
use keywords::*;
pub(crate) use keywords::{
    applies_to, clause_note, const_branch, is_meta, required_names, type_branches,
};
use merge::merge_into;
pub(crate) use merge::{merge_parts, part_over_target};
use report::{change_key, KeyHasher};
pub use report::{Change, ChangeKind, Converted};
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use table::{Action, DialectRules};
pub(crate) use walk::{target_copy, with_beside};

/// The deepest nesting of schemas (and of inlined `$ref`s) the converter follows.
pub const MAX_DEPTH: usize = 128;

/// The most schema nodes a conversion may produce (inlining a `$ref` used many times can
/// multiply a schema's size).
pub const MAX_NODES: usize = 100_000;

/// Options of [`to_dialect_with`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DialectOptions {
    /// Keep a non-recursive type referenced more than once in `$defs` (one `$ref` per use)
    /// instead of inlining it everywhere; where the dialect allows it (not LM Studio, whose
    /// grammars break on nested references). Recursive types always stay in `$defs`.
    pub keep_defs: bool,
    /// Under OpenAI strict and Anthropic, replace an object with arbitrary keys (a map, a free
    /// `{"type": "object"}`) by a closed object with only its declared properties and a note in
    /// its description, instead of failing. The model can then no longer write extra keys.
    pub close_maps: bool,
    /// Under OpenAI strict and Anthropic, which cannot express a map, write every map (an
    /// object with arbitrary keys and no declared property) as an array of
    /// `{"key": .., "value": ..}` objects, which the conversion's read-back
    /// ([`Converted::read_back`]) and, for derived types, `from_json` / `from_llm` read back
    /// into the map (a key written twice is an error there). An enum-keyed map of a derived
    /// type, a closed object every dialect accepts, stays an object. On by default; off, such
    /// a map is an error (or, with [`close_maps`](Self::close_maps), a closed object).
    pub map_entries: bool,
    /// Under OpenAI strict and Anthropic, which refuse tuples (`prefixItems`, an `items`
    /// list), write every tuple as an object with the properties `_0`, `_1`, ... (and
    /// `_rest`, an array, where the tuple has a schema for the items after them), read back
    /// into the tuple as [`map_entries`](Self::map_entries). On by default.
    pub tuple_objects: bool,
    /// The property a root that is not an object is wrapped in, where the dialect needs an
    /// object root (OpenAI, Anthropic): `None` is [`DEFAULT_ROOT_KEY`](crate::convert::DEFAULT_ROOT_KEY)
    /// (`"value"`). The other dialects take any root as it is.
    pub root_key: Option<String>,
    /// Where the dialect needs a type on every schema (OpenAI strict), write a value of any
    /// type (and the items of an array without `items`) as a string holding JSON text, which
    /// the read-back parses (text that is not JSON is an error with its path); off, such a
    /// schema is an error. On by default for schemas converted at run time; derived types
    /// turn it off, since their parser would read such a string as a string.
    pub json_text: bool,
    /// Where the dialect refuses recursion (Anthropic), how many levels of a recursive type
    /// are written out; below them the type is a schema of any value with a note, which the
    /// validator still checks. Default [`DEFAULT_RECURSION_DEPTH`](crate::convert::DEFAULT_RECURSION_DEPTH)
    /// (3); 0 refuses recursion as an error.
    pub recursion_depth: usize,
    /// Shared types kept in `$defs` whatever `keep_defs` and the dialect say: set by the
    /// conversion itself where inlining them blows the output up and the engine compiles a
    /// `$ref` once ([`DialectRules::keeps_defs`]).
    pub(crate) defs_kept_for_size: bool,
}

impl Default for DialectOptions {
    fn default() -> Self {
        DialectOptions {
            keep_defs: false,
            close_maps: false,
            map_entries: true,
            tuple_objects: true,
            root_key: None,
            json_text: true,
            recursion_depth: crate::convert::DEFAULT_RECURSION_DEPTH,
            defs_kept_for_size: false,
        }
    }
}

impl DialectOptions {
    /// The defaults: inline every non-recursive `$ref`, maps as entries and tuples as objects
    /// where the dialect cannot express them, a non-object root wrapped in `"value"`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether shared non-recursive types stay in `$defs` under `rules`.
    pub(crate) fn keeps_shared(&self, rules: &DialectRules) -> bool {
        self.keep_defs && rules.shared_defs || self.defs_kept_for_size
    }

    /// Sets [`keep_defs`](Self::keep_defs).
    pub fn keep_defs(mut self, yes: bool) -> Self {
        self.keep_defs = yes;
        self
    }

    /// Sets [`close_maps`](Self::close_maps).
    pub fn close_maps(mut self, yes: bool) -> Self {
        self.close_maps = yes;
        self
    }

    /// Sets [`map_entries`](Self::map_entries).
    pub fn map_entries(mut self, yes: bool) -> Self {
        self.map_entries = yes;
        self
    }

    /// Sets [`tuple_objects`](Self::tuple_objects).
    pub fn tuple_objects(mut self, yes: bool) -> Self {
        self.tuple_objects = yes;
        self
    }

    /// Sets [`recursion_depth`](Self::recursion_depth).
    pub fn recursion_depth(mut self, levels: usize) -> Self {
        self.recursion_depth = levels;
        self
    }

    /// Sets [`json_text`](Self::json_text).
    pub fn json_text(mut self, yes: bool) -> Self {
        self.json_text = yes;
        self
    }

    /// Sets [`root_key`](Self::root_key).
    pub fn root_key(mut self, key: impl Into<String>) -> Self {
        self.root_key = Some(key.into());
        self
    }
}

/// Converts `schema` into `dialect`.
///
/// Takes any JSON Schema (an MCP tool's `input_schema`, an OpenAPI 3.0 schema, the
/// full schema of a derived type) and rewrites it into the subset a model server accepts,
/// following the provider rule table of the design notes:
///
/// - local `$ref`s (`$defs`, `definitions`, any `#/...` pointer) are inlined; recursive types stay
///   `$ref`s into `$defs` (an error under Anthropic, which forbids recursion);
///   [`DialectOptions::keep_defs`] keeps shared types in `$defs` instead of inlining them;
/// - `allOf` is merged, `oneOf` becomes `anyOf`, type arrays and OpenAPI's `nullable` become an
///   `anyOf` with `{"type": "null"}`, unions of `const`s become an `enum`;
/// - objects are closed with `additionalProperties: false` where the dialect requires it, and under
///   OpenAI strict every property is required, optional ones made nullable;
/// - a constraint the dialect cannot carry moves into `description` as a tag the model still
///   reads (`"Text.\n\n@maxLength 500"`); annotations (`$schema`, `$id`, `examples`,
///   `default: null`, `x-...`) are dropped;
/// - a tagged union at the root becomes one object (the tag an `enum`, the union of the variants'
///   properties), since no dialect accepts a root union;
/// - what a dialect cannot express is rewritten into a form it can, each with its read-back
///   ([`Converted::read_back`]): under OpenAI strict and Anthropic a map becomes an array of
///   `{key, value}` entries and a tuple an object `{_0, _1, ...}`, a root that is not an object
///   is wrapped in `{"value": ...}` ([`DialectOptions::root_key`]); under OpenAI strict a value
///   of any type becomes a string of JSON text; under Anthropic recursion is written out
///   [`DialectOptions::recursion_depth`] levels deep and a schema over the per-request budgets
///   gets a plan (optional properties made nullable, the heaviest properties without a
///   grammar), reported;
/// - provider limits are checked: OpenAI's 5000 properties, 10 levels of nesting, 1000 enum
///   values and 120,000 characters of names and values; Anthropic's 24 optional properties and
///   16 unions. Anthropic counts those two **per request** (over every tool and the response
///   format together); this converter can only check one schema, so stay well below them when
///   a request carries several.
///
/// Every change is reported ([`to_dialect_report`]); what no rewrite makes expressible is a
/// [`ConvertError`] naming the JSON pointer and the rule. Bad input never panics: nesting is
/// limited to [`MAX_DEPTH`] levels.
///
/// ```
/// use schema_core::{convert::to_dialect, Dialect};
/// use serde_json::json;
///
/// let input = json!({
///     "type": "object",
///     "properties": {
///         "path": {"type": "string", "description": "File path", "maxLength": 200},
///         "tail": {"type": "integer"}
///     },
///     "required": ["path"]
/// });
/// let out = to_dialect(&input, Dialect::OpenAi).unwrap();
/// assert_eq!(out["required"], json!(["path", "tail"]));
/// assert_eq!(out["additionalProperties"], json!(false));
/// assert_eq!(out["properties"]["path"]["description"], "File path\n\n@maxLength 200");
/// assert_eq!(out["properties"]["tail"]["anyOf"][1], json!({"type": "null"}));
/// ```
pub fn to_dialect(schema: &Value, dialect: Dialect) -> Result<Value, ConvertError> {
    // The list of changes is not wanted: not recorded.
    crate::convert::rewrite::convert(schema, dialect, &DialectOptions::default(), false)
        .map(|c| c.schema)
}

/// [`to_dialect_with`] without the report (the derived types' schemas).
pub(crate) fn to_dialect_quiet(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
) -> Result<Value, ConvertError> {
    crate::convert::rewrite::convert(schema, dialect, options, false).map(|c| c.schema)
}

/// Converts `schema` into `dialect` and reports every change.
pub fn to_dialect_report(schema: &Value, dialect: Dialect) -> Result<Converted, ConvertError> {
    to_dialect_with(schema, dialect, &DialectOptions::default())
}

/// Converts `schema` into `dialect` with `options`, and reports every change.
///
/// With [`Dialect::JsonSchema`] the schema is only checked (every subschema a schema, every
/// `$ref` resolvable, nesting within [`MAX_DEPTH`]) and returned unchanged.
///
/// An MCP tool's schema with a map, which OpenAI strict cannot express: by default written as
/// a list of `{key, value}` entries, and a reply in that shape read back into the map
/// ([`Converted::read_back`]); with [`DialectOptions::map_entries`] off it is refused, and
/// [`DialectOptions::close_maps`] closes it instead (reported):
///
/// ```
/// use schema_core::convert::{to_dialect_with, DialectOptions};
/// use schema_core::Dialect;
/// use serde_json::json;
///
/// let input = json!({
///     "type": "object",
///     "properties": {
///         "url": {"type": "string"},
///         "headers": {"type": "object", "additionalProperties": {"type": "string"}}
///     },
///     "required": ["url"]
/// });
/// let out = to_dialect_with(&input, Dialect::OpenAi, &DialectOptions::new()).unwrap();
/// let reply = json!({"url": "https://example.com", "headers": [{"key": "Accept", "value": "text/html"}]});
/// assert_eq!(
///     out.read_back(&reply).unwrap(),
///     json!({"url": "https://example.com", "headers": {"Accept": "text/html"}})
/// );
///
/// let refused = to_dialect_with(&input, Dialect::OpenAi, &DialectOptions::new().map_entries(false));
/// assert_eq!(refused.unwrap_err().pointer, "/properties/headers");
///
/// let options = DialectOptions::new().map_entries(false).close_maps(true);
/// let out = to_dialect_with(&input, Dialect::OpenAi, &options).unwrap();
/// let headers = &out.schema["properties"]["headers"];
/// assert!(headers.to_string().contains("\"additionalProperties\":false"));
/// assert!(out.changes.iter().any(|c| c.pointer == "/properties/headers"));
/// ```
pub fn to_dialect_with(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
) -> Result<Converted, ConvertError> {
    crate::convert::rewrite::convert(schema, dialect, options, true)
}

/// The conversion through the model without the shape rewrites (`convert::rewrite`): what
/// the tests hold to the reference walk over the input.
#[cfg(test)]
pub(crate) fn via_model(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
) -> Result<Converted, ConvertError> {
    model::convert_via_model(schema, dialect, options, true)
}

/// [`via_model`] without the report.
#[cfg(test)]
pub(crate) fn via_model_schema(schema: &Value, dialect: Dialect) -> Result<Value, ConvertError> {
    model::convert_via_model(schema, dialect, &DialectOptions::default(), false).map(|c| c.schema)
}

/// The walk over the input as it is, recording the changes only if `record`: the path before
/// the model, kept as the tests' reference (`schema/lower_tests.rs` holds the conversion
/// through the model to it).
#[cfg(test)]
pub(crate) fn walk_input(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
    record: bool,
) -> Result<Converted, ConvertError> {
    match input_checks(schema, dialect)? {
        Some(done) => Ok(done),
        None => run(schema, dialect, options, record, None, None),
    }
}

/// The input checks every conversion starts with: bounded JSON nesting (everything after may
/// clone or recurse); for `Dialect::JsonSchema`, the input returned as it is once its
/// subschemas are schemas and its references resolve; a root that is not an object an error.
/// `Some`: the conversion's answer.
fn input_checks(schema: &Value, dialect: Dialect) -> Result<Option<Converted>, ConvertError> {
    check_json_depth(schema)?;
    if dialect == Dialect::JsonSchema {
        check_structure(schema, schema, "", 0)?;
        return Ok(Some(Converted {
            schema: schema.clone(),
            changes: Vec::new(),
            plan: Default::default(),
        }));
    }
    if !schema.is_object() {
        check_structure(schema, schema, "", 0)?;
        return Err(ConvertError::new("", ConvertErrorKind::RootNotObject));
    }
    Ok(None)
}

/// The walk over `schema`: the model's lowered document, with its `conflicts`
/// ([`crate::convert::schema::Lowered::conflicts`]) and `model` mapping its pointers back to
/// the input's; or (the tests' reference, `conflicts` `None`) an input as it is.
fn run<'a>(
    schema: &'a Value,
    dialect: Dialect,
    options: &'a DialectOptions,
    record: bool,
    model: Option<&'a model::FromModel<'a>>,
    lowered: Option<&'a crate::convert::schema::Lowered<'a>>,
) -> Result<Converted, ConvertError> {
    let graph = refs::scan(schema)?;
    let mut conv = Conv {
        root: schema,
        dialect,
        rules: table::rules(dialect),
        options,
        graph,
        changes: Vec::new(),
        def_names: HashMap::new(),
        names_taken: HashSet::new(),
        defs: Vec::new(),
        pending: Vec::new(),
        nodes: 0,
        refs_kept: 0,
        current_def: Some(String::new()),
        seen_changes: HashSet::default(),
        record,
        keyword_origins: Vec::new(),
        model,
        lowered,
    };
    let out = conv.root_schema().and_then(|root| conv.finish(root));
    out.and_then(|root| {
        limits::check(&root, &conv.rules.limits)?;
        Ok(Converted {
            schema: root,
            changes: std::mem::take(&mut conv.changes),
            plan: Default::default(),
        })
    })
}

/// Where the walk is, as a chain of tokens on the stack: the pointer string is only built for
/// an error.
pub(crate) enum Path<'a> {
    /// A place given by its pointer.
    At(&'a str),
    /// A key below a place.
    Key(&'a Path<'a>, &'a str),
    /// An index below a place.
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    pub(crate) fn pointer(&self) -> String {
        match self {
            Path::At(at) => at.to_string(),
            Path::Key(parent, k) => pointer::push(&parent.pointer(), k),
            Path::Index(parent, i) => pointer::push(&parent.pointer(), &i.to_string()),
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How many names and union branches this thread compared one by one (tests check that
    /// the work grows linearly with the input).
    pub(super) static COMPARED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    /// How many type arrays this thread's walk split (tests check that a lowered document has
    /// none left to split).
    pub(crate) static TYPE_ARRAYS_SPLIT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// How many `oneOf` unions this thread's walk read as `anyOf` (likewise).
    pub(crate) static ONE_OF_UNIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// How many enums with `null` this thread's walk made nullable (likewise).
    pub(crate) static NULLS_IN_ENUMS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// How many `allOf`s this thread's walk merged (`merge.rs`: an input's, or one the walk
    /// made itself; tests count where that still happens on a lowered document).
    pub(crate) static ALL_OF_MERGES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// How many unions this thread's walk merged keywords beside them into (likewise).
    pub(crate) static UNION_DISTRIBUTIONS: std::cell::Cell<u64> =
        const { std::cell::Cell::new(0) };
}

/// Counts `n` one-by-one comparisons (in tests; nothing otherwise).
#[inline]
fn compared(n: usize) {
    #[cfg(test)]
    COMPARED.with(|c| c.set(c.get() + n as u64));
    let _ = n;
}

fn malformed(at: &str, msg: String) -> ConvertError {
    ConvertError::new(at, ConvertErrorKind::Malformed(msg))
}

fn unsupported(at: &str, msg: String) -> ConvertError {
    ConvertError::new(at, ConvertErrorKind::Unsupported(msg))
}

/// A schema object after [`Conv::prepare`].
enum Prepared<'v> {
    /// A `$ref` (found after merging `allOf`, which only the tests' reference walk over an
    /// input does) with its sibling keywords.
    #[cfg(test)]
    Ref(String, Map<String, Value>),
    /// The normalised schema, whether it is nullable, notes for its description, and a keyword
    /// of the schema to ignore (removed without copying the schema).
    Schema(
        Cow<'v, Map<String, Value>>,
        bool,
        Vec<String>,
        Option<&'static str>,
    ),
}

/// Walk state that is inherited downwards.
#[derive(Debug, Clone, Copy, Default)]
struct Cx {
    /// Inside the `items` of an array (LM Studio: no `pattern` there).
    in_items: bool,
    /// Below an optional property, an array or a union since the current definition began
    /// (a cycle through here can end; Gemini needs that).
    escape: bool,
    /// The keyword being converted sits on a string with a `pattern` or a `format` (only set for
    /// the keywords of that schema, never inherited).
    constrained: bool,
}

struct Conv<'a> {
    root: &'a Value,
    dialect: Dialect,
    /// The dialect's rule table.
    rules: &'static DialectRules,
    options: &'a DialectOptions,
    /// The references, each resolved once (`refs.rs`).
    graph: refs::RefGraph<'a>,
    changes: Vec<Change>,
    /// Target pointer -> name in the output `$defs`.
    def_names: HashMap<String, String>,
    /// The names in `def_names` (a new name is checked by hash, not against every name).
    names_taken: HashSet<String>,
    /// Converted definitions, in the order they were first referenced.
    defs: Vec<(String, Value)>,
    /// Definitions referenced but not converted yet: target pointer and value.
    pending: Vec<(String, &'a Value)>,
    nodes: usize,
    /// How many `$ref`s the output keeps so far (a subtree holds one where this grew while
    /// it was converted).
    refs_kept: usize,
    /// The definition being converted (`""` for the root).
    current_def: Option<String>,
    /// [`change_key`]s of the changes recorded so far.
    seen_changes: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    /// Whether changes are recorded at all.
    record: bool,
    /// Where the keywords of a merged schema came from, for each one being walked (innermost
    /// last): the pointer it is walked at, and (keyword, pointer of the schema that keyword came
    /// from) for the keywords that came from elsewhere: a `$ref`'s sibling keywords (walked at
    /// its target's pointer) and the keywords of `allOf` parts. A change to such a keyword is
    /// reported at its origin. Only filled while changes are recorded, and only for `$ref`s
    /// with siblings and `allOf`s: empty on the common path.
    keyword_origins: Vec<(String, HashMap<String, String>)>,
    /// Walking the model's lowered document: its pointers mapped to the input's, and the
    /// rewrites the normalizer and the lowering did (`model.rs`).
    model: Option<&'a model::FromModel<'a>>,
    /// The lowered document's notes for the walk: its conflicts and the unions whose
    /// constants are no `enum` (`None`: the tests' reference walk over an input,
    /// [`Conv::reads_input`]).
    lowered: Option<&'a crate::convert::schema::Lowered<'a>>,
}

/// An error that means the lowering left the walk something to merge or rewrite itself.
fn internal(at: &str, what: &str) -> ConvertError {
    unsupported(at, format!("internal: {what} (please report this schema)"))
}

impl Conv<'_> {
    /// Whether the walk reads an input as it is: only the tests' reference walk
    /// (`walk_input`), which merges `allOf`s, splits type arrays, reads `oneOf` as `anyOf` and
    /// an enum's `null` as the flag, and copies a union's keywords into its branches itself.
    /// The conversion walks the lowered document, where the lowering did all of that or
    /// named the conflict (`conflicts`); in a build without tests that code is never reached.
    fn reads_input(&self) -> bool {
        #[cfg(test)]
        return self.lowered.is_none();
        #[cfg(not(test))]
        false
    }

    /// The lowered document's conflicts ([`crate::convert::schema::Lowered::conflicts`]).
    fn conflicts(&self) -> &[(String, ConvertError)] {
        self.lowered.map_or(&[], |l| l.conflicts.as_slice())
    }

    /// Whether the union at `at` is one the lowering merged keywords into, whose branches were
    /// not all constants before: the walk met its branches one by one, and does not read
    /// them as one `enum` ([`crate::convert::schema::Lowered::plain_unions`]).
    fn plain_union(&self, at: &str) -> bool {
        self.lowered.is_some_and(|l| l.plain_unions.contains(at))
    }

    /// The error the lowering found for the schema at `at` (its `allOf`, or its `$ref` and
    /// the keywords beside it, do not merge); an internal error where it found none (`what`
    /// the walk would have merged itself).
    fn conflict(&self, at: &str, what: &str) -> ConvertError {
        (self.conflicts().iter())
            .find(|(p, _)| p == at)
            .map(|(_, e)| e.clone())
            .unwrap_or_else(|| internal(at, what))
    }
    fn change(&mut self, at: &str, kind: ChangeKind) {
        if !self.record {
            return;
        }
        // A keyword of a merged schema: reported where it was written (a `$ref`'s sibling at
        // the `$ref`, not at its target; an `allOf` part's keyword at that part).
        let origin = match &kind {
            ChangeKind::MovedToDescription { keyword } | ChangeKind::Dropped { keyword }
                if !self.keyword_origins.is_empty() =>
            {
                self.keyword_origins
                    .iter()
                    .rev()
                    .filter(|(walked, _)| walked == at)
                    .find_map(|(_, keys)| keys.get(keyword))
                    .cloned()
            }
            _ => None,
        };
        let at = origin.as_deref().unwrap_or(at);
        let mapped;
        let at = match self.model {
            Some(model) if kind == ChangeKind::RefInlined && model.ref_made(at) => return,
            Some(model) => {
                mapped = model.input_of_change(at, &kind);
                mapped.as_str()
            }
            None => at,
        };
        self.record_change(at, kind);
    }

    /// Records a change at the input pointer `at`, once.
    fn record_change(&mut self, at: &str, kind: ChangeKind) {
        // An inlined type reports its changes once, not once per use: a hash of the change
        // finds the (rare) candidates for a repeat without comparing against every change.
        let key = change_key(at, &kind);
        if !self.seen_changes.insert(key)
            && self
                .changes
                .iter()
                .any(|c| c.pointer == at && c.kind == kind)
        {
            return;
        }
        self.changes.push(Change {
            pointer: at.to_string(),
            kind,
        });
    }
}
