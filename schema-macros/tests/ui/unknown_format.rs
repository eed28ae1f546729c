use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Event {
    #[schema(format = "datetime")]
    at: String,
    #[schema(format = "colour")]
    color: String,
}

fn main() {}
