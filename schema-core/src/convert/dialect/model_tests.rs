//! Tests of `model.rs`: the conversion through the model names changes and errors at the
//! input's places and reports the model's own rewrites as the walk over the input does.

use crate::convert::dialect::{via_model as to_dialect_with, via_model_schema as to_dialect};
use crate::convert::DialectOptions;
use crate::Dialect;
use serde_json::json;

fn lines(input: &serde_json::Value, d: Dialect) -> Vec<String> {
    let out = to_dialect_with(input, d, &DialectOptions::default()).unwrap();
    out.changes.iter().map(|c| c.to_string()).collect()
}

/// Changes are named where the input writes what changed: a `oneOf` branch (not the
/// `anyOf` the walk reads), an `allOf` part's keyword at the part, a `$ref` target's at the
/// target; the model's own rewrites are reported, each once.
#[test]
fn changes_are_named_at_input_places() {
    let input = json!({
        "type": "object",
        "$defs": {"Base": {"type": "object", "properties": {"id": {"type": "string", "maxLength": 36}}}},
        "properties": {
            "pick": {"oneOf": [
                {"type": "object", "properties": {"s": {"type": "string", "maxLength": 3}}, "required": ["s"]},
                {"type": "integer"}
            ]},
            "both": {"allOf": [{"$ref": "#/$defs/Base"}, {"minProperties": 1}]},
            "t": {"type": ["string", "null"]}
        },
        "required": ["pick", "both", "t"]
    });
    let got = lines(&input, Dialect::OpenAi);
    for want in [
        "/properties/pick: `oneOf` rewritten as `anyOf`",
        "/properties/pick/oneOf/0/properties/s: `maxLength` moved into the description",
        "/properties/pick/oneOf/0: object closed (`additionalProperties: false`)",
        "/properties/both/allOf/0: `$ref` inlined",
        "/properties/both: `allOf` merged",
        "/properties/both/allOf/1: `minProperties` moved into the description",
        "/$defs/Base/properties/id: `maxLength` moved into the description",
        "/properties/t: type array / `nullable` rewritten as `anyOf`",
    ] {
        assert_eq!(
            got.iter().filter(|l| *l == want).count(),
            1,
            "{want} in {got:#?}"
        );
    }
    // (no line names a place the input does not have)
    for l in &got {
        let at = l.split(": ").next().unwrap().replace("(root)", "");
        assert!(input.pointer(&at).is_some(), "{l}");
    }
}

/// An `enum` (or `const`) none of whose values is of the `type` beside it, with a
/// structural keyword of that type (a BFCL tool's `metrics`: `type: array`, `items`, an
/// `enum` of strings): no value satisfies it, so every dialect rejects it naming the
/// place (the walk over the input wrote an unsatisfiable schema); an `enum` with a value of
/// the type beside `items` is one the model cannot write back, an error too, another one.
/// (Not yet beside object keywords: those are vacuous beside a
/// shape no object fits and left out, `schema::Kind::allows_no_object`, so the schema is
/// written with its `type` and the values as before.)
#[test]
fn an_enum_of_no_value_of_its_type_is_an_error() {
    let input = json!({"type": "object", "properties": {
        "metrics": {"type": "array", "items": {"type": "string"}, "enum": ["trust", "value"]},
        "n": {"type": "integer"}
    }, "required": ["metrics"]});
    rejected_everywhere(&input, "/properties/metrics", "no value satisfies");
    let c = json!({"type": "object", "properties": {
        "m": {"type": "array", "prefixItems": [{"type": "string"}], "const": 3}
    }});
    let e = to_dialect(&c, Dialect::Llguidance).unwrap_err();
    assert_eq!(e.pointer, "/properties/m", "{e}");
    let other = json!({"type": "object", "properties": {
        "k": {"type": ["array", "string"], "items": {"type": "string"}, "enum": ["a", "b"]}
    }});
    // (the model reads an enum beside `items` as the enum alone and cannot write the
    // `items` back: an error naming the place, not a schema that lost `items`)
    let e = to_dialect(&other, Dialect::Gemini).unwrap_err();
    assert_eq!(e.pointer, "/properties/k", "{e}");
    assert!(e.to_string().contains("cannot write"), "{e}");
}

/// A tuple position two `allOf` parts give schemas no value fits both of (`string` from
/// one part's list, `boolean` from the other's rest: the suite's "additionalItems does not
/// look in applicators"): an error naming the position in every dialect (the walk over the
/// input wrote the position as `string` alone, accepting `[1, "hello"]`, which the input
/// rejects).
#[test]
fn a_position_two_parts_give_conflicting_schemas_is_an_error() {
    let input = json!({
        "allOf": [{"items": [{"type": "integer"}, {"type": "string"}]}],
        "items": [{"type": "integer"}],
        "additionalItems": {"type": "boolean"}
    });
    rejected_everywhere(&input, "/allOf/0/items/1", "do not merge");
}

