//! The lowered model against the input, and the conversion through the model
//! ([`to_dialect_with`]) against the walk over the input ([`walk_input`], the path before the
//! model): the same schema, the same inputs accepted. The walk over the input given the lowered document
//! ([`lower`]) writes byte for byte the schema it writes for the input, for every input the
//! normalizer and the converter accept, in every dialect that converts (`JsonSchema` returns
//! its input as it is) and with every option set; and it rejects the lowered document wherever
//! it rejects the input (the error may name another place: an inlined target's error at its
//! use, not at the target). It also counts the walk's own merges left on the lowered document
//! (held to named inputs), and compares the change reports, the lowered document's pointers
//! mapped to the input through the side table (what differs is classified and, for the
//! fixtures and the corpus, held to the rewrites the lowering did and changes reported at
//! another place).

use super::lower::{lower, Unlowerable};
use super::normalize;
use crate::convert::dialect::walk_input;
use crate::convert::{to_dialect_with, DialectOptions};
use crate::Dialect;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

/// The schemas of a fixture or corpus file: its `schema` (a fixture), each item's `schema`,
/// each MCP tool's `inputSchema`, or the file itself (a corpus schema).
fn schemas_of(name: &str, v: Value, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(m) => match (m.get("schema"), m.get("tools")) {
            (Some(s), _) => out.push((name.to_string(), s.clone())),
            (None, Some(Value::Array(tools))) => {
                for (i, tool) in tools.iter().enumerate() {
                    if let Some(s) = tool.get("inputSchema") {
                        out.push((format!("{name}#{i}"), s.clone()));
                    }
                }
            }
            _ => out.push((name.to_string(), Value::Object(m))),
        },
        Value::Array(items) => {
            for (i, item) in items.into_iter().enumerate() {
                if let Some(s) = item.get("schema") {
                    out.push((format!("{name}#{i}"), s.clone()));
                }
            }
        }
        _ => {}
    }
}

fn options() -> [DialectOptions; 4] {
    [
        DialectOptions::new(),
        DialectOptions::new().keep_defs(true),
        DialectOptions::new().close_maps(true),
        DialectOptions::new()
            .keep_defs(true)
            .close_maps(true)
            .map_entries(true)
            .tuple_objects(true),
    ]
}

