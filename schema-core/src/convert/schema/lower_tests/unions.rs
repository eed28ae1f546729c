//! A `$ref` to a union beside other keywords: the model's merged union, held to the input's conversions.

use super::*;

/// A `$ref` to a union definition (`Uni`: `anyOf` string | integer) beside keywords that are
/// not annotations: the model merges the keywords into each branch of the union, as the
/// dialects merge the parts and then copy the keywords beside the union into its branches, and
/// the lowering writes that union, so that the walk does neither (before, the model kept an
/// intersection, the lowering wrote the `$ref` and its siblings back, and the walk merged
/// them). JSON Schema reads them so: `string` and `string | integer` allow the strings only;
/// object keywords without a `type` (`required`, `properties`, `additionalProperties`,
/// `minProperties`) constrain objects only (2020-12 validation, each "ignores" an instance that
/// is not an object: 10.3.2.1, 6.5), so beside a union without an object branch they allow
/// its values. The TypeScript text says so (before: `string & (string|number /* int */)`,
/// `{name: unknown} & (string|number /* int */)`, `/* min 1 key */ object & (...)`).
#[test]
fn a_ref_to_a_union_beside_keywords_is_the_merged_union() {
    let defs = json!({"Uni": {"anyOf": [{"type": "string"}, {"type": "integer"}]}});
    for (a, ts, lowered_a) in [
        (
            json!({"type": "string", "$ref": "#/definitions/Uni"}),
            "string",
            json!({"anyOf": [{"type": "string"}]}),
        ),
        (
            json!({"type": "string", "maxLength": 3, "nullable": true, "allOf": [{"$ref": "#/definitions/Uni"}]}),
            "string /* max 3 chars */|null",
            json!({"anyOf": [{"type": "string", "maxLength": 3}], "nullable": true}),
        ),
        (
            json!({"required": ["name"], "description": "d", "$ref": "#/definitions/Uni"}),
            "/* d */ string|number /* int */",
            json!({"description": "d", "anyOf": [{"type": "string"}, {"type": "integer"}]}),
        ),
        (
            json!({"minProperties": 1, "properties": {"x": {"type": "string"}}, "$ref": "#/definitions/Uni"}),
            "string|number /* int */",
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
        ),
        (
            json!({"nullable": true, "$ref": "#/definitions/Uni"}),
            "string|number /* int */|null",
            json!({"nullable": true, "anyOf": [{"type": "string"}, {"type": "integer"}]}),
        ),
    ] {
        // (null, a branch of the union in the model, written as the flag the walk applies
        // after the union, as for the input)
        assert_union_case(&defs, a, ts, lowered_a);
    }
}

