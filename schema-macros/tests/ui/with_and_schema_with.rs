use schema_core::{model::Type, AgentSchema};

fn custom() -> &'static Type {
    <String as AgentSchema>::schema_type()
}

#[derive(AgentSchema)]
struct Row {
    #[schema(with = "String", schema_with = "custom")]
    value: u32,
    #[schema(with = "u32", max_length = 3)]
    count: String,
}

fn main() {}
