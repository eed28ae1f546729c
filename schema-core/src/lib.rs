//! Typed, valid structured output from LLMs.
//!
//! A Rust type is the single source of truth for what a model is asked for and what is accepted
//! back. The parts form two pipelines:
//!
//! - **type -> model -> schemas, TypeScript, validator.** `#[derive(AgentSchema)]` turns a struct
//!   or enum into a static description of its shape, a [`model::Type`] built at compile time.
//!   Every output reads that one model: the JSON Schema of each [`Dialect`] (rendered, then
//!   adapted to the dialect's rules by [`convert`]), the TypeScript text for prompts
//!   ([`convert::to_typescript`]), and the validator ([`validate`]) with the plan of the typed
//!   fast path.
//! - **reply -> text layer -> parser.** A reply goes through the text layer ([`llm`]: the JSON
//!   found among prose, fences and reasoning, opt-in repairs, refusals), then the parser
//!   ([`AgentSchema::from_llm`], [`AgentSchema::from_json`]), which deserializes straight into the
//!   type while it checks every constraint, and collects every error with its path only when the
//!   reply is invalid. [`stream`] reads a reply that arrives in chunks.
//!
//! Around them: [`provider`] writes each provider's request field and reads its response body,
//! [`retry`] runs the ask, parse, feed-back loop, [`tools`] makes tool definitions of an enum or
//! of an MCP tool list and reads the calls, and [`view`] narrows a type's schema at run time.
//! [`convert`] and [`validate`] also take any JSON Schema at run time (an MCP tool's
//! `input_schema`).
//!
//! ```
//! use schema_core::{AgentSchema, Dialect};
//! use serde::Deserialize;
//!
//! /// Answer from the language detector.
//! #[derive(AgentSchema, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! struct Language {
//!     /// ISO 639-1 language code
//!     #[schema(max_length = 10)]
//!     lang_code: String,
//!     lang_style: String,
//! }
//!
//! let schema = Language::json_schema(Dialect::JsonSchema);
//! assert_eq!(schema["properties"]["langCode"]["maxLength"], 10);
//! assert_eq!(schema["required"], serde_json::json!(["langCode", "langStyle"]));
//! let lang = Language::from_llm("Here: {\"langCode\": \"de\", \"langStyle\": \"formal\"}").unwrap();
//! assert_eq!(lang.lang_code, "de");
//! ```
//!
//! A type that derives `schemars::JsonSchema` instead gets the same run-time surface through
//! `Schemars<T>` (feature `schemars`, off by default).
//!
//! The attribute reference is the documentation of the [`AgentSchema`](macro@AgentSchema) derive.
//!
//! # Features
//!
//! With `default-features = false` the crate builds the derive, the JSON Schema of every dialect,
//! the TypeScript text, validation and `from_json` / `from_llm` / `from_value` of derived types,
//! and the run-time [`convert`] and [`validate`] of any schema. The last two stay in every
//! build: a derived type's schemas are its rendered schema converted by [`convert`], and its
//! validator and parse plan are [`validate::Validator`] compiled from its precise schema, so a
//! feature around them would leave the same code in the build. The rest are features:
//!
//! | feature | what it adds |
//! |---|---|
//! | `pattern` | `pattern` and `patternProperties` checked, in linear time (regex-automata's Thompson NFA) |
//! | `lookaround` (implies `pattern`; off) | patterns with backreferences, lookarounds or a multiline flag, under a step budget (fancy-regex) |
//! | `stream` | [`AgentSchema::stream`], the typed partial value [`AgentSchema::Partial`] (the derive generates it only under this feature), [`stream`] |
//! | `provider` | [`provider`], [`retry`], [`AgentSchema::from_response`], `ParseError::Provider` |
//! | `tools` (implies `provider`) | [`tools`], `#[schema(tools)]`; with `stream`, `stream::provider` (a provider's stream read into typed values and tool calls) |
//! | `view` | [`view`] |
//! | `futures` (off; implies `stream`, `tools`) | `stream::provider::BodyStream`: an async stream of the HTTP body's chunks read into typed partial values (`futures-core`) |
//! | `chrono`, `time`, `jiff`, `uuid`, `url`, `rust_decimal` (off) | [`AgentSchema`] for that crate's types |
//!
//! All but `lookaround` and the foreign types are on by default. Without `pattern`,
//! `#[schema(pattern = "...")]` is a compile error naming the feature, and a run-time schema
//! with `pattern` or `patternProperties` does not compile into a [`validate::Validator`] (the
//! error names the feature); the `regex` format is then checked by the pattern reader alone.
//! Without `lookaround`, a `#[schema(pattern = "...")]` with a backreference, a lookaround or a
//! multiline modifier is a compile error naming the feature, and such a pattern in a run-time
//! schema does not compile into a validator (the error names the feature). `lookaround` is off
//! by default because such patterns are rare (about 20 of JSONSchemaBench's 11,305 schemas have one) and its
//! engine (fancy-regex, and the larger engines of regex-automata it needs) costs about as much
//! to build as `stream`, `provider`, `tools` and `view` together. A hand-written
//! [`AgentSchema`] impl names `type Partial` only under `stream`. What each feature set costs to
//! build is in the repository's `BENCHMARKS.md` (`scripts/compile_cost.sh`).
//!
//! # Costs
//!
//! Each type computes its schema per dialect, its validator and its parse plan once, on first
//! use, and keeps them in its own static slots ([`TypeCache`]): after that,
//! [`json_schema`](AgentSchema::json_schema) returns a `&'static Value` for free and
//! [`from_json`](AgentSchema::from_json) starts parsing without a lock or a hash lookup.
//!
//! # serde_json's `preserve_order`
//!
//! This crate turns on serde_json's `preserve_order` feature. Models generate properties in
//! schema order, so the order of the fields is part of the schema (`think` before `answer` is a
//! reasoning order); without the feature a [`serde_json::Value`] object keeps its keys sorted and
//! every schema would list its properties alphabetically.
//!
//! Cargo features are unified across a build, so this changes [`serde_json::Map`] for the whole
//! dependency graph of a program that uses this crate: objects keep insertion order (an
//! `IndexMap` instead of a `BTreeMap`), so serialized `Value`s list keys as inserted or parsed,
//! not sorted, and iteration follows that order; `Map::remove` becomes a `swap_remove` (it moves
//! the last entry into the hole; `shift_remove` keeps the order); `Value` equality is unchanged
//! (order-insensitive). It also adds the `indexmap` crate to the build.
#![doc = include_str!("../docs/types.md")]
#![doc = include_str!("../docs/migrating.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// Lets the derive's `::schema_core` paths resolve inside this crate's own tests.
extern crate self as schema_core;

