//! [schema-core] for [rig] agents (rig-core and rig-agent 0.44): each provider's strict schema
//! from this library, the model's reply read and checked by it, and its feedback sent back
//! through rig's own hooks.
//!
//! - **Output schema.** [`output_schema`] converts a `schemars::JsonSchema` type's schema into
//!   the provider's strict dialect (optional properties nullable, every object closed, the
//!   constraints the provider bans moved into description tags that the validator still
//!   enforces), for rig's `AgentBuilder::output_schema_raw`.
//! - **Checked replies.** [`Checked`] is an [`AgentHook`]: at the end of each model turn
//!   without tool calls it reads the text with this library's extractor (fences, prose,
//!   reasoning blocks) and validator, and answers rig with
//!   [`ModelTurnAction::retry_with_feedback`] and this library's feedback text (every error with
//!   its JSON path) until the reply is valid or its retries are spent. [`prompt_typed`] runs a
//!   prompt and returns the typed value.
//! - **Typed tools.** [`typed_tools`] turns a `#[schema(tools)]` enum into rig tools whose
//!   parameters are the provider's strict schemas; each call's arguments are checked with
//!   paths, strict-mode `null`s read back to absent, and the handler receives the enum.
//!   [`ToolCheck`] is a hook that checks the calls of any rig tool against the schemas of a
//!   [`ToolSet`]: a call with bad arguments is skipped with the feedback as its result, a call
//!   with strict-mode `null`s is rewritten without them.
//! - **Typed stream.** [`typed_stream`] reads rig's streamed text deltas into a growing JSON
//!   value and ends with the checked, typed value; [`typed_stream_with_tools`] also gives each
//!   tool call of the turns as a `#[schema(tools)]` enum as soon as its arguments are complete.
//!
//! rig 0.44's seams, as this crate uses them: the output schema is
//! `AgentBuilder::output_schema_raw` (rig then applies its own OpenAI sanitizer to it, which
//! leaves a strict schema of this library as it is); a turn is judged in
//! `AgentHook::on_model_turn_finished`; a tool call is judged in `AgentHook::on_dispatch` (rig
//! 0.44 has no `on_tool_call`: `DispatchAction::skip` and `DispatchAction::rewrite_tool_args`
//! are its answers); streamed text arrives as `MultiTurnStreamItem::StreamAssistantItem`
//! holding `StreamEvent::Text`, a tool call's arguments as `StreamEvent::Arguments` fragments
//! closed by `StreamEvent::End` with the whole call (read here), and a turn a hook rejected as
//! `ModelTurnRetried`.
//!
//! A typed call with feedback retries (the whole user code; `model` is any rig completion
//! model, such as `OpenAI::from_env()?.chat("gpt-4o-mini")`):
//!
//! ```no_run
//! use rig_agent::{agent::OutputMode, AgentBuilder};
//! use schema_core::provider::Provider;
//!
//! #[derive(schemars::JsonSchema, serde::Deserialize)]
//! struct City {
//!     city: String,
//!     #[schemars(range(min = 0))]
//!     population: u64,
//!     #[schemars(length(max = 3))]
//!     landmarks: Vec<String>,
//! }
//!
//! # async fn run(model: rig_core::DynModel<rig_core::operation::Completion>) -> Result<(), Box<dyn std::error::Error>> {
//! let agent = AgentBuilder::new(model)
//!     .output_schema_raw(schema_rig::output_schema::<City>(Provider::OpenAiChat)?)
//!     .output_mode(OutputMode::Native)
//!     .add_hook(schema_rig::Checked::<City>::new().max_retries(2))
//!     .default_max_turns(3) // each feedback retry is a model call of rig's budget
//!     .build();
//! let city: City = schema_rig::prompt_typed(agent.prompt("Describe Lyon.")).await?;
//! # let _ = city;
//! # Ok(())
//! # }
//! ```
//!
//! [schema-core]: schema_core
//! [rig]: rig_agent

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use futures::{Stream, StreamExt};
use rig_agent::agent::{
    AgentHook, DispatchAction, DispatchEvent, HookContext, ModelTurnAction, ModelTurnFinished,
    MultiTurnStreamItem, StreamingResult,
};
use rig_agent::run::PromptError;
use rig_agent::AgentRunner;
use rig_core::completion::AssistantContent;
use rig_core::message::ToolCall;
use rig_core::schemars;
use rig_core::streaming::{Item, StreamEvent};
use rig_core::tool::{DynamicTool, ToolErrorKind, ToolExecutionError, ToolOutput};
use schema_core::convert::ConvertError;
use schema_core::provider::Provider;
use schema_core::tools::ToolSet;
use schema_core::{AgentSchema, ParseError, Schemars, SchemarsStream};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::convert::Infallible;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

