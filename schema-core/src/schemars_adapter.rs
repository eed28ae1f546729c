//! Types that derive `schemars::JsonSchema` (feature `schemars`): [`Schemars<T>`] gives them the
//! run-time surface a type deriving [`AgentSchema`](crate::AgentSchema) has, without a second
//! derive.
//!
//! The pipeline: schemars writes the type's JSON Schema (draft 2020-12, its own generator's
//! default settings), once per type; that schema is the **source**. Every output reads it:
//! the dialect schemas through [`convert::to_dialect_with`], the TypeScript text through
//! [`convert::to_typescript`], the validator through [`Validator::new`]. A reply goes the other
//! way: text, the JSON found in it (the extractor of [`llm`](crate::llm)), checked against the
//! source with every error's path, read back into the source's shape where it is written in a
//! strict dialect's (map entries, tuple objects, a wrapped root: the conversion's own
//! [`Converted::read_back`]; strict-mode `null`s as absent: `read_back`), then deserialized by
//! the type's own `Deserialize`.
//!
//! [`Schemars`]'s docs say what differs from deriving `AgentSchema`.

use crate::convert::{self, ConvertError, Converted, DialectOptions, TsOptions};
use crate::provider::Provider;
use crate::stream::{Event, PartialValue, Seg, Stream, ValueKind};
use crate::tools::{Definitions, ToolSet};
use crate::validate::{ValidationError, ValidationErrors, Validator};
use crate::{parse, Dialect, ParseError, ParseOptions, Parsed};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::any::TypeId;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, OnceLock};

