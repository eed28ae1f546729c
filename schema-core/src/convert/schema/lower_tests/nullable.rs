//! The lowering of tables, nullable references and nullable unions, held to the input's conversions.

use super::*;

/// Two forms the lowering could not write back (23 suite inputs then 13): an `allOf` of parts
/// that allow every value (`{}`, `true`), which the model merges into a schema of no keyword
/// of its own, is `{}` (as the walk merges it); and `additionalItems` without an `items`
/// list, which has no effect (draft 2019-09 core 9.3.1.2: ignored where `items` is a schema
/// or absent) and which the walk drops, is left out.
#[test]
fn an_all_of_of_everything_and_a_lone_additional_items_are_lowered() {
    for (input, want) in [
        (json!({"allOf": [{}, {}]}), json!({})),
        (json!({"allOf": [true, true]}), json!({})),
        (
            json!({"items": {"type": "integer"}, "additionalItems": {"type": "string"}}),
            json!({"items": {"type": "integer"}}),
        ),
    ] {
        let lowered = lower(&normalize(&input).unwrap(), &input, true)
            .unwrap_or_else(|u| panic!("{input}: {u:?}"))
            .json;
        assert_eq!(lowered, want, "{input}");
        let v = json!({"type": "object", "properties": {"a": input}});
        let l = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
        for d in Dialect::STANDARD_AND_PROVIDERS
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            for o in options() {
                assert_eq!(
                    walk_with(&v, d, &o).map(|c| c.schema),
                    walk_with(&l, d, &o).map(|c| c.schema),
                    "{input} {d:?}"
                );
            }
        }
    }
}

/// A reference to a definition in a nested definitions table (`#/definitions/A/definitions/B`)
/// is written with its definition at that place, the tables around it made as needed
/// (before: "a reference to a place the lowering merged away", 4 suite inputs in ref.json).
#[test]
fn a_reference_into_a_nested_definitions_table_is_lowered() {
    for input in [
        json!({"definitions": {"": {"definitions": {"": {"type": "number"}}}},
               "allOf": [{"$ref": "#/definitions//definitions/"}]}),
        json!({"type": "object", "properties": {"a": {"allOf": [{"$ref": "#/$defs/A/$defs/B"}]},
                                                 "b": {"$ref": "#/$defs/A"}},
               "$defs": {"A": {"type": "object", "properties": {"n": {"type": "string"}},
                               "$defs": {"B": {"type": "number", "minimum": 1}}}}}),
    ] {
        let lowered = lower(&normalize(&input).unwrap(), &input, true)
            .unwrap_or_else(|u| panic!("{input}: {u:?}"))
            .json;
        for d in Dialect::STANDARD_AND_PROVIDERS
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            for o in options() {
                assert_eq!(
                    walk_with(&input, d, &o).map(|c| c.schema),
                    walk_with(&lowered, d, &o).map(|c| c.schema),
                    "{input} {d:?} {lowered}"
                );
            }
        }
    }
}

/// What the lowering writes, by hand: an `allOf` merged (the target's keywords, then the
/// members', then the own ones), the `required` list in its merged order, `nullable` as
/// written, a type array as one type and `nullable` or as a union of one branch per type (its
/// keywords and enum values split by type, annotations beside), a recursive reference kept with its definition in the root's table
/// (an inlined one's definition left out), a union and `not` as written.
#[test]
fn the_lowering_writes_the_model_back() {
    let input = json!({
        "$defs": {
            "Base": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}
        },
        "description": "root",
        "allOf": [
            {"$ref": "#/$defs/Base"},
            {"properties": {"name": {"type": ["string", "null"], "maxLength": 3}}, "required": ["name"]}
        ],
        "required": ["node", "id"],
        "properties": {
            "node": {"$ref": "#/$defs/Node"},
            "kind": {"enum": ["a", "b"], "nullable": true, "type": "string"},
            "either": {"anyOf": [{"type": "integer"}, {"not": {"type": "string"}}]},
            "multi": {"type": ["string", "integer", "null"], "maxLength": 3, "minimum": 1,
                      "description": "m", "enum": ["a", 1, null]}
        }
    });
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    // (merged parts first: the target's keywords, the members' new ones, then the schema's
    // own new ones, its definitions table among them)
    let want = json!({
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string", "maxLength": 3, "nullable": true},
            "node": {"$ref": "#/$defs/Node"},
            "kind": {"enum": ["a", "b"], "nullable": true, "type": "string"},
            "either": {"anyOf": [{"type": "integer"}, {"not": {"type": "string"}}]},
            "multi": {"description": "m", "anyOf": [
                {"type": "string", "maxLength": 3, "enum": ["a"]},
                {"type": "integer", "minimum": 1, "enum": [1]}
            ], "nullable": true}
        },
        "required": ["id", "name", "node"],
        "$defs": {
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}
        },
        "description": "root"
    });
    assert_eq!(lowered, want);
    // (the keyword order too, which `==` on maps does not check)
    assert_eq!(lowered.to_string(), want.to_string());
}

