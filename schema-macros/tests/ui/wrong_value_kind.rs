use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Answer {
    #[schema(max_length = "ten")]
    text: String,
    #[schema(description = 5)]
    note: String,
    #[schema(minimum = "zero")]
    score: u32,
    #[schema(min_items = -1, unique_items = "yes")]
    tags: Vec<String>,
}

fn main() {}
