//! The text layer: what wraps the answer in a model reply, defined once for every reader of
//! model text. A reasoning preamble ([`ReasoningScan`]), markdown fences ([`FenceScan`]) and the
//! limits on how many candidates are tried are read here, by incremental scanners that take
//! the text as it grows: the whole-reply extractor ([`extract_json`](super::extract_json)) runs
//! them once over the complete text, the stream reader (`stream/reader.rs`) after every chunk.
//! Both therefore see the same reasoning block and the same fences, as `toml_parser`'s one lexer
//! serves both `toml` and `toml_edit`.
//!
//! A scanner told the text is not complete says "pending" where a later byte could change its
//! answer (a `</think>` may still close a reasoning block the template opened in the prompt; a
//! fence's info line has no newline yet), so the stream never commits to a reading the whole
//! text would not give.

use std::ops::Range;

/// A reasoning block found at the start of a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reasoning {
    /// From the start of the block to just after its end marker (or to the end of the text when
    /// it is not closed).
    pub span: Range<usize>,
    /// Whether the end marker was found: without it the reply stopped while reasoning.
    pub closed: bool,
}

/// Tag pairs of reasoning blocks, as models served by LM Studio, Ollama, vLLM write them
/// (Qwen3 and DeepSeek-R1 distills: `<think>`), matched without regard to case.
pub(crate) const TAGS: &[(&str, &str)] = &[
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("<reasoning>", "</reasoning>"),
    ("<reflection>", "</reflection>"),
];

/// The harmony format's (gpt-oss) channel markers: a reply opening with either is reasoning up
/// to `<|channel|>final<|message|>`, after which the answer follows.
const CHANNEL: &str = "<|channel|>";
const START: &str = "<|start|>";
const FINAL: &str = "<|channel|>final<|message|>";
/// The closing tag that ends a block the chat template opened in the prompt.
const LONE_CLOSE: &str = "</think>";
/// A markdown fence.
const FENCE: &str = "```";

/// How many JSON fences are tried.
pub(crate) const MAX_FENCES: usize = 16;
/// How many candidates in prose that run to the end of the input without closing are tried:
/// each such try rescans the rest of the input, so this bound keeps the search linear. The
/// stream reader, which tries each candidate once as it arrives, bounds all its prose tries by
/// it.
pub(crate) const MAX_UNCLOSED_TRIES: usize = 16;

/// Finds the reasoning a reply starts with, so the answer is read after it.
///
/// Recognised: `<think>…</think>` (also `<thinking>`, `<reasoning>`, `<reflection>`, any case),
/// any number in a row, optionally after whitespace; a reply holding only the closing
/// `</think>` (chat templates that put the opening tag in the prompt), taken when nothing before
/// it could be the answer's JSON (the reply does not open with `{` or `[`, no fence comes
/// before it, and it does not follow a `"` or `\`); and harmony-style channels, where
/// everything up to `<|channel|>final<|message|>` is reasoning. Braces inside the reasoning do
/// not count as JSON. Linear in the text.
///
/// ```
/// use schema_core::llm::find_reasoning;
/// let reply = "<think>The user wants {\"a\": 1}?</think>\n{\"a\": 2}";
/// let r = find_reasoning(reply).unwrap();
/// assert!(r.closed);
/// assert_eq!(reply[r.span.end..].trim(), "{\"a\": 2}");
/// ```
pub fn find_reasoning(text: &str) -> Option<Reasoning> {
    let mut scan = ReasoningScan::new(0);
    scan.advance(text, true).flatten()
}

/// The incremental reader of a reply's reasoning preamble: [`find_reasoning`] over text that
/// grows. Each call resumes where the last one stopped, so the total work is linear.
#[derive(Debug, Clone)]
pub(crate) struct ReasoningScan {
    state: RState,
}

#[derive(Debug, Clone)]
enum RState {
    /// Only whitespace before `pos` (the text starts at the scanner's origin).
    Start {
        pos: usize,
    },
    /// Inside the block opened by `TAGS[tag]`; its close is searched for from `from`.
    InTag {
        lead: usize,
        tag: usize,
        from: usize,
    },
    /// After closed blocks ending at `end`; whitespace up to `pos`.
    Tags {
        lead: usize,
        end: usize,
        pos: usize,
    },
    /// Inside harmony channels; the final channel is searched for from `from`.
    Channel {
        lead: usize,
        from: usize,
    },
    /// No leading block: the first `</think>` or fence is searched for from `from`.
    Lone {
        lead: usize,
        from: usize,
    },
    Done(Option<Reasoning>),
}

