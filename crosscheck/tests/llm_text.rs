//! The text layer of `from_llm`: finding the JSON in a model reply (`schema_core::llm`).

use proptest::prelude::*;
use schema_core::llm::{
    detect_refusal, extract_json, ExtractError, ExtractOptions, Extracted, RepairKind, Source,
};
use serde_json::Value;
use std::time::{Duration, Instant};

const REPLIES: [&str; 7] = [
    "answer",
    "clarity",
    "custom",
    "error",
    "planning",
    "research",
    "verification",
];

fn replies() -> Vec<(&'static str, String)> {
    REPLIES
        .iter()
        .map(|name| {
            let path = format!(
                "{}/../tests/fixtures/seed004_response_{name}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            (*name, text)
        })
        .collect()
}

fn cached_replies() -> &'static [(&'static str, String)] {
    static REPLIES_TEXT: std::sync::OnceLock<Vec<(&'static str, String)>> =
        std::sync::OnceLock::new();
    REPLIES_TEXT.get_or_init(replies)
}

fn strict() -> ExtractOptions {
    ExtractOptions::default()
}

fn lenient() -> ExtractOptions {
    ExtractOptions {
        lenient: true,
        ..ExtractOptions::default()
    }
}

fn closing() -> ExtractOptions {
    ExtractOptions {
        repair_truncated: true,
        ..ExtractOptions::default()
    }
}

fn value(json: &str) -> Value {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// Checks that `x` was found as `source`, unrepaired, and is exactly `reply` (trimmed), at the
/// right span of `text`.
fn assert_found(text: &str, x: &Extracted<'_>, source: Source, reply: &str) {
    assert_eq!(x.source, source, "{text}");
    assert!(x.repairs.is_empty());
    assert_eq!(x.json, reply.trim());
    assert_eq!(&text[x.span.clone()], reply.trim());
    assert!(matches!(x.json, std::borrow::Cow::Borrowed(_)));
}

#[test]
fn seed_replies_as_plain_json() {
    for (name, reply) in replies() {
        let x = extract_json(&reply, &strict()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_found(&reply, &x, Source::Whole, &reply);
        let padded = format!("\n\n  {reply}\n ");
        let x = extract_json(&padded, &strict()).unwrap();
        assert_found(&padded, &x, Source::Whole, &reply);
    }
}

#[test]
fn seed_replies_in_fences() {
    for (_, reply) in replies() {
        for fence in ["```json\n", "```JSON\n", "```\n", "Here you go:\n```json\n"] {
            let text = format!("{fence}{reply}\n```");
            let x = extract_json(&text, &strict()).unwrap();
            assert_found(&text, &x, Source::Fenced, &reply);
            let text = format!("{fence}{reply}\n```\nLet me know if you need anything else {{}}.");
            let x = extract_json(&text, &strict()).unwrap();
            assert_found(&text, &x, Source::Fenced, &reply);
        }
    }
}

#[test]
fn seed_replies_after_and_before_prose() {
    for (_, reply) in replies() {
        for (before, after) in [
            ("Sure! Here is the JSON:\n", ""),
            ("Sure! Here is the JSON:\n", "\nHope this helps!"),
            (
                "",
                "\n\nI chose these fields because they match the schema.",
            ),
            (
                "Use {curly} braces and [square] ones; note {that: x}.\n",
                "\nAnd {\"another\": 1}.",
            ),
            ("As noted in [1] and [2, 3]:\n", " [4]"),
        ] {
            let text = format!("{before}{reply}{after}");
            let x = extract_json(&text, &strict()).unwrap_or_else(|e| panic!("{e}: {text}"));
            assert_found(&text, &x, Source::Embedded, &reply);
            assert_eq!(value(&x.json), value(&reply));
        }
    }
}

#[test]
fn braces_inside_strings_do_not_count() {
    let json = r#"{"note": "a } closes, a { opens, \" quotes", "list": ["]", "[{"]}"#;
    for text in [
        json.to_string(),
        format!("Result: {json} done }}"),
        format!("```json\n{json}\n```"),
    ] {
        let x = extract_json(&text, &strict()).unwrap();
        assert_eq!(x.json, json, "{text}");
    }
}

/// Cut points spread over the reply, on character boundaries, all before the final `}`.
fn cuts(reply: &str) -> Vec<usize> {
    let last = reply.rfind('}').unwrap();
    let mut points: Vec<usize> = (1..=12).map(|k| k * last / 13).collect();
    points.extend([1, 2, last - 1, last]);
    for p in &mut points {
        while !reply.is_char_boundary(*p) {
            *p -= 1;
        }
    }
    points.sort_unstable();
    points.dedup();
    points.retain(|&p| p > 0);
    points
}

#[test]
fn truncated_replies_are_reported_not_completed() {
    for (name, reply) in replies() {
        for cut in cuts(&reply) {
            let part = &reply[..cut];
            for (prefix, opts) in [
                ("", strict()),
                ("", lenient()),
                ("```json\n", strict()),
                ("Sure! Here is the JSON:\n", strict()),
            ] {
                let text = format!("{prefix}{part}");
                match extract_json(&text, &opts) {
                    Err(ExtractError::Truncated { offset, expected }) => {
                        assert_eq!(offset, text.len(), "{name} cut at {cut}");
                        assert!(expected.ends_with("}`"), "{name} at {cut}: {expected}");
                    }
                    other => panic!("{name} cut at {cut} ({prefix:?}): {other:?}"),
                }
            }
        }
    }
}

#[test]
fn a_number_cut_at_its_dot_is_truncation_not_a_syntax_error() {
    // serde_json calls `-208.` at the end of input an invalid number, not an early end.
    for text in [r#"{"a": [null,-208."#, r#"{"a": -"#, r#"{"a": 1e"#] {
        assert!(
            matches!(
                extract_json(text, &strict()),
                Err(ExtractError::Truncated { .. })
            ),
            "{text}"
        );
    }
    // Whereas junk at the end is junk.
    assert!(matches!(
        extract_json(r#"{"a": 1x"#, &strict()),
        Err(ExtractError::Syntax { .. })
    ));
    assert!(matches!(
        extract_json(r#"{"a": 1x"#, &closing()),
        Err(ExtractError::Syntax { .. })
    ));
}

#[test]
fn truncation_expectation_names_the_open_string() {
    let err = extract_json(r#"{"a": ["b", "c"#, &strict()).unwrap_err();
    assert_eq!(
        err,
        ExtractError::Truncated {
            offset: 14,
            expected: "a closing `\"`, then `]}`".into()
        }
    );
}

/// Whether `part` could be what a truncation repair makes of `full`: same keys and values,
/// except that containers may lack members at their end and the last string may be cut.
fn is_cut_of(part: &Value, full: &Value) -> bool {
    match (part, full) {
        (Value::Object(p), Value::Object(f)) => p
            .iter()
            .all(|(k, v)| f.get(k).is_some_and(|fv| is_cut_of(v, fv))),
        (Value::Array(p), Value::Array(f)) => {
            p.len() <= f.len() && p.iter().zip(f).all(|(a, b)| is_cut_of(a, b))
        }
        (Value::String(p), Value::String(f)) => f.starts_with(p.as_str()),
        (p, f) => p == f,
    }
}

#[test]
fn truncated_replies_are_closed_only_when_asked_and_the_repair_is_listed() {
    for (name, reply) in replies() {
        let full = value(&reply);
        for cut in cuts(&reply) {
            let text = &reply[..cut];
            let x = extract_json(text, &closing()).unwrap_or_else(|e| panic!("{name} {cut}: {e}"));
            let repaired = value(&x.json);
            assert!(
                is_cut_of(&repaired, &full),
                "{name} cut at {cut}: {}",
                x.json
            );
            let last = x.repairs.last().expect("a repair is listed");
            assert_eq!(last.offset, text.len());
            let RepairKind::ClosedTruncated { added } = &last.kind else {
                panic!("{name} {cut}: {:?}", x.repairs);
            };
            assert!(x.json.ends_with(added.as_str()));
            assert!(added.ends_with('}'));
            for r in &x.repairs[..x.repairs.len() - 1] {
                let RepairKind::DroppedTruncated { text: dropped } = &r.kind else {
                    panic!("{name} {cut}: {:?}", x.repairs);
                };
                assert!(text[r.offset..].starts_with(dropped.as_str()));
            }
        }
    }
}

#[test]
fn truncation_repair_keeps_complete_values_and_drops_uncertain_ones() {
    let cases = [
        (r#"{"a": "hello wor"#, r#"{"a": "hello wor"}"#, None),
        (r#"{"a": 1, "b""#, r#"{"a": 1}"#, Some(r#", "b""#)),
        (r#"{"a": 1, "b":"#, r#"{"a": 1}"#, Some(r#", "b":"#)),
        (r#"{"a": [1, 2,"#, r#"{"a": [1, 2]}"#, Some(",")),
        (r#"{"a": [1, 23"#, r#"{"a": [1]}"#, Some(", 23")),
        (r#"{"a": {"b": tr"#, r#"{"a": {}}"#, Some(r#""b": tr"#)),
        (r#"{"a": false"#, r#"{"a": false}"#, None),
        (r#"{"a": [null,-208."#, r#"{"a": [null]}"#, Some(",-208.")),
        (r#"{"a": [-"#, r#"{"a": []}"#, Some("-")),
        (r#"{"a": 2e+"#, r#"{}"#, Some(r#""a": 2e+"#)),
        (r#"[{"a": "x"}, {"#, r#"[{"a": "x"}, {}]"#, None),
    ];
    for (text, want, dropped) in cases {
        let x = extract_json(text, &closing()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(x.json, want, "{text}");
        let got_dropped = x.repairs.iter().find_map(|r| match &r.kind {
            RepairKind::DroppedTruncated { text } => Some(text.as_str()),
            _ => None,
        });
        assert_eq!(got_dropped, dropped, "{text}");
    }
}

#[test]
fn refusals_are_told_apart_from_missing_json() {
    for text in [
        "I'm sorry, but I can't help with that.",
        "I cannot assist with creating that content.",
        "As an AI, I don't have access to your repository.",
    ] {
        assert!(detect_refusal(text));
        assert_eq!(
            extract_json(text, &strict()),
            Err(ExtractError::Refusal {
                text: text.to_string()
            })
        );
    }
    let long = format!(
        "I'm sorry, but I cannot do this. {}",
        "Because. ".repeat(200)
    );
    let Err(ExtractError::Refusal { text }) = extract_json(&long, &strict()) else {
        panic!("expected a refusal");
    };
    assert!(text.chars().count() <= 501 && text.ends_with('…'));
    for text in [
        "",
        "   ",
        "The project has three modules.",
        "Sure, I will do it.",
    ] {
        assert_eq!(
            extract_json(text, &strict()),
            Err(ExtractError::NoJson),
            "{text}"
        );
    }
    // JSON wins over refusal-like wording in a string.
    let x = extract_json(r#"{"message": "I can't help with that"}"#, &strict()).unwrap();
    assert_eq!(x.source, Source::Whole);
}

/// `(broken input, expected value, expected repairs with the text found at each offset)`.
type RepairCase = (&'static str, &'static str, Vec<(RepairKind, &'static str)>);

fn repair_cases() -> Vec<RepairCase> {
    vec![
        (
            r#"{"a": [1, 2,], "b": 3,}"#,
            r#"{"a": [1, 2], "b": 3}"#,
            vec![
                (RepairKind::TrailingComma, ","),
                (RepairKind::TrailingComma, ","),
            ],
        ),
        (
            r#"{'a': 'it\'s "x"'}"#,
            r#"{"a": "it's \"x\""}"#,
            vec![
                (RepairKind::SingleQuotes, "'a'"),
                (RepairKind::SingleQuotes, "'it"),
            ],
        ),
        (
            r#"{response_type: "answer", $x_1: 2}"#,
            r#"{"response_type": "answer", "$x_1": 2}"#,
            vec![
                (RepairKind::UnquotedKey, "response_type"),
                (RepairKind::UnquotedKey, "$x_1"),
            ],
        ),
        (
            "{\"a\": 1, // the count\n \"b\": /* two */ 2}",
            r#"{"a": 1, "b": 2}"#,
            vec![
                (RepairKind::Comment, "// the"),
                (RepairKind::Comment, "/* two */"),
            ],
        ),
        (
            r#"{"a": True, "b": False, "c": None, "d": undefined, "e": "True"}"#,
            r#"{"a": true, "b": false, "c": null, "d": null, "e": "True"}"#,
            vec![
                (
                    RepairKind::PythonLiteral {
                        from: "True",
                        to: "true",
                    },
                    "True",
                ),
                (
                    RepairKind::PythonLiteral {
                        from: "False",
                        to: "false",
                    },
                    "False",
                ),
                (
                    RepairKind::PythonLiteral {
                        from: "None",
                        to: "null",
                    },
                    "None",
                ),
                (
                    RepairKind::PythonLiteral {
                        from: "undefined",
                        to: "null",
                    },
                    "undefined",
                ),
            ],
        ),
        (
            "{\"a\": \"line one\nline two\"}",
            r#"{"a": "line one\nline two"}"#,
            vec![(RepairKind::EscapedControl, "\n")],
        ),
    ]
}

#[test]
fn lenient_repairs_are_each_reported_at_their_offset() {
    for (broken, want, repairs) in repair_cases() {
        // Off by default: a syntax error, positioned in the input.
        match extract_json(broken, &strict()) {
            Err(ExtractError::Syntax { line, column, .. }) => assert!(line >= 1 && column >= 1),
            other => panic!("{broken}: {other:?}"),
        }
        for text in [
            broken.to_string(),
            format!("Here it is:\n```json\n{broken}\n```"),
            format!("Here it is: {broken} -- done."),
        ] {
            let x = extract_json(&text, &lenient()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(value(&x.json), value(want), "{text}");
            assert_eq!(&text[x.span.clone()], broken);
            assert_eq!(x.repairs.len(), repairs.len(), "{text}: {:?}", x.repairs);
            for (r, (kind, at)) in x.repairs.iter().zip(&repairs) {
                assert_eq!(&r.kind, kind, "{text}");
                assert!(text[r.offset..].starts_with(at), "{text}: {r}");
            }
        }
    }
}

#[test]
fn lenient_mode_never_changes_a_value() {
    // Not JSON, and no repair could make it JSON without inventing a value.
    for (text, at) in [
        ("{\"a\": 1,\n \"b\": NaN}", (2, 7)),
        ("{\"a\": -Infinity}", (1, 7)),
    ] {
        match extract_json(text, &lenient()) {
            Err(ExtractError::Syntax {
                line,
                column,
                message,
            }) => {
                assert_eq!((line, column), at, "{text}");
                assert!(message.contains("not a JSON number"), "{message}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Numbers and strings stay as written: a leading zero is an error, not 7 or "007".
    assert!(matches!(
        extract_json(r#"{"a": 007}"#, &lenient()),
        Err(ExtractError::Syntax { .. })
    ));
    // An unquoted *value* is not guessed to be a string.
    assert!(matches!(
        extract_json(r#"{"a": hello}"#, &lenient()),
        Err(ExtractError::Syntax { .. })
    ));
    // A comment between digits does not glue them into one number: two items, and the
    // missing comma between them is a reported repair.
    let x = extract_json("[1/* */2]", &lenient()).unwrap();
    assert_eq!(value(&x.json), serde_json::json!([1, 2]));
    let kinds: Vec<RepairKind> = x.repairs.into_iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [RepairKind::Comment, RepairKind::MissingComma]);
    let x = extract_json(r#"{"n": "1", "m": 1.50e3, 'k': '\u00e9'}"#, &lenient()).unwrap();
    assert_eq!(x.json, r#"{"n": "1", "m": 1.50e3, "k": "\u00e9"}"#);
}

#[test]
fn strict_syntax_errors_point_into_the_original_reply() {
    let text = "Sure!\n```json\n{\n  \"a\": 1,\n  \"b\": [1, 2,]\n}\n```";
    assert_eq!(
        extract_json(text, &strict()),
        Err(ExtractError::Syntax {
            line: 5,
            column: 14,
            message: "trailing comma".into()
        })
    );
    // Through the repairer too: the error after a repair is placed in the input, not the output.
    let text = "{'a': 1, // c\n b: x}";
    assert_eq!(
        extract_json(text, &lenient()),
        Err(ExtractError::Syntax {
            line: 2,
            column: 5,
            message: "expected value".into()
        })
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let open = "[".repeat(10_000);
    let closed = format!("{open}{}", "]".repeat(10_000));
    let objects = format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000));
    let all = [
        strict(),
        lenient(),
        closing(),
        ExtractOptions {
            lenient: true,
            repair_truncated: true,
            max_depth: usize::MAX,
            ..ExtractOptions::default()
        },
    ];
    for opts in &all {
        for text in [
            open.clone(),
            closed.clone(),
            objects.clone(),
            format!("Sure:\n```json\n{closed}\n```"),
            format!("Here: {objects} ok"),
        ] {
            match extract_json(&text, opts) {
                Err(ExtractError::TooDeep { max }) => assert!(max <= 128),
                other => panic!("{:?}", other.map(|x| x.source)),
            }
        }
    }
    // The deepest serde_json accepts is accepted.
    let ok = format!("{}{}", "[".repeat(127), "]".repeat(127));
    assert!(extract_json(&ok, &strict()).is_ok());
    let limited = ExtractOptions {
        max_depth: 3,
        ..strict()
    };
    assert!(extract_json("[[[1]]]", &limited).is_ok());
    assert_eq!(
        extract_json("[[[[1]]]]", &limited),
        Err(ExtractError::TooDeep { max: 3 })
    );
}

#[test]
fn long_input_is_rejected_before_it_is_read() {
    let opts = ExtractOptions {
        max_len: 10,
        ..strict()
    };
    assert_eq!(
        extract_json("{\"a\": 12345}", &opts),
        Err(ExtractError::TooLarge { len: 12, max: 10 })
    );
}

#[test]
fn adversarial_inputs_take_linear_time() {
    const N: usize = 1 << 20;
    let inputs = [
        "{".repeat(N),
        "{a".repeat(N / 2),
        "{ x ".repeat(N / 4),
        "[1] ".repeat(N / 4),
        "{}".repeat(N / 2),
        format!("{{\"a\": \"{}", "x".repeat(N)),
        format!("{{ {}", "{\"a\": 1} ".repeat(N / 9)),
        "```json\n{".repeat(N / 9),
        "'{'".repeat(N / 3),
        "/*{".repeat(N / 3),
    ];
    let all = [
        strict(),
        ExtractOptions {
            lenient: true,
            repair_truncated: true,
            ..ExtractOptions::default()
        },
    ];
    for text in &inputs {
        for opts in &all {
            let t = Instant::now();
            let _ = extract_json(text, opts);
            let took = t.elapsed();
            // Quadratic behaviour on 1 MiB would take hours; linear takes milliseconds
            // (unoptimised builds included).
            assert!(
                took < Duration::from_secs(5),
                "{took:?} on {:?}",
                &text[..20]
            );
        }
    }
}

/// The pieces [`jsonish`] text is made of: the characters that matter to the finder and the
/// repairer, and a few words.
const PIECES: [&str; 26] = [
    "{",
    "}",
    "[",
    "]",
    "\"",
    "'",
    ":",
    ",",
    "\\",
    "/",
    "*",
    "\n",
    " ",
    "```json\n",
    "```",
    "true",
    "None",
    "NaN",
    "1",
    "-2.5e3",
    "\\u12",
    "\\ud83d",
    "é",
    "key",
    "\"k\":",
    "I can't help",
];

/// Text made of [`PIECES`]. (Indices into a table, not `prop_oneof!`: generating from a
/// 26-way union costs milliseconds per case.)
fn jsonish() -> impl Strategy<Value = String> {
    proptest::collection::vec(0..PIECES.len(), 0..40)
        .prop_map(|ix| ix.into_iter().map(|i| PIECES[i]).collect())
}

fn all_options() -> Vec<ExtractOptions> {
    let mut out = Vec::new();
    for lenient in [false, true] {
        for repair_truncated in [false, true] {
            out.push(ExtractOptions {
                lenient,
                repair_truncated,
                ..ExtractOptions::default()
            });
        }
    }
    out
}

/// What holds for every result: found JSON is valid, within the input, and borrowed exactly
/// when nothing was repaired.
fn check_invariants(text: &str) {
    for opts in all_options() {
        if let Ok(x) = extract_json(text, &opts) {
            assert!(
                serde_json::from_str::<serde::de::IgnoredAny>(&x.json).is_ok(),
                "{text:?} -> {:?}",
                x.json
            );
            assert!(x.span.end <= text.len() && text.get(x.span.clone()).is_some());
            if x.repairs.is_empty() {
                assert_eq!(x.json, &text[x.span.clone()]);
            }
            for r in &x.repairs {
                assert!(r.offset <= text.len() && text.is_char_boundary(r.offset));
            }
            if !opts.lenient && !opts.repair_truncated {
                assert!(x.repairs.is_empty());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        check_invariants(&text);
    }

    #[test]
    fn jsonish_text_never_panics(text in jsonish()) {
        check_invariants(&text);
    }

    #[test]
    fn mutated_seed_replies_never_panic(
        which in 0..REPLIES.len(),
        cut in any::<proptest::sample::Index>(),
        at in any::<proptest::sample::Index>(),
        insert in jsonish(),
    ) {
        let (_, reply) = &cached_replies()[which];
        let mut text = reply.clone();
        let mut at = at.index(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.insert_str(at, &insert);
        let mut cut = cut.index(text.len() + 1);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        check_invariants(&text);
    }
}

/// JSON values whose text exercises the repairer: strings with quotes, apostrophes,
/// backslashes, newlines and non-ASCII; numbers that print exactly.
fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-4000i32..4000).prop_map(|i| Value::from(f64::from(i) / 8.0)),
        "[a-z'\"\\\\\n\t é😀{}\\[\\]/*,:]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec(("[a-z_$][a-z0-9_]{0,4}|[a-z '\"]{0,4}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Writes a value the way a careless model might: single quotes, bare keys, Python literals,
/// trailing commas, comments, raw newlines in strings; each choice drawn from `rng`.
struct Breaker {
    rng: u64,
    out: String,
}

impl Breaker {
    fn coin(&mut self) -> bool {
        // xorshift64
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng & 1 == 1
    }

    fn gap(&mut self) {
        let gap = match (self.coin(), self.coin(), self.coin()) {
            (false, _, _) => "",
            (true, false, false) => " ",
            (true, false, true) => "\n  ",
            (true, true, false) => " /* note */ ",
            (true, true, true) => " // note\n",
        };
        self.out.push_str(gap);
    }

    fn string(&mut self, s: &str) {
        let single = self.coin();
        let quote = if single { '\'' } else { '"' };
        self.out.push(quote);
        for c in s.chars() {
            match c {
                '\\' => self.out.push_str("\\\\"),
                c if c == quote => {
                    self.out.push('\\');
                    self.out.push(c);
                }
                '\n' | '\t' if self.coin() => self.out.push(c),
                '\n' => self.out.push_str("\\n"),
                '\t' => self.out.push_str("\\t"),
                c => self.out.push(c),
            }
        }
        self.out.push(quote);
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Null => {
                let text = match (self.coin(), self.coin()) {
                    (false, _) => "null",
                    (true, false) => "None",
                    (true, true) => "undefined",
                };
                self.out.push_str(text);
            }
            Value::Bool(b) => {
                let text = match (b, self.coin()) {
                    (true, false) => "true",
                    (true, true) => "True",
                    (false, false) => "false",
                    (false, true) => "False",
                };
                self.out.push_str(text);
            }
            Value::Number(n) => self.out.push_str(&n.to_string()),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.gap();
                    self.value(item);
                    self.gap();
                }
                if !items.is_empty() && self.coin() {
                    self.out.push(',');
                    self.gap();
                }
                self.out.push(']');
            }
            Value::Object(map) => {
                self.out.push('{');
                for (i, (k, item)) in map.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.gap();
                    let bare = !k.is_empty()
                        && k.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                        && !k.starts_with(|c: char| c.is_ascii_digit());
                    if bare && self.coin() {
                        self.out.push_str(k);
                    } else {
                        self.string(k);
                    }
                    self.gap();
                    self.out.push(':');
                    self.gap();
                    self.value(item);
                    self.gap();
                }
                if !map.is_empty() && self.coin() {
                    self.out.push(',');
                    self.gap();
                }
                self.out.push('}');
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Lenient mode gives back exactly the value that was written carelessly.
    #[test]
    fn lenient_repairs_preserve_every_value(v in arb_value(), seed in 1u64..) {
        let root = serde_json::json!({ "root": v });
        let mut breaker = Breaker { rng: seed, out: String::new() };
        breaker.value(&root);
        let broken = breaker.out;
        for text in [
            broken.clone(),
            format!("Sure! Here it is:\n```json\n{broken}\n```"),
            format!("Sure! Here it is: {broken}\nAnything else?"),
        ] {
            let x = extract_json(&text, &lenient());
            let x = x.unwrap_or_else(|e| panic!("{e}\n{text}"));
            prop_assert_eq!(value(&x.json), root.clone(), "{}", text);
            prop_assert_eq!(&text[x.span.clone()], broken.as_str());
        }
    }

    /// Any cut of a value's text is reported as truncated; closed on request, what is left is
    /// the value with members missing at the end and the last string possibly cut, never
    /// anything the text did not say.
    #[test]
    fn any_cut_is_truncated_and_closing_it_invents_nothing(
        v in arb_value(),
        pretty in any::<bool>(),
        at in any::<proptest::sample::Index>(),
    ) {
        let root = serde_json::json!({ "root": v });
        let full = if pretty {
            serde_json::to_string_pretty(&root).unwrap()
        } else {
            serde_json::to_string(&root).unwrap()
        };
        let mut cut = 1 + at.index(full.len() - 1);
        while !full.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = &full[..cut];
        match extract_json(text, &strict()) {
            Err(ExtractError::Truncated { offset, .. }) => prop_assert_eq!(offset, cut),
            // A cut inside a string right after the closers the value needs reads as a
            // complete reply whose closing quote is missing (`{"root": "x}`): documented.
            Err(ExtractError::Syntax { message, .. })
                if message == "this string has no closing quote" && text.ends_with('}') =>
            {
                return Ok(());
            }
            other => panic!("{other:?} for {text}"),
        }
        let x = extract_json(text, &closing()).unwrap_or_else(|e| panic!("{e}: {text}"));
        let repaired = value(&x.json);
        prop_assert!(is_cut_of(&repaired, &root), "{} -> {}", text, x.json);
    }
}
