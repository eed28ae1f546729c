//! A provider's stream read as completely as its whole response: the reply's text as a typed
//! [`Stream`], each tool call's arguments as a typed [`Stream`] by index, and the rest of what
//! [`read_response`](crate::provider::read_response) keeps (reasoning, refusal, finish,
//! usage, call ids, errors), straight from the HTTP body.
//!
//! [`EventStream::push_body`] takes the body as it arrives, cut anywhere (inside a line, inside
//! a UTF-8 character): server-sent events (`data:` lines, `event:` and comment lines, a
//! `[DONE]` sentinel) and newline-delimited JSON are both read, line by line.
//! [`EventStream::push_event`] takes one event already parsed. Each provider's events:
//!
//! | API | text | tool call (index, id, name, arguments) | finish, usage |
//! |---|---|---|---|
//! | OpenAI Chat Completions, LM Studio, llama.cpp | `choices[0].delta.content` | `delta.tool_calls[]`: `index`, `id`, `function.name`, `function.arguments` | `finish_reason`; `usage` in the last chunk |
//! | OpenAI Responses | `response.output_text.delta` | `response.output_item.added` (`output_index`, `call_id`, `name`), `response.function_call_arguments.delta` | `response.completed` / `response.incomplete` |
//! | Anthropic Messages | `content_block_delta` `text_delta` | `content_block_start` `tool_use` (block index, `id`, `name`), `input_json_delta` | `message_delta` (`stop_reason`, `stop_details`, `usage`), `message_start` usage |
//! | Gemini `streamGenerateContent?alt=sse` | `candidates[0].content.parts[].text` | each `functionCall` part, whole | `finishReason`, `usageMetadata`, `promptFeedback.blockReason` |
//! | Ollama `/api/chat` | `message.content` | each `message.tool_calls[]` entry, whole | `done`, `done_reason`, `prompt_eval_count`, `eval_count` |
//!
//! Reasoning (Chat `reasoning_content` / `reasoning`, Responses reasoning summary and text
//! deltas, Anthropic `thinking_delta`, Gemini parts marked `thought`, Ollama `thinking`) and
//! refusals (Chat `delta.refusal`, Responses `response.refusal.delta`, Anthropic
//! `stop_details.explanation`) are kept apart from the text.
//!
//! Gemini and Ollama give a tool call neither an index nor (always) an id: each call there is a
//! new one, numbered by order of arrival from 0, and a call without an id is given
//! `call_<n>`, `n` its position among the reply's calls (as
//! [`read_response`](crate::provider::read_response) names it in the whole response).
//!
//! **Tool sets.** With `A` an internally tagged enum (`#[schema(tools)]`), the arguments carry
//! no tag: the tool's name from the stream supplies it, so each call streams as the variant it
//! names, with its own typed partial. An unknown name or invalid arguments are that call's
//! error ([`ToolCall::error`]), never the end of the text or of the other calls.
//!
//! **Errors and the end.** An error event (Anthropic `overloaded_error`, an OpenAI or Gemini
//! `error` object, a failed Responses run) ends the stream as [`ParseError::Provider`] with
//! the provider's message. [`EventStream::finish`] gives what
//! [`from_response`](crate::AgentSchema::from_response) gives for the whole response: a reply
//! cut by the token limit is [`ParseError::Truncated`] even when its JSON closed, and so is a
//! stream that ended before its finish ([`Finish::Cut`]).
//!
//! ```
//! use schema_core::stream::provider::{Api, EventStream};
//! use schema_core::AgentSchema;
//!
//! #[derive(AgentSchema, serde::Deserialize, Debug)]
//! struct Weather {
//!     city: String,
//! }
//!
//! // An Anthropic tool call, as the HTTP body arrives (cut anywhere).
//! let body = concat!(
//!     "event: content_block_start\n",
//!     "data: {\"type\": \"content_block_start\", \"index\": 0, \"content_block\": ",
//!     "{\"type\": \"tool_use\", \"id\": \"toolu_1\", \"name\": \"weather\", \"input\": {}}}\n\n",
//!     "event: content_block_delta\n",
//!     "data: {\"type\": \"content_block_delta\", \"index\": 0, ",
//!     "\"delta\": {\"type\": \"input_json_delta\", \"partial_json\": \"{\\\"city\\\": \\\"Pa\"}}\n\n",
//!     "event: content_block_delta\n",
//!     "data: {\"type\": \"content_block_delta\", \"index\": 0, ",
//!     "\"delta\": {\"type\": \"input_json_delta\", \"partial_json\": \"ris\\\"}\"}}\n\n",
//!     "event: message_delta\n",
//!     "data: {\"type\": \"message_delta\", \"delta\": {\"stop_reason\": \"tool_use\"}, ",
//!     "\"usage\": {\"output_tokens\": 12}}\n\n",
//! );
//! let mut s = EventStream::<Weather>::new(Api::Anthropic);
//! for chunk in body.as_bytes().chunks(7) {
//!     s.push_body(chunk).unwrap();
//! }
//! let call = s.tool(0).unwrap();
//! assert_eq!(call.id.as_deref(), Some("toolu_1"));
//! assert_eq!(call.stream.partial().city.as_deref(), Some("Paris"));
//! let end = s.finish();
//! assert_eq!(end.reply.finish, schema_core::provider::Finish::ToolCalls);
//! assert_eq!(end.tools[0].value.as_ref().unwrap().city, "Paris");
//! ```
//!
//! The same loop reads every provider; with `reqwest`:
//! `while let Some(chunk) = resp.chunk().await? { stream.push_body(&chunk)?; }`. See
//! [`EventStream`] for an example per provider family. With the feature `futures`,
//! `BodyStream` reads an async stream of body chunks (`bytes_stream()`) into a stream of
//! typed partial values and the final reading.

#[cfg(feature = "futures")]
mod body_stream;
mod scan;

#[cfg(feature = "futures")]
pub use body_stream::{BodyError, BodyEvent, BodyStream};

use super::Stream;
use crate::provider::{self, Finish, Provider, ProviderError, Reply, Usage};
use crate::{AgentSchema, ParseError};
use serde_json::Value;

/// The streaming API an event comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Api {
    /// OpenAI Chat Completions (`chat.completion.chunk`), and servers that copy it (LM Studio,
    /// llama.cpp, vLLM, Ollama's OpenAI endpoint). Ollama's native lines are read too.
    OpenAiChat,
    /// OpenAI Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini `streamGenerateContent` (with `alt=sse`: server-sent events).
    Gemini,
    /// Ollama's native `/api/chat` stream (one JSON object a line); OpenAI Chat chunks are read
    /// too.
    Ollama,
}