/// An `enum` without a `type` beside a `$ref` to a union of a string and an integer: both
/// apply to the instance (JSON Schema validation 6.1.2; core 10.2.1.1, `allOf`), so the
/// instance is one of the values and of one branch's type: `"a"` (no value is an integer, and
/// the object `{"name": "x"}` is of neither). The model merges the enum into the branches, each
/// keeping its own type's values and a branch with none left out, and the lowered document is
/// that union (before, the intersection: TypeScript `("a"|{name: "x"}) & (string|number /*
/// int */)`, and the walk merged and distributed it, copying every value into every branch).
#[test]
fn an_enum_beside_a_ref_to_a_union_keeps_each_branchs_values() {
    let defs = json!({"Uni": {"anyOf": [{"type": "string"}, {"type": "integer"}]}});
    for (a, ts, lowered_a) in [
        (
            json!({"enum": ["a", {"name": "x"}], "$ref": "#/definitions/Uni"}),
            "\"a\"",
            json!({"anyOf": [{"type": "string", "enum": ["a"]}]}),
        ),
        (
            json!({"enum": ["a", 1, {"name": "x"}], "nullable": true, "allOf": [{"$ref": "#/definitions/Uni"}]}),
            "\"a\"|1 /* int */|null",
            json!({"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "integer", "enum": [1]}], "nullable": true}),
        ),
    ] {
        let (v, lowered) = printed_and_lowered(&defs, &a, ts, &lowered_a);
        let counts = walk_counts;
        // (`JsonSchema` returns its input as it is)
        for d in Dialect::STANDARD_AND_PROVIDERS
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            let want = walk_with(&v, d, &DialectOptions::new()).unwrap();
            let before = counts();
            let got = walk_with(&lowered, d, &DialectOptions::new()).unwrap();
            assert_eq!(counts(), before, "{a}: the walk merged");
            assert!(
                wrong_type_values_only(&want.schema.to_string(), &got.schema.to_string()),
                "{a} {d:?}: {} / {}",
                want.schema,
                got.schema
            );
        }
    }
}

/// A merged union's annotations (its definition's `description`, the reference's `title`) in
/// the order the walk writes them for the input: it meets them in the merged schema after its
/// own removals, each of which moves the last key into the removed one's place (before, the
/// lowered union wrote `title` before `description` where the input's output has them the
/// other way round).
#[test]
fn a_merged_union_keeps_its_annotations_in_the_walks_order() {
    let defs = json!({"Num": {"anyOf": [{"type": "number"}, {"type": "string", "maxLength": 4}],
                              "description": "num"}});
    for a in [
        json!({"title": "t", "minProperties": 1, "$ref": "#/$defs/Num"}),
        json!({"title": "t", "nullable": true, "required": ["x"], "$ref": "#/$defs/Num"}),
        json!({"default": 1, "title": "t", "type": "number", "$ref": "#/$defs/Num"}),
        json!({"title": "t", "maxLength": 3, "$ref": "#/$defs/Num"}),
        json!({"title": "t", "format": "date", "allOf": [{"$ref": "#/$defs/Num"}]}),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "$defs": defs});
        let lowered = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
        assert!(
            lowered["properties"]["a"].get("$ref").is_none(),
            "{lowered}"
        );
        // (as text: `==` on maps does not see the keys' order)
        for d in [Dialect::Gemini, Dialect::OpenAi, Dialect::Llguidance] {
            let out = |x: &Value| walk(x, d).unwrap().to_string();
            assert_eq!(out(&lowered), out(&v), "{a} {d}");
        }
    }
}

/// A `const` beside a `$ref` to a union: the merged branches are constants, which the walk
/// reads as one `enum` when they are a union's only branches (for the input it meets the
/// union before the keywords go into it, and keeps the `const`). The lowering merges the
/// reference and its keywords (the walk merges nothing itself) and notes the union as one
/// whose constants are no `enum` (`Lowered::plain_unions`): the conversion writes
/// `const: "a"`, as for the input (before that note, `enum: ["a"]`).
#[test]
fn a_const_beside_a_ref_to_a_union_stays_a_const() {
    let defs = json!({"Uni": {"anyOf": [{"type": "string"}, {"type": "integer"}]}});
    let a = json!({"type": "string", "const": "a", "$ref": "#/$defs/Uni"});
    let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "$defs": defs});
    let doc = normalize(&v).unwrap();
    let lowered = lower(&doc, &v, false).unwrap();
    let plain: Vec<&String> = lowered.plain_unions.iter().collect();
    assert_eq!(plain, ["/properties/a"], "{}", lowered.json);
    for d in [Dialect::Gemini, Dialect::OpenAi, Dialect::Llguidance] {
        let o = DialectOptions::new();
        let got = to_dialect_with(&v, d, &o).unwrap().schema;
        assert_eq!(got, walk_with(&v, d, &o).unwrap().schema, "{d}");
        // (Gemini writes every `const` as a one-value `enum`)
        if d != Dialect::Gemini {
            assert_eq!(got["properties"]["a"]["const"], "a", "{d}: {got}");
        }
    }
}

