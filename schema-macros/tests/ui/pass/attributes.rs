//! Every `#[schema]` key, read back from the rendered schema.

use schema_core::{AgentSchema, Dialect};
use serde::Deserialize;
use serde_json::json;

/// Not rendered: container doc comments are for Rust readers.
#[derive(AgentSchema, Deserialize)]
#[schema(title = "Report", description = "A report")]
#[serde(rename_all = "camelCase")]
struct Report {
    /// The headline.
    #[schema(min_length = 1, max_length = 80, example = "Rain tomorrow")]
    head_line: String,
    #[schema(pattern = "^[A-Z]{2}$", title = "Country")]
    country: String,
    #[schema(format = "date-time")]
    at: String,
    #[schema(minimum = 0, maximum = 100, multiple_of = 5)]
    score: u8,
    #[schema(exclusive_minimum = 0.0, exclusive_maximum = 1.0)]
    ratio: f64,
    #[schema(min_items = 1, max_items = 3, unique_items, items(max_length = 30))]
    tags: Vec<String>,
    #[schema(const = "v1", description = "Always v1")]
    version: String,
    #[serde(skip)]
    #[allow(dead_code)]
    cache: u64,
}

fn main() {
    let s = Report::json_schema(Dialect::JsonSchema);
    let p = &s["properties"];
    assert_eq!(s["title"], "Report");
    assert_eq!(s["description"], "A report");
    assert_eq!(p["headLine"]["description"], "The headline.");
    assert_eq!(p["headLine"]["minLength"], 1);
    assert_eq!(p["headLine"]["maxLength"], 80);
    assert_eq!(p["headLine"]["examples"], json!(["Rain tomorrow"]));
    assert_eq!(p["country"]["pattern"], "^[A-Z]{2}$");
    assert_eq!(p["country"]["title"], "Country");
    assert_eq!(p["at"]["format"], "date-time");
    assert_eq!(p["score"]["maximum"], 100);
    assert_eq!(p["score"]["multipleOf"], 5);
    assert_eq!(p["ratio"]["exclusiveMaximum"], 1.0);
    assert_eq!(p["tags"]["maxItems"], 3);
    assert_eq!(p["tags"]["uniqueItems"], true);
    assert_eq!(p["tags"]["items"]["maxLength"], 30);
    assert_eq!(p["version"]["const"], "v1");
    assert!(p.get("cache").is_none());
}
