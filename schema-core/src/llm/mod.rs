//! Finding the JSON in a model's reply: the text layer under `from_llm`.
//!
//! A model asked for JSON answers with the bare value, a value in a ```` ```json ```` fence,
//! or a value wrapped in prose ("Sure! Here is the JSON: ..."). [`extract_json`] finds it, in
//! that order of preference, and checks its syntax with `serde_json`. A reply cut off by the
//! token limit is reported as [`ExtractError::Truncated`], a reply without JSON that reads as a
//! refusal as [`ExtractError::Refusal`].
//!
//! Repairs are opt-in ([`ExtractOptions::lenient`], [`ExtractOptions::repair_truncated`]) and
//! every repair is reported with its offset, so a caller can log it or refuse it; a repair
//! never changes a value (a string stays a string, a number keeps its digits).
//!
//! ```
//! use schema_core::llm::{extract_json, ExtractOptions, RepairKind, Source};
//!
//! let reply = "Sure! Here is the JSON:\n```json\n{\"lang\": \"en\"}\n```\nAnything else?";
//! let found = extract_json(reply, &ExtractOptions::default()).unwrap();
//! assert_eq!(found.json, "{\"lang\": \"en\"}");
//! assert_eq!(found.source, Source::Fenced);
//!
//! let lenient = ExtractOptions { lenient: true, ..ExtractOptions::default() };
//! let found = extract_json("{'lang': 'en',}", &lenient).unwrap();
//! assert_eq!(found.json, "{\"lang\": \"en\" }");
//! assert_eq!(found.repairs[0].kind, RepairKind::SingleQuotes);
//! assert_eq!(found.repairs[2].kind, RepairKind::TrailingComma);
//! ```

mod refusal;
mod repair;
mod scan;
mod text;

pub use refusal::detect_refusal;
pub(crate) use text::MAX_UNCLOSED_TRIES;
pub use text::{find_reasoning, json_fences, Reasoning};
#[cfg(feature = "stream")]
pub(crate) use text::{FenceScan, FenceStep, ReasoningScan, MAX_FENCES};

use scan::Scan;
use serde_json::error::Category;
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// How hard [`extract_json`] tries, and its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractOptions {
    /// Repair common mistakes: trailing commas, single-quoted strings, unquoted keys, `//` and
    /// `/* */` comments, raw control characters in strings, and the literals `True`, `False`,
    /// `None`, `undefined`. Default `false`.
    pub lenient: bool,
    /// Close a value the reply ends inside (a reply cut by the token limit): close the open
    /// string, drop a dangling key, `:`, `,` or a possibly cut number, close the brackets.
    /// Default `false`, so truncation is an error.
    pub repair_truncated: bool,
    /// Longest input accepted, in bytes. Default 8 MiB.
    pub max_len: usize,
    /// Deepest nesting of objects and arrays accepted. Default 128; values above 127 act as 127,
    /// the deepest `serde_json` parses.
    pub max_depth: usize,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions {
            lenient: false,
            repair_truncated: false,
            max_len: 8 << 20,
            max_depth: 128,
        }
    }
}

/// The JSON found in a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted<'a> {
    /// The JSON text: borrowed from the input unless repaired.
    pub json: Cow<'a, str>,
    /// Where in the input the JSON (before any repair) is.
    pub span: Range<usize>,
    /// How it was found.
    pub source: Source,
    /// Every repair made, in input order; empty unless repairs were enabled and needed.
    pub repairs: Vec<Repair>,
    /// The reasoning block skipped before the answer (`<think>…</think>` and the like), if
    /// the reply had one.
    pub reasoning: Option<Range<usize>>,
}

/// How the JSON was found in the reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The whole reply, after trimming whitespace, is the value.
    Whole,
    /// In a ```` ``` ````, ```` ```json ```` (any case), ```` ```jsonc ```` or ```` ```json5 ````
    /// fenced block.
    Fenced,
    /// The first object or array in the prose that parses (or the one the reply opens with,
    /// followed by more text).
    Embedded,
}

