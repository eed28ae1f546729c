//! The normalized, owned schema model: any input JSON Schema read once into typed Rust values.
//!
//! [`normalize()`] turns a JSON Schema document (any draft 4 to 2020-12 form, OpenAPI's `nullable`)
//! into a [`Doc`]: every reference kept as a named definition in one table (each target
//! normalized once, recursion marked), `allOf` merged, type arrays and `nullable` normalized
//! into unions, constraints typed, annotations kept. The readers of the model never see a `$ref` string or an
//! `allOf` again: they follow [`Kind::Ref`] into [`Doc::def`] and read merged objects.
//!
//! # Passes, in order
//!
//! 1. **Reference graph** (`dialect/refs.rs`, shared with the dialect converter): which targets
//!    are recursive (they reach themselves), so that a merge never inlines one of them.
//! 2. **Normalize** (`normalize.rs`), one schema at a time, depth first:
//!    1. booleans: `true` is [`Kind::Any`], `false` is [`Kind::Never`];
//!    2. annotations and constraint keywords kept as they are ([`Schema::keywords`]), the
//!       description checked and read ([`Schema::desc`]), every keyword's place in the input
//!       kept ([`Schema::order`]), in one pass over the keys (`keywords.rs`), which also notes
//!       which keywords the steps below look for are there;
//!    3. the schema's own shape: `const`, `enum` (the values of the `type` beside it, if
//!       any is), `type` (a type array or `nullable: true`
//!       becomes a [`Kind::Union`] of one schema per type), or an object / array implied by its
//!       keywords (an object's `required` list and properties: `object.rs`);
//!    4. `$ref`: a [`Kind::Ref`] into the definitions table, its target normalized once;
//!    5. **merge** (`merge.rs`): the `$ref` target, the `allOf` members and the own shape merged
//!       into one schema as the dialect converter merges them, keywords in its order (a
//!       non-recursive target inlined,
//!       a `$ref`'s own annotations winning over its target's and constraints combining;
//!       objects combined, scalar types and enums intersected, keyword-only parts added, the
//!       schemas of one property, of two lists' items or of two objects' other keys merged the
//!       same way into one where they can be); a part that is a union (a `$ref` to a
//!       definition that is only an `anyOf`) beside plain parts or keywords that are not
//!       annotations becomes (`distribute.rs`) that union with the rest merged into each branch, as the dialects
//!       merge and then copy the keywords into the branches (a branch of another `type` narrowed
//!       away, object keywords without a `type` and keywords of another type left out of a
//!       branch (`maxLength` of an `integer` branch), an `enum` without a `type` narrowed
//!       to each scalar branch's own type's values and a branch with none left out, the
//!       annotations beside the union, `nullable` null one more branch); other parts
//!       with unions or `not` of their own, recursive targets and parts no value fits stay an
//!       intersection ([`Kind::All`]); an own type array (or a type made nullable) is merged
//!       type by type, the one type that fits the other parts giving the merged shape
//!       (`["object", "null"]` beside a `$ref` to an object: the object); object keywords
//!       without a `type` of their own beside a part no object fits are vacuous and left out
//!       ([`Kind::allows_no_object`]); `nullable: true` (`nullable.rs`) beside a `$ref` or an `allOf` (with
//!       a `type`, `enum` or `const` of its own or not: read without the flag) makes the
//!       merged shape a union of it and null, as the dialects apply the flag after merging;
//!    6. `anyOf` / `oneOf`: a union of `required` clauses beside an object becomes
//!       [`Object::clauses`]; a branch without a shape of its own takes the shape beside the
//!       union; the rest stays [`Alternatives`];
//!    7. `not`;
//!    8. **constraints** (`constraints.rs`): the constraint keywords of the merged schema read
//!       into typed values ([`Constraints`]: lengths, `pattern`, `format`, numeric bounds with
//!       draft 4's boolean exclusive bounds resolved, counts, `dependentRequired`); a keyword of
//!       the wrong JSON type is an error at its own pointer.
//!
//! 3. **Lower** (`lower.rs`; the walk's input forms in `lower/forms.rs`, a `$ref`'s siblings
//!    written merged in `lower/merged.rs`; read by the dialect passes: `dialect/model.rs`): the model written
//!    back as one
//!    canonical JSON Schema, each schema's keywords in [`Schema::order`] with their values from
//!    the model (merged `allOf`s as one schema, `required` in its merged order
//!    ([`Object::listed`]), references as `$ref`s into the definitions, placed in the root's
//!    table where the input had it), and a side table from each lowered schema to its input
//!    pointer. A type array is split as the dialect walk reads it (one type and the
//!    `nullable` flag, or an `anyOf` of one branch per type), a `oneOf` union written as
//!    `anyOf`, a union's keywords that are not annotations merged into its branches as the
//!    walk merges them (`dialect::with_beside`, the walk's own code; the side table's entries
//!    of those keywords moved into each branch; not beside `allOf` / `$ref` / `oneOf`, nor
//!    with a `$ref` branch or one the walk narrows away); `nullable` stays the flag (and a
//!    `null` branch the normalizer added for it is written as the flag); a `$ref`
//!    the walk would merge with its siblings is written merged where the model knows the
//!    merge: `nullable` (and annotations) beside a reference to a non-recursive definition of
//!    one plain shape, and an own `enum` / `const` beside a reference to a non-recursive
//!    object (the target in place, the own keywords over it, the values of the merged type);
//!    object keywords beside a shape no object fits are left out (vacuous); any other
//!    intersection ([`Kind::All`]) is written as the input had it, its own keywords, its
//!    `$ref` and its `allOf` parts (the walk merges them, or drops a recursive target's
//!    siblings, as for the input);
//!    what the model does not hold (an `enum` beside `items`, a `$ref` inside a keyword it does
//!    not read, a union merged into the schema, a schema the normalizer built other than one
//!    that allows every value, written `{}`) is reported, not guessed; `additionalItems`
//!    without an `items` list has no effect and is left out, as the walk drops it. `lower_tests.rs` holds the
//!    dialect output of the lowered document byte for byte to the output for the input, over
//!    the fixtures, the MCP corpus and the JSON Schema Test Suite, in 9 dialects (not
//!    `JsonSchema`, which returns its input) and 4 option sets.
//!
//! Errors are [`ConvertError`](super::ConvertError)s naming the JSON pointer of the bad keyword;
//! nesting is bounded by [`MAX_DEPTH`](super::MAX_DEPTH), so bad input never overflows the
//! stack.

