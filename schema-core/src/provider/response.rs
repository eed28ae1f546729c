//! Each provider's response envelope read into one [`Reply`].

use super::Provider;
use serde_json::Value;
use std::fmt;

/// What a provider's response holds, in one shape for every provider.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reply {
    /// The text the model wrote (every text part, joined), if any, without its reasoning: a
    /// `<think>…</think>` block (and the other forms [`find_reasoning`] knows) at its start
    /// is moved to [`reasoning`](Reply::reasoning).
    ///
    /// [`find_reasoning`]: crate::llm::find_reasoning
    pub text: Option<String>,
    /// The model's reasoning, where the provider returns it (every piece, joined): Anthropic
    /// `thinking` blocks, Gemini parts marked `thought`, OpenAI Responses `reasoning` items'
    /// summaries and text, `reasoning_content` / `reasoning` beside Chat Completions content
    /// (DeepSeek, llama.cpp, vLLM, OpenRouter), Ollama's `thinking`, and a reasoning block at
    /// the start of the text (LM Studio and llama.cpp servers write `<think>…</think>` into
    /// `content`).
    pub reasoning: Option<String>,
    /// The provider's refusal text: OpenAI's `refusal` field, or Anthropic's
    /// `stop_details.explanation` when it stopped with `stop_reason: "refusal"` (none when the
    /// body gives no explanation: [`finish`](Reply::finish) is then [`Finish::Refusal`]).
    pub refusal: Option<String>,
    /// The tool calls, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Why the model stopped.
    pub finish: Finish,
    /// The provider's own word for why it stopped (`stop`, `end_turn`, `MAX_TOKENS`, a
    /// Responses `incomplete_details.reason` or `status`, Ollama's `done_reason`), when the
    /// response gives one.
    pub raw_finish: Option<String>,
    /// Token counts, where the provider reports them.
    pub usage: Usage,
}

/// One tool call from a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The call id to answer with the tool's result (OpenAI `id` / Responses `call_id`,
    /// Anthropic `id`, Gemini `id`). Where the provider gives none (Ollama, Gemini models that
    /// match results by name) it is `call_<n>`, `n` the call's position among the reply's
    /// calls from 0, so that a whole response and its stream name each call alike; those
    /// providers take a result by the tool's name.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as JSON text (providers that send an object have it serialized).
    pub arguments: String,
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Finish {
    /// A natural end (OpenAI `stop`, Anthropic `end_turn` / `stop_sequence`, Gemini `STOP`).
    #[default]
    Stop,
    /// Cut by the token limit (OpenAI `length`, Responses `max_output_tokens`, Anthropic
    /// `max_tokens` / `model_context_window_exceeded`, Gemini `MAX_TOKENS`, Ollama `length`):
    /// the text is incomplete even when its braces happen to close.
    Length,
    /// The model asked for tool calls.
    ToolCalls,
    /// The provider's filter stopped or blocked the reply (OpenAI `content_filter`, Gemini
    /// `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, a blocked prompt).
    ContentFilter,
    /// The model declined (Anthropic `refusal`, or an OpenAI refusal field).
    Refusal,
    /// Any other reason, as the provider wrote it.
    Other(String),
    /// A stream ended before the provider said why it stopped (the connection closed, or the
    /// caller ended it early): the reply is incomplete. Whole responses never have it.
    Cut,
}

/// Token counts of one response; `None` where the provider did not report the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Tokens read (prompt).
    pub input_tokens: Option<u64>,
    /// Tokens written (completion, including reasoning where the provider counts it there).
    pub output_tokens: Option<u64>,
    /// The provider's total, or the sum of the two when it gives none.
    pub total_tokens: Option<u64>,
}

