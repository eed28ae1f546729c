//! A provider-agnostic retry loop: ask the model, parse, feed the errors back, stop after N
//! attempts. No HTTP client here: the caller passes the function that talks to the model,
//! blocking ([`retry`]) or async ([`retry_async`], any runtime).
//!
//! Each failed [`Attempt`] carries the model's reply and the feedback to send: the caller
//! appends both to its message history before asking again. Name the value's type on the
//! result (`let got: Retried<Plan> = ...`) and the error type on the closure's `Ok`
//! (`Ok::<_, MyError>(...)`), and no turbofish is needed. The runnable examples
//! `examples/retry.rs` and `examples/retry_async.rs` do it against a canned local server.

use crate::provider::{read_response, reply_text, Provider};
use crate::{AgentSchema, ParseError, ParseOptions};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::borrow::Cow;
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
    /// The defaults: 3 attempts, errors only in the feedback, a refusal returned at once.
    pub fn new() -> Self {
        Self::default()
    }

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

    /// Asks again after a refusal.
    pub fn retry_refusals(mut self, on: bool) -> Self {
        self.retry_refusals = on;
        self
    }

    /// Sets how each reply is parsed.
    pub fn parse(mut self, options: ParseOptions) -> Self {
        self.parse = options;
        self
    }
}

/// One failed attempt, as the retry closure sees it before asking again: the model's own reply
/// (to append to the conversation), why it failed, and the feedback text to send.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Attempt {
    /// 1 for the first reply.
    pub number: usize,
    /// The text the model wrote (empty when the response held none).
    pub reply: String,
    /// Why the reply was not accepted.
    pub error: ParseError,
    /// The text to send back so the next reply can be right.
    pub feedback: String,
}

/// What the retry closure returns for one attempt: the reply text, and the provider's refusal
/// text when it has one. A `String` or `&str` converts into an answer with no refusal;
/// [`Answer::from_response`] reads a provider's whole response body (refusal, token-limit cut,
/// content filter, error body).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Answer {
    /// The reply text.
    pub text: String,
    /// The provider's refusal text for this attempt (OpenAI's `message.refusal`).
    pub refusal: Option<String>,
    /// A failure already known from the response envelope (cut by the token limit, refused,
    /// filtered, an error body); when set, the text is not parsed.
    pub error: Option<ParseError>,
}

impl Answer {
    /// An answer with the reply text and no refusal.
    pub fn new(text: impl Into<String>) -> Self {
        Answer {
            text: text.into(),
            ..Answer::default()
        }
    }

    /// Sets the provider's refusal text for this attempt.
    pub fn refusal(mut self, refusal: Option<String>) -> Self {
        self.refusal = refusal;
        self
    }

    /// The answer in a provider's response body, read as
    /// [`from_response`](crate::AgentSchema::from_response) reads it.
    pub fn from_response(provider: Provider, body: &Value) -> Self {
        let text = read_response(provider, body)
            .ok()
            .and_then(|r| r.text)
            .unwrap_or_default();
        Answer {
            text,
            refusal: None,
            error: reply_text(provider, body).err(),
        }
    }
}

impl From<String> for Answer {
    fn from(text: String) -> Self {
        Answer::new(text)
    }
}

