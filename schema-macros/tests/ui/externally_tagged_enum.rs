use schema_core::AgentSchema;

#[derive(AgentSchema)]
enum Value {
    Empty,
    Text { text: String },
    Number(f64),
}

fn main() {}
