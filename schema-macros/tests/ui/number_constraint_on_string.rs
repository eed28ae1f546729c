use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Name {
    #[schema(maximum = 30)]
    first: String,
    #[schema(multiple_of = 2)]
    last: Option<String>,
}

fn main() {}
