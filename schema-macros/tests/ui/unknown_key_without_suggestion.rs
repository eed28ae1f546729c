use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Language {
    #[schema(colour = "red")]
    lang_code: String,
}

fn main() {}
