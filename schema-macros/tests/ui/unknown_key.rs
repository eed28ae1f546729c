use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Language {
    #[schema(max_lenght = 10)]
    lang_code: String,
}

fn main() {
    // The stand-in impl keeps uses of the type free of follow-on errors.
    let _ = Language::typescript();
}
