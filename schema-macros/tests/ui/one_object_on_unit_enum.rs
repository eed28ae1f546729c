use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(one_object, tag_description = "which")]
enum Mode {
    Fast,
    Slow,
}

#[derive(AgentSchema)]
#[schema(one_object)]
struct Plain {
    text: String,
}

fn main() {}
