use schema_core::AgentSchema;

#[derive(AgentSchema)]
#[schema(dialect = "anthropic")]
struct Tree {
    label: String,
    children: Vec<Tree>,
    parent: Option<Box<Self>>,
}

fn main() {}
