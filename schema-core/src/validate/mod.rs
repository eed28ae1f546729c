//! Validation: every violation of a schema, each with its JSON pointer, what was expected and
//! what was found.
//!
//! [`Validator`] compiles any JSON Schema (the keywords of 2020-12 that describe data: types,
//! `properties`/`required`/`additionalProperties`, `enum`/`const`, string, number and array
//! constraints, `format`, `anyOf`/`oneOf`/`allOf`/`not`, local `$ref`). A derived type's
//! `validate` uses the validator of its precise schema, cached per type.

pub(crate) mod check;
pub(crate) mod compile;
pub(crate) mod format;
pub(crate) mod guided;

use crate::convert::ConvertError;
use serde_json::Value;
use std::fmt;

pub(crate) use compile::Compiled;

/// The most errors collected by default before validation stops.
pub const DEFAULT_MAX_ERRORS: usize = 64;

/// One violation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// JSON pointer into the validated value (`""` is the value itself).
    pub path: String,
    /// The schema keyword that failed (`type`, `required`, `maxLength`, ...).
    pub keyword: &'static str,
    /// What was expected, in words a model understands (`integer`, `at most 500 characters`).
    pub expected: String,
    /// What was found (`"1"`, `612 characters`, `nothing`).
    pub found: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(
            f,
            "{path}: expected {}, found {}",
            self.expected, self.found
        )
    }
}

/// Every violation found (up to the cap), in document order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ValidationErrors {
    errors: Vec<ValidationError>,
    truncated: bool,
}

impl ValidationErrors {
    /// The errors.
    pub fn errors(&self) -> &[ValidationError] {
        &self.errors
    }

    /// How many errors were collected.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether there is no error.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// Whether collection stopped at the cap, so more errors may exist.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// The JSON pointers of the errors, in order.
    pub fn paths(&self) -> Vec<&str> {
        self.errors.iter().map(|e| e.path.as_str()).collect()
    }

    /// Iterates over the errors.
    pub fn iter(&self) -> std::slice::Iter<'_, ValidationError> {
        self.errors.iter()
    }

    /// A short text to send back to a model: one line per error, small in tokens.
    ///
    /// ```
    /// use schema_core::validate::Validator;
    /// let v = Validator::new(&serde_json::json!({
    ///     "type": "object",
    ///     "properties": {"n": {"type": "integer"}},
    ///     "required": ["n"],
    ///     "additionalProperties": false
    /// })).unwrap();
    /// let errors = v.validate(&serde_json::json!({"n": "1", "x": 0})).unwrap_err();
    /// assert_eq!(
    ///     errors.feedback(),
    ///     "Your JSON does not match the schema:\n- /n: expected integer, found \"1\"\n- /x: expected no property \"x\" (allowed: n), found 0\nReply again with corrected JSON only."
    /// );
    /// ```
    pub fn feedback(&self) -> String {
        let mut out = String::from("Your JSON does not match the schema:\n");
        for e in &self.errors {
            out.push_str("- ");
            out.push_str(&e.to_string());
            out.push('\n');
        }
        if self.truncated {
            out.push_str("- (more errors not shown)\n");
        }
        out.push_str("Reply again with corrected JSON only.");
        out
    }

    pub(crate) fn from_vec(errors: Vec<ValidationError>, truncated: bool) -> Self {
        ValidationErrors { errors, truncated }
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len();
        write!(f, "{n} validation error{}", if n == 1 { "" } else { "s" })?;
        if self.truncated {
            f.write_str(" (truncated)")?;
        }
        for e in &self.errors {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

impl<'a> IntoIterator for &'a ValidationErrors {
    type Item = &'a ValidationError;
    type IntoIter = std::slice::Iter<'a, ValidationError>;
    fn into_iter(self) -> Self::IntoIter {
        self.errors.iter()
    }
}

/// A compiled JSON Schema that validates values and reports every error.
///
/// ```
/// use schema_core::validate::Validator;
/// use serde_json::json;
///
/// let v = Validator::new(&json!({"type": "string", "maxLength": 3})).unwrap();
/// assert!(v.is_valid(&json!("abc")));
/// let errors = v.validate(&json!("abcd")).unwrap_err();
/// assert_eq!(errors.errors()[0].to_string(), "(root): expected at most 3 characters, found 4 characters");
/// ```
pub struct Validator {
    compiled: Compiled,
    max_errors: usize,
}

impl fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validator")
            .field("nodes", &self.compiled.nodes.len())
            .field("max_errors", &self.max_errors)
            .finish()
    }
}

impl Validator {
    /// Compiles `schema`. Errors name the JSON pointer of a malformed keyword, an unresolvable
    /// `$ref`, or a `pattern` the regex engine does not support.
    pub fn new(schema: &Value) -> Result<Validator, ConvertError> {
        Ok(Validator {
            compiled: compile::compile(schema)?,
            max_errors: DEFAULT_MAX_ERRORS,
        })
    }

    /// Sets how many errors are collected before validation stops (at least 1).
    pub fn with_max_errors(mut self, max: usize) -> Self {
        self.max_errors = max.max(1);
        self
    }

    /// Checks `value`; every error (up to the cap) on failure.
    pub fn validate(&self, value: &Value) -> Result<(), ValidationErrors> {
        let errors = check::run(&self.compiled, value, self.max_errors, false);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Whether `value` is valid (stops at the first error).
    pub fn is_valid(&self, value: &Value) -> bool {
        check::run(&self.compiled, value, 1, false).is_empty()
    }

    /// As [`validate`](Validator::validate), reading a `null` property the schema does not accept
    /// as absent (what `from_json` does).
    pub(crate) fn validate_parsed(&self, value: &Value) -> Result<(), ValidationErrors> {
        let errors = check::run(&self.compiled, value, self.max_errors, true);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    pub(crate) fn compiled(&self) -> &Compiled {
        &self.compiled
    }
}
