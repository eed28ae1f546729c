//! JSON Schema -> TypeScript text: one test per rule of seed 003 / issue 4, golden texts for
//! every seed schema (derived types and fixture JSON must give the same text), malformed input,
//! and (when `TSC` names a TypeScript compiler) a `tsc --noEmit` check of every golden text.

use schema_core::convert::{to_typescript, ConvertErrorKind, TsOptions};
use schema_core::AgentSchema;
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use serde_json::{json, Value};

fn ts(schema: Value) -> String {
    to_typescript(&schema, &TsOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn ts_with(schema: Value, options: &TsOptions) -> String {
    to_typescript(&schema, options).unwrap_or_else(|e| panic!("{e}"))
}

fn error(schema: &Value) -> (String, ConvertErrorKind) {
    match to_typescript(schema, &TsOptions::default()) {
        Ok(text) => panic!("expected an error, got {text}"),
        Err(e) => (e.pointer, e.kind),
    }
}

// ----------------------------------------------------------------------------------------------
// The table of seed 003 and the additions of issue 4.

#[test]
fn seed003_example() {
    let schema = json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "文件路径"},
            "tail": {"type": "number"}
        },
        "required": ["path"]
    });
    // seed 003's text, exactly
    assert_eq!(ts(schema), "{path: string /* 文件路径 */; tail?: number}");
    // without a comment, seed 003's §3.2 exactly
    assert_eq!(
        ts(
            json!({"type": "object", "properties": {"path": {"type": "string"}, "optional": {"type": "number"}}, "required": ["path"]})
        ),
        "{path: string; optional?: number}"
    );
}

#[test]
fn primitives() {
    assert_eq!(ts(json!({"type": "string"})), "string");
    assert_eq!(ts(json!({"type": "number"})), "number");
    assert_eq!(ts(json!({"type": "integer"})), "number /* int */");
    assert_eq!(ts(json!({"type": "boolean"})), "boolean");
    assert_eq!(ts(json!({"type": "null"})), "null");
}

#[test]
fn unknown_and_empty() {
    assert_eq!(ts(json!({})), "unknown");
    assert_eq!(ts(json!(true)), "unknown");
    assert_eq!(ts(json!(false)), "never");
    assert_eq!(
        ts(json!({"description": "anything"})),
        "unknown /* anything */"
    );
    assert_eq!(ts(json!({"type": "array"})), "unknown[]");
}

#[test]
fn arrays() {
    assert_eq!(
        ts(json!({"type": "array", "items": {"type": "string"}})),
        "string[]"
    );
    assert_eq!(
        ts(json!({"type": "array", "items": {"enum": ["a", "b"]}})),
        r#"("a"|"b")[]"#
    );
    assert_eq!(
        ts(json!({"type": "array", "items": {"type": "array", "items": {"type": "boolean"}}})),
        "boolean[][]"
    );
    // an item with a comment is parenthesised so the comment stays with the item
    assert_eq!(
        ts(json!({"type": "array", "items": {"type": "string", "description": "a URL"}})),
        "(string /* a URL */)[]"
    );
}

#[test]
fn objects_and_optional() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]},
            "b": {"type": "string"}
        },
        "required": ["b"]
    });
    assert_eq!(ts(schema), "{a?: {x: number}; b: string}");
    // a required name without a property schema may hold anything
    assert_eq!(
        ts(json!({"type": "object", "properties": {"a": {}}, "required": ["a", "b"]})),
        "{a: unknown; b: unknown}"
    );
    assert_eq!(ts(json!({"type": "object"})), "object");
    assert_eq!(
        ts(json!({"type": "object", "additionalProperties": false})),
        "{}"
    );
}