/// The run-time surface of a derived type for any `T: schemars::JsonSchema + DeserializeOwned`:
/// strict schemas per dialect, TypeScript text, validation and parsing with paths and feedback,
/// streaming, tool definitions. What differs from deriving
/// [`AgentSchema`](crate::AgentSchema) below.
///
/// ```
/// use schema_core::{Dialect, Schemars};
///
/// /// A city the model names.
/// #[derive(schemars::JsonSchema, serde::Deserialize, Debug)]
/// struct City {
///     name: String,
///     #[schemars(range(min = 0))]
///     population: u64,
///     country: Option<String>,
/// }
///
/// let strict = Schemars::<City>::json_schema(Dialect::OpenAi).unwrap();
/// assert_eq!(strict["required"], serde_json::json!(["name", "population", "country"]));
/// assert!(strict["properties"]["population"].get("format").is_none());
///
/// // A strict-mode `null` reads as absent; a wrong type is an error at its path.
/// let city = Schemars::<City>::from_llm("Here: {\"name\": \"Lyon\", \"population\": 522250, \"country\": null}").unwrap();
/// assert_eq!(city.country, None);
/// let err = Schemars::<City>::from_json(r#"{"name": "Lyon", "population": -1}"#).unwrap_err();
/// assert_eq!(err.validation_errors().unwrap().paths(), ["/population"]);
/// assert!(err.feedback().contains("/population"));
/// ```
///
/// # What differs from deriving `AgentSchema`
///
/// - **Doc comments.** schemars 1.x writes a doc comment as the `description` with its line
///   breaks (`"Line one\nline two."`); the derive folds soft line breaks into spaces and keeps
///   only paragraph breaks. A doc comment that opens with a `# Heading` line gives that heading
///   as the `title`, the rest as the description; otherwise the root's `title` is the type's
///   name. Every dialect keeps titles and descriptions (the TypeScript text folds the line
///   breaks). schemars drops or moves some doc comments: a `#[serde(flatten)]` field's doc
///   comment is lost (and the flattened type's own doc comment becomes the parent's
///   description when the parent has none), and a field's doc comment replaces its type's.
/// - **Attributes.** schemars' `#[schemars(length, range, regex, email, url, ...)]` and
///   `#[validate(...)]` land in the schema and so are enforced and carried as here (moved into
///   description tags where a dialect bans them); `with`, `schema_with` and `transform` act
///   through the schema they write. schemars' annotations that no provider takes are dropped by
///   the strict dialects, each a `Dropped` change of
///   [`json_schema_report`](Self::json_schema_report): `examples` (`#[schemars(example)]`),
///   `deprecated` (`#[deprecated]`), the `x-...` keys of `#[schemars(extend(...))]`; a `default`
///   (`#[serde(default)]`) becomes a description tag. This crate's own attributes have no
///   schemars equivalent: `#[schema(entries)]`, `one_object`, `stream = "done"`, `tools`, the
///   compile-time checks (a constraint on the wrong type, `min > max`, a pattern that does not
///   compile, a type a dialect cannot express) — a schemars type meets those at run time, as a
///   [`ConvertError`] naming the pointer.
/// - **Formats.** schemars writes `format: "int32"`, `"uint8"`, `"double"`, `"float"`, ... on
///   every number; no provider takes them: every dialect but `JsonSchema` drops them (a
///   `Dropped` change each), and the TypeScript text leaves them out (the Rust type's range
///   stays, as `minimum`/`maximum` where schemars writes them). The validator does not assert
///   formats it does not know; string formats (`email`, `uri`, ...) stay where a dialect takes
///   them.
/// - **Maps, tuples, roots.** Rewritten by the run-time conversion from schemars' schema, as
///   for a derived type: a map (`additionalProperties` with a schema) is a list of
///   `{"key", "value"}` entries and a tuple (`prefixItems`) an object of `_0`, `_1`, ... under
///   OpenAI strict and Anthropic; a root that is not always an object (an externally tagged
///   enum with a unit variant, a tuple struct) is wrapped in `{"value": ...}` where a dialect
///   needs an object root. A reply in either shape reads back into the type; a key written
///   twice in the entries is an error.
/// - **Streaming.** The partial value is a [`serde_json::Value`] that grows as the reply
///   streams ([`SchemarsStream`]), not a generated partial struct.
/// - **Speed.** A reply is parsed into a `Value`, validated, then deserialized: the slow path
///   of a derived type; there is no typed fast path.
///
/// ```
/// use schema_core::convert::ChangeKind;
/// use schema_core::{Dialect, Schemars};
/// use std::collections::BTreeMap;
///
/// /// # A customer order
/// ///
/// /// What the customer asked for,
/// /// on two lines.
/// #[derive(schemars::JsonSchema, serde::Deserialize, Debug)]
/// struct Order {
///     /// Units of the item.
///     count: u32,
///     #[schemars(extend("x-unit" = "kg"), example = 2.5)]
///     weight: f64,
///     stock: BTreeMap<String, u8>,
///     pair: (u8, String),
/// }
///
/// let source = Schemars::<Order>::source_schema();
/// assert_eq!(source["title"], "A customer order");
/// assert_eq!(source["description"], "What the customer asked for,\non two lines.");
/// assert_eq!(source["properties"]["count"]["format"], "uint32");
/// assert_eq!(source["properties"]["weight"]["format"], "double");
///
/// let openai = Schemars::<Order>::json_schema_report(Dialect::OpenAi).unwrap();
/// let weight = &openai.schema["properties"]["weight"];
/// assert!(weight.get("format").is_none() && weight.get("x-unit").is_none());
/// assert!(weight.get("examples").is_none());
/// let dropped = |at: &str, key: &str| {
///     openai.changes.iter().any(|c| {
///         c.pointer == at && matches!(&c.kind, ChangeKind::Dropped { keyword } if keyword == key)
///     })
/// };
/// assert!(dropped("/properties/weight", "x-unit") && dropped("/properties/weight", "examples"));
/// assert!(dropped("/properties/count", "format"));
/// assert_eq!(openai.schema["properties"]["count"]["description"], "Units of the item.");
/// assert_eq!(openai.schema["properties"]["stock"]["type"], "array");
/// assert_eq!(openai.schema["properties"]["pair"]["required"], serde_json::json!(["_0", "_1"]));
/// assert!(!Schemars::<Order>::typescript().unwrap().contains("uint32"));
///
/// // A reply in OpenAI's shape reads back into the map and the tuple.
/// let reply = r#"{"count": 2, "weight": 2.5, "stock": [{"key": "Lyon", "value": 3}],
///                 "pair": {"_0": 1, "_1": "x"}}"#;
/// let order = Schemars::<Order>::from_json(reply).unwrap();
/// assert_eq!((order.stock["Lyon"], order.pair), (3, (1, "x".to_string())));
/// ```
///
/// # Costs
///
/// The source schema, its validator, each dialect's schema with its report and the default
/// TypeScript text are computed once per type and kept for the life of the program (a global
/// map from the type's `TypeId`, read under a lock).
pub struct Schemars<T>(PhantomData<fn() -> T>);

