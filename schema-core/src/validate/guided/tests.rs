use super::fast_path;
use crate::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Shape {
    Circle {
        #[schema(minimum = 0)]
        r: f64,
        label: Option<String>,
    },
    Square {
        side: u32,
        label: Option<String>,
    },
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Doc {
    #[schema(max_length = 5, pattern = "^[a-z]+$")]
    name: String,
    #[schema(max_items = 2)]
    shapes: Vec<Shape>,
    note: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
}

fn fast(text: &str) -> bool {
    fast_path::<Doc>(Doc::type_cache().plan(Doc::schema_type()), text).is_some()
}

#[test]
fn valid_input_takes_the_fast_path() {
    assert!(fast(
        r#"{"name":"ab","shapes":[{"kind":"circle","r":1.5},{"side":2,"kind":"square","label":null}]}"#
    ));
    assert!(fast(
        r#"{"name":"ab","shapes":[],"note":null,"tags":["x"]}"#
    ));
    // null for a property of the other variant reads as absent (OpenAI strict writes these)
    assert!(fast(
        r#"{"name":"ab","shapes":[{"kind":"square","side":1,"r":null}]}"#
    ));
}

#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)] // only parsed
struct Word {
    #[schema(min_length = 2, max_length = 3)]
    w: String,
}

/// Lengths count characters, not bytes, on either side of the byte-length shortcut.
#[test]
fn lengths_count_characters() {
    let fast = |w: &str| {
        let text = serde_json::json!({ "w": w }).to_string();
        fast_path::<Word>(Word::type_cache().plan(Word::schema_type()), &text).is_some()
    };
    for ok in ["ab", "abc", "éé", "ééé", "日本語", "😀😀😀", "a😀"] {
        assert!(fast(ok), "{ok}");
    }
    for bad in ["a", "abcd", "é", "éééé", "😀", "日本語日", "😀😀😀😀"] {
        assert!(!fast(bad), "{bad}");
    }
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
enum Step {
    Stop,
    Say(#[schema(max_length = 3)] String),
    Move(i32, i32),
    Search { query: String, limit: Option<u8> },
}

/// An externally tagged enum takes the fast path in both its forms, and its payloads are
/// checked.
#[test]
fn externally_tagged_enums() {
    let fast = |t: &str| {
        fast_path::<Vec<Step>>(
            Vec::<Step>::type_cache().plan(Vec::<Step>::schema_type()),
            t,
        )
    };
    assert_eq!(
        fast(r#"["Stop",{"Say":"hi"},{"Move":[1,-2]},{"Search":{"query":"q","limit":null}}]"#),
        Some(vec![
            Step::Stop,
            Step::Say("hi".into()),
            Step::Move(1, -2),
            Step::Search {
                query: "q".into(),
                limit: None
            },
        ])
    );
    // A unit variant's name is told from an object's key by what follows it in the text
    // (whitespace included); an escaped name is left to the slow path.
    assert_eq!(
        fast("[ \"Stop\" ,\n\"Stop\"\t]"),
        Some(vec![Step::Stop, Step::Stop])
    );
    assert_eq!(fast(r#"["St\u006fp"]"#), None);
    for bad in [
        r#"["Say"]"#,
        r#"[{"Stop":null}]"#,
        r#"[{"Say":"long"}]"#,
        r#"[{"Say":"a","Stop":null}]"#,
        r#"[{"Move":[1]}]"#,
        r#"[{"Move":[1,2,3]}]"#,
        r#"[{"Search":{"query":"q","extra":1}}]"#,
        r#"[{}]"#,
        r#"[{"Stop":1}]"#,
        r#"[{"Stop" :null}]"#,
        r#"[{"Stop"
:null}]"#,
        r#"[{"Say":"a"}, {"Stop"	: null}]"#,
        r#"[{"Stop":{}}]"#,
        r#"["Move"]"#,
        r#"["Fly"]"#,
        r#"[{"Fly":1}]"#,
        r#"[{"Move":{"0":1,"1":2}}]"#,
        r#"[{"Search":["q",1]}]"#,
        r#"[1]"#,
        r#"[null]"#,
    ] {
        assert!(fast(bad).is_none(), "{bad}");
    }
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Ints {
    #[schema(minimum = -5, maximum = 10)]
    a: i64,
    b: u64,
    #[schema(minimum = 3)]
    c: i128,
    #[schema(exclusive_maximum = 4)]
    d: i32,
}

/// Integer bounds checked by two comparisons agree with the bounds as written: at each end,
/// one past it, and across the `i64` / `u64` boundary.
#[test]
fn integer_bounds() {
    let fast = |t: &str| fast_path::<Ints>(Ints::type_cache().plan(Ints::schema_type()), t);
    let ints = |a, b, c, d| Ints { a, b, c, d };
    let text =
        |a: &str, b: &str, c: &str, d: &str| format!(r#"{{"a":{a},"b":{b},"c":{c},"d":{d}}}"#);
    for (a, b, c, d, want) in [
        ("-5", "0", "3", "3", Some(ints(-5, 0, 3, 3))),
        (
            "10",
            "18446744073709551615",
            "9223372036854775808",
            "-2147483648",
            Some(ints(10, u64::MAX, 9_223_372_036_854_775_808, i32::MIN)),
        ),
        ("-6", "0", "3", "3", None),
        ("11", "0", "3", "3", None),
        ("10", "0", "2", "3", None),
        ("10", "0", "3", "4", None),
        ("10", "-1", "3", "3", None),
        ("1.0", "0", "3", "3", None),
    ] {
        assert_eq!(fast(&text(a, b, c, d)), want, "{a} {b} {c} {d}");
    }
}

/// The word-at-a-time key comparison agrees with plain equality at every length.
#[test]
fn same_key_is_byte_equality() {
    let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
    for n in 0..base.len() {
        let a = &base[..n];
        assert!(super::same_key(a, a));
        for at in 0..n {
            let mut b = a.to_vec();
            b[at] ^= 0x20;
            assert!(!super::same_key(a, &b), "{n} {at}");
        }
        assert!(!super::same_key(a, &base[..n + 1]));
    }
}

/// Keys in any order, escaped keys, and an unknown key given `null` in a closed object.
#[test]
fn keys_in_any_form() {
    assert!(fast(r#"{"shapes":[],"name":"ab"}"#));
    assert!(fast(r#"{"n\u0061me":"ab","shapes":[]}"#));
    assert!(fast(r#"{"name":"ab","gone":null,"shapes":[]}"#));
    assert!(!fast(r#"{"name":"ab","name":"cd","shapes":[]}"#));
    assert!(!fast(r#"{"name":"ab","gone":1,"shapes":[]}"#));
}

/// While keys come in schema order the seen set is implied; once they leave it, every key
/// is noted, those read in order before included.
#[test]
fn keys_leaving_schema_order() {
    // in order, then a duplicate of an earlier one
    assert!(!fast(r#"{"name":"ab","shapes":[],"name":"cd"}"#));
    // out of order, then a duplicate found in the "next" slot
    assert!(!fast(r#"{"shapes":[],"name":"ab","shapes":[]}"#));
    // an unknown key first, then the properties in order
    assert!(fast(r#"{"gone":null,"name":"ab","shapes":[]}"#));
    assert!(!fast(r#"{"gone":null,"name":"ab","shapes":[],"name":"x"}"#));
    // a skipped optional property, then one after it, then the skipped one
    assert!(fast(r#"{"name":"ab","shapes":[],"tags":[],"note":"n"}"#));
    assert!(!fast(
        r#"{"name":"ab","shapes":[],"tags":[],"note":"n","tags":[]}"#
    ));
    // a required property missing, in order and out of it
    assert!(!fast(r#"{"name":"ab"}"#));
    assert!(!fast(r#"{"note":null,"name":"ab"}"#));
    assert!(!fast(r#"{"name":"ab","note":null,"tags":[]}"#));
    // every property, in order
    assert!(fast(r#"{"name":"ab","shapes":[],"note":null,"tags":[]}"#));
}

#[test]
fn every_violation_is_caught() {
    for bad in [
        r#"{"name":"abcdef","shapes":[]}"#,
        r#"{"name":"AB","shapes":[]}"#,
        r#"{"name":"ab","shapes":[{"kind":"circle","r":1},{"kind":"circle","r":1},{"kind":"circle","r":1}]}"#,
        r#"{"name":"ab","shapes":[{"kind":"circle","r":-1}]}"#,
        r#"{"name":"ab","shapes":[{"kind":"circle","r":1,"side":2}]}"#,
        r#"{"name":"ab","shapes":[{"kind":"hexagon"}]}"#,
        r#"{"name":"ab","shapes":[{"r":1}]}"#,
        r#"{"name":"ab","shapes":[],"extra":1}"#,
        r#"{"name":"ab","shapes":[{"kind":"square","side":-1}]}"#,
        r#"{"name":null,"shapes":[]}"#,
    ] {
        assert!(!fast(bad), "{bad}");
        assert!(Doc::from_json(bad).is_err(), "{bad}");
    }
}