/// A response that holds no reply: the provider's error body, or a body of an unknown shape.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProviderError {
    /// The provider answered with an error (`{"error": {...}}`, Anthropic's `{"type": "error"}`,
    /// a failed Responses run).
    Api {
        /// Which provider.
        provider: Provider,
        /// The error's type or status (`invalid_request_error`, `INVALID_ARGUMENT`,
        /// `overloaded_error`, ...), when given.
        kind: Option<String>,
        /// The error's code (`"400"`, `"context_length_exceeded"`, ...), when given.
        code: Option<String>,
        /// The provider's message.
        message: String,
    },
    /// The body is not a response of that provider (a missing `choices`, a wrong type).
    Malformed {
        /// Which provider.
        provider: Provider,
        /// What was expected and not found.
        message: String,
    },
    /// The provider's content filter stopped or blocked the reply (returned by `from_response`;
    /// [`read_response`] reports it as [`Finish::ContentFilter`]).
    ContentFilter {
        /// Which provider.
        provider: Provider,
        /// The provider's reason (`content_filter`, `SAFETY`, ...).
        reason: String,
    },
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProviderError::Api {
                provider,
                kind,
                code,
                message,
            } => {
                write!(f, "{provider} returned an error")?;
                match (kind, code) {
                    (Some(k), Some(c)) => write!(f, " ({k}, {c})")?,
                    (Some(x), None) | (None, Some(x)) => write!(f, " ({x})")?,
                    (None, None) => {}
                }
                write!(f, ": {message}")
            }
            ProviderError::Malformed { provider, message } => {
                write!(f, "not a {provider} response: {message}")
            }
            ProviderError::ContentFilter { provider, reason } => {
                write!(
                    f,
                    "{provider}'s content filter stopped the reply ({reason})"
                )
            }
        }
    }
}

impl std::error::Error for ProviderError {}

pub(crate) fn malformed(provider: Provider, message: impl Into<String>) -> ProviderError {
    ProviderError::Malformed {
        provider,
        message: message.into(),
    }
}

fn str_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The provider's error body, if `body` is one.
pub(crate) fn error_body(provider: Provider, body: &Value) -> Option<ProviderError> {
    let err = body.get("error")?;
    match err {
        Value::Null => None,
        // Ollama and some OpenAI-compatible servers: `{"error": "message"}`.
        Value::String(s) => Some(ProviderError::Api {
            provider,
            kind: None,
            code: None,
            message: s.clone(),
        }),
        Value::Object(e) => Some(ProviderError::Api {
            provider,
            kind: str_of(e.get("type")).or_else(|| str_of(e.get("status"))),
            code: str_of(e.get("code")),
            message: str_of(e.get("message")).unwrap_or_else(|| err.to_string()),
        }),
        other => Some(ProviderError::Api {
            provider,
            kind: None,
            code: None,
            message: other.to_string(),
        }),
    }
}

pub(crate) fn arguments_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => "{}".into(),
        Some(other) => other.to_string(),
    }
}

fn join(parts: Vec<&str>) -> Option<String> {
    if parts.is_empty() {
        None
    } else {
        Some(parts.concat())
    }
}

fn usage(input: Option<&Value>, output: Option<&Value>, total: Option<&Value>) -> Usage {
    let input_tokens = input.and_then(Value::as_u64);
    let output_tokens = output.and_then(Value::as_u64);
    let total_tokens = total
        .and_then(Value::as_u64)
        .or(match (input_tokens, output_tokens) {
            (Some(a), Some(b)) => a.checked_add(b),
            _ => None,
        });
    Usage {
        input_tokens,
        output_tokens,
        total_tokens,
    }
}