pub use rig_agent;
pub use rig_core;
pub use schema_core;

/// `T`'s schema in `provider`'s strict dialect, for rig's `AgentBuilder::output_schema_raw`.
///
/// A type the dialect cannot express (nesting deeper than OpenAI's strict limit, say) is an
/// error naming the place and the rule, never a schema the provider would reject or silently
/// narrow; maps, tuples and a non-object root are rewritten and read back (see
/// [`schema_core::convert::ReadBack`]).
///
/// ```
/// use schema_core::provider::Provider;
/// #[derive(schemars::JsonSchema, serde::Deserialize)]
/// struct Answer {
///     #[schemars(length(max = 200))]
///     text: String,
///     source: Option<String>,
/// }
/// let schema = schema_rig::output_schema::<Answer>(Provider::OpenAiChat).unwrap();
/// let v = schema.as_value();
/// assert_eq!(v["required"], serde_json::json!(["text", "source"]));
/// assert_eq!(v["additionalProperties"], false);
/// assert!(v["properties"]["text"]["description"].as_str().unwrap().contains("@maxLength 200"));
/// ```
pub fn output_schema<T: schemars::JsonSchema + 'static>(
    provider: Provider,
) -> Result<schemars::Schema, ConvertError> {
    let value = Schemars::<T>::json_schema(provider.dialect())?.clone();
    // A converted schema is always an object (the converter refuses other roots).
    Ok(schemars::Schema::try_from(value).unwrap_or_default())
}

/// `T`'s schema in `provider`'s strict dialect as a tool's parameters (rig's
/// `ToolDefinition::parameters`, `DynamicTool::new`).
pub fn tool_parameters<T: schemars::JsonSchema + 'static>(
    provider: Provider,
) -> Result<Value, ConvertError> {
    Schemars::<T>::json_schema(provider.dialect()).cloned()
}

/// Why a typed call failed: rig's own error, or the reply that could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// rig's run failed (transport, provider, a hook's stop).
    Prompt(PromptError),
    /// The final reply is not a valid value of the type (every error with its path).
    Parse(ParseError),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Prompt(e) => write!(f, "{e}"),
            Error::Parse(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Prompt(e) => Some(e),
            Error::Parse(e) => Some(e),
        }
    }
}

