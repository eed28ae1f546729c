use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Config {
    #[schema(open)]
    name: String,
}

fn main() {}
