use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Reply {
    #[schema(const = 1)]
    kind: String,
    #[schema(const = 1.5)]
    version: u32,
    #[schema(const = "yes")]
    ok: bool,
}

fn main() {}