mod combine;
mod constraints;
mod distribute;
mod keywords;
mod lower;
#[cfg(test)]
mod lower_tests;
mod merge;
mod normalize;
mod nullable;
mod object;
mod order;
#[cfg(test)]
mod order_tests;

pub(crate) use lower::{lower, Lowered, NO_VALUE, TOO_MANY_COPIES, UNMERGED_PARTS};
pub(crate) use merge::{merge_keyword, over_target, retain_of_type, Conflict};
pub(crate) use normalize::{normalize, OBJECT_ONLY};
pub(crate) use order::{key, Key};
use serde_json::{Map, Value};

/// An index into [`Doc::defs`].
pub(crate) type DefId = usize;

/// A normalized schema document: the root and every referenced definition.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    /// The definitions, in the order they were first referenced; `defs[0]` is the root itself
    /// (target `#`), so that a reference to the root is a reference like any other.
    pub defs: Vec<Def>,
}

impl Doc {
    /// The root schema.
    pub fn root(&self) -> &Schema {
        &self.defs[0].schema
    }

    /// A definition by its id.
    pub fn def(&self, id: DefId) -> &Def {
        &self.defs[id]
    }
}

/// One entry of the definitions table: a `$ref` target.
#[derive(Debug, Clone)]
pub(crate) struct Def {
    /// The reference as written (`#/$defs/Node`, `#` for the root).
    pub target: String,
    /// Whether the target reaches itself (through properties, items or unions).
    pub recursive: bool,
    /// Whether more than one `$ref` of the input names it: with `keep_defs` a dialect keeps
    /// it shared (dropping the keywords beside each reference), so the lowering does not write
    /// it in place of a reference with keywords beside it (the walk decides, as for the input).
    pub shared: bool,
    /// The normalized target.
    pub schema: Schema,
}

