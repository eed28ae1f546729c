//! From JSON text (or a raw model reply) to a validated typed value.

use crate::cache::TypeCache;
use crate::llm::{self, ExtractError, ExtractOptions, Extracted, Repair, Source};
use crate::model::Type;
use crate::validate::{ValidationError, ValidationErrors};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;

mod nulls;
mod reshape;

/// The default largest input accepted (8 MiB).
pub const DEFAULT_MAX_LEN: usize = 8 << 20;

/// Why text could not be turned into a value. Each variant is a failure the caller handles
/// differently: retry with the feedback, ask for a shorter answer, give up on a refusal.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ParseError {
    /// The reply holds no JSON value at all.
    NoJson {
        /// The start of the reply, for logs.
        preview: String,
    },
    /// The model declined (a reply with no JSON that reads as a refusal, or the provider's refusal
    /// field passed by the caller).
    Refusal {
        /// The refusal text.
        text: String,
    },
    /// The text ends inside a value: the reply was cut off (e.g. by a token limit).
    Truncated {
        /// Byte offset where the text ended.
        offset: usize,
        /// What was still expected there.
        expected: String,
    },
    /// Not valid JSON.
    Syntax {
        /// 1-based line in the input text.
        line: usize,
        /// 1-based column in the input text.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Valid JSON that does not match the schema: every error, and the value itself.
    Invalid {
        /// Every violation found.
        errors: ValidationErrors,
        /// The offending value.
        value: Value,
    },
    /// The value matches the schema, but the type's `Deserialize` impl refused it (a custom
    /// `deserialize_with`, say).
    Deserialize {
        /// serde's message.
        message: String,
        /// The offending value.
        value: Value,
    },
    /// The input is longer than allowed.
    TooLarge {
        /// The input's length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The input nests deeper than allowed.
    TooDeep {
        /// The limit.
        max: usize,
    },
    /// The type's schema could not be compiled (a bug in a hand-written model).
    Schema(String),
    /// The provider's response held no reply: its error body (with the provider's message), a
    /// body of an unknown shape, or a content-filter stop.
    #[cfg(feature = "provider")]
    Provider(crate::provider::ProviderError),
    /// A tool call names no tool of the set.
    UnknownTool {
        /// The name the model called.
        name: String,
        /// The names of the tools there are.
        known: Vec<String>,
    },
}

impl ParseError {
    /// The offending JSON value, when there is one.
    pub fn value(&self) -> Option<&Value> {
        match self {
            ParseError::Invalid { value, .. } | ParseError::Deserialize { value, .. } => {
                Some(value)
            }
            _ => None,
        }
    }

    /// The validation errors, when the JSON did not match the schema.
    pub fn validation_errors(&self) -> Option<&ValidationErrors> {
        match self {
            ParseError::Invalid { errors, .. } => Some(errors),
            _ => None,
        }
    }

    /// Whether asking the model again may help (not for a refusal, an oversized input or a broken
    /// schema).
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            ParseError::NoJson { .. }
                | ParseError::Truncated { .. }
                | ParseError::Syntax { .. }
                | ParseError::Invalid { .. }
                | ParseError::Deserialize { .. }
                | ParseError::TooDeep { .. }
                | ParseError::UnknownTool { .. }
        )
    }

    /// A short text to send back to the model so its next reply can be right: what was wrong,
    /// where, and what is allowed.
    pub fn feedback(&self) -> String {
        match self {
            ParseError::NoJson { .. } => {
                "Your reply contained no JSON. Reply with one JSON value only.".into()
            }
            ParseError::Refusal { .. } => {
                "Your reply was a refusal. If you can answer, reply with one JSON value only.".into()
            }
            ParseError::Truncated { .. } => {
                "Your reply was cut off before the JSON was complete. Reply again with a shorter JSON value: keep every text field brief.".into()
            }
            ParseError::Syntax {
                line,
                column,
                message,
            } => format!(
                "Your reply is not valid JSON ({message} at line {line}, column {column}). Reply again with valid JSON only."
            ),
            ParseError::Invalid { errors, .. } => errors.feedback(),
            ParseError::Deserialize { message, .. } => format!(
                "Your JSON could not be read: {message}. Reply again with corrected JSON only."
            ),
            ParseError::TooLarge { max, .. } => {
                format!("Your reply is too long (more than {max} bytes). Reply again with a shorter JSON value.")
            }
            ParseError::TooDeep { max } => {
                format!("Your JSON nests deeper than {max} levels. Reply again with a flatter JSON value.")
            }
            ParseError::Schema(_) => "The expected schema could not be prepared.".into(),
            #[cfg(feature = "provider")]
            ParseError::Provider(e) => format!("The reply could not be used: {e}."),
            ParseError::UnknownTool { name, known } => format!(
                "There is no tool named `{name}`. Call one of: {}.",
                known.join(", ")
            ),
        }
    }

    /// [`feedback`](ParseError::feedback) followed by the expected type as TypeScript text, for
    /// a model that lost track of the shape.
    pub fn feedback_with_type(&self, typescript: &str) -> String {
        format!(
            "{}\nThe expected shape (TypeScript): {typescript}",
            self.feedback()
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NoJson { preview } => write!(f, "no JSON in the reply: {preview:?}"),
            ParseError::Refusal { text } => write!(f, "the model refused: {text:?}"),
            ParseError::Truncated { offset, expected } => {
                write!(
                    f,
                    "the reply is truncated at byte {offset}: expected {expected}"
                )
            }
            ParseError::Syntax {
                line,
                column,
                message,
            } => write!(f, "invalid JSON at line {line}, column {column}: {message}"),
            ParseError::Invalid { errors, .. } => write!(f, "{errors}"),
            ParseError::Deserialize { message, .. } => {
                write!(f, "could not deserialize: {message}")
            }
            ParseError::TooLarge { len, max } => {
                write!(f, "input of {len} bytes exceeds the limit of {max} bytes")
            }
            ParseError::TooDeep { max } => write!(f, "input nests deeper than {max} levels"),
            ParseError::Schema(m) => write!(f, "schema error: {m}"),
            #[cfg(feature = "provider")]
            ParseError::Provider(e) => write!(f, "{e}"),
            ParseError::UnknownTool { name, known } => write!(
                f,
                "no tool named `{name}`; the tools are: {}",
                known.join(", ")
            ),
        }
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParseError::Invalid { errors, .. } => Some(errors),
            #[cfg(feature = "provider")]
            ParseError::Provider(e) => Some(e),
            _ => None,
        }
    }
}

