//! Finds where a JSON container that starts at a given byte ends, without parsing it.
//!
//! The scanner knows strings (and their escapes) so brackets inside strings do not count, and
//! in lenient mode also single-quoted and curly-quoted strings, comments, and closing brackets
//! of the wrong kind (resolved by [`closer_action`], the rule the repairer applies too, so both
//! see the same value). It keeps an explicit stack of the open brackets, bounded by the depth
//! limit, so it runs in one linear pass and never recurses.

/// What the scanner saw from the opening bracket on.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Scan {
    /// The container closes; the value is `start..end`.
    Balanced(usize),
    /// The input (or the region) ends inside the value.
    Unclosed {
        /// The still-open brackets, outermost first.
        open: Vec<u8>,
        /// The quote of the string the input ends in, if any, and where that string starts.
        in_string: Option<(u8, usize)>,
    },
    /// A closing bracket of the wrong kind at this offset (strict mode).
    Mismatch(usize),
    /// The nesting gets deeper than the limit.
    TooDeep,
}

/// The left and right curly double quotes, which lenient mode reads as string delimiters.
pub(super) const CURLY_OPEN: &str = "\u{201c}";
pub(super) const CURLY_CLOSE: &str = "\u{201d}";

/// Scans `bytes[start..limit]`; `bytes[start]` must be `{` or `[`.
pub(super) fn scan(
    bytes: &[u8],
    start: usize,
    limit: usize,
    lenient: bool,
    max_depth: usize,
) -> Scan {
    scan_from(bytes, start, limit, lenient, max_depth, Vec::new())
}

