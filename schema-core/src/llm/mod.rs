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

pub use refusal::detect_refusal;

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
}

/// How the JSON was found in the reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The whole reply, after trimming whitespace, is the value.
    Whole,
    /// In a ```` ``` ````, ```` ```json ```` (any case), ```` ```jsonc ```` or ```` ```json5 ````
    /// fenced block.
    Fenced,
    /// The first object or array in the prose that parses.
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
    /// A `//` or `/* */` comment was replaced by a space.
    Comment,
    /// A raw control character (a newline, a tab...) in a string was escaped.
    EscapedControl,
    /// A Python or JavaScript literal was replaced by its JSON equivalent (`True` -> `true`,
    /// `None` / `undefined` -> `null`).
    PythonLiteral {
        /// The literal found.
        from: &'static str,
        /// The JSON literal written instead.
        to: &'static str,
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

/// How many candidates that run to the end of the input without closing are tried: each such
/// try rescans the rest of the input, so this bound keeps the search linear.
const MAX_UNCLOSED_TRIES: usize = 16;
/// How many JSON fences are tried.
const MAX_FENCES: usize = 16;
/// The deepest nesting `serde_json` parses into a typed value or a `Value` (its recursion limit
/// is 128 levels, exclusive); deeper JSON could be found here but never deserialized.
const SERDE_MAX_DEPTH: usize = 127;
/// How much of a refusal is kept, in characters.
const REFUSAL_KEEP: usize = 500;

/// Finds the JSON value in a model's reply and checks its syntax.
///
/// In order of preference: the whole reply (trimmed) if it is a JSON value; else the first
/// ```` ```json ```` (or ```` ``` ````, ```` ```JSON ````) fenced block holding one; else the
/// first object or array in the prose that parses (braces inside strings do not count; prose
/// like `{curly}` that fails to parse is skipped; a candidate without strings, such as a
/// citation `[1]`, is taken only when nothing better is found, broken JSON included). A value
/// running to the end of the input is [`ExtractError::Truncated`] unless
/// [`ExtractOptions::repair_truncated`] is set.
///
/// Without JSON: [`ExtractError::Refusal`] if [`detect_refusal`] says so, else
/// [`ExtractError::NoJson`]. With broken JSON: [`ExtractError::Syntax`], positioned in `text`.
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
    Finder {
        text,
        opts,
        max_depth: opts.max_depth.min(SERDE_MAX_DEPTH),
        first_error: None,
    }
    .find()
}

/// The outcome of trying one candidate.
enum Eval<'a> {
    Found(Extracted<'a>),
    /// Not this one; `end` is where a balanced candidate ended, `json_like` whether its error is
    /// worth reporting if nothing else is found.
    Bad {
        err: ExtractError,
        end: Option<usize>,
        json_like: bool,
    },
    /// Stop the search with this error.
    Final(ExtractError),
}

struct Finder<'a, 'o> {
    text: &'a str,
    opts: &'o ExtractOptions,
    max_depth: usize,
    first_error: Option<ExtractError>,
}

