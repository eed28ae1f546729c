use schema_core::AgentSchema;
use std::collections::HashMap;

#[derive(AgentSchema)]
#[schema(dialect = "openai")]
struct Scores {
    by_name: HashMap<String, f64>,
    nested: Vec<std::collections::BTreeMap<String, u32>>,
}

fn main() {}
