use schema_core::AgentSchema;

#[derive(AgentSchema)]
enum Never {}

fn main() {}
