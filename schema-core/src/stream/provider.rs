//! Provider streaming events to [`Stream`]s: the text of a reply and each tool call's
//! arguments, by index.
//!
//! Each provider sends its stream as JSON events (server-sent events' `data:` payloads):
//! - OpenAI Chat Completions: `choices[0].delta.content`, and
//!   `choices[0].delta.tool_calls[i].function.arguments` (the name in the call's first chunk);
//! - OpenAI Responses: `response.output_text.delta`, and
//!   `response.function_call_arguments.delta` (the name in `response.output_item.added`);
//! - Anthropic Messages: `content_block_delta` with a `text_delta` or an `input_json_delta`
//!   (the tool's name in `content_block_start`), by content block index;
//! - Gemini `streamGenerateContent`: `candidates[0].content.parts[].text`; a `functionCall`
//!   part arrives whole, its `args` fed as one chunk.
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
//! let mut s = EventStream::<Weather>::new(Api::Anthropic);
//! for e in [
//!     serde_json::json!({"type": "content_block_start", "index": 0,
//!         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}}}),
//!     serde_json::json!({"type": "content_block_delta", "index": 0,
//!         "delta": {"type": "input_json_delta", "partial_json": "{\"city\": \"Pa"}}),
//!     serde_json::json!({"type": "content_block_delta", "index": 0,
//!         "delta": {"type": "input_json_delta", "partial_json": "ris\"}"}}),
//! ] {
//!     s.push_event(&e).unwrap();
//! }
//! let call = s.tool(0).unwrap();
//! assert_eq!(call.name.as_deref(), Some("weather"));
//! assert_eq!(call.stream.partial().city.as_deref(), Some("Paris"));
//! ```

use super::Stream;
use crate::{AgentSchema, ParseError};
use serde_json::Value;

/// The streaming API an event comes from. (When `schema_core::provider::Provider` exists, a
/// `From<Provider>` maps onto this.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Api {
    /// OpenAI Chat Completions (`chat.completion.chunk`), and servers that copy it (LM Studio,
    /// llama.cpp, Ollama's OpenAI endpoint).
    OpenAiChat,
    /// OpenAI Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini `streamGenerateContent`.
    Gemini,
}

impl From<crate::provider::Provider> for Api {
    /// The streaming events each [`Provider`](crate::provider::Provider) sends: LM Studio and
    /// Ollama stream in OpenAI Chat's form (Ollama's native `/api/chat` lines are read too).
    fn from(p: crate::provider::Provider) -> Api {
        use crate::provider::Provider;
        match p {
            Provider::OpenAiChat | Provider::LmStudio | Provider::Ollama => Api::OpenAiChat,
            Provider::OpenAiResponses => Api::OpenAiResponses,
            Provider::Anthropic => Api::Anthropic,
            Provider::Gemini => Api::Gemini,
        }
    }
}

impl Api {
    /// The API of a provider name: `openai` (Chat Completions), `openai-responses`,
    /// `anthropic`, `gemini`, `lmstudio`, `llamacpp`, `ollama`.
    pub fn from_name(name: &str) -> Option<Api> {
        Some(match name.to_ascii_lowercase().as_str() {
            "openai" | "openai-chat" | "lmstudio" | "llamacpp" | "llama.cpp" | "ollama" => {
                Api::OpenAiChat
            }
            "openai-responses" | "responses" => Api::OpenAiResponses,
            "anthropic" | "claude" => Api::Anthropic,
            "gemini" | "google" => Api::Gemini,
            _ => return None,
        })
    }
}

/// Where a piece of streamed text belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Channel {
    /// The reply's text.
    Text,
    /// The arguments of the tool call at this index (the content block index for Anthropic,
    /// the output index for Responses).
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

fn index(v: &Value, key: &str) -> usize {
    v.get(key).and_then(Value::as_u64).map_or(0, |i| i as usize)
}

fn text_delta(s: &str) -> Delta {
    Delta {
        channel: Channel::Text,
        name: None,
        text: s.to_string(),
    }
}

