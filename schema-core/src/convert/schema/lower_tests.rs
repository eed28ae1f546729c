//! The lowered model against the input: the dialect converter given the lowered document
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
    /// Inputs whose output for the lowered document differs from the output for the input only
    /// in the correction [`wrong_type_values_only`] checks (not in [`Tally::differ`]).
    corrected: Vec<String>,
    /// Conversions that fail for the input and for the lowered document with the same error.
    same_error: usize,
    /// ... with another error (pointers are the lowered document's).
    other_error: usize,
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

fn compare(name: &str, input: &Value, t: &mut Tally) {
    t.inputs += 1;
    let Ok(doc) = normalize(input) else {
        t.rejected += 1;
        return;
    };
    let (lowered, origins) = match lower(&doc) {
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
            let want = match to_dialect_with(input, d, &o) {
                Ok(want) => want,
                Err(e) => {
                    // a rejected input stays rejected (the error may name another place)
                    match to_dialect_with(&lowered, d, &o) {
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
            let got = match to_dialect_with(&lowered, d, &o) {
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
                if wrong_type_values_only(&want, &got) {
                    // (a listed correction: the other conversions are still compared)
                    if t.corrected.last().map(String::as_str) != Some(name) {
                        t.corrected.push(name.to_string());
                    }
                    continue;
                }
                t.differ.push((name.to_string(), d, want, got));
                return;
            }
        }
    }
}

/// Whether the dialect output `got` for a lowered document is the output `want` for its input
/// with the values of an `enum` that are not of the `type` beside it left out (wherever the two
/// differ). Both keywords apply to an instance (JSON Schema validation 6.1.1, 6.1.2), so such a
/// value is allowed by no instance: the model leaves it out (`normalize::of_own_type`), and
/// where the walk merges an `allOf` it does too, but its root pass (`dialect/root.rs`, a root
/// `$ref`'s own keywords over the target's) keeps it. The outputs mean the same; the lowered
/// one is what the walk writes below the root.
fn wrong_type_values_only(want: &str, got: &str) -> bool {
    fn drop_wrong(v: &mut Value) {
        match v {
            Value::Object(m) => {
                // (a union's branch of a type no value of its enum is of allows no instance:
                // left out)
                let alone = m.len() == 1;
                if let Some(Value::Array(branches)) = m.get_mut("anyOf") {
                    let fits = |b: &Value| {
                        let (Some(Value::String(t)), Some(Value::Array(values))) =
                            (b.get("type"), b.get("enum"))
                        else {
                            return true;
                        };
                        values.iter().any(|x| super::merge::has_type(x, t))
                    };
                    if branches.iter().any(fits) && !branches.iter().all(fits) {
                        branches.retain(fits);
                        // (a union of one branch left is that branch, as the dialects write it)
                        if let ([one], true) = (branches.as_slice(), alone) {
                            *v = one.clone();
                            return drop_wrong(v);
                        }
                    }
                }
                let names: Option<Vec<String>> = match m.get("type") {
                    Some(Value::String(t)) => Some(vec![t.clone()]),
                    Some(Value::Array(ts)) => {
                        ts.iter().map(|t| t.as_str().map(str::to_string)).collect()
                    }
                    _ => None,
                };
                if let (Some(names), Some(Value::Array(values))) = (names, m.get_mut("enum")) {
                    // (where no value is of the type the enum stays as written, as the model
                    // leaves it: `normalize::of_own_type`)
                    let fits = |x: &Value| names.iter().any(|t| super::merge::has_type(x, t));
                    if values.iter().any(fits) {
                        values.retain(fits);
                    }
                }
                m.values_mut().for_each(drop_wrong);
            }
            Value::Array(a) => a.iter_mut().for_each(drop_wrong),
            _ => {}
        }
    }
    let Ok(mut want) = serde_json::from_str::<Value>(want) else {
        return false;
    };
    drop_wrong(&mut want);
    // (as written: the keyword order too)
    let written = want.to_string();
    written == got
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
    for n in &t.corrected {
        eprintln!(
            "  corrected (enum values of another type than the type beside them left out): {n}"
        );
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
    assert!(t.corrected.is_empty() && suite.corrected.is_empty());
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
    // (the walk's own merges on lowered input: never for the fixtures and the corpus; for the
    // suite only in the inputs named here, each for its reason)
    assert!(
        t.merged.is_empty() && t.distributed.is_empty(),
        "{:?} {:?}",
        t.merged,
        t.distributed
    );
    if std::env::var("JSON_SCHEMA_TEST_SUITE").is_ok() {
        // a union beside keywords with a `$ref` branch: the walk makes an `allOf` of the
        // keywords and the branch and merges it (the lowering leaves such a union as written)
        let ref_branch = [
            "draft2019-09/recursiveRef.json#2",
            "draft2019-09/recursiveRef.json#3",
            "draft2019-09/unevaluatedProperties.json#34",
            "draft2019-09/unevaluatedProperties.json#35",
            "draft2020-12/unevaluatedProperties.json#34",
            "draft2020-12/unevaluatedProperties.json#35",
        ];
        // a property both beside a union and in its branch: the keywords merged into the
        // branch (as the walk merges them) hold an `allOf` of the property's two schemas
        let property_twice = [
            "draft2019-09/unevaluatedItems.json#21",
            "draft2019-09/unevaluatedProperties.json#30",
            "draft2020-12/unevaluatedItems.json#20",
            "draft2020-12/unevaluatedProperties.json#30",
        ];
        let named = |n: &String, list: &[&str]| list.iter().any(|l| n.ends_with(l));
        let unnamed: Vec<&String> = suite
            .merged
            .iter()
            .filter(|n| !named(n, &ref_branch) && !named(n, &property_twice))
            .chain(suite.distributed.iter().filter(|n| !named(n, &ref_branch)))
            .collect();
        assert!(unnamed.is_empty(), "{unnamed:?}");
        // (ratchets, may only fall: 23 not lowered before an `allOf` of `{}` / `true` parts
        // was written as `{}` and `additionalItems` without an `items` list left out; left:
        // a `$ref` inside a keyword the model does not read (6), a reference to a place the
        // lowering merged away (4, until a definition in a nested definitions table was
        // written there: 9), an `items` list merged with a shorter one, whose merged entry has
        // no keyword order (3))
        assert!(suite.unlowerable.len() <= 9, "{:?}", suite.unlowerable);
        assert!(suite.merged.len() <= 10, "{:?}", suite.merged);
        assert!(suite.distributed.len() <= 6, "{:?}", suite.distributed);
    }
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
    // (what the model does not hold, with the corpus: one BFCL tool's `enum` beside `items`,
    // which the model reads as the enum alone)
    assert!(t.unlowerable.len() <= 1, "{:?}", t.unlowerable);
}

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
        let lowered = lower(&normalize(&input).unwrap())
            .unwrap_or_else(|u| panic!("{input}: {u:?}"))
            .json;
        assert_eq!(lowered, want, "{input}");
        let v = json!({"type": "object", "properties": {"a": input}});
        let l = lower(&normalize(&v).unwrap()).unwrap().json;
        for d in Dialect::ALL
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            for o in options() {
                assert_eq!(
                    to_dialect_with(&v, d, &o).map(|c| c.schema),
                    to_dialect_with(&l, d, &o).map(|c| c.schema),
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
        let lowered = lower(&normalize(&input).unwrap())
            .unwrap_or_else(|u| panic!("{input}: {u:?}"))
            .json;
        for d in Dialect::ALL
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            for o in options() {
                assert_eq!(
                    to_dialect_with(&input, d, &o).map(|c| c.schema),
                    to_dialect_with(&lowered, d, &o).map(|c| c.schema),
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
    let lowered = lower(&normalize(&input).unwrap()).unwrap().json;
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
    let lowered = lower(&normalize(&input).unwrap()).unwrap().json;
    assert_eq!(lowered["unevaluatedItems"], json!(true), "{lowered}");
    let out = crate::convert::to_dialect(&input, Dialect::Llguidance).unwrap();
    assert_eq!(out["description"], json!("@unevaluatedItems true"), "{out}");
    assert_eq!(
        crate::convert::to_dialect(&lowered, Dialect::Llguidance).unwrap(),
        out
    );
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
        let lowered = lower(&normalize(&v).unwrap())
            .unwrap_or_else(|u| panic!("{a}: {u:?}"))
            .json;
        assert!(
            lowered["properties"]["a"].to_string().contains("$ref"),
            "{a}: {lowered}"
        );
        assert_converts_alike(&v, &lowered, &a);
    }
}

/// Asserts that Gemini, OpenAI and llguidance write the same output for `input` and for its
/// `lowered` document, or reject both (`what` names the case).
fn assert_converts_alike(input: &Value, lowered: &Value, what: &Value) {
    for d in [Dialect::Gemini, Dialect::OpenAi, Dialect::Llguidance] {
        let o = DialectOptions::new();
        let want = to_dialect_with(input, d, &o).map(|c| c.schema);
        let got = to_dialect_with(lowered, d, &o).map(|c| c.schema);
        match (want, got) {
            (Ok(w), Ok(g)) => assert_eq!(w, g, "{what} {d}"),
            (Err(_), Err(_)) => {}
            (w, g) => panic!("{what} {d}: {w:?} / {g:?}"),
        }
    }
}

/// Asserts that `d`'s output for `input` has `{"type": "null"}` as branch `branch` of property
/// `a`'s union, and that the lowered document converts to the same output.
fn assert_null_branch(input: &Value, d: Dialect, branch: usize) {
    let lowered = lower(&normalize(input).unwrap()).unwrap().json;
    let out = crate::convert::to_dialect(input, d).unwrap();
    assert_eq!(
        out["properties"]["a"]["anyOf"][branch],
        json!({"type": "null"}),
        "{out}"
    );
    assert_eq!(crate::convert::to_dialect(&lowered, d).unwrap(), out);
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
    let lowered = lower(&normalize(&input).unwrap()).unwrap().json;
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
    use crate::convert::dialect::{ALL_OF_MERGES, UNION_DISTRIBUTIONS};
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
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let got = crate::convert::to_typescript(&v, &Default::default()).unwrap();
        assert_eq!(got, format!("{{a: {ts}}}"), "{a}");
        let lowered = lower(&normalize(&v).unwrap())
            .unwrap_or_else(|u| panic!("{a}: {u:?}"))
            .json;
        // (null, a branch of the union in the model, written as the flag the walk applies
        // after the union, as for the input)
        assert_eq!(lowered["properties"]["a"], lowered_a, "{a}");
        let counts = || {
            (
                ALL_OF_MERGES.with(std::cell::Cell::get),
                UNION_DISTRIBUTIONS.with(std::cell::Cell::get),
            )
        };
        let before = counts();
        for d in Dialect::ALL {
            let _ = to_dialect_with(&lowered, d, &DialectOptions::new());
        }
        assert_eq!(counts(), before, "{a}: the walk merged");
        assert_converts_alike(&v, &lowered, &a);
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
    use crate::convert::dialect::{ALL_OF_MERGES, UNION_DISTRIBUTIONS};
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
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let got = crate::convert::to_typescript(&v, &Default::default()).unwrap();
        assert_eq!(got, format!("{{a: {ts}}}"), "{a}");
        let lowered = lower(&normalize(&v).unwrap())
            .unwrap_or_else(|u| panic!("{a}: {u:?}"))
            .json;
        assert_eq!(lowered["properties"]["a"], lowered_a, "{a}");
        let counts = || {
            (
                ALL_OF_MERGES.with(std::cell::Cell::get),
                UNION_DISTRIBUTIONS.with(std::cell::Cell::get),
            )
        };
        // (`JsonSchema` returns its input as it is)
        for d in Dialect::ALL
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            let want = to_dialect_with(&v, d, &DialectOptions::new()).unwrap();
            let before = counts();
            let got = to_dialect_with(&lowered, d, &DialectOptions::new()).unwrap();
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
        let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
        assert!(
            lowered["properties"]["a"].get("$ref").is_none(),
            "{lowered}"
        );
        // (as text: `==` on maps does not see the keys' order)
        for d in [Dialect::Gemini, Dialect::OpenAi, Dialect::Llguidance] {
            let out = |x: &Value| crate::convert::to_dialect(x, d).unwrap().to_string();
            assert_eq!(out(&lowered), out(&v), "{a} {d}");
        }
    }
}

/// A `const` beside a `$ref` to a union: the merged branches are constants, which the walk
/// reads as one `enum` when they are a union's only branches (for the input it meets the
/// union before the keywords go into it, and keeps the `const`): the intersection stays
/// (before, the lowered document converted to `enum: ["a"]` where the input's output has
/// `const: "a"`).
#[test]
fn a_const_beside_a_ref_to_a_union_stays_an_intersection() {
    let defs = json!({"Uni": {"anyOf": [{"type": "string"}, {"type": "integer"}]}});
    let a = json!({"type": "string", "const": "a", "$ref": "#/$defs/Uni"});
    let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "$defs": defs});
    let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
    assert_converts_alike(&v, &lowered, &a);
}

/// A `$ref` at the root to a union of objects, beside keywords: the dialects' root pass reads
/// the union (one object of tagged variants, or not, by what each variant requires) before
/// the keywords beside it go into its branches, so the model keeps the intersection there and
/// the lowering writes the `$ref` and its keywords as the input had them (before, with
/// `required: ["kind"]` beside, the lowered variants each required their tag, OpenAI and
/// Gemini merged them into one object and accepted the lowered document they reject for the
/// input, "the root schema must be an object").
#[test]
fn a_root_ref_to_a_union_of_objects_beside_keywords_stays_a_reference() {
    let input = json!({"required": ["kind"], "$ref": "#/$defs/U", "$defs": {"U": {"anyOf": [
        {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"const": "b"}, "n": {"type": "integer"}}},
    ]}}});
    let lowered = lower(&normalize(&input).unwrap()).unwrap().json;
    assert_eq!(lowered["$ref"], json!("#/$defs/U"), "{lowered}");
    assert_converts_alike(&input, &lowered, &input);
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
    let lowered = lower(&normalize(&input).unwrap()).unwrap().json;
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
        let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
        assert_eq!(lowered["properties"]["a"], a, "{lowered}");
        for d in [Dialect::Gemini, Dialect::OpenAi, Dialect::Llguidance] {
            let o = DialectOptions::new().keep_defs(true);
            let want = to_dialect_with(&v, d, &o).unwrap().schema;
            assert_eq!(
                want["properties"]["a"],
                json!({"$ref": "#/$defs/Uni"}),
                "{d}"
            );
            assert_eq!(
                to_dialect_with(&lowered, d, &o).unwrap().schema,
                want,
                "{a} {d}"
            );
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
        let lowered = lower(&normalize(&v).unwrap())
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

/// An `allOf` of one bare reference to a recursive definition (with keywords beside it or not)
/// is written back as the input had it: the dialect walk cannot merge it and rejects it for
/// the input; before, the lowering wrote the reference alone, which every dialect accepts.
#[test]
fn an_all_of_of_a_recursive_reference_is_kept() {
    let defs = json!({
        "Node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/Node"}}}
    });
    for a in [
        json!({"allOf": [{"$ref": "#/definitions/Node"}]}),
        json!({"allOf": [{"$ref": "#/definitions/Node"}], "description": "d"}),
    ] {
        let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"], "definitions": defs});
        let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
        assert_eq!(
            lowered["properties"]["a"]["allOf"],
            json!([{"$ref": "#/definitions/Node"}]),
            "{lowered}"
        );
        assert_converts_alike(&v, &lowered, &a);
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
    let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
    // (`JsonSchema` returns its input as it is)
    for d in Dialect::ALL
        .into_iter()
        .filter(|d| *d != Dialect::JsonSchema)
    {
        assert!(crate::convert::to_dialect(&v, d).is_err(), "{d}");
        assert!(
            crate::convert::to_dialect(&lowered, d).is_err(),
            "{d}: {lowered}"
        );
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
    let lowered = lower(&normalize(&input).unwrap()).unwrap().json;
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
        let lowered = lower(&normalize(&v).unwrap())
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
        let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
        let l = &lowered["properties"]["a"];
        assert!(
            l.get("$ref").is_none() && l.get("nullable").is_some(),
            "{a}: {l}"
        );
        assert_merged_alike(&v, &lowered, &a);
    }
}

