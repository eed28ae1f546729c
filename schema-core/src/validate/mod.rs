//! Validation: every violation of a schema, each with its JSON pointer, what was expected and
//! what was found.
//!
//! [`Validator`] compiles any JSON Schema: every keyword of the 2020-12 core, applicator,
//! unevaluated, validation and format vocabularies, and the 2019-09, draft 7, 6 and 4 forms,
//! selected by `$schema` (default 2020-12). References resolve per the spec (`$id` bases,
//! `$anchor`, `$dynamicRef`/`$dynamicAnchor`, `$recursiveRef`, URNs, JSON pointers, the official
//! meta-schemas, and documents supplied with [`ValidatorBuilder::with_document`]); nothing is
//! fetched from the network. `pattern` and `patternProperties` are ECMA-262 regular expressions,
//! as JSON Schema requires, read with the `u` flag plus Annex B's identity escapes (`\:`, `\-`),
//! and checked in time linear in the string's length, or, for a pattern with a backreference or
//! a lookaround, within a step budget ([`ValidatorBuilder::pattern_backtrack_limit`]).
//!
//! Keywords that assert nothing (`title`, `description`, `default`, `examples`, `x-*`, unknown
//! keywords, keywords of another draft) are annotations, as the spec says. A `$schema` the
//! validator does not know, or a meta-schema that requires an unknown vocabulary, is an error at
//! compile time rather than a schema silently half-checked.
//!
//! A derived type's `validate` uses the validator of its precise schema, cached per type.

pub(crate) mod check;
pub(crate) mod compile;
pub(crate) mod format;
pub(crate) mod guided;
pub(crate) mod pattern;
mod resolve;
pub(crate) mod rules;

pub use pattern::{PatternBudgetExceeded, DEFAULT_BACKTRACK_LIMIT};
pub use resolve::Draft;

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

/// Options for compiling a [`Validator`]: documents for references, format assertion, OpenAPI
/// `nullable`.
///
/// ```
/// use schema_core::validate::Validator;
/// use serde_json::json;
///
/// let v = Validator::builder()
///     .with_document("https://example.com/name.json", json!({"type": "string", "minLength": 1}))
///     .build(&json!({"properties": {"name": {"$ref": "https://example.com/name.json"}}}))
///     .unwrap();
/// assert!(v.is_valid(&json!({"name": "Ada"})));
/// assert!(!v.is_valid(&json!({"name": ""})));
/// ```
#[derive(Debug, Clone)]
pub struct ValidatorBuilder {
    documents: Vec<(String, Value)>,
    options: compile::Options,
    max_errors: usize,
}

impl ValidatorBuilder {
    /// Registers `schema` under the absolute URI `uri`, so a `$ref` (or `$schema`) naming that
    /// URI resolves to it. Nothing is ever fetched from the network: a reference to an
    /// unregistered URI (other than the official meta-schemas, which are built in) is an error.
    pub fn with_document(mut self, uri: impl Into<String>, schema: Value) -> Self {
        self.documents.push((uri.into(), schema));
        self
    }

    /// Whether `format` is asserted (default `true`).
    ///
    /// JSON Schema 2020-12 makes `format` an annotation unless a meta-schema enables the
    /// format-assertion vocabulary. This validator asserts it by default because the schemas it
    /// checks are contracts for model output: a `date-time` that is not a date-time is a bad
    /// reply, and the derived types, where the user declared the format, always assert it.
    /// Turn it off to follow the spec's annotation-only default.
    pub fn assert_formats(mut self, on: bool) -> Self {
        self.options.assert_formats = on;
        self
    }

    /// Reads OpenAPI 3.0's `nullable: true` as "`null` is also allowed" (default `false`: in
    /// JSON Schema `nullable` is an unknown keyword, so an annotation).
    pub fn openapi_nullable(mut self, on: bool) -> Self {
        self.options.openapi_nullable = on;
        self
    }

    /// The draft of a schema without `$schema` (default [`Draft::Draft2020_12`]).
    pub fn default_draft(mut self, draft: Draft) -> Self {
        self.options.default_draft = draft;
        self
    }

    /// The step budget of each check of a `pattern` that needs backtracking (a backreference
    /// or a lookaround; default [`DEFAULT_BACKTRACK_LIMIT`]). A string the pattern cannot be
    /// checked on within the budget fails validation with an error that says so. Other patterns
    /// run in time linear in the string's length and have no budget.
    ///
    /// ```
    /// use schema_core::validate::Validator;
    /// use serde_json::json;
    ///
    /// let built = Validator::builder()
    ///     .pattern_backtrack_limit(1_000)
    ///     .build(&json!({"type": "string", "pattern": "^(a|a)*\\1b$"}));
    /// if cfg!(feature = "lookaround") {
    ///     let errors = built.unwrap().validate(&json!("a".repeat(40))).unwrap_err();
    ///     assert!(errors.errors()[0].found.contains("budget of 1000"));
    /// } else {
    ///     // Without the backtracking engine the pattern does not compile.
    ///     assert!(built.unwrap_err().to_string().contains("feature `lookaround`"));
    /// }
    /// ```
    pub fn pattern_backtrack_limit(mut self, steps: usize) -> Self {
        self.options.backtrack_limit = steps;
        self
    }

    /// How many errors are collected before validation stops (at least 1; default
    /// [`DEFAULT_MAX_ERRORS`]).
    pub fn max_errors(mut self, max: usize) -> Self {
        self.max_errors = max.max(1);
        self
    }

    /// Compiles `schema`. Errors name the JSON pointer of a malformed keyword, an unresolvable
    /// reference, a `pattern` that is not ECMA-262, or an unsupported `$schema`/vocabulary.
    pub fn build(&self, schema: &Value) -> Result<Validator, ConvertError> {
        Ok(Validator {
            compiled: compile::compile(schema, &self.documents, &self.options)?,
            max_errors: self.max_errors,
        })
    }
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
    /// Compiles `schema` with the default options (formats asserted, no OpenAPI `nullable`, no
    /// extra documents). Errors name the JSON pointer of a malformed keyword, an unresolvable
    /// reference, a `pattern` that is not ECMA-262, or an unsupported `$schema`/vocabulary.
    pub fn new(schema: &Value) -> Result<Validator, ConvertError> {
        Validator::builder().build(schema)
    }

    /// A builder for options: [`ValidatorBuilder::with_document`],
    /// [`ValidatorBuilder::assert_formats`], [`ValidatorBuilder::openapi_nullable`].
    pub fn builder() -> ValidatorBuilder {
        ValidatorBuilder {
            documents: Vec::new(),
            options: compile::Options::default(),
            max_errors: DEFAULT_MAX_ERRORS,
        }
    }

    /// The work validating `value` takes, in evaluation steps (schema nodes entered plus
    /// `enum` values compared), with the cost of compiling. For tests that show time grows
    /// linearly with input size without relying on the clock.
    pub(crate) fn evaluation_steps(&self, value: &Value) -> u64 {
        self.compiled.steps + check::steps(&self.compiled, value)
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
        check::is_valid(&self.compiled, value)
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
