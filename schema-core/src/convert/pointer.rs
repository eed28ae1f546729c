//! JSON pointers: resolving local `$ref`s and building paths.

use crate::convert::SmallMap;
use serde_json::Value;

/// Resolves a local reference (`#`, `#/$defs/Name`, `#/definitions/Name`, any `#/a/b` pointer)
/// against the document root. `None` for remote references or paths that lead nowhere.
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    let decoded = percent_decode(pointer)?;
    root.pointer(&decoded)
}

/// Appends one token to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub(crate) fn push(pointer: &str, token: &str) -> String {
    push_all(pointer, &[token])
}

/// Appends tokens to a JSON pointer (one allocation), escaping `~` and `/` (RFC 6901).
pub(crate) fn push_all(pointer: &str, tokens: &[&str]) -> String {
    let extra: usize = tokens.iter().map(|t| t.len() + 1).sum();
    let mut out = String::with_capacity(pointer.len() + extra);
    out.push_str(pointer);
    for token in tokens {
        out.push('/');
        if !token.bytes().any(|b| b == b'~' || b == b'/') {
            out.push_str(token);
            continue;
        }
        for c in token.chars() {
            match c {
                '~' => out.push_str("~0"),
                '/' => out.push_str("~1"),
                c => out.push(c),
            }
        }
    }
    out
}

/// Appends an array index to a JSON pointer.
pub(crate) fn push_index(pointer: &str, i: usize) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(pointer.len() + 4);
    out.push_str(pointer);
    let _ = write!(out, "/{i}");
    out
}

/// The last token of a pointer (or of a reference such as `#/$defs/a~1b`), unescaped (RFC
/// 6901): the name a definition is known by (`a/b`); the whole text when it has no `/`.
pub(crate) fn last_token(pointer: &str) -> String {
    let last = pointer.rsplit('/').next().unwrap_or(pointer);
    last.replace("~1", "/").replace("~0", "~")
}

/// Decodes `%XX` escapes in a URI fragment; `None` if an escape is malformed.
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The value at the JSON pointer `p` (RFC 6901, without `#`) in `root`, as
/// [`Value::pointer`] finds it, without allocating for tokens that need no unescaping.
pub(crate) fn get<'v>(root: &'v Value, p: &str) -> Option<&'v Value> {
    if p.is_empty() {
        return Some(root);
    }
    let rest = p.strip_prefix('/')?;
    let mut v = root;
    // (each token found by one pass over its bytes, which also notes a `~` to unescape: no
    // searcher set up per token)
    let bytes = rest.as_bytes();
    let mut start = 0;
    loop {
        let (mut end, mut tilde) = (start, false);
        while let Some(&b) = bytes.get(end).filter(|&&b| b != b'/') {
            tilde |= b == b'~';
            end += 1;
        }
        let token = &rest[start..end];
        let unescaped;
        let token = if tilde {
            unescaped = token.replace("~1", "/").replace("~0", "~");
            unescaped.as_str()
        } else {
            token
        };
        v = match v {
            // (searched, not hashed, in a map of a few keys: `SmallMap`)
            Value::Object(m) => m.fget(token)?,
            Value::Array(a) => {
                if token.len() > 1 && token.starts_with('0') || token.starts_with('+') {
                    return None;
                }
                a.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
        if end == bytes.len() {
            return Some(v);
        }
        start = end + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_defs_and_root() {
        let doc = json!({"$defs": {"a/b": {"type": "string"}, "N": {"type": "null"}}});
        assert_eq!(resolve(&doc, "#"), Some(&doc));
        assert_eq!(resolve(&doc, "#/$defs/N"), Some(&json!({"type": "null"})));
        assert_eq!(
            resolve(&doc, "#/$defs/a~1b"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(resolve(&doc, "#/$defs/missing"), None);
        assert_eq!(resolve(&doc, "other.json#/x"), None);
    }

    /// `get` finds what `Value::pointer` finds (escapes, indices, empty keys, misses).
    #[test]
    fn get_agrees_with_serde() {
        let doc = json!({"a/b": {"~x": [1, {"": 2}]}, "": {"0": 3}, "l": [4, 5]});
        for p in [
            "",
            "/a~1b",
            "/a~1b/~0x",
            "/a~1b/~0x/1",
            "/a~1b/~0x/1/",
            "/",
            "//0",
            "/l/0",
            "/l/1",
            "/l/01",
            "/l/+1",
            "/l/2",
            "/l/-1",
            "/missing",
            "a",
            "/a~1b/~0x/0/z",
            "/a~1b/~0x/",
            "//",
            "/~",
            "/a~1b~",
        ] {
            assert_eq!(get(&doc, p), doc.pointer(p), "{p}");
        }
    }

    #[test]
    fn push_escapes() {
        assert_eq!(push("/properties", "a/b~c"), "/properties/a~1b~0c");
    }

    #[test]
    fn last_tokens() {
        assert_eq!(last_token("#/$defs/a~1b~0c"), "a/b~c");
        assert_eq!(last_token("/definitions/Node"), "Node");
        assert_eq!(last_token("#"), "#");
        assert_eq!(last_token("/$defs/"), "");
    }
}
