//! The provider rule table (DESIGN.md) as a checker, run over every derived seed type and over
//! the converter's output for a corpus of hand-written input schemas
//! (`tests/fixtures/convert/`), plus targeted tests of each conversion and error.

use schema_core::convert::{
    to_dialect, to_dialect_report, to_dialect_with, ChangeKind, ConvertError, ConvertErrorKind,
    DialectOptions,
};
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use serde_json::{json, Map, Value};

const DIALECTS: [Dialect; 4] = [
    Dialect::OpenAi,
    Dialect::Anthropic,
    Dialect::Gemini,
    Dialect::LmStudio,
];

#[path = "common/rules.rs"]
mod rules;
use rules::*;

// ---------------------------------------------------------------------------------------------
// Derived types
// ---------------------------------------------------------------------------------------------

macro_rules! schemas {
    ($d:expr; $($t:ty),* $(,)?) => { vec![$((stringify!($t), <$t>::try_json_schema($d).cloned())),*] };
}

fn derived(d: Dialect) -> Vec<(&'static str, Result<Value, ConvertError>)> {
    schemas!(d; Language, QuestionEvaluate, CodeGenerator, ErrorAnalysis, ResearchPlan, SerpCluster,
        Cluster, QueryRewriter, Tbs, SearchQuery, Evaluation, FreshnessAnalysis, PluralityAnalysis,
        CompletenessAnalysis, AgentStep, AgentAction, SearchAction, CodingAction, AnswerAction,
        ReflectAction, VisitAction, UniversalResponse, Status, PlanningData, PlanStep,
        VerificationData, Check, ClarityData, ResearchData, Level, Finding, AnswerData, ErrorDetails)
}

#[test]
fn derived_types_obey_the_rule_table() {
    let mut checked = 0;
    for d in DIALECTS {
        for (name, result) in derived(d) {
            match result {
                Ok(schema) => {
                    let errors = check_rules(&schema, d);
                    assert!(errors.is_empty(), "{name} ({d}): {errors:#?}\n{schema:#}");
                    let full = full_of(name);
                    let lost = check_constraints_kept(&full, &schema);
                    assert!(lost.is_empty(), "{name} ({d}): {lost:?}");
                    checked += 1;
                }
                Err(e) => {
                    // (a map of values of any type: no JSON text for derived types)
                    let map = name == "UniversalResponse"
                        && d == Dialect::OpenAi
                        && e.pointer.starts_with("/properties/custom_fields");
                    assert!(map, "{name} ({d}): {e}");
                }
            }
        }
    }
    assert_eq!(checked, 4 * 33 - 1);
}

fn full_of(name: &str) -> Value {
    derived(Dialect::JsonSchema)
        .into_iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, r)| r.ok())
        .unwrap()
}

// ---------------------------------------------------------------------------------------------
// Corpus
// ---------------------------------------------------------------------------------------------

fn corpus() -> Vec<(String, Value)> {
    let dir = format!("{}/../tests/fixtures/convert", env!("CARGO_MANIFEST_DIR"));
    schema_suite::json_files(dir)
        .into_iter()
        .map(|(p, v)| (schema_suite::file_stem(&p), v))
        .collect()
}

fn kind_name(k: &ConvertErrorKind) -> &'static str {
    match k {
        ConvertErrorKind::UnresolvableRef(_) => "UnresolvableRef",
        ConvertErrorKind::RefCycle(_) => "RefCycle",
        ConvertErrorKind::RecursionNotAllowed(_) => "RecursionNotAllowed",
        ConvertErrorKind::Malformed(_) => "Malformed",
        ConvertErrorKind::RootNotObject => "RootNotObject",
        ConvertErrorKind::Unsupported(_) => "Unsupported",
        ConvertErrorKind::LimitExceeded { .. } => "LimitExceeded",
        ConvertErrorKind::TooDeep(_) => "TooDeep",
        _ => "other",
    }
}

#[test]
fn corpus_obeys_the_rule_table() {
    let corpus = corpus();
    assert!(corpus.len() >= 20);
    let mut keywords = std::collections::BTreeSet::new();
    for (name, case) in &corpus {
        let input = &case["schema"];
        collect_keys(input, &mut Vec::new(), &mut String::new());
        let mut ks = Vec::new();
        collect_keys(input, &mut ks, &mut String::new());
        keywords.extend(ks);
        for d in DIALECTS {
            let expected = case["errors"].get(d.name()).and_then(Value::as_str);
            match (to_dialect_report(input, d), expected) {
                (Ok(out), None) => {
                    let errors = check_rules(&out.schema, d);
                    assert!(
                        errors.is_empty(),
                        "{name} ({d}): {errors:#?}\n{:#}",
                        out.schema
                    );
                    let lost = check_constraints_kept(input, &out.schema);
                    assert!(lost.is_empty(), "{name} ({d}): {lost:?}\n{:#}", out.schema);
                    // keep_defs output obeys the same rules
                    let kept =
                        to_dialect_with(input, d, &DialectOptions::new().keep_defs(true)).unwrap();
                    let errors = check_rules(&kept.schema, d);
                    assert!(errors.is_empty(), "{name} ({d}, keep_defs): {errors:#?}");
                }
                (Err(e), Some(kind)) => assert_eq!(kind_name(&e.kind), kind, "{name} ({d}): {e}"),
                (Ok(out), Some(kind)) => {
                    panic!("{name} ({d}): expected {kind}, got {:#}", out.schema)
                }
                (Err(e), None) => panic!("{name} ({d}): {e}"),
            }
        }
    }
    // The corpus covers each keyword of the provider table.
    for k in [
        "$ref",
        "$defs",
        "definitions",
        "allOf",
        "oneOf",
        "anyOf",
        "const",
        "enum",
        "nullable",
        "pattern",
        "format",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "multipleOf",
        "minItems",
        "maxItems",
        "additionalProperties",
        "prefixItems",
        "default",
    ] {
        assert!(keywords.contains(k), "corpus lacks `{k}`");
    }
}

fn conv(v: &Value, d: Dialect) -> Value {
    to_dialect(v, d).unwrap_or_else(|e| panic!("{e}"))
}

