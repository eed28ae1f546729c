//! `Dialect::LlamaCpp` (and `Dialect::LmStudio`, which sends schemas to the same converter):
//! llama.cpp's `json-schema-to-grammar`.
//!
//! Source: llama.cpp `grammars/README.md` ("JSON Schemas → GBNF": supported keywords, unsupported
//! ones ignored silently, `prefixItems` listed as broken) and `common/json-schema-to-grammar.cpp`;
//! measured end to end with `llama-server` (`scripts/e2e-llama.sh`): a root `anyOf` of closed variant objects
//! converts and gives valid replies where the one-object merge let the model fill several
//! variants; a `pattern` inside array items converts exactly. Repetition counts above 1000 blow
//! up the grammar, so longer lengths are tagged. Number (non-integer) bounds are not converted.
//! A pattern not anchored at both ends (`^...$`) or using lookaround is not converted: the
//! server logs "not anchored with '^' and '$'" or "unsupported group syntax" and accepts any
//! string (probed against `llama-server`), so such patterns are tagged.

use crate::convert::dialect::table::*;

/// The most `maxLength` / `minLength` kept: larger repetition counts blow up the grammar.
pub(crate) const MAX_LENGTH: u64 = 1000;

/// llama.cpp: what differs from standard JSON Schema ([`super::jsonschema`]).
pub(crate) const RULES: DialectRules = DialectRules {    source: "llama.cpp grammars/README.md and common/json-schema-to-grammar.cpp; llama-server measured (scripts/e2e-llama.sh)",
    unknown_keywords: Unknown::Ignored,
    formats: &["date", "time", "date-time", "uuid"],
    // (its converter reads a string's `pattern`, else its `format`, else its lengths: lengths
    // beside the others are not enforced; llguidance, which compiles these outputs too, cannot
    // always intersect them)
    lengths: Lengths::KeptUpToWithoutPatternOrFormat(MAX_LENGTH),
    patterns: Patterns::AnchoredSimple,
    number_bounds: Bounds::None,
    root_object: false,
    root_union: RootUnion::AnyOf,
    // (its outputs also compile in llguidance, which takes only disjoint patterns)
    pattern_properties_compiled: true,
    // (llama.cpp built with `LLAMA_LLGUIDANCE` hands the schema to llguidance, which builds
    // integer ranges in 64-bit arithmetic and fails beyond 2^62)
    bound_magnitude: Some(1 << 62),
    // (LM Studio's grammars break on nested references: shared types are inlined, even with
    // `keep_defs`, unless their copies would blow the output up, which llguidance, behind
    // llama.cpp's `LLAMA_LLGUIDANCE` build, then refuses as "schema too large"; a `$ref` is one
    // grammar rule in llama.cpp's converter)
    shared_defs: false,
    keeps_defs: true,
    ..super::jsonschema::RULES
};
