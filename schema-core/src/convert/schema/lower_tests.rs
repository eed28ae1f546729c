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
use crate::convert::dialect::via_model as to_dialect_with;
use crate::convert::dialect::walk_input;
use crate::convert::{ConvertError, Converted, DialectOptions};
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

/// The walk over `x` as it is (the conversion before the switch to the model): what the tests
/// below hold the lowered document to.
fn walk(x: &Value, d: Dialect) -> Result<Value, ConvertError> {
    walk_input(x, d, &DialectOptions::new(), false).map(|c| c.schema)
}

/// [`walk`] with `options`, the changes recorded.
fn walk_with(x: &Value, d: Dialect, o: &DialectOptions) -> Result<Converted, ConvertError> {
    walk_input(x, d, o, true)
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
    /// Conversions through the model ([`to_dialect_with`]) that write another schema than the
    /// walk over the input ([`walk_input`]), or accept what it rejects, or reject what it
    /// accepts.
    model_differ: Vec<(String, Dialect)>,
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
    let (lowered, origins) = match lower(&doc, input, true) {
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
            let want = walk_with(input, d, &o);
            match (&model, &want) {
                (Ok(m), Ok(w)) if m.schema == w.schema => {}
                (Err(_), Err(_)) => {}
                _ => t.model_differ.push((name.to_string(), d)),
            }
            let want = match want {
                Ok(want) => want,
                Err(e) => {
                    // a rejected input stays rejected (the error may name another place)
                    match walk_with(&lowered, d, &o) {
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
            let got = match walk_with(&lowered, d, &o) {
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
    // (a correction: where the root must be an object, a root `$ref` beside `properties` without
    // a `type` is written with the object type the dialect needs, and reported; the walk over
    // the input reads the root at its definition's place and refuses it: suite ref.json's
    // `unevaluatedProperties` case)
    let root_typed = |a: &&(String, Dialect, String)| {
        !a.2.contains("the root schema must be an object")
            && !recursive_all_of(a)
            && !false_property_left_out(a)
    };
    assert!(t.accepted.iter().filter(root_typed).count() == 0);
    assert!(
        suite.accepted.iter().filter(root_typed).count() == 0,
        "{:?}",
        suite
            .accepted
            .iter()
            .filter(root_typed)
            .take(5)
            .collect::<Vec<_>>()
    );
    // (the switch: the conversion through the model writes what the walk over the input writes)
    // (the same inputs, root-typed above, differ there too)
    let typed_roots: Vec<(&String, &Dialect)> = (t.accepted.iter().chain(&suite.accepted))
        .filter(|a| !root_typed(a))
        .map(|(n, d, _)| (n, d))
        .collect();
    let other = |m: &Vec<(String, Dialect)>| -> Vec<(String, Dialect)> {
        m.iter()
            .filter(|(n, d)| !typed_roots.contains(&(n, d)))
            .cloned()
            .collect()
    };
    let (corpus_differ, suite_differ) = (other(&t.model_differ), other(&suite.model_differ));
    assert!(
        corpus_differ.is_empty() && suite_differ.is_empty(),
        "{corpus_differ:?} {suite_differ:?}"
    );
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
    // suite; there, a union beside keywords with a `$ref` branch, which the walk made an `allOf`
    // of and merged, is written with the branch as its definition, and a property both beside
    // a union and in its branch, or an `allOf` the model keeps, is merged by the lowering with
    // the walk's merge: `lower/settle.rs`)
    let merges = [&t.merged, &t.distributed, &suite.merged, &suite.distributed];
    assert!(merges.iter().all(|m| m.is_empty()), "{merges:?}");
    // (the suite: a tuple position two `allOf` parts give a string and a boolean schema, in 3
    // inputs, "additionalItems does not look in applicators": not lowered, the conversion's
    // error; every `$ref` inside a keyword the model does not read is written with its target)
    assert_unlowerable(&suite, 3, super::lower::UNMERGED_PARTS, "/allOf/0/items/1");
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
    assert_unlowerable(&t, 1, super::lower::NO_VALUE, "/properties/metrics");
}

/// Asserts that at most `n` inputs of `t` are not lowered, each for the reason `why` at `at`.
fn assert_unlowerable(t: &Tally, n: usize, why: &str, at: &str) {
    let u = &t.unlowerable;
    let all = u.iter().all(|(_, u)| u.why == why && u.at == at);
    assert!(u.len() <= n && all, "{u:?}");
}

/// Asserts that Gemini, OpenAI and llguidance write the same output for `input` and for its
/// `lowered` document, or reject both (`what` names the case).
fn assert_converts_alike(input: &Value, lowered: &Value, what: &Value) {
    for d in [Dialect::Gemini, Dialect::OpenAi, Dialect::Llguidance] {
        let o = DialectOptions::new();
        let want = walk_with(input, d, &o).map(|c| c.schema);
        let got = walk_with(lowered, d, &o).map(|c| c.schema);
        match (want, got) {
            (Ok(w), Ok(g)) => assert_eq!(w, g, "{what} {d}"),
            (Err(_), Err(_)) => {}
            // (the walk over the input refuses an `allOf` over a recursive type; the lowering
            // unfolds the definition once and merges it, `lower/settle.rs`)
            (Err(w), Ok(_)) if w.to_string().contains("over the recursive type") => {}
            (w, g) => panic!("{what} {d}: {w:?} / {g:?}"),
        }
    }
}

/// Asserts that `d`'s output for `input` has `{"type": "null"}` as branch `branch` of property
/// `a`'s union, and that the lowered document converts to the same output.
fn assert_null_branch(input: &Value, d: Dialect, branch: usize) {
    let lowered = lower(&normalize(input).unwrap(), input, true).unwrap().json;
    let out = walk(input, d).unwrap();
    assert_eq!(
        out["properties"]["a"]["anyOf"][branch],
        json!({"type": "null"}),
        "{out}"
    );
    assert_eq!(walk(&lowered, d).unwrap(), out);
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

mod conflicts;
mod merged;
mod nullable;
mod shapes;
mod unions;

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
    let lowered = lower(&normalize(&input).unwrap(), &input, true)
        .unwrap()
        .json;
    assert_eq!(lowered["definitions"], input["definitions"]);
    assert_eq!(lowered["else"], input["else"]);
    for d in Dialect::EVERY {
        for o in options() {
            let model = to_dialect_with(&input, d, &o).map(|c| c.schema);
            let walk = walk_input(&input, d, &o, false).map(|c| c.schema);
            assert_eq!(model, walk, "{d}");
        }
    }
    let dangling = json!({"type": "object", "then": {"$ref": "elsewhere.json"}});
    assert!(lower(&normalize(&dangling).unwrap(), &dangling, true).is_ok());
    let e = to_dialect_with(&dangling, Dialect::OpenAi, &DialectOptions::new()).unwrap_err();
    let e2 = walk_input(&dangling, Dialect::OpenAi, &DialectOptions::new(), true).unwrap_err();
    assert_eq!(e, e2);
}

/// Whether a conversion the walk over the input refuses and the lowered document's accepts is
/// the correction of `Lower::only_recursive_part` (`lower/settle.rs`): an `allOf` of a reference
/// to a recursive definition and parts that add nothing to it, written as the reference.
fn recursive_all_of(a: &&(String, Dialect, String)) -> bool {
    a.2.contains("over the recursive type")
}

/// Whether a conversion the walk over the input refuses and the lowered document's accepts is
/// the correction of `ChangeKind::ForbiddenPropertyLeftOut` (`dialect/model.rs`): a `false`
/// property that is not required is left out of `properties` (no value may be there), where the
/// walk refuses the `false` schema.
fn false_property_left_out(a: &&(String, Dialect, String)) -> bool {
    a.2.contains("the `false` schema (no value allowed) cannot be expressed")
}
