//! `Dialect::Xgrammar`: the xgrammar engine (SGLang's default, vLLM's `xgrammar` backend).
//!
//! Source: xgrammar's JSON Schema converter (`json_schema_converter`) and xgrammar#749: an
//! unsupported keyword is ignored with a warning; `minLength` / `maxLength` are dropped on a
//! string that also has a `pattern` or a `format` (so they are tagged there); `multipleOf` is
//! not enforced; lookaround is not supported in patterns. Its outputs also compile in llguidance
//! (the formats of [`FORMATS`]).

use crate::convert::dialect::table::*;

/// The string formats an xgrammar output keeps: those xgrammar's converter knows (its
/// `json_schema_converter.cc` builds a regex for `date-time`, `time`, `date`, `duration`,
/// `email`, `hostname`, `ipv4`, `ipv6`, `uuid`, `uri`, `uri-reference` and `uri-template`) that
/// llguidance also compiles ([`super::llguidance::FORMATS`], which xgrammar knows every one of).
/// `uri-reference` and `uri-template` are tagged: llguidance refuses the whole schema for a
/// format it does not know, and an xgrammar output must compile there too (vLLM's `auto`
/// backend hands a schema to llguidance when xgrammar cannot take it; SGLang runs either).
pub(crate) const FORMATS: &[&str] = super::llguidance::FORMATS;

/// xgrammar: what differs from standard JSON Schema ([`super::jsonschema`]).
pub(crate) const RULES: DialectRules = DialectRules {
    source: "xgrammar json_schema_converter (github.com/mlc-ai/xgrammar), xgrammar#749",
    unknown_keywords: Unknown::Warning,
    formats: FORMATS,
    lengths: Lengths::KeptWithoutPatternOrFormat,
    patterns: Patterns::SimpleOnly,
    integer_bounds: Bounds::NoMultipleOf,
    number_bounds: Bounds::NoMultipleOf,
    root_union: RootUnion::AnyOf,
    // (its outputs also compile in llguidance, which takes only disjoint patterns)
    pattern_properties_compiled: true,
    // (full-range `i64` / `f64` bounds: llguidance, which also compiles these outputs, builds
    // ranges in 64-bit arithmetic and fails beyond 2^62)
    bound_magnitude: Some(1 << 62),
    // (a `$ref` is compiled once: a shared type whose copies would blow up stays shared)
    keeps_defs: true,
    ..super::jsonschema::RULES
};