/// One normalized schema.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// Where the schema is in the input (a JSON pointer without `#`), for errors.
    pub at: String,
    /// What values it describes.
    pub kind: Kind,
    /// Its description.
    pub desc: Option<String>,
    /// Its constraint and annotation keywords (`minLength`, `format`, `default`, `title`,
    /// `deprecated`, `x-...`), as written; the structural keywords are in [`Schema::kind`].
    pub keywords: Map<String, Value>,
    /// Its constraint keywords, read from [`Schema::keywords`] once its parts were merged and
    /// checked: what the readers use. Boxed, and only where there are any ([`Held`]): a
    /// `Schema` is built at every level of the normalizer's recursion, and a debug build's
    /// frames must stay small (bounded depth, 2 MB thread stacks).
    pub constraints: Held,
    /// `anyOf` / `oneOf` that restrict the kind, in that order.
    pub alternatives: Vec<Alternatives>,
    /// `not`.
    pub not: Option<Box<Schema>>,
    /// Whether the schema accepts every value (`true`, or annotations only): `{"not": {}}` is
    /// `never`.
    pub everything: bool,
    /// Written as the boolean `true` (not as `{}`, which reads the same but is an object to
    /// the dialect passes).
    pub boolean: bool,
    /// Every keyword of the schema (structural, annotation, unknown) in the input's order, which
    /// the dialect output follows ([`Schema::keywords`] is for lookups: its order is not kept
    /// through merges). Where parts were merged into one schema (a non-recursive `$ref` target
    /// inlined, `allOf` members), the merged keywords in first-appearance order over the
    /// target, the members and the schema's own keywords, the order the dialect converter's
    /// merge writes them in (`order.rs`: `join_order`); `$ref` and `allOf` are listed only
    /// where the schema keeps them ([`Kind::Ref`], [`Kind::All`]); `$defs` and `definitions`
    /// only where written, as a place (the table holds the definitions; a merge leaves them
    /// out). Empty for a schema the normalizer made itself
    /// (a type array's members, an intersection of two parts' property schemas).
    pub order: Vec<Key>,
}

impl Schema {
    /// A schema of `kind` with nothing else, at `at`.
    pub fn of(kind: Kind, at: &str) -> Schema {
        Schema {
            at: at.to_string(),
            kind,
            desc: None,
            keywords: Map::new(),
            constraints: Held::default(),
            alternatives: Vec::new(),
            not: None,
            everything: false,
            boolean: false,
            order: Vec::new(),
        }
    }
}

/// The shape of a schema.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// No shape of its own: any value.
    Any,
    /// No value (`false`).
    Never,
    /// One value.
    Const(Value),
    /// One of these values.
    Enum(Vec<Value>),
    /// A scalar type.
    Scalar(Scalar),
    /// An object.
    Object(Object),
    /// An array or a tuple.
    Array(Array),
    /// One of several shapes (a type array, `nullable`).
    Union(Vec<Schema>),
    /// All of several shapes that could not be merged into one.
    All(Vec<Schema>),
    /// A definition of the table.
    Ref(DefId),
}

impl Kind {
    /// Whether the shape allows no object (a scalar type, an array, values none of which is an
    /// object, a union of such members): the object keywords beside it are vacuous. `false`
    /// for a reference (the caller looks its definition up), an intersection, any value and
    /// no value.
    pub fn allows_no_object(&self) -> bool {
        match self {
            Kind::Scalar(_) | Kind::Array(_) => true,
            Kind::Const(c) => !c.is_object(),
            Kind::Enum(values) => !values.iter().any(Value::is_object),
            Kind::Union(members) => members.iter().all(|m| m.kind.allows_no_object()),
            Kind::Any | Kind::Never | Kind::Object(_) | Kind::All(_) | Kind::Ref(_) => false,
        }
    }
}

impl PartialEq for Schema {
    fn eq(&self, other: &Schema) -> bool {
        self.kind == other.kind
            && self.desc == other.desc
            && self.keywords == other.keywords
            && self.alternatives == other.alternatives
            && self.not == other.not
    }
}

/// A schema's [`Constraints`], boxed only where it has any (most schemas have none: no
/// allocation for those); reads as the constraints, empty where there are none. Writing
/// through `*held = ...` boxes them; [`Held::set`] boxes only what is not empty.
#[derive(Clone, Default)]
pub(crate) struct Held(Option<Box<Constraints>>);

/// No constraint: what a [`Held`] without any reads as.
static NO_CONSTRAINTS: Constraints = Constraints {
    integer: false,
    number: false,
    min_length: None,
    max_length: None,
    pattern: None,
    format: None,
    minimum: None,
    maximum: None,
    exclusive_minimum: None,
    exclusive_maximum: None,
    multiple_of: None,
    min_items: None,
    max_items: None,
    unique_items: false,
    min_properties: None,
    max_properties: None,
    key_pattern: None,
    dependent_required: Vec::new(),
};

impl Held {
    /// Holds `c`, boxed only if it is not empty.
    pub fn set(&mut self, c: Constraints) {
        self.0 = (c != NO_CONSTRAINTS).then(|| Box::new(c));
    }
}

impl std::ops::Deref for Held {
    type Target = Constraints;

    fn deref(&self) -> &Constraints {
        self.0.as_deref().unwrap_or(&NO_CONSTRAINTS)
    }
}

