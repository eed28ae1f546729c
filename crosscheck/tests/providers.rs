//! The request parts of the provider layer against the provider rule table (the checker of
//! `dialects.rs`, shared in `common/rules.rs`): the structured-output part of every derived type
//! for every provider, the tool definitions of a 5-tool enum and of the MCP corpus (counted
//! across the request), and llguidance compiling the OpenAI / LM Studio tool parameters.

#[path = "common/rules.rs"]
mod rules;

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{ApproximateTokEnv, InferenceCapabilities};
use llguidance::{Matcher, ParserFactory};
use rules::check_rules;
use schema_core::convert::{ConvertError, ConvertErrorKind};
use schema_core::provider::{output_format, Provider};
use schema_core::tools::ToolSet;
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use schema_suite::tools::*;
use serde_json::{json, Map, Value};

macro_rules! parts {
    ($p:expr; $($t:ty),* $(,)?) => { vec![$((stringify!($t), output_format::<$t>($p))),*] };
}

fn all_parts(p: Provider) -> Vec<(&'static str, Result<Value, ConvertError>)> {
    parts!(p; Language, QuestionEvaluate, CodeGenerator, ErrorAnalysis, ResearchPlan, SerpCluster,
        Cluster, QueryRewriter, Tbs, SearchQuery, Evaluation, FreshnessAnalysis, PluralityAnalysis,
        CompletenessAnalysis, AgentStep, AgentAction, SearchAction, CodingAction, AnswerAction,
        ReflectAction, VisitAction, UniversalResponse, Status, PlanningData, PlanStep,
        VerificationData, Check, ClarityData, ResearchData, Level, Finding, AnswerData, ErrorDetails,
        AgentTool, SearchArgs, Encoding)
}

/// The schema inside a structured-output request part.
fn schema_in_part(p: Provider, part: &Value) -> Value {
    let s = match p {
        Provider::OpenAiChat | Provider::LmStudio => {
            &part["response_format"]["json_schema"]["schema"]
        }
        Provider::OpenAiResponses => &part["text"]["format"]["schema"],
        Provider::Anthropic => &part["output_config"]["format"]["schema"],
        Provider::Gemini => &part["generationConfig"]["responseJsonSchema"],
        Provider::Ollama => &part["format"],
        other => panic!("untested provider {other}"),
    };
    assert!(s.is_object(), "{p}: no schema in {part}");
    s.clone()
}

#[test]
fn output_format_of_every_derived_type_obeys_the_rule_table() {
    let mut checked = 0;
    for p in Provider::ALL {
        for (name, part) in all_parts(p) {
            match part {
                Ok(part) => {
                    let schema = schema_in_part(p, &part);
                    let errors = check_rules(&schema, checker_dialect(p));
                    assert!(errors.is_empty(), "{name} ({p}): {errors:#?}");
                    if matches!(p, Provider::OpenAiChat | Provider::OpenAiResponses) {
                        let strict = if p == Provider::OpenAiChat {
                            &part["response_format"]["json_schema"]["strict"]
                        } else {
                            &part["text"]["format"]["strict"]
                        };
                        assert_eq!(strict, &json!(true), "{name} ({p})");
                    }
                    checked += 1;
                }
                Err(e) => {
                    // (a map of values of any type under OpenAI: no JSON text for derived
                    // types; the string enums at the root are wrapped or taken as they are)
                    let map = name == "UniversalResponse"
                        && p.dialect() == Dialect::OpenAi
                        && e.pointer.starts_with("/properties/custom_fields");
                    assert!(map, "{name} ({p}): {e}");
                }
            }
        }
    }
    // 36 types under 6 providers; the map of any values under the 2 OpenAI ones.
    assert_eq!(checked, 6 * 36 - 2);
}

/// The parameter schemas of a `tools` array, by tool name.
fn tool_schemas(p: Provider, tools: &Value) -> Vec<(String, Value)> {
    let list = match p {
        Provider::Gemini => tools[0]["functionDeclarations"].clone(),
        _ => tools.clone(),
    };
    list.as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|t| {
            let (name, schema) = match p {
                Provider::OpenAiChat | Provider::LmStudio | Provider::Ollama => {
                    (&t["function"]["name"], &t["function"]["parameters"])
                }
                Provider::OpenAiResponses => (&t["name"], &t["parameters"]),
                Provider::Anthropic => (&t["name"], &t["input_schema"]),
                Provider::Gemini => (&t["name"], &t["parametersJsonSchema"]),
                other => panic!("untested provider {other}"),
            };
            (name.as_str().unwrap().to_string(), schema.clone())
        })
        .collect()
}

