//! Property tests of `schema_core::stream`: for generated values of every derived type in the
//! repository, serialized compact and pretty, bare, fenced, in prose and after a reasoning
//! block, cut into random chunks (1-byte chunks included):
//! - every push succeeds and every partial is a prefix-consistent view of the final value
//!   (strings only grow, arrays and objects only gain entries, a scalar shown never changes);
//! - the final partial shows the whole value;
//! - `finish` equals `from_llm` on the whole text (value and error alike);
//! - `Update::changed()` is true exactly when the partial's JSON changed;
//! - the same holds for the text pushed as raw bytes (`push_bytes`) cut anywhere, inside UTF-8
//!   characters too, and bytes that are not UTF-8 fail the push that brings them (a syntax
//!   error, no panic);
//!
//! and for mutated (invalid) texts, the stream's first error arrives no later than the byte where
//! the violation becomes certain, with the path `from_json` reports (bare, fenced, after a
//! reasoning block); a value in prose, which a later fence could replace, never stops the
//! stream, and `finish` reports the violation.

use proptest::prelude::*;
use schema_core::stream::PartialValue;
use schema_core::{AgentSchema, ParseError};
use schema_suite::{seed000, seed002, seed004};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};
use std::fmt::Debug;

/// A small deterministic generator (xorshift64*), so failures reproduce from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn resolve<'a>(root: &'a Value, s: &'a Value) -> &'a Value {
    match s.get("$ref").and_then(Value::as_str) {
        Some("#") => root,
        Some(r) => root.pointer(r.trim_start_matches('#')).expect("local ref"),
        None => s,
    }
}

/// A random instance of the schema (mostly valid; the tests keep the ones `from_value` takes).
fn generate(root: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
    let s = resolve(root, s);
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        return e[rng.below(e.len() as u64) as usize].clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = s.get(key) {
            let b = &branches[rng.below(branches.len() as u64) as usize];
            if s.get("type").is_none() {
                return generate(root, b, rng, depth + 1);
            }
            if let Some(c) = b.get("const") {
                return c.clone();
            }
        }
    }
    let num = |s: &Value, k: &str| s.get(k).and_then(Value::as_f64);
    let ty = match s.get("type") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        Some(t) => t.as_str(),
        None => None,
    };
    match ty {
        Some("object") => {
            let mut out = Map::new();
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(props)) = s.get("properties") {
                for (k, p) in props {
                    if required.contains(&k.as_str()) || (depth < 4 && rng.chance(60)) {
                        out.insert(k.clone(), generate(root, p, rng, depth + 1));
                    }
                }
            }
            if s.get("additionalProperties") == Some(&json!(true))
                || s.get("additionalProperties").is_some_and(Value::is_object)
            {
                for i in 0..rng.below(3) {
                    out.insert(format!("key{i}"), json!({"n": i, "s": "x\"y"}));
                }
            }
            Value::Object(out)
        }
        Some("array") => {
            let min = num(s, "minItems").unwrap_or(0.0) as u64;
            let max = num(s, "maxItems").unwrap_or(4.0).min(4.0).max(min as f64) as u64;
            let n = min + rng.below(max - min + 1);
            let items = s.get("items").cloned().unwrap_or(json!({}));
            Value::Array(
                (0..n)
                    .map(|_| generate(root, &items, rng, depth + 1))
                    .collect(),
            )
        }
        Some("string") => {
            match s.get("format").and_then(Value::as_str) {
                Some("uri") => return json!(format!("https://example.com/{}", rng.below(99))),
                Some("date") => return json!("2024-05-06"),
                Some("date-time") => return json!("2024-05-06T07:08:09Z"),
                _ => {}
            }
            let min = num(s, "minLength").unwrap_or(0.0) as u64;
            let max = num(s, "maxLength")
                .unwrap_or(24.0)
                .min(24.0)
                .max(min as f64) as u64;
            let n = min + rng.below(max - min + 1);
            // Quotes, escapes, non-ASCII and astral characters, so chunks split them.
            const ODD: [char; 6] = ['é', '"', '\\', '\n', '😀', '/'];
            Value::String(
                (0..n)
                    .map(|i| {
                        if i % 4 == 3 {
                            ODD[rng.below(ODD.len() as u64) as usize]
                        } else {
                            (b'a' + rng.below(26) as u8) as char
                        }
                    })
                    .collect(),
            )
        }
        Some("integer") => {
            let lo = num(s, "minimum").unwrap_or(-50.0) as i64;
            let hi = num(s, "maximum").unwrap_or(50.0).min(1000.0) as i64;
            json!(lo + rng.below((hi - lo + 1) as u64) as i64)
        }
        Some("number") => {
            let lo = num(s, "minimum").unwrap_or(-50.0);
            let hi = num(s, "maximum").unwrap_or(1e6);
            json!((lo + (rng.below(1000) as f64) / 8.0).min(hi))
        }
        Some("boolean") => json!(rng.chance(50)),
        _ => json!({"any": [1, "two", null, 2.5e3]}),
    }
}

