//! The fast path: deserializing straight into the typed value while checking the schema.
