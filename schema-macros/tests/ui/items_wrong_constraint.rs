use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Plan {
    #[schema(items(maximum = 30))]
    steps: Vec<String>,
}

fn main() {}