/// One repair made to the reply's JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// Byte offset in the input where the repaired text starts (for [`RepairKind::ClosedTruncated`],
    /// the end of the input).
    pub offset: usize,
    /// What was repaired.
    pub kind: RepairKind,
}

/// What a [`Repair`] changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RepairKind {
    /// A `,` before `}` or `]` was removed.
    TrailingComma,
    /// A single-quoted string was double-quoted (its content unchanged).
    SingleQuotes,
    /// An unquoted object key was quoted.
    UnquotedKey,
    /// A `//`, `/* */` or `#` comment was replaced by a space.
    Comment,
    /// A raw control character (a newline, a tab...) in a string was escaped.
    EscapedControl,
    /// A Python, JavaScript or upper-case literal was replaced by its JSON equivalent
    /// (`True` / `TRUE` -> `true`, `None` / `undefined` / `NULL` / `Null` -> `null`).
    PythonLiteral {
        /// The literal found.
        from: &'static str,
        /// The JSON literal written instead.
        to: &'static str,
    },
    /// A `,` between two members or items was missing and was written.
    MissingComma,
    /// An escape JSON does not have, in a double-quoted string: `\'`, or a backslash before a
    /// non-ASCII character such as `„`. The backslash was dropped, the character kept.
    EscapedQuote,
    /// A string delimited by curly quotes (`“key”`) was written with straight ones.
    CurlyQuotes,
    /// A closing bracket of the wrong kind: replaced by the right one, preceded by the missing
    /// closer of the inner container, or dropped as stray, whichever leaves the container that
    /// what follows needs.
    MismatchedBracket {
        /// The bracket found.
        found: char,
        /// What was written instead (empty when it was dropped).
        written: String,
    },
    /// A `}` or `]` closed the value while more members followed (`{"a": 1}, "b": 2}`): it was
    /// dropped, so the members after it are kept.
    PrematureClose {
        /// The bracket dropped.
        found: char,
    },
    /// In a truncated reply, an incomplete last member was dropped: a dangling key, `:` or `,`,
    /// a partial literal, or a number that may have been cut.
    DroppedTruncated {
        /// The text dropped, as it was in the input.
        text: String,
    },
    /// A truncated reply was closed by appending these characters.
    ClosedTruncated {
        /// The closing `"`, `}` and `]` appended.
        added: String,
    },
}

/// Why no JSON could be taken from a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtractError {
    /// The reply has no JSON object or array.
    NoJson,
    /// The reply has no JSON and reads as a refusal (see [`detect_refusal`]).
    Refusal {
        /// The reply, trimmed and cut to about 500 characters.
        text: String,
    },
    /// The reply ends inside a value, as when the token limit cut it.
    Truncated {
        /// Byte offset where the value's text ends: the end of the input, or of the fenced
        /// block holding it.
        offset: usize,
        /// What was still needed, e.g. "a closing `}`".
        expected: String,
    },
    /// The JSON is malformed (and lenient mode was off, or could not repair it).
    Syntax {
        /// 1-based line in the input.
        line: usize,
        /// 1-based column in the input, in characters.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The input is longer than [`ExtractOptions::max_len`].
    TooLarge {
        /// The input's length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The JSON nests deeper than [`ExtractOptions::max_depth`].
    TooDeep {
        /// The limit.
        max: usize,
    },
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::NoJson => f.write_str("the reply contains no JSON object or array"),
            ExtractError::Refusal { text } => {
                write!(
                    f,
                    "the model refused instead of answering with JSON: {text:?}"
                )
            }
            ExtractError::Truncated { offset, expected } => write!(
                f,
                "the reply ends inside the JSON value at byte {offset}: expected {expected}"
            ),
            ExtractError::Syntax {
                line,
                column,
                message,
            } => write!(f, "invalid JSON at line {line}, column {column}: {message}"),
            ExtractError::TooLarge { len, max } => {
                write!(f, "the reply is {len} bytes, more than the limit of {max}")
            }
            ExtractError::TooDeep { max } => {
                write!(f, "the JSON nests deeper than the limit of {max} levels")
            }
        }
    }
}

impl std::error::Error for ExtractError {}

