//! A narrowed view renders a dialect from the type's cached output for that dialect (fast) where
//! it can. These tests hold it to the reference: converting the narrowed JSON Schema, for every
//! subset of variants, chained narrowings and description changes, in every dialect.
//!
//! The dialects that keep unions (llama.cpp, LM Studio and the other engines) are converted from
//! the form in which a flattened tagged enum stays alternatives (`AgentStep` is an `anyOf` of one
//! object per action there): a view narrows that form too.

use schema_core::__private::{view_json_schema_converted, view_renders_fast};
use schema_core::view::View;
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::{AgentStep, Evaluation};
use schema_suite::seed004::UniversalResponse;
use serde::Deserialize;

const DIALECTS: [Dialect; 5] = [
    Dialect::JsonSchema,
    Dialect::OpenAi,
    Dialect::Anthropic,
    Dialect::Gemini,
    Dialect::LmStudio,
];

/// Every non-empty subset of `tags`, in declaration order.
fn subsets<'a>(tags: &[&'a str]) -> Vec<Vec<&'a str>> {
    (1u32..1 << tags.len())
        .map(|mask| {
            tags.iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, t)| *t)
                .collect()
        })
        .collect()
}

/// The view renders every dialect exactly as converting its narrowed JSON Schema does; returns
/// how many of the five original dialects took the fast path.
fn check<T>(view: &View<T>, what: &str) -> usize {
    let mut fast = 0;
    for d in Dialect::EVERY {
        let got = view.json_schema(d);
        let reference = view_json_schema_converted(view, d);
        assert_eq!(
            got.as_ref().map_err(ToString::to_string),
            reference.as_ref().map_err(ToString::to_string),
            "{what} in {d:?}"
        );
        // same property order too (Value equality ignores it)
        if let (Ok(a), Ok(b)) = (&got, &reference) {
            assert_eq!(a.to_string(), b.to_string(), "{what} in {d:?}");
        }
        fast += usize::from(DIALECTS.contains(&d) && view_renders_fast(view, d));
    }
    fast
}

const ACTIONS: [&str; 5] = ["search", "coding", "answer", "reflect", "visit"];

/// How many of the four converted dialects render a narrowed `AgentStep` fast: all four, but
/// under LM Studio a single action left is that action's object, which is converted instead.
fn fast_dialects(tags: &[&str]) -> usize {
    if tags.len() == 1 {
        3
    } else {
        4
    }
}

#[test]
fn agent_step_every_subset_renders_as_converted() {
    for tags in subsets(&ACTIONS) {
        let view = View::<AgentStep>::new().keep_variants("", &tags).unwrap();
        // The fast path is taken in the four converted dialects (the point of it).
        assert_eq!(
            check(&view, &format!("{tags:?}")),
            fast_dialects(&tags),
            "{tags:?}"
        );
    }
}

#[test]
fn agent_step_chained_narrowings_render_as_converted() {
    let all = subsets(&ACTIONS);
    for a in &all {
        for b in all.iter().step_by(3) {
            if !a.iter().any(|t| b.contains(t)) {
                // nothing left: an error at the second narrowing
                let e = View::<AgentStep>::new()
                    .keep_variants("", a)
                    .unwrap()
                    .keep_variants("", b)
                    .unwrap_err();
                assert!(e.reason.contains("no variant is left"), "{e}");
                continue;
            }
            let view = View::<AgentStep>::new()
                .keep_variants("", a)
                .unwrap()
                .keep_variants("/", b)
                .unwrap();
            check(&view, &format!("{a:?} then {b:?}"));
        }
    }
}