/// `nullable: true` beside an `enum` allows null in the model too, as in every dialect's
/// output (before, the model read the enum alone: the TypeScript text had no `|null`, and the
/// lowered document lost the flag).
#[test]
fn a_nullable_enum_allows_null() {
    let input = json!({"type": "object", "properties": {
        "s": {"type": "string", "enum": ["a", "b"], "nullable": true}
    }, "required": ["s"]});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    assert_eq!(ts, "{s: \"a\"|\"b\"|null}");
    let out = walk(&input, Dialect::Xgrammar).unwrap();
    assert_eq!(out["properties"]["s"]["anyOf"][1], json!({"type": "null"}));
}

/// A keyword that does not combine (`unevaluatedItems` here) in an `allOf` part and beside it:
/// the model keeps the part's value, as the dialects' merge does (`over_target`: the part's
/// value first; an own annotation would win). Before, the model kept the own value, and the
/// lowered document then converted to another description.
#[test]
fn a_keyword_that_does_not_combine_keeps_the_parts_value() {
    let input = json!({
        "allOf": [{"prefixItems": [{"type": "string"}]}, {"unevaluatedItems": true}],
        "unevaluatedItems": false
    });
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    assert_eq!(lowered["unevaluatedItems"], json!(true), "{lowered}");
    let out = walk(&input, Dialect::Llguidance).unwrap();
    assert_eq!(out["description"], json!("@unevaluatedItems true"), "{out}");
    assert_eq!(walk(&lowered, Dialect::Llguidance).unwrap(), out);
}

/// A `$ref` beside keywords of another shape, or beside an `allOf`, that the normalizer keeps
/// as an intersection ([`super::Kind::All`]: a recursive target, a target of another type, a
/// type array beside an `allOf`) is written back with its own keywords, its `$ref` and its
/// `allOf` as the input had them: before, the lowering skipped the `$ref` (`{"type":
/// "object", "$ref": <recursive>}` lowered to `{"type": "object"}`), or could not write the
/// own part of an `allOf` intersection. The dialect output (or error) is the input's.
#[test]
fn a_ref_beside_its_intersection_parts_is_kept() {
    let defs = json!({
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        "Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/Node"}}}}
    });
    for a in [
        json!({"type": "object", "$ref": "#/definitions/Node"}),
        json!({"type": "object", "required": ["kids"], "$ref": "#/definitions/Node"}),
        json!({"type": "string", "$ref": "#/definitions/Leaf"}),
        json!({"type": ["object", "number"], "allOf": [{"$ref": "#/definitions/Leaf"}, {"$ref": "#/definitions/Node"}]}),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let lowered = lower(&normalize(&v).unwrap(), &v, true)
            .unwrap_or_else(|u| panic!("{a}: {u:?}"))
            .json;
        assert!(
            lowered["properties"]["a"].to_string().contains("$ref"),
            "{a}: {lowered}"
        );
        assert_converts_alike(&v, &lowered, &a);
    }
}

