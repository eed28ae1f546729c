use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Step {
    #[schema(multiple_of = 0)]
    size: u32,
    #[schema(multiple_of = -0.5)]
    ratio: f64,
}

fn main() {}