/// As [`scan`], from `start` inside the containers already `open`.
pub(super) fn scan_from(
    bytes: &[u8],
    start: usize,
    limit: usize,
    lenient: bool,
    max_depth: usize,
    mut open: Vec<u8>,
) -> Scan {
    let limit = limit.min(bytes.len());
    let mut i = start;
    // Counts the bytes this scan visited, for the linear-time test.
    let done = |s: Scan, at: usize| {
        super::count_work(at.saturating_sub(start) as u64);
        s
    };
    while i < limit {
        let b = bytes[i];
        match b {
            b'"' => match string_end(bytes, i, limit, b'"') {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => {
                    return done(
                        Scan::Unclosed {
                            open,
                            in_string: Some((b'"', i)),
                        },
                        limit,
                    )
                }
            },
            b'\'' if lenient => match string_end(bytes, i, limit, b'\'') {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => {
                    return done(
                        Scan::Unclosed {
                            open,
                            in_string: Some((b'\'', i)),
                        },
                        limit,
                    )
                }
            },
            0xE2 if lenient && bytes[i..limit].starts_with(CURLY_OPEN.as_bytes()) => {
                match find(bytes, i + 3, limit, CURLY_CLOSE.as_bytes()) {
                    Some(k) => {
                        i = k + 3;
                        continue;
                    }
                    None => {
                        return done(
                            Scan::Unclosed {
                                open,
                                in_string: Some((b'"', i)),
                            },
                            limit,
                        )
                    }
                }
            }
            b'{' | b'[' => {
                if open.len() >= max_depth {
                    return done(Scan::TooDeep, i);
                }
                open.push(b);
            }
            b'}' | b']' => {
                let top = open.last().copied().unwrap_or(b'{');
                if matches(top, b) {
                    open.pop();
                } else if !lenient {
                    return done(Scan::Mismatch(i), i);
                } else {
                    match closer_action(bytes, i, limit, &open) {
                        CloserAction::Replace => {
                            open.pop();
                        }
                        CloserAction::Insert => {
                            open.pop();
                            open.pop();
                        }
                        CloserAction::Drop => {}
                    }
                }
                if open.is_empty() {
                    return done(Scan::Balanced(i + 1), i + 1);
                }
            }
            b'/' | b'#' if lenient && comment_starts(bytes, i) => {
                i = comment_end(bytes, i, limit);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    done(
        Scan::Unclosed {
            open,
            in_string: None,
        },
        limit,
    )
}

/// Whether `close` closes the container opened by `open`.
pub(super) fn matches(open: u8, close: u8) -> bool {
    (open == b'{' && close == b'}') || (open == b'[' && close == b']')
}

/// The offset just after the string whose opening `quote` is at `at`, if it closes before
/// `limit`.
pub(super) fn string_end(bytes: &[u8], at: usize, limit: usize, quote: u8) -> Option<usize> {
    let mut i = at + 1;
    while i < limit {
        match bytes[i] {
            b'\\' => i += 2,
            c if c == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn find(bytes: &[u8], from: usize, limit: usize, needle: &[u8]) -> Option<usize> {
    let hay = bytes.get(from..limit)?;
    hay.windows(needle.len())
        .position(|w| w == needle)
        .map(|k| from + k)
}

/// Whether a lenient-mode comment starts at `i` (`//`, `/*` or `#`): only where a token may
/// start (after whitespace, a bracket, `,` or a string; `/*` anywhere), so the `//` of a URL in
/// stray text is not a comment.
pub(super) fn comment_starts(bytes: &[u8], i: usize) -> bool {
    let marker = match bytes[i] {
        b'#' => true,
        b'/' => matches!(bytes.get(i + 1), Some(b'/' | b'*')),
        _ => false,
    };
    let block = bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*');
    marker
        && (block
            || i == 0
            || matches!(
                bytes[i - 1],
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' | b'[' | b'}' | b']' | b'"'
            ))
}

/// The end of the comment starting at `i` (its newline stays), or `limit`.
pub(super) fn comment_end(bytes: &[u8], i: usize, limit: usize) -> usize {
    if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
        return find_block_comment_end(bytes, i + 2, limit);
    }
    bytes[i.min(limit)..limit]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(limit, |k| i + k)
}

/// The index just after the `*/` closing a block comment whose body starts at `from`, or `limit`.
pub(super) fn find_block_comment_end(bytes: &[u8], from: usize, limit: usize) -> usize {
    let mut i = from;
    while i + 1 < limit {
        if bytes[i] == b'*' && bytes[i + 1] == b'/' {
            return i + 2;
        }
        i += 1;
    }
    limit
}

/// What a closing bracket of the wrong kind most plausibly means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CloserAction {
    /// It closes the innermost container, written with the wrong bracket.
    Replace,
    /// The innermost container's own closer is missing: close it, then this bracket closes the
    /// one around it.
    Insert,
    /// A stray bracket: drop it.
    Drop,
}

/// What follows a closing bracket, which tells which container must be open after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// `, "key":` (or `, key:`): an object continues.
    Member,
    /// `,` and a value: an array continues.
    Item,
    /// Another closer of this kind.
    Close(u8),
    /// Nothing more (or prose).
    End,
}

fn next_after(bytes: &[u8], i: usize, limit: usize) -> Next {
    let skip_ws = |mut j: usize| {
        while j < limit && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        j
    };
    let j = skip_ws(i);
    match bytes.get(j).filter(|_| j < limit) {
        Some(&c @ (b'}' | b']')) => Next::Close(c),
        Some(b',') => {
            let k = skip_ws(j + 1);
            let after_key = match bytes.get(k).filter(|_| k < limit) {
                Some(&q @ (b'"' | b'\'')) => string_end(bytes, k, limit, q),
                Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                    let mut e = k;
                    while e < limit && (bytes[e].is_ascii_alphanumeric() || bytes[e] == b'_') {
                        e += 1;
                    }
                    Some(e)
                }
                _ => None,
            };
            match after_key.map(skip_ws) {
                Some(e) if bytes.get(e) == Some(&b':') && e < limit => Next::Member,
                _ => Next::Item,
            }
        }
        _ => Next::End,
    }
}

/// How to read the wrong-kind closer at `i`, given the open containers (innermost last): the
/// reading after which the container left open fits what follows (`, "key":` needs an object,
/// `, value` an array, the end of the value nothing open). Looks ahead one member at most.
pub(super) fn closer_action(bytes: &[u8], i: usize, limit: usize, open: &[u8]) -> CloserAction {
    let c = bytes[i];
    let next = next_after(bytes, i + 1, limit);
    let fits = |enclosing: Option<u8>| match next {
        Next::Member => enclosing == Some(b'{'),
        Next::Item => enclosing == Some(b'['),
        Next::Close(k) => enclosing.is_some_and(|e| matches(e, k)),
        Next::End => enclosing.is_none(),
    };
    let n = open.len();
    let below = |k: usize| (n > k).then(|| open[n - 1 - k]);
    if below(1).is_some_and(|b| matches(b, c)) && fits(below(2)) {
        CloserAction::Insert
    } else if fits(below(1)) {
        CloserAction::Replace
    } else if fits(below(0)) {
        CloserAction::Drop
    } else {
        CloserAction::Replace
    }
}

/// Whether the text after a complete value at `end` continues it: a `,` then a member (for an
/// object) or an item (for an array), up to a closer of the value's kind. Returns where that
/// closer ends: the premature close at `end - 1` cut the value short.
pub(super) fn premature_close(
    bytes: &[u8],
    end: usize,
    limit: usize,
    kind: u8,
    lenient: bool,
    max_depth: usize,
) -> Option<usize> {
    let continues = match next_after(bytes, end, limit) {
        Next::Member => kind == b'{',
        // `, "key2" "value2"}`: a member whose `:` is missing still continues an object.
        Next::Item if kind == b'{' => next_is_string(bytes, end, limit),
        Next::Item => kind == b'[' && !lenient_prose_item(bytes, end, limit),
        _ => false,
    };
    if !continues {
        return None;
    }
    let comma = end + bytes[end..limit].iter().position(|&b| b == b',')?;
    match scan_from(bytes, comma, limit, lenient, max_depth, vec![kind]) {
        Scan::Balanced(e) => Some(e),
        // `{"a": 1}, "b": 2` cut off: a member follows all the same, so the members are not
        // dropped; the value runs to the end (and reads as cut there).
        _ if kind == b'{' => Some(limit),
        _ => None,
    }
}

/// Whether the `,` after `end` is followed by a string.
fn next_is_string(bytes: &[u8], end: usize, limit: usize) -> bool {
    let rest = &bytes[end..limit];
    let Some(k) = rest.iter().position(|&b| b == b',') else {
        return false;
    };
    rest[k + 1..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'"')
}

/// `[1], and [2]`: a comma followed by a word is prose, not an array item.
fn lenient_prose_item(bytes: &[u8], end: usize, limit: usize) -> bool {
    let rest = &bytes[end..limit];
    let Some(k) = rest.iter().position(|&b| b == b',') else {
        return true;
    };
    let item = rest[k + 1..].iter().find(|b| !b.is_ascii_whitespace());
    !matches!(
        item,
        Some(b'"' | b'{' | b'[' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')
    )
}

/// What a reader would have needed to see for the value to end: `a closing `"`, then `]}``.
pub(super) fn expected_closers(open: &[u8], in_string: Option<u8>) -> String {
    let closers: String = open
        .iter()
        .rev()
        .map(|&b| if b == b'{' { '}' } else { ']' })
        .collect();
    match (in_string, closers.is_empty()) {
        (Some(q), true) => format!("a closing `{}`", q as char),
        (Some(q), false) => format!("a closing `{}`, then `{closers}`", q as char),
        (None, _) if closers.len() == 1 => format!("a closing `{closers}`"),
        (None, _) => format!("closing `{closers}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &str, lenient: bool) -> Scan {
        scan(s.as_bytes(), 0, s.len(), lenient, 128)
    }

    #[test]
    fn braces_inside_strings_do_not_count() {
        assert_eq!(run(r#"{"a": "}{]"} tail"#, false), Scan::Balanced(12));
        assert_eq!(run(r#"{"a": "\"}"}"#, false), Scan::Balanced(12));
    }

    #[test]
    fn single_quotes_and_comments_only_when_lenient() {
        assert_eq!(run("{'}'}", true), Scan::Balanced(5));
        assert_eq!(run("{'}'}", false), Scan::Balanced(3));
        assert_eq!(run("{// }\n}", true), Scan::Balanced(7));
        assert_eq!(run("{/* } */}", true), Scan::Balanced(9));
        assert_eq!(run("{ # }\n}", true), Scan::Balanced(7));
        // The `//` of a URL outside a string is not a comment.
        assert_eq!(run(r#"{"a": x://y}"#, true), Scan::Balanced(12));
    }

    #[test]
    fn unclosed_reports_what_is_open() {
        assert_eq!(
            run(r#"{"a": ["x"#, false),
            Scan::Unclosed {
                open: vec![b'{', b'['],
                in_string: Some((b'"', 7))
            }
        );
        assert_eq!(
            expected_closers(b"{[", Some(b'"')),
            "a closing `\"`, then `]}`"
        );
        assert_eq!(expected_closers(b"{", None), "a closing `}`");
        assert_eq!(expected_closers(b"{[", None), "closing `]}`");
    }

    #[test]
    fn wrong_kind_closers() {
        assert_eq!(run(r#"{"a": [1}"#, false), Scan::Mismatch(8));
        // Replace: the array was closed with `}`.
        let s = r#"{"k": ["v", "w"}, "k2": [1]}"#;
        assert_eq!(run(s, true), Scan::Balanced(s.len()));
        let open = [b'{', b'['];
        assert_eq!(
            closer_action(s.as_bytes(), 15, s.len(), &open),
            CloserAction::Replace
        );
        // Insert: the inner object's `}` is missing.
        let s = r#"{"a":[{"k": "v"], "k2": "v2"}"#;
        assert_eq!(
            closer_action(s.as_bytes(), 15, s.len(), b"{[{"),
            CloserAction::Insert
        );
        assert_eq!(run(s, true), Scan::Balanced(s.len()));
        // Drop: a stray `}` in an array that goes on.
        let s = r#"[{"k":"v"}},{"k":"v"}]"#;
        assert_eq!(
            closer_action(s.as_bytes(), 10, s.len(), b"["),
            CloserAction::Drop
        );
        assert_eq!(run(s, true), Scan::Balanced(s.len()));
    }

    #[test]
    fn premature_closes() {
        let s = r#"{"key": "value"}, "key2": "value2"}"#;
        assert_eq!(
            premature_close(s.as_bytes(), 16, s.len(), b'{', false, 128),
            Some(s.len())
        );
        let s = r#"[1], and [2]"#;
        assert_eq!(
            premature_close(s.as_bytes(), 3, s.len(), b'[', false, 128),
            None
        );
        let s = r#"{"a": 1}, "b": 2"#;
        assert_eq!(
            premature_close(s.as_bytes(), 8, s.len(), b'{', false, 128),
            Some(s.len())
        );
        let s = r#"{"a": 1}, then more prose"#;
        assert_eq!(
            premature_close(s.as_bytes(), 8, s.len(), b'{', false, 128),
            None
        );
    }

    #[test]
    fn depth_is_bounded() {
        let deep = "[".repeat(200);
        assert_eq!(run(&deep, false), Scan::TooDeep);
        let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert_eq!(run(&ok, false), Scan::Balanced(256));
    }
}
