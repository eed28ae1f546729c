use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Score {
    #[schema(max_length = 3)]
    value: u32,
    #[schema(pattern = "^[0-9]+$")]
    ratio: f64,
}

fn main() {}
