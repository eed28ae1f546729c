//! From a type to a provider's request and back: the request parts that ask for structured
//! output, and the reading of each provider's response envelope (text, refusal, tool calls,
//! finish reason, usage).
//!
//! No HTTP client here: everything takes and returns [`serde_json::Value`], so it fits `reqwest`,
//! `async-openai`, a test fixture or anything else that speaks JSON.
//!
//! ```
//! use schema_core::provider::{output_format, read_response, Finish, Provider};
//! use schema_core::AgentSchema;
//! use serde_json::json;
//!
//! #[derive(AgentSchema, serde::Deserialize, Debug)]
//! struct Verdict {
//!     pass: bool,
//! }
//! let part = output_format::<Verdict>(Provider::OpenAiChat).unwrap();
//! assert_eq!(part["response_format"]["json_schema"]["name"], "Verdict");
//! assert_eq!(part["response_format"]["json_schema"]["strict"], true);
//!
//! let body = json!({"choices": [{"message": {"content": "{\"pass\": true}"}, "finish_reason": "stop"}]});
//! assert_eq!(read_response(Provider::OpenAiChat, &body).unwrap().finish, Finish::Stop);
//! assert!(Verdict::from_response(Provider::OpenAiChat, &body).unwrap().pass);
//! ```

mod response;

#[cfg(all(feature = "stream", feature = "tools"))]
pub(crate) use response::{
    anthropic_refusal, arguments_text, error_body, finish_of, gemini_usage, malformed,
    ollama_usage, settle, side_reasoning,
};
pub use response::{read_response, Finish, ProviderError, Reply, ToolCall, Usage};

use crate::convert::ConvertError;
use crate::obj::obj;
use crate::{AgentSchema, Dialect};
use serde_json::Value;
use std::fmt;

/// A model API: where a request goes and which response envelope comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions (`/v1/chat/completions`).
    OpenAiChat,
    /// OpenAI Responses (`/v1/responses`).
    OpenAiResponses,
    /// Anthropic Messages (`/v1/messages`).
    Anthropic,
    /// Google Gemini `generateContent`.
    Gemini,
    /// LM Studio's OpenAI-compatible server (`/v1/chat/completions`).
    LmStudio,
    /// Ollama's native chat API (`/api/chat`).
    Ollama,
}

impl Provider {
    /// Every provider, in a fixed order.
    pub const ALL: [Provider; 6] = [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::LmStudio,
        Provider::Ollama,
    ];

    /// The schema dialect the provider accepts.
    ///
    /// ```
    /// use schema_core::{provider::Provider, Dialect};
    /// assert_eq!(Provider::OpenAiResponses.dialect(), Dialect::OpenAi);
    /// ```
    pub fn dialect(self) -> Dialect {
        match self {
            Provider::OpenAiChat | Provider::OpenAiResponses => Dialect::OpenAi,
            Provider::Anthropic => Dialect::Anthropic,
            Provider::Gemini => Dialect::Gemini,
            Provider::LmStudio => Dialect::LmStudio,
            Provider::Ollama => Dialect::Ollama,
        }
    }