impl std::ops::DerefMut for Held {
    fn deref_mut(&mut self) -> &mut Constraints {
        self.0.get_or_insert_with(Box::default)
    }
}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// The constraint keywords of a schema, typed (see `constraints.rs`): absent ones are `None`
/// (or `false`, or empty).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Constraints {
    /// `type` is `integer` (alone, or in a type array without `number`).
    pub integer: bool,
    /// `type` is `number` (alone).
    pub number: bool,
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `pattern`.
    pub pattern: Option<String>,
    /// `format`.
    pub format: Option<String>,
    /// `minimum` (inclusive).
    pub minimum: Option<serde_json::Number>,
    /// `maximum` (inclusive).
    pub maximum: Option<serde_json::Number>,
    /// `exclusiveMinimum`, or draft 4's `minimum` with `exclusiveMinimum: true`.
    pub exclusive_minimum: Option<serde_json::Number>,
    /// `exclusiveMaximum`, or draft 4's `maximum` with `exclusiveMaximum: true`.
    pub exclusive_maximum: Option<serde_json::Number>,
    /// `multipleOf`.
    pub multiple_of: Option<serde_json::Number>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems` (a closed tuple's counts that restate its length are left out).
    pub max_items: Option<u64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `propertyNames: {"pattern": ...}`.
    pub key_pattern: Option<String>,
    /// `dependentRequired`: a property and the names it needs.
    pub dependent_required: Vec<(String, Vec<String>)>,
}

/// A scalar JSON type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    /// `string`.
    String,
    /// `number`.
    Number,
    /// `integer`.
    Integer,
    /// `boolean`.
    Boolean,
    /// `null`.
    Null,
}

/// An object's structure.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Object {
    /// The properties in schema order, with whether each is required.
    pub props: Vec<Prop>,
    /// Every name of `required` (with a property schema or not) in the order written, each
    /// once; merged parts in first-seen order (as the dialect converter's merge lists them).
    /// The names with a property schema are also marked on it ([`Prop::required`]).
    pub listed: Vec<String>,
    /// What other keys may hold.
    pub extra: Extra,
    /// `patternProperties`: key pattern and value schema.
    pub patterns: Vec<(String, Schema)>,
    /// Unions of `required` clauses (`oneOf: [{"required": ["a"]}, {"required": ["b"]}]`).
    pub clauses: Vec<Clauses>,
}

impl Object {
    /// The required names without a property schema, in [`Object::listed`]'s order.
    pub fn rest_required(&self) -> Vec<String> {
        // (every listed name with a property marks one: the rest is what the count leaves)
        let marked = self.props.iter().filter(|p| p.required).count();
        if self.listed.len() <= marked {
            return Vec::new();
        }
        let names: std::collections::HashSet<&str> =
            self.props.iter().map(|p| p.name.as_str()).collect();
        self.listed
            .iter()
            .filter(|n| !names.contains(n.as_str()))
            .cloned()
            .collect()
    }
}

/// One property.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Prop {
    /// Its key.
    pub name: String,
    /// Whether `required` names it.
    pub required: bool,
    /// Its schema.
    pub schema: Box<Schema>,
}

/// `additionalProperties`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Extra {
    /// Absent or `true`.
    #[default]
    Open,
    /// `false`.
    Closed,
    /// A schema for the other values.
    Schema(Box<Schema>),
}

/// A union of `required` clauses: which properties must be present.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Clauses {
    /// `oneOf` (exactly one) rather than `anyOf` (at least one).
    pub one_of: bool,
    /// The names each clause requires.
    pub sets: Vec<Vec<String>>,
}

/// An array: a list of items, or a tuple with an optional rest.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Array {
    /// `prefixItems` (or draft 4's `items` array): the tuple's items.
    pub prefix: Option<Vec<Schema>>,
    /// The items after the prefix (`None`: any item for a list, no more items for a tuple).
    pub items: Option<Box<Schema>>,
    /// A tuple closed as written (`items: false` after `prefixItems`, draft 4's
    /// `additionalItems: false` after an `items` array), which the dialect output keeps; a
    /// tuple without a rest keyword is open in JSON Schema. (The readers of the model treat
    /// both as closed so far: the TypeScript text prints `[a, b]` for either.)
    pub closed: bool,
}

/// An `anyOf` or `oneOf`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Alternatives {
    /// `oneOf` rather than `anyOf`.
    pub one_of: bool,
    /// The branches.
    pub branches: Vec<Schema>,
}

#[cfg(test)]
mod tests;