/// What is kept per type.
struct Entry {
    /// schemars' schema of the type, as it writes it.
    source: Value,
    validator: Result<Arc<Validator>, ConvertError>,
    /// Each dialect's conversion, made on first use (leaked: kept for the program's life).
    dialects: Mutex<HashMap<Dialect, &'static Result<Converted, ConvertError>>>,
    typescript: OnceLock<Result<String, ConvertError>>,
}

fn entry<T: schemars::JsonSchema + 'static>() -> &'static Entry {
    static ENTRIES: OnceLock<Mutex<HashMap<TypeId, &'static Entry>>> = OnceLock::new();
    let map = ENTRIES.get_or_init(Default::default);
    let id = TypeId::of::<T>();
    if let Some(e) = map.lock().unwrap_or_else(|p| p.into_inner()).get(&id) {
        return e;
    }
    // Built outside the lock: schemars' generator may call back into `JsonSchema` impls that
    // use this adapter themselves.
    let source = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    let validator = Validator::new(&source).map(Arc::new);
    let built = Entry {
        source,
        validator,
        dialects: Default::default(),
        typescript: OnceLock::new(),
    };
    map.lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(id)
        .or_insert_with(|| Box::leak(Box::new(built)))
}

impl<T: schemars::JsonSchema + 'static> Schemars<T> {
    /// schemars' own schema of the type (draft 2020-12), unchanged: what
    /// [`validate`](Self::validate) enforces.
    pub fn source_schema() -> &'static Value {
        &entry::<T>().source
    }

    /// The schema of the type in `dialect`, or why the dialect cannot express it; computed on
    /// the first call for each dialect, then free.
    pub fn json_schema(dialect: Dialect) -> Result<&'static Value, ConvertError> {
        Self::json_schema_report(dialect).map(|c| &c.schema)
    }

    /// [`json_schema`](Self::json_schema) with the list of every change the conversion made
    /// (a keyword moved into a description tag, an optional property made nullable, schemars'
    /// `format: "int32"` dropped, ...); cached as the schema.
    ///
    /// ```
    /// use schema_core::{Dialect, Schemars};
    /// #[derive(schemars::JsonSchema)]
    /// struct Note {
    ///     #[schemars(length(max = 200))]
    ///     text: String,
    /// }
    /// let out = Schemars::<Note>::json_schema_report(Dialect::OpenAi).unwrap();
    /// assert!(out.schema["properties"]["text"]["description"].as_str().unwrap().contains("@maxLength 200"));
    /// assert!(!out.changes.is_empty());
    /// ```
    pub fn json_schema_report(dialect: Dialect) -> Result<&'static Converted, ConvertError> {
        let e = entry::<T>();
        let cached = e
            .dialects
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&dialect)
            .copied();
        let converted = match cached {
            Some(c) => c,
            None => {
                // Converted outside the lock; a race converts twice and keeps the first.
                let c = convert::to_dialect_with(&e.source, dialect, &DialectOptions::new());
                *e.dialects
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .entry(dialect)
                    .or_insert_with(|| Box::leak(Box::new(c)))
            }
        };
        converted.as_ref().map_err(Clone::clone)
    }

    /// The schema of the type in `dialect` with conversion options (not cached).
    pub fn json_schema_with(
        dialect: Dialect,
        options: &DialectOptions,
    ) -> Result<Converted, ConvertError> {
        convert::to_dialect_with(Self::source_schema(), dialect, options)
    }

    /// The compressed TypeScript text of the type (default [`TsOptions`]; cached).
    ///
    /// ```
    /// use schema_core::Schemars;
    /// #[derive(schemars::JsonSchema)]
    /// struct Reply {
    ///     /// What the model thinks
    ///     think: String,
    ///     tail: Option<u32>,
    /// }
    /// let ts = Schemars::<Reply>::typescript().unwrap();
    /// assert!(ts.starts_with("{think: string /* What the model thinks */"), "{ts}");
    /// ```
    pub fn typescript() -> Result<String, ConvertError> {
        entry::<T>()
            .typescript
            .get_or_init(|| Self::typescript_with(&TsOptions::default()))
            .clone()
    }

    /// The compressed TypeScript text of the type with `options`.
    pub fn typescript_with(options: &TsOptions) -> Result<String, ConvertError> {
        let mut prompt = Self::source_schema().clone();
        drop_number_formats(&mut prompt, 0);
        convert::to_typescript(&prompt, options)
    }

    /// Checks a JSON value against the source schema: every error with its JSON path. As
    /// `AgentSchema::validate`, a `null` for an optional property is an error here (the source
    /// has no `null` there); the parsers read it as absent.
    pub fn validate(value: &Value) -> Result<(), ValidationErrors> {
        match &entry::<T>().validator {
            Ok(v) => v.validate(value),
            Err(e) => Err(schema_error(e)),
        }
    }
}