/// Every tool's parameters obey the table alone, and all of them together obey the
/// per-request counts: the tools are put side by side as the properties of one object (every
/// one required, so the object adds no optional property and no union) and checked again.
fn check_request(p: Provider, tools: &Value) -> usize {
    let schemas = tool_schemas(p, tools);
    let mut props = Map::new();
    for (name, schema) in &schemas {
        let errors = check_rules(schema, checker_dialect(p));
        assert!(errors.is_empty(), "{name} ({p}): {errors:#?}\n{schema:#}");
        props.insert(name.clone(), schema.clone());
    }
    let names: Vec<Value> = props.keys().map(|k| json!(k)).collect();
    if p == Provider::Anthropic {
        let request = json!({"type": "object", "properties": props, "required": names,
            "additionalProperties": false});
        let errors: Vec<String> = check_rules(&request, Dialect::Anthropic)
            .into_iter()
            .filter(|e| e.contains("optional") || e.contains("unions"))
            .collect();
        assert!(errors.is_empty(), "the request ({p}): {errors:?}");
    }
    if let Some(max) = p.max_tools() {
        assert!(schemas.len() <= max);
    }
    schemas.len()
}

#[test]
fn derived_tool_definitions_obey_the_rule_table() {
    for p in Provider::ALL {
        let tools = AgentTool::tool_definitions(p).unwrap();
        assert_eq!(check_request(p, &tools), 5, "{p}");
    }
}

/// A tool set over Anthropic's per-request limits is an error naming the tool that crosses it.
#[test]
fn per_request_limits_name_the_tool() {
    #[derive(AgentSchema, serde::Deserialize)]
    #[serde(tag = "tool")]
    #[schema(tools)]
    #[allow(dead_code)]
    enum Many {
        A(Opt8),
        B(Opt8),
        C(Opt8),
        D(Opt8),
    }
    #[derive(AgentSchema, serde::Deserialize)]
    #[allow(dead_code)]
    struct Opt8 {
        a: Option<u8>,
        b: Option<u8>,
        c: Option<u8>,
        d: Option<u8>,
        e: Option<u8>,
        f: Option<u8>,
        g: Option<u8>,
        h: Option<u8>,
    }
    let err = Many::tool_definitions(Provider::Anthropic).unwrap_err();
    assert_eq!(err.pointer, "/tools/D");
    assert_eq!(
        err.kind,
        ConvertErrorKind::LimitExceeded {
            limit: "optional parameters, per request",
            max: 24,
            found: 32
        }
    );
    assert!(err.to_string().contains("/tools/D"), "{err}");
    // OpenAI makes optional parameters required and nullable: 32 unions, no limit there.
    assert!(Many::tool_definitions(Provider::OpenAiChat).is_ok());
    // At run time the tool that crosses the limit is left out, the others sent.
    let set = ToolSet::from_mcp_list(&json!({ "tools": Many::mcp_tools().unwrap() })).unwrap();
    let defs = set.definitions(Provider::Anthropic);
    assert_eq!(defs.tools.as_array().unwrap().len(), 3);
    assert_eq!(defs.left_out.len(), 1);
    assert_eq!(defs.left_out[0].0, "D");
    check_request(Provider::Anthropic, &defs.tools);

    // 129 tools: over OpenAI's 128.
    let many: Vec<Value> = (0..129)
        .map(|i| json!({"name": format!("t{i}"), "inputSchema": {"type": "object", "properties": {}}}))
        .collect();
    let set = ToolSet::from_mcp_list(&Value::Array(many)).unwrap();
    let defs = set.definitions(Provider::OpenAiResponses);
    assert_eq!(defs.tools.as_array().unwrap().len(), 128);
    assert_eq!(defs.left_out[0].0, "t128");
    assert_eq!(defs.left_out[0].1.pointer, "/tools/t128");
    assert_eq!(set.definitions(Provider::Gemini).left_out.len(), 0);
}

fn check_tool_set(label: &str, set: &ToolSet) -> Vec<(Provider, usize, usize)> {
    let mut out = Vec::new();
    for p in Provider::ALL {
        let defs = set.definitions(p);
        let sent = check_request(p, &defs.tools);
        assert_eq!(sent, defs.reports.len());
        assert_eq!(sent + defs.left_out.len(), set.len(), "{label} ({p})");
        for (name, e) in &defs.left_out {
            assert!(
                e.pointer
                    .starts_with(&format!("/tools/{}", name.replace('/', "~1"))),
                "{label} ({p}): {name}: {e}"
            );
            assert!(
                matches!(
                    e.kind,
                    ConvertErrorKind::LimitExceeded { .. } | ConvertErrorKind::Unsupported(_)
                ),
                "{label} ({p}): {name}: {e}"
            );
        }
        if std::env::var("SHOW_LEFT_OUT").is_ok() {
            for (name, e) in &defs.left_out {
                println!("{label} ({p}): left out {name}: {e}");
            }
        }
        out.push((p, sent, defs.left_out.len()));
    }
    out
}