fn case(name: &str) -> Value {
    corpus().into_iter().find(|(n, _)| n == name).unwrap().1["schema"].clone()
}

// ---------------------------------------------------------------------------------------------
// Targeted conversions (expected values written from DESIGN.md's table)
// ---------------------------------------------------------------------------------------------

#[test]
fn openai_optional_becomes_nullable_and_constraints_become_tags() {
    let out = conv(&case("mcp_search"), Dialect::OpenAi);
    assert_eq!(out["required"], json!(["query", "limit", "filters"]));
    assert_eq!(
        out["properties"]["query"],
        json!({"type": "string", "description": "@minLength 1\n@maxLength 500"})
    );
    assert_eq!(
        out["properties"]["limit"],
        json!({"description": "@default 10", "anyOf": [{"type": "integer", "minimum": 1, "maximum": 100}, {"type": "null"}]})
    );
    let filters = &out["properties"]["filters"]["anyOf"][0];
    assert_eq!(filters["additionalProperties"], json!(false));
    assert_eq!(filters["required"], json!(["lang", "since"]));
    assert_eq!(
        filters["properties"]["since"]["anyOf"][0],
        json!({"type": "string", "format": "date-time"})
    );
}

#[test]
fn anthropic_keeps_optional_and_tags_numbers() {
    let out = conv(&case("mcp_search"), Dialect::Anthropic);
    assert_eq!(out["required"], json!(["query"]));
    assert_eq!(
        out["properties"]["limit"],
        json!({"type": "integer", "description": "@minimum 1\n@maximum 100\n@default 10"})
    );
    assert_eq!(
        out["properties"]["filters"]["additionalProperties"],
        json!(false)
    );
    let arrays = conv(&case("array_limits"), Dialect::Anthropic);
    assert_eq!(
        arrays["properties"]["ids"],
        json!({"type": "array", "items": {"type": "integer"}, "minItems": 1, "description": "@minItems 3\n@maxItems 10\n@uniqueItems true"})
    );
    assert_eq!(arrays["properties"]["one"]["minItems"], json!(1));
}

#[test]
fn report_lists_the_changes() {
    let report = to_dialect_report(&case("openapi_pet"), Dialect::OpenAi).unwrap();
    let has = |p: &str, k: ChangeKind| report.changes.iter().any(|c| c.pointer == p && c.kind == k);
    assert!(has(
        "/properties/id",
        ChangeKind::Dropped {
            keyword: "format".into()
        }
    ));
    assert!(has(
        "/properties/name",
        ChangeKind::Dropped {
            keyword: "example".into()
        }
    ));
    assert!(has("/properties/tag", ChangeKind::TypeArraySplit));
    assert!(has("/properties/category", ChangeKind::RefInlined));
    assert!(has("/properties/category", ChangeKind::MadeNullable));
    assert!(has("/definitions/Category", ChangeKind::Closed));
    let out = &report.schema;
    // `$ref` with a sibling description: inlined, the description wins.
    assert_eq!(
        out["properties"]["category"]["description"],
        "The pet's category"
    );
    assert_eq!(
        out["properties"]["category"]["anyOf"][0]["required"],
        json!(["id", "name"])
    );
    // OpenAPI `nullable` on an enum.
    assert_eq!(
        out["properties"]["status"],
        json!({"description": "pet status in the store", "anyOf": [{"type": "string", "enum": ["available", "pending", "sold"]}, {"type": "null"}]})
    );
    assert!(out.get("definitions").is_none());
    for c in &report.changes {
        assert!(!c.to_string().is_empty());
    }
}

#[test]
fn oneof_becomes_anyof_and_root_union_merges() {
    let out = conv(&case("oneof_payment"), Dialect::OpenAi);
    let method = &out["properties"]["method"];
    assert!(method.get("oneOf").is_none());
    assert_eq!(method["anyOf"].as_array().unwrap().len(), 2);
    assert_eq!(
        method["anyOf"][0]["properties"]["kind"],
        json!({"type": "string", "const": "card"})
    );

    let report = to_dialect_report(&case("root_tagged_union"), Dialect::OpenAi).unwrap();
    assert!(report
        .changes
        .iter()
        .any(|c| c.kind == ChangeKind::UnionMerged));
    let out = report.schema;
    assert_eq!(out["description"], "A drawing command");
    assert_eq!(
        out["properties"]["shape"],
        json!({"type": "string", "enum": ["circle", "rect"], "description": "- circle: Draw a circle\n- rect: Draw a rectangle"})
    );
    assert_eq!(
        out["required"],
        json!(["shape", "radius", "width", "height"])
    );
    assert_eq!(
        out["properties"]["width"]["anyOf"][1],
        json!({"type": "null"})
    );
    // Anthropic: same object, the variant payloads optional.
    let out = conv(&case("root_tagged_union"), Dialect::Anthropic);
    assert_eq!(out["required"], json!(["shape"]));
    // Issue 12: a payload property names the tag value it belongs to.
    assert_eq!(
        out["properties"]["radius"],
        json!({"type": "number", "description": "(Only when `shape` is \"circle\".)\n\n@minimum 0"})
    );
}

#[test]
fn required_clauses_become_a_note() {
    for d in DIALECTS {
        let report = to_dialect_report(&case("required_clauses"), d).unwrap();
        assert!(report.schema.get("oneOf").is_none() && report.schema.get("anyOf").is_none());
        assert!(report.changes.iter().any(|c| c.pointer.is_empty()
            && c.kind
                == ChangeKind::Dropped {
                    keyword: "oneOf".into()
                }));
        let desc = report.schema["description"].as_str().unwrap();
        assert!(
            desc.starts_with("Fill exactly one of `search`, `answer`"),
            "{desc}"
        );
    }
    // seed 000 §9 derived
    let agent = AgentStep::json_schema(Dialect::OpenAi);
    assert!(agent.get("oneOf").is_none());
    assert_eq!(
        agent["properties"]["visit"]["anyOf"][1],
        json!({"type": "null"})
    );
}