/// Reads a provider's response body into a [`Reply`]: where the text is, the refusal field,
/// the tool calls and the finish reason, per provider:
///
/// - OpenAI Chat / LM Studio: `choices[0].message.{content, refusal, tool_calls,
///   reasoning_content | reasoning}` and `finish_reason`;
/// - OpenAI Responses: the `output` items (`message` parts `output_text` / `refusal`,
///   `function_call` items, `reasoning` items' `summary` and `content`), `status` and
///   `incomplete_details.reason`;
/// - Anthropic: the `content` blocks (`text`, `thinking`, `tool_use`), `stop_reason` and
///   `stop_details.explanation`;
/// - Gemini: `candidates[0].content.parts` (`text`, `text` marked `thought`,
///   `functionCall`), `finishReason`, and `promptFeedback.blockReason` for a blocked prompt;
/// - Ollama: `message.{content, thinking, tool_calls}` and `done_reason`.
///
/// In every case a reasoning block the text starts with (`<think>…</think>`) goes to
/// [`Reply::reasoning`], never to [`Reply::text`].
///
/// An error body is [`ProviderError::Api`] with the provider's message.
///
/// ```
/// use schema_core::provider::{read_response, Finish, Provider};
/// let body = serde_json::json!({
///     "content": [{"type": "text", "text": "{\"a\": 1"}],
///     "stop_reason": "max_tokens",
///     "usage": {"input_tokens": 10, "output_tokens": 4}
/// });
/// let reply = read_response(Provider::Anthropic, &body).unwrap();
/// assert_eq!(reply.finish, Finish::Length);
/// assert_eq!(reply.usage.total_tokens, Some(14));
/// ```
pub fn read_response(provider: Provider, body: &Value) -> Result<Reply, ProviderError> {
    if !body.is_object() {
        return Err(malformed(provider, "the body is not a JSON object"));
    }
    if let Some(e) = error_body(provider, body) {
        // A Responses body always has an `error` key, null unless the run failed.
        return Err(e);
    }
    match provider {
        Provider::OpenAiChat | Provider::LmStudio => chat(provider, body),
        Provider::OpenAiResponses => responses(body),
        Provider::Anthropic => anthropic(body),
        Provider::Gemini => gemini(body),
        Provider::Ollama => ollama(body),
    }
    .map(settle)
}

/// Why a reply stopped, from the provider's raw values: `status` (Responses only) and
/// `reason` (`finish_reason`, `stop_reason`, `finishReason`, `incomplete_details.reason`,
/// `done_reason`), and whether the reply holds a refusal and tool calls. One mapping for whole
/// responses and streams.
pub(crate) fn finish_of(
    provider: Provider,
    status: Option<&str>,
    reason: Option<&str>,
    refusal: bool,
    tools: bool,
) -> Finish {
    match provider {
        Provider::OpenAiChat | Provider::LmStudio => match reason {
            _ if refusal => Finish::Refusal,
            Some("stop") | None => Finish::Stop,
            Some("length") => Finish::Length,
            Some("tool_calls" | "function_call") => Finish::ToolCalls,
            Some("content_filter") => Finish::ContentFilter,
            Some(other) => Finish::Other(other.into()),
        },
        Provider::OpenAiResponses => match (status, reason) {
            (Some("incomplete"), Some("max_output_tokens")) => Finish::Length,
            (Some("incomplete"), Some("content_filter")) => Finish::ContentFilter,
            (Some("incomplete"), r) => Finish::Other(r.unwrap_or("incomplete").into()),
            _ if refusal => Finish::Refusal,
            (Some("completed") | None, _) if tools => Finish::ToolCalls,
            (Some("completed") | None, _) => Finish::Stop,
            (Some(other), _) => Finish::Other(other.into()),
        },
        Provider::Anthropic => match reason {
            Some("end_turn" | "stop_sequence") | None => Finish::Stop,
            Some("max_tokens" | "model_context_window_exceeded") => Finish::Length,
            Some("tool_use") => Finish::ToolCalls,
            Some("refusal") => Finish::Refusal,
            Some(other) => Finish::Other(other.into()),
        },
        // A stream's `promptFeedback.blockReason`: the prompt was blocked.
        Provider::Gemini if status == Some("blocked") => Finish::ContentFilter,
        Provider::Gemini => match reason {
            Some("STOP") | None if tools => Finish::ToolCalls,
            Some("STOP") | None => Finish::Stop,
            Some("MAX_TOKENS") => Finish::Length,
            Some(
                "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII"
                | "IMAGE_SAFETY",
            ) => Finish::ContentFilter,
            Some(other) => Finish::Other(other.into()),
        },
        Provider::Ollama => match reason {
            Some("length") => Finish::Length,
            _ if tools => Finish::ToolCalls,
            Some("stop") | None => Finish::Stop,
            Some(other) => Finish::Other(other.into()),
        },
    }
}