/// Asserts that `lowered`'s property `a` has no `$ref` and no `allOf`, and that it converts as
/// `input` ([`assert_converts_alike`]) without an `allOf` merge by the walk (the input's
/// conversions merge one, once per dialect).
fn assert_merged_alike(input: &Value, lowered: &Value, what: &Value) {
    use crate::convert::dialect::ALL_OF_MERGES;
    let l = &lowered["properties"]["a"];
    assert!(
        l.get("$ref").is_none() && l.get("allOf").is_none(),
        "{what}: {l}"
    );
    let before = ALL_OF_MERGES.with(|c| c.get());
    assert_converts_alike(input, lowered, what);
    let merges = ALL_OF_MERGES.with(|c| c.get()) - before;
    assert_eq!(merges, 3, "{what}");
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
        let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
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
        let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
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
        let lowered = lower(&normalize(&v).unwrap()).unwrap().json;
        assert_eq!(lowered["properties"]["a"]["$ref"], json!(leaf), "{lowered}");
        for d in [Dialect::OpenAi, Dialect::Gemini, Dialect::Llguidance] {
            for o in options() {
                let want = to_dialect_with(&v, d, &o).map(|c| c.schema);
                let got = to_dialect_with(&lowered, d, &o).map(|c| c.schema);
                assert_eq!(want.ok(), got.ok(), "{a} {d} {o:?}");
            }
        }
    }
}