impl fmt::Display for RepairKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RepairKind::TrailingComma => f.write_str("removed a trailing comma"),
            RepairKind::SingleQuotes => f.write_str("double-quoted a single-quoted string"),
            RepairKind::UnquotedKey => f.write_str("quoted an unquoted key"),
            RepairKind::Comment => f.write_str("removed a comment"),
            RepairKind::EscapedControl => f.write_str("escaped a control character in a string"),
            RepairKind::PythonLiteral { from, to } => write!(f, "replaced `{from}` by `{to}`"),
            RepairKind::MissingComma => f.write_str("added a missing comma"),
            RepairKind::EscapedQuote => f.write_str("replaced the escape `\\'` by `'`"),
            RepairKind::CurlyQuotes => f.write_str("replaced curly quotes by straight ones"),
            RepairKind::MismatchedBracket { found, written } if written.is_empty() => {
                write!(f, "dropped a stray `{found}`")
            }
            RepairKind::MismatchedBracket { found, written } => {
                write!(f, "replaced a mismatched `{found}` by `{written}`")
            }
            RepairKind::PrematureClose { found } => write!(
                f,
                "dropped a `{found}` that closed the value before its last members"
            ),
            RepairKind::DroppedTruncated { text } => {
                write!(
                    f,
                    "dropped the incomplete `{text}` at the end of the truncated reply"
                )
            }
            RepairKind::ClosedTruncated { added } => {
                write!(f, "closed the truncated reply with `{added}`")
            }
        }
    }
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.kind, self.offset)
    }
}

/// The deepest nesting `serde_json` parses into a typed value or a `Value` (its recursion limit
/// is 128 levels, exclusive); deeper JSON could be found here but never deserialized.
const SERDE_MAX_DEPTH: usize = 127;
/// How much of a refusal is kept, in characters.
const REFUSAL_KEEP: usize = 500;

thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn count_work(bytes: u64) {
    WORK.with(|w| w.set(w.get().saturating_add(bytes)));
}

/// How many bytes the extractor has examined on this thread so far (scanned, syntax-checked,
/// or counted for a line number): a measure of its work that does not depend on the machine,
/// for tests that its time is linear in the input.
pub(crate) fn work_counter() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// Finds the JSON value in a model's reply and checks its syntax.
///
/// A reasoning preamble (`<think>…</think>`, `<reasoning>…</reasoning>`, a
/// `<|channel|>analysis…<|channel|>final<|message|>` block; see [`find_reasoning`]) is skipped
/// first and reported in [`Extracted::reasoning`]. Then, in order of preference: the whole reply
/// (trimmed) if it is a JSON value; else the object or array the reply opens with, if it holds
/// a string (whatever text follows it); else the first ```` ```json ```` (or ```` ``` ````,
/// ```` ```JSON ````) fenced block holding one (a fence inside a JSON string does not close the
/// block; a fence tagged with another language, or with JSON on its opening line, is prose);
/// else the first object or array in the prose. Fences and reasoning are read by the text layer
/// the stream reader shares ([`find_reasoning`], [`json_fences`]), so a stream chooses the same
/// value. Braces inside strings do not count;
/// prose like `{curly}` is skipped; a candidate without strings, such as a citation `[1]`, is
/// taken only when nothing better is found.
///
/// The first candidate that looks like JSON is the answer: when it is broken, the result is its
/// error (or, in lenient mode, its reported repair), never a later or inner fragment, and
/// members after a premature `}` are never lost. A value the text ends inside, with every
/// earlier token consistent, is [`ExtractError::Truncated`] unless
/// [`ExtractOptions::repair_truncated`] is set; an unclosed quote in a complete reply, escaped
/// JSON (`{\"key\": 1}`) or a mismatched bracket is [`ExtractError::Syntax`], and so is a key
/// written twice in one object (at the second one's closing quote: `serde_json` would keep the
/// last value, a stream would have judged the first, and which one the model meant is not
/// known).
///
/// Without JSON: [`ExtractError::Refusal`] if [`detect_refusal`] says so, else
/// [`ExtractError::NoJson`]. What it returns, `from_llm` parses: strings and numbers are checked
/// as a `Value` would read them (a lone `\ud800` or `1e400` is a syntax error).
///
/// Runs in time linear in the input, with no recursion; nothing in the input can make it panic.
pub fn extract_json<'a>(
    text: &'a str,
    opts: &ExtractOptions,
) -> Result<Extracted<'a>, ExtractError> {
    if text.len() > opts.max_len {
        return Err(ExtractError::TooLarge {
            len: text.len(),
            max: opts.max_len,
        });
    }
    let reasoning = find_reasoning(text);
    let from = match &reasoning {
        Some(r) if !r.closed => {
            return Err(ExtractError::Truncated {
                offset: text.len(),
                expected: "the end of the reasoning block, then the answer".into(),
            })
        }
        Some(r) => r.span.end,
        None => 0,
    };
    let finder = Finder {
        text,
        from,
        opts,
        max_depth: opts.max_depth.min(SERDE_MAX_DEPTH),
    };
    match finder.find() {
        Ok(mut x) => {
            x.reasoning = reasoning.map(|r| r.span);
            Ok(x)
        }
        Err(f) => Err(f.into_error(text)),
    }
}