/// Options of [`from_llm_with`](crate::AgentSchema::from_llm_with).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Repair common model mistakes (trailing commas, single quotes, comments, Python literals);
    /// every repair is reported. Off by default.
    pub lenient: bool,
    /// Close a truncated reply instead of reporting it as [`ParseError::Truncated`]; the repair is
    /// reported. Off by default.
    pub repair_truncated: bool,
    /// The provider's refusal field (OpenAI's `message.refusal`), if the caller has one: a
    /// non-empty refusal makes the parse fail with [`ParseError::Refusal`].
    pub refusal: Option<String>,
    /// The largest input accepted, in bytes.
    pub max_len: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            lenient: false,
            repair_truncated: false,
            refusal: None,
            max_len: DEFAULT_MAX_LEN,
        }
    }
}

impl ParseOptions {
    /// Turns lenient repairs on or off.
    pub fn lenient(mut self, on: bool) -> Self {
        self.lenient = on;
        self
    }

    /// Turns the closing of truncated replies on or off.
    pub fn repair_truncated(mut self, on: bool) -> Self {
        self.repair_truncated = on;
        self
    }

    /// Passes the provider's refusal field.
    pub fn refusal(mut self, refusal: Option<String>) -> Self {
        self.refusal = refusal;
        self
    }
}

/// A value parsed from a model reply, with where the JSON was found and every repair made to
/// read it (none unless lenient mode or the truncation repair was asked for).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    /// The validated value.
    pub value: T,
    /// Where in the reply the JSON was: the whole text, a fenced block, or embedded in prose.
    pub source: Source,
    /// What was repaired, in order.
    pub repairs: Vec<Repair>,
    /// The reasoning block (`<think>…</think>` and the like) skipped before the answer, as a
    /// byte range of the reply.
    pub reasoning: Option<std::ops::Range<usize>>,
}