impl<'a> Finder<'a, '_> {
    fn find(mut self) -> Result<Extracted<'a>, ExtractError> {
        let bytes = self.text.as_bytes();
        let whole = trimmed(self.text, 0..self.text.len());
        if whole.is_empty() {
            return Err(ExtractError::NoJson);
        }
        let container = matches!(bytes[whole.start], b'{' | b'[');
        // Scalars are taken only whole. (A container is always scanned first, for its depth:
        // the syntax check skips values iteratively and has no depth limit of its own.)
        if !container {
            if let Some(x) = self.exact(whole.clone(), Source::Whole) {
                return Ok(x);
            }
        }
        if container {
            match self.eval(whole.start, self.text.len(), Source::Whole) {
                Eval::Found(x) if x.span.end == whole.end => return Ok(x),
                Eval::Found(_) => {}
                Eval::Bad { err, end, .. } => {
                    if end == Some(whole.end) {
                        self.first_error.get_or_insert(err);
                    }
                }
                Eval::Final(e) => return Err(e),
            }
        }

        for region in json_fences(self.text) {
            let inner = trimmed(self.text, region.clone());
            if inner.is_empty() {
                continue;
            }
            let container = matches!(bytes[inner.start], b'{' | b'[');
            if !container {
                if let Some(x) = self.exact(inner.clone(), Source::Fenced) {
                    return Ok(x);
                }
            }
            if container {
                match self.eval(inner.start, region.end, Source::Fenced) {
                    Eval::Found(x) => return Ok(x),
                    Eval::Bad { err, .. } => {
                        self.first_error.get_or_insert(err);
                    }
                    Eval::Final(e) => return Err(e),
                }
            }
        }

        let mut pos = 0;
        let mut unclosed_tries = 0;
        let mut weak: Option<Extracted<'a>> = None;
        while let Some(k) = bytes[pos..].iter().position(|&b| b == b'{' || b == b'[') {
            let start = pos + k;
            match self.eval(start, self.text.len(), Source::Embedded) {
                Eval::Found(x) if is_weak(&x.json) => {
                    pos = x.span.end;
                    weak.get_or_insert(x);
                }
                Eval::Found(x) => return Ok(x),
                Eval::Bad {
                    err,
                    end,
                    json_like,
                } => {
                    if json_like {
                        self.first_error.get_or_insert(err);
                    }
                    match end {
                        Some(end) => pos = end,
                        None => {
                            unclosed_tries += 1;
                            if unclosed_tries >= MAX_UNCLOSED_TRIES {
                                break;
                            }
                            pos = start + 1;
                        }
                    }
                }
                Eval::Final(e) => return Err(e),
            }
        }
        // A broken value that looks like JSON says more than a citation-like `[1]` does.
        if let Some(e) = self.first_error {
            return Err(e);
        }
        if let Some(x) = weak {
            return Ok(x);
        }
        if detect_refusal(self.text) {
            let text = self.text.trim();
            let text = match text.char_indices().nth(REFUSAL_KEEP) {
                Some((cut, _)) => format!("{}…", &text[..cut]),
                None => text.to_string(),
            };
            return Err(ExtractError::Refusal { text });
        }
        Err(ExtractError::NoJson)
    }

    /// The whole of `range` as a scalar JSON value (a string, number or literal), if it is one.
    fn exact(&self, range: Range<usize>, source: Source) -> Option<Extracted<'a>> {
        let json = &self.text[range.clone()];
        syntax_check(json).ok().map(|()| Extracted {
            json: Cow::Borrowed(json),
            span: range,
            source,
            repairs: Vec::new(),
        })
    }

    /// Tries the object or array starting at `start`, looking no further than `limit`.
    fn eval(&self, start: usize, limit: usize, source: Source) -> Eval<'a> {
        let opts = self.opts;
        let (end, unclosed) = match scan::scan(
            self.text.as_bytes(),
            start,
            limit,
            opts.lenient,
            self.max_depth,
        ) {
            Scan::TooDeep => {
                return Eval::Final(ExtractError::TooDeep {
                    max: self.max_depth,
                })
            }
            Scan::Balanced(end) => (end, None),
            Scan::Unclosed { open, in_string } => (limit, Some((open, in_string))),
        };
        let slice = &self.text[start..end];
        let span = start..end;
        let json_like = source != Source::Embedded || looks_like_json(slice, opts.lenient);
        let bad = |err| {
            if unclosed.is_some() && json_like {
                // A JSON-looking value that runs to the end of the reply is the answer, broken;
                // do not go looking for a fragment inside it.
                Eval::Final(err)
            } else {
                Eval::Bad {
                    err,
                    end: unclosed.is_none().then_some(end),
                    json_like,
                }
            }
        };
        let truncated = || {
            let (open, in_string) = unclosed.clone().unwrap_or_default();
            Eval::Final(ExtractError::Truncated {
                offset: end,
                expected: scan::expected_closers(&open, in_string),
            })
        };
        let strict_err = match syntax_check(slice) {
            Ok(()) => {
                return Eval::Found(Extracted {
                    json: Cow::Borrowed(slice),
                    span,
                    source,
                    repairs: Vec::new(),
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
                bad(self.serde_syntax(&strict_err, slice, start, None))
            };
        }
        let repaired = match repair::repair(slice, start, opts.lenient, close) {
            Ok(r) => r,
            Err(f) => return bad(self.syntax_at(start + f.offset, f.message)),
        };
        match syntax_check(&repaired.text) {
            Ok(()) => Eval::Found(Extracted {
                json: Cow::Owned(repaired.text),
                span,
                source,
                repairs: repaired.repairs,
            }),
            Err(e) if !close && cut_off(&e) => truncated(),
            Err(e) => bad(self.serde_syntax(&e, &repaired.text, start, Some(&repaired))),
        }
    }

    /// A `serde_json` error on `checked` (the input slice at `base`, or its repaired form) as a
    /// [`ExtractError::Syntax`] positioned in the original input.
    fn serde_syntax(
        &self,
        err: &serde_json::Error,
        checked: &str,
        base: usize,
        repaired: Option<&repair::Repaired>,
    ) -> ExtractError {
        let mut at = 0;
        for _ in 1..err.line() {
            match checked[at..].find('\n') {
                Some(k) => at += k + 1,
                None => break,
            }
        }
        let at = (at + err.column().saturating_sub(1)).min(checked.len());
        let at = repaired.map_or(at, |r| r.input_offset(at));
        let message = err.to_string();
        let message = match message.rfind(" at line ") {
            Some(k) => message[..k].to_string(),
            None => message,
        };
        self.syntax_at(base + at, message)
    }

    fn syntax_at(&self, offset: usize, message: String) -> ExtractError {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line_start = before.rfind('\n').map_or(0, |k| k + 1);
        ExtractError::Syntax {
            line: 1 + before.bytes().filter(|&b| b == b'\n').count(),
            column: 1 + before[line_start..].chars().count(),
            message,
        }
    }
}