/// Whether `b` is `a` grown: strings extended, arrays and objects with the same entries grown,
/// any other value unchanged.
fn grows(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, _) => true,
        (Value::String(x), Value::String(y)) => y.starts_with(x.as_str()),
        (Value::Array(x), Value::Array(y)) => {
            x.len() <= y.len() && x.iter().zip(y).all(|(p, q)| grows(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.iter().all(|(k, v)| y.get(k).is_some_and(|w| grows(v, w)))
        }
        (x, y) => x == y,
    }
}

/// The value as a finished partial shows it: `null` properties absent (read as absent), empty
/// objects not shown.
fn shown(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let m: Map<String, Value> = o
                .iter()
                .map(|(k, v)| (k.clone(), shown(v)))
                .filter(|(_, v)| !v.is_null())
                .collect();
            if m.is_empty() {
                Value::Null
            } else {
                Value::Object(m)
            }
        }
        Value::Array(a) => Value::Array(a.iter().map(shown).collect()),
        other => other.clone(),
    }
}

fn wrap(json: &str, how: u8) -> String {
    match how % 4 {
        0 => json.to_string(),
        1 => format!("Sure! Here is the JSON you asked for:\n```json\n{json}\n```\nAnything else?"),
        2 => format!("The answer is {json} and that is all."),
        _ => format!("<think>The user wants JSON. Let me write it.</think>\n{json}"),
    }
}

fn cut<'a>(text: &'a str, sizes: &[usize]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut k = 0;
    while i < text.len() {
        let mut j = (i + sizes[k % sizes.len()].max(1)).min(text.len());
        while !text.is_char_boundary(j) {
            j += 1;
        }
        out.push(&text[i..j]);
        i = j;
        k += 1;
    }
    out
}

/// Byte chunks of `sizes`, cut anywhere (inside UTF-8 characters too).
fn cut_bytes<'a>(text: &'a [u8], sizes: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut k = 0;
    while i < text.len() {
        let j = (i + sizes[k % sizes.len()].max(1)).min(text.len());
        out.push(&text[i..j]);
        i = j;
        k += 1;
    }
    out
}

/// The same property as [`consistent`], for text pushed as raw bytes cut anywhere.
fn consistent_bytes<T>(
    seed: u64,
    how: u8,
    pretty: bool,
    sizes: &[usize],
) -> Result<bool, TestCaseError>
where
    T: AgentSchema + DeserializeOwned + PartialEq + Debug,
{
    let Some((_, _, text)) = valid_reply::<T>(seed, how, pretty) else {
        return Ok(false);
    };
    let mut stream = T::stream();
    let mut last = Value::Null;
    for chunk in cut_bytes(text.as_bytes(), sizes) {
        let changed = match stream.push_bytes(chunk) {
            Ok(update) => update.changed(),
            Err(e) => return Err(TestCaseError::fail(format!("push failed: {e}\n{text}"))),
        };
        let now = stream.partial().to_json().unwrap_or(Value::Null);
        prop_assert!(grows(&last, &now), "{last} -> {now}\n{text}");
        prop_assert_eq!(changed, now != last, "{} -> {}\n{}", last, now, text);
        last = now;
    }
    prop_assert_eq!(stream.finish(), T::from_llm(&text));
    Ok(true)
}