impl From<Provider> for Api {
    /// The streaming events each [`Provider`] sends: LM Studio streams in OpenAI Chat's form,
    /// Ollama in its native lines.
    fn from(p: Provider) -> Api {
        match p {
            Provider::OpenAiChat | Provider::LmStudio => Api::OpenAiChat,
            Provider::OpenAiResponses => Api::OpenAiResponses,
            Provider::Anthropic => Api::Anthropic,
            Provider::Gemini => Api::Gemini,
            Provider::Ollama => Api::Ollama,
        }
    }
}

impl Api {
    /// The API of a provider name: `openai` (Chat Completions), `openai-responses`,
    /// `anthropic`, `gemini`, `lmstudio`, `llamacpp`, `ollama`.
    pub fn from_name(name: &str) -> Option<Api> {
        Some(match name.to_ascii_lowercase().as_str() {
            "openai" | "openai-chat" | "lmstudio" | "llamacpp" | "llama.cpp" => Api::OpenAiChat,
            "ollama" => Api::Ollama,
            "openai-responses" | "responses" => Api::OpenAiResponses,
            "anthropic" | "claude" => Api::Anthropic,
            "gemini" | "google" => Api::Gemini,
            _ => return None,
        })
    }

    /// The provider whose whole responses this API's stream adds up to.
    pub fn provider(self) -> Provider {
        match self {
            Api::OpenAiChat => Provider::OpenAiChat,
            Api::OpenAiResponses => Provider::OpenAiResponses,
            Api::Anthropic => Provider::Anthropic,
            Api::Gemini => Provider::Gemini,
            Api::Ollama => Provider::Ollama,
        }
    }
}

/// Where a piece of streamed text belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Channel {
    /// The reply's text.
    Text,
    /// The arguments of the tool call at this index (the content block index for Anthropic,
    /// the output index for Responses; for Gemini and Ollama, which give none, the call's
    /// position in the event).
    Tool {
        /// The call's index.
        index: usize,
    },
}

/// One piece of text taken from a provider event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delta {
    /// Where it belongs.
    pub channel: Channel,
    /// The tool's name, when the event names it.
    pub name: Option<String>,
    /// The text (may be empty when the event only names a tool).
    pub text: String,
}

/// What an event holds, given to a reader of events piece by piece.
trait Sink {
    /// A piece of the reply's text.
    fn text(&mut self, s: &str) -> Result<(), ParseError>;
    /// A piece of reasoning.
    fn reasoning(&mut self, s: &str);
    /// A piece of refusal text.
    fn refusal(&mut self, s: &str);
    /// A piece of a tool call: `at` is the provider's index, `None` where the provider gives
    /// none (each such piece is a whole new call).
    fn call(&mut self, at: Option<usize>, id: Option<&str>, name: Option<&str>, args: &str);
    /// The provider said the reply is over: its `status` (Responses, or `"blocked"` for a
    /// Gemini prompt block) and its reason, each when given.
    fn finish(&mut self, status: Option<&str>, reason: Option<&str>);
    /// Token counts (`None` where this event does not give one).
    fn usage(&mut self, input: Option<u64>, output: Option<u64>, total: Option<u64>);
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> Option<&'v str> {
    v.pointer(pointer).and_then(Value::as_str)
}

fn index_of(v: &Value, key: &str) -> usize {
    v.get(key)
        .and_then(Value::as_u64)
        .and_then(|i| usize::try_from(i).ok())
        .unwrap_or(0)
}

fn counts(u: &Value, input: &str, output: &str, total: &str) -> [Option<u64>; 3] {
    [input, output, total].map(|k| u.get(k).and_then(Value::as_u64))
}

/// Reads one event of `api` into `sink`.
fn read_event(api: Api, event: &Value, sink: &mut impl Sink) -> Result<(), ParseError> {
    let provider = api.provider();
    if let Some(e) = provider::error_body(provider, event) {
        return Err(ParseError::Provider(e));
    }
    match api {
        Api::OpenAiChat | Api::Ollama if event.get("choices").is_some() => chat(event, sink),
        Api::OpenAiChat | Api::Ollama => ollama(event, sink),
        Api::OpenAiResponses => responses(event, sink),
        Api::Anthropic => anthropic(event, sink),
        Api::Gemini => gemini(event, sink),
    }
}

fn chat(event: &Value, sink: &mut impl Sink) -> Result<(), ParseError> {
    if let Some(u) = event.get("usage").filter(|u| u.is_object()) {
        let [i, o, t] = counts(u, "prompt_tokens", "completion_tokens", "total_tokens");
        sink.usage(i, o, t);
    }
    let Some(choice) = event.pointer("/choices/0") else {
        return Ok(());
    };
    if let Some(delta) = choice.get("delta") {
        if let Some(r) = provider::side_reasoning(delta) {
            sink.reasoning(r);
        }
        if let Some(r) = delta.get("refusal").and_then(Value::as_str) {
            sink.refusal(r);
        }
        for call in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            sink.call(
                Some(index_of(call, "index")),
                str_at(call, "/id"),
                str_at(call, "/function/name"),
                str_at(call, "/function/arguments").unwrap_or_default(),
            );
        }
        if let Some(s) = delta.get("content").and_then(Value::as_str) {
            sink.text(s)?;
        }
    }
    if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
        sink.finish(None, Some(reason));
    }
    Ok(())
}

/// Ollama's native `/api/chat` line: `{"message": {"content", "thinking", "tool_calls"},
/// "done", "done_reason", "prompt_eval_count", "eval_count"}`.
fn ollama(event: &Value, sink: &mut impl Sink) -> Result<(), ParseError> {
    if let Some(message) = event.get("message") {
        if let Some(r) = message.get("thinking").and_then(Value::as_str) {
            sink.reasoning(r);
        }
        for call in message
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let f = call.get("function").unwrap_or(&Value::Null);
            let args = provider::arguments_text(f.get("arguments"));
            sink.call(None, str_at(call, "/id"), str_at(f, "/name"), &args);
        }
        if let Some(s) = message.get("content").and_then(Value::as_str) {
            if !s.is_empty() {
                sink.text(s)?;
            }
        }
    }
    if event.get("done").and_then(Value::as_bool) == Some(true) {
        let u = provider::ollama_usage(event);
        sink.usage(u.input_tokens, u.output_tokens, None);
        sink.finish(None, str_at(event, "/done_reason"));
    }
    Ok(())
}

