//! `Dialect::Vllm`: vLLM's structured outputs with the xgrammar backend.
//!
//! Source: vLLM `v1/structured_output/backend_xgrammar.py`
//! (`has_xgrammar_unsupported_json_features`): vLLM refuses a schema with anything xgrammar would
//! ignore — `multipleOf`, `uniqueItems` / `contains`, a `format` xgrammar does not know,
//! `minProperties` / `maxProperties` / `propertyNames` / `patternProperties`. The rules are
//! xgrammar's ([`super::xgrammar`]) with those refused keywords tagged or dropped.

use crate::convert::dialect::table::*;

/// vLLM (xgrammar backend).
pub(crate) const RULES: DialectRules = DialectRules {
    source:
        "vLLM v1/structured_output/backend_xgrammar.py (has_xgrammar_unsupported_json_features)",
    unknown_keywords: Unknown::Error,
    pattern_properties: false,
    ..super::xgrammar::RULES
};
