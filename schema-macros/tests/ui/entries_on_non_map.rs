use schema_core::AgentSchema;
use std::collections::HashMap;

#[derive(AgentSchema)]
struct Stock {
    #[schema(entries)]
    counts: HashMap<String, u32>,
    #[schema(entries)]
    names: Vec<String>,
}

#[derive(AgentSchema)]
#[schema(entries)]
struct NotANewtype {
    a: u8,
}

fn main() {}