#[test]
fn enums_and_const() {
    assert_eq!(
        ts(json!({"type": "string", "enum": ["a", "b"]})),
        r#""a"|"b""#
    );
    assert_eq!(
        ts(json!({"enum": [1, "x", null, true]})),
        r#"1|"x"|null|true"#
    );
    assert_eq!(ts(json!({"enum": ["only"]})), r#""only""#);
    assert_eq!(
        ts(json!({"type": "string", "const": "definitive"})),
        r#""definitive""#
    );
    assert_eq!(ts(json!({"const": 2.5})), "2.5");
    assert_eq!(ts(json!({"const": {"k": [1, "a"]}})), r#"{k: [1, "a"]}"#);
    // quotes and backslashes stay escaped in the literal
    assert_eq!(ts(json!({"const": "say \"hi\"\\"})), r#""say \"hi\"\\""#);
}

#[test]
fn string_enum_values_keep_their_descriptions() {
    let schema = json!({
        "type": "string",
        "description": "How sure",
        "oneOf": [
            {"const": "high", "description": "checked twice"},
            {"const": "low"}
        ]
    });
    // the union's own comment comes first so it is not read as the last value's
    assert_eq!(
        ts(schema),
        r#"/* How sure */ "high" /* checked twice */|"low""#
    );
}

#[test]
fn any_of_one_of_and_type_arrays() {
    assert_eq!(
        ts(json!({"anyOf": [{"type": "string"}, {"type": "number"}]})),
        "string|number"
    );
    assert_eq!(
        ts(
            json!({"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "null"}]})
        ),
        "{a: string}|null"
    );
    assert_eq!(ts(json!({"type": ["string", "null"]})), "string|null");
    assert_eq!(ts(json!({"type": ["integer", "number"]})), "number");
    assert_eq!(
        ts(json!({"type": "array", "items": {"type": ["string", "null"]}})),
        "(string|null)[]"
    );
    // a branch without a type of its own refines the sibling type
    assert_eq!(
        ts(json!({"type": "string", "anyOf": [{"maxLength": 5}, {"format": "email"}]})),
        "string /* max 5 chars */|string /* format email */"
    );
}

#[test]
fn all_of_merges_objects_or_intersects() {
    let merged = json!({
        "allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"type": "object", "properties": {"b": {"type": "number"}}},
            {"required": ["b"]}
        ]
    });
    assert_eq!(ts(merged), "{a: string; b: number}");
    assert_eq!(
        ts(
            json!({"allOf": [{"$ref": "#/$defs/A"}, {"type": "string"}], "$defs": {"A": {"type": "array"}}})
        ),
        "unknown[] & string"
    );
    // the common pydantic form: one `allOf` member plus a description beside it
    assert_eq!(
        ts(
            json!({"allOf": [{"$ref": "#/definitions/Mode"}], "description": "the mode", "definitions": {"Mode": {"enum": ["r", "w"]}}})
        ),
        r#""r"|"w" /* the mode */"#
    );
    // properties beside a oneOf of objects: an intersection with the union
    assert_eq!(
        ts(
            json!({"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"],
                  "oneOf": [{"properties": {"a": {"type": "number"}}}, {"properties": {"b": {"type": "number"}}}]})
        ),
        "{k: string} & ({a?: number}|{b?: number})"
    );
    // `type: object` beside a oneOf of object literals: the literals say `object` already (it
    // was `object & ({a: string}|{b: number})`); a map or a non-object member keeps it
    assert_eq!(
        ts(json!({"type": "object", "oneOf": [
            {"properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {"type": "number"}}, "required": ["b"]}
        ]})),
        "{a: string}|{b: number}"
    );
    assert_eq!(
        ts(
            json!({"type": "array", "items": {"type": "object", "anyOf": [
                {"properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"properties": {"b": {"type": "number"}}, "required": ["b"]}
            ]}})
        ),
        "({a: string}|{b: number})[]"
    );
    assert_eq!(
        ts(
            json!({"type": "object", "anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}],
                  "$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}})
        ),
        "object & ({a?: string}|string)"
    );
    // a note two merged parts both give is written once
    assert_eq!(
        ts(json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 1},
            {"type": "object", "properties": {"b": {"type": "string"}}, "minProperties": 1, "deprecated": true}
        ]})),
        "/* min 1 key, deprecated */ {a?: string; b?: string}"
    );
}

#[test]
fn maps_and_index_signatures() {
    assert_eq!(
        ts(json!({"type": "object", "additionalProperties": {"type": "number"}})),
        "Record<string, number>"
    );
    assert_eq!(
        ts(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": {"type": "number"}})
        ),
        "{a: string} & Record<string, number>"
    );
    assert_eq!(
        ts(
            json!({"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false})
        ),
        "Record<string, string /* keys /^x-/ */>"
    );
}

#[test]
fn tuples() {
    assert_eq!(
        ts(
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": false})
        ),
        "[string, number]"
    );
    assert_eq!(
        ts(
            json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "number"}})
        ),
        "[string, ...number[]]"
    );
    // draft 4-2019 tuple form
    assert_eq!(
        ts(json!({"type": "array", "items": [{"type": "boolean"}], "additionalItems": false})),
        "[boolean]"
    );
}

#[test]
fn refs_resolve_inline() {
    let schema = json!({
        "type": "object",
        "properties": {
            "from": {"$ref": "#/$defs/Point"},
            "to": {"$ref": "#/definitions/Point", "description": "end"}
        },
        "required": ["from", "to"],
        "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}},
        "definitions": {"Point": {"$ref": "#/$defs/Point"}}
    });
    assert_eq!(
        ts(schema),
        "{from: {x: number; y: number}; to: /* end */ {x: number; y: number}}"
    );
}

#[test]
fn recursion_is_a_named_alias() {
    let schema = json!({
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {"Node": {
            "type": "object",
            "properties": {
                "value": {"type": "number"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
            },
            "required": ["value", "children"]
        }}
    });
    assert_eq!(
        ts(schema.clone()),
        "type Node = {value: number; children: Node[]};\n{root: Node}"
    );
    let file = TsOptions {
        root_name: Some("Root".into()),
        ..TsOptions::default()
    };
    assert_eq!(
        ts_with(schema, &file),
        "type Node = {value: number; children: Node[]};\ntype Root = {root: Node};"
    );
    // the root itself (derived recursive types use `$ref: "#"`)
    let list = json!({
        "type": "object",
        "properties": {"head": {"type": "string"}, "tail": {"$ref": "#"}},
        "required": ["head"]
    });
    assert_eq!(
        ts(list.clone()),
        "type Root = {head: string; tail?: Root};\nRoot"
    );
    let named = TsOptions {
        root_name: Some("List".into()),
        ..TsOptions::default()
    };
    assert_eq!(
        ts_with(list, &named),
        "type List = {head: string; tail?: List};"
    );
    // a recursive map needs an index signature (`Record<string, T>` in `type T` is circular)
    let tree = json!({"$defs": {"T": {"type": "object", "additionalProperties": {"$ref": "#/$defs/T"}}}, "$ref": "#/$defs/T"});
    assert_eq!(ts(tree), "type T = {[key: string]: T};\nT");
}

#[test]
fn constraint_notes() {
    let schema = json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "description": "ISO 639-1 language code", "maxLength": 10},
            "q": {"type": "string", "minLength": 1, "maxLength": 30},
            "id": {"type": "string", "pattern": "^[a-z]+$", "format": "uuid"},
            "n": {"type": "integer", "minimum": 0, "maximum": 100},
            "t": {"type": "number", "minimum": -1, "exclusiveMaximum": 1},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 5, "uniqueItems": true},
            "three": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3},
            "limit": {"type": "integer", "default": 10}
        }
    });
    assert_eq!(
        ts(schema),
        "{code?: string /* ISO 639-1 language code; max 10 chars */; q?: string /* 1-30 chars */; \
         id?: string /* pattern /^[a-z]+$/, format uuid */; n?: number /* int 0-100 */; \
         t?: number /* >=-1, <1 */; tags?: string[] /* 1-5 items, unique */; \
         three?: string[] /* 3 items */; limit?: number /* int, default 10 */}"
    );
    let quiet = TsOptions {
        include_constraints: false,
        ..TsOptions::default()
    };
    assert_eq!(
        ts_with(
            json!({"type": "string", "maxLength": 3, "description": "d"}),
            &quiet
        ),
        "string /* d */"
    );
}

