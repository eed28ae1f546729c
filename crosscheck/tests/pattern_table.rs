//! Patterns written the way real schemas write them (identity escapes, classes, anchors, Unicode
//! classes, lookaheads), each checked on the same strings by our validator and by the
//! `jsonschema` crate: both must compile every pattern and give the same verdicts.

use schema_core::validate::Validator;
use serde_json::json;

/// (pattern, strings to check). Patterns come from public schemas (JSONSchemaBench's
/// collections) or are written in their style.
const TABLE: &[(&str, &[&str])] = &[
    // Annex B identity escapes.
    (r"^[a-zA-Z0-9\-\_]+$", &["abc-def_1", "abc def", "", "a.b"]),
    (
        r"^[\w\-\.]+\@[\w\-\.]+$",
        &["a.b@c-d.e", "ab@", "@b", "a@b@c"],
    ),
    (r"^\<[a-z]+\>$", &["<div>", "<div", "div>", "<Div>"]),
    (r"^\d+\%$", &["50%", "50", "%", "5 %"]),
    (r"^[^\:]+\:\d+$", &["host:80", "host:", ":80", "a:b:1"]),
    (
        r"^\#[0-9a-fA-F]{6}$",
        &["#00ff00", "#00FF0", "00ff00", "#00ff001"],
    ),
    (r"^\$\{[A-Z_]+\}$", &["${HOME}", "${home}", "$HOME", "${}"]),
    (
        r"^[\w\s\,\;\'\!\?\&]+$",
        &["Hi, you; ok!", "a&b", "a|b", "ça"],
    ),
    // Classes and the ECMA-262 meaning of \d, \w, \s, `.`.
    (
        r"^\d{3}-\d{4}$",
        &["555-1234", "５５５-1234", "55-1234", "555-12345"],
    ),
    (r"^\w+$", &["abc_123", "é", "abc!", "ÅB"]),
    (r"^\s*$", &["", "  \t\n", "\u{a0}\u{2003}\u{feff}", " x "]),
    (r"^.+$", &["abc", "a\nb", "a\rb", "a\u{2028}b", "é😀"]),
    (
        r"^[^\s@]+@[^\s@]+\.[^\s@]+$",
        &["a@b.co", "a b@c.d", "a@b", "a@@b.c"],
    ),
    (
        r"^[A-Z][a-z]*(?: [A-Z][a-z]*)*$",
        &["New York", "new York", "New  York", "A"],
    ),
    (r"[\u0041-\u005A]", &["x", "xAx", "", "ÀB"]),
    (r"^[\x20-\x7E]*$", &["Hello, World!", "tab\t", "é", ""]),
    // Anchors: `$` only at the end, unanchored patterns match anywhere.
    (r"^abc$", &["abc", "abc\n", "xabc", "abcx"]),
    (r"abc", &["xxabcxx", "ab", "ABC"]),
    (
        r"^(\([0-9]{3}\))?[0-9]{3}-[0-9]{4}$",
        &["(888)555-1212", "555-1212", "(888)-555-1212"],
    ),
    (
        r"^(https?:\/\/)?([\da-z\.-]+)\.([a-z\.]{2,6})([\/\w \.-]*)*\/?$",
        &[
            "https://www.example.com/a/b",
            "example.org",
            "https://x.com/aaaa!",
            "ftp://x.com",
        ],
    ),
    (r"\bword\b", &["a word here", "swordfish", "word", "wordy"]),
    // Unicode classes.
    (r"^\p{L}+$", &["abc", "ÅÉÎ", "日本語", "abc1", ""]),
    (
        r"^[\p{Lu}\p{Lt}][\p{Ll}\p{Nd}]*$",
        &["Abc1", "abc", "Ǆx", "A_"],
    ),
    (r"^\p{Script=Greek}+$", &["αβγ", "abc", "Ωmega"]),
    (r"^\P{Cc}*$", &["printable", "bell\u{7}", "tab\t", ""]),
    // Quantifiers, alternation, groups.
    (
        r"^(?:[01]\d|2[0-3]):[0-5]\d$",
        &["00:00", "23:59", "24:00", "9:30"],
    ),
    (r"^[a-z]{2,3}(-[A-Z]{2})?$", &["en", "en-US", "eng-us", "e"]),
    (
        r"^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$",
        &["1.2.3", "v1.2.3-rc.1", "1.2", "1.2.3-"],
    ),
    (r"^(a+)+$", &["aaaa", "aaaab", ""]),
    // Lookaheads (the backtracking engine).
    (r"^(?!@@)[\w@]+$", &["a@b", "@@a", "@a"]),
    (
        r"^(?=.*[A-Z])(?=.*\d).{8,}$",
        &["Passw0rdX", "password1", "Pass1", "PASSWORD1"],
    ),
    (r"^((?!mode)(?!Mode).)*$", &["a model", "the Mode", "plain"]),
];

/// Where the `jsonschema` crate departs from ECMA-262 (it rewrites patterns into Rust `regex`
/// syntax): (pattern, string, ECMA-262's verdict, why). Ours must give ECMA-262's verdict.
const JSONSCHEMA_DEPARTS: &[(&str, &str, bool, &str)] = &[
    (
        r"^\<[a-z]+\>$",
        "<div>",
        true,
        "Annex B reads `\\<` as `<`; Rust's regex reads it as a start-of-word assertion",
    ),
    (
        r"^.+$",
        "a\rb",
        false,
        "ECMA-262's `.` excludes every line terminator (\\r too); Rust's only `\\n`",
    ),
    (
        r"^.+$",
        "a\u{2028}b",
        false,
        "ECMA-262's `.` excludes U+2028 LINE SEPARATOR; Rust's only `\\n`",
    ),
];

#[test]
fn real_world_patterns_agree_with_the_jsonschema_crate() {
    let mut disagree = Vec::new();
    let mut checked = 0;
    for (pattern, strings) in TABLE {
        let schema = json!({"type": "string", "pattern": pattern});
        let ours =
            Validator::new(&schema).unwrap_or_else(|e| panic!("ours refuses {pattern:?}: {e}"));
        let theirs = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("jsonschema refuses {pattern:?}: {e}"));
        for s in *strings {
            let v = json!(s);
            checked += 1;
            if let Some((.., ecma, why)) = JSONSCHEMA_DEPARTS
                .iter()
                .find(|(p, t, ..)| p == pattern && t == s)
            {
                assert_eq!(ours.is_valid(&v), *ecma, "{pattern:?} on {s:?}: {why}");
                assert_ne!(
                    theirs.is_valid(&v),
                    *ecma,
                    "{pattern:?} on {s:?}: no longer departs"
                );
                continue;
            }
            if ours.is_valid(&v) != theirs.is_valid(&v) {
                disagree.push(format!(
                    "{pattern:?} on {s:?}: ours {}, jsonschema {}",
                    ours.is_valid(&v),
                    theirs.is_valid(&v)
                ));
            }
        }
    }
    println!("{} patterns, {checked} strings", TABLE.len());
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}
