use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(open = true)]
struct Answer {
    #[schema(max_length)]
    text: String,
    #[schema(items = "short")]
    tags: Vec<String>,
}

fn main() {}