#[test]
fn descriptions_render_as_converted() {
    let question = "Current question: what is the capital of France?";
    for tags in subsets(&ACTIONS).into_iter().step_by(2) {
        // seed 000 puts the question into a description at every step
        let view = View::<AgentStep>::new()
            .keep_variants("", &tags)
            .unwrap()
            .describe("think", question)
            .unwrap();
        assert_eq!(
            check(&view, &format!("{tags:?} + think")),
            fast_dialects(&tags)
        );
        // a field whose description carries moved constraints (`@maxLength 500` under OpenAI)
        let view = View::<AgentStep>::new()
            .describe("think", "Short.")
            .unwrap()
            .keep_variants("", &tags)
            .unwrap();
        assert_eq!(
            check(&view, &format!("think + {tags:?}")),
            fast_dialects(&tags)
        );
        let schema = view.json_schema(Dialect::OpenAi).unwrap();
        assert_eq!(
            schema["properties"]["think"]["description"],
            "Short.\n\n@maxLength 500"
        );
        // the root, whose description ends with the note on the payloads
        let view = View::<AgentStep>::new()
            .describe("", "One step of the agent.")
            .unwrap()
            .keep_variants("", &tags)
            .unwrap()
            .describe("", "One step, again.")
            .unwrap();
        check(&view, &format!("root + {tags:?}"));
        // a field inside a kept variant's payload
        if tags.contains(&"answer") {
            let view = View::<AgentStep>::new()
                .keep_variants("", &tags)
                .unwrap()
                .describe("answer.answer", question)
                .unwrap();
            check(&view, &format!("{tags:?} + answer.answer"));
        }
        // described first, then dropped by the narrowing: converted, not fast, and still right
        if !tags.contains(&"search") {
            let view = View::<AgentStep>::new()
                .describe("search.searchRequests", "Queries.")
                .unwrap()
                .keep_variants("", &tags)
                .unwrap();
            check(&view, &format!("search described, then {tags:?}"));
        }
    }
    // after the narrowing, a dropped variant's field is not there to describe
    let e = View::<AgentStep>::new()
        .keep_variants("", &["answer"])
        .unwrap()
        .describe("search.searchRequests", "Queries.")
        .unwrap_err();
    assert_eq!(e.path, "search.searchRequests");
}

#[test]
fn mixed_with_eager_narrowings_renders_as_converted() {
    let view = View::<AgentStep>::new()
        .keep_variants("", &["search", "reflect"])
        .unwrap()
        .items("search.searchRequests", None, Some(2))
        .unwrap()
        .keep_variants("", &["search"])
        .unwrap()
        .describe("think", "Why.")
        .unwrap();
    check(&view, "mixed");
    let schema = view.json_schema(Dialect::OpenAi).unwrap();
    assert_eq!(
        schema["properties"]["search"]["anyOf"][0]["properties"]["searchRequests"]["maxItems"],
        2
    );
}

#[test]
fn universal_response_every_subset_renders_as_converted() {
    let tags = [
        "planning",
        "answer",
        "verification",
        "clarity",
        "research",
        "custom",
        "error",
    ];
    let mut fast = 0;
    for keep in subsets(&tags) {
        let view = View::<UniversalResponse>::new()
            .keep_variants("", &keep)
            .unwrap();
        fast += check(&view, &format!("{keep:?}"));
        let view = view
            .describe("response_type", "Which agent answers this time")
            .unwrap()
            .describe("message", "One sentence.")
            .unwrap();
        check(&view, &format!("{keep:?} + descriptions"));
    }
    assert!(fast > 0);
}

#[test]
fn evaluation_every_subset_renders_as_converted() {
    let tags = [
        "definitive",
        "freshness",
        "plurality",
        "attribution",
        "completeness",
        "strict",
    ];
    for keep in subsets(&tags) {
        let view = View::<Evaluation>::new().keep_variants("", &keep).unwrap();
        check(&view, &format!("{keep:?}"));
    }
}

/// A tagged enum nested in a struct, optional, with documented variants and a unit variant.
#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Task {
    /// What to do.
    title: String,
    /// The tool to use, if any.
    tool: Option<Tool>,
    /// Tools to run afterwards.
    #[schema(max_items = 3)]
    then: Vec<Tool>,
    /// How sure the planner is.
    mode: Mode,
}

