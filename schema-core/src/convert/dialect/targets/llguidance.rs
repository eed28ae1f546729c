//! `Dialect::Llguidance`: the llguidance grammar engine (llama.cpp with `LLAMA_LLGUIDANCE`,
//! vLLM's and SGLang's `guidance` backend).
//!
//! Source: llguidance `docs/json_schema.md`: an unsupported keyword is an error; lookaround and
//! backreferences are not regular; properties are generated in schema order; `prefixItems`,
//! `$ref` recursion, numeric bounds, lengths and the listed formats are supported. Every derived
//! type and every corpus schema converted to this dialect is compiled by the `llguidance` crate
//! in the tests.

use crate::convert::dialect::table::*;

/// llguidance: what differs from standard JSON Schema ([`super::jsonschema`]).
pub(crate) const RULES: DialectRules = DialectRules {
    source: "llguidance docs/json_schema.md (github.com/guidance-ai/llguidance)",
    unknown_keywords: Unknown::Error,
    // The same list as OpenAI strict's.
    formats: super::openai::FORMATS,
    patterns: Patterns::SimpleOnly,
    number_bounds: Bounds::NoMultipleOf,
    pattern_properties: false,
    root_union: RootUnion::AnyOf,
    // (its integer and number ranges are regular expressions built in 64-bit arithmetic:
    // `minimum: -2^63` overflows, 2^62 compiles)
    bound_magnitude: Some(1 << 62),
    // (a `$ref` is compiled once: a shared type whose copies would blow up stays shared)
    keeps_defs: true,
    ..super::jsonschema::RULES
};