/// What comparing one input found.
#[derive(Default, Debug)]
struct Tally {
    inputs: usize,
    /// The normalizer rejected the input.
    rejected: usize,
    /// The model could not be written back.
    unlowerable: Vec<(String, Unlowerable)>,
    /// Conversions compared (input accepted by the converter).
    compared: usize,
    /// Conversions whose output differs: the input's name, the dialect, both outputs.
    differ: Vec<(String, Dialect, String, String)>,
    /// Conversions that fail for the input and for the lowered document with the same error.
    same_error: usize,
    /// ... with another error (pointers are the lowered document's).
    other_error: usize,
    /// Conversions through the model ([`to_dialect_with`]) that write another schema than the
    /// walk over the input, or accept what it rejects, or reject what it accepts.
    model_differ: Vec<(String, Dialect)>,
    /// Conversions that fail for the input only.
    accepted: Vec<(String, Dialect, String)>,
    /// Inputs whose lowered document still had a type array for the walk to split, a `oneOf`
    /// union for it to read as `anyOf` or an enum with `null` for it to make nullable.
    split: Vec<String>,
    /// Inputs whose lowered document still had the walk merge an `allOf` (`merge.rs`).
    merged: Vec<String>,
    /// Inputs whose lowered document still had the walk merge keywords beside a union into
    /// its branches.
    distributed: Vec<String>,
    /// Rejected conversions whose walk over the lowered document ran one of its own merges or
    /// rewrites ([`rewrites`]: the indices of those that ran).
    rejected_rewrites: Vec<(String, Vec<usize>)>,
    /// Conversions whose change reports for the lowered document, their pointers mapped to
    /// the input through the side table ([`input_pointer`]), equal the reports for the input
    /// (as multisets of lines).
    reports_equal: usize,
    /// ... that differ.
    reports_differ: usize,
    /// The differing report lines by change kind: missing for the lowered document (reported
    /// for the input only) and extra (for the lowered document only).
    report_lines: std::collections::BTreeMap<(&'static str, String), usize>,
}

/// The input pointer of a pointer `p` into the lowered document: the side table's entry for
/// the longest prefix of `p` that is a lowered schema, the rest of `p` kept.
fn input_pointer(origins: &std::collections::HashMap<&str, &str>, p: &str) -> String {
    let mut cut = p.len();
    loop {
        if let Some(at) = origins.get(&p[..cut]) {
            return format!("{at}{}", &p[cut..]);
        }
        match p[..cut].rfind('/') {
            Some(i) => cut = i,
            None => return p.to_string(),
        }
    }
}

/// A change kind's name, for the classification.
fn kind_name(c: &crate::convert::Change) -> String {
    let k = format!("{:?}", c.kind);
    k.split([' ', '{']).next().unwrap_or_default().to_string()
}

/// How often this thread's walk merged an `allOf`, distributed keywords into a union's
/// branches, split a type array, read a `oneOf` union as `anyOf` and made an enum with `null`
/// nullable.
fn rewrites() -> [u64; 5] {
    use crate::convert::dialect::{
        ALL_OF_MERGES, NULLS_IN_ENUMS, ONE_OF_UNIONS, TYPE_ARRAYS_SPLIT, UNION_DISTRIBUTIONS,
    };
    [
        ALL_OF_MERGES.with(|c| c.get()),
        UNION_DISTRIBUTIONS.with(|c| c.get()),
        TYPE_ARRAYS_SPLIT.with(|c| c.get()),
        ONE_OF_UNIONS.with(|c| c.get()),
        NULLS_IN_ENUMS.with(|c| c.get()),
    ]
}

fn compare(name: &str, input: &Value, t: &mut Tally) {
    t.inputs += 1;
    let Ok(doc) = normalize(input) else {
        t.rejected += 1;
        return;
    };
    let (lowered, origins) = match lower(&doc, input) {
        Ok(l) => {
            // the side table names places of the input, and of the lowered document
            for (out, at) in &l.origins {
                assert!(
                    crate::convert::pointer::resolve(input, &format!("#{at}")).is_some(),
                    "{name}: {at} is not in the input"
                );
                assert!(
                    l.json.pointer(out).is_some(),
                    "{name}: {out} is not lowered"
                );
            }
            (l.json, l.origins)
        }
        Err(u) => {
            t.unlowerable.push((name.to_string(), u));
            return;
        }
    };
    let origins: std::collections::HashMap<&str, &str> =
        origins.iter().map(|(o, at)| (o.as_str(), *at)).collect();
    for d in Dialect::EVERY {
        if d == Dialect::JsonSchema {
            continue;
        }
        for o in options() {
            // (the conversion through the model writes what the walk over the input writes,
            // and rejects what it rejects)
            let model = to_dialect_with(input, d, &o);
            let want = walk_input(input, d, &o, true);
            match (&model, &want) {
                (Ok(m), Ok(w)) if m.schema == w.schema => {}
                (Err(_), Err(_)) => {}
                _ => t.model_differ.push((name.to_string(), d)),
            }
            let want = match want {
                Ok(want) => want,
                Err(e) => {
                    // a rejected input stays rejected (the error may name another place)
                    let before = rewrites();
                    let walked = walk_input(&lowered, d, &o, true);
                    let after = rewrites();
                    if after != before {
                        let which: Vec<usize> =
                            (0..5).filter(|i| after[*i] != before[*i]).collect();
                        t.rejected_rewrites.push((name.to_string(), which));
                    }
                    match walked {
                        Ok(_) => t.accepted.push((name.to_string(), d, e.to_string())),
                        Err(e2) if e2 == e => t.same_error += 1,
                        Err(_) => t.other_error += 1,
                    }
                    continue;
                }
            };
            t.compared += 1;
            let split = || {
                use crate::convert::dialect::{NULLS_IN_ENUMS, ONE_OF_UNIONS, TYPE_ARRAYS_SPLIT};
                TYPE_ARRAYS_SPLIT.with(|c| c.get())
                    + ONE_OF_UNIONS.with(|c| c.get())
                    + NULLS_IN_ENUMS.with(|c| c.get())
            };
            let merges = || {
                use crate::convert::dialect::{ALL_OF_MERGES, UNION_DISTRIBUTIONS};
                (
                    ALL_OF_MERGES.with(|c| c.get()),
                    UNION_DISTRIBUTIONS.with(|c| c.get()),
                )
            };
            let before = split();
            let (merged, distributed) = merges();
            let got = match walk_input(&lowered, d, &o, true) {
                Ok(c) => {
                    // the change reports, the lowered document's mapped to the input
                    let line = |c: &crate::convert::Change| (kind_name(c), c.to_string());
                    let mut theirs: Vec<(String, String)> = want.changes.iter().map(line).collect();
                    let mut ours: Vec<(String, String)> = c
                        .changes
                        .iter()
                        .map(|x| {
                            let mut x = x.clone();
                            x.pointer = input_pointer(&origins, &x.pointer);
                            line(&x)
                        })
                        .collect();
                    theirs.sort();
                    ours.sort();
                    if theirs == ours {
                        t.reports_equal += 1;
                    } else {
                        t.reports_differ += 1;
                        for (side, a, b) in [("missing", &theirs, &ours), ("extra", &ours, &theirs)]
                        {
                            let mut rest = b.clone();
                            for x in a {
                                match rest.iter().position(|y| y == x) {
                                    Some(i) => {
                                        rest.swap_remove(i);
                                    }
                                    None => {
                                        *t.report_lines.entry((side, x.0.clone())).or_default() += 1
                                    }
                                }
                            }
                        }
                    }
                    c.schema.to_string()
                }
                Err(e) => format!("ERR {e}"),
            };
            if split() != before {
                t.split.push(name.to_string());
            }
            let (merged2, distributed2) = merges();
            let last = |v: &Vec<String>| v.last().map(String::as_str) == Some(name);
            if merged2 != merged && !last(&t.merged) {
                t.merged.push(name.to_string());
            }
            if distributed2 != distributed && !last(&t.distributed) {
                t.distributed.push(name.to_string());
            }
            let want = want.schema.to_string();
            if got != want {
                t.differ.push((name.to_string(), d, want, got));
                return;
            }
        }
    }
}

fn report(what: &str, t: &Tally) {
    eprintln!(
        "{what}: {} inputs, {} rejected by the normalizer, {} not lowered, {} conversions compared, {} inputs differ; rejected conversions: {} with the same error, {} with another, {} accepted when lowered",
        t.inputs,
        t.rejected,
        t.unlowerable.len(),
        t.compared,
        t.differ.len(),
        t.same_error,
        t.other_error,
        t.accepted.len()
    );
    for (n, d, e) in t.accepted.iter().take(20) {
        eprintln!("  accepted when lowered: {n} {d}: {e}");
    }
    for (n, u) in t.unlowerable.iter().take(40) {
        eprintln!("  not lowered: {n} at {:?}: {}", u.at, u.why);
    }
    for (n, d, want, got) in t.differ.iter().take(40) {
        eprintln!("  differs: {n} {d}\n    input:   {want}\n    lowered: {got}");
    }
    eprintln!(
        "  change reports (lowered mapped to the input): {} conversions equal, {} differ",
        t.reports_equal, t.reports_differ
    );
    for ((side, kind), n) in &t.report_lines {
        eprintln!("    {side} for the lowered document: {n} {kind}");
    }
    for n in &t.merged {
        eprintln!("  the walk merges an allOf of the lowered document: {n}");
    }
    for n in &t.distributed {
        eprintln!("  the walk distributes keywords into union branches: {n}");
    }
}

#[test]
fn the_lowered_model_converts_as_its_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut inputs = Vec::new();
    let mut paths = Vec::new();
    files(&root.join("tests/fixtures"), &mut paths);
    match std::env::var("MCP_CORPUS") {
        Ok(dir) => files(Path::new(&dir), &mut paths),
        Err(_) => eprintln!("MCP_CORPUS not set: the MCP corpus is not compared"),
    }
    paths.sort();
    for p in paths {
        let Ok(v) = serde_json::from_str::<Value>(&std::fs::read_to_string(&p).unwrap()) else {
            continue;
        };
        schemas_of(&p.display().to_string(), v, &mut inputs);
    }
    let mut t = Tally::default();
    for (name, v) in &inputs {
        compare(name, v, &mut t);
    }
    report("fixtures and corpus", &t);
    let mut suite = Tally::default();
    match std::env::var("JSON_SCHEMA_TEST_SUITE") {
        Ok(dir) => {
            let mut paths = Vec::new();
            files(&Path::new(&dir).join("tests"), &mut paths);
            assert!(!paths.is_empty(), "JSON_SCHEMA_TEST_SUITE={dir}: no tests");
            paths.sort();
            for p in paths {
                let Ok(Value::Array(groups)) =
                    serde_json::from_str::<Value>(&std::fs::read_to_string(&p).unwrap())
                else {
                    continue;
                };
                for (i, g) in groups.iter().enumerate() {
                    compare(&format!("{}#{i}", p.display()), &g["schema"], &mut suite);
                }
            }
            report("JSON Schema Test Suite", &suite);
        }
        Err(_) => eprintln!("JSON_SCHEMA_TEST_SUITE not set: the suite is not compared"),
    }
    assert!(t.differ.is_empty() && suite.differ.is_empty());
    assert!(
        t.model_differ.is_empty() && suite.model_differ.is_empty(),
        "{:?} {:?}",
        t.model_differ,
        suite.model_differ
    );
    assert!(t.accepted.is_empty() && suite.accepted.is_empty());
    // (the lowering splits every type array the walk would, writes every `oneOf` union it
    // would read as `anyOf` as one, and an enum's `null` as the flag: those rewrites of the
    // walk never run)
    assert!(
        t.split.is_empty() && suite.split.is_empty(),
        "{:?} {:?}",
        t.split,
        suite.split
    );
    // (the walk's own merges on lowered input: never, for the fixtures, the corpus and the
    // suite: the lowering merges what the walk would)
    assert!(
        t.merged.is_empty()
            && t.distributed.is_empty()
            && suite.merged.is_empty()
            && suite.distributed.is_empty(),
        "{:?} {:?} {:?} {:?}",
        t.merged,
        t.distributed,
        suite.merged,
        suite.distributed
    );
    // (rejected conversions too: the walk over a lowered document never distributes keywords
    // into a union's branches, splits a type array, reads a `oneOf` union as `anyOf` or makes
    // an enum with `null` nullable; it merges an `allOf` only where the lowering left one it
    // could not merge, `allOf: [false, false]` in 3 suite inputs, and fails there at once)
    assert!(t.rejected_rewrites.is_empty(), "{:?}", t.rejected_rewrites);
    assert!(
        suite
            .rejected_rewrites
            .iter()
            .all(|(n, which)| which == &[0]
                && [
                    "draft2019-09/allOf.json#5",
                    "draft2020-12/allOf.json#5",
                    "draft7/allOf.json#5"
                ]
                .iter()
                .any(|l| n.ends_with(l))),
        "{:?}",
        suite.rejected_rewrites
    );
    // (the change reports, fixtures and corpus: a line reported for the input only is a
    // rewrite the lowering did itself, or one the lowered document reports at another place;
    // a line for the lowered document only is one of those)
    let done_by_lowering = [
        "OneOfToAnyOf",
        "DistributedIntoBranches",
        "TypeArraySplit",
        "AllOfMerged",
        "RefInlined",
    ];
    for ((side, kind), n) in &t.report_lines {
        let other = if *side == "missing" {
            "extra"
        } else {
            "missing"
        };
        let there = t.report_lines.get(&(other, kind.clone())).copied();
        assert!(
            there == Some(*n)
                || (*side == "missing"
                    && done_by_lowering.contains(&kind.as_str())
                    && there.is_none()),
            "{side} {n} {kind} for the lowered document"
        );
    }
    assert!(t.compared > 1000, "{t:?}");
    // (the corpus: one BFCL tool's `enum` of strings beside `type: array` and `items`, which
    // no value satisfies: not lowered, the conversion's error)
    assert!(
        t.unlowerable
            .iter()
            .all(|(_, u)| u.why == super::lower::NO_VALUE && u.at == "/properties/metrics")
            && t.unlowerable.len() <= 1,
        "{:?}",
        t.unlowerable
    );
    // (the suite: a tuple position two parts give a string and a boolean schema, in 3: not
    // lowered, the conversion's error)
    assert!(
        suite.unlowerable.len() <= 3
            && suite
                .unlowerable
                .iter()
                .all(|(_, u)| u.why == super::lower::UNMERGED),
        "{:?}",
        suite.unlowerable
    );
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
    let lowered = lower(&normalize(&input).unwrap(), &input).unwrap().json;
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
    let out = crate::convert::to_dialect(&input, Dialect::Xgrammar).unwrap();
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
    let lowered = lower(&normalize(&input).unwrap(), &input).unwrap().json;
    assert_eq!(lowered["unevaluatedItems"], json!(true), "{lowered}");
    let out = crate::convert::to_dialect(&input, Dialect::Llguidance).unwrap();
    assert_eq!(out["description"], json!("@unevaluatedItems true"), "{out}");
    assert_eq!(
        crate::convert::to_dialect(&lowered, Dialect::Llguidance).unwrap(),
        out
    );
}

