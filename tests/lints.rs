//! Derives inside a crate that denies warnings, missing docs, needless qualification and
//! clippy's pedantic group: the generated code must never trip a user's lints. The workspace
//! clippy run (`cargo clippy --workspace --all-targets`) lints this file with these levels.
#![deny(warnings, missing_docs, unused_qualifications)]
#![deny(clippy::pedantic)]

use schema_core::{AgentSchema, Dialect};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A document, recursive, with every kind of field.
#[derive(AgentSchema, Deserialize)]
#[schema(description = "A document")]
pub struct Document {
    /// Title.
    #[schema(min_length = 1, max_length = 80, pattern = "^\\S")]
    pub title: String,
    /// Sections.
    #[schema(max_items = 10, items(description = "A section"))]
    pub sections: Vec<Document>,
    /// Labels.
    pub labels: BTreeMap<String, String>,
    /// Score.
    #[schema(minimum = 0.0, maximum = 1.0, example = 0.5)]
    pub score: Option<f64>,
    /// Count.
    #[schema(exclusive_minimum = 0, multiple_of = 2)]
    pub count: u32,
    /// Kind.
    pub kind: Kind,
    /// Skipped.
    #[serde(skip)]
    pub cache: Option<u8>,
}

/// A string enum.
#[derive(AgentSchema, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Plain.
    Plain,
    /// Rich text.
    RichText,
}

/// An internally tagged enum, as one object.
#[derive(AgentSchema, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[schema(one_object, tag_description = "The action")]
pub enum Action {
    /// Search.
    Search {
        /// Query.
        query: String,
    },
    /// Answer.
    Answer(Document),
}

/// A newtype with its own constraint.
#[derive(AgentSchema, Deserialize)]
#[schema(pattern = "^[a-z]+$")]
pub struct Slug(pub String);

/// A generic page.
#[derive(AgentSchema, Deserialize)]
pub struct Page<T> {
    /// Items.
    pub items: Vec<T>,
}

#[test]
fn derived_types_render_under_strict_lints() {
    let doc = Document::json_schema(Dialect::JsonSchema);
    assert_eq!(doc["properties"]["title"]["maxLength"], 80);
    assert_eq!(
        Slug::json_schema(Dialect::JsonSchema)["pattern"],
        "^[a-z]+$"
    );
    assert!(Action::typescript().contains("query"));
    // Documented unit variants render as `oneOf` consts with their descriptions.
    let items = &Page::<Kind>::json_schema(Dialect::JsonSchema)["properties"]["items"]["items"];
    assert_eq!(items["oneOf"][1]["const"], "rich_text");
    assert_eq!(items["oneOf"][1]["description"], "Rich text.");
}
