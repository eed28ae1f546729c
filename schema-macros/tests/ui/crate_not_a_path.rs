use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(crate = 5)]
struct Answer {
    text: String,
}

#[derive(AgentSchema)]
#[schema(crate = "not a path")]
struct Other {
    text: String,
}

fn main() {}