impl From<&str> for Answer {
    fn from(text: &str) -> Self {
        Answer::new(text)
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
    Again(Attempt),
    Stop,
}

fn step<T: AgentSchema + DeserializeOwned>(
    answer: Answer,
    options: &RetryOptions,
    errors: &mut Vec<ParseError>,
    attempt: usize,
) -> Step<T> {
    let result = match answer.error {
        Some(e) => Err(e),
        None => {
            let parse = match &answer.refusal {
                Some(_) => Cow::Owned(options.parse.clone().refusal(answer.refusal.clone())),
                None => Cow::Borrowed(&options.parse),
            };
            T::from_llm_with(&answer.text, &parse).map(|p| p.value)
        }
    };
    match result {
        Ok(value) => Step::Done(value),
        Err(e) => {
            let give_up = attempt + 1 >= options.max_attempts
                || (matches!(e, ParseError::Refusal { .. }) && !options.retry_refusals)
                || !(e.is_retryable() || matches!(e, ParseError::Refusal { .. }));
            let feedback = if options.include_type {
                e.feedback_with_type(&T::typescript())
            } else {
                e.feedback()
            };
            let failed = Attempt {
                number: attempt + 1,
                reply: answer.text,
                error: e.clone(),
                feedback,
            };
            errors.push(e);
            if give_up {
                Step::Stop
            } else {
                Step::Again(failed)
            }
        }
    }
}

/// Asks `ask` for a reply (with `None` the first time, then the previous failed [`Attempt`]:
/// the model's reply, its error and the feedback) until one parses into `T` or
/// `options.max_attempts` replies were tried. `ask` returns the reply text (a `String`), or an
/// [`Answer`] carrying the provider's refusal text or a whole response body.
///
/// The type parameters are the value `T`, the caller's error `E` and the answer `A`; all three
/// are inferred when the result's type is named and the closure's `Ok` names `E`:
///
/// ```
/// use schema_core::retry::{retry, Retried, RetryOptions};
/// use schema_core::AgentSchema;
///
/// #[derive(AgentSchema, serde::Deserialize, Debug)]
/// struct Score {
///     #[schema(maximum = 10)]
///     score: u8,
/// }
/// let mut replies = vec![r#"{"score": 12}"#, r#"{"score": 9}"#].into_iter();
/// let mut conversation = Vec::new();
/// let got: Retried<Score> = retry(&RetryOptions::new(), |previous| {
///     if let Some(p) = previous {
///         conversation.push(("assistant", p.reply.clone()));
///         conversation.push(("user", p.feedback.clone()));
///     }
///     Ok::<_, std::convert::Infallible>(replies.next().unwrap().to_string())
/// })
/// .unwrap();
/// assert_eq!((got.value.score, got.attempts), (9, 2));
/// assert_eq!(conversation[0], ("assistant", r#"{"score": 12}"#.to_string()));
/// assert!(conversation[1].1.contains("/score: expected a number <= 10, found 12"));
/// ```
///
/// With a turbofish instead: `retry::<Score, Infallible, _>(&options, |previous| ...)`.
pub fn retry<T, E, A>(
    options: &RetryOptions,
    mut ask: impl FnMut(Option<&Attempt>) -> Result<A, E>,
) -> Result<Retried<T>, RetryError<E>>
where
    T: AgentSchema + DeserializeOwned,
    A: Into<Answer>,
{
    let mut errors = Vec::new();
    let mut previous: Option<Attempt> = None;
    for attempt in 0..options.max_attempts.max(1) {
        let reply = match ask(previous.as_ref()) {
            Ok(r) => r.into(),
            Err(error) => {
                return Err(RetryError::Ask {
                    error,
                    attempts: errors,
                })
            }
        };
        match step::<T>(reply, options, &mut errors, attempt) {
            Step::Done(value) => {
                return Ok(Retried {
                    value,
                    attempts: attempt + 1,
                    errors,
                })
            }
            Step::Again(a) => previous = Some(a),
            Step::Stop => break,
        }
    }
    Err(RetryError::Parse { attempts: errors })
}

/// The async form of [`retry`]: `ask` is called with the previous failed [`Attempt`] (owned)
/// and returns a future, awaited on whatever runtime the caller runs (tokio, async-std, smol,
/// a `block_on`).
///
/// The closure is `FnMut`: it appends the previous attempt's reply and feedback to the message
/// history, builds the request body, and returns an `async move` block that owns the body
/// (a future that borrowed the closure's state would not compile: E0373). With `reqwest`, the
/// block is `Ok::<_, reqwest::Error>(Answer::from_response(provider,
/// &client.post(url).json(&body).send().await?.json().await?))`; here a canned `post` stands
/// in for it:
///
/// ```
/// use schema_core::provider::{merge_into, output_format, Provider};
/// use schema_core::retry::{retry_async, Answer, Retried, RetryOptions};
/// use schema_core::AgentSchema;
/// use serde_json::{json, Value};
///
/// #[derive(AgentSchema, serde::Deserialize, Debug)]
/// struct Triage {
///     #[schema(maximum = 5)]
///     priority: u8,
///     summary: String,
/// }
///
/// /// The HTTP call (with reqwest: `client.post(url).json(&body).send().await?.json().await`):
/// /// a canned server whose first reply breaks the schema.
/// async fn post(body: Value) -> Result<Value, std::io::Error> {
///     let turns = body["messages"].as_array().map_or(0, Vec::len);
///     let content = if turns == 1 {
///         r#"{"priority": 9, "summary": "Card charged twice"}"#
///     } else {
///         r#"{"priority": 4, "summary": "Card charged twice"}"#
///     };
///     Ok(json!({"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}))
/// }
///
/// async fn triage(ticket: &str) -> Result<Retried<Triage>, Box<dyn std::error::Error>> {
///     let mut messages = vec![json!({"role": "user", "content": ticket})];
///     let got: Retried<Triage> = retry_async(&RetryOptions::new(), |previous| {
///         if let Some(p) = previous {
///             messages.push(json!({"role": "assistant", "content": p.reply}));
///             messages.push(json!({"role": "user", "content": p.feedback}));
///         }
///         let mut body = json!({"model": "gpt-4.1-mini", "messages": messages});
///         merge_into(&mut body, output_format::<Triage>(Provider::OpenAiChat).unwrap());
///         async move {
///             let response = post(body).await?;
///             Ok::<_, std::io::Error>(Answer::from_response(Provider::OpenAiChat, &response))
///         }
///     })
///     .await?;
///     Ok(got)
/// }
///
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     use std::sync::Arc;
/// #     use std::task::{Context, Poll, Wake, Waker};
/// #     struct Unpark(std::thread::Thread);
/// #     impl Wake for Unpark {
/// #         fn wake(self: Arc<Self>) {
/// #             self.0.unpark()
/// #         }
/// #     }
/// #     let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
/// #     let mut cx = Context::from_waker(&waker);
/// #     let mut f = std::pin::pin!(f);
/// #     loop {
/// #         if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
/// #             return v;
/// #         }
/// #         std::thread::park();
/// #     }
/// # }
/// // In a tokio app: `let got = triage("...").await?;`
/// let got = block_on(triage("I was charged twice for one order.")).unwrap();
/// assert_eq!((got.value.priority, got.attempts), (4, 2));
/// assert_eq!(got.errors[0].validation_errors().unwrap().paths(), ["/priority"]);
/// ```
pub async fn retry_async<T, E, A, F, Fut>(
    options: &RetryOptions,
    mut ask: F,
) -> Result<Retried<T>, RetryError<E>>
where
    T: AgentSchema + DeserializeOwned,
    A: Into<Answer>,
    F: FnMut(Option<Attempt>) -> Fut,
    Fut: Future<Output = Result<A, E>>,
{
    let mut errors = Vec::new();
    let mut previous: Option<Attempt> = None;
    for attempt in 0..options.max_attempts.max(1) {
        let reply = match ask(previous.take()).await {
            Ok(r) => r.into(),
            Err(error) => {
                return Err(RetryError::Ask {
                    error,
                    attempts: errors,
                })
            }
        };
        match step::<T>(reply, options, &mut errors, attempt) {
            Step::Done(value) => {
                return Ok(Retried {
                    value,
                    attempts: attempt + 1,
                    errors,
                })
            }
            Step::Again(a) => previous = Some(a),
            Step::Stop => break,
        }
    }
    Err(RetryError::Parse { attempts: errors })
}
