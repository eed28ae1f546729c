//! `Dialect::Gemini`: Gemini `responseJsonSchema`.
//!
//! Source: the Gemini API structured output guide (ai.google.dev/gemini-api/docs/structured-output):
//! `propertyOrdering`, `minimum` / `maximum` only, `const` not honoured, three date formats,
//! recursion allowed only through optional properties; any type at the root (the guide's own
//! example asks for `list[Recipe]`).

use crate::convert::dialect::table::*;

/// Gemini.
pub(crate) const RULES: DialectRules = DialectRules {
    source: "Gemini API structured output guide (ai.google.dev/gemini-api/docs/structured-output)",
    unknown_keywords: Unknown::Error,
    formats: &["date-time", "date", "time"],
    lengths: Lengths::Tagged,
    patterns: Patterns::Tagged,
    patterns_in_items: true,
    integer_bounds: Bounds::Plain,
    number_bounds: Bounds::Plain,
    min_items: MinItems::Kept,
    max_items: true,
    const_kept: false,
    pattern_properties: false,
    pattern_properties_compiled: false,
    tuples: true,
    root_object: false,
    root_union: RootUnion::OneObject,
    closed_objects: false,
    all_required: false,
    typed_only: false,
    recursion: true,
    cycles_need_exit: true,
    shared_defs: true,
    ref_descriptions: true,
    property_ordering: true,
    limits: Limits::NONE,
    bound_magnitude: None,
    keeps_defs: false,
};