impl<T: schemars::JsonSchema + DeserializeOwned + 'static> Schemars<T> {
    /// An already parsed JSON value to a validated `T`: read back into the source's shape
    /// (a strict-mode `null` for an optional property is absent), checked with every error's
    /// path, then deserialized.
    pub fn from_value(value: Value) -> Result<T, ParseError> {
        let e = entry::<T>();
        let validator = e
            .validator
            .as_ref()
            .map_err(|e| ParseError::Schema(e.to_string()))?;
        let mut value = value;
        if let Err(errors) = validator.validate_parsed(&value) {
            // A reply written in a strict dialect's shape (map entries, tuple objects, a
            // wrapped root, JSON text): read back through that conversion's plan.
            match Self::read_back_strict(validator, &value) {
                Some(read) => value = read,
                None => return Err(ParseError::Invalid { errors, value }),
            }
        }
        let read = read_back(validator, &value);
        T::deserialize(read.as_ref().unwrap_or(&value)).map_err(|err| ParseError::Deserialize {
            message: err.to_string(),
            value,
        })
    }

    /// The value read back through the plan of the first strict dialect (OpenAI, then
    /// Anthropic) whose read-back gives a value the source schema accepts.
    fn read_back_strict(validator: &Validator, value: &Value) -> Option<Value> {
        [Dialect::OpenAi, Dialect::Anthropic]
            .into_iter()
            .find_map(|d| {
                let converted = Self::json_schema_report(d).ok()?;
                if converted.plan.is_identity() {
                    return None;
                }
                let read = converted.read_back(value).ok()?;
                validator.validate_parsed(&read).is_ok().then_some(read)
            })
    }

    /// Strict JSON text to a validated `T` (as [`from_value`](Self::from_value)).
    pub fn from_json(text: &str) -> Result<T, ParseError> {
        if text.len() > crate::DEFAULT_MAX_LEN {
            return Err(ParseError::TooLarge {
                len: text.len(),
                max: crate::DEFAULT_MAX_LEN,
            });
        }
        Self::from_value(parse::parse_text(text)?)
    }

    /// A raw model reply to a validated `T`: the JSON is found in the whole text, a fenced
    /// block, or after prose or a reasoning block, then as [`from_json`](Self::from_json).
    pub fn from_llm(text: &str) -> Result<T, ParseError> {
        Self::from_llm_with(text, &ParseOptions::default()).map(|p| p.value)
    }

    /// [`from_llm`](Self::from_llm) with options (lenient repairs, truncated replies, the
    /// provider's refusal field); the result lists where the JSON was and every repair.
    pub fn from_llm_with(text: &str, options: &ParseOptions) -> Result<Parsed<T>, ParseError> {
        let found = parse::extract(text, options)?;
        let value =
            serde_json::from_str(&found.json).map_err(|e| parse::syntax_error(&e, &found.json))?;
        Ok(Parsed {
            value: Self::from_value(value)?,
            source: found.source,
            repairs: found.repairs,
            reasoning: found.reasoning,
        })
    }

    /// A provider's response body to a validated `T`: the reply text where `provider` puts it
    /// (a refusal, a cut reply, an error body are errors of their own), then as
    /// [`from_llm`](Self::from_llm).
    pub fn from_response(provider: Provider, body: &Value) -> Result<T, ParseError> {
        Self::from_llm(&crate::provider::reply_text(provider, body)?)
    }

    /// A stream that reads the type from a reply arriving in chunks, with a
    /// [`Value`]-shaped partial.
    pub fn stream() -> SchemarsStream<T> {
        SchemarsStream::new(ParseOptions::default())
    }

    /// The type as the one tool of a [`ToolSet`] named `name`: its description is the source
    /// schema's `description` (schemars writes the doc comment there). Add more with
    /// [`ToolSet::add`] and [`Schemars::tool_parts`].
    pub fn tool_set(name: &str) -> ToolSet {
        let (name, description, schema) = Self::tool_parts(name);
        ToolSet::new([(name, description, schema)])
    }

    /// `(name, description, input schema)` of the type as a tool, for [`ToolSet::new`].
    pub fn tool_parts(name: &str) -> (String, Option<String>, Value) {
        let source = Self::source_schema();
        let description = source
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        (name.to_owned(), description, source.clone())
    }

    /// The type as a tool named `name`, in `provider`'s definitions format (see
    /// [`ToolSet::definitions`]: a schema the provider's dialect cannot express is listed in
    /// `left_out`, never sent broken).
    ///
    /// ```
    /// use schema_core::{provider::Provider, Schemars};
    /// /// Reads a file.
    /// #[derive(schemars::JsonSchema, serde::Deserialize)]
    /// struct ReadFile {
    ///     path: String,
    ///     tail: Option<u32>,
    /// }
    /// let defs = Schemars::<ReadFile>::tool_definitions(Provider::OpenAiChat, "read_file");
    /// let f = &defs.tools[0]["function"];
    /// assert_eq!(f["description"], "Reads a file.");
    /// assert_eq!(f["parameters"]["required"], serde_json::json!(["path", "tail"]));
    /// ```
    pub fn tool_definitions(provider: Provider, name: &str) -> Definitions {
        Self::tool_set(name).definitions(provider)
    }

    /// A tool call's arguments as JSON text (as OpenAI sends them) to a validated `T`; empty
    /// text reads as `{}`.
    pub fn from_tool_arguments(arguments: &str) -> Result<T, ParseError> {
        if arguments.trim().is_empty() {
            return Self::from_value(Value::Object(Map::new()));
        }
        Self::from_json(arguments)
    }
}