/// A failure whose position is turned into a line and column only if it is the one returned.
enum Fail {
    Syntax { offset: usize, message: String },
    Other(ExtractError),
}

impl Fail {
    fn into_error(self, text: &str) -> ExtractError {
        match self {
            Fail::Other(e) => e,
            Fail::Syntax { offset, message } => {
                let mut offset = offset.min(text.len());
                while !text.is_char_boundary(offset) {
                    offset -= 1;
                }
                let before = &text[..offset];
                count_work(offset as u64);
                let line_start = before.rfind('\n').map_or(0, |k| k + 1);
                ExtractError::Syntax {
                    line: 1 + before.bytes().filter(|&b| b == b'\n').count(),
                    column: 1 + before[line_start..].chars().count(),
                    message,
                }
            }
        }
    }
}

/// The outcome of trying one candidate.
enum Eval<'a> {
    Found(Extracted<'a>),
    /// Not JSON (prose such as `{curly}`): go on after `end` (or after the opening bracket).
    Skip {
        end: Option<usize>,
    },
    /// The answer, broken: stop the search with this error.
    Final(Fail),
}

struct Finder<'a, 'o> {
    text: &'a str,
    /// Where the answer starts (after a reasoning block).
    from: usize,
    opts: &'o ExtractOptions,
    max_depth: usize,
}