/// The text parts of a model turn, joined.
fn turn_text(content: &[AssistantContent]) -> String {
    content
        .iter()
        .filter_map(|c| match c {
            AssistantContent::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect()
}

/// An [`AgentHook`] that reads every tool-free model turn as a `T` and, while the reply is
/// not a valid `T` and retries are left, asks rig for another turn with this library's
/// feedback: what was wrong and where (`/steps/0/number: expected integer, found "1"`), and
/// optionally the expected type as TypeScript text.
///
/// Retries count per run (in rig's run scratchpad) and use rig's model-call budget too: give
/// the agent `default_max_turns(max_retries + 1)` at least (rig's default is one call). A
/// reply that is still invalid when the retries are spent is accepted as it is: the caller's
/// [`prompt_typed`] (or its own parse) then reports it with its errors. A refusal or a reply
/// cut by the token limit is not retried with feedback unless it is retryable
/// ([`ParseError::is_retryable`]).
///
/// It reads the text of a turn: use it with `OutputMode::Native` or `OutputMode::Prompted`.
/// Under `OutputMode::Tool` rig's answer is a call of its synthetic output tool, a turn with a
/// tool call, which this hook lets through unread.
pub struct Checked<T> {
    max_retries: usize,
    include_type: bool,
    _type: PhantomData<fn() -> T>,
}

impl<T> Checked<T> {
    /// A hook that retries at most twice, without the type text.
    pub fn new() -> Self {
        Checked {
            max_retries: 2,
            include_type: false,
            _type: PhantomData,
        }
    }

    /// At most `n` feedback retries per run.
    pub fn max_retries(mut self, n: usize) -> Self {
        self.max_retries = n;
        self
    }

    /// Adds the expected type as TypeScript text to the feedback.
    pub fn include_type(mut self, on: bool) -> Self {
        self.include_type = on;
        self
    }
}

impl<T> Default for Checked<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The feedback retries a [`Checked`] hook made in this run (its scratchpad entry).
#[derive(Clone, Default)]
struct Retries(usize);

impl<T: schemars::JsonSchema + DeserializeOwned + 'static> Checked<T> {
    /// The action for a turn whose text is `text`, with `retries` made so far.
    fn judge(&self, text: &str, retries: usize) -> (ModelTurnAction, bool) {
        match Schemars::<T>::from_llm(text) {
            Ok(_) => (ModelTurnAction::continue_run(), false),
            Err(e) if e.is_retryable() && retries < self.max_retries => {
                let feedback = match Schemars::<T>::typescript() {
                    Ok(ts) if self.include_type => e.feedback_with_type(&ts),
                    _ => e.feedback(),
                };
                (ModelTurnAction::retry_with_feedback(feedback), true)
            }
            Err(_) => (ModelTurnAction::continue_run(), false),
        }
    }
}

impl<T> AgentHook for Checked<T>
where
    T: schemars::JsonSchema + DeserializeOwned + 'static,
{
    fn name(&self) -> Option<String> {
        Some(format!(
            "schema_rig::Checked<{}>(max_retries={}, include_type={})",
            std::any::type_name::<T>(),
            self.max_retries,
            self.include_type
        ))
    }

    fn on_model_turn_finished(
        &self,
        ctx: &HookContext,
        event: ModelTurnFinished<'_>,
    ) -> impl Future<Output = ModelTurnAction> + Send {
        let has_calls = event
            .content
            .iter()
            .any(|c| matches!(c, AssistantContent::ToolCall(_)));
        let action = if has_calls {
            ModelTurnAction::continue_run()
        } else {
            let text = turn_text(event.content);
            let done = ctx.scratchpad().get::<Retries>().unwrap_or_default().0;
            let (action, retried) = self.judge(&text, done);
            if retried {
                ctx.scratchpad().update::<Retries, _>(|r| r.0 += 1);
            }
            action
        };
        async move { action }
    }
}

/// Runs `runner` (`agent.prompt(...)`) and reads its final text as a `T`: the value, or every
/// error with its path. Add [`Checked<T>`] to the agent so that rig retries an invalid reply
/// with feedback first.
pub async fn prompt_typed<T>(runner: AgentRunner) -> Result<T, Error>
where
    T: schemars::JsonSchema + DeserializeOwned + 'static,
{
    let response = runner.await.map_err(Error::Prompt)?;
    Schemars::<T>::from_llm(&response.output()).map_err(Error::Parse)
}

/// One item of a [`typed_stream`] (`E`, the tool enum, only in a [`typed_stream_with_tools`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Typed<T, E = Infallible> {
    /// The reply so far, as JSON: strings as far as written, numbers and literals once
    /// complete. Sent each time it changes.
    Partial(Value),
    /// A tool call whose arguments the model finished, read into the tool enum (checked with
    /// paths, strict-mode `null`s read as absent), with the call's id. It comes when the call
    /// ends, before rig runs the tool.
    ToolCall {
        /// The call's id (the provider's, or the one rig issued).
        id: String,
        /// The call.
        call: E,
    },
    /// The model writes again and the partial starts over: the turn was rejected (by a hook
    /// such as [`Checked`]), or it wrote text and then called tools.
    Restarted,
    /// The final reply, checked and typed.
    Done(T),
}

