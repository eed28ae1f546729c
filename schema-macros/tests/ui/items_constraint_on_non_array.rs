use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Plan {
    #[schema(max_items = 5)]
    title: String,
    #[schema(items(max_length = 30))]
    step: String,
    #[schema(unique_items)]
    count: u8,
}

fn main() {}
