//! `Dialect::Xgrammar`: the xgrammar engine (SGLang's default, vLLM's `xgrammar` backend).
//!
//! Source: xgrammar's JSON Schema converter (`json_schema_converter`) and xgrammar#749: an
//! unsupported keyword is ignored with a warning; `minLength` / `maxLength` are dropped on a
//! string that also has a `pattern` or a `format` (so they are tagged there); `multipleOf` is
//! not enforced; lookaround is not supported in patterns.

use crate::convert::dialect::table::*;

/// The string formats xgrammar and vLLM accept.
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
    "uri-reference",
    "uri-template",
];

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
    // (a `$ref` is compiled once: a shared type whose copies would blow up stays shared)
    keeps_defs: true,
    ..super::jsonschema::RULES
};
