use schema_core::AgentSchema;

const KIND: &str = "answer";

#[derive(AgentSchema)]
struct Reply {
    #[schema(const = KIND)]
    kind: String,
    #[schema(const = 1 + 1)]
    version: u32,
    #[schema(example = vec![1])]
    sample: u32,
}

fn main() {}