#[test]
fn type_arrays_split() {
    let out = conv(&case("type_arrays"), Dialect::OpenAi);
    assert_eq!(
        out["properties"]["value"],
        json!({"anyOf": [{"type": "string", "description": "@maxLength 20"}, {"type": "number", "minimum": 0}]})
    );
    assert_eq!(
        out["properties"]["count"],
        json!({"anyOf": [{"type": "integer"}, {"type": "null"}]})
    );
    assert_eq!(
        out["properties"]["tags"]["anyOf"][0],
        json!({"type": "array", "items": {"type": "string"}})
    );
}

#[test]
fn gemini_const_enum_and_property_ordering() {
    let out = conv(&case("const_values"), Dialect::Gemini);
    assert_eq!(
        out["properties"]["version"],
        json!({"type": "string", "enum": ["2"]})
    );
    assert_eq!(
        out["properties"]["level"],
        json!({"type": "integer", "enum": [3]})
    );
    assert_eq!(out["propertyOrdering"], json!(["version", "mode", "level"]));
    assert_eq!(
        conv(&case("const_values"), Dialect::OpenAi)["properties"]["mode"],
        json!({"type": "string", "const": "fast"})
    );
}

#[test]
fn formats_and_patterns_per_dialect() {
    let f = case("formats");
    let openai = conv(&f, Dialect::OpenAi);
    assert_eq!(
        openai["properties"]["site"],
        json!({"type": "string", "description": "@format uri"})
    );
    assert_eq!(openai["properties"]["ratio"], json!({"type": "number"}));
    assert_eq!(
        conv(&f, Dialect::Anthropic)["properties"]["site"],
        json!({"type": "string", "format": "uri"})
    );
    assert_eq!(
        conv(&f, Dialect::Gemini)["properties"]["id"]["description"],
        "@format uuid"
    );
    let p = case("patterns");
    let anthropic = conv(&p, Dialect::Anthropic);
    assert_eq!(anthropic["properties"]["slug"]["pattern"], "^[a-z0-9-]+$");
    assert_eq!(
        anthropic["properties"]["password"]["description"],
        "@pattern ^(?=.*[0-9]).{8,}$"
    );
    assert_eq!(
        anthropic["properties"]["word"]["description"],
        "@pattern \\bcat\\b"
    );
    let lm = conv(&p, Dialect::LmStudio);
    assert_eq!(lm["properties"]["slug"]["pattern"], "^[a-z0-9-]+$");
    // Corrected in issue 13: llama.cpp converts a pattern inside array items exactly (it used to
    // be tagged there, and then nothing enforced it).
    assert_eq!(
        lm["properties"]["codes"]["items"],
        json!({"type": "string", "pattern": "^[A-Z]{3}$"})
    );
    let long = conv(&case("long_strings"), Dialect::LmStudio);
    assert_eq!(
        long["properties"]["body"],
        json!({"type": "string", "description": "@maxLength 20000"})
    );
    assert_eq!(
        long["properties"]["title"],
        json!({"type": "string", "maxLength": 80})
    );
}

#[test]
fn documented_enum_becomes_enum() {
    let out = conv(&case("documented_enum"), Dialect::OpenAi);
    assert_eq!(
        out["properties"]["tbs"],
        json!({"type": "string", "description": "Time filter\n\n- qdr:h: past hour\n- qdr:d: past day\n- qdr:w: past week", "enum": ["qdr:h", "qdr:d", "qdr:w"]})
    );
}

