//! The error every conversion returns.

use std::fmt;

/// Why a schema could not be converted: what went wrong and where (a JSON pointer into the input
/// schema, or into the rendered schema for derived types).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertError {
    /// JSON pointer to the offending place (`""` is the root).
    pub pointer: String,
    /// What went wrong.
    pub kind: ConvertErrorKind,
}

/// The kinds of [`ConvertError`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ConvertErrorKind {
    /// A `$ref` that does not resolve inside the document (or is not a local reference).
    UnresolvableRef(String),
    /// A `$ref` cycle with no object in between (`A -> B -> A`), which describes no value.
    RefCycle(String),
    /// Recursion in a dialect that does not allow it (Anthropic).
    RecursionNotAllowed(String),
    /// A value that is not a schema where a schema belongs, or a keyword with a wrongly typed value.
    Malformed(String),
    /// The root must be an object schema in this dialect.
    RootNotObject,
    /// The dialect cannot express this (a map under OpenAI strict, ...): the rule that forbids it.
    Unsupported(String),
    /// A provider limit was crossed: which limit, its value, and what was found.
    LimitExceeded {
        /// The limit's name (`"properties"`, `"depth"`, ...).
        limit: &'static str,
        /// The provider's maximum.
        max: usize,
        /// What the schema has.
        found: usize,
    },
    /// Nesting deeper than the converter follows (protects the stack).
    TooDeep(usize),
}

impl ConvertError {
    /// A new error at `pointer`.
    pub fn new(pointer: impl Into<String>, kind: ConvertErrorKind) -> Self {
        ConvertError {
            pointer: pointer.into(),
            kind,
        }
    }
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "at the root"
        } else {
            "at"
        };
        if self.pointer.is_empty() {
            write!(f, "{at}: ")?;
        } else {
            write!(f, "{at} {}: ", self.pointer)?;
        }
        match &self.kind {
            ConvertErrorKind::UnresolvableRef(r) => write!(f, "`$ref` {r:?} resolves to nothing"),
            ConvertErrorKind::RefCycle(r) => {
                write!(f, "`$ref` {r:?} is a cycle with no object in between")
            }
            ConvertErrorKind::RecursionNotAllowed(r) => {
                write!(f, "recursive type {r:?} is not allowed in this dialect")
            }
            ConvertErrorKind::Malformed(m) => write!(f, "malformed schema: {m}"),
            ConvertErrorKind::RootNotObject => {
                f.write_str("the root schema must be an object in this dialect")
            }
            ConvertErrorKind::Unsupported(m) => write!(f, "not expressible: {m}"),
            ConvertErrorKind::LimitExceeded { limit, max, found } => {
                write!(
                    f,
                    "limit exceeded: {limit} is {found}, the maximum is {max}"
                )
            }
            ConvertErrorKind::TooDeep(d) => write!(f, "nesting deeper than {d} levels"),
        }
    }
}

impl std::error::Error for ConvertError {}
