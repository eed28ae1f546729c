//! Generated code must not trip a user's strictest lints.
#![deny(warnings, missing_docs, unused_qualifications)]
#![deny(rust_2018_idioms, unreachable_pub, unused_results, trivial_casts, unused_extern_crates)]

use schema_core::AgentSchema;
use serde::Deserialize;
use std::collections::BTreeMap;

/// A public struct with every kind of field.
#[derive(AgentSchema, Deserialize)]
#[schema(description = "A document")]
pub struct Document {
    /// Title.
    #[schema(max_length = 80)]
    pub title: String,
    /// Sections, recursively.
    pub sections: Vec<Document>,
    /// Free-form labels.
    pub labels: BTreeMap<String, String>,
    /// Optional score.
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub score: Option<f64>,
    /// Kind.
    pub kind: Kind,
}

/// A string enum.
#[derive(AgentSchema, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Plain.
    Plain,
    /// Rich.
    RichText,
}

/// An internally tagged enum.
#[derive(AgentSchema, Deserialize)]
#[serde(tag = "type")]
pub enum Action {
    /// Search.
    Search {
        /// Query.
        query: String,
    },
    /// Answer.
    Answer(Document),
}

/// A newtype.
#[derive(AgentSchema, Deserialize)]
#[schema(pattern = "^[a-z]+$")]
pub struct Slug(pub String);

/// A generic wrapper.
#[derive(AgentSchema, Deserialize)]
pub struct Page<T> {
    /// Items.
    pub items: Vec<T>,
}

fn main() {
    let _ = Document::typescript();
    let _ = Action::typescript();
    let _ = Slug::typescript();
    let _ = Page::<Kind>::typescript();
}