/// Inputs the fixtures, the MCP corpus and the suite do not have, in forms OpenAPI documents
/// and schema generators write: a `$ref` (to an object, a recursive object, a string and a
/// union definition) with keywords beside it, alone and in pairs, placed plain, in an
/// `allOf`, in a nullable `anyOf`, in a `oneOf`, as `items` and at the root (1,296 inputs).
fn ref_sibling_shapes() -> Vec<(String, Value)> {
    let defs = json!({
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        "Node": {"type": "object", "properties": {"name": {"type": "string"},
                 "kids": {"type": "array", "items": {"$ref": "#/definitions/Node"}}}, "required": ["name"]},
        "Str": {"type": "string", "minLength": 1},
        "Uni": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    });
    let single = [
        json!({}),
        json!({"type": "object"}),
        json!({"type": ["object", "null"]}),
        json!({"type": "string"}),
        json!({"nullable": true}),
        json!({"required": ["name"]}),
        json!({"description": "d"}),
        json!({"title": "t"}),
        json!({"default": null}),
        json!({"minProperties": 1}),
        json!({"properties": {"extra": {"type": "integer"}}}),
        json!({"additionalProperties": false}),
        json!({"maxLength": 3}),
        json!({"enum": ["a", {"name": "x"}]}),
    ];
    // (pairs of the non-empty ones with no keyword in common, the first 40 in order)
    let mut siblings: Vec<Value> = single.to_vec();
    let mut pairs = 0;
    'pairs: for (i, a) in single.iter().enumerate().skip(1) {
        for b in &single[i + 1..] {
            let (a, b) = (a.as_object().unwrap(), b.as_object().unwrap());
            if a.keys().any(|k| b.contains_key(k)) {
                continue;
            }
            let mut m = a.clone();
            m.extend(b.clone());
            siblings.push(Value::Object(m));
            pairs += 1;
            if pairs == 40 {
                break 'pairs;
            }
        }
    }
    let mut out = Vec::new();
    for def in ["Leaf", "Node", "Str", "Uni"] {
        let target = format!("#/definitions/{def}");
        for (si, s) in siblings.iter().enumerate() {
            let mut x = s.as_object().unwrap().clone();
            x.insert("$ref".into(), json!(target));
            let mut own = s.as_object().unwrap().clone();
            own.insert("allOf".into(), json!([{"$ref": target}]));
            let placed = [
                ("plain", Value::Object(x.clone())),
                ("allOf", Value::Object(own)),
                ("nullable_any", json!({"anyOf": [x, {"type": "null"}]})),
                ("oneOf", json!({"oneOf": [x, {"type": "boolean"}]})),
                ("items", json!({"type": "array", "items": x})),
            ];
            for (w, a) in placed {
                let v = json!({"type": "object", "properties": {"a": a}, "required": ["a"],
                               "definitions": defs});
                out.push((format!("{def}/{si}/{w}"), v));
            }
            let mut root = x.clone();
            root.insert("definitions".into(), defs.clone());
            out.push((format!("{def}/{si}/root"), Value::Object(root)));
        }
    }
    out
}