fn responses(event: &Value, sink: &mut impl Sink) -> Result<(), ParseError> {
    let p = Provider::OpenAiResponses;
    let delta = || str_at(event, "/delta").unwrap_or_default();
    match event.get("type").and_then(Value::as_str) {
        Some("error") => {
            return Err(ParseError::Provider(ProviderError::Api {
                provider: p,
                kind: None,
                code: str_at(event, "/code").map(str::to_string),
                message: str_at(event, "/message").unwrap_or("error").to_string(),
            }))
        }
        Some("response.failed") => {
            let r = event.get("response").unwrap_or(&Value::Null);
            return Err(ParseError::Provider(
                provider::error_body(p, r).unwrap_or_else(|| ProviderError::Api {
                    provider: p,
                    kind: None,
                    code: None,
                    message: "the response failed".into(),
                }),
            ));
        }
        Some("response.output_text.delta") => sink.text(delta())?,
        Some("response.refusal.delta") => sink.refusal(delta()),
        Some("response.reasoning_summary_text.delta" | "response.reasoning_text.delta") => {
            sink.reasoning(delta());
        }
        Some("response.output_item.added")
            if str_at(event, "/item/type") == Some("function_call") =>
        {
            let item = &event["item"];
            sink.call(
                Some(index_of(event, "output_index")),
                str_at(item, "/call_id").or_else(|| str_at(item, "/id")),
                str_at(item, "/name"),
                str_at(item, "/arguments").unwrap_or_default(),
            );
        }
        Some("response.function_call_arguments.delta") => {
            sink.call(Some(index_of(event, "output_index")), None, None, delta());
        }
        Some("response.completed" | "response.incomplete") => {
            let r = event.get("response").unwrap_or(&Value::Null);
            if let Some(u) = r.get("usage").filter(|u| u.is_object()) {
                let [i, o, t] = counts(u, "input_tokens", "output_tokens", "total_tokens");
                sink.usage(i, o, t);
            }
            let status = str_at(r, "/status")
                .or_else(|| str_at(event, "/type").and_then(|t| t.strip_prefix("response.")));
            sink.finish(status, str_at(r, "/incomplete_details/reason"));
        }
        _ => {}
    }
    Ok(())
}

fn anthropic(event: &Value, sink: &mut impl Sink) -> Result<(), ParseError> {
    let usage = |u: &Value, sink: &mut dyn FnMut(Option<u64>, Option<u64>)| {
        let [i, o, _] = counts(u, "input_tokens", "output_tokens", "");
        sink(i, o);
    };
    match event.get("type").and_then(Value::as_str) {
        Some("message_start") => {
            if let Some(u) = event.pointer("/message/usage") {
                usage(u, &mut |i, o| sink.usage(i, o, None));
            }
        }
        Some("content_block_start") => {
            let block = event.get("content_block").unwrap_or(&Value::Null);
            match str_at(block, "/type") {
                Some("tool_use") => sink.call(
                    Some(index_of(event, "index")),
                    str_at(block, "/id"),
                    str_at(block, "/name"),
                    "",
                ),
                Some("thinking") => sink.reasoning(str_at(block, "/thinking").unwrap_or("")),
                Some("text") => {
                    if let Some(s) = str_at(block, "/text").filter(|s| !s.is_empty()) {
                        sink.text(s)?;
                    }
                }
                _ => {}
            }
        }
        Some("content_block_delta") => match str_at(event, "/delta/type") {
            Some("text_delta") => sink.text(str_at(event, "/delta/text").unwrap_or(""))?,
            Some("thinking_delta") => {
                sink.reasoning(str_at(event, "/delta/thinking").unwrap_or(""))
            }
            Some("input_json_delta") => sink.call(
                Some(index_of(event, "index")),
                None,
                None,
                str_at(event, "/delta/partial_json").unwrap_or_default(),
            ),
            _ => {}
        },
        Some("message_delta") => {
            if let Some(u) = event.get("usage") {
                usage(u, &mut |i, o| sink.usage(i, o, None));
            }
            let delta = event.get("delta").unwrap_or(&Value::Null);
            let reason = str_at(delta, "/stop_reason");
            if reason == Some("refusal") {
                if let Some(r) = provider::anthropic_refusal(delta) {
                    sink.refusal(&r);
                }
            }
            if reason.is_some() {
                sink.finish(None, reason);
            }
        }
        Some("message_stop") => sink.finish(None, None),
        _ => {}
    }
    Ok(())
}

fn gemini(event: &Value, sink: &mut impl Sink) -> Result<(), ParseError> {
    let u = provider::gemini_usage(event);
    if event.get("usageMetadata").is_some() {
        sink.usage(u.input_tokens, u.output_tokens, u.total_tokens);
    }
    if let Some(block) = str_at(event, "/promptFeedback/blockReason") {
        sink.finish(Some("blocked"), Some(block));
    }
    let Some(candidate) = event.pointer("/candidates/0") else {
        return Ok(());
    };
    for part in candidate
        .pointer("/content/parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(s) = part.get("text").and_then(Value::as_str) {
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                sink.reasoning(s);
            } else {
                sink.text(s)?;
            }
        }
        if let Some(call) = part.get("functionCall") {
            let args = provider::arguments_text(call.get("args"));
            sink.call(None, str_at(call, "/id"), str_at(call, "/name"), &args);
        }
    }
    if let Some(reason) = str_at(candidate, "/finishReason") {
        sink.finish(None, Some(reason));
    }
    Ok(())
}

/// The pieces of one event, for [`deltas`].
#[derive(Default)]
struct Pieces {
    out: Vec<Delta>,
    calls: usize,
}

impl Sink for Pieces {
    fn text(&mut self, s: &str) -> Result<(), ParseError> {
        self.out.push(Delta {
            channel: Channel::Text,
            name: None,
            text: s.to_string(),
        });
        Ok(())
    }
    fn reasoning(&mut self, _: &str) {}
    fn refusal(&mut self, _: &str) {}
    fn call(&mut self, at: Option<usize>, _: Option<&str>, name: Option<&str>, args: &str) {
        let index = at.unwrap_or_else(|| {
            self.calls += 1;
            self.calls - 1
        });
        self.out.push(Delta {
            channel: Channel::Tool { index },
            name: name.map(str::to_string),
            text: args.to_string(),
        });
    }
    fn finish(&mut self, _: Option<&str>, _: Option<&str>) {}
    fn usage(&mut self, _: Option<u64>, _: Option<u64>, _: Option<u64>) {}
}