impl ReasoningScan {
    /// A scanner of the text from `origin` on (the text before it is not the reply's).
    pub(crate) fn new(origin: usize) -> ReasoningScan {
        ReasoningScan {
            state: RState::Start { pos: origin },
        }
    }

    /// Reads `text` (the reply so far; `complete` when it is all of it): `None` while a later
    /// byte could change the answer, else the reasoning block (or none).
    pub(crate) fn advance(&mut self, text: &str, complete: bool) -> Option<Option<Reasoning>> {
        let len = text.len();
        loop {
            self.state = match self.state {
                RState::Done(ref r) => return Some(r.clone()),
                RState::Start { pos } => {
                    let p = skip_ws(text, pos);
                    if p == len && !complete {
                        self.state = RState::Start { pos: p };
                        return None;
                    }
                    let rest = &text[p..];
                    if rest.starts_with(CHANNEL) || rest.starts_with(START) {
                        RState::Channel { lead: p, from: p }
                    } else if !complete
                        && (CHANNEL.starts_with(rest) || START.starts_with(rest) || waits(rest))
                    {
                        self.state = RState::Start { pos: p };
                        return None;
                    } else if let Some(tag) = opening_tag(rest) {
                        RState::InTag {
                            lead: p,
                            tag,
                            from: p + TAGS[tag].0.len(),
                        }
                    } else if rest.starts_with(['{', '[']) {
                        // A `</think>` after JSON the reply opens with is never taken.
                        RState::Done(None)
                    } else {
                        RState::Lone { lead: p, from: p }
                    }
                }
                RState::InTag { lead, tag, from } => {
                    let close = TAGS[tag].1;
                    super::count_work((len - from) as u64);
                    match find_ci(&text[from..], close) {
                        Some(k) => {
                            let end = from + k + close.len();
                            RState::Tags {
                                lead,
                                end,
                                pos: end,
                            }
                        }
                        None if complete => RState::Done(Some(Reasoning {
                            span: lead..len,
                            closed: false,
                        })),
                        None => {
                            let from = floor_boundary(text, len.saturating_sub(close.len() - 1));
                            self.state = RState::InTag {
                                lead,
                                tag,
                                from: from.max(lead),
                            };
                            return None;
                        }
                    }
                }
                RState::Tags { lead, end, pos } => {
                    let p = skip_ws(text, pos);
                    let rest = &text[p..];
                    if !complete && (rest.is_empty() || waits(rest)) {
                        self.state = RState::Tags { lead, end, pos: p };
                        return None;
                    }
                    match opening_tag(rest) {
                        Some(tag) => RState::InTag {
                            lead,
                            tag,
                            from: p + TAGS[tag].0.len(),
                        },
                        None => RState::Done(Some(Reasoning {
                            span: lead..end,
                            closed: true,
                        })),
                    }
                }
                RState::Channel { lead, from } => {
                    super::count_work((len - from) as u64);
                    match text[from..].find(FINAL) {
                        Some(k) => RState::Done(Some(Reasoning {
                            span: lead..from + k + FINAL.len(),
                            closed: true,
                        })),
                        None if complete => RState::Done(Some(Reasoning {
                            span: lead..len,
                            closed: false,
                        })),
                        None => {
                            let from = floor_boundary(text, len.saturating_sub(FINAL.len() - 1));
                            self.state = RState::Channel {
                                lead,
                                from: from.max(lead),
                            };
                            return None;
                        }
                    }
                }
                RState::Lone { lead, from } => match lone_close(text, from, complete) {
                    Lone::Pending(at) => {
                        self.state = RState::Lone { lead, from: at };
                        return None;
                    }
                    Lone::Fence | Lone::None => RState::Done(None),
                    Lone::Close(k) => {
                        // Not inside a JSON string (`Here: {"a": "</think>"}`).
                        let in_string = text[..k].ends_with(['"', '\\']);
                        RState::Done((!in_string).then(|| Reasoning {
                            span: lead..k + LONE_CLOSE.len(),
                            closed: true,
                        }))
                    }
                },
            };
        }
    }

    /// While no reasoning block opened the reply but a lone `</think>` may still end one
    /// (the reply so far does not open with JSON and holds no fence): where the answer starts
    /// if none comes. The stream reads the answer from there, ready to start again after a
    /// `</think>`.
    #[cfg(feature = "stream")]
    pub(crate) fn tentative(&self) -> Option<usize> {
        match self.state {
            RState::Lone { lead, .. } => Some(lead),
            _ => None,
        }
    }
}

