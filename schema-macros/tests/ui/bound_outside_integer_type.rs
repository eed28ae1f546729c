use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Level {
    #[schema(minimum = -1)]
    unsigned: u8,
    #[schema(maximum = 300)]
    small: u8,
    #[schema(exclusive_minimum = -1, exclusive_maximum = 256)]
    fine: u8,
    #[schema(exclusive_minimum = -2)]
    too_low: u8,
}

fn main() {}
