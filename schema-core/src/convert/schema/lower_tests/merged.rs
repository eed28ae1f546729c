//! A `$ref` with siblings the walk would merge, written merged by the lowering, held to the input's conversions.

use super::*;

/// An `allOf` of one bare reference to a recursive definition (with annotations beside it or
/// not) is written as the reference, the annotations beside it: the values of the reference,
/// which every dialect with recursion keeps as a `$ref` (a correction: the walk over the input
/// cannot merge it and refuses it; llguidance compiles the output).
#[test]
fn an_all_of_of_a_recursive_reference_is_the_reference() {
    let defs = json!({
        "Node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/Node"}}}
    });
    for (a, desc) in [
        (json!({"allOf": [{"$ref": "#/definitions/Node"}]}), None),
        (
            json!({"allOf": [{"$ref": "#/definitions/Node"}], "description": "d"}),
            Some("d"),
        ),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let lowered = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
        let a = &lowered["properties"]["a"];
        assert_eq!(a["$ref"], "#/definitions/Node", "{lowered}");
        assert_eq!(a.get("allOf"), None, "{lowered}");
        assert_eq!(
            a.get("description").and_then(Value::as_str),
            desc,
            "{lowered}"
        );
        for d in [Dialect::Llguidance, Dialect::OpenAi, Dialect::Gemini] {
            let out = crate::convert::to_dialect(&v, d).unwrap();
            let a = &out["properties"]["a"];
            let r = a.get("$ref").unwrap_or(&a["anyOf"][0]["$ref"]);
            assert_eq!(r, "#/$defs/Node", "{d:?}: {out}");
        }
    }
}

/// An `enum` beside a `type` in the same schema keeps only the values of that type in the model
/// (both keywords apply: JSON Schema validation 6.1.1 and 6.1.2): before, `normalize::local`
/// read the enum alone, so the TypeScript text offered `"a"` for an object, and beside a `$ref`
/// to a string definition the model merged `"a"` with the string where every dialect rejects
/// the `allOf` of an object and a string (the lowered document was accepted: 384 conversions of
/// `ref_sibling_shapes`). Where no value is of the type the enum stays as written.
#[test]
fn an_enum_keeps_the_values_of_the_type_beside_it() {
    let input = json!({"type": "object", "properties": {
        "a": {"type": "object", "enum": ["a", {"name": "x"}]},
        "b": {"type": ["string", "null"], "enum": ["a", 1, null]},
        "c": {"type": "array", "enum": ["a"]}
    }, "required": ["a", "b", "c"]});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    assert_eq!(ts, "{a: {name: \"x\"}; b: \"a\"|null; c: \"a\"}");
    let v = json!({"type": "object", "properties": {
        "a": {"type": "object", "enum": ["a", {"name": "x"}], "$ref": "#/definitions/Str"}
    }, "required": ["a"], "definitions": {"Str": {"type": "string", "minLength": 1}}});
    let lowered = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
    // (`JsonSchema` returns its input as it is)
    for d in Dialect::STANDARD_AND_PROVIDERS
        .into_iter()
        .filter(|d| *d != Dialect::JsonSchema)
    {
        assert!(walk(&v, d).is_err(), "{d}");
        assert!(walk(&lowered, d).is_err(), "{d}: {lowered}");
    }
}

/// Object keywords beside a shape no object fits are vacuous (they apply to objects only: JSON
/// Schema validation 6.5, core 10.3.2), as the dialects read them (they drop them): without a
/// `type` of their own beside a `$ref` to a string definition the model no longer reads them
/// as an object intersected with the string (the TypeScript text printed `{name: unknown} &
/// (string ...)`, a string with a key), and beside `type: "string"` the lowering leaves them
/// out (before: not lowered, "a structural keyword beside a shape of another kind").
#[test]
fn object_keywords_beside_a_string_are_vacuous() {
    let defs = json!({
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        "Str": {"type": "string", "minLength": 1}
    });
    let input = json!({"type": "object", "properties": {
        "a": {"required": ["name"], "$ref": "#/definitions/Str"},
        "b": {"minProperties": 1, "properties": {"x": {}}, "$ref": "#/definitions/Str"},
        "c": {"type": "string", "additionalProperties": false, "$ref": "#/definitions/Str"}
    }, "required": ["a", "b", "c"], "definitions": defs});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    let s = "string /* min 1 char */";
    assert_eq!(ts, format!("{{a: {s}; b: {s}; c: {s}}}"));
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    for p in ["a", "b"] {
        let want = json!({"$ref": "#/definitions/Str"});
        assert_eq!(lowered["properties"][p], want, "{lowered}");
    }
    assert_converts_alike(&input, &lowered, &input);
    // (an intersection the dialects reject: written back, rejected alike)
    for a in [
        json!({"type": "string", "required": ["name"], "$ref": "#/definitions/Leaf"}),
        json!({"type": "string", "properties": {"x": {}}, "$ref": "#/definitions/Str"}),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let lowered = lower(&normalize(&v).unwrap(), &v, true)
            .unwrap_or_else(|u| panic!("{a}: {u:?}"))
            .json;
        assert_converts_alike(&v, &lowered, &a);
    }
}

