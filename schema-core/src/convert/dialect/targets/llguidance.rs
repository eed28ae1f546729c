//! `Dialect::Llguidance`: the llguidance grammar engine (llama.cpp with `LLAMA_LLGUIDANCE`,
//! vLLM's and SGLang's `guidance` backend).
//!
//! Source: llguidance `docs/json_schema.md`: an unsupported keyword is an error; lookaround and
//! backreferences are not regular; properties are generated in schema order; `prefixItems`,
//! `$ref` recursion, numeric bounds, lengths and the formats of [`FORMATS`] are supported. Every derived
//! type and every corpus schema converted to this dialect is compiled by the `llguidance` crate
//! in the tests.

use crate::convert::dialect::table::*;

/// The string formats llguidance compiles (`lookup_format` in its `src/json/formats.rs`); any
/// other `format` fails the whole schema ("Unknown format"), so it is tagged.
pub(crate) const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
    "uri",
];

/// llguidance: what differs from standard JSON Schema ([`super::jsonschema`]).
pub(crate) const RULES: DialectRules = DialectRules {
    source: "llguidance docs/json_schema.md (github.com/guidance-ai/llguidance)",
    unknown_keywords: Unknown::Error,
    formats: FORMATS,
    // (a length beside a `pattern` or `format` is intersected with it as a regular expression,
    // and llguidance gives up on many: `minLength: 99` beside `^([a-z][0-9])+$`, any length
    // beside `((c1d3g3).{4,8}){6}`, "Unable to determine if regex is empty")
    lengths: Lengths::KeptWithoutPatternOrFormat,
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
