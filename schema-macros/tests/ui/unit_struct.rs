use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Nothing;

fn main() {}