/// OpenAPI's `nullable` beside a `$ref` to a non-recursive definition (with annotations or not,
/// `true` or `false`) is written back merged: the target inlined with the flag, which the walk
/// converts as the input without merging an `allOf` (before: `{"nullable": true, "$ref": ...}`
/// as written, which the walk turns into an `allOf` of the target and merges, the merge the
/// switch deletes). The model reads the same shape as before (the TypeScript text is the same).
#[test]
fn a_nullable_ref_is_written_merged() {
    let defs = json!({
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        "Str": {"type": "string", "minLength": 1}
    });
    for (a, ts) in [
        (
            json!({"nullable": true, "$ref": "#/definitions/Leaf"}),
            "{name: string}|null",
        ),
        (
            json!({"nullable": true, "description": "d", "$ref": "#/definitions/Leaf"}),
            "/* d */ {name: string}|null",
        ),
        (
            json!({"nullable": false, "$ref": "#/definitions/Leaf"}),
            "{name: string}",
        ),
        (
            json!({"nullable": true, "$ref": "#/definitions/Str"}),
            "string /* min 1 char */|null",
        ),
        (
            json!({"nullable": true, "title": "t", "$ref": "#/definitions/Str"}),
            "string /* min 1 char */|null",
        ),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let got = crate::convert::to_typescript(&v, &Default::default()).unwrap();
        assert_eq!(got, format!("{{a: {ts}}}"), "{a}");
        let lowered = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
        let l = &lowered["properties"]["a"];
        assert!(
            l.get("$ref").is_none() && l.get("nullable").is_some(),
            "{a}: {l}"
        );
        assert_merged_alike(&v, &lowered, &a);
    }
}

/// A type array, or a type with OpenAPI's `nullable: true`, beside a `$ref` (or an `allOf`):
/// each type is merged with the target and the one that fits is the merged shape, and the flag
/// applies to the merged shape, as the dialects merge the parts and then apply it. Before, the
/// model kept the intersection (`(object|null) & {name: string}`, which the lowering wrote as
/// the input had it and the walk merged), and read `nullable` with the type only, so the null
/// merged away where every dialect writes `anyOf [.., {"type": "null"}]`: the model now says
/// what the dialects write (`{name: string}|null`).
#[test]
fn a_type_array_beside_a_ref_is_merged() {
    let defs = json!({
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        "Str": {"type": "string", "minLength": 1}
    });
    for (a, ts) in [
        (
            json!({"type": ["object", "null"], "$ref": "#/definitions/Leaf"}),
            "{name: string}",
        ),
        (
            json!({"type": ["object", "null"], "required": ["name"], "allOf": [{"$ref": "#/definitions/Leaf"}]}),
            "{name: string}",
        ),
        (
            json!({"type": "object", "nullable": true, "$ref": "#/definitions/Leaf"}),
            "{name: string}|null",
        ),
        (
            json!({"type": "string", "nullable": true, "$ref": "#/definitions/Str"}),
            "string|null /* min 1 char */",
        ),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let got = crate::convert::to_typescript(&v, &Default::default()).unwrap();
        assert_eq!(got, format!("{{a: {ts}}}"), "{a}");
        let lowered = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
        assert_merged_alike(&v, &lowered, &a);
    }
}

/// An `enum` (with a `type`, or made nullable) beside a `$ref` to a non-recursive object
/// definition, or an `allOf` of it, is written back merged: the target in place with the own
/// keywords over it and the values of the merged type, which is what the walk merges the input
/// into (the model keeps the intersection: it has no object with values; the TypeScript text
/// is unchanged). Before: written as the input had it, for the walk to merge.
#[test]
fn an_enum_beside_an_object_ref_is_written_merged() {
    let defs = json!({
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    });
    let leaf = "#/definitions/Leaf";
    for a in [
        json!({"enum": ["a", {"name": "x"}], "$ref": leaf}),
        json!({"type": "object", "enum": ["a", {"name": "x"}], "allOf": [{"$ref": leaf}]}),
        json!({"type": ["object", "null"], "description": "d", "enum": [{"name": "x"}], "$ref": leaf}),
        json!({"nullable": true, "enum": ["a", {"name": "x"}], "$ref": leaf}),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let lowered = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
        assert_eq!(
            lowered["properties"]["a"]["enum"],
            json!([{"name": "x"}]),
            "{a}: {lowered}"
        );
        assert_merged_alike(&v, &lowered, &a);
    }
}

/// A definition more than one `$ref` names, with `nullable`, an `enum` or a type array beside
/// one of them, stays a reference in the lowered document: with `keep_defs` a dialect keeps
/// such a definition shared and drops the keywords beside each reference, without it merges
/// them; the model does not see the option, so the walk decides, as for the input. Before,
/// the target was written in place, the other reference was then its only use and every
/// dialect inlined both where the input keeps `$defs/Leaf` (the ratchet's shapes name each
/// definition once).
#[test]
fn a_shared_definition_beside_keywords_stays_a_reference() {
    let leaf = "#/definitions/Leaf";
    for a in [
        json!({"nullable": true, "$ref": leaf}),
        json!({"enum": [{"name": "x"}], "$ref": leaf}),
        json!({"type": ["object", "null"], "$ref": leaf}),
    ] {
        let v = json!({"type": "object", "properties": {"a": a, "b": {"$ref": leaf}},
        "required": ["a", "b"], "definitions": {
            "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
        }});
        let lowered = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
        assert_eq!(lowered["properties"]["a"]["$ref"], json!(leaf), "{lowered}");
        for d in [Dialect::OpenAi, Dialect::Gemini, Dialect::Llguidance] {
            for o in options() {
                let want = walk_with(&v, d, &o).map(|c| c.schema);
                let got = walk_with(&lowered, d, &o).map(|c| c.schema);
                assert_eq!(want.ok(), got.ok(), "{a} {d} {o:?}");
            }
        }
    }
}