/// The reasoning carried beside the text of an OpenAI-compatible message or delta:
/// `reasoning_content` (DeepSeek, llama.cpp, LM Studio), `reasoning` (vLLM, OpenRouter,
/// Ollama's OpenAI endpoint).
pub(crate) fn side_reasoning(message: &Value) -> Option<&str> {
    ["reasoning_content", "reasoning"]
        .iter()
        .find_map(|k| message.get(*k).and_then(Value::as_str))
}

/// The parts of a reply that every reader settles alike: a reasoning block at the start of the
/// text moves to the reasoning, an empty text or reasoning is none, and a call without an id
/// is given `call_<n>`.
pub(crate) fn settle(mut reply: Reply) -> Reply {
    if let Some(text) = reply.text.take() {
        let (text, reasoning) = split_reasoning(text);
        if let Some(r) = reasoning {
            reply.reasoning.get_or_insert_with(String::new).push_str(&r);
        }
        reply.text = text;
    }
    reply.reasoning = reply.reasoning.filter(|r| !r.is_empty());
    for (n, call) in reply.tool_calls.iter_mut().enumerate() {
        if call.id.is_empty() {
            call.id = synthesized_id(n);
        }
    }
    reply
}

/// The id of the `n`th tool call (from 0) of a reply whose provider gives none.
fn synthesized_id(n: usize) -> String {
    format!("call_{n}")
}

/// `text` without the reasoning block it starts with, and that block's inner text (without
/// its tags): [`find_reasoning`](crate::llm::find_reasoning)'s rules. A block that is not
/// closed holds the whole text.
fn split_reasoning(text: String) -> (Option<String>, Option<String>) {
    let Some(r) = crate::llm::find_reasoning(&text) else {
        return (Some(text).filter(|t| !t.is_empty()), None);
    };
    let block = text[r.span.clone()].trim();
    // The inner text: the block's first opening tag and last closing tag taken off (`<think>`,
    // `<|channel|>analysis<|message|>`, ...).
    let inner = block
        .strip_suffix('>')
        .and_then(|_| block.rfind("</").or_else(|| block.rfind("<|")))
        .map_or(block, |k| &block[..k]);
    let inner = match inner.find('>') {
        Some(k) if inner.starts_with('<') => &inner[k + 1..],
        _ => inner,
    };
    let reasoning = inner.trim().to_string();
    let rest = text[r.span.end..].trim_start();
    (
        Some(rest.to_string()).filter(|t| !t.is_empty()),
        Some(reasoning),
    )
}

fn chat(provider: Provider, body: &Value) -> Result<Reply, ProviderError> {
    let choice = body
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or_else(|| malformed(provider, "no `choices[0]`"))?;
    let message = choice
        .get("message")
        .ok_or_else(|| malformed(provider, "no `choices[0].message`"))?;
    let text = match message.get("content") {
        Some(Value::String(s)) => Some(s.clone()),
        // Content parts (`[{"type": "text", "text": ...}]`), as some compatible servers send.
        Some(Value::Array(parts)) => join(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect(),
        ),
        _ => None,
    };
    let refusal = message
        .get("refusal")
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut tool_calls = Vec::new();
    for call in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        let f = call.get("function").unwrap_or(&Value::Null);
        tool_calls.push(ToolCall {
            id: str_of(call.get("id")).unwrap_or_default(),
            name: str_of(f.get("name"))
                .ok_or_else(|| malformed(provider, "a tool call without `function.name`"))?,
            arguments: arguments_text(f.get("arguments")),
        });
    }
    let reason = choice.get("finish_reason").and_then(Value::as_str);
    let u = body.get("usage").unwrap_or(&Value::Null);
    Ok(Reply {
        text,
        reasoning: side_reasoning(message).map(str::to_string),
        finish: finish_of(provider, None, reason, refusal.is_some(), false),
        raw_finish: reason.map(str::to_string),
        refusal,
        tool_calls,
        usage: usage(
            u.get("prompt_tokens"),
            u.get("completion_tokens"),
            u.get("total_tokens"),
        ),
    })
}

