//! The static model of a type: what `#[derive(AgentSchema)]` builds at compile time.
//!
//! Every output of the library reads this one description: the JSON Schema of each dialect, the
//! TypeScript text and the validator. It is made of `'static` data only (string literals, slices
//! and function pointers), so building it costs nothing at run time; nested types are reached
//! through function pointers ([`TypeFn`]) so that recursive types need no special case.
//!
//! Users rarely touch these types directly; they are public so that hand-written
//! [`AgentSchema`](crate::AgentSchema) impls and tools that walk a model are possible.

/// A function returning the model of a type; how fields point at their types (cycles allowed).
pub type TypeFn = fn() -> &'static Type;

/// The model of one Rust type.
#[derive(Debug)]
pub struct Type {
    /// What kind of JSON value the type reads and writes.
    pub kind: Kind,
}

/// The shape of a type's JSON value.
#[derive(Debug)]
pub enum Kind {
    /// `true` or `false`.
    Boolean,
    /// A whole number; the bounds are those of the Rust integer type, when narrower than what JSON
    /// can carry exactly (`i64`, `u64` and wider have no upper bound here).
    Integer {
        /// Smallest value the Rust type holds, if it is a bound worth stating.
        min: Option<i128>,
        /// Largest value the Rust type holds, if it is a bound worth stating.
        max: Option<i128>,
    },
    /// Any JSON number (`f32`, `f64`).
    Number,
    /// A string.
    String,
    /// A `char`: a string of exactly one character.
    Char,
    /// Any JSON value (`serde_json::Value`).
    Any,
    /// `Option<T>`: absent (in a field) or `null` (elsewhere), or `T`.
    Option(TypeFn),
    /// A sequence (`Vec<T>`, `VecDeque<T>`, slices; `[T; N]` is a [`Newtype`] of a slice with
    /// `minItems` = `maxItems` = `N`).
    Array(TypeFn),
    /// A set (`HashSet<T>`, `BTreeSet<T>`): an array whose items are unique.
    Set(TypeFn),
    /// A map with string keys (`HashMap<String, T>`, `BTreeMap<String, T>`, `serde_json::Map`).
    Map(TypeFn),
    /// A struct with named fields.
    Struct(&'static Struct),
    /// An enum: a string enum or an internally tagged enum.
    Enum(&'static Enum),
    /// A newtype that reads and writes as its inner type, plus its own annotations.
    Newtype(&'static Newtype),
    /// A tuple `(A, B)`: an array with exactly these items in this order (`prefixItems`,
    /// `items: false`). A tuple struct is a [`Newtype`] of its tuple.
    Tuple(&'static [TypeFn]),
    /// `()` and unit structs: serde writes `null`.
    Unit,
    /// A map whose keys are not plain strings: integers, `char`, unit-only enums and string
    /// newtypes, all of which serde writes as strings.
    KeyedMap {
        /// The key type (its schema says which strings are keys).
        key: TypeFn,
        /// The value type.
        value: TypeFn,
    },
}

/// A struct with named fields, rendered as a JSON object.
#[derive(Debug)]
pub struct Struct {
    /// The Rust name (`std::any::type_name`), the identity used to find recursion.
    pub id: fn() -> &'static str,
    /// The short name used for `$defs` keys and TypeScript aliases.
    pub name: &'static str,
    /// Description and title of the type (from `#[schema(description, title)]`).
    pub meta: Meta,
    /// The fields in declaration order, with serde's renames applied.
    pub fields: &'static [Field],
    /// `false` (the default) closes the object with `additionalProperties: false`;
    /// `#[schema(open)]` leaves it open.
    pub open: bool,
}

/// A newtype struct (`struct Id(String)` or `#[serde(transparent)]`).
#[derive(Debug)]
pub struct Newtype {
    /// The Rust name, for recursion checks.
    pub id: fn() -> &'static str,
    /// The short name.
    pub name: &'static str,
    /// The inner type.
    pub inner: TypeFn,
    /// Annotations of the newtype, applied on top of the inner type's.
    pub meta: Meta,
}

/// One field of a struct or of an enum variant.
#[derive(Debug)]
pub struct Field {
    /// The JSON property name (after `rename` / `rename_all`).
    pub name: &'static str,
    /// The Rust field name.
    pub rust_name: &'static str,
    /// The field's type.
    pub ty: TypeFn,
    /// Description and constraints of the field's value (doc comment, `#[schema(...)]`).
    pub meta: Meta,
    /// The field may be absent on input (`#[serde(default)]`); an `Option` field may be absent too,
    /// whether or not this is set.
    pub default: bool,
    /// `#[serde(flatten)]`: the field's properties are merged into the parent object.
    pub flatten: bool,
}

impl Field {
    /// Whether the property must be present: neither an `Option` nor `#[serde(default)]`.
    pub fn required(&self) -> bool {
        !self.default && !self.flatten && !matches!((self.ty)().kind, Kind::Option(_))
    }
}

/// An enum, in any of serde's four representations ([`Repr`]).
#[derive(Debug)]
pub struct Enum {
    /// The Rust name, for recursion checks.
    pub id: fn() -> &'static str,
    /// The short name.
    pub name: &'static str,
    /// Description and title of the type.
    pub meta: Meta,
    /// How the variants appear on the wire.
    pub repr: Repr,
    /// The variants in declaration order (skipped ones left out).
    pub variants: &'static [Variant],
    /// `#[schema(one_object)]`: render as one object whose tag is a string enum and whose other
    /// properties are the union of the variants' (the form of seed 004's universal response).
    pub one_object: bool,
    /// Description of the tag property (`#[schema(tag_description = "...")]`).
    pub tag_description: Option<&'static str>,
    /// `#[schema(open)]`: the variant objects are left open.
    pub open: bool,
}

/// The serde representation of an enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repr {
    /// Every variant is a unit variant: the value is the variant's name, a string.
    Unit,
    /// `#[serde(tag = "...")]`: an object whose `tag` property names the variant.
    Internal {
        /// The name of the tag property.
        tag: &'static str,
    },
    /// serde's default for an enum with data: a unit variant is its name (a string), any other
    /// variant an object with one property, the variant's name, holding its content.
    External,
    /// `#[serde(tag = "...", content = "...")]`: an object with the tag property naming the
    /// variant and the content property holding its content (absent for a unit variant).
    Adjacent {
        /// The name of the tag property.
        tag: &'static str,
        /// The name of the content property.
        content: &'static str,
    },
    /// `#[serde(untagged)]`: the content of the first variant that reads the value.
    Untagged,
}

/// The form of a variant's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantStyle {
    /// No content (`A`).
    Unit,
    /// One unnamed field (`A(T)`): the content is `T`'s value.
    Newtype,
    /// Several unnamed fields (`A(T, U)`): the content is an array (a tuple).
    Tuple,
    /// Named fields (`A { x: T }`): the content is an object.
    Struct,
}

/// One enum variant.
#[derive(Debug)]
pub struct Variant {
    /// The name on the wire (after `rename` / `rename_all`).
    pub name: &'static str,
    /// The Rust variant name.
    pub rust_name: &'static str,
    /// The variant's description (its doc comment) and title.
    pub meta: Meta,
    /// The variant's fields; a newtype variant is one flattened field (named `""`), a tuple
    /// variant's fields are named `"0"`, `"1"`, ...
    pub fields: &'static [Field],
    /// The form of the variant's content.
    pub style: VariantStyle,
    /// `#[serde(untagged)]` on the variant: its content alone, tried after the tagged variants.
    pub untagged: bool,
}

/// A number written in an attribute, kept as written so `0` renders as `0`, not `0.0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
}

impl Num {
    /// The value as `f64` (exact for every integer below 2^53).
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// The value as a JSON number.
    pub fn to_json(self) -> serde_json::Value {
        match self {
            Num::Int(i) => {
                if let Ok(v) = i64::try_from(i) {
                    v.into()
                } else if let Ok(v) = u64::try_from(i) {
                    v.into()
                } else {
                    serde_json::Value::from(i as f64)
                }
            }
            Num::Float(f) => serde_json::Number::from_f64(f)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
        }
    }
}

/// A JSON literal written in an attribute (`const`, `example`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lit {
    /// A string.
    Str(&'static str),
    /// A number.
    Num(Num),
    /// A boolean.
    Bool(bool),
}

impl Lit {
    /// The literal as a JSON value.
    pub fn to_json(self) -> serde_json::Value {
        match self {
            Lit::Str(s) => s.into(),
            Lit::Num(n) => n.to_json(),
            Lit::Bool(b) => b.into(),
        }
    }
}

/// Annotations of one value: description, title and constraints. Every field is optional;
/// [`Meta::EMPTY`] has none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Meta {
    /// `description`: the doc comment or `#[schema(description = "...")]`.
    pub description: Option<&'static str>,
    /// `title`.
    pub title: Option<&'static str>,
    /// `minLength`, in characters (Unicode scalar values).
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `pattern`: a regular expression the string must contain a match of.
    pub pattern: Option<&'static str>,
    /// `format`: a named string format (`date-time`, `email`, `uri`, ...).
    pub format: Option<&'static str>,
    /// `minimum`.
    pub minimum: Option<Num>,
    /// `maximum`.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<Num>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<Num>,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
    /// `const`: the only value allowed.
    pub const_value: Option<Lit>,
    /// `examples`.
    pub examples: &'static [Lit],
    /// Annotations of the items of an array value (`#[schema(items(max_length = 30))]`).
    pub items: Option<&'static Meta>,
    /// `#[schema(entries)]` on a map: in the dialects that cannot express a map (OpenAI strict,
    /// Anthropic) it is written as an array of `{"key": .., "value": ..}` objects, which
    /// `from_json` reads back into the map. `Dialect::JsonSchema` keeps serde's map form.
    pub entries: bool,
}

impl Meta {
    /// No annotation at all.
    pub const EMPTY: Meta = Meta {
        description: None,
        title: None,
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
        const_value: None,
        examples: &[],
        items: None,
        entries: false,
    };

    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == Meta::EMPTY
    }
}

impl Default for Meta {
    fn default() -> Self {
        Meta::EMPTY
    }
}
