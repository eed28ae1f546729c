//! The limits plan (`limits.rs`): OpenAI's nesting and enum limits, each plan's change and
//! its read-back.

use crate::convert::rewrite::tests::round_trip;
use crate::convert::{to_dialect_report, ChangeKind};
use crate::Dialect;
use serde_json::{json, Value};

/// `levels` objects nested through the property `n`, the deepest with the string `leaf`.
fn nested(levels: usize) -> Value {
    let mut s =
        json!({"type": "object", "properties": {"leaf": {"type": "string"}}, "required": ["leaf"]});
    for _ in 1..levels {
        s = json!({"type": "object", "properties": {"n": s}, "required": ["n"]});
    }
    s
}

/// The value of [`nested`]`(levels)`.
fn nested_value(levels: usize) -> Value {
    let mut v = json!({"leaf": "x"});
    for _ in 1..levels {
        v = json!({ "n": v });
    }
    v
}

#[test]
fn below_openais_nesting_limit_an_object_is_json_text() {
    let schema = nested(12);
    // the 11th level (10 `n` down) is written as JSON text, read back by parsing
    let deep = "/properties/n".repeat(10);
    let value = nested_value(12);
    let mut shaped = value.clone();
    let inner = shaped.pointer_mut(&"/n".repeat(10)).unwrap();
    *inner = Value::String(inner.to_string());
    let c = round_trip(&schema, Dialect::OpenAi, &value, &shaped);
    let at = c.schema.pointer(&deep).unwrap();
    assert_eq!(at["type"], "string", "{at}");
    let free: Vec<_> = (c.changes.iter())
        .filter(|ch| ch.kind == ChangeKind::WithoutGrammar)
        .map(|ch| ch.pointer.as_str())
        .collect();
    assert_eq!(free, [deep.as_str()]);
    // text that is not JSON: an error at its path
    let mut bad = shaped.clone();
    *bad.pointer_mut(&"/n".repeat(10)).unwrap() = json!("{oops");
    assert_eq!(c.read_back(&bad).unwrap_err().paths(), ["/n".repeat(10)]);
    // 10 levels fit: nothing cut
    let c = to_dialect_report(&nested(10), Dialect::OpenAi).unwrap();
    assert!(c.plan.is_identity(), "{:?}", c.changes);
}

#[test]
fn a_definition_too_deep_at_one_use_is_cut_there_only() {
    // `d` has 3 levels: at the root's property it fits, below 8 levels it does not
    let d = nested(3);
    let mut schema = nested(8);
    let last = "/properties/n".repeat(7);
    schema
        .pointer_mut(&format!("{last}/properties"))
        .unwrap()
        .as_object_mut()
        .unwrap()
        .insert("d".into(), json!({"$ref": "#/$defs/d"}));
    schema["properties"]["d"] = json!({"$ref": "#/$defs/d"});
    schema["required"] = json!(["n", "d"]);
    schema["$defs"] = json!({ "d": d });
    let c = to_dialect_report(&schema, Dialect::OpenAi).unwrap();
    // the shallow use keeps its grammar
    assert_eq!(c.schema["properties"]["d"]["type"], "object");
    let free: Vec<_> = (c.changes.iter())
        .filter(|ch| ch.kind == ChangeKind::WithoutGrammar)
        .map(|ch| ch.pointer.as_str())
        .collect();
    // named at the input's definition (the copy's place maps back to it)
    assert_eq!(free, ["/$defs/d/properties/n/properties/n"]);
    let mut value = nested_value(8);
    value["d"] = nested_value(3);
    value.pointer_mut(&"/n".repeat(7)).unwrap()["d"] = nested_value(3);
    let fwd = c.plan.forward(&value).unwrap();
    let cut = format!("{}/d/n/n", "/n".repeat(7));
    assert!(fwd.pointer(&cut).unwrap().is_string(), "{fwd}");
    assert_eq!(c.read_back(&fwd).unwrap(), value);
}

#[test]
fn over_openais_enum_values_the_largest_enum_moves_into_the_description() {
    let names =
        |p: &str, n: usize| -> Vec<Value> { (0..n).map(|i| json!(format!("{p}{i}"))).collect() };
    let schema = json!({"type": "object", "properties": {
        "big": {"$ref": "#/$defs/big"},
        "also": {"$ref": "#/$defs/big"},
        "small": {"enum": names("s", 300), "description": "Small."}
    }, "required": ["big", "also", "small"], "$defs": {"big": {"enum": names("b", 400)}}});
    // 400 twice and 300: 1100 values; the 400 moves (both uses), the 300 stays
    let value = json!({"big": "b1", "also": "b399", "small": "s7"});
    let c = round_trip(&schema, Dialect::OpenAi, &value, &value);
    let big = &c.schema["properties"]["big"];
    assert_eq!(big["type"], "string");
    assert!(big.get("enum").is_none());
    assert!(
        big["description"]
            .as_str()
            .unwrap()
            .contains("@enum [\"b0\""),
        "{big}"
    );
    assert_eq!(
        c.schema["properties"]["small"]["enum"]
            .as_array()
            .unwrap()
            .len(),
        300
    );
    let moved: Vec<_> = (c.changes.iter())
        .filter(|ch| matches!(&ch.kind, ChangeKind::MovedToDescription { keyword } if keyword == "enum"))
        .map(|ch| ch.pointer.as_str())
        .collect();
    assert_eq!(moved, ["/$defs/big"]);
    // 1000 values fit: nothing moves
    let fits = json!({"type": "object", "properties": {"e": {"enum": names("e", 1000)}}, "required": ["e"]});
    let c = to_dialect_report(&fits, Dialect::OpenAi).unwrap();
    assert!(c
        .changes
        .iter()
        .all(|ch| !matches!(ch.kind, ChangeKind::MovedToDescription { .. })));
}