#[test]
fn one_of_required_clauses_become_a_note() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}]
    });
    assert_eq!(
        ts(schema),
        "/* exactly one of: a, b */ {a?: string; b?: string}"
    );
}

#[test]
fn descriptions_cut_and_escaped() {
    let long = json!({"type": "string", "description": "文件路径文件路径文件路径"});
    let opts = TsOptions {
        max_description_len: Some(5),
        ..TsOptions::default()
    };
    assert_eq!(ts_with(long, &opts), "string /* 文件路径文… */");
    // `*/` in a description (or a pattern) cannot end the comment early
    assert_eq!(
        ts(json!({"type": "string", "description": "glob like src/*/x", "pattern": "a*/"})),
        r"string /* glob like src/*\/x; pattern /a*\// */"
    );
    let none = TsOptions {
        include_descriptions: false,
        ..TsOptions::default()
    };
    assert_eq!(
        ts_with(
            json!({"type": "string", "description": "gone", "maxLength": 2}),
            &none
        ),
        "string /* max 2 chars */"
    );
    assert_eq!(
        ts_with(
            json!({"type": "string", "description": "a\n\n  b"}),
            &TsOptions::default()
        ),
        "string /* a b */"
    );
    assert_eq!(TsOptions::brief().max_description_len, Some(50));
    assert_eq!(TsOptions::default().max_description_len, None);
}

#[test]
fn property_names_that_are_not_identifiers_are_quoted() {
    let schema = json!({
        "type": "object",
        "properties": {"ok_1": {}, "$x": {}, "a-b": {}, "1st": {}, "with space": {}, "文件": {}, "q\"": {}},
        "required": ["ok_1", "$x", "a-b", "1st", "with space", "文件", "q\""]
    });
    assert_eq!(
        ts(schema),
        r#"{ok_1: unknown; $x: unknown; "a-b": unknown; "1st": unknown; "with space": unknown; "文件": unknown; "q\"": unknown}"#
    );
}

