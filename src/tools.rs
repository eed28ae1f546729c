//! A tool set written as a Rust enum (seed 001's function calling, seed 003's tools): each
//! variant one tool, its fields the tool's parameters.

use schema_core::AgentSchema;
use serde::{Deserialize, Serialize};

/// Arguments of the `web_search` tool.
#[derive(AgentSchema, Deserialize, Serialize, Debug, Clone, PartialEq)]
pub struct SearchArgs {
    /// The search query
    #[schema(min_length = 1, max_length = 200)]
    pub query: String,
    /// How many results to return
    #[schema(minimum = 1, maximum = 20)]
    pub limit: Option<u8>,
}

/// Where `read_file` reads from.
#[derive(AgentSchema, Deserialize, Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// UTF-8 text
    Utf8,
    /// Base64 of the raw bytes
    Base64,
}

/// The tools an agent may call.
#[derive(AgentSchema, Deserialize, Serialize, Debug, Clone, PartialEq)]
#[serde(tag = "tool", rename_all = "snake_case")]
#[schema(tools)]
pub enum AgentTool {
    /// Search the web and return the top results
    WebSearch(SearchArgs),
    /// Read a file from the workspace
    ReadFile {
        /// Path relative to the workspace root
        #[schema(max_length = 300)]
        path: String,
        /// How to return the content
        encoding: Option<Encoding>,
    },
    /// Write a file in the workspace, replacing it
    WriteFile {
        /// Path relative to the workspace root
        path: String,
        /// The new content
        content: String,
    },
    /// Run a shell command and return its output
    RunCommand {
        /// The command line
        command: String,
        /// Seconds before the command is stopped
        #[schema(minimum = 1, maximum = 600)]
        timeout_secs: Option<u32>,
    },
    /// Finish the task with an answer for the user
    #[serde(rename = "final_answer")]
    Answer {
        /// The answer, in Markdown
        text: String,
        /// URLs the answer relies on
        #[schema(max_items = 10)]
        sources: Vec<String>,
    },
}