/// The formats schemars writes on numbers (`int32`, `uint8`, `double`, ...): the Rust type's
/// name, which no provider takes and the prompt text need not carry (the range says it).
const NUMBER_FORMATS: [&str; 14] = [
    "int8", "int16", "int32", "int64", "int128", "uint8", "uint16", "uint32", "uint64", "uint128",
    "uint", "int", "float", "double",
];

/// Removes [`NUMBER_FORMATS`] from every schema of `v` whose type is a number (bounded depth).
fn drop_number_formats(v: &mut Value, depth: usize) {
    if depth > convert::MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            let numeric = match m.get("type") {
                Some(Value::String(t)) => t == "integer" || t == "number",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer" || t == "number"),
                _ => false,
            };
            if numeric
                && m.get("format")
                    .and_then(Value::as_str)
                    .is_some_and(|f| NUMBER_FORMATS.contains(&f))
            {
                m.remove("format");
            }
            m.values_mut()
                .for_each(|x| drop_number_formats(x, depth + 1));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| drop_number_formats(x, depth + 1)),
        _ => {}
    }
}

/// The one error of a source schema the validator cannot compile.
fn schema_error(e: &ConvertError) -> ValidationErrors {
    ValidationErrors::from_vec(
        vec![ValidationError {
            path: e.pointer.clone(),
            keyword: "schema",
            expected: "a schema that can be compiled".into(),
            found: e.to_string(),
        }],
        false,
    )
}