#[test]
fn multiline() {
    let opts = TsOptions {
        multiline: true,
        ..TsOptions::default()
    };
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "description": "first"},
            "b": {"type": "object", "properties": {"c": {"type": "number"}}}
        },
        "required": ["a"]
    });
    assert_eq!(
        ts_with(schema, &opts),
        "{\n  a: string /* first */;\n  b?: {\n    c?: number;\n  };\n}"
    );
}

// ----------------------------------------------------------------------------------------------
// Issue 12: nothing is dropped by default; noise is.

/// A real MCP tool (GitHub's `pull_request_read`) whose 1,413-character description was cut at
/// 300 characters by the old default, losing "When asked for review comments, use
/// get_review_comments method."
#[test]
fn long_descriptions_are_kept_whole_by_default() {
    let schema = fixture("mcp/corpus/github-mcp-server__pull_request_read.json");
    let raw = schema["properties"]["method"]["description"]
        .as_str()
        .unwrap();
    assert_eq!(raw.chars().count(), 1413);
    // (line breaks and runs of spaces become one space)
    let whole = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = ts(schema.clone());
    assert!(text.contains(&whole), "{text}");
    assert!(text.contains("When asked for review comments, use get_review_comments method."));
    assert!(!text.contains('…'));
    // the cap is opt-in, and its cut is marked
    let brief = ts_with(schema, &TsOptions::brief());
    assert!(!brief.contains("When asked for review comments"));
    assert!(
        brief.contains("Action to specify what pull request data needs to…"),
        "{brief}"
    );
}

/// Defaults longer than 60 characters used to vanish without a word.
#[test]
fn every_default_is_kept() {
    let url = "https://<ip>/sedgeapi/v1/cisco-nir/api/api/telemetry/flowrules/nodes?fabricName={fabricName}";
    let schema = json!({"type": "object", "properties": {
        "url": {"type": "string", "default": url},
        "empty": {"type": "string", "default": ""},
        "opts": {"type": "object", "default": {"a": [1, 2]}}
    }});
    assert_eq!(
        ts(schema.clone()),
        format!(
            r#"{{url?: string /* default "{url}" */; empty?: string /* default "" */; opts?: object /* default {{"a":[1,2]}} */}}"#
        )
    );
    // with a cap, a long default is shortened (and says so); short ones stay whole
    let capped = TsOptions {
        max_description_len: Some(20),
        ..TsOptions::default()
    };
    assert_eq!(
        ts_with(schema, &capped),
        r#"{url?: string /* default "https://<ip>/sedgea… */; empty?: string /* default "" */; opts?: object /* default {"a":[1,2]} */}"#
    );
}

#[test]
fn not_anything_is_never() {
    assert_eq!(ts(json!({"not": {}})), "never");
    assert_eq!(ts(json!({"not": true})), "never");
    assert_eq!(ts(json!({"type": "string", "not": {}})), "never");
    // an optional property that can only be absent is left out, with a note
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "gone": {"not": {}},
        "also-gone": false,
        "must": {"not": {}}
    }, "required": ["a", "must"]});
    assert_eq!(
        ts(schema),
        r#"/* gone, "also-gone" must be absent */ {a: string; must: never}"#
    );
    // any other `not` is a note
    assert_eq!(
        ts(json!({"type": "string", "not": {"enum": ["a", "b"]}})),
        r#"string /* not "a"|"b" */"#
    );
    assert_eq!(
        ts(json!({"type": "string", "not": {"minLength": 3}})),
        r"string /* not unknown /* min 3 chars *\/ */"
    );
}

/// Integer bounds that only restate a wide Rust type are noise; declared ranges and narrow
/// types stay.
#[test]
fn integer_widths() {
    #[derive(AgentSchema, serde::Serialize, serde::Deserialize)]
    #[allow(dead_code)]
    struct Widths {
        a: u32,
        b: i32,
        c: i64,
        d: u64,
        e: u8,
        f: i8,
        g: u16,
        #[schema(minimum = 0, maximum = 100)]
        h: u32,
        #[schema(minimum = 1)]
        i: i32,
        j: usize,
    }
    assert_eq!(
        Widths::typescript(),
        "{a: number /* int >=0 */; b: number /* int */; c: number /* int */; \
         d: number /* int >=0 */; e: number /* int 0-255 */; f: number /* int >=-128, <=127 */; \
         g: number /* int 0-65535 */; h: number /* int 0-100 */; i: number /* int >=1 */; \
         j: number /* int >=0 */}"
    );
    // the same limits written by other generators (JavaScript's safe range, as floats)
    assert_eq!(
        ts(
            json!({"type": "integer", "minimum": -9007199254740991i64, "maximum": 9007199254740991i64})
        ),
        "number /* int */"
    );
    assert_eq!(
        ts(json!({"type": "integer", "minimum": 0, "maximum": 4294967295.0})),
        "number /* int >=0 */"
    );
    // a number (not an integer) keeps whatever it says
    assert_eq!(
        ts(json!({"type": "number", "maximum": 2147483647})),
        "number /* <=2147483647 */"
    );
    // `format` that restates the type is noise too; other formats stay
    assert_eq!(ts(json!({"type": "number", "format": "float"})), "number");
    assert_eq!(
        ts(json!({"type": "integer", "format": "int64"})),
        "number /* int */"
    );
    assert_eq!(
        ts(json!({"type": "number", "format": "int32"})),
        "number /* format int32 */"
    );
}

