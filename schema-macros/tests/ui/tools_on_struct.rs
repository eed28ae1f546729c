use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(tools)]
struct Search {
    query: String,
}

fn main() {}
