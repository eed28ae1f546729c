//! `Dialect::Ollama`: Ollama's structured outputs (`format` set to a JSON Schema).
//!
//! Source: Ollama's structured outputs documentation (docs/api.md, `format`) and its server,
//! which turns the schema into a grammar with llama.cpp's `json-schema-to-grammar`: the rules
//! are llama.cpp's ([`super::llamacpp`]).

use crate::convert::dialect::table::*;

/// Ollama: llama.cpp's converter behind Ollama's API.
pub(crate) const RULES: DialectRules = DialectRules {
    source: "Ollama docs/api.md (`format`: JSON Schema), converted by llama.cpp's json-schema-to-grammar",
    ..super::llamacpp::RULES
};
