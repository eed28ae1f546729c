//! `Dialect::ALL` lists every dialect, each once.

use schema_core::Dialect;

/// Every variant's place (`Dialect` is `#[non_exhaustive]`: a dialect this test does not know
/// fails it).
fn index(d: Dialect) -> usize {
    match d {
        Dialect::JsonSchema => 0,
        Dialect::OpenAi => 1,
        Dialect::Anthropic => 2,
        Dialect::Gemini => 3,
        Dialect::LmStudio => 4,
        Dialect::Llguidance => 5,
        Dialect::Xgrammar => 6,
        Dialect::LlamaCpp => 7,
        Dialect::Ollama => 8,
        Dialect::Vllm => 9,
        other => panic!("a dialect this test does not know: {other}"),
    }
}

#[test]
fn all_lists_every_dialect_once() {
    let mut seen = [false; 10];
    for d in Dialect::ALL {
        assert!(!seen[index(d)], "{d} listed twice");
        seen[index(d)] = true;
    }
    assert!(seen.iter().all(|s| *s));
    assert_eq!(Dialect::ALL, Dialect::EVERY);
    assert!(Dialect::STANDARD_AND_PROVIDERS
        .iter()
        .all(|d| Dialect::ALL.contains(d)));
}
