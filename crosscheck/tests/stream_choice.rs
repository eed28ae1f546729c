//! The stream reads the value `from_llm` reads, and stops only where `from_llm` fails.
//!
//! The oracle is `from_llm` on the whole text. For every reply and every chunking:
//! - a push fails only if `from_llm` fails on the whole text: with a path of `from_llm`'s
//!   errors when both are validation errors, with the very same error when the push's is a
//!   syntax error (a key written twice);
//! - otherwise `finish` equals `from_llm`;
//! - a value the stream calls settled ([`Stream::candidate`]) is the one the extractor finds.
//!
//! The replies: the six forms of issue 36, random replies assembled from the extractor's own
//! test shapes (prose, fences with and without labels, JSON on a fence's opening line,
//! reasoning blocks open, closed or only closed, harmony channels, keys written twice,
//! unknown members `null` or not, several values), and json_repair's 294 inputs read as
//! `serde_json::Value` (from `LLM_REPLY_CASES`, as `.ci/run` sets it), each in one chunk, in
//! one-byte chunks, split in two at every point, and in random chunks.

use proptest::prelude::*;
use schema_core::llm::{extract_json, ExtractOptions, Source};
use schema_core::stream::Stream;
use schema_core::{AgentSchema, ParseError, ParseOptions};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Debug;

/// An internally tagged enum with a unit-like variant (issue 36's `Action`).
#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Action {
    Stop,
    Go { to: String },
}

/// A struct with a map field (issue 36's `Scores`).
#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Scores {
    scores: BTreeMap<String, u32>,
}

/// A struct with bounds the stream checks early.
#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Note {
    title: String,
    #[schema(max_length = 8)]
    tag: Option<String>,
    n: Option<u8>,
}

fn default() -> ParseOptions {
    ParseOptions::default()
}

/// json_repair's default mode: every repair, a cut reply included.
fn repairing() -> ParseOptions {
    ParseOptions::default().lenient(true).repair_truncated(true)
}

fn extract_options(opts: &ParseOptions) -> ExtractOptions {
    ExtractOptions {
        lenient: opts.lenient,
        repair_truncated: opts.repair_truncated,
        max_len: opts.max_len,
        ..ExtractOptions::default()
    }
}

/// The text cut at the byte offsets `cuts` (each moved back to a character boundary).
fn chunks<'a>(text: &'a str, cuts: &[usize]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut at = 0;
    for &c in cuts {
        let mut c = c.min(text.len());
        while !text.is_char_boundary(c) {
            c -= 1;
        }
        if c > at {
            out.push(&text[at..c]);
            at = c;
        }
    }
    out.push(&text[at..]);
    out
}