/// Asserts that every dialect but `JsonSchema` rejects `input` at `at` with an error
/// saying `what`.
fn rejected_everywhere(input: &serde_json::Value, at: &str, what: &str) {
    for d in (Dialect::EVERY.into_iter()).filter(|d| *d != Dialect::JsonSchema) {
        let e = to_dialect(input, d).unwrap_err();
        assert_eq!(e.pointer, at, "{d}: {e}");
        assert!(e.to_string().contains(what), "{e}");
    }
}

/// Errors too: at the `oneOf` branch, at the `false` part of an `allOf` (of a required
/// property: one not required must be absent, and is left out), an unresolvable reference at
/// its schema.
#[test]
fn errors_are_named_at_input_places() {
    let branch = json!({"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {}]}}, "required": ["v"]});
    let e = to_dialect(&branch, Dialect::OpenAi).unwrap_err();
    assert_eq!(e.pointer, "/properties/v/oneOf/1", "{e}");
    let never =
        json!({"type": "object", "properties": {"n": {"allOf": [true, false]}}, "required": ["n"]});
    let e = to_dialect(&never, Dialect::OpenAi).unwrap_err();
    assert_eq!(e.pointer, "/properties/n/allOf/1", "{e}");
    let dangling = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/No"}}});
    let e = to_dialect(&dangling, Dialect::Gemini).unwrap_err();
    assert_eq!(e.pointer, "/properties/a", "{e}");
}

/// A type array beside a `$ref` that the merge leaves one type of is no split: the walk
/// over the input merges the `allOf` it builds and reports no union (before, the model
/// path reported "type array / `nullable` rewritten as `anyOf`" for an output without a
/// union); a type array of one type alone is still reported, as the walk reports it.
#[test]
fn a_type_array_a_merge_narrows_is_no_split() {
    let split = "type array / `nullable` rewritten as `anyOf`";
    let merged = json!({"type": "object", "properties": {
        "a": {"type": ["object", "null"], "$ref": "#/definitions/Leaf"}
    }, "required": ["a"], "definitions": {
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    }});
    for d in [Dialect::OpenAi, Dialect::Gemini, Dialect::Llguidance] {
        let l = lines(&merged, d);
        assert!(!l.iter().any(|l| l.ends_with(split)), "{d}: {l:?}");
        let want =
            crate::convert::dialect::walk_input(&merged, d, &Default::default(), true).unwrap();
        let want: Vec<String> = want.changes.iter().map(|c| c.to_string()).collect();
        assert!(!want.iter().any(|l| l.ends_with(split)), "{d}: {want:?}");
    }
    let single = json!({"type": ["string"]});
    let l = lines(&single, Dialect::Llguidance);
    assert!(l.iter().any(|l| l.ends_with(split)), "{l:?}");
}

/// Keywords beside a `$ref` to a union (or beside an `allOf` with such a part), which the
/// normalizer merges into the union's branches, are reported copied into its branches
/// where the walk over the input reports it (before: no line); `nullable` alone is the
/// flag's rewrite, no copy.
#[test]
fn keywords_merged_into_a_union_target_are_reported_copied() {
    let copied = "keywords beside `anyOf` copied into its branches";
    let uni = json!({"anyOf": [{"type": "string"}, {"type": "integer"}]});
    let prop = |a: serde_json::Value| {
        json!({"type": "object", "properties": {"a": a}, "required": ["a"],
               "definitions": {"Uni": uni}})
    };
    let r = "#/definitions/Uni";
    for (input, want) in [
        (prop(json!({"type": "string", "$ref": r})), true),
        (
            prop(json!({"type": "string", "allOf": [{"$ref": r}]})),
            true,
        ),
        (
            json!({"maxLength": 3, "$ref": r, "definitions": {"Uni": uni}}),
            true,
        ),
        (prop(json!({"nullable": true, "$ref": r})), false),
        (
            json!({"nullable": true, "$ref": r, "definitions": {"Uni": uni}}),
            false,
        ),
    ] {
        for d in [Dialect::OpenAi, Dialect::Llguidance] {
            let o = Default::default();
            let Ok(old) = crate::convert::dialect::walk_input(&input, d, &o, true) else {
                // (a root union: not an object root in this dialect, rejected by both)
                assert!(to_dialect(&input, d).is_err(), "{input} {d}");
                continue;
            };
            let old: Vec<String> = old.changes.iter().map(|c| c.to_string()).collect();
            let new = lines(&input, d);
            let has = |l: &[String]| l.iter().any(|l| l.ends_with(copied));
            assert_eq!(has(&old), want, "{input} {d}: {old:?}");
            assert_eq!(has(&new), want, "{input} {d}: {new:?}");
        }
    }
}

/// Object keywords beside a `$ref` to a string have no effect, and the model leaves them
/// out; the report still names each dropped, with the merge the walk over the input
/// reports, in its order (before, the conversion through the model dropped them without a
/// word).
#[test]
fn keywords_the_model_left_out_are_reported_dropped() {
    let defs = json!({"Str": {"type": "string", "minLength": 1}});
    for a in [
        json!({"required": ["name"], "$ref": "#/definitions/Str"}),
        json!({"minProperties": 1, "properties": {"x": {}}, "$ref": "#/definitions/Str"}),
        json!({"oneOf": [{"additionalProperties": false, "$ref": "#/definitions/Str"}, {"type": "boolean"}]}),
        json!({"type": "array", "items": {"required": ["x"], "$ref": "#/definitions/Str"}}),
    ] {
        let input = json!({"type": "object", "properties": {"a": a}, "required": ["a"],
                           "definitions": defs});
        for d in [Dialect::OpenAi, Dialect::Gemini, Dialect::Llguidance] {
            let o = Default::default();
            let old = crate::convert::dialect::walk_input(&input, d, &o, true).unwrap();
            let old: Vec<String> = old.changes.iter().map(|c| c.to_string()).collect();
            let new = lines(&input, d);
            assert!(
                new.iter().any(|l| l.ends_with("dropped")),
                "{input} {d}: {new:?}"
            );
            // (the same lines, the old walk's `anyOf` read as the input's `oneOf`)
            let old: Vec<String> = old
                .iter()
                .map(|l| l.replace("anyOf/0", "oneOf/0"))
                .collect();
            assert_eq!(new, old, "{input} {d}");
        }
    }
}

/// An `allOf` of a reference to a recursive definition and parts that add nothing to it (a
/// `type` the definition has, a reference to a definition of only that type, annotations) is
/// the reference, in every dialect that takes recursion (the class JSONSchemaBench refused as
/// "`allOf` over the recursive type"; the distributed form `{"type": "object", "anyOf":
/// [{"$ref": ..}]}` included). A part that adds a constraint is merged with the definition
/// unfolded once (`lower/settle.rs`).
#[test]
fn an_all_of_adding_nothing_to_a_recursive_reference_is_the_reference() {
    let input = json!({
        "type": "object",
        "definitions": {
            "ChildFoo": {"type": "object"},
            "Foo": {"type": "object", "properties": {
                "kids": {"allOf": [{"$ref": "#/definitions/Foo"}, {"$ref": "#/definitions/ChildFoo"}]},
                "more": {"type": "object", "title": "More", "anyOf": [{"$ref": "#/definitions/Foo"}]}
            }}
        },
        "properties": {"foo": {"$ref": "#/definitions/Foo"}}
    });
    for d in [
        Dialect::Llguidance,
        Dialect::Gemini,
        Dialect::LlamaCpp,
        Dialect::Xgrammar,
    ] {
        let out = to_dialect(&input, d).unwrap_or_else(|e| panic!("{d:?}: {e}"));
        let foo = &out["$defs"]["Foo"]["properties"];
        assert_eq!(foo["kids"]["$ref"], "#/$defs/Foo", "{d:?}: {out}");
        assert_eq!(foo["more"]["$ref"], "#/$defs/Foo", "{d:?}: {out}");
    }
    let adds = json!({
        "type": "object",
        "definitions": {"Foo": {"type": "object", "properties": {
            "kids": {"allOf": [{"$ref": "#/definitions/Foo"}, {"required": ["kids"]}]}
        }}},
        "properties": {"foo": {"$ref": "#/definitions/Foo"}}
    });
    // (a part that adds a constraint: the definition unfolded once and merged with it, the
    // `allOf` met again inside it a reference to the merged definition)
    let out = to_dialect(&adds, Dialect::Llguidance).unwrap();
    let kids = &out["properties"]["foo"]["properties"]["kids"]["$ref"];
    let name = kids
        .as_str()
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .unwrap();
    let merged = &out["$defs"][name];
    assert_eq!(merged["required"], json!(["kids"]), "{out}");
    assert_eq!(&merged["properties"]["kids"]["$ref"], kids, "{out}");
}

/// OpenAI strict keeps only the patterns and bounds a grammar engine compiles: a lookaround,
/// a backreference and a bound beyond 2^62 move into the description (llguidance, the strict
/// dialects' oracle, refuses each: JSONSchemaBench's `Github_hard---o75605`,
/// `JsonSchemaStore---browser.i18n`, `Github_hard---o90912`).
#[test]
fn openai_tags_patterns_and_bounds_no_grammar_compiles() {
    let input = json!({
        "type": "object",
        "properties": {
            "tag": {"type": "string", "pattern": "^\\s*<([A-Za-z]+).+?(\\/>|\\/\\1>)\\s*$"},
            "key": {"type": "string", "pattern": "^(?!@@)[@a-zA-Z0-9_-]+$"},
            "n": {"type": "integer", "minimum": -9223372036854775808i64, "maximum": 9223372036854775807i64},
            "ok": {"type": "string", "pattern": "^[a-z]+$"}
        },
        "required": ["tag", "key", "n", "ok"]
    });
    let out = to_dialect(&input, Dialect::OpenAi).unwrap();
    let p = &out["properties"];
    for k in ["tag", "key"] {
        assert!(p[k].get("pattern").is_none(), "{k}: {out}");
        assert!(
            p[k]["description"].as_str().unwrap().contains("@pattern"),
            "{k}: {out}"
        );
    }
    assert!(
        p["n"].get("minimum").is_none() && p["n"].get("maximum").is_none(),
        "{out}"
    );
    assert_eq!(p["ok"]["pattern"], "^[a-z]+$");
}

/// `items` beside a `type` no array fits (`"type": "object"`, `"type": "string"`) applies to no
/// value: it is left out, reported dropped once at its place, in every dialect (the class
/// JSONSchemaBench refused as "a structural keyword beside a shape of another kind", 28
/// schemas: `Github_easy---o61120`'s `dependencies`, say).
#[test]
fn items_beside_a_type_no_array_fits_is_dropped_and_reported() {
    let input = json!({
        "type": "object",
        "properties": {
            "deps": {"type": "object", "description": "d", "items": {"type": "string"},
                     "properties": {"k": {"type": "string"}}, "required": ["k"],
                     "additionalProperties": false},
            "name": {"type": "string", "items": {"type": "string", "enum": ["a"]}},
            "list": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["deps", "name", "list"]
    });
    for d in Dialect::EVERY
        .into_iter()
        .filter(|d| *d != Dialect::JsonSchema)
    {
        let out = to_dialect_with(&input, d, &DialectOptions::default())
            .unwrap_or_else(|e| panic!("{d:?}: {e}"));
        let p = &out.schema["properties"];
        assert!(p["deps"].get("items").is_none(), "{d:?}: {}", out.schema);
        assert_eq!(p["name"]["type"], "string", "{d:?}: {}", out.schema);
        assert!(p["name"].get("items").is_none(), "{d:?}: {}", out.schema);
        assert_eq!(
            p["list"]["items"]["type"], "string",
            "{d:?}: {}",
            out.schema
        );
        let got = lines(&input, d);
        for at in ["/properties/deps", "/properties/name"] {
            let want = format!("{at}: `items` dropped");
            assert_eq!(
                got.iter().filter(|l| **l == want).count(),
                1,
                "{d:?}: {got:#?}"
            );
        }
    }
}

/// A property whose schema is `false` and that is not required must be absent: every dialect
/// leaves it out of `properties` and reports it once (JSONSchemaBench's `"properties":
/// {"additionalProperties": false, ..}`, 13 schemas refused before); required, no object
/// fits, and the conversion is refused naming it.
#[test]
fn a_false_property_is_left_out_and_reported() {
    let input = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "additionalProperties": false},
        "required": ["a"]
    });
    for d in Dialect::EVERY
        .into_iter()
        .filter(|d| *d != Dialect::JsonSchema)
    {
        let out = to_dialect_with(&input, d, &DialectOptions::default())
            .unwrap_or_else(|e| panic!("{d:?}: {e}"));
        let p = out.schema["properties"].as_object().unwrap();
        assert!(
            !p.contains_key("additionalProperties"),
            "{d:?}: {}",
            out.schema
        );
        assert_eq!(p["a"]["type"], "string", "{d:?}: {}", out.schema);
        let want =
            "/properties/additionalProperties: property that must be absent (`false`) left out";
        let got = lines(&input, d);
        assert_eq!(
            got.iter().filter(|l| *l == want).count(),
            1,
            "{d:?}: {got:#?}"
        );
    }
    // (no value fits an `allOf` with a `false` part either)
    let never = json!({"type": "object", "properties": {"n": {"allOf": [true, false]}}});
    let got = lines(&never, Dialect::Llguidance);
    let want = "/properties/n: property that must be absent (`false`) left out";
    assert_eq!(got.iter().filter(|l| *l == want).count(), 1, "{got:#?}");
    let required = json!({
        "type": "object",
        "properties": {"a": false},
        "required": ["a"]
    });
    assert!(to_dialect(&required, Dialect::Llguidance).is_err());
}