/// What the search for a lone `</think>` found.
enum Lone {
    /// A `</think>` at this offset, the first, with no fence before it.
    Close(usize),
    /// A fence first: no `</think>` after it is a reasoning block's end.
    Fence,
    /// Neither, in the whole text.
    None,
    /// Neither yet; the search goes on from this offset.
    Pending(usize),
}

fn lone_close(text: &str, from: usize, complete: bool) -> Lone {
    let bytes = text.as_bytes();
    let mut i = from;
    while let Some(k) = bytes[i..].iter().position(|&b| b == b'<' || b == b'`') {
        let at = i + k;
        let rest = &text[at..];
        if rest.starts_with(LONE_CLOSE) {
            super::count_work(at.saturating_sub(from) as u64);
            return Lone::Close(at);
        }
        if rest.starts_with(FENCE) {
            super::count_work(at.saturating_sub(from) as u64);
            return Lone::Fence;
        }
        if !complete && (LONE_CLOSE.starts_with(rest) || FENCE.starts_with(rest)) {
            return Lone::Pending(at);
        }
        i = at + 1;
    }
    super::count_work(bytes.len().saturating_sub(from) as u64);
    if complete {
        Lone::None
    } else {
        Lone::Pending(bytes.len())
    }
}

/// The end of the whitespace at `pos` (Unicode whitespace, as `str::trim_start`).
fn skip_ws(text: &str, pos: usize) -> usize {
    let rest = &text[pos..];
    pos + (rest.len() - rest.trim_start().len())
}

/// The reasoning tag `rest` opens with, as its index in [`TAGS`].
fn opening_tag(rest: &str) -> Option<usize> {
    TAGS.iter().position(|(o, _)| starts_with_ci(rest, o))
}

/// Whether `rest` is the start of a reasoning tag, cut short: a later byte decides.
fn waits(rest: &str) -> bool {
    TAGS.iter()
        .any(|(o, _)| rest.len() < o.len() && starts_with_ci(o, rest))
}

/// `at`, or the start of the character it falls inside.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

fn find_ci(s: &str, needle: &str) -> Option<usize> {
    let n = needle.as_bytes();
    s.as_bytes()
        .windows(n.len())
        .position(|w| w.eq_ignore_ascii_case(n))
}

/// Whether a fence's info line (what follows its opening backticks) marks a JSON block:
/// untagged, or tagged `json`, `jsonc` or `json5` (any case). The tag is the line's first word:
/// ```` ```{"a": 1} ```` is a fence tagged `{"a":`, whose value stays in the prose.
pub(crate) fn is_json_info(line: &str) -> bool {
    match line.split_whitespace().next() {
        None => true,
        Some(tag) => ["json", "jsonc", "json5"]
            .iter()
            .any(|t| tag.eq_ignore_ascii_case(t)),
    }
}

/// The body ranges of the fenced blocks tagged as JSON (`json`, `jsonc`, `json5`, any case) or
/// untagged, in order, at most 16. A block without a closing fence runs to the end of the text
/// (a truncated reply); an opening fence whose info line has no newline after it opens nothing.
///
/// The scan is JSON-aware: a ```` ``` ```` inside a JSON string (a code generator's answer
/// holding a markdown snippet) does not close the block. A raw newline ends such a string (JSON
/// strings cannot hold one), so a stray quote cannot hide the real closing fence; and when no
/// fence outside strings is found, the first one closes the block.
///
/// ```
/// use schema_core::llm::json_fences;
/// let text = "```json\n{\"code\": \"see ``` below\"}\n```\n";
/// let body = json_fences(text)[0].clone();
/// assert_eq!(&text[body], "{\"code\": \"see ``` below\"}\n");
/// ```
pub fn json_fences(text: &str) -> Vec<Range<usize>> {
    json_fences_from(text, 0)
}

/// [`json_fences`] of `text[from..]`, as offsets into `text`.
pub(crate) fn json_fences_from(text: &str, from: usize) -> Vec<Range<usize>> {
    let mut scan = FenceScan::new(from);
    let mut out = Vec::new();
    let mut open = None;
    while out.len() < MAX_FENCES {
        match scan.step(text, true) {
            FenceStep::Opened { json, body } => open = json.then_some(body),
            FenceStep::Closed { end } => {
                if let Some(body) = open.take() {
                    out.push(body..end);
                }
            }
            FenceStep::Pending | FenceStep::End => break,
        }
    }
    out
}