/// The pieces of text in one event of `api`'s stream, in order (none for events that carry no
/// text: usage, stops, pings, reasoning). Gemini and Ollama calls are numbered within the
/// event; [`EventStream`] numbers them across the stream.
pub fn deltas(api: Api, event: &Value) -> Vec<Delta> {
    let mut p = Pieces::default();
    // An error event has no pieces.
    let _ = read_event(api, event, &mut p);
    p.out
}

/// A finished tool call: its index, id, name, and arguments read as `A`.
#[derive(Debug)]
pub struct ToolResult<A> {
    /// The call's index (the provider's, or its order of arrival for Gemini and Ollama).
    pub index: usize,
    /// The call's id (see [`provider::ToolCall::id`]).
    pub id: String,
    /// The tool's name (empty when the stream never named it: `value` is then an error).
    pub name: String,
    /// The arguments read as `A` (for a tool set, as `A::from_tool_call(name, arguments)`
    /// reads them), or the call's error.
    pub value: Result<A, ParseError>,
}

/// Where a tool set's call is in its arguments: the tag is written before them, and their
/// opening brace and first property are joined to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Args {
    /// `A` is not a tool set, or the call's name is not known yet: the text goes as it comes.
    Plain,
    /// Before the arguments' `{`.
    Open,
    /// After it, before the first property or the closing `}`.
    First,
    /// Past both: the text goes as it comes.
    Pass,
}

/// One tool call's streamed arguments.
pub struct ToolCall<A: AgentSchema> {
    /// The call's index (the provider's; for Gemini and Ollama its order of arrival).
    pub index: usize,
    /// The call's id, once an event gave it.
    pub id: Option<String>,
    /// The tool's name, once an event named it.
    pub name: Option<String>,
    /// The arguments as they stream, read as `A` (for a tool set, with the tag the name
    /// supplies written first).
    pub stream: Stream<A>,
    arguments: String,
    error: Option<ParseError>,
    args: Args,
}

impl<A: AgentSchema> ToolCall<A> {
    fn new(index: usize) -> Self {
        ToolCall {
            index,
            id: None,
            name: None,
            stream: Stream::new(),
            arguments: String::new(),
            error: None,
            args: Args::Plain,
        }
    }

    /// The arguments' JSON text as the provider sent it (without a tool set's tag).
    pub fn arguments(&self) -> &str {
        &self.arguments
    }

    /// The first error of this call's arguments (an unknown tool, a value no continuation can
    /// make valid), if one was found while streaming; the other calls and the text go on.
    pub fn error(&self) -> Option<&ParseError> {
        self.error.as_ref()
    }

    /// Pushes into the call's stream, keeping its first error.
    fn push(&mut self, text: &str) {
        if self.error.is_none() && !text.is_empty() {
            if let Err(e) = self.stream.push(text) {
                self.error = Some(e);
            }
        }
    }

    /// Feeds a piece of the arguments (already appended to `arguments`) to the stream, the tag
    /// state moved along.
    fn feed(&mut self, mut piece: &str) {
        loop {
            match self.args {
                Args::Plain | Args::Pass => return self.push(piece),
                Args::Open => {
                    piece = piece.trim_start();
                    let Some(rest) = piece.strip_prefix('{') else {
                        if piece.is_empty() {
                            return;
                        }
                        // Not an object: the stream reports it after the tag.
                        self.args = Args::Pass;
                        self.push(",");
                        continue;
                    };
                    piece = rest;
                    self.args = Args::First;
                }
                Args::First => {
                    piece = piece.trim_start();
                    if piece.is_empty() {
                        return;
                    }
                    if !piece.starts_with('}') {
                        self.push(",");
                    }
                    self.args = Args::Pass;
                }
            }
        }
    }

    /// The call's name became known: for a tool set, its tag is written and the arguments
    /// held so far are fed after it.
    fn named(&mut self, set: Option<&'static crate::model::Enum>) {
        let (Some(set), Some(name)) = (set, self.name.as_deref()) else {
            return;
        };
        let crate::model::Repr::Internal { tag } = set.repr else {
            return;
        };
        if !set.variants.iter().any(|v| v.name == name) {
            self.error = Some(ParseError::UnknownTool {
                name: name.into(),
                known: set.variants.iter().map(|v| v.name.to_string()).collect(),
            });
            return;
        }
        let head = format!("{{{}:{}", Value::from(tag), Value::from(name));
        self.push(&head);
        self.args = Args::Open;
        let held = std::mem::take(&mut self.arguments);
        self.feed(&held);
        self.arguments = held;
    }
}

impl<A: AgentSchema> std::fmt::Debug for ToolCall<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolCall")
            .field("index", &self.index)
            .field("id", &self.id)
            .field("name", &self.name)
            .field("arguments", &self.arguments)
            .field("error", &self.error)
            .finish()
    }
}

/// What a provider stream adds up to: see [`EventStream::finish`].
#[derive(Debug)]
pub struct Finished<T, A> {
    /// The text's value, exactly as [`from_response`](crate::AgentSchema::from_response)
    /// reads the whole response: a refusal, a cut (by the token limit, or a stream that ended
    /// before its finish), a content filter or an error event is the error.
    pub value: Result<T, ParseError>,
    /// Each tool call's value, in the order the calls started.
    pub tools: Vec<ToolResult<A>>,
    /// Everything else, as [`read_response`](crate::provider::read_response) reads the whole
    /// response: the text (without reasoning), reasoning, refusal, the calls (id, name,
    /// arguments), finish, raw finish and usage.
    pub reply: Reply,
}

/// The line reader of [`EventStream::push_body`]: the start of a line cut across chunks, the
/// `data` of the server-sent event being read, and the buffer escaped text is decoded into.
#[derive(Default)]
struct Body {
    line: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    done: bool,
    /// The last chunk ended with a `\r` that ended a line: a `\n` opening the next chunk is
    /// part of that line end.
    cr: bool,
    scratch: String,
    memo: scan::Memo,
}

/// The position of the first line end in `bytes`: `\n`, or also `\r` when `cr` (server-sent
/// events end a line with `\r\n`, `\n` or `\r`), read a word at a time (a body is mostly the
/// providers' envelopes around the text: this scan sees every byte of it).
fn line_end(bytes: &[u8], cr: bool) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    const NL: u64 = ONES * b'\n' as u64;
    let cr_word = if cr { ONES * b'\r' as u64 } else { NL };
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for w in &mut words {
        let x = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        let (n, r) = (x ^ NL, x ^ cr_word);
        // The lowest byte that is zero sets the lowest high bit (higher ones may be wrong).
        let zero = (n.wrapping_sub(ONES) & !n | r.wrapping_sub(ONES) & !r) & HIGH;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| b == b'\n' || (cr && b == b'\r'))
        .map(|k| at + k)
}

