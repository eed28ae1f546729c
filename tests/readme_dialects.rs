//! The README's dialect table is generated from the converter's rule tables
//! (`Dialect::rules`): this test renders the table and requires the README to hold exactly that
//! text between its markers. On a difference it prints the table to paste.

use schema_core::convert::{Bounds, DialectRules, Lengths, MinItems, Patterns, RootUnion, Unknown};
use schema_core::Dialect;

/// The columns: LM Studio and Ollama share llama.cpp's table (checked below).
const COLUMNS: [(&str, Dialect); 8] = [
    ("JsonSchema", Dialect::JsonSchema),
    ("OpenAi", Dialect::OpenAi),
    ("Anthropic", Dialect::Anthropic),
    ("Gemini", Dialect::Gemini),
    ("LlamaCpp, LmStudio, Ollama", Dialect::LlamaCpp),
    ("Llguidance", Dialect::Llguidance),
    ("Xgrammar", Dialect::Xgrammar),
    ("Vllm", Dialect::Vllm),
];

type Row = (&'static str, fn(&DialectRules) -> String);

fn rows() -> Vec<Row> {
    vec![
        ("`Option<T>` property", |r| {
            if r.all_required {
                "required and nullable"
            } else {
                "optional"
            }
            .into()
        }),
        ("objects", |r| {
            if r.closed_objects {
                "closed; a map as `{key, value}` entries (closed with `close_maps`)".into()
            } else {
                "as rendered".into()
            }
        }),
        ("root", |r| {
            if r.root_object {
                "an object (another root wrapped in `{\"value\": ...}`)"
            } else {
                "any schema"
            }
            .into()
        }),
        ("tagged union at the root", |r| {
            match r.root_union {
                RootUnion::Kept => "`anyOf`",
                RootUnion::OneObject => "one object, tag as `enum`",
                RootUnion::AnyOf => "`anyOf` of closed objects (one object with `one_object`)",
                _ => "?",
            }
            .into()
        }),
        ("`minLength` / `maxLength`", |r| match r.lengths {
            Lengths::Kept => "kept".into(),
            Lengths::KeptUpTo(n) => format!("kept up to {n}, longer tagged"),
            Lengths::KeptUpToWithoutPatternOrFormat(n) => {
                format!("kept up to {n}, longer tagged; tagged beside `pattern` / `format`")
            }
            Lengths::KeptWithoutPatternOrFormat => {
                "kept; tagged beside `pattern` / `format`".into()
            }
            Lengths::Tagged => "tagged".into(),
            _ => "?".into(),
        }),
        ("`pattern`", |r| {
            let p = match r.patterns {
                Patterns::Kept => "kept",
                Patterns::SimpleOnly => "kept without lookaround / backreferences",
                Patterns::AnchoredSimple => {
                    "kept when anchored (`^...$`), without lookaround / backreferences"
                }
                Patterns::Tagged => "tagged",
                _ => "?",
            };
            if r.patterns_in_items || r.patterns == Patterns::Tagged {
                p.into()
            } else {
                format!("{p}, tagged inside array items")
            }
        }),
        ("integer bounds", |r| bounds(r.integer_bounds)),
        ("number bounds", |r| bounds(r.number_bounds)),
        ("`minItems` / `maxItems`", |r| {
            match (r.min_items, r.max_items) {
                (MinItems::Kept, true) => "kept".into(),
                (MinItems::ZeroOrOne, false) => "`minItems` 0 or 1, the rest tagged".into(),
                (m, x) => format!("{m:?} / {x}"),
            }
        }),
        ("`const`", |r| {
            if r.const_kept {
                "kept"
            } else {
                "one-value `enum`"
            }
            .into()
        }),
        ("tuples (`prefixItems`)", |r| {
            if r.tuples {
                "kept"
            } else {
                "an object `{_0, _1, ...}`"
            }
            .into()
        }),
        ("`patternProperties`", |r| {
            match (r.pattern_properties, r.pattern_properties_compiled) {
                (false, _) => "dropped (reported)",
                (true, false) => "kept",
                (true, true) => "kept where llguidance compiles them (simple, disjoint), else dropped (reported)",
            }
            .into()
        }),
        ("`format`", |r| {
            if r.formats.is_empty() {
                "kept".into()
            } else {
                format!("{}; others tagged", r.formats.join(", "))
            }
        }),
        ("recursion", |r| match (r.recursion, r.cycles_need_exit) {
            (false, _) => "written out 3 levels deep, then any value".into(),
            (true, false) => "`$ref`".into(),
            (true, true) => "`$ref`, cycles through an optional property".into(),
        }),
        ("keyword it does not support", |r| {
            match r.unknown_keywords {
                Unknown::Error => "request refused",
                Unknown::Warning => "ignored, with a warning",
                Unknown::Ignored => "ignored silently",
                Unknown::NotApplicable => "",
                _ => "?",
            }
            .into()
        }),
        ("limits checked", |r| {
            let l = &r.limits;
            let mut parts = Vec::new();
            let mut put = |v: Option<usize>, what: &str| {
                if let Some(n) = v {
                    parts.push(format!("{n} {what}"));
                }
            };
            put(l.properties, "properties");
            put(l.object_depth, "levels");
            put(l.enum_values, "enum values");
            put(l.chars, "chars");
            put(l.optional_properties, "optional properties (per request)");
            put(l.unions, "unions (per request)");
            parts.join(", ")
        }),
    ]
}

fn bounds(b: Bounds) -> String {
    match b {
        Bounds::All => "kept",
        Bounds::NoMultipleOf => "kept; `multipleOf` tagged",
        Bounds::Plain => "`minimum` / `maximum` kept, others tagged",
        Bounds::None => "tagged",
        _ => "?",
    }
    .into()
}

/// The README section, generated.
fn table() -> String {
    let mut out = String::from("| rule |");
    for (name, _) in COLUMNS {
        out.push_str(&format!(" {name} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(COLUMNS.len()));
    out.push('\n');
    for (rule, cell) in rows() {
        out.push_str(&format!("| {rule} |"));
        for (_, d) in COLUMNS {
            out.push_str(&format!(" {} |", cell(d.rules())));
        }
        out.push('\n');
    }
    out.push_str("\nSources:\n");
    for (name, d) in COLUMNS {
        out.push_str(&format!("- {name}: {}\n", d.rules().source));
    }
    out
}

#[test]
fn readme_dialect_table_is_generated_from_the_rule_tables() {
    assert_eq!(Dialect::LmStudio.rules(), Dialect::LlamaCpp.rules());
    let ollama = Dialect::Ollama.rules();
    let llama = Dialect::LlamaCpp.rules();
    for (rule, cell) in rows() {
        assert_eq!(
            cell(ollama),
            cell(llama),
            "Ollama differs from llama.cpp in {rule}"
        );
    }
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let (start, end) = (
        "<!-- dialect-table:start -->\n",
        "<!-- dialect-table:end -->",
    );
    let from = readme.find(start).expect("README: start marker") + start.len();
    let to = readme.find(end).expect("README: end marker");
    let expected = table();
    assert!(
        readme[from..to] == expected,
        "the README's dialect table differs from the rule tables; generated:\n{expected}"
    );
}