/// The lowering over [`ref_sibling_shapes`]: how many of them it cannot write back, and how
/// many it writes back so that a dialect's output changes. Issue 13's switch (the converter
/// reading the lowered model) must bring both to zero, or list each remaining one as a
/// correction; a round that built the switch without these inputs turned 4,161 of their
/// outputs into errors. Until then the counts may only fall.
#[test]
fn ref_sibling_shapes_convert_as_their_input() {
    let mut t = Tally::default();
    for (name, v) in ref_sibling_shapes() {
        compare(&name, &v, &mut t);
    }
    report("ref sibling shapes", &t);
    assert_eq!(t.inputs, 1296);
    // (at 0: `<=` would be `==`)
    assert_eq!(t.accepted.len(), KNOWN_ACCEPTED);
    assert_eq!(
        t.unlowerable.len(),
        KNOWN_UNLOWERABLE,
        "{:?}",
        t.unlowerable
    );
    assert_eq!(t.differ.len(), KNOWN_DIFFER);
    assert!(
        t.corrected.len() <= KNOWN_CORRECTED,
        "{}",
        t.corrected.len()
    );
    // (of the inputs with a `$ref` to Leaf, Node or Str none is left in these counts: what
    // they hold has a `$ref` to the union definition, Uni)
    let uni = |n: &String| n.starts_with("Uni/");
    assert!(
        t.unlowerable.iter().all(|(n, _)| uni(n)),
        "{:?}",
        t.unlowerable
    );
    assert!(t.merged.iter().all(uni), "{:?}", t.merged);
    assert!(t.distributed.iter().all(uni), "{:?}", t.distributed);
    assert_eq!(t.merged.len(), KNOWN_MERGED, "{:?}", t.merged);
    assert_eq!(
        t.distributed.len(),
        KNOWN_DISTRIBUTED,
        "{:?}",
        t.distributed
    );
}