/// The value a dialect's schema accepts, read back into the source's shape for serde, given
/// that `validator` (the source's) accepts it with strict-mode `null`s read as absent; `None`
/// when the value is already in that shape.
///
/// The changes of shape the conversion records in its plan (entries to maps, positional
/// objects to tuples, a wrapped root unwrapped) are read back before this, through that plan
/// (`Schemars::read_back_strict`). What is left is an optional property made required and
/// nullable (OpenAI strict; and the one-object form of a root union, whose other variants'
/// properties are `null`). So the read-back removes `null` members: all of them when the value
/// without them is valid for the source strictly; else none (the value as written, which the
/// type's `Deserialize` judges). Integral floats (`1.0`, which JSON Schema counts as an
/// integer) become integers, which serde's integer types read.
fn read_back(validator: &Validator, value: &Value) -> Option<Value> {
    let mut changed = false;
    let mut out = parse::integral_floats_as_integers(value);
    if out != *value {
        changed = true;
    }
    if !validator.is_valid(&out) {
        let mut stripped = out.clone();
        if strip_nulls(&mut stripped, 0) && validator.is_valid(&stripped) {
            out = stripped;
            changed = true;
        }
    }
    changed.then_some(out)
}

/// Removes every object member whose value is `null`, at any depth (bounded); whether one was.
fn strip_nulls(v: &mut Value, depth: usize) -> bool {
    if depth > parse::MAX_DEPTH {
        return false;
    }
    match v {
        Value::Object(m) => {
            let before = m.len();
            m.retain(|_, x| !x.is_null());
            let mut changed = m.len() != before;
            for x in m.values_mut() {
                changed |= strip_nulls(x, depth + 1);
            }
            changed
        }
        Value::Array(a) => a
            .iter_mut()
            .fold(false, |c, x| strip_nulls(x, depth + 1) | c),
        _ => false,
    }
}

/// A reply read chunk by chunk for a [`Schemars`] type: a [`Value`] that grows as the model
/// writes, the stream stopped at the first byte no valid reply can continue (the source
/// schema's early checks, as [`Stream`] makes them for a derived type), and the typed value
/// at the end.
///
/// ```
/// use schema_core::Schemars;
/// #[derive(schemars::JsonSchema, serde::Deserialize, Debug)]
/// struct Plan {
///     title: String,
///     steps: Vec<String>,
/// }
/// let mut s = Schemars::<Plan>::stream();
/// s.push("Sure: {\"title\": \"Tr").unwrap();
/// assert_eq!(s.partial(), Some(serde_json::json!({"title": "Tr"})));
/// s.push("ip\", \"steps\": [\"pack\"").unwrap();
/// assert_eq!(s.partial().unwrap()["steps"], serde_json::json!(["pack"]));
/// s.push("]}").unwrap();
/// assert_eq!(s.finish().unwrap().steps, ["pack"]);
/// ```
pub struct SchemarsStream<T> {
    inner: Stream<Dyn>,
    options: ParseOptions,
    _type: PhantomData<fn() -> T>,
}

impl<T: schemars::JsonSchema + DeserializeOwned + 'static> SchemarsStream<T> {
    /// A stream whose [`finish`](Self::finish) reads the reply with `options`.
    pub fn new(options: ParseOptions) -> Self {
        let validator = entry::<T>().validator.as_ref().ok().cloned();
        SchemarsStream {
            inner: Stream::checked_by(validator, options.clone()),
            options,
            _type: PhantomData,
        }
    }

    /// Reads one more chunk; returns whether the partial value changed.
    ///
    /// # Errors
    /// [`ParseError::Invalid`] (with the value's path) as soon as no continuation can be valid;
    /// [`ParseError::TooLarge`] past the size limit; every later push returns the error again.
    pub fn push(&mut self, chunk: &str) -> Result<bool, ParseError> {
        self.inner.push(chunk).map(|u| u.changed())
    }

    /// The value so far (`None` before its first byte): strings as far as written, numbers
    /// and literals once complete, containers with their members so far.
    pub fn partial(&self) -> Option<Value> {
        self.inner.partial().to_json()
    }

    /// The text received so far.
    pub fn text(&self) -> &str {
        self.inner.text()
    }

    /// Whether the top-level value is complete.
    pub fn is_complete(&self) -> bool {
        self.inner.is_complete()
    }

    /// The typed value: what [`Schemars::from_llm_with`] returns for the whole text.
    pub fn finish(self) -> Result<T, ParseError> {
        Schemars::<T>::from_llm_with(self.inner.text(), &self.options).map(|p| p.value)
    }
}

