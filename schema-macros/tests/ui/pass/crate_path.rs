//! `#[schema(crate = "...")]` names the runtime when it is reached through a re-export.

mod reexport {
    pub use schema_core;
}

use reexport::schema_core::{AgentSchema, Dialect};

#[derive(AgentSchema)]
#[schema(crate = "crate::reexport::schema_core")]
struct Answer {
    text: String,
}

fn main() {
    let s = Answer::json_schema(Dialect::JsonSchema);
    assert_eq!(s["properties"]["text"]["type"], "string");
}
