use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(dialect = "openai")]
struct Range {
    span: (u32, u32),
    pairs: Vec<(String, f64)>,
}

fn main() {}
