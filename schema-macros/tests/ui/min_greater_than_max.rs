use schema_core::AgentSchema;

#[derive(AgentSchema)]
struct Bounds {
    #[schema(min_length = 10, max_length = 5)]
    text: String,
    #[schema(min_items = 3, max_items = 2)]
    list: Vec<String>,
    #[schema(minimum = 10, maximum = 1)]
    inclusive: i32,
    #[schema(exclusive_minimum = 5, exclusive_maximum = 5)]
    exclusive: i32,
    #[schema(minimum = 5, exclusive_maximum = 5)]
    upper_exclusive: f64,
    #[schema(exclusive_minimum = 5.5, maximum = 5.5)]
    lower_exclusive: f64,
    #[schema(items(min_length = 4, max_length = 2))]
    items: Vec<String>,
}

fn main() {}