/// [`ref_sibling_shapes_convert_as_their_input`]'s counts (they may only fall): dialect
/// conversions the converter rejects for the input but accepts for its lowered document (6,924
/// on the tree that added the test, when the lowering skipped the `$ref` of an intersection
/// the normalizer keeps as [`super::Kind::All`]).
const KNOWN_ACCEPTED: usize = 0;
/// ... inputs the model cannot write back (72 before object keywords beside a shape no object
/// fits were left out as vacuous; 18 left then, `type: "string"` and `required` /
/// `properties` / `additionalProperties` beside a `$ref` to a union definition, until the
/// model merged those into the union's branches and left them out of a string branch).
const KNOWN_UNLOWERABLE: usize = 0;
/// ... inputs for which some dialect's output of the lowered document differs from the
/// output of the input, other than [`KNOWN_CORRECTED`]'s correction (2 before the model left
/// out enum values of another type than the `type` beside them: the 2 were that correction).
const KNOWN_DIFFER: usize = 0;
/// ... inputs whose lowered document converts as the input except for enum values of another
/// type than the `type` beside them, which the output for the lowered document leaves out
/// ([`wrong_type_values_only`]): a root `{"enum": ["a", {...}], "$ref": <string definition>}`
/// (the `$ref`'s type beside the enum; 2), and a root `type` and `enum` beside a `$ref` (5),
/// where the walk's root pass keeps every value. No instance is of both, so the outputs mean
/// the same. (8 since the model merges an own enum made nullable with a `$ref`'s target: the
/// root `{"nullable": true, "enum": ["a", {...}], "$ref": <string>}` as well; before, the
/// lowering wrote that intersection as the input had it, for the walk to merge; 10 since an
/// enum beside a `$ref` to an object is written merged: the root `{"enum": ["a", {...}],
/// "$ref": <object>}`, with or without `nullable`; 22 since an enum without a `type` beside a
/// `$ref` to a union is merged into the union's branches, each keeping the values of its own
/// type and a branch with none left out: `{"enum": ["a", {...}], "$ref": <string|integer>}`
/// with or without `nullable`, in the 5 placements and at the root, where the walk copies
/// every value into every branch.)
const KNOWN_CORRECTED: usize = 22;
/// ... inputs whose lowered document the walk still merges an `allOf` of (a `$ref` with
/// structural siblings the model keeps as an intersection, written back as the input had it):
/// the switch deletes that merge, so each of these would become an error or change. (285
/// before the model merged a `$ref` to a union with its siblings into the union's branches;
/// 10 then, an `enum` without a `type` beside a `$ref` to the union definition, until the
/// model merged that enum into the branches too.)
const KNOWN_MERGED: usize = 0;
/// ... inputs whose lowered document the walk still distributes keywords into a union's
/// branches of (keywords beside a `$ref` to a union: 114 before the model merged them; 12
/// then, the 10 above and their 2 root forms).
const KNOWN_DISTRIBUTED: usize = 0;

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
        let out = crate::convert::to_dialect(&input, Dialect::OpenAi).unwrap();
        let union = out["properties"][p]["anyOf"].as_array().unwrap();
        assert_eq!(union.len(), branches, "{p}: {out}");
    }
    let lowered = lower(&normalize(&input).unwrap()).unwrap().json;
    for d in Dialect::EVERY {
        if d == Dialect::JsonSchema {
            continue;
        }
        for o in options() {
            let want = to_dialect_with(&input, d, &o).map(|c| c.schema);
            let got = to_dialect_with(&lowered, d, &o).map(|c| c.schema);
            assert_eq!(want.ok(), got.ok(), "{d}");
        }
    }
    let again = lower(&normalize(&lowered).unwrap()).unwrap().json;
    assert_eq!(again, lowered);
}
