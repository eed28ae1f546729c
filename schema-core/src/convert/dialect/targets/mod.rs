//! One file per target: its rule table ([`DialectRules`](super::DialectRules)) and where the
//! rules come from. Adding a target is a new file here, a `Dialect` variant, and its tests.

pub(crate) mod anthropic;
pub(crate) mod gemini;
pub(crate) mod jsonschema;
pub(crate) mod llamacpp;
pub(crate) mod llguidance;
pub(crate) mod ollama;
pub(crate) mod openai;
pub(crate) mod vllm;
pub(crate) mod xgrammar;
