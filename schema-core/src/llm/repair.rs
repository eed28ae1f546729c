//! The opt-in repairer: one linear pass over a candidate that copies it verbatim except for the
//! repairs it makes, and records each repair with its offset in the input.
//!
//! It never changes a value: numbers and strings are copied byte for byte, a single-quoted
//! string keeps its content, and the only literals it rewrites (`True`, `None`, `undefined`...)
//! have exactly one JSON reading. What it cannot repair without inventing a value (`NaN`) is an
//! error. Nesting uses an explicit stack, so no input can overflow the call stack.

use super::scan::{
    closer_action, comment_end, comment_starts, CloserAction, CURLY_CLOSE, CURLY_OPEN,
};
use super::{Repair, RepairKind};

/// The repaired text, the repairs made, and how to map its offsets back to the input.
pub(super) struct Repaired {
    pub text: String,
    pub repairs: Vec<Repair>,
    /// `(output offset, input offset)` after every edit that changed the length.
    map: Vec<(usize, usize)>,
}

impl Repaired {
    /// The input offset (relative to the repaired slice) of output offset `out`.
    pub fn input_offset(&self, out: usize) -> usize {
        input_offset(&self.map, out)
    }
}

fn input_offset(map: &[(usize, usize)], out: usize) -> usize {
    match map.partition_point(|&(o, _)| o <= out) {
        0 => out,
        k => {
            let (o, i) = map[k - 1];
            i + (out - o)
        }
    }
}

/// A mistake the repairer will not repair, at an offset relative to the slice.
pub(super) struct Failure {
    pub offset: usize,
    pub message: String,
}

/// Where in a container the reader is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    /// Expecting a key (objects) ...
    Key,
    /// ... a `:` after the key ...
    Colon,
    /// ... a value ...
    Value,
    /// ... a `,` or the closing bracket.
    After,
}

struct Frame {
    object: bool,
    at: At,
    /// Output length, repair count and map length just after the last complete member: what a
    /// truncated container is cut back to.
    keep: usize,
    keep_repairs: usize,
    keep_map: usize,
}

struct Repairer<'s> {
    s: &'s str,
    b: &'s [u8],
    base: usize,
    lenient: bool,
    close: bool,
    out: String,
    repairs: Vec<Repair>,
    map: Vec<(usize, usize)>,
    stack: Vec<Frame>,
    /// A comma that may turn out to be trailing: its output and input offsets.
    comma: Option<(usize, usize)>,
}

/// Repairs `s`, which starts with `{` or `[` at input offset `base`.
///
/// `lenient` enables the syntax repairs; `close` closes a value the input ends inside.
pub(super) fn repair(
    s: &str,
    base: usize,
    lenient: bool,
    close: bool,
) -> Result<Repaired, Failure> {
    let mut r = Repairer {
        s,
        b: s.as_bytes(),
        base,
        lenient,
        close,
        out: String::with_capacity(s.len() + 16),
        repairs: Vec::new(),
        map: Vec::new(),
        stack: Vec::new(),
        comma: None,
    };
    r.run()?;
    Ok(Repaired {
        text: r.out,
        repairs: r.repairs,
        map: r.map,
    })
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'+' | b'-')
}

/// Whether `w` is a prefix of a JSON number (`-`, `1.`, `2e+`, `-0.5`).
fn is_number_prefix(w: &str) -> bool {
    let b = w.as_bytes();
    let digits = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        None => return true,
        Some(b'0') => i += 1,
        Some(c) if c.is_ascii_digit() => i = digits(i),
        Some(_) => return false,
    }
    if b.get(i) == Some(&b'.') {
        i = digits(i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(i);
    }
    i == b.len()
}

fn is_identifier(w: &str) -> bool {
    let mut bytes = w.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'$')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-'))
}