    /// A short lowercase name (`"openai-chat"`, `"anthropic"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
            Provider::LmStudio => "lmstudio",
            Provider::Ollama => "ollama",
        }
    }

    /// The most tools one request may carry, when the provider documents a limit.
    pub fn max_tools(self) -> Option<usize> {
        match self {
            Provider::OpenAiChat | Provider::OpenAiResponses => Some(128),
            _ => None,
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The longest schema or tool name OpenAI and Anthropic accept.
pub const MAX_NAME_LEN: usize = 64;

/// `name` made acceptable as a schema name (`^[a-zA-Z0-9_-]{1,64}$`, what OpenAI requires):
/// every other character becomes `_`, the result is cut to 64 characters, and an empty name
/// becomes `"response"`.
///
/// ```
/// assert_eq!(schema_core::provider::sanitize_name("Step<Plan>"), "Step_Plan_");
/// ```
pub fn sanitize_name(name: &str) -> String {
    let out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME_LEN)
        .collect();
    if out.is_empty() {
        "response".into()
    } else {
        out
    }
}

/// Whether `name` is a valid function / tool name for OpenAI and Anthropic
/// (`^[a-zA-Z0-9_-]{1,64}$`).
pub fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The part of the request body that asks `provider` for a reply matching `T`, to merge into
/// the body at its top level:
///
/// | provider | returned object |
/// |---|---|
/// | OpenAI Chat, LM Studio | `{"response_format": {"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}}` |
/// | OpenAI Responses | `{"text": {"format": {"type": "json_schema", "name", "strict": true, "schema"}}}` |
/// | Anthropic | `{"output_config": {"format": {"type": "json_schema", "schema"}}}` |
/// | Gemini | `{"generationConfig": {"responseMimeType": "application/json", "responseJsonSchema"}}` |
/// | Ollama | `{"format": schema}` |
///
/// The schema is `T`'s schema in [`Provider::dialect`]; the name is
/// [`AgentSchema::schema_name`] made acceptable by [`sanitize_name`]. `strict` is always written
/// out: the Responses API makes a request without it strict on its own.
///
/// ```
/// use schema_core::provider::{output_format, Provider};
/// #[derive(schema_core::AgentSchema)]
/// #[schema(name = "plan step")]
/// struct Step {
///     note: Option<String>,
/// }
/// let part = output_format::<Step>(Provider::OpenAiResponses).unwrap();
/// assert_eq!(part["text"]["format"]["name"], "plan_step");
/// assert_eq!(part["text"]["format"]["schema"]["required"], serde_json::json!(["note"]));
/// ```
pub fn output_format<T: AgentSchema + ?Sized>(provider: Provider) -> Result<Value, ConvertError> {
    let schema = T::try_json_schema(provider.dialect())?;
    Ok(format_part(
        provider,
        &sanitize_name(T::schema_name()),
        schema.clone(),
    ))
}

/// [`output_format`] for a schema built at run time (already in `provider`'s dialect).
pub fn format_part(provider: Provider, name: &str, schema: Value) -> Value {
    match provider {
        Provider::OpenAiChat | Provider::LmStudio => {
            let inner = obj(&mut [
                ("name", name.into()),
                ("strict", true.into()),
                ("schema", schema),
            ]);
            obj(&mut [(
                "response_format",
                obj(&mut [("type", "json_schema".into()), ("json_schema", inner)]),
            )])
        }
        Provider::OpenAiResponses => {
            let format = obj(&mut [
                ("type", "json_schema".into()),
                ("name", name.into()),
                ("strict", true.into()),
                ("schema", schema),
            ]);
            obj(&mut [("text", obj(&mut [("format", format)]))])
        }
        Provider::Anthropic => {
            let format = obj(&mut [("type", "json_schema".into()), ("schema", schema)]);
            obj(&mut [("output_config", obj(&mut [("format", format)]))])
        }
        Provider::Gemini => obj(&mut [(
            "generationConfig",
            obj(&mut [
                ("responseMimeType", "application/json".into()),
                ("responseJsonSchema", schema),
            ]),
        )]),
        Provider::Ollama => obj(&mut [("format", schema)]),
    }
}

/// Merges `part` (an object from [`output_format`] or a `tools` array wrapper) into the request
/// `body`: objects are merged key by key, so a `generationConfig` already holding a
/// `temperature` keeps it; any other value is replaced.
///
/// ```
/// use serde_json::json;
/// let mut body = json!({"generationConfig": {"temperature": 0.2}});
/// schema_core::provider::merge_into(&mut body, json!({"generationConfig": {"responseMimeType": "application/json"}}));
/// assert_eq!(body, json!({"generationConfig": {"temperature": 0.2, "responseMimeType": "application/json"}}));
/// ```
pub fn merge_into(body: &mut Value, part: Value) {
    match (body, part) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                match b.get_mut(&k) {
                    Some(existing @ Value::Object(_)) if v.is_object() => merge_into(existing, v),
                    _ => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, p) => *b = p,
    }
}

/// The reply text of a response body, or the [`ParseError`](crate::ParseError) that stops it
/// from being parsed (refusal, cut by the token limit, content filter, error body, no text).
pub fn reply_text(provider: Provider, body: &Value) -> Result<String, crate::ParseError> {
    let reply = read_response(provider, body).map_err(crate::ParseError::Provider)?;
    text_of(provider, reply)
}

/// The text of a [`Reply`] read from `provider`, or the error that stops it from being parsed:
/// what [`reply_text`] gives for a whole body and a provider stream gives at its end.
pub(crate) fn text_of(provider: Provider, reply: Reply) -> Result<String, crate::ParseError> {
    use crate::ParseError;
    if let Some(text) = reply.refusal {
        return Err(ParseError::Refusal { text });
    }
    let text = match reply.finish {
        Finish::Refusal => {
            return Err(ParseError::Refusal {
                text: reply.text.unwrap_or_default(),
            })
        }
        Finish::ContentFilter => {
            return Err(ParseError::Provider(ProviderError::ContentFilter {
                provider,
                reason: reply.raw_finish.unwrap_or_else(|| "unknown".into()),
            }))
        }
        Finish::Length | Finish::Cut => {
            return Err(truncated(
                provider,
                &reply.finish,
                reply.text.as_deref().map_or(0, str::len),
            ))
        }
        _ => reply.text,
    };
    match text {
        Some(t) => Ok(t),
        None => Err(ParseError::NoJson {
            preview: if reply.tool_calls.is_empty() {
                String::new()
            } else {
                format!("(no text: {} tool call(s))", reply.tool_calls.len())
            },
        }),
    }
}

/// The error of a reply cut by the token limit ([`Finish::Length`]) or a stream that ended
/// before its finish ([`Finish::Cut`]), `offset` bytes into the text.
pub(crate) fn truncated(provider: Provider, finish: &Finish, offset: usize) -> crate::ParseError {
    let expected = if *finish == Finish::Cut {
        format!("the rest of the reply (the {provider} stream ended before its finish)")
    } else {
        format!("the rest of the reply ({provider} stopped it at the token limit)")
    };
    crate::ParseError::Truncated { offset, expected }
}