impl From<ExtractError> for ParseError {
    fn from(e: ExtractError) -> Self {
        match e {
            ExtractError::NoJson => ParseError::NoJson {
                preview: String::new(),
            },
            ExtractError::Refusal { text } => ParseError::Refusal { text },
            ExtractError::Truncated { offset, expected } => {
                ParseError::Truncated { offset, expected }
            }
            ExtractError::Syntax {
                line,
                column,
                message,
            } => ParseError::Syntax {
                line,
                column,
                message,
            },
            ExtractError::TooLarge { len, max } => ParseError::TooLarge { len, max },
            ExtractError::TooDeep { max } => ParseError::TooDeep { max },
        }
    }
}

/// Finds the JSON text in a model reply.
pub(crate) fn extract<'a>(text: &'a str, opts: &ParseOptions) -> Result<Extracted<'a>, ParseError> {
    if let Some(r) = opts.refusal.as_deref().filter(|r| !r.trim().is_empty()) {
        return Err(ParseError::Refusal {
            text: r.to_string(),
        });
    }
    let options = ExtractOptions {
        lenient: opts.lenient,
        repair_truncated: opts.repair_truncated,
        max_len: opts.max_len,
        ..ExtractOptions::default()
    };
    llm::extract_json(text, &options).map_err(|e| match e {
        ExtractError::NoJson => ParseError::NoJson {
            preview: text.chars().take(80).collect(),
        },
        other => other.into(),
    })
}

/// A model reply to a validated `T`: the typed fast path when the reply is bare JSON, else the
/// extractor, then as `from_json`.
pub(crate) fn from_llm<T: DeserializeOwned>(
    cache: &'static TypeCache,
    ty: &'static Type,
    text: &str,
    opts: &ParseOptions,
) -> Result<Parsed<T>, ParseError> {
    let trimmed = text.trim();
    if opts.refusal.is_none()
        && text.len() <= opts.max_len
        && (trimmed.starts_with('{') || trimmed.starts_with('['))
    {
        if let Some(value) = crate::validate::guided::fast_path::<T>(cache.plan(ty), trimmed) {
            return Ok(Parsed {
                value,
                source: Source::Whole,
                repairs: Vec::new(),
                reasoning: None,
            });
        }
    }
    let found = extract(text, opts)?;
    let value = from_json(cache, ty, &found.json, usize::MAX)?;
    Ok(Parsed {
        value,
        source: found.source,
        repairs: found.repairs,
        reasoning: found.reasoning,
    })
}

/// serde_json's nesting limit, which `from_json` inherits.
pub(crate) const MAX_DEPTH: usize = 128;

/// Maps a serde_json syntax error to the matching [`ParseError`].
pub(crate) fn syntax_error(e: &serde_json::Error, text: &str) -> ParseError {
    use serde_json::error::Category;
    let message = e.to_string();
    if message.contains("recursion limit") {
        return ParseError::TooDeep { max: MAX_DEPTH };
    }
    match e.classify() {
        Category::Eof => ParseError::Truncated {
            offset: text.len(),
            expected: "the rest of the JSON value".into(),
        },
        _ => {
            // serde_json appends " at line L column C"; keep the message clean.
            let clean = message
                .rsplit_once(" at line ")
                .map(|(m, _)| m.to_string())
                .unwrap_or(message);
            ParseError::Syntax {
                line: e.line(),
                column: e.column(),
                message: clean,
            }
        }
    }
}

/// Strict JSON text to a validated `T`.
pub(crate) fn from_json<T: DeserializeOwned>(
    cache: &'static TypeCache,
    ty: &'static Type,
    text: &str,
    max_len: usize,
) -> Result<T, ParseError> {
    if text.len() <= max_len {
        if let Some(value) = crate::validate::guided::fast_path::<T>(cache.plan(ty), text) {
            return Ok(value);
        }
    }
    from_json_slow(cache, ty, text, max_len)
}

/// `from_json` when the fast path did not take the text: every error collected (kept out of
/// line, so that the fast path's frame stays small).
#[inline(never)]
pub(crate) fn from_json_slow<T: DeserializeOwned>(
    cache: &'static TypeCache,
    ty: &'static Type,
    text: &str,
    max_len: usize,
) -> Result<T, ParseError> {
    if text.len() > max_len {
        return Err(ParseError::TooLarge {
            len: text.len(),
            max: max_len,
        });
    }
    from_value(cache, ty, parse_text(text)?)
}

