//! One file per target: its rule table ([`DialectRules`](super::DialectRules)) and where the
//! rules come from. Adding a target is a new file here, a `Dialect` variant, and its tests. The
//! engine tables (`llguidance`, `xgrammar`, `llamacpp`) write only what differs from standard
//! JSON Schema (`jsonschema`, everything kept); `ollama` and `vllm` only what differs from the
//! engine they run on.

pub(crate) mod anthropic;
pub(crate) mod gemini;
pub(crate) mod jsonschema;
pub(crate) mod llamacpp;
pub(crate) mod llguidance;
pub(crate) mod ollama;
pub(crate) mod openai;
pub(crate) mod vllm;
pub(crate) mod xgrammar;
