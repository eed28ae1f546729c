use schema_core::AgentSchema;

// Arrays, blocks and closures are not values of any key: each is reported on its own span like any
// other unusable expression (syn is built without "full", which cannot parse them itself).
#[derive(AgentSchema)]
struct Answer {
    #[schema(max_length = [1, 2], description = "kept")]
    text: String,
    #[schema(max_items = { 3 })]
    tags: Vec<String>,
    #[schema(example = |x| x)]
    score: u32,
}

fn main() {}