/// A generated value of `T` that serde reads, its JSON (compact or `pretty`), and that JSON
/// wrapped as `how` says; `None` when the generated value is not one serde reads.
fn valid_reply<T>(seed: u64, how: u8, pretty: bool) -> Option<(Value, String, String)>
where
    T: AgentSchema + DeserializeOwned,
{
    let schema = T::validation_schema();
    let v = generate(schema, schema, &mut Rng(seed | 1), 0);
    T::from_value(v.clone()).ok()?;
    let json = if pretty {
        serde_json::to_string_pretty(&v).unwrap()
    } else {
        v.to_string()
    };
    let text = wrap(&json, how);
    Some((v, json, text))
}

/// Bytes that are not UTF-8 (a byte no character starts with, at a random character
/// boundary; or a character cut short by ASCII) make the push that brings them fail with a
/// syntax error, and no push before.
fn bad_bytes<T>(seed: u64, sizes: &[usize]) -> Result<bool, TestCaseError>
where
    T: AgentSchema + DeserializeOwned + PartialEq + Debug,
{
    let schema = T::validation_schema();
    let mut rng = Rng(seed | 1);
    let v = generate(schema, schema, &mut rng, 0);
    if T::from_value(v.clone()).is_err() {
        return Ok(false);
    }
    let text = v.to_string();
    let mut at = rng.below(text.len() as u64) as usize;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut bytes = text.as_bytes().to_vec();
    let bad: &[u8] = if rng.chance(50) {
        b"\xff"
    } else {
        b"\xe2\x82A"
    };
    // Where the bytes become certainly invalid: the `A` that cannot end `€`'s sequence.
    let certain = at + bad.len() - 1;
    bytes.splice(at..at, bad.iter().copied());
    let mut stream = T::stream();
    let mut offset = 0;
    for chunk in cut_bytes(&bytes, sizes) {
        let end = offset + chunk.len();
        match stream.push_bytes(chunk) {
            Ok(_) => prop_assert!(end <= certain, "no error by byte {end}: {bytes:?}"),
            Err(e) => {
                prop_assert!(end > certain, "early error at {end}: {e}");
                prop_assert!(matches!(e, ParseError::Syntax { .. }), "{e:?}");
                return Ok(true);
            }
        }
        offset = end;
    }
    Err(TestCaseError::fail(format!("no error: {bytes:?}")))
}

fn consistent<T>(seed: u64, how: u8, pretty: bool, sizes: &[usize]) -> Result<bool, TestCaseError>
where
    T: AgentSchema + DeserializeOwned + PartialEq + Debug,
{
    let Some((v, json, text)) = valid_reply::<T>(seed, how, pretty) else {
        return Ok(false);
    };
    let mut stream = T::stream();
    let mut last = Value::Null;
    for chunk in cut(&text, sizes) {
        let changed = match stream.push(chunk) {
            Ok(update) => update.changed(),
            Err(e) => return Err(TestCaseError::fail(format!("push failed: {e}\n{text}"))),
        };
        let now = stream.partial().to_json().unwrap_or(Value::Null);
        prop_assert!(grows(&last, &now), "{last} -> {now}\n{text}");
        prop_assert_eq!(
            changed,
            now != last,
            "{} -> {} ({:?})\n{}",
            last,
            now,
            chunk,
            text
        );
        last = now;
    }
    let root_is_container = json.starts_with(['{', '[']);
    // A value without strings in prose (`{}`, `[1]`) could be a citation: `from_llm` takes it
    // only if nothing better follows, so the stream cannot know it is the answer before the end.
    let weak = how % 4 == 2 && !json.contains('"');
    if root_is_container && !weak {
        prop_assert!(stream.is_complete(), "{text}");
        prop_assert_eq!(shown(&last), shown(&v), "{}", text);
    }
    let expected = T::from_llm(&text);
    prop_assert!(expected.is_ok() || !root_is_container, "{expected:?}");
    prop_assert_eq!(stream.finish(), expected);
    Ok(true)
}

fn places(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => m
            .iter()
            .for_each(|(k, c)| places(c, format!("{at}/{k}"), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, c)| places(c, format!("{at}/{i}"), out)),
        _ => {}
    }
}

