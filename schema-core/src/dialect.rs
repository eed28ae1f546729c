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
    /// LM Studio: its `response_format` goes to llama.cpp's `json-schema-to-grammar`, so it
    /// follows exactly the rules of [`Dialect::LlamaCpp`] (a separate variant only so that its
    /// name, `"lmstudio"`, stays what it was).
    LmStudio,
    /// The llguidance grammar engine (llama.cpp built with llguidance, vLLM's and SGLang's
    /// `guidance` backend); rules from llguidance's `docs/json_schema.md`.
    Llguidance,
    /// The xgrammar engine (SGLang's default, vLLM's `xgrammar` backend); rules from xgrammar's
    /// JSON Schema converter.
    Xgrammar,
    /// llama.cpp's `json-schema-to-grammar` (`llama-server`'s `response_format` and
    /// `json_schema`); rules from llama.cpp's `grammars/README.md`.
    LlamaCpp,
    /// Ollama's structured outputs (`format`), converted by llama.cpp's `json-schema-to-grammar`.
    Ollama,
    /// vLLM with the xgrammar backend: xgrammar's rules, and vLLM refuses what xgrammar would
    /// ignore.
    Vllm,
}

impl Dialect {
    /// Standard JSON Schema and the four provider dialects (OpenAI, Anthropic, Gemini,
    /// LM Studio), in a fixed order; [`Dialect::EVERY`] adds the engine dialects.
    pub const STANDARD_AND_PROVIDERS: [Dialect; 5] = [
        Dialect::JsonSchema,
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::LmStudio,
    ];

    /// The constrained-decoding engines, in a fixed order.
    pub const ENGINES: [Dialect; 5] = [
        Dialect::Llguidance,
        Dialect::Xgrammar,
        Dialect::LlamaCpp,
        Dialect::Ollama,
        Dialect::Vllm,
    ];

    /// Every dialect, in the order of [`Dialect::EVERY`] (the same list under the name most
    /// enums of the ecosystem use).
    pub const ALL: [Dialect; 10] = Dialect::EVERY;

    /// Every dialect: [`Dialect::STANDARD_AND_PROVIDERS`] then [`Dialect::ENGINES`].
    pub const EVERY: [Dialect; 10] = [
        Dialect::JsonSchema,
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::LmStudio,
        Dialect::Llguidance,
        Dialect::Xgrammar,
        Dialect::LlamaCpp,
        Dialect::Ollama,
        Dialect::Vllm,
    ];

    /// The rule table the converter follows for this dialect.
    ///
    /// ```
    /// use schema_core::Dialect;
    /// assert!(Dialect::OpenAi.rules().all_required);
    /// assert_eq!(Dialect::LmStudio.rules(), Dialect::LlamaCpp.rules());
    /// ```
    pub fn rules(self) -> &'static crate::convert::DialectRules {
        crate::convert::rules(self)
    }

    /// The short lowercase name, as accepted by `FromStr` and `#[schema(dialect = "...")]`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::JsonSchema => "jsonschema",
            Dialect::OpenAi => "openai",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::LmStudio => "lmstudio",
            Dialect::Llguidance => "llguidance",
            Dialect::Xgrammar => "xgrammar",
            Dialect::LlamaCpp => "llamacpp",
            Dialect::Ollama => "ollama",
            Dialect::Vllm => "vllm",
        }
    }

    /// Index into [`Dialect::EVERY`].
    pub(crate) fn index(self) -> usize {
        match self {
            Dialect::JsonSchema => 0,
            Dialect::OpenAi => 1,
            Dialect::Anthropic => 2,
            Dialect::Gemini => 3,
            Dialect::LmStudio => 4,
            Dialect::Llguidance => 5,
            Dialect::Xgrammar => 6,
            Dialect::LlamaCpp => 7,
            Dialect::Ollama => 8,
            Dialect::Vllm => 9,
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
            "unknown dialect `{}`: expected one of jsonschema, openai, anthropic, gemini, lmstudio, llguidance, xgrammar, llamacpp, ollama, vllm",
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
            "lmstudio" => Dialect::LmStudio,
            "llamacpp" | "llama.cpp" => Dialect::LlamaCpp,
            "llguidance" | "guidance" => Dialect::Llguidance,
            "xgrammar" | "sglang" => Dialect::Xgrammar,
            "ollama" => Dialect::Ollama,
            "vllm" => Dialect::Vllm,
            _ => return Err(UnknownDialect(s.to_string())),
        })
    }
}
