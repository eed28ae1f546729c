//! Streaming cost, as ratios measured in the same run: a ~180 KB research reply (seed 004's
//! universal response) pushed into `UniversalResponse::stream()` in 64-, 16- and 1-byte chunks,
//! against one `from_json` of the whole text (target: pushing costs at most 2x), and against
//! what instructor and pydantic-ai do: re-parse the accumulated text on every chunk (here the
//! cheapest form of it, `serde_json::from_str::<Value>` of the prefix, without any repair or
//! validation).
//!
//! Run with `cargo bench --bench stream`. Timings are interleaved (every contender timed back to
//! back in each round, medians of per-round ratios), so machine-load drift hits them alike.
//!
//! The stable figure is the instruction count: `cargo bench --bench stream -- --one <what>` runs
//! one contender once (`json`, or a chunk size: `64`, `16`, `1`; `none` for the setup alone;
//! `cut64`, `cut16`, `cut1` for the setup and the cutting into chunks), for `valgrind
//! --tool=callgrind`; the ratio is (count(N) - count(cutN)) / (count(json) - count(none)).
//! `--two <what>` runs the contender twice: count(`--two` X) - count(`--one` X) is a run after
//! the type's one-time set-up (the steady state of a program that reads many replies of one
//! type), with (count(`--two` cutN) - count(`--one` cutN)) taken off for a chunk size.
//!
//! Instruction counts (callgrind, 2026-11-24, branch s25): one `from_json` 5.38 M on its first
//! call (its plan built), 4.09 M after. Pushing, first call (which includes the type's
//! validator, compiled once per type and kept in its `TypeCache`: 1.18 M) and then steady
//! state: 64-byte chunks 7.72 M (1.43x) / 6.54 M (1.60x); 16-byte chunks 8.86 M (1.65x) /
//! 7.79 M (1.90x); 1-byte chunks 15.59 M (2.90x) / 14.72 M (3.60x). The 2x target (8.19 M
//! steady) is met for 64-byte and 16-byte chunks, first call and steady state (16-byte steady:
//! 0.40 M under 2x; well above the ~0.13 M the heap's layout alone moves a count, and with the
//! bench's own ~0.09 M below left in), not for 1-byte chunks: the floor below says why.
//!
//! Round s25 (each change measured alone, first / steady; 64-byte 7.74 / 6.56 M, 16-byte 8.89
//! / 7.82 M, 1-byte 16.95 / 16.08 M at its start). Landed, all on the one-byte short path: the
//! short path no longer clears the list of completed values (`arm_quick` arms it only while
//! the list is empty; a byte it takes completes nothing): 1-byte 16.13 / 15.26 M, 16-byte
//! 8.87 / 7.80 M; it checks whether the partial is in `shown` before taking it out (it moves
//! to `stale` once per string, in `make_stale`, not a take and a store per byte): 1-byte
//! 15.82 / 14.94 M; `arm_quick` answers at once when the reader is outside a string (after
//! most chunks that give an event, `Reader::quick` and `quick_live` each made their checks):
//! 1-byte 15.59 / 14.72 M, 16-byte 8.86 / 7.79 M, 64-byte 7.72 / 6.54 M.
//! Tried and dropped in s25, the lever the s24 record named (the derived partial's walk from
//! the root, resumed from the open container): a cache of what the walk found at each path
//! step (`apply_each_cached`: a slot per step kept by the reader beside its path, zeroed when
//! the step changes; a derived struct keeps its field's number there, a map its entry's,
//! and the next value under the same step dispatches on the number, not on the key): 16-byte
//! 8.89 / 7.82 -> 9.12 / 7.99 M, worse. Why: the key compare it spares is a few inlined
//! 8-byte compares (no `bcmp` call since an earlier round), ~10 of the ~45-60 instructions a
//! level costs; the rest is the level's call frame and its dispatch, which the cache keeps and
//! adds a slot's load, test and store to; with the cached walks of the derived types and the
//! `Vec` `#[inline(always)]` (one function per value walk): 8.91 / 7.78 M, no better.
//! `#[inline(always)]` on the derived structs'
//! `apply_each` (levels merged into their parents, fewer frames): 16-byte 8.85 / 7.78 M
//! (-0.035 M), not worth the generated code it copies into every parent. Measured (a
//! `line-tables-only` build of this binary, 16-byte steady, self counts): the levels above
//! the value's own partial cost ~0.43 M in the 3,557 value walks (the enum `UniversalResponse`
//! ~0.13 M, `ResearchData` with the `Vec` ~0.17 M, `Finding` ~0.13 M) and ~0.15 M in the
//! container `Begin`s and first-chunk walks; the ~1.58 M of the s24 record was inclusive (the
//! values' own partials and their strings' allocations in it). A walk that costs O(1) in the
//! depth needs a reference into the partial kept across pushes (`#![forbid(unsafe_code)]`
//! rules out a pointer) or the open container moved out of the tree and back (type-erased,
//! an allocation per container, and put back at every `partial()`): at most the ~0.43 M
//! above, less its own cost; not tried. Also tried and dropped in s25: a one-byte chunk that
//! gives no event taken in `push` itself by an out-of-line `push_quiet`, before `push_any`
//! (s24's finding again: 1-byte 15.79 / 14.92 M, 16-byte 8.91 / 7.83 M, both worse);
//! `#[inline(always)]` on `Tok::push_key` (16-byte 8.88 / 7.81 M, 1-byte 14.74 M steady: worse).
//!
//! The 1-byte floor (s25, `callgrind_annotate --auto=yes` and per-instruction counts on a
//! `line-tables-only` build, `--two 1` minus `--one 1`; 180,721 pushes, 14.72 M):
//! (a) the cheapest push, a plain byte inside a string or key on the short path (160,054 of
//! them), costs 32.7 instructions from the caller's loop and back: 7 the bench's loop (the
//! slice iterator, `black_box`), 25.7 `push` inlined into it (length 1, the byte, `quick`,
//! the `PLAIN` table: 10; the size limit: 4; `String::push`: 6; the reader's position: 1; the
//! update's `changed` and the `shown` check: 4.7): 5.23 M.
//! (b) the other 20,667 pushes go through `push_any` (its frame ~27 each): 8,114 give no
//! event (`:`, `,`, whitespace, a digit or letter that continues a number or literal, a
//! key's opening quote) at ~124 each with the loop (`quiet_byte` 34 of it): 1.0 M; 2,833
//! continue a string the checker follows (an enum value) at ~237 each (`Checker::text` 110):
//! 0.67 M; 9,720 give an event (a value's first or last byte, a key's closing quote) at ~700
//! each, ~400 of it fixed (`push_any` ~165, the tokenizer's entry and bytes ~195, a failed
//! `quiet_byte` for 4,211 of them) and ~300 the event's own work: 6.8 M.
//! (c) the values' own work (the sink's `done` 1.55 M and `begin` 0.62 M, key and index steps
//! 0.34 M, a string's first-chunk walk 0.43 M at 1 byte, the checker's enum prefixes 0.31 M,
//! the partial's drop 0.45 M): ~3.7 M at 1 byte, ~3.2 M at 16 bytes (`done` 1.58 M, `begin`
//! 0.62 M, keys and indices 0.35 M, first-chunk walks 0.05 M, enum prefixes 0.11 M, route
//! look-ups 0.06 M, drop 0.43 M).
//! So: 180,721 pushes x 32.7 (every byte on today's cheapest path, the caller's loop
//! included) = 5.91 M, plus the values' work measured at 16 bytes, 3.2 M, is 9.1 M: 2.22x one
//! steady `from_json`, against 2x = 8.19 M, before any byte that gives an event pays more than
//! the cheapest one. With `push(&str) -> Update` validating every byte, 1-byte chunks cannot
//! reach 2x; even a push cut to 16 instructions, with the loop's 7 (4.2 M), leaves ~0.8 M for the
//! 9,720 event bytes' fixed cost, against ~3.9 M today. Reaching it needs another design: one
//! call taking a batch of tiny deltas, or a caller that coalesces them.
//!
//! Round s24 (each change measured alone, 16-byte first / steady; all taken at 64 and 1 byte
//! too, none worse there unless said): the per-value calls made cheaper. The checker's `begin`
//! and `done` `#[inline]` (the sink is generic: cross-crate) 9.514 / 8.430 -> 9.478 / 8.396 M;
//! the tokenizer's check for a pending high surrogate at each string's close inlined (its rare
//! write out of line) -> 9.456 / 8.372; the sink's `key` inlined -> 9.406 / 8.325; a scalar
//! whose end needs no check whatever it is (no node, or a node whose `static_needs` flags rule
//! the full check out for its kind) marked quiet at its start, the checker's `done` returning
//! at once for it (it called `scalar_done` out of line at each end) -> 9.316 / 8.234; the
//! sink's `begin` inlined -> 9.218 / 8.137 (1.986x); the tokenizer's `begin_value`
//! `#[inline(always)]` into its loop (the sink's and checker's `begin` in it: no call per
//! value) -> 9.154 / 8.073; a `Vec` partial's new item pushed out of line -> 9.132 / 8.052; the
//! reader's value mode taken before its other modes, without the progress guard (a copy and
//! compare of mode and position per chunk) -> 9.095 / 8.015; the path of a scalar that goes
//! on in the next chunk asked for only when there is one (`Reader::path` was called out of
//! line per chunk) -> 9.038 / 7.956 (1-byte -0.12 M); a `Leaf`'s short plain string checked
//! and copied in one pass (`Short::plain`; a scan, then a `memcpy` call, before) -> 8.974 /
//! 7.896; the partials' `apply_each` fallbacks out of line in one `apply_one_by_one` -> 8.934 /
//! 7.853, and `begin_text_one_by_one` -> 8.927 / 7.844; the sink's `done`'s rare paths (a
//! refused value, a watched array's item) out of line -> 8.897 / 7.817. For 1-byte chunks
//! (18.43 / 17.54 M at the round's start): a one-byte chunk inside a string or key that the
//! short paths did not take goes to the tokenizer without trying `quiet_byte` (-0.07 M); the
//! enum-prefix check tries first the value the text began before (-0.10 M);
//! `Reader::live_text` inlined (-0.04 M); `Option<String>` answers `apply_begin_text` itself
//! (a string's first chunk, its opening quote alone at 1 byte: one call, not two `apply`s;
//! -0.15 M); a one-byte chunk that gives no event sets the short-path flags itself (it leaves
//! the reader in a key it just opened or outside any string: `arm_quick` asked the reader
//! twice; a debug assertion holds them equal in the tests; -0.29 M, to 16.96 / 16.08 M). Tried
//! and dropped in s24: `#[inline]` on the sink's `done` (no change;
//! `#[inline(always)]`: +0.013 M), `#[inline]` on `begin_value` (no change) and its top-level
//! call kept out of line (no change), `#[inline]` on `quiet_byte` (1-byte -0.09 M but 16-byte
//! +0.03 M: the `in_string` gate above instead), the enum-prefix check comparing only the new
//! bytes against the remembered value (1-byte -0.01 M, 16-byte +0.02 M), the short path's
//! flag and size check folded into one count of bytes left (1-byte +0.55 M: the loop compiled
//! worse), `push_any`'s and `feed`'s error paths out of line (no change). Not changed: the
//! bench's method (cutting the chunk list once before both runs of `--two` would take the
//! bench's own ~0.09 M out of the steady figure; not needed for the target, so the figures
//! stay comparable with the earlier rounds').
//!
//! Where the 16-byte steady state went after s24 (a `line-tables-only` build, whose inlining differs
//! a little; inclusive counts): the derived partial's walks from the root ~1.58 M (one per
//! value: 2,903 with a scalar's events at its end, 654 container `Begin`s; the strings'
//! allocations included), the sink's `begin` (the checker's, and the containers' walks'
//! entry) ~0.62 M, the sink's `done` outside the walk ~0.43 M, key path steps 0.29 M, the
//! tokenizer's own ~1.53 M; the rest is the pushes' entry, the text's append and the
//! allocator. The lever named then, the derive's walk resumed from the open container
//! instead of the root, was tried in s25 (above).
//!
//! Round s23, same method (before it 9.65 M / 8.57 M at 16 bytes): a chunk
//! of two bytes or more that only continues the string being read, its first text given, is
//! taken in `push` itself (`Reader::run_due` scans it before it is appended), without
//! `push_any`'s frame (~20 instructions of register saves), the tokenizer's entry and
//! `arm_quick`; a chunk that only starts so keeps that scan for `extend_string`: 16-byte
//! 9.65 M / 8.57 M -> 9.51 M / 8.43 M; it costs 64-byte +0.03 M and 1-byte +0.23 M (a 1-byte
//! chunk never takes it: the inlined `push` in the bench's loop compiles worse). Tried and
//! dropped in s23: the same short path out of line in its own `push_long` (16-byte 9.70 M:
//! worse than none), `run_due`'s scan handed to `push_any` as an argument (1-byte +0.44 M),
//! `push`'s one-byte branch returning `push_any` itself (worse at 16 and 1 bytes), the size
//! limit's error built in a `#[cold]` function (+0.02 M). Round s22, same method: before it
//! 8.60 M / 7.31 M, 10.16 M / 8.87 M, 18.42 M / 17.59 M; in it, each measured alone: the plain-run
//! scan's last bytes (fewer than a word) tested by one table load a byte, not three
//! comparisons (16-byte 10.16 M / 8.88 M -> 10.10 M / 8.81 M); a `Leaf` keeps a complete short
//! plain string (a string enum's value, up to 15 bytes) in place, its `Value` made only when
//! `json()` asks (no allocation per enum value: 9.76 M / 8.80 M; 64-byte steady -0.23 M, 1-byte
//! -0.37 M); a `Leaf`'s other values boxed, so a `Vec` of struct partials, which moves every
//! leaf each time it grows (a copy the steady state pays in full: the first run's large blocks
//! are mapped and grow by remapping, the second run's come from the heap and are copied), moves
//! less (9.65 M / 8.57 M). Tried and dropped in s22: a dropped stream handing its text
//! buffer (emptied, up to 1 MiB) to the thread's next stream (steady 8.40 M, 64-byte 6.81 M:
//! dropped by the coordinator, a library should not keep a hidden buffer per thread alive);
//! `#[inline]` on the reader's small helpers called across the crate boundary (`path`,
//! `push_index`, `flush_high`: +0.01 M); the cut list sized up front (`Vec::with_capacity` in
//! `chunks`: the steady 16-byte figure +0.1 M, the heap's layout moved, not the work). Earlier
//! rounds tried and dropped (each measured): the string scan's last bytes as one shifted word
//! (+0.4 M: the loop compiled worse), the tokenizer part of a push out of line (+0.06 M), a
//! separate function for one-byte chunks that give no event (+0.2 M at 1 byte), a container's
//! `Begin` kept back until the first walk below it (-0.01 M, not worth its bookkeeping), a
//! string enum's first-chunk walk skipped by route (-6 K at 16 bytes, +40 K at 1 byte).
//!
//! The fixed costs per push (s23, `callgrind_annotate --auto=yes` on a `--two 16` out file of
//! a `line-tables-only` build of this binary, same counts): of 11,296 pushes, 6,429 only
//! continue a string (now the short path in `push`) and 4,867 reach the tokenizer; `push_any`
//! spent ~62 instructions of its own per push, ~20 of them its prologue and epilogue (the
//! callee-saved registers of a function `feed` is inlined into), ~4 `arm_quick`, ~3 the error
//! check, the rest the append, the size check and `extend_string`; `Reader::feed` ~12 of
//! prologue and ~11 saving its mode and position per call. What is left of the 0.24 M is this
//! per-call entry of the tokenizer's chunks and the per-value work below.
//!
//! Where the 16-byte steady state went before s23 (8.57 M with the text's growth, 8.40 M without; 11,296 pushes, 3,557 values, 2,606 keys;
//! callgrind, self counts): the tokenizer ~2.26 M (per-byte work outside strings and the string
//! scans, ~150 fixed per chunk it reads: 4,867 of the pushes reach it); `push` itself ~1.77 M
//! (~75 fixed per push, the append, the 8-bytes-at-a-time scan of a chunk that only continues a
//! string); the allocator ~0.85 M (the partial's strings, one allocation each as `from_json`'s;
//! `from_json`'s own allocator count is ~1.05 M) and `memcpy` 0.37 M (the chunks' append
//! 0.11 M, the partial's `Vec` growth, the bench's cut list: below); the typed partial ~0.75 M (one walk per value from
//! the root: the response, the research data, the list, the finding, the field); the early-stop
//! checker ~0.88 M (`begin` 0.32 M, `done` 0.26 M, `key` ~0.2 M, `text` 0.09 M); the sink's
//! `done` 0.32 M and the tokenizer's `begin_value` 0.31 M; key path steps 0.26 M; the bench's
//! loop 0.17 M. Of the 0.38 M the steady state still needs (0.17 M of it the text's growth), ~0.09 M is the bench's own: the cut
//! list of the second run grows (by doubling) on the heap the first run's stream left and its
//! reallocations copy more than in the `cut16` run it is subtracted with (0.14 M against
//! 0.05 M). No single part left is near the rest: what is left is per push and per value, each
//! already small.
//!
//! The 1-byte floor as s23 measured it (s24 cut ~1.5 M of it, to 16.08 M steady, mostly the
//! events' work and the quiet bytes' own; s25's account is above):
//! of 180,721 pushes, 162,887 continue a string or a key and take the
//! inlined short path (~35 instructions each, the bench's loop and `changed()` included:
//! 5.7 M). The other 17,834 go through `push_any` (~157 instructions of its own each on
//! average, plus ~28 for `Reader::quiet_byte`): 5,281 give no event (`:`, `,`, whitespace, a
//! digit), 2,833 continue a string the checker follows (an enum value: plus ~190 for the
//! check), 9,720 give an event (a value's first or last byte, a key's closing quote) and go
//! through the tokenizer, ~165 more of fixed cost each, on top of the event's own work, which
//! is about the same as with 16-byte chunks (~5.5 M; a string's first chunk is its opening
//! quote alone, so routes cannot spare its walk: whether the partial changes then depends on
//! what it holds). 2x would be 10.8 M, ~60 instructions a byte all included: the short path
//! and the events' own work already pass it, so 1-byte chunks cannot reach 2x without the
//! events' work itself getting cheaper.

