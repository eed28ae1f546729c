use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(dialect = "openai", open)]
struct Loose {
    name: String,
}

fn main() {}