/// What [`FenceScan::step`] found next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FenceStep {
    /// A fence opened (its info line ended); its body starts at `body`.
    Opened {
        /// Whether the info line marks JSON ([`is_json_info`]).
        json: bool,
        /// Where the body starts: just after the info line's newline.
        body: usize,
    },
    /// The open fence's body ends at `end` (its closing fence, or the end of the text).
    Closed {
        /// The end of the body.
        end: usize,
    },
    /// Nothing more until the text grows.
    Pending,
    /// No more fences, whatever follows.
    End,
}

/// The incremental fence reader behind [`json_fences`]: opening fences, their info lines and
/// their (JSON-aware) closing fences, one step at a time as the text grows.
#[derive(Debug, Clone)]
pub(crate) struct FenceScan {
    state: FState,
}

#[derive(Debug, Clone, Copy)]
enum FState {
    /// Looking for an opening fence from `from`.
    Seek {
        from: usize,
    },
    /// Backticks that opened a fence end at or after `from`; then the info line.
    Info {
        from: usize,
    },
    /// In the info line that starts at `info`; its newline is searched for from `from`.
    Line {
        info: usize,
        from: usize,
    },
    /// In a body that starts at `body`, scanned up to `pos` (`in_string` there: inside a
    /// JSON string; `escape`: after its backslash).
    Body {
        body: usize,
        pos: usize,
        in_string: bool,
        escape: bool,
    },
    /// After a closing fence at `at`: its backticks are skipped, then the next fence is sought.
    After {
        at: usize,
    },
    Done,
}

impl FenceScan {
    /// A scanner of the text from `from` on.
    pub(crate) fn new(from: usize) -> FenceScan {
        FenceScan {
            state: FState::Seek { from },
        }
    }

