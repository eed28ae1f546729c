//! The conflicts the lowering names (`Lowered::conflicts`): where the walk over the input
//! would have merged a schema and failed, the conversion through the model gives that error,
//! in the walk's order; it never leaves the walk anything to merge itself (an internal error).

use super::*;

/// The conversion through the model of `v`, which must fail: its error.
fn error(v: &Value, d: Dialect) -> ConvertError {
    let got = to_dialect_with(v, d, &DialectOptions::new());
    let e = got.expect_err("an error");
    assert!(!e.to_string().contains("internal:"), "{d}: {e}");
    e
}

/// An `allOf` whose parts do not merge is the walk's error, at the part, and the lowered
/// document keeps it as written, the conflict named where the walk meets it.
#[test]
fn an_allof_that_does_not_merge_is_the_walks_error() {
    let v = json!({"type": "object", "properties": {
        "b": {"allOf": [{"type": "string"}, {"type": "integer"}]}
    }});
    let doc = normalize(&v).unwrap();
    let lowered = lower(&doc, &v, false).unwrap();
    assert!(lowered.json["properties"]["b"].get("allOf").is_some());
    let at: Vec<&str> = lowered.conflicts.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(at, ["/properties/b"]);
    for d in [Dialect::OpenAi, Dialect::Llguidance, Dialect::Gemini] {
        let e = error(&v, d);
        assert_eq!(
            e,
            walk_with(&v, d, &DialectOptions::new()).unwrap_err(),
            "{d}"
        );
        assert_eq!(e.pointer, "/properties/b/allOf/1", "{d}");
    }
}

/// The walk's order holds: an error it meets before the conflict (a map under OpenAI strict,
/// at `a`) comes first; where the dialect accepts `a` (llguidance), the conflict at `b` is
/// the error.
#[test]
fn an_error_the_walk_meets_first_comes_first() {
    let v = json!({"type": "object", "properties": {
        "a": {"type": "object", "additionalProperties": {"type": "string"}},
        "b": {"allOf": [{"type": "string"}, {"type": "integer"}]}
    }, "required": ["a", "b"]});
    assert_eq!(error(&v, Dialect::OpenAi).pointer, "/properties/a");
    assert_eq!(
        error(&v, Dialect::Llguidance).pointer,
        "/properties/b/allOf/1"
    );
}

/// A `$ref` beside keywords is merged with its target by the lowering where the walk inlines
/// it (the walk merges nothing itself); where they do not merge, the error is the walk's,
/// named at the target's place as the walk names it.
#[test]
fn a_ref_beside_keywords_is_merged_by_the_lowering() {
    let defs = json!({"S": {"type": "string", "maxLength": 5}});
    let ok = json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/S", "maxLength": 3, "pattern": "^a"}
    }, "$defs": defs});
    let doc = normalize(&ok).unwrap();
    let lowered = lower(&doc, &ok, false).unwrap();
    let a = &lowered.json["properties"]["a"];
    assert!(a.get("$ref").is_none(), "{a}");
    for d in [Dialect::OpenAi, Dialect::Llguidance, Dialect::Gemini] {
        let o = DialectOptions::new();
        let got = to_dialect_with(&ok, d, &o).unwrap();
        assert_eq!(got.schema, walk_with(&ok, d, &o).unwrap().schema, "{d}");
    }
    let bad = json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/S", "type": "integer"}
    }, "$defs": defs});
    for d in [Dialect::OpenAi, Dialect::Llguidance] {
        let e = error(&bad, d);
        assert_eq!(
            e,
            walk_with(&bad, d, &DialectOptions::new()).unwrap_err(),
            "{d}"
        );
    }
}

/// A union whose keywords beside it narrow every branch away: the error names the schema
/// that writes the keywords (the `$ref` with a `type` beside it), a place of the input, not
/// the union's definition, which is valid on its own.
#[test]
fn no_branch_left_is_named_where_the_type_is_written() {
    let v = json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/U", "type": "object"}
    }, "$defs": {"U": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}});
    for d in [Dialect::OpenAi, Dialect::Llguidance, Dialect::Gemini] {
        let e = error(&v, d);
        assert_eq!(e.pointer, "/properties/a", "{d}: {e}");
        assert!(e.to_string().contains("no branch of the union"), "{d}: {e}");
    }
}

/// An error inside a schema the lowering moved names the nearest place the input has: the
/// union a type array is split into is no place of the input, its schema is.
#[test]
fn an_errors_place_is_a_place_of_the_input() {
    let v = json!({"type": "object", "properties": {
        "a": {"type": ["array", "string"]}
    }, "required": ["a"]});
    let e = error(&v, Dialect::OpenAi);
    assert_eq!(e.pointer, "/properties/a", "{e}");
    assert!(pointer_in(&v, &e.pointer));
}

fn pointer_in(v: &Value, p: &str) -> bool {
    crate::convert::pointer::get(v, p).is_some()
}