/// A string enum of four or more values costs what the JSON array costs: `","` is one token,
/// `"|"` two.
#[test]
fn big_string_enums_are_indexed_arrays() {
    assert_eq!(
        ts(json!({"enum": ["a", "b", "c", "d"]})),
        r#"["a","b","c","d"][number]"#
    );
    assert_eq!(ts(json!({"enum": ["a", "b", "c"]})), r#""a"|"b"|"c""#);
    assert_eq!(
        ts(json!({"type": "array", "items": {"enum": ["a", "b", "c", "d"]}})),
        r#"["a","b","c","d"][number][]"#
    );
    // numbers, or a value with its own description, keep the union
    assert_eq!(ts(json!({"enum": [1, 2, 3, 4]})), "1|2|3|4");
    assert_eq!(
        ts(
            json!({"oneOf": [{"const": "a", "description": "x"}, {"const": "b"}, {"const": "c"}, {"const": "d"}]})
        ),
        r#""a" /* x */|"b"|"c"|"d""#
    );
    let bpe = tiktoken_rs::o200k_base_singleton();
    let values: Vec<String> = (0..32).map(|i| format!("workflow_{i}_run")).collect();
    let json_array = serde_json::to_string(&values).unwrap();
    let text = ts(json!({"enum": values}));
    let (ours, array) = (
        bpe.encode_with_special_tokens(&text).len(),
        bpe.encode_with_special_tokens(&json_array).len(),
    );
    assert!(ours <= array + 3, "{ours} vs {array}");
}

// ----------------------------------------------------------------------------------------------
// Malformed schemas: errors, never panics or stack overflows.

#[test]
fn ref_to_nowhere() {
    let (pointer, kind) =
        error(&json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}));
    assert_eq!(pointer, "/properties/a/$ref");
    assert_eq!(
        kind,
        ConvertErrorKind::UnresolvableRef("#/$defs/Missing".into())
    );
    let (_, kind) = error(&json!({"$ref": "other.json#/x"}));
    assert_eq!(
        kind,
        ConvertErrorKind::UnresolvableRef("other.json#/x".into())
    );
}