/// The length of the line end `bytes` opens with: `\n`, `\r\n`, or (when `cr`) a `\r` before
/// any other byte; `None` for none, or for a `\r` that ends `bytes` (a `\n` may follow it).
fn line_break(bytes: &[u8], cr: bool) -> Option<usize> {
    match bytes {
        [b'\n', ..] => Some(1),
        [b'\r', b'\n', ..] => Some(2),
        [b'\r', _, ..] if cr => Some(1),
        _ => None,
    }
}

/// The longest line or event [`EventStream::push_body`] holds (a body that never ends its
/// line is an error, not a buffer that grows without bound).
const MAX_LINE: usize = crate::DEFAULT_MAX_LEN;

/// Feeds a provider's stream, event by event or straight from the HTTP body, into a
/// [`Stream`] of the reply's text (`T`) and one [`Stream`] per tool call (`A`), keeping
/// what the whole response would say: see [the module docs](self).
///
/// OpenAI Chat Completions (and LM Studio, llama.cpp), with the text and a tool call in one
/// reply, each typed:
///
/// ```
/// use schema_core::stream::provider::{Api, EventStream};
/// use schema_core::AgentSchema;
///
/// #[derive(AgentSchema, serde::Deserialize, Debug, PartialEq)]
/// struct Note {
///     text: String,
/// }
/// #[derive(AgentSchema, serde::Deserialize, Debug, PartialEq)]
/// #[schema(tools)]
/// #[serde(tag = "tool")]
/// enum Tool {
///     /// Looks a customer up.
///     #[serde(rename = "lookup_customer")]
///     Lookup { email: String },
/// }
///
/// let body = r#"data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"{\"text\": \"hi\"}"}}]}
///
/// data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_9","type":"function","function":{"name":"lookup_customer","arguments":"{\"email\": \"ann@example.com\"}"}}]}}]}
///
/// data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
///
/// data: {"choices":[],"usage":{"prompt_tokens":20,"completion_tokens":9,"total_tokens":29}}
///
/// data: [DONE]
///
/// "#;
/// let mut s = EventStream::<Note, Tool>::new(Api::OpenAiChat);
/// s.push_body(body.as_bytes()).unwrap();
/// let end = s.finish();
/// assert_eq!(end.value.unwrap(), Note { text: "hi".into() });
/// assert_eq!(end.tools[0].id, "call_9");
/// assert_eq!(end.tools[0].value.as_ref().unwrap(), &Tool::Lookup { email: "ann@example.com".into() });
/// assert_eq!(end.reply.usage.total_tokens, Some(29));
/// ```
///
/// OpenAI Responses, cut by the token limit though its JSON closed:
///
/// ```
/// use schema_core::stream::provider::{Api, EventStream};
/// use schema_core::{AgentSchema, ParseError};
///
/// #[derive(AgentSchema, serde::Deserialize, Debug)]
/// struct Note {
///     text: String,
/// }
/// let mut s = EventStream::<Note>::new(Api::OpenAiResponses);
/// for e in [
///     serde_json::json!({"type": "response.output_text.delta", "output_index": 0, "delta": "{\"text\": \"a\"}"}),
///     serde_json::json!({"type": "response.incomplete", "response": {"status": "incomplete",
///         "incomplete_details": {"reason": "max_output_tokens"}}}),
/// ] {
///     s.push_event(&e).unwrap();
/// }
/// assert!(matches!(s.finish().value, Err(ParseError::Truncated { .. })));
/// ```
///
/// Gemini (`streamGenerateContent?alt=sse`), reasoning kept apart from the text:
///
/// ```
/// use schema_core::stream::provider::{Api, EventStream};
/// use schema_core::AgentSchema;
///
/// #[derive(AgentSchema, serde::Deserialize, Debug)]
/// struct Note {
///     text: String,
/// }
/// let body = concat!(
///     "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Plan: greet.\", \"thought\": true}], \"role\": \"model\"}}]}\r\n\r\n",
///     "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"{\\\"text\\\": \\\"hallo\\\"}\"}], \"role\": \"model\"}, \"finishReason\": \"STOP\"}],",
///     " \"usageMetadata\": {\"promptTokenCount\": 5, \"candidatesTokenCount\": 4, \"totalTokenCount\": 9}}\r\n\r\n",
/// );
/// let mut s = EventStream::<Note>::new(Api::Gemini);
/// s.push_body(body.as_bytes()).unwrap();
/// let end = s.finish();
/// assert_eq!(end.value.unwrap().text, "hallo");
/// assert_eq!(end.reply.reasoning.as_deref(), Some("Plan: greet."));
/// ```
///
/// Ollama's native `/api/chat` (newline-delimited JSON):
///
/// ```
/// use schema_core::stream::provider::{Api, EventStream};
/// use schema_core::AgentSchema;
///
/// #[derive(AgentSchema, serde::Deserialize, Debug)]
/// struct Note {
///     text: String,
/// }
/// let body = concat!(
///     "{\"message\": {\"role\": \"assistant\", \"content\": \"\", \"thinking\": \"Short.\"}, \"done\": false}\n",
///     "{\"message\": {\"role\": \"assistant\", \"content\": \"{\\\"text\\\": \\\"hej\\\"}\"}, \"done\": false}\n",
///     "{\"message\": {\"role\": \"assistant\", \"content\": \"\"}, \"done\": true, \"done_reason\": \"stop\",",
///     " \"prompt_eval_count\": 7, \"eval_count\": 6}\n",
/// );
/// let mut s = EventStream::<Note>::new(Api::Ollama);
/// s.push_body(body.as_bytes()).unwrap();
/// let end = s.finish();
/// assert_eq!(end.value.unwrap().text, "hej");
/// assert_eq!(end.reply.reasoning.as_deref(), Some("Short."));
/// assert_eq!(end.reply.usage.total_tokens, Some(13));
/// ```
///
/// Anthropic: see [the module docs](self).
pub struct EventStream<T: AgentSchema, A: AgentSchema = T> {
    api: Api,
    /// The reply's text.
    pub text: Stream<T>,
    tools: Vec<ToolCall<A>>,
    /// Where each index's call is in `tools`.
    positions: std::collections::HashMap<usize, usize>,
    /// `A` as a tool set (an internally tagged enum), if it is one.
    set: Option<&'static crate::model::Enum>,
    /// Calls of providers that give no index, so far.
    unindexed: usize,
    reasoning: String,
    refusal: Option<String>,
    status: Option<String>,
    reason: Option<String>,
    finished: bool,
    usage: [Option<u64>; 3],
    /// The error that ended the stream (an error event, an unreadable body).
    error: Option<ParseError>,
    body: Body,
}

