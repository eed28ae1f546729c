//! Schemas nested up to (and past) the converters' depth limit, through every way a schema nests
//! (`properties`, `items`, `anyOf`, `allOf`, `$ref` chains), converted and validated on a thread
//! with a 2 MB stack (Rust's default for spawned threads, tokio's for its workers), in the build
//! the tests run in. Each must give a value or an error, never overflow the stack.

use schema_core::validate::Validator;
use schema_core::{convert, Dialect};
use serde_json::{json, Value};

/// One level of nesting around a schema.
type Wrap = fn(Value) -> Value;

/// `levels` levels of `wrap` around a string schema.
fn nested(levels: usize, wrap: Wrap) -> Value {
    (0..levels).fold(json!({"type": "string"}), |inner, _| wrap(inner))
}

/// A chain of `n` definitions, each an object whose property refers to the next.
fn ref_chain(n: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {"next": {"$ref": format!("#/$defs/D{}", i + 1)}}}),
        );
    }
    defs.insert(format!("D{n}"), json!({"type": "string"}));
    json!({"$ref": "#/$defs/D0", "$defs": defs})
}

/// Every nesting form at depths around the limits (`MAX_DEPTH` schema levels, four JSON levels
/// per schema level at most).
fn shapes() -> Vec<(String, Value)> {
    let wraps: [(&str, Wrap); 6] = [
        (
            "properties",
            |v| json!({"type": "object", "properties": {"a": v}}),
        ),
        ("items", |v| json!({"type": "array", "items": v})),
        ("anyOf", |v| json!({"anyOf": [v, {"type": "null"}]})),
        ("allOf", |v| json!({"allOf": [v]})),
        ("not", |v| json!({"not": v})),
        (
            "allOf+properties",
            |v| json!({"allOf": [{"type": "object", "properties": {"a": v}}, {"required": ["a"]}]}),
        ),
    ];
    let mut out = Vec::new();
    for levels in [30, 60, 64, 100, 127, 128, 129, 200] {
        for (name, wrap) in wraps {
            out.push((format!("{name} x{levels}"), nested(levels, wrap)));
        }
        out.push((format!("$ref chain x{levels}"), ref_chain(levels)));
    }
    out
}

/// A deep instance for the validators: `{"a": {"a": ... "x"}}`.
fn deep_value(levels: usize) -> Value {
    (0..levels).fold(json!("x"), |inner, _| json!({ "a": inner }))
}

/// Runs `f` on every shape on a thread with a 2 MB stack.
fn on_small_stack(f: fn(&str, &Value)) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            for (name, schema) in shapes() {
                f(&name, &schema);
            }
        })
        .expect("spawn")
        .join()
        .expect("a deep schema panicked");
}

#[test]
fn typescript() {
    on_small_stack(|_, s| {
        let _ = convert::to_typescript(s, &Default::default());
    });
}

#[test]
fn dialects() {
    on_small_stack(|_, s| {
        for d in Dialect::EVERY {
            let _ = convert::to_dialect(s, d);
        }
    });
}

#[test]
fn validator() {
    on_small_stack(|_, s| {
        if let Ok(v) = Validator::new(s) {
            for levels in [10, 100, 127, 128, 200] {
                let _ = v.validate(&deep_value(levels));
            }
        }
    });
}

/// A recursive type, as a model fills it.
#[derive(schema_core::AgentSchema, serde::Deserialize, Debug)]
#[allow(dead_code)] // only parsed
struct Node {
    title: String,
    children: Vec<Node>,
    extra: Option<Value>,
}

/// `levels` nested nodes, the innermost holding a `Value` nested `levels` deep too.
fn deep_node(levels: usize) -> String {
    let mut extra = String::from("1");
    for _ in 0..levels {
        extra = format!("[{extra}]");
    }
    let mut text = format!(r#"{{"title":"leaf","children":[],"extra":{extra}}}"#);
    for _ in 0..levels {
        text = format!(r#"{{"title":"t","children":[{text}],"extra":null}}"#);
    }
    text
}

/// Deep replies through every reader: a value or an error, never a stack overflow.
#[test]
fn deep_replies() {
    use schema_core::AgentSchema;
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            for levels in [10, 40, 60, 63, 64, 65, 127, 128, 200, 5_000] {
                let text = deep_node(levels);
                // (each level nests the JSON twice, and `extra` once more: 40 levels are 121 deep)
                let r = Node::from_json(&text);
                assert_eq!(r.is_ok(), levels <= 40, "{levels}: {r:?}");
                let _ = Node::from_llm(&format!("Here:\n```json\n{text}\n```"));
                let _ = Node::from_llm(&text[..text.len() / 2]);
                for chunk in [1, 7, 64] {
                    let mut s = Node::stream();
                    let mut failed = false;
                    for piece in text.as_bytes().chunks(chunk) {
                        if s.push_bytes(piece).is_err() {
                            failed = true;
                            break;
                        }
                        let _ = s.partial();
                    }
                    if !failed {
                        let _ = s.finish();
                    }
                }
            }
        })
        .expect("spawn")
        .join()
        .expect("a deep reply panicked");
}
