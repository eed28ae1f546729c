use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Answer {
    #[schema(max_length = 10, max_length = 20)]
    short: String,
    #[schema(description = "first")]
    #[schema(description = "second")]
    long: String,
}

fn main() {}