impl<'a> Finder<'a, '_> {
    fn find(self) -> Result<Extracted<'a>, Fail> {
        let bytes = self.text.as_bytes();
        let whole = trimmed(self.text, self.from..self.text.len());
        if whole.is_empty() {
            return Err(Fail::Other(ExtractError::NoJson));
        }
        let container = matches!(bytes[whole.start], b'{' | b'[');
        // Scalars are taken only whole. (A container is always scanned first, for its depth:
        // the syntax check skips values iteratively and has no depth limit of its own.)
        if !container {
            if let Some(x) = self.exact(whole.clone(), Source::Whole) {
                return Ok(x);
            }
        }
        let mut weak: Option<Extracted<'a>> = None;
        if container {
            match self.eval(whole.start, self.text.len(), Source::Whole) {
                Eval::Found(x) if x.span.end == whole.end => return Ok(x),
                // Followed by more text: a value without strings (`[1] shows...`) may be a
                // citation, and a fence or a later candidate may say more.
                Eval::Found(x) if is_weak(&x.json) => weak = Some(x),
                // A reply that opens with JSON answers with it, whatever follows (so a stream
                // that reads it knows it is the answer from its first string on).
                Eval::Found(mut x) => {
                    x.source = Source::Embedded;
                    return Ok(x);
                }
                Eval::Skip { .. } => {}
                Eval::Final(f) => return Err(f),
            }
        }

        for region in text::json_fences_from(self.text, self.from) {
            let inner = trimmed(self.text, region.clone());
            if inner.is_empty() {
                continue;
            }
            let container = matches!(bytes[inner.start], b'{' | b'[');
            if !container {
                if let Some(x) = self.exact(inner.clone(), Source::Fenced) {
                    return Ok(x);
                }
                continue;
            }
            match self.eval(inner.start, region.end, Source::Fenced) {
                Eval::Found(x) => return Ok(x),
                Eval::Skip { .. } => {}
                Eval::Final(f) => return Err(f),
            }
        }

        let mut pos = self.from;
        let mut unclosed_tries = 0;
        while let Some(k) = bytes[pos..].iter().position(|&b| b == b'{' || b == b'[') {
            let start = pos + k;
            count_work(k as u64);
            match self.eval(start, self.text.len(), Source::Embedded) {
                Eval::Found(x) if is_weak(&x.json) => {
                    pos = x.span.end;
                    weak.get_or_insert(x);
                }
                Eval::Found(mut x) => {
                    if x.span == whole {
                        x.source = Source::Whole;
                    }
                    return Ok(x);
                }
                Eval::Skip { end } => match end {
                    Some(end) => pos = end.max(start + 1),
                    None => {
                        unclosed_tries += 1;
                        if unclosed_tries >= MAX_UNCLOSED_TRIES {
                            break;
                        }
                        pos = start + 1;
                    }
                },
                Eval::Final(f) => return Err(f),
            }
        }
        if let Some(x) = weak {
            return Ok(x);
        }
        let answer = &self.text[self.from..];
        if detect_refusal(answer) {
            let text = answer.trim();
            let text = match text.char_indices().nth(REFUSAL_KEEP) {
                Some((cut, _)) => format!("{}…", &text[..cut]),
                None => text.to_string(),
            };
            return Err(Fail::Other(ExtractError::Refusal { text }));
        }
        Err(Fail::Other(ExtractError::NoJson))
    }

    /// The whole of `range` as a scalar JSON value (a string, number or literal), if it is one.
    fn exact(&self, range: Range<usize>, source: Source) -> Option<Extracted<'a>> {
        let json = &self.text[range.clone()];
        syntax_check(json).ok().map(|()| Extracted {
            json: Cow::Borrowed(json),
            span: range,
            source,
            repairs: Vec::new(),
            reasoning: None,
        })
    }

    /// Tries the object or array starting at `start`, looking no further than `limit`.
    fn eval(&self, start: usize, limit: usize, source: Source) -> Eval<'a> {
        let opts = self.opts;
        let bytes = self.text.as_bytes();
        let scanned = scan::scan(bytes, start, limit, opts.lenient, self.max_depth);
        // Judged on the first token only, so a long candidate costs nothing more here.
        let head_end = (start + 64).min(limit);
        let mut head_end_ok = head_end;
        while !self.text.is_char_boundary(head_end_ok) {
            head_end_ok -= 1;
        }
        // A container that is the whole reply is its answer, whatever its first token.
        let spans_whole = source == Source::Whole
            && match &scanned {
                Scan::Balanced(end) => *end == self.text.trim_end().len(),
                Scan::Unclosed { .. } => true,
                Scan::Mismatch(_) | Scan::TooDeep => false,
            };
        let json_like = source == Source::Fenced
            || spans_whole
            || looks_like_json(&self.text[start..head_end_ok.max(start + 1)], opts.lenient);
        let syntax = |offset: usize, message: String| {
            if json_like {
                Eval::Final(Fail::Syntax { offset, message })
            } else {
                Eval::Skip { end: None }
            }
        };
        let (mut end, unclosed) = match scanned {
            Scan::TooDeep => {
                return Eval::Final(Fail::Other(ExtractError::TooDeep {
                    max: self.max_depth,
                }))
            }
            Scan::Mismatch(at) => {
                if !json_like {
                    return Eval::Skip { end: Some(at + 1) };
                }
                return syntax(
                    at,
                    format!(
                        "`{}` does not close the {} open here",
                        bytes[at] as char,
                        if bytes[at] == b'}' { "array" } else { "object" }
                    ),
                );
            }
            Scan::Balanced(end) => (end, None),
            Scan::Unclosed { open, in_string } => (limit, Some((open, in_string))),
        };
        if unclosed.is_none() && json_like {
            let kind = bytes[start];
            if let Some(full) =
                scan::premature_close(bytes, end, limit, kind, opts.lenient, self.max_depth)
            {
                if !opts.lenient {
                    return syntax(
                        end - 1,
                        format!(
                            "`{}` closes the value here, but more members follow it",
                            bytes[end - 1] as char
                        ),
                    );
                }
                // The repairer drops the premature close and keeps what follows.
                end = full;
            }
        }
        if let Some((open, Some((_, quote_at)))) = &unclosed {
            if unclosed_quote_in_complete_reply(self.text, *quote_at, limit, open) {
                let message = if escaped_json(&self.text[start..end]) {
                    "the JSON's quotes are escaped (`\\\"`): write the JSON itself, not a string holding it"
                } else {
                    "this string has no closing quote"
                };
                return syntax(*quote_at, message.into());
            }
        }
        if !json_like && bytes[start] == b'{' {
            // An object whose first token is not a key, `}` or (lenient) a comment cannot parse,
            // and no repair invents a key: prose.
            return Eval::Skip {
                end: unclosed.is_none().then_some(end),
            };
        }
        let slice = &self.text[start..end];
        let span = start..end;
        let truncated = || {
            let (open, in_string) = unclosed.clone().unwrap_or_default();
            Eval::Final(Fail::Other(ExtractError::Truncated {
                offset: end,
                expected: scan::expected_closers(&open, in_string.map(|(q, _)| q)),
            }))
        };
        let bad = |fail: Fail| {
            if json_like {
                Eval::Final(fail)
            } else {
                Eval::Skip {
                    end: unclosed.is_none().then_some(end),
                }
            }
        };
        let strict_err = match syntax_check(slice) {
            Ok(()) => {
                return Eval::Found(Extracted {
                    json: Cow::Borrowed(slice),
                    span,
                    source,
                    repairs: Vec::new(),
                    reasoning: None,
                })
            }
            Err(e) => e,
        };
        let close = unclosed.is_some() && opts.repair_truncated;
        // Whether the text is a valid beginning of a value, cut off: serde_json ran out of input,
        // or (for a cut number such as `-1.`, which serde_json calls invalid) closing it parses.
        let cut_off = |err: &serde_json::Error| {
            unclosed.is_some()
                && (err.classify() == Category::Eof
                    || repair::repair(slice, start, opts.lenient, true)
                        .is_ok_and(|r| syntax_check(&r.text).is_ok()))
        };
        if !opts.lenient && !close {
            return if cut_off(&strict_err) {
                truncated()
            } else {
                bad(serde_syntax(&strict_err, slice, start, None))
            };
        }
        let repaired = match repair::repair(slice, start, opts.lenient, close) {
            Ok(r) => r,
            Err(f) => {
                return bad(Fail::Syntax {
                    offset: start + f.offset,
                    message: f.message,
                })
            }
        };
        match syntax_check(&repaired.text) {
            Ok(()) => Eval::Found(Extracted {
                json: Cow::Owned(repaired.text),
                span,
                source,
                repairs: repaired.repairs,
                reasoning: None,
            }),
            Err(e) if !close && cut_off(&e) => truncated(),
            Err(e) => bad(serde_syntax(&e, &repaired.text, start, Some(&repaired))),
        }
    }
}