/// The pieces of text in one event of `api`'s stream, in order (none for events that carry no
/// text: usage, stops, pings).
pub fn deltas(api: Api, event: &Value) -> Vec<Delta> {
    let mut out = Vec::new();
    let str_at = |v: &Value, p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
    match api {
        Api::OpenAiChat => {
            let Some(delta) = event.pointer("/choices/0/delta") else {
                // Ollama's native `/api/chat` stream (one JSON object a line):
                // `{"message": {"role": "assistant", "content": "..."}, "done": false}`.
                if let Some(s) = event.pointer("/message/content").and_then(Value::as_str) {
                    if !s.is_empty() {
                        out.push(text_delta(s));
                    }
                }
                return out;
            };
            if let Some(s) = delta.get("content").and_then(Value::as_str) {
                out.push(text_delta(s));
            }
            for call in delta
                .get("tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                out.push(Delta {
                    channel: Channel::Tool {
                        index: index(call, "index"),
                    },
                    name: str_at(call, "/function/name"),
                    text: str_at(call, "/function/arguments").unwrap_or_default(),
                });
            }
        }
        Api::OpenAiResponses => match event.get("type").and_then(Value::as_str) {
            Some("response.output_text.delta") => {
                if let Some(s) = event.get("delta").and_then(Value::as_str) {
                    out.push(text_delta(s));
                }
            }
            Some("response.output_item.added")
                if event.pointer("/item/type").and_then(Value::as_str) == Some("function_call") =>
            {
                out.push(Delta {
                    channel: Channel::Tool {
                        index: index(event, "output_index"),
                    },
                    name: str_at(event, "/item/name"),
                    text: str_at(event, "/item/arguments").unwrap_or_default(),
                });
            }
            Some("response.function_call_arguments.delta") => out.push(Delta {
                channel: Channel::Tool {
                    index: index(event, "output_index"),
                },
                name: None,
                text: str_at(event, "/delta").unwrap_or_default(),
            }),
            _ => {}
        },
        Api::Anthropic => match event.get("type").and_then(Value::as_str) {
            Some("content_block_start")
                if event.pointer("/content_block/type").and_then(Value::as_str)
                    == Some("tool_use") =>
            {
                out.push(Delta {
                    channel: Channel::Tool {
                        index: index(event, "index"),
                    },
                    name: str_at(event, "/content_block/name"),
                    text: String::new(),
                });
            }
            Some("content_block_start") => {
                if let Some(s) = str_at(event, "/content_block/text").filter(|s| !s.is_empty()) {
                    out.push(text_delta(&s));
                }
            }
            Some("content_block_delta") => {
                match event.pointer("/delta/type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        if let Some(s) = str_at(event, "/delta/text") {
                            out.push(text_delta(&s));
                        }
                    }
                    Some("input_json_delta") => out.push(Delta {
                        channel: Channel::Tool {
                            index: index(event, "index"),
                        },
                        name: None,
                        text: str_at(event, "/delta/partial_json").unwrap_or_default(),
                    }),
                    _ => {}
                }
            }
            _ => {}
        },
        Api::Gemini => {
            let parts = event
                .pointer("/candidates/0/content/parts")
                .and_then(Value::as_array);
            let mut calls = 0;
            for part in parts.into_iter().flatten() {
                if part.get("thought").and_then(Value::as_bool) == Some(true) {
                    continue;
                }
                if let Some(s) = part.get("text").and_then(Value::as_str) {
                    out.push(text_delta(s));
                }
                if let Some(call) = part.get("functionCall") {
                    out.push(Delta {
                        channel: Channel::Tool { index: calls },
                        name: str_at(call, "/name"),
                        text: call.get("args").map(Value::to_string).unwrap_or_default(),
                    });
                    calls += 1;
                }
            }
        }
    }
    out
}

/// A finished tool call: its index, its name, and its arguments read as `A`.
pub type ToolResult<A> = (usize, Option<String>, Result<A, ParseError>);

/// One tool call's streamed arguments.
pub struct ToolCall<A: AgentSchema> {
    /// The call's index.
    pub index: usize,
    /// The tool's name, once an event named it.
    pub name: Option<String>,
    /// The arguments as they stream.
    pub stream: Stream<A>,
}

/// Feeds a provider's streaming events into a [`Stream`] of the reply's text (`T`) and one
/// [`Stream`] per tool call (`A`), by index.
pub struct EventStream<T: AgentSchema, A: AgentSchema = T> {
    api: Api,
    /// The reply's text.
    pub text: Stream<T>,
    tools: Vec<ToolCall<A>>,
}

impl<T: AgentSchema, A: AgentSchema> EventStream<T, A> {
    /// An empty feeder for `api`'s events.
    pub fn new(api: Api) -> Self {
        EventStream {
            api,
            text: Stream::new(),
            tools: Vec::new(),
        }
    }

    /// Feeds one event; returns whether it carried any text.
    ///
    /// # Errors
    /// The first error of the stream it fed (see [`Stream::push`]).
    pub fn push_event(&mut self, event: &Value) -> Result<bool, ParseError> {
        let ds = deltas(self.api, event);
        let any = !ds.is_empty();
        for d in ds {
            match d.channel {
                Channel::Text => {
                    self.text.push(&d.text)?;
                }
                Channel::Tool { index } => {
                    let pos = match self.tools.iter().position(|t| t.index == index) {
                        Some(p) => p,
                        None => {
                            self.tools.push(ToolCall {
                                index,
                                name: None,
                                stream: Stream::new(),
                            });
                            self.tools.len() - 1
                        }
                    };
                    let call = &mut self.tools[pos];
                    if d.name.is_some() {
                        call.name = d.name;
                    }
                    if !d.text.is_empty() {
                        call.stream.push(&d.text)?;
                    }
                }
            }
        }
        Ok(any)
    }

    /// The tool call at `index`, if one started.
    pub fn tool(&self, index: usize) -> Option<&ToolCall<A>> {
        self.tools.iter().find(|t| t.index == index)
    }

    /// Every tool call, in the order they started.
    pub fn tools(&self) -> &[ToolCall<A>] {
        &self.tools
    }

    /// Ends the stream: the text's value and each tool call's, by index.
    pub fn finish(self) -> (Result<T, ParseError>, Vec<ToolResult<A>>)
    where
        T: serde::de::DeserializeOwned,
        A: serde::de::DeserializeOwned,
    {
        let tools = self
            .tools
            .into_iter()
            .map(|t| (t.index, t.name, t.stream.finish()))
            .collect();
        (self.text.finish(), tools)
    }
}
