//! Cross-check with llguidance (the grammar engine behind llama.cpp, vLLM and SGLang structured
//! outputs): every schema we emit for OpenAI and LM Studio compiles, the seed 004 replies are
//! accepted, and broken replies are rejected. No model: a single-byte tokenizer feeds raw bytes.

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{ApproximateTokEnv, InferenceCapabilities, TokEnv};
use llguidance::{Matcher, ParserFactory};
use schema_core::__private::{view_json_schema_converted, view_renders_fast};
use schema_core::convert::{to_dialect_with, ConvertErrorKind, DialectOptions};
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use serde_json::{json, Map, Value};

fn env() -> TokEnv {
    ApproximateTokEnv::single_byte_env()
}

/// Compiles `schema` into a grammar matcher, or the compile error.
fn matcher(schema: &Value) -> Result<Matcher, String> {
    let env = env();
    let factory = ParserFactory::new(&env, InferenceCapabilities::default(), &[])
        .map_err(|e| e.to_string())?;
    let m = Matcher::new(factory.create_parser(TopLevelGrammar::from_json_schema(schema.clone())));
    match m.get_error() {
        Some(e) => Err(e),
        None => Ok(m),
    }
}

/// Whether the grammar of `schema` accepts exactly `text`.
fn accepts(schema: &Value, text: &str) -> bool {
    let mut m = matcher(schema).unwrap_or_else(|e| panic!("schema does not compile: {e}"));
    let tokens = env().tokenize_bytes(text.as_bytes());
    match m.validate_tokens(&tokens) {
        Ok(n) if n == tokens.len() => {}
        _ => return false,
    }
    if m.consume_tokens(&tokens).is_err() {
        return false;
    }
    m.is_accepting().unwrap_or(false)
}

