use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(open, open)]
#[schema(dialect = "gemini", dialect = "openai")]
struct Answer {
    text: String,
}

fn main() {}