/// A `serde_json` error on `checked` (the input slice at `base`, or its repaired form),
/// positioned in the original input.
fn serde_syntax(
    err: &serde_json::Error,
    checked: &str,
    base: usize,
    repaired: Option<&repair::Repaired>,
) -> Fail {
    let mut at = 0;
    for _ in 1..err.line() {
        match checked[at..].find('\n') {
            Some(k) => at += k + 1,
            None => break,
        }
    }
    count_work(at as u64);
    let at = (at + err.column().saturating_sub(1)).min(checked.len());
    let at = repaired.map_or(at, |r| r.input_offset(at));
    let message = err.to_string();
    let message = match message.rfind(" at line ") {
        Some(k) => message[..k].to_string(),
        None => message,
    };
    Fail::Syntax {
        offset: base + at,
        message,
    }
}

/// Whether the string opened at `quote_at` that the text ends inside is an unclosed quote in a
/// complete reply rather than a cut one: what it holds ends with exactly the closers the open
/// containers need (`{"key": "value}`, `{"a": ["x]}`; whitespace and a fence's backticks
/// aside), so the reply was finished and only the quote is missing.
fn unclosed_quote_in_complete_reply(
    text: &str,
    quote_at: usize,
    limit: usize,
    open: &[u8],
) -> bool {
    let Some(content) = text.get(quote_at + 1..limit) else {
        return false;
    };
    let mut tail = content
        .bytes()
        .rev()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'`');
    !open.is_empty()
        && open.iter().all(|&o| {
            let want = if o == b'{' { b'}' } else { b']' };
            tail.next() == Some(want)
        })
}

