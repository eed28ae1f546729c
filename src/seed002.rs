//! Seed 002: the multi-source search layer (`search.py`: Exa + Tavily + Grok, intent-aware
//! scoring).
//!
//! Two shapes come from the seed:
//!
//! - [`GrokReply`]: what the seed's Grok client asks its model for and receives, often wrapped in
//!   prose or a code fence: `{"results": [{title, url, snippet, published_date}]}`. The seed
//!   keeps a result only if its url is `http` or `https` with a host; here that rule is part of
//!   the schema (`format: uri` and a pattern), so a bad url is an error the model can be told about.
//! - [`SearchOutput`]: what `search.py` prints, `{mode, intent, queries, count, results, answer,
//!   freshness_filter}`, after merging, deduplicating and scoring the sources' results. The
//!   `--extract-refs` output (`refs`) is not modelled.

use schema_core::AgentSchema;
use serde::{Deserialize, Serialize};

/// The pattern every result url must match: an `http` or `https` url with a host.
pub const HTTP_URL_PATTERN: &str = "^https?://[^/?#\\s]+";

/// `--mode`: which sources are asked.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Exa only; Grok when there is no Exa key
    Fast,
    /// Exa, Tavily and Grok in parallel
    Deep,
    /// Tavily only, with its AI answer
    Answer,
}

/// `--intent`: the query's intent (Phase 1), which sets the scoring weights.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Intent {
    /// "What is X": authority weighted 0.5
    Factual,
    /// "latest X": freshness weighted 0.5
    Status,
    /// "X vs Y": keyword 0.4 and authority 0.4
    Comparison,
    /// "how to X": authority weighted 0.5
    Tutorial,
    /// "about X": authority weighted 0.5
    Exploratory,
    /// "X this week": freshness first
    News,
    /// Finding a tool, repository or dataset
    Resource,
}

/// `--freshness`: the time filter.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Freshness {
    /// Past 24 hours
    Pd,
    /// Past week
    Pw,
    /// Past month
    Pm,
    /// Past year
    Py,
}

/// One result as the Grok model returns it (`search_grok` in the seed).
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GrokResult {
    /// Page title
    pub title: String,
    /// Page URL, http or https only
    #[schema(format = "uri", pattern = "^https?://[^/?#\\s]+")]
    pub url: String,
    /// Short excerpt of the page relevant to the query
    pub snippet: String,
    /// Publication date (YYYY-MM-DD) if known, else empty
    #[serde(default)]
    pub published_date: String,
}

/// The Grok model's whole reply: the seed reads `parsed["results"]`.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GrokReply {
    /// Search results, most relevant first
    #[schema(max_items = 20)]
    pub results: Vec<GrokResult>,
}

/// One merged result of `search.py`'s output.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// Page title
    pub title: String,
    /// Page URL, http or https only
    #[schema(format = "uri", pattern = "^https?://[^/?#\\s]+")]
    pub url: String,
    /// Excerpt (Exa `text`, Tavily `content`, Grok `snippet`)
    pub snippet: String,
    /// Publication date as the source gives it; empty when unknown
    pub published_date: String,
    /// The sources that returned this URL, comma-separated after deduplication (e.g. "exa, tavily")
    #[schema(pattern = "^(brave|exa|tavily|grok)(, (brave|exa|tavily|grok))*$")]
    pub source: String,
    /// Intent-weighted score (keyword, freshness, authority); present only with --intent
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0)]
    pub score: Option<f64>,
}

/// The JSON `search.py` prints.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SearchOutput {
    /// Which sources were asked
    pub mode: Mode,
    /// The intent used for scoring; null when none was given
    #[serde(default)]
    pub intent: Option<Intent>,
    /// The queries run (a single query or the --queries list)
    #[schema(min_items = 1)]
    pub queries: Vec<String>,
    /// Number of results after deduplication
    pub count: u32,
    /// Deduplicated results, sorted by score when an intent was given
    pub results: Vec<SearchResult>,
    /// Tavily's AI answer (answer mode)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// The freshness filter, when one was given
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub freshness_filter: Option<Freshness>,
}

impl SearchOutput {
    /// What the schema cannot say: `count` is the number of results.
    pub fn check_count(&self) -> Result<(), String> {
        if self.count as usize == self.results.len() {
            Ok(())
        } else {
            Err(format!(
                "count is {} but there are {} results",
                self.count,
                self.results.len()
            ))
        }
    }
}