/// OpenAPI's `nullable: true` beside a `$ref` or an `allOf` (no `type` of its own) allows null
/// in the model, as every dialect's output does (before, the model read the reference alone:
/// the TypeScript text had no `|null`, and the lowered document wrote `nullable: false`);
/// a recursive target keeps its name.
#[test]
fn a_nullable_ref_allows_null() {
    let input = json!({"type": "object", "properties": {
        "a": {"nullable": true, "$ref": "#/definitions/Leaf"},
        "b": {"allOf": [{"$ref": "#/definitions/Node"}], "nullable": true},
        "c": {"nullable": false, "$ref": "#/definitions/Leaf"}
    }, "required": ["a", "b", "c"], "definitions": {
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        "Node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/Node"}}}
    }});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    assert_eq!(
        ts,
        "type Node = {next?: Node};\n{a: {name: string}|null; b: Node|null; c: {name: string}}"
    );
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    assert_eq!(
        lowered["properties"]["a"]["nullable"],
        json!(true),
        "{lowered}"
    );
    assert_eq!(
        lowered["properties"]["b"]["nullable"],
        json!(true),
        "{lowered}"
    );
    assert_eq!(
        lowered["properties"]["c"]["nullable"],
        json!(false),
        "{lowered}"
    );
    // (the dialects reject `b`: an `allOf` over a recursive type)
    let mut input = input;
    input["properties"].as_object_mut().unwrap().remove("b");
    input["required"] = json!(["a", "c"]);
    assert_null_branch(&input, Dialect::Gemini, 1);
}

/// `nullable: true` beside a `$ref` and a type array whose `null` the merge with the target
/// takes away (`["object", "null"]` beside an object): the flag still allows null, as the
/// dialects apply it after merging (before, the model and the lowered document lost it).
#[test]
fn a_nullable_ref_with_a_type_array_allows_null() {
    let input = json!({"type": "object", "properties": {
        "a": {"type": ["object", "null"], "nullable": true, "$ref": "#/definitions/Leaf"}
    }, "required": ["a"], "definitions": {
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    }});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    // (the type array's `object` merged with the target, or null; before: the intersection
    // the normalizer kept, or null, `Leaf|null` in meaning too)
    assert_eq!(ts, "{a: {name: string}|null}");
    assert_null_branch(&input, Dialect::OpenAi, 1);
}

/// `nullable: true` (and a constraint, so the target is inlined) beside a `$ref` to a
/// definition that is only a union: null is one more branch, as the dialects add it (before,
/// the model and the lowered document lost the flag).
#[test]
fn a_nullable_ref_to_a_union_allows_null() {
    let input = json!({"type": "object", "properties": {
        "a": {"nullable": true, "maxLength": 3, "$ref": "#/definitions/Uni"}
    }, "required": ["a"], "definitions": {
        "Uni": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    }});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    // (`maxLength` constrains the strings only, JSON Schema validation 6.3.1: merged into the
    // string branch, as the dialects write it; before, the text put it before the whole union)
    assert_eq!(ts, "{a: string /* max 3 chars */|number /* int */|null}");
    assert_null_branch(&input, Dialect::OpenAi, 2);
}

/// OpenAPI's `nullable: true` beside a union of the schema's own (`anyOf` or `oneOf`, no `type`, `enum`,
/// `const`, `$ref` or `allOf`) allows null in the model, as every dialect's output does (they
/// add a `{"type": "null"}` branch; before, the TypeScript text had no `|null`); a union that
/// already has a null branch gets no second one, and `nullable: false` changes nothing. The
/// lowered document converts as the input in every dialect and option set, and lowering it
/// again gives the same document.
#[test]
fn a_nullable_union_of_its_own_allows_null() {
    let input = json!({"type": "object", "properties": {
        "a": {"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": true},
        "b": {"anyOf": [{"type": "string"}], "nullable": true, "description": "x"},
        "c": {"anyOf": [{"type": "string"}, {"type": "null"}], "nullable": true},
        "d": {"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": false},
        "e": {"oneOf": [{"type": "string"}, {"type": "integer"}], "nullable": true},
        "f": {"oneOf": [{"type": "string"}, {"type": "null"}], "nullable": true}
    }, "required": ["a", "b", "c", "d", "e", "f"]});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    assert_eq!(
        ts,
        "{a: string|number /* int */|null; b: string|null /* x */; c: string|null; d: string|number /* int */; e: string|number /* int */|null; f: string|null}"
    );
    for (p, branches) in [("a", 3), ("b", 2), ("c", 2), ("d", 2), ("e", 3), ("f", 2)] {
        let out = walk(&input, Dialect::OpenAi).unwrap();
        let union = out["properties"][p]["anyOf"].as_array().unwrap();
        assert_eq!(union.len(), branches, "{p}: {out}");
    }
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    for d in Dialect::EVERY {
        if d == Dialect::JsonSchema {
            continue;
        }
        for o in options() {
            let want = walk_with(&input, d, &o).map(|c| c.schema);
            let got = walk_with(&lowered, d, &o).map(|c| c.schema);
            assert_eq!(want.ok(), got.ok(), "{d}");
        }
    }
    let again = lower(&normalize(&lowered).unwrap(), &lowered, true)
        .unwrap()
        .json;
    assert_eq!(again, lowered);
}