/// `{\"key\": ...`: JSON written as the content of a string.
fn escaped_json(candidate: &str) -> bool {
    candidate[1..].trim_start().starts_with("\\\"")
}

/// Whether `json` is one JSON value, as the extractor reads a fenced block that holds no object
/// or array (a scalar is taken only whole).
#[cfg(feature = "stream")]
pub(crate) fn is_json_value(json: &str) -> bool {
    syntax_check(json).is_ok()
}

/// Checks `json` the way a `Value` reads it: strings are decoded (a lone surrogate escape is an
/// error) and numbers converted (`1e400` is out of range), without building the value.
fn syntax_check(json: &str) -> Result<(), serde_json::Error> {
    count_work(json.len() as u64);
    serde_json::from_str::<Checked>(json).map(|_| ())
}

/// A value read only to check it: what serde_json's `IgnoredAny` would skip unchecked.
struct Checked;

impl<'de> serde::Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckedVisitor)
    }
}

struct CheckedVisitor;

impl<'de> serde::de::Visitor<'de> for CheckedVisitor {
    type Value = Checked;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        // A key written twice is an error (see `DUPLICATE_KEY`): the keys are compared as
        // decoded, in a list while they are few, in a set past that.
        let mut keys: Vec<Cow<'de, str>> = Vec::new();
        let mut set: std::collections::HashSet<Cow<'de, str>> = std::collections::HashSet::new();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let twice = if set.is_empty() {
                let twice = keys.contains(&key);
                keys.push(key.clone());
                if keys.len() > 16 {
                    set.extend(keys.drain(..));
                }
                twice
            } else {
                !set.insert(key.clone())
            };
            if twice {
                return Err(serde::de::Error::custom(duplicate_key(&key)));
            }
            map.next_value::<Checked>()?;
        }
        Ok(Checked)
    }
}

/// The message of the error for a key an object holds twice. `serde_json` keeps the last value
/// of such a key, the stream would have judged the first: which one the model meant is not
/// known, so the extractor (and with it `from_llm`) and the stream both reject the object, at
/// the second key's closing quote.
pub(crate) fn duplicate_key(key: &str) -> String {
    format!("the key {key:?} is written twice in this object")
}

/// An object key, borrowed from the text unless it has escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> serde::de::Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s.to_string())))
    }
}

/// The syntax error `message` at byte `offset` of `text`, with its line and column as the
/// extractor writes them.
#[cfg(any(feature = "stream", test))]
pub(crate) fn syntax_at(text: &str, offset: usize, message: String) -> ExtractError {
    Fail::Syntax { offset, message }.into_error(text)
}

/// `range` of `text` without leading and trailing whitespace.
fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let s = &text[range.clone()];
    let start = range.start + (s.len() - s.trim_start().len());
    let end = range.end - (s.len() - s.trim_end().len());
    start..end.max(start)
}