fn fixture(name: &str) -> Value {
    let path = format!("{}/../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

const REPLIES: [&str; 7] = [
    "planning",
    "answer",
    "verification",
    "clarity",
    "research",
    "custom",
    "error",
];

macro_rules! schemas {
    ($d:expr; $($t:ty),* $(,)?) => {
        vec![$((stringify!($t), <$t>::try_json_schema($d).cloned())),*]
    };
}

fn all_schemas(
    d: Dialect,
) -> Vec<(
    &'static str,
    Result<Value, schema_core::convert::ConvertError>,
)> {
    schemas!(d; Language, QuestionEvaluate, CodeGenerator, ErrorAnalysis, ResearchPlan, SerpCluster,
        Cluster, QueryRewriter, Tbs, SearchQuery, Evaluation, FreshnessAnalysis, PluralityAnalysis,
        CompletenessAnalysis, AgentStep, AgentAction, SearchAction, CodingAction, AnswerAction,
        ReflectAction, VisitAction, UniversalResponse, Status, PlanningData, PlanStep,
        VerificationData, Check, ClarityData, ResearchData, Level, Finding, AnswerData, ErrorDetails)
}

/// Every seed type's OpenAI and LM Studio schema compiles; the only types without one are the
/// string enums (a root must be an object) and, under OpenAI, the universal response (its
/// `custom_fields` map cannot be expressed in strict mode).
#[test]
fn every_derived_schema_compiles() {
    let mut compiled = 0;
    for d in [Dialect::OpenAi, Dialect::LmStudio] {
        for (name, result) in all_schemas(d) {
            match result {
                Ok(schema) => {
                    if let Err(e) = matcher(&schema) {
                        panic!("{name} ({d}) does not compile: {e}\n{schema}");
                    }
                    compiled += 1;
                }
                Err(e) => {
                    // (the map's values are of any type, which a derived type's schema does
                    // not write as JSON text; the root enums are wrapped or taken as they are)
                    let map = name == "UniversalResponse"
                        && d == Dialect::OpenAi
                        && e.pointer == "/properties/custom_fields/additionalProperties"
                        && matches!(e.kind, ConvertErrorKind::Unsupported(_));
                    assert!(map, "{name} ({d}): unexpected error {e}");
                }
            }
        }
    }
    assert_eq!(compiled, 2 * 33 - 1);
}

/// Every seed 004 reply is accepted by the LM Studio grammar of the universal response, and
/// the invalid replies are rejected.
#[test]
fn lmstudio_accepts_seed_replies() {
    let schema = UniversalResponse::json_schema(Dialect::LmStudio);
    for name in REPLIES {
        let reply = fixture(&format!("seed004_response_{name}.json"));
        let pretty = serde_json::to_string_pretty(&reply).unwrap();
        assert!(accepts(schema, &pretty), "{name} rejected");
        assert!(
            accepts(schema, &reply.to_string()),
            "{name} (compact) rejected"
        );
    }
    for (what, broken) in broken_replies() {
        assert!(!accepts(schema, &broken.to_string()), "{what} accepted");
    }
}

/// Replies a grammar must reject: wrong enum value, missing required property, extra property,
/// wrong type, and text that is not JSON.
fn broken_replies() -> Vec<(&'static str, Value)> {
    let good = fixture("seed004_response_clarity.json");
    let mut wrong_enum = good.clone();
    wrong_enum["status"] = json!("done");
    let mut wrong_tag = good.clone();
    wrong_tag["response_type"] = json!("weather");
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().shift_remove("message");
    let mut extra = good.clone();
    extra["mood"] = json!("happy");
    let mut wrong_type = good.clone();
    wrong_type["clarity_data"]["total_score"] = json!("35");
    let mut missing_nested = fixture("seed004_response_planning.json");
    missing_nested["planning_data"]["steps"][0]
        .as_object_mut()
        .unwrap()
        .shift_remove("action");
    vec![
        ("wrong enum value", wrong_enum),
        ("wrong tag", wrong_tag),
        ("missing required property", missing),
        ("extra property", extra),
        ("wrong type", wrong_type),
        ("missing nested required property", missing_nested),
        ("not an object", json!(["planning"])),
    ]
}

/// Rewrites a reply the way a model under OpenAI strict writes it: every property present, in
/// schema order, `null` for the absent ones.
fn fill_nulls(value: &Value, schema: &Value) -> Value {
    let object_schema = match schema.get("anyOf").and_then(Value::as_array) {
        Some(branches) => branches
            .iter()
            .find(|b| b.get("type") == Some(&json!("object")))
            .or_else(|| {
                branches
                    .iter()
                    .find(|b| b.get("type") == Some(&json!("array")))
            }),
        None => Some(schema),
    };
    match (value, object_schema) {
        (Value::Object(m), Some(s)) if s.get("properties").is_some() => {
            let mut out = Map::new();
            for (name, ps) in s["properties"].as_object().unwrap() {
                let v = m
                    .get(name)
                    .map(|v| fill_nulls(v, ps))
                    .unwrap_or(Value::Null);
                out.insert(name.clone(), v);
            }
            // Keys the schema does not know stay (so a grammar can reject them).
            for (k, v) in m {
                out.entry(k.clone()).or_insert_with(|| v.clone());
            }
            Value::Object(out)
        }
        (Value::Array(a), Some(s)) if s.get("items").is_some() => {
            Value::Array(a.iter().map(|x| fill_nulls(x, &s["items"])).collect())
        }
        (v, _) => v.clone(),
    }
}

/// Under OpenAI strict every property is required: a seed reply that leaves sections out is
/// rejected as is, and accepted once the absent sections are written as `null`. The universal
/// response has a map (`custom_fields`), so it is converted with `close_maps`: the custom reply,
/// which fills that map, is then rejected (documented loss), every other one accepted.
#[test]
fn openai_accepts_seed_replies_with_nulls() {
    let full = UniversalResponse::json_schema(Dialect::JsonSchema);
    let options = DialectOptions::new().close_maps(true);
    let schema = to_dialect_with(full, Dialect::OpenAi, &options)
        .unwrap()
        .schema;
    for name in REPLIES {
        let reply = fixture(&format!("seed004_response_{name}.json"));
        assert!(
            !accepts(&schema, &reply.to_string()),
            "{name}: accepted without nulls"
        );
        let filled = fill_nulls(&reply, &schema);
        let ok = accepts(&schema, &serde_json::to_string_pretty(&filled).unwrap());
        assert_eq!(ok, name != "custom", "{name}: {filled}");
    }
    for (what, broken) in broken_replies() {
        let filled = fill_nulls(&broken, &schema);
        assert!(!accepts(&schema, &filled.to_string()), "{what} accepted");
    }
}

/// Seed 000 §9 under OpenAI: the one-of-required clause became a note, every action section is
/// nullable; a reply with one section and nulls is accepted, one with a wrong action rejected.
#[test]
fn openai_agent_step_reply() {
    let schema = AgentStep::json_schema(Dialect::OpenAi);
    let reply = json!({
        "think": "Need data", "action": "search",
        "search": {"searchRequests": ["rust json schema"]},
        "coding": null, "answer": null, "reflect": null, "visit": null
    });
    assert!(accepts(schema, &reply.to_string()));
    let mut bad = reply.clone();
    bad["action"] = json!("dance");
    assert!(!accepts(schema, &bad.to_string()));
    let mut missing = reply.clone();
    missing.as_object_mut().unwrap().shift_remove("visit");
    assert!(!accepts(schema, &missing.to_string()));
    // The tag moved maxLength out of the grammar: a long `think` is not a grammar error (the
    // validator enforces it).
    let mut long = reply;
    long["think"] = json!("x".repeat(600));
    assert!(accepts(schema, &long.to_string()));
}

/// The seed 000 §8 evaluators merged into one object (OpenAI forbids a root union) accept a
/// reply of each variant with the other variants' payloads null.
#[test]
fn openai_evaluation_one_object() {
    let schema = Evaluation::json_schema(Dialect::OpenAi);
    let reply = json!({
        "type": "freshness", "think": "recent", "pass": true,
        "freshness_analysis": {"days_ago": 3, "max_age_days": null},
        "plurality_analysis": null, "exactQuote": null, "completeness_analysis": null,
        "improvement_plan": null
    });
    assert!(accepts(schema, &reply.to_string()), "{schema}");
    let mut bad = reply;
    bad["type"] = json!("vibes");
    assert!(!accepts(schema, &bad.to_string()));
}

/// The strict helper of OpenAI's Python SDK (`openai.lib._pydantic._ensure_strict_json_schema`,
/// openai 3.54.0) applied to the seed 004 schema (its output is the fixture): every property
/// required but none nullable, so its grammar rejects all seven seed replies, as written and
/// with the absent sections written as `null`; our OpenAI output accepts the null-filled ones.
#[test]
fn openai_sdk_helper_rejects_seed_replies() {
    let sdk = fixture("convert/openai_sdk/seed004_universal_strict.json");
    assert!(matcher(&sdk).is_ok());
    for name in REPLIES {
        let reply = fixture(&format!("seed004_response_{name}.json"));
        assert!(!accepts(&sdk, &reply.to_string()), "{name}");
        let filled = fill_nulls(&reply, &sdk);
        assert!(!accepts(&sdk, &filled.to_string()), "{name} with nulls");
    }
}

/// Seed 000's narrowed agent schemas (rendered by the view's fast path): for every subset of
/// actions the OpenAI and LM Studio grammars compile, accept a reply with each allowed action and
/// reject one with a forbidden action.
#[test]
fn narrowed_agent_schemas_are_grammars_of_exactly_the_allowed_actions() {
    use schema_core::view::View;
    const ACTIONS: [&str; 5] = ["search", "coding", "answer", "reflect", "visit"];
    let payload = |a: &str| match a {
        "search" => json!({"searchRequests": ["rust"]}),
        "coding" => json!({"codingIssue": "sum"}),
        "answer" => json!({"answer": "42"}),
        "reflect" => json!({"questionsToAnswer": ["why?"]}),
        _ => json!({"URLTargets": [1]}),
    };
    for mask in 1u32..32 {
        let allowed: Vec<&str> = ACTIONS
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, a)| *a)
            .collect();
        let view = View::<AgentStep>::new()
            .keep_variants("", &allowed)
            .unwrap();
        for d in [Dialect::OpenAi, Dialect::LmStudio] {
            // Under LM Studio the step is an `anyOf` of one object per action: one action left
            // is that object, which is converted rather than edited.
            assert!(view_renders_fast(&view, d) || (d == Dialect::LmStudio && allowed.len() == 1));
            let schema = view.json_schema(d).unwrap();
            // Properties in schema order (the grammar keeps it): think, action, then the
            // payloads, the other allowed ones null where every property is required.
            let reply = |action: &str, nulls: bool| {
                let mut r = json!({"think": "t", "action": action});
                for a in ACTIONS {
                    if a == action {
                        r[a] = payload(a);
                    } else if nulls && allowed.contains(&a) {
                        r[a] = Value::Null;
                    }
                }
                r.to_string()
            };
            let nulls = d == Dialect::OpenAi;
            for a in &allowed {
                assert!(accepts(&schema, &reply(a, nulls)), "{allowed:?} {d:?} {a}");
            }
            for a in ACTIONS.iter().filter(|a| !allowed.contains(a)) {
                assert!(!accepts(&schema, &reply(a, nulls)), "{allowed:?} {d:?} {a}");
            }
            // Under LM Studio (issue 13) the grammar allows one action's payload, never two.
            if d == Dialect::LmStudio {
                for (a, b) in allowed.iter().zip(allowed.iter().skip(1)) {
                    let mut two: Value = serde_json::from_str(&reply(a, false)).unwrap();
                    two[*b] = payload(b);
                    assert!(!accepts(&schema, &two.to_string()), "{allowed:?} {a}+{b}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// `Dialect::Llguidance`: every schema compiles, and serde's serialization of generated values
// is accepted.
// ---------------------------------------------------------------------------------------------

mod common;

use schema_suite::seed002::*;

/// Every schema converted to `Dialect::Llguidance` compiles in llguidance: every derived type
/// (seeds 000, 002 and 004), every corpus schema of `tests/fixtures/convert/`, and, when
/// `MCP_CORPUS` is set, every schema of the shared MCP corpus.
#[test]
fn every_llguidance_schema_compiles() {
    let d = Dialect::Llguidance;
    let check = |what: &str, schema: &Value| {
        if let Err(e) = matcher(schema) {
            panic!("{what} does not compile: {e}\n{schema:#}");
        }
    };
    let mut derived = all_schemas(d);
    derived.extend(
        schemas!(d; Mode, Intent, Freshness, GrokResult, GrokReply, SearchResult,
        SearchOutput, TeamResearchPlan),
    );
    for (name, result) in &derived {
        check(
            name,
            result.as_ref().unwrap_or_else(|e| panic!("{name}: {e}")),
        );
    }
    assert_eq!(derived.len(), 41);
    let dir = format!("{}/../tests/fixtures/convert", env!("CARGO_MANIFEST_DIR"));
    let mut converted = 0;
    for (name, schema) in json_files(&dir, "schema") {
        if let Ok(out) = schema_core::convert::to_dialect(&schema, d) {
            check(&name, &out);
            converted += 1;
        }
    }
    assert!(converted >= 25, "{converted} corpus schemas converted");
    let Ok(mcp) = std::env::var("MCP_CORPUS") else {
        println!("MCP_CORPUS not set: the MCP corpus is not compiled");
        return;
    };
    let mut n = 0;
    let mut failed = Vec::new();
    let mut rejected = Vec::new();
    for (name, schema) in json_files(&mcp, "") {
        let out = match schema_core::convert::to_dialect(&schema, d) {
            Ok(out) => out,
            Err(e) => {
                rejected.push(format!("{name} at {}", e.pointer));
                continue;
            }
        };
        match matcher(&out) {
            Ok(_) => n += 1,
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    // Unsatisfiable as written (an `enum` of strings on an array): the conversion says so,
    // naming the place, instead of writing a schema llguidance finds unsatisfiable.
    assert_eq!(
        rejected,
        ["bfcl-live-simple__extract_parameters_v1.json at /properties/metrics"]
    );
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(n > 300, "MCP_CORPUS: {n} schemas");
}

/// The `.json` files of `dir` (sorted), or the value under `key` of each.
fn json_files(dir: &str, key: &str) -> Vec<(String, Value)> {
    schema_suite::json_files(dir)
        .into_iter()
        .map(|(p, v)| {
            let v = if key.is_empty() { v } else { v[key].clone() };
            (schema_suite::file_name(&p), v)
        })
        .collect()
}

/// Values generated from the type's precise schema that the type accepts, serialized by serde
/// (compact): the grammar of the type's `Llguidance` schema accepts every one. Returns how many.
fn accepts_generated<T>(name: &str, seed: u64) -> usize
where
    T: AgentSchema + serde::Serialize + serde::de::DeserializeOwned,
{
    let schema = T::json_schema(Dialect::Llguidance);
    let precise = T::validation_schema();
    let mut m = matcher(schema).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut rng = common::Rng(seed);
    let mut accepted = 0;
    for round in 0..60 {
        let v = common::generate(precise, precise, &mut rng, 0);
        let Ok(value) = T::from_value(v) else {
            continue;
        };
        let serialized = serde_json::to_value(&value).unwrap();
        // serde writes `null` for an `Option::None` without `skip_serializing_if`, which the
        // parser reads as absent but the schema (optional, not nullable) does not allow: such
        // members are left out, as a model constrained by the grammar leaves them out.
        let mut without_nulls = serialized.clone();
        drop_null_members(&mut without_nulls);
        let ok = [serialized, without_nulls].iter().any(|v| {
            let text = v.to_string();
            m.reset().unwrap();
            let tokens = env().tokenize_bytes(text.as_bytes());
            m.validate_tokens(&tokens).ok() == Some(tokens.len())
                && m.consume_tokens(&tokens).is_ok()
                && m.is_accepting().unwrap_or(false)
        });
        let text = serde_json::to_string(&value).unwrap();
        assert!(ok, "{name} round {round}: rejected {text}\n{schema:#}");
        accepted += 1;
    }
    accepted
}

#[test]
fn llguidance_dialect_accepts_serialized_values() {
    macro_rules! each {
        ($($t:ty),* $(,)?) => {
            vec![$((stringify!($t), accepts_generated::<$t>(stringify!($t), 7))),*]
        };
    }
    let counts = each!(
        Language,
        QuestionEvaluate,
        CodeGenerator,
        ErrorAnalysis,
        ResearchPlan,
        SerpCluster,
        Cluster,
        QueryRewriter,
        Tbs,
        SearchQuery,
        Evaluation,
        FreshnessAnalysis,
        PluralityAnalysis,
        CompletenessAnalysis,
        AgentStep,
        AgentAction,
        SearchAction,
        CodingAction,
        AnswerAction,
        ReflectAction,
        VisitAction,
        UniversalResponse,
        Status,
        PlanningData,
        PlanStep,
        VerificationData,
        Check,
        ClarityData,
        ResearchData,
        Level,
        Finding,
        AnswerData,
        ErrorDetails,
        Mode,
        Intent,
        Freshness,
        SearchOutput,
        TeamResearchPlan
    );
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let none: Vec<&str> = counts
        .iter()
        .filter(|(_, n)| *n == 0)
        .map(|(t, _)| *t)
        .collect();
    println!("{total} serialized values accepted; types with no valid generated value: {none:?}");
    assert!(total > 2000, "{total}");
    assert!(none.is_empty(), "{none:?}");
}

fn drop_null_members(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(drop_null_members);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_null_members),
        _ => {}
    }
}

/// Narrowed views in the engine dialects: the fast path gives exactly what converting the
/// narrowed schema gives, and the result compiles in llguidance.
#[test]
fn narrowed_views_in_engine_dialects() {
    use schema_core::view::View;
    const ACTIONS: [&str; 5] = ["search", "coding", "answer", "reflect", "visit"];
    const KINDS: [&str; 6] = [
        "definitive",
        "freshness",
        "plurality",
        "attribution",
        "completeness",
        "strict",
    ];
    let mut checked = 0;
    for d in Dialect::ENGINES {
        for mask in 1u32..32 {
            let allowed: Vec<&str> = (0..5)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| ACTIONS[i])
                .collect();
            let view = View::<AgentStep>::new()
                .keep_variants("", &allowed)
                .unwrap();
            let fast = view.json_schema(d).unwrap();
            assert_eq!(
                fast,
                view_json_schema_converted(&view, d).unwrap(),
                "{d} {allowed:?}"
            );
            matcher(&fast).unwrap_or_else(|e| panic!("{d} {allowed:?}: {e}"));
            checked += 1;
        }
        for mask in 1u32..64 {
            let allowed: Vec<&str> = (0..6)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| KINDS[i])
                .collect();
            let view = View::<Evaluation>::new()
                .keep_variants("", &allowed)
                .unwrap();
            let fast = view.json_schema(d).unwrap();
            assert_eq!(
                fast,
                view_json_schema_converted(&view, d).unwrap(),
                "{d} {allowed:?}"
            );
            matcher(&fast).unwrap_or_else(|e| panic!("{d} {allowed:?}: {e}"));
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * (31 + 63));
}

/// The dialect corrections of issue 13 hold in the engine: the `Llguidance` output compiles and
/// accepts what the input accepts. Before, a mixed-type `enum` was dropped (`"c"` accepted), a
/// list part's `items` did not reach a tuple part's positions (`[4]` accepted) and
/// `additionalItems` alone made the schema an array (`"x"` rejected).
#[test]
fn dialect_corrections_hold_in_the_engine() {
    let schema = json!({"type": "object", "properties": {
        "e": {"enum": ["a", 1, {"b": 2}]},
        "l": {"allOf": [{"prefixItems": [{"minimum": 3}]}], "items": {"type": "number", "minimum": 5}},
        "x": {"additionalItems": {"type": "string"}}
    }, "required": ["e", "l", "x"]});
    let out = schema_core::convert::to_dialect(&schema, Dialect::Llguidance).unwrap();
    let reply = |e: &str, l: &str| format!(r#"{{"e":{e},"l":{l},"x":"x"}}"#);
    for e in [r#""a""#, "1", r#"{"b":2}"#] {
        assert!(accepts(&out, &reply(e, "[5,6]")), "{e}: {out}");
    }
    assert!(!accepts(&out, &reply(r#""c""#, "[5]")), "{out}");
    assert!(!accepts(&out, &reply(r#""a""#, "[4]")), "{out}");
}