#[doc(hidden)]
pub mod __private;
mod cache;
pub mod convert;
mod dialect;
mod impls;
mod keyed;
pub mod llm;
pub mod model;
mod obj;
mod parse;
#[cfg(feature = "provider")]
pub mod provider;
mod render;
#[cfg(feature = "provider")]
pub mod retry;
#[cfg(feature = "schemars")]
mod schemars_adapter;
#[cfg(feature = "stream")]
pub mod stream;
#[cfg(feature = "tools")]
pub mod tools;
pub mod validate;
#[cfg(feature = "view")]
pub mod view;
mod vocab;

pub use cache::TypeCache;
pub use dialect::{Dialect, UnknownDialect};

pub use impls::MapKey;
pub use parse::{ParseError, ParseOptions, Parsed, DEFAULT_MAX_LEN};
#[doc = include_str!("../docs/attributes.md")]
pub use schema_macros::AgentSchema;
#[cfg(feature = "schemars")]
pub use schemars_adapter::{Schemars, SchemarsStream};

use convert::{ConvertError, TsOptions};
use serde_json::Value;

/// A type that knows its own schema: implemented by `#[derive(AgentSchema)]`, and here for the
/// standard types a field can have.
///
/// Only [`schema_type`](AgentSchema::schema_type) is required; every other method reads the
/// model it returns.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no schema: it does not implement `AgentSchema`",
    label = "no schema for this type",
    note = "derive it with `#[derive(AgentSchema)]`; for a type from another crate, give the field `#[schema(with = \"Type\")]` or `#[schema(schema_with = \"path::to::fn\")]`, or enable the schema-core feature named after that crate (chrono, time, jiff, uuid, url, rust_decimal)"
)]
pub trait AgentSchema {
    /// The value while it streams in: see the table in [`stream`]. The derive generates it
    /// (`FooPartial` for `Foo`); a hand-written impl of a type shown only once complete can use
    /// [`stream::Leaf<Self>`].
    #[cfg(feature = "stream")]
    type Partial: stream::PartialValue;

