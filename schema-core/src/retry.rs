//! A provider-agnostic retry loop: ask the model, parse, feed the errors back, stop after N
//! attempts. No HTTP client here: the caller passes the function that talks to the model.

use crate::{AgentSchema, ParseError, ParseOptions};
use serde::de::DeserializeOwned;
use std::fmt;
use std::future::Future;

/// How the retry loop behaves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryOptions {
    /// How many replies to ask for in all (at least 1). Default 3.
    pub max_attempts: usize,
    /// Append the expected type as TypeScript text to the feedback. Default false: the errors
    /// alone are usually enough and cost fewer tokens.
    pub include_type: bool,
    /// Ask again after a refusal. Default false: a refusal is returned at once.
    pub retry_refusals: bool,
    /// How each reply is parsed.
    pub parse: ParseOptions,
}

impl Default for RetryOptions {
    fn default() -> Self {
        RetryOptions {
            max_attempts: 3,
            include_type: false,
            retry_refusals: false,
            parse: ParseOptions::default(),
        }
    }
}

impl RetryOptions {
    /// Sets the number of attempts.
    pub fn max_attempts(mut self, n: usize) -> Self {
        self.max_attempts = n.max(1);
        self
    }

    /// Appends the TypeScript text of the type to the feedback.
    pub fn include_type(mut self, on: bool) -> Self {
        self.include_type = on;
        self
    }
}

/// Why the loop ended without a value.
#[derive(Debug)]
pub enum RetryError<E> {
    /// The caller's function failed (network, quota, ...); the attempts' parse errors before it.
    Ask {
        /// The caller's error.
        error: E,
        /// The parse errors of the earlier attempts.
        attempts: Vec<ParseError>,
    },
    /// Every attempt failed to parse (or one was a refusal); every attempt's error, last one last.
    Parse {
        /// The parse error of each attempt, in order.
        attempts: Vec<ParseError>,
    },
}

impl<E> RetryError<E> {
    /// The parse error of each attempt, in order.
    pub fn attempts(&self) -> &[ParseError] {
        match self {
            RetryError::Ask { attempts, .. } | RetryError::Parse { attempts } => attempts,
        }
    }

    /// The last parse error, if any attempt was parsed.
    pub fn last(&self) -> Option<&ParseError> {
        self.attempts().last()
    }
}

impl<E: fmt::Display> fmt::Display for RetryError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryError::Ask { error, attempts } => {
                write!(
                    f,
                    "asking the model failed after {} attempt(s): {error}",
                    attempts.len() + 1
                )
            }
            RetryError::Parse { attempts } => {
                write!(f, "no valid reply in {} attempt(s)", attempts.len())?;
                if let Some(last) = attempts.last() {
                    write!(f, "; last error: {last}")?;
                }
                Ok(())
            }
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for RetryError<E> {}

/// A value and the number of replies it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Retried<T> {
    /// The validated value.
    pub value: T,
    /// How many replies were asked for (1 when the first was valid).
    pub attempts: usize,
    /// The parse errors of the failed attempts, in order.
    pub errors: Vec<ParseError>,
}

/// What to do after one attempt.
enum Step<T> {
    Done(T),
    Again(String),
    Stop,
}

fn step<T: AgentSchema + DeserializeOwned>(
    reply: &str,
    options: &RetryOptions,
    errors: &mut Vec<ParseError>,
    attempt: usize,
) -> Step<T> {
    match T::from_llm_with(reply, &options.parse) {
        Ok(parsed) => Step::Done(parsed.value),
        Err(e) => {
            let give_up = attempt + 1 >= options.max_attempts
                || (matches!(e, ParseError::Refusal { .. }) && !options.retry_refusals)
                || !(e.is_retryable() || matches!(e, ParseError::Refusal { .. }));
            let feedback = if options.include_type {
                e.feedback_with_type(&T::typescript())
            } else {
                e.feedback()
            };
            errors.push(e);
            if give_up {
                Step::Stop
            } else {
                Step::Again(feedback)
            }
        }
    }
}

/// Asks `ask` for a reply (with `None` the first time, then the feedback on the previous reply)
/// until one parses into `T` or `options.max_attempts` replies were tried.
///
/// ```
/// use schema_core::{retry::{retry, RetryOptions}, AgentSchema};
/// #[derive(AgentSchema, serde::Deserialize, Debug)]
/// struct Score {
///     #[schema(maximum = 10)]
///     score: u8,
/// }
/// let mut replies = vec![r#"{"score": 12}"#, r#"{"score": 9}"#].into_iter();
/// let mut seen = Vec::new();
/// let got = retry::<Score, std::convert::Infallible>(&RetryOptions::default(), |feedback| {
///     seen.push(feedback.map(str::to_string));
///     Ok(replies.next().unwrap().to_string())
/// })
/// .unwrap();
/// assert_eq!((got.value.score, got.attempts), (9, 2));
/// assert!(seen[1].as_deref().unwrap().contains("/score: expected a number <= 10, found 12"));
/// ```
pub fn retry<T, E>(
    options: &RetryOptions,
    mut ask: impl FnMut(Option<&str>) -> Result<String, E>,
) -> Result<Retried<T>, RetryError<E>>
where
    T: AgentSchema + DeserializeOwned,
{
    let mut errors = Vec::new();
    let mut feedback: Option<String> = None;
    for attempt in 0..options.max_attempts.max(1) {
        let reply = match ask(feedback.as_deref()) {
            Ok(r) => r,
            Err(error) => {
                return Err(RetryError::Ask {
                    error,
                    attempts: errors,
                })
            }
        };
        match step::<T>(&reply, options, &mut errors, attempt) {
            Step::Done(value) => {
                return Ok(Retried {
                    value,
                    attempts: attempt + 1,
                    errors,
                })
            }
            Step::Again(f) => feedback = Some(f),
            Step::Stop => break,
        }
    }
    Err(RetryError::Parse { attempts: errors })
}

/// The async form of [`retry`]: `ask` returns a future (any runtime).
pub async fn retry_async<T, E, F, Fut>(
    options: &RetryOptions,
    mut ask: F,
) -> Result<Retried<T>, RetryError<E>>
where
    T: AgentSchema + DeserializeOwned,
    F: FnMut(Option<String>) -> Fut,
    Fut: Future<Output = Result<String, E>>,
{
    let mut errors = Vec::new();
    let mut feedback: Option<String> = None;
    for attempt in 0..options.max_attempts.max(1) {
        let reply = match ask(feedback.take()).await {
            Ok(r) => r,
            Err(error) => {
                return Err(RetryError::Ask {
                    error,
                    attempts: errors,
                })
            }
        };
        match step::<T>(&reply, options, &mut errors, attempt) {
            Step::Done(value) => {
                return Ok(Retried {
                    value,
                    attempts: attempt + 1,
                    errors,
                })
            }
            Step::Again(f) => feedback = Some(f),
            Step::Stop => break,
        }
    }
    Err(RetryError::Parse { attempts: errors })
}