    /// The next thing found in `text` (the reply so far; `complete` when it is all of it).
    pub(crate) fn step(&mut self, text: &str, complete: bool) -> FenceStep {
        let bytes = text.as_bytes();
        let len = bytes.len();
        loop {
            match self.state {
                FState::Done => return FenceStep::End,
                FState::Seek { from } => match text[from..].find(FENCE) {
                    Some(k) => {
                        super::count_work(k as u64);
                        self.state = FState::Info {
                            from: from + k + FENCE.len(),
                        };
                    }
                    None if complete => {
                        self.state = FState::Done;
                        return FenceStep::End;
                    }
                    None => {
                        super::count_work((len - from) as u64);
                        let next = floor_boundary(text, len.saturating_sub(FENCE.len() - 1));
                        self.state = FState::Seek {
                            from: next.max(from),
                        };
                        return FenceStep::Pending;
                    }
                },
                FState::Info { from } | FState::After { at: from } => {
                    let mut p = from;
                    while bytes.get(p) == Some(&b'`') {
                        p += 1;
                    }
                    if p == len && !complete {
                        self.state = match self.state {
                            FState::After { .. } => FState::After { at: p },
                            _ => FState::Info { from: p },
                        };
                        return FenceStep::Pending;
                    }
                    self.state = match self.state {
                        FState::After { .. } => FState::Seek { from: p },
                        _ => FState::Line { info: p, from: p },
                    };
                }
                FState::Line { info, from } => match text[from..].find('\n') {
                    Some(k) => {
                        let line_end = from + k;
                        super::count_work((line_end - info) as u64);
                        let body = line_end + 1;
                        self.state = FState::Body {
                            body,
                            pos: body,
                            in_string: false,
                            escape: false,
                        };
                        return FenceStep::Opened {
                            json: is_json_info(&text[info..line_end]),
                            body,
                        };
                    }
                    // An info line the text ends in opens no fence, and no fence follows.
                    None if complete => {
                        self.state = FState::Done;
                        return FenceStep::End;
                    }
                    None => {
                        self.state = FState::Line { info, from: len };
                        return FenceStep::Pending;
                    }
                },
                FState::Body {
                    body,
                    pos,
                    mut in_string,
                    mut escape,
                } => {
                    let mut i = pos;
                    let mut close = None;
                    while i < len {
                        let c = bytes[i];
                        if escape {
                            escape = false;
                        } else if in_string {
                            match c {
                                b'\\' => escape = true,
                                b'"' | b'\n' => in_string = false,
                                _ => {}
                            }
                        } else if c == b'"' {
                            in_string = true;
                        } else if c == b'`' {
                            if bytes[i..].starts_with(FENCE.as_bytes()) {
                                close = Some(i);
                                break;
                            }
                            if !complete && FENCE.as_bytes().starts_with(&bytes[i..]) {
                                // `` ` `` or ``` `` ``` at the end: a later byte decides.
                                break;
                            }
                        }
                        i += 1;
                    }
                    super::count_work((i - pos) as u64);
                    let close = match close {
                        Some(c) => Some(c),
                        None if complete => text[body..].find(FENCE).map(|k| body + k),
                        None => {
                            self.state = FState::Body {
                                body,
                                pos: i,
                                in_string,
                                escape,
                            };
                            return FenceStep::Pending;
                        }
                    };
                    match close {
                        Some(c) => {
                            self.state = FState::After {
                                at: c + FENCE.len(),
                            };
                            return FenceStep::Closed { end: c };
                        }
                        None => {
                            self.state = FState::Done;
                            return FenceStep::Closed { end: len };
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasoning_forms() {
        let r = find_reasoning("  <think>a {b}</think><reasoning>c</reasoning> {}").unwrap();
        assert_eq!(r.span, 2..46);
        assert!(find_reasoning("<THINK>x").is_some_and(|r| !r.closed));
        let t = "x {y} </think>{\"a\": 1}";
        assert_eq!(find_reasoning(t).unwrap().span.end, 14);
        let t = "<|channel|>analysis<|message|>{x}<|end|><|start|>assistant<|channel|>final<|message|>{}";
        assert_eq!(&t[find_reasoning(t).unwrap().span.end..], "{}");
        assert_eq!(find_reasoning("{\"a\": \"</think>\"}"), None);
        assert_eq!(find_reasoning("Here: {\"a\": \"</think>\"}"), None);
        assert_eq!(find_reasoning("no reasoning {}"), None);
    }

    /// The scanners fed a text growing byte by byte agree with one pass over the whole text:
    /// a pending answer is never wrong, and a settled one never changes.
    #[test]
    fn incremental_scans_agree_with_whole_ones() {
        let texts = [
            "  <think>a {b}</think><reasoning>c</reasoning> {}",
            "<THINK>x</Think>\n<thinking>y",
            "x {y} </think>{\"a\": 1}",
            "Here: {\"a\": \"</think>\"}",
            "<|channel|>analysis<|message|>{x}<|end|><|start|>assistant<|channel|>final<|message|>{}",
            "<|start|>x",
            "see ```json\n{}\n``` then </think> {}",
            "<thin",
            "<think>é</think>é</think>",
            "pre ```python\nx = \"```\"\n```\n```json\n{\"a\": \"``` \\\" ```\"}\n```\n````\n[1]\n````",
            "```json\n{\"a\": \"x}\n```\n",
            "```{\"kind\":\"stop\"}\n```\ntext ```",
            "``` json\n1\n``",
            "\u{a0}\u{2003}<think>x</think>\u{a0}{}",
        ];
        for text in texts {
            let whole = find_reasoning(text);
            let mut scan = ReasoningScan::new(0);
            let mut fences = FenceScan::new(0);
            let mut steps = Vec::new();
            for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
                let complete = end == text.len();
                if let Some(r) = scan.advance(&text[..end], complete) {
                    assert_eq!(r, whole, "{text:?} at {end}");
                }
                loop {
                    match fences.step(&text[..end], complete) {
                        FenceStep::Pending => break,
                        FenceStep::End => {
                            steps.push(FenceStep::End);
                            break;
                        }
                        s => steps.push(s),
                    }
                }
                if complete {
                    break;
                }
            }
            let mut once = FenceScan::new(0);
            let mut want = Vec::new();
            loop {
                match once.step(text, true) {
                    FenceStep::End => {
                        want.push(FenceStep::End);
                        break;
                    }
                    s => want.push(s),
                }
            }
            assert_eq!(steps, want, "{text:?}");
        }
    }

    #[test]
    fn fences_ignore_backticks_in_strings() {
        let t = "```\n{\"code\": \"see ``` below\", \"n\": 1}\n```\nprose";
        assert_eq!(
            &t[json_fences(t)[0].clone()],
            "{\"code\": \"see ``` below\", \"n\": 1}\n"
        );
        // An unclosed quote does not hide the closing fence.
        let t = "```json\n{\"a\": \"x}\n```\n";
        assert_eq!(&t[json_fences(t)[0].clone()], "{\"a\": \"x}\n");
    }
}
