use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(dialect = "open_ai")]
struct Answer {
    text: String,
}

#[derive(AgentSchema)]
#[schema(dialect = "claude")]
struct Other {
    text: String,
}

fn main() {}
