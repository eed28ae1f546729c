//! The JSON Schema dialects that model servers accept.

use std::fmt;
use std::str::FromStr;

/// A JSON Schema dialect: full JSON Schema 2020-12, or the subset one model server accepts.
///
/// ```
/// use schema_core::Dialect;
/// assert_eq!("openai".parse::<Dialect>(), Ok(Dialect::OpenAi));
/// assert_eq!(Dialect::LmStudio.to_string(), "lmstudio");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Dialect {
    /// Standard JSON Schema 2020-12 with every constraint kept.
    JsonSchema,
    /// OpenAI structured outputs in strict mode (`response_format: json_schema`, `strict: true`).
    OpenAi,
    /// Anthropic structured outputs and strict tool use.
    Anthropic,
    /// Gemini `responseJsonSchema`.
    Gemini,
    /// LM Studio / llama.cpp grammar-constrained decoding (also vLLM, SGLang, Ollama).
    LmStudio,
}

impl Dialect {
    /// Every dialect, in a fixed order.
    pub const ALL: [Dialect; 5] = [
        Dialect::JsonSchema,
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::LmStudio,
    ];

    /// The short lowercase name, as accepted by `FromStr` and `#[schema(dialect = "...")]`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::JsonSchema => "jsonschema",
            Dialect::OpenAi => "openai",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::LmStudio => "lmstudio",
        }
    }

    /// Index into [`Dialect::ALL`].
    pub(crate) fn index(self) -> usize {
        match self {
            Dialect::JsonSchema => 0,
            Dialect::OpenAi => 1,
            Dialect::Anthropic => 2,
            Dialect::Gemini => 3,
            Dialect::LmStudio => 4,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Dialect`] name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDialect(pub String);

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown dialect `{}`: expected one of jsonschema, openai, anthropic, gemini, lmstudio",
            self.0
        )
    }
}

impl std::error::Error for UnknownDialect {}

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase().replace(['-', '_', ' '], "");
        Ok(match lower.as_str() {
            "jsonschema" | "standard" | "2020-12" => Dialect::JsonSchema,
            "openai" => Dialect::OpenAi,
            "anthropic" | "claude" => Dialect::Anthropic,
            "gemini" | "google" => Dialect::Gemini,
            "lmstudio" | "llamacpp" | "llama.cpp" => Dialect::LmStudio,
            _ => return Err(UnknownDialect(s.to_string())),
        })
    }
}
