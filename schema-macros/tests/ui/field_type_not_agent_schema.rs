use schema_core::AgentSchema;

struct Opaque;

#[derive(AgentSchema)]
struct Holder {
    name: String,
    inner: Opaque,
    many: Vec<Opaque>,
}

fn main() {}