/// Pushes `text` cut at `cuts` into a stream and checks it against `whole` (`from_llm` on the
/// whole text); the error names the reply and the chunking.
fn agrees<T>(
    text: &str,
    cuts: &[usize],
    opts: &ParseOptions,
    whole: &Result<T, ParseError>,
) -> Result<(), String>
where
    T: AgentSchema + DeserializeOwned + PartialEq + Debug,
{
    let fail = |what: String| Err(format!("{what}\n  reply: {text:?}\n  cuts: {cuts:?}"));
    let mut stream = Stream::<T>::with_options(opts.clone());
    for chunk in chunks(text, cuts) {
        let Err(e) = stream.push(chunk) else {
            continue;
        };
        return match (whole, &e) {
            (Ok(v), _) => fail(format!("push failed ({e}) where from_llm reads {v:?}")),
            (Err(w), ParseError::Invalid { errors, .. }) => match w.validation_errors() {
                Some(all) if !all.paths().contains(&errors.paths()[0]) => fail(format!(
                    "push failed at {:?}, from_llm at {:?}",
                    errors.paths(),
                    all.paths()
                )),
                // Another failure of the whole text (a syntax error after the violation).
                _ => Ok(()),
            },
            // A key written twice before the text ends: no continuation can be read, and
            // from_llm on the unfinished text names the missing end first.
            (Err(ParseError::Truncated { .. }), ParseError::Syntax { message, .. })
                if message.contains("written twice") =>
            {
                Ok(())
            }
            (Err(w), e) if w != e => fail(format!("push failed with {e:?}, from_llm {w:?}")),
            _ => Ok(()),
        };
    }
    let shown = stream.candidate();
    let finished = stream.finish();
    if &finished != whole {
        return fail(format!("finish {finished:?}, from_llm {whole:?}"));
    }
    if let Some(c) = shown.filter(|c| c.settled) {
        match extract_json(text, &extract_options(opts)) {
            Ok(x) if x.span.start != c.start => {
                return fail(format!(
                    "settled on {c:?}, the extractor found {:?}",
                    x.span
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// [`agrees`] in one chunk, in one-byte chunks and split in two at every point (at most
/// `max_splits` of them, evenly spread).
fn agrees_everywhere<T>(text: &str, opts: &ParseOptions, max_splits: usize) -> Result<(), String>
where
    T: AgentSchema + DeserializeOwned + PartialEq + Debug,
{
    let whole = T::from_llm_with(text, opts).map(|p| p.value);
    agrees(text, &[], opts, &whole)?;
    let every: Vec<usize> = (1..text.len()).collect();
    agrees(text, &every, opts, &whole)?;
    let step = (text.len() / max_splits.max(1)).max(1);
    for at in (1..text.len()).step_by(step) {
        agrees(text, &[at], opts, &whole)?;
    }
    Ok(())
}

/// Issue 36's six forms: each read by the stream as `from_llm` reads it, in every chunking.
#[test]
fn the_six_forms_read_as_from_llm_reads_them() {
    // 1. A key written twice: both reject it (serde_json would keep the last value, the
    //    stream judged the first; which one the model meant is not known).
    let twice = r#"{"kind": "go", "to": "a", "to": "b"}"#;
    let err = Action::from_llm(twice).unwrap_err();
    assert!(
        matches!(&err, ParseError::Syntax { message, .. } if message.contains("written twice")),
        "{err:?}"
    );
    agrees_everywhere::<Action>(twice, &default(), usize::MAX).unwrap();
    let mut stream = Action::stream();
    assert_eq!(stream.push(twice).unwrap_err(), err, "the same error");
    // With the first value an empty tag, the stream stops there: no tag begins with it and a
    // second `kind` cannot save it.
    let first_empty = r#"{"kind": "", "kind": "stop"}"#;
    assert!(Action::from_llm(first_empty).is_err());
    agrees_everywhere::<Action>(first_empty, &default(), usize::MAX).unwrap();
    // And in a map.
    let map_twice = r#"{"scores": {"a": 1, "a": 2}}"#;
    assert!(Scores::from_llm(map_twice).is_err());
    agrees_everywhere::<Scores>(map_twice, &default(), usize::MAX).unwrap();

    // 2. Reasoning closed by a lone `</think>` (the template opened it in the prompt).
    let lone = "Reasoning {\"title\": 1} done.</think>\n{\"kind\": \"stop\"}";
    assert_eq!(Action::from_llm(lone), Ok(Action::Stop));
    agrees_everywhere::<Action>(lone, &default(), usize::MAX).unwrap();

    // 3. A member `null` naming a property the object does not have reads as absent.
    let null_member = r#"{"scores": {}, "x": null}"#;
    assert!(Scores::from_llm(null_member).is_ok());
    agrees_everywhere::<Scores>(null_member, &default(), usize::MAX).unwrap();
    let mut stream = Scores::stream();
    let err = stream.push(r#"{"scores": {}, "x": 1"#).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/x"]);

    // 4. JSON on a fence's opening line: the fence is tagged with it, the value is prose.
    let on_info = "```{\"kind\":\"stop\"}\n```\nThen {\"kind\": \"x\"}";
    assert_eq!(Action::from_llm(on_info), Ok(Action::Stop));
    agrees_everywhere::<Action>(on_info, &default(), usize::MAX).unwrap();

    // 5. JSON in a fence labelled with another language, then more JSON.
    for label in ["text", "python"] {
        let other = format!("```{label}\n{{\"kind\":\"stop\"}}\n```\n{{\"kind\":\"x\"}}");
        assert_eq!(Action::from_llm(&other), Ok(Action::Stop));
        agrees_everywhere::<Action>(&other, &default(), usize::MAX).unwrap();
    }

    // 6. A value in prose before a JSON fence: the fence's value is the answer.
    let before_fence = "Here {\"title\": 1} and:\n```json\n{\"kind\": \"stop\"}\n```";
    assert_eq!(Action::from_llm(before_fence), Ok(Action::Stop));
    agrees_everywhere::<Action>(before_fence, &default(), usize::MAX).unwrap();
    let mut stream = Action::stream();
    stream.push("Here {\"title\": 1} and:\n").unwrap();
    let shown = stream.candidate().unwrap();
    assert_eq!((shown.source, shown.settled), (Source::Embedded, false));
    stream.push("```json\n{\"kind\": \"st").unwrap();
    let shown = stream.candidate().unwrap();
    assert_eq!((shown.source, shown.settled), (Source::Fenced, true));
    assert_eq!(shown.start, before_fence.find("{\"kind").unwrap());
}

/// Where the value is certain, the early stop stays at the violating byte.
#[test]
fn certain_values_still_stop_at_the_violating_byte() {
    let cases = [
        // The value the answer opens with, from its first string on.
        (r#"{"title": "a", "tag": "123456789"#, "9"),
        (r#"<think>x</think> {"title": 5"#, "5"),
        // A fence's value, after a value in prose.
        (
            "See {\"title\": 1}:\n```json\n{\"title\": \"a\", \"n\": 300,",
            ",",
        ),
        // An unknown member: at the first byte of a value that is not `null`.
        (r#"{"title": "a", "zz": 1"#, "1"),
    ];
    for (text, marker) in cases {
        let certain = text.rfind(marker).unwrap() + marker.len();
        let mut stream = Note::stream();
        let mut stopped = None;
        for (i, c) in text.char_indices() {
            if stream.push(&text[i..i + c.len_utf8()]).is_err() {
                stopped = Some(i + c.len_utf8());
                break;
            }
        }
        assert_eq!(stopped, Some(certain), "{text}");
    }
}

/// A random reply assembled from the extractor's test shapes around `values` (texts of JSON
/// values, valid and not).
fn reply(rng: &mut Rng, values: &[&str]) -> String {
    let value = |rng: &mut Rng| {
        let v = values[rng.below(values.len())];
        if rng.below(3) == 0 {
            v.replace(", ", ",\n  ")
        } else {
            v.to_string()
        }
    };
    let mut out = String::new();
    match rng.below(9) {
        0 => out.push_str("<think>The user wants {\"kind\": \"go\"}? [1]</think>\n"),
        1 => out.push_str("Maybe {\"title\": 1} fits. Done.</think>\n\n"),
        2 => out.push_str("<THINKING>plan {</thinking>  <reasoning>more</reasoning>"),
        3 => out.push_str(
            "<|channel|>analysis<|message|>{\"x\": 1}<|end|><|start|>assistant<|channel|>final<|message|>",
        ),
        4 => out.push_str("  \n"),
        _ => {}
    }
    for _ in 0..1 + rng.below(3) {
        match rng.below(10) {
            0 => out.push_str("Sure! Here is the JSON:\n"),
            1 => out.push_str("As shown in [1] and [2], "),
            2 => out.push_str("{curly} prose "),
            3 | 4 => out.push_str(&value(rng)),
            5 | 6 => {
                let label = ["json", "JSON", "", "jsonc", "python", "text", " json"][rng.below(7)];
                out.push_str(&format!("\n```{label}\n{}\n```\n", value(rng)));
            }
            7 => out.push_str(&format!("```{}\n```\n", value(rng))),
            8 => out.push_str("then </think> "),
            _ => out.push_str(" and that is all. "),
        }
    }
    if rng.below(8) == 0 {
        // Cut short.
        let mut at = rng.below(out.len() + 1);
        while !out.is_char_boundary(at) {
            at -= 1;
        }
        out.truncate(at);
    }
    out
}

const ACTIONS: &[&str] = &[
    r#"{"kind": "stop"}"#,
    r#"{"kind": "go", "to": "x"}"#,
    r#"{"to": "y", "kind": "go"}"#,
    r#"{"kind": "go"}"#,
    r#"{"kind": ""}"#,
    r#"{"kind": "jump"}"#,
    r#"{"kind": "go", "to": 5}"#,
    r#"{"kind": "", "kind": "stop"}"#,
    r#"{"kind": "go", "to": "a", "to": "b"}"#,
    r#"{"kind": "stop", "extra": null}"#,
    r#"{"extra": null, "kind": "stop"}"#,
    r#"{"kind": "stop", "extra": 1}"#,
    r#"{"extra": 1, "kind": "stop"}"#,
    r#"{"title": 1}"#,
    r#"[1]"#,
    r#"{}"#,
];

const SCORES: &[&str] = &[
    r#"{"scores": {}}"#,
    r#"{"scores": {"a": 1, "b": 2}}"#,
    r#"{"scores": {"a": 1, "a": 2}}"#,
    r#"{"scores": {}, "x": null}"#,
    r#"{"x": null, "scores": {"c": 3}}"#,
    r#"{"scores": {}, "x": 1}"#,
    r#"{"scores": {"a": -1}}"#,
    r#"{"scores": {"a": "1"}}"#,
    r#"{"scores": {}, "scores": {}}"#,
    r#"{"title": 1}"#,
    r#"[]"#,
];

const NOTES: &[&str] = &[
    r#"{"title": "hello"}"#,
    r#"{"title": "a", "tag": "short", "n": 7}"#,
    r#"{"title": "a", "tag": "far too long"}"#,
    r#"{"title": "a", "n": 300}"#,
    r#"{"title": "a", "n": null, "zz": null}"#,
    r#"{"title": "a", "zz": [1]}"#,
    r#"{"title": "a", "title": "b"}"#,
    r#"{"n": 1}"#,
    r#"{"title": "see ```json inside"}"#,
    r#"{"title": "</think>"}"#,
    r#"[1, 2]"#,
];

/// A small deterministic generator (xorshift64*), so failures reproduce from the seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1) as u64) as usize
    }
}

fn random_cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut at = 0;
    let mut cuts = Vec::new();
    while at < len {
        at += 1 + rng.below(12);
        cuts.push(at);
    }
    cuts
}

/// Random replies of each type against `from_llm`, in one chunk, one-byte chunks, at a
/// random split point and in random chunks; returns how many pushes failed (all where
/// `from_llm` fails), how many replies `from_llm` read, and how many there were.
fn differential(seed: u64, opts: &ParseOptions) -> Result<[usize; 3], String> {
    let mut rng = Rng(seed | 1);
    let mut counts = [0; 3];
    for k in 0..3 {
        let (text, whole_ok, stopped) = match k {
            0 => one::<Action>(&mut rng, ACTIONS, opts)?,
            1 => one::<Scores>(&mut rng, SCORES, opts)?,
            _ => one::<Note>(&mut rng, NOTES, opts)?,
        };
        let _ = text;
        counts[0] += usize::from(stopped);
        counts[1] += usize::from(whole_ok);
        counts[2] += 1;
    }
    Ok(counts)
}

/// One random reply of `T`: its text, whether `from_llm` reads it, whether a push failed.
fn one<T>(
    rng: &mut Rng,
    values: &[&str],
    opts: &ParseOptions,
) -> Result<(String, bool, bool), String>
where
    T: AgentSchema + DeserializeOwned + PartialEq + Debug,
{
    let text = reply(rng, values);
    let whole = T::from_llm_with(&text, opts).map(|p| p.value);
    let every: Vec<usize> = (1..text.len()).collect();
    let split = [rng.below(text.len() + 1)];
    let random = random_cuts(rng, text.len());
    for cuts in [&[][..], &every, &split, &random] {
        agrees(&text, cuts, opts, &whole)?;
    }
    let mut stream = Stream::<T>::with_options(opts.clone());
    let stopped = stream.push(&text).is_err();
    Ok((text, whole.is_ok(), stopped))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn push_fails_only_where_from_llm_fails(seed in any::<u64>(), lenient in any::<bool>()) {
        let opts = if lenient { repairing() } else { default() };
        if let Err(e) = differential(seed, &opts) {
            return Err(TestCaseError::fail(e));
        }
    }
}

/// The differential test's replies cover the cases that matter: pushes that fail, replies
/// `from_llm` reads and replies it refuses.
#[test]
fn the_differential_replies_cover_both_outcomes() {
    let mut totals = [0; 3];
    for seed in 0..400 {
        let c = differential(seed * 7_919, &default()).unwrap();
        for (t, c) in totals.iter_mut().zip(c) {
            *t += c;
        }
    }
    println!(
        "{} random replies: from_llm reads {}, a push fails on {} (each where from_llm fails)",
        totals[2], totals[1], totals[0]
    );
    assert!(totals[0] >= 100, "{totals:?}");
    assert!(totals[1] >= 300, "{totals:?}");
    assert!(totals[2] - totals[1] >= 300, "{totals:?}");
}

/// Hand-written reply forms of the extractor's tests, read as `Value`.
const SHAPES: &[&str] = &[
    "Sure! Here is the JSON:\n```json\n{\"lang\": \"en\"}\n```\nAnything else?",
    "{'lang': 'en',}",
    "As shown in [1] and [2], the result is {\"ok\": true}.",
    "See [1].",
    "Per [1]: {\"ok\": tru} [2]",
    "Result:\n\n{\"a\": 1,\n \"b\": x}",
    "```rust\nfn f() {}\n```\n```json\n[1]\n```",
    "```python\nx = {'a': 1}\n```\nand {\"b\": 2}",
    "  <think>a {b}</think><reasoning>c</reasoning> {}",
    "<THINK>x",
    "x {y} </think>{\"a\": 1}",
    "<|channel|>analysis<|message|>{x}<|end|><|start|>assistant<|channel|>final<|message|>{}",
    "{\"a\": \"</think>\"}",
    "Here: {\"a\": \"</think>\"}",
    "```json\n{\"code\": \"see ``` below\"}\n```\n",
    "```json\n{\"a\": \"x}\n```\n",
    "{\"key\": \"value\"}, \"key2\": \"value2\"}",
    "{\"a\": 1}, then I stopped.",
    "{\"key\": \"value}",
    "{\\\"key\\\": \\\"value\\\"}",
    "{\"a\": [1, 2}",
    "{\"a\": {\"b\": [1, {\"c\": \"d",
    "  42 ",
    "The answer is 42.",
    "I'm sorry, but I can't help with that.",
    "[1] shows it; ```json\n{\"a\": 1}\n```",
    "{\"a\": 1}\n```json\n{\"a\": 2}\n```",
    "```\n\"just a string\"\n```\n{\"a\": 1}",
    "```json\nhello\n```\n{\"a\": 1}",
    "```json\n\n```\n```json\n{\"b\": 1}",
    "{\"a\": 1, \"a\": 2}",
    "Here {\"a\": {\"x\": 1, \"x\": 2}} ok",
    "```json {\"a\": 1}\n{\"b\": 2}\n```",
];

#[test]
fn the_extractors_shapes_read_alike_streamed_and_whole() {
    for text in SHAPES {
        for opts in [default(), repairing()] {
            agrees_everywhere::<Value>(text, &opts, usize::MAX).unwrap();
        }
    }
}

/// json_repair's 294 inputs, read as `Value` in our strict mode and in json_repair's
/// (lenient, cut replies closed): every split point of inputs up to 2 KB, 64 of the longer
/// ones, one-byte chunks and random chunks.
#[test]
fn json_repair_inputs_read_alike_streamed_and_whole() {
    let Some(dir) = std::env::var_os("LLM_REPLY_CASES") else {
        println!("LLM_REPLY_CASES is not set: json_repair's cases skipped");
        return;
    };
    let path = std::path::Path::new(&dir).join("json_repair_cases.jsonl");
    let cases = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("LLM_REPLY_CASES is set but {}: {e}", path.display()));
    let mut n = 0;
    let mut rng = Rng(7);
    for line in cases.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let input = case["input"].as_str().unwrap();
        for opts in [default(), repairing()] {
            let splits = if input.len() <= 2048 { usize::MAX } else { 64 };
            agrees_everywhere::<Value>(input, &opts, splits).unwrap();
            let whole = Value::from_llm_with(input, &opts).map(|p| p.value);
            for _ in 0..3 {
                agrees(input, &random_cuts(&mut rng, input.len()), &opts, &whole).unwrap();
            }
        }
        n += 1;
    }
    assert_eq!(n, 294);
}

/// A reply cut after a key written twice (found by the property test): the stream stops at the
/// second key, `from_llm` on the unfinished text names the missing end; both fail.
#[test]
fn a_key_written_twice_before_the_cut_fails_both() {
    let text = "Maybe {\"title\": 1} fits. Done.</think>\n\n{\"scores\": {\"a\": 1, \"a\": 2";
    let whole = Scores::from_llm_with(text, &default()).map(|p| p.value);
    assert!(
        matches!(whole, Err(ParseError::Truncated { .. })),
        "{whole:?}"
    );
    let mut stream = Stream::<Scores>::with_options(default());
    let e = stream.push(text).unwrap_err();
    assert!(e.to_string().contains("written twice"), "{e}");
    agrees_everywhere::<Scores>(text, &default(), usize::MAX).unwrap();
}
