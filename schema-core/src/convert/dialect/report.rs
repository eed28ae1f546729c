//! What a conversion reports: the converted schema and every change, each once.

use serde_json::Value;
use std::fmt;
use std::hash::Hasher;

/// A converted schema together with the list of everything the conversion changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The schema in the target dialect.
    pub schema: Value,
    /// What was changed, in the order it was done.
    pub changes: Vec<Change>,
    /// The read-back plan: maps a reply valid for `schema` to the input schema's shape
    /// ([`read_back`](Self::read_back)).
    pub plan: crate::convert::ReadBack,
}

impl Converted {
    /// Maps `reply`, a value valid for [`schema`](Self::schema), back to the shape of the
    /// input schema: entries into a map, a positional object into a tuple, JSON text parsed,
    /// `null` of an optional property made nullable into absent, the root unwrapped. A
    /// gateway forwards a tool call's arguments in the tool's own shape this way. Errors
    /// (a key written twice, text that is not JSON) carry their path in `reply`.
    ///
    /// ```
    /// use schema_core::{convert::to_dialect_report, Dialect};
    /// use serde_json::json;
    ///
    /// let tool = json!({
    ///     "type": "object",
    ///     "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}}
    /// });
    /// let c = to_dialect_report(&tool, Dialect::Anthropic).unwrap();
    /// let call = json!({"tags": [{"key": "env", "value": "prod"}]});
    /// assert_eq!(c.read_back(&call).unwrap(), json!({"tags": {"env": "prod"}}));
    /// let twice = json!({"tags": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]});
    /// assert_eq!(c.read_back(&twice).unwrap_err().paths(), ["/tags/1/key"]);
    /// ```
    pub fn read_back(
        &self,
        reply: &serde_json::Value,
    ) -> Result<serde_json::Value, crate::validate::ValidationErrors> {
        self.plan.read_back(reply)
    }
}

/// One change a conversion made.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// JSON pointer into the input schema (for an inlined type: into its definition).
    pub pointer: String,
    /// What was done.
    pub kind: ChangeKind,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.kind)
    }
}

