use super::names::{ident, key};
use super::node::COMPARISONS;
use super::print::{cut, shorten};
use super::*;
use serde_json::{json, Value};

fn ts(v: Value) -> String {
    to_typescript(&v, &TsOptions::default()).unwrap()
}

#[test]
fn cut_on_char_boundary() {
    assert_eq!(cut("文件路径很长", Some(4)), "文件路径…");
    assert_eq!(cut("a  b\n\nc", Some(10)), "a b c");
    assert_eq!(cut("a  b\n\nc", None), "a b c");
    assert_eq!(cut("abc def", Some(4)), "abc…");
    assert_eq!(cut("abcdef ghij", Some(9)), "abcdef…");
    assert_eq!(cut("ab cdefghij", Some(9)), "ab cdefgh…");
    assert_eq!(cut(&"long ".repeat(500), None).len(), 2499);
    assert_eq!(shorten("\"abc\"".into(), 0), "…");
}

#[test]
fn idents() {
    assert_eq!(key("a_b$1"), "a_b$1");
    assert_eq!(key("a-b"), "\"a-b\"");
    assert_eq!(key("1a"), "\"1a\"");
    assert_eq!(ident("string"), "string_");
    assert_eq!(ident("my node"), "my_node");
}

/// `Node` comparisons made by one conversion on this thread.
fn comparisons(schema: &Value) -> (String, u64) {
    let before = COMPARISONS.with(std::cell::Cell::get);
    let text = ts(schema.clone());
    (text, COMPARISONS.with(std::cell::Cell::get) - before)
}

/// Issue 15: 10,000 enum values took 6.8 s (every value compared with every earlier one).
/// Counted in node comparisons, not seconds: the work per value stays flat from 1k to 100k
/// values, with distinct values and with every value repeated.
#[test]
fn enum_dedup_is_linear() {
    let mut per_value = Vec::new();
    for n in [1_000usize, 10_000, 100_000] {
        let distinct: Vec<Value> = (0..n).map(|i| json!(format!("v{i}"))).collect();
        let (text, distinct_cmp) = comparisons(&json!({"enum": distinct}));
        assert!(
            text.starts_with(r#"["v0","v1","#)
                && text.ends_with(&format!(r#""v{}"][number]"#, n - 1))
        );
        // each value twice, and numbers beside strings
        let repeated: Vec<Value> = (0..2 * n)
            .map(|i| {
                if i % 3 == 0 {
                    json!(i % n)
                } else {
                    json!(format!("v{}", i % n))
                }
            })
            .collect();
        let (_, repeated_cmp) = comparisons(&json!({"type": "string", "enum": repeated}));
        // a duplicate is found by one comparison; distinct values need none (barring a
        // 64-bit hash collision)
        assert!(distinct_cmp <= n as u64 / 100, "{n}: {distinct_cmp}");
        assert!(repeated_cmp <= 2 * n as u64, "{n}: {repeated_cmp}");
        per_value.push((distinct_cmp + repeated_cmp) as f64 / n as f64);
    }
    // flat per value (quadratic work would grow 10x per step)
    assert!(
        per_value.windows(2).all(|w| w[1] <= w[0] * 1.1 + 0.01),
        "{per_value:?}"
    );
    // the same for a type array and a union of branches with duplicates
    let branches: Vec<Value> = (0..20_000).map(|i| json!({"const": i % 10_000})).collect();
    let (text, cmp) = comparisons(&json!({"anyOf": branches}));
    assert!(text.ends_with("|9999"));
    assert!(cmp <= 10_000, "{cmp}");
}

/// 100,000 properties, all required, merged from two `allOf` parts: linear too (the
/// required names and the merge are looked up by hash).
#[test]
fn many_properties_are_linear() {
    let n = 100_000;
    let props: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let required: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    let schema = json!({"allOf": [
        {"type": "object", "properties": props.clone()},
        {"type": "object", "properties": props, "required": required}
    ]});
    let (text, cmp) = comparisons(&schema);
    assert!(
        text.starts_with("{p0: string; p1: string"),
        "{}",
        &text[..40]
    );
    assert!(!text.contains('?'));
    // one comparison per property of the second part (equal to the first one's)
    assert!(cmp <= 2 * n as u64, "{cmp}");
}

/// Many recursive definitions: each is named where it is found, without building the text
/// again (before, every one restarted the whole build: 2,000 took 3.3 s, 8,000 took 290 s).
/// Counted in schemas built: a few per definition, from 500 to 4,000 definitions.
#[test]
fn many_recursive_definitions_are_linear() {
    for n in [500usize, 4_000] {
        let mut props = serde_json::Map::new();
        let mut defs = serde_json::Map::new();
        for i in 0..n {
            props.insert(format!("p{i}"), json!({"$ref": format!("#/$defs/D{i}")}));
            let own = json!({"$ref": format!("#/$defs/D{i}")});
            defs.insert(
                format!("D{i}"),
                json!({"type": "object", "properties": {"next": own}}),
            );
        }
        let schema = json!({"type": "object", "properties": props, "$defs": defs});
        let before = super::build::BUILDS.with(std::cell::Cell::get);
        let text = ts(schema);
        let built = super::build::BUILDS.with(std::cell::Cell::get) - before;
        assert!(text.starts_with("type D0 = {next?: D0};\ntype D1 = {next?: D1};"));
        assert!(
            text.ends_with(&format!("p{}?: D{}}}", n - 1, n - 1)),
            "{}",
            &text[text.len() - 40..]
        );
        assert!(built <= 6 * n as u64, "{n}: {built}");
    }
}

#[test]
fn seed003_example() {
    let s = json!({"type":"object","properties":{"path":{"type":"string","description":"文件路径"},"tail":{"type":"number"}},"required":["path"]});
    // seed 003's text, exactly
    assert_eq!(ts(s), "{path: string /* 文件路径 */; tail?: number}");
    let plain = json!({"type":"object","properties":{"path":{"type":"string"},"optional":{"type":"number"}},"required":["path"]});
    // seed 003's §3.2, exactly
    assert_eq!(ts(plain), "{path: string; optional?: number}");
}

/// A malformed constraint is an error whatever the options: the model reads every constraint
/// once (before, a text without constraint notes skipped the check, while `to_dialect` rejected
/// the same schema).
#[test]
fn a_bad_constraint_is_an_error_without_notes_too() {
    let bare = TsOptions {
        include_constraints: false,
        ..TsOptions::default()
    };
    let schema =
        json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": "ten"}}});
    for opts in [TsOptions::default(), bare] {
        let e = to_typescript(&schema, &opts).unwrap_err();
        assert_eq!(e.pointer, "/properties/a/maxLength");
    }
    assert!(crate::convert::to_dialect(&schema, crate::Dialect::OpenAi).is_err());
}

/// `allOf` parts' bounds combine as in the dialect converter (one rule, `merge_keyword`): at
/// most 2 keys when one part says 3 and the other 2 (before, the text said `max 3 keys`).
#[test]
fn all_of_bounds_tighten_as_in_the_dialects() {
    let schema = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "maxProperties": 3},
        {"type": "object", "properties": {"b": {"type": "string"}}, "maxProperties": 2, "minProperties": 1}
    ]});
    assert_eq!(
        ts(schema.clone()),
        "/* 1-2 keys */ {a?: string; b?: string}"
    );
    let out = crate::convert::to_dialect(&schema, crate::Dialect::Gemini).unwrap();
    let text = out.to_string();
    assert!(
        text.contains("maxProperties") && text.contains('2') && !text.contains('3'),
        "{text}"
    );
}