fn syntax_check(json: &str) -> Result<(), serde_json::Error> {
    serde_json::from_str::<serde::de::IgnoredAny>(json).map(|_| ())
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
fn looks_like_json(candidate: &str, lenient: bool) -> bool {
    let object = candidate.starts_with('{');
    let rest = candidate[1..].trim_start();
    let Some(c) = rest.chars().next() else {
        return true;
    };
    match c {
        '"' => true,
        '}' => object,
        '\'' => lenient,
        '{' | '[' | ']' | '-' | '0'..='9' => !object,
        c if object && lenient && (c.is_ascii_alphabetic() || c == '_') => {
            // An unquoted key: an identifier, then `:`.
            let ident = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                .unwrap_or(rest.len());
            rest[ident..].trim_start().starts_with(':')
        }
        _ => false,
    }
}

/// A candidate found in prose that holds no string: `[1]`, `{}`, `[1, 2]`. Citations and set
/// notation look like that, so a later candidate with strings is preferred.
fn is_weak(json: &str) -> bool {
    !json.contains('"')
}

/// The body ranges of the fenced blocks tagged as JSON (or untagged), in order. A block
/// without a closing fence runs to the end of the text (a truncated reply).
fn json_fences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while out.len() < MAX_FENCES {
        let Some(k) = text[from..].find("```") else {
            break;
        };
        let mut info_start = from + k + 3;
        while text.as_bytes().get(info_start) == Some(&b'`') {
            info_start += 1;
        }
        let line_end = text[info_start..]
            .find('\n')
            .map_or(text.len(), |k| info_start + k);
        let tag = text[info_start..line_end]
            .split_whitespace()
            .next()
            .unwrap_or("");
        let body_start = (line_end + 1).min(text.len());
        let close = text[body_start..].find("```").map(|k| body_start + k);
        let body_end = close.unwrap_or(text.len());
        let is_json = tag.is_empty()
            || ["json", "jsonc", "json5"]
                .iter()
                .any(|t| tag.eq_ignore_ascii_case(t));
        if is_json && line_end < text.len() {
            out.push(body_start..body_end);
        }
        match close {
            Some(c) => {
                from = c + 3;
                while text.as_bytes().get(from) == Some(&b'`') {
                    from += 1;
                }
            }
            None => break,
        }
    }
    out
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
    fn looks_like_json_by_first_token() {
        assert!(looks_like_json("{\"a\"", false));
        assert!(!looks_like_json("{curly}", false));
        assert!(!looks_like_json("{curly}", true));
        assert!(looks_like_json("{a: 1}", true));
        assert!(looks_like_json("[1, 2", false));
        assert!(!looks_like_json("[citation needed]", false));
    }
}
