use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(tools)]
enum Tools {
    Stop,
    Wait,
}

#[derive(AgentSchema)]
#[schema(tools)]
enum WithData {
    Search { query: String },
}

fn main() {}
