//! `Dialect::Anthropic`: Anthropic structured outputs and strict tool use.
//!
//! Source: Anthropic's structured outputs documentation, "JSON Schema limitations" (closed
//! objects, no recursion, simple regexes only, no numeric bounds, `minItems` 0 or 1, the string
//! formats listed there, 24 optional properties and 16 unions per request).

use crate::convert::dialect::table::*;

/// Anthropic: optional properties (per request).
pub const MAX_OPTIONAL: usize = 24;
/// Anthropic: unions (`anyOf`, and type arrays) (per request).
pub const MAX_UNIONS: usize = 16;

/// Anthropic strict.
pub(crate) const RULES: DialectRules = DialectRules {
    source: "Anthropic structured outputs docs, \"JSON Schema limitations\" (docs.claude.com)",
    unknown_keywords: Unknown::Error,
    formats: &[
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
    ],
    lengths: Lengths::Tagged,
    patterns: Patterns::SimpleOnly,
    patterns_in_items: true,
    integer_bounds: Bounds::None,
    number_bounds: Bounds::None,
    min_items: MinItems::ZeroOrOne,
    max_items: false,
    const_kept: true,
    pattern_properties: false,
    pattern_properties_compiled: false,
    tuples: false,
    root_object: true,
    root_union: RootUnion::OneObject,
    closed_objects: true,
    all_required: false,
    typed_only: false,
    recursion: false,
    cycles_need_exit: false,
    shared_defs: true,
    ref_descriptions: false,
    property_ordering: false,
    limits: Limits {
        properties: None,
        object_depth: None,
        enum_values: None,
        chars: None,
        optional_properties: Some(MAX_OPTIONAL),
        unions: Some(MAX_UNIONS),
    },
    bound_magnitude: None,
    keeps_defs: false,
};
