use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(max_length = 10)]
struct Answer {
    text: String,
}

fn main() {}
