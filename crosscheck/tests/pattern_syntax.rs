//! The derive's compile-time `pattern` check (`schema_pattern::parse`, the reader with no regex
//! engine that `schema-macros` calls) accepts exactly the patterns the validator compiles
//! (`Validator::new` of `{"pattern": p}`, which reads them with the same reader, rewrites them
//! for its engines in `schema-core/src/validate/pattern/ecma.rs` and builds those engines, which
//! may refuse what was written): on hand-written cases, on every pattern of the
//! JSON-Schema test suite (`JSON_SCHEMA_TEST_SUITE`) and of `tests/fixtures/`, on every Unicode
//! property name and value in each form, on group names with every code point, and on 200,000
//! generated patterns built from the grammar's tokens. (The MCP corpus has no `pattern`.)

/// What the derive checks.
mod pattern {
    pub fn check(p: &str) -> Result<(), &'static str> {
        schema_pattern::parse(p).map(drop).map_err(|e| e.message)
    }
}

use serde_json::Value;

/// Patterns where the two disagree, with what each says.
#[derive(Default)]
struct Compare {
    total: usize,
    accepted: usize,
    disagree: Vec<String>,
}

impl Compare {
    fn one(&mut self, p: &str) {
        let ours = pattern::check(p);
        let engine = schema_core::validate::Validator::new(&serde_json::json!({ "pattern": p }));
        self.total += 1;
        if engine.is_ok() {
            self.accepted += 1;
        }
        if ours.is_ok() != engine.is_ok() {
            self.disagree.push(format!(
                "{p:?}: derive {:?}, engine {:?}",
                ours.err(),
                engine.err().map(|e| e.to_string())
            ));
        }
    }

    fn assert_agree(&self, what: &str) {
        println!(
            "{what}: {} patterns, {} valid, {} disagreements",
            self.total,
            self.accepted,
            self.disagree.len()
        );
        assert!(
            self.disagree.is_empty(),
            "{what}: {} disagreements, first ones:\n{}",
            self.disagree.len(),
            self.disagree[..self.disagree.len().min(30)].join("\n")
        );
    }
}

#[test]
fn hand_written_cases_agree() {
    let cases = [
        // Valid.
        "",
        "a",
        "^[a-z]+$",
        r"^\d{3}-\d{4}$",
        r"\p{L}+",
        r"\p{Lu}",
        r"\p{gc=Lu}",
        r"\p{General_Category=Letter}",
        r"\p{sc=Latin}",
        r"\p{Script_Extensions=Grek}",
        r"\P{Alphabetic}",
        r"[\p{L}\d_-]",
        r"(?<year>\d{4})-\k<year>",
        r"(a)\1",
        r"(?:x|y)*?",
        r"(?=a)b",
        r"(?<=a)b",
        r"(?<!a)b",
        r"(?i:abc)",
        r"(?i-s:a.)",
        r"(?-i:a)",
        r"\u{1F600}",
        r"\u0041",
        r"\uD83D\uDE00",
        r"\uD83D",
        r"\uD83D\u0041",
        r"\uD83D\uZZZZ",
        r"\u{+41}",
        r"[\b]",
        r"[\-]",
        r"[a-]",
        r"[-a]",
        r"\cA",
        r"\0",
        r"\x41",
        r"\/",
        r"a{2}",
        r"a{2,}",
        r"a{2,3}",
        r"a{3,3}?",
        r"\b+",
        r"[]",
        r"[^]",
        r"(?<a>x)|(?<a>y)",
        r"(?<$_>a)",
        r"(?<\u0061b>a)",
        "(?<é>a)",
        "(?<a\u{200C}b>a)",
        r"\k",
        r"a|",
        r"|",
        r"()",
        r"[\]]",
        // Annex B identity escapes of characters other than ASCII letters and digits.
        r"^[a-z0-9\-\_\.]+$",
        r"\:\-\_\%\@\<\>\#\&\~\`\=\!\,\;\'\ ",
        r"[\:\%\@\<\>\_]",
        r"\é",
        // Invalid.
        "(",
        ")",
        "[",
        "a{",
        "a{2",
        "a{,2}",
        "{",
        "}",
        "]",
        "*",
        "a**",
        "a{3,2}",
        r"\",
        r"\a",
        r"\-",
        r"\8",
        r"\00",
        r"\01",
        r"\1",
        r"(a)\2",
        r"\k<a>",
        r"(?<a>x)\k<b>",
        r"\p{Foo}",
        r"\p{lu}",
        r"\p{Latin}",
        r"\p{sc=Lu}",
        r"\p{gc=Latin}",
        r"\p{L",
        r"\p",
        r"\pL",
        r"\p{}",
        r"\p{sc=}",
        r"\p{=L}",
        r"\p{gc=L=L}",
        r"\cé",
        r"\c1",
        r"\x4",
        r"\xg0",
        r"\u004",
        r"\u{110000}",
        r"\u{}",
        r"\u{41",
        r"[z-a]",
        r"[\d-z]",
        r"[a-\d]",
        r"(?=a)*",
        r"(?<=a)?",
        "^*",
        "$+",
        r"(?x:a)",
        r"(?ii:a)",
        r"(?i-i:a)",
        r"(?--i:a)",
        r"(?:a",
        r"(?<a>x)(?<a>y)",
        r"(?<1a>x)",
        r"(?<>x)",
        r"(?<a",
        r"(?",
        r"(?)",
        r"(?<",
        r"[\c]",
        r"[\k]",
        r"[\1]",
        r"[\B]",
        r"\uD800\u",
        "a)",
    ];
    let mut c = Compare::default();
    for p in cases {
        c.one(p);
    }
    c.one(
        &"(".repeat(255)
            .to_string()
            .chars()
            .chain(")".repeat(255).chars())
            .collect::<String>(),
    );
    c.one(
        &"(".repeat(256)
            .to_string()
            .chars()
            .chain(")".repeat(256).chars())
            .collect::<String>(),
    );
    c.assert_agree("hand-written");
    assert!(
        c.accepted > 40 && c.total - c.accepted > 60,
        "both kinds are covered"
    );
}

