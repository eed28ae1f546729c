use schema_core::AgentSchema;

#[derive(AgentSchema)]
enum Level {
    #[schema(max_length = 3)]
    Low,
    High,
}

fn main() {}
