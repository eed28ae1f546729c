use schema_core::AgentSchema;

#[derive(AgentSchema)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