/// Every name the derive knows as a property, in each form it may take, and near misses.
#[test]
fn unicode_property_names_agree() {
    let mut c = Compare::default();
    use schema_pattern::names::{BINARY, GENERAL_CATEGORY, SCRIPT};
    let names: Vec<&str> = [BINARY, GENERAL_CATEGORY, SCRIPT].concat();
    assert!(names.len() > 500, "{} names", names.len());
    for n in &names {
        let lower = n.to_lowercase();
        let upper = n.to_uppercase();
        let trimmed = &n[..n.len() - 1];
        for v in [*n, lower.as_str(), upper.as_str(), trimmed] {
            for form in [
                "",
                "gc=",
                "General_Category=",
                "sc=",
                "Script=",
                "scx=",
                "Script_Extensions=",
                "Block=",
                "GC=",
            ] {
                c.one(&format!(r"\p{{{form}{v}}}"));
                c.one(&format!(r"[\P{{{form}{v}}}a]"));
            }
        }
    }
    c.assert_agree("property names");
}

/// Group names: every code point as the first and as a later character, and escaped (`\u{..}`)
/// over a spread of them (every one below U+3400, every 61st above, and the code points where
/// `ID_Start` and `XID_Start` differ).
#[test]
fn group_name_characters_agree() {
    let mut c = Compare::default();
    let extra = [
        0x037A, 0x0E33, 0x0EB3, 0x309B, 0x309C, 0xFC5E, 0xFC5F, 0xFC60, 0xFC61, 0xFC62, 0xFC63,
        0xFDFA, 0xFDFB, 0xFE70, 0xFE71, 0xFE72, 0xFE73, 0xFE74, 0xFE76, 0xFE77, 0xFE78, 0xFE79,
        0xFE7A, 0xFE7B, 0xFE7C, 0xFE7D, 0xFE7E, 0xFE7F, 0xFF9E, 0xFF9F, 0x1885, 0x1886, 0x2118,
        0x212E, 0x00B7, 0x0387, 0x1369, 0x19DA, 0x200C, 0x200D, 0x2E2F,
    ];
    for ch in ('\0'..=char::MAX).filter(|&ch| ch != '>') {
        c.one(&format!("(?<{ch}>a)"));
        c.one(&format!("(?<a{ch}>a)"));
    }
    let cps = (0u32..0x3400)
        .chain((0x3400..=0x10FFFF).step_by(61))
        .chain(extra);
    for cp in cps {
        c.one(&format!(r"(?<\u{{{cp:X}}}>a)"));
        c.one(&format!(r"(?<a\u{{{cp:X}}}>a)"));
    }
    c.assert_agree("group names");
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn generated_patterns_agree() {
    const TOKENS: &[&str] = &[
        "a", "b", "z", "0", "1", "2", "9", "\\", "\\\\", "(", ")", "[", "]", "{", "}", "|", "^",
        "$", ".", "*", "+", "?", ",", "-", "=", "!", "<", ">", ":", "(?", "(?:", "(?=", "(?<=",
        "(?<", "(?<a>", "\\k<a>", "\\k", "\\u", "\\u{", "\\x", "\\c", "\\p{", "\\P{", "\\b", "\\B",
        "\\d", "\\w", "\\s", "\\1", "\\0", "\\-", "\\/", "\\]", "{2}", "{1,3}", "{3,1}", "{2,}",
        "d", "k", "p", "u", "x", "c", "i", "m", "s", "_", "L", "Lu", "gc=", "sc=", "Latin",
        "Greek", "Alpha", "41", "ff", "D83D", "DE00", "10FFFF", "110000", "+41", "é", "\u{200C}",
        "\u{FF9E}", "/", " ", "A",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut c = Compare::default();
    let mut p = String::new();
    for _ in 0..200_000 {
        p.clear();
        for _ in 0..1 + rng.below(10) {
            p.push_str(TOKENS[rng.below(TOKENS.len())]);
        }
        c.one(&p);
    }
    c.assert_agree("generated");
    // Both outcomes are common, so the comparison means something either way.
    assert!(c.accepted > 20_000 && c.total - c.accepted > 20_000);
}

/// Every `pattern` and `patternProperties` key in the JSON and JSON-lines files under `dir`
/// (recursively),
/// and the data of tests on the `regex` format.
fn collect_patterns(dir: &std::path::Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_patterns(&p, out);
        } else if p.extension().is_some_and(|e| e == "json" || e == "jsonl") {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            if let Ok(v) = serde_json::from_str::<Value>(&text) {
                walk(&v, out);
            } else {
                // JSON lines.
                for v in text
                    .lines()
                    .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                {
                    walk(&v, out);
                }
            }
        }
    }
}

