use schema_core::AgentSchema;

#[derive(AgentSchema, serde::Deserialize)]
#[serde(tag = "tool")]
#[schema(tools)]
enum Tools {
    Search { query: String },
    Move(i32, i32),
}

fn main() {}
