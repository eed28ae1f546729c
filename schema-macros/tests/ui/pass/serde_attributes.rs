//! The serde attributes the derive honours, read back from the rendered schema.

use schema_core::{AgentSchema, Dialect};
use serde::Deserialize;
use serde_json::json;

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
enum Event {
    /// A click.
    UserClick { screen_x: u32 },
    #[serde(rename_all = "UPPERCASE")]
    KeyPress { key_code: u32 },
    #[serde(rename = "other")]
    Misc,
    #[serde(skip_deserializing)]
    #[allow(dead_code)]
    Internal,
}

#[derive(AgentSchema, Deserialize, Default)]
#[serde(default)]
struct Settings {
    verbose: bool,
    #[serde(rename(deserialize = "lvl", serialize = "level"))]
    level: u8,
}

#[derive(AgentSchema, Deserialize)]
#[serde(transparent)]
struct Wrapper {
    #[schema(max_length = 5)]
    inner: String,
}

fn main() {
    let e = Event::json_schema(Dialect::JsonSchema);
    let text = e.to_string();
    assert!(text.contains(r#""const":"user-click""#), "{text}");
    assert!(text.contains(r#""screenX""#), "{text}");
    assert!(text.contains(r#""KEY_CODE""#), "{text}");
    assert!(text.contains(r#""const":"other""#), "{text}");
    assert!(!text.contains("internal"), "{text}");

    let s = Settings::json_schema(Dialect::JsonSchema);
    assert!(s["properties"].get("lvl").is_some());
    assert_eq!(s.get("required").cloned().unwrap_or(json!([])), json!([]));

    let w = Wrapper::json_schema(Dialect::JsonSchema);
    assert_eq!(w["type"], "string");
    assert_eq!(w["maxLength"], 5);
}