fn responses(body: &Value) -> Result<Reply, ProviderError> {
    let p = Provider::OpenAiResponses;
    let output = body
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| malformed(p, "no `output` array"))?;
    let mut texts = Vec::new();
    let mut refusals = Vec::new();
    let mut reasoning = Vec::new();
    let mut tool_calls = Vec::new();
    for item in output {
        match item.get("type").and_then(Value::as_str) {
            Some("message") => {
                for part in item
                    .get("content")
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice)
                {
                    match part.get("type").and_then(Value::as_str) {
                        Some("output_text") => {
                            texts.extend(part.get("text").and_then(Value::as_str));
                        }
                        Some("refusal") => {
                            refusals.extend(part.get("refusal").and_then(Value::as_str));
                        }
                        _ => {}
                    }
                }
            }
            // The summary first, then the raw reasoning text: the order their stream events
            // come in.
            Some("reasoning") => {
                let parts = |key| {
                    item.get(key)
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                };
                for part in parts("summary").chain(parts("content")) {
                    if let Some(t) = part.get("text").and_then(Value::as_str) {
                        reasoning.push(t.to_string());
                    }
                }
            }
            Some("function_call") => tool_calls.push(ToolCall {
                id: str_of(item.get("call_id"))
                    .or_else(|| str_of(item.get("id")))
                    .unwrap_or_default(),
                name: str_of(item.get("name"))
                    .ok_or_else(|| malformed(p, "a `function_call` item without `name`"))?,
                arguments: arguments_text(item.get("arguments")),
            }),
            _ => {}
        }
    }
    let refusal = join(refusals);
    let status = body.get("status").and_then(Value::as_str);
    let reason = body
        .get("incomplete_details")
        .and_then(|d| d.get("reason"))
        .and_then(Value::as_str);
    let finish = finish_of(p, status, reason, refusal.is_some(), !tool_calls.is_empty());
    let u = body.get("usage").unwrap_or(&Value::Null);
    Ok(Reply {
        text: join(texts),
        reasoning: (!reasoning.is_empty()).then(|| reasoning.concat()),
        refusal,
        tool_calls,
        finish,
        raw_finish: reason.or(status).map(str::to_string),
        usage: usage(
            u.get("input_tokens"),
            u.get("output_tokens"),
            u.get("total_tokens"),
        ),
    })
}

/// Anthropic's refusal text: `stop_details.explanation` of a message that stopped with
/// `stop_reason: "refusal"` (the field sits on the message, or on a stream's `message_delta`).
pub(crate) fn anthropic_refusal(holder: &Value) -> Option<String> {
    holder
        .pointer("/stop_details/explanation")
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn anthropic(body: &Value) -> Result<Reply, ProviderError> {
    let p = Provider::Anthropic;
    let content = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| malformed(p, "no `content` array"))?;
    let mut texts = Vec::new();
    let mut reasoning = Vec::new();
    let mut tool_calls = Vec::new();
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => texts.extend(block.get("text").and_then(Value::as_str)),
            Some("thinking") => reasoning.extend(block.get("thinking").and_then(Value::as_str)),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: str_of(block.get("id")).unwrap_or_default(),
                name: str_of(block.get("name"))
                    .ok_or_else(|| malformed(p, "a `tool_use` block without `name`"))?,
                arguments: arguments_text(block.get("input")),
            }),
            _ => {}
        }
    }
    let reason = body.get("stop_reason").and_then(Value::as_str);
    let finish = finish_of(p, None, reason, false, false);
    let u = body.get("usage").unwrap_or(&Value::Null);
    Ok(Reply {
        text: join(texts),
        reasoning: join(reasoning),
        refusal: (finish == Finish::Refusal)
            .then(|| anthropic_refusal(body))
            .flatten(),
        tool_calls,
        finish,
        raw_finish: reason.map(str::to_string),
        usage: usage(u.get("input_tokens"), u.get("output_tokens"), None),
    })
}