    /// The static model of the type.
    fn schema_type() -> &'static model::Type;

    /// Whether serde writes every value of the type as a JSON object into which an internally
    /// tagged enum can merge its tag: a struct with named fields, a map, an internally tagged
    /// enum, an externally tagged enum whose variants all have data (and `Option`, `Box`, newtypes
    /// of these). The derive sets it; an internally tagged newtype variant whose content is not
    /// such a type is a compile error on the variant, since serde would fail on it at run time.
    ///
    /// `false` by default: a hand-written impl of a type that serializes as an object sets it to
    /// `true` to be usable as the content of an internally tagged newtype variant.
    const IS_OBJECT: bool = false;

    /// A [`stream::Stream`] that reads the type from a reply arriving in chunks.
    #[cfg(feature = "stream")]
    fn stream() -> stream::Stream<Self>
    where
        Self: Sized,
    {
        stream::Stream::new()
    }

    /// The name of the schema: `#[schema(name = "...")]`, else the type's name (`"T"` for a type
    /// that has none). [`provider::output_format`] sanitises it for each provider.
    fn schema_name() -> &'static str {
        match &Self::schema_type().kind {
            model::Kind::Struct(s) => s.name,
            model::Kind::Enum(e) => e.name,
            model::Kind::Newtype(n) => n.name,
            _ => "T",
        }
    }

    /// The slots in which the type keeps its schemas, validator and parse plan, each computed
    /// on first use.
    ///
    /// The derive returns a `static` of the type's own for a non-generic type, so that the
    /// calls below cost one atomic load after the first. The default (used by generic types and
    /// the standard impls, where a `static` would be shared by every instantiation) looks the
    /// slots up in a global map under a lock: [`TypeCache::shared`].
    fn type_cache() -> &'static TypeCache {
        TypeCache::shared(Self::schema_type())
    }

    /// The JSON Schema of the type in `dialect`: rendered on the first call for each dialect,
    /// then free (a reference to the type's cached schema; clone it for an owned `Value`).
    ///
    /// # Panics
    /// If the dialect cannot express the type (a map under OpenAI strict, recursion under
    /// Anthropic); use [`try_json_schema`](AgentSchema::try_json_schema) to get that as an error.
    fn json_schema(dialect: Dialect) -> &'static Value {
        match Self::try_json_schema(dialect) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// The JSON Schema of the type in `dialect`, or why the dialect cannot express it; free
    /// after the first call, as [`json_schema`](AgentSchema::json_schema).
    fn try_json_schema(dialect: Dialect) -> Result<&'static Value, ConvertError> {
        match Self::type_cache().schema(Self::schema_type(), dialect) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.clone()),
        }
    }

    /// The precise JSON Schema of the type: what [`validate`](AgentSchema::validate) enforces,
    /// exactly (free after the first call). It equals `json_schema(Dialect::JsonSchema)` except
    /// for `#[schema(one_object)]` and flattened tagged enums, which appear here as `anyOf` of
    /// their exact variants.
    fn validation_schema() -> &'static Value {
        match Self::type_cache().precise(Self::schema_type()) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// Checks a JSON value against the type: every constraint, every error with its JSON path.
    ///
    /// `validate` accepts exactly what the type's `Dialect::JsonSchema` output accepts, except
    /// for a `#[schema(one_object)]` (or flattened) tagged enum: its one-object schema is looser
    /// than the type, and `validate` checks the precise variant named by the tag.
    ///
    /// ```
    /// use schema_core::AgentSchema;
    /// #[derive(AgentSchema)]
    /// struct Reply {
    ///     #[schema(max_length = 5)]
    ///     word: String,
    /// }
    /// let errors = Reply::validate(&serde_json::json!({"word": "toolong"})).unwrap_err();
    /// assert_eq!(errors.paths(), ["/word"]);
    /// ```
    fn validate(value: &Value) -> Result<(), validate::ValidationErrors> {
        match Self::type_cache().validator(Self::schema_type()) {
            Ok(v) => v.validate(value),
            Err(e) => Err(validate::ValidationErrors::from_vec(
                vec![validate::ValidationError {
                    path: e.pointer.clone(),
                    keyword: "schema",
                    expected: "a schema that can be compiled".into(),
                    found: e.to_string(),
                }],
                false,
            )),
        }
    }

    /// Strict JSON text to a validated value.
    ///
    /// Valid input deserializes straight into the type while the constraints are checked; only
    /// invalid input pays for collecting every error. A `null` for an optional property is read
    /// as absent (strict dialects make models write `null` there).
    ///
    /// ```
    /// use schema_core::{AgentSchema, ParseError};
    /// #[derive(AgentSchema, serde::Deserialize, Debug)]
    /// struct Reply {
    ///     #[schema(maximum = 10)]
    ///     score: u8,
    ///     note: Option<String>,
    /// }
    /// let r = Reply::from_json(r#"{"score": 7, "note": null}"#).unwrap();
    /// assert_eq!((r.score, r.note), (7, None));
    /// let err = Reply::from_json(r#"{"score": 11}"#).unwrap_err();
    /// assert_eq!(err.validation_errors().unwrap().paths(), ["/score"]);
    /// assert!(matches!(Reply::from_json(r#"{"score": 7"#), Err(ParseError::Truncated { .. })));
    /// ```
    fn from_json(text: &str) -> Result<Self, ParseError>
    where
        Self: serde::de::DeserializeOwned + Sized,
    {
        parse::from_json(
            Self::type_cache(),
            Self::schema_type(),
            text,
            DEFAULT_MAX_LEN,
        )
    }

    /// A raw model reply to a validated value: finds the JSON (the whole text, a ```json fenced
    /// block, or the first balanced value after prose), then as [`from_json`](AgentSchema::from_json).
    ///
    /// ```
    /// use schema_core::{AgentSchema, ParseError};
    /// #[derive(AgentSchema, serde::Deserialize, Debug)]
    /// struct Verdict {
    ///     pass: bool,
    /// }
    /// let reply = "Sure! Here is my verdict:\n```json\n{\"pass\": true}\n```";
    /// assert!(Verdict::from_llm(reply).unwrap().pass);
    /// assert!(matches!(
    ///     Verdict::from_llm("I'm sorry, but I can't help with that."),
    ///     Err(ParseError::Refusal { .. })
    /// ));
    /// ```
    fn from_llm(text: &str) -> Result<Self, ParseError>
    where
        Self: serde::de::DeserializeOwned + Sized,
    {
        Self::from_llm_with(text, &ParseOptions::default()).map(|p| p.value)
    }

    /// As [`from_llm`](AgentSchema::from_llm), with options (lenient repairs, truncated replies,
    /// the provider's refusal field); the result lists every repair made.
    fn from_llm_with(text: &str, options: &ParseOptions) -> Result<parse::Parsed<Self>, ParseError>
    where
        Self: serde::de::DeserializeOwned + Sized,
    {
        parse::from_llm(Self::type_cache(), Self::schema_type(), text, options)
    }

    /// An already parsed JSON value to a validated value (as [`from_json`](AgentSchema::from_json)).
    fn from_value(value: Value) -> Result<Self, ParseError>
    where
        Self: serde::de::DeserializeOwned + Sized,
    {
        parse::from_value(Self::type_cache(), Self::schema_type(), value)
    }

    /// A provider's response body to a validated value: the reply text is found where
    /// `provider` puts it ([`provider::read_response`]) and parsed as by
    /// [`from_llm`](AgentSchema::from_llm).
    ///
    /// A reply the provider cut at its token limit is [`ParseError::Truncated`] even when its
    /// braces happen to close; a refusal (field or stop reason) is [`ParseError::Refusal`] with
    /// the provider's text; an error body, a content-filter stop or a body of another shape is
    /// [`ParseError::Provider`].
    ///
    /// ```
    /// use schema_core::{provider::Provider, AgentSchema, ParseError};
    /// use serde_json::json;
    /// #[derive(AgentSchema, serde::Deserialize, Debug)]
    /// struct Verdict {
    ///     pass: bool,
    /// }
    /// let cut = json!({"choices": [{"message": {"content": "{\"pass\": true}"}, "finish_reason": "length"}]});
    /// assert!(matches!(Verdict::from_response(Provider::OpenAiChat, &cut), Err(ParseError::Truncated { .. })));
    /// let refused = json!({"choices": [{"message": {"content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]});
    /// assert_eq!(
    ///     Verdict::from_response(Provider::OpenAiChat, &refused).unwrap_err(),
    ///     ParseError::Refusal { text: "I can't help with that.".into() }
    /// );
    /// ```
    #[cfg(feature = "provider")]
    fn from_response(provider: provider::Provider, body: &Value) -> Result<Self, ParseError>
    where
        Self: serde::de::DeserializeOwned + Sized,
    {
        let text = provider::reply_text(provider, body)?;
        Self::from_llm(&text)
    }

    /// The JSON Schema of the type in `dialect`, with conversion options, and the list of every
    /// change the conversion made (a keyword moved into a description tag, an optional property
    /// made nullable, ...). Not cached.
    ///
    /// With [`DialectOptions::keep_defs`](convert::DialectOptions::keep_defs), a type used in
    /// more than one place is defined once in `$defs` where the dialect allows it.
    ///
    /// ```
    /// use schema_core::{convert::DialectOptions, AgentSchema, Dialect};
    /// #[derive(AgentSchema)]
    /// struct Note {
    ///     /// The note
    ///     #[schema(max_length = 200)]
    ///     text: String,
    /// }
    /// let out = Note::json_schema_report(Dialect::OpenAi, &DialectOptions::default()).unwrap();
    /// assert!(out.schema["properties"]["text"]["description"].as_str().unwrap().contains("@maxLength 200"));
    /// assert!(!out.changes.is_empty());
    /// ```
    fn json_schema_report(
        dialect: Dialect,
        options: &convert::DialectOptions,
    ) -> Result<convert::Converted, ConvertError> {
        let full = render::render_reshaped(
            Self::schema_type(),
            render::Form::for_dialect(dialect),
            options.keep_defs,
            render::Reshape::for_dialect(dialect, options),
        )?;
        // (JSON text for a value of any type is off: the type's parser reads a string as is)
        convert::to_dialect_with(&full, dialect, &options.clone().json_text(false))
    }

    /// The TypeScript text of what a model writes under `dialect`: as
    /// [`typescript_with`](AgentSchema::typescript_with), except that where `dialect` cannot
    /// express a map (OpenAI strict, Anthropic) a map marked `#[schema(entries)]` reads
    /// `{ key: string, value: T }[]`, as in that dialect's schema.
    ///
    /// ```
    /// use schema_core::{convert::TsOptions, AgentSchema, Dialect};
    /// use std::collections::HashMap;
    /// #[derive(AgentSchema)]
    /// struct Stock {
    ///     #[schema(entries)]
    ///     counts: HashMap<String, u32>,
    /// }
    /// let ts = Stock::typescript_for(Dialect::OpenAi, &TsOptions::default()).unwrap();
    /// assert!(ts.contains("key: string"), "{ts}");
    /// let plain = Stock::typescript_for(Dialect::Gemini, &TsOptions::default()).unwrap();
    /// assert_eq!(plain, Stock::typescript());
    /// ```
    fn typescript_for(dialect: Dialect, options: &TsOptions) -> Result<String, ConvertError> {
        let reshape = render::Reshape::for_dialect(dialect, &convert::DialectOptions::default());
        if reshape == render::Reshape::default() {
            return convert::to_typescript(Self::try_json_schema(Dialect::JsonSchema)?, options);
        }
        let full = render::render_reshaped(
            Self::schema_type(),
            render::Form::Presentation,
            false,
            reshape,
        )?;
        convert::to_typescript(&full, options)
    }

    /// The compressed TypeScript type text of the type, with the default [`TsOptions`].
    fn typescript() -> String {
        Self::typescript_with(&TsOptions::default())
    }

    /// The compressed TypeScript type text of the type.
    ///
    /// It is rendered from the type's `Dialect::JsonSchema` output by
    /// [`convert::to_typescript`], so a derived type and its schema converted at run time give
    /// the same text.
    fn typescript_with(options: &TsOptions) -> String {
        match Self::try_json_schema(Dialect::JsonSchema)
            .and_then(|schema| convert::to_typescript(schema, options))
        {
            Ok(text) => text,
            Err(e) => panic!("{e}"),
        }
    }
}