#[test]
fn ref_cycles_without_an_object_in_between() {
    let two = json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}});
    assert!(matches!(error(&two).1, ConvertErrorKind::RefCycle(_)));
    let self_union = json!({"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}}, "$ref": "#/$defs/A"});
    assert!(matches!(
        error(&self_union).1,
        ConvertErrorKind::RefCycle(_)
    ));
    let root = json!({"allOf": [{"$ref": "#"}]});
    assert!(matches!(error(&root).1, ConvertErrorKind::RefCycle(_)));
    // recursive through an array, but also straight through a union: still a bad cycle
    let mixed = json!({"$defs": {"A": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/A"}}, {"$ref": "#/$defs/A"}]}}, "$ref": "#/$defs/A"});
    assert!(matches!(error(&mixed).1, ConvertErrorKind::RefCycle(_)));
}

#[test]
fn non_schemas_where_schemas_belong() {
    for (schema, at) in [
        (json!(5), ""),
        (
            json!({"type": "object", "properties": {"a": 5}}),
            "/properties/a",
        ),
        (json!({"type": "object", "properties": []}), "/properties"),
        (json!({"type": "array", "items": "string"}), "/items"),
        (json!({"anyOf": {"type": "string"}}), "/anyOf"),
        (json!({"type": "strin"}), "/type"),
        (json!({"type": 3}), "/type"),
        (json!({"$ref": 3}), "/$ref"),
        (json!({"type": "string", "maxLength": "10"}), "/maxLength"),
        (
            json!({"type": "string", "description": ["x"]}),
            "/description",
        ),
        (json!({"type": "object", "required": "a"}), "/required"),
    ] {
        let (pointer, kind) = error(&schema);
        assert!(
            matches!(kind, ConvertErrorKind::Malformed(_)),
            "{schema}: {kind:?}"
        );
        assert_eq!(pointer, at, "{schema}");
    }
}

/// An object from pairs, moving the values in (`json!` would serialize an interpolated value
/// recursively).
fn obj(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A value nested `depth` times through `wrap`, built without recursion; it is leaked rather
/// than dropped, because dropping a 10,000-deep `Value` recurses (that is serde_json's
/// business, not the converter's).
fn deep(depth: usize, mut wrap: impl FnMut(Value) -> Value) -> &'static Value {
    let mut v = json!({"type": "string"});
    for _ in 0..depth {
        v = wrap(v);
    }
    Box::leak(Box::new(v))
}

#[test]
fn nesting_ten_thousand_deep() {
    let arrays = deep(10_000, |v| {
        obj(vec![("type", json!("array")), ("items", v)])
    });
    assert!(matches!(error(arrays).1, ConvertErrorKind::TooDeep(_)));
    let objects = deep(10_000, |v| {
        obj(vec![
            ("type", json!("object")),
            ("properties", obj(vec![("a", v)])),
        ])
    });
    assert!(matches!(error(objects).1, ConvertErrorKind::TooDeep(_)));
    let unions = deep(10_000, |v| {
        obj(vec![(
            "anyOf",
            Value::Array(vec![v, json!({"type": "null"})]),
        )])
    });
    assert!(matches!(error(unions).1, ConvertErrorKind::TooDeep(_)));
    let mut n = 0;
    let consts = deep(10_001, |v| {
        n += 1;
        if n <= 10_000 {
            Value::Array(vec![v])
        } else {
            let mut m = serde_json::Map::new();
            m.insert("const".into(), v);
            Value::Object(m)
        }
    });
    assert!(matches!(error(consts).1, ConvertErrorKind::TooDeep(_)));
    // a long chain of `$ref`s
    let mut defs = serde_json::Map::new();
    for i in 0..10_000 {
        defs.insert(
            format!("D{i}"),
            json!({"$ref": format!("#/$defs/D{}", i + 1)}),
        );
    }
    defs.insert("D10000".into(), json!({"type": "string"}));
    let chain = json!({"$ref": "#/$defs/D0", "$defs": defs});
    assert!(matches!(error(&chain).1, ConvertErrorKind::TooDeep(_)));
    // moderate nesting is fine
    let ok = deep(50, |v| obj(vec![("type", json!("array")), ("items", v)]));
    assert_eq!(ts(ok.clone()), format!("string{}", "[]".repeat(50)));
}

#[test]
fn exponential_expansion_is_bounded() {
    // D0 uses D1 twice, D1 uses D2 twice, ...: 2^40 inlined copies
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {"l": {"$ref": next}, "r": {"$ref": next}}}),
        );
    }
    defs.insert("D40".into(), json!({"type": "string"}));
    let schema = json!({"$ref": "#/$defs/D0", "$defs": defs});
    // a definition used more than once with a long text is declared once and named (was: the
    // nodes limit reached after 100,000 inlined copies)
    let text = ts(schema.clone());
    assert!(text.len() < 2 * schema.to_string().len(), "{text}");
    assert!(text.contains("type D1 = {l?: D2; r?: D2};"), "{text}");
}

// ----------------------------------------------------------------------------------------------
// Golden texts for every seed schema.

