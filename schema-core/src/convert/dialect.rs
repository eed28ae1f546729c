//! JSON Schema -> provider dialect (stub: being written).

use super::ConvertError;
use crate::Dialect;
use serde_json::Value;

/// A converted schema together with the list of everything the conversion changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The schema in the target dialect.
    pub schema: Value,
    /// What was changed, in the order it was done.
    pub changes: Vec<Change>,
}

/// One change a conversion made.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// JSON pointer into the input schema.
    pub pointer: String,
    /// What was done.
    pub kind: ChangeKind,
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
}

/// Converts `schema` into `dialect`.
pub fn to_dialect(schema: &Value, dialect: Dialect) -> Result<Value, ConvertError> {
    to_dialect_report(schema, dialect).map(|c| c.schema)
}

/// Converts `schema` into `dialect` and reports every change.
pub fn to_dialect_report(schema: &Value, dialect: Dialect) -> Result<Converted, ConvertError> {
    let _ = dialect;
    Ok(Converted {
        schema: schema.clone(),
        changes: Vec::new(),
    })
}
