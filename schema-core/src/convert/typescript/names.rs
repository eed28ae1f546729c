//! Names in the text: property keys (bare when they are identifiers, else quoted) and the alias
//! names of recursive definitions (valid, not reserved, unique).

use super::TsOptions;
use crate::convert::{pointer, SmallMap};
use serde_json::Value;

pub(super) fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A property name: bare when it is an identifier, else a quoted string.
pub(super) fn key(name: &str) -> String {
    if is_ident(name) {
        name.to_string()
    } else {
        Value::String(name.to_string()).to_string()
    }
}

/// Names TypeScript reserves or predeclares, which an alias must not take.
const RESERVED: &[&str] = &[
    "any",
    "bigint",
    "boolean",
    "never",
    "null",
    "number",
    "object",
    "string",
    "symbol",
    "undefined",
    "unknown",
    "void",
    "this",
    "true",
    "false",
    "type",
    "interface",
    "Record",
    "Array",
    "Partial",
    "Readonly",
    "Required",
    "Pick",
    "Omit",
    "Object",
    "String",
    "Number",
    "Boolean",
    "Date",
    "Function",
    "Promise",
    "Map",
    "Set",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "return",
    "super",
    "switch",
    "throw",
    "try",
    "typeof",
    "var",
    "while",
    "with",
    "let",
    "yield",
    "keyof",
    "infer",
    "is",
    "asserts",
    "readonly",
    "unique",
    "as",
    "implements",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "await",
];

/// A valid alias name from any text.
pub(super) fn ident(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if RESERVED.contains(&s.as_str()) {
        s.push('_');
    }
    s
}

/// The alias name of a recursive target: its `$defs` key, or for the root the configured root
/// name, its `title` or `Root`; made unique.
pub(super) fn unique_name(
    target: &str,
    root: &Value,
    opts: &TsOptions,
    taken: &std::collections::HashSet<String>,
) -> String {
    let base = if target == "#" {
        opts.root_name
            .clone()
            .or_else(|| {
                root.fget("title")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "Root".to_string())
    } else {
        pointer::last_token(target)
    };
    let base = ident(&base);
    let clash =
        |n: &str| taken.contains(n) || (target != "#" && opts.root_name.as_deref() == Some(n));
    if !clash(&base) {
        return base;
    }
    (2..)
        .map(|i| format!("{base}{i}"))
        .find(|n| !clash(n))
        .unwrap_or(base)
}