/// rig's streamed run (`agent.prompt(...).stream()`) read as a `T`: a growing JSON value while
/// the model writes, then the typed value.
///
/// At the first byte no valid `T` can continue, the stream yields that error (with its path)
/// and reads nothing more of the turn; it goes on: when a hook such as [`Checked`] rejects
/// the turn, [`Typed::Restarted`] follows and the next turn streams in. A consumer without
/// such a hook stops at the error (dropping the stream cancels rig's run). A turn that wrote
/// text and then called tools is not the reply: [`Typed::Restarted`] follows it too. The
/// stream ends after [`Typed::Done`], a final reply that is not a valid `T` (its error), or
/// rig's error.
pub fn typed_stream<T>(stream: StreamingResult) -> impl Stream<Item = Result<Typed<T>, Error>>
where
    T: schemars::JsonSchema + DeserializeOwned + 'static,
{
    stream_of::<T, Infallible>(stream, None)
}

/// [`typed_stream`] of an agent with tools: besides the reply's partial values and final
/// value, each tool call the model finishes comes as [`Typed::ToolCall`], read into the
/// `#[schema(tools)]` enum `E` (the tools of [`typed_tools`]). A call whose arguments are not
/// a valid `E` comes as that call's error (every error with its path; rig's tool of
/// [`typed_tools`] refuses it with the same feedback), and the stream goes on.
pub fn typed_stream_with_tools<T, E>(
    stream: StreamingResult,
) -> impl Stream<Item = Result<Typed<T, E>, Error>>
where
    T: schemars::JsonSchema + DeserializeOwned + 'static,
    E: AgentSchema + DeserializeOwned + 'static,
{
    stream_of::<T, E>(stream, Some(tool_call_of::<E>))
}

/// A streamed tool call read into the tool enum `E`; arguments that were not a JSON object
/// are read as the text the model sent, so their error says what was wrong.
fn tool_call_of<E: AgentSchema + DeserializeOwned>(call: &ToolCall) -> Result<E, ParseError> {
    let arguments = match &call.function.invalid_arguments {
        Some(text) => text.clone(),
        None => serde_json::to_string(&call.function.arguments).unwrap_or_default(),
    };
    schema_core::__private::derived_from_call::<E>(
        E::schema_type(),
        call.function.name.as_str(),
        &arguments,
    )
}

/// How a stream reads a finished tool call into the tool enum `E`.
type ReadCall<E> = fn(&ToolCall) -> Result<E, ParseError>;

