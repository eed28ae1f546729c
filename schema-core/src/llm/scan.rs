//! Finds where a JSON container that starts at a given byte ends, without parsing it.
//!
//! The scanner knows strings (and their escapes) so brackets inside strings do not count, and
//! in lenient mode also single-quoted strings and comments. It keeps an explicit stack of the
//! open brackets, bounded by the depth limit, so it runs in one linear pass and never recurses.

/// What the scanner saw from the opening bracket on.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Scan {
    /// The container closes; the value is `start..end`.
    Balanced(usize),
    /// The input (or the region) ends inside the value.
    Unclosed {
        /// The still-open brackets, outermost first.
        open: Vec<u8>,
        /// The quote of the string the input ends in, if any.
        in_string: Option<u8>,
    },
    /// The nesting gets deeper than the limit.
    TooDeep,
}

/// Scans `bytes[start..limit]`; `bytes[start]` must be `{` or `[`.
pub(super) fn scan(
    bytes: &[u8],
    start: usize,
    limit: usize,
    lenient: bool,
    max_depth: usize,
) -> Scan {
    let limit = limit.min(bytes.len());
    let mut open: Vec<u8> = Vec::new();
    let mut in_string: Option<u8> = None;
    let mut i = start;
    while i < limit {
        let b = bytes[i];
        if let Some(quote) = in_string {
            if b == b'\\' {
                i += 2;
                continue;
            }
            i += 1;
            if b == quote {
                in_string = None;
                continue;
            }
            // Most of a reply's bytes are string content: skip it in a tight loop.
            while i < limit && bytes[i] != quote && bytes[i] != b'\\' {
                i += 1;
            }
            continue;
        }
        match b {
            b'"' => in_string = Some(b'"'),
            b'\'' if lenient => in_string = Some(b'\''),
            b'{' | b'[' => {
                if open.len() >= max_depth {
                    return Scan::TooDeep;
                }
                open.push(b);
            }
            b'}' | b']' => {
                open.pop();
                if open.is_empty() {
                    return Scan::Balanced(i + 1);
                }
            }
            b'/' if lenient && bytes.get(i + 1) == Some(&b'/') => {
                i = find_byte(bytes, i + 2, limit, b'\n');
                continue;
            }
            b'/' if lenient && bytes.get(i + 1) == Some(&b'*') => {
                i = find_block_comment_end(bytes, i + 2, limit);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Scan::Unclosed { open, in_string }
}

/// The index of the first `needle` at or after `from`, or `limit`.
fn find_byte(bytes: &[u8], from: usize, limit: usize, needle: u8) -> usize {
    bytes[from.min(limit)..limit]
        .iter()
        .position(|&b| b == needle)
        .map_or(limit, |k| from + k)
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
    }

    #[test]
    fn unclosed_reports_what_is_open() {
        assert_eq!(
            run(r#"{"a": ["x"#, false),
            Scan::Unclosed {
                open: vec![b'{', b'['],
                in_string: Some(b'"')
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
    fn depth_is_bounded() {
        let deep = "[".repeat(200);
        assert_eq!(run(&deep, false), Scan::TooDeep);
        let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert_eq!(run(&ok, false), Scan::Balanced(256));
    }
}