impl<T: AgentSchema, A: AgentSchema> Sink for EventStream<T, A> {
    fn text(&mut self, s: &str) -> Result<(), ParseError> {
        if !s.is_empty() {
            self.text.push(s)?;
        }
        Ok(())
    }

    fn reasoning(&mut self, s: &str) {
        self.reasoning.push_str(s);
    }

    fn refusal(&mut self, s: &str) {
        self.refusal.get_or_insert_with(String::new).push_str(s);
    }

    fn call(&mut self, at: Option<usize>, id: Option<&str>, name: Option<&str>, args: &str) {
        let index = at.unwrap_or(self.unindexed);
        // Most pieces continue the last call; a map finds the others in constant time.
        let found = match at {
            Some(i) if self.tools.last().is_some_and(|t| t.index == i) => {
                Some(self.tools.len() - 1)
            }
            Some(i) => self.positions.get(&i).copied(),
            None => None,
        };
        let pos = match found {
            Some(p) => p,
            None => {
                if at.is_none() {
                    self.unindexed += 1;
                }
                self.positions.entry(index).or_insert(self.tools.len());
                self.tools.push(ToolCall::new(index));
                self.tools.len() - 1
            }
        };
        let set = self.set;
        let call = &mut self.tools[pos];
        if let Some(id) = id.filter(|i| !i.is_empty()) {
            call.id = Some(id.to_string());
        }
        call.arguments.push_str(args);
        if call.name.is_none() {
            if let Some(name) = name.filter(|n| !n.is_empty()) {
                call.name = Some(name.to_string());
                if set.is_some() {
                    // The tag first, then the arguments held so far (this piece's included).
                    return call.named(set);
                }
            }
        }
        if set.is_none() || call.args != Args::Plain {
            call.feed(args);
        }
    }

    fn finish(&mut self, status: Option<&str>, reason: Option<&str>) {
        self.finished = true;
        if let Some(s) = status {
            self.status = Some(s.to_string());
        }
        if let Some(r) = reason {
            self.reason = Some(r.to_string());
        }
    }

    fn usage(&mut self, input: Option<u64>, output: Option<u64>, total: Option<u64>) {
        for (slot, new) in self.usage.iter_mut().zip([input, output, total]) {
            if new.is_some() {
                *slot = new;
            }
        }
    }
}

impl<T: AgentSchema, A: AgentSchema> EventStream<T, A> {
    /// An empty feeder for `api`'s events.
    pub fn new(api: Api) -> Self {
        EventStream {
            api,
            text: Stream::new(),
            tools: Vec::new(),
            positions: std::collections::HashMap::new(),
            set: crate::tools::tool_enum(A::schema_type()).ok(),
            unindexed: 0,
            reasoning: String::new(),
            refusal: None,
            status: None,
            reason: None,
            finished: false,
            usage: [None; 3],
            error: None,
            body: Body::default(),
        }
    }

    /// Feeds one event (a server-sent event's `data` parsed, or one line of Ollama's stream);
    /// returns whether it carried any text or tool call arguments.
    ///
    /// # Errors
    /// [`ParseError::Provider`] for an error event, which ends the stream (every later push
    /// returns it again); the text's error (see [`Stream::push`]), after the rest of the event
    /// was read. A tool call's error is that call's ([`ToolCall::error`]), not returned here.
    pub fn push_event(&mut self, event: &Value) -> Result<bool, ParseError> {
        self.read_with(|api, sink| read_event(api, event, sink))
    }

    /// Gives one event to `read` with the stream as its sink (see [`push_event`](Self::push_event)).
    fn read_with(
        &mut self,
        read: impl FnOnce(Api, &mut AnyText<'_, T, A>) -> Result<(), ParseError>,
    ) -> Result<bool, ParseError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let mut any = AnyText {
            inner: self,
            any: false,
            text_error: None,
        };
        let read = read(any.inner.api, &mut any);
        let (carried, text_error) = (any.any, any.text_error);
        match read {
            Err(ParseError::Provider(e)) => {
                let e = ParseError::Provider(e);
                self.error = Some(e.clone());
                Err(e)
            }
            Err(e) => Err(e),
            Ok(()) => match text_error {
                Some(e) => Err(e),
                None => Ok(carried),
            },
        }
    }

