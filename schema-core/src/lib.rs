//! Typed, valid structured output from LLMs.
//!
//! One `#[derive(AgentSchema)]` on a struct or enum gives, from that single source of truth:
//! strict JSON Schema in the dialect each model server accepts ([`Dialect`]), compressed
//! TypeScript-style type text for prompts, and a validator and parser that turn raw model text
//! into a typed value or into every error with its JSON path.
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
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod convert;
mod dialect;
mod impls;
pub mod model;
mod render;

pub use dialect::{Dialect, UnknownDialect};
pub use impls::MapKey;
#[doc = include_str!("../../docs/attributes.md")]
pub use schema_macros::AgentSchema;

use convert::{ConvertError, TsOptions};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A type that knows its own schema: implemented by `#[derive(AgentSchema)]`, and here for the
/// standard types a field can have.
///
/// Only [`schema_type`](AgentSchema::schema_type) is required; every other method reads the
/// model it returns.
pub trait AgentSchema {
    /// The static model of the type.
    fn schema_type() -> &'static model::Type;

    /// The JSON Schema of the type in `dialect`; computed once per type and dialect, then cloned
    /// from a cache.
    ///
    /// # Panics
    /// If the dialect cannot express the type (a map under OpenAI strict, recursion under
    /// Anthropic); use [`try_json_schema`](AgentSchema::try_json_schema) to get that as an error.
    fn json_schema(dialect: Dialect) -> Value {
        match Self::try_json_schema(dialect) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// The JSON Schema of the type in `dialect`, or why the dialect cannot express it.
    fn try_json_schema(dialect: Dialect) -> Result<Value, ConvertError> {
        schema_of(Self::schema_type(), dialect).map(|v| (*v).clone())
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
        match schema_of(Self::schema_type(), Dialect::JsonSchema)
            .and_then(|schema| convert::to_typescript(&schema, options))
        {
            Ok(text) => text,
            Err(e) => panic!("{e}"),
        }
    }
}

type Cached = Result<Arc<Value>, ConvertError>;

/// Renders (once) and caches the schema of `ty` in `dialect`.
pub(crate) fn schema_of(ty: &'static model::Type, dialect: Dialect) -> Cached {
    static CACHE: OnceLock<Mutex<HashMap<(usize, usize), Cached>>> = OnceLock::new();
    let key = (ty as *const model::Type as usize, dialect.index());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(hit) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return hit.clone();
    }
    let computed = compute_schema(ty, dialect);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, computed.clone());
    computed
}

fn compute_schema(ty: &'static model::Type, dialect: Dialect) -> Cached {
    let full = render::render(ty, render::Form::Presentation)?;
    let out = match dialect {
        Dialect::JsonSchema => full,
        d => convert::to_dialect(&full, d)?,
    };
    Ok(Arc::new(out))
}