/// The stream of [`typed_stream`] and [`typed_stream_with_tools`]: `read_call` reads a
/// finished tool call, or tool calls are not reported.
fn stream_of<T, E>(
    stream: StreamingResult,
    read_call: Option<ReadCall<E>>,
) -> impl Stream<Item = Result<Typed<T, E>, Error>>
where
    T: schemars::JsonSchema + DeserializeOwned + 'static,
    E: 'static,
{
    struct State<T, E> {
        inner: StreamingResult,
        reader: SchemarsStream<T>,
        read_call: Option<ReadCall<E>>,
        /// The current turn broke the schema: its text is not read further.
        broken: bool,
        /// The current turn called a tool: it is not the reply, and the next turn starts over.
        calls: bool,
        ended: bool,
    }
    let state = State {
        inner: stream,
        reader: Schemars::<T>::stream(),
        read_call,
        broken: false,
        calls: false,
        ended: false,
    };
    futures::stream::unfold(state, |mut s| async move {
        if s.ended {
            return None;
        }
        loop {
            let item = match s.inner.next().await {
                Some(Ok(item)) => item,
                Some(Err(e)) => {
                    s.ended = true;
                    return Some((Err(Error::Prompt(e)), s));
                }
                None => return None,
            };
            match item {
                MultiTurnStreamItem::StreamAssistantItem(Item::Event(StreamEvent::Text {
                    text,
                    ..
                })) if !s.broken => match s.reader.push(&text) {
                    Ok(true) => {
                        if let Some(p) = s.reader.partial() {
                            return Some((Ok(Typed::Partial(p)), s));
                        }
                    }
                    Ok(false) => {}
                    Err(e) => {
                        s.broken = true;
                        return Some((Err(Error::Parse(e)), s));
                    }
                },
                MultiTurnStreamItem::StreamAssistantItem(Item::Event(StreamEvent::End {
                    content: AssistantContent::ToolCall(call),
                    ..
                })) => {
                    s.calls = true;
                    if let Some(read) = s.read_call {
                        let id = call.id.wire().into_owned();
                        let out = read(&call)
                            .map(|call| Typed::ToolCall { id, call })
                            .map_err(Error::Parse);
                        return Some((out, s));
                    }
                }
                // A turn that called tools ended: the model writes again, and what its text
                // showed (prose, or JSON it wrote before calling) was not the reply.
                MultiTurnStreamItem::CompletionCall(_) if s.calls => {
                    let shown = s.broken || !s.reader.text().is_empty();
                    s.reader = Schemars::<T>::stream();
                    s.broken = false;
                    s.calls = false;
                    if shown {
                        return Some((Ok(Typed::Restarted), s));
                    }
                }
                MultiTurnStreamItem::ModelTurnRetried { .. } => {
                    s.reader = Schemars::<T>::stream();
                    s.broken = false;
                    return Some((Ok(Typed::Restarted), s));
                }
                MultiTurnStreamItem::FinalResponse(response) => {
                    s.ended = true;
                    let out = Schemars::<T>::from_llm(&response.output())
                        .map(Typed::Done)
                        .map_err(Error::Parse);
                    return Some((out, s));
                }
                _ => {}
            }
        }
    })
}

/// The tools of a `#[schema(tools)]` enum as rig tools: one per variant, its parameters the
/// provider's strict schema, every call read into `E` (arguments checked with paths,
/// strict-mode `null`s read as absent) before `handler` sees it.
///
/// A call whose arguments are not a valid variant never reaches `handler`: it fails with
/// rig's `InvalidArgs` and this library's feedback as the text the model reads. `handler`'s
/// own error fails the call with its text.
///
/// ```
/// use schema_core::{provider::Provider, AgentSchema};
/// use serde_json::json;
///
/// #[derive(AgentSchema, serde::Deserialize)]
/// #[serde(tag = "tool", rename_all = "snake_case")]
/// #[schema(tools)]
/// enum Tool {
///     /// Weather for a city
///     Weather { city: String, days: Option<u8> },
/// }
///
/// let tools = schema_rig::typed_tools::<Tool, _, _>(Provider::OpenAiChat, |call| async move {
///     match call {
///         Tool::Weather { city, days } => Ok(json!({"city": city, "days": days.unwrap_or(1)})),
///     }
/// })
/// .unwrap();
/// assert_eq!(tools.len(), 1);
/// ```
pub fn typed_tools<E, F, Fut>(
    provider: Provider,
    handler: F,
) -> Result<Vec<DynamicTool>, ConvertError>
where
    E: AgentSchema + DeserializeOwned + Send + 'static,
    F: Fn(E) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, String>> + Send + 'static,
{
    let definitions = schema_core::__private::derived_definitions(E::schema_type(), provider)?;
    let handler = Arc::new(handler);
    let mut tools = Vec::new();
    for (name, description, parameters) in wire_parts(&definitions) {
        let Ok(tool_name) = rig_core::message::ToolName::new(name.clone()) else {
            continue;
        };
        let handler = Arc::clone(&handler);
        let called = name.clone();
        tools.push(DynamicTool::new(
            tool_name,
            description,
            parameters,
            move |args: Value| {
                let parsed = read_call::<E>(&called, &args);
                let handler = Arc::clone(&handler);
                Box::pin(async move {
                    let call = parsed?;
                    match handler(call).await {
                        Ok(v) => Ok(ToolOutput::json(v)),
                        Err(message) => Err(ToolExecutionError::new(ToolErrorKind::Other, message)),
                    }
                })
            },
        ));
    }
    Ok(tools)
}