/// Many unions whose branches the keywords beside them narrow (a `$ref` to a two-type union
/// with one type beside it, in each of `n` properties), and many conflicts: the lowering's
/// work to move the branches' side-table entries grows with `n`, not with its square (before,
/// each narrowed union read the whole table: 20,000 properties took 3 s).
#[test]
fn many_narrowed_unions_take_linear_work() {
    use super::super::lower::ORIGINS_MOVED;
    let moved = |n: usize| {
        let props: serde_json::Map<String, Value> = (0..n)
            .map(|i| {
                (
                    format!("p{i}"),
                    json!({"$ref": "#/$defs/U", "type": "string"}),
                )
            })
            .collect();
        let v = json!({"type": "object", "properties": props,
                       "$defs": {"U": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}});
        let doc = normalize(&v).unwrap();
        let before = ORIGINS_MOVED.with(|c| c.get());
        let lowered = lower(&doc, &v, false).unwrap();
        assert_eq!(
            lowered.json["properties"]["p7"]["anyOf"],
            json!([{"type": "string"}])
        );
        ORIGINS_MOVED.with(|c| c.get()) - before
    };
    let (small, big) = (moved(500), moved(1000));
    assert!(small > 0);
    assert!(big <= 2 * small + 10, "{small} -> {big}");
}

/// A definition that is an `allOf` of itself, met while a merge lowers it for its value:
/// the merge names the cycle (before, each round lowered it again and the stack overflowed,
/// a random input of the fuzz's generator), and the conversion is the input's error, a cycle
/// with no object in between, as the walk over the input names it, though the model leaves
/// the cycle's one use out (a union branch the integer beside it narrows away).
#[test]
fn an_allof_cycle_met_in_a_merge_ends() {
    let v = json!({"properties": {"a": {"allOf": [
        {"oneOf": [{"type": "array", "items": {"$ref": "#/$defs/A"}}, {}]},
        {"type": "integer"}
    ]}}, "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}});
    let doc = normalize(&v).unwrap();
    assert!(lower(&doc, &v, false).is_ok());
    for d in [Dialect::OpenAi, Dialect::Llguidance, Dialect::Gemini] {
        let e = error(&v, d);
        assert_eq!(
            e,
            walk_with(&v, d, &DialectOptions::new()).unwrap_err(),
            "{d}"
        );
        assert_eq!(e.pointer, "/$defs/A", "{d}: {e}");
    }
}

/// A `$ref` inside a `then` (a keyword the model does not read) into another `allOf` part
/// (JSONSchemaBench's SchemaStore `saucectl` schema, reduced): the merge takes that place away,
/// so its target moves to the root's `$defs` with the reference (`lower/opaque.rs`) in place
/// of an `allOf` object written into the merged schema, which the walk met as an `allOf` the
/// lowering did not merge (an internal error). Every dialect converts it or gives the walk's
/// own error; a conversion is what the walk over the input writes, and converts again to
/// itself.
#[test]
fn a_ref_from_a_then_into_another_allof_part_converts() {
    let part =
        json!({"definitions": {"s": {"type": "string"}, "u": {"$ref": "#/allOf/1/definitions/s"}}});
    let inputs = [
        json!({"allOf": [
            {"then": {"properties": {"t": {"$ref": "#/allOf/1/definitions/s"}}}},
            {"definitions": {"s": {}}}
        ]}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
        "allOf": [
            {"if": {"required": ["a"]},
             "then": {"properties": {"t": {"$ref": "#/allOf/1/definitions/u"}}}},
            part
        ]}),
        // (a property refers to the same target: the model's reference moves it first, named
        // `moved0` where a dialect keeps it as a definition, `s` in the walk over the input)
        json!({"type": "object", "properties": {"b": {"$ref": "#/allOf/1/definitions/s"}},
            "required": ["b"],
            "allOf": [{"then": {"properties": {"t": {"$ref": "#/allOf/1/definitions/s"}}}}, part]}),
    ];
    let mut converted = 0;
    for (i, input) in inputs.iter().enumerate() {
        let lowered = lower(&normalize(input).unwrap(), input, true).unwrap().json;
        assert!(lowered.get("allOf").is_none(), "{lowered}");
        for d in Dialect::EVERY {
            for o in options() {
                let got = to_dialect_with(input, d, &o).map(|c| c.schema);
                if let Err(e) = &got {
                    assert!(!e.to_string().contains("internal"), "{d} {input}: {e}");
                }
                let walk = walk_input(input, d, &o, false).map(|c| c.schema);
                // (a dialect that writes the `then` into the description writes it as lowered,
                // its `$ref` naming the moved place: the rest is the walk's output)
                let plain = |r: &Result<Value, ConvertError>| r.clone().map(without_descriptions);
                if i < 2 {
                    assert_eq!(plain(&got), plain(&walk), "{d} {input}");
                }
                let Ok(out) = got else { continue };
                converted += 1;
                // (converted again: the same; in the third, a definition the `then` in the
                // description named too is one `$ref`'s now, and inlined where it was kept)
                let again = to_dialect_with(&out, d, &o).map(|c| c.schema);
                match i {
                    0 | 1 => assert_eq!(again.as_ref(), Ok(&out), "{d} {input}"),
                    _ => assert!(again.is_ok(), "{d} {input}: {again:?}"),
                }
            }
        }
    }
    // (refused only where the dialect refuses the merged root: OpenAI's and Anthropic's
    // untyped or non-object root in the first input)
    assert!(
        converted >= inputs.len() * Dialect::EVERY.len() * 4 - 8,
        "{converted}"
    );
}

/// `v` without its `description`s, at any depth.
fn without_descriptions(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("description");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}
