//! `Dialect::Llguidance`: the llguidance grammar engine (llama.cpp with `LLAMA_LLGUIDANCE`,
//! vLLM's and SGLang's `guidance` backend).
//!
//! Source: llguidance `docs/json_schema.md`: an unsupported keyword is an error; lookaround and
//! backreferences are not regular; properties are generated in schema order; `prefixItems`,
//! `$ref` recursion, numeric bounds, lengths and the listed formats are supported. Every derived
//! type and every corpus schema converted to this dialect is compiled by the `llguidance` crate
//! in the tests.

use crate::convert::dialect::table::*;

/// llguidance.
pub(crate) const RULES: DialectRules = DialectRules {
    source: "llguidance docs/json_schema.md (github.com/guidance-ai/llguidance)",
    unknown_keywords: Unknown::Error,
    // The same list as OpenAI strict's.
    formats: super::openai::FORMATS,
    lengths: Lengths::Kept,
    patterns: Patterns::SimpleOnly,
    patterns_in_items: true,
    integer_bounds: Bounds::All,
    number_bounds: Bounds::NoMultipleOf,
    min_items: MinItems::Kept,
    max_items: true,
    const_kept: true,
    pattern_properties: false,
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
