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

/// xgrammar.
pub(crate) const RULES: DialectRules = DialectRules {
    source: "xgrammar json_schema_converter (github.com/mlc-ai/xgrammar), xgrammar#749",
    unknown_keywords: Unknown::Warning,
    formats: FORMATS,
    lengths: Lengths::KeptWithoutPatternOrFormat,
    patterns: Patterns::SimpleOnly,
    patterns_in_items: true,
    integer_bounds: Bounds::NoMultipleOf,
    number_bounds: Bounds::NoMultipleOf,
    min_items: MinItems::Kept,
    max_items: true,
    const_kept: true,
    pattern_properties: true,
    tuples: true,
    root_object: false,
    root_union: RootUnion::AnyOf,
    closed_objects: false,
    all_required: false,
    typed_only: false,
    recursion: true,
    cycles_need_exit: false,
    shared_defs: true,
    ref_descriptions: true,
    property_ordering: false,
    limits: Limits::NONE,
};