/// Gemini's token counts (`usageMetadata`).
pub(crate) fn gemini_usage(body: &Value) -> Usage {
    let u = body.get("usageMetadata").unwrap_or(&Value::Null);
    usage(
        u.get("promptTokenCount"),
        u.get("candidatesTokenCount"),
        u.get("totalTokenCount"),
    )
}

fn gemini(body: &Value) -> Result<Reply, ProviderError> {
    let p = Provider::Gemini;
    let usage = gemini_usage(body);
    let candidate = body
        .get("candidates")
        .and_then(Value::as_array)
        .and_then(|c| c.first());
    let Some(candidate) = candidate else {
        // No candidate: the prompt itself was blocked.
        return match body
            .get("promptFeedback")
            .and_then(|f| f.get("blockReason"))
            .and_then(Value::as_str)
        {
            Some(block) => Ok(Reply {
                finish: Finish::ContentFilter,
                raw_finish: Some(block.into()),
                usage,
                ..Reply::default()
            }),
            None => Err(malformed(p, "no `candidates[0]` and no `promptFeedback`")),
        };
    };
    let mut texts = Vec::new();
    let mut reasoning = Vec::new();
    let mut tool_calls = Vec::new();
    for part in candidate
        .get("content")
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        if let Some(t) = part.get("text").and_then(Value::as_str) {
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                reasoning.push(t);
            } else {
                texts.push(t);
            }
        }
        if let Some(call) = part.get("functionCall") {
            tool_calls.push(ToolCall {
                id: str_of(call.get("id")).unwrap_or_default(),
                name: str_of(call.get("name"))
                    .ok_or_else(|| malformed(p, "a `functionCall` without `name`"))?,
                arguments: arguments_text(call.get("args")),
            });
        }
    }
    let reason = candidate.get("finishReason").and_then(Value::as_str);
    Ok(Reply {
        text: join(texts),
        reasoning: join(reasoning),
        refusal: None,
        finish: finish_of(p, None, reason, false, !tool_calls.is_empty()),
        raw_finish: reason.map(str::to_string),
        tool_calls,
        usage,
    })
}

fn ollama(body: &Value) -> Result<Reply, ProviderError> {
    let p = Provider::Ollama;
    let message = body
        .get("message")
        .ok_or_else(|| malformed(p, "no `message`"))?;
    let text = message
        .get("content")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let mut tool_calls = Vec::new();
    for call in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        let f = call.get("function").unwrap_or(&Value::Null);
        tool_calls.push(ToolCall {
            id: str_of(call.get("id")).unwrap_or_default(),
            name: str_of(f.get("name"))
                .ok_or_else(|| malformed(p, "a tool call without `function.name`"))?,
            arguments: arguments_text(f.get("arguments")),
        });
    }
    let reason = body.get("done_reason").and_then(Value::as_str);
    Ok(Reply {
        text,
        reasoning: message
            .get("thinking")
            .and_then(Value::as_str)
            .map(str::to_string),
        refusal: None,
        finish: finish_of(p, None, reason, false, !tool_calls.is_empty()),
        raw_finish: reason.map(str::to_string),
        tool_calls,
        usage: ollama_usage(body),
    })
}

/// Ollama's token counts (`prompt_eval_count`, `eval_count`).
pub(crate) fn ollama_usage(body: &Value) -> Usage {
    usage(body.get("prompt_eval_count"), body.get("eval_count"), None)
}
