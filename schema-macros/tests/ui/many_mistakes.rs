use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(dialect = "openai", open)]
struct Report {
    #[schema(max_lenght = 10)]
    title: String,
    #[schema(minimum = 1, maximum = 0)]
    score: f64,
    #[schema(pattern = "(unclosed")]
    code: String,
    #[schema(max_items = 3)]
    summary: String,
    extra: std::collections::HashMap<String, String>,
}

fn main() {
    let _ = Report::typescript();
}