fn fixture(name: &str) -> Value {
    let path = format!("{}/../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn golden_path(name: &str) -> String {
    format!(
        "{}/../tests/fixtures/typescript/{name}.ts",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The golden text `tests/fixtures/typescript/<name>.ts` (one line, newline at the end).
/// With `BLESS_TS=1` the file is (re)written from `actual` instead of compared: a blessed text
/// must be read against its schema by hand before it is committed.
fn golden(name: &str, actual: &str) {
    let path = golden_path(name);
    if std::env::var_os("BLESS_TS").is_some() {
        std::fs::write(&path, format!("{actual}\n")).unwrap();
        eprintln!("{path} written: read it against the schema");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(actual, expected.trim_end_matches('\n'), "{name}");
}

/// The derived type and the seed's fixture JSON give the same text, and it is the golden one.
fn both_paths(name: &str, derived: String, file: &str) {
    let converted = ts(fixture(file));
    assert_eq!(derived, converted, "{name}: derived vs fixture");
    golden(name, &derived);
}

macro_rules! golden_ts {
    ($test:ident, $ty:ty, $file:literal) => {
        #[test]
        fn $test() {
            both_paths(stringify!($test), <$ty>::typescript(), $file);
        }
    };
}

golden_ts!(
    seed000_1_language,
    Language,
    "seed000_1_language_schema.json"
);
golden_ts!(
    seed000_2_question_evaluate,
    QuestionEvaluate,
    "seed000_2_question_evaluate_schema.json"
);
golden_ts!(
    seed000_3_code_generator,
    CodeGenerator,
    "seed000_3_code_generator_schema.json"
);
golden_ts!(
    seed000_4_error_analysis,
    ErrorAnalysis,
    "seed000_4_error_analysis_schema.json"
);
golden_ts!(
    seed000_5_research_plan,
    ResearchPlan,
    "seed000_5_research_plan_schema.json"
);
golden_ts!(
    seed000_6_serp_cluster,
    SerpCluster,
    "seed000_6_serp_cluster_schema.json"
);
golden_ts!(
    seed000_7_query_rewriter,
    QueryRewriter,
    "seed000_7_query_rewriter_schema.json"
);
golden_ts!(seed000_9_agent, AgentStep, "seed000_9_agent_schema.json");

const EVALUATORS: [&str; 6] = [
    "definitive",
    "freshness",
    "plurality",
    "attribution",
    "completeness",
    "strict",
];

/// §8: the derived `Evaluation` is the union of the six evaluator objects; each fixture is one.
#[test]
fn seed000_8_evaluators() {
    let mut texts = Vec::new();
    for (i, e) in EVALUATORS.iter().enumerate() {
        let name = format!("seed000_8_{}_{e}", i + 1);
        let text = ts(fixture(&format!("seed000_8_{}_{e}_evaluator.json", i + 1)));
        golden(&name, &text);
        texts.push(text);
    }
    assert_eq!(Evaluation::typescript(), texts.join("|"));
}

/// Seed 004: the derived type lists the payload properties in variant order, the seed's JSON in
/// its own order (tests/golden.rs compares them as values); each has its golden text, and they
/// hold the same properties with the same types.
#[test]
fn seed004_universal() {
    let derived = UniversalResponse::typescript();
    golden("seed004_universal", &derived);
    let converted = ts(fixture("seed004_universal_schema.json"));
    golden("seed004_universal_fixture_order", &converted);
    let mut a: Vec<&str> = derived.split("; ").collect();
    let mut b: Vec<&str> = converted.split("; ").collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
}

/// Every other seed type appears, as its own text, inside the text of the type that uses it.
#[test]
fn nested_seed_types_render_the_same_alone() {
    let cases: Vec<(String, String)> = vec![
        (Cluster::typescript(), SerpCluster::typescript()),
        (SearchQuery::typescript(), QueryRewriter::typescript()),
        (Tbs::typescript(), QueryRewriter::typescript()),
        (FreshnessAnalysis::typescript(), Evaluation::typescript()),
        (PluralityAnalysis::typescript(), Evaluation::typescript()),
        (CompletenessAnalysis::typescript(), Evaluation::typescript()),
        (SearchAction::typescript(), AgentStep::typescript()),
        (CodingAction::typescript(), AgentStep::typescript()),
        (AnswerAction::typescript(), AgentStep::typescript()),
        (ReflectAction::typescript(), AgentStep::typescript()),
        (VisitAction::typescript(), AgentStep::typescript()),
        (Status::typescript(), UniversalResponse::typescript()),
        (Level::typescript(), UniversalResponse::typescript()),
        (PlanningData::typescript(), UniversalResponse::typescript()),
        (PlanStep::typescript(), UniversalResponse::typescript()),
        (
            VerificationData::typescript(),
            UniversalResponse::typescript(),
        ),
        (Check::typescript(), UniversalResponse::typescript()),
        (ClarityData::typescript(), UniversalResponse::typescript()),
        (ResearchData::typescript(), UniversalResponse::typescript()),
        (Finding::typescript(), UniversalResponse::typescript()),
        (AnswerData::typescript(), UniversalResponse::typescript()),
        (ErrorDetails::typescript(), UniversalResponse::typescript()),
    ];
    for (inner, outer) in cases {
        assert!(outer.contains(&inner), "{inner}\nnot in\n{outer}");
    }
    golden("seed000_9_agent_action", &AgentAction::typescript());
}

/// With descriptions cut to 50 characters (seed 003's function default).
#[test]
fn seed000_9_agent_brief() {
    golden(
        "seed000_9_agent_brief",
        &AgentStep::typescript_with(&TsOptions::brief()),
    );
}

// ----------------------------------------------------------------------------------------------
// The real compiler, when available: `TSC=/path/to/tsc cargo test --test typescript`.

#[test]
fn golden_texts_compile_with_tsc() {
    let Some(tsc) = std::env::var_os("TSC") else {
        println!("skipped: set TSC to a tsc binary to check the golden texts with the compiler");
        return;
    };
    let dir = std::env::temp_dir().join(format!("schema-ts-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(format!(
        "{}/../tests/fixtures/typescript",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .map(|e| e.unwrap().path())
    .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        // a bare type expression: `type Root = <text>;` (goldens have no named declarations)
        assert!(!text.starts_with("type "), "{name}");
        let file = dir.join(format!("{name}.ts"));
        std::fs::write(
            &file,
            format!("type Root = {};\nexport {{}};\n", text.trim_end()),
        )
        .unwrap();
        files.push(file);
    }
    // recursive schemas: complete files with `root_name`
    let file_opts = TsOptions {
        root_name: Some("Root".into()),
        ..TsOptions::default()
    };
    let recursive = [
        json!({"type": "object", "properties": {"value": {"type": "number"}, "children": {"type": "array", "items": {"$ref": "#"}}}, "required": ["value"]}),
        json!({"$defs": {"T": {"type": "object", "additionalProperties": {"$ref": "#/$defs/T"}}, "U": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/U"}}, {"type": "string"}]}},
               "type": "object", "properties": {"t": {"$ref": "#/$defs/T"}, "u": {"$ref": "#/$defs/U"}}}),
    ];
    for (i, schema) in recursive.iter().enumerate() {
        let file = dir.join(format!("recursive_{i}.ts"));
        std::fs::write(
            &file,
            format!("{}\nexport {{}};\n", ts_with(schema.clone(), &file_opts)),
        )
        .unwrap();
        files.push(file);
    }
    // edge forms of the unit tests, as bare expressions
    let multiline = TsOptions {
        multiline: true,
        ..TsOptions::default()
    };
    let edges = [
        json!({"type": "string", "description": "glob like src/*/x", "pattern": "a*/"}),
        json!({"type": "object", "properties": {"a-b": {}, "1st": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "number"}}, "文件": {"const": {"k": [1, "a"]}}}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": {"type": "number"}}),
        json!({"type": "string", "description": "How sure", "oneOf": [{"const": "high", "description": "checked twice"}, {"const": "low"}]}),
        json!({"type": "array", "items": {"type": ["string", "null"], "description": "x"}, "minItems": 1}),
        json!({"type": "object", "properties": {"k": {"type": "string"}}, "oneOf": [{"properties": {"a": {"type": "number"}}}, {"properties": {"b": {"type": "number"}}}]}),
        json!({"allOf": [{"type": "array"}, {"type": "string"}], "description": "impossible but valid TS"}),
        json!({"type": "array", "items": {"type": "object", "description": "item", "properties": {"a": {"enum": ["x", 1, null]}}}}),
        json!({"type": "object", "properties": {"gone": {"not": {}}, "must": {"not": {}}, "s": {"type": "string", "not": {"minLength": 3}}}, "required": ["must"]}),
        json!({"type": "array", "items": {"enum": ["a", "b", "c", "d"]}, "description": "tuple-indexed enum"}),
        json!({"type": "object", "oneOf": [{"properties": {"a": {"type": "string", "description": "a */"}}, "required": ["a"]}, {"properties": {"b": {"type": "number"}}}]}),
        json!({"type": "array", "description": "rows", "items": {"type": "object", "properties": {"a": {"type": "string", "description": "first"}, "b": {"type": "object", "properties": {"c": {"type": "integer"}, "d": {"type": "string"}}}, "e": {"enum": ["x", "y"], "description": "last"}}}}),
    ];
    for (i, schema) in edges.iter().enumerate() {
        for (j, opts) in [TsOptions::default(), multiline.clone()].iter().enumerate() {
            let file = dir.join(format!("edge_{i}_{j}.ts"));
            let text = ts_with(schema.clone(), opts);
            std::fs::write(&file, format!("type Root = {text};\nexport {{}};\n")).unwrap();
            files.push(file);
        }
    }
    let out = std::process::Command::new(tsc)
        .args(["--noEmit", "--strict", "--target", "es2022"])
        .args(&files)
        .output()
        .expect("run tsc");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "tsc failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("tsc accepted {} files", files.len());
}

// ----------------------------------------------------------------------------------------------
// Arbitrary input: whatever the value, an answer or an error, never a panic.

mod arbitrary {
    use super::*;
    use proptest::prelude::*;

    const KEYS: &[&str] = &[
        "type",
        "properties",
        "required",
        "items",
        "prefixItems",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "$defs",
        "enum",
        "const",
        "additionalProperties",
        "description",
        "maxLength",
        "minimum",
        "pattern",
        "format",
        "a",
        "b",
    ];
    const STRINGS: &[&str] = &[
        "string",
        "object",
        "array",
        "integer",
        "null",
        "#",
        "#/$defs/a",
        "#/$defs/b",
        "a",
        "*/",
    ];

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..200).prop_map(|n| json!(n)),
            proptest::sample::select(STRINGS).prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(6, 64, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((proptest::sample::select(KEYS), inner), 0..5).prop_map(
                    |kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                ),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn never_panics(schema in value()) {
            let _ = to_typescript(&schema, &TsOptions::default());
            let _ = to_typescript(&schema, &TsOptions { multiline: true, ..TsOptions::brief() });
        }
    }
}
