//! `Dialect::OpenAi`: OpenAI structured outputs in strict mode.
//!
//! Source: OpenAI's structured outputs guide, "Supported schemas" (every object closed, every
//! property required, `anyOf` but no root union, the string formats listed there, numeric and
//! array bounds, 5000 properties, 10 levels, 1000 enum values, 120,000 characters). Patterns
//! and numeric bounds are kept where a grammar engine compiles them (no lookaround,
//! backreference or word boundary, no bound beyond 2^62: llguidance, the oracle of the strict
//! dialects, refuses them); others move into the description, the validator still enforcing
//! them.

use crate::convert::dialect::table::*;

/// The string formats strict mode enforces.
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
];

/// OpenAI: total object properties.
pub const MAX_PROPERTIES: usize = 5000;
/// OpenAI: levels of object nesting (the root object is level 1).
pub const MAX_DEPTH: usize = 10;
/// OpenAI: total enum values.
pub const MAX_ENUM_VALUES: usize = 1000;
/// OpenAI: total characters of property names, enum values and const values.
pub const MAX_CHARS: usize = 120_000;

/// OpenAI strict.
pub(crate) const RULES: DialectRules = DialectRules {
    source: "OpenAI structured outputs guide, \"Supported schemas\" (platform.openai.com/docs/guides/structured-outputs)",
    unknown_keywords: Unknown::Error,
    formats: FORMATS,
    lengths: Lengths::Tagged,
    patterns: Patterns::SimpleOnly,
    patterns_in_items: true,
    integer_bounds: Bounds::All,
    number_bounds: Bounds::All,
    min_items: MinItems::Kept,
    max_items: true,
    const_kept: true,
    pattern_properties: false,
    pattern_properties_compiled: false,
    tuples: false,
    root_object: true,
    root_union: RootUnion::OneObject,
    closed_objects: true,
    all_required: true,
    typed_only: true,
    recursion: true,
    cycles_need_exit: false,
    shared_defs: true,
    ref_descriptions: true,
    property_ordering: false,
    limits: Limits {
        properties: Some(MAX_PROPERTIES),
        object_depth: Some(MAX_DEPTH),
        enum_values: Some(MAX_ENUM_VALUES),
        chars: Some(MAX_CHARS),
        optional_properties: None,
        unions: None,
    },
    bound_magnitude: Some(1 << 62),
    keeps_defs: false,
};
