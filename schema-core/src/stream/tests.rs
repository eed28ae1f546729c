use super::*;
use crate::AgentSchema;
use serde::Deserialize;
use serde_json::json;

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Level {
    Low,
    High,
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Step {
    #[schema(max_length = 20)]
    title: String,
    #[schema(maximum = 10)]
    score: u8,
    level: Level,
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "action")]
enum Action {
    #[serde(rename = "search")]
    Search { query: String },
    #[serde(rename = "answer")]
    Answer {
        text: String,
        #[schema(stream = "done")]
        note: Option<String>,
    },
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Plan {
    think: String,
    steps: Vec<Step>,
    action: Action,
}

const PLAN: &str = r#"{"think": "a \"b\" \u00e9\ud83d\ude00 c", "steps": [{"title": "one", "score": 7, "level": "high"}, {"title": "two", "score": 10, "level": "low"}], "action": {"action": "answer", "text": "done", "note": "n"}}"#;

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

#[test]
fn every_chunking_gives_the_same_value_and_growing_partials() {
    let whole = Plan::from_llm(PLAN).unwrap();
    for wrap in [
        PLAN.to_string(),
        format!("Sure! Here:\n```json\n{PLAN}\n```\nDone."),
        format!("<think>{{not json}} hmm</think>\n{PLAN}"),
        format!("The plan is {PLAN} as asked."),
    ] {
        for n in [1, 2, 3, 7, 64, 10_000] {
            let mut s = Plan::stream();
            let mut last = Value::Null;
            for c in chunks(&wrap, n) {
                s.push(c).unwrap();
                let now = s.partial().to_json().unwrap_or(Value::Null);
                assert!(grows(&last, &now), "{last} -> {now}");
                last = now;
            }
            assert!(s.is_complete(), "{wrap}");
            match s.partial() {
                PlanPartial { think: Some(t), .. } => assert_eq!(t, &whole.think),
                _ => panic!("no think"),
            }
            assert_eq!(s.finish().unwrap(), whole);
        }
    }
}

/// Whether `b` is `a` grown: strings extended, arrays and objects with the same entries grown.
fn grows(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, _) => true,
        (Value::String(x), Value::String(y)) => y.starts_with(x.as_str()),
        (Value::Array(x), Value::Array(y)) => {
            x.len() <= y.len() && x.iter().zip(y).all(|(p, q)| grows(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.iter().all(|(k, v)| y.get(k).is_some_and(|w| grows(v, w)))
        }
        (x, y) => x == y,
    }
}

#[test]
fn scalars_appear_only_when_complete() {
    let mut s = Plan::stream();
    s.push(r#"{"think": "t", "steps": [{"title": "x", "score": 1"#)
        .unwrap();
    let steps = s.partial().steps.as_ref().unwrap();
    assert_eq!(steps[0].score, None);
    s.push("0").unwrap();
    assert_eq!(s.partial().steps.as_ref().unwrap()[0].score, None);
    let u = s.push(", \"level\": \"hi").unwrap();
    assert_eq!(u.completed(), ["/steps/0/score"]);
    assert_eq!(s.partial().steps.as_ref().unwrap()[0].score, Some(10));
    assert!(!s.partial().steps.as_ref().unwrap()[0].level.is_done());
    s.push("gh\"").unwrap();
    assert_eq!(
        s.partial().steps.as_ref().unwrap()[0].level.get(),
        Some(Level::High)
    );
}

#[test]
fn tagged_enum_waits_for_its_tag_and_done_fields_wait() {
    let mut s = Plan::stream();
    s.push(r#"{"think": "t", "steps": [], "action": {"text": "ab"#)
        .unwrap();
    assert!(matches!(s.partial().action, ActionPartial::Undecided(_)));
    s.push(r#"c", "action": "answer", "note": "par"#).unwrap();
    match &s.partial().action {
        ActionPartial::Answer { text, note } => {
            assert_eq!(text.as_deref(), Some("abc"));
            assert_eq!(note, &None);
        }
        _ => panic!("not decided"),
    }
    s.push("tial\"}}").unwrap();
    match &s.partial().action {
        ActionPartial::Answer { note, .. } => assert_eq!(note.as_deref(), Some("partial")),
        _ => panic!("not decided"),
    }
}

fn early(text: &str) -> (usize, String) {
    let mut s = Plan::stream();
    for (i, c) in chunks(text, 1).into_iter().enumerate() {
        if let Err(e) = s.push(c) {
            let path = e.validation_errors().unwrap().paths()[0].to_string();
            return (i, path);
        }
    }
    panic!("no early error for {text}");
}

#[test]
fn violations_stop_the_stream_where_they_become_certain() {
    let cases = [
        // An unknown property: at its closing quote.
        // An unknown property: at its value's first byte (`null` would read as absent).
        (r#"{"think": "t", "bogus": 1}"#, ": 1", "/bogus"),
        // A string past maxLength: at its 21st character.
        (
            r#"{"think": "t", "steps": [{"title": "aaaaaaaaaaaaaaaaaaaaaaaaa"#,
            "\"aaaaaaaaaaaaaaaaaaaaa",
            "/steps/0/title",
        ),
        // A number out of range: once complete.
        (
            r#"{"think": "t", "steps": [{"title": "a", "score": 11,"#,
            "11,",
            "/steps/0/score",
        ),
        // The wrong type: at its first byte.
        (r#"{"think": 5"#, "5", "/think"),
        // An enum value that is no longer a prefix.
        (
            r#"{"think": "t", "steps": [{"title": "a", "score": 1, "level": "hx"#,
            "\"hx",
            "/steps/0/level",
        ),
        // A tag that is no longer a prefix.
        (
            r#"{"think": "t", "steps": [], "action": {"action": "sx"#,
            "\"sx",
            "/action/action",
        ),
        // A missing required property: at the closing brace.
        (
            r#"{"think": "t", "steps": [{"title": "a", "score": 1}"#,
            "1}",
            "/steps/0/level",
        ),
    ];
    for (text, marker, path) in cases {
        let certain = text.find(marker).unwrap() + marker.len() - 1;
        let (at, p) = early(text);
        assert_eq!(p, path, "{text}");
        assert!(at <= certain, "{text}: error at {at}, certain at {certain}");
        // `from_json` of a completed text reports the same path.
    }
}

#[test]
fn items_arrive_typed_as_they_close() {
    let mut s = Plan::stream().watch("/steps");
    let mut got = Vec::new();
    for c in chunks(PLAN, 5) {
        s.push(c).unwrap();
        for item in s.items::<Step>("/steps") {
            got.push(item.unwrap().title);
        }
    }
    assert_eq!(got, ["one", "two"]);
}

#[test]
fn truncated_stream_finishes_as_truncated() {
    let mut s = Plan::stream();
    s.push(&PLAN[..40]).unwrap();
    assert!(matches!(s.finish(), Err(ParseError::Truncated { .. })));
}

#[test]
fn a_view_stream_stops_on_a_dropped_variant() {
    let view = crate::view::View::<Plan>::new()
        .keep_variants("/action", &["search"])
        .unwrap();
    let text = r#"{"think": "t", "steps": [], "action": {"action": "answer", "text": "x"}}"#;
    let mut s = view.stream();
    let mut failed = None;
    for (i, c) in chunks(text, 1).into_iter().enumerate() {
        if let Err(e) = s.push(c) {
            failed = Some((i, e));
            break;
        }
    }
    let (at, e) = failed.expect("an early error");
    assert_eq!(at, text.find("\"answer\"").unwrap() + 1);
    assert_eq!(e.validation_errors().unwrap().paths(), ["/action/action"]);
    let ok = r#"{"think": "t", "steps": [], "action": {"action": "search", "query": "q"}}"#;
    let mut s = view.stream();
    s.push(ok).unwrap();
    assert_eq!(s.finish(), view.from_llm(ok));
    // The plain type accepts the other variant.
    let mut s = Plan::stream();
    s.push(text).unwrap();
    assert!(s.finish().is_ok());
}

#[test]
fn bytes_split_inside_characters_give_the_same_value() {
    let whole = Plan::from_llm(PLAN).unwrap();
    let bytes = PLAN.as_bytes();
    // Every cut of every size, including cuts inside `é` (2 bytes) and `😀` (4 bytes).
    for n in 1..=5 {
        let mut s = Plan::stream();
        let mut last = Value::Null;
        for c in bytes.chunks(n) {
            let changed = s.push_bytes(c).unwrap().changed();
            let now = s.partial().to_json().unwrap_or(Value::Null);
            assert!(grows(&last, &now), "{last} -> {now}");
            assert_eq!(changed, now != last, "{last} -> {now}");
            last = now;
        }
        assert_eq!(s.finish().unwrap(), whole);
    }
    let mut s = Plan::stream();
    let text = "{\"think\": \"é";
    s.push_bytes(&text.as_bytes()[..text.len() - 1]).unwrap();
    assert_eq!(s.partial().think.as_deref(), Some(""));
    s.push_bytes(&text.as_bytes()[text.len() - 1..]).unwrap();
    assert_eq!(s.partial().think.as_deref(), Some("é"));
}

#[test]
fn invalid_utf8_is_a_syntax_error_where_it_becomes_certain() {
    let text = b"{\"think\": \"ab";
    // A byte no character starts with; a lead byte followed by ASCII; a lead byte completed
    // by a byte that is not a continuation, across chunks.
    for (chunks, at) in [
        (vec![&text[..], b"\xff\"}"], 1),
        (vec![&text[..], b"\xe2A"], 1),
        (vec![&text[..], b"\xe2", b"\x82", b"A"], 3),
    ] {
        let mut s = Plan::stream();
        let mut got = None;
        for (i, c) in chunks.iter().enumerate() {
            if let Err(e) = s.push_bytes(c) {
                got = Some((i, e));
                break;
            }
        }
        let (i, e) = got.expect("an error");
        assert_eq!(i, at, "{e}");
        assert!(matches!(e, ParseError::Syntax { .. }), "{e:?}");
        assert!(e.to_string().contains("UTF-8"), "{e}");
        // Every later push returns it again.
        assert_eq!(s.push("x").unwrap_err(), e);
    }
    // A reply cut inside a character finishes as `from_llm` reads the lossy text: truncated
    // inside the value, the value itself when the cut is in the prose after it.
    let reply =
        r#"{"think": "café", "steps": [], "action": {"action": "search", "query": "q"}} voilà"#;
    for at in [reply.find('é').unwrap(), reply.find('à').unwrap()] {
        let cut = &reply.as_bytes()[..at + 1];
        let mut s = Plan::stream();
        s.push_bytes(cut).unwrap();
        let lossy = String::from_utf8_lossy(cut);
        let expected = Plan::from_llm(&lossy);
        assert_eq!(expected.is_ok(), at > 20, "{expected:?}");
        assert_eq!(s.finish(), expected);
    }
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
enum Ext {
    Unit,
    Move { x: i32, label: String },
    Say(String),
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Adj {
    Stop,
    Go { to: String },
    Wrap(String),
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Shapes {
    ext: Vec<Ext>,
    adj: Vec<Adj>,
    map: std::collections::BTreeMap<String, String>,
}

const SHAPES: &str = r#"{"ext": [{"Move": {"x": 1, "label": "ab"}}, "Unit", {"Say": "hi"}], "adj": [{"c": {"to": "xy"}, "t": "Go"}, {"t": "Wrap", "c": "w"}, {"t": "Stop"}], "map": {"b": "one", "a": "two"}}"#;

/// The partial after pushing `SHAPES` up to (not including) the first `upto`, byte by byte.
fn shapes_at(upto: &str) -> Value {
    let end = SHAPES.find(upto).expect("in SHAPES");
    let mut s = Shapes::stream();
    let mut last = Value::Null;
    for c in chunks(&SHAPES[..end], 1) {
        let changed = s.push(c).unwrap().changed();
        let now = s.partial().to_json().unwrap_or(Value::Null);
        assert!(grows(&last, &now), "{last} -> {now}");
        assert_eq!(changed, now != last, "{last} -> {now}");
        last = now;
    }
    last
}

#[test]
fn tagged_enums_and_maps_grow() {
    // Externally tagged: undecided until the variant's key is complete, then its fields grow;
    // a unit variant appears once its name is complete.
    assert_eq!(shapes_at("\"Move\"")["ext"], json!([null]));
    assert_eq!(shapes_at("\"x\"")["ext"], json!([{"Move": {}}]));
    assert_eq!(
        shapes_at("b\"}}")["ext"],
        json!([{"Move": {"x": 1, "label": "a"}}])
    );
    assert_eq!(
        shapes_at("nit\"")["ext"],
        json!([{"Move": {"x": 1, "label": "ab"}}, null])
    );
    assert_eq!(
        shapes_at("i\"}]")["ext"],
        json!([{"Move": {"x": 1, "label": "ab"}}, "Unit", {"Say": "h"}])
    );
    // Adjacently tagged: undecided while the content comes before the tag, then the content
    // read so far at once, and the rest as it grows.
    assert_eq!(shapes_at("\"t\": \"Go\"")["adj"], json!([null]));
    assert_eq!(
        shapes_at(", {\"t\": \"Wrap\"")["adj"],
        json!([{"t": "Go", "c": {"to": "xy"}}])
    );
    assert_eq!(
        shapes_at("\"}, {\"t\": \"Stop")["adj"][1],
        json!({"t": "Wrap", "c": "w"})
    );
    // A map: entries in the order written, the one in progress growing.
    let m = shapes_at("e\", \"a\"");
    assert_eq!(m["map"], json!({"b": "on"}));
    let m = shapes_at("o\"}}");
    assert_eq!(
        serde_json::to_string(&m["map"]).unwrap(),
        r#"{"b":"one","a":"tw"}"#
    );
    // The whole text, in every chunking, and the typed access.
    let whole = Shapes::from_json(SHAPES).unwrap();
    for n in [1, 3, 7, 1000] {
        let mut s = Shapes::stream();
        for c in chunks(SHAPES, n) {
            s.push(c).unwrap();
        }
        let p = s.partial();
        assert!(
            matches!(p.ext.as_deref(), Some([ExtPartial::Move { x: Some(1), .. }, ExtPartial::Unit, ExtPartial::Say(Some(h))]) if h == "hi")
        );
        assert!(
            matches!(p.adj.as_deref(), Some([AdjPartial::Go { to: Some(t) }, AdjPartial::Wrap(Some(w)), AdjPartial::Stop]) if t == "xy" && w == "w")
        );
        let keys: Vec<&str> = p.map.entries().iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(p.map.get("a"), Some(&Some("two".to_string())));
        assert_eq!(s.finish().unwrap(), whole);
    }
}

/// The one-byte short path (plain bytes of a string or key) against the same text in one
/// chunk: escaped keys and values, the size limit reached inside a string, and `push_bytes` one byte at a time through multi-byte characters.
#[test]
fn one_byte_chunks_inside_strings_and_keys_read_as_one_chunk() {
    let text =
        r#"{"th\u0069nk": "long plain text \"quoted\" more", "steps": [], "act\u0069on": 1}"#;
    let whole = Plan::stream().push(text).map(|_| ()).unwrap_err();
    assert_eq!(whole.validation_errors().unwrap().paths(), ["/action"]);
    let mut s = Plan::stream();
    let mut seen = None;
    for (i, c) in chunks(text, 1).into_iter().enumerate() {
        if let Err(e) = s.push(c) {
            seen = Some((i, e));
            break;
        }
    }
    // The escaped key is `action`: the wrong type at the value's first byte.
    let at = text.rfind('1').unwrap();
    assert_eq!(seen, Some((at, whole)), "an escaped key read byte by byte");

    let options = ParseOptions {
        max_len: 20,
        ..ParseOptions::default()
    };
    let text = r#"{"think": "abcdefghijklmnop"#;
    let mut s: Stream<Plan> = Stream::with_options(options.clone());
    let mut got = None;
    for (i, c) in chunks(text, 1).into_iter().enumerate() {
        if let Err(e) = s.push(c) {
            got = Some((i, e));
            break;
        }
    }
    let limit = ParseError::TooLarge { len: 21, max: 20 };
    assert_eq!(got, Some((20, limit)), "the size limit inside a string");
    // Longer chunks that only continue the string: the last one fits exactly, the next is
    // past the limit (and so is every push after it).
    let mut s: Stream<Plan> = Stream::with_options(options);
    for c in [r#"{"think": "ab"#, "cdef", "ghi"] {
        s.push(c).unwrap();
    }
    assert_eq!(s.partial().think.as_deref(), Some("abcdefghi"));
    let limit = ParseError::TooLarge { len: 22, max: 20 };
    assert_eq!(s.push("jk").err(), Some(limit.clone()));
    assert_eq!(s.push("lm").err(), Some(limit));

    let whole = Plan::from_llm(PLAN).unwrap();
    let mut s = Plan::stream();
    let mut last = Value::Null;
    for b in PLAN.as_bytes() {
        let changed = s.push_bytes(std::slice::from_ref(b)).unwrap().changed();
        let now = s.partial().to_json().unwrap_or(Value::Null);
        assert_eq!(changed, now != last, "{last} -> {now}");
        last = now;
    }
    assert_eq!(s.finish().unwrap(), whole);
}

/// The events a reader gives for `v` at `path`, in order, with owned text.
fn events_of(
    v: &Value,
    path: &mut Vec<Seg>,
    out: &mut Vec<(Vec<Seg>, ValueKind, Option<String>, String)>,
) {
    let kind = match v {
        Value::Object(_) => ValueKind::Object,
        Value::Array(_) => ValueKind::Array,
        Value::String(_) => ValueKind::String,
        Value::Number(_) => ValueKind::Number,
        Value::Bool(_) => ValueKind::Bool,
        Value::Null => ValueKind::Null,
    };
    // One entry per value: its kind (its `Begin`), its text for a string, its raw JSON (its
    // `Done`); children's entries come between its `Begin` and its `Done`, so a value's entry
    // is split in two: the `Begin` first (text `None`, raw empty), the rest after the children.
    out.push((path.clone(), kind, None, String::new()));
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                path.push(Seg::Key(k.clone()));
                events_of(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Seg::Index(i));
                events_of(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
    out.push((
        path.clone(),
        kind,
        v.as_str().map(str::to_owned),
        v.to_string(),
    ));
}

/// Applies the first `n` events of `events` to `p`, one by one.
fn apply_first<P: PartialValue>(
    p: &mut P,
    events: &[(Vec<Seg>, ValueKind, Option<String>, String)],
    n: usize,
) {
    for (path, kind, text, raw) in &events[..n] {
        if raw.is_empty() {
            p.apply(path, &Event::Begin(*kind));
        } else {
            if let Some(t) = text {
                p.apply(path, &Event::Text(t));
            }
            p.apply(path, &Event::Done(raw));
        }
    }
}

/// `apply_begin_text` at every string's start (with its text, a part of it, and no text) gives
/// what `apply` gives with the `Begin` and the `Text` one at a time, for derived structs,
/// tagged enums of each shape, `Vec`s and maps.
fn begin_text_matches_one_by_one<P: PartialValue>(json: &str) {
    let v: Value = serde_json::from_str(json).unwrap();
    let mut events = Vec::new();
    events_of(&v, &mut Vec::new(), &mut events);
    for (k, (path, kind, text, raw)) in events.iter().enumerate() {
        if *kind != ValueKind::String || !raw.is_empty() || text.is_some() {
            continue;
        }
        // The string's own closing entry holds its text.
        let full = events[k + 1].2.clone().unwrap_or_default();
        let half_end = full
            .char_indices()
            .nth(full.chars().count() / 2)
            .map_or(full.len(), |(i, _)| i);
        let half = &full[..half_end];
        for t in [full.as_str(), half, ""] {
            let (mut a, mut b) = (P::default(), P::default());
            apply_first(&mut a, &events, k);
            apply_first(&mut b, &events, k);
            let got = a.apply_begin_text(path, *kind, t);
            let want = begin_text_one_by_one(&mut b, path, *kind, t);
            assert_eq!(got, want, "{path:?} {t:?}");
            assert_eq!(a.to_json(), b.to_json(), "{path:?} {t:?}");
            // An empty text asks whether text shows: the text's first byte answers the same.
            if let (true, Some(ch)) = (t.is_empty(), full.chars().next()) {
                let mut c = P::default();
                apply_first(&mut c, &events, k);
                let first = begin_text_one_by_one(&mut c, path, *kind, &full[..ch.len_utf8()]);
                assert_eq!(got.1, first.1, "{path:?}");
            }
        }
    }
}

#[test]
fn begin_and_text_in_one_walk_match_one_by_one() {
    begin_text_matches_one_by_one::<PlanPartial>(PLAN);
    begin_text_matches_one_by_one::<<Shapes as AgentSchema>::Partial>(SHAPES);
}

/// `completed()` names every value once, in the order they closed, over a long reply (past the
/// point where the reader forgets the nodes of values completed in earlier pushes), with keys
/// that need escaping in a JSON pointer.
#[test]
fn completed_pointers_over_a_long_reply() {
    type Lists = std::collections::BTreeMap<String, Vec<u8>>;
    let keys: Vec<String> = ["a/b".to_string(), "t~x".to_string(), "q\\\"".to_string()]
        .into_iter()
        .chain((0..80).map(|i| format!("k{i}")))
        .collect();
    let mut text = String::from("{");
    let mut expected = Vec::new();
    for (n, k) in keys.iter().enumerate() {
        let (wire, ptr) = match k.as_str() {
            "a/b" => ("a/b", "a~1b"),
            "t~x" => ("t~x", "t~0x"),
            // the key `q"` written with an escape
            "q\\\"" => ("q\\\"", "q\""),
            k => (k, k),
        };
        if n > 0 {
            text.push_str(", ");
        }
        text.push_str(&format!("\"{wire}\": ["));
        for i in 0..(n % 3 + 1) {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&(i + 1).to_string());
            expected.push(format!("/{ptr}/{i}"));
        }
        text.push(']');
        expected.push(format!("/{ptr}"));
    }
    text.push('}');
    expected.push(String::new());
    for size in [1, 3, 16, 64] {
        let mut stream = Lists::stream();
        let mut seen: Vec<String> = Vec::new();
        let bytes = text.as_bytes();
        for chunk in bytes.chunks(size) {
            let update = stream.push(std::str::from_utf8(chunk).unwrap()).unwrap();
            seen.extend(update.completed().iter().map(|p| p.to_string()));
        }
        assert_eq!(seen, expected, "chunks of {size}");
        let lists = stream.finish().unwrap();
        assert_eq!(lists.len(), keys.len());
        assert_eq!(lists["q\""], [1, 2, 3]);
    }
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Routed {
    plan: Plan,
    shapes: Shapes,
    names: Vec<String>,
    boxed: Box<Step>,
    maybe: Option<Vec<Step>>,
    #[schema(stream = "done")]
    whole: Vec<String>,
}

/// Routes: what the derive and the standard impls say every value of a type does, and what a
/// decided enum says about its variant (for good).
#[test]
fn routes_say_what_every_value_does() {
    let key = |k: &str| Seg::Key(k.to_string());
    let at = |r: Option<Route>, path: &[Seg]| r.and_then(|r| follow(r, path));
    let root = RoutedPartial::route();
    let shows = |path: &[Seg]| at(root, path).map(|r| r.shows_text);
    assert_eq!(shows(&[key("plan"), key("think")]), Some(true));
    assert_eq!(shows(&[key("names"), Seg::Index(3)]), Some(true));
    assert_eq!(
        shows(&[key("plan"), key("steps"), Seg::Index(0), key("title")]),
        Some(true)
    );
    assert_eq!(shows(&[key("boxed"), key("title")]), Some(true));
    assert_eq!(
        shows(&[key("maybe"), Seg::Index(1), key("title")]),
        Some(true)
    );
    assert_eq!(shows(&[key("shapes"), key("map"), key("any")]), Some(true));
    // Not known from the type: a string enum, a number, a field shown once complete, an enum,
    // a key no field has, an index into a struct.
    for path in [
        vec![key("plan"), key("steps"), Seg::Index(0), key("level")],
        vec![key("plan"), key("steps"), Seg::Index(0), key("score")],
        vec![key("whole")],
        vec![key("whole"), Seg::Index(0)],
        vec![key("plan"), key("action")],
        vec![key("shapes"), key("ext"), Seg::Index(0)],
        vec![key("nope")],
        vec![Seg::Index(0)],
    ] {
        assert!(at(root, &path).is_none(), "{path:?}");
    }
    let done_noop = |path: &[Seg]| at(root, path).map(|r| r.done_noop);
    assert_eq!(done_noop(&[]), Some(true));
    assert_eq!(done_noop(&[key("plan"), key("steps")]), Some(true));
    assert_eq!(done_noop(&[key("shapes"), key("map")]), Some(true));

    // An internally tagged enum: nothing known while undecided, the variant's fields once
    // decided.
    let mut s = Plan::stream();
    s.push(r#"{"think": "t", "steps": [], "action": {"text": "a"#)
        .unwrap();
    let action = [key("action"), key("text")];
    assert!(s.partial().route_at(&action).is_none(), "undecided");
    s.push(r#"b", "action": "answer", "note": "#).unwrap();
    let r = s.partial().route_at(&action);
    assert_eq!(r.map(|r| r.shows_text), Some(true));
    assert!(s
        .partial()
        .route_at(&[key("action"), key("note")])
        .is_none());
    assert!(s
        .partial()
        .route_at(&[key("action"), key("query")])
        .is_none());
    assert_eq!(
        s.partial().route_at(&[key("think")]).map(|r| r.shows_text),
        Some(true)
    );
}

const ROUTED: &str = r#"{"plan": {"think": "a long thought, \"quoted\" and more", "steps": [{"title": "first step", "score": 3, "level": "low"}, {"title": "second, again", "score": 10, "level": "high"}], "action": {"text": "an answer that is long", "note": "a note", "action": "answer"}}, "shapes": {"ext": [{"Move": {"x": 1, "label": "a label"}}, "Unit", {"Say": "said this"}], "adj": [{"c": {"to": "somewhere"}, "t": "Go"}, {"t": "Wrap", "c": "wrapped"}], "map": {"b": "the value of b", "a": "", "c": "c again"}}, "names": ["alpha", "", "gamma delta"], "boxed": {"title": "in a box", "score": 1, "level": "low"}, "maybe": [{"title": "maybe so", "score": 2, "level": "high"}], "whole": ["x", "y"]}"#;

/// A string whose route says it shows skips the walk at its first chunk's end (its `Begin`
/// goes with its later events, or with the text `partial()` adds): what a caller sees is the
/// same whether or not it looks at the partial after each chunk, and `changed()` is exact for
/// a caller that looks (empty strings, strings under enums and maps included).
#[test]
fn routes_change_nothing_a_caller_sees() {
    let whole = Routed::from_json(ROUTED).unwrap();
    for n in [1, 2, 3, 5, 7, 11, 16, 64] {
        let mut looked = Routed::stream();
        let mut blind = Routed::stream();
        let mut last = Value::Null;
        for (i, c) in chunks(ROUTED, n).into_iter().enumerate() {
            let a = looked.push(c).unwrap().changed();
            let b = blind.push(c).unwrap().changed();
            // A caller that does not look may be told of a change twice (a string's text
            // that grew unseen is given to the partial when the string closes, and that push
            // says it changed it), never missed.
            assert!(b || !a, "chunk {i} of {n}");
            let now = looked.partial().to_json().unwrap_or(Value::Null);
            assert_eq!(a, now != last, "chunk {i} of {n}: {last} -> {now}");
            assert!(grows(&last, &now), "{last} -> {now}");
            last = now;
            // Looking now and then at the blind one must not change what it says later.
            if i % 5 == 4 {
                assert_eq!(blind.partial().to_json().unwrap_or(Value::Null), last);
            }
        }
        assert_eq!(blind.partial().to_json(), looked.partial().to_json(), "{n}");
        assert_eq!(last["names"], json!(["alpha", "", "gamma delta"]));
        assert_eq!(last["plan"]["steps"][1]["title"], json!("second, again"));
        assert_eq!(last["shapes"]["map"]["b"], json!("the value of b"));
        assert_eq!(blind.finish().unwrap(), whole);
    }
}

#[test]
fn a_stream_after_a_dropped_one_starts_from_nothing() {
    // A stream made after another was dropped half-read (or finished) starts empty and reads
    // its own reply only.
    let text = r#"{"title": "first", "score": 3, "level": "low"}"#;
    let mut a = Step::stream();
    a.push(&text[..20]).unwrap();
    drop(a);
    for other in [r#"{"title": "second", "score": 4, "level": "high"}"#, text] {
        let mut b = Step::stream();
        assert_eq!(b.text(), "");
        for part in chunks(other, 7) {
            b.push(part).unwrap();
        }
        assert_eq!(b.text(), other);
        assert_eq!(b.finish().unwrap(), Step::from_json(other).unwrap());
    }
}

#[test]
fn a_leaf_shows_its_value_whether_kept_in_place_or_not() {
    let short: Leaf<Level> = {
        let mut l = Leaf::default();
        assert!(!l.is_done() && l.json().is_none());
        assert!(l.apply(&[], &Event::Done("\"high\"")));
        // Complete: a later `Done` changes nothing.
        assert!(!l.apply(&[], &Event::Done("\"low\"")));
        l
    };
    assert!(short.is_done());
    assert_eq!(short.json(), Some(&json!("high")));
    assert_eq!(short.get(), Some(Level::High));
    assert_eq!(short.to_json(), Some(json!("high")));
    assert_eq!(short.clone(), short);
    // Longer than a leaf keeps in place, escaped, and not a string.
    for (raw, value) in [
        (
            "\"a string enum value past fifteen bytes\"",
            json!("a string enum value past fifteen bytes"),
        ),
        ("\"tab\\there\"", json!("tab\there")),
        ("{\"k\": [1, 2]}", json!({"k": [1, 2]})),
        // At and past the in-place limit (15 bytes), empty, non-ASCII, an escaped quote.
        ("\"fifteen bytes!!\"", json!("fifteen bytes!!")),
        ("\"sixteen bytes!!!\"", json!("sixteen bytes!!!")),
        ("\"\"", json!("")),
        ("\"café ☕\"", json!("café ☕")),
        ("\"a\\\"b\"", json!("a\"b")),
        ("\"\\u0041\"", json!("A")),
    ] {
        let mut l: Leaf<Value> = Leaf::default();
        assert!(l.apply(&[], &Event::Done(raw)));
        assert_eq!(l.json(), Some(&value));
        assert_eq!(l.get(), Some(value.clone()));
        assert_ne!(l, Leaf::default());
    }
    // `null` leaves it absent.
    let mut l: Leaf<Value> = Leaf::default();
    assert!(!l.apply(&[], &Event::Done("null")));
    assert!(!l.is_done());
}

#[test]
fn a_string_partial_takes_begin_and_text_as_one_by_one() {
    // `Option<String>::apply_begin_text` against the documented meaning (`apply` with each
    // event in turn): every start, kind, text and path.
    let kinds = [
        ValueKind::String,
        ValueKind::Null,
        ValueKind::Number,
        ValueKind::Object,
    ];
    let deeper = [Seg::Index(0)];
    for start in [None, Some(String::new()), Some("ab".to_string())] {
        for kind in kinds {
            for text in ["", "x", "héllo"] {
                for path in [&[][..], &deeper[..]] {
                    let mut fast = start.clone();
                    let mut slow = start.clone();
                    let got = fast.apply_begin_text(path, kind, text);
                    let want = begin_text_one_by_one(&mut slow, path, kind, text);
                    assert_eq!(got, want, "{start:?} {kind:?} {text:?} {path:?}");
                    assert_eq!(fast, slow, "{start:?} {kind:?} {text:?} {path:?}");
                }
            }
        }
    }
}
