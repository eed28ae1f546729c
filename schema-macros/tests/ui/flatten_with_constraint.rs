use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
struct Inner {
    a: String,
}

#[derive(AgentSchema, Deserialize)]
struct Outer {
    #[serde(flatten)]
    #[schema(max_length = 3)]
    inner: Inner,
}

fn main() {}