/// Mutates one place of `v` with a marker; returns the pointer of the value that became
/// invalid (if it does) and the marker to find in the text.
fn mutate(v: &mut Value, rng: &mut Rng, kind: u8) -> Option<(String, &'static str, usize)> {
    let mut all = Vec::new();
    places(v, String::new(), &mut all);
    let at = all[rng.below(all.len() as u64) as usize].clone();
    let target = v.pointer_mut(&at)?;
    match (kind % 7, &*target) {
        (0, Value::String(_)) => *target = json!("ZZMUT"),
        (1, Value::String(_)) => *target = json!(987654321),
        (2, Value::Number(_) | Value::Bool(_)) => *target = json!("ZZMUT"),
        (3, Value::Number(_)) => *target = json!(987654321),
        (4, Value::Number(_)) => *target = json!(-987654321),
        (5, Value::Object(_)) => {
            target.as_object_mut()?.insert("zzunknown".into(), json!(1));
            return Some((format!("{at}/zzunknown"), "\"zzunknown\"", 11));
        }
        (6, Value::String(_)) => *target = json!("Q".repeat(300)),
        _ => return None,
    }
    let (marker, len) = match kind % 7 {
        0 | 2 => ("\"ZZMUT\"", 7),
        1 | 3 => ("987654321", 9),
        4 => ("-987654321", 10),
        _ => ("\"QQQQ", 302),
    };
    Some((at, marker, len))
}

/// The byte where the violation `keyword` of the value at `q` (its first byte, `len` bytes
/// long) becomes certain: its first byte for a wrong type, the first byte that leaves every
/// allowed value for an enum, the first character too many for `maxLength`, a string's closing
/// quote for its pattern or format, and the byte after a number (where it is complete). (For
/// an unknown property, the first byte of its value: the caller works it out.)
fn certain(keyword: &str, expected: &str, marker: &str, q: usize, len: usize) -> Option<usize> {
    let quoted = marker.starts_with('"');
    Some(match keyword {
        "type" => q,
        "additionalProperties" => q + len - 1,
        "enum" | "const" if marker == "\"ZZMUT\"" => q + 1,
        "maxLength" => {
            let n: usize = expected.split_whitespace().nth(2)?.parse().ok()?;
            q + n + 1
        }
        "minLength" | "pattern" | "format" | "anyOf" | "oneOf" | "enum" | "const" if quoted => {
            q + len - 1
        }
        "maximum" | "minimum" | "exclusiveMaximum" | "exclusiveMinimum" | "multipleOf"
        | "anyOf" | "oneOf" | "enum" | "const" => q + len,
        _ => return None,
    })
}

fn stops_early<T>(seed: u64, kind: u8, how: u8, pretty: bool) -> Result<bool, TestCaseError>
where
    T: AgentSchema + DeserializeOwned + PartialEq + Debug,
{
    let schema = T::validation_schema();
    let mut rng = Rng(seed | 1);
    let mut v = generate(schema, schema, &mut rng, 0);
    if T::from_value(v.clone()).is_err() || !v.is_object() {
        return Ok(false);
    }
    let Some((at, marker, len)) = mutate(&mut v, &mut rng, kind) else {
        return Ok(false);
    };
    let json = if pretty {
        serde_json::to_string_pretty(&v).unwrap()
    } else {
        v.to_string()
    };
    let Err(ParseError::Invalid { errors, .. }) = T::from_json(&json) else {
        return Ok(false);
    };
    let Some(e) = errors.iter().find(|e| e.path == at) else {
        return Ok(false);
    };
    let text = wrap(&json, how);
    let q = text.find(marker).expect("marker in text");
    let Some(mut limit) = certain(e.keyword, &e.expected, marker, q, len) else {
        return Ok(false);
    };
    if e.keyword == "additionalProperties" {
        // A `null` would read as absent: certain at the first byte of the value.
        let after = &text[q + len..];
        let value = after
            .trim_start()
            .strip_prefix(':')
            .expect("a colon")
            .trim_start();
        limit = text.len() - value.len();
    }
    if how % 4 == 2 {
        // A value in prose is not certainly the answer (a fence after it would be): the
        // stream reads it without stopping, and `finish` reports what `from_llm` does.
        let mut stream = T::stream();
        for ch in text.chars() {
            let mut buf = [0; 4];
            if let Err(err) = stream.push(ch.encode_utf8(&mut buf)) {
                return Err(TestCaseError::fail(format!(
                    "a value in prose stopped the stream: {err}\n{text}"
                )));
            }
        }
        let settled = stream.candidate().map(|c| c.settled);
        prop_assert_eq!(settled, Some(false), "{}", text);
        let finished = stream.finish();
        prop_assert_eq!(&finished, &T::from_llm(&text));
        let err = finished.unwrap_err();
        let paths = err.validation_errors().expect("Invalid").paths();
        prop_assert!(paths.contains(&at.as_str()), "{:?} {}", paths, text);
        return Ok(true);
    }
    let mut stream = T::stream();
    let mut offset = 0;
    let mut got = None;
    for ch in text.chars() {
        let mut buf = [0; 4];
        if let Err(err) = stream.push(ch.encode_utf8(&mut buf)) {
            got = Some((offset, err));
            break;
        }
        offset += ch.len_utf8();
    }
    let Some((offset, err)) = got else {
        return Err(TestCaseError::fail(format!(
            "no early error for {} at {at} ({}); from_json: {errors}\n{text}",
            e.keyword, e.expected
        )));
    };
    prop_assert!(
        offset <= limit,
        "error at byte {offset}, certain at {limit}: {err}\n{text}"
    );
    let paths = err.validation_errors().expect("Invalid").paths();
    prop_assert_eq!(paths, vec![at.as_str()], "{}", text);
    Ok(true)
}