/// A `$ref` at the root to a union of objects, beside keywords: the lowering writes the root
/// merged (the root's keywords over its target's, then into the union's branches: the walk
/// merges nothing itself), so the dialects' root pass reads a union whose variants each
/// require their tag. A correction: the walk over the input read the union before the
/// `required: ["kind"]` beside it went into its branches, and OpenAI and Gemini rejected the
/// input ("the root schema must be an object"), though every value of it is an object with a
/// tag; they now write the one object of tagged variants, `kind` required. Llguidance, which
/// keeps root unions, writes what it wrote.
#[test]
fn a_root_ref_to_a_union_of_objects_beside_keywords_is_read_merged() {
    let input = json!({"required": ["kind"], "$ref": "#/$defs/U", "$defs": {"U": {"anyOf": [
        {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"const": "b"}, "n": {"type": "integer"}}},
    ]}}});
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    assert!(lowered.get("$ref").is_none(), "{lowered}");
    for b in lowered["anyOf"].as_array().unwrap() {
        assert_eq!(b["required"], json!(["kind"]), "{lowered}");
    }
    let o = DialectOptions::new();
    for d in [Dialect::Gemini, Dialect::OpenAi] {
        // (Gemini takes any root since the table says so: the walk over the input no longer
        // fails there)
        assert!(
            d == Dialect::Gemini || walk_with(&input, d, &o).is_err(),
            "{d}"
        );
        let got = to_dialect_with(&input, d, &o).unwrap().schema;
        assert_eq!(got["type"], "object", "{d}: {got}");
        assert_eq!(
            got["properties"]["kind"]["enum"],
            json!(["a", "b"]),
            "{d}: {got}"
        );
        assert!(
            got["required"].as_array().unwrap().contains(&json!("kind")),
            "{got}"
        );
    }
    let d = Dialect::Llguidance;
    let want = walk_with(&input, d, &o).unwrap().schema;
    assert_eq!(to_dialect_with(&input, d, &o).unwrap().schema, want);
}

/// A root union with its definitions table beside it: the table stays at the root, the one
/// place the lowering fills (before, the lowering copied it into every branch as a keyword
/// beside the union, `"$defs": {}` in each; the walk drops a table before it reads a union,
/// so the output was the same).
#[test]
fn a_definitions_table_stays_beside_the_root_union() {
    let input = json!({"type": "array", "$ref": "#/$defs/U", "$defs": {
        "U": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/N"}}]},
        "N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}
    }});
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    assert_eq!(
        lowered["anyOf"],
        json!([{"type": "array", "items": {"$ref": "#/$defs/N"}}]),
        "{lowered}"
    );
    assert!(lowered["$defs"]["N"].is_object(), "{lowered}");
    assert_converts_alike(&input, &lowered, &input);
}

/// A union definition that two `$ref`s name, one with keywords beside it: with `keep_defs` a
/// dialect keeps the definition shared and drops those keywords, without it merges them; the
/// lowered document cannot say both, so the model keeps the intersection and the lowering
/// writes the `$ref` and its keywords as the input had them (before, the model merged them
/// into the branches, and with `keep_defs` the lowered document converted to another output:
/// the definition inlined at both places; so it was, already on main, for a constraint beside
/// the reference, which the model inlined to combine the constraints).
#[test]
fn a_shared_union_definition_beside_keywords_stays_a_reference() {
    let defs = json!({"Uni": {"anyOf": [{"type": "string"}, {"type": "integer"}]}});
    for a in [
        json!({"type": "string", "$ref": "#/$defs/Uni"}),
        json!({"nullable": true, "$ref": "#/$defs/Uni"}),
        json!({"maxLength": 3, "$ref": "#/$defs/Uni"}),
        json!({"maxLength": 3, "nullable": true, "$ref": "#/$defs/Uni"}),
    ] {
        let v = json!({"type": "object", "properties": {"a": a, "b": {"$ref": "#/$defs/Uni"}},
                       "required": ["a", "b"], "$defs": defs});
        let lowered = lower(&normalize(&v).unwrap(), &v, true).unwrap().json;
        assert_eq!(lowered["properties"]["a"], a, "{lowered}");
        for d in [Dialect::Gemini, Dialect::OpenAi, Dialect::Llguidance] {
            let o = DialectOptions::new().keep_defs(true);
            let want = walk_with(&v, d, &o).unwrap().schema;
            assert_eq!(
                want["properties"]["a"],
                json!({"$ref": "#/$defs/Uni"}),
                "{d}"
            );
            assert_eq!(walk_with(&lowered, d, &o).unwrap().schema, want, "{a} {d}");
        }
    }
}