#[test]
fn mcp_fixture_tool_definitions_obey_the_rule_table() {
    let path = format!(
        "{}/../tests/fixtures/mcp/tools.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let list: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let set = ToolSet::from_mcp_list(&list).unwrap();
    for (p, sent, left) in check_tool_set("fixture", &set) {
        println!("{p}: {sent} sent, {left} left out");
    }
}

/// The MCP corpus (`MCP_CORPUS`, 389 real tool schemas): each tool alone, and the whole corpus
/// as one request (where the per-request limits leave tools out, by name).
#[test]
fn mcp_corpus_tool_definitions_obey_the_rule_table() {
    let Ok(dir) = std::env::var("MCP_CORPUS") else {
        println!("MCP_CORPUS is not set: the MCP corpus check is skipped");
        return;
    };
    // A relative path is read from the workspace root (where `.ci/run` runs).
    let dir = if std::path::Path::new(&dir).is_relative() {
        format!("{}/../{dir}", env!("CARGO_MANIFEST_DIR"))
    } else {
        dir
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("MCP_CORPUS={dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 300, "{} files in {dir}", files.len());
    let mut whole = ToolSet::default();
    let mut alone = [(0usize, 0usize); 6];
    let mut compiled = 0;
    let mut failed: Vec<String> = Vec::new();
    for f in &files {
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let stem = f.file_stem().unwrap().to_string_lossy().replace("__", "_");
        let name = schema_core::provider::sanitize_name(&stem);
        let description = schema
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string);
        let one = ToolSet::new([(name.clone(), description.clone(), schema.clone())]);
        for (i, (_, sent, left)) in check_tool_set(&name, &one).into_iter().enumerate() {
            alone[i].0 += sent;
            alone[i].1 += left;
        }
        for p in [Provider::OpenAiChat, Provider::LmStudio] {
            for (name, params) in tool_schemas(p, &one.definitions(p).tools) {
                match compiles(&params) {
                    Ok(()) => compiled += 1,
                    Err(e) => failed.push(format!("{name} ({p}): {e}")),
                }
            }
        }
        whole.add(name, description, schema);
    }
    println!("{compiled} OpenAI / LM Studio tool parameter schemas compiled in llguidance");
    for f in &failed {
        println!("does not compile: {f}");
    }
    assert_eq!(compiled + failed.len(), alone[0].0 + alone[4].0);
    // One corpus schema describes no value at all (its `metrics` is `type: array` with an
    // `enum` of strings, a defect of the source): the conversion rejects it, so it is left out
    // of the tool set, and every schema sent compiles.
    assert!(failed.is_empty(), "{failed:#?}");
    for (i, p) in Provider::ALL.iter().enumerate() {
        println!("{p}: alone {} sent, {} left out", alone[i].0, alone[i].1);
    }
    for (p, sent, left) in check_tool_set("corpus", &whole) {
        println!("{p}: one request: {sent} sent, {left} left out");
    }
}

fn compiles(schema: &Value) -> Result<(), String> {
    let env = ApproximateTokEnv::single_byte_env();
    let factory = ParserFactory::new(&env, InferenceCapabilities::default(), &[])
        .map_err(|e| e.to_string())?;
    let m = Matcher::new(factory.create_parser(TopLevelGrammar::from_json_schema(schema.clone())));
    m.get_error().map_or(Ok(()), Err)
}

#[test]
fn openai_and_lmstudio_tool_parameters_compile_in_llguidance() {
    let path = format!(
        "{}/../tests/fixtures/mcp/tools.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let list: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let set = ToolSet::from_mcp_list(&list).unwrap();
    let mut compiled = 0;
    for p in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::LmStudio,
    ] {
        for tools in [
            AgentTool::tool_definitions(p).unwrap(),
            set.definitions(p).tools,
        ] {
            for (name, schema) in tool_schemas(p, &tools) {
                compiles(&schema).unwrap_or_else(|e| panic!("{name} ({p}): {e}"));
                compiled += 1;
            }
        }
    }
    assert!(compiled >= 15, "{compiled}");
}

/// The checker's column for a provider: Ollama's dialect follows the llama.cpp table, which the
/// checker (written from DESIGN.md's table) knows as LM Studio's.
fn checker_dialect(p: Provider) -> Dialect {
    match p.dialect() {
        Dialect::Ollama | Dialect::LlamaCpp => Dialect::LmStudio,
        d => d,
    }
}
