//! Cross-checks of `schema-core` against engines we did not write: the tests, examples and benches
//! of this package use llguidance, jsonschema, tiktoken-rs, proptest and criterion.