impl Repairer<'_> {
    fn run(&mut self) -> Result<(), Failure> {
        let n = self.b.len();
        let mut i = 0;
        while i < n {
            let c = self.b[i];
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.out.push(c as char);
                    i += 1;
                }
                b'/' | b'#' if self.lenient && comment_starts(self.b, i) => {
                    let end = comment_end(self.b, i, n);
                    // A space, not nothing: `1/*c*/2` must not become the number 12.
                    self.out.push(' ');
                    self.shifted(end);
                    self.note(i, RepairKind::Comment);
                    i = end;
                }
                b'"' | b'\'' if c == b'"' || self.lenient => {
                    self.missing_comma(i);
                    self.comma = None;
                    i = self.string(i);
                }
                0xE2 if self.lenient && self.s[i..].starts_with(CURLY_OPEN) => {
                    self.missing_comma(i);
                    self.comma = None;
                    i = self.curly_string(i);
                }
                b'{' | b'[' => {
                    self.missing_comma(i);
                    self.comma = None;
                    self.out.push(c as char);
                    let object = c == b'{';
                    self.stack.push(Frame {
                        object,
                        at: if object { At::Key } else { At::Value },
                        keep: self.out.len(),
                        keep_repairs: self.repairs.len(),
                        keep_map: self.map.len(),
                    });
                    i += 1;
                }
                b'}' | b']' => {
                    let matches = self.stack.last().is_some_and(|f| f.object == (c == b'}'));
                    if !matches {
                        if !self.lenient || self.stack.is_empty() {
                            // Let serde_json report the mismatch.
                            self.comma = None;
                            self.out.push(c as char);
                            i += 1;
                            continue;
                        }
                        let open: Vec<u8> = self
                            .stack
                            .iter()
                            .map(|f| if f.object { b'{' } else { b'[' })
                            .collect();
                        let action = closer_action(self.b, i, n, &open);
                        let top = if self.stack.last().is_some_and(|f| f.object) {
                            "}"
                        } else {
                            "]"
                        };
                        let written = match action {
                            CloserAction::Replace => top.to_string(),
                            CloserAction::Insert => format!("{top}{}", c as char),
                            CloserAction::Drop => String::new(),
                        };
                        self.note(
                            i,
                            RepairKind::MismatchedBracket {
                                found: c as char,
                                written,
                            },
                        );
                        match action {
                            CloserAction::Drop => {
                                self.out.push(' ');
                                i += 1;
                                continue;
                            }
                            CloserAction::Insert => {
                                // Close the innermost container here; `c` then closes the
                                // next one on the following turn.
                                self.close_top(top.as_bytes()[0]);
                                self.shifted(i);
                                if self.stack.is_empty() {
                                    self.out.push_str(&self.s[i..]);
                                    return Ok(());
                                }
                                continue;
                            }
                            CloserAction::Replace => {
                                self.close_top(top.as_bytes()[0]);
                                i += 1;
                                if self.stack.is_empty() {
                                    self.out.push_str(&self.s[i..]);
                                    return Ok(());
                                }
                                continue;
                            }
                        }
                    }
                    if self.lenient && self.stack.len() == 1 {
                        let rest = self.s[i + 1..].trim_start();
                        if rest.starts_with(',') && rest.len() > 1 {
                            // A premature close with more members after it: the value goes on.
                            self.note(i, RepairKind::PrematureClose { found: c as char });
                            self.out.push(' ');
                            i += 1;
                            continue;
                        }
                    }
                    i += 1;
                    self.close_top(c);
                    if self.stack.is_empty() {
                        self.out.push_str(&self.s[i..]);
                        return Ok(());
                    }
                }
                b',' => {
                    self.comma = Some((self.out.len(), i));
                    self.out.push(',');
                    if let Some(f) = self.stack.last_mut() {
                        if f.at == At::After {
                            f.at = if f.object { At::Key } else { At::Value };
                        }
                    }
                    i += 1;
                }
                b':' => {
                    self.comma = None;
                    self.out.push(':');
                    if let Some(f) = self.stack.last_mut() {
                        if f.at == At::Colon {
                            f.at = At::Value;
                        }
                    }
                    i += 1;
                }
                _ if is_word_byte(c) => {
                    let end = self.b[i..]
                        .iter()
                        .position(|&b| !is_word_byte(b))
                        .map_or(n, |k| i + k);
                    self.word(i, end)?;
                    i = end;
                }
                _ => {
                    self.comma = None;
                    let len = self.s[i..].chars().next().map_or(1, char::len_utf8);
                    self.out.push_str(&self.s[i..i + len]);
                    i += len;
                }
            }
        }
        if self.close && !self.stack.is_empty() {
            self.close_truncated(String::new());
        }
        Ok(())
    }

    /// Closes the innermost container with `c` (a trailing comma before it removed).
    fn close_top(&mut self, c: u8) {
        if let Some((o, at)) = self.comma.take() {
            if self.lenient {
                self.out.replace_range(o..o + 1, " ");
                self.note(at, RepairKind::TrailingComma);
            }
        }
        self.stack.pop();
        self.out.push(c as char);
        if !self.stack.is_empty() {
            self.value_done();
        }
    }

    /// A value (or key) starts at `i` right after a complete one: the `,` between them is
    /// missing (lenient mode writes it).
    fn missing_comma(&mut self, i: usize) {
        if !self.lenient || self.at() != Some(At::After) {
            return;
        }
        self.out.push(',');
        self.shifted(i);
        self.note(i, RepairKind::MissingComma);
        if let Some(f) = self.stack.last_mut() {
            f.at = if f.object { At::Key } else { At::Value };
        }
    }

    /// A string delimited by curly quotes (`“key”`), written with straight ones; returns the
    /// offset after it. Without its closing quote it is copied as is, for serde_json to report.
    fn curly_string(&mut self, start: usize) -> usize {
        let body = start + CURLY_OPEN.len();
        let Some(k) = self.s[body..].find(CURLY_CLOSE) else {
            self.out.push_str(CURLY_OPEN);
            return body;
        };
        let end = body + k;
        self.note(start, RepairKind::CurlyQuotes);
        self.out.push('"');
        self.shifted(body);
        for ch in self.s[body..end].chars() {
            match ch {
                '"' => self.out.push_str("\\\""),
                '\n' => self.out.push_str("\\n"),
                c => self.out.push(c),
            }
        }
        self.out.push('"');
        self.shifted(end + CURLY_CLOSE.len());
        if self.at() == Some(At::Key) {
            if let Some(f) = self.stack.last_mut() {
                f.at = At::Colon;
            }
        } else {
            self.value_done();
        }
        end + CURLY_CLOSE.len()
    }

    fn at(&self) -> Option<At> {
        self.stack.last().map(|f| f.at)
    }

    fn value_done(&mut self) {
        let (len, repairs, map) = (self.out.len(), self.repairs.len(), self.map.len());
        if let Some(f) = self.stack.last_mut() {
            f.at = At::After;
            f.keep = len;
            f.keep_repairs = repairs;
            f.keep_map = map;
        }
    }

    /// Records that output offset `out.len()` now corresponds to input offset `input`.
    fn shifted(&mut self, input: usize) {
        self.map.push((self.out.len(), input));
    }

    fn note(&mut self, input: usize, kind: RepairKind) {
        self.repairs.push(Repair {
            offset: self.base + input,
            kind,
        });
    }

    /// Copies (or, for single quotes, converts) the string starting at `start`; returns the
    /// offset after it.
    fn string(&mut self, start: usize) -> usize {
        let n = self.b.len();
        let quote = self.b[start];
        let single = quote == b'\'';
        let is_key = self.at() == Some(At::Key);
        if single {
            self.note(start, RepairKind::SingleQuotes);
        }
        self.out.push('"');
        let mut i = start + 1;
        let mut run = i;
        // The last escape whose completeness matters if the input ends: (start, end, is a
        // high surrogate).
        let mut last_escape: Option<(usize, usize, bool)> = None;
        while i < n {
            let c = self.b[i];
            if c == quote {
                self.out.push_str(&self.s[run..i]);
                self.out.push('"');
                if is_key {
                    if let Some(f) = self.stack.last_mut() {
                        f.at = At::Colon;
                    }
                } else {
                    self.value_done();
                }
                return i + 1;
            }
            if c == b'\\' {
                let len = if self.b.get(i + 1) == Some(&b'u') {
                    6
                } else {
                    2
                };
                if self.b.get(i + 1) == Some(&b'\'') && (single || self.lenient) {
                    if !single {
                        self.note(i, RepairKind::EscapedQuote);
                    }
                    self.out.push_str(&self.s[run..i]);
                    self.out.push('\'');
                    self.shifted(i + 2);
                    i += 2;
                    run = i;
                    continue;
                }
                if self.lenient && self.b.get(i + 1).is_some_and(|&b| b >= 0x80) {
                    // `\„`: an escape JSON does not have, before a typographic quote; the
                    // character is kept, the backslash dropped.
                    self.note(i, RepairKind::EscapedQuote);
                    self.out.push_str(&self.s[run..i]);
                    self.shifted(i + 1);
                    i += 1;
                    run = i;
                    continue;
                }
                let high = len == 6
                    && self
                        .s
                        .get(i + 2..i + 6)
                        .and_then(|h| u16::from_str_radix(h, 16).ok())
                        .is_some_and(|u| (0xD800..0xDC00).contains(&u));
                last_escape = Some((i, i + len, high));
                i += len;
                continue;
            }
            if c < 0x20 && self.lenient {
                self.out.push_str(&self.s[run..i]);
                match c {
                    b'\n' => self.out.push_str("\\n"),
                    b'\r' => self.out.push_str("\\r"),
                    b'\t' => self.out.push_str("\\t"),
                    _ => self.out.push_str(&format!("\\u{c:04x}")),
                }
                self.shifted(i + 1);
                self.note(i, RepairKind::EscapedControl);
                i += 1;
                run = i;
                continue;
            }
            if single && c == b'"' {
                self.out.push_str(&self.s[run..i]);
                self.out.push_str("\\\"");
                self.shifted(i + 1);
                i += 1;
                run = i;
                continue;
            }
            i += 1;
        }
        // The input ends inside the string.
        if !self.close || is_key {
            // Copied as is: serde_json reports the end of input, or the truncation repair
            // drops the dangling key.
            self.out.push_str(&self.s[run..]);
            return n;
        }
        let mut cut = n;
        if let Some((at, end, high)) = last_escape {
            // An escape cut in half, or a high surrogate whose low half was cut off.
            if end > n || (end == n && high) {
                cut = at.max(run);
            }
        }
        self.out.push_str(&self.s[run..cut]);
        self.out.push('"');
        self.value_done();
        self.close_truncated("\"".to_string());
        self.stack.clear();
        n
    }

    fn word(&mut self, start: usize, end: usize) -> Result<(), Failure> {
        self.missing_comma(start);
        self.comma = None;
        let w = &self.s[start..end];
        let at = self.at();
        if at == Some(At::Key) {
            if self.lenient && (is_identifier(w) || w.bytes().all(|b| b.is_ascii_digit())) {
                self.out.push('"');
                self.shifted(start);
                self.out.push_str(w);
                self.out.push('"');
                self.shifted(end);
                self.note(start, RepairKind::UnquotedKey);
                if let Some(f) = self.stack.last_mut() {
                    f.at = At::Colon;
                }
            } else {
                self.out.push_str(w);
            }
            return Ok(());
        }
        let (text, complete) = match w {
            "true" | "false" | "null" => (w, true),
            "True" | "False" | "None" | "undefined" | "TRUE" | "FALSE" | "NULL" | "Null"
                if self.lenient && at == Some(At::Value) =>
            {
                let (from, to) = match w {
                    "True" => ("True", "true"),
                    "TRUE" => ("TRUE", "true"),
                    "False" => ("False", "false"),
                    "FALSE" => ("FALSE", "false"),
                    "None" => ("None", "null"),
                    "NULL" => ("NULL", "null"),
                    "Null" => ("Null", "null"),
                    _ => ("undefined", "null"),
                };
                self.note(start, RepairKind::PythonLiteral { from, to });
                (to, true)
            }
            "NaN" | "-NaN" | "+NaN" | "Infinity" | "-Infinity" | "+Infinity" | "inf" | "-inf"
                if self.lenient && at == Some(At::Value) =>
            {
                return Err(Failure {
                    offset: start,
                    message: format!(
                        "`{w}` is not a JSON number, and there is no JSON value it could be \
                         repaired to without changing it"
                    ),
                });
            }
            // A number (or junk for serde_json to report): complete only if something follows.
            _ => (w, false),
        };
        self.out.push_str(text);
        if text.len() != w.len() {
            self.shifted(end);
        }
        // At the end of the input, a word that could still grow into a value (`tru`, `12`,
        // `-1.`) may have been cut: the truncation repair drops it. Anything else is kept for
        // serde_json to report.
        let cut_off = end == self.b.len() && self.close && !complete && self.could_grow(w);
        if !cut_off && at == Some(At::Value) {
            self.value_done();
        }
        Ok(())
    }

    /// Whether `w` is a proper prefix of a literal or a prefix of a JSON number.
    fn could_grow(&self, w: &str) -> bool {
        let literals: &[&str] = if self.lenient {
            &[
                "true",
                "false",
                "null",
                "True",
                "False",
                "None",
                "undefined",
            ]
        } else {
            &["true", "false", "null"]
        };
        literals.iter().any(|l| l.starts_with(w)) || is_number_prefix(w)
    }

    /// Closes every open container at the end of the input: drops what follows the innermost
    /// container's last complete member (a dangling key, `:`, `,` or a number that may have been
    /// cut), then appends the closing brackets. `added` is what was already appended.
    fn close_truncated(&mut self, mut added: String) {
        let Some(top) = self.stack.last() else {
            return;
        };
        let (keep, keep_repairs, keep_map) = (top.keep, top.keep_repairs, top.keep_map);
        let tail = &self.out[keep..];
        let lead = tail.len() - tail.trim_start().len();
        if !tail.trim().is_empty() {
            let from = input_offset(&self.map, keep + lead);
            let dropped = self.s.get(from..).unwrap_or("").trim_end().to_string();
            self.out.truncate(keep);
            self.repairs.truncate(keep_repairs);
            self.map.truncate(keep_map);
            self.note(from, RepairKind::DroppedTruncated { text: dropped });
        } else {
            self.out.truncate(keep);
        }
        for f in self.stack.iter().rev() {
            let c = if f.object { '}' } else { ']' };
            self.out.push(c);
            added.push(c);
        }
        let end = self.b.len();
        self.note(end, RepairKind::ClosedTruncated { added });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(s: &str, lenient: bool, close: bool) -> (String, Vec<RepairKind>) {
        let r = repair(s, 0, lenient, close).unwrap_or_else(|f| panic!("{}", f.message));
        (r.text, r.repairs.into_iter().map(|r| r.kind).collect())
    }

    #[test]
    fn copies_valid_json_verbatim() {
        let s = r#"{"a": [1, 2.50, -0e3, "x\"\u00e9"], "b": {"c": null}}"#;
        assert_eq!(fix(s, true, true), (s.to_string(), vec![]));
    }

    #[test]
    fn comments_become_a_space() {
        // Not the number 12: two items, the comma between them missing.
        let (t, k) = fix("[1/*c*/2]", true, false);
        assert_eq!(t, "[1 ,2]");
        assert_eq!(k, vec![RepairKind::Comment, RepairKind::MissingComma]);
    }

    #[test]
    fn maps_offsets_back_through_edits() {
        let r = repair("{a: 'x\"y', b: x}", 0, true, false).ok().unwrap();
        assert_eq!(r.text, r#"{"a": "x\"y", "b": x}"#);
        let x = r.text.rfind('x').unwrap();
        assert_eq!(r.input_offset(x), 14);
    }

    #[test]
    fn number_prefixes() {
        for w in ["-", "0", "12", "-1.", "1.5", "2e", "2E+", "-0.5e-3"] {
            assert!(is_number_prefix(w), "{w}");
        }
        for w in ["x", "1x", "01", "1.2.3", "1e5e", "--1", "+1"] {
            assert!(!is_number_prefix(w), "{w}");
        }
    }

    #[test]
    fn truncation_keeps_junk_for_serde_to_report() {
        assert_eq!(fix(r#"{"a": 1x"#, false, true).0, r#"{"a": 1x}"#);
    }

    #[test]
    fn truncation_drops_only_incomplete_members() {
        assert_eq!(fix(r#"{"a": 1, "b": 12"#, false, true).0, r#"{"a": 1}"#);
        assert_eq!(fix(r#"{"a": 1, "b": tru"#, false, true).0, r#"{"a": 1}"#);
        assert_eq!(
            fix(r#"{"a": [true, null"#, false, true).0,
            r#"{"a": [true, null]}"#
        );
        assert_eq!(fix(r#"{"a": "x\u00"#, false, true).0, r#"{"a": "x"}"#);
        assert_eq!(fix(r#"{"a": "x\ud83d"#, false, true).0, r#"{"a": "x"}"#);
        assert_eq!(fix(r#"{"a": "x\"#, false, true).0, r#"{"a": "x"}"#);
        assert_eq!(fix(r#"["#, false, true).0, "[]");
    }
}