/// `additionalProperties: false` in any `allOf` part closes the merged object, as in the
/// dialect converter (before, a schema for other keys in another part won: `& Record<...>`).
#[test]
fn all_of_closed_part_closes_as_in_the_dialects() {
    let schema = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number"}},
        {"type": "object", "additionalProperties": false}
    ]});
    assert_eq!(ts(schema.clone()), "{a?: string}");
    let out = crate::convert::to_dialect(&schema, crate::Dialect::Xgrammar).unwrap();
    assert_eq!(out["additionalProperties"], json!(false), "{out}");
}

/// A schema of annotations only accepts every value, with the dialect converter's list of
/// annotations (`is_meta`: `x-...`, `example`, `discriminator`, ... too): `not` of it is no
/// value (before, `{"not": {"x-internal": true}}` gave `unknown /* not unknown */`).
#[test]
fn not_of_annotations_only_is_never() {
    let schema = json!({"type": "object", "properties": {
        "a": {"not": {"x-internal": true}},
        "b": {"not": {"example": 1, "description": "any"}},
        "c": {"not": {"type": "string"}}
    }});
    let text = ts(schema);
    assert!(text.contains("a, b must be absent"), "{text}");
    assert!(text.contains("c?: unknown /* not string */"), "{text}");
}

/// `allOf` parts that are not all objects merge as the dialect converter merges them (before,
/// they stayed an intersection: `(string /* max 5 chars */) & (unknown /* min 1 char */)`):
/// keyword-only parts add their constraints, scalar types intersect, enums keep the common
/// values, a `$ref` part is inlined; parts no value fits stay an intersection.
#[test]
fn all_of_non_objects_merge_as_in_the_dialects() {
    for (schema, want) in [
        (
            json!({"allOf": [{"type": "string", "maxLength": 5}, {"minLength": 1}]}),
            "string /* 1-5 chars */",
        ),
        (
            json!({"allOf": [{"type": "number", "minimum": 0}, {"type": "integer"}]}),
            "number /* int >=0 */",
        ),
        (
            json!({"allOf": [{"enum": ["a", "b", "c"]}, {"enum": ["b", "c", "d"]}]}),
            "\"b\"|\"c\"",
        ),
        (
            json!({"allOf": [{"type": "string"}, {"enum": ["a", 1]}]}),
            "\"a\"",
        ),
        (
            json!({"allOf": [{"$ref": "#/$defs/S"}, {"maxLength": 3}],
                   "$defs": {"S": {"type": "string", "format": "email", "description": "Mail"}}}),
            "string /* Mail; max 3 chars, format email */",
        ),
        (
            json!({"allOf": [{"type": "string"}, {"type": "number"}]}),
            "string & number",
        ),
    ] {
        assert_eq!(ts(schema.clone()), want, "{schema}");
    }
}
