//! `Dialect::JsonSchema`: standard JSON Schema 2020-12. Nothing is converted (the input is only
//! checked and returned); the table says so, for the README.

use crate::convert::dialect::table::*;

/// Everything kept, nothing required of the shape.
pub(crate) const RULES: DialectRules = DialectRules {
    source: "JSON Schema 2020-12 (json-schema.org/draft/2020-12)",
    unknown_keywords: Unknown::NotApplicable,
    formats: &[],
    lengths: Lengths::Kept,
    patterns: Patterns::Kept,
    patterns_in_items: true,
    integer_bounds: Bounds::All,
    number_bounds: Bounds::All,
    min_items: MinItems::Kept,
    max_items: true,
    const_kept: true,
    pattern_properties: true,
    pattern_properties_compiled: false,
    tuples: true,
    root_object: false,
    root_union: RootUnion::Kept,
    closed_objects: false,
    all_required: false,
    typed_only: false,
    recursion: true,
    cycles_need_exit: false,
    shared_defs: true,
    ref_descriptions: true,
    property_ordering: false,
    limits: Limits::NONE,
    bound_magnitude: None,
    keeps_defs: false,
};
