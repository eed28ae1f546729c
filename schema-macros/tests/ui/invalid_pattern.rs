use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Code {
    #[schema(pattern = "^[A-Z]{2")]
    country: String,
    #[schema(pattern = "(?<=x)y")]
    lookbehind: String,
}

fn main() {}
