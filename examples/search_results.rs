//! Seed 002's multi-source search layer: the Grok model's reply and `search.py`'s output as Rust
//! types (`schema_suite::seed002`).
//!
//! Prints the schema the Grok client can send and the TypeScript text for its prompt, then parses
//! canned model replies the way the seed's client receives them (wrapped in prose, in a code
//! fence): a good one, one with an `ftp://` url (the seed silently drops it; here it is an error
//! with a path and a feedback text), and a full `search.py` output.
//!
//! Run: `cargo run --example search_results`

use schema_core::{AgentSchema, Dialect, ParseError};
use schema_suite::seed002::{GrokReply, SearchOutput};

/// A good Grok reply after prose, as the seed's client receives it.
pub const GOOD_REPLY: &str = r#"Here are the most relevant results I found for "Deno 2.0 latest":

{"results": [
  {"title": "Announcing Deno 2", "url": "https://deno.com/blog/v2.0",
   "snippet": "Deno 2 is backwards compatible with Node and npm.", "published_date": "2024-10-09"},
  {"title": "Deno 2.1 release notes", "url": "https://github.com/denoland/deno/releases/tag/v2.1.0",
   "snippet": "Wasm imports, long-term support branch.", "published_date": "2024-11-21"},
  {"title": "Deno on Hacker News", "url": "http://news.ycombinator.com/item?id=41792934",
   "snippet": "Discussion of the Deno 2 release."}
]}

Let me know if you want more detail on any of them."#;

/// A fenced reply whose first url is `ftp://`.
pub const FTP_REPLY: &str = r#"Sure! ```json
{"results": [
  {"title": "Deno mirror", "url": "ftp://mirror.example.org/deno/v2.0.tar.gz",
   "snippet": "Source tarball.", "published_date": "2024-10-09"},
  {"title": "Announcing Deno 2", "url": "https://deno.com/blog/v2.0",
   "snippet": "Deno 2 is backwards compatible with Node and npm.", "published_date": "2024-10-09"}
]}
```"#;

/// An https url without a host.
pub const NO_HOST_REPLY: &str =
    r#"{"results": [{"title": "Broken", "url": "https:///blog", "snippet": "x"}]}"#;

/// `search.py` output for a deep, status-intent search.
pub const SEARCH_OUTPUT: &str = r#"{
  "mode": "deep",
  "intent": "status",
  "queries": ["Deno 2.0 latest 2026", "Deno 2 npm compatibility"],
  "count": 2,
  "results": [
    {"title": "Announcing Deno 2", "url": "https://deno.com/blog/v2.0",
     "snippet": "Deno 2 is backwards compatible with Node and npm.",
     "published_date": "2024-10-09", "source": "exa, tavily, grok", "score": 0.87},
    {"title": "Deno 2.1 release notes", "url": "https://github.com/denoland/deno/releases/tag/v2.1.0",
     "snippet": "Wasm imports, long-term support branch.", "published_date": "",
     "source": "grok", "score": 0.74}
  ],
  "freshness_filter": "pw"
}"#;

/// `search.py`-like output with five mistakes.
pub const BAD_SEARCH_OUTPUT: &str = r#"{
  "mode": "thorough",
  "intent": null,
  "queries": [],
  "count": 1,
  "results": [
    {"title": "x", "url": "ftp://x.org/a", "snippet": "", "published_date": "",
     "source": "bing", "score": -1}
  ]
}"#;

fn report<T: std::fmt::Debug>(label: &str, result: Result<T, ParseError>) {
    println!("--- {label}");
    match result {
        Ok(value) => println!("OK: {value:#?}"),
        Err(e) => {
            println!("REJECTED: {e}");
            println!("feedback for the retry:\n{}", e.feedback());
        }
    }
    println!();
}

/// Runs the example.
pub fn main() {
    println!("=== Grok reply: JSON Schema (OpenAI strict)");
    match GrokReply::try_json_schema(Dialect::OpenAi) {
        Ok(s) => println!("{}", serde_json::to_string_pretty(&s).unwrap_or_default()),
        Err(e) => println!("cannot express: {e}"),
    }
    println!();

    println!("=== Grok reply: TypeScript text for the prompt");
    println!("{}\n", GrokReply::typescript());

    println!("=== search.py output: TypeScript text");
    println!("{}\n", SearchOutput::typescript());

    println!("=== Parsing the Grok model's replies");
    report("results after prose", GrokReply::from_llm(GOOD_REPLY));
    report(
        "an ftp:// url in a fenced block",
        GrokReply::from_llm(FTP_REPLY),
    );
    report(
        "an https url without a host",
        GrokReply::from_llm(NO_HOST_REPLY),
    );

    println!("=== Reading search.py's output");
    let output = SearchOutput::from_json(SEARCH_OUTPUT);
    if let Ok(out) = &output {
        match out.check_count() {
            Ok(()) => println!("count matches the results ({})", out.count),
            Err(e) => println!("count mismatch: {e}"),
        }
    }
    report("deep search, status intent", output);
    report(
        "unknown mode, no query, ftp url, unknown source, negative score",
        SearchOutput::from_json(BAD_SEARCH_OUTPUT),
    );
}