/// `nullable: true` beside a type array without `null` allows null in the model too, as every
/// dialect's output does (before, the model read the array alone: the TypeScript text had no
/// `|null`, and the lowered document wrote `nullable: false`, so the conversion through the
/// model lost the null the walk over the input writes). The lowering splits the array itself,
/// the flag beside the union (the walk no longer splits a lowered document's type arrays).
#[test]
fn a_nullable_type_array_allows_null() {
    let input = json!({"type": "object", "properties": {
        "a": {"type": ["number"], "nullable": true},
        "b": {"type": ["number", "string"], "nullable": true, "maxLength": 3},
        "c": {"type": ["number", "null"], "nullable": true},
        "d": {"type": ["number", "string"], "nullable": false}
    }, "required": ["a", "b", "c", "d"]});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    assert_eq!(
        ts,
        "{a: number|null; b: number|string|null /* max 3 chars */; c: number|null; d: number|string}"
    );
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    for (p, flag) in [("a", true), ("b", true), ("c", true), ("d", false)] {
        let got = lowered["properties"][p]["nullable"] == json!(true);
        assert_eq!(got, flag, "{p}: {lowered}");
    }
    for d in [Dialect::OpenAi, Dialect::Gemini, Dialect::Llguidance] {
        for o in options() {
            let want = walk_with(&input, d, &o).map(|c| c.schema);
            let got = crate::convert::to_dialect_with(&input, d, &o).map(|c| c.schema);
            assert_eq!(got.ok(), want.ok(), "{d}");
        }
    }
}

/// A `$ref` with keywords beside it to a definition that is itself a `$ref` (or an `allOf`)
/// with `nullable: true`: the model merges the definition's nullable union in, read at the
/// definition's place; the lowering writes the reference (or, where it cannot, leaves the
/// input to the walk) instead of the keywords alone. Before, `{"$ref": C, "minimum": 0}` with
/// `C` a nullable `$ref` to an integer lowered to `{"nullable": true, "minimum": 0}`, which
/// every dialect wrote as a number (1.5 allowed), and with `C` a nullable `allOf` of two types
/// no value fits it converted where the input is an error.
#[test]
fn a_nullable_definition_merged_with_keywords_keeps_its_shape() {
    let defs = json!({
        "Int": {"type": "integer"},
        "C": {"$ref": "#/$defs/Int", "nullable": true},
        "Never": {"allOf": [{"type": "boolean"}, {"type": "number"}], "nullable": true}
    });
    let with = |a: Value| json!({"type": "object", "properties": {"a": a}, "required": ["a"], "$defs": defs});
    let int = with(json!({"$ref": "#/$defs/C", "minimum": 0}));
    let out = crate::convert::to_dialect(&int, Dialect::OpenAi).unwrap();
    assert_eq!(
        out["properties"]["a"]["anyOf"][0],
        json!({"type": "integer", "minimum": 0}),
        "{out}"
    );
    for input in [
        int,
        with(json!({"$ref": "#/$defs/Never", "minimum": 0})),
        with(json!({"allOf": [{"$ref": "#/$defs/Int", "nullable": true, "type": "boolean"}]})),
    ] {
        for d in [Dialect::OpenAi, Dialect::Gemini, Dialect::Llguidance] {
            for o in options() {
                let want = walk_with(&input, d, &o).map(|c| c.schema);
                let got = crate::convert::to_dialect_with(&input, d, &o).map(|c| c.schema);
                assert_eq!(got.ok(), want.ok(), "{d} {input}");
            }
        }
    }
}
