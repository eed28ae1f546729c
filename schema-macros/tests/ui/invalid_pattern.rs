use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Code {
    #[schema(pattern = "^[A-Z]{2")]
    country: String,
    #[schema(pattern = "[z-a]")]
    reversed_range: String,
    // Valid ECMA-262 (look-behind), so no error here.
    #[schema(pattern = "(?<=x)y")]
    lookbehind: String,
}

fn main() {}