/// A tool call.
#[derive(AgentSchema, Deserialize, Debug)]
#[serde(tag = "name", rename_all = "snake_case")]
#[allow(dead_code)]
enum Tool {
    /// Search the web.
    WebSearch {
        /// The query.
        #[schema(max_length = 80)]
        query: String,
    },
    /// Read a file.
    ReadFile { path: String },
    /// Run code.
    RunCode {
        code: String,
        #[schema(minimum = 1, maximum = 60)]
        timeout_s: Option<u32>,
    },
    /// Stop here.
    Stop,
}

/// Flattened into the task, documented variants.
#[derive(AgentSchema, Deserialize, Debug)]
#[serde(tag = "mode", rename_all = "lowercase")]
#[allow(dead_code)]
enum Mode {
    /// Certain.
    Sure {
        reason: String,
    },
    /// Unsure.
    Guess {
        confidence: f64,
    },
    Skip,
}

/// `Mode` flattened beside other fields.
#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Step {
    note: Option<String>,
    #[serde(flatten)]
    mode: Mode,
}

#[test]
fn nested_and_documented_enums_render_as_converted() {
    let tools = ["web_search", "read_file", "run_code", "stop"];
    for keep in subsets(&tools) {
        let view = View::<Task>::new().keep_variants("tool", &keep).unwrap();
        check(&view, &format!("tool {keep:?}"));
        let view = view.describe("title", "What to do now.").unwrap();
        check(&view, &format!("tool {keep:?} + title"));
        let view = View::<Task>::new()
            .describe("tool", "The one tool to use now.")
            .unwrap()
            .keep_variants("tool", &keep)
            .unwrap();
        check(&view, &format!("tool described + {keep:?}"));
    }
    for keep in subsets(&["sure", "guess", "skip"]) {
        let view = View::<Step>::new().keep_variants("", &keep).unwrap();
        check(&view, &format!("step {keep:?}"));
        let view = View::<Task>::new().keep_variants("mode", &keep).unwrap();
        check(&view, &format!("task.mode {keep:?}"));
    }
}

/// Enums inside arrays are narrowed at the array's path.
#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Batch {
    tools: Vec<Tool>,
    levels: Vec<schema_suite::seed004::Level>,
}

#[test]
fn enums_in_arrays_are_narrowed_at_the_array() {
    let view = View::<Batch>::new()
        .keep_variants("tools", &["read_file", "stop"])
        .unwrap()
        .keep_values("levels", &["high"])
        .unwrap();
    check(&view, "batch");
    let ok =
        r#"{"tools": [{"name": "stop"}, {"name": "read_file", "path": "a"}], "levels": ["high"]}"#;
    assert!(view.from_json(ok).is_ok());
    let bad =
        r#"{"tools": [{"name": "stop"}, {"name": "web_search", "query": "q"}], "levels": ["low"]}"#;
    let e = view.from_json(bad).unwrap_err();
    let paths: Vec<String> = e
        .validation_errors()
        .unwrap()
        .iter()
        .map(|e| e.path.clone())
        .collect();
    assert!(paths.iter().any(|p| p.starts_with("/tools/1")), "{paths:?}");
    assert!(paths.iter().any(|p| p == "/levels/0"), "{paths:?}");
    // the full type accepts it
    assert!(Batch::from_json(bad).is_ok());
    // the rendered schemas list only what is kept
    let s = view.json_schema(Dialect::OpenAi).unwrap();
    assert_eq!(
        s["properties"]["levels"]["items"]["enum"],
        serde_json::json!(["high"])
    );
    let tags: Vec<&str> = s["properties"]["tools"]["items"]["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["properties"]["name"]["const"].as_str().unwrap())
        .collect();
    assert_eq!(tags, ["read_file", "stop"]);
}
