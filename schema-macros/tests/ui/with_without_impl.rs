use schema_core::AgentSchema;

struct Foreign;

#[derive(AgentSchema)]
struct Row {
    #[schema(with = "Foreign")]
    value: String,
}

fn main() {}
