use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Point(f64, f64);

fn main() {}