    /// Feeds the HTTP body as it arrives, cut anywhere: server-sent events (`data:` lines
    /// joined until a blank line; `event:`, `id:`, `retry:` and comment lines skipped; `data:
    /// [DONE]` the end; a line ends with `\r\n`, `\n` or `\r`) or newline-delimited JSON (a
    /// line that starts with `{`, ended by `\n` or `\r\n`). Returns whether it carried any
    /// text or tool call arguments.
    ///
    /// ```
    /// use schema_core::stream::provider::{Api, EventStream};
    /// use schema_core::AgentSchema;
    ///
    /// #[derive(AgentSchema, serde::Deserialize, Debug)]
    /// struct Note {
    ///     text: String,
    /// }
    /// let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{\\\"text\\\": \\\"é\\\"}\"}}]}\n\n\
    ///             data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    /// let mut s = EventStream::<Note>::new(Api::OpenAiChat);
    /// for chunk in body.as_bytes().chunks(1) {
    ///     s.push_body(chunk).unwrap(); // one byte at a time, `é` cut in two
    /// }
    /// assert_eq!(s.finish().value.unwrap().text, "é");
    /// ```
    ///
    /// # Errors
    /// As [`push_event`](Self::push_event); an event that is not JSON (or not UTF-8), or a line
    /// longer than [`DEFAULT_MAX_LEN`](crate::DEFAULT_MAX_LEN), is
    /// [`ProviderError::Malformed`] and ends the stream.
    pub fn push_body(&mut self, bytes: &[u8]) -> Result<bool, ParseError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let mut any = false;
        let mut text_error = None;
        let mut rest = bytes;
        if self.body.cr && !rest.is_empty() {
            self.body.cr = false;
            rest = rest.strip_prefix(b"\n").unwrap_or(rest);
        }
        // Newline-delimited JSON ends a line with `\n` alone (a `\r` before it is dropped).
        let cr = self.api != Api::Ollama;
        loop {
            let read = if let Some((read, used)) = self.whole_event(rest, cr) {
                rest = &rest[used..];
                read
            } else if let Some(k) = line_end(rest, cr) {
                let (line, tail) = rest.split_at(k);
                rest = match tail {
                    [b'\r', b'\n', more @ ..] => more,
                    [b'\r'] => {
                        self.body.cr = true;
                        &[]
                    }
                    _ => &tail[1..],
                };
                if self.body.line.is_empty() {
                    self.line(line)
                } else {
                    let mut held = std::mem::take(&mut self.body.line);
                    held.extend_from_slice(line);
                    let read = self.line(&held);
                    held.clear();
                    self.body.line = held;
                    read
                }
            } else {
                break;
            };
            match read {
                Ok(a) => any |= a,
                Err(e) if self.error.is_some() => return Err(e),
                Err(e) => {
                    text_error.get_or_insert(e);
                }
            }
        }
        self.body.line.extend_from_slice(rest);
        if self.body.line.len() > MAX_LINE {
            return Err(self.malformed("a line longer than the size limit"));
        }
        match text_error {
            Some(e) => Err(e),
            None => Ok(any),
        }
    }

    /// Ends the stream with an error of the body's form.
    fn malformed(&mut self, message: &str) -> ParseError {
        let e = ParseError::Provider(provider::malformed(self.api.provider(), message));
        self.error = Some(e.clone());
        e
    }

    /// Reads one line of the body (without its line end).
    fn line(&mut self, line: &[u8]) -> Result<bool, ParseError> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match line.first() {
            None => self.dispatch(),
            Some(b':') => Ok(false),
            // Newline-delimited JSON (Ollama).
            Some(b'{') => self.event(line),
            // In newline-delimited JSON every line is a JSON object (blank space aside); any
            // other line is a malformed body, never skipped without a word.
            Some(_) if self.api == Api::Ollama => match line.trim_ascii_start() {
                [] => Ok(false),
                json @ [b'{', ..] => self.event(json),
                _ => Err(self.malformed("a line of newline-delimited JSON that is not an object")),
            },
            Some(_) => {
                let (field, value) = match line.iter().position(|&b| b == b':') {
                    Some(k) => (&line[..k], &line[k + 1..]),
                    None => (line, &b""[..]),
                };
                if field == b"data" {
                    let value = value.strip_prefix(b" ").unwrap_or(value);
                    if self.body.has_data {
                        self.body.data.push(b'\n');
                    }
                    self.body.data.extend_from_slice(value);
                    self.body.has_data = true;
                    if self.body.data.len() > MAX_LINE {
                        return Err(self.malformed("an event longer than the size limit"));
                    }
                }
                Ok(false)
            }
        }
    }

    /// Reads the server-sent event whose `data` lines were gathered (at a blank line).
    fn dispatch(&mut self) -> Result<bool, ParseError> {
        if !self.body.has_data {
            return Ok(false);
        }
        self.body.has_data = false;
        let data = std::mem::take(&mut self.body.data);
        let read = match data.trim_ascii() {
            b"[DONE]" => {
                self.body.done = true;
                Ok(false)
            }
            b"" => Ok(false),
            json => self.event(json),
        };
        self.body.data = data;
        self.body.data.clear();
        read
    }

    /// A whole hot event at the start of `rest` (at a line's start, nothing held): a `data:`
    /// line and the blank line after it, or a line of newline-delimited JSON, read in place
    /// (see [`scan`]). Its reading and the bytes it took; `None` to read `rest` line by line.
    fn whole_event(&mut self, rest: &[u8], cr: bool) -> Option<(Result<bool, ParseError>, usize)> {
        if !self.body.line.is_empty() || self.body.has_data {
            return None;
        }
        // An `event:` line before the `data:` line (Anthropic, Responses) is stepped over: the
        // line reader skips it too.
        let mut skipped = 0;
        if rest.starts_with(b"event:") {
            let k = line_end(rest, cr)?;
            skipped = k + line_break(&rest[k..], cr)?;
        }
        let rest = &rest[skipped..];
        let (start, sse) = match rest.first()? {
            b'{' if skipped == 0 => (0, false),
            b'd' => {
                let data = rest.strip_prefix(b"data:")?;
                (5 + usize::from(data.first() == Some(&b' ')), true)
            }
            _ => return None,
        };
        let mut scratch = std::mem::take(&mut self.body.scratch);
        scratch.clear();
        let mut hot = scan::Hot::default();
        let read = scan::hot(
            self.api,
            rest.get(start..)?,
            false,
            &mut scratch,
            &mut self.body.memo,
            &mut hot,
        )
        .and_then(|len| {
            // The line's end, then (for an event) the blank line.
            let mut end = start + len;
            end += line_break(&rest[end..], cr)?;
            if end - start > MAX_LINE {
                return None;
            }
            if sse {
                end += line_break(&rest[end..], cr)?;
            }
            Some((
                self.read_with(|_, sink| hot.apply(&scratch, sink)),
                skipped + end,
            ))
        });
        self.body.scratch = scratch;
        read
    }

    /// Parses and reads one event's JSON.
    fn event(&mut self, json: &[u8]) -> Result<bool, ParseError> {
        let mut scratch = std::mem::take(&mut self.body.scratch);
        scratch.clear();
        let mut hot = scan::Hot::default();
        let read = match scan::hot(
            self.api,
            json,
            true,
            &mut scratch,
            &mut self.body.memo,
            &mut hot,
        ) {
            Some(len) if len == json.len() => {
                Some(self.read_with(|_, sink| hot.apply(&scratch, sink)))
            }
            _ => None,
        };
        self.body.scratch = scratch;
        if let Some(read) = read {
            return read;
        }
        match serde_json::from_slice::<Value>(json) {
            Ok(v) => self.push_event(&v),
            Err(e) => {
                let shown = String::from_utf8_lossy(&json[..json.len().min(80)]).into_owned();
                Err(self.malformed(&format!("an event that is not JSON ({e}): {shown}")))
            }
        }
    }

    /// The tool call at `index`, if one started.
    pub fn tool(&self, index: usize) -> Option<&ToolCall<A>> {
        self.positions.get(&index).and_then(|&p| self.tools.get(p))
    }

    /// Every tool call, in the order they started.
    pub fn tools(&self) -> &[ToolCall<A>] {
        &self.tools
    }

    /// The reasoning received so far (every piece, joined; a `<think>` block inside the text
    /// is moved here by [`reply`](Self::reply)).
    pub fn reasoning(&self) -> &str {
        &self.reasoning
    }

    /// The refusal text received so far, if any.
    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }

    /// Why the reply stopped, once the provider said so: the finish and the provider's own
    /// word for it (as in [`Reply::finish`] and [`Reply::raw_finish`]).
    pub fn finish_reason(&self) -> Option<(Finish, Option<&str>)> {
        self.finished.then(|| {
            (
                self.finish_now(),
                self.reason.as_deref().or(self.status.as_deref()),
            )
        })
    }

    /// The token counts received so far.
    pub fn usage(&self) -> Usage {
        let [input_tokens, output_tokens, total] = self.usage;
        Usage {
            input_tokens,
            output_tokens,
            total_tokens: total.or(match (input_tokens, output_tokens) {
                (Some(a), Some(b)) => a.checked_add(b),
                _ => None,
            }),
        }
    }

    /// The error that ended the stream (an error event), if any.
    pub fn error(&self) -> Option<&ParseError> {
        self.error.as_ref()
    }

    fn finish_now(&self) -> Finish {
        if !self.finished {
            return Finish::Cut;
        }
        provider::finish_of(
            self.api.provider(),
            self.status.as_deref(),
            self.reason.as_deref(),
            self.refusal.is_some(),
            !self.tools.is_empty(),
        )
    }

    /// What the stream holds so far, read as
    /// [`read_response`](crate::provider::read_response) reads a whole response: the text
    /// without reasoning, the reasoning, refusal, each call's id, name and arguments, the
    /// finish ([`Finish::Cut`] until the provider gives one) and usage.
    pub fn reply(&self) -> Reply {
        let text = self.text.text();
        provider::settle(Reply {
            text: (!text.is_empty()).then(|| text.to_string()),
            reasoning: (!self.reasoning.is_empty()).then(|| self.reasoning.clone()),
            refusal: self.refusal.clone(),
            tool_calls: self
                .tools
                .iter()
                .map(|t| provider::ToolCall {
                    id: t.id.clone().unwrap_or_default(),
                    name: t.name.clone().unwrap_or_default(),
                    arguments: if t.arguments.trim().is_empty() {
                        "{}".into()
                    } else {
                        t.arguments.clone()
                    },
                })
                .collect(),
            finish: self.finish_now(),
            raw_finish: self.reason.clone().or_else(|| self.status.clone()),
            usage: self.usage(),
        })
    }

    /// Ends the stream: the text's value, each tool call's, and the [`Reply`], each as the
    /// whole response would give them (see [`Finished`]). A line the body ended inside is read
    /// if it is whole JSON (a cut one adds nothing: the stream is cut).
    pub fn finish(mut self) -> Finished<T, A>
    where
        T: serde::de::DeserializeOwned,
        A: serde::de::DeserializeOwned,
    {
        if self.error.is_none() {
            let line = std::mem::take(&mut self.body.line);
            if !line.is_empty()
                && serde_json::from_slice::<serde::de::IgnoredAny>(
                    line.strip_prefix(b"data:").unwrap_or(&line),
                )
                .is_ok()
            {
                let _ = self.line(&line);
            }
            let _ = self.dispatch();
        }
        let provider = self.api.provider();
        let reply = self.reply();
        let blocked = match &self.error {
            Some(e) => Some(e.clone()),
            None => provider::text_of(provider, reply.clone()).err(),
        };
        let value = match &blocked {
            Some(e) => Err(e.clone()),
            None => self.text.finish(),
        };
        // A reply that stopped short stops every call (as `tool_calls_from_response`); a
        // missing text does not.
        let stop = match (&self.error, &reply.finish) {
            (Some(e), _) => Some(e.clone()),
            (None, f @ (Finish::Length | Finish::Cut)) => Some(provider::truncated(provider, f, 0)),
            _ => None,
        };
        let set = self.set;
        let tools = self
            .tools
            .into_iter()
            .zip(&reply.tool_calls)
            .map(|(t, whole)| {
                let value = match (&stop, &t.name) {
                    (Some(e), _) => Err(e.clone()),
                    (None, None) => Err(ParseError::Provider(provider::malformed(
                        provider,
                        "a tool call without a name",
                    ))),
                    (None, Some(name)) if set.is_some() => {
                        crate::tools::derived_from_call::<A>(A::schema_type(), name, &t.arguments)
                    }
                    (None, Some(_)) => t.stream.finish(),
                };
                ToolResult {
                    index: t.index,
                    id: whole.id.clone(),
                    name: whole.name.clone(),
                    value,
                }
            })
            .collect();
        Finished {
            value,
            tools,
            reply,
        }
    }
}

