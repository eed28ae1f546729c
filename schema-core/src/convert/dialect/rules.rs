//! The provider rule table of `DESIGN.md`, as data: what each dialect does with each keyword.

use crate::Dialect;

/// What to do with a constraint keyword in a dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// The dialect enforces it: keep it.
    Keep,
    /// The dialect cannot carry it: move it into `description` as `@keyword value`.
    Tag,
}

/// The most `maxLength` / `minLength` LM Studio (llama.cpp grammars) keeps: larger repetition
/// counts blow up the grammar.
pub(crate) const LMSTUDIO_MAX_LENGTH: u64 = 1000;

/// The string formats a dialect enforces.
pub(crate) fn formats(d: Dialect) -> &'static [&'static str] {
    const OPENAI: &[&str] = &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    const ANTHROPIC: &[&str] = &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
        "uri",
    ];
    match d {
        Dialect::OpenAi => OPENAI,
        Dialect::Anthropic => ANTHROPIC,
        Dialect::Gemini => &["date-time", "date", "time"],
        Dialect::LmStudio => &["date", "time", "date-time", "uuid"],
        Dialect::JsonSchema => &[],
    }
}

/// Formats that only describe a number's machine width (`format: "double"` on every `f64`
/// breaks llama.cpp grammars): dropped everywhere.
pub(crate) fn is_numeric_format(f: &str) -> bool {
    matches!(
        f,
        "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "float"
            | "double"
            | "decimal"
    )
}

/// `minLength` / `maxLength`.
pub(crate) fn length(d: Dialect, value: &serde_json::Value) -> Action {
    match d {
        Dialect::LmStudio if value.as_u64().is_some_and(|n| n <= LMSTUDIO_MAX_LENGTH) => {
            Action::Keep
        }
        Dialect::JsonSchema => Action::Keep,
        _ => Action::Tag,
    }
}

/// `pattern`, given whether it sits inside array items.
pub(crate) fn pattern(d: Dialect, pattern: &str, in_items: bool) -> Action {
    match d {
        Dialect::OpenAi | Dialect::JsonSchema => Action::Keep,
        Dialect::Anthropic if is_simple_pattern(pattern) => Action::Keep,
        Dialect::LmStudio if !in_items => Action::Keep,
        _ => Action::Tag,
    }
}

/// `minimum` / `maximum` (`exclusive` for the exclusive forms, `multipleOf` counted as exclusive
/// too: Gemini keeps only plain bounds).
pub(crate) fn numeric(d: Dialect, integer: bool, plain_bound: bool) -> Action {
    match d {
        Dialect::OpenAi | Dialect::JsonSchema => Action::Keep,
        Dialect::Anthropic => Action::Tag,
        Dialect::Gemini if plain_bound => Action::Keep,
        Dialect::Gemini => Action::Tag,
        Dialect::LmStudio if integer => Action::Keep,
        Dialect::LmStudio => Action::Tag,
    }
}

/// `minItems` (Anthropic keeps only 0 and 1).
pub(crate) fn min_items(d: Dialect, n: Option<u64>) -> Action {
    match d {
        Dialect::Anthropic if n.is_some_and(|n| n <= 1) => Action::Keep,
        Dialect::Anthropic => Action::Tag,
        _ => Action::Keep,
    }
}

/// `maxItems`.
pub(crate) fn max_items(d: Dialect) -> Action {
    match d {
        Dialect::Anthropic => Action::Tag,
        _ => Action::Keep,
    }
}

/// Whether every object must be closed with `additionalProperties: false`.
pub(crate) fn must_close(d: Dialect) -> bool {
    matches!(d, Dialect::OpenAi | Dialect::Anthropic)
}

/// Whether optional properties become required and nullable.
pub(crate) fn all_required(d: Dialect) -> bool {
    d == Dialect::OpenAi
}

/// Whether `$ref`-recursion is allowed.
pub(crate) fn allows_recursion(d: Dialect) -> bool {
    d != Dialect::Anthropic
}

/// Whether tuples (`prefixItems`) can be expressed (Gemini's `responseJsonSchema` lists
/// `prefixItems` among its supported keywords).
pub(crate) fn allows_tuples(d: Dialect) -> bool {
    matches!(d, Dialect::LmStudio | Dialect::JsonSchema | Dialect::Gemini)
}

/// Whether shared non-recursive types may stay in `$defs` (LM Studio: nested refs are fragile).
pub(crate) fn allows_shared_defs(d: Dialect) -> bool {
    d != Dialect::LmStudio
}

/// Whether `const` is honoured (Gemini ignores it: it becomes a one-value `enum`).
pub(crate) fn keeps_const(d: Dialect) -> bool {
    d != Dialect::Gemini
}

/// Anthropic's "simple" patterns: no lookaround, no backreferences, no word boundaries.
pub(crate) fn is_simple_pattern(p: &str) -> bool {
    if ["(?=", "(?!", "(?<=", "(?<!", "\\k<"]
        .iter()
        .any(|s| p.contains(s))
    {
        return false;
    }
    let bytes = p.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'\\' {
            let next = bytes[i + 1];
            if next == b'b' || next == b'B' || next.is_ascii_digit() && next != b'0' {
                return false;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_patterns() {
        assert!(is_simple_pattern("^[a-z]+\\d{2}$"));
        assert!(is_simple_pattern("a\\\\b"));
        assert!(!is_simple_pattern("^(?!x)"));
        assert!(!is_simple_pattern("\\bword"));
        assert!(!is_simple_pattern("(a)\\1"));
    }
}