/// A call's arguments read into the tool enum `E`, or the error whose text the model reads.
fn read_call<E: AgentSchema + DeserializeOwned>(
    name: &str,
    args: &Value,
) -> Result<E, ToolExecutionError> {
    schema_core::__private::derived_from_call::<E>(E::schema_type(), name, &args.to_string())
        .map_err(|e| {
            ToolExecutionError::new(ToolErrorKind::InvalidArgs, format!("{e}\n{}", e.feedback()))
        })
}

/// `(name, description, parameters)` of each tool of a provider's `tools` array, whatever its
/// wire form (OpenAI's `function`, Anthropic's `input_schema`, Gemini's
/// `functionDeclarations`).
fn wire_parts(tools: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    let mut stack: Vec<&Value> = vec![tools];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a.iter().rev()),
            Value::Object(m) => {
                if let Some(inner) = m.get("function").or(m.get("functionDeclarations")) {
                    stack.push(inner);
                    continue;
                }
                let params = ["parameters", "input_schema", "parametersJsonSchema"]
                    .iter()
                    .find_map(|k| m.get(*k));
                if let (Some(Value::String(name)), Some(params)) = (m.get("name"), params) {
                    let description = m
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    out.push((name.clone(), description, params.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

/// An [`AgentHook`] that checks every tool call against the input schemas of a [`ToolSet`]
/// before rig runs the tool: a call whose arguments break the schema is skipped, the model
/// reading this library's feedback (every error with its path, and the tool's schema as
/// TypeScript text) as the call's result; a call with strict-mode `null`s for optional
/// parameters is rewritten without them, so the tool sees them absent. Calls of tools the set
/// does not know pass unchecked.
pub struct ToolCheck {
    set: ToolSet,
}

impl ToolCheck {
    /// A hook checking the tools of `set` (for example [`ToolSet::from_mcp_list`], or
    /// [`Schemars::tool_parts`] of each tool's argument type).
    pub fn new(set: ToolSet) -> Self {
        ToolCheck { set }
    }

    /// The action for a call of `name` with `args` (JSON text).
    fn judge(&self, name: &str, args: &str, kind: &rig_core::effect::EffectKind) -> DispatchAction {
        if self.set.input_schema(name).is_none() {
            return DispatchAction::proceed();
        }
        match self.set.check_call_text(name, args) {
            Ok(read) => {
                let same = serde_json::from_str::<Value>(args).is_ok_and(|v| v == read);
                if same {
                    DispatchAction::proceed()
                } else {
                    DispatchAction::rewrite_tool_args(kind, read)
                }
            }
            Err(e) => DispatchAction::skip(e.feedback().to_string()),
        }
    }
}

impl AgentHook for ToolCheck {
    fn name(&self) -> Option<String> {
        Some(format!(
            "schema_rig::ToolCheck({})",
            self.set.names().join(",")
        ))
    }

    fn on_dispatch(
        &self,
        _ctx: &HookContext,
        event: DispatchEvent<'_>,
    ) -> impl Future<Output = DispatchAction> + Send {
        let action = match (event.tool_name(), event.tool_args()) {
            (Some(name), Some(args)) => self.judge(name, args, event.kind),
            _ => DispatchAction::proceed(),
        };
        async move { action }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_parts_reads_every_provider_form() {
        let openai = json!([{"type": "function", "function": {"name": "a", "description": "A", "parameters": {"type": "object"}}}]);
        let anthropic =
            json!([{"name": "a", "description": "A", "input_schema": {"type": "object"}}]);
        let gemini = json!([{"functionDeclarations": [{"name": "a", "description": "A", "parametersJsonSchema": {"type": "object"}}]}]);
        for v in [openai, anthropic, gemini] {
            assert_eq!(
                wire_parts(&v),
                [("a".to_string(), "A".to_string(), json!({"type": "object"}))]
            );
        }
    }
}
