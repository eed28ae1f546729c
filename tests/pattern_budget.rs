//! Every `pattern` check ends: a pattern without backreferences or lookarounds takes work linear
//! in the string's length (counted in the validator's evaluation steps, not the clock), and a
//! pattern that needs backtracking stops at its step budget with an error that says so.

use schema_core::validate::Validator;
use serde_json::json;

/// A URL pattern real schemas use; backtracking engines take time exponential in the length
/// of a path that fails at its last character.
const URL: &str = r"^(https?:\/\/)?([\da-z\.-]+)\.([a-z\.]{2,6})([\/\w \.-]*)*\/?$";

#[test]
fn url_pattern_work_grows_linearly() {
    let v = Validator::new(&json!({"type": "string", "pattern": URL})).unwrap();
    let mut per_char = Vec::new();
    for len in [10usize, 100, 1_000, 100_000] {
        // The issue's string, its path of `a`s grown to `len` characters in all.
        let prefix = if len < 30 {
            "a.com/"
        } else {
            "https://www.example.com/"
        };
        let s = format!("{prefix}{}!", "a".repeat(len - prefix.len() - 1));
        assert_eq!(s.len(), len);
        assert!(
            !v.is_valid(&json!(s)),
            "{len}: the `!` is outside every class"
        );
        let steps = schema_core::__private::evaluation_steps(&v, &json!(s));
        println!(
            "{len:>7} chars: {steps} steps ({:.1} per char)",
            steps as f64 / len as f64
        );
        per_char.push(steps as f64 / len as f64);
    }
    // Linear: the work per character stays flat from 100 to 100,000 characters (a backtracking
    // engine's would multiply by 4 for every two more characters).
    let (small, large) = (per_char[1], per_char[3]);
    assert!(
        large <= small * 1.5,
        "per-char work grew from {small} to {large}"
    );
    // And the pattern still matches what it should.
    assert!(v.is_valid(&json!("https://www.example.com/a/b c.d")));
    assert!(v.is_valid(&json!("example.org")));
}

#[test]
fn backreference_pattern_stops_at_the_budget() {
    // Each `a` can be taken by either branch: 2^n ways to fail before the `b` is missed.
    let schema = json!({"type": "string", "pattern": r"^(a|a)*\1b$"});
    let v = Validator::builder()
        .pattern_backtrack_limit(10_000)
        .build(&schema)
        .unwrap();
    let s = "a".repeat(60);
    let errors = v.validate(&json!(s)).unwrap_err();
    let e = &errors.errors()[0];
    assert_eq!(e.keyword, "pattern");
    assert!(
        e.found
            .contains("could not be checked within its budget of 10000 backtracking steps"),
        "{e}"
    );
    // Within the budget the same pattern decides both ways.
    assert!(v.is_valid(&json!("aaab")));
    assert!(!v.is_valid(&json!("aab!")));
}

#[test]
fn a_property_name_past_the_budget_is_an_error() {
    let schema = json!({
        "type": "object",
        "patternProperties": {r"^(a|a)*\1b$": {"type": "integer"}},
        "additionalProperties": false
    });
    let v = Validator::builder()
        .pattern_backtrack_limit(10_000)
        .build(&schema)
        .unwrap();
    let key = "a".repeat(60);
    let errors = v.validate(&json!({ key.clone(): 1 })).unwrap_err();
    let e = &errors.errors()[0];
    assert_eq!(e.keyword, "patternProperties", "{errors}");
    assert!(e.found.contains("budget of 10000"), "{e}");
    assert!(v.is_valid(&json!({"aab": 1})));
    assert!(!v.is_valid(&json!({"aab": "x"})));
}