macro_rules! for_every_type {
    ($f:ident, $($args:expr),*) => {{
        let mut n = 0usize;
        n += usize::from($f::<seed000::Language>($($args),*)?);
        n += usize::from($f::<seed000::QuestionEvaluate>($($args),*)?);
        n += usize::from($f::<seed000::CodeGenerator>($($args),*)?);
        n += usize::from($f::<seed000::ErrorAnalysis>($($args),*)?);
        n += usize::from($f::<seed000::ResearchPlan>($($args),*)?);
        n += usize::from($f::<seed000::SerpCluster>($($args),*)?);
        n += usize::from($f::<seed000::Cluster>($($args),*)?);
        n += usize::from($f::<seed000::QueryRewriter>($($args),*)?);
        n += usize::from($f::<seed000::Tbs>($($args),*)?);
        n += usize::from($f::<seed000::SearchQuery>($($args),*)?);
        n += usize::from($f::<seed000::Evaluation>($($args),*)?);
        n += usize::from($f::<seed000::FreshnessAnalysis>($($args),*)?);
        n += usize::from($f::<seed000::PluralityAnalysis>($($args),*)?);
        n += usize::from($f::<seed000::CompletenessAnalysis>($($args),*)?);
        n += usize::from($f::<seed000::AgentStep>($($args),*)?);
        n += usize::from($f::<seed000::AgentAction>($($args),*)?);
        n += usize::from($f::<seed000::SearchAction>($($args),*)?);
        n += usize::from($f::<seed000::CodingAction>($($args),*)?);
        n += usize::from($f::<seed000::AnswerAction>($($args),*)?);
        n += usize::from($f::<seed000::ReflectAction>($($args),*)?);
        n += usize::from($f::<seed000::VisitAction>($($args),*)?);
        n += usize::from($f::<seed000::TeamResearchPlan>($($args),*)?);
        n += usize::from($f::<seed002::Mode>($($args),*)?);
        n += usize::from($f::<seed002::Intent>($($args),*)?);
        n += usize::from($f::<seed002::Freshness>($($args),*)?);
        n += usize::from($f::<seed002::GrokResult>($($args),*)?);
        n += usize::from($f::<seed002::GrokReply>($($args),*)?);
        n += usize::from($f::<seed002::SearchResult>($($args),*)?);
        n += usize::from($f::<seed002::SearchOutput>($($args),*)?);
        n += usize::from($f::<seed004::UniversalResponse>($($args),*)?);
        n += usize::from($f::<seed004::Status>($($args),*)?);
        n += usize::from($f::<seed004::PlanningData>($($args),*)?);
        n += usize::from($f::<seed004::PlanStep>($($args),*)?);
        n += usize::from($f::<seed004::VerificationData>($($args),*)?);
        n += usize::from($f::<seed004::Check>($($args),*)?);
        n += usize::from($f::<seed004::ClarityData>($($args),*)?);
        n += usize::from($f::<seed004::ResearchData>($($args),*)?);
        n += usize::from($f::<seed004::Level>($($args),*)?);
        n += usize::from($f::<seed004::Finding>($($args),*)?);
        n += usize::from($f::<seed004::AnswerData>($($args),*)?);
        n += usize::from($f::<seed004::ErrorDetails>($($args),*)?);
        n
    }};
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn partials_grow_and_finish_equals_from_llm(
        seed in any::<u64>(),
        how in 0u8..4,
        pretty in any::<bool>(),
        sizes in prop::collection::vec(1usize..48, 1..6),
        one_byte in any::<bool>(),
    ) {
        let sizes = if one_byte { vec![1] } else { sizes };
        let _ = for_every_type!(consistent, seed, how, pretty, &sizes);
    }

    #[test]
    fn bytes_cut_anywhere_give_growing_partials_and_from_llm(
        seed in any::<u64>(),
        how in 0u8..4,
        pretty in any::<bool>(),
        sizes in prop::collection::vec(1usize..8, 1..6),
    ) {
        let _ = for_every_type!(consistent_bytes, seed, how, pretty, &sizes);
    }

    #[test]
    fn bytes_that_are_not_utf8_fail_the_push_that_brings_them(
        seed in any::<u64>(),
        sizes in prop::collection::vec(1usize..8, 1..6),
    ) {
        let _ = for_every_type!(bad_bytes, seed, &sizes);
    }

    #[test]
    fn violations_stop_the_stream_where_they_become_certain(
        seed in any::<u64>(),
        kind in 0u8..7,
        how in 0u8..4,
        pretty in any::<bool>(),
    ) {
        let _ = for_every_type!(stops_early, seed, kind, how, pretty);
    }
}