/// A [`Sink`] around the stream that notes whether an event carried text or arguments, and
/// reads on past a text error (kept for the caller) so the event's other pieces are not lost.
struct AnyText<'s, T: AgentSchema, A: AgentSchema> {
    inner: &'s mut EventStream<T, A>,
    any: bool,
    text_error: Option<ParseError>,
}

impl<T: AgentSchema, A: AgentSchema> Sink for AnyText<'_, T, A> {
    fn text(&mut self, s: &str) -> Result<(), ParseError> {
        self.any = true;
        if let Err(e) = self.inner.text(s) {
            self.text_error.get_or_insert(e);
        }
        Ok(())
    }
    fn reasoning(&mut self, s: &str) {
        self.inner.reasoning(s);
    }
    fn refusal(&mut self, s: &str) {
        self.inner.refusal(s);
    }
    fn call(&mut self, at: Option<usize>, id: Option<&str>, name: Option<&str>, args: &str) {
        self.any = true;
        self.inner.call(at, id, name, args);
    }
    fn finish(&mut self, status: Option<&str>, reason: Option<&str>) {
        self.inner.finish(status, reason);
    }
    fn usage(&mut self, input: Option<u64>, output: Option<u64>, total: Option<u64>) {
        self.inner.usage(input, output, total);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_end_finds_the_first_line_end() {
        let text: Vec<u8> = (0..40u8)
            .map(|i| match i % 7 {
                3 => b'\n',
                5 if i % 3 == 0 => b'\r',
                _ => b'a' + i % 26,
            })
            .collect();
        for start in 0..text.len() {
            for end in start..=text.len() {
                let s = &text[start..end];
                assert_eq!(
                    super::line_end(s, false),
                    s.iter().position(|&b| b == b'\n')
                );
                assert_eq!(
                    super::line_end(s, true),
                    s.iter().position(|&b| b == b'\n' || b == b'\r')
                );
            }
        }
        for cr in [false, true] {
            assert_eq!(super::line_end(&[0x8a, b'\n'], cr), Some(1));
            assert_eq!(
                super::line_end(&[0x8d, b'\r', b'\n'], cr),
                Some(1 + usize::from(!cr))
            );
            assert_eq!(super::line_end(&[0x0b; 9], cr), None);
            assert_eq!(super::line_end(&[0x0c; 9], cr), None);
        }
    }
}