/// `required`, `properties` or `additionalProperties` beside `type: "string"` and a `$ref` to a
/// union: the model reads the string (it keeps no value for the object keywords, which
/// constrain no string), and the branches it merges have no place for them either: they are
/// left out of the lowered branch, as no dialect writes them on a string (before, the lowering
/// could not write the merged branch: "a structural keyword beside a shape of another kind").
#[test]
fn object_keywords_beside_a_string_and_a_ref_to_a_union_are_left_out() {
    let defs = json!({"Uni": {"anyOf": [{"type": "string"}, {"type": "integer"}]}});
    for a in [
        json!({"type": "string", "required": ["name"], "$ref": "#/definitions/Uni"}),
        json!({"type": "string", "properties": {"x": {"type": "integer"}}, "$ref": "#/definitions/Uni"}),
        json!({"additionalProperties": false, "type": "string", "$ref": "#/definitions/Uni"}),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let lowered = lower(&normalize(&v).unwrap(), &v, true)
            .unwrap_or_else(|u| panic!("{a}: {u:?}"))
            .json;
        assert_eq!(
            lowered["properties"]["a"],
            json!({"anyOf": [{"type": "string"}]}),
            "{a}"
        );
        assert_converts_alike(&v, &lowered, &a);
    }
}

/// Asserts that property `a` (beside the definitions `defs`) prints as `ts`, lowers to
/// `lowered_a`, and that the walk neither merges nor distributes on the lowered document,
/// which converts as the input in the dialects `assert_converts_alike` compares.
fn assert_union_case(defs: &Value, a: Value, ts: &str, lowered_a: Value) {
    let (v, lowered) = printed_and_lowered(defs, &a, ts, &lowered_a);
    let counts = walk_counts;
    let before = counts();
    for d in Dialect::STANDARD_AND_PROVIDERS {
        let _ = walk_with(&lowered, d, &DialectOptions::new());
    }
    assert_eq!(counts(), before, "{a}: the walk merged");
    assert_converts_alike(&v, &lowered, &a);
}

/// How many `allOf`s this thread's walk merged and unions it distributed keywords into.
fn walk_counts() -> (u64, u64) {
    use crate::convert::dialect::{ALL_OF_MERGES, UNION_DISTRIBUTIONS};
    (
        ALL_OF_MERGES.with(std::cell::Cell::get),
        UNION_DISTRIBUTIONS.with(std::cell::Cell::get),
    )
}

/// Property `a` beside the definitions `defs`: asserts that it prints as `ts` and lowers to
/// `lowered_a`; the input document and its lowered document.
fn printed_and_lowered(defs: &Value, a: &Value, ts: &str, lowered_a: &Value) -> (Value, Value) {
    let v =
        json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
    let got = crate::convert::to_typescript(&v, &Default::default()).unwrap();
    assert_eq!(got, format!("{{a: {ts}}}"), "{a}");
    let lowered = lower(&normalize(&v).unwrap(), &v, true)
        .unwrap_or_else(|u| panic!("{a}: {u:?}"))
        .json;
    assert_eq!(&lowered["properties"]["a"], lowered_a, "{a}");
    (v, lowered)
}