/// The property tests skip generated cases that do not apply (a value `from_value` refuses, a
/// mutation that leaves the value valid): check that enough cases remain.
#[test]
fn enough_cases_are_exercised() -> Result<(), TestCaseError> {
    let (mut consistent_cases, mut early_cases) = (0, 0);
    for seed in 0..40u64 {
        let how = (seed % 4) as u8;
        consistent_cases +=
            for_every_type!(consistent, seed * 7919, how, seed % 2 == 0, &[1, 5, 17]);
        early_cases += for_every_type!(
            stops_early,
            seed * 104_729,
            (seed % 7) as u8,
            how,
            seed % 3 == 0
        );
    }
    let (mut byte_cases, mut bad_cases) = (0, 0);
    for seed in 0..10u64 {
        byte_cases += for_every_type!(
            consistent_bytes,
            seed * 31,
            (seed % 4) as u8,
            false,
            &[1, 2, 3]
        );
        bad_cases += for_every_type!(bad_bytes, seed * 37, &[3, 1, 2]);
    }
    // Every form, every mutation kind: the forms whose value is certain stop at the violating
    // byte with from_json's path, a value in prose never stops (each case fails the test
    // otherwise); counted by form.
    let mut by_form = [0usize; 4];
    for seed in 0..120u64 {
        for how in 0..4u8 {
            by_form[usize::from(how)] += for_every_type!(
                stops_early,
                seed * 7_919 + u64::from(how),
                (seed % 7) as u8,
                how,
                seed % 2 == 0
            );
        }
    }
    println!(
        "early stops at the violating byte: bare {}, fenced {}, after reasoning {}; values in prose read to the end without stopping: {}",
        by_form[0], by_form[1], by_form[3], by_form[2]
    );
    println!("consistent cases: {consistent_cases}, early stops: {early_cases}, byte cuts: {byte_cases}, bad bytes: {bad_cases}");
    prop_assert!(byte_cases >= 10 * 30, "{byte_cases}");
    prop_assert!(bad_cases >= 10 * 30, "{bad_cases}");
    prop_assert!(consistent_cases >= 40 * 30, "{consistent_cases}");
    prop_assert!(early_cases >= 100, "{early_cases}");
    Ok(())
}