#[test]
fn recursion_kept_as_ref_or_refused() {
    let tree = case("recursive_tree");
    let out = conv(&tree, Dialect::OpenAi);
    assert_eq!(out["properties"]["root"], json!({"$ref": "#/$defs/Node"}));
    assert_eq!(
        out["$defs"]["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    let off = DialectOptions::new().recursion_depth(0);
    let err = to_dialect_with(&tree, Dialect::Anthropic, &off).unwrap_err();
    assert_eq!(
        err.kind,
        ConvertErrorKind::RecursionNotAllowed("Node".into())
    );
    assert_eq!(err.pointer, "/properties/root");
    assert!(err.to_string().contains("Node"));
    let root = conv(&case("root_recursion"), Dialect::OpenAi);
    assert_eq!(
        root["properties"]["parent"],
        json!({"anyOf": [{"$ref": "#"}, {"type": "null"}]})
    );
}

#[test]
fn keep_defs_keeps_shared_types() {
    let s = case("shared_defs");
    let inlined = conv(&s, Dialect::OpenAi);
    assert!(inlined.get("$defs").is_none());
    assert_eq!(
        inlined["properties"]["billing"]["properties"]["zip"]["pattern"],
        "^[0-9]{5}$"
    );
    let kept = to_dialect_with(&s, Dialect::OpenAi, &DialectOptions::new().keep_defs(true))
        .unwrap()
        .schema;
    assert_eq!(
        kept["properties"]["billing"],
        json!({"$ref": "#/$defs/Address"})
    );
    assert_eq!(
        kept["properties"]["shipping"]["anyOf"][0],
        json!({"$ref": "#/$defs/Address"})
    );
    assert_eq!(
        kept["$defs"]["Address"]["required"],
        json!(["street", "zip"])
    );
    // LM Studio: nested references are fragile, always inlined.
    let lm = to_dialect_with(
        &s,
        Dialect::LmStudio,
        &DialectOptions::new().keep_defs(true),
    )
    .unwrap()
    .schema;
    assert!(lm.get("$defs").is_none());
}

#[test]
fn maps_are_errors_unless_closed() {
    let s = case("map_metadata");
    let off = DialectOptions::new().map_entries(false);
    let err = to_dialect_with(&s, Dialect::OpenAi, &off).unwrap_err();
    assert_eq!(err.pointer, "/properties/metadata");
    assert!(
        err.to_string().contains("additionalProperties: false"),
        "{err}"
    );
    let closed =
        to_dialect_with(&s, Dialect::OpenAi, &DialectOptions::new().close_maps(true)).unwrap();
    assert!(closed
        .changes
        .iter()
        .any(|c| c.kind == ChangeKind::MapClosed));
    let lm = conv(&s, Dialect::LmStudio);
    assert_eq!(
        lm["properties"]["metadata"]["additionalProperties"],
        json!({"type": "string"})
    );
    // A tool without arguments is closed, not refused; a bare `{"type": "object"}` is a map.
    let no_args = json!({"type": "object", "properties": {}});
    assert_eq!(
        conv(&no_args, Dialect::OpenAi),
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    let free =
        json!({"type": "object", "properties": {"x": {"type": "object"}}, "required": ["x"]});
    let off = DialectOptions::new().map_entries(false);
    assert_eq!(
        to_dialect_with(&free, Dialect::Anthropic, &off)
            .unwrap_err()
            .pointer,
        "/properties/x"
    );
    let err = UniversalResponse::try_json_schema(Dialect::OpenAi).unwrap_err();
    assert!(
        err.pointer.starts_with("/properties/custom_fields"),
        "{err}"
    );
}

#[test]
fn annotations_dropped() {
    let report = to_dialect_report(&case("annotations"), Dialect::OpenAi).unwrap();
    let out = &report.schema;
    assert!(out.get("$id").is_none() && out.get("$comment").is_none());
    assert_eq!(
        out["properties"]["note"],
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
    );
    assert_eq!(out["properties"]["retries"]["description"], "@default 3");
    for k in ["default", "readOnly", "x-order", "deprecated"] {
        assert!(
            report
                .changes
                .iter()
                .any(|c| c.pointer == "/properties/note"
                    && c.kind == ChangeKind::Dropped { keyword: k.into() }),
            "{k}"
        );
    }
}

#[test]
fn draft4_and_alias_chains() {
    let out = conv(&case("draft4_definitions"), Dialect::OpenAi);
    assert_eq!(
        out["properties"]["level"],
        json!({"anyOf": [{"type": "string", "enum": ["low", "high"]}, {"type": "null"}]})
    );
    assert_eq!(
        out["properties"]["temp"],
        json!({"type": "number", "minimum": 0, "description": "@exclusiveMinimum true"})
    );
    let out = conv(&case("ref_chain"), Dialect::LmStudio);
    assert_eq!(
        out["properties"]["when"],
        json!({"type": "string", "format": "date-time", "description": "ISO time"})
    );
}

#[test]
fn allof_merged() {
    let report = to_dialect_report(&case("allof_compose"), Dialect::OpenAi).unwrap();
    assert!(report
        .changes
        .iter()
        .any(|c| c.kind == ChangeKind::AllOfMerged));
    let out = report.schema;
    assert_eq!(out["description"], "A user");
    let names: Vec<&String> = out["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["id", "created", "email"]);
    assert_eq!(
        out["properties"]["id"],
        json!({"type": "string", "format": "uuid"})
    );
    assert_eq!(
        out["properties"]["created"]["anyOf"][1],
        json!({"type": "null"})
    );
}

#[test]
fn json_schema_target_is_identity() {
    for (_, c) in corpus() {
        let s = &c["schema"];
        assert_eq!(&to_dialect(s, Dialect::JsonSchema).unwrap(), s);
    }
    let bad = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Nope"}}});
    assert!(to_dialect(&bad, Dialect::JsonSchema).is_err());
}

// ---------------------------------------------------------------------------------------------
// Errors, never panics
// ---------------------------------------------------------------------------------------------

#[test]
fn structural_errors_carry_a_pointer() {
    let dangling = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}});
    let e = to_dialect(&dangling, Dialect::OpenAi).unwrap_err();
    assert_eq!(
        e.kind,
        ConvertErrorKind::UnresolvableRef("#/$defs/Missing".into())
    );
    assert_eq!(e.pointer, "/properties/a");
    let remote = json!({"type": "object", "properties": {"a": {"$ref": "other.json#/x"}}});
    assert!(matches!(
        to_dialect(&remote, Dialect::Gemini).unwrap_err().kind,
        ConvertErrorKind::UnresolvableRef(_)
    ));
    assert!(matches!(
        to_dialect(&json!("string"), Dialect::OpenAi)
            .unwrap_err()
            .kind,
        ConvertErrorKind::Malformed(_)
    ));
    for root in [
        json!({"type": "string"}),
        json!({"type": "array", "items": {"type": "string"}}),
    ] {
        // (wrapped in `{"value": ...}`: OpenAI takes only an object root)
        let out = to_dialect(&root, Dialect::OpenAi).unwrap();
        assert_eq!(out["required"], json!(["value"]), "{root}");
    }
    let malformed = json!({"type": "object", "properties": {"a": 5}});
    let e = to_dialect(&malformed, Dialect::LmStudio).unwrap_err();
    assert!(matches!(e.kind, ConvertErrorKind::Malformed(_)));
    assert_eq!(e.pointer, "/properties/a");
    let bad_type = json!({"type": "object", "properties": {"a": {"type": "strin"}}});
    assert!(matches!(
        to_dialect(&bad_type, Dialect::OpenAi).unwrap_err().kind,
        ConvertErrorKind::Malformed(_)
    ));
    let bad_required = json!({"type": "object", "properties": {}, "required": "a"});
    assert!(matches!(
        to_dialect(&bad_required, Dialect::OpenAi).unwrap_err().kind,
        ConvertErrorKind::Malformed(_)
    ));
}

#[test]
fn ref_cycles_without_object_are_errors() {
    let cycle = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "null"}]}, "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}}});
    for d in Dialect::STANDARD_AND_PROVIDERS {
        if d == Dialect::JsonSchema {
            continue;
        }
        assert!(
            matches!(
                to_dialect(&cycle, d).unwrap_err().kind,
                ConvertErrorKind::RefCycle(_)
            ),
            "{d}"
        );
    }
    let alias = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}});
    assert!(matches!(
        to_dialect(&alias, Dialect::OpenAi).unwrap_err().kind,
        ConvertErrorKind::RefCycle(_)
    ));
    assert!(to_dialect(&alias, Dialect::JsonSchema).is_err());
    let self_allof = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}});
    assert!(to_dialect(&self_allof, Dialect::OpenAi).is_err());
}

/// Builds a schema nested `n` deep without recursion, and takes it apart the same way (a
/// recursive drop of 10,000 levels could itself overflow a test thread's stack).
fn deep(n: usize, wrap: impl Fn(Value) -> Value) -> Value {
    // `wrap` must move its argument into place (`json!` would serialize it recursively).
    let mut v = json!({"type": "string"});
    for _ in 0..n {
        v = wrap(v);
    }
    v
}