/// A `$ref` inside a keyword the model does not read (`else` here) is written as the input
/// has it, and so is its target (and the target's own references), where the reference
/// points: the walk over the lowered document writes what the walk over the input writes, in
/// every dialect, and a reference that resolves to nothing is the same error at the same place.
#[test]
fn a_ref_inside_an_unread_keyword_keeps_its_target() {
    let input = json!({
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "definitions": {
            "a": {"type": "object", "properties": {"b": {"$ref": "#/definitions/b"}}},
            "b": {"const": 1}
        },
        "if": {"required": ["n"]},
        "then": true,
        "else": {"$ref": "#/definitions/a"}
    });
    let lowered = lower(&normalize(&input).unwrap(), &input).unwrap().json;
    assert_eq!(lowered["definitions"], input["definitions"]);
    for d in Dialect::EVERY {
        for o in options() {
            let model = to_dialect_with(&input, d, &o).map(|c| c.schema);
            let walk = walk_input(&input, d, &o, false).map(|c| c.schema);
            assert_eq!(model, walk, "{d}");
        }
    }
    let dangling = json!({"type": "object", "then": {"$ref": "elsewhere.json"}});
    assert!(lower(&normalize(&dangling).unwrap(), &dangling).is_ok());
    let e = to_dialect_with(&dangling, Dialect::OpenAi, &DialectOptions::new()).unwrap_err();
    let e2 = walk_input(&dangling, Dialect::OpenAi, &DialectOptions::new(), true).unwrap_err();
    assert_eq!(e, e2);
}