//! Earlier figures, same method (64, 16, 1 bytes, first / steady): 7.75 M / 6.56 M, 8.90 M /
//! 7.82 M, 16.96 M / 16.08 M after s24 (1.44x / 1.60x, 1.65x / 1.91x, 3.15x / 3.92x); 9.09 M / 7.78 M, 10.75 M /
//! 9.46 M, 18.52 M / 17.69 M two rounds ago (before the partials' routes); 10.08 M / 8.89 M,
//! 11.75 M / 10.68 M, 18.94 M / 18.00 M three rounds ago; 12.29 M (2.2x), 14.35 M (2.6x), 36.13 M (6.6x)
//! before the events of a value read within one chunk went to the partial in one `apply_each`,
//! plain strings were read in place (not copied to the tokenizer's buffer) and the one-byte
//! short path was added; 17.9 M (3.9x), 24.5 M (5.4x) and about 101 M (22x) before the partial
//! was updated lazily (those two in a separate small release binary).

use schema_core::stream::provider::{Api, EventStream};
use schema_core::AgentSchema;
use schema_suite::seed004::UniversalResponse;
use serde_json::{json, Value};
use std::hint::black_box;
use std::time::Instant;

const LEVELS: [&str; 3] = ["high", "medium", "low"];

/// The research reply of `benches/parse.rs` (about 180 KB).
fn large_reply() -> String {
    let findings: Vec<Value> = (0..650)
        .map(|i| {
            json!({
                "topic": format!("Finding number {i} about database migrations"),
                "description": format!("Migration file {i} defines the users table with an index on email; it runs after the seed scripts and is reversible."),
                "source_file": format!("database/migrations/{i:04}_create_users.js"),
                "relevance": LEVELS[i % 3],
            })
        })
        .collect();
    let sources: Vec<String> = (0..300)
        .map(|i| format!("src/module_{i}/index.ts"))
        .collect();
    json!({
        "response_type": "research",
        "status": "success",
        "message": "Found many migration locations",
        "research_data": {"findings": findings, "sources": sources},
    })
    .to_string()
}