fn dismantle(mut v: Value) {
    let mut stack = vec![];
    loop {
        match &mut v {
            Value::Object(m) => stack.extend(std::mem::take(m).into_iter().map(|(_, c)| c)),
            Value::Array(a) => stack.append(a),
            _ => {}
        }
        match stack.pop() {
            Some(n) => v = n,
            None => break,
        }
    }
}

#[test]
fn ten_thousand_levels_are_an_error() {
    let props = deep(10_000, |v| {
        obj(&[("type", json!("object"))]).with("properties", obj(&[]).with("a", v))
    });
    let items = deep(10_000, |v| {
        obj(&[]).with("anyOf", Value::Array(vec![v, json!({"type": "null"})]))
    });
    let all = deep(10_000, |v| obj(&[]).with("allOf", Value::Array(vec![v])));
    for s in [&props, &items, &all] {
        for d in Dialect::STANDARD_AND_PROVIDERS {
            let e = to_dialect(s, d).unwrap_err();
            assert_eq!(
                e.kind,
                ConvertErrorKind::TooDeep(schema_core::convert::MAX_DEPTH),
                "{d}"
            );
        }
    }
    // A long chain of `$ref`s to `$ref`s, each adding an object.
    let mut defs = Map::new();
    for i in 0..10_000 {
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {"n": {"$ref": format!("#/$defs/D{}", i + 1)}}}),
        );
    }
    defs.insert("D10000".into(), json!({"type": "string"}));
    let chain =
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/D0"}}, "$defs": defs});
    assert!(to_dialect(&chain, Dialect::OpenAi).is_err());
    for v in [props, items, all, chain] {
        dismantle(v);
    }
}

#[test]
fn exponential_inlining_is_bounded() {
    // D_i holds two references to D_{i+1}: inlining would make 2^40 copies.
    let mut defs = Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(format!("D{i}"), json!({"type": "object", "properties": {"l": {"$ref": next}, "r": {"$ref": next}}, "required": ["l", "r"], "additionalProperties": false}));
    }
    defs.insert("D40".into(), json!({"type": "string"}));
    let s = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/D0"}}, "$defs": defs});
    let e = to_dialect(&s, Dialect::Gemini).unwrap_err();
    assert!(
        matches!(
            e.kind,
            ConvertErrorKind::LimitExceeded { .. } | ConvertErrorKind::TooDeep(_)
        ),
        "{e}"
    );
    // The engines that compile a `$ref` once keep the shared types as references without
    // being asked, LM Studio's (llama.cpp's) included, where inlining blows the output up.
    let lm = to_dialect(&s, Dialect::LmStudio).unwrap();
    assert_eq!(
        lm["$defs"]["D39"]["properties"]["r"],
        json!({"$ref": "#/$defs/D40"})
    );
    // With keep_defs the shared types stay references (and nesting, not size, is the limit).
    let kept = to_dialect_with(&s, Dialect::Gemini, &DialectOptions::new().keep_defs(true))
        .unwrap()
        .schema;
    assert_eq!(
        kept["properties"]["a"]["properties"]["l"],
        json!({"$ref": "#/$defs/D1"})
    );
    assert_eq!(
        kept["$defs"]["D39"]["properties"]["r"],
        json!({"$ref": "#/$defs/D40"})
    );
}

// ---------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------