/// What the walk would merge in a lowered document is merged by the lowering: a property both
/// beside a union and in its branch, a `$ref` branch beside keywords (nested union inside),
/// an `allOf` with a union part. The lowered document has no `allOf` and no union beside
/// keywords left; the walk over it merges nothing and writes what the walk over the input
/// writes, in every dialect.
#[test]
fn the_lowering_merges_what_the_walk_would() {
    use crate::convert::dialect::{ALL_OF_MERGES, UNION_DISTRIBUTIONS};
    let inputs = [
        json!({"properties": {"foo": {"properties": {"bar": {"type": "string"}}}},
               "anyOf": [{"properties": {"foo": {"properties": {"faz": {"type": "string"}}}}}]}),
        json!({"$defs": {"o": {"minLength": 1, "anyOf": [{"type": "string"}, {"type": "object", "additionalProperties": false}]}},
               "maxLength": 9, "anyOf": [{"type": "integer"}, {"$ref": "#/$defs/o"}]}),
        json!({"$defs": {"one": {"properties": {"a": {"type": "string"}}}},
               "allOf": [{"$ref": "#/$defs/one"}, {"properties": {"b": {"type": "integer"}}},
                         {"oneOf": [{"required": ["a"]}, {"properties": {"y": {"type": "string"}}}]}]}),
    ];
    for input in &inputs {
        let lowered = lower(&normalize(input).unwrap(), input).unwrap().json;
        assert!(!lowered.to_string().contains("allOf"), "{lowered}");
        for d in Dialect::EVERY {
            for o in options() {
                let counts = || {
                    (
                        ALL_OF_MERGES.with(|c| c.get()),
                        UNION_DISTRIBUTIONS.with(|c| c.get()),
                    )
                };
                let before = counts();
                let model = to_dialect_with(input, d, &o).map(|c| c.schema);
                assert_eq!(counts(), before, "{d}: {input}");
                let walk = walk_input(input, d, &o, false).map(|c| c.schema);
                // (an error may name another place: the input's, where the walk over the
                // input named the place of its own merge)
                match (&model, &walk) {
                    (Ok(m), Ok(w)) => assert_eq!(m, w, "{d}: {input}"),
                    (Err(_), Err(_)) => {}
                    _ => panic!("{d}: {input}: {model:?} / {walk:?}"),
                }
            }
        }
    }
}
