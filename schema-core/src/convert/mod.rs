//! Run-time conversion of any JSON Schema (an MCP tool's `input_schema`, a schema from an OpenAPI
//! document, the output of another tool) into a provider dialect or into TypeScript text.
//!
//! Derived types go through the same code: `T::json_schema(d)` renders the full 2020-12 schema of
//! the type and hands it to [`to_dialect`], so derived and converted schemas obey the same rules.

mod dialect;
mod error;
pub(crate) mod pointer;
mod typescript;

pub(crate) use dialect::{clause_note, required_names};
pub use dialect::{
    to_dialect, to_dialect_report, to_dialect_with, Change, ChangeKind, Converted, DialectOptions,
    MAX_DEPTH, MAX_NODES,
};
pub use error::{ConvertError, ConvertErrorKind};
pub use typescript::{to_typescript, TsOptions};

/// A few words on what kind of JSON value `v` is, for error messages.
pub(crate) fn kind_of(v: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
