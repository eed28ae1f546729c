//! The extractor's work grows linearly with the reply, counted in bytes examined (the
//! extractor's own counter, `schema_core::__private::llm_work_counter`), not in seconds: prose with 10k,
//! 100k and 1M rejected candidates costs the same per candidate.

use schema_core::__private::llm_work_counter;
use schema_core::llm::{extract_json, ExtractOptions};

fn work_per_byte(candidates: usize, unit: &str) -> f64 {
    let mut text = unit.repeat(candidates);
    text.push_str("Answer: {\"ok\": true}");
    let opts = ExtractOptions {
        max_len: usize::MAX,
        ..ExtractOptions::default()
    };
    let before = llm_work_counter();
    let x = extract_json(&text, &opts).unwrap();
    assert_eq!(x.json, "{\"ok\": true}");
    let work = llm_work_counter() - before;
    work as f64 / text.len() as f64
}

#[test]
fn rejected_candidates_cost_the_same_at_any_count() {
    // Placeholders, set notation, citations, a mismatched bracket in prose: each is a candidate
    // the search must reject before reaching the answer.
    for unit in ["{name} ", "[see] ", "{a] ", "{ x } "] {
        let small = work_per_byte(10_000, unit);
        let mid = work_per_byte(100_000, unit);
        let large = work_per_byte(1_000_000, unit);
        assert!(
            small > 0.5,
            "{unit:?}: the counter saw too little work ({small})"
        );
        for (n, w) in [(100_000, mid), (1_000_000, large)] {
            assert!(
                w <= small * 1.1 + 0.01,
                "{unit:?}: {w:.3} bytes examined per byte at {n} candidates vs {small:.3} at 10k"
            );
        }
        assert!(small < 8.0, "{unit:?}: {small} bytes examined per byte");
        println!("{unit:?}: {small:.3} / {mid:.3} / {large:.3} bytes examined per byte at 10k / 100k / 1M");
    }
}