fn walk(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(p)) = m.get("pattern") {
                out.push(p.clone());
            }
            if let Some(Value::Object(pp)) = m.get("patternProperties") {
                out.extend(pp.keys().cloned());
            }
            // A test group on the `regex` format: its data strings are patterns too.
            if m.get("schema").and_then(|s| s.get("format")) == Some(&Value::from("regex")) {
                for t in m
                    .get("tests")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(Value::String(d)) = t.get("data") {
                        out.push(d.clone());
                    }
                }
            }
            m.values().for_each(|x| walk(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
        _ => {}
    }
}

fn corpus(var: &str, min: usize) {
    let Ok(dir) = std::env::var(var) else {
        println!("{var} not set: its patterns are not compared");
        return;
    };
    let mut patterns = Vec::new();
    collect_patterns(std::path::Path::new(&dir), &mut patterns);
    assert!(
        patterns.len() >= min,
        "{var}: only {} patterns",
        patterns.len()
    );
    let mut c = Compare::default();
    for p in &patterns {
        c.one(p);
    }
    c.assert_agree(var);
}

#[test]
fn json_schema_test_suite_patterns_agree() {
    corpus("JSON_SCHEMA_TEST_SUITE", 100);
}

/// The repository's own fixtures (the converters' corpus, the golden schemas).
#[test]
fn fixture_patterns_agree() {
    let dir = format!("{}/../tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    let mut patterns = Vec::new();
    collect_patterns(std::path::Path::new(&dir), &mut patterns);
    assert!(
        patterns.len() >= 50,
        "fixtures: only {} patterns",
        patterns.len()
    );
    let mut c = Compare::default();
    for p in &patterns {
        c.one(p);
    }
    c.assert_agree("tests/fixtures");
}