/// The type a [`SchemarsStream`] reads through: any JSON value, with a growing [`ValuePartial`].
pub(crate) struct Dyn;

impl crate::AgentSchema for Dyn {
    type Partial = ValuePartial;

    fn schema_type() -> &'static crate::model::Type {
        <Value as crate::AgentSchema>::schema_type()
    }
}

/// A JSON value as it streams in: see [`SchemarsStream::partial`].
#[derive(Default, Debug, Clone, PartialEq)]
pub(crate) struct ValuePartial {
    root: Option<Value>,
}

/// The value at `path` below `v`, made where a `Begin` creates it.
fn at<'v>(v: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match (seg, cur) {
            (Seg::Key(k), Value::Object(m)) => m.get_mut(k.as_str())?,
            (Seg::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn empty(kind: ValueKind) -> Option<Value> {
    match kind {
        ValueKind::Object => Some(Value::Object(Map::new())),
        ValueKind::Array => Some(Value::Array(Vec::new())),
        ValueKind::String => Some(Value::String(String::new())),
        // Numbers and literals show once complete.
        _ => None,
    }
}

impl ValuePartial {
    /// Puts `new` at `path` (a new member, item or root).
    fn place(&mut self, path: &[Seg], new: Value) -> bool {
        let Some((last, parent)) = path.split_last() else {
            self.root = Some(new);
            return true;
        };
        let Some(p) = self.root.as_mut().and_then(|r| at(r, parent)) else {
            return false;
        };
        match (last, p) {
            (Seg::Key(k), Value::Object(m)) => {
                m.insert(k.clone(), new);
                true
            }
            (Seg::Index(i), Value::Array(a)) if *i == a.len() => {
                a.push(new);
                true
            }
            (Seg::Index(i), Value::Array(a)) if *i < a.len() => {
                a[*i] = new;
                true
            }
            _ => false,
        }
    }
}

impl PartialValue for ValuePartial {
    fn apply(&mut self, path: &[Seg], event: &Event<'_>) -> bool {
        match event {
            Event::Begin(kind) => match empty(*kind) {
                Some(v) => self.place(path, v),
                None => false,
            },
            Event::Text(t) => match self.root.as_mut().and_then(|r| at(r, path)) {
                Some(Value::String(s)) => {
                    s.push_str(t);
                    true
                }
                _ => false,
            },
            Event::Done(raw) => {
                // A string, a number or a literal: its final value (a `null` member shows as
                // absent, as the parsers read it; a `null` item keeps its place).
                match serde_json::from_str::<Value>(raw) {
                    Ok(Value::Null) if matches!(path.last(), Some(Seg::Index(_))) => {
                        self.place(path, Value::Null)
                    }
                    Ok(Value::Null) | Err(_) => false,
                    Ok(v @ (Value::Object(_) | Value::Array(_))) => {
                        let same = self.root.as_mut().and_then(|r| at(r, path)).is_some();
                        if same {
                            false
                        } else {
                            self.place(path, v)
                        }
                    }
                    Ok(v) => {
                        let current = self.root.as_mut().and_then(|r| at(r, path));
                        if current.as_deref() == Some(&v) {
                            false
                        } else {
                            self.place(path, v)
                        }
                    }
                }
            }
        }
    }

    fn to_json(&self) -> Option<Value> {
        self.root.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every prefix of `text`, pushed byte by byte, then the partials seen.
    fn partials(text: &str) -> Vec<Value> {
        let mut s = Schemars::<Value>::stream();
        let mut seen: Vec<Value> = Vec::new();
        for (i, c) in text.char_indices() {
            s.push(&text[i..i + c.len_utf8()]).unwrap();
            if let Some(p) = s.partial() {
                if seen.last() != Some(&p) {
                    seen.push(p);
                }
            }
        }
        seen
    }

    #[test]
    fn value_partial_keeps_item_places_and_drops_null_members() {
        let seen = partials(r#"{"a": [null, 1, "x\u00e9", {"b": null, "c": true}], "d": null}"#);
        assert_eq!(
            seen.last().unwrap(),
            &json!({"a": [null, 1, "xé", {"c": true}]})
        );
        // Strings grow; a number shows once complete.
        assert!(seen.contains(&json!({"a": [null, 1, "x"]})));
        assert!(!seen.iter().any(|p| p["a"].get(1) == Some(&json!(0))));
    }

    #[derive(schemars::JsonSchema, serde::Deserialize, Debug, PartialEq)]
    struct Args {
        #[serde(default)]
        tags: Vec<String>,
        limit: Option<u8>,
    }

    #[test]
    fn tool_arguments_and_responses() {
        let empty = Args {
            tags: vec![],
            limit: None,
        };
        assert_eq!(Schemars::<Args>::from_tool_arguments("  ").unwrap(), empty);
        assert_eq!(
            Schemars::<Args>::from_tool_arguments(r#"{"tags": null, "limit": null}"#).unwrap(),
            empty
        );
        let err = Schemars::<Args>::from_tool_arguments(r#"{"limit": 300}"#).unwrap_err();
        assert_eq!(err.validation_errors().unwrap().paths(), ["/limit"]);
        let body = json!({"choices": [{"message": {"content": "{\"limit\": 2}"}, "finish_reason": "stop"}]});
        assert_eq!(
            Schemars::<Args>::from_response(Provider::OpenAiChat, &body)
                .unwrap()
                .limit,
            Some(2)
        );
        let cut = json!({"choices": [{"message": {"content": "{\"limit\": 2}"}, "finish_reason": "length"}]});
        assert!(matches!(
            Schemars::<Args>::from_response(Provider::OpenAiChat, &cut),
            Err(ParseError::Truncated { .. })
        ));
        let defs = Schemars::<Args>::tool_definitions(Provider::Anthropic, "search");
        assert!(defs.left_out.is_empty());
        assert_eq!(defs.tools[0]["name"], "search");
    }

    #[test]
    fn read_back_strips_strict_nulls_only_when_the_source_then_accepts() {
        let v = Validator::new(&json!({
            "type": "object",
            "properties": {"a": {"type": "array"}, "b": {"type": ["string", "null"]}},
            "required": ["b"]
        }))
        .unwrap();
        // `b` is required and may be null: stripping it would break the source, so nothing is.
        assert_eq!(read_back(&v, &json!({"a": null, "b": null})), None);
        assert_eq!(
            read_back(&v, &json!({"a": null, "b": "x"})),
            Some(json!({"b": "x"}))
        );
        assert_eq!(
            read_back(&v, &json!({"a": [1.0], "b": "x"})),
            Some(json!({"a": [1], "b": "x"}))
        );
    }

    /// Flattened into [`Outer`].
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        a: u8,
    }

    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Outer {
        /// Lost: schemars has no place for a flattened field's doc comment.
        #[serde(flatten)]
        inner: Inner,
        /// The field's doc,
        /// on two lines.
        by_ref: Inner,
    }

    /// What the docs of [`Schemars`] say schemars does with doc comments, as each dialect
    /// shows it.
    #[test]
    fn doc_comments_schemars_drops_or_moves() {
        for d in [Dialect::JsonSchema, Dialect::OpenAi, Dialect::Anthropic] {
            let s = Schemars::<Outer>::json_schema(d).unwrap();
            let text = s.to_string();
            assert!(!text.contains("Lost"), "{d:?}: {text}");
            assert_eq!(s["description"], "Flattened into [`Outer`].", "{d:?}");
            let by_ref = &s["properties"]["by_ref"];
            if d != Dialect::JsonSchema {
                // Inlined: the field's doc comment is the description, the type's is gone.
                assert_eq!(by_ref["properties"]["a"]["type"], "integer");
            }
            assert_eq!(
                by_ref["description"], "The field's doc,\non two lines.",
                "{d:?}"
            );
        }
        let ts = Schemars::<Outer>::typescript().unwrap();
        assert!(ts.contains("The field's doc, on two lines."), "{ts}");
    }
}