fn chunks(text: &str, n: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let mut j = (i + n).min(text.len());
        while !text.is_char_boundary(j) {
            j += 1;
        }
        out.push(&text[i..j]);
        i = j;
    }
    out
}

/// The reply as an OpenAI Chat Completions body of server-sent events, one `n`-byte delta per
/// event (with the envelope each chunk carries), a finish and `[DONE]`.
fn sse_body(text: &str, n: usize) -> Vec<u8> {
    let mut body = String::new();
    for delta in chunks(text, n) {
        let event = json!({"id": "chatcmpl-b", "object": "chat.completion.chunk", "created": 1764300000,
            "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"content": delta}, "finish_reason": null}]});
        body.push_str("data: ");
        body.push_str(&event.to_string());
        body.push_str("\n\n");
    }
    body.push_str("data: {\"id\":\"chatcmpl-b\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
    body.into_bytes()
}

/// Pushes the body in 4 KiB network reads.
fn push_body(body: &[u8]) -> EventStream<UniversalResponse> {
    let mut s = EventStream::<UniversalResponse>::new(Api::OpenAiChat);
    for read in body.chunks(4096) {
        black_box(s.push_body(read).unwrap());
    }
    s
}

fn time(f: &dyn Fn()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_nanos() as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs one contender once (for callgrind); the chunks are cut before it starts.
fn one(text: &str, what: &str) {
    // `cutN` cuts the chunks alone, so that (`N` - `cutN`) is the pushing alone
    if let Some(n) = what.strip_prefix("cut") {
        black_box(chunks(text, n.parse().unwrap_or(1)));
        return;
    }
    if let Some(n) = what.strip_prefix("sse") {
        // `sseN`: the body of N-byte deltas through `push_body` (the body built first: subtract
        // `ssebuildN`).
        let body = sse_body(text, n.trim_start_matches("build").parse().unwrap_or(16));
        if !n.starts_with("build") {
            black_box(push_body(&body));
        }
        black_box(body);
        return;
    }
    match what {
        "none" => {}
        "json" => {
            black_box(UniversalResponse::from_json(black_box(text)).unwrap());
        }
        _ => {
            let parts = chunks(text, what.parse().unwrap_or(1));
            let mut s = UniversalResponse::stream();
            for p in &parts {
                black_box(s.push(p).unwrap().changed());
            }
            black_box(s);
        }
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let text = large_reply();
    if let Some(at) = std::env::args().position(|a| a == "--one") {
        let what = std::env::args().nth(at + 1).unwrap_or_default();
        one(&text, &what);
        return;
    }
    // The steady state: the contender run twice, so that count(`--two` X) - count(`--one` X)
    // is a run after the type's one-time set-up (its validator, its fast path's plan).
    if let Some(at) = std::env::args().position(|a| a == "--two") {
        let what = std::env::args().nth(at + 1).unwrap_or_default();
        one(&text, &what);
        one(&text, &what);
        return;
    }
    let expected = UniversalResponse::from_json(&text).expect("valid");
    let from_json = || {
        black_box(UniversalResponse::from_json(black_box(&text)).unwrap());
    };
    let push_all = |parts: &[&str]| {
        let mut s = UniversalResponse::stream();
        for p in parts {
            black_box(s.push(p).unwrap().changed());
        }
        s
    };
    // Sanity: the streamed value is the value.
    assert_eq!(push_all(&chunks(&text, 16)).finish().unwrap(), expected);
    println!("reply: {} bytes", text.len());

    const ROUNDS: usize = 21;
    for n in [64, 16, 1] {
        let parts = chunks(&text, n);
        let (mut push, mut push_finish) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let base = time(&from_json);
            let p = time(&|| {
                black_box(push_all(&parts));
            });
            let pf = time(&|| {
                black_box(push_all(&parts).finish().unwrap());
            });
            push.push(p / base);
            push_finish.push(pf / base);
        }
        println!(
            "{n:>2}-byte chunks ({} pushes): pushing = {:.2}x one from_json; pushing + finish = {:.2}x",
            parts.len(),
            median(push),
            median(push_finish)
        );
    }

    // The HTTP body path: the same deltas as OpenAI Chat server-sent events read by
    // `EventStream::push_body` from 4 KiB reads, against pushing the deltas directly.
    for n in [64, 16] {
        let parts = chunks(&text, n);
        let body = sse_body(&text, n);
        let end = push_body(&body).finish();
        assert_eq!(end.value.unwrap(), expected);
        // What a caller writes without `push_body`: split the lines, parse each `data:` into a
        // `Value`, `push_event` it.
        let by_hand = || {
            let mut s = EventStream::<UniversalResponse>::new(Api::OpenAiChat);
            for line in body.split(|&b| b == b'\n') {
                if let Some(data) = line.strip_prefix(b"data: ") {
                    if data != b"[DONE]" {
                        let v: Value = serde_json::from_slice(data).unwrap();
                        black_box(s.push_event(&v).unwrap());
                    }
                }
            }
            s
        };
        let (mut vs_deltas, mut vs_hand) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let direct = time(&|| {
                black_box(push_all(&parts));
            });
            let bytes = time(&|| {
                black_box(push_body(&body));
            });
            let hand = time(&|| {
                black_box(by_hand());
            });
            vs_deltas.push(bytes / direct);
            vs_hand.push(bytes / hand);
        }
        println!(
            "{n:>2}-byte deltas as server-sent events ({} bytes of body, {} events): push_body = {:.2}x pushing the deltas into the stream, {:.2}x splitting the lines and push_event of each parsed Value",
            body.len(),
            parts.len(),
            median(vs_deltas),
            median(vs_hand)
        );
    }

    // Re-parsing the accumulated text on every chunk is quadratic: timed once per chunk size
    // (a 1-byte run would take minutes; it is extrapolated from the 16-byte one).
    let base = median((0..ROUNDS).map(|_| time(&from_json)).collect());
    let mut per16 = 0.0;
    for n in [64, 16] {
        let parts = chunks(&text, n);
        let stream = median(
            (0..5)
                .map(|_| {
                    time(&|| {
                        black_box(push_all(&parts));
                    })
                })
                .collect(),
        );
        let reparse = time(&|| {
            let mut acc = String::new();
            for p in &parts {
                acc.push_str(p);
                black_box(serde_json::from_str::<Value>(black_box(&acc)).is_ok());
            }
        });
        if n == 16 {
            per16 = reparse;
        }
        println!(
            "{n:>2}-byte chunks: re-parsing the accumulated text per chunk = {:.0}x one from_json, {:.0}x the stream",
            reparse / base,
            reparse / stream
        );
    }
    let parts = chunks(&text, 1);
    let stream1 = median(
        (0..5)
            .map(|_| {
                time(&|| {
                    black_box(push_all(&parts));
                })
            })
            .collect(),
    );
    println!(
        " 1-byte chunks: re-parsing per chunk ≈ {:.0}x one from_json, {:.0}x the stream (extrapolated: 16 x the 16-byte run)",
        16.0 * per16 / base,
        16.0 * per16 / stream1
    );
}
