use schema_core::AgentSchema;

#[derive(AgentSchema, serde::Deserialize)]
#[serde(tag = "tool")]
#[schema(tools, one_object)]
enum Tools {
    Search { query: String },
}

#[derive(AgentSchema, serde::Deserialize)]
#[serde(tag = "tool")]
#[schema(tools = "yes")]
enum Valued {
    Search { query: String },
}

fn main() {}