/// The kinds of [`Change`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A keyword the dialect does not support was moved into `description` as a tag.
    MovedToDescription {
        /// The keyword.
        keyword: String,
    },
    /// An optional property was made required and nullable (OpenAI strict).
    MadeNullable,
    /// A `$ref` was replaced by the schema it points to.
    RefInlined,
    /// A `oneOf` was rewritten as `anyOf`.
    OneOfToAnyOf,
    /// A `const` became a one-value `enum`, or a union of `const`s became one `enum`.
    ConstToEnum,
    /// A keyword was removed (an annotation, or something the dialect cannot express that is
    /// not a constraint on values).
    Dropped {
        /// The keyword.
        keyword: String,
    },
    /// An open object was closed with `additionalProperties: false`.
    Closed,
    /// An `allOf` was merged into one schema.
    AllOfMerged,
    /// A type array (`["string", "null"]`) or OpenAPI's `nullable: true` was rewritten as an
    /// `anyOf` of single-type schemas.
    TypeArraySplit,
    /// A root union of tagged objects was merged into one object (tag as an `enum`).
    UnionMerged,
    /// Keywords beside an `anyOf` were copied into each of its branches.
    DistributedIntoBranches,
    /// An object with arbitrary keys (a map) was replaced by a closed object
    /// ([`DialectOptions::close_maps`](crate::convert::DialectOptions::close_maps)).
    MapClosed,
    /// An `enum` or `const` of objects was written as the schemas of its values, where the
    /// dialect closes every object (a closed object without properties allows none of them).
    ValuesAsSchemas,
    /// A keyword the dialect needs was added (Gemini's `propertyOrdering`).
    Added {
        /// The keyword.
        keyword: String,
    },
    /// A map was written as an array of `{"key", "value"}` entries (read back into the map).
    MapAsEntries,
    /// A tuple was written as an object with the properties `_0`, `_1`, ... (read back into
    /// the tuple).
    TupleAsObject,
    /// A value of any type (or the items of an array without `items`, or the values of an
    /// `enum` or `const` with arrays among them, as an `enum` of their texts) was written as a
    /// string holding JSON text (read back: parsed).
    AnyAsJsonText,
    /// A root that is not an object was wrapped in an object with one property (read back:
    /// unwrapped).
    RootWrapped {
        /// The property's name.
        key: String,
    },
    /// The schema was over the provider's per-request budgets (Anthropic's 24 optional
    /// properties, 16 unions) or its nesting limit (OpenAI's 10 levels): this many optional
    /// properties, the last ones in the input's order, were made required and nullable (each
    /// reported [`MadeNullable`](Self::MadeNullable); read back: `null` is absent), and this
    /// many properties go without a grammar (each reported [`WithoutGrammar`](Self::WithoutGrammar)).
    BudgetPlan {
        /// How many properties were made nullable.
        nullable: usize,
        /// How many properties go without a grammar.
        free: usize,
    },
    /// A property's schema was replaced by a schema of any value (with a note) to stay within
    /// the provider's budget or nesting limit: the model writes it without a grammar (as JSON
    /// text where the dialect needs a type), the validator, which reads the input's schema,
    /// still checks it.
    WithoutGrammar,
    /// A property whose schema is `false` (it must be absent) was left out of `properties`:
    /// the model is not offered it; where the object takes other keys the grammar allows it,
    /// and the validator, which reads the input's schema, still refuses it.
    ForbiddenPropertyLeftOut,
    /// A recursive type was written out this many levels deep in place of its `$ref`s
    /// (Anthropic refuses recursion); below them it is a schema of any value, which the
    /// validator still checks.
    RecursionUnrolled {
        /// The levels written out.
        depth: usize,
    },
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangeKind::MovedToDescription { keyword } => {
                write!(f, "`{keyword}` moved into the description")
            }
            ChangeKind::MadeNullable => f.write_str("optional property made required and nullable"),
            ChangeKind::RefInlined => f.write_str("`$ref` inlined"),
            ChangeKind::OneOfToAnyOf => f.write_str("`oneOf` rewritten as `anyOf`"),
            ChangeKind::ConstToEnum => f.write_str("`const` rewritten as `enum`"),
            ChangeKind::Dropped { keyword } => write!(f, "`{keyword}` dropped"),
            ChangeKind::Closed => f.write_str("object closed (`additionalProperties: false`)"),
            ChangeKind::AllOfMerged => f.write_str("`allOf` merged"),
            ChangeKind::TypeArraySplit => {
                f.write_str("type array / `nullable` rewritten as `anyOf`")
            }
            ChangeKind::UnionMerged => f.write_str("root union merged into one object"),
            ChangeKind::ValuesAsSchemas => {
                f.write_str("`enum` / `const` of objects written as the schemas of its values")
            }
            ChangeKind::DistributedIntoBranches => {
                f.write_str("keywords beside `anyOf` copied into its branches")
            }
            ChangeKind::MapClosed => f.write_str("map replaced by a closed object"),
            ChangeKind::Added { keyword } => write!(f, "`{keyword}` added"),
            ChangeKind::MapAsEntries => f.write_str("map written as `{key, value}` entries"),
            ChangeKind::TupleAsObject => f.write_str("tuple written as an object `{_0, _1, ...}`"),
            ChangeKind::AnyAsJsonText => f.write_str("value of any type written as JSON text"),
            ChangeKind::RootWrapped { key } => {
                write!(f, "root wrapped in an object as its property `{key}`")
            }
            ChangeKind::RecursionUnrolled { depth } => {
                write!(f, "recursive type written out {depth} levels deep")
            }
            ChangeKind::ForbiddenPropertyLeftOut => {
                f.write_str("property that must be absent (`false`) left out")
            }
            ChangeKind::BudgetPlan { nullable, free } => write!(
                f,
                "over the per-request budgets: {nullable} optional properties made required and nullable, {free} written without a grammar"
            ),
            ChangeKind::WithoutGrammar => {
                f.write_str("written without a grammar (any value) to stay within the budget")
            }
        }
    }
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// FNV-1a of a change: its pointer, kind and keyword.
pub(super) fn change_key(at: &str, kind: &ChangeKind) -> u64 {
    let (tag, word): (u8, &str) = match kind {
        ChangeKind::MovedToDescription { keyword } => (0, keyword),
        ChangeKind::MadeNullable => (1, ""),
        ChangeKind::RefInlined => (2, ""),
        ChangeKind::OneOfToAnyOf => (3, ""),
        ChangeKind::ConstToEnum => (4, ""),
        ChangeKind::Dropped { keyword } => (5, keyword),
        ChangeKind::Closed => (6, ""),
        ChangeKind::AllOfMerged => (7, ""),
        ChangeKind::TypeArraySplit => (8, ""),
        ChangeKind::UnionMerged => (9, ""),
        ChangeKind::DistributedIntoBranches => (10, ""),
        ChangeKind::MapClosed => (11, ""),
        ChangeKind::Added { keyword } => (12, keyword),
        ChangeKind::ValuesAsSchemas => (13, ""),
        ChangeKind::MapAsEntries => (14, ""),
        ChangeKind::TupleAsObject => (15, ""),
        ChangeKind::AnyAsJsonText => (16, ""),
        ChangeKind::RootWrapped { key } => (17, key),
        ChangeKind::BudgetPlan { .. } => (18, ""),
        ChangeKind::RecursionUnrolled { .. } => (19, ""),
        ChangeKind::WithoutGrammar => (20, ""),
        ChangeKind::ForbiddenPropertyLeftOut => (21, ""),
    };
    let mut h = KeyHasher(0xcbf2_9ce4_8422_2325);
    h.write(at.as_bytes());
    h.write(&[0xff, tag]);
    h.write(word.as_bytes());
    h.0
}