fn object_with(n: usize, optional: bool) -> Value {
    let props: Map<String, Value> = (0..n)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let required: Vec<Value> = if optional {
        vec![]
    } else {
        (0..n).map(|i| json!(format!("p{i}"))).collect()
    };
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

fn limit_of(r: Result<Value, ConvertError>) -> (&'static str, usize, usize) {
    match r.unwrap_err().kind {
        ConvertErrorKind::LimitExceeded { limit, max, found } => (limit, max, found),
        k => panic!("{k:?}"),
    }
}

#[test]
fn openai_limits() {
    assert!(to_dialect(&object_with(5000, false), Dialect::OpenAi).is_ok());
    assert_eq!(
        limit_of(to_dialect(&object_with(5001, false), Dialect::OpenAi)),
        ("properties", 5000, 5001)
    );
    let nest = |n: usize| {
        deep(n, |v| {
            obj(&[
                ("type", json!("object")),
                ("required", json!(["a"])),
                ("additionalProperties", json!(false)),
            ])
            .with("properties", obj(&[]).with("a", v))
        })
    };
    assert!(to_dialect(&nest(10), Dialect::OpenAi).is_ok());
    // over the nesting limit a plan: the 11th level goes without a grammar, as JSON text
    let eleven = nest(11);
    let c = to_dialect_report(&eleven, Dialect::OpenAi).unwrap();
    let deepest = "/properties/a".repeat(10);
    assert_eq!(c.schema.pointer(&deepest).unwrap()["type"], "string");
    assert!(c
        .changes
        .iter()
        .any(|ch| ch.pointer == deepest && ch.kind == ChangeKind::WithoutGrammar));
    assert!(to_dialect(&eleven, Dialect::LmStudio).is_ok());
    let enum_of = |n: usize| json!({"type": "object", "properties": {"e": {"type": "string", "enum": (0..n).map(|i| format!("v{i}")).collect::<Vec<_>>()}}, "required": ["e"], "additionalProperties": false});
    assert!(to_dialect(&enum_of(1000), Dialect::OpenAi).is_ok());
    // over the enum limit a plan: the enum moves into the description
    let c = to_dialect_report(&enum_of(1001), Dialect::OpenAi).unwrap();
    let e = &c.schema["properties"]["e"];
    assert!(e.get("enum").is_none() && e["description"].as_str().unwrap().starts_with("@enum"));
    let long_names: Map<String, Value> = (0..100)
        .map(|i| {
            (
                format!("{i:04}{}", "n".repeat(1250)),
                json!({"type": "boolean"}),
            )
        })
        .collect();
    let names: Vec<Value> = long_names.keys().cloned().map(Value::String).collect();
    let chars = json!({"type": "object", "properties": long_names, "required": names, "additionalProperties": false});
    let (limit, max, found) = limit_of(to_dialect(&chars, Dialect::OpenAi));
    assert_eq!(
        (limit, max),
        ("characters of names and enum values", 120_000)
    );
    assert!(found > 120_000);
}

#[test]
fn anthropic_limits() {
    assert!(to_dialect(&object_with(24, true), Dialect::Anthropic).is_ok());
    // over the budget: a plan (one optional property made required and nullable), reported
    let planned = to_dialect_report(&object_with(25, true), Dialect::Anthropic).unwrap();
    assert!(planned.changes.iter().any(|c| c.kind
        == ChangeKind::BudgetPlan {
            nullable: 1,
            free: 0
        }));
    assert!(to_dialect(&object_with(25, true), Dialect::OpenAi).is_ok());
    let unions = |n: usize| {
        let props: Map<String, Value> = (0..n)
            .map(|i| (format!("u{i}"), json!({"type": ["string", "integer"]})))
            .collect();
        let req: Vec<Value> = (0..n).map(|i| json!(format!("u{i}"))).collect();
        json!({"type": "object", "properties": props, "required": req, "additionalProperties": false})
    };
    assert!(to_dialect(&unions(16), Dialect::Anthropic).is_ok());
    // over the union budget: the plan writes a union without a grammar, reported
    let planned = to_dialect_report(&unions(17), Dialect::Anthropic).unwrap();
    assert!(planned
        .changes
        .iter()
        .any(|c| c.kind == ChangeKind::WithoutGrammar));
}

/// An object from (key, value) pairs.
fn obj(pairs: &[(&str, Value)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

/// Moves `v` under `key` (no serialization).
trait With {
    fn with(self, key: &str, v: Value) -> Value;
}

impl With for Value {
    fn with(mut self, key: &str, v: Value) -> Value {
        if let Value::Object(m) = &mut self {
            m.insert(key.to_string(), v);
        }
        self
    }
}

#[test]
fn recursive_ref_keeps_its_description_and_gemini_needs_an_optional_cycle() {
    let s = json!({"type": "object", "properties": {
        "next": {"$ref": "#", "description": "The next node"}, "v": {"type": "string"}}, "required": ["v"]});
    let out = conv(&s, Dialect::OpenAi);
    assert_eq!(
        out["properties"]["next"],
        json!({"description": "The next node", "anyOf": [{"$ref": "#"}, {"type": "null"}]})
    );
    assert!(check_rules(&out, Dialect::OpenAi).is_empty());
    let lm = conv(&s, Dialect::LmStudio);
    assert_eq!(
        lm["properties"]["next"],
        json!({"description": "The next node", "anyOf": [{"$ref": "#"}]})
    );
    assert!(to_dialect(&s, Dialect::Gemini).is_ok());
    let required =
        json!({"type": "object", "properties": {"next": {"$ref": "#"}}, "required": ["next"]});
    let e = to_dialect(&required, Dialect::Gemini).unwrap_err();
    assert_eq!(e.pointer, "/properties/next");
    assert!(e.to_string().contains("Gemini"), "{e}");
    assert!(to_dialect(&required, Dialect::OpenAi).is_ok());
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    const KEYS: &[&str] = &[
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "prefixItems",
        "anyOf",
        "oneOf",
        "allOf",
        "enum",
        "const",
        "$ref",
        "$defs",
        "definitions",
        "nullable",
        "pattern",
        "format",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "description",
        "default",
        "a",
        "b",
    ];

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..2000).prop_map(|n| json!(n)),
            prop::sample::select(vec![
                "object",
                "string",
                "integer",
                "number",
                "array",
                "null",
                "boolean",
                "#",
                "#/$defs/a",
                "#/$defs/b",
                "#/definitions/a",
                "#/properties/a",
                "^[a-z]+$",
                "(?=x)",
                "uri",
                "date",
            ])
            .prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(6, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((prop::sample::select(KEYS.to_vec()), inner), 0..6).prop_map(
                    |kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                ),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
        /// Arbitrary JSON in schema-like shapes: a result or an error, never a panic; and every
        /// successful conversion obeys the rule table.
        #[test]
        fn arbitrary_input(
            raw in json_value(),
            parts in prop::collection::vec(json_value(), 5),
            wrap in any::<bool>(),
        ) {
            // Half the cases: an object root whose parts are arbitrary (to get past the root).
            let v = if wrap {
                let mut root = Map::new();
                root.insert("type".into(), json!("object"));
                root.insert("properties".into(), obj(&[("a", parts[0].clone()), ("b", parts[1].clone())]));
                root.insert("required".into(), json!(["a"]));
                root.insert("$defs".into(), obj(&[("a", parts[2].clone()), ("b", parts[3].clone())]));
                root.insert("definitions".into(), obj(&[("a", parts[4].clone())]));
                Value::Object(root)
            } else {
                raw
            };
            for d in Dialect::STANDARD_AND_PROVIDERS {
                let opts = DialectOptions::new().keep_defs(true);
                if let Ok(out) = to_dialect_with(&v, d, &opts) {
                    if d != Dialect::JsonSchema {
                        let errors = check_rules(&out.schema, d);
                        prop_assert!(errors.is_empty(), "{d}: {errors:?}\n{v}\n{}", out.schema);
                    }
                }
                let _ = to_dialect(&v, d);
            }
        }
    }
}

/// Everything we emit is a valid JSON Schema document (checked against the 2020-12 meta-schema
/// by the `jsonschema` crate): every derived type in every dialect, every converted corpus
/// schema, and narrowed views.
#[test]
fn emitted_schemas_are_valid_against_the_meta_schema() {
    let mut checked = 0;
    let mut check = |what: &str, schema: &Value| {
        if let Err(e) = jsonschema::meta::validate(schema) {
            panic!("{what}: {e}\n{schema:#}");
        }
        checked += 1;
    };
    for d in Dialect::EVERY {
        for (name, result) in derived(d) {
            if let Ok(schema) = result {
                check(&format!("{name} ({d})"), &schema);
            }
            if d == Dialect::JsonSchema {
                let full = full_of(name);
                check(&format!("{name} (typescript input)"), &full);
            }
        }
        // (`JsonSchema` returns a corpus schema unchanged: some are written in draft 4 on purpose.)
        for (name, case) in corpus().into_iter().filter(|_| d != Dialect::JsonSchema) {
            if let Ok(out) = to_dialect(&case["schema"], d) {
                check(&format!("{name} ({d})"), &out);
            }
        }
        let view = schema_core::view::View::<AgentStep>::new()
            .keep_variants("", &["search", "answer"])
            .unwrap()
            .describe("think", "Question: why?")
            .unwrap();
        check(
            &format!("narrowed AgentStep ({d})"),
            &view.json_schema(d).unwrap(),
        );
    }
    assert!(checked > 500, "{checked}");
}

// ---------------------------------------------------------------------------------------------
// Issue 12's converter items and issue 13's engine dialects
// ---------------------------------------------------------------------------------------------

/// A conversion of its own output changes nothing and reports nothing, in every dialect, for
/// every derived type and every corpus schema.
#[test]
fn conversion_is_idempotent() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for d in Dialect::EVERY
        .into_iter()
        .filter(|d| *d != Dialect::JsonSchema)
    {
        let mut inputs: Vec<(String, Value)> = derived(Dialect::JsonSchema)
            .into_iter()
            .map(|(n, r)| (n.to_string(), r.unwrap()))
            .collect();
        inputs.extend(corpus().into_iter().map(|(n, c)| (n, c["schema"].clone())));
        for (name, input) in inputs {
            let Ok(once) = to_dialect(&input, d) else {
                continue;
            };
            match to_dialect_report(&once, d) {
                Ok(twice) if twice.schema == once && twice.changes.is_empty() => checked += 1,
                Ok(twice) => failures.push(format!(
                    "{name} ({d}): {:?}\n  once:  {once}\n  twice: {}",
                    twice
                        .changes
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>(),
                    twice.schema
                )),
                Err(e) => failures.push(format!("{name} ({d}): second pass fails: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} not idempotent:\n{}",
        failures.len(),
        failures.len() + checked,
        failures.join("\n")
    );
    assert!(checked > 400, "{checked}");
}

/// Gemini: the `propertyOrdering` the conversion adds is reported, once per object; a second
/// pass over the output reports nothing.
#[test]
fn gemini_reports_the_property_ordering_it_adds() {
    let input = json!({
        "type": "object",
        "properties": {
            "b": {"type": "string"},
            "a": {"type": "object", "properties": {"y": {"type": "integer"}, "x": {"type": "integer"}}}
        }
    });
    let out = to_dialect_report(&input, Dialect::Gemini).unwrap();
    assert_eq!(out.schema["propertyOrdering"], json!(["b", "a"]));
    assert_eq!(
        out.schema["properties"]["a"]["propertyOrdering"],
        json!(["y", "x"])
    );
    let added: Vec<&str> = out
        .changes
        .iter()
        .filter(|c| {
            c.kind
                == ChangeKind::Added {
                    keyword: "propertyOrdering".into(),
                }
        })
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(added, ["/properties/a", ""]);
    let again = to_dialect_report(&out.schema, Dialect::Gemini).unwrap();
    assert_eq!(again.schema, out.schema);
    assert!(again.changes.is_empty(), "{:?}", again.changes);
    // Elsewhere `propertyOrdering` is not a keyword: dropped and reported.
    let openai = to_dialect_report(&out.schema, Dialect::OpenAi).unwrap();
    assert!(openai.schema["propertyOrdering"].is_null());
    assert!(openai.changes.iter().any(|c| c.pointer.is_empty()
        && c.kind
            == ChangeKind::Dropped {
                keyword: "propertyOrdering".into()
            }));
}

/// Issue 12: OpenAI wrote an empty-string default as a bare `@default ` (quotes lost).
#[test]
fn an_empty_default_keeps_its_quotes() {
    let input = json!({
        "type": "object",
        "properties": {"suffix": {"type": "string", "default": "", "description": "Suffix"}},
        "required": ["suffix"]
    });
    for d in [
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::LlamaCpp,
    ] {
        let out = conv(&input, d);
        assert_eq!(
            out["properties"]["suffix"]["description"], "Suffix\n\n@default \"\"",
            "{d}"
        );
    }
    let text = json!({"type": "object", "properties": {"s": {"type": "string", "default": "x y"}}});
    assert_eq!(
        conv(&text, Dialect::OpenAi)["properties"]["s"]["description"],
        "@default x y"
    );
}

/// Issue 12: an MCP tool without arguments, `{"type": "object"}`, is accepted and closed under
/// OpenAI and Anthropic, exactly like `{"type": "object", "properties": {}}`; a free object
/// below the root is still a map (an error there).
#[test]
fn a_tool_without_arguments_is_closed() {
    let bare = json!({"type": "object"});
    let declared = json!({"type": "object", "properties": {}});
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let out = to_dialect_report(&bare, d).unwrap();
        assert_eq!(
            out.schema,
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
            "{d}"
        );
        assert_eq!(out.schema, conv(&declared, d), "{d}");
        assert!(out.changes.iter().any(|c| c.kind == ChangeKind::Closed));
        let nested = json!({"type": "object", "properties": {"meta": {"type": "object"}}});
        let off = DialectOptions::new().map_entries(false);
        let e = to_dialect_with(&nested, d, &off).unwrap_err();
        assert_eq!(e.pointer, "/properties/meta", "{d}");
    }
}

/// Issue 12: in the one-object form of a root tagged union, each payload property says which
/// tag value it belongs to; properties every variant has say nothing.
#[test]
fn one_object_payloads_name_their_tag() {
    let out = conv(&case("root_tagged_union"), Dialect::OpenAi);
    let props = out["properties"].as_object().unwrap();
    for (name, schema) in props {
        let text = serde_json::to_string(schema).unwrap();
        match name.as_str() {
            "shape" => assert!(!text.contains("Only when"), "{text}"),
            "radius" => assert!(
                text.contains("(Only when `shape` is \\\"circle\\\".)"),
                "{text}"
            ),
            "width" | "height" => {
                assert!(
                    text.contains("(Only when `shape` is \\\"rect\\\".)"),
                    "{text}"
                )
            }
            other => panic!("unexpected property {other}"),
        }
    }
    let eval = Evaluation::json_schema(Dialect::OpenAi);
    let desc = eval["properties"]["freshness_analysis"].to_string();
    assert!(
        desc.contains("(Only when `type` is \\\"freshness\\\".)"),
        "{desc}"
    );
}

/// Issue 13: llama.cpp (and LM Studio, the same table) keeps a root union as an `anyOf` of
/// closed variant objects, and keeps patterns inside array items.
#[test]
fn llama_cpp_keeps_unions_and_item_patterns() {
    for d in [Dialect::LlamaCpp, Dialect::LmStudio, Dialect::Ollama] {
        let out = conv(&case("root_tagged_union"), d);
        let branches = out["anyOf"].as_array().unwrap();
        assert_eq!(branches.len(), 2, "{d}");
        assert!(branches.iter().all(|b| b["type"] == "object"), "{d}");
        assert!(out.get("properties").is_none(), "{d}");
        let eval = Evaluation::json_schema(d);
        assert!(eval["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["additionalProperties"] == json!(false)));
        let p = conv(&case("patterns"), d);
        assert_eq!(p["properties"]["codes"]["items"]["pattern"], "^[A-Z]{3}$");
        // A one-object type stays one object.
        let u = UniversalResponse::json_schema(d);
        assert_eq!(u["type"], "object");
    }
}

/// The engine tables, keyword by keyword, against each engine's documented rules.
#[test]
fn engine_dialects_follow_their_tables() {
    let input = json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "maxLength": 3},
            "name": {"type": "string", "minLength": 2, "maxLength": 40},
            "lookahead": {"type": "string", "pattern": "^(?=.*[0-9]).{8,}$"},
            "even": {"type": "integer", "multipleOf": 2, "minimum": 0},
            "ratio": {"type": "number", "minimum": 0, "maximum": 1},
            "tags": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}
        },
        "required": ["code"]
    });
    let code = |d| conv(&input, d)["properties"]["code"].clone();
    // xgrammar drops lengths beside a pattern (xgrammar#749): tagged; vLLM the same.
    for d in [Dialect::Xgrammar, Dialect::Vllm] {
        assert_eq!(
            code(d),
            json!({"type": "string", "pattern": "^[A-Z]{3}$", "description": "@maxLength 3"}),
            "{d}"
        );
        let out = conv(&input, d);
        assert_eq!(out["properties"]["name"]["maxLength"], 40, "{d}");
        assert_eq!(
            out["properties"]["even"]["description"], "@multipleOf 2",
            "{d}"
        );
        assert_eq!(out["properties"]["ratio"]["maximum"], 1, "{d}");
    }
    // llguidance and llama.cpp too: llama.cpp's converter reads a string's pattern and not
    // its lengths, and llguidance cannot always intersect the two (`tests/engine_compile.rs`).
    for d in [Dialect::Llguidance, Dialect::LlamaCpp] {
        assert_eq!(
            code(d),
            json!({"type": "string", "pattern": "^[A-Z]{3}$", "description": "@maxLength 3"}),
            "{d}"
        );
    }
    // Lookaround is not regular: tagged for llguidance, xgrammar and llama.cpp (whose server
    // logs "unsupported group syntax" and accepts any string).
    let look = |d| conv(&input, d)["properties"]["lookahead"].clone();
    assert_eq!(
        look(Dialect::Llguidance)["description"],
        "@pattern ^(?=.*[0-9]).{8,}$"
    );
    assert_eq!(
        look(Dialect::Xgrammar)["description"],
        "@pattern ^(?=.*[0-9]).{8,}$"
    );
    assert_eq!(
        look(Dialect::LlamaCpp)["description"],
        "@pattern ^(?=.*[0-9]).{8,}$"
    );
    assert!(look(Dialect::LlamaCpp).get("pattern").is_none());
    // llama.cpp converts only patterns anchored at both ends: the others are tagged.
    let unanchored = json!({"type": "object", "properties": {
        "url": {"type": "string", "pattern": "^https?://[^/?#\\s]+"},
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "end": {"type": "string", "pattern": "^a\\$"}
    }});
    for d in [Dialect::LlamaCpp, Dialect::LmStudio] {
        let out = conv(&unanchored, d);
        assert_eq!(
            out["properties"]["url"]["description"], "@pattern ^https?://[^/?#\\s]+",
            "{d}"
        );
        assert_eq!(out["properties"]["code"]["pattern"], "^[A-Z]{3}$", "{d}");
        assert!(out["properties"]["end"].get("pattern").is_none(), "{d}");
    }
    // llama.cpp converts integer bounds only.
    let l = conv(&input, Dialect::LlamaCpp);
    assert_eq!(l["properties"]["even"]["multipleOf"], 2);
    assert_eq!(
        l["properties"]["ratio"]["description"],
        "@minimum 0\n@maximum 1"
    );
    // patternProperties: xgrammar keeps it, vLLM refuses it (dropped and reported), llguidance
    // too.
    assert!(conv(&input, Dialect::Xgrammar)["properties"]["tags"]["patternProperties"].is_object());
    for d in [Dialect::Vllm, Dialect::Llguidance] {
        let out = to_dialect_report(&input, d).unwrap();
        assert!(
            out.schema["properties"]["tags"]
                .get("patternProperties")
                .is_none(),
            "{d}"
        );
        assert!(out.changes.iter().any(|c| c.pointer == "/properties/tags"
            && c.kind
                == ChangeKind::Dropped {
                    keyword: "patternProperties".into()
                }));
    }
    // Tuples: every engine.
    for d in Dialect::ENGINES {
        assert!(
            conv(&input, d)["properties"]["pair"]["prefixItems"].is_array(),
            "{d}"
        );
    }
    // A root that is not an object: the engines without an API wrapper accept it.
    let tbs = Tbs::try_json_schema(Dialect::Llguidance).unwrap();
    assert_eq!(tbs["type"], "string");
    assert_eq!(
        Tbs::try_json_schema(Dialect::LlamaCpp).unwrap()["type"],
        "string"
    );
}