/// JSON text to a `Value`, with the size limit and errors mapped.
pub(crate) fn parse_text(text: &str) -> Result<Value, ParseError> {
    if text.len() > DEFAULT_MAX_LEN {
        return Err(ParseError::TooLarge {
            len: text.len(),
            max: DEFAULT_MAX_LEN,
        });
    }
    serde_json::from_str(text).map_err(|e| syntax_error(&e, text))
}

/// A parsed JSON value to a validated `T` (nulls read as absent where the schema has no null).
pub(crate) fn from_value<T: DeserializeOwned>(
    cache: &'static TypeCache,
    ty: &'static Type,
    value: Value,
) -> Result<T, ParseError> {
    let validator = cache
        .validator(ty)
        .as_ref()
        .map_err(|e| ParseError::Schema(e.to_string()))?;
    checked(ty, validator, value)
}

/// Validates `value` (nulls read as absent where the schema has no null), then deserializes it
/// as the type `ty` models.
pub(crate) fn checked<T: DeserializeOwned>(
    ty: &'static Type,
    validator: &crate::validate::Validator,
    value: Value,
) -> Result<T, ParseError> {
    let value = match validator.validate_parsed(&value) {
        Ok(()) => value,
        Err(errors) => reshaped(ty, validator, value, errors)?,
    };
    match T::deserialize(&value) {
        Ok(v) => Ok(v),
        Err(first) => {
            // What the validator read as absent, serde must too: a `null` for a defaulted field
            // (which serde would hand to the field's own `Deserialize`) or for a property the
            // object does not have. And JSON Schema counts 1.0 as an integer; serde does not:
            // integral floats are written as integers, which is the same number.
            let mut normalized = integral_floats_as_integers(&value);
            nulls::drop_absent_nulls(ty, &mut normalized);
            match T::deserialize(&normalized) {
                Ok(v) => Ok(v),
                Err(_) => Err(ParseError::Deserialize {
                    message: first.to_string(),
                    value,
                }),
            }
        }
    }
}

/// A value that failed validation, with maps written as entries and tuples written as
/// positional objects read back into serde's form (`parse/reshape.rs`): the rewritten value if
/// it validates; else the errors of the rewrite, or of the rewritten value (their paths pointing
/// into the value as written), or (nothing rewritten) the first errors.
fn reshaped(
    ty: &'static Type,
    validator: &crate::validate::Validator,
    value: Value,
    errors: ValidationErrors,
) -> Result<Value, ParseError> {
    // A root that is not an object, wrapped where the dialect needs an object root
    // (`convert::DEFAULT_ROOT_KEY`): the value inside, where that value is valid.
    if let Some(inner) = (value.as_object())
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get(crate::convert::DEFAULT_ROOT_KEY))
    {
        let mut inner = inner.clone();
        if validator.validate_parsed(&inner).is_ok() {
            return Ok(inner);
        }
        let outcome = reshape::reshape(ty, &mut inner);
        if outcome.errors.is_empty() && outcome.changed && validator.validate_parsed(&inner).is_ok()
        {
            return Ok(inner);
        }
    }
    let mut shaped = value.clone();
    let outcome = reshape::reshape(ty, &mut shaped);
    if !outcome.errors.is_empty() {
        return Err(ParseError::Invalid {
            errors: ValidationErrors::from_vec(outcome.errors, false),
            value,
        });
    }
    if !outcome.changed {
        return Err(ParseError::Invalid { errors, value });
    }
    match validator.validate_parsed(&shaped) {
        Ok(()) => Ok(shaped),
        Err(errors) => {
            let truncated = errors.truncated();
            let errors = errors
                .into_iter()
                .map(|e| ValidationError {
                    path: outcome.written_path(&e.path),
                    ..e.clone()
                })
                .collect();
            Err(ParseError::Invalid {
                errors: ValidationErrors::from_vec(errors, truncated),
                value,
            })
        }
    }
}

pub(crate) fn integral_floats_as_integers(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(integral_floats_as_integers).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), integral_floats_as_integers(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A single validation error, for failures found outside the validator.
#[allow(dead_code)]
pub(crate) fn single(
    path: &str,
    keyword: &'static str,
    expected: &str,
    found: &str,
) -> ValidationErrors {
    ValidationErrors::from_vec(
        vec![ValidationError {
            path: path.into(),
            keyword,
            expected: expected.into(),
            found: found.into(),
        }],
        false,
    )
}
