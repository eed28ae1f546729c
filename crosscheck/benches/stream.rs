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
//! The HTTP body path: `sseN` reads an OpenAI Chat body of N-byte deltas through
//! `EventStream::push_body`, `sse-anthropicN`, `sse-responsesN`, `sse-geminiN` the other APIs'
//! bodies; `ssebuildN`, `ssebuild-<api>N` build the body alone, and (count(sse…N) -
//! count(ssebuild…N)) / (count(N) - count(cutN)) is the body path against pushing the deltas.
//! `--two <what>` runs the contender twice: count(`--two` X) - count(`--one` X) is a run after
//! the type's one-time set-up (the steady state of a program that reads many replies of one
//! type), with (count(`--two` cutN) - count(`--one` cutN)) taken off for a chunk size.
//!
//! Today's figures and how to read them are in the repository's `BENCHMARKS.md`.

use schema_core::stream::provider::{Api, EventStream};
use schema_core::stream::Stream;
use schema_core::AgentSchema;
use schema_suite::seed004::UniversalResponse;
use serde_json::{json, Value};
use std::hint::black_box;
use std::time::Instant;

const LEVELS: [&str; 3] = ["high", "medium", "low"];

/// Timed rounds per contender.
const ROUNDS: usize = 21;

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

/// The APIs whose bodies the bench reads, with the names `--one sse-<name>N` takes.
const APIS: [(&str, Api); 4] = [
    ("chat", Api::OpenAiChat),
    ("anthropic", Api::Anthropic),
    ("responses", Api::OpenAiResponses),
    ("gemini", Api::Gemini),
];

/// The reply as `api`'s body of server-sent events, one `n`-byte delta per event with the
/// envelope the API's reference shows for each, between its opening and closing events.
fn sse_body(api: Api, text: &str, n: usize) -> Vec<u8> {
    let mut body = String::new();
    let mut event = |name: Option<&str>, data: Value| {
        if let Some(name) = name {
            body.push_str(&format!("event: {name}\n"));
        }
        body.push_str("data: ");
        body.push_str(&data.to_string());
        body.push_str(if api == Api::Gemini {
            "\r\n\r\n"
        } else {
            "\n\n"
        });
    };
    let deltas = chunks(text, n);
    match api {
        Api::Anthropic => {
            event(
                Some("message_start"),
                json!({"type": "message_start", "message": {"id": "msg_b",
                "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
                "stop_reason": null, "usage": {"input_tokens": 25, "output_tokens": 1}}}),
            );
            event(
                Some("content_block_start"),
                json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "text", "text": ""}}),
            );
            for d in deltas {
                event(
                    Some("content_block_delta"),
                    json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "text_delta", "text": d}}),
                );
            }
            event(
                Some("content_block_stop"),
                json!({"type": "content_block_stop", "index": 0}),
            );
            event(
                Some("message_delta"),
                json!({"type": "message_delta", "delta": {"stop_reason":
                "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 4000}}),
            );
            event(Some("message_stop"), json!({"type": "message_stop"}));
        }
        Api::OpenAiResponses => {
            for (k, d) in deltas.into_iter().enumerate() {
                event(
                    Some("response.output_text.delta"),
                    json!({"type": "response.output_text.delta",
                    "item_id": "msg_b", "output_index": 0, "content_index": 0, "delta": d,
                    "sequence_number": k + 4}),
                );
            }
            event(
                Some("response.completed"),
                json!({"type": "response.completed", "response":
                {"id": "resp_b", "object": "response", "status": "completed", "usage":
                {"input_tokens": 25, "output_tokens": 4000, "total_tokens": 4025}}}),
            );
        }
        Api::Gemini => {
            let last = deltas.len() - 1;
            for (k, d) in deltas.into_iter().enumerate() {
                let mut candidate =
                    json!({"content": {"parts": [{"text": d}], "role": "model"}, "index": 0});
                if k == last {
                    candidate["finishReason"] = json!("STOP");
                }
                event(
                    None,
                    json!({"candidates": [candidate], "usageMetadata": {"promptTokenCount": 25,
                    "candidatesTokenCount": k + 1, "totalTokenCount": k + 26},
                    "modelVersion": "gemini-2.5-flash", "responseId": "resp-b"}),
                );
            }
        }
        _ => {
            for d in deltas {
                event(
                    None,
                    json!({"id": "chatcmpl-b", "object": "chat.completion.chunk", "created": 1764300000,
                    "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"content": d}, "finish_reason": null}]}),
                );
            }
            event(
                None,
                json!({"id": "chatcmpl-b", "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
            );
            body.push_str("data: [DONE]\n\n");
        }
    }
    body.into_bytes()
}

/// Pushes the body in 4 KiB network reads.
fn push_body(api: Api, body: &[u8]) -> EventStream<UniversalResponse> {
    let mut s = EventStream::<UniversalResponse>::new(api);
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
    if let Some(rest) = what.strip_prefix("sse") {
        // `sseN` (OpenAI Chat) or `sse-<api>N`: the body of N-byte deltas through `push_body`
        // (the body built first: subtract `ssebuildN`, `ssebuild-<api>N`).
        let (build, rest) = match rest.strip_prefix("build") {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let name = rest
            .trim_start_matches('-')
            .trim_end_matches(|c: char| c.is_ascii_digit());
        let n = rest.trim_start_matches(|c: char| !c.is_ascii_digit());
        let api = APIS
            .iter()
            .find(|(a, _)| *a == name)
            .map_or(Api::OpenAiChat, |a| a.1);
        let body = sse_body(api, text, n.parse().unwrap_or(16));
        if !build {
            black_box(push_body(api, &body));
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

/// Times `push_body` of `api`'s body of `n`-byte deltas against pushing the deltas directly and
/// against splitting the lines and `push_event` of each parsed `Value` by hand.
fn body_path(
    text: &str,
    name: &str,
    api: Api,
    n: usize,
    expected: &UniversalResponse,
    push_all: &dyn Fn(&[&str]) -> Stream<UniversalResponse>,
) {
    let parts = chunks(text, n);
    let body = sse_body(api, text, n);
    let end = push_body(api, &body).finish();
    assert_eq!(&end.value.unwrap(), expected);
    // What a caller writes without `push_body`: split the lines, parse each `data:` into a
    // `Value`, `push_event` it.
    let by_hand = || {
        let mut s = EventStream::<UniversalResponse>::new(api);
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
            black_box(push_body(api, &body));
        });
        let hand = time(&|| {
            black_box(by_hand());
        });
        vs_deltas.push(bytes / direct);
        vs_hand.push(bytes / hand);
    }
    println!(
        "{name}: {n:>2}-byte deltas as server-sent events ({} bytes of body, {} events): push_body = {:.2}x pushing the deltas into the stream, {:.2}x splitting the lines and push_event of each parsed Value",
        body.len(),
        parts.len(),
        median(vs_deltas),
        median(vs_hand)
    );
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

    // The HTTP body path: the same deltas as each API's server-sent events read by
    // `EventStream::push_body` from 4 KiB reads, against pushing the deltas directly.
    for (name, api) in APIS {
        for n in [64, 16] {
            body_path(&text, name, api, n, &expected, &push_all);
        }
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