/// Whether an embedded candidate (starting with `{` or `[`) looks like JSON rather than prose,
/// judged by its first token: its error is reported only then.
pub(crate) fn looks_like_json(candidate: &str, lenient: bool) -> bool {
    let object = candidate.starts_with('{');
    let rest = candidate[1..].trim_start();
    let Some(c) = rest.chars().next() else {
        return true;
    };
    match c {
        '"' => true,
        '\\' => rest.starts_with("\\\""),
        '}' => object,
        '\'' | '\u{201c}' | '#' => lenient,
        '/' => lenient && (rest.starts_with("//") || rest.starts_with("/*")),
        '0'..='9' if object => {
            // A numeric key, which lenient mode quotes: digits, then `:`.
            let digits = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            lenient && rest[digits..].trim_start().starts_with(':')
        }
        '{' | '[' | ']' | '-' | '0'..='9' => !object,
        't' | 'f' | 'n' if !object => ["true", "false", "null"]
            .iter()
            .any(|l| rest.starts_with(l)),
        c if object && lenient && (c.is_ascii_alphabetic() || c == '_') => {
            // An unquoted key: an identifier, then `:`.
            let ident = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                .unwrap_or(rest.len());
            // (or a comment before the `:`)
            rest[ident..].trim_start().starts_with([':', '/', '#'])
        }
        _ => false,
    }
}

/// A candidate found in prose that holds no string: `[1]`, `{}`, `[1, 2]`. Citations and set
/// notation look like that, so a later candidate with strings is preferred.
fn is_weak(json: &str) -> bool {
    !json.contains('"')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(text: &str) -> Result<Extracted<'_>, ExtractError> {
        extract_json(text, &ExtractOptions::default())
    }

    #[test]
    fn fences_are_found_with_any_json_tag() {
        for tag in ["json", "JSON", "", "jsonc"] {
            let text = format!("Here:\n```{tag}\n{{\"a\": 1}}\n```\nDone.");
            let x = strict(&text).unwrap();
            assert_eq!((x.json.as_ref(), x.source), ("{\"a\": 1}", Source::Fenced));
            assert_eq!(&text[x.span], "{\"a\": 1}");
        }
        let text = "```python\nx = {'a': 1}\n```\nand {\"b\": 2}";
        assert_eq!(strict(text).unwrap().json, "{\"b\": 2}");
    }

    #[test]
    fn json_fences_skips_other_languages() {
        let text = "```rust\nfn f() {}\n```\n```json\n[1]\n```";
        let regions = json_fences(text);
        assert_eq!(regions.len(), 1);
        assert_eq!(&text[regions[0].clone()], "[1]\n");
    }

    #[test]
    fn scalars_only_when_whole() {
        assert_eq!(strict("  42 ").unwrap().source, Source::Whole);
        assert_eq!(strict("The answer is 42."), Err(ExtractError::NoJson));
    }

    #[test]
    fn citations_lose_to_a_later_object() {
        let x = strict("As shown in [1] and [2], the result is {\"ok\": true}.").unwrap();
        assert_eq!(x.json, "{\"ok\": true}");
        assert_eq!(strict("See [1].").unwrap().json, "[1]");
        assert!(matches!(
            strict("Per [1]: {\"ok\": tru} [2]"),
            Err(ExtractError::Syntax { .. })
        ));
    }

    #[test]
    fn syntax_positions_are_in_the_original_text() {
        let text = "Result:\n\n{\"a\": 1,\n \"b\": x}";
        assert_eq!(
            strict(text),
            Err(ExtractError::Syntax {
                line: 4,
                column: 7,
                message: "expected value".into()
            })
        );
    }

    #[test]
    fn a_key_written_twice_is_a_syntax_error_at_its_closing_quote() {
        let text = "Sure: {\"a\": {\"b\": 1, \"c\": 2, \"b\": 3}}";
        let at = text.rfind("\"b\"").unwrap() + 2;
        assert_eq!(strict(text), Err(syntax_at(text, at, duplicate_key("b"))));
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}, \"k\\u0033\": 0}}", many.join(", "));
        let at = text.len() - 5;
        assert_eq!(
            strict(&text),
            Err(syntax_at(&text, at, duplicate_key("k3")))
        );
        assert!(strict("{\"a\": 1, \"b\": {\"a\": 2}}").is_ok());
    }

    #[test]
    fn looks_like_json_by_first_token() {
        assert!(looks_like_json("{\"a\"", false));
        assert!(!looks_like_json("{curly}", false));
        assert!(!looks_like_json("{curly}", true));
        assert!(looks_like_json("{a: 1}", true));
        assert!(looks_like_json("[1, 2", false));
        assert!(!looks_like_json("[citation needed]", false));
    }
}
